"""Hypothesis fuzzing of every importer in import_export/registry.py IMPORTS.

Bytes → a file with the format's extension → the importer, on a copy of the built-in sample.
Inputs are valid seed files mutated (bytes deleted, inserted, replaced, lines duplicated or
swapped, cut short), raw bytes, and for spreadsheets workbooks of random cells.  The only
exceptions allowed out are KnownError subclasses (a clear message), and when one is raised the
gold-set file is byte-identical to before (same rows, same bytes: nothing half-imported).  An
import that succeeds leaves a file that passes its integrity check and can be undone.

Short mode: EXAMPLES per format and extension, derandomized (the same cases in every CI run);
RAG_ANNOTATOR_LONG=1: 20 times more, random.  Counts are printed at the end.
"""

from __future__ import annotations

import io
import json
import os
import shutil
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rag_annotator.errors import KnownError
from rag_annotator.import_export import registry
from rag_annotator.import_export.sample import create_sample
from rag_annotator.storage.store import GoldSetStore
from tests.helpers import full_dump, sha256
from tests.reliability import workload

pytestmark = pytest.mark.slow
EXAMPLES = int(os.environ.get("RAG_ANNOTATOR_FUZZ_EXAMPLES",
                              "2000" if workload.long_mode() else "100"))
COUNTS: dict[str, Counter[str]] = {}
RUN = "bm25-gpt4o-v1"  # a run of the sample with answers and claims
#: Formats seeded with the sample's own export: (format, extension; "" for a folder).
EXPORTED = [("trec-run", ".txt"), ("qrels", ".txt"), ("json", ".json"), ("csv", ""),
            ("xlsx", ".xlsx"), ("beir", ""), ("deepeval", ".json")]
Seed = bytes | dict[str, bytes]

CASES = ["Q01", "Q02", "Q03", "Q99", ""]
DOCS = ["RH-CP-2025", "RH-ANC-2023", "RH-TT-2024", "INCONNU", ""]


def _jsonl(items: list[dict[str, Any]]) -> bytes:
    return "".join(json.dumps(item, ensure_ascii=False) + "\n" for item in items).encode()


def _xlsx(rows: list[list[Any]]) -> bytes:
    from openpyxl import Workbook

    book = Workbook()
    sheet = book.active
    for row in rows:
        sheet.append(row)
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


CASES_ROWS = [["question", "reference_answer", "family", "tags", "must_contain", "key"],
              ["Combien de jours ?", "25 jours", "ordinary", "rh; congés", "25", "N1"],
              ["Qui valide ?", "Le manager", "sensitive", "", "", "N2"]]
TESTSET_ROWS = [["user_input", "reference", "reference_contexts", "synthesizer_name"],
                ["Combien de jours de congés ?", "25 jours", '["25 jours ouvrés"]', "single"],
                ["Qui valide les congés ?", "Le manager", '["Texte absent."]', "multi"]]


AGENT_LOG: dict[str, Any] = {"case": "A01", "messages": [
    {"role": "user", "content": "Je veux changer d'offre"},
    {"role": "assistant", "content": None, "tool_calls": [
        {"id": "c1", "type": "function",
         "function": {"name": "verifier_identite", "arguments": "{\"client_id\": \"C-42\"}"}}]},
    {"role": "tool", "tool_call_id": "c1", "content": "ok"},
    {"role": "assistant", "content": "Ticket T-981 créé"}],
    "usage": {"total_tokens": 300}, "seconds": 2.5, "cost": 0.002}


def _csv(rows: list[list[Any]]) -> bytes:
    import csv

    out = io.StringIO()
    csv.writer(out).writerows(rows)
    return out.getvalue().encode()


