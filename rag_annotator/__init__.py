"""rag_annotator: build, judge and verify the gold set a RAG system is evaluated against."""

__version__ = "0.1.0"
