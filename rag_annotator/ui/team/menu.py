"""File → Team: hand out assignment files, collect them back, choose the team folder.

:class:`TeamMenu` is built by the main window (one line there); it keeps its own dialogs and
background jobs (:mod:`rag_annotator.ui.team.jobs`), so the window and the file life cycle
stay as they were.  Handing out and collecting write the master, so they are off for a
read-only file and for an assignment file (an expert's file hands nothing out).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QCoreApplication, QObject
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QMenu, QWidget

from rag_annotator.paths import user_folder
from rag_annotator.ui.context import UiContext
from rag_annotator.ui.team.folders import TeamFolders

if TYPE_CHECKING:  # imported when used: the menu is built at start-up (issue 19)
    from PySide6.QtWidgets import QMessageBox

    from rag_annotator.ui.team.dialogs import HandOutDefaults
    from rag_annotator.ui.team.jobs import TeamJob

translate = QCoreApplication.translate


def hand_out_defaults(store: Any) -> HandOutDefaults:
    """What the Hand Out dialog proposes for the open file: its pool setting, its runs, the
    team of its last campaign, how many claims and trajectories there are to hand out.

    Before a first campaign nobody is proposed: who judged the file so far (the sample's
    fictional assessor, a colleague merged in) is not who the lead hands work to, and a name
    proposed by mistake becomes a file sent to the wrong person."""
    from rag_annotator.ui.team.dialogs import HandOutDefaults

    pool_runs, pool_depth = store.pool_settings()
    campaigns = store.campaigns()
    return HandOutDefaults(
        assessors=list(campaigns[-1]["assessors"]) if campaigns else [],
        runs=[str(r["name"]) for r in store.runs_summary()], pool_runs=pool_runs,
        pool_depth=pool_depth,
        counts={kind: store.count(kind) for kind in ("claims", "trajectories")})


class TeamMenu(QObject):
    """The Team submenu and what its commands do.

    Attributes:
        menu: the submenu the window puts in its File menu.
        job: the hand-out or collect running (or last run), for tests.
        report_box: the last report shown (for tests).
    """

    def __init__(self, window: QWidget, ctx: UiContext, commands: dict[str, QAction],
                 folders: TeamFolders) -> None:
        super().__init__(window)
        self.window, self.ctx, self.folders = window, ctx, folders
        self.commands = commands
        self.job: TeamJob | None = None
        self.report_box: QMessageBox | None = None
        self.menu = QMenu(translate("TeamMenu", "&Team"), window)
        for action_id in ("team.hand_out", "team.collect", "team.folder"):
            self.menu.addAction(commands[action_id])
        commands["team.hand_out"].triggered.connect(self.ask_hand_out)
        commands["team.collect"].triggered.connect(self.ask_collect)
        commands["team.folder"].triggered.connect(self.ask_folder)
        ctx.hub.store_replaced.connect(lambda _store: self.update_state())
        self.update_state()

    def update_state(self) -> None:
        """Enable what the open file allows."""
        store = self.ctx.hub.store
        master = (store is not None and not store.read_only
                  and store.assignment_info() is None)
        for action_id in ("team.hand_out", "team.collect"):
            self.commands[action_id].setEnabled(master)
        self.commands["team.folder"].setEnabled(store is not None)

    # -- hand out --------------------------------------------------------------------------
    def ask_hand_out(self) -> None:
        """The hand-out dialog, then the hand-out in the background."""
        store = self.ctx.hub.store
        if store is None:
            return
        default = user_folder(store.path) / f"{store.path.stem}-assignments"
        from rag_annotator.ui.team.dialogs import HandOutDialog

        dialog = HandOutDialog(hand_out_defaults(store), default, self.window)
        if dialog.exec():
            self.hand_out(**dialog.choice())

    def hand_out(self, assessors: Sequence[str], per_pair: int, out_dir: Path,
                 control: float = 0.0, seed: int | None = None, *,
                 runs: Sequence[str] | None = None, depth: int | None = None,
                 items: str = "pairs", name: str = "") -> TeamJob | None:
        """Create the campaign and write one file per assessor (``team_files.hand_out``)."""
        if self.ctx.hub.store is None or not self.ctx.undo.ensure_name():
            return None
        from rag_annotator.import_export.team_files import hand_out

        def work(store: Any, cancel: Any, progress: Any) -> Any:
            return hand_out(store, list(assessors), per_pair, out_dir, control=control,
                            seed=seed, cancel=cancel, progress=progress,
                            runs=None if runs is None else list(runs), depth=depth,
                            items=items, name=name)

        label = translate("TeamMenu", "Handing out assignments…")
        from rag_annotator.ui.team.jobs import TeamJob

        self.job = TeamJob(self.ctx, self.window, label, work)
        self.job.finished.connect(lambda report: self._handed_out(report, items))
        return self.job

    def _handed_out(self, report: Any, items: str = "pairs") -> None:
        if report is not None:
            from rag_annotator.ui.team.dialogs import show_hand_out_report

            self.report_box = show_hand_out_report(self.window, report, items)
            if self.folders.folder() is None and report.files:
                self.folders.set_folder(next(iter(report.files.values())).parent)

    # -- collect ---------------------------------------------------------------------------
    def ask_collect(self) -> None:
        """Choose files (or a folder), then collect them in the background."""
        store = self.ctx.hub.store
        if store is None:
            return
        start = self.folders.folder() or user_folder(store.path)
        from rag_annotator.ui.team.dialogs import ask_collect_sources

        sources = ask_collect_sources(self.window, str(start))
        if sources:
            self.collect(sources)

    def collect(self, sources: Sequence[Path]) -> TeamJob | None:
        """Collect ``sources`` (``team_files.collect``): one undoable step per file."""
        if self.ctx.hub.store is None or not self.ctx.undo.ensure_name():
            return None
        from rag_annotator.import_export.team_files import collect

        def work(store: Any, cancel: Any, progress: Any) -> Any:
            return collect(store, list(sources), cancel=cancel, progress=progress)

        label = translate("TeamMenu", "Collecting assignment files…")
        from rag_annotator.ui.team.jobs import TeamJob

        self.job = TeamJob(self.ctx, self.window, label, work)
        self.job.finished.connect(self._collected)
        return self.job

    def _collected(self, report: Any) -> None:
        if report is not None:
            from rag_annotator.ui.team.dialogs import show_collect_report

            self.report_box = show_collect_report(self.window, report)

    # -- team folder -----------------------------------------------------------------------
    def ask_folder(self) -> None:
        """Choose the folder the experts' files arrive in (the Dashboard watches it)."""
        store = self.ctx.hub.store
        if store is None:
            return
        from PySide6.QtWidgets import QFileDialog  # the window's first paint needs no dialog

        start = self.folders.folder() or user_folder(store.path)
        chosen = QFileDialog.getExistingDirectory(
            self.window, translate("TeamMenu", "Team Folder: where the experts' files arrive"),
            str(start))
        if chosen:
            self.folders.set_folder(Path(chosen))