def static_seeds() -> dict[tuple[str, str], bytes]:
    """(format, extension) → a valid file of that format for the sample."""
    return {
        ("jsonl-run", ".jsonl"): _jsonl([
            {"case": "Q01", "retrieved": ["RH-CP-2025", {"document": "RH-ANC-2023",
                                                         "score": 0.5}],
             "answer": "25 jours [1].", "citations": [{"marker": "[1]",
                                                       "document": "RH-CP-2025"}]},
            {"case": "Q02", "contexts": ["Le télétravail est possible deux jours."],
             "answer": "Deux jours."}]),
        ("ragas", ".jsonl"): _jsonl([
            {"user_input": "Combien de jours de congés payés par an ?",
             "retrieved_contexts": ["Chaque salarié acquiert 2,08 jours"],
             "response": "25 jours.", "reference": "25 jours ouvrés"},
            {"user_input": "Nouvelle question ?", "retrieved_contexts": []}]),
        ("cases", ".csv"): _csv(CASES_ROWS),
        ("cases", ".jsonl"): _jsonl([
            {"question": "Combien ?", "key": "N1", "tags": ["a"], "must_contain": ["x"]},
            {"question": "Où ?", "family": "no_answer", "expected_sources": ["RH-CP-2025"]}]),
        ("cases", ".xlsx"): _xlsx(CASES_ROWS),
        ("corpus", ".jsonl"): _jsonl([
            {"_id": "N-1", "title": "Nouveau", "text": "Texte nouveau."},
            {"_id": "RH-CP-2025", "title": "Politique", "text": "Texte révisé."}]),
        ("corpus", ".csv"): _csv([["key", "title", "text"], ["N-1", "Nouveau", "Texte."],
                                  ["N-2", "Autre", "Encore."]]),
        ("ragas-testset", ".jsonl"): _jsonl([
            dict(zip(TESTSET_ROWS[0], r)) for r in TESTSET_ROWS[1:]]),
        ("ragas-testset", ".json"): json.dumps(
            {"samples": [dict(zip(TESTSET_ROWS[0], r)) for r in TESTSET_ROWS[1:]]}).encode(),
        ("ragas-testset", ".csv"): _csv(TESTSET_ROWS),
        ("ragas-testset", ".xlsx"): _xlsx(TESTSET_ROWS),
        ("ragas-verdicts", ".jsonl"): _jsonl([
            {"case": "Q01", "statements": [
                {"statement": "Vous acquérez 2,08 jours ouvrés par mois", "verdict": 1,
                 "reason": "dit"}, {"statement": "Autre", "verdict": 0, "reason": ""}]},
            {"user_input": "Combien de jours de congés payés acquiert-on par an ?",
             "statements": []}]),
        ("deepeval-verdicts", ".json"): json.dumps([
            {"case": "Q01", "claims": ["Vous acquérez 2,08 jours", "Autre"],
             "verdicts": [{"verdict": "yes", "reason": "r"}, {"verdict": "idk"}]},
            {"case": "Q02", "claims": ["x"], "verdicts": [{"verdict": "no"}]},
        ], ensure_ascii=False).encode(),
        ("trajectories", ".jsonl"): _jsonl([
            {"case": "A01", "steps": [
                {"tool": "verifier_identite", "arguments": {"client_id": "C-42"},
                 "result": "ok"},
                {"tool": "modifier_offre", "arguments": {"offre": "fibre_max"}, "result": "ok"}],
             "final_state": {"ticket": {"category": "changement_offre"}}, "answer": "Fait.",
             "tokens": 1200, "seconds": 6.5, "cost": 0.01},
            {"case": "A02", "steps": [], "final_state": None}]),
        ("openai-trajectories", ".jsonl"): _jsonl([AGENT_LOG, {**AGENT_LOG, "case": "A03"}]),
        ("openai-trajectories", ".json"): json.dumps([AGENT_LOG]).encode(),
        ("ragchecker", ".json"): json.dumps({"results": [
            {"query_id": "Q01", "response_claims": [["Vous acquérez", "2,08 jours"], ["x"]],
             "retrieved2response": [["Entailment", "Neutral"], ["Contradiction"]]},
            {"query_id": "Q02", "response_claims": [], "retrieved2response": []}]}).encode(),
        # Real published files (tests/data, with their sources): RAGChecker's example input,
        # and one tau-bench trajectory (the first record of the cut, its trajectory shortened)
        ("ragchecker-run", ".json"): (DATA / "ragchecker" / "checking_inputs.json").read_bytes(),
        ("tau-bench", ".json"): json.dumps([_short_tau(_TAU[0]), _short_tau(_TAU[1])],
                                           ensure_ascii=False).encode(),
    }


DATA = Path(__file__).resolve().parents[1] / "data"
_TAU = json.loads((DATA / "tau_bench" / "gpt-4o-airline-cut.json").read_text(encoding="utf-8"))


def _short_tau(record: dict[str, object]) -> dict[str, object]:
    """A tau-bench record with its first 8 messages (a seed the fuzzer can mutate quickly)."""
    traj = record["traj"]
    return {**record, "traj": traj[:8] if isinstance(traj, list) else traj}


