"""Agreement on claims and trajectories handed to several experts (issue 15: "claims to
verify and agent trajectories to review can be assigned the same way" — and, as for pairs,
the team sees whether the experts agree).

Each expert verifies or reviews in their own assignment file, with verdicts that sometimes
differ; the figures read live from the folder and from the master after ``collect`` are
checked against scikit-learn's ``cohen_kappa_score`` and the ``krippendorff`` package on the
labels read back with raw SQL from the files themselves."""

from __future__ import annotations

import json
import sqlite3
from collections import defaultdict
from collections.abc import Iterator
from importlib import resources
from itertools import combinations
from pathlib import Path

import krippendorff
import numpy as np
import pytest
from sklearn.metrics import cohen_kappa_score

from rag_annotator.domain import agent_ops, operations
from rag_annotator.import_export.sample import create_sample
from rag_annotator.import_export.team_files import collect, hand_out
from rag_annotator.metrics.team_items import ItemVerdict, items_agreement, nominal_kappa
from rag_annotator.reports.team import read_team_folder, store_team_figures
from rag_annotator.storage.store import GoldSetStore
from tests.team_builders import ITEM_EXPERTS as NAMES
from tests.team_builders import VERDICTS


@pytest.fixture
def master(tmp_path: Path) -> Iterator[GoldSetStore]:
    with create_sample(tmp_path / "master.goldset", assessor="lead") as store:
        yield store


