"""The life cycle of the file a window shows: open (or read-only), lock heartbeat, backups,
restore from a backup, merge a colleague's file, save a copy, close.

:class:`FileLife` is owned by the main window (``window.files``), which keeps the menus, the
sections and the status bar; this class keeps everything that decides *which* file is open
and in what state.  It talks back through two signals (the store's state changed, a status
message) and never reaches into the window's widgets, so the window's layout can change
without touching how files are opened, and the life cycle can be followed in one place.

Its texts keep the ``MainWindow`` translation context they had before the split, so the
French catalogue needs no change.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication, QObject, QTimer, Signal
from PySide6.QtWidgets import QMenu, QWidget

from rag_annotator.domain.changes import Changes
from rag_annotator.errors import KnownError, ReadOnlyLocation
from rag_annotator.paths import user_folder
from rag_annotator.settings import Settings
from rag_annotator.storage.lock import (
    HEARTBEAT_SECONDS,
    STALE_AFTER_SECONDS,
    FileInUse,
    FutureLock,
    lock_path,
)
from rag_annotator.storage.store import GoldSetStore
from rag_annotator.ui.backups import BackupScheduler
from rag_annotator.ui.hub import Hub
from rag_annotator.ui.undo import UndoController

if TYPE_CHECKING:
    from rag_annotator.import_export.merge import MergeReport
    from rag_annotator.paths import AppPaths

GOLDSET_FILTER = "*.goldset"
# lupdate finds ``translate("MainWindow", "literal")`` calls (the context of these texts
# before they left ``MainWindow``; a ``#:`` comment here would become a translator note).
translate = QCoreApplication.translate


def show_known_error(parent: QWidget | None, error: KnownError | str) -> None:
    """:func:`rag_annotator.ui.errors.show_known_error`, imported when first needed: its
    dialogs' Qt classes cost milliseconds at startup, for a message that may never come."""
    from rag_annotator.ui.errors import show_known_error as show

    show(parent, error)


def _since(iso: str) -> str:
    return iso.replace("T", " ")[:16] + " UTC"


