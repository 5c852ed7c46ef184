"""The app's state colours, named by meaning, in a light and a dark variant.

Every verdict, check result, highlight and banner colour comes from here rather than from a
hex code at the place that paints it: the variant follows the window's palette (a dark
``QPalette.Window`` picks the dark one, so the system's dark theme or a dark Fusion palette
both work), and when high contrast is chosen (View → Appearance) or, with the system's look,
the system asks for it (Qt 6.10's ``QStyleHints.accessibility().contrastPreference()``) the
fills fall back to the palette's own text and base colours, the state then told only by the
word or symbol that always goes with it.  The app's own dark and high-contrast palettes are
here too.  ``tests/ui/test_look_contrast.py`` computes the WCAG contrast ratio of every pair
below (>= 4.5:1) against both palettes.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QColor, QGuiApplication, QPalette
from PySide6.QtWidgets import QLabel


@dataclass(frozen=True)
class Pair:
    """Text colour ``fg`` drawn on ``bg`` (None: on the palette's Base or Window)."""

    fg: str
    bg: str | None = None


#: role → (light variant, dark variant).  Fills carry black or white text; text roles are
#: coloured words on the palette's own background; bar roles are chart segments (their
#: "fg" is the segment, drawn on the palette's background).
ROLES: dict[str, tuple[Pair, Pair]] = {
    # fills: verdicts, check outcomes, coverage cells, rights cells
    "good": (Pair("#000000", "#d3f9d8"), Pair("#ffffff", "#1e4620")),
    "bad": (Pair("#000000", "#ffc9c9"), Pair("#ffffff", "#5c1a1a")),
    "missing": (Pair("#000000", "#ffe8cc"), Pair("#ffffff", "#5a3a10")),
    "pending": (Pair("#000000", "#fff3bf"), Pair("#ffffff", "#4d4000")),
    "neutral": (Pair("#000000", "#e9ecef"), Pair("#ffffff", "#3a3f44")),
    "other": (Pair("#000000", "#e5dbff"), Pair("#ffffff", "#3b2d66")),
    "quiet": (Pair("#000000", "#f1f3f5"), Pair("#ffffff", "#33373b")),
    # the current claim in the answer: a stronger fill of the same hue
    "good_strong": (Pair("#000000", "#69db7c"), Pair("#ffffff", "#2b6a32")),
    "bad_strong": (Pair("#000000", "#ff8787"), Pair("#ffffff", "#8a2525")),
    "missing_strong": (Pair("#000000", "#ffa94d"), Pair("#ffffff", "#7a4d0c")),
    "pending_strong": (Pair("#000000", "#ffd43b"), Pair("#ffffff", "#6b5a00")),
    "neutral_strong": (Pair("#000000", "#adb5bd"), Pair("#ffffff", "#5c636a")),
    # highlights and banners
    "highlight": (Pair("#000000", "#fff2a8"), Pair("#ffffff", "#6b5d00")),
    "evidence": (Pair("#000000", "#74c0fc"), Pair("#ffffff", "#1d4f7a")),
    "marker": (Pair("#ffffff", "#1864ab"), Pair("#000000", "#74c0fc")),
    "info_banner": (Pair("#000000", "#dde8f6"), Pair("#ffffff", "#1d3550")),
    "alert_banner": (Pair("#000000", "#fde2e1"), Pair("#ffffff", "#4a1f1e")),
    "attention_banner": (Pair("#000000", "#fde8c8"), Pair("#ffffff", "#4a3616")),
    # coloured words on the window
    "text_good": (Pair("#237032"), Pair("#8ce99a")),
    "text_bad": (Pair("#b02525"), Pair("#ffa8a8")),
    "text_warning": (Pair("#8a5100"), Pair("#ffc078")),
    "text_info": (Pair("#1f5fa8"), Pair("#a5d8ff")),
    "text_muted": (Pair("#495057"), Pair("#ced4da")),
    # chart segments (the Dashboard's bars)
    "bar_good": (Pair("#237032"), Pair("#69db7c")),
    "bar_bad": (Pair("#b02525"), Pair("#ff8787")),
    "bar_missing": (Pair("#5c636a"), Pair("#adb5bd")),
}


def _palette(palette: QPalette | None) -> QPalette:
    return palette if palette is not None else QGuiApplication.palette()


def is_dark(palette: QPalette | None = None) -> bool:
    """A dark window (its background's lightness under a half): the dark variants apply."""
    return _palette(palette).color(QPalette.ColorRole.Window).lightnessF() < 0.5


#: View → Appearance's say on contrast: True (high contrast), False (light or dark, chosen
#: by the user) or None (the system's look: the system's preference decides).
_chosen_contrast: bool | None = None


def choose_contrast(high: bool | None) -> None:
    """Set what :func:`high_contrast` answers (None: ask the system again)."""
    global _chosen_contrast
    _chosen_contrast = high


def high_contrast() -> bool:
    """High contrast is chosen (View → Appearance) or, with the system's look, the system
    asks for more contrast (Qt 6.10+; False where Qt cannot tell)."""
    if _chosen_contrast is not None:
        return _chosen_contrast
    hints = QGuiApplication.styleHints()
    accessibility = getattr(hints, "accessibility", None)
    preference = getattr(Qt, "ContrastPreference", None)
    if accessibility is None or preference is None:
        return False
    return bool(accessibility().contrastPreference() == preference.HighContrast)


def pair(role: str, palette: QPalette | None = None) -> Pair:
    """The variant of ``role`` for ``palette`` (the application's by default)."""
    light, dark = ROLES[role]
    return dark if is_dark(palette) else light


def fg(role: str, palette: QPalette | None = None) -> QColor:
    """The text (or segment) colour of ``role``."""
    p = _palette(palette)
    if high_contrast():
        return p.color(QPalette.ColorRole.Text if ROLES[role][0].bg
                       else QPalette.ColorRole.WindowText)
    return QColor(pair(role, p).fg)


def bg(role: str, palette: QPalette | None = None) -> QColor:
    """The background of ``role`` (the palette's Base for a text role)."""
    p = _palette(palette)
    chosen = pair(role, p).bg
    if chosen is None or high_contrast():
        return p.color(QPalette.ColorRole.Base)
    return QColor(chosen)


def css_fg(role: str) -> str:
    """``role``'s text colour as ``#rrggbb`` for rich text."""
    return fg(role).name()


def css_bg(role: str) -> str:
    """``role``'s background as ``#rrggbb`` for rich text."""
    return bg(role).name()


def coloured(role: str, text_html: str, *, bold: bool = False) -> str:
    """Rich text in a text role's colour (``text_html`` is already escaped)."""
    tag = "b" if bold else "span"
    return f"<{tag} style='color:{css_fg(role)}'>{text_html}</{tag}>"


def coloured_text(role: str, text: str, *, bold: bool = False) -> str:
    """Plain ``text``, escaped, in a text role's colour."""
    import html  # here: its import reads the HTML entity table (~2 ms of the first paint)

    return coloured(role, html.escape(text), bold=bold)


def paint_banner(label: QLabel, role: str, padding: int = 4) -> None:
    """Give ``label`` the fill and text colour of a banner role, now and after every change
    of the application's palette (View → Appearance, the system's theme).

    Through the label's palette, not a style sheet: a widget with a style sheet keeps the
    font it had when the sheet was applied, so the text zoom would pass it by."""
    label.setMargin(padding)
    label.setAutoFillBackground(True)
    _BannerColours(label, role).apply()


_RESTYLE_EVENTS = (QEvent.Type.ApplicationPaletteChange, QEvent.Type.PaletteChange,
                   QEvent.Type.Show)


class _BannerColours(QObject):
    """Keeps a banner's colours in step with the application's palette."""

    def __init__(self, label: QLabel, role: str) -> None:
        super().__init__(label)
        self.label, self.role = label, role
        label.installEventFilter(self)

    def apply(self) -> None:
        back, text = bg(self.role), fg(self.role)
        palette = QPalette(self.label.palette())
        if (palette.color(QPalette.ColorRole.Window) == back
                and palette.color(QPalette.ColorRole.WindowText) == text):
            return  # (setting it would send the PaletteChange that called this again)
        for group in (QPalette.ColorGroup.Active, QPalette.ColorGroup.Inactive,
                      QPalette.ColorGroup.Disabled):
            palette.setColor(group, QPalette.ColorRole.Window, back)
            palette.setColor(group, QPalette.ColorRole.WindowText, text)
        self.label.setPalette(palette)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        # Qt tells a widget of a new application palette by a PaletteChange, and a hidden
        # one maybe not at all: it is checked again when shown
        if event.type() in _RESTYLE_EVENTS:
            self.apply()
        return super().eventFilter(watched, event)


def luminance(colour: QColor) -> float:
    """WCAG 2 relative luminance of an opaque colour."""
    def channel(c: float) -> float:
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    return (0.2126 * channel(colour.redF()) + 0.7152 * channel(colour.greenF())
            + 0.0722 * channel(colour.blueF()))


def contrast(a: QColor, b: QColor) -> float:
    """WCAG 2 contrast ratio of two colours (1 to 21)."""
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


#: The app's own palettes (View → Appearance), by role: (dark, high contrast).  High contrast
#: is black text on white with a dark blue selection: every pair above WCAG's 7:1, and
#: Fusion's frames (drawn from the window colour, darker) stay visible, which they would not
#: on a black window.
_OWN_PALETTES: dict[str, tuple[str, str]] = {
    "Window": ("#2d2d2d", "#ffffff"), "WindowText": ("#e8e8e8", "#000000"),
    "Base": ("#1e1e1e", "#ffffff"), "AlternateBase": ("#353535", "#eeeeee"),
    "Text": ("#e8e8e8", "#000000"), "Button": ("#3a3a3a", "#ffffff"),
    "ButtonText": ("#e8e8e8", "#000000"), "ToolTipBase": ("#1e1e1e", "#ffffff"),
    "ToolTipText": ("#e8e8e8", "#000000"), "PlaceholderText": ("#a0a0a0", "#3d3d3d"),
    "Highlight": ("#2f65ca", "#0b2e8a"), "HighlightedText": ("#ffffff", "#ffffff"),
    "Link": ("#8ab4f8", "#0b2e8a"), "LinkVisited": ("#c58af9", "#5b1480"),
    "Mid": ("#5a5a5a", "#000000"), "Dark": ("#202020", "#000000"),
    "Light": ("#4a4a4a", "#ffffff"), "Midlight": ("#444444", "#ffffff"),
    "Shadow": ("#101010", "#000000"), "BrightText": ("#ffffff", "#000000"),
}
#: The disabled texts of each: (dark, high contrast; 7:1 on white).
_OWN_DISABLED = ("#808080", "#595959")


def _own_palette(which: int) -> QPalette:
    p = QPalette()
    for name, colours in _OWN_PALETTES.items():
        p.setColor(getattr(QPalette.ColorRole, name), QColor(colours[which]))
    for r in (QPalette.ColorRole.WindowText, QPalette.ColorRole.Text,
              QPalette.ColorRole.ButtonText):
        p.setColor(QPalette.ColorGroup.Disabled, r, QColor(_OWN_DISABLED[which]))
    return p


def dark_palette() -> QPalette:
    """The dark palette of View → Appearance → Dark (with the Fusion style)."""
    return _own_palette(0)


def high_contrast_palette() -> QPalette:
    """The palette of View → Appearance → High Contrast (with the Fusion style)."""
    return _own_palette(1)
