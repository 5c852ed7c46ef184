"""What fills a section that has nothing to show: a hint inside its empty list, with the
button that fills it.

An empty table says nothing to someone who has never seen it full.  Each section's main list
gets an :class:`EmptyHint`, a small overlay on the list's viewport shown while the list has no
row: when the file holds none of what the list shows, it says what fills it and offers the
import that does (the same flows as File → Import); when the file holds some but the search or
a filter hides them, it says so instead.  The Dashboard and Agents sections already say what
fills them in their own empty pages; the sections are not edited for this (they are the
shell's and other workflows' modules): the main window hands each section to
:func:`install_empty_hints` when it builds it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication, QEvent, QObject, Qt, QTimer
from PySide6.QtWidgets import QAbstractItemView, QLabel, QPushButton, QVBoxLayout, QWidget

from rag_annotator.ui.i18n import QT_TRANSLATE_NOOP

if TYPE_CHECKING:
    from rag_annotator.storage.store import GoldSetStore
    from rag_annotator.ui.main_window import MainWindow

CONTEXT = "EmptyHint"


@dataclass(frozen=True)
class HintSpec:
    """The hint of one section's list.

    Attributes:
        view: the attribute of the section holding the list (a ``QAbstractItemView``).
        table: the store table whose rows the list shows; when the file holds some, an empty
            list means the search or a filter hides them (``None``: the list's search field
            holds text, if it has one).
        fill: what fills the list (English source text of the ``EmptyHint`` context).
        hidden: what to say when the file holds rows the list does not show.
        imports: (button label, ``MainWindow.ask_import`` kind) for each way to fill it.
    """

    view: str
    table: str | None
    fill: str
    hidden: str
    imports: tuple[tuple[str, str], ...]


_RUN = (QT_TRANSLATE_NOOP("EmptyHint", "Import a Run…"), "run")
_MATCH = QT_TRANSLATE_NOOP("EmptyHint", "Nothing matches the search or the filters: clear them to "
                           "see everything.")

_QUESTIONS = (QT_TRANSLATE_NOOP("EmptyHint", "Import the Questions…"), "cases")

#: Section index (navigation order) → the hints of its lists.
HINTS: dict[int, tuple[HintSpec, ...]] = {
    0: (HintSpec("table", "cases", QT_TRANSLATE_NOOP(
        "EmptyHint", "No case yet. A case is one question with its reference answer and expected "
        "sources. Import the experts' spreadsheet of questions, or write a case by hand "
        "(Ctrl+Shift+N)."), _MATCH, (_QUESTIONS,)),),
    1: (HintSpec("table", "documents", QT_TRANSLATE_NOOP(
        "EmptyHint", "No document yet. Import the documents the assistant searches: a BEIR "
        "corpus.jsonl, a CSV or Excel sheet, or a folder of PDF, Word, OpenDocument, HTML, "
        "PowerPoint, RTF, Markdown or text files."), _MATCH,
        ((QT_TRANSLATE_NOOP("EmptyHint", "Import the Documents…"), "corpus"),
         (QT_TRANSLATE_NOOP("EmptyHint", "Import a Folder…"), "corpus-folder"))),),
    2: (HintSpec("table", "runs", QT_TRANSLATE_NOOP(
        "EmptyHint", "No run yet. A run is what one version of the RAG system retrieved and "
        "answered for each question. Import one (TREC run, JSONL, Ragas, agent trajectories) "
        "to judge and verify it."), _MATCH, (_RUN,)),),
    3: (HintSpec("cases", "cases", QT_TRANSLATE_NOOP(
        "EmptyHint", "No case to judge yet. Import the spreadsheet of questions first, then a "
        "run: its retrieved documents become the pairs to judge."), _MATCH, (_QUESTIONS,)),
        HintSpec("pairs", None, QT_TRANSLATE_NOOP(
        "EmptyHint", "No document to judge here yet. The pairs to judge are the documents the "
        "runs retrieved for each question, and its expected sources: import a run, or widen "
        "the pool (Choose the Pool…)."), "", (_RUN,))),
    4: (HintSpec("claims_table", "answers", QT_TRANSLATE_NOOP(
        "EmptyHint", "No answer to verify yet. The claims of a run's generated answers are "
        "checked here: import a run that holds answers (JSONL or Ragas)."), QT_TRANSLATE_NOOP(
        "EmptyHint", "This answer has no claim yet: select words in the answer and add one "
        "(Ctrl+Shift+A)."), (_RUN,)),),
    6: (HintSpec("table", None, QT_TRANSLATE_NOOP(
        "EmptyHint", "Nothing has changed yet. Every edit, import and undo will be listed here — "
        "who, when, old → new — and can be reverted."), _MATCH, ()),),
}


def tr(text: str) -> str:
    """Translate a source text of the ``EmptyHint`` context."""
    return QCoreApplication.translate(CONTEXT, text)


class EmptyHint(QWidget):
    """A hint over ``view``'s viewport while its model has no row."""

    def __init__(self, view: QAbstractItemView, spec: HintSpec,
                 store: Callable[[], GoldSetStore | None],
                 ask_import: Callable[[str], None],
                 searched: Callable[[], bool] = lambda: False) -> None:
        super().__init__(view.viewport())
        self.setObjectName("emptyHint")
        self.view, self.spec, self._store, self._searched = view, spec, store, searched
        self.label = QLabel()
        self.label.setWordWrap(True)
        self.label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.label.setTextInteractionFlags(Qt.TextInteractionFlag.NoTextInteraction)
        self.buttons: list[QPushButton] = []
        layout = QVBoxLayout(self)
        layout.addStretch(1)
        layout.addWidget(self.label)
        for text, kind in spec.imports:
            button = QPushButton(tr(text))
            button.clicked.connect(lambda _checked=False, k=kind: ask_import(k))
            layout.addWidget(button, 0, Qt.AlignmentFlag.AlignHCenter)
            self.buttons.append(button)
        layout.addStretch(2)
        view.viewport().installEventFilter(self)
        _when_rows_change(self, view, self.update_state, inserted=True)
        self.update_state()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """Cover the viewport whenever it is resized."""
        if event.type() == QEvent.Type.Resize:
            self.setGeometry(self.view.viewport().rect())
        return False

    def update_state(self) -> None:
        """Show the hint while the list is empty, with the text that fits the file."""
        store = self._store()
        empty = store is not None and self.view.model().rowCount() == 0
        if empty and store is not None:
            held = (store.count(self.spec.table) > 0 if self.spec.table is not None
                    else self._searched())
            self.label.setText(tr(self.spec.hidden if held else self.spec.fill))
            for button in self.buttons:
                button.setVisible(not held and not store.read_only)
            self.setGeometry(self.view.viewport().rect())
        self.setVisible(empty)


