"""Issue 18, point 7 continued (schema 12): what documents and trajectories carry that has
no column — a BEIR corpus line's ``metadata``, tau-bench's ``info``, tau2's simulation
fields — is kept in their ``extra``, survives the native JSON and goes back out in the
format it came from; BEIR qrels labels above 4 widen the scale as TREC qrels do.

Peers: the published files themselves (tests/data, read here with ``json`` alone), and for
the wide labels trec_eval's own multi-assessor qrels (labels up to 6)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from rag_annotator.errors import KnownError
from rag_annotator.import_export import registry
from rag_annotator.import_export.registry import Options
from rag_annotator.storage.store import GoldSetStore
from tests.helpers import schema_up_to

DATA = Path(__file__).resolve().parent.parent / "data"
TAU = DATA / "tau_bench" / "gpt-4o-airline-cut.json"
TAU2 = DATA / "tau2_bench" / "airline_relaxed_grok-4-fast-reasoning_4trials.json"
#: Corpus lines in the shape BEIR's trec-covid corpus has (metadata url / pubmed_id);
#: constructed, no published BEIR corpus with metadata is in tests/data.
CORPUS = [{"_id": "ug7v899j", "title": "Clinical features of culture-proven Mycoplasma",
           "text": "This retrospective chart review describes the epidemiology.",
           "metadata": {"url": "https://www.ncbi.nlm.nih.gov/pmc/articles/PMC35282/",
                        "pubmed_id": "11472636"}},
          {"_id": "02tnwd4m", "title": "Nitric oxide", "text": "Inflammatory diseases.",
           "metadata": {}, "source": "PMC"}]


def _io(fmt: str, store: GoldSetStore, path: Path, *, export: bool, **options: Any) -> Any:
    if export:
        return registry.exporter(fmt)(store, path, Options(**options))
    return registry.importer(fmt)(store, path, Options(**options))


def _native(store: GoldSetStore, tmp_path: Path) -> GoldSetStore:
    _io("json", store, tmp_path / "a.json", export=True)
    other = GoldSetStore.create(tmp_path / "b.goldset", assessor="bob")
    _io("json", other, tmp_path / "a.json", export=False)
    _io("json", other, tmp_path / "b.json", export=True)
    assert (tmp_path / "b.json").read_bytes() == (tmp_path / "a.json").read_bytes()
    return other


def _beir(folder: Path, qrels: list[tuple[str, str, int]], corpus: list[dict[str, Any]]
          ) -> Path:
    (folder / "qrels").mkdir(parents=True)
    (folder / "corpus.jsonl").write_text("".join(json.dumps(c) + "\n" for c in corpus),
                                         encoding="utf-8")
    (folder / "queries.jsonl").write_text("".join(
        json.dumps({"_id": q, "text": f"topic {q}"}) + "\n"
        for q in dict.fromkeys(q for q, _d, _g in qrels)), encoding="utf-8")
    (folder / "qrels" / "test.tsv").write_text("query-id\tcorpus-id\tscore\n" + "".join(
        f"{q}\t{d}\t{g}\n" for q, d, g in qrels), encoding="utf-8")
    return folder


def test_a_beir_corpus_lines_metadata_is_kept_and_written_back(store: GoldSetStore,
                                                                tmp_path: Path) -> None:
    folder = _beir(tmp_path / "in", [("1", "ug7v899j", 2), ("1", "02tnwd4m", 0)], CORPUS)
    report = _io("beir", store, folder, export=False)
    assert "corpus.jsonl: fields kept in extra: metadata.pubmed_id, metadata.url, " \
           "source" in report.warnings
    other = _native(store, tmp_path)
    try:
        _io("beir", other, tmp_path / "out", export=True)
    finally:
        other.close()
    back = [json.loads(line) for line in
            (tmp_path / "out" / "corpus.jsonl").read_text(encoding="utf-8").splitlines()]
    assert sorted(back, key=lambda d: d["_id"]) == sorted(CORPUS, key=lambda d: d["_id"])
    _io("csv", store, tmp_path / "csv", export=True)  # and through the CSV folder
    with GoldSetStore.create(tmp_path / "c.goldset", assessor="carol") as third:
        _io("csv", third, tmp_path / "csv", export=False)
        assert {r["key"]: json.loads(r["extra"]) for r in third.query(
            "SELECT key, extra FROM documents")} == {
            "ug7v899j": {"metadata": CORPUS[0]["metadata"]}, "02tnwd4m": {"source": "PMC"}}


def test_beir_qrels_labels_above_4_widen_the_scale(store: GoldSetStore, tmp_path: Path) -> None:
    """trec_eval's qrels.123 (group 1, labels 0-6) written as a BEIR qrels file: refused
    before ("above the highest grade this app supports"), now the scale grows to 0-6."""
    lines = [line.split() for line in (DATA / "trec_eval" / "qrels.123.cut").read_text(
        encoding="utf-8").splitlines()]
    qrels = [(q, d, int(g)) for q, group, d, g in lines if group == "1"]
    assert max(g for _q, _d, g in qrels) == 6
    corpus = [{"_id": d, "title": "", "text": d} for d in dict.fromkeys(d for _q, d, _g in qrels)]
    report = _io("beir", store, _beir(tmp_path / "b", qrels, corpus), export=False,
                 assessor="nist")
    assert any(w.startswith("grading scale raised to 0–6 (above 4") for w in report.warnings)
    assert store.meta("max_grade") == "6"
    stored = store.query("SELECT c.key, d.key AS doc, j.grade FROM judgments j JOIN cases c "
                         "ON c.id = j.case_id JOIN documents d ON d.id = j.document_id")
    assert sorted((r["key"], r["doc"], r["grade"]) for r in stored) == sorted(qrels)
    again = _beir(tmp_path / "c", [("301", corpus[0]["_id"], 9)], corpus[:1])
    with pytest.raises(KnownError, match=r"test\.tsv:2: score 9 is above this gold set's "
                                         r"scale \(0–6\), which is locked"):
        _io("beir", store, again, export=False, assessor="other")


def test_tau_bench_info_is_kept_on_each_trajectory(store: GoldSetStore,
                                                    tmp_path: Path) -> None:
    published = json.loads(TAU.read_text(encoding="utf-8"))
    report = _io("tau-bench", store, TAU, export=False, run="gpt-4o")
    assert not any("fields not kept" in w for w in report.warnings)
    assert any("fields kept in extra: info.reward_info" in w for w in report.warnings)
    other = _native(store, tmp_path)
    try:
        rows = other.query("SELECT c.key, t.trial, t.extra FROM trajectories t "
                           "JOIN cases c ON c.id = t.case_id")
    finally:
        other.close()
    by_key = {(r["key"], r["trial"]): json.loads(r["extra"]) for r in rows}
    for record in published:
        info = {k: v for k, v in record["info"].items() if k != "task"}
        task = {k: v for k, v in record["info"]["task"].items() if k != "instruction"}
        assert by_key[(str(record["task_id"]), record["trial"])] == {
            "info": {**info, "task": task}}


def test_tau2_simulation_fields_are_kept(store: GoldSetStore) -> None:
    sims = json.loads(TAU2.read_text(encoding="utf-8"))["simulations"]
    report = _io("tau-bench", store, TAU2, export=False, run="grok")
    (lost,) = [w for w in report.warnings if w.startswith("fields not kept: ")]
    # only the run's settings, the tasks' expectations and per-message bookkeeping
    assert all(name in ("info", "timestamp") or name.startswith(("tasks.", "simulations."
                                                                 "messages."))
               for name in lost.removeprefix("fields not kept: ").split(", ")
               if not name.startswith("…")), lost
    rows = store.query("SELECT trial, extra FROM trajectories ORDER BY trial")
    kept = {"end_time", "id", "seed", "start_time", "termination_reason", "timestamp",
            "user_cost"}
    by_trial = {s["trial"]: s for s in sims}
    for row in rows:
        extra = json.loads(row["extra"])
        assert {k: extra[k] for k in kept} == {k: by_trial[row["trial"]][k] for k in kept}
        assert extra["reward_info"] == by_trial[row["trial"]]["reward_info"]


def test_a_version_11_file_gains_empty_extras(goldset_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    from rag_annotator.domain import operations as ops
    from rag_annotator.storage import schema

    before = schema.MORE_EXTRA_VERSION - 1
    with monkeypatch.context() as patch:
        schema_up_to(patch, before)
        with GoldSetStore.create(goldset_path, assessor="alice") as store:
            ops.create_document(store, key="D1", text="t")
            assert "extra" not in store.query("SELECT * FROM documents")[0]
    with GoldSetStore.open(goldset_path, assessor="alice") as store:
        assert store.schema_version == schema.SCHEMA_VERSION > schema.MORE_EXTRA_VERSION
        assert store.schema_problems() == [] and store.cross_reference_problems() == []
        assert store.query("SELECT key, extra FROM documents") == [{"key": "D1", "extra": "{}"}]
        store._conn.execute("UPDATE documents SET extra = '[1]'")
        assert any("documents" in p and "extra is not a JSON object" in p
                   for p in store.cross_reference_problems())


@pytest.mark.parametrize("suffix", [".csv", ".xlsx"])
def test_a_cases_sheets_unknown_columns_are_kept_on_each_case(store: GoldSetStore,
                                                              tmp_path: Path,
                                                              suffix: str) -> None:
    """A real Ragas v0.1 test set (tests/data/ragas_moe_papers) read as a plain sheet of
    cases: ``question`` and ``ground_truth`` are fields; ``contexts``, ``evolution_type``,
    ``metadata`` and ``episode_done`` were dropped with a warning, now each case keeps its
    cells, as the csv module reads them."""
    import csv

    source = DATA / "ragas_moe_papers" / "v01_generated_testset.csv"
    csv.field_size_limit(1 << 30)
    with open(source, newline="", encoding="utf-8") as handle:
        peer = list(csv.DictReader(handle))
    if suffix == ".xlsx":
        import openpyxl

        book = openpyxl.Workbook()
        sheet = book.active
        sheet.append(list(peer[0]))
        for row in peer:
            sheet.append(list(row.values()))
        source = tmp_path / "testset.xlsx"
        book.save(source)
    report = _io("cases", store, source, export=False)
    others = ["contexts", "evolution_type", "metadata", "episode_done"]
    assert any(f"fields kept in extra of each case: {', '.join(others)}" in w
               for w in report.warnings)
    rows = store.query("SELECT question, extra FROM cases ORDER BY key")
    assert [(r["question"], json.loads(r["extra"])) for r in rows] == [
        (p["question"], {k: p[k] for k in others}) for p in peer]


def test_the_apps_own_tables_keep_a_column_someone_added(store: GoldSetStore,
                                                         tmp_path: Path) -> None:
    """The CSV folder and the workbook, edited by hand: a column added to ``cases`` lands
    in each case's extra; one added elsewhere is named; a table written before schema 12
    (no ``extra`` column in documents.csv) still imports."""
    import csv

    import openpyxl

    from rag_annotator.domain import operations as ops

    ops.create_document(store, key="D1", text="t")
    ops.create_case(store, key="Q1", question="q?")
    _io("csv", store, tmp_path / "csv", export=True)
    _io("xlsx", store, tmp_path / "book.xlsx", export=True)

    def edit(name: str, change: Any) -> None:
        path = tmp_path / "csv" / name
        with open(path, newline="", encoding="utf-8") as handle:
            rows = list(csv.reader(handle))
        with open(path, "w", newline="", encoding="utf-8") as handle:
            csv.writer(handle).writerows(change(rows))

    edit("cases.csv", lambda rows: [rows[0] + ["Relecteur"], rows[1] + ["Anne"]])
    edit("documents.csv", lambda rows: [r[:rows[0].index("extra")] for r in rows])
    edit("runs.csv", lambda rows: [rows[0] + ["Commentaire"]])
    with GoldSetStore.create(tmp_path / "c.goldset", assessor="c") as other:
        report = _io("csv", other, tmp_path / "csv", export=False)
        assert other.query("SELECT extra FROM cases") == [{"extra": '{"Relecteur": "Anne"}'}]
        assert other.query("SELECT extra FROM documents") == [{"extra": "{}"}]
    assert "cases.csv: columns not read, kept in each case's extra: Relecteur" in \
        report.warnings and "runs.csv: columns not read: Commentaire" in report.warnings
    from rag_annotator.messages import render_any

    french = {render_any(w, "fr") for w in report.warnings}  # issue 21: the reader's language
    assert ("cases.csv\u00a0: colonnes non lues, gardées dans le champ extra de chaque "
            "cas\u00a0: Relecteur") in french and \
        "runs.csv\u00a0: colonnes non lues\u00a0: Commentaire" in french
    book = openpyxl.load_workbook(tmp_path / "book.xlsx")
    sheet = book["Cases"]
    sheet.cell(1, sheet.max_column + 1, "Relecteur")
    sheet.cell(2, sheet.max_column, "Bruno")
    book.save(tmp_path / "book.xlsx")
    with GoldSetStore.create(tmp_path / "x.goldset", assessor="x") as other:
        report = _io("xlsx", other, tmp_path / "book.xlsx", export=False)
        assert other.query("SELECT extra FROM cases") == [{"extra": '{"Relecteur": "Bruno"}'}]
    assert any("columns not read, kept in each case's extra: Relecteur" in w
               for w in report.warnings)


def test_a_corpus_import_keeps_what_no_document_column_takes(store: GoldSetStore,
                                                             tmp_path: Path) -> None:
    """The ``corpus`` import of a BEIR corpus.jsonl (and of a table) dropped the fields no
    column takes; now they are kept, named, and ``export beir`` writes them back."""
    source = tmp_path / "corpus.jsonl"
    source.write_text("".join(json.dumps(c) + "\n" for c in CORPUS), encoding="utf-8")
    report = _io("corpus", store, source, export=False)
    assert "corpus.jsonl: fields kept in extra: metadata.pubmed_id, metadata.url, source" in \
        report.warnings
    _io("beir", store, tmp_path / "out", export=True)
    back = [json.loads(line) for line in
            (tmp_path / "out" / "corpus.jsonl").read_text(encoding="utf-8").splitlines()]
    assert sorted(back, key=lambda d: d["_id"]) == sorted(CORPUS, key=lambda d: d["_id"])
    sheet = tmp_path / "docs.csv"
    sheet.write_text("id,title,text,URL\nd3,T3,Texte,https://example.org/3\n",
                     encoding="utf-8")
    report = _io("corpus", store, sheet, export=False)
    assert "docs.csv: fields kept in extra: URL" in report.warnings
    assert store.query("SELECT extra FROM documents WHERE key = 'd3'") == [
        {"extra": '{"URL": "https://example.org/3"}'}]
