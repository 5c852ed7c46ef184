"""The Import dialog on a folder of the expert's documents: its report says what became of
every file (the ones not imported first, with their reason), in English and in French."""

from __future__ import annotations

import shutil
from pathlib import Path

from rag_annotator.ui.exchange.import_dialog import ImportDialog
from rag_annotator.ui.main_window import MainWindow
from tests.ui.driving import open_window

DATA = Path(__file__).parents[1] / "data" / "documents"
NAMES = ("bookmark_sample.pdf", "scanned-ocr_test.pdf",
         "encrypted-libreoffice-writer-password.pdf", "unit_test_headers.docx")


def _folder(tmp_path: Path) -> Path:
    folder = tmp_path / "dossier"
    folder.mkdir()
    for name in NAMES:
        shutil.copy(DATA / name, folder / name)
    return folder


def _run(qtbot, window: MainWindow, folder: Path) -> ImportDialog:  # type: ignore[no-untyped-def]
    dialog = ImportDialog(window.ctx, "corpus", folder, window)
    qtbot.addWidget(dialog)
    dialog.start()
    qtbot.waitUntil(lambda: dialog.report is not None or dialog.error is not None,
                    timeout=20000)
    assert dialog.error is None
    return dialog


def test_the_dialog_lists_every_file_and_why_some_were_not_imported(
        qtbot, window: MainWindow, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    dialog = _run(qtbot, window, _folder(tmp_path))
    assert "2 document(s) added" in dialog.outcome.text()
    assert "2 files not imported: the list below says why." in dialog.outcome.text()
    assert not dialog.files.isHidden() and dialog.grid.isHidden()
    lines = dialog.files.toPlainText().splitlines()
    assert len(lines) == len(NAMES)  # every file, none silently
    assert lines[0].startswith("encrypted-libreoffice-writer-password.pdf: not imported — "
                               "encrypted: the PDF opens only with a password")
    assert lines[1].startswith("scanned-ocr_test.pdf: not imported — no text on its pages")
    assert sorted(lines[2:]) == ["bookmark_sample.pdf: added", "unit_test_headers.docx: added"]
    assert window.undo.stack.count() == 1


def test_the_dialog_report_in_french(qtbot, rich, goldset_path: Path, french: None,  # type: ignore[no-untyped-def]
                                     tmp_path: Path) -> None:
    from rag_annotator.messages import set_language

    set_language("fr")
    try:
        window = open_window(qtbot, goldset_path)
        dialog = _run(qtbot, window, _folder(tmp_path))
        assert "2 fichiers non importés : la liste ci-dessous dit pourquoi." in \
            dialog.outcome.text()
        lines = dialog.files.toPlainText().splitlines()
        assert lines[0].startswith("encrypted-libreoffice-writer-password.pdf : non importé — "
                                   "chiffré : le PDF ne s’ouvre qu’avec un mot de passe")
        assert "bookmark_sample.pdf : ajouté" in lines
    finally:
        set_language(None)
