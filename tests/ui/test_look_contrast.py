"""Every semantic state colour keeps a WCAG contrast of at least 4.5:1 in light and dark.

The ratio is computed here from the WCAG 2 definition (relative luminance of sRGB channels)
independently of ``look.colours.contrast``, which is checked against published values.
"""

from __future__ import annotations

import pytest
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QStyleFactory

from rag_annotator.ui.look import colours

MINIMUM = 4.5


def wcag_ratio(a: str, b: str) -> float:
    """WCAG 2.x contrast ratio, from the specification's formula."""
    def lum(hex_: str) -> float:
        r, g, b_ = (int(hex_.lstrip("#")[i:i + 2], 16) / 255 for i in (0, 2, 4))
        lin = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in (r, g, b_)]
        return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]
    high, low = sorted((lum(a), lum(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def light_palette() -> QPalette:
    style = QStyleFactory.create("Fusion")
    assert style is not None
    return style.standardPalette()


def backgrounds(palette: QPalette) -> list[str]:
    """Where a coloured word or a bar segment may sit."""
    return [palette.color(r).name() for r in (QPalette.ColorRole.Window,
                                              QPalette.ColorRole.Base,
                                              QPalette.ColorRole.AlternateBase)]


def test_contrast_formula_matches_published_values(qapp) -> None:  # type: ignore[no-untyped-def]
    assert colours.contrast(QColor("#000000"), QColor("#ffffff")) == pytest.approx(21.0)
    assert colours.contrast(QColor("#777777"), QColor("#ffffff")) == pytest.approx(4.48, abs=0.01)
    assert wcag_ratio("#777777", "#ffffff") == pytest.approx(4.48, abs=0.01)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_every_state_colour_has_contrast(qapp, scheme: str) -> None:  # type: ignore[no-untyped-def]
    palette = light_palette() if scheme == "light" else colours.dark_palette()
    assert colours.is_dark(palette) == (scheme == "dark")
    ratios: dict[str, float] = {}
    for role in colours.ROLES:
        chosen = colours.pair(role, palette)
        assert chosen is colours.ROLES[role][scheme == "dark"]
        fg = colours.fg(role, palette).name()
        if chosen.bg is not None:
            bg = colours.bg(role, palette).name()
            ratios[role] = wcag_ratio(fg, bg)
            assert ratios[role] == pytest.approx(colours.contrast(QColor(fg), QColor(bg)))
        else:
            ratios[role] = min(wcag_ratio(fg, b) for b in backgrounds(palette))
    low = {role: round(r, 2) for role, r in ratios.items() if r < MINIMUM}
    assert low == {}, f"{scheme}: below {MINIMUM}:1: {low}"
    print(f"{scheme}: min contrast {min(ratios.values()):.2f} "
          f"({min(ratios, key=ratios.__getitem__)}) over {len(ratios)} roles")


def test_palette_text_has_contrast(qapp) -> None:  # type: ignore[no-untyped-def]
    """Our dark palette itself reads (text on its window, base, buttons and selection)."""
    for palette in (colours.dark_palette(),):
        for text, back in ((QPalette.ColorRole.WindowText, QPalette.ColorRole.Window),
                           (QPalette.ColorRole.Text, QPalette.ColorRole.Base),
                           (QPalette.ColorRole.ButtonText, QPalette.ColorRole.Button),
                           (QPalette.ColorRole.HighlightedText, QPalette.ColorRole.Highlight)):
            assert wcag_ratio(palette.color(text).name(), palette.color(back).name()) >= MINIMUM


def test_claim_verdicts_in_the_answer_differ_without_their_colours(qapp) -> None:  # type: ignore[no-untyped-def]
    """No state by colour alone (issue 21): in the Verify answer, a contradicted claim is
    struck through and an unsupported one in italics, as Qt lays the rich text out."""
    from PySide6.QtGui import QTextCursor, QTextDocument

    from rag_annotator.ui.verify.widgets import answer_html

    text = "aaaa bbbb cccc dddd"
    verdicts = [None, "supported", "not_supported", "contradicted"]
    claims = [{"id": i, "span_start": 5 * i, "span_end": 5 * i + 4, "verdict": v}
              for i, v in enumerate(verdicts)]
    for current in (None, 3):
        doc = QTextDocument()
        doc.setHtml(answer_html(text, claims, current, lambda c: c["verdict"]))
        assert doc.toPlainText() == text  # one for one: positions stay the answer's
        shapes = {}
        for claim in claims:
            cursor = QTextCursor(doc)
            cursor.setPosition(claim["span_start"] + 1)
            fmt = cursor.charFormat()
            shapes[claim["verdict"]] = (fmt.fontStrikeOut(), fmt.fontItalic())
        assert shapes["contradicted"] == (True, False)
        assert shapes["not_supported"] == (False, True)
        assert shapes["supported"] == shapes[None] == (False, False)
