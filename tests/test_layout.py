"""Pages and headings as offsets into a document's text: page of an offset, a page's span,
heading paths, and the checks a layout read from a file must pass."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rag_annotator.domain.layout import (
    PAGE_SEPARATOR,
    Heading,
    Layout,
    check_layout,
    join_pages,
)
from rag_annotator.errors import InvalidValue
from rag_annotator.import_export.documents.pdf_layer import PageText, normalise_page_text


def test_join_pages_puts_the_separator_between_pages_and_each_page_text_back() -> None:
    pages = ["Titre I\nArticle 1", "", "Article 2\nfin"]
    text, starts = join_pages(pages)
    layout = Layout(starts)
    assert text == PAGE_SEPARATOR.join(pages)
    for n, page in enumerate(pages, start=1):
        start, end = layout.page_span(n, len(text))
        assert text[start:end] == page
    assert layout.page_of(text.index("Article 2")) == 3
    assert layout.pages_of(0, len(text)) == (1, 3)
    assert Layout().page_of(5) is None


@given(st.lists(st.text(alphabet="ab \n", max_size=30), min_size=1, max_size=8))
def test_every_offset_falls_on_the_page_whose_text_holds_it(pages: list[str]) -> None:
    text, starts = join_pages(pages)
    layout = Layout(starts)
    for n in range(1, len(pages) + 1):
        start, end = layout.page_span(n, len(text))
        for offset in range(start, end):
            assert layout.page_of(offset) == n


def test_heading_path_forgets_deeper_levels_when_a_shallower_one_starts() -> None:
    layout = Layout((), (Heading(0, 1, "Titre I"), Heading(10, 2, "Article 1"),
                         Heading(30, 2, "Article 2"), Heading(50, 1, "Titre II"),
                         Heading(60, 3, "Alinéa")))
    assert layout.heading_path(5) == ["Titre I"]
    assert layout.heading_path(35) == ["Titre I", "Article 2"]
    assert layout.heading_path(55) == ["Titre II"]
    assert layout.heading_path(61) == ["Titre II", "Alinéa"]


def test_columns_round_trip_and_damaged_columns_give_an_empty_layout() -> None:
    layout = Layout((0, 12), (Heading(0, 1, "Préambule"),))
    columns = layout.columns()
    assert Layout.from_columns(columns["pages"], columns["headings"]) == layout
    assert Layout().columns() == {"pages": None, "headings": None}
    assert Layout.from_columns("[3, 1]", None) == Layout()
    assert Layout.from_columns("not json", "[]") == Layout()


@pytest.mark.parametrize(("pages", "headings"), [
    ([1, 5], None), ([0, 5, 5], None), ([0, -1], None), ([0, True], None), ("0,5", None),
    (None, [[0, 0, "x"]]), (None, [[5, 1, "a"], [2, 1, "b"]]), (None, [[0, 1]]),
    (None, [[0, 1, 3]]), ([0, 500], None), (None, [[500, 1, "far"]]),
])
def test_check_layout_refuses_what_no_reader_writes(pages: object, headings: object) -> None:
    with pytest.raises(InvalidValue):
        check_layout(pages, headings, 100)


def test_a_page_text_maps_back_to_pdfiums_indexes_across_dropped_carriage_returns() -> None:
    raw = "Art.\r\n12\x02 le\rfin\r\n"
    page = PageText.from_raw(raw)
    assert page.text == normalise_page_text(raw) == "Art.\n12  le\nfin\n"
    for offset, char in enumerate(page.text):
        index = page.text_index(offset)
        assert normalise_page_text(raw[index]) in (char, "\n")
        assert page.offset(index) == offset
