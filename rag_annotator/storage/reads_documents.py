"""Store reads of a document's structure: its kind and layout (pages, headings), the original
file kept for the kinds the app shows as pages (PDF), and the passages found in it."""

from __future__ import annotations

from dataclasses import dataclass

from rag_annotator.domain.layout import Layout
from rag_annotator.storage.reads import ReadBase, Row


@dataclass(frozen=True)
class DocumentFile:
    """The original file of a document, as it was imported."""

    file_id: int
    sha256: str
    kind: str
    name: str
    data: bytes


@dataclass(frozen=True)
class DocumentStructure:
    """What a viewer needs to show a document as its pages: the document's own kind and
    layout and, for a passage located in a document, that document's (the passage is shown
    on its parent's pages, its span highlighted).

    ``paged_id`` is the document whose text offsets the pages use: the parent for a located
    passage, else the document itself.  ``file_sha256`` names the kept original (a PDF) of
    that document, None when there is none.
    """

    document_id: int
    kind: str
    layout: Layout
    span: tuple[int, int] | None
    located: str | None
    paged_id: int
    paged_kind: str
    paged_layout: Layout
    file_sha256: str | None
    file_kind: str | None

    @property
    def is_passage(self) -> bool:
        """A passage located in another document (shown on that document's pages)."""
        return self.paged_id != self.document_id


class DocumentReads(ReadBase):
    """Read queries of this area, mixed into :class:`~rag_annotator.storage.store.GoldSetStore`."""

    def document_layout(self, document_id: int) -> tuple[str, Layout]:
        """A document's kind ('' when it came as plain text) and its pages and headings (an
        empty layout for a document that has none, or no longer exists)."""
        row = self._conn.execute("SELECT kind, pages, headings FROM documents WHERE id = ?",
                                 (document_id,)).fetchone()
        if row is None:
            return "", Layout()
        return str(row[0] or ""), Layout.from_columns(row[1], row[2])

    def document_file(self, document_id: int) -> DocumentFile | None:
        """The file kept for a document (None when none is kept).  For a passage, the file of
        the document it is part of."""
        row = self._conn.execute(
            "SELECT f.id, f.sha256, f.kind, f.name, f.data FROM documents d "
            "LEFT JOIN documents p ON p.id = d.parent_id "
            "JOIN document_files f ON f.id = coalesce(d.file_id, p.file_id) WHERE d.id = ?",
            (document_id,)).fetchone()
        if row is None:
            return None
        return DocumentFile(int(row[0]), str(row[1]), str(row[2]), str(row[3]), bytes(row[4]))

    def document_file_ids(self) -> dict[str, int]:
        """sha256 → id of every kept file (an import stores a file's bytes once)."""
        return {str(h): int(i) for h, i in self._conn.execute(
            "SELECT sha256, id FROM document_files")}

    def document_kind_counts(self) -> dict[str, int]:
        """Documents by kind (``none`` for text that came in a table or a line)."""
        return {str(kind or "none"): int(n) for kind, n in self._conn.execute(
            "SELECT kind, count(*) FROM documents GROUP BY kind ORDER BY kind")}

    def kept_file_counts(self) -> dict[str, int]:
        """Kept files: how many, their bytes, and how many no document uses (kept so an
        undo can bring a previous version back)."""
        count, size, unused = self._conn.execute(
            "SELECT count(*), coalesce(sum(size), 0), coalesce(sum(id NOT IN (SELECT file_id "
            "FROM documents WHERE file_id IS NOT NULL)), 0) FROM document_files").fetchone()
        return {"count": int(count), "bytes": int(size), "unused": int(unused)}

    def passage_parents(self) -> dict[str, str]:
        """Passage key → the key of the document it was found in (every passage)."""
        return {str(k): str(p) for k, p in self._conn.execute(
            "SELECT d.key, p.key FROM documents d JOIN documents p ON p.id = d.parent_id "
            "WHERE d.span_start IS NOT NULL")}

    def document_passages(self, parent_id: int) -> list[Row]:
        """The passages found in a document: id, key, span, how each was located."""
        return self._many(
            "SELECT id, key, span_start, span_end, located, match_score FROM documents "
            "WHERE parent_id = ? AND span_start IS NOT NULL ORDER BY span_start, id",
            (parent_id,))

    def document_structure(self, document_id: int) -> DocumentStructure | None:
        """Kind, layout, passage span and kept file of a document, with those of the
        document it is a located passage of (None when it no longer exists).  One query,
        without the texts or the file's bytes: a judging key may need it."""
        row = self._conn.execute(
            "SELECT d.kind, d.pages, d.headings, d.span_start, d.span_end, d.located, p.id, "
            "p.kind, p.pages, p.headings, f.sha256, f.kind FROM documents d "
            "LEFT JOIN documents p ON p.id = d.parent_id AND d.span_start IS NOT NULL "
            "LEFT JOIN document_files f ON f.id = coalesce(d.file_id, p.file_id) "
            "WHERE d.id = ?", (document_id,)).fetchone()
        if row is None:
            return None
        own = Layout.from_columns(row[1], row[2])
        span = (int(row[3]), int(row[4])) if row[3] is not None and row[4] is not None \
            else None
        parent = row[6] if span is not None else None
        return DocumentStructure(
            document_id=document_id, kind=str(row[0] or ""), layout=own, span=span,
            located=None if row[5] is None else str(row[5]),
            paged_id=int(parent) if parent is not None else document_id,
            paged_kind=str(row[7] or "") if parent is not None else str(row[0] or ""),
            paged_layout=Layout.from_columns(row[8], row[9]) if parent is not None else own,
            file_sha256=None if row[10] is None else str(row[10]),
            file_kind=None if row[11] is None else str(row[11]))
