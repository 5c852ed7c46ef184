"""The export dialog: preview, export on a worker, Cancel, remembered choices."""

from __future__ import annotations

import json
import unicodedata
from pathlib import Path

import pytest
from PySide6.QtCore import Qt

from rag_annotator.import_export.registry import EXPORTS
from rag_annotator.import_export.sample import create_sample
from rag_annotator.reports.words import FR
from rag_annotator.settings import Settings
from rag_annotator.ui.actions import REGISTRY
from rag_annotator.ui.exchange import export_dialog
from rag_annotator.ui.exchange.export_dialog import ExportDialog
from rag_annotator.ui.look import colours
from tests.builders import Rich

pytestmark = pytest.mark.gui


def _dialog(qtbot, goldset_path: Path, settings: Settings | None = None  # type: ignore[no-untyped-def]
            ) -> ExportDialog:
    dialog = ExportDialog(goldset_path, None, settings or Settings())
    qtbot.addWidget(dialog)
    return dialog


def _run(qtbot, dialog: ExportDialog, start) -> None:  # type: ignore[no-untyped-def]
    start()
    assert dialog.wait_done()
    qtbot.waitUntil(lambda: dialog.preview_button.isEnabled(), timeout=10000)


def test_every_format_is_offered_and_registered(qapp) -> None:  # type: ignore[no-untyped-def]
    assert {f[1] for f in export_dialog.FORMATS} <= set(EXPORTS)
    assert any(s.id == "file.export" and s.shortcuts == ("Ctrl+E",) for s in REGISTRY)


def test_preview_counts_rows_and_names_warnings(qtbot, rich: Rich,  # type: ignore[no-untyped-def]
                                                goldset_path: Path) -> None:
    dialog = _dialog(qtbot, goldset_path)
    dialog.set_format("xlsx")
    _run(qtbot, dialog, dialog.start_preview)
    text = dialog.summary.text()
    assert "Judgment: 8" in text and "Case: 3" in text and "Claim: 3" in text
    assert dialog.error is None and not Path(dialog.dest.text()).exists()
    dialog.set_format("ragas")
    _run(qtbot, dialog, dialog.start_preview)
    assert "Choose a run" in dialog.summary.text()


def test_export_writes_file_and_remembers_choices(qtbot, rich: Rich, tmp_path: Path,  # type: ignore[no-untyped-def]
                                                  goldset_path: Path) -> None:
    settings = Settings()
    dialog = _dialog(qtbot, goldset_path, settings)
    dialog.set_format("json")
    out = tmp_path / "exports"
    out.mkdir()
    dialog.dest.setText(str(out / "g.json"))
    dialog.families.item(0).setCheckState(Qt.CheckState.Checked)
    _run(qtbot, dialog, dialog.start_export)
    assert dialog.error is None, dialog.error
    assert json.loads((out / "g.json").read_text("utf-8"))["format"] == "rag_annotator"
    assert dialog.open_button.isVisible() or not dialog.isVisible()
    assert "Export written" in dialog.summary.text()
    saved = settings.export_choices
    assert saved["format"] == "json" and saved["folder"] == str(out)
    family = dialog.families.item(0).data(Qt.ItemDataRole.UserRole)
    assert saved["families"] == [family] == ["ambiguous"]
    again = _dialog(qtbot, goldset_path, settings)
    assert again.choice()[0] == "json"
    assert Path(again.dest.text()).parent == out
    assert again._checked(again.families) == (family,)


def test_csv_excel_with_scope(qtbot, rich: Rich, tmp_path: Path,  # type: ignore[no-untyped-def]
                              goldset_path: Path) -> None:
    dialog = _dialog(qtbot, goldset_path)
    dialog.set_format("csv-excel")
    assert dialog.csv_locale.isEnabled() and not dialog.run.isEnabled()
    dialog.csv_locale.setCurrentIndex(dialog.csv_locale.findData("fr"))
    dialog.runs.item(0).setCheckState(Qt.CheckState.Checked)  # bm25
    dialog.dest.setText(str(tmp_path / "csv"))
    _run(qtbot, dialog, dialog.start_export)
    assert dialog.error is None, dialog.error
    retrieved = (tmp_path / "csv" / "retrieved.csv").read_bytes()
    assert retrieved.startswith(b"\xef\xbb\xbfrun;case;document;rank;score\r\n")
    assert b"dense" not in retrieved and b"bm25" in retrieved


