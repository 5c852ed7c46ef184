"""Readers of the expert's own documents (PDF, Word, OpenDocument, HTML, slides, RTF, text):
each gives a text plus its structure (page starts, headings, the file's own metadata)."""
