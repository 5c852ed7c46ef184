"""The Dashboard's team panel: the experts' progress and agreement, live from the team folder.

Shown when the open file has a team folder (File → Team → Team Folder…; a hand-out sets it to
where the files went).  Every assignment file there is opened read-only and never written
(:func:`rag_annotator.reports.team.read_team_folder`), on a worker thread: a synced folder
may be slow, and a file being written is listed with the reason rather than waited for.  The
panel reads the folder again when the folder or one of its files changes
(QFileSystemWatcher, a change settles for :data:`SETTLE_MS` first) and every
:data:`POLL_MS` anyway (a sync engine that replaces files behind a network share is not
always seen by the watcher) — while it is shown: a read due while it is hidden is made on the
next show.

Per assessor: judged, remaining, can't judge, median seconds per judgment, Cohen's kappa with
the others, self-consistency on control pairs, and an outlier flag written as a word
("fast", "low agreement", "inconsistent") with its reason in the tooltip — never a colour
alone.  Below, Krippendorff's alpha over the team and the files that could not be read.
"""

from __future__ import annotations

import logging
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from PySide6.QtCore import QFileSystemWatcher, Qt, QTimer, Signal
from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import QGroupBox, QLabel, QVBoxLayout, QWidget

from rag_annotator.messages import render_any
from rag_annotator.metrics.team import AssessorFigures
from rag_annotator.reports.team import FolderCache, TeamStatus, read_team_folder
from rag_annotator.ui.context import UiContext
from rag_annotator.ui.dashboard.format import decimals, num, pct, translate
from rag_annotator.ui.dashboard.widgets import Cell, FigureTable
from rag_annotator.ui.models import number

log = logging.getLogger("rag_annotator")

#: How long a burst of file changes must settle before the folder is read again.
SETTLE_MS = 1500
#: Read the folder at least this often while the panel is shown.
POLL_MS = 60_000



def outlier_word(code: str) -> str:
    """The word that flags an outlier (the reason is in the tooltip)."""
    words = {"fast": translate("TeamPanel", "fast"),
             "low_kappa": translate("TeamPanel", "low agreement"),
             "inconsistent": translate("TeamPanel", "inconsistent")}
    return words.get(code, code)


