"""Gold set section: the cases, searchable and filterable, with the selected case in full."""

from __future__ import annotations

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QSplitter,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from rag_annotator.domain.changes import Changes
from rag_annotator.errors import NotFound
from rag_annotator.ui import labels
from rag_annotator.ui.hub import UiContext
from rag_annotator.ui.models import CasesModel
from rag_annotator.ui.sections.base import (
    Section,
    choice_combo,
    current_row,
    esc,
    html_list,
    make_table,
    search_field,
    select_row,
)


class GoldSetSection(Section):
    """Lists the cases (lazy model) and shows the selected one."""

    def __init__(self, ctx: UiContext, parent: QWidget | None = None) -> None:
        super().__init__(ctx, parent)
        self.model = CasesModel(self)
        self.search = search_field(self.tr("Search key, question or reference answer…"))
        self.family = choice_combo(self.tr("All families"),
                                   {k: labels.tr(v) for k, v in labels.FAMILIES.items()})
        self.status = choice_combo(self.tr("All statuses"),
                                   {k: labels.tr(v) for k, v in labels.CASE_STATUSES.items()})
        self.count = QLabel()
        self.table = make_table(self.model)
        self.detail = QTextBrowser()
        self.detail.setOpenLinks(False)

        bar = QHBoxLayout()
        bar.addWidget(self.search, 2)
        bar.addWidget(QLabel(self.tr("Family:")))
        bar.addWidget(self.family)
        bar.addWidget(QLabel(self.tr("Status:")))
        bar.addWidget(self.status)
        bar.addStretch(1)
        bar.addWidget(self.count)
        splitter = QSplitter(Qt.Orientation.Vertical)
        splitter.addWidget(self.table)
        splitter.addWidget(self.detail)
        splitter.setStretchFactor(0, 1)
        splitter.setStretchFactor(1, 1)
        splitter.setSizes([1000, 1000])
        layout = QVBoxLayout(self)
        layout.addLayout(bar)
        layout.addWidget(splitter, 1)

        self._debounce = QTimer(self)
        self._debounce.setSingleShot(True)
        self._debounce.setInterval(250)
        self._debounce.timeout.connect(self._apply_filters)
        self.search.textChanged.connect(self._debounce.start)
        self.search.returnPressed.connect(self._apply_filters)
        self.family.currentIndexChanged.connect(self._apply_filters)
        self.status.currentIndexChanged.connect(self._apply_filters)
        self.table.selectionModel().currentRowChanged.connect(self._show_current)

    def focus_widget(self) -> QWidget:
        return self.table

    def find_field(self) -> QLineEdit:
        return self.search

    def refresh(self) -> None:
        self.model.store = self.store
        self._reload(keep=self._current_id())

    def clear(self) -> None:
        self.model.set_store(None)
        self.detail.clear()
        self.count.clear()

    def apply_changes(self, changes: Changes) -> None:
        if changes.reshapes("cases"):
            self._reload(keep=self._current_id())
            return
        if changes.touches("cases"):
            self.model.refresh_ids(changes.ids("cases"))
        if changes.touches("expected_sources", "documents"):
            self.model.refresh_all()
        current = self._current_id()
        if current is not None and (current in changes.ids("cases")
                                    or changes.touches("expected_sources", "documents")):
            self._show_case(current)

    # -- internals -----------------------------------------------------------------------------
    def _current_id(self) -> int | None:
        return self.model.id_at(current_row(self.table))

    def _apply_filters(self) -> None:
        self._debounce.stop()
        self.model.search = self.search.text().strip()
        self.model.family = self.family.currentData() or ""
        self.model.status = self.status.currentData() or ""
        if self.store is not None:
            self._reload(keep=self._current_id())

    def _reload(self, keep: int | None) -> None:
        self.model.reload()
        total = self.model.rowCount()
        self.count.setText(self.tr("%Ln case(s)", "", total))
        row = self.model.row_of(keep) if keep is not None else None
        if total:
            select_row(self.table, row if row is not None else 0)
        else:
            nothing = self.tr("No case matches.")
            self.detail.setHtml(f"<p><i>{esc(nothing)}</i></p>")

    def _show_current(self) -> None:
        case_id = self._current_id()
        if case_id is not None:
            self._show_case(case_id)

    def _show_case(self, case_id: int) -> None:
        store = self.store
        if store is None:
            return
        try:
            case = store.case_detail(case_id)
        except NotFound:
            self.detail.clear()
            return
        none = self.tr("None")
        # A label followed by its value; French puts a (non-breaking) space before the colon.
        colon = self.tr("%1:")
        quoted = self.tr("“%1”")
        facts = [
            (self.tr("Family"), labels.family(case["family"])),
            (self.tr("Status"), labels.case_status(case["status"])),
            (self.tr("Expected behaviour"), labels.behaviour(case["expected_behaviour"])),
            (self.tr("Difficulty"), labels.difficulty(case["difficulty"])),
            (self.tr("Role"), case["role"]),
            (self.tr("Tags"), ", ".join(map(str, case["tags"]))),
            (self.tr("Author"), case["author"]),
        ]
        sources = []
        for source in case["expected_sources"]:
            text = f"<b>{esc(source['key'])}</b> — {esc(source['title'])}"
            if source["passage"]:
                text += f"<br><i>{esc(quoted.replace('%1', source['passage']))}</i>"
            if source["note"]:
                text += f"<br>{esc(source['note'])}"
            sources.append(text)
        sources_html = (f"<ul>{''.join(f'<li>{s}</li>' for s in sources)}</ul>" if sources
                        else f"<p><i>{esc(none)}</i></p>")
        headings = [self.tr("Variants of the question"), self.tr("Reference answer"),
                    self.tr("Must contain"), self.tr("Must never say"),
                    self.tr("Expected sources"), self.tr("Notes")]
        bodies = [
            html_list(case["variants"], none),
            f"<p>{esc(case['reference_answer']) or '<i>' + esc(none) + '</i>'}</p>",
            html_list(case["must_contain"], none),
            html_list(case["forbidden"], none),
            sources_html,
            f"<p>{esc(case['notes']) or '<i>' + esc(none) + '</i>'}</p>",
        ]
        parts = [
            f"<h3>{esc(case['key'])} — {esc(case['question'])}</h3>",
            "<p>" + "<br>".join(f"<b>{esc(colon.replace('%1', k))}</b> {esc(v)}"
                                for k, v in facts if v) + "</p>",
        ]
        for heading, body in zip(headings, bodies):
            parts += [f"<h4>{esc(heading)}</h4>", body]
        self.detail.setHtml("".join(parts))
