"""Entry point of the frozen app: the same ``main`` as the ``rag-annotator`` console script."""

import sys

from rag_annotator.cli import main

if __name__ == "__main__":
    sys.exit(main())
