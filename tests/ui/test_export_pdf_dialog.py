"""The export dialog offers the one-page PDF summary and words it in the interface's
language (issue 16, item 6); pypdf reads it back."""

from __future__ import annotations

import unicodedata
from pathlib import Path

import pytest
from pypdf import PdfReader

from rag_annotator.import_export.sample import create_sample
from rag_annotator.reports.words import FR
from tests.ui.test_export_dialog import _dialog, _run

pytestmark = pytest.mark.gui


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
    reader = PdfReader(dest)
    assert len(reader.pages) == 1
    text = " ".join(unicodedata.normalize("NFKC", reader.pages[0].extract_text()).split())
    assert FR["headline"] in text and FR["unreviewed"] in text
