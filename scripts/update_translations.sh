#!/bin/sh
# Re-extract the UI's strings into the .ts files, then build the .qm files the app loads.
#
# French: every string (fill new entries in Qt Linguist or by hand, then run this again).
# English is the source language; its file only holds plural forms ("%n case(s)" -> "1 case",
# "2 cases"), so it is made with -pluralonly.  Needs pyside6-lupdate / pyside6-lrelease
# (installed with PySide6).
set -eu
cd "$(dirname "$0")/.."
DIR=rag_annotator/resources/translations
# The UI, plus the one registry of history action titles (Qt-free, marked for lupdate).
SOURCES="$(find rag_annotator/ui -name '*.py' | sort) rag_annotator/domain/action_names.py"
pyside6-lupdate -no-obsolete -locations none $SOURCES rag_annotator/app.py \
    -ts "$DIR/rag_annotator_fr.ts"
pyside6-lupdate -no-obsolete -locations none -pluralonly $SOURCES rag_annotator/app.py \
    -ts "$DIR/rag_annotator_en.ts"
for lang in fr en; do
    pyside6-lrelease "$DIR/rag_annotator_$lang.ts" -qm "$DIR/rag_annotator_$lang.qm"
done
