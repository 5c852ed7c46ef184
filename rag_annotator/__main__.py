"""``python -m rag_annotator`` runs the same entry point as the console script."""

from rag_annotator.cli import main

raise SystemExit(main())