def test_cancel_leaves_no_file(qtbot, rich: Rich, tmp_path: Path,  # type: ignore[no-untyped-def]
                               goldset_path: Path) -> None:
    dialog = _dialog(qtbot, goldset_path)
    dialog.set_format("xlsx")
    dialog.dest.setText(str(tmp_path / "c.xlsx"))
    dialog.start_export()
    assert dialog.worker is not None
    dialog.worker.cancelled.set()  # what Cancel does while it runs
    assert dialog.wait_done()
    qtbot.waitUntil(lambda: dialog.error is not None, timeout=10000)
    assert "cancelled" in dialog.error
    assert not (tmp_path / "c.xlsx").exists()
    assert [p for p in tmp_path.iterdir() if p.name.startswith(".c.xlsx")] == []


def test_errors_are_shown_not_raised(qtbot, rich: Rich, tmp_path: Path,  # type: ignore[no-untyped-def]
                                     goldset_path: Path) -> None:
    dialog = _dialog(qtbot, goldset_path)
    dialog.set_format("trec-run")  # needs a run: none chosen
    dialog.run.setCurrentIndex(0)
    dialog.dest.setText(str(tmp_path / "r.txt"))
    _run(qtbot, dialog, dialog.start_export)
    assert dialog.error is not None and "--run" in dialog.error
    assert colours.css_fg("text_bad") in dialog.summary.text()  # the error colour, and ⚠
    assert "⚠" in dialog.summary.text()


def test_open_folder_uses_desktop_services(qtbot, rich: Rich, tmp_path: Path,  # type: ignore[no-untyped-def]
                                           goldset_path: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    opened = []
    monkeypatch.setattr(export_dialog.QDesktopServices, "openUrl",
                        lambda url: opened.append(url.toLocalFile()))
    dialog = _dialog(qtbot, goldset_path)
    dialog.dest.setText(str(tmp_path / "x.xlsx"))
    dialog.open_folder()
    assert opened == [str(tmp_path)]


def test_preview_warns_about_cells_a_workbook_would_cut(qtbot, tmp_path: Path,  # type: ignore[no-untyped-def]
                                                        goldset_path: Path) -> None:
    from rag_annotator.domain import operations as ops
    from rag_annotator.storage.store import GoldSetStore

    with GoldSetStore.create(goldset_path) as store:
        ops.create_document(store, key="long", text="x" * 40_000)
        ops.create_document(store, key="short", text="x")
    dialog = _dialog(qtbot, goldset_path)
    dialog.set_format("xlsx")
    _run(qtbot, dialog, dialog.start_preview)
    assert "1 rows hold a text longer than a cell holds" in dialog.summary.text()
    dialog.set_format("json")
    _run(qtbot, dialog, dialog.start_preview)
    assert "longer" not in dialog.summary.text()  # JSON keeps everything


def test_the_workbook_summary_follows_the_window_language(qtbot, rich: Rich,  # type: ignore[no-untyped-def]
                                                          goldset_path: Path,
                                                          french: None) -> None:
    """The manager's workbook is worded in the window's language, whatever CSV separator
    was last chosen (that choice is about CSV only)."""
    dialog = _dialog(qtbot, goldset_path)
    dialog.set_format("csv-excel")
    dialog.csv_locale.setCurrentIndex(dialog.csv_locale.findData("en"))
    assert dialog.options().locale == "en"
    dialog.set_format("xlsx")
    assert dialog.options().locale == "fr"


def test_the_dialog_writes_a_french_pdf_under_a_french_interface(
        qtbot, goldset_path: Path, tmp_path: Path, french: None) -> None:  # type: ignore[no-untyped-def]
    create_sample(goldset_path, assessor="alice").close()
    dialog = _dialog(qtbot, goldset_path)
    dialog.set_format("pdf")
    assert dialog.choice()[1] == "pdf" and dialog.options().locale == "fr"
    assert dialog.dest.text().endswith(".pdf")
    dest = tmp_path / "synthese.pdf"
    dialog.dest.setText(str(dest))
    _run(qtbot, dialog, dialog.start_export)
    assert dialog.error is None, dialog.error
    from pypdf import PdfReader

    reader = PdfReader(dest)
    assert len(reader.pages) == 1
    text = " ".join(unicodedata.normalize("NFKC", reader.pages[0].extract_text()).split())
    assert FR["headline"] in text and FR["unreviewed"] in text
