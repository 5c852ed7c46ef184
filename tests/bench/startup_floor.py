"""The start-up benchmark's floor: rag-annotator's first screen in plain PySide6.

``bench_startup.py`` and ``startup_instructions.py`` compare the app's window on a
1,000,000-judgment file with a bare QMainWindow.  This module builds what the user sees on
that file, as cheaply as plain PySide6 code can, so the gap splits into "a PySide window with
this content" and "ours": no rag_annotator import, no SQLite, no hidden widgets, no helper
layers, Qt enums used as any PySide program uses them.  What is on screen, as the app shows it
(``ui/main_window.py``, ``ui/actions.py``, ``ui/goldset/section.py``, ``case_editor.py``,
``ui/sections/base.py`` ``make_table``):

* a 1280 x 800 QMainWindow titled "rag-annotator", its menu bar with the app's five menus
  and their submenus, every command a QAction with its text and shortcuts (the section's own
  commands too: their keys work on the first screen);
* a status bar with the file name, a separator, the assessor and the judgment count;
* the navigation list of the eight sections (its rows padded by a delegate) on the left;
* the Gold set section on the right: the search field with its clear button, the family,
  status and tag filters with their labels, the count, the row of seven buttons, and a
  splitter with the case table (10,000 rows x 8 columns, 6 shown, widths by the app's rule,
  row 0 selected) beside the case editor (a scroll area holding a form whose titles wrap
  above the fields, filled with case Q00001, and its empty expected sources table).

Where the app lays its buttons out with its own wrapping layout, the floor uses a
QHBoxLayout; the app's frameless scroll area and page stack around the section (invisible)
are left out.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from PySide6.QtCore import (
    QAbstractTableModel,
    QItemSelectionModel,
    QModelIndex,
    QPersistentModelIndex,
    QSize,
    Qt,
)
from PySide6.QtGui import QAction, QActionGroup, QKeySequence
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QFormLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QListWidget,
    QMainWindow,
    QMenu,
    QPlainTextEdit,
    QPushButton,
    QScrollArea,
    QSplitter,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTableView,
    QVBoxLayout,
    QWidget,
)

Index = QModelIndex | QPersistentModelIndex


class Sub(NamedTuple):
    """A submenu in a menu description."""

    title: str
    entries: tuple[Any, ...]


SEP = None  # a separator in a menu description; an action is (text, shortcuts)

_CHECKABLE = ("System Language", "Français", "English")
MENUS: tuple[Sub, ...] = (
    Sub("&File", (
        ("New Gold Set…", ("Ctrl+N",)), ("Open…", ("Ctrl+O",)), Sub("Open &Recent", ()),
        ("Open the Sample Gold Set", ()), SEP, ("Save a Copy…", ("Ctrl+Shift+S",)),
        Sub("&Import", (("Cases (CSV, XLSX, JSONL)…", ()),
                        ("Corpus or a Document (BEIR, CSV, XLSX, PDF, Word…)…", ()),
                        ("Corpus from a Folder of Documents (PDF, Word, HTML…)…", ()),
                        ("Ragas Test Set, to Review…", ()), ("Run (TREC, JSONL, Ragas)…", ()),
                        SEP)),
        ("Export…", ("Ctrl+E",)), ("Merge a Colleague’s File…", ()),
        Sub("&Team", (("Hand Out Assignments…", ()), ("Collect…", ()), ("Team Folder…", ()))),
        ("Restore from Backup…", ()), SEP, ("Close", ("Ctrl+W",)), ("Quit", ("Ctrl+Q",)))),
    Sub("&Edit", (
        ("Undo", ("Ctrl+Z",)), ("Redo", ("Ctrl+Shift+Z", "Ctrl+Y")), SEP,
        ("Find in This Section", ("Ctrl+F",)), ("Judging Guidelines…", ()))),
    Sub("&View", (
        ("Gold Set", ("Ctrl+1",)), ("Corpus", ("Ctrl+2",)), ("Runs", ("Ctrl+3",)),
        ("Judge", ("Ctrl+4",)), ("Verify", ("Ctrl+5",)), ("Dashboard", ("Ctrl+6",)),
        ("History", ("Ctrl+7",)), ("Agents", ("Ctrl+8",)), SEP,
        ("Larger Text", ("Ctrl++", "Ctrl+=")), ("Smaller Text", ("Ctrl+-",)),
        ("Normal Text Size", ("Ctrl+0",)))),
    Sub("&Settings", (
        Sub("&Language (at next start)", tuple((text, ()) for text in _CHECKABLE)),
        ("Assessor Name…", ()))),
    Sub("&Help", (
        ("Guide (This Section’s Page)", ("F1",)), ("Keyboard Shortcuts", ("?",)),
        ("About rag-annotator", ()))),
)
#: The Gold set section's commands (shortcuts within the section).
SECTION_COMMANDS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("New case", ("Ctrl+Shift+N",)), ("Next case", ("Alt+Down",)),
    ("Previous case", ("Alt+Up",)),
    ("Next status (draft → reviewed → approved → retired)", ("Alt+Right",)),
    ("Previous status", ("Alt+Left",)), ("Go to the case list", ("Alt+L",)),
    ("Go to the question", ("Alt+Q",)),
    ("Go to the reference answer (agent case: the expected final state)", ("Alt+A",)),
    ("Go to must contain (agent case: the forbidden tools)", ("Alt+M",)),
    ("Go to the tags", ("Alt+T",)), ("Go to the notes", ("Alt+N",)),
    ("Add an expected source…", ("Ctrl+Shift+O",)),
    ("Change family, tags or status of the selected cases…", ("Ctrl+Shift+B",)),
    ("Delete the case", ("Ctrl+Shift+Del",)), ("Coverage grid…", ("Ctrl+Shift+G",)),
    ("Review queue…", ("Ctrl+Shift+E",)), ("Releases…", ("Ctrl+Shift+R",)),
    ("Import cases…", ("Ctrl+Shift+I",)), ("Import a generated test set (Ragas)…", ()),
    ("Output contract of the case (structured answers)…", ("Ctrl+Shift+K",)),
)
SOURCE_COMMANDS = (("Remove the expected source (in the sources list)", ("Del",)),
                   ("Write the note of the expected source (in the sources list)", ("F2",)))
SECTIONS = ("Gold Set", "Corpus", "Runs", "Judge", "Verify", "Dashboard", "History", "Agents")
FAMILIES = ("Ordinary", "Ambiguous", "Sensitive", "Out of scope", "No answer in corpus",
            "Conflicting sources", "Outdated document", "Prompt injection / malicious source",
            "Access restricted")
STATUSES = ("Draft", "Reviewed", "Approved", "Retired")
BUTTONS = ("New case", "Bulk edit…", "Coverage…", "Review queue…", "Releases…",
           "Import cases…", "Import test set…")
HEADERS = ("Key", "Question", "Family", "Status", "Behaviour", "Tags", "Sources", "Kind")
WORDS = ("congé", "télétravail", "prime", "mutuelle", "formation", "salarié", "manager",
         "accord", "avenant", "délai", "remboursement", "frais", "plafond", "ancienneté",
         "demande", "justificatif", "arrêt", "jours")
ROWS = 10_000
#: The first case of the generated file, as the editor shows it (family Ambiguous, status
#: Reviewed).
KEY, TAGS, FAMILY, STATUS = "Q00001", "plafond", 1, 1
QUESTION = ("mutuelle formation justificatif accord mutuelle accord avenant congé télétravail "
            "salarié prime formation ?")
ANSWER = ("manager plafond mutuelle congé plafond demande avenant salarié demande frais jours "
          "délai frais remboursement arrêt prime prime salarié justificatif remboursement "
          "avenant prime formation prime ancienneté congé ancienneté remboursement ancienneté "
          "prime")


class CasesModel(QAbstractTableModel):
    """10,000 cases of 8 columns, each cell made when asked (the roles the app answers)."""

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else ROWS

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(HEADERS)

    def headerData(self, section: int, orientation: Qt.Orientation,
                   role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return HEADERS[section]
        return None

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        column = index.column()
        if role == Qt.ItemDataRole.TextAlignmentRole:
            return Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter \
                if column == 6 else None
        if role not in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole):
            return None
        row = index.row()
        if column == 0:
            return f"Q{row + 1:05d}"
        if column == 1:
            return QUESTION if row == 0 else " ".join(
                WORDS[(row * 7 + k * 5) % len(WORDS)] for k in range(12)) + " ?"
        if column == 2:
            return FAMILIES[(row + 1) % len(FAMILIES)]
        if column == 3:
            return STATUSES[(row + 1) % len(STATUSES)]
        if column == 4:
            return "Answer"
        if column == 5:
            return WORDS[(row * 11 + 12) % len(WORDS)]
        if column == 6:
            return "0" if role == Qt.ItemDataRole.DisplayRole else None
        return "" if role == Qt.ItemDataRole.DisplayRole else None

    def flags(self, index: Index) -> Qt.ItemFlag:
        return Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable


class SourcesModel(QAbstractTableModel):
    """The expected sources of case Q00001: none (4 columns)."""

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else 4

    def headerData(self, section: int, orientation: Qt.Orientation,
                   role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return ("Document", "Title", "Passage", "Note")[section]
        return None

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        return None


def _action(parent: QWidget, text: str, shortcuts: tuple[str, ...],
            context: Qt.ShortcutContext = Qt.ShortcutContext.WindowShortcut) -> QAction:
    action = QAction(text, parent)
    action.setShortcuts([QKeySequence(s) for s in shortcuts])
    action.setShortcutContext(context)
    return action


def _fill_menu(window: QMainWindow, menu: QMenu, entries: tuple[Any, ...],
               languages: QActionGroup) -> None:
    for entry in entries:
        if entry is SEP:
            menu.addSeparator()
        elif isinstance(entry, Sub):
            _fill_menu(window, menu.addMenu(entry.title), entry.entries, languages)
        else:
            action = _action(window, *entry)
            if entry[0] in _CHECKABLE:
                action.setCheckable(True)
                action.setChecked(entry[0] == _CHECKABLE[0])
                languages.addAction(action)
            menu.addAction(action)


def _table(model: QAbstractTableModel, selection: QAbstractItemView.SelectionMode
           ) -> QTableView:
    """A read-only table selecting rows, as the app's (``make_table``)."""
    view = QTableView()
    view.setModel(model)
    view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    view.setSelectionMode(selection)
    view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    view.setAlternatingRowColors(True)
    view.setWordWrap(False)
    view.setTabKeyNavigation(False)
    view.setVerticalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
    vertical = view.verticalHeader()
    vertical.setVisible(False)
    vertical.setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
    vertical.setDefaultSectionSize(view.fontMetrics().height() + 8)
    view.horizontalHeader().setHighlightSections(False)
    view.horizontalHeader().setStretchLastSection(False)
    return view


