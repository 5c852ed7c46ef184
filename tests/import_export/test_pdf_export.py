"""``export FILE pdf DEST`` (issue 16, item 6): a one-page summary that a real PDF reader
(pypdf) opens, in the language asked for, written by a CLI process that has to start Qt on
its own (offscreen); the format's module does not load Qt before it draws."""

from __future__ import annotations

import subprocess
import sys
import unicodedata
from pathlib import Path

import pytest
from pypdf import PdfReader

from rag_annotator.import_export import registry
from rag_annotator.import_export.sample import create_sample
from rag_annotator.reports.words import EN, FR
from tests.helpers import run_cli


@pytest.fixture
def sample(goldset_path: Path) -> Path:
    create_sample(goldset_path, assessor="alice").close()
    return goldset_path


def _text(path: Path) -> tuple[int, str]:
    reader = PdfReader(path)
    text = unicodedata.normalize("NFKC", reader.pages[0].extract_text())
    return len(reader.pages), " ".join(text.split())


@pytest.mark.parametrize(("locale", "words", "absent"), [("fr", FR, EN), ("en", EN, FR)])
def test_one_page_in_the_language_asked(sample: Path, tmp_path: Path, locale: str,
                                        words: dict[str, str], absent: dict[str, str],
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("QT_QPA_PLATFORM", raising=False)  # the CLI chooses offscreen itself
    dest = tmp_path / "résumé.pdf"
    done = run_cli("export", str(sample), "pdf", str(dest), "--locale", locale)
    assert done.returncode == 0, done.stderr
    pages, text = _text(dest)
    assert pages == 1
    for key in ("what_tested", "headline", "all_families", "tested", "validated",
                "unreviewed"):
        assert words[key] in text, key
    assert "Politique RH" in text and "bm25-gpt4o-v1" in text
    assert absent["headline"] not in text
    assert [p.name for p in tmp_path.iterdir() if p.suffix == ".pdf"] == [dest.name]


def test_a_bad_destination_is_one_line(sample: Path, tmp_path: Path) -> None:
    done = run_cli("export", str(sample), "pdf", str(tmp_path / "missing" / "r.pdf"))
    assert done.returncode == 2
    assert done.stderr.startswith("error: ") and "does not exist" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


def test_the_format_loads_qt_only_to_draw() -> None:
    assert "pdf" in registry.EXPORTS
    code = ("import sys\n"
            "from rag_annotator.import_export import registry\n"
            "registry.exporter('pdf')\n"
            "print([m for m in sys.modules if m.startswith('PySide6')])\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=False)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"
