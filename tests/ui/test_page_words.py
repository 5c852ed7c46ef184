"""Whole-word selection on a page's text (``ui/pages/words.py``): the offsets it gives are
the words' place in the text, whichever way the selection grew."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from rag_annotator.ui.pages.words import WordCursor, words

TEXT = ("Art. 12 – Le congé principal, d'au moins 12 jours\n"
        "ouvrés consécutifs, est pris entre le 1er mai\n\n"
        "et le 31 octobre (2,08 jours par mois).")


def test_words_keep_inner_punctuation_and_leave_the_rest() -> None:
    found = [TEXT[s:e] for s, e in words(TEXT)]
    assert found[:6] == ["Art", "12", "Le", "congé", "principal", "d'au"]
    assert "2,08" in found and "octobre" in found
    assert all(not w.endswith((",", ".", ")")) for w in found)


def test_shift_right_selects_the_cursor_word_then_grows_word_by_word() -> None:
    cursor = WordCursor.on(TEXT, TEXT.index("congé"))
    assert cursor.selection() is None
    cursor.move(+1, extend=True)
    assert cursor.selection() == (TEXT.index("congé"), TEXT.index("congé") + len("congé"))
    cursor.move(+1, extend=True)
    cursor.move(+1, extend=True)
    start, end = cursor.selection() or (0, 0)
    assert TEXT[start:end] == "congé principal, d'au"
    cursor.move(-1, extend=True)
    start, end = cursor.selection() or (0, 0)
    assert TEXT[start:end] == "congé principal"


def test_a_backward_selection_ends_at_its_anchor_word() -> None:
    cursor = WordCursor.on(TEXT, TEXT.index("principal"))
    cursor.move(-1, extend=True)  # selects "principal"
    cursor.move(-1, extend=True)
    cursor.move(-1, extend=True)
    start, end = cursor.selection() or (0, 0)
    assert TEXT[start:end] == "Le congé principal"


def test_lines_move_to_the_nearest_word_and_skip_empty_lines() -> None:
    cursor = WordCursor.on(TEXT, TEXT.index("principal"))
    cursor.move_line(+1, extend=False)  # "principal" starts at column 22, "est" at 20
    assert TEXT[slice(*cursor.cursor_span() or (0, 0))] == "est"
    cursor.move_line(+1, extend=True)  # over the empty line, to the last one
    start, end = cursor.selection() or (0, 0)
    assert TEXT[start:end] == "est pris entre le 1er mai\n\net"
    cursor.move_line(-1, extend=False)
    assert cursor.selection() is None
    assert TEXT[slice(*cursor.cursor_span() or (0, 0))] == "mai"
    cursor.line_end(True, extend=True)
    start, end = cursor.selection() or (0, 0)
    assert TEXT[end - 3:end] == "mai"


def test_arrows_alone_drop_the_selection_and_stop_at_the_ends() -> None:
    cursor = WordCursor.on(TEXT, 0)
    cursor.move(+1, extend=True)
    cursor.move(+1, extend=False)
    assert cursor.selection() is None
    for _ in range(200):
        cursor.move(+1, extend=False)
    assert TEXT[slice(*cursor.cursor_span() or (0, 0))] == "mois"
    cursor.clear()
    assert WordCursor.on("   \n ", 0).empty


@given(st.text(alphabet="ab ,.\n'é", max_size=60), st.integers(0, 60),
       st.lists(st.integers(-3, 3), max_size=12))
def test_a_selection_always_starts_and_ends_on_word_bounds(text: str, at: int,
                                                           steps: list[int]) -> None:
    cursor = WordCursor.on(text, at)
    bounds = words(text)
    for step in steps:
        cursor.move(step, extend=True)
        selection = cursor.selection()
        if selection is None:
            continue
        assert selection[0] in {s for s, _e in bounds}
        assert selection[1] in {e for _s, e in bounds}
        assert selection[0] < selection[1]
