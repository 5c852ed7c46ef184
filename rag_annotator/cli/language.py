"""``--language fr|en`` before or after any command: the language of the core's messages.

Every command accepts it without each parser declaring it: :func:`take_language` removes it
from the arguments and sets the session's language (:func:`rag_annotator.messages.
set_language`).  Without it, messages follow ``RAG_ANNOTATOR_LANG``, then the system locale
(``LANG=fr_FR.UTF-8`` → French).  The desktop app's own ``--language`` stays for its parser.
"""

from __future__ import annotations

from rag_annotator.messages import SUPPORTED, set_language


def take_language(args: list[str]) -> list[str]:
    """``args`` without a command's ``--language X`` / ``--language=X``, which is applied.

    Called for commands only (the desktop app parses its own ``--language``); a value that
    is not a supported language is left for argparse to refuse."""
    out: list[str] = []
    rest = iter(range(len(args)))
    for i in rest:
        arg = args[i]
        if arg == "--language" and i + 1 < len(args) and args[i + 1] in SUPPORTED:
            set_language(args[i + 1])
            next(rest, None)
        elif arg.startswith("--language=") and arg.split("=", 1)[1] in SUPPORTED:
            set_language(arg.split("=", 1)[1])
        else:
            out.append(arg)
    return out
