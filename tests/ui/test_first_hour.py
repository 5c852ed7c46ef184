"""An expert's first hour: a first start that welcomes and asks nothing, the sample opened
on an ordinary question, the name asked by the first change that records it, new files and
exports proposed in the documents folder (never the app's data folder), and Qt's own file
dialog in French."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QAbstractButton, QApplication, QFileDialog, QLabel

from rag_annotator.app import create_main_window, run_gui
from rag_annotator.import_export.sample import create_sample
from rag_annotator.paths import app_paths, documents_folder, user_folder
from rag_annotator.settings import Settings
from rag_annotator.storage.store import GoldSetStore
from rag_annotator.ui.main_window import MainWindow
from tests.ui.driving import ModalCatcher, judge_on_case, run_and_inspect

pytestmark = pytest.mark.gui



def test_first_start_welcomes_asks_nothing_and_opens_the_sample_on_a_question(
        qtbot, hooks_restored: None, modals: ModalCatcher,  # type: ignore[no-untyped-def]
        monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[object] = []
    monkeypatch.setattr("rag_annotator.ui.dialogs.ask_assessor",
                        lambda *args, **kwargs: asked.append(args) or None)
    seen: dict[str, object] = {}

    def check(window: MainWindow) -> None:
        goldset = window.sections[0]
        case = goldset.model.row_at(goldset.table.currentIndex().row()) or {}
        seen.update(path=window.store.path if window.store else None,
                    welcome=window.welcome.isVisibleTo(window),
                    text=window.welcome.text.text(), case=case.get("key"),
                    kind=window.store.case_kinds_of([case["id"]]) if window.store else None,
                    assessor=window.assessor_label.text(), modal=QApplication.activeModalWidget())

    run_and_inspect(modals, check, ready=lambda w: w.store is not None
                    and w.sections[0].table.currentIndex().isValid())
    assert run_gui(None, None) == 0
    assert asked == [] and seen["modal"] is None  # nothing asked before the window
    assert seen["path"] == app_paths().sample_file.resolve()
    assert seen["welcome"] is True
    assert "F1" in str(seen["text"]) and "sample" in str(seen["text"])
    assert seen["case"] == "Q01"  # an ordinary question, not the agent case A01
    assert list(dict(seen["kind"]).values()) == ["rag"]  # type: ignore[call-overload]
    assert "asked at your first change" in str(seen["assessor"])
    assert Settings.load(app_paths().settings_file).assessor == ""


def _nameless_window(qtbot, path: Path) -> MainWindow:  # type: ignore[no-untyped-def]
    store = GoldSetStore.open(path, assessor="")
    window = create_main_window(store, Settings(), paths=app_paths())
    qtbot.addWidget(window)
    window.show()
    qtbot.waitExposed(window)
    qtbot.waitUntil(lambda: window.progress.complete, timeout=5000)
    return window


def _judgments(path: Path) -> list[tuple[str, int]]:
    with sqlite3.connect(path) as conn:
        return conn.execute("SELECT a.name, j.grade FROM judgments j JOIN assessors a "
                            "ON a.id = j.assessor_id JOIN cases c ON c.id = j.case_id "
                            "WHERE c.key = 'Q07' ORDER BY a.name").fetchall()


def test_the_first_judgment_asks_the_name_and_keeps_it(  # type: ignore[no-untyped-def]
        qtbot, tmp_path: Path, english: None, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "s.goldset"
    create_sample(path, assessor="Claire Dubois").close()
    before = _judgments(path)
    answers = [None, "Marie"]  # cancelled once, then given
    asked: list[bool] = []

    def ask(_parent: object, _current: str = "", *, first: bool = False) -> str | None:
        asked.append(first)
        return answers.pop(0)

    monkeypatch.setattr("rag_annotator.ui.dialogs.ask_assessor", ask)
    window = _nameless_window(qtbot, path)
    judge = judge_on_case(qtbot, window, "Q07")
    qtbot.keyClick(judge.pairs, Qt.Key.Key_1)
    assert asked == [True] and _judgments(path) == before  # no name: nothing recorded
    assert "Nothing was recorded" in window.statusBar().currentMessage()
    qtbot.keyClick(judge.pairs, Qt.Key.Key_1)
    assert asked == [True, True]
    assert ("Marie", 1) in _judgments(path)
    assert window.store is not None and window.store.assessor == "Marie"
    assert Settings.load(app_paths().settings_file).assessor == "Marie"
    qtbot.keyClick(judge.pairs, Qt.Key.Key_0)  # named now: never asked again
    assert asked == [True, True]
    window.close()


def test_the_welcome_closes_for_good(qtbot, rich, goldset_path: Path, english: None) -> None:  # type: ignore[no-untyped-def]
    window = _nameless_window(qtbot, goldset_path)
    window.welcome.show_welcome()
    assert window.welcome.isVisibleTo(window)
    assert "sample" not in window.welcome.text.text()  # not the sample: not said to be
    window.welcome.close_button.click()
    assert not window.welcome.isVisibleTo(window)
    assert Settings.load(app_paths().settings_file).welcomed is True
    window.close()


def test_the_welcome_opens_the_guide(qtbot, rich, goldset_path: Path, english: None) -> None:  # type: ignore[no-untyped-def]
    from rag_annotator.ui.guide.window import GuideWindow

    window = _nameless_window(qtbot, goldset_path)
    window.welcome.show_welcome()
    window.welcome.guide_button.click()
    guides = [w for w in QApplication.topLevelWidgets()
              if isinstance(w, GuideWindow) and w.isVisible()]
    assert guides
    for guide in guides:
        guide.close()
    window.close()


def test_dialogs_start_in_the_documents_folder_not_the_data_folder(  # type: ignore[no-untyped-def]
        qtbot, english: None) -> None:
    """The sample lives in the app's data folder, beside its backups, locks, schema and
    temporary folders: with it open, New, Open, Save a Copy, Export and the hand-out propose
    the documents folder instead."""
    paths = app_paths().ensure()
    sample = paths.sample_file
    create_sample(sample, assessor="x").close()
    documents = documents_folder()
    assert not paths.holds(documents) and paths.holds(sample)
    assert user_folder(sample) == documents
    window = _nameless_window(qtbot, sample)
    assert Path(window.files._start_folder()) == documents
    from rag_annotator.ui.exchange.export_dialog import ExportDialog

    dialog = ExportDialog(window.store.path, window, window.settings)  # type: ignore[union-attr]
    qtbot.addWidget(dialog)
    assert Path(dialog.dest.text()).parent == documents
    # a file of the user's own: its folder, as before
    own = documents / "mine" / "own.goldset"
    own.parent.mkdir()
    assert user_folder(own) == own.parent
    window.close()


def test_an_export_folder_remembered_in_the_data_folder_is_not_proposed(  # type: ignore[no-untyped-def]
        qtbot, english: None) -> None:
    """Before, the export dialog remembered the sample's folder: that old choice is
    passed over."""
    paths = app_paths().ensure()
    create_sample(paths.sample_file, assessor="x").close()
    window = _nameless_window(qtbot, paths.sample_file)
    window.settings.export_choices = {"format": "xlsx", "folder": str(paths.data)}
    from rag_annotator.ui.exchange.export_dialog import ExportDialog

    dialog = ExportDialog(paths.sample_file, window, window.settings)
    qtbot.addWidget(dialog)
    assert Path(dialog.dest.text()).parent == documents_folder()
    window.close()


def _file_dialog_texts(qtbot, mode: QFileDialog.FileMode,  # type: ignore[no-untyped-def]
                       accept: QFileDialog.AcceptMode) -> list[str]:
    """The labels, buttons and tool tips of Qt's own file dialog (the one Qt shows on a
    desktop without a platform dialog)."""
    dialog = QFileDialog()
    dialog.setOption(QFileDialog.Option.DontUseNativeDialog)
    dialog.setFileMode(mode)
    dialog.setAcceptMode(accept)
    qtbot.addWidget(dialog)
    dialog.show()
    texts = [label.text() for label in dialog.findChildren(QLabel)]
    for button in dialog.findChildren(QAbstractButton):
        texts += [button.text(), button.toolTip()]
    QTimer.singleShot(0, dialog.reject)
    return [t for t in texts if t]


@pytest.mark.parametrize("mode, accept", [
    (QFileDialog.FileMode.ExistingFile, QFileDialog.AcceptMode.AcceptOpen),
    (QFileDialog.FileMode.AnyFile, QFileDialog.AcceptMode.AcceptSave),
    (QFileDialog.FileMode.Directory, QFileDialog.AcceptMode.AcceptOpen)])
def test_qt_file_dialog_is_french_in_french(qtbot, french: None, mode, accept) -> None:  # type: ignore[no-untyped-def]
    texts = _file_dialog_texts(qtbot, mode, accept)
    english = ("Look in", "Files of", "File name", "Cancel", "Open", "Save", "Choose",
               "Directory", "Back", "Forward", "Parent", "Detail", "List View")
    assert [t for t in texts if any(word in t.replace("&", "") for word in english)] == []
    assert "&Voir dans\xa0:" in texts


def test_qt_catalogues_are_found_where_pip_puts_them() -> None:
    """The PySide6 wheel's own folder is searched too (Qt may be pointed elsewhere)."""
    import PySide6

    from rag_annotator.ui.i18n import qt_translation_folders

    wheel = Path(PySide6.__file__).parent / "Qt" / "translations"
    folders = qt_translation_folders()
    assert wheel in folders
    assert any((folder / "qtbase_fr.qm").is_file() for folder in folders)