class PaddedItems(QStyledItemDelegate):
    """The section list's padded rows, as the app pads them."""

    def sizeHint(self, option: QStyleOptionViewItem,
                 index: QModelIndex | QPersistentModelIndex) -> QSize:
        size = super().sizeHint(option, index)
        height = option.fontMetrics.height()
        return QSize(size.width() + height, size.height() + height)


class FloorWindow(QMainWindow):
    """The app's first screen on the 1,000,000-judgment file, in plain PySide6."""

    def __init__(self) -> None:
        super().__init__()
        self.resize(1280, 800)
        self.setWindowTitle("rag-annotator")
        languages = QActionGroup(self)
        for menu in MENUS:
            _fill_menu(self, self.menuBar().addMenu(menu.title), menu.entries, languages)
        bar = self.statusBar()
        for text in ("start.goldset", "·", "Assessor: bench"):
            bar.addWidget(QLabel(text))
        bar.addPermanentWidget(QLabel("counting judgments…"))
        self.nav = QListWidget()
        self.nav.setObjectName("navigation")
        self.nav.setItemDelegate(PaddedItems(self.nav))
        self.nav.addItems(SECTIONS)
        self.nav.setFixedWidth(max(160, self.nav.sizeHintForColumn(0) + 32))
        self.nav.setCurrentRow(0)
        central = QWidget()
        row = QHBoxLayout(central)
        row.setContentsMargins(4, 4, 4, 4)
        row.addWidget(self.nav)
        row.addWidget(self._section(), 1)
        self.setCentralWidget(central)
        self.table.setFocus()  # the app gives the section's list the keyboard

    def _section(self) -> QWidget:
        section = QWidget()
        for text, shortcuts in SECTION_COMMANDS:
            section.addAction(_action(section, text, shortcuts,
                                      Qt.ShortcutContext.WidgetWithChildrenShortcut))
        layout = QVBoxLayout(section)
        layout.addLayout(self._filter_bar())
        buttons = QHBoxLayout()
        for text in BUTTONS:
            button = QPushButton(text)
            button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
            buttons.addWidget(button)
        buttons.addStretch(1)
        layout.addLayout(buttons)
        splitter = QSplitter(Qt.Orientation.Horizontal)
        splitter.addWidget(self._cases())
        splitter.addWidget(self._editor())
        splitter.setStretchFactor(0, 3)
        splitter.setStretchFactor(1, 2)
        splitter.setSizes([3000, 2000])
        layout.addWidget(splitter, 1)
        return section

    def _filter_bar(self) -> QHBoxLayout:
        bar = QHBoxLayout()
        search = QLineEdit()
        search.setPlaceholderText("Search key, question or reference answer…")
        search.setClearButtonEnabled(True)
        search.setMinimumWidth(260)
        bar.addWidget(search, 2)
        for title, items in (("Family:", ("All families", *FAMILIES)),
                             ("Status:", ("All statuses", *STATUSES)),
                             ("Tag:", ("All tags",))):
            combo = QComboBox()
            combo.addItems(items)
            combo.setSizeAdjustPolicy(
                QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
            combo.setMinimumContentsLength(12)
            bar.addWidget(QLabel(title))
            bar.addWidget(combo)
        bar.addStretch(1)
        bar.addWidget(QLabel(f"{ROWS} case(s)"))
        return bar

    def _cases(self) -> QTableView:
        self.model = CasesModel(self)
        table = _table(self.model, QAbstractItemView.SelectionMode.ExtendedSelection)
        table.setColumnHidden(4, True)
        table.setColumnHidden(6, True)
        metrics = table.fontMetrics()
        chars = metrics.horizontalAdvance("0")
        header = table.horizontalHeader()
        # The question keeps 24 characters (the app's floor for its stretching column: the
        # others leave it less than that here); the kind its make_table width.
        for column, width in ((0, chars * 7 + 12), (1, chars * 24), (2, chars * 16 + 12),
                              (3, chars * 9 + 12), (5, chars * 12 + 12),
                              (7, max(chars * 5 + 16, metrics.horizontalAdvance("Kind") + 24))):
            header.resizeSection(column, width)
        table.selectionModel().setCurrentIndex(
            self.model.index(0, 0), QItemSelectionModel.SelectionFlag.ClearAndSelect
            | QItemSelectionModel.SelectionFlag.Rows)
        self.table = table
        return table

    def _editor(self) -> QScrollArea:
        form = QFormLayout()
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.ExpandingFieldsGrow)
        form.setRowWrapPolicy(QFormLayout.RowWrapPolicy.WrapAllRows)

        def line(text: str = "", placeholder: str = "") -> QLineEdit:
            field = QLineEdit(text)
            field.setPlaceholderText(placeholder)
            return field

        def lines(count: int, text: str = "") -> QPlainTextEdit:
            field = QPlainTextEdit(text)
            field.setTabChangesFocus(True)
            height = field.fontMetrics().lineSpacing() * count + 14
            field.setMinimumHeight(height)
            field.setMaximumHeight(height * 2)
            return field

        def combo(items: tuple[str, ...], current: int = 0) -> QComboBox:
            box = QComboBox()
            box.addItems(items)
            box.setCurrentIndex(current)
            return box

        rows: tuple[tuple[str, QWidget], ...] = (
            ("Key", line(KEY)),
            ("Kind", combo(("RAG (answer from documents)", "Agent (result and path)"))),
            ("Question", lines(2, QUESTION)),
            ("Variants (one per line)", lines(2)),
            ("Reference answer", lines(3, ANSWER)),
            ("Must contain (one per line)", lines(3)),
            ("Must never say (one per line)", lines(2)),
            ("Expected behaviour", combo(("Answer", "Abstain", "Escalate"))),
            ("Family", combo(FAMILIES, FAMILY)),
            ("Tags", line(TAGS, "comma-separated topics")),
            ("Difficulty", combo(("—", "Easy", "Medium", "Hard"))),
            ("Role", line("", "the role that may or may not see the sources")),
            ("Status", combo(STATUSES, STATUS)),
            ("Author", line()),
            ("Notes", lines(2)),
        )
        def title_of(text: str, field: QWidget) -> QLabel:
            # Wrapping, as the app's titles (the form then lays out at its full height), on
            # one line while it fits.
            label = QLabel(text)
            label.setWordWrap(True)
            label.setMinimumWidth(label.fontMetrics().horizontalAdvance(text) + 4)
            label.setBuddy(field)
            return label

        for title, field in rows:
            form.addRow(title_of(title, field), field)
        sources = _table(SourcesModel(self), QAbstractItemView.SelectionMode.SingleSelection)
        sources.setMaximumHeight(sources.verticalHeader().defaultSectionSize() * 5 + 30)
        for text, shortcuts in SOURCE_COMMANDS:
            sources.addAction(_action(sources, text, shortcuts,
                                      Qt.ShortcutContext.WidgetShortcut))
        box = QVBoxLayout()
        box.addWidget(sources)
        source_buttons = QHBoxLayout()
        source_buttons.addWidget(QPushButton("Add source…"))
        source_buttons.addWidget(QPushButton("Remove source"))
        source_buttons.addStretch(1)
        box.addLayout(source_buttons)
        form.addRow(title_of("Expected sources", sources), box)
        inner = QWidget()
        column = QVBoxLayout(inner)
        column.addLayout(form)
        column.addStretch(1)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        scroll.setWidget(inner)
        return scroll
