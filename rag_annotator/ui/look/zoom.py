"""Text zoom: Ctrl++ / Ctrl+= larger, Ctrl+- smaller, Ctrl+0 back to normal (issue 21).

The zoom scales the *application* font, so every widget that does not set its own size
follows at once (tables, forms, menus, rich text, the Dashboard's bars), and layouts grow with
it.  The level is a percentage of the font the app started with, kept in ``Settings.text_zoom``
and applied when a window is made, so it survives a restart.  The base size is remembered on
the application object: several windows (or tests) never compound one zoom on another.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import (
    QEvent,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    QSize,
    Qt,
    Signal,
)
from PySide6.QtGui import QAction, QFont, QFontDatabase
from PySide6.QtWidgets import (
    QAbstractItemView,
    QApplication,
    QFrame,
    QHeaderView,
    QLabel,
    QMenu,
    QScrollArea,
    QSizePolicy,
    QStackedWidget,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTableView,
    QWidget,
)

from rag_annotator.settings import ZOOM_MAX, ZOOM_MIN, ZOOM_STEP, Settings

_BASE = "ragAnnotatorBaseFontPointSize"


def base_point_size() -> float:
    """The application font's size before any zoom (recorded on first use)."""
    app = QApplication.instance()
    assert isinstance(app, QApplication)
    base = app.property(_BASE)
    if not base:
        base = QApplication.font().pointSizeF()
        if base <= 0:  # a pixel-sized font: treat as the usual 9 pt
            base = 9.0
        app.setProperty(_BASE, float(base))
    return float(base)


def apply_zoom(percent: int) -> None:
    """Set the application font to ``percent`` % of its base size."""
    font = QApplication.font()
    font.setPointSizeF(base_point_size() * percent / 100)
    QApplication.setFont(font)


def scrolling(widget: QWidget) -> QScrollArea:
    """``widget`` in a frameless scroll area: at a large zoom the sections' minimum width can
    pass the screen's, and the window must still fit (scroll bars appear only then)."""
    area = QScrollArea()
    area.setWidgetResizable(True)
    area.setFrameShape(QFrame.Shape.NoFrame)
    area.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # not a Tab stop: the section's fields are
    area.setWidget(widget)
    if isinstance(widget, QStackedWidget):
        fit_current_page(widget)
    return area


def fit_current_page(stack: QStackedWidget) -> None:
    """Let only the page on screen set the stack's minimum size (the others' size policy is
    Ignored): one wide section must not force scroll bars on all the others."""
    def fit(*_args: object) -> None:
        current = stack.currentWidget()
        for i in range(stack.count()):
            page = stack.widget(i)
            if page is None:
                continue
            policy = (QSizePolicy.Policy.Preferred if page is current
                      else QSizePolicy.Policy.Ignored)
            page.setSizePolicy(policy, policy)
        stack.updateGeometry()

    stack.currentChanged.connect(fit)
    stack.widgetRemoved.connect(fit)
    fit()


def monospace(widget: QWidget) -> None:
    """Give ``widget`` the system's fixed-pitch family *only*: its size still comes from the
    application font, so it follows the text zoom (``setFont(systemFont(FixedFont))`` would
    pin the size)."""
    fixed = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)
    font = QFont()
    font.setFamilies(fixed.families() or [fixed.family()])
    font.setStyleHint(QFont.StyleHint.Monospace)
    widget.setFont(font)


class PaddedItems(QStyledItemDelegate):
    """Rows with room around their text (the section list), in proportion to the font.

    A style sheet's ``::item { padding }`` would do it, but a widget with a style sheet keeps
    the font it had when the sheet was applied: the section list stayed small when the rest
    of the window grew with the text zoom."""

    def sizeHint(self, option: QStyleOptionViewItem,
                 index: QModelIndex | QPersistentModelIndex) -> QSize:
        size = super().sizeHint(option, index)
        height = option.fontMetrics.height()
        return QSize(size.width() + height, size.height() + height)


def clamp(percent: int) -> int:
    """A zoom level kept within ZOOM_MIN … ZOOM_MAX %."""
    return max(ZOOM_MIN, min(ZOOM_MAX, int(percent)))


