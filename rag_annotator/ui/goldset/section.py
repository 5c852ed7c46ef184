"""Gold set section: the cases, searchable and filterable, and the case editor beside them.

The list filters by text, family, status and tag (or by one cell of the coverage grid) and
allows a multi-selection for bulk edits (family, tags, status: one undoable operation each).
The selected case is edited on the right
(:class:`~rag_annotator.ui.goldset.case_editor.CaseEditor`).
Everything is keyboard-driven; the commands are declared in ``ui/goldset/keys.py``.
The write operations and the dialogs are imported by the commands that use them: the window's
first paint shows this section and needs neither (issue 19).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from PySide6.QtCore import Qt
from PySide6.QtGui import QFocusEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QDialog,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from rag_annotator.domain.changes import Changes
from rag_annotator.storage.store import GoldSetStore
from rag_annotator.ui import labels
from rag_annotator.ui.context import UiContext
from rag_annotator.ui.goldset.case_editor import CaseEditor, split_tags
from rag_annotator.ui.look.flow import FlowLayout
from rag_annotator.ui.models import CasesModel, Column, Row
from rag_annotator.ui.sections.base import (
    ListSection,
    choice_combo,
    current_row,
    make_table,
    search_field,
    select_row,
)

GOLDSET_ACTIONS = (
    "goldset.new_case", "goldset.next_case", "goldset.previous_case", "goldset.status_next",
    "goldset.status_previous", "goldset.focus_list", "goldset.focus_question",
    "goldset.focus_answer", "goldset.focus_must", "goldset.focus_tags", "goldset.focus_notes",
    "goldset.add_source", "goldset.bulk_edit", "goldset.delete_case", "goldset.coverage",
    "goldset.review_queue", "goldset.releases", "goldset.import_cases",
    "goldset.import_testset", "goldset.output_contract",
)


class GoldCasesModel(CasesModel):
    """The cases model with a tag filter and an explicit id list (a coverage cell)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.tag = ""
        self.only_ids: list[int] | None = None
        # the kind: empty for RAG cases (most of them), "Agent" for agent cases
        self.columns.append(Column(self.tr("Kind"), lambda r: self.tr("Agent") if r.get(
            "kind") == "agent" else "", 5))

    def fetch_ids(self, store: GoldSetStore) -> list[int]:
        ids = store.case_ids(search=self.search, family=self.family, status=self.status,
                             tag=self.tag)
        if self.only_ids is None:
            return ids
        keep = set(self.only_ids)
        return [i for i in ids if i in keep]

    def fetch_rows(self, store: GoldSetStore, ids: Sequence[int]) -> dict[int, Row]:
        rows = super().fetch_rows(store, ids)
        for case_id, kind in store.case_kinds_of(ids).items():
            if case_id in rows:
                rows[case_id]["kind"] = kind
        return rows


class TagCombo(QComboBox):
    """The tag filter, filled when first opened or focused: reading every case's tags costs
    ~15 ms on 10,000 cases, too much for the window's first paint."""

    def __init__(self, all_text: str, fill: Callable[[], None]) -> None:
        super().__init__()
        self.addItem(all_text, "")
        self.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        self.stale = True
        self._fill = fill

    def _ensure(self) -> None:
        if self.stale:
            self._fill()

    def showPopup(self) -> None:
        self._ensure()
        super().showPopup()

    def focusInEvent(self, event: QFocusEvent) -> None:
        self._ensure()
        super().focusInEvent(event)


