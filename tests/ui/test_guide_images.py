"""The guide's pictures are made here, from the built-in sample, in both languages (issue 21:
"its screenshots are made by the test suite ... so they cannot go stale").

How they stay fresh: every run of this test opens the sample in English and in French, shows
each of the eight sections in a window of a fixed size, grabs it (``QWidget.grab()``,
offscreen) and compares it with the picture in ``resources/guide/<lang>/images/``; a picture
that differs is rewritten there, so a change of the interface reaches the guide at the next
test run (commit the rewritten files with the change; CI can run ``git diff --exit-code
rag_annotator/resources/guide`` after the suite to refuse a forgotten one).  The test then
asserts that each stored picture is the fresh grab, at the fixed size, that every picture a
page shows is one made here, and that the folder holds no picture nobody makes any more.
Pixels are compared, not files: PNG bytes may differ between Qt builds for the same image.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QWidget

from rag_annotator.domain import judging_ops
from rag_annotator.import_export.sample import create_sample
from rag_annotator.storage.store import GoldSetStore
from rag_annotator.ui.dashboard.section import DashboardSection
from rag_annotator.ui.guide.pages import LANGUAGES, SECTION_PAGES, images_folder
from rag_annotator.ui.i18n import install_translations, remove_translations
from rag_annotator.ui.main_window import MainWindow
from tests.ui.driving import open_window

pytestmark = [pytest.mark.gui, pytest.mark.slow]

#: The window size every picture is taken at (wide enough for the sections' lists).
WINDOW_SIZE = (1200, 760)
#: The sample's own assessor, so the pictures show a person's name, not a test's.
ASSESSOR = "Claire Dubois"
PICTURES = (*SECTION_PAGES, "start")
#: How long a section is left to settle (lazy loads, text layout) before it is grabbed.
SETTLE_MS = 200
#: The time every change is recorded at, so the History picture is the same at every run.
FIXED_TIME = "2026-10-23T09:30:00.000Z"


@pytest.fixture(params=LANGUAGES)
def language(request: pytest.FixtureRequest) -> Iterator[str]:
    translators = install_translations(request.param)
    yield request.param
    remove_translations(translators)


def as_image(widget: QWidget) -> QImage:
    """The widget as painted now, in one pixel format (so two grabs compare)."""
    return widget.grab().toImage().convertToFormat(QImage.Format.Format_RGB32)


def store_picture(image: QImage, path: Path) -> bool:
    """Write ``image`` at ``path`` unless the stored one has the same pixels; True if
    written."""
    stored = QImage(str(path))
    if not stored.isNull() and stored.convertToFormat(QImage.Format.Format_RGB32) == image:
        return False
    path.parent.mkdir(parents=True, exist_ok=True)
    assert image.save(str(path), "PNG"), path
    return True


def section_pictures(qtbot, window: MainWindow) -> dict[str, QImage]:  # type: ignore[no-untyped-def]
    """Each section of ``window`` as shown, by page name."""
    pictures = {}
    for index, page in enumerate(SECTION_PAGES):
        window.show_section(index)
        section = window.current_section()
        if isinstance(section, DashboardSection):
            qtbot.waitUntil(lambda s=section: s.figures is not None, timeout=10000)
        qtbot.wait(SETTLE_MS)
        pictures[page] = as_image(section)
    return pictures


def start_picture(qtbot, window: MainWindow, folder: Path) -> QImage:  # type: ignore[no-untyped-def]
    """The window's workspace on a new, empty file: the three first steps."""
    assert window.new_file(folder / "nouveau")
    window.show_section(0)
    qtbot.waitUntil(window.start_steps.isVisible, timeout=5000)
    qtbot.wait(30)
    return as_image(window.centralWidget())


def test_the_guide_pictures_are_the_sample_as_shown_now(qtbot, tmp_path: Path,  # type: ignore[no-untyped-def]
                                                       language: str,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("rag_annotator.storage.store.utc_now", lambda: FIXED_TIME)
    path = tmp_path / "exemple.goldset"
    create_sample(path, assessor=ASSESSOR).close()
    window = open_window(qtbot, path, assessor=ASSESSOR)
    store = window.store
    assert store is not None
    case, document = store.by_key("cases", "Q10")["id"], store.by_key("documents", "RH-DEP-2025")
    window.undo.run(lambda s: judging_ops.set_judgment(  # History shows one judgment
        s, case, int(document["id"]), 1, note="§ 2 : 140 € à Paris."))
    window.resize(*WINDOW_SIZE)
    qtbot.wait(30)
    pictures = section_pictures(qtbot, window)
    pictures["start"] = start_picture(qtbot, window, tmp_path)
    folder = images_folder(language)
    writable = os.access(folder.parent, os.W_OK)
    rewritten = [name for name, image in pictures.items()
                 if writable and store_picture(image, folder / f"{name}.png")]
    print(f"{language}: rewrote {rewritten or 'nothing'}")
    for name, image in pictures.items():
        stored = QImage(str(folder / f"{name}.png"))
        assert not stored.isNull(), name
        assert stored.size() == image.size(), name  # the fixed size, not a leftover
        assert stored.width() >= 800 and stored.height() >= 500, name
        if writable:
            assert stored.convertToFormat(QImage.Format.Format_RGB32) == image, name
    assert {p.stem for p in folder.glob("*.png")} == set(PICTURES)


def test_sample_store_is_closed_cleanly(tmp_path: Path) -> None:
    """The sample the pictures come from still opens (guards the fixture above)."""
    path = tmp_path / "s.goldset"
    create_sample(path).close()
    with GoldSetStore.open(path) as store:
        assert store.count("cases") > 0 and store.count("runs") > 0
