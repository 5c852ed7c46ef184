"""The main window: navigation between the sections, menus, status bar.

The window shows the open :class:`GoldSetStore` (held by the hub); which file is open, and
how it is opened, locked, backed up, restored, merged and closed, is :class:`FileLife`'s
business (``ui/file_life.py``, ``window.files``).  Sections follow through
``Hub.store_replaced``.  There is no Save: every edit commits when it is made (DESIGN section
3), so closing never asks anything.  Every menu command comes from the action registry
(``actions.py``).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, overload

import shiboken6
from PySide6.QtCore import QByteArray, QCoreApplication, Qt, QTimer
from PySide6.QtGui import QAction, QActionGroup
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QListWidget,
    QMainWindow,
    QMenu,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from rag_annotator.settings import Settings
from rag_annotator.storage.store import GoldSetStore
from rag_annotator.ui import actions
from rag_annotator.ui.backups import BackupScheduler
from rag_annotator.ui.context import UiContext
from rag_annotator.ui.file_life import FileLife
from rag_annotator.ui.guide.empty import install_empty_hints
from rag_annotator.ui.guide.start import StartSteps
from rag_annotator.ui.guide.welcome import NoFilePage, Welcome
from rag_annotator.ui.hub import Hub
from rag_annotator.ui.look import colours, names
from rag_annotator.ui.look.appearance import Appearance
from rag_annotator.ui.look.zoom import PaddedItems, TextZoom, scrolling
from rag_annotator.ui.progress import JudgingProgress
from rag_annotator.ui.status_line import StatusLine
from rag_annotator.ui.undo import UndoController

if TYPE_CHECKING:
    from PySide6.QtGui import QCloseEvent, QPaintEvent, QShowEvent

    from rag_annotator.paths import AppPaths
    from rag_annotator.ui.sections.base import Section

#: The registry's areas whose commands the window itself holds (its menus); each section
#: makes its own (``Section.install_commands``), when it is built.
WINDOW_AREAS = frozenset({"file", "edit", "go", "view", "settings", "help"})
SECTION_ACTIONS = ("go.goldset", "go.corpus", "go.runs", "go.judge", "go.verify",
                   "go.dashboard", "go.history", "go.agents")
# (module, class) of each section, in navigation order.  Imported and built when first
# shown: startup then pays only for the section on screen (issue: window shown <= 2x a bare
# PySide6 window on a 1M-judgment file).
SECTION_CLASSES = (
    ("rag_annotator.ui.goldset.section", "GoldSetSection"),
    ("rag_annotator.ui.sections.corpus", "CorpusSection"),
    ("rag_annotator.ui.sections.runs", "RunsSection"),
    ("rag_annotator.ui.judge.section", "JudgeSection"),
    ("rag_annotator.ui.verify.section", "VerifySection"),
    ("rag_annotator.ui.dashboard.section", "DashboardSection"),
    ("rag_annotator.ui.sections.history", "HistorySection"),
    ("rag_annotator.ui.agents.section", "AgentsSection"),
)
# The section that holds an assignment file's queue, by what its campaign handed out.
QUEUE_SECTIONS = {"pairs": 3, "claims": 4, "trajectories": 7}


def queue_section(store: GoldSetStore) -> int | None:
    """The section an expert's assignment file opens on (Judge for pairs, Verify for
    claims, Agents for trajectories); None for any other file."""
    if store.assignment_info() is None:
        return None
    campaigns = store.campaigns()
    items = str(campaigns[-1]["items"]) if campaigns else "pairs"
    return QUEUE_SECTIONS.get(items, 3)


class Sections(Sequence["Section"]):
    """The seven sections in navigation order, each built on first access.

    Indexing or iterating builds what it reaches (tests unpack every section); the window
    itself only touches :meth:`built` ones until the user navigates.
    """

    def __init__(self, window: MainWindow) -> None:
        self._window = window
        self._built: list[Section | None] = [None] * len(SECTION_CLASSES)

    def __len__(self) -> int:
        return len(self._built)

    @overload
    def __getitem__(self, index: int) -> Section: ...

    @overload
    def __getitem__(self, index: slice) -> list[Section]: ...

    def __getitem__(self, index: int | slice) -> Section | list[Section]:
        if isinstance(index, slice):
            return [self[i] for i in range(len(self))[index]]
        i = range(len(self))[index]  # IndexError past the end (ends iteration)
        section = self._built[i]
        if section is None:
            section = self._built[i] = self._window._build_section(i)
        return section

    def __iter__(self) -> Iterator[Section]:
        return (self[i] for i in range(len(self)))

    def built(self) -> list[Section]:
        """The sections constructed so far (the others have nothing to update)."""
        return [s for s in self._built if s is not None]


class MainWindow(QMainWindow):
    """The application window.

    Attributes:
        hub, undo, progress: the shared change hub, undo controller and judging counts.
        files: the open file's life cycle (:class:`FileLife`); ``open_file``, ``set_store``,
            ``new_file``, ``save_copy`` and ``close_file`` here are its entry points.
        sections: the seven section widgets, in navigation order, each built on first
            access (until then its page in ``section_stack`` is an empty placeholder).
        commands: every window-level QAction, by registry id.
    """

    def __init__(self, settings: Settings, paths: AppPaths | None = None, *,
                 assessor: str = "") -> None:
        super().__init__()
        self.settings = settings
        self._paths = paths
        self.assessor = assessor or settings.assessor
        self.hub = Hub(self)
        self.undo = UndoController(self.hub, lambda: self, self.name_for_first_change)
        self.progress = JudgingProgress(self.hub)
        self.progress.hold()  # until the window is first painted (see paintEvent)
        # What the first paint does not need waits for it (after_first_paint): None once run.
        self._after_paint: list[Callable[[], None]] | None = []  # then the counts (see below)
        from rag_annotator.ui.pages.render import PageRenderer

        self.ctx = UiContext(self.hub, self.undo, self.progress, PageRenderer(self))
        from rag_annotator.ui.team.folders import TeamFolders

        self.team_folders = TeamFolders(self.hub, settings, self._save_settings, self)
        self.ctx.team = self.team_folders
        self.files = FileLife(self, self.hub, self.undo, settings, lambda: self.paths,
                              lambda: self.assessor, self._save_settings, self.after_first_paint)
        self.files.state_changed.connect(self._show_store_state)
        self.files.message.connect(
            lambda text, ms: self.statusBar().showMessage(text, ms))
        self.resize(1280, 800)
        self.setWindowTitle("rag-annotator")
        self.zoom = TextZoom(settings, self._save_settings, self)  # before any widget
        self.appearance = Appearance(settings, self._save_settings, self)
        self.appearance.changed.connect(self._restyle)

        self.sections = Sections(self)
        self.pages = QStackedWidget()
        self.pages.addWidget(QWidget())  # "No gold set is open", built when first shown
        self.pages.addWidget(self._build_workspace())
        self.setCentralWidget(self.pages)

        self.commands: dict[str, QAction] = actions.make_actions(
            [s.id for s in actions.REGISTRY if s.section in WINDOW_AREAS], self)
        self._build_menus()
        self._connect_actions()
        self._build_status_bar()
        self._painted = False
        self._shown_store: GoldSetStore | None = None  # the file the sections last showed
        self._restore_window_state()
        self.after_first_paint(lambda: names.install(self))  # accessible names (look/names.py)
        self._show_store_state()

    def _build_workspace(self) -> QWidget:
        """The navigation list, the read-only banner and the section pages."""
        self.nav = QListWidget()
        self.nav.setObjectName("navigation")
        self.nav.setItemDelegate(PaddedItems(self.nav))  # padded rows that follow the zoom
        self.section_stack = QStackedWidget()
        for action_id in SECTION_ACTIONS:
            self.nav.addItem(actions.tr(actions.spec(action_id).label))
            self.section_stack.addWidget(QWidget())  # placeholder until first shown
        self._fit_nav()
        self.nav.currentRowChanged.connect(self._on_nav)

        self.zoom.changed.connect(self._fit_nav)
        self.read_only_banner = QLabel()
        self.read_only_banner.setObjectName("readOnlyBanner")
        self.read_only_banner.setWordWrap(True)
        colours.paint_banner(self.read_only_banner, "alert_banner", 6)
        self.read_only_banner.setVisible(False)
        workspace = QWidget()
        workspace_column = self._workspace_column = QVBoxLayout(workspace)
        workspace_column.setContentsMargins(4, 4, 4, 4)
        workspace_column.addWidget(self.read_only_banner)
        self._welcome: Welcome | None = None  # the first start's: made when first shown
        self.start_steps = StartSteps(self)  # an empty file's first steps (issue 21)
        workspace_column.addWidget(self.start_steps)
        workspace_layout = QHBoxLayout()
        workspace_layout.setContentsMargins(0, 0, 0, 0)
        workspace_layout.addWidget(self.nav)
        workspace_layout.addWidget(scrolling(self.section_stack), 1)  # fits when zoomed
        workspace_column.addLayout(workspace_layout, 1)
        return workspace

    @property
    def welcome(self) -> Welcome:
        """The first start's welcome, above the sections (built on first use: later starts
        never show it)."""
        if self._welcome is None:
            self._welcome = Welcome(self)
            self._workspace_column.insertWidget(1, self._welcome)  # under the banner
        return self._welcome

    def _fit_nav(self, *_zoom: object) -> None:
        """The navigation list as wide as its longest name (again after a text zoom)."""
        self.nav.setFixedWidth(max(160, self.nav.sizeHintForColumn(0) + 32))

    def _build_status_bar(self) -> None:
        """File name · assessor on the left, the counts on the right (``StatusLine``)."""
        self.status_line = StatusLine(self.statusBar(), self.hub, self.progress,
                                      lambda: self.assessor)
        line = self.status_line
        self.file_label, self.assessor_label = line.file_label, line.assessor_label
        self.counts_label = line.counts_label

    # -- files (the life cycle is ``self.files``; these are its entry points) ----------------
    @property
    def paths(self) -> AppPaths:
        """The app's folders (resolved on first use: platformdirs is not needed to show a
        file)."""
        if self._paths is None:
            from rag_annotator.paths import app_paths

            self._paths = app_paths()
        return self._paths

    @property
    def store(self) -> GoldSetStore | None:
        """The open gold set."""
        return self.hub.store

    @property
    def backups(self) -> BackupScheduler:
        """When the open file is copied to the backups folder."""
        return self.files.backups

    def set_store(self, store: GoldSetStore | None, *, remember: bool = False) -> None:
        """Show ``store`` (or nothing): :meth:`FileLife.set_store`."""
        self.files.set_store(store, remember=remember)

    def open_file(self, path: str | Path) -> bool:
        """Open a gold-set file (read-only when it is in use elsewhere or cannot be
        written): :meth:`FileLife.open_file`."""
        return self.files.open_file(path)

    def new_file(self, path: str | Path) -> bool:
        """Create an empty gold-set file and open it."""
        return self.files.new_file(path)

    def save_copy(self, path: str | Path) -> bool:
        """Write a consistent copy of the open file."""
        return self.files.save_copy(path)

    def close_file(self) -> None:
        """Close the open file (nothing to save: every change is already in it)."""
        self.files.close_file()

    # -- sections ------------------------------------------------------------------------------
    def show_section(self, index: int) -> None:
        """Show one of the seven sections (0 = Gold set … 6 = History)."""
        if 0 <= index < len(self.sections):
            self.nav.setCurrentRow(index)

    def show_rights_matrix(self) -> None:
        """Ctrl+Shift+X from any section: the Corpus's rights matrix, its table focused."""
        if self.store is None:
            return
        self.show_section(1)
        show = getattr(self.sections[1], "show_matrix", None)
        if show is not None:
            show()

    def _restyle(self, _name: str) -> None:
        """A new look: the sections render their coloured texts again (Qt repaints the rest)."""
        for section in self.sections.built():
            section.restyle()

    def current_section(self) -> Section:
        """The section on screen."""
        return self.sections[self.section_stack.currentIndex()]

    def _build_section(self, index: int) -> Section:
        """Import and construct section ``index`` and put it in place of its placeholder."""
        module, name = SECTION_CLASSES[index]
        section: Section = getattr(importlib.import_module(module), name)(self.ctx)
        names.apply(section)  # accessible names (ui/look/names.py): a walk of its attributes
        placeholder = self.section_stack.widget(index)
        assert placeholder is not None
        current = self.section_stack.currentIndex()
        self.section_stack.insertWidget(index, section)
        self.section_stack.removeWidget(placeholder)
        # Now, not later: deleted after the first paint, the never-shown placeholder (Qt's
        # default 640 x 480) made Qt paint that much of the section a second time.
        shiboken6.delete(placeholder)
        if current >= 0:
            self.section_stack.setCurrentIndex(current)
        install_empty_hints(self, index, section)  # what fills it, while empty (issue 21)
        return section

    def _on_nav(self, index: int) -> None:
        if not 0 <= index < len(self.sections):
            return
        section = self.sections[index]
        for other in self.sections.built():
            if other is not section:
                other.deactivate()
        self.section_stack.setCurrentIndex(index)
        section.activate()
        focus = section.focus_widget()
        if focus is not None and self.store is not None:
            focus.setFocus(Qt.FocusReason.ShortcutFocusReason)

    # -- menus and actions ---------------------------------------------------------------------
    def _build_menus(self) -> None:
        a = self.commands
        file_menu = self.menuBar().addMenu(self.tr("&File"))
        file_menu.addAction(a["file.new"])
        file_menu.addAction(a["file.open"])
        self.recent_menu = QMenu(self.tr("Open &Recent"), self)
        self.recent_menu.aboutToShow.connect(
            lambda: self.files.fill_recent_menu(self.recent_menu))
        file_menu.addMenu(self.recent_menu)
        self.sample_action = QAction(self.tr("Open the Sample Gold Set"), self)
        self.sample_action.triggered.connect(self.files.open_sample)
        file_menu.addAction(self.sample_action)
        file_menu.addSeparator()
        file_menu.addAction(a["file.save_copy"])
        self.import_menu = QMenu(self.tr("&Import"), self)
        self._import_actions: list[QAction] = []
        for text, kind in ((self.tr("Cases (CSV, XLSX, JSONL)…"), "cases"),
                           (self.tr("Corpus or a Document (BEIR, CSV, XLSX, PDF, Word…)…"),
                            "corpus"),
                           (self.tr("Corpus from a Folder of Documents (PDF, Word, HTML…)…"),
                            "corpus-folder"),
                           (self.tr("Ragas Test Set, to Review…"), "ragas-testset"),
                           (self.tr("Run (TREC, JSONL, Ragas)…"), "run")):
            action = QAction(text, self)
            action.triggered.connect(lambda _checked=False, k=kind: self.ask_import(k))
            self.import_menu.addAction(action)
            self._import_actions.append(action)
        self.import_menu.addSeparator()
        self.import_menu.aboutToShow.connect(self._add_goldset_imports)  # imported when used
        file_menu.addMenu(self.import_menu)
        file_menu.addAction(a["file.export"])
        file_menu.addAction(a["file.merge"])
        from rag_annotator.ui.team.menu import TeamMenu

        self.team = TeamMenu(self, self.ctx, a, self.team_folders)  # File → Team (issue 15)
        file_menu.addMenu(self.team.menu)
        file_menu.addAction(a["file.restore"])
        file_menu.addSeparator()
        file_menu.addAction(a["file.close"])
        file_menu.addAction(a["file.quit"])

        edit_menu = self.menuBar().addMenu(self.tr("&Edit"))
        edit_menu.addAction(a["edit.undo"])
        edit_menu.addAction(a["edit.redo"])
        edit_menu.addSeparator()
        edit_menu.addAction(a["edit.find"])
        edit_menu.addAction(a["edit.guidelines"])

        view_menu = self.menuBar().addMenu(self.tr("&View"))
        for action_id in SECTION_ACTIONS:
            view_menu.addAction(a[action_id])
        view_menu.addAction(a["corpus.rights_matrix"])
        view_menu.addSeparator()
        self.zoom.add_to(view_menu, a)
        self.appearance.add_to(view_menu, a)

        settings_menu = self.menuBar().addMenu(self.tr("&Settings"))
        language_menu = settings_menu.addMenu(self.tr("&Language (at next start)"))
        self.language_group = QActionGroup(self)
        for code in ("system", "fr", "en"):
            action = a[f"settings.language.{code}"]
            action.setData(code)
            action.setChecked(self.settings.language == code)
            self.language_group.addAction(action)
            language_menu.addAction(action)
        settings_menu.addAction(a["settings.assessor"])

        help_menu = self.menuBar().addMenu(self.tr("&Help"))
        help_menu.addAction(a["help.guide"])
        help_menu.addAction(a["help.shortcuts"])
        help_menu.addAction(a["help.about"])

    def _add_goldset_imports(self) -> None:
        """File → Import's gold set formats, added when the menu first opens (their module
        is not needed for the window's first paint)."""
        if len(self._import_actions) > 5:
            return
        from rag_annotator.ui.exchange.file_import import GOLDSET_FORMATS

        for fmt, (text, _folder, _pattern) in GOLDSET_FORMATS.items():
            action = QAction(QCoreApplication.translate("file_import", text), self)
            action.triggered.connect(lambda _checked=False, f=fmt: self.ask_import(f))
            self.import_menu.addAction(action)
            self._import_actions.append(action)

    def _connect_actions(self) -> None:
        a = self.commands
        a["file.new"].triggered.connect(self.files.ask_new)
        a["file.open"].triggered.connect(self.files.ask_open)
        a["file.save_copy"].triggered.connect(self.files.ask_save_copy)
        a["file.merge"].triggered.connect(self.files.ask_merge)
        a["file.restore"].triggered.connect(self.files.ask_restore)
        a["file.export"].triggered.connect(self.ask_export)
        a["edit.guidelines"].triggered.connect(self.edit_guidelines)
        a["file.close"].triggered.connect(self.close_file)
        a["file.quit"].triggered.connect(self.close)
        a["edit.undo"].triggered.connect(self.undo.undo)
        a["edit.redo"].triggered.connect(self.undo.redo)
        a["edit.find"].triggered.connect(self._find)
        for i, action_id in enumerate(SECTION_ACTIONS):
            a[action_id].triggered.connect(lambda _checked=False, i=i: self.show_section(i))
        a["corpus.rights_matrix"].triggered.connect(self.show_rights_matrix)
        for code in ("system", "fr", "en"):
            a[f"settings.language.{code}"].triggered.connect(
                lambda _checked=False, c=code: self.set_language(c))
        a["settings.assessor"].triggered.connect(self._ask_assessor)
        a["help.guide"].triggered.connect(self.open_guide)
        a["help.shortcuts"].triggered.connect(self.show_cheat_sheet)
        a["help.about"].triggered.connect(self._show_about)
        stack = self.undo.stack
        stack.indexChanged.connect(self._update_undo_actions)
        self._update_undo_actions()

    def open_guide(self) -> None:
        """Help → Guide, at the page of the section on screen (its modules are imported
        here: the first paint never needs them)."""
        from rag_annotator.ui.guide.pages import section_page
        from rag_annotator.ui.guide.window import open_guide

        open_guide(self, section_page(
            self.section_stack.currentIndex() if self.store is not None else -1))

    def _update_undo_actions(self, *_args: object) -> None:
        stack = self.undo.stack
        if not shiboken6.isValid(stack):  # the window is being destroyed
            return
        undo, redo = self.commands["edit.undo"], self.commands["edit.redo"]
        undo.setEnabled(stack.canUndo())
        redo.setEnabled(stack.canRedo())
        undo.setText(self.tr("Undo %1").replace("%1", stack.undoText()) if stack.canUndo()
                     else actions.tr(actions.spec("edit.undo").label))
        redo.setText(self.tr("Redo %1").replace("%1", stack.redoText()) if stack.canRedo()
                     else actions.tr(actions.spec("edit.redo").label))

    def ask_export(self) -> None:
        """File → Export…: format, scope, a preview, then the export on a worker thread."""
        if self.store is None:
            return
        from rag_annotator.ui.exchange.export_dialog import open_export_dialog

        open_export_dialog(self, self.store.path)

    def ask_import(self, kind: str) -> None:
        """File → Import: cases, corpus, a Ragas test set (dialogs with preview, progress and
        Cancel) or a run (the Runs section's dialog)."""
        if self.store is None or self.store.read_only:
            return
        if kind == "run":
            self.show_section(2)
            runs = self.sections[2]
            ask = getattr(runs, "ask_import", None)
            if ask is not None:
                ask()
            return
        from rag_annotator.ui.exchange.file_import import GOLDSET_FORMATS, ask_and_import

        if kind in GOLDSET_FORMATS:
            ask_and_import(self.ctx, self, kind)
            return
        from rag_annotator.ui.exchange.import_dialog import open_import_dialog

        open_import_dialog(self, self.ctx, kind)

    def edit_guidelines(self) -> None:
        """Edit the judging guidelines (markdown) every assessor sees in the Judge section."""
        if self.store is None:
            return
        from rag_annotator.domain.operations import set_meta
        from rag_annotator.ui.judge.dialogs import GuidelinesDialog

        dialog = GuidelinesDialog(self.store.meta("guidelines", ""), self)
        if dialog.exec():
            text = dialog.text()
            if text != self.store.meta("guidelines", ""):
                self.undo.run(lambda s: set_meta(s, "guidelines", text))

    def _ask_assessor(self) -> None:
        from rag_annotator.ui.dialogs import ask_assessor

        name = ask_assessor(self, self.assessor)
        if name:
            self.set_assessor(name, save=True)

    def name_for_first_change(self) -> bool:
        """The session has no name and a change is about to record one: ask it (and keep
        it for the next starts); False if the user gives none (the change is not made)."""
        from rag_annotator.ui.dialogs import ask_assessor

        name = ask_assessor(self, first=True)
        if not name:
            self.statusBar().showMessage(self.tr(
                "Nothing was recorded: each change is recorded with its author's name."), 8000)
            return False
        self.set_assessor(name, save=True)
        return True

    def set_assessor(self, name: str, *, save: bool) -> None:
        """Use ``name`` for this session's operations (and remember it if ``save``)."""
        self.assessor = name
        if save:
            self.settings.assessor = name
            self._save_settings()
        self.hub.set_assessor(name)

    def set_language(self, code: str) -> None:
        """Remember the language; it applies at the next start."""
        if code == self.settings.language:
            return
        self.settings.language = code
        self._save_settings()
        from PySide6.QtWidgets import QMessageBox

        QMessageBox.information(self, self.tr("Language"), self.tr(
            "The new language will be used the next time you start rag-annotator."))

    def show_cheat_sheet(self) -> None:
        """The keyboard shortcuts of every command."""
        from rag_annotator.ui.dialogs import CheatSheetDialog

        CheatSheetDialog(self).exec()

    def _show_about(self) -> None:
        from rag_annotator.ui.dialogs import show_about

        show_about(self, self.store)

    def _find(self) -> None:
        field = self.current_section().find_field()
        if field is not None:
            field.setFocus(Qt.FocusReason.ShortcutFocusReason)
            field.selectAll()

    # -- status and state ----------------------------------------------------------------------
    def _put_empty_page(self) -> None:
        """The page shown while no file is open, built when first on screen (a window made
        to show a file, as at start-up, never needs it)."""
        placeholder = self.pages.widget(0)
        if placeholder is None or placeholder.layout() is not None:
            return
        current = self.pages.currentIndex()
        self.pages.insertWidget(0, NoFilePage(self.files.ask_new, self.files.ask_open,
                                              self.files.open_sample))
        self.pages.removeWidget(placeholder)
        placeholder.deleteLater()
        self.pages.setCurrentIndex(current)

    def _show_store_state(self) -> None:
        store = self.store
        has_file = store is not None
        if not has_file and self.isVisible():
            self._put_empty_page()
        self.pages.setCurrentIndex(1 if has_file else 0)
        read_only = store is not None and store.read_only
        self.read_only_banner.setVisible(read_only)
        self.import_menu.setEnabled(has_file and not read_only)
        self.team.update_state()
        for action_id in ("file.merge", "file.restore", "edit.guidelines"):
            self.commands[action_id].setEnabled(has_file and not read_only)
        if read_only:
            self.read_only_banner.setText(self.files.read_only_reason or self.tr(
                "Read-only: changes to this file are not possible."))
        for action_id in ("file.save_copy", "file.export", "file.close", "edit.find",
                          "corpus.rights_matrix", *SECTION_ACTIONS):
            self.commands[action_id].setEnabled(has_file)
        self.setWindowTitle(f"{store.path.name} — rag-annotator" if store else "rag-annotator")
        self.status_line.render()
        if has_file:
            opened, self._shown_store = store is not self._shown_store, store
            queue = queue_section(store) if opened and store is not None else None
            current = self.nav.currentRow()
            if queue is not None:  # an expert's file: their queue, whatever was shown last
                self.show_section(queue)
            elif current < 0:
                self.show_section(min(max(self.settings.last_section, 0),
                                      len(self.sections) - 1))
            else:
                self._on_nav(current)
        else:
            self._shown_store = None

    def _restore_window_state(self) -> None:
        if self.settings.window_geometry:
            self.restoreGeometry(QByteArray.fromBase64(self.settings.window_geometry.encode()))
        if self.settings.window_state:
            self.restoreState(QByteArray.fromBase64(self.settings.window_state.encode()))

    def save_settings(self) -> None:
        """Write the settings now (a section changed one: the Dashboard's interval level)."""
        self._save_settings()

    def _save_settings(self) -> None:
        try:
            self.settings.save(self.paths.settings_file)
        except OSError as error:
            self.statusBar().showMessage(
                self.tr("Settings could not be saved: %1").replace("%1", str(error)), 8000)

    def after_first_paint(self, job: Callable[[], None]) -> None:
        """Run ``job`` once the window is first on screen (now, if it already is): the
        background counts, accessible names — what a user does not wait to see."""
        if self._after_paint is None:
            job()
        else:
            self._after_paint.append(job)

    def _run_after_paint(self) -> None:
        jobs, self._after_paint = self._after_paint, None
        if jobs is None:
            return
        try:
            for job in jobs:
                job()
        finally:  # the counts last: their worker took the GIL from the jobs above (the
            self.progress.release()  # window idle ~30 ms later); they take seconds anyway

    def paintEvent(self, event: QPaintEvent) -> None:
        """On the first paint, run what waited for it (the background counts last): once
        the event loop is back, the whole window is on screen, so a big file's counts never
        delay showing it."""
        super().paintEvent(event)
        if not self._painted:
            self._painted = True
            QTimer.singleShot(0, self, self._run_after_paint)

    def showEvent(self, event: QShowEvent) -> None:
        """Run them anyway if no paint reaches the window itself (a platform whose children
        cover it opaquely): late beats never."""
        super().showEvent(event)
        if self.store is None:
            self._put_empty_page()
        QTimer.singleShot(500, self, self._run_after_paint)

    def closeEvent(self, event: QCloseEvent) -> None:
        self.settings.window_geometry = bytes(self.saveGeometry().toBase64().data()).decode()
        self.settings.window_state = bytes(self.saveState().toBase64().data()).decode()
        if self.nav.currentRow() >= 0:
            self.settings.last_section = self.nav.currentRow()
        self._save_settings()
        self.progress.close()
        self.ctx.pages.close()
        self.files.shutdown()
        super().closeEvent(event)
