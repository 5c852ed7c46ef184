"""View → Appearance: the system's look, light, dark or high contrast, applied to the open
window at once (palette, banners, coloured texts already rendered), saved in the settings and
applied again by the next window."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QApplication

from rag_annotator.app import create_main_window
from rag_annotator.import_export.sample import create_sample
from rag_annotator.paths import app_paths
from rag_annotator.settings import Settings
from rag_annotator.storage.store import GoldSetStore
from rag_annotator.ui.look import colours
from rag_annotator.ui.look.appearance import apply_appearance
from rag_annotator.ui.main_window import MainWindow
from rag_annotator.ui.verify.section import VerifySection
from tests.ui.driving import open_window

pytestmark = pytest.mark.gui


@pytest.fixture
def system_look_after() -> Iterator[None]:
    """The look is the application's: put the system's back for the next tests."""
    yield
    apply_appearance("system")


def window_colour() -> str:
    return QApplication.palette().color(QPalette.ColorRole.Window).name()


def saved() -> str:
    return str(json.loads(app_paths().settings_file.read_text(encoding="utf-8"))["appearance"])


def test_each_look_applies_live_and_is_saved(qtbot, tmp_path: Path, english: None,  # type: ignore[no-untyped-def]
                                             system_look_after: None) -> None:
    path = tmp_path / "s.goldset"
    create_sample(path, assessor="Claire", with_judge=False).close()
    window = open_window(qtbot, path, assessor="Claire")
    system = window_colour()
    style = QApplication.style().name()
    window.show_section(4)  # Verify: its answer is rich text coloured when rendered
    verify = window.sections[4]
    assert isinstance(verify, VerifySection)
    qtbot.waitUntil(lambda: not verify.queue_pending)
    light_marker = colours.ROLES["marker"][0].bg
    assert light_marker is not None and light_marker in verify.answer_view.toHtml()
    banner = window.read_only_banner  # as a read-only file shows it
    banner.setVisible(True)

    def banner_colours() -> tuple[str, str]:
        palette = banner.palette()
        return (palette.color(QPalette.ColorRole.Window).name(),
                palette.color(QPalette.ColorRole.WindowText).name())

    window.commands["view.appearance.dark"].trigger()
    assert colours.is_dark() and QApplication.style().name().lower() == "fusion"
    assert saved() == "dark" and window.commands["view.appearance.dark"].isChecked()
    dark_marker = colours.ROLES["marker"][1].bg
    assert dark_marker is not None
    qtbot.waitUntil(lambda: dark_marker in verify.answer_view.toHtml())  # rendered again
    assert light_marker not in verify.answer_view.toHtml()
    dark = colours.ROLES["alert_banner"][1]
    qtbot.waitUntil(lambda: banner_colours() == (dark.bg, dark.fg))

    window.commands["view.appearance.high_contrast"].trigger()
    assert colours.high_contrast() and not colours.is_dark()
    assert saved() == "high_contrast"
    # fills give way to the palette's own text on base: the word carries the state
    qtbot.waitUntil(lambda: banner_colours() == ("#ffffff", "#000000"))
    qtbot.waitUntil(lambda: dark_marker not in verify.answer_view.toHtml())

    banner.setVisible(False)  # a hidden banner takes the new look when shown again
    window.commands["view.appearance.light"].trigger()
    assert not colours.is_dark() and not colours.high_contrast()
    banner.setVisible(True)
    light = colours.ROLES["alert_banner"][0]
    qtbot.waitUntil(lambda: banner_colours() == (light.bg, light.fg))
    window.commands["view.appearance.system"].trigger()
    assert window_colour() == system and QApplication.style().name() == style
    assert saved() == "system"
    window.close()


def test_the_saved_look_is_applied_by_the_next_window(qtbot, rich, goldset_path: Path,  # type: ignore[no-untyped-def]
                                                      english: None,
                                                      system_look_after: None) -> None:
    settings = Settings(assessor="alice", appearance="dark")
    window = create_main_window(GoldSetStore.open(goldset_path, assessor="alice"), settings,
                                paths=app_paths())
    qtbot.addWidget(window)
    assert colours.is_dark()
    assert window.commands["view.appearance.dark"].isChecked()
    assert not window.commands["view.appearance.system"].isChecked()
    window.close()


def test_a_bad_look_in_the_settings_file_falls_back(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    path.write_text(json.dumps({"appearance": "neon", "welcomed": "yes"}), encoding="utf-8")
    settings = Settings.load(path)
    assert settings.appearance == "system" and settings.welcomed is False


def test_the_appearance_menu_lists_the_four_looks(window: MainWindow) -> None:
    view = next(m for m in window.menuBar().findChildren(type(window.recent_menu))
                if m.title() == "&Appearance")
    assert [a.text() for a in view.actions()] == ["System Look", "Light", "Dark",
                                                  "High Contrast"]


def test_high_contrast_palette_reaches_aaa(qapp) -> None:  # type: ignore[no-untyped-def]
    """7:1 for every pair of text and its background, the disabled text included."""
    palette = colours.high_contrast_palette()
    role = QPalette.ColorRole
    pairs = [(role.WindowText, role.Window), (role.Text, role.Base),
             (role.Text, role.AlternateBase), (role.ButtonText, role.Button),
             (role.HighlightedText, role.Highlight), (role.Link, role.Base),
             (role.PlaceholderText, role.Base)]
    for text, back in pairs:
        assert colours.contrast(palette.color(text), palette.color(back)) >= 7.0, (text, back)
    disabled = palette.color(QPalette.ColorGroup.Disabled, role.Text)
    assert colours.contrast(disabled, palette.color(role.Base)) >= 7.0


def test_the_judge_highlight_follows_the_look(qtbot, window: MainWindow,  # type: ignore[no-untyped-def]
                                              system_look_after: None) -> None:
    """The question's words in the document: highlighted in the dark variant once dark."""
    from tests.ui.driving import judge_on_case

    judge = judge_on_case(qtbot, window, "Q1")
    light = colours.ROLES["highlight"][0].bg
    assert judge.highlighter.term_format.background().color().name() == light
    window.commands["view.appearance.dark"].trigger()
    dark = colours.ROLES["highlight"][1].bg
    qtbot.waitUntil(lambda: judge.highlighter.term_format.background().color().name() == dark)
