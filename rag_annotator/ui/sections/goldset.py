"""Gold set section: the cases, searchable and filterable, with the selected case in full."""

from __future__ import annotations

from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QTextBrowser,
    QWidget,
)

from rag_annotator.domain.changes import Changes
from rag_annotator.errors import NotFound
from rag_annotator.ui import labels
from rag_annotator.ui.hub import UiContext
from rag_annotator.ui.models import CasesModel
from rag_annotator.ui.sections.base import (
    ListSection,
    choice_combo,
    esc,
    html_list,
    make_table,
    search_field,
)


class GoldSetSection(ListSection):
    """Lists the cases (lazy model) and shows the selected one."""

    def __init__(self, ctx: UiContext, parent: QWidget | None = None) -> None:
        super().__init__(ctx, parent)
        self.model: CasesModel = CasesModel(self)
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
        self.lay_out(bar, self.detail, (1, 1))
        self.connect_filters(self.family, self.status)

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
    def apply_model_filters(self) -> None:
        self.model.search = self.search.text().strip()
        self.model.family = self.family.currentData() or ""
        self.model.status = self.status.currentData() or ""

    def count_text(self, total: int) -> str:
        return self.tr("%Ln case(s)", "", total)

    def show_nothing(self) -> None:
        nothing = self.tr("No case matches.")
        self.detail.setHtml(f"<p><i>{esc(nothing)}</i></p>")

    def show_current(self) -> None:
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