class GoldSetSection(ListSection):
    """Lists the cases (lazy model) and edits the selected one."""

    def __init__(self, ctx: UiContext, parent: QWidget | None = None) -> None:
        super().__init__(ctx, parent)
        self.model: GoldCasesModel = GoldCasesModel(self)
        self.search = search_field(self.tr("Search key, question or reference answer…"))
        self.family = choice_combo(self.tr("All families"),
                                   {k: labels.tr(v) for k, v in labels.FAMILIES.items()})
        self.status = choice_combo(self.tr("All statuses"),
                                   {k: labels.tr(v) for k, v in labels.CASE_STATUSES.items()})
        self.tag = TagCombo(self.tr("All tags"), self._fill_tags)
        self.count = QLabel()
        self.cell_label = QLabel()
        self.clear_cell_button = QPushButton(self.tr("Show all"))
        self.clear_cell_button.clicked.connect(self.clear_cell)
        self.table = make_table(self.model)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.editor = CaseEditor(ctx, self)
        self._connect_commands()
        layout = QVBoxLayout(self)
        layout.addLayout(self._build_filter_bar())
        layout.addLayout(self._build_buttons())
        layout.addWidget(self._build_splitter(), 1)
        self.connect_filters(self.family, self.status, self.tag)

    def _connect_commands(self) -> None:
        """The section's commands (menus and keys) and what each does."""
        self.commands = self.install_commands(GOLDSET_ACTIONS)
        c = self.commands
        c["goldset.new_case"].triggered.connect(self.new_case)
        c["goldset.next_case"].triggered.connect(lambda: self.step(+1))
        c["goldset.previous_case"].triggered.connect(lambda: self.step(-1))
        c["goldset.status_next"].triggered.connect(lambda: self.step_status(+1))
        c["goldset.status_previous"].triggered.connect(lambda: self.step_status(-1))
        c["goldset.focus_list"].triggered.connect(
            lambda: self.table.setFocus(Qt.FocusReason.ShortcutFocusReason))
        for action_id, name in (("goldset.focus_question", "question"),
                                ("goldset.focus_answer", "reference_answer"),
                                ("goldset.focus_must", "must_contain"),
                                ("goldset.focus_tags", "tags"),
                                ("goldset.focus_notes", "notes")):
            c[action_id].triggered.connect(lambda _c=False, n=name: self.editor.focus_field(n))
        c["goldset.add_source"].triggered.connect(self.editor.add_source)
        c["goldset.bulk_edit"].triggered.connect(self.bulk_edit)
        c["goldset.delete_case"].triggered.connect(self.delete_case)
        c["goldset.coverage"].triggered.connect(self.show_coverage)
        c["goldset.review_queue"].triggered.connect(self.show_review_queue)
        c["goldset.releases"].triggered.connect(self.show_releases)
        c["goldset.output_contract"].triggered.connect(self.edit_contract)
        c["goldset.import_cases"].triggered.connect(lambda: self.open_import("cases"))
        c["goldset.import_testset"].triggered.connect(lambda: self.open_import("ragas-testset"))

    def _build_buttons(self) -> QHBoxLayout:
        """A button per frequent command, then the release and the coverage cell shown."""
        c = self.commands
        buttons = QHBoxLayout()
        short = {"goldset.new_case": self.tr("New case"),
                 "goldset.bulk_edit": self.tr("Bulk edit…"),
                 "goldset.coverage": self.tr("Coverage…"),
                 "goldset.review_queue": self.tr("Review queue…"),
                 "goldset.releases": self.tr("Releases…"),
                 "goldset.import_cases": self.tr("Import cases…"),
                 "goldset.import_testset": self.tr("Import test set…")}
        self.buttons: dict[str, QPushButton] = {}
        row = QWidget()  # the buttons wrap to a second row when zoomed text makes them wide
        flow = FlowLayout(row)
        for action_id, text in short.items():
            button = QPushButton(text)
            button.setToolTip(c[action_id].toolTip() or c[action_id].text())
            button.clicked.connect(c[action_id].trigger)
            button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
            flow.addWidget(button)
            self.buttons[action_id] = button
        buttons.addWidget(row, 1)
        self.release_label = QLabel()
        buttons.addWidget(self.release_label)
        buttons.addWidget(self.cell_label)
        buttons.addWidget(self.clear_cell_button)
        self.cell_label.hide()
        self.clear_cell_button.hide()
        return buttons

    def _build_filter_bar(self) -> QHBoxLayout:
        """Search, family, status and tag filters, and the count of cases shown."""
        bar = QHBoxLayout()
        bar.addWidget(self.search, 2)
        bar.addWidget(QLabel(self.tr("Family:")))
        bar.addWidget(self.family)
        bar.addWidget(QLabel(self.tr("Status:")))
        bar.addWidget(self.status)
        bar.addWidget(QLabel(self.tr("Tag:")))
        bar.addWidget(self.tag)
        for combo in (self.family, self.status, self.tag):  # long family names: no widening
            combo.setSizeAdjustPolicy(
                QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
            combo.setMinimumContentsLength(12)
        bar.addStretch(1)
        bar.addWidget(self.count)
        return bar

    def _build_splitter(self) -> QSplitter:
        """The case list beside the case editor."""
        splitter = QSplitter(Qt.Orientation.Horizontal)
        splitter.addWidget(self.table)
        splitter.addWidget(self.editor)
        splitter.setStretchFactor(0, 3)
        splitter.setStretchFactor(1, 2)
        splitter.setSizes([3000, 2000])
        # The editor beside the list shows the behaviour and the sources: the list keeps its
        # width for the question.
        self.table.setColumnHidden(4, True)
        self.table.setColumnHidden(6, True)
        chars = self.table.fontMetrics().horizontalAdvance("0")
        for column, width in ((0, 7), (2, 16), (3, 9), (5, 12)):
            self.table.horizontalHeader().resizeSection(column, chars * width + 12)
        return splitter

    # -- section interface -------------------------------------------------------------------
    def refresh(self) -> None:
        self.tag.stale = True
        self._show_release()
        self.model.store = self.store
        keep = self._current_id()
        if keep is None and self.store is not None:  # first shown: on a question
            keep = self.store.first_question_id()
        self._reload(keep=keep)

    def _show_release(self) -> None:
        store = self.store
        state, name = store.release_state() if store is not None else ("draft", "")
        self.release_label.setText(
            self.tr("Release %1 frozen").replace("%1", name) if state == "frozen" else "")
        self.release_label.setToolTip(self.tr("Its approved cases are read-only until a new "
                                              "draft version starts (Releases…)."))

    def restyle(self) -> None:
        super().restyle()
        if self.loaded:
            self.editor.reload(keep_typing=True)  # its banners and warnings are rich text

    def clear(self) -> None:
        self.model.only_ids = None
        self.model.set_store(None)
        self.editor.set_case(None)
        self.count.clear()

    def apply_changes(self, changes: Changes) -> None:
        if changes.touches("cases"):
            self.tag.stale = True
        if changes.touches("meta", "releases"):
            self._show_release()
        if changes.reshapes("cases"):
            self._reload(keep=self._current_id())
        else:
            if changes.touches("cases"):
                self.model.refresh_ids(changes.ids("cases"))
            if changes.touches("expected_sources", "documents"):
                self.model.refresh_all()
        current = self._current_id()
        if current != self.editor.case_id:
            self.editor.set_case(current)
        elif changes.touches("cases", "expected_sources", "documents", "meta",
                             "case_reviews"):
            self.editor.reload(keep_typing=True)

    def apply_model_filters(self) -> None:
        self.model.search = self.search.text().strip()
        self.model.family = self.family.currentData() or ""
        self.model.status = self.status.currentData() or ""
        self.model.tag = self.tag.currentData() or ""

    def count_text(self, total: int) -> str:
        return self.tr("%Ln case(s)", "", total)

    def show_nothing(self) -> None:
        self.editor.set_case(None)

    def show_current(self) -> None:
        self.editor.set_case(self._current_id())

    def _fill_tags(self) -> None:
        store = self.store
        if store is None:
            return
        self.tag.stale = False
        current = self.tag.currentData() or ""
        tags = store.case_tags()
        self.tag.blockSignals(True)
        self.tag.clear()
        self.tag.addItem(self.tr("All tags"), "")
        for tag in tags:
            self.tag.addItem(tag, tag)
        self.tag.setCurrentIndex(max(self.tag.findData(current), 0))
        self.tag.blockSignals(False)

    # -- commands ------------------------------------------------------------------------------
    def selected_ids(self) -> list[int]:
        """The selected cases (the current one when nothing else is selected)."""
        rows = sorted({i.row() for i in self.table.selectionModel().selectedRows()})
        ids = [i for i in (self.model.id_at(r) for r in rows) if i is not None]
        if not ids and self._current_id() is not None:
            ids = [self._current_id()]  # type: ignore[list-item]
        return ids

    def new_case(self) -> None:
        """Add a draft case with the next free key and put the keyboard in its question."""
        from rag_annotator.domain import goldset_ops
        from rag_annotator.domain import operations as ops

        store = self.store
        if store is None:
            return
        self.editor.flush()
        key = goldset_ops.next_case_key(store.case_keys())
        changes = self.ctx.undo.run(lambda s: ops.create_case(s, key=key))
        if changes is None:
            return
        new_id = store.by_key("cases", key)["id"]
        if self.model.row_of(new_id) is None:  # hidden by the filters: show everything
            self.clear_filters()
        row = self.model.row_of(new_id)
        if row is not None:
            select_row(self.table, row)
        self.editor.focus_field("question")

    def clear_filters(self) -> None:
        """Show every case."""
        for combo in (self.family, self.status, self.tag):
            combo.blockSignals(True)
            combo.setCurrentIndex(0)
            combo.blockSignals(False)
        self.search.blockSignals(True)
        self.search.clear()
        self.search.blockSignals(False)
        self.model.only_ids = None
        self.cell_label.hide()
        self.clear_cell_button.hide()
        self._apply_filters()

    def step(self, delta: int) -> None:
        """Next or previous case in the list (what is being typed is committed first)."""
        row = current_row(self.table)
        target = row + delta if row >= 0 else 0
        if 0 <= target < self.model.rowCount():
            focus = self.focusWidget()
            self.editor.flush()
            select_row(self.table, target)
            if focus is not None and focus is not self.table and self.editor.isAncestorOf(focus):
                focus.setFocus(Qt.FocusReason.OtherFocusReason)

    def step_status(self, delta: int) -> None:
        """Move the current case one step along draft → reviewed → approved → retired."""
        from rag_annotator.domain import goldset_ops
        from rag_annotator.domain import operations as ops

        case_id = self.editor.case_id
        if case_id is None or not self.editor.case:
            return
        status = self.editor.case["status"]
        target = (goldset_ops.next_status(status) if delta > 0
                  else goldset_ops.previous_status(status))
        if target != status:
            self.ctx.undo.run(lambda s: ops.edit_case(s, case_id, status=target))

    def delete_case(self) -> None:
        """Delete the current case after confirmation (undoable)."""
        from PySide6.QtWidgets import QMessageBox

        from rag_annotator.domain import operations as ops

        case_id = self.editor.case_id
        if case_id is None:
            return
        key = self.editor.case.get("key", "")
        answer = QMessageBox.question(
            self, self.tr("Delete the case"),
            self.tr("Delete case %1 with its expected sources and judgments? (Undo brings it "
                    "back.)").replace("%1", str(key)))
        if answer == QMessageBox.StandardButton.Yes:
            self.ctx.undo.run(lambda s: ops.delete_case(s, case_id))

    def bulk_edit(self) -> None:
        """Change family, tags or status of the selected cases."""
        from rag_annotator.ui.goldset.bulk_dialog import BulkEditDialog

        ids = self.selected_ids()
        if not ids or self.store is None:
            return
        self.editor.flush()
        dialog = BulkEditDialog(len(ids), self)
        if dialog.exec() != QDialog.DialogCode.Accepted:
            return
        self.apply_bulk(ids, dialog.family.currentData() or "",
                        dialog.status.currentData() or "",
                        split_tags(dialog.add_tags.text()), split_tags(dialog.remove_tags.text()))

    def apply_bulk(self, ids: list[int], family: str, status: str, add: list[str],
                   remove: list[str]) -> None:
        """Run the bulk operations asked for (each its own undoable operation)."""
        from rag_annotator.domain import goldset_ops

        if family:
            self.ctx.undo.run(lambda s: goldset_ops.bulk_set_family(s, ids, family))
        if add or remove:
            self.ctx.undo.run(lambda s: goldset_ops.bulk_edit_tags(s, ids, add, remove))
        if status:
            self.ctx.undo.run(lambda s: goldset_ops.bulk_set_status(s, ids, status))

    def edit_contract(self) -> None:
        """The case's output contract, in its own dialog (one undoable edit on Save)."""
        from rag_annotator.domain.structured_ops import set_output_contract
        from rag_annotator.ui.goldset.contract_dialog import ContractDialog

        self.editor.flush()
        case_id, store = self.editor.case_id, self.store
        if case_id is None or store is None or self.editor.case.get("kind") == "agent":
            return
        sources = self.editor.case.get("expected_sources") or [{}]
        dialog = ContractDialog(self.editor.case["key"], store.output_contract(case_id),
                                set(store.document_keys()), sources[0].get("key"), self)
        accepted = dialog.exec() == QDialog.DialogCode.Accepted
        self.window().activateWindow()
        self.table.setFocus(Qt.FocusReason.OtherFocusReason)
        if accepted and (dialog.contract is not None or dialog.had_contract):
            contract = dialog.contract
            self.ctx.undo.run(lambda s: set_output_contract(s, case_id, contract))

    def show_coverage(self) -> None:
        """The families × tags grid; a click shows that cell's cases here."""
        from rag_annotator.ui.goldset.coverage import CoverageDialog

        if self.store is None:
            return
        dialog = CoverageDialog(self.store, self)
        if dialog.exec() == QDialog.DialogCode.Accepted and dialog.chosen is not None:
            self.show_cell(*dialog.chosen)

    def show_cell(self, family: str, tag: str) -> None:
        """List only the cases of one coverage cell."""
        store = self.store
        if store is None:
            return
        self.clear_filters()
        self.model.only_ids = store.case_ids_in_cell(family, tag)
        self.cell_label.setText(self.tr("Coverage cell: %1 × %2").replace(
            "%1", labels.family(family)).replace("%2", tag or self.tr("(no tag)")))
        self.cell_label.show()
        self.clear_cell_button.show()
        self._reload(keep=None)

    def clear_cell(self) -> None:
        """Leave the coverage cell: list every case again."""
        self.clear_filters()

    def show_review_queue(self) -> None:
        """Review the generated cases (accept / edit / reject)."""
        from rag_annotator.ui.goldset.review_queue import ReviewQueueDialog

        if self.store is None:
            return
        self.editor.flush()
        dialog = ReviewQueueDialog(self.ctx, self)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.exec()

    def show_releases(self) -> None:
        """Freeze, compare, and start a new draft version."""
        from rag_annotator.ui.goldset.releases import ReleasesDialog

        if self.store is None:
            return
        self.editor.flush()
        dialog = ReleasesDialog(self.ctx, self)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.exec()

    def open_import(self, kind: str) -> None:
        """Import cases or a generated test set through the import dialog."""
        from rag_annotator.ui.exchange.import_dialog import open_import_dialog

        self.editor.flush()
        open_import_dialog(self, self.ctx, kind)
