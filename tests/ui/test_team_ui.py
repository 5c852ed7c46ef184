"""Judging as a team in the window: an assignment file judged from the keyboard in the
assignment's order with its seconds, "can't judge" with a reason, the Dashboard's team panel
on a folder of files, and File → Team's hand-out and collect run for real on tmp files."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QApplication, QDialog

from rag_annotator.storage.store import GoldSetStore
from rag_annotator.ui.judge.assignment import CantJudgeDialog
from rag_annotator.ui.team.dialogs import HandOutDialog
from tests.helpers import sha256
from tests.team_builders import judge_file, make_team
from tests.ui.driving import open_window

pytestmark = pytest.mark.gui


def _queue(path: Path) -> list[dict[str, Any]]:
    with GoldSetStore.open(path, read_only=True) as store:
        return store.assignment_queue()


def test_keyboard_only_in_an_assignment_file(qtbot, tmp_path: Path, english: None) -> None:  # type: ignore[no-untyped-def]
    """The issue's check: an assignment file made by ``rag-annotator assign`` from the
    sample, opened in the window, Ctrl+4, then 1 0 1 from the keyboard alone."""
    from rag_annotator.cli import main

    master = tmp_path / "master.goldset"
    assert main(["new", str(master), "--sample"]) == 0
    assert main(["assign", str(master), "--assessors", "ana,bruno", "--per-pair", "2",
                 "--control", "0.05", "--seed", "7", "--out", str(tmp_path / "team")]) == 0
    files = {"ana": tmp_path / "team" / "ana.goldset"}
    window = open_window(qtbot, files["ana"], assessor="ana")
    qtbot.keyClick(window, Qt.Key.Key_4, Qt.KeyboardModifier.ControlModifier)
    judge = window.sections[3]
    assert judge.assignment.active
    assert "Your assignment: 0 / " in judge.assignment.header.text()
    assert not judge.pairs.isVisible() and not judge.cases.isVisible()
    for key in (Qt.Key.Key_1, Qt.Key.Key_0, Qt.Key.Key_1):
        qtbot.wait(20)  # a few ms on screen, measured
        qtbot.keyClick(QApplication.focusWidget(), key)
    queue = _queue(files["ana"])
    assert [(r["position"], r["grade"]) for r in queue[:4]] == [(1, 1), (2, 0), (3, 1),
                                                                 (4, None)]
    assert all(r["seconds"] is not None and 0 < r["seconds"] < 60 for r in queue[:3])
    assert all(r["grade"] is None for r in queue[3:])
    assert f"Your assignment: 3 / {len(queue)}" in judge.assignment.header.text()
    assert judge.position.text().startswith("Pair 4 of")
    # the status bar counts the queue (an assignment file holds no pool of its own)
    qtbot.waitUntil(lambda: f"assignment: 3 / {len(queue)} done"
                    in window.counts_label.text(), timeout=3000)
    # no rank anywhere on screen: the pair shows the case, the question and the document
    assert "rank" not in judge.document.toPlainText()[:200].lower()
    window.close()


def test_cant_judge_asks_a_reason_and_leaves_the_pair_unjudged(qtbot, tmp_path: Path,  # type: ignore[no-untyped-def]
                                                             english: None) -> None:
    _master, files = make_team(tmp_path, ("ana", "bruno"))
    window = open_window(qtbot, files["bruno"], assessor="bruno")
    qtbot.keyClick(window, Qt.Key.Key_4, Qt.KeyboardModifier.ControlModifier)
    judge = window.sections[3]
    seen: list[str] = []

    def answer() -> None:
        dialog = QApplication.activeModalWidget()
        if not isinstance(dialog, CantJudgeDialog):
            QTimer.singleShot(10, answer)
            return
        seen.append(dialog.windowTitle())
        dialog.reason.setCurrentText("Document in Spanish")
        qtbot.keyClick(dialog.reason, Qt.Key.Key_Return)

    QTimer.singleShot(0, answer)
    qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_X)
    assert seen == ["Can’t judge this pair"]
    queue = _queue(files["bruno"])
    assert (queue[0]["grade"], queue[0]["cannot_judge"], queue[0]["done"]) == (
        None, "Document in Spanish", True)
    assert "(of which 1 can’t judge)" in judge.assignment.header.text()
    assert judge.position.text().startswith("Pair 2 of")
    # back to judging from the keyboard: Ctrl+Z takes it back
    qtbot.waitUntil(lambda: QApplication.focusWidget() is judge.document, timeout=2000)
    qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Z,
                   Qt.KeyboardModifier.ControlModifier)
    assert _queue(files["bruno"])[0]["cannot_judge"] is None
    assert "Your assignment: 0 / " in judge.assignment.header.text()
    assert judge.position.text().startswith("Pair 1 of")  # back on the pair, to judge it
    window.close()


def test_team_panel_shows_two_assessors_from_a_folder(qtbot, tmp_path: Path,  # type: ignore[no-untyped-def]
                                                      english: None) -> None:
    master, files = make_team(tmp_path, ("ana", "bruno"), control=0.1)
    judge_file(files["ana"], lambda p, _r: int(p % 2 == 0), seconds=lambda _p: 12.0)
    judge_file(files["bruno"], lambda p, _r: int(p % 3 == 0), seconds=lambda _p: 3.0,
               limit=10)
    before = {p: sha256(p) for p in files.values()}
    window, panel = _team_panel(qtbot, master, tmp_path / "team", "table")
    queue = _queue(files["bruno"])
    assert panel.table.text_at("bruno", "Judged") == str(
        sum(1 for r in queue if r["grade"] is not None and not r["is_control"]))
    assert panel.table.text_at("bruno", "Remaining") == str(len(queue) - 10)
    assert panel.table.text_at("ana", "Remaining") == "0"
    assert panel.table.text_at("ana", "Median s / judgment") == "12.0"
    assert panel.table.text_at("bruno", "Median s / judgment") == "3.0"
    assert panel.table.text_at("ana", "Cohen’s κ with the others") not in ("", "—")
    assert "Krippendorff" in panel.note.text()
    # live: bruno judges more, the panel follows (watcher, or the next poll)
    assert {p: sha256(p) for p in files.values()} == before  # read, never written
    assert {str(p) for p in files.values()} <= set(panel.watcher.files())  # live
    judge_file(files["bruno"], lambda _p, r: None if r["grade"] is not None else 1, limit=5)
    after_bruno = {p: sha256(p) for p in files.values()}
    panel.reload()
    qtbot.waitUntil(lambda: panel.table.text_at("bruno", "Remaining") == str(len(queue) - 15),
                    timeout=10000)
    assert {p: sha256(p) for p in files.values()} == after_bruno
    window.close()


def test_team_menu_hands_out_and_collects_for_real(qtbot, tmp_path: Path,  # type: ignore[no-untyped-def]
                                                   english: None, monkeypatch) -> None:
    from rag_annotator.import_export.sample import create_sample

    master = tmp_path / "master.goldset"
    create_sample(master, assessor="lead").close()
    window = open_window(qtbot, master, assessor="lead")
    for action_id in ("team.hand_out", "team.collect", "team.folder"):
        action = window.commands[action_id]
        assert action.isEnabled() and action in window.team.menu.actions()
    out = tmp_path / "out"

    def fill(dialog: HandOutDialog) -> int:
        dialog.names.setText("ana, bruno, ana")
        dialog.per_pair.setValue(2)
        dialog.control.setValue(10.0)
        dialog.seed.setValue(42)
        dialog.folder.setText(str(out))
        assert dialog.assessors() == ["ana", "bruno"]
        return QDialog.DialogCode.Accepted

    monkeypatch.setattr(HandOutDialog, "exec", fill)
    window.commands["team.hand_out"].trigger()
    job = window.team.job
    assert job is not None and job.wait_done(60) and job.error is None
    files = job.report.files
    assert sorted(files) == ["ana", "bruno"] and all(p.exists() for p in files.values())
    assert window.ctx.team.folder() == out
    window.team.report_box.done(0)
    with GoldSetStore.open(files["ana"], read_only=True) as store:
        info = store.assignment_info()
        assert info is not None and info["assessor"] == "ana"
        assert store.assignment_progress()["total"] > 0
    assert window.undo.stack.count() == 1  # the campaign, one undoable step
    judge_file(files["ana"], lambda _p, _r: 1, seconds=lambda _p: 4.0, limit=6)
    judge_file(files["bruno"], lambda _p, _r: 0, seconds=lambda _p: 5.0, limit=4)

    # File → Team → Collect…: "a folder", the folder, then the work in the background
    from PySide6.QtWidgets import QFileDialog, QMessageBox

    monkeypatch.setattr(QFileDialog, "getExistingDirectory",
                        staticmethod(lambda *_args, **_kw: str(out)))

    def choose_folder() -> None:
        box = QApplication.activeModalWidget()
        if not isinstance(box, QMessageBox):
            QTimer.singleShot(10, choose_folder)
            return
        next(b for b in box.buttons() if b.text() == "A &Folder…").click()

    QTimer.singleShot(0, choose_folder)
    window.commands["team.collect"].trigger()
    job = window.team.job
    assert job is not None and job.wait_done(60) and job.error is None
    assert [f.refused for f in job.report.files] == [None, None]
    assert window.undo.stack.count() == 3  # one step per file
    text = window.team.report_box.informativeText()
    assert "ana.goldset (ana): 6 added" in text and "bruno.goldset (bruno): 4 added" in text
    window.team.report_box.done(0)
    progress = window.store.assessor_progress()
    assert progress["ana"]["judged"] == 6 and progress["bruno"]["judged"] == 4
    # undo takes the last file back
    window.undo.undo()
    assert window.store.assessor_progress()["bruno"]["judged"] == 0
    window.close()


def test_active_clock_leaves_idle_gaps_out(qtbot) -> None:  # type: ignore[no-untyped-def]
    from rag_annotator.ui.judge.timing import IDLE_LIMIT_MS, ActiveClock

    clock = ActiveClock()
    clock.restart()
    clock.touch(10_000)  # 10 s reading
    clock.touch(10_000 + IDLE_LIMIT_MS + 1)  # away longer than the limit: not counted
    clock.touch(10_000 + IDLE_LIMIT_MS + 5_001)  # 5 s more
    assert clock.seconds(10_000 + IDLE_LIMIT_MS + 7_001) == 17.0  # + 2 s up to the key
    assert clock.seconds(10_000 + 2 * IDLE_LIMIT_MS + 5_002) == 15.0  # idle up to the key
    clock.restart()
    assert clock.seconds(IDLE_LIMIT_MS) == IDLE_LIMIT_MS / 1000  # at the limit: counted


@pytest.mark.parametrize("lang", ["english", "french"])
def test_collect_shows_conflicts_and_refusals(qtbot, tmp_path: Path, request, lang: str) -> None:  # type: ignore[no-untyped-def]
    from rag_annotator.domain.operations import edit_case

    request.getfixturevalue(lang)

    master, files = make_team(tmp_path, ("ana", "bruno"), control=0.0)
    judge_file(files["ana"], lambda _p, _r: 1, limit=3)
    with GoldSetStore.open(files["ana"], assessor="ana") as store:
        case = store.assignment_queue()[0]
        edit_case(store, int(case["case_id"]), question="An edited question?")
    foreign = tmp_path / "foreign.goldset"
    foreign.write_bytes(b"SQLite format 3\x00" + b"\x00" * 4080)
    window = open_window(qtbot, master, assessor="lead")
    before = sha256(master)
    job = window.team.collect([files["ana"], foreign])
    assert job is not None and job.wait_done(60) and job.error is None
    box = window.team.report_box
    assert box is not None and box.icon() == box.Icon.Warning
    refused = {"english": "foreign.goldset: refused", "french": "foreign.goldset : refusé"}
    assert refused[lang] in box.informativeText()
    assert str(case["case"]) in box.detailedText()  # the edited case: a conflict, listed
    if lang == "french":  # the core's reasons too, not only the window's words
        assert f"ana.goldset : le cas {case['case']} a été modifié" in box.detailedText()
        assert "appartient à une autre application" in box.informativeText()
    assert window.store.case_detail(int(case["case_id"]))["question"] != "An edited question?"
    assert sha256(master) != before  # ana's three labels came in, nothing else
    box.done(0)
    window.close()


def test_x_outside_an_assignment_records_cant_judge_and_seconds_too(  # type: ignore[no-untyped-def]
        qtbot, window) -> None:
    from tests.ui.driving import judge_on_case

    judge = judge_on_case(qtbot, window, "Q1")
    assert not judge.assignment.active and judge.pairs.isVisible()
    pair = judge.pool.rows[judge.pairs.currentIndex().row()]

    def answer() -> None:
        dialog = QApplication.activeModalWidget()
        if not isinstance(dialog, CantJudgeDialog):
            QTimer.singleShot(10, answer)
            return
        dialog.reason.setCurrentIndex(0)  # "Outside my expertise"
        dialog.accept()

    QTimer.singleShot(0, answer)
    qtbot.keyClick(judge.pairs, Qt.Key.Key_X)
    found = [r for r in window.store.cannot_judge_rows() if r["assessor"] == "alice"]
    assert [(r["case"], r["document"], r["reason"]) for r in found] == [
        ("Q1", pair["key"], "Outside my expertise")]
    # a label key in the ordinary Judge section records its seconds as well
    qtbot.waitUntil(lambda: QApplication.focusWidget() is judge.pairs, timeout=2000)
    current, case_id = judge.pool.rows[judge.pairs.currentIndex().row()], judge.case_id()
    qtbot.keyClick(judge.pairs, Qt.Key.Key_1)
    seconds = window.store.query(
        "SELECT j.seconds FROM judgments j JOIN assessors s ON s.id = j.assessor_id "
        "WHERE s.name = 'alice' AND j.case_id = ? AND j.document_id = ?",
        (case_id, current["document_id"]))
    assert seconds and seconds[0]["seconds"] is not None


def test_collecting_the_master_itself_says_so(qtbot, tmp_path: Path,  # type: ignore[no-untyped-def]
                                              english: None) -> None:
    master, _files = make_team(tmp_path, ("ana", "bruno"), control=0.0)
    window = open_window(qtbot, master, assessor="lead")
    job = window.team.collect([master])
    assert job is not None and job.wait_done(60) and job.error is None
    box = window.team.report_box
    assert box is not None and job.report.files == []
    assert box.informativeText().splitlines()[0] == (
        "Skipped the master itself (it collects, it is not collected).")
    box.done(0)
    window.close()


def _sample_master(tmp_path: Path) -> Path:
    from rag_annotator.domain.judging_ops import set_pool
    from rag_annotator.import_export.sample import create_sample

    master = tmp_path / "master.goldset"
    with create_sample(master, assessor="lead") as store:
        set_pool(store, ["bm25-gpt4o-v1"], 3)
    return master


def test_hand_out_dialog_has_the_pool_and_the_items_of_assign(  # type: ignore[no-untyped-def]
        qtbot, tmp_path: Path, english: None) -> None:
    """Runs, depth and what to hand out, as ``assign --runs --depth --items``, with the
    file's pool setting as the default (which the campaign then keeps as "the pool")."""
    from rag_annotator.ui.team.menu import hand_out_defaults

    with GoldSetStore.open(_sample_master(tmp_path), read_only=True) as store:
        defaults = hand_out_defaults(store)
        n_claims = store.count("claims")
    # no campaign yet: nobody proposed (not the sample's Claire Dubois)
    assert list(defaults.assessors) == []
    dialog = HandOutDialog(defaults, tmp_path / "out")
    qtbot.addWidget(dialog)
    dialog.names.setText("ana, bruno, chloe")
    assert not dialog.every.isChecked() and dialog.runs.isEnabled()
    assert dialog.checked_runs() == ["bm25-gpt4o-v1"] and dialog.depth_box.value() == 3
    chosen = dialog.choice()
    assert (chosen["runs"], chosen["depth"], chosen["items"]) == (None, None, "pairs")
    assert chosen["control"] == 0.05
    dialog.depth_box.setValue(5)
    assert dialog.choice()["runs"] == ["bm25-gpt4o-v1"] and dialog.choice()["depth"] == 5
    dialog.every.setChecked(True)
    dialog.depth_box.setValue(0)  # every run, whole lists: said explicitly, not "the pool"
    assert dialog.choice()["runs"] == defaults.runs and dialog.choice()["depth"] is None
    dialog.items.setCurrentIndex(dialog.items.findData("claims"))
    assert not dialog.depth_box.isEnabled() and not dialog.control.isEnabled()
    assert dialog.per_pair.suffix() == " assessors per claim"
    assert dialog.per_pair_label.text() == "&Verdicts per claim (k):"
    chosen = dialog.choice()
    assert (chosen["items"], chosen["depth"], chosen["control"]) == ("claims", None, 0.0)
    assert n_claims and dialog.items.model().item(1).isEnabled()
    dialog.every.setChecked(False)
    for i in range(dialog.runs.count()):
        dialog.runs.item(i).setCheckState(Qt.CheckState.Unchecked)
    ok = dialog.buttons.button(dialog.buttons.StandardButton.Ok)
    assert not ok.isEnabled()  # no run chosen: nothing to hand out


