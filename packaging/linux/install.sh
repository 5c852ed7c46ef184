#!/usr/bin/env bash
# Install a built bundle for the current user (or system-wide with PREFIX=/usr/local, as root)
# with its desktop integration: menu entry, icon, the .goldset file type, AppStream data.
#
#   bash packaging/linux/install.sh [BUNDLE_DIR]     # default: build/dist/rag-annotator
#
# Files go under $PREFIX (default ~/.local): lib/rag-annotator/ (the bundle), bin/rag-annotator
# (a symlink), share/applications, share/mime/packages, share/icons/hicolor, share/metainfo.
# Uninstall: rm -rf those files, then run the same update-* commands.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
bundle=${1:-"$root/build/dist/rag-annotator"}
prefix=${PREFIX:-"$HOME/.local"}
share="$prefix/share"

if [ ! -x "$bundle/rag-annotator" ]; then
  echo "no bundle at $bundle: run packaging/build.sh first" >&2
  exit 1
fi
mkdir -p "$prefix/lib" "$prefix/bin" "$share/applications" "$share/mime/packages" \
  "$share/icons/hicolor/scalable/apps" "$share/icons/hicolor/256x256/apps" "$share/metainfo"
rm -rf "$prefix/lib/rag-annotator"
cp -a "$bundle" "$prefix/lib/rag-annotator"
ln -sfn "$prefix/lib/rag-annotator/rag-annotator" "$prefix/bin/rag-annotator"
# Exec= names the installed binary by its full path: ~/.local/bin is not always on PATH.
sed -e "s|^Exec=rag-annotator |Exec=\"$prefix/bin/rag-annotator\" |" \
    -e "s|^TryExec=rag-annotator$|TryExec=$prefix/bin/rag-annotator|" \
    "$here/rag-annotator.desktop" > "$share/applications/rag-annotator.desktop"
cp "$here/rag-annotator-mime.xml" "$share/mime/packages/rag-annotator.xml"
cp "$here/org.ragannotator.RagAnnotator.metainfo.xml" "$share/metainfo/"
cp "$here/../icons/rag-annotator.svg" "$share/icons/hicolor/scalable/apps/rag-annotator.svg"
cp "$here/../icons/rag-annotator.png" "$share/icons/hicolor/256x256/apps/rag-annotator.png"
# Refresh the caches when the tools are there (a desktop picks the changes up either way at
# the next login).
if command -v update-mime-database >/dev/null; then update-mime-database "$share/mime"; fi
if command -v update-desktop-database >/dev/null; then
  update-desktop-database "$share/applications"
fi
if command -v gtk-update-icon-cache >/dev/null; then
  gtk-update-icon-cache -q -t "$share/icons/hicolor" || true
fi
echo "installed: $prefix/bin/rag-annotator"
