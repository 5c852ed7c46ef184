"""View → Appearance: the system's look, or the app's own light, dark or high-contrast one.

The system's look is whatever style and palette Qt started with (the platform's theme; it
follows the system's dark mode by itself).  The app's own looks use Qt's Fusion style, the one
style that draws with the palette on every platform, and a palette of their own: light is
Fusion's, dark and high contrast (black on white, a dark blue selection) are
``colours.dark_palette`` and ``colours.high_contrast_palette``.  High contrast also tells
``look.colours`` to drop its tinted fills for the palette's own text and base colours: every
state then reads by its word or symbol, as it always can.

A change applies at once to the whole window: Qt repaints every widget with the new palette,
banners follow it (``colours.paint_banner``) and the window asks its sections to render their
coloured texts again (:attr:`Appearance.changed`).  The choice is saved in the settings
(``appearance``) and applied when the next window opens.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtGui import QAction, QActionGroup, QGuiApplication, QPalette
from PySide6.QtWidgets import QApplication, QMenu, QStyleFactory

from rag_annotator.settings import APPEARANCES, Settings
from rag_annotator.ui.look import colours

_SYSTEM_STYLE = "ragAnnotatorSystemStyle"


def _app() -> QApplication:
    app = QApplication.instance()
    assert isinstance(app, QApplication), "create the QApplication first"
    return app


def _color_scheme(name: str) -> None:
    """Tell the platform (title bars, native dialogs) which scheme the window wants, where
    Qt can (6.8+); the system's look hands the choice back to the system."""
    hints = QGuiApplication.styleHints()
    scheme = {"light": Qt.ColorScheme.Light, "dark": Qt.ColorScheme.Dark,
              "high_contrast": Qt.ColorScheme.Light}.get(name)
    if scheme is None:
        unset = getattr(hints, "unsetColorScheme", None)
        if unset is not None:
            unset()
        return
    setter = getattr(hints, "setColorScheme", None)
    if setter is not None:
        setter(scheme)


def apply_appearance(name: str) -> None:
    """Give the application the look ``name`` (one of ``settings.APPEARANCES``)."""
    app = _app()
    if not app.property(_SYSTEM_STYLE):  # the look Qt started with, before any change
        app.setProperty(_SYSTEM_STYLE, app.style().name())
    _color_scheme(name)
    if name not in ("light", "dark", "high_contrast"):
        colours.choose_contrast(None)
        app.setStyle(str(app.property(_SYSTEM_STYLE)))
        app.setPalette(QPalette())  # nothing of ours left: the style's and theme's own
        return
    colours.choose_contrast(name == "high_contrast")
    style = QStyleFactory.create("Fusion")
    app.setStyle(style)
    palette = {"dark": colours.dark_palette,
               "high_contrast": colours.high_contrast_palette}.get(
        name, style.standardPalette)()
    app.setPalette(palette)


class Appearance(QObject):
    """The window's look: changes it, applies it, remembers it.

    Signals:
        changed(str): the new look, once applied.
    """

    changed = Signal(str)

    def __init__(self, settings: Settings, save: Callable[[], None],
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.settings, self._save = settings, save
        self.group: QActionGroup | None = None
        if settings.appearance != "system":  # the system's look is what Qt already shows
            apply_appearance(settings.appearance)

    @property
    def name(self) -> str:
        return self.settings.appearance

    def set(self, name: str) -> None:
        """Apply and remember a look; nothing happens if it is the current one."""
        if name not in APPEARANCES or name == self.settings.appearance:
            return
        self.settings.appearance = name
        apply_appearance(name)
        self._save()
        self._check(name)
        self.changed.emit(name)

    def add_to(self, menu: QMenu, commands: dict[str, QAction]) -> None:
        """View → Appearance: the four looks, one checked."""
        submenu = menu.addMenu(QApplication.translate("Appearance", "&Appearance"))
        self.group = QActionGroup(self)
        for name in APPEARANCES:
            action = commands[f"view.appearance.{name}"]
            action.setChecked(name == self.settings.appearance)
            action.triggered.connect(lambda _checked=False, n=name: self.set(n))
            self.group.addAction(action)
            submenu.addAction(action)

    def _check(self, name: str) -> None:
        if self.group is None:
            return
        for action in self.group.actions():
            if action.objectName() == f"view.appearance.{name}":
                action.setChecked(True)