def test_hand_out_dialog_names_the_campaign_in_the_interface_language(  # type: ignore[no-untyped-def]
        qtbot, tmp_path: Path, english: None) -> None:
    """The default name is translated with the number of assessors as its plural count; a
    typed name is kept."""
    from PySide6.QtCore import QCoreApplication, QTranslator

    from rag_annotator.ui.team.dialogs import HandOutDefaults

    class Plural(QTranslator):
        def translate(self, context, source, disambiguation=None, n=-1):  # type: ignore[no-untyped-def, override]
            if context == "HandOutDialog" and source == "%n assessor(s) × %1":
                return ("%n évaluateur × %1" if n == 1 else "%n évaluateurs × %1").replace(
                    "%n", str(n))
            return ""

    plural = Plural()
    QCoreApplication.installTranslator(plural)
    try:
        dialog = HandOutDialog(HandOutDefaults(assessors=["ana"]), tmp_path / "out")
        qtbot.addWidget(dialog)
        dialog.per_pair.setValue(1)
        assert dialog.name.text() == "1 évaluateur × 1"
        dialog.names.setText("ana, bruno, chloe")
        dialog.per_pair.setValue(2)
        assert dialog.name.text() == "3 évaluateurs × 2" == dialog.choice()["name"]
        qtbot.keyClicks(dialog.name, " (printemps)")
        dialog.names.setText("ana, bruno")
        assert dialog.choice()["name"] == "3 évaluateurs × 2 (printemps)"
    finally:
        QCoreApplication.removeTranslator(plural)