@pytest.fixture(scope="module")
def sample(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("fuzz") / "sample.goldset"
    create_sample(path, assessor="fuzz").close()
    return path


@pytest.fixture(scope="module")
def seeds(sample: Path, tmp_path_factory: pytest.TempPathFactory
          ) -> dict[tuple[str, str], bytes]:
    """Static seeds plus the sample's own exports; a folder format's seed is a dict
    (relative path → bytes)."""
    out: dict[tuple[str, str], Seed] = dict(static_seeds())
    folder = tmp_path_factory.mktemp("seeds")
    with GoldSetStore.open(sample, read_only=True) as store:
        for (name, ext) in EXPORTED:
            dest = folder / f"{name}{ext or '.dir'}"
            registry.exporter(name)(store, dest, registry.Options(run=RUN))
            if dest.is_dir():
                out[(name, ext)] = {p.relative_to(dest).as_posix(): p.read_bytes()
                                    for p in sorted(dest.rglob("*")) if p.is_file()}
            else:
                out[(name, ext)] = dest.read_bytes()
    return out


def test_every_import_format_is_fuzzed(seeds: dict[tuple[str, str], Seed]) -> None:
    """A format added to the registry must get a seed here (and so be fuzzed)."""
    assert {fmt for fmt, _ext in seeds} == set(registry.IMPORTS)
    assert set(seeds) == set(FORMATS)


# -- mutations -------------------------------------------------------------------------------
TOKENS = [b"\t", b" ", b"\n", b"\r\n", b",", b";", b'"', b"{", b"}", b"[", b"]", b":", b"-1",
          b"0", b"1", b"2", b"99999999999999999999", b"1e309", b"NaN", b"null", b"true",
          b"\x00", b"\xff", b"\xef\xbb\xbf", b"=cmd|' /C calc'!A0", b"Q01", b"RH-CP-2025",
          b"Q0", b"\xc3\xa9", b"\xe2\x80\xae", b"PK\x03\x04", "é".encode("utf-16")]


@st.composite
def mutated(draw: st.DrawFn, seed: bytes) -> bytes:
    data = bytearray(seed)
    for _ in range(draw(st.integers(1, 6))):
        kind = draw(st.sampled_from(["delete", "insert", "replace", "dup_line", "swap_lines",
                                     "truncate", "token"]))
        pos = draw(st.integers(0, max(len(data) - 1, 0)))
        if kind == "delete":
            del data[pos:pos + draw(st.integers(1, 40))]
        elif kind == "insert":
            data[pos:pos] = draw(st.binary(min_size=1, max_size=20))
        elif kind == "replace" and data:
            data[pos] = draw(st.integers(0, 255))
        elif kind == "token":
            data[pos:pos] = draw(st.sampled_from(TOKENS))
        elif kind == "truncate":
            del data[pos:]
        else:
            lines = bytes(data).split(b"\n")
            i = draw(st.integers(0, len(lines) - 1))
            j = draw(st.integers(0, len(lines) - 1))
            if kind == "dup_line":
                lines.insert(j, lines[i])
            else:
                lines[i], lines[j] = lines[j], lines[i]
            data = bytearray(b"\n".join(lines))
    return bytes(data)


CELL = st.one_of(st.none(), st.integers(-10**6, 10**6), st.floats(allow_nan=True),
                 st.booleans(), st.sampled_from(CASES + DOCS + ["question", "key", "text"]),
                 st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters=(
                     "\x00\x01\x02\x03\x04\x05\x06\x07\x08\x0b\x0c\x0e\x0f\x10\x11\x12\x13"
                     "\x14\x15\x16\x17\x18\x19\x1a\x1b\x1c\x1d\x1e\x1f")), max_size=30))


@st.composite
def workbook(draw: st.DrawFn, header: list[str]) -> bytes:
    columns = draw(st.lists(st.sampled_from([*header, "", "autre", "Question"]),
                            min_size=0, max_size=7))
    rows = draw(st.lists(st.lists(CELL, min_size=0, max_size=8), max_size=6))
    return _xlsx([columns, *rows])


def inputs(fmt: str, ext: str, seed: Seed) -> st.SearchStrategy[Seed]:
    if isinstance(seed, dict):  # a folder: mutate one of its files, or drop one
        names = sorted(seed)

        @st.composite
        def folder(draw: st.DrawFn) -> dict[str, bytes]:
            files = dict(seed)
            name = draw(st.sampled_from(names))
            action = draw(st.sampled_from(["mutate", "mutate", "mutate", "drop", "raw"]))
            if action == "drop":
                del files[name]
            elif action == "raw":
                files[name] = draw(st.binary(max_size=200))
            else:
                files[name] = draw(mutated(seed[name]))
            return files

        return st.one_of(folder(), st.just(seed))
    choices = [mutated(seed), st.binary(max_size=300), st.just(b""), st.just(seed)]
    if fmt in ("cases", "ragas-testset") and ext == ".xlsx":
        header = CASES_ROWS[0] if fmt == "cases" else TESTSET_ROWS[0]
        choices.append(workbook(header))
    return st.one_of(*choices)