class TeamPanel(QGroupBox):
    """The team folder's figures (module docstring).

    Signals:
        shown(): new figures are on screen (tests wait on it).
    """

    shown = Signal()
    _read = Signal(int, object)

    def __init__(self, ctx: UiContext, parent: QWidget | None = None) -> None:
        super().__init__(translate("TeamPanel", "Team (live from the team folder, read-only)"),
                         parent)
        self.ctx = ctx
        self.status: TeamStatus | None = None
        self._generation = 0
        self._executor: ThreadPoolExecutor | None = None
        self._stale = False  # a read was due while the panel was hidden
        self._cache: FolderCache = {}  # files unchanged since the last read are not reopened
        self.folder_label = QLabel()
        self.folder_label.setWordWrap(True)
        self.folder_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.table = FigureTable()
        self.items_table = FigureTable()  # claims and trajectories campaigns: progress
        self.note = QLabel()
        self.note.setWordWrap(True)
        self.items_note = QLabel()  # agreement on claims and trajectories
        self.items_note.setWordWrap(True)
        self.problems = QLabel()
        self.problems.setWordWrap(True)
        layout = QVBoxLayout(self)
        for widget in (self.folder_label, self.table, self.note, self.items_table,
                       self.items_note, self.problems):
            layout.addWidget(widget)
        self.watcher = QFileSystemWatcher(self)
        self.watcher.directoryChanged.connect(self._soon)
        self.watcher.fileChanged.connect(self._soon)
        self.settle = QTimer(self)
        self.settle.setSingleShot(True)
        self.settle.setInterval(SETTLE_MS)
        self.settle.timeout.connect(self.reload)
        self.poll = QTimer(self)
        self.poll.setInterval(POLL_MS)
        self.poll.timeout.connect(self.reload)
        self._read.connect(self._on_read, Qt.ConnectionType.QueuedConnection)
        if ctx.team is not None:
            ctx.team.changed.connect(self.follow_folder)
        self.follow_folder()

    def folder(self) -> Path | None:
        return self.ctx.team.folder() if self.ctx.team is not None else None

    def follow_folder(self) -> None:
        """Watch the open file's team folder (hidden when it has none)."""
        paths = self.watcher.directories() + self.watcher.files()
        if paths:
            self.watcher.removePaths(paths)
        folder = self.folder()
        self.setVisible(folder is not None)
        self.status = None
        self._cache = {}
        if folder is None:
            self.poll.stop()
            return
        self.folder_label.setText(translate("TeamPanel", "Folder: %1").replace("%1", str(folder)))
        if folder.is_dir():
            self.watcher.addPath(str(folder))
        self.poll.start()
        self.reload()

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        if self._stale:
            self.reload()

    def _soon(self, *_args: object) -> None:
        self.settle.start()

    def reload(self) -> None:
        """Read the folder again on a worker thread (when shown; else on the next show)."""
        folder, store = self.folder(), self.ctx.hub.store
        if folder is None or store is None:
            return
        if not self.isVisible():
            self._stale = True
            return
        self._stale = False
        self._generation += 1
        if self._executor is None:
            self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="team")
        campaigns = {str(c["uuid"]) for c in store.campaigns()} or None
        self._executor.submit(self._read_on_worker, self._generation, folder, store.path,
                              campaigns)

    def _read_on_worker(self, generation: int, folder: Path, master: Path,
                        campaigns: set[str] | None) -> None:
        if generation != self._generation:
            return
        try:
            status = read_team_folder(folder, skip=master, campaigns=campaigns,
                                      cache=self._cache)
        except Exception:  # a bug: logged; the panel keeps its last figures
            log.exception("team panel: reading the team folder failed")
            return
        try:
            self._read.emit(generation, status)
        except RuntimeError:  # the panel was deleted meanwhile (window closed)
            return

    def _on_read(self, generation: int, status: TeamStatus) -> None:
        if generation != self._generation:
            return
        self.status = status
        self._watch_files(status)
        self.show_status(status)
        self.shown.emit()

    def _watch_files(self, status: TeamStatus) -> None:
        folder = Path(status.folder)
        wanted = {str(folder / f.name) for f in status.files}
        watched = set(self.watcher.files())
        if wanted - watched:
            self.watcher.addPaths(sorted(wanted - watched))
        if folder.is_dir() and str(folder) not in self.watcher.directories():
            self.watcher.addPath(str(folder))

    # -- showing ---------------------------------------------------------------------------
    def show_status(self, status: TeamStatus) -> None:
        figures = status.figures
        columns = [translate("TeamPanel", "Judged"), translate("TeamPanel", "Remaining"),
                   translate("TeamPanel", "Can’t judge"),
                   translate("TeamPanel", "Median s / judgment"),
                   translate("TeamPanel", "Cohen’s κ with the others"),
                   translate("TeamPanel", "Self-consistency"), translate("TeamPanel", "Flag")]
        rows = [(a.name, self._cells(a)) for a in figures.assessors]
        self.table.setVisible(bool(rows))
        self.table.fill(columns, rows)
        self._show_items(status)
        if rows:
            self.note.setText(translate("TeamPanel",
                "Krippendorff’s α over the team: %1 (%2 pairs judged by two or more). κ: mean "
                "of each assessor’s Cohen’s κ with each colleague, on the pairs both judged. "
                "Self-consistency: control pairs given the same label twice. A flag names an "
                "outlier: fast (median time under a third of the team’s), low agreement (κ "
                "more than 0.2 below the team’s median), inconsistent (under 67 % on 3 control "
                "pairs or more). — means not defined yet.")
                .replace("%1", num(figures.alpha)).replace("%2", number(figures.units)))
        else:
            self.note.setText("" if figures.items else translate(
                "TeamPanel", "No assignment file has been read in this folder yet."))
        self.note.setVisible(bool(self.note.text()))
        # the reasons are the core's messages: in the window's language
        lines = [translate("TeamPanel", "%1: not read — %2").replace("%1", f.name)
                 .replace("%2", render_any(f.problem))
                 for f in status.unread]
        lines += [render_any(note) for note in status.notes]
        self.problems.setText("\n".join(lines))
        self.problems.setVisible(bool(lines))

    def _show_items(self, status: TeamStatus) -> None:
        """Per assessor, the claims to verify or trajectories to review handed to them:
        assigned, done, remaining (the relevance figures above do not cover them)."""
        kinds = {"claims": translate("TeamPanel", "claims to verify"),
                 "trajectories": translate("TeamPanel", "trajectories to review")}
        columns = [translate("TeamPanel", "Handed out"), translate("TeamPanel", "Assigned"),
                   translate("TeamPanel", "Done"), translate("TeamPanel", "Remaining"),
                   translate("TeamPanel", "Cohen’s κ with the others")]
        rows = [(p.name, [(kinds.get(p.items, p.items), None, ""),
                          (number(p.assigned), None, ""), (number(p.done), None, ""),
                          (number(p.remaining), None, ""), (num(p.kappa), None, "")])
                for p in status.figures.items]
        self.items_table.setVisible(bool(rows))
        self.items_table.fill(columns, rows)
        questions = {"verdict": translate("TeamPanel", "claim verdicts"),
                     "task_success": translate("TeamPanel", "task success"),
                     "path_acceptable": translate("TeamPanel", "acceptable path")}
        lines = [translate("TeamPanel", "Krippendorff’s α on %1: %2 (%3 answered by two or "
                                        "more).")
                 .replace("%1", questions.get(a.question, a.question))
                 .replace("%2", num(a.alpha)).replace("%3", number(a.units))
                 for a in status.figures.items_agreement]
        if lines:
            lines.append(translate("TeamPanel", "κ here: mean of each assessor’s Cohen’s κ "
                                                "with each colleague on the items both "
                                                "answered (claim verdicts; for trajectories, "
                                                "task success)."))
        self.items_note.setText("\n".join(lines))
        self.items_note.setVisible(bool(lines))

    def _cells(self, a: AssessorFigures) -> list[Cell]:
        consistency, timed = pct(a.self_consistency), a.timed  # lupdate: a plain count
        if a.controls:
            consistency += f" ({a.consistent}/{a.controls})"
        flag = ", ".join(outlier_word(o.code) for o in a.outliers) or "—"
        tip = "\n".join(o.reason for o in a.outliers)
        return [(number(a.judged), None, ""),
                ("—" if a.remaining is None else number(a.remaining), None, ""),
                (number(a.cant_judge), None, ""),
                (decimals(a.median_seconds, 1), None,
                 self.tr("%n timed judgment(s)", "", timed)),
                (num(a.kappa), None, ""), (consistency, None, ""), (flag, None, tip)]