def test_team_menu_hands_out_claims_with_the_dialogs_name(  # type: ignore[no-untyped-def]
        qtbot, tmp_path: Path, english: None, monkeypatch) -> None:
    master = _sample_master(tmp_path)
    window = open_window(qtbot, master, assessor="lead")
    out = tmp_path / "out"

    def fill(dialog: HandOutDialog) -> int:
        dialog.names.setText("ana, bruno")
        dialog.items.setCurrentIndex(dialog.items.findData("claims"))
        dialog.per_pair.setValue(2)
        dialog.seed.setValue(3)
        dialog.name.setText("Relecture des affirmations")
        dialog.folder.setText(str(out))
        return QDialog.DialogCode.Accepted

    monkeypatch.setattr(HandOutDialog, "exec", fill)
    window.commands["team.hand_out"].trigger()
    job = window.team.job
    assert job is not None and job.wait_done(60) and job.error is None
    assert "claims handed out" in window.team.report_box.text()
    window.team.report_box.done(0)
    (campaign,) = window.store.campaigns()
    assert (campaign["items"], campaign["name"]) == ("claims", "Relecture des affirmations")
    claims = window.store.query(  # of the pool's run, the dialog's default
        "SELECT count(*) AS n FROM claims x JOIN answers a ON a.id = x.answer_id "
        "JOIN runs r ON r.id = a.run_id WHERE r.name = 'bm25-gpt4o-v1'")[0]["n"]
    assert claims and claims * 2 == campaign["slots"]
    assert campaign["pool_runs"] == '["bm25-gpt4o-v1"]'
    window.close()


