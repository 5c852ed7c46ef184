"""Row-level errors of a table import, all collected and raised as one message naming the
first ones, each part in the reader's language (issue 21): "row 2, column 'category':
'Management' is not a known family (…); and 3 more error(s). Nothing was imported."."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rag_annotator.errors import KnownError
from rag_annotator.import_export.files import ImportRejected
from rag_annotator.messages import Joined, Message, Rendered, render_any


class RowErrors:
    """Row-level errors, all collected, raised as one message naming the first ones."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.items: list[Message] = []

    def add(self, row: int | None, column: str | None, message: str | KnownError | Rendered,
            **params: Any) -> None:
        """One row's error: ``message`` is a message id filled by ``params``, or an error
        raised by the domain's checks (rendered in the reader's language)."""
        what = message if not isinstance(message, str) else Message(message, **params)
        trimmed = Rendered(lambda lang: render_any(what, lang).rstrip(". "))  # joined by "; "
        if row is not None and column:
            self.items.append(Message("row {row}, column '{column}': {message}", row=row,
                                      column=column, message=trimmed))
        elif row is not None:
            self.items.append(Message("row {row}: {message}", row=row, message=trimmed))
        elif column:
            self.items.append(Message("column '{column}': {message}", column=column,
                                      message=trimmed))
        else:
            self.items.append(Message("{message}", message=trimmed))

    def raise_if_any(self) -> None:
        if not self.items:
            return
        more = len(self.items) - 5
        text: list[Any] = list(self.items[:5])
        if more > 0:
            text.append(Message("and {more} more error(s)", more=more))
        raise ImportRejected(self.path, None, "{text}. Nothing was imported.",
                             text=Joined(text))


def without_name(error: KnownError, name: str) -> Rendered:
    """The error of a cell without the ``name: `` the domain's check puts first."""
    def text(lang: str) -> str:
        rendered = error.render(lang)
        for prefix in (f"{name}: ", f"{name}\u00a0: "):  # English, French typography
            rendered = rendered.removeprefix(prefix)
        return rendered

    return Rendered(text)
