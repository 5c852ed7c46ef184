"""Accessible names and descriptions of the widgets, declared in one table (issue 21).

A screen reader says a widget's accessible name when it gets the focus.  Qt finds one on its
own for a button (its text) or a field whose form label is its buddy; everything else — the
tables, lists, search fields, text views, the fields laid out without a label — gets its name
here, keyed by the class that owns the widget and the attribute that holds it.  Keeping the
table in one module keeps the sections' code free of it and lets a test check that every
entry still points at a widget (``missing``).  Names are English source texts of the
``AccessibleNames`` context, translated when applied.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import shiboken6
from PySide6.QtCore import QCoreApplication, QObject
from PySide6.QtWidgets import QAbstractSpinBox, QApplication, QComboBox, QWidget

from rag_annotator.ui.i18n import QT_TRANSLATE_NOOP

N = QT_TRANSLATE_NOOP  # short, for the table below


def _n(text: str) -> str:
    return N("AccessibleNames", text)


#: class name (prefixed by its wing, "verify.", where two wings share it) → the attribute
#: holding the widget → (name, description or "").
NAMES: dict[str, dict[str, tuple[str, str]]] = {
    "MainWindow": {
        "nav": (_n("Sections"), _n("The eight sections; Ctrl+1 to Ctrl+8 go to each.")),
    },
    # -- sections
    "GoldSetSection": {
        "family": (_n("Filter by family"), ""),
        "status": (_n("Filter by status"), ""),
        "tag": (_n("Filter by tag"), ""),
        "search": (_n("Search cases"), ""),
        "table": (_n("Case list"), _n("The selected case is edited beside the list.")),
    },
    "CaseEditor": {
        "kind": (_n("Kind of case"), ""),
        "expected_behaviour": (_n("Expected behaviour"), ""),
        "family": (_n("Family"), ""),
        "difficulty": (_n("Difficulty"), ""),
        "status": (_n("Status"), ""),
        "sources": (_n("Expected sources"), _n("Ctrl+Shift+O adds a source; Del removes it.")),
        "fields_area": (_n("Case fields"), ""),
    },
    "CorpusSection": {
        "status": (_n("Filter by status"), ""),
        "doc_status": (_n("Document status"), ""),
        "tabs": (_n("Corpus views"), ""),
        "search": (_n("Search documents"), ""),
        "table": (_n("Document list"), ""),
        "text": (_n("Document text"), ""),
        "text_finder": (_n("Find in the document's text"), ""),
    },
    "RightsMatrixView": {
        "identity_combo": (_n("Test identity shown"), ""),
        "search": (_n("Filter documents"), ""),
        "table": (_n("Rights matrix"),
                  _n("Documents by test identity; Space allows or forbids the cell.")),
    },
    "RunsSection": {"table": (_n("Run list"), "")},
    "JudgeSection": {
        "cases": (_n("Cases to judge"), ""),
        "pairs": (_n("Pairs of the case"),
                  _n("1 relevant, 0 not relevant, U unjudged; J and K move between pairs.")),
        "guidelines": (_n("Judging guidelines"), ""),
        "document": (_n("Document being judged"),
                     _n("The question's terms are highlighted and underlined.")),
        "note": (_n("Note on the pair"), ""),
    },
    "VerifySection": {
        "tabs": (_n("Verify views"), ""),
        "claim_tabs": (_n("Claim views"), ""),
        "answers_table": (_n("Answer list"), ""),
        "case_view": (_n("The case: question and reference"), ""),
        "answer_view": (_n("Answer with its claims"),
                        _n("Each claim is shaded by its verdict; the current one is bold "
                           "and underlined.")),
        "claims_table": (_n("Claims"), _n("Each claim with its verdict in words.")),
        "claim_text": (_n("Claim text"), ""),
        "rationale": (_n("Rationale"), ""),
        "context_view": (_n("Retrieved context"),
                         _n("The claim's evidence is highlighted and underlined.")),
        "citations_table": (_n("Citations"), ""),
        "review_table": (_n("Review list"), ""),
    },
    "DocumentViewer": {
        "page_view": (_n("Page of the document"),
                      _n("The passage in question is highlighted; Shift and the arrow keys "
                         "select words; PgDown and PgUp turn the pages; F7 shows the text.")),
    },
    "verify.StructuredPanel": {
        "tree": (_n("Fields of the structured answer"),
                 _n("Each field shows its outcome as a symbol and a word.")),
        "passage": (_n("Justifying passage"), ""),
    },
    "DashboardSection": {
        "run_combo": (_n("Run"), ""),
        "policy_combo": (_n("Unjudged documents"), ""),
        "other_combo": (_n("Compare to"), ""),
        "level_combo": (_n("Interval level"), ""),
        "cases": (_n("Cases behind the figure"), ""),
        "figures_area": (_n("Dashboard figures"), ""),
    },
    "dashboard.RetrievalPanel": {
        "measure_combo": (_n("Measure for the bars and the distribution"), ""),
    },
    "dashboard.ComparisonPanel": {"family_combo": (_n("Family"), "")},
    "dashboard.DriftPanel": {"baseline_combo": (_n("Baseline run"), ""),
                             "family_combo": (_n("Family"), "")},
    "HistorySection": {
        "table": (_n("History of changes"), ""),
        "detail": (_n("Details of the change"), ""),
    },
    "AgentsSection": {
        "run": (_n("Run"), ""),
        "search": (_n("Search trajectories by case key"), ""),
        "table": (_n("Trajectory list"), ""),
        "steps_table": (_n("Steps"), _n("A step that broke a check says which.")),
        "step_detail": (_n("Step details"), ""),
        "checks_table": (_n("Checks"), _n("Each check with its result in words.")),
        "state_table": (_n("Final state"), ""),
        "answer": (_n("Final answer"), ""),
    },
    # -- dialogs
    "CheatSheetDialog": {"browser": (_n("Keyboard shortcuts"), "")},
    "CrashDialog": {"details": (_n("Technical details"), "")},
    "CoverageDialog": {"grid": (_n("Coverage grid"),
                                _n("Cases by family and tag; empty and thin cells are "
                                   "shaded."))},
    "ReviewQueueDialog": {"table": (_n("Cases to review"), ""),
                          "detail": (_n("The case under review"), "")},
    "SourceDialog": {"search": (_n("Search documents"), ""),
                     "table": (_n("Document list"), ""),
                     "text": (_n("Document text"), ""),
                     "note": (_n("Note on the source"), "")},
    "ContractDialog": {"editor": (_n("Output contract (JSON)"), "")},
    "ReleasesDialog": {"table": (_n("Releases"), ""), "changelog": (_n("Changelog"), "")},
    "BulkEditDialog": {"add_tags": (_n("Tags to add"), ""),
                       "remove_tags": (_n("Tags to remove"), "")},
    "ReplayDialog": {"answers_table": (_n("Answers affected"), ""),
                     "figures_table": (_n("Figures before and after"), "")},
    "RunDialog": {"notes": (_n("Run notes"), "")},
    "RunImportDialog": {"path": (_n("Run file"), ""), "name": (_n("Run name"), "")},
    "ExportDialog": {"dest": (_n("Destination file"), ""), "format": (_n("Format"), ""),
                     "release": (_n("Content to export"), "")},
    "ImportDialog": {"grid": (_n("Preview of the rows"), "")},
    "RestoreDialog": {"table": (_n("Backups"), "")},
    "CalibrationDialog": {"table": (_n("Calibration cases"), "")},
    "PoolDialog": {"runs": (_n("Runs pooled"), "")},
    "GuidelinesDialog": {"editor": (_n("Guidelines (Markdown)"), ""),
                         "preview": (_n("Preview"), "")},
    "LineDialog": {"field": (_n("Text"), "")},
    "HandOutDialog": {"names": (_n("Assessors"), ""), "folder": (_n("Folder"), "")},
}


def tr(text: str) -> str:
    """Translate a source text of the ``AccessibleNames`` context."""
    return QCoreApplication.translate("AccessibleNames", text) if text else ""


def internal(widget: QWidget) -> bool:
    """A part of a composite widget that the composite names (a spin box's or an editable
    combo box's line edit)."""
    parent = widget.parentWidget()
    return isinstance(parent, (QAbstractSpinBox, QComboBox))


#: What :data:`NAMES` declares for each class met so far, its bases' entries included (a
#: window holds hundreds of widgets of a few dozen classes).
_DECLARED: dict[type, list[tuple[str, tuple[str, str]]]] = {}


def _declared(owner: QObject) -> list[tuple[str, tuple[str, str]]]:
    kind = type(owner)
    found = _DECLARED.get(kind)
    if found is None:
        found = _DECLARED[kind] = []
        for cls in kind.__mro__:
            wing = cls.__module__.split(".")[-2] if cls.__module__.count(".") >= 2 else ""
            found += NAMES.get(f"{wing}.{cls.__name__}", NAMES.get(cls.__name__, {})).items()
    return found


def _widgets(owner: QObject, attribute: str) -> list[QWidget]:
    """``owner.attribute``, if it holds a widget."""
    widget = getattr(owner, attribute, None)
    return [widget] if isinstance(widget, QWidget) else []


def _owners(root: QWidget) -> list[Any]:
    """``root`` and the declared widgets under it, found through the attributes of our own
    widget classes (every declared class keeps its parts, and its declared children, in
    attributes).  Walking Qt's widget tree instead (``findChildren``) made PySide wrap every
    widget of the window in a Python object and set up each Qt class on first sight: 34
    million instructions, ~7 ms of the start-up, to find about ten owners.
    ``tests/ui/test_accessible_names.py`` checks that both walks find the same owners."""
    found: list[Any] = [root]
    seen = {id(root)}
    queue: list[Any] = [root]
    while queue:
        for value in _held(queue.pop()):
            if id(value) in seen or not shiboken6.isValid(value):
                continue
            seen.add(id(value))
            if not root.isAncestorOf(value):
                continue
            queue.append(value)
            if _declared(value):
                found.append(value)
    return found


def _held(owner: Any) -> Iterator[QWidget]:
    """The widgets of our own classes that ``owner`` holds in its attributes, directly or in
    a list, tuple or dict (Qt's own widgets hold none of ours)."""
    for value in vars(owner).values():
        items = (value.values() if isinstance(value, dict)
                 else value if isinstance(value, (list, tuple)) else (value,))
        for item in items:
            if isinstance(item, QWidget) and type(item).__module__.startswith(_OURS):
                yield item


_OURS = __name__.split(".")[0] + "."


def apply(root: QWidget) -> None:
    """Name the widgets of ``root`` and of every declared class found under it."""
    for owner in _owners(root):
        for attribute, (name, description) in _declared(owner):
            for widget in _widgets(owner, attribute):
                widget.setAccessibleName(tr(name))
                if description:
                    widget.setAccessibleDescription(tr(description))


def missing(root: QWidget) -> list[str]:
    """Declared attributes that hold no widget (a renamed attribute: the table is stale)."""
    return [f"{type(owner).__name__}.{attribute}" for owner in _owners(root)
            for attribute, _ in _declared(owner)
            if not _widgets(owner, attribute)]


def _on_focus(_old: QWidget | None, new: QWidget | None) -> None:
    """Name a window's widgets when the focus first enters it (a dialog, a section's window):
    a focus change is rare, unlike an application-wide event filter that every event of the
    app would go through."""
    window = new.window() if new is not None else None
    if window is not None and not window.property("accessibleNamesApplied"):
        window.setProperty("accessibleNamesApplied", True)
        apply(window)


def install(window: QWidget) -> None:
    """Name ``window``'s own widgets and name every other window (dialogs) when the focus
    first enters it (once per application).  Sections are named when built
    (``MainWindow._build_section`` calls :func:`apply`)."""
    apply(window)
    window.setProperty("accessibleNamesApplied", True)
    app = QCoreApplication.instance()
    if isinstance(app, QApplication) and app.property("accessibleNamer") is None:
        app.focusChanged.connect(_on_focus)
        app.setProperty("accessibleNamer", True)
