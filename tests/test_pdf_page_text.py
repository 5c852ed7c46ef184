"""A PDF page's stored text and the map back to PDFium's text indexes, computed with regular
expressions (a page is thousands of characters, read on the page worker while the window
waits for the GIL), must stay exactly what the first, character-by-character definition
gave: the stored texts of every imported PDF depend on it."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from rag_annotator.import_export.documents.pdf_layer import PageText, normalise_page_text


def reference_text(raw: str) -> str:
    text = raw.replace("\r\n", "\n").replace("\r", "\n")
    return "".join(" " if ord(c) < 32 and c not in "\n\t" else c for c in text)


def reference_dropped(raw: str) -> tuple[int, ...]:
    dropped, out, i = [], 0, 0
    while i < len(raw):
        if raw[i] == "\r" and i + 1 < len(raw) and raw[i + 1] == "\n":
            dropped.append(out)
            i += 1
            continue
        out += 1
        i += 1
    return tuple(dropped)


TEXTS = st.text(alphabet=st.sampled_from(["a", "é", " ", "\r", "\n", "\t", "\x00", "\x02",
                                          "\x0b", "\x1f", "\x7f", "ﬁ", "\uffff"]),
                max_size=80)


@given(TEXTS)
def test_the_stored_text_is_the_first_definitions(raw: str) -> None:
    assert normalise_page_text(raw) == reference_text(raw)


@given(TEXTS)
def test_the_map_back_to_pdfium_is_the_first_definitions(raw: str) -> None:
    page = PageText.from_raw(raw)
    assert page.dropped_after == reference_dropped(raw)
    assert page.text == reference_text(raw)
    for offset in range(len(page.text)):  # each stored character is PDFium's own
        index = page.text_index(offset)
        assert page.offset(index) == offset
        assert raw[index] == page.text[offset] or (raw[index], page.text[offset]) in (
            ("\r", "\n"),) or page.text[offset] == " "