class TextZoom(QObject):
    """The window's zoom level: changes it, applies it, remembers it.

    Signals:
        changed(int): the new level, in percent (after it is applied).
    """

    changed = Signal(int)

    def __init__(self, settings: Settings, save: Callable[[], None],
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.settings = settings
        self._save = save
        self.settings.text_zoom = clamp(settings.text_zoom)
        apply_zoom(self.settings.text_zoom)

    @property
    def percent(self) -> int:
        return self.settings.text_zoom

    def set_percent(self, percent: int) -> None:
        """Apply and remember a level (clamped); nothing happens if it is already that."""
        percent = clamp(percent)
        if percent == self.settings.text_zoom:
            return
        self.settings.text_zoom = percent
        apply_zoom(percent)
        self._save()
        self.changed.emit(percent)

    def add_to(self, menu: QMenu, commands: dict[str, QAction]) -> None:
        """Put the three zoom commands in ``menu`` (View) and connect them."""
        for action_id, slot in (("view.zoom_in", self.zoom_in),
                                ("view.zoom_out", self.zoom_out),
                                ("view.zoom_reset", self.reset)):
            commands[action_id].triggered.connect(slot)
            menu.addAction(commands[action_id])

    def zoom_in(self) -> None:
        self.set_percent(self.percent + ZOOM_STEP)

    def zoom_out(self) -> None:
        self.set_percent(self.percent - ZOOM_STEP)

    def reset(self) -> None:
        self.set_percent(100)


class RowsFloor(QObject):
    """Keeps at least ``rows`` rows of a table in view, at every text size.

    A section whose buttons wrap onto more lines (a narrow window, a large zoom) takes their
    height from its stretching list: the Judge section's pairs shrank to one row at 150 %.
    The floor follows the font (its event filter sees every font or style change)."""

    def __init__(self, table: QAbstractItemView, rows: int) -> None:
        super().__init__(table)
        self.table, self.rows = table, rows
        table.installEventFilter(self)
        self.apply()

    def apply(self) -> None:
        table = self.table
        row = max(table.fontMetrics().height() + 6, table.sizeHintForRow(0))
        header = getattr(table, "horizontalHeader", None)
        top = header().sizeHint().height() if header is not None else 0
        table.setMinimumHeight(top + self.rows * row + 2 * table.frameWidth())

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() in (QEvent.Type.FontChange, QEvent.Type.StyleChange):
            self.apply()
        return super().eventFilter(watched, event)


class WrappedFloor(QObject):
    """A word-wrapped label's minimum height follows the lines it wraps to at its width.

    A QSplitter does not ask for heights-for-width, so a pane's minimum counted such a label
    as one line while its layout gave it two: the widgets below were drawn over each other
    (the Judge question at 150 %, once the pairs kept their rows)."""

    def __init__(self, label: QLabel) -> None:
        super().__init__(label)
        self.label = label
        label.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() in (QEvent.Type.Resize, QEvent.Type.FontChange):
            label = self.label
            height = label.heightForWidth(label.width()) if label.text() else 0
            if height > 0 and label.minimumHeight() != height:
                label.setMinimumHeight(height)
        return super().eventFilter(watched, event)


class StretchFloor(QObject):
    """The stretching column of a table (a case's question) keeps ``chars`` characters.

    The other columns are sized from the font, so at 150 % they took nearly the whole width
    and the question was left three letters wide.  Below the floor the column stops
    stretching and takes the floor's width; the table then scrolls sideways.

    It follows the horizontal header, which the table keeps exactly as wide as its viewport:
    asking for the viewport itself, a plain QWidget Qt made, costs PySide a search through
    every widget class the first time (~15 ms of the window's first paint)."""

    def __init__(self, table: QTableView, column: int, chars: int = 24) -> None:
        super().__init__(table)
        self.table, self.column, self.chars = table, column, chars
        table.horizontalHeader().installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Resize:
            self.apply()
        return super().eventFilter(watched, event)

    def apply(self) -> None:
        header = self.table.horizontalHeader()
        floor = self.table.fontMetrics().horizontalAdvance("0") * self.chars
        others = sum(header.sectionSize(i) for i in range(header.count())
                     if i != self.column and not header.isSectionHidden(i))
        room = header.width() - others  # the viewport's width
        stretch = QHeaderView.ResizeMode.Stretch
        if room >= floor:
            if header.sectionResizeMode(self.column) != stretch:
                header.setSectionResizeMode(self.column, stretch)
        else:
            if header.sectionResizeMode(self.column) == stretch:
                header.setSectionResizeMode(self.column, QHeaderView.ResizeMode.Interactive)
            header.resizeSection(self.column, floor)
