"""Edge formats of real TREC files (issue 18, points 7 and 8), each on a published file.

tests/data/trec_eval/README.md and tests/data/trec_dl/README.md name the sources.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import pytrec_eval

from rag_annotator.import_export import trec_files
from rag_annotator.storage.store import GoldSetStore

DATA = Path(__file__).parent.parent / "data"
TREC_EVAL = DATA / "trec_eval"
DL19_CUT = DATA / "trec_dl" / "qrels.dl19-passage.cut.txt"


@pytest.fixture
def store(tmp_path: Path) -> GoldSetStore:
    with GoldSetStore.create(tmp_path / "g.goldset", assessor="ana") as created:
        yield created


def _run_dict(path: Path) -> dict[str, dict[str, float]]:
    run: dict[str, dict[str, float]] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        qid, _q0, doc, _rank, score = line.split()[:5]
        run.setdefault(qid, {})[doc] = float(score)
    return run


def test_run_export_keeps_tied_scores_of_trec_eval_s_run(store: GoldSetStore,
                                                          tmp_path: Path) -> None:
    """results.test has 9 groups of tied scores; every score comes back out as it went in
    (before, each case with a tie had all its scores rewritten from the ranks), so
    trec_eval reads the same order and the same values."""
    source = TREC_EVAL / "results.test"
    trec_files.import_run(store, source, name="run")
    out = tmp_path / "out.run"
    report = trec_files.export_run(store, "run", out)
    assert not any("rewritten" in w for w in report.warnings)
    assert _run_dict(out) == _run_dict(source)
    qrels: dict[str, dict[str, int]] = {}
    for line in (TREC_EVAL / "qrels.test").read_text(encoding="utf-8").splitlines():
        qid, _it, doc, rel = line.split()
        qrels.setdefault(qid, {})[doc] = int(rel)
    measures = {"map", "P_10", "ndcg", "recip_rank"}
    assert (pytrec_eval.RelevanceEvaluator(qrels, measures).evaluate(_run_dict(out))
            == pytrec_eval.RelevanceEvaluator(qrels, measures).evaluate(_run_dict(source)))
    ranks = [line.split()[3] for line in out.read_text(encoding="utf-8").splitlines()
             if line.startswith("301 ")]
    assert ranks == [str(i) for i in range(1, len(ranks) + 1)]


def test_qrels_iteration_column_round_trips(store: GoldSetStore, tmp_path: Path) -> None:
    """TREC DL 2019's qrels write ``Q0`` in column 2; the export wrote ``0``."""
    trec_files.import_qrels(store, DL19_CUT, assessor="nist")
    out = tmp_path / "out.qrels"
    trec_files.export_qrels(store, out)
    original = sorted(DL19_CUT.read_text(encoding="utf-8").split("\n")[:-1])
    written = out.read_text(encoding="utf-8").splitlines()
    assert {line.split()[1] for line in written} == {"Q0"}
    assert sorted(written) == [" ".join(line.split()) for line in original]


def test_judgment_groups_become_assessors_and_labels_above_4_widen_the_scale(
        store: GoldSetStore) -> None:
    """trec_eval's multi-assessor qrels (test/qrels.123, cut): groups 0, 1, 2 in column 2,
    a label 6.  The whole file was refused (a pair labelled twice; a label above 4)."""
    lines = (TREC_EVAL / "qrels.123.cut").read_text(encoding="utf-8").splitlines()
    report = trec_files.import_qrels(store, TREC_EVAL / "qrels.123.cut", assessor="nist")
    assert any("3 judgment groups" in w for w in report.warnings)
    assert any("0–6" in w and "--relevance-level" in w for w in report.warnings)
    assert store.meta("max_grade") == "6"
    counts = {row["name"]: row["n"] for row in store.query(
        "SELECT a.name, count(*) AS n FROM judgments j JOIN assessors a "
        "ON a.id = j.assessor_id GROUP BY a.name")}
    expected: dict[str, int] = {}
    for line in lines:
        group = line.split()[1]
        expected[f"nist-{group}"] = expected.get(f"nist-{group}", 0) + 1
    assert counts == expected
    assert store.query("SELECT max(grade) AS top FROM judgments") == [{"top": 6}]
    assert store.integrity_problems() == [] and store.schema_problems() == []


def test_run_lines_with_trailing_fields_are_read_with_a_warning(store: GoldSetStore) -> None:
    """trec_eval's results.trunc ends its lines with "more junk at end of lines."."""
    report = trec_files.import_run(store, TREC_EVAL / "results.trunc", name="trunc")
    assert report.rows == 584
    assert any("fields after the sixth" in w and "line 1" in w for w in report.warnings)
    rankings = store.run_rankings(int(store.by_key("runs", "trunc")["id"]))
    assert sorted(rankings) == ["301", "303"]


def test_wide_grades_survive_the_native_json_round_trip(store: GoldSetStore,
                                                        tmp_path: Path) -> None:
    """A label 6 (and the 0–6 scale) goes out in the native JSON, validates against its
    schema, and comes back into an empty file unchanged."""
    import json
    from importlib import resources

    import jsonschema

    from rag_annotator.import_export import native_json
    from rag_annotator.import_export.registry import Options

    trec_files.import_qrels(store, TREC_EVAL / "qrels.123.cut", assessor="nist")
    dest = tmp_path / "g.json"
    native_json.export_json(store, dest, Options())
    schema = json.loads((resources.files("rag_annotator.resources") / "schema" /
                         "goldset.schema.json").read_text(encoding="utf-8"))
    jsonschema.validate(json.loads(dest.read_text(encoding="utf-8")), schema)
    with GoldSetStore.create(tmp_path / "other.goldset", assessor="ana") as other:
        native_json.import_json(other, dest, Options())
        assert other.meta("max_grade") == "6"
        assert other.query("SELECT count(*) AS n FROM judgments WHERE grade = 6") == [
            {"n": 2}]
        assert other.integrity_problems() == [] and other.schema_problems() == []
