"""A PDF shown as its page wherever a document is judged or verified, by keyboard: in Judge
the retrieved chunk is highlighted on its page; in Verify words selected on the page (or
dragged over with the mouse) and E store an evidence span that names exactly those words;
PgDown / PgUp and F7; a key never waits for a page."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QColor

from rag_annotator.storage.store import GoldSetStore
from rag_annotator.ui.judge.section import JudgeSection
from rag_annotator.ui.main_window import MainWindow
from rag_annotator.ui.pages.viewer import NEIGHBOURS_AFTER_MS, DocumentViewer
from rag_annotator.ui.verify.section import VerifySection
from tests.pdf_documents import CHUNK_WORDS, COLUMNS, add_pdf_document, build_pdf_goldset
from tests.ui.driving import open_window

pytestmark = pytest.mark.gui


@pytest.fixture
def pdf_file(goldset_path: Path) -> dict[str, int]:
    with GoldSetStore.create(goldset_path, assessor="alice") as store:
        return build_pdf_goldset(store)


@pytest.fixture
def pdf_window(qtbot, pdf_file: dict[str, int], goldset_path: Path,  # type: ignore[no-untyped-def]
               english: None) -> MainWindow:
    return open_window(qtbot, goldset_path)


def page_shown(qtbot, viewer: DocumentViewer, page: int) -> None:  # type: ignore[no-untyped-def]
    """Wait until ``viewer`` paints ``page`` (1-based) of its PDF."""
    qtbot.waitUntil(lambda: viewer.showing_pages() and viewer.page == page
                    and viewer.page_view.ready, timeout=10_000)


def judge(qtbot, window: MainWindow) -> JudgeSection:  # type: ignore[no-untyped-def]
    qtbot.keyClick(window, Qt.Key.Key_4, Qt.KeyboardModifier.ControlModifier)
    section = window.current_section()
    assert isinstance(section, JudgeSection)
    section.pairs.setFocus()
    return section


def test_judge_shows_the_retrieved_chunk_highlighted_on_its_page(
        qtbot, pdf_window: MainWindow, pdf_file: dict[str, int]) -> None:  # type: ignore[no-untyped-def]
    section = judge(qtbot, pdf_window)
    assert section.document_id() == pdf_file["pdf"]  # the whole PDF first: page 1
    page_shown(qtbot, section.viewer, 1)
    assert section.viewer.page_view.passage is None
    qtbot.keyClick(section.pairs, Qt.Key.Key_J)  # the passage retrieved on page 2
    assert section.document_id() == pdf_file["passage"]
    page_shown(qtbot, section.viewer, 2)
    store = pdf_window.store
    text = store.document_text(pdf_file["pdf"])
    span = store.document_structure(pdf_file["passage"]).span
    page_start = store.document_structure(pdf_file["pdf"]).paged_layout.pages[1]
    assert text[span[0]:].startswith(CHUNK_WORDS)
    view = section.viewer.page_view
    assert view.passage == (span[0] - page_start, span[1] - page_start)
    assert view.page_text() is not None
    assert view.page_text()[view.passage[0]:].startswith(CHUNK_WORDS)
    assert "Page 2" in section.viewer.header.text()
    assert "passage on page 2" in section.viewer.header.text()
    # the highlight is painted where the chunk's first word is printed
    qtbot.waitUntil(lambda: bool(view.renderer.rects(view.source, 1, [view.passage])),
                    timeout=5000)
    first = view.renderer.rects(view.source, 1, [view.passage])[view.passage][0]
    target = view._image_rect()
    box = view._to_view(first, target)
    grabbed = view.viewport().grab().toImage()
    inside = QColor(grabbed.pixel(int(box.left() + 2), int(box.center().y())))
    margin = QColor(grabbed.pixel(int(target.left() + 2), int(target.top() + 3)))
    assert inside.blue() < inside.red() - 60  # yellow over white
    assert margin.red() > 240 and margin.blue() > 240  # the page's white elsewhere


def test_page_keys_turn_the_pages_and_f7_shows_the_text(
        qtbot, pdf_window: MainWindow, pdf_file: dict[str, int]) -> None:  # type: ignore[no-untyped-def]
    section = judge(qtbot, pdf_window)
    viewer = section.viewer
    page_shown(qtbot, viewer, 1)
    qtbot.keyClick(section.pairs, Qt.Key.Key_PageDown)
    page_shown(qtbot, viewer, 2)
    qtbot.keyClick(section.pairs, Qt.Key.Key_PageDown)
    qtbot.keyClick(section.pairs, Qt.Key.Key_PageDown)
    qtbot.keyClick(section.pairs, Qt.Key.Key_PageDown)  # past the last page: stays
    page_shown(qtbot, viewer, 4)
    qtbot.keyClick(section.pairs, Qt.Key.Key_PageUp)
    page_shown(qtbot, viewer, 3)
    qtbot.keyClick(section.pairs, Qt.Key.Key_F7)
    assert not viewer.showing_pages() and viewer.stack.currentWidget() is section.document
    qtbot.keyClick(section.pairs, Qt.Key.Key_PageDown)  # in the text: to page 4's start
    assert viewer.page == 4 and "Page 4" in viewer.header.text()
    text = pdf_window.store.document_text(pdf_file["pdf"])
    start = viewer.layout_of().pages[3]
    cursor = section.document.textCursor().position()
    assert section.document.toPlainText()[cursor:cursor + 30] == text[start:start + 30]
    qtbot.keyClick(section.pairs, Qt.Key.Key_F7)
    page_shown(qtbot, viewer, 4)


def verify_on_pdf(qtbot, window: MainWindow) -> VerifySection:  # type: ignore[no-untyped-def]
    qtbot.keyClick(window, Qt.Key.Key_5, Qt.KeyboardModifier.ControlModifier)
    section = window.current_section()
    assert isinstance(section, VerifySection)
    section.claims_table.setFocus()
    return section


def words_at(text: str, words: str, start: int) -> tuple[int, int]:
    begin = text.index(words, start)
    return begin, begin + len(words)


def test_words_selected_on_the_page_by_keyboard_are_the_evidence_stored(
        qtbot, pdf_window: MainWindow, pdf_file: dict[str, int]) -> None:  # type: ignore[no-untyped-def]
    section = verify_on_pdf(qtbot, pdf_window)
    viewer = section.pane.viewer
    assert section.current_document()["document_id"] == pdf_file["passage"]
    page_shown(qtbot, viewer, 2)
    qtbot.keyClick(section.claims_table, Qt.Key.Key_F6)  # the keyboard to the page
    view = viewer.page_view
    assert view.hasFocus()
    # the word cursor starts on the chunk's first word ("A blind text like this…"); four
    # words on, then select "this gives you information" (four words; "gives" ends a line)
    for _ in range(4):
        qtbot.keyClick(view, Qt.Key.Key_Right)
    for _ in range(4):
        qtbot.keyClick(view, Qt.Key.Key_Right, Qt.KeyboardModifier.ShiftModifier)
    qtbot.keyClick(view, Qt.Key.Key_Left, Qt.KeyboardModifier.ShiftModifier)
    qtbot.keyClick(view, Qt.Key.Key_Right, Qt.KeyboardModifier.ShiftModifier)
    assert view.selected_text() == "this gives\nyou information"
    qtbot.keyClick(view, Qt.Key.Key_E)
    store = pdf_window.store
    text = store.document_text(pdf_file["pdf"])
    chunk = store.document_structure(pdf_file["passage"]).span
    expected = words_at(text, "this gives\nyou information", chunk[0])
    assert store.query("SELECT document_id, span_start, span_end FROM evidence "
                       "WHERE claim_id = ?", (pdf_file["claim"],)) == [
        {"document_id": pdf_file["pdf"], "span_start": expected[0],
         "span_end": expected[1]}]
    assert "page 2" in pdf_window.statusBar().currentMessage()
    claim = section.current_claim()
    assert claim["evidence"][0]["page"] == 2
    assert section.claims.data(section.claims.index(0, 4)) == "PDF-4P p. 2"
    # the evidence is drawn on the page: marked with the offsets of the page's text
    page_start = viewer.layout_of().pages[1]
    assert view.evidence == [(expected[0] - page_start, expected[1] - page_start)]
    # and, the chunk having been located exactly, in the passage's own text too (F7)
    qtbot.keyClick(view, Qt.Key.Key_F7)
    selections = section.context_view.extraSelections()
    assert [s.cursor.selectedText() for s in selections] == ["this gives\u2029you information"]


def test_words_dragged_over_with_the_mouse_are_the_evidence_stored(
        qtbot, pdf_window: MainWindow, pdf_file: dict[str, int]) -> None:  # type: ignore[no-untyped-def]
    section = verify_on_pdf(qtbot, pdf_window)
    viewer = section.pane.viewer
    page_shown(qtbot, viewer, 2)
    view = viewer.page_view
    page_text = view.page_text()
    first = page_text.index("selected font")
    last = first + len("selected font, how the letters")
    wanted = [(first, first + 8), (last - 7, last)]
    qtbot.waitUntil(lambda: len(view.renderer.rects(view.source, 1, wanted)) == 2,
                    timeout=5000)
    rects = view.renderer.rects(view.source, 1, wanted)
    target = view._image_rect()
    points = [view._to_view(rects[span][0], target).center() for span in wanted]
    press, release = (QPoint(int(p.x()), int(p.y())) for p in points)
    qtbot.mousePress(view.viewport(), Qt.MouseButton.LeftButton, pos=press)
    qtbot.mouseMove(view.viewport(), QPoint((press.x() + release.x()) // 2, press.y()))
    qtbot.mouseMove(view.viewport(), release)
    qtbot.mouseRelease(view.viewport(), Qt.MouseButton.LeftButton, pos=release)
    qtbot.waitUntil(lambda: view.selected_text() == "selected font, how the letters",
                    timeout=5000)
    qtbot.keyClick(view, Qt.Key.Key_E)
    page_start = viewer.layout_of().pages[1]
    assert pdf_window.store.query("SELECT span_start, span_end FROM evidence") == [
        {"span_start": page_start + first, "span_end": page_start + last}]
    assert pdf_window.store.document_text(pdf_file["pdf"])[page_start + first:
                                                           page_start + last] == \
        "selected font, how the letters"


def test_a_key_never_waits_for_a_page_and_stale_pages_are_not_rendered(
        qtbot, pdf_window: MainWindow, pdf_file: dict[str, int]) -> None:  # type: ignore[no-untyped-def]
    section = judge(qtbot, pdf_window)
    viewer = section.viewer
    page_shown(qtbot, viewer, 1)
    renderer = pdf_window.ctx.pages
    rendered: list[tuple[str, int]] = []  # (PDF, 0-based page) of each render
    when: dict[tuple[str, int], float] = {}
    renderer.page_ready.connect(lambda page: (rendered.append(page.key[:2]),
                                              when.setdefault(page.key[:2], time.monotonic())))
    gate = threading.Event()
    renderer._submit(gate.wait)  # the worker is busy: nothing renders until the gate opens
    try:
        for _ in range(3):  # pages 2, 3, 4 asked for, none ready: the keys return at once
            qtbot.keyClick(section.pairs, Qt.Key.Key_PageDown)
        assert viewer.page == 4 and not viewer.page_view.ready
        assert viewer.showing_pages()  # the previous page stays, veiled, meanwhile
        qtbot.keyClick(section.pairs, Qt.Key.Key_J)  # the passage, on page 2 of that PDF
        assert section.document_id() == pdf_file["passage"]
        assert viewer.page == 2 and viewer.showing_pages()
        # another PDF's page is not shown veiled: its text is, until its page is ready
        other = add_pdf_document(pdf_window.store, "COLUMNS", COLUMNS)
        corpus_text = pdf_window.store.document_text(other)
        section.document.setPlainText(corpus_text)
        viewer.show_structure(pdf_window.store.document_structure(other),
                              pdf_window.store.path, corpus_text)
        assert viewer.stack.currentWidget() is section.document
        qtbot.keyClick(section.pairs, Qt.Key.Key_K)  # the PDF, then its passage again
        qtbot.keyClick(section.pairs, Qt.Key.Key_J)
    finally:
        gate.set()
        opened = time.monotonic()
    page_shown(qtbot, viewer, 2)
    qtbot.wait(300)
    # PgDown three times asked for pages 2 (maybe rendered already, read ahead beside page
    # 1), 3 and 4, J for the passage's page 2, then the other PDF's page 1 was asked for and
    # dropped.  Once the gate opens, pages 3 and 4 and the other PDF's page are skipped when
    # their turn comes; page 2 is rendered if it was not yet, and page 3 later, once page 2
    # has been in view a moment, as a page read ahead beside it.
    pdf_sha = viewer.source().sha256
    qtbot.waitUntil(lambda: (pdf_sha, 2) in rendered, timeout=5000)
    qtbot.wait(100)
    assert rendered[-1] == (pdf_sha, 2) and set(rendered) <= {(pdf_sha, 1), (pdf_sha, 2)}
    assert len(rendered) == len(set(rendered))  # nothing rendered twice
    # page 3 waited for page 2 to be in view a while: its job queued by PgDown was skipped
    assert when[(pdf_sha, 2)] - opened > NEIGHBOURS_AFTER_MS / 1000 * 0.9


def test_f7_on_a_document_without_pages_says_why(qtbot, window: MainWindow) -> None:  # type: ignore[no-untyped-def]
    qtbot.keyClick(window, Qt.Key.Key_4, Qt.KeyboardModifier.ControlModifier)
    section = window.current_section()
    assert isinstance(section, JudgeSection)
    section.pairs.setFocus()
    qtbot.keyClick(section.pairs, Qt.Key.Key_F7)
    assert "Only a PDF document" in window.statusBar().currentMessage()
    qtbot.keyClick(section.pairs, Qt.Key.Key_PageDown)
    assert "no pages" in window.statusBar().currentMessage()
    assert not section.viewer.showing_pages()


def test_a_damaged_kept_file_shows_the_text_and_says_so(
        qtbot, goldset_path: Path, english: None) -> None:  # type: ignore[no-untyped-def]
    with GoldSetStore.create(goldset_path, assessor="alice") as store:
        ids = build_pdf_goldset(store)
    import hashlib
    import sqlite3

    broken = b"%PDF-1.7\n" + b"\x00" * 300  # what a truncated download leaves
    with sqlite3.connect(goldset_path) as conn:
        conn.execute("UPDATE document_files SET data = ?, sha256 = ?",
                     (broken, hashlib.sha256(broken).hexdigest()))
    window = open_window(qtbot, goldset_path)
    section = judge(qtbot, window)
    assert section.document_id() == ids["pdf"]
    qtbot.waitUntil(lambda: "cannot be shown as pages" in section.viewer.header.text(),
                    timeout=10_000)
    assert not section.viewer.showing_pages()
    assert section.document.toPlainText().startswith("PDF-4P")
    qtbot.keyClick(section.pairs, Qt.Key.Key_1)  # judging goes on
    assert window.store.query("SELECT grade FROM judgments") == [{"grade": 1}]


def test_expected_source_selected_on_the_page_names_the_pdf_and_its_words(
        qtbot, pdf_window: MainWindow, pdf_file: dict[str, int], modals) -> None:  # type: ignore[no-untyped-def]
    from rag_annotator.domain import operations as ops
    from rag_annotator.ui.goldset.source_dialog import SourceDialog

    qtbot.keyClick(pdf_window, Qt.Key.Key_1, Qt.KeyboardModifier.ControlModifier)
    section = pdf_window.current_section()
    section.table.selectRow(0)
    dialog = SourceDialog(pdf_window.ctx, section.editor)
    qtbot.addWidget(dialog)
    dialog.show()
    dialog.search.setText("PDF-4P#p2")  # the passage: its parent's page 2 is shown
    assert dialog.document_id == pdf_file["passage"]
    page_shown(qtbot, dialog.viewer, 2)
    view = dialog.viewer.page_view
    view.setFocus()
    for _ in range(2):
        qtbot.keyClick(view, Qt.Key.Key_Right, Qt.KeyboardModifier.ShiftModifier)
    assert view.selected_text() == "A blind"
    assert dialog.use_passage.isChecked()
    assert dialog.passage.text().startswith("Page 2, characters ")
    text = pdf_window.store.document_text(pdf_file["pdf"])
    span = dialog.span()
    assert dialog.chosen_document() == pdf_file["pdf"]
    assert span is not None and text[span[0]:span[1]] == "A blind"
    case_id = section.editor.case_id
    pdf_window.undo.run(lambda s: ops.add_expected_source(s, case_id, pdf_file["pdf"], span))
    row = section.editor.sources_model.row_at(0)
    assert row["page"] == 2
    assert section.editor.sources_model.data(section.editor.sources_model.index(0, 2)) == \
        "p. 2 — A blind"
    dialog.close()


def test_enter_in_the_sources_list_shows_the_expected_passage_on_its_page(
        qtbot, pdf_window: MainWindow, pdf_file: dict[str, int]) -> None:  # type: ignore[no-untyped-def]
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication

    from rag_annotator.domain import operations as ops
    from rag_annotator.ui.goldset.source_dialog import SourceDialog

    text = pdf_window.store.document_text(pdf_file["pdf"])
    start = text.index("alphabet", pdf_window.store.document_structure(
        pdf_file["pdf"]).paged_layout.pages[2])
    pdf_window.undo.run(lambda s: ops.add_expected_source(
        s, pdf_file["case"], pdf_file["pdf"], (start, start + 8)))
    qtbot.keyClick(pdf_window, Qt.Key.Key_1, Qt.KeyboardModifier.ControlModifier)
    section = pdf_window.current_section()
    section.table.selectRow(0)
    sources = section.editor.sources
    sources.setFocus()
    sources.selectRow(0)
    seen: dict[str, object] = {}

    def look() -> None:
        dialog = QApplication.activeModalWidget()
        if not isinstance(dialog, SourceDialog) or not dialog.viewer.page_view.ready:
            QTimer.singleShot(50, look)
            return
        seen["page"] = dialog.viewer.page
        seen["passage"] = dialog.viewer.page_view.passage
        seen["title"] = dialog.windowTitle()
        seen["header"] = dialog.viewer.header.text()
        dialog.reject()

    QTimer.singleShot(50, look)
    qtbot.keyClick(sources, Qt.Key.Key_Return)
    page_start = pdf_window.store.document_structure(pdf_file["pdf"]).paged_layout.pages[2]
    assert seen["page"] == 3
    assert seen["passage"] == (start - page_start, start - page_start + 8)
    assert seen["title"] == "Expected source"
    assert "passage on page 3" in str(seen["header"])


def test_the_page_view_in_french(qtbot, pdf_file: dict[str, int], goldset_path: Path,  # type: ignore[no-untyped-def]
                                 french: None) -> None:
    window = open_window(qtbot, goldset_path)
    section = judge(qtbot, window)
    qtbot.keyClick(section.pairs, Qt.Key.Key_J)
    page_shown(qtbot, section.viewer, 2)
    assert "passage en page 2" in section.viewer.header.text()
    assert "<b>Page 2</b> / 4" in section.viewer.header.text()


def test_the_corpus_finds_in_the_text_and_styles_the_headings(
        qtbot, goldset_path: Path, english: None) -> None:  # type: ignore[no-untyped-def]
    from tests.pdf_documents import OUTLINE, add_pdf_document

    with GoldSetStore.create(goldset_path, assessor="alice") as store:
        add_pdf_document(store, "OUTLINE", OUTLINE)  # its outline: 9 sections Foo, Bar, Baz
    window = open_window(qtbot, goldset_path)
    qtbot.keyClick(window, Qt.Key.Key_2, Qt.KeyboardModifier.ControlModifier)
    corpus = window.current_section()
    corpus.table.selectRow(0)
    viewer = corpus.viewer
    page_shown(qtbot, viewer, 1)
    assert viewer.structure is not None and len(viewer.structure.layout.headings) == 9
    assert viewer.header.text() == "<b>Page 1</b> / 4"  # the contents: before any section
    viewer.page_view.setFocus()
    qtbot.keyClick(viewer.page_view, Qt.Key.Key_PageDown)
    page_shown(qtbot, viewer, 2)
    assert "Foo" in viewer.header.text()  # the section that opens page 2
    qtbot.keyClick(viewer.page_view, Qt.Key.Key_PageDown)
    page_shown(qtbot, viewer, 3)
    # page 3 opens in the middle of the fourth section (a second "Foo", begun on page 2)
    assert viewer.header.text().endswith("· Foo")
    corpus.text_finder.setText("Baz")  # finding selects in the text: the text is shown
    assert not viewer.showing_pages() and corpus.text.textCursor().selectedText() == "Baz"
    lines = viewer.highlighter.headings
    assert len(lines) == 9 and set(lines.values()) == {1}
    block = corpus.text.document().findBlockByNumber(min(lines))
    assert block.text() == "1 Foo"  # the outline names "Foo", numbered on the page
    formats = block.layout().formats()
    assert formats and formats[0].format.fontWeight() >= 700
    plain = corpus.text.document().findBlockByNumber(min(lines) + 1)
    assert not plain.layout().formats()  # the line after the heading is body text


def test_a_page_whose_text_differs_refuses_a_selection(
        qtbot, goldset_path: Path, english: None) -> None:  # type: ignore[no-untyped-def]
    import sqlite3

    with GoldSetStore.create(goldset_path, assessor="alice") as store:
        ids = build_pdf_goldset(store)
    with sqlite3.connect(goldset_path) as conn:  # as if another version made the text
        conn.execute("UPDATE documents SET pages = '[0, 3900, 7887, 11842]' WHERE id = ?",
                     (ids["pdf"],))
    window = open_window(qtbot, goldset_path)
    section = judge(qtbot, window)
    page_shown(qtbot, section.viewer, 1)
    view = section.viewer.page_view
    view.setFocus()
    qtbot.keyClick(view, Qt.Key.Key_Right, Qt.KeyboardModifier.ShiftModifier)
    assert view.selection() is not None and section.viewer.selected_span() is None
    assert "differs from the stored text" in section.viewer.header.text()


def test_the_page_is_drawn_at_the_views_width(qtbot, pdf_window: MainWindow) -> None:  # type: ignore[no-untyped-def]
    section = judge(qtbot, pdf_window)
    view = section.viewer.page_view
    page_shown(qtbot, section.viewer, 1)
    assert abs(view.shown.image.width() - view.viewport().width()) < 16
    pdf_window.resize(1000, 800)
    qtbot.waitUntil(lambda: view.ready and abs(
        view.shown.image.width() - view.viewport().width()) < 16, timeout=10_000)
    assert view._to_fraction(QPointF(view._image_rect().left(), 0)) is not None