def test_team_panel_shows_progress_on_a_claims_campaign(qtbot, tmp_path: Path,  # type: ignore[no-untyped-def]
                                                        english: None) -> None:
    from rag_annotator.domain import operations
    from rag_annotator.import_export.sample import create_sample
    from rag_annotator.import_export.team_files import hand_out

    master = tmp_path / "master.goldset"
    with create_sample(master, assessor="lead") as store:
        files = hand_out(store, ["ana", "bruno"], 1, tmp_path / "team", seed=1,
                         items="claims").files
    with GoldSetStore.open(files["ana"], assessor="ana") as store:
        assigned = store.count("claims")
        for claim in store.query("SELECT id FROM claims ORDER BY id LIMIT 4"):
            operations.set_claim_verdict(store, claim["id"], "supported", "ana")
    window, panel = _team_panel(qtbot, master, tmp_path / "team", "items_table")
    assert panel.items_table.text_at("ana", "Handed out") == "claims to verify"
    assert panel.items_table.text_at("ana", "Assigned") == str(assigned)
    assert panel.items_table.text_at("ana", "Done") == "4"
    assert panel.items_table.text_at("ana", "Remaining") == str(assigned - 4)
    assert panel.items_table.text_at("bruno", "Done") == "0"
    assert not panel.table.isVisible()  # no relevance figures: no empty table
    assert "No assignment file" not in panel.note.text()
    window.close()