# -- the property ------------------------------------------------------------------------------
FORMATS = sorted([*static_seeds(), *EXPORTED])
#: Formats fuzzed against an empty file: they import into an empty gold set only, or their
#: seed (the sample's export) would only clash with the sample's own cases.
INTO_EMPTY = {"json", "csv", "xlsx", "deepeval"}
#: Formats whose --run names an existing run (judge verdicts); else a new run's name.
EXISTING_RUN = {"ragchecker", "ragas-verdicts", "deepeval-verdicts"}


@pytest.fixture(scope="module")
def empty(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("fuzz") / "empty.goldset"
    GoldSetStore.create(path, assessor="fuzz").close()
    return path


def _options(fmt: str, strict: bool) -> registry.Options:
    if fmt in EXISTING_RUN:
        run: str | None = RUN
    elif fmt in ("trec-run", "jsonl-run", "ragas", "ragchecker-run", "tau-bench"):
        run = "fuzz-run"
    else:
        run = None
    return registry.Options(run=run, strict=strict)


def _write_input(source: Path, data: Seed) -> None:
    if source.is_dir():
        shutil.rmtree(source)
    elif source.exists():
        source.unlink()
    if isinstance(data, dict):
        for name, content in data.items():
            (source / name).parent.mkdir(parents=True, exist_ok=True)
            (source / name).write_bytes(content)
    else:
        source.write_bytes(data)


@pytest.mark.parametrize(("fmt", "ext"), FORMATS, ids=[f"{f}{e}" for f, e in FORMATS])
def test_importer_survives_fuzzing(fmt: str, ext: str, seeds: dict[tuple[str, str], Seed],
                                   sample: Path, empty: Path, tmp_path: Path) -> None:
    pristine = empty if fmt in INTO_EMPTY else sample
    path = tmp_path / "work.goldset"
    shutil.copyfile(pristine, path)
    stores = [GoldSetStore.open(path, assessor="fuzz")]
    importer: Callable[..., Any] = registry.importer(fmt)
    counts = COUNTS.setdefault(f"{fmt}{ext}", Counter())
    source = tmp_path / f"input{ext}"  # "": a folder

    @settings(max_examples=EXAMPLES, deadline=None, derandomize=not workload.long_mode(),
              database=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
    @given(data=inputs(fmt, ext, seeds[(fmt, ext)]), strict=st.booleans())
    def check(data: Seed, strict: bool) -> None:
        store = stores[0]
        _write_input(source, data)
        before, digest = full_dump(path), sha256(path)
        operations = store.newest_operation_id()
        try:
            report = importer(store, source, _options(fmt, strict))
        except KnownError as error:
            counts[f"refused ({type(error).__name__})"] += 1
            assert str(error).strip() and "\n" not in str(error).strip(), repr(error)
            assert full_dump(path) == before
            assert sha256(path) == digest
            assert store.newest_operation_id() == operations
            return
        counts["imported"] += 1
        assert isinstance(report.summary(), str)
        assert store.integrity_problems() == []
        newest = store.newest_operation_id()
        if newest != operations and store.operation_row(newest)["undoable"]:
            store.revert(newest)
            assert {t: r for t, r in full_dump(path).items()
                    if t not in ("operations", "history")} == \
                {t: r for t, r in before.items() if t not in ("operations", "history")}
        # Start the next example from the pristine file again.
        store.close()
        shutil.copyfile(pristine, path)
        stores[0] = GoldSetStore.open(path, assessor="fuzz")

    try:
        check()
    finally:
        stores[0].close()
    assert sum(counts.values()) >= EXAMPLES


def test_print_fuzz_counts() -> None:
    """Runs last in this module: the counts for the closing note."""
    if not COUNTS:
        pytest.skip("no fuzzing ran in this session")
    total = sum(sum(c.values()) for c in COUNTS.values())
    print(f"\nimport fuzzing: {total} cases over {len(COUNTS)} format/extension pairs")
    for name, counts in sorted(COUNTS.items()):
        print(f"  {name}: " + ", ".join(f"{k} {v}" for k, v in counts.most_common()))
