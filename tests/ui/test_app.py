"""``run_gui``: which file opens, the assessor, the language, and the fallback on errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from rag_annotator.app import choose_file, run_gui
from rag_annotator.paths import app_paths
from rag_annotator.settings import Settings
from rag_annotator.ui.i18n import resolve_language
from rag_annotator.ui.main_window import MainWindow
from tests.builders import Rich
from tests.ui.driving import ModalCatcher, run_and_inspect

pytestmark = pytest.mark.gui


def test_a_file_that_cannot_be_opened_leaves_an_empty_window(
        qtbot, hooks_restored: None, modals: ModalCatcher, tmp_path: Path) -> None:
    bad = tmp_path / "broken.goldset"
    bad.write_bytes(b"")
    seen: dict[str, object] = {}
    modals.expect()

    def check(window: MainWindow) -> None:
        seen.update(store=window.store, page=window.pages.currentIndex(),
                    new=window.commands["file.new"].isEnabled(),
                    title=window.windowTitle(), assessor=window.assessor)

    run_and_inspect(modals, check)
    assert run_gui(str(bad), "Test") == 0
    assert "empty" in modals.texts[0]
    assert seen == {"store": None, "page": 0, "new": True, "title": "rag-annotator",
                    "assessor": "Test"}
    assert Settings.load(app_paths().settings_file).assessor == ""  # --assessor not saved


def test_first_start_creates_the_sample_and_remembers_it(
        qtbot, hooks_restored: None, modals: ModalCatcher) -> None:
    """Nothing is asked (the name is asked by the first change: ``test_first_hour.py``)."""
    seen: dict[str, object] = {}

    def check(window: MainWindow) -> None:
        seen.update(path=window.store.path if window.store else None,
                    cases=window.sections[0].model.rowCount())

    run_and_inspect(modals, check, ready=lambda w: w.store is not None)
    assert run_gui(None, None) == 0
    assert modals.titles == []
    assert seen["path"] == app_paths().sample_file.resolve()
    assert seen["cases"] > 10
    settings = Settings.load(app_paths().settings_file)
    assert settings.recent_files == [str(app_paths().sample_file.resolve())]


def test_the_last_file_opens_next_time(rich: Rich, goldset_path: Path, tmp_path: Path) -> None:
    settings = Settings(recent_files=[str(goldset_path), str(tmp_path / "gone.goldset")])
    assert choose_file(None, settings, app_paths()) == goldset_path
    assert choose_file("x.goldset", settings, app_paths()) == Path("x.goldset")
    goldset_path.unlink()
    assert choose_file(None, settings, app_paths()) == app_paths().sample_file


def test_language_choice(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RAG_ANNOTATOR_LANG", "fr")
    assert resolve_language(None, "en") == "fr"
    assert resolve_language("en", "fr") == "en"
    monkeypatch.delenv("RAG_ANNOTATOR_LANG")
    assert resolve_language(None, "fr") == "fr"
    assert resolve_language(None, "system") in ("fr", "en")


def test_an_assignment_file_opens_at_first_start_without_asking_the_name(
        qtbot, hooks_restored: None, modals: ModalCatcher, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """An expert's first start on the file handed to them: no setup, the session is theirs
    (their judgments are the file's assessor's anyway), and nothing is saved as the name of
    whoever uses this computer."""
    from rag_annotator.import_export.sample import create_sample
    from rag_annotator.import_export.team_files import hand_out

    with create_sample(tmp_path / "master.goldset", assessor="lead") as master:
        path = hand_out(master, ["Anne", "Bruno"], 1, tmp_path / "team", seed=1).files["Anne"]
    asked: list[object] = []
    monkeypatch.setattr("rag_annotator.ui.dialogs.ask_assessor",
                        lambda *args: asked.append(args) or "someone")
    seen: dict[str, object] = {}

    def check(window: MainWindow) -> None:
        seen.update(assessor=window.assessor, path=window.store.path if window.store else None)

    run_and_inspect(modals, check, ready=lambda w: w.store is not None)
    assert run_gui(str(path), None) == 0
    assert asked == []
    assert seen == {"assessor": "Anne", "path": path.resolve()}
    assert Settings.load(app_paths().settings_file).assessor == ""