def test_team_panel_shows_agreement_on_claims_given_to_two_experts(  # type: ignore[no-untyped-def]
        qtbot, tmp_path: Path, english: None) -> None:
    """Each claim handed to both experts: the panel's κ column equals scikit-learn's
    Cohen's kappa on the verdicts read back from the two files, and the note gives
    Krippendorff's α on the verdicts."""
    from sklearn.metrics import cohen_kappa_score

    from rag_annotator.domain import operations
    from rag_annotator.import_export.sample import create_sample
    from rag_annotator.import_export.team_files import hand_out

    verdicts = ("supported", "not_supported", "contradicted")
    master = tmp_path / "master.goldset"
    with create_sample(master, assessor="lead") as store:
        files = hand_out(store, ["ana", "bruno"], 2, tmp_path / "team", seed=1,
                         items="claims").files
    given: dict[str, list[str]] = {}
    for name, shift in (("ana", 0), ("bruno", 1)):
        with GoldSetStore.open(files[name], assessor=name) as store:
            ids = [r["id"] for r in store.query("SELECT id FROM claims ORDER BY id")]
            given[name] = [verdicts[(i + (shift if i % 4 == 0 else 0)) % 3] for i in ids]
            for claim_id, verdict in zip(ids, given[name]):
                operations.set_claim_verdict(store, claim_id, verdict, name)
    kappa = cohen_kappa_score(given["ana"], given["bruno"])
    window, panel = _team_panel(qtbot, master, tmp_path / "team", "items_table")
    for name in ("ana", "bruno"):
        assert panel.items_table.text_at(name, "Cohen’s κ with the others") == f"{kappa:.3f}"
    assert panel.items_note.isVisible()
    assert panel.items_note.text().startswith("Krippendorff’s α on claim verdicts: ")
    assert f"({len(given['ana'])} answered by two or more)" in panel.items_note.text()
    window.close()


