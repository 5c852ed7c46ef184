"""Issue 20, findings 4 and 5 and the long warning lists: tiny inputs with huge costs,
symlinks in the user's folders, a forged merge file with many bad rows.

Real files: a real workbook with one cell at XFD1048576, a real workbook whose cells share
one 4 MB string, a real CSV without an id column, real links made with ``os.symlink``.
"""

from __future__ import annotations

import base64
import json
import os
import random
import shutil
import sqlite3
import subprocess
import sys
import zipfile
from contextlib import closing
from pathlib import Path

import openpyxl
import pytest

from rag_annotator.domain import operations as ops
from rag_annotator.domain.goldset_ops import case_keys_after, next_case_key
from rag_annotator.import_export.sample import create_sample
from rag_annotator.storage.store import GoldSetStore
from tests.helpers import rows, run_cli, sha256, stderr_lines

SECRET = "root:x:0:0:SECRET-OUTSIDE-THE-FOLDER\n"


@pytest.fixture
def empty(goldset_path: Path) -> Path:
    GoldSetStore.create(goldset_path, assessor="alice").close()
    return goldset_path


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    """A file the user can read, outside any folder an import is given (/etc/passwd)."""
    secret = tmp_path / "elsewhere" / "passwd"
    secret.parent.mkdir()
    secret.write_text(SECRET, encoding="utf-8")
    return secret


def one_error_line(result: subprocess.CompletedProcess[str]) -> str:
    """The CLI refused: exit 2, one ``error:`` line, no traceback."""
    lines = stderr_lines(result)
    assert result.returncode == 2, result.stderr[-3000:]
    assert len(lines) == 1 and lines[0].startswith("error: "), lines[:5]
    assert "Traceback" not in result.stderr
    return lines[0]


def texts_of(goldset: Path) -> list[str]:
    return [t for (t,) in rows(goldset, "SELECT text FROM documents")]


# -- finding 4a: one cell at XFD1048576 -------------------------------------------------------
_MEASURED = """
import resource, sys
limit = 1536 * 1024 ** 2
resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
from rag_annotator.cli import main
def peak_kib():
    # VmHWM is this process image's own peak. ru_maxrss is not: Linux carries into it the
    # resident size of the process that spawned us (pytest, hundreds of MB late in a run).
    try:
        with open("/proc/self/status") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
try:
    code = main(sys.argv[2:])
finally:
    with open(sys.argv[1], "w") as out:
        out.write(str(peak_kib()))
sys.exit(code)
"""


