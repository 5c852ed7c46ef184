"""``export FILE pdf DEST``: the manager's page on one A4 page that a real PDF reader (pypdf,
pdftotext) opens, in the language asked for — no text under 8 pt, no code and no English
word on the French page — written by a CLI process that has to start Qt on its own
(offscreen); the format's module does not load Qt before it draws."""

from __future__ import annotations

import math
import re
import shutil
import subprocess
import sys
import unicodedata
from enum import Enum
from pathlib import Path

import pytest
from pypdf import PdfReader

from rag_annotator.import_export import registry
from rag_annotator.import_export.sample import create_sample
from rag_annotator.reports.manager_words import EN, FR
from rag_annotator.storage.store import GoldSetStore
from tests.helpers import run_cli


@pytest.fixture
def sample(goldset_path: Path) -> Path:
    create_sample(goldset_path, assessor="alice").close()
    return goldset_path


def _text(path: Path) -> tuple[int, str]:
    reader = PdfReader(path)
    text = unicodedata.normalize("NFKC", reader.pages[0].extract_text())
    return len(reader.pages), " ".join(text.split())


def _export(sample: Path, dest: Path, locale: str) -> Path:
    done = run_cli("export", str(sample), "pdf", str(dest), "--locale", locale)
    assert done.returncode == 0, done.stderr
    return dest


@pytest.mark.parametrize(("locale", "words", "absent"), [("fr", FR, EN), ("en", EN, FR)])
def test_one_page_in_the_language_asked(sample: Path, tmp_path: Path, locale: str,
                                        words: dict[str, str], absent: dict[str, str],
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("QT_QPA_PLATFORM", raising=False)  # the CLI chooses offscreen itself
    dest = _export(sample, tmp_path / "résumé.pdf", locale)
    pages, text = _text(dest)
    assert pages == 1
    for key in ("tested", "pending", "h_success", "h_found", "details"):
        assert words[key].split("{")[0].strip() in text, key
    assert words["headlines"].format(run="hybride-mistral-v2") in text
    assert "Politique RH" in text and "bm25-gpt4o-v1" in text
    assert absent["tested"] not in text
    assert [p.name for p in tmp_path.iterdir() if p.suffix == ".pdf"] == [dest.name]
    box = PdfReader(dest).pages[0].mediabox  # A4 portrait, in points
    assert (round(float(box.width)), round(float(box.height))) == (595, 842)


def font_sizes(path: Path) -> list[tuple[float, str]]:
    """Every piece of text of the first page with its size as printed, in points: the
    font size times the text and transformation matrices' vertical scale."""
    sizes: list[tuple[float, str]] = []

    def visit(text: str, cm: list[float], tm: list[float], _font: object,
              size: float) -> None:
        if text.strip():
            scale = math.hypot(tm[2], tm[3]) * math.hypot(cm[2], cm[3])
            sizes.append((size * scale, text))

    PdfReader(path).pages[0].extract_text(visitor_text=visit)
    return sizes


@pytest.mark.parametrize("locale", ["fr", "en"])
def test_no_text_under_8_points(sample: Path, tmp_path: Path, locale: str) -> None:
    sizes = font_sizes(_export(sample, tmp_path / "m.pdf", locale))
    assert len(sizes) > 20  # the page's texts were read
    smallest = min(sizes)
    assert smallest[0] >= 8.0 - 1e-6, smallest
    assert max(sizes)[0] >= 14  # the title and the headline figures stand out


def _pdftotext(path: Path) -> str:
    tool = shutil.which("pdftotext")
    if tool is None:
        return unicodedata.normalize("NFKC", PdfReader(path).pages[0].extract_text())
    done = subprocess.run([tool, "-layout", str(path), "-"], capture_output=True,
                          text=True, check=True)
    return unicodedata.normalize("NFKC", done.stdout)


def _user_words(path: Path) -> set[str]:
    """What the gold set itself names (its name, runs, versions, judges, file name):
    written by its users, in their words; left out of the check."""
    with GoldSetStore.open(path, read_only=True) as store:
        texts = [store.meta("name") or "", path.name,
                 *(str(v or "") for r in store.runs_summary()
                   for v in (r["name"], r["model"], r["corpus_version"], r["index_version"],
                             r["prompt_version"])),
                 *(str(r["judge"]) for r in store.review_samples())]
    return {w.casefold() for t in texts for w in WORD.findall(t)}


WORD = re.compile(r"[^\W\d_][\w'’@-]*")


def _english_words() -> set[str]:
    """Words of the English catalogues that the French ones never use, every code the file
    stores, and the measures' names."""
    from rag_annotator.domain import enums
    from rag_annotator.metrics.retrieval import DEFAULT_MEASURES
    from rag_annotator.reports import manager_words, words

    def words_of(catalogues: list[dict[str, str]]) -> set[str]:
        return {w.casefold() for c in catalogues for t in c.values()
                for w in WORD.findall(t.replace("{", " ").replace("}", " "))}

    english = words_of([words.EN, manager_words.EN]) - words_of([words.FR, manager_words.FR])
    codes = {v.casefold() for name in dir(enums)
             if isinstance(kind := getattr(enums, name), type) and issubclass(kind, Enum)
             for v in (m.value for m in kind) if isinstance(v, str)}
    return english | codes | {m.casefold() for m in (*DEFAULT_MEASURES, "Success@10")} | {
        "the", "of", "and", "between", "reviewed", "answered", "tested", "trec", "ppi"}


def test_the_french_page_has_no_code_and_no_english_word(sample: Path,
                                                         tmp_path: Path) -> None:
    path = _export(sample, tmp_path / "m.pdf", "fr")
    text = _pdftotext(path)
    assert "Chiffres clés" in text  # the page was read
    ours = [w for w in WORD.findall(text) if w.casefold() not in _user_words(sample)]
    english = _english_words()
    assert len(english) > 100  # a real list: the catalogues' words and the codes
    found = sorted({w for w in ours if w.casefold() in english or "_" in w or "@" in w})
    assert not found, found


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