def verdict_of(claim_id: int, who: int) -> str:
    """Experts agree on most claims and part on some, differently for each pair of them."""
    return VERDICTS[(claim_id * (who + 1) // 2) % 3]


def verify(path: Path, name: str) -> None:
    with GoldSetStore.open(path, assessor=name) as store:
        for claim in store.query("SELECT id FROM claims ORDER BY id"):
            operations.set_claim_verdict(store, claim["id"],
                                         verdict_of(claim["id"], NAMES.index(name)), name)


def file_labels(*paths: Path) -> dict[str, dict[str, str]]:
    """claim → {assessor: verdict}, read with sqlite3 from each file (an expert's verdicts
    sit on the claims of their own file; a master's claims carry the verdict given there),
    by run, case key and position."""
    out: dict[str, dict[str, str]] = defaultdict(dict)
    for path in paths:
        with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as conn:
            for unit, who, verdict in conn.execute(
                    "SELECT r.name || '/' || c.key || '/' || cl.position, s.name, cl.verdict "
                    "FROM claims cl JOIN answers a ON a.id = cl.answer_id "
                    "JOIN runs r ON r.id = a.run_id JOIN cases c ON c.id = a.case_id "
                    "JOIN assessors s ON s.id = cl.assessor_id WHERE cl.verdict IS NOT NULL"):
                out[unit][who] = verdict
        conn.close()
    return out


def peer_figures(labels: dict[str, dict[str, str]]) -> tuple[dict[tuple[str, str], float],
                                                            float]:
    """Pairwise kappas (scikit-learn) and nominal alpha (krippendorff) of ``labels``."""
    kappas = {}
    names = sorted({n for u in labels.values() for n in u})
    for first, second in combinations(names, 2):
        shared = [(u[first], u[second]) for u in labels.values() if first in u and second in u]
        if shared:
            kappas[(first, second)] = cohen_kappa_score([a for a, _ in shared],
                                                        [b for _, b in shared])
    matrix = np.array([[VERDICTS.index(u[n]) if n in u else np.nan for u in labels.values()]
                       for n in names], dtype=float)
    alpha = krippendorff.alpha(reliability_data=matrix, level_of_measurement="nominal",
                               value_domain=sorted({VERDICTS.index(v) for u in labels.values()
                                                    for v in u.values()}))
    return kappas, float(alpha)


def test_claim_agreement_from_the_folder_and_the_master_equals_the_peers(
        master: GoldSetStore, tmp_path: Path) -> None:
    folder = tmp_path / "team"
    report = hand_out(master, NAMES, 2, folder, seed=11, items="claims")
    for name, path in report.files.items():
        verify(path, name)
    labels = file_labels(*report.files.values())
    assert labels and all(len(u) == 2 for u in labels.values())
    # after the collect, the master also holds the verdicts its claims already had (the
    # sample's own verifier): one more opinion on those claims, counted like any other
    with_master = file_labels(master.path, *report.files.values())
    assert any(len(u) == 3 for u in with_master.values())
    live = read_team_folder(folder, skip=master.path).figures
    collect(master, list(report.files.values()))
    collected = store_team_figures(master)
    for figures, seen in ((live, labels), (collected, with_master)):
        kappas, alpha = peer_figures(seen)
        assert any(k < 0.99 for k in kappas.values())  # they do disagree
        (claims,) = figures.items_agreement
        assert (claims.items, claims.question, claims.units) == ("claims", "verdict",
                                                                   len(seen))
        assert claims.alpha == pytest.approx(alpha)
        assert {(p.first, p.second): p.kappa for p in claims.pairwise} == pytest.approx(kappas)
        for progress in figures.items:
            own = [k for pair, k in kappas.items() if progress.name in pair]
            assert progress.kappa == pytest.approx(sum(own) / len(own))
            assert progress.kappa_partners == len(own)


def test_trajectory_agreement_is_per_question(master: GoldSetStore, tmp_path: Path) -> None:
    if not master.query("SELECT id FROM trajectories"):
        pytest.skip("the sample holds no trajectory")
    folder = tmp_path / "team"
    report = hand_out(master, NAMES, 3, folder, seed=5, items="trajectories")
    success: dict[int, dict[str, int]] = defaultdict(dict)
    for who, (name, path) in enumerate(report.files.items()):
        with GoldSetStore.open(path, assessor=name) as store:
            for row in store.query("SELECT id FROM trajectories ORDER BY id"):
                mark = (row["id"] + who) % 2 == 0 or who == 0
                agent_ops.review_trajectory(store, row["id"], task_success=mark,
                                            success_reason=f"{name}: vu",
                                            path_acceptable=True, path_reason=f"{name}: ok")
                success[row["id"]][name] = int(mark)
    collect(master, list(report.files.values()))
    figures = store_team_figures(master)
    by_question = {a.question: a for a in figures.items_agreement}
    assert set(by_question) == {"task_success", "path_acceptable"}
    matrix = np.array([[u.get(n, np.nan) for u in success.values()] for n in NAMES],
                      dtype=float)
    expected = krippendorff.alpha(reliability_data=matrix, level_of_measurement="nominal")
    got = by_question["task_success"].alpha
    assert got == pytest.approx(expected) if not np.isnan(expected) else got is None
    # everybody found every path acceptable: one category, agreement is not defined
    assert by_question["path_acceptable"].alpha is None
    assert all(p.kappa is None for p in by_question["path_acceptable"].pairwise)


def test_the_native_json_and_the_workbook_carry_the_agreement(master: GoldSetStore,
                                                              tmp_path: Path) -> None:
    import jsonschema
    from python_calamine import CalamineWorkbook

    from rag_annotator.import_export.native_json_export import export_json
    from rag_annotator.import_export.registry import Options
    from rag_annotator.import_export.xlsx_export import export_xlsx

    report = hand_out(master, NAMES, 2, tmp_path / "team", seed=11, items="claims")
    for name, path in report.files.items():
        verify(path, name)
    collect(master, list(report.files.values()))
    figures = store_team_figures(master)
    export_json(master, tmp_path / "g.json", Options())
    data = json.loads((tmp_path / "g.json").read_text(encoding="utf-8"))
    schema = json.loads((resources.files("rag_annotator.resources") / "schema" /
                         "goldset.schema.json").read_text(encoding="utf-8"))
    jsonschema.validate(data, schema)
    (written,) = data["assessor_metrics"]["items_agreement"]
    assert written["alpha"] == pytest.approx(figures.items_agreement[0].alpha)
    assert {p["assessor"]: p["kappa"] for p in data["assessor_metrics"]["items"]} == \
        pytest.approx({p.name: p.kappa for p in figures.items})
    export_xlsx(master, tmp_path / "r.xlsx", Options(locale="fr"))
    sheet = CalamineWorkbook.from_path(str(tmp_path / "r.xlsx")).get_sheet_by_name(
        "Annotateurs").to_python()
    row = next(r for r in sheet if r and r[0] == "affirmations")
    assert row[2] == written["units"] > 0
    assert float(row[3]) == pytest.approx(figures.items_agreement[0].alpha, abs=5e-3)


def test_nominal_kappa_and_alpha_on_small_cases_equal_the_peers() -> None:
    first = ["supported", "supported", "contradicted", "not_supported", "supported"]
    second = ["supported", "contradicted", "contradicted", "not_supported", "not_supported"]
    assert nominal_kappa(list(zip(first, second))) == pytest.approx(
        cohen_kappa_score(first, second))
    assert nominal_kappa([("supported", "supported")] * 3) is None  # one category: 0/0
    assert nominal_kappa([]) is None
    verdicts = [ItemVerdict("claims", "verdict", str(i), who, label)
                for i, (a, b) in enumerate(zip(first, second))
                for who, label in (("a", a), ("b", b))]
    verdicts.append(ItemVerdict("claims", "verdict", "lonely", "a", "supported"))
    (figures,) = items_agreement(verdicts, {"claims"})
    assert figures.units == 5  # the claim only one expert answered is not a unit
    matrix = np.array([[VERDICTS.index(x) for x in first] + [0],
                       [VERDICTS.index(x) for x in second] + [np.nan]], dtype=float)
    assert figures.alpha == pytest.approx(
        krippendorff.alpha(reliability_data=matrix, level_of_measurement="nominal"))
    assert items_agreement(verdicts, {"trajectories"}) == (
        items_agreement([], {"trajectories"}))  # no trajectory answers: two empty figures