def measured_cli(tmp_path: Path, *args: str) -> tuple[subprocess.CompletedProcess[str], float]:
    """The CLI in a process limited to 1.5 GB of address space: its result and peak MB."""
    maxrss = tmp_path / "maxrss"
    result = subprocess.run(
        [sys.executable, "-c", _MEASURED, str(maxrss), *args], capture_output=True,
        text=True, timeout=300, env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"})
    return result, int(maxrss.read_text()) / 1024


@pytest.mark.parametrize("fmt", ["cases", "xlsx"])
def test_a_workbook_declaring_a_far_away_cell_is_read_by_the_cells_that_exist(
        empty: Path, tmp_path: Path, fmt: str) -> None:
    workbook = tmp_path / "far.xlsx"
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "cases"  # the manager workbook's sheet (the xlsx import)
    ws.append(["Question", "Réponse attendue"])
    ws.append(["Combien de livres?", "Cinq"])
    ws.append(["Puis-je renouveler?", "Oui"])
    ws["XFD1048576"] = "far away"
    wb.save(workbook)
    assert workbook.stat().st_size < 10_000

    result, peak_mb = measured_cli(tmp_path, "import", str(empty), fmt, str(workbook))

    # Before: 17 billion cells padded from the declared dimension, a MemoryError traceback.
    assert "Traceback" not in result.stderr and "MemoryError" not in result.stderr
    assert peak_mb < 400, f"peak {peak_mb:.0f} MB"
    if fmt == "xlsx":  # not the header the export writes: refused, and quickly
        assert "the header has no column" in one_error_line(result)
    elif result.returncode == 0:  # the real cells imported, the far one reported
        assert sorted(q for (q,) in rows(empty, "SELECT question FROM cases")) == [
            "Combien de livres?", "Puis-je renouveler?"]
    else:
        assert "1048576" in one_error_line(result)


def test_a_csv_header_of_a_million_columns_over_short_rows_is_refused(
        empty: Path, tmp_path: Path) -> None:
    source = tmp_path / "wide.csv"
    # 1 MB of header and 8 KB of rows: padding each row to the header asked for 4 billion
    # cells (32 GB of pointers).
    source.write_text("Question" + ";" * 1_000_000 + "Fin\n" + "x\n" * 4_000,
                      encoding="utf-8")

    result, peak_mb = measured_cli(tmp_path, "import", str(empty), "cases", str(source))

    # Before: a MemoryError traceback.
    line = one_error_line(result)
    assert "4,000 rows of 1,000,001 columns" in line and peak_mb < 600, (line, peak_mb)


# -- finding 4b: cells sharing one 4 MB string ------------------------------------------------
_CONTENT_TYPES = (
    '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/'
    'package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.'
    'openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType='
    '"application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.'
    'openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/'
    'worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.'
    'spreadsheetml.worksheet+xml"/><Override PartName="/xl/sharedStrings.xml" ContentType='
    '"application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/></Types>')
_REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
_PKG_REL = "http://schemas.openxmlformats.org/package/2006/relationships"
_MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"


def shared_string_workbook(path: Path, title: str, shared: list[str],
                           table: list[list[int]]) -> None:
    """A workbook written by hand (openpyxl cuts cells to 32,767 characters and writes no
    shared strings): every cell of ``table`` is an index into ``shared``."""
    cells = "".join(
        f'<row r="{r}">' + "".join(f'<c r="{chr(65 + c)}{r}" t="s"><v>{index}</v></c>'
                                   for c, index in enumerate(row)) + "</row>"
        for r, row in enumerate(table, start=1))
    strings = "".join(f"<si><t>{text}</t></si>" for text in shared)
    parts = {
        "[Content_Types].xml": _CONTENT_TYPES,
        "_rels/.rels": f'<Relationships xmlns="{_PKG_REL}"><Relationship Id="rId1" Type='
                       f'"{_REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>',
        "xl/workbook.xml": f'<workbook xmlns="{_MAIN}" xmlns:r="{_REL}"><sheets><sheet name='
                           f'"{title}" sheetId="1" r:id="rId1"/></sheets></workbook>',
        "xl/_rels/workbook.xml.rels":
            f'<Relationships xmlns="{_PKG_REL}"><Relationship Id="rId1" Type="{_REL}/'
            'worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type='
            f'"{_REL}/sharedStrings" Target="sharedStrings.xml"/></Relationships>',
        "xl/worksheets/sheet1.xml": f'<worksheet xmlns="{_MAIN}"><sheetData>{cells}'
                                    "</sheetData></worksheet>",
        "xl/sharedStrings.xml": f'<sst xmlns="{_MAIN}">{strings}</sst>',
    }
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, text in parts.items():
            archive.writestr(name, text)


@pytest.mark.parametrize("fmt", ["cases", "xlsx"])
def test_shared_text_past_the_size_limit_is_refused_naming_sheet_and_row(
        empty: Path, tmp_path: Path, fmt: str) -> None:
    big = base64.b64encode(random.Random(20).randbytes(3 * 1024**2)).decode()  # 4 MB
    workbook = tmp_path / "shared.xlsx"
    questions = [f"Question {i}?" for i in range(1, 31)]
    # 30 rows pointing at the same 4 MB answer: 120 MB of text, stored once in the file.
    title = "Cas" if fmt == "cases" else "cases"
    shared_string_workbook(workbook, title, ["Question", "Réponse attendue", big, *questions],
                           [[0, 1], *([3 + i, 2] for i in range(30))])
    assert workbook.stat().st_size < 4 * 1024**2

    line = one_error_line(run_cli("import", str(empty), fmt, str(workbook), timeout=300))

    # Before: imported; the gold set held 30 copies of the string (120 MB from a 3 MB file).
    assert str(workbook) in line and f"sheet '{title}', row 17" in line, line
    assert rows(empty, "SELECT count(*) FROM cases") == [(0,)]


# -- finding 4c: case keys for a CSV without an id column -------------------------------------
def test_case_keys_of_a_csv_without_id_column_are_allocated_in_one_pass(
        empty: Path, tmp_path: Path) -> None:
    n = 60_000  # quadratic before: ~15 minutes (10k rows took 29 s); linear: seconds
    source = tmp_path / "questions.csv"
    source.write_text("Question\n" + "".join(f"Question numéro {i}?\n" for i in range(n)),
                      encoding="utf-8")
    with GoldSetStore.open(empty) as store:
        ops.create_case(store, key="Q0007", question="Déjà là?")

    result = run_cli("import", str(empty), "cases", str(source), timeout=240)

    assert result.returncode == 0, result.stderr
    keys = [k for (k,) in rows(empty, "SELECT key FROM cases ORDER BY id")]
    assert len(keys) == len(set(keys)) == n + 1
    # After the largest Q-number in use, zero-padded like it: Q0008, Q0009…, Q60007.
    assert keys[1:4] == ["Q0008", "Q0009", "Q0010"] and keys[-1] == f"Q{n + 7}"


def test_the_key_allocator_gives_what_next_case_key_gives_one_by_one() -> None:
    for existing in ([], ["Q1", "Q07", "x", "Q"], ["GEN098", "GEN099"], ["Q99"]):
        for prefix, width in (("Q", 2), ("GEN", 3)):
            used = set(existing)
            expected = []
            for _ in range(5):
                expected.append(next_case_key(used, prefix, width))
                used.add(expected[-1])
            fresh = case_keys_after(existing, prefix, width)
            assert [next(fresh) for _ in range(5)] == expected


# -- finding 5: links in the user's folders ---------------------------------------------------
def test_a_corpus_folder_link_out_of_the_folder_refuses_the_import(
        empty: Path, tmp_path: Path, outside: Path) -> None:
    folder = tmp_path / "corpus"
    (folder / "rh").mkdir(parents=True)
    (folder / "rh" / "conges.md").write_text("# Congés\nVingt-cinq jours.", encoding="utf-8")
    os.symlink(outside, folder / "passwd.txt")
    digest = sha256(empty)

    line = one_error_line(run_cli("import", str(empty), "corpus", str(folder)))

    # Before: passwd.txt imported, /etc/passwd stored as a document.
    assert str(folder / "passwd.txt") in line and "outside the folder" in line
    assert sha256(empty) == digest and texts_of(empty) == []

    # A link to a folder outside, deeper down, is refused the same way.
    (folder / "passwd.txt").unlink()
    os.symlink(outside.parent, folder / "rh" / "etc")
    line = one_error_line(run_cli("import", str(empty), "corpus", str(folder)))
    assert str(folder / "rh" / "etc") in line and sha256(empty) == digest


def test_a_corpus_folder_link_inside_is_skipped_with_a_note(empty: Path,
                                                            tmp_path: Path) -> None:
    folder = tmp_path / "corpus"
    (folder / "rh").mkdir(parents=True)
    (folder / "rh" / "conges.md").write_text("# Congés\nVingt-cinq jours.", encoding="utf-8")
    os.symlink(folder / "rh" / "conges.md", folder / "copie.md")
    os.symlink(folder, folder / "rh" / "boucle")  # a loop back to the top

    result = run_cli("import", str(empty), "corpus", str(folder))

    assert result.returncode == 0, result.stderr
    assert [k for (k,) in rows(empty, "SELECT key FROM documents")] == ["rh/conges"]
    warning = [line for line in stderr_lines(result) if "link" in line]
    assert len(warning) == 1 and "copie.md" in warning[0] and "rh/boucle" in warning[0]


def _beir_folder(folder: Path) -> Path:
    (folder / "qrels").mkdir(parents=True)
    (folder / "corpus.jsonl").write_text(json.dumps({"_id": "d1", "title": "T", "text": "x"})
                                         + "\n", encoding="utf-8")
    (folder / "queries.jsonl").write_text(json.dumps({"_id": "q1", "text": "Quoi?"}) + "\n",
                                          encoding="utf-8")
    (folder / "qrels" / "test.tsv").write_text("query-id\tcorpus-id\tscore\nq1\td1\t1\n",
                                               encoding="utf-8")
    return folder


@pytest.mark.parametrize("member", ["corpus.jsonl", "queries.jsonl", "qrels/test.tsv",
                                    "qrels"])
def test_a_beir_folder_whose_file_links_outside_is_refused(empty: Path, tmp_path: Path,
                                                           member: str) -> None:
    folder = _beir_folder(tmp_path / "beir")
    stolen = tmp_path / "stolen"
    shutil.copytree(folder, stolen)  # a valid BEIR file, but not in the folder given
    target = folder / member
    shutil.rmtree(target) if target.is_dir() else target.unlink()
    os.symlink(stolen / member, target)
    digest = sha256(empty)

    line = one_error_line(run_cli("import", str(empty), "beir", str(folder)))

    # Before: the file outside was read and imported.
    assert str(target) in line and "outside the folder" in line
    assert sha256(empty) == digest


def test_a_beir_file_linking_inside_the_folder_is_read_with_a_note(empty: Path,
                                                                   tmp_path: Path) -> None:
    folder = _beir_folder(tmp_path / "beir")
    (folder / "data").mkdir()
    (folder / "corpus.jsonl").rename(folder / "data" / "corpus.jsonl")
    os.symlink(Path("data") / "corpus.jsonl", folder / "corpus.jsonl")

    result = run_cli("import", str(empty), "beir", str(folder))

    assert result.returncode == 0, result.stderr
    assert texts_of(empty) == ["x"]
    assert any("corpus.jsonl is a link to data/corpus.jsonl" in line
               for line in stderr_lines(result))


def test_a_csv_folder_whose_file_links_outside_is_refused(empty: Path, tmp_path: Path,
                                                          outside: Path) -> None:
    sample = tmp_path / "sample.goldset"
    create_sample(sample, assessor="alice").close()
    folder = tmp_path / "csv"
    assert run_cli("export", str(sample), "csv", str(folder)).returncode == 0
    (folder / "documents.csv").unlink()
    os.symlink(outside, folder / "documents.csv")
    digest = sha256(empty)

    line = one_error_line(run_cli("import", str(empty), "csv", str(folder)))

    assert str(folder / "documents.csv") in line and "outside the folder" in line
    assert sha256(empty) == digest


def test_a_folder_export_never_writes_through_a_planted_link(tmp_path: Path,
                                                             outside: Path) -> None:
    """The folder is built under a fresh temporary name and renamed into place: a link
    planted at the destination (or at a file inside it) is never written through."""
    sample = tmp_path / "sample.goldset"
    create_sample(sample, assessor="alice").close()
    for fmt in ("csv", "beir"):
        planted = tmp_path / f"planted-{fmt}"
        planted.mkdir()
        os.symlink(outside, planted / "corpus.jsonl")
        os.symlink(outside, planted / "cases.csv")
        result = run_cli("export", str(sample), fmt, str(planted))
        assert one_error_line(result) and outside.read_text(encoding="utf-8") == SECRET
        dest_link = tmp_path / f"link-{fmt}"
        os.symlink(outside, dest_link)  # a link to a file, at the destination itself
        result = run_cli("export", str(sample), fmt, str(dest_link))
        assert one_error_line(result) and outside.read_text(encoding="utf-8") == SECRET
        assert dest_link.is_symlink()


# -- leftover: a forged merge file with many bad rows ------------------------------------------
def test_a_merge_with_many_skipped_rows_prints_a_count_and_the_first_few(
        tmp_path: Path) -> None:
    mine, forged = tmp_path / "mine.goldset", tmp_path / "forged.goldset"
    create_sample(mine, assessor="Alice").close()
    shutil.copyfile(mine, forged)
    with closing(sqlite3.connect(forged, isolation_level=None)) as conn:
        conn.execute("UPDATE judgments SET updated_at = 'zzzz not a date'")
        skipped = conn.execute("SELECT count(*) FROM judgments").fetchone()[0]
    assert skipped > 30

    result = run_cli("merge", str(mine), str(forged))

    assert result.returncode == 0 and "Traceback" not in result.stderr
    lines = [line for line in stderr_lines(result) if line.startswith("warning: skipped")]
    # Before: one line per skipped row.
    assert len(lines) == 21, len(lines)
    assert lines[-1] == (f"warning: skipped … and {skipped - 20:,} more ({skipped:,} in "
                         "all)")
    assert f"{skipped} skipped" in result.stdout


def test_dangling_links_in_a_corpus_folder(empty: Path, tmp_path: Path) -> None:
    """Judged by where they would lead: out of the folder refused, inside skipped."""
    folder = tmp_path / "corpus"
    folder.mkdir()
    (folder / "a.md").write_text("# A\nTexte.", encoding="utf-8")
    os.symlink(tmp_path / "elsewhere" / "later.md", folder / "b.md")

    line = one_error_line(run_cli("import", str(empty), "corpus", str(folder)))

    assert str(folder / "b.md") in line and "outside the folder" in line
    assert texts_of(empty) == []
    (folder / "b.md").unlink()
    os.symlink(folder / "parti.md", folder / "b.md")
    result = run_cli("import", str(empty), "corpus", str(folder))
    assert result.returncode == 0 and texts_of(empty) == ["# A\nTexte."]
    assert "link(s) inside the folder skipped" in result.stderr and "b.md" in result.stderr