def _team_panel(qtbot, master: Path, folder: Path, table: str) -> tuple[Any, Any]:  # type: ignore[no-untyped-def]
    """The lead's window on ``master`` with ``folder`` as team folder, on the Dashboard (Ctrl+6),
    once the team panel has read the folder and its ``table`` shows the two assessors."""
    window = open_window(qtbot, master, assessor="lead")
    window.ctx.team.set_folder(folder)
    qtbot.keyClick(window, Qt.Key.Key_6, Qt.KeyboardModifier.ControlModifier)
    panel = window.sections[5].team_panel
    qtbot.waitUntil(lambda: panel.status is not None
                    and getattr(panel, table).rowCount() == 2, timeout=10000)
    return window, panel


@pytest.mark.parametrize(("lang", "older", "said"), [
    ("english", 0, None), ("english", 1, "; 1 label older than the master's (its own kept)"),
    ("english", 3, "; 3 labels older than the master's (its own kept)"),
    ("french", 3, "; 3 étiquettes plus anciennes que celles du fichier maître (les siennes "
                  "gardées)")])
def test_collect_report_says_labels_older_than_the_masters(  # type: ignore[no-untyped-def]
        request, lang: str, older: int, said: str | None) -> None:
    """A file's labels that differ from the master's but are older are kept out and said,
    not counted as unchanged."""
    from types import SimpleNamespace

    from rag_annotator.import_export.team_collect import FileCollect
    from rag_annotator.ui.team.dialogs import collect_lines

    request.getfixturevalue(lang)
    file = FileCollect(Path("ana.goldset"), assessor="ana", unchanged=2, older=older)
    (line,), _details = collect_lines(SimpleNamespace(files=[file]))
    assert line.endswith(said) if said else "older" not in line and "ancienne" not in line
