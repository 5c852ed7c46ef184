"""Render packaging/icons/rag-annotator.svg to the PNG (and, with Pillow, ICO/ICNS) files.

    QT_QPA_PLATFORM=offscreen python packaging/make_icons.py

The SVG is the source; the PNGs are committed so a build needs neither this script nor Pillow
on Linux.  Windows (.ico) and macOS (.icns) icons are written when Pillow is installed.
"""

# ruff: noqa: TID251  (a build script, not the app: the app rule does not apply)
from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication, QImage, QPainter
from PySide6.QtSvg import QSvgRenderer

ICONS = Path(__file__).resolve().parent / "icons"
SIZES = (16, 32, 48, 64, 128, 256, 512)


def render(svg: Path, size: int) -> QImage:
    renderer = QSvgRenderer(str(svg))
    if not renderer.isValid():
        raise SystemExit(f"{svg}: not a valid SVG")
    image = QImage(size, size, QImage.Format.Format_ARGB32)
    image.fill(Qt.GlobalColor.transparent)
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    renderer.render(painter)
    painter.end()
    return image


def main() -> int:
    _app = QGuiApplication(sys.argv[:1])
    svg = ICONS / "rag-annotator.svg"
    render(svg, 256).save(str(ICONS / "rag-annotator.png"))
    try:
        from PIL import Image
    except ImportError:
        print("Pillow not installed: no .ico/.icns written", file=sys.stderr)
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        big_png = Path(tmp) / "icon-512.png"
        render(svg, 512).save(str(big_png))
        big = Image.open(big_png)
        big.save(ICONS / "rag-annotator.ico", sizes=[(s, s) for s in SIZES if s <= 256])
        big.save(ICONS / "rag-annotator.icns")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
