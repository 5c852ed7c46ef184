"""HTML pages (an intranet page saved from the browser, an export), read with selectolax.

selectolax wraps lexbor, an HTML5 parser that builds the tree a browser builds from the same
bytes (broken markup included), in C, with CSS selectors to find the main content.  It was
preferred to trafilatura: trafilatura's boilerplate removal scores blocks with heuristics
tuned on news sites, may drop a short article or keep a menu, and returns text without the
offsets of headings; a rule the expert can predict (below) on the page's own structure is
what a gold set needs, and selectolax brings one small compiled dependency where
trafilatura brings lxml, justext, htmldate, courlan and their data.

* Dropped before anything is read: ``script``, ``style``, ``noscript``, ``template``,
  ``svg``, ``math``, ``canvas``, ``iframe``, ``object``, ``embed``, ``form`` controls,
  elements marked ``hidden`` or ``aria-hidden="true"``, and comments (never run, never
  fetched: the page is read as it is on disk, no link followed).
* Main content: the ``main`` element, else the element whose role is ``main``, else a
  single ``article``, else the ``body``; inside it ``nav`` and ``aside`` are dropped, and
  when it is the whole body its page ``header`` and ``footer`` too (site chrome).
* Text: headings, paragraphs, list items, quotations, preformatted text as blocks (spaces
  collapsed as a browser does, except in ``pre``); a table as a line per row, a tab between
  cells; ``br`` is a line break.
* Headings: ``h1`` … ``h6`` at their level.
* Properties: the ``title`` element (else ``og:title``), ``meta`` author, description
  (as subject), keywords, the page's language, its published and modified dates when the
  page states them.
* Encoding: a byte-order mark, else the ``meta`` charset, else UTF-8, else Windows-1252.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from rag_annotator.domain.layout import DocumentKind
from rag_annotator.import_export.documents.reading import (
    ReadDocument,
    TextBuilder,
    clean_title,
    properties,
)

#: Elements whose content is never text of the page.
DROPPED = ("script", "style", "noscript", "template", "svg", "math", "canvas", "iframe",
           "object", "embed", "select", "button", "input", "textarea", "head")
#: Elements dropped inside the main content (navigation and side notes).
DROPPED_IN_MAIN = ("nav", "aside")
#: Elements that start and end a block of text.
BLOCKS = frozenset({
    "p", "div", "section", "article", "main", "header", "footer", "ul", "ol", "li", "dl",
    "dt", "dd", "blockquote", "figure", "figcaption", "address", "details", "summary",
    "fieldset", "legend", "hgroup", "center", "hr", "caption", "body", "html", "form",
    "label", "search", "menu", "dialog"})
_HEADINGS = {f"h{n}": n for n in range(1, 7)}
_CHARSET = re.compile(rb"""<meta[^>]+charset\s*=\s*["']?\s*([A-Za-z0-9_:.-]+)""", re.I)


def decode_html(data: bytes) -> str:
    """The page's text from its bytes (module docstring: encoding)."""
    for bom, codec in ((b"\xef\xbb\xbf", "utf-8"), (b"\xff\xfe", "utf-16-le"),
                       (b"\xfe\xff", "utf-16-be")):
        if data.startswith(bom):
            return data[len(bom):].decode(codec, errors="replace")
    declared = _CHARSET.search(data[:4096])
    if declared:
        try:
            return data.decode(declared.group(1).decode("ascii"), errors="replace")
        except LookupError:
            pass  # an unknown charset name: try UTF-8, as a browser falls back
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("cp1252", errors="replace")


def main_content(tree: Any) -> Any:
    """The main content node once the dropped elements are gone (module docstring)."""
    for hidden in tree.css("[hidden], [aria-hidden=true]"):
        hidden.decompose()
    tree.strip_tags(list(DROPPED))
    main = tree.css_first("main") or tree.css_first("[role=main]")
    articles = tree.css("article") if main is None else []
    whole_body = main is None and len(articles) != 1
    main = main or (articles[0] if len(articles) == 1 else tree.body)
    if main is None:
        return None
    for tag in (*DROPPED_IN_MAIN, *(("header", "footer") if whole_body else ())):
        for node in main.css(tag):
            node.decompose()
    return main


def read_html(path: Path, data: bytes) -> ReadDocument:
    """Read an HTML page (module docstring)."""
    from selectolax.lexbor import LexborHTMLParser

    tree = LexborHTMLParser(decode_html(data))
    head = _head_properties(tree)
    main = main_content(tree)
    builder = TextBuilder()
    if main is not None:
        _Walker(builder).walk(main)
    return ReadDocument(DocumentKind.HTML, builder.text, builder.layout(),
                        title=head.pop("title", ""), properties=properties(**head))


def _head_properties(tree: Any) -> dict[str, str]:
    """Title and properties from ``head`` (read before ``head`` is dropped)."""
    def meta(*names: str) -> str:
        for name in names:
            node = tree.css_first(f'meta[name="{name}"]') or tree.css_first(
                f'meta[property="{name}"]')
            if node is not None and (node.attributes.get("content") or "").strip():
                return str(node.attributes["content"])
        return ""

    title_node = tree.css_first("title")
    html = tree.css_first("html")
    return {
        "title": clean_title(title_node.text() if title_node is not None else "")
        or clean_title(meta("og:title")),
        "author": meta("author", "article:author", "dc.creator", "DC.creator"),
        "subject": meta("description", "og:description", "dc.description"),
        "keywords": meta("keywords"),
        "language": str((html.attributes.get("lang") or "") if html is not None else ""),
        "created": meta("article:published_time", "dc.date", "DC.date", "date"),
        "modified": meta("article:modified_time", "last-modified"),
    }


class _Walker:
    """Blocks from a node's subtree: inline text gathered until the next block starts."""

    def __init__(self, builder: TextBuilder) -> None:
        self.builder = builder
        self.inline: list[str] = []

    def walk(self, node: Any, depth: int = 0) -> None:
        if depth > 200:  # nesting this deep is a hostile page, not a document
            return
        for child in node.iter(include_text=True):
            tag = child.tag
            if tag == "-text":
                self.inline.append(child.text_content or "")
            elif tag == "br":
                self.inline.append("\n")
            elif tag in _HEADINGS:
                self.flush()
                self.builder.heading(_HEADINGS[tag], child.text(separator=""))
            elif tag == "table":
                self.flush()
                self._table(child)
            elif tag == "pre":
                self.flush()
                self.builder.block(child.text(separator=""))
            elif tag in BLOCKS:
                self.flush()
                self.walk(child, depth + 1)
                self.flush()
            elif not tag.startswith("-"):  # inline: its text joins the current block
                self.walk(child, depth + 1)
        if depth == 0:
            self.flush()

    def flush(self) -> None:
        """The gathered inline text as one block, spaces collapsed per line."""
        if self.inline:
            lines = "".join(self.inline).split("\n")
            self.builder.block("\n".join(" ".join(line.split()) for line in lines).strip())
            self.inline = []

    def _table(self, table: Any) -> None:
        caption = table.css_first("caption")
        if caption is not None:
            self.builder.block(" ".join(caption.text(separator="").split()))
        rows: list[list[str]] = []
        for row in table.css("tr"):
            if _owner_table(row).mem_id != table.mem_id:
                continue  # a nested table's row: its text is in its cell
            rows.append([" ".join(cell.text(separator="").split())
                         for cell in row.iter() if cell.tag in ("td", "th")])
        self.builder.table(rows)


def _owner_table(node: Any) -> Any:
    parent = node.parent
    while parent is not None and parent.tag != "table":
        parent = parent.parent
    return parent
