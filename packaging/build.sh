#!/usr/bin/env bash
# Build the one-folder Linux bundle of rag-annotator from a checkout.
#
#   bash packaging/build.sh            # -> build/dist/rag-annotator/rag-annotator
#
# Creates its own venv under build/venv (reused on the next run), installs the project and
# PyInstaller into it, builds with packaging/rag-annotator.spec, and prints the path of the
# built executable on its LAST line (all other output goes to stderr).
# PYTHON=python3.12 picks the interpreter the bundle is built with (default: python3).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build="$root/build"
venv="$build/venv"
python=${PYTHON:-python3}
pyinstaller_req=${PYINSTALLER_REQ:-"pyinstaller>=6.10,<7"}

{
  mkdir -p "$build"
  if [ ! -x "$venv/bin/python" ]; then
    "$python" -m venv "$venv"
  fi
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check \
    "$root" "$pyinstaller_req"
  # pip's in-tree build leaves build/lib and build/bdist.*: not ours, remove them.
  rm -rf "$build/lib" "$build/bdist."*
  "$venv/bin/python" -m PyInstaller --noconfirm --clean --log-level WARN \
    --distpath "$build/dist" --workpath "$build/pyinstaller" \
    "$root/packaging/rag-annotator.spec"
} 1>&2

exe="$build/dist/rag-annotator/rag-annotator"
if [ ! -x "$exe" ]; then
  echo "build failed: $exe was not produced" >&2
  exit 1
fi
echo "$exe"