def test_an_import_asks_the_name_first_too(  # type: ignore[no-untyped-def]
        qtbot, tmp_path: Path, english: None, monkeypatch: pytest.MonkeyPatch) -> None:
    """An import writes on a worker thread, its history entry naming who made it: without a
    name it is asked first, and cancelled, nothing starts."""
    path = tmp_path / "s.goldset"
    create_sample(path, assessor="Claire Dubois").close()
    run = tmp_path / "run.txt"
    run.write_text("Q01 Q0 RH-CP-2025 1 2.0 mine\n", encoding="utf-8")
    answers = [None, "Marie"]
    monkeypatch.setattr("rag_annotator.ui.dialogs.ask_assessor",
                        lambda *args, **kwargs: answers.pop(0))
    window = _nameless_window(qtbot, path)
    runs = window.sections[2]
    assert runs.import_run("trec-run", run, "mine") is None and answers == ["Marie"]
    job = runs.import_run("trec-run", run, "mine")
    assert job is not None and answers == []
    qtbot.waitUntil(lambda: job.done, timeout=10000)
    with sqlite3.connect(path) as conn:
        assert conn.execute("SELECT assessor FROM operations WHERE action LIKE 'import%' "
                            "ORDER BY id DESC LIMIT 1").fetchone() == ("Marie",)
    window.close()