class FileLife(QObject):
    """Opens, watches and closes the window's gold-set file.

    Signals:
        state_changed(): a file was opened or closed, or became read-only.
        message(str, int): a status-bar message and how long to show it (ms).

    Attributes:
        read_only_reason: why the open file is read-only ("" when it is not, or no reason).
        backups: when the open file is copied to the backups folder.
    """

    state_changed = Signal()
    message = Signal(str, int)

    def __init__(self, window: QWidget, hub: Hub, undo: UndoController, settings: Settings,
                 paths: Callable[[], AppPaths], assessor: Callable[[], str],
                 save_settings: Callable[[], None],
                 later: Callable[[Callable[[], None]], None] = lambda job: job()) -> None:
        super().__init__(window)
        self._window = window  # the parent of every dialog
        self._hub = hub
        self._undo = undo
        self._settings = settings
        self._paths = paths
        self._assessor = assessor
        self._save_settings = save_settings
        self._later = later  # runs what the window's first paint need not wait for
        self.read_only_reason = ""
        self.heartbeat = QTimer(self)
        self.heartbeat.setInterval(HEARTBEAT_SECONDS * 1000)
        self.heartbeat.timeout.connect(self._heartbeat)
        self.heartbeat.start()
        self.backups = BackupScheduler(lambda: paths().backups)
        self.backup_timer = QTimer(self)
        self.backup_timer.setInterval(5 * 60 * 1000)
        self.backup_timer.timeout.connect(lambda: self.backups.maybe(self.store))
        self.backup_timer.start()
        hub.changes_applied.connect(lambda _changes: self.backups.changed())

    @property
    def store(self) -> GoldSetStore | None:
        """The open gold set."""
        return self._hub.store

    # -- opening and closing -----------------------------------------------------------------
    def set_store(self, store: GoldSetStore | None, *, remember: bool = False) -> None:
        """Show ``store`` (or nothing), closing the file shown before.

        ``remember`` puts the file first in the recent files (the user opened it).
        """
        previous = self._hub.store
        if store is not None:
            # an assignment file's judgments are its expert's, whoever the session is
            store.assessor = self._assessor() or (store.assignment_info() or {}).get(
                "assessor", "")
        self._hub.set_store(store)
        if previous is not None and previous is not store:
            self.backups.on_close(previous)
            previous.close()
        if store is not None and remember:
            self._settings.add_recent(store.path)
            self._save_settings()
        self.state_changed.emit()
        if store is not None:
            self._later(lambda: self._clean_backup_leftovers(store))
            # A large file's quick check starts here, once painted: its thread would share
            # the CPU with the first paint (any write still waits for its verdict).
            self._later(lambda: self._watch_quick_check(store)
                        if self._hub.store is store else None)
            # The first copy waits until the window has settled (it reads the whole file).
            QTimer.singleShot(10_000, lambda: self.backups.maybe(store)
                              if self._hub.store is store else None)
            self.backups.changed()  # a large file: its first copy waits for a pause

    def _clean_backup_leftovers(self, store: GoldSetStore) -> None:
        """Copies of a backup killed mid-way (the file's own folder is cleaned on opening)."""
        if self._hub.store is not store:
            return
        from rag_annotator.storage import backups, tempfiles

        tempfiles.clean_leftovers(backups.folder_for(store.path, self.backups.root))

    def _watch_quick_check(self, store: GoldSetStore) -> None:
        """Start and follow a large file's background quick check; if it finds damage, say
        so and keep the file read-only (writes were waiting for the verdict, so none went
        in)."""
        try:
            damage = store.damage(timeout=0)
        except TimeoutError:
            QTimer.singleShot(200, lambda: self._watch_quick_check(store)
                              if self._hub.store is store else None)
            return
        if damage is not None:
            store.read_only = True
            self.read_only_reason = translate(
                "MainWindow",
                "Read-only: this file failed its integrity check (nothing was written to it). "
                "Restore it from a backup (File → Restore from Backup…) or keep a copy.")
            self.state_changed.emit()
            show_known_error(self._window, damage)

    def open_file(self, path: str | Path) -> bool:
        """Open a gold-set file; a KnownError is shown and the current file stays open.

        The file is locked for this window (one writer per file): when another copy of the
        app has it open, the user is told by whom and since when and may open it read-only;
        a file in a folder that cannot be written opens read-only.  Both show a banner.
        """
        reason = ""
        store: GoldSetStore | None
        try:
            store = GoldSetStore.open(path, assessor=self._assessor(), verify="auto",
                                      lock=True)
        except FileInUse as busy:
            if not self.ask_read_only(busy):
                return False
            reason = translate("MainWindow",
                               "Read-only: this file is open in rag-annotator by %1 (host %2) "
                               "since %3. Close it there to edit it here.") \
                .replace("%1", busy.holder.assessor or "?").replace("%2", busy.holder.host) \
                .replace("%3", _since(busy.holder.since))
            store = self._open_read_only(path)
        except ReadOnlyLocation:
            reason = translate("MainWindow",
                               "Read-only: the file or its folder cannot be written. Copy it "
                               "somewhere you can write (File → Save a Copy…) to edit it.")
            store = self._open_read_only(path)
        except KnownError as error:
            show_known_error(self._window, error)
            return False
        if store is None:
            return False
        self.read_only_reason = reason
        self.set_store(store, remember=True)
        if store.lock is not None and store.lock.took_over is not None:
            self.message.emit(
                translate("MainWindow",
                          "This file was still locked by %1, whose copy of the app had "
                          "stopped: the lock is yours now.")
                .replace("%1", store.lock.took_over.assessor or store.lock.took_over.host),
                15000)
        return True

    def _open_read_only(self, path: str | Path) -> GoldSetStore | None:
        try:
            return GoldSetStore.open(path, assessor=self._assessor(), read_only=True,
                                     verify="auto")
        except KnownError as error:
            show_known_error(self._window, error)
            return None

    def ask_read_only(self, busy: FileInUse) -> bool:
        """Tell who has the file open; True if the user wants it read-only."""
        from PySide6.QtWidgets import QMessageBox

        box = QMessageBox(QMessageBox.Icon.Information, translate("MainWindow", "File in Use"),
                          translate("MainWindow", "“%1” is open in rag-annotator by %2 on %3 "
                                                  "since %4.")
                          .replace("%1", busy.path.name if busy.path else "")
                          .replace("%2", busy.holder.assessor or "?")
                          .replace("%3", busy.holder.host)
                          .replace("%4", _since(busy.holder.since)),
                          parent=self._window)
        informative = translate(
            "MainWindow",
            "Only one copy of the app may change a file at a time, so no judgment is ever "
            "lost. You can open it read-only to look at it.")
        if isinstance(busy, FutureLock):
            informative += "\n\n" + translate(
                "MainWindow",
                "Its lock is dated in the future (that computer’s clock is ahead, or the lock "
                "file was copied). It counts as abandoned once it has not changed for %1 "
                "minutes; if nobody has the file open, you may delete “%2”.").replace(
                "%1", str(STALE_AFTER_SECONDS // 60)).replace(
                "%2", lock_path(busy.path).name if busy.path else "")
        box.setInformativeText(informative)
        read_only = box.addButton(translate("MainWindow", "Open Read-Only"),
                                  QMessageBox.ButtonRole.AcceptRole)
        box.addButton(QMessageBox.StandardButton.Cancel)
        box.exec()
        return box.clickedButton() is read_only

    def new_file(self, path: str | Path) -> bool:
        """Create an empty gold-set file and open it."""
        file = Path(path)
        if file.suffix != ".goldset":
            file = file.with_name(file.name + ".goldset")
        try:
            store = GoldSetStore.create(file, assessor=self._assessor(), lock=True)
        except KnownError as error:
            show_known_error(self._window, error)
            return False
        self.set_store(store, remember=True)
        return True

    def open_sample(self) -> bool:
        """Open the built-in sample, creating it on first use."""
        paths = self._paths()
        if paths.sample_file.exists():
            return self.open_file(paths.sample_file)
        from rag_annotator.import_export.sample import create_sample  # rarely needed

        try:
            paths.ensure()
            store = create_sample(paths.sample_file, assessor=self._assessor(), lock=True)
        except KnownError as error:
            show_known_error(self._window, error)
            return False
        self.set_store(store, remember=True)
        return True

    def close_file(self) -> None:
        """Close the open file (nothing to save: every change is already in it)."""
        self.set_store(None)

    def shutdown(self) -> None:
        """The window closes: close the file and wait for the last backup copy."""
        store = self._hub.store
        self._hub.set_store(None)
        if store is not None:
            self.backups.on_close(store)
            store.close()
        self.backups.wait()

    def _heartbeat(self) -> None:
        store = self.store
        if store is not None and store.lock is not None:
            store.lock.heartbeat()

    # -- restore, merge, copy ----------------------------------------------------------------
    def ask_restore(self) -> None:
        """File → Restore from Backup…: choose a backup of the open file and restore it."""
        if self.store is None:
            return
        from rag_annotator.ui.backup_dialog import RestoreDialog

        dialog = RestoreDialog(self.store.path, self._paths().backups, self._window)
        if dialog.exec() and dialog.chosen is not None:
            self.restore_backup(dialog.chosen)

    def restore_backup(self, backup: Path) -> bool:
        """Replace the open file's content with ``backup`` (a copy of the current content is
        kept first), then open it again.  Refused, with the file unchanged, on any error."""
        from rag_annotator.storage import backups

        store = self.store
        if store is None or store.read_only:
            return False
        path = store.path
        self.set_store(None)
        self.backups.wait()  # the copy taken on closing, if any, is finished
        try:
            backups.restore(path, backup, self._paths().backups)
        except KnownError as error:
            show_known_error(self._window, error)
            self.open_file(path)
            return False
        opened = self.open_file(path)
        if opened:
            self.message.emit(translate("MainWindow", "Backup %1 restored; the previous content "
                                                      "is kept in the backups.")
                              .replace("%1", backup.name[:15]), 15000)
        return opened

    def merge_file(self, path: str | Path) -> MergeReport | None:
        """Bring in a colleague's judgments, verdicts and adjudications (one undoable
        operation) and show what came in and every conflict."""
        from rag_annotator.import_export.merge import merge_file
        from rag_annotator.ui.judge.dialogs import show_merge_report

        reports: list[MergeReport] = []

        def run(store: GoldSetStore) -> Changes:
            report = merge_file(store, Path(path))
            reports.append(report)
            assert report.changes is not None  # a merge that ran always says what it changed
            return report.changes

        self._undo.run(run)
        if not reports:
            return None
        show_merge_report(self._window, reports[0])
        return reports[0]

    def save_copy(self, path: str | Path) -> bool:
        """Write a consistent copy of the open file (SQLite backup API)."""
        if self.store is None:
            return False
        try:
            dest = self.store.save_copy(path)
        except KnownError as error:
            show_known_error(self._window, error)
            return False
        self.message.emit(translate("MainWindow", "Copy saved to %1").replace("%1", str(dest)),
                          8000)
        return True

    # -- the File menu's questions -----------------------------------------------------------
    def _start_folder(self) -> str:
        """The open file's folder, else (none open, or the sample's: the app's own data
        folder, with its backups, locks and temporary files) the documents folder."""
        return str(user_folder(self.store.path if self.store is not None else None))

    def _filter(self) -> str:
        return translate("MainWindow", "Gold sets (%1)").replace("%1", GOLDSET_FILTER)

    def ask_new(self) -> None:
        """File → New: where to create the gold set."""
        from PySide6.QtWidgets import QFileDialog

        path, _ = QFileDialog.getSaveFileName(
            self._window, translate("MainWindow", "New Gold Set"), self._start_folder(),
            self._filter(), options=QFileDialog.Option.DontConfirmOverwrite)
        if path:
            self.new_file(path)

    def ask_open(self) -> None:
        """File → Open: which gold set to open."""
        from PySide6.QtWidgets import QFileDialog

        path, _ = QFileDialog.getOpenFileName(
            self._window, translate("MainWindow", "Open a Gold Set"), self._start_folder(),
            self._filter() + ";;" + translate("MainWindow", "All files (*)"))
        if path:
            self.open_file(path)

    def ask_save_copy(self) -> None:
        """File → Save a Copy: where to write it."""
        if self.store is None:
            return
        from PySide6.QtWidgets import QFileDialog

        suggested = user_folder(self.store.path) / (self.store.path.stem + "-copy.goldset")
        path, _ = QFileDialog.getSaveFileName(
            self._window, translate("MainWindow", "Save a Copy"), str(suggested),
            self._filter())
        if path:
            self.save_copy(path)

    def ask_merge(self) -> None:
        """File → Merge a Colleague's File: which file to bring in."""
        if self.store is None:
            return
        from PySide6.QtWidgets import QFileDialog

        path, _ = QFileDialog.getOpenFileName(
            self._window, translate("MainWindow", "Merge a Colleague’s File"),
            self._start_folder(), self._filter())
        if path:
            self.merge_file(path)

    def fill_recent_menu(self, menu: QMenu) -> None:
        """File → Open Recent: the remembered files (those gone are greyed)."""
        menu.clear()
        for path in self._settings.recent_files:
            action = menu.addAction(path)
            action.setEnabled(Path(path).exists())
            action.triggered.connect(lambda _checked=False, p=path: self.open_file(p))
        if not self._settings.recent_files:
            menu.addAction(translate("MainWindow", "No recent file")).setEnabled(False)
