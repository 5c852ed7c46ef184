"""The guide's window: the pages of one language in Qt's text browser (no web engine, no
network), a contents list beside them, Back / Forward, and F1 from the main window opening the
page of the section on screen.

One window per main window, not modal: an expert reads "how to judge" while judging.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt, QUrl
from PySide6.QtGui import QImage, QKeySequence, QShortcut, QTextCursor, QTextDocument
from PySide6.QtWidgets import (
    QDialog,
    QHBoxLayout,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QSplitter,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from rag_annotator.ui.guide.pages import ALL_PAGES, page_file, page_title, ui_language

#: The page name an entry of the contents list stands for.
PAGE_ROLE = Qt.ItemDataRole.UserRole


class GuideWindow(QDialog):
    """The guide in ``language`` ("en" or "fr"); :meth:`show_page` opens a page."""

    def __init__(self, language: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.language = language
        self.setObjectName("guideWindow")
        self.setWindowTitle(self.tr("rag-annotator Guide"))
        self.setModal(False)
        self.resize(980, 720)
        self.contents = QListWidget()
        self.contents.setObjectName("guideContents")
        for page in ALL_PAGES:
            item = QListWidgetItem(short_title(page_title(page, language)))
            item.setData(PAGE_ROLE, page)
            self.contents.addItem(item)
        self.contents.setMaximumWidth(max(200, self.contents.sizeHintForColumn(0) + 24))
        self.browser = QTextBrowser()
        self.browser.setObjectName("guideBrowser")
        self.browser.setOpenExternalLinks(False)  # offline: a web link is never followed
        self.browser.setOpenLinks(True)
        self.browser.setSearchPaths([str(page_file("index", language).parent)])
        self.back = QPushButton(self.tr("◀ Back"))
        self.forward = QPushButton(self.tr("Forward ▶"))
        self.home = QPushButton(self.tr("Contents"))
        self.back.clicked.connect(self.browser.backward)
        self.forward.clicked.connect(self.browser.forward)
        self.home.clicked.connect(lambda: self.show_page("index"))
        self.browser.backwardAvailable.connect(self.back.setEnabled)
        self.browser.forwardAvailable.connect(self.forward.setEnabled)
        self.back.setEnabled(False)
        self.forward.setEnabled(False)
        self.browser.sourceChanged.connect(self._follow)
        self.browser.viewport().installEventFilter(self)
        self.contents.currentItemChanged.connect(self._on_contents)
        QShortcut(QKeySequence(QKeySequence.StandardKey.Back), self, self.browser.backward)
        QShortcut(QKeySequence(QKeySequence.StandardKey.Forward), self, self.browser.forward)

        bar = QHBoxLayout()
        for button in (self.back, self.forward, self.home):
            bar.addWidget(button)
        bar.addStretch(1)
        split = QSplitter()
        split.addWidget(self.contents)
        split.addWidget(self.browser)
        split.setStretchFactor(1, 1)
        layout = QVBoxLayout(self)
        layout.addLayout(bar)
        layout.addWidget(split, 1)

    def page(self) -> str:
        """The page on screen (its file name without ``.md``)."""
        return self.browser.source().fileName().removesuffix(".md")

    def show_page(self, page: str) -> None:
        """Show ``page`` (kept in Back's history) and bring the window forward."""
        url = QUrl.fromLocalFile(str(page_file(page, self.language)))
        if self.browser.source() != url:
            self.browser.setSource(url)
        self.show()
        self.raise_()
        self.activateWindow()
        self.browser.setFocus()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """Fit the pictures again when the reading width changes."""
        if event.type() == QEvent.Type.Resize:
            self.fit_images()
        return False

    def fit_images(self) -> None:
        """Show each picture at most as wide as the text (the screenshots are a window wide:
        at full size they would push the text off to the side); the height follows."""
        document = self.browser.document()
        room = max(200, self.browser.viewport().width() - 2 * int(document.documentMargin()) - 8)
        block = document.begin()
        while block.isValid():
            it = block.begin()
            while not it.atEnd():
                fragment = it.fragment()
                image_format = fragment.charFormat().toImageFormat()
                if fragment.isValid() and image_format.isValid():
                    name, size = self._fitted(image_format.name(), room)
                    image_format.setName(name)
                    if size is not None:  # the layout sizes by these, not by the
                        image_format.setWidth(size[0])  # resource, once it has measured it
                        image_format.setHeight(size[1])
                    cursor = QTextCursor(document)
                    cursor.setPosition(fragment.position())
                    cursor.setPosition(fragment.position() + fragment.length(),
                                       QTextCursor.MoveMode.KeepAnchor)
                    cursor.setCharFormat(image_format)
                it += 1
            block = block.next()

    def _fitted(self, name: str, room: int) -> tuple[str, tuple[int, int] | None]:
        """The name and size of the picture ``name`` smoothly scaled down to ``room`` pixels
        wide (a resource of the document, under the picture's full address plus ``#fit=``:
        the browser looks resources up by full address); ``name`` itself when it fits, and
        no size when it cannot be read."""
        original = name.split("#fit=")[0]
        address = self.browser.source().resolved(QUrl(original))
        image = QImage(address.toLocalFile()) if address.isLocalFile() else QImage()
        if image.isNull():
            return original, None
        if image.width() <= room:
            return original, (image.width(), image.height())
        fitted = image.scaledToWidth(room, Qt.TransformationMode.SmoothTransformation)
        address.setFragment(f"fit={room}")
        self.browser.document().addResource(QTextDocument.ResourceType.ImageResource,
                                            address, fitted)
        return address.toString(), (fitted.width(), fitted.height())

    def _follow(self, url: QUrl) -> None:
        self.fit_images()
        page = url.fileName().removesuffix(".md")
        for row in range(self.contents.count()):
            item = self.contents.item(row)
            if item.data(PAGE_ROLE) == page and self.contents.currentRow() != row:
                self.contents.blockSignals(True)
                self.contents.setCurrentRow(row)
                self.contents.blockSignals(False)

    def _on_contents(self, item: QListWidgetItem | None, _previous: object) -> None:
        if item is not None:
            self.show_page(str(item.data(PAGE_ROLE)))


def open_guide(parent: QWidget, page: str) -> GuideWindow:
    """Show ``page`` in ``parent``'s guide window (made on first use, in the window's
    language) and return the window."""
    guide = parent.findChild(GuideWindow, "guideWindow")
    if guide is None:
        guide = GuideWindow(ui_language(), parent)
    guide.show_page(page)
    return guide


def short_title(title: str) -> str:
    """A page's name in the contents list: its heading up to a colon ("Judge section: is
    this document relevant?" → "Judge section")."""
    return title.split(":")[0].strip()