def _when_rows_change(owner: QObject, view: QAbstractItemView, slot: Callable[[], None], *,
                      inserted: bool) -> None:
    """Call ``slot`` once per event-loop turn after ``view``'s model resets, loses rows,
    re-lays them out or (``inserted``) gains some: a search that reloads the list sends
    several of these at once."""
    timer = QTimer(owner)
    timer.setSingleShot(True)
    timer.setInterval(0)
    timer.timeout.connect(slot)
    model = view.model()
    signals = [model.modelReset, model.rowsRemoved, model.layoutChanged]
    if inserted:
        signals.append(model.rowsInserted)
    for signal in signals:
        signal.connect(timer.start)


class _HintWatch(QObject):
    """Makes ``view``'s hint the first time its list is empty.

    A list that shows rows needs no hint yet, and making one means reaching the list's
    viewport, a plain QWidget: PySide then looks through every widget class it knows for a
    closer match and sets each one up (~44 million instructions, most of the events that
    followed the first paint of a large file).  So a list with rows only watches its model;
    many never empty in a session."""

    def __init__(self, view: QAbstractItemView, make: Callable[[], None]) -> None:
        super().__init__(view)
        self.view, self._make = view, make
        _when_rows_change(self, view, self._check, inserted=False)

    def _check(self) -> None:
        if self.view.model().rowCount() == 0:
            self._make()
            self.deleteLater()  # the hint follows the list from now on


def install_empty_hints(window: MainWindow, index: int, section: QWidget) -> None:
    """Give section ``index``'s lists their hints (sections without one are left alone);
    :func:`hints_of` finds them again.  A list whose table holds rows gets its hint when it
    first empties (:class:`_HintWatch`)."""
    find = getattr(section, "find_field", lambda: None)

    def searched() -> bool:
        field = find()
        return field is not None and bool(field.text().strip())

    for spec in HINTS.get(index, ()):
        view = getattr(section, spec.view, None)
        if not isinstance(view, QAbstractItemView):
            continue

        def make(view: QAbstractItemView = view, spec: HintSpec = spec) -> None:
            EmptyHint(view, spec, lambda: window.store, window.ask_import, searched)

        store = window.store
        if store is not None and spec.table is not None and store.count(spec.table) > 0:
            _HintWatch(view, make)  # its list shows rows on the first paint
        else:
            make()  # the viewport's child from now on


def hints_of(section: QWidget) -> list[EmptyHint]:
    """The hints :func:`install_empty_hints` gave ``section``, in :data:`HINTS` order."""
    return sorted(section.findChildren(EmptyHint, "emptyHint"), key=_rank)


def _rank(hint: EmptyHint) -> int:
    """Where ``hint``'s spec stands among its section's."""
    return next((specs.index(hint.spec) for specs in HINTS.values() if hint.spec in specs), 0)
