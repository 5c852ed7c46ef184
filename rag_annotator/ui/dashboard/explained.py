"""A short sentence with its explanation folded away: "What does this mean?" unfolds the
long text (the policy, the pooling assumption, which cases a mean counts) and offers the
guide's page on the numbers — so the Dashboard opens on figures, not on paragraphs of
trec_eval vocabulary, and the explanation is one click away."""

from __future__ import annotations

from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget

from rag_annotator.ui.dashboard.format import translate

#: The guide's page that explains the figures.
GUIDE_PAGE = "numbers"


class Explained(QWidget):
    """``short`` always shown, followed by a "What does this mean?" link; ``long`` shown
    only once unfolded, with a link to the guide."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._short = ""
        self._long = ""
        self.open = False
        self.label = QLabel()
        self.label.setWordWrap(True)
        self.label.setOpenExternalLinks(False)
        self.label.linkActivated.connect(self._on_link)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.label)

    def set_texts(self, short: str, long: str) -> None:
        self._short, self._long = short, long
        self._show()

    def clear(self) -> None:
        self.set_texts("", "")

    def _show(self) -> None:
        if not self._short and not self._long:
            self.label.clear()
            return
        short = _escape(self._short)
        if not self._long:
            self.label.setText(short)
            return
        if self.open:
            hide = translate("Explained", "Hide the explanation")
            guide = translate("Explained", "Read the guide page on the figures")
            self.label.setText(f"{short} <a href='#fold'>{hide}</a><br>"
                               f"{_escape(self._long)} <a href='#guide'>{guide}</a>")
        else:
            more = translate("Explained", "What does this mean?")
            self.label.setText(f"{short} <a href='#more'>{more}</a>")

    def _on_link(self, link: str) -> None:
        if link == "#guide":
            from rag_annotator.ui.guide.window import open_guide

            open_guide(self.window(), GUIDE_PAGE)
            return
        self.open = link == "#more"
        self._show()

    def text(self) -> str:
        """Everything it says, folded or not (for tests)."""
        return f"{self._short} {self._long}".strip()


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
