"""One bad file per importer family, for the tests that check a refusal speaks the reader's
language (issue 21): ``(format, file name, content, options)``; each importer refuses it with
a KnownError naming the file."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

#: format, file name, content (text or bytes), Options keyword arguments
BAD_IMPORTS: list[tuple[str, str, str | bytes, dict[str, Any]]] = [
    ("cases", "cases.csv", "question,family\nWhat is the notice period?,Management\n", {}),
    ("corpus", "docs.csv", "id,text\n,some text\n", {}),
    ("trec-run", "run.txt", "Q1 Q0 D1 1\n", {"run": "r1"}),
    ("qrels", "labels.txt", "Q1 0 D1\n", {}),
    ("jsonl-run", "run.jsonl", '{"case": "Q1", "retrieved": [{"document": "D1", '
                               '"score": "high"}]}\n', {"run": "r1"}),
    ("xlsx", "book.xlsx", b"this is not a workbook", {}),
    ("beir", "beir.txt", "not a folder\n", {}),
    ("ragchecker", "checked.json", '{"foo": 1}', {"run": "r1"}),
    ("trajectories", "traj.jsonl", '{"steps": []}\n', {"run": "r1"}),
    ("deepeval", "goldens.json", '{"a": 1}', {}),
    ("ragas-testset", "testset.jsonl", '{"reference": "an answer"}\n', {}),
    ("json", "export.json", '{"format": "something else"}', {}),
]


def write_bad(folder: Path, name: str, content: str | bytes) -> Path:
    """The bad file in ``folder``."""
    path = folder / name
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")
    return path


def french_template(message_id: str) -> str:
    """The French text of ``message_id`` read with the standard library's gettext from the
    compiled catalogue: a peer of ``rag_annotator.messages``, which the tests check."""
    import gettext

    import rag_annotator

    folder = Path(rag_annotator.__file__).parent / "resources" / "locale"
    french = gettext.translation("rag_annotator", localedir=folder, languages=["fr"])
    text = french.gettext(message_id)
    words = re.sub(r"\{[^{}]*\}", "", message_id)
    assert text != message_id or not any(c.isalpha() for c in words), \
        f"no French for {message_id!r}"
    return text


def assert_french(shown: str, error: Any, *, top: bool = True) -> None:
    """``shown`` is ``error``'s French: its catalogue text, in order, with its parameters
    (every literal part of the French template, every plain parameter's value, and so on
    for the messages it holds)."""
    import string

    template = french_template(error.message_id)
    at = 0
    for literal, _field, _spec, _conversion in string.Formatter().parse(template):
        if literal:
            found = shown.find(literal, at)
            assert found >= 0, f"{literal!r} of the French catalogue not in {shown!r}"
            at = found + len(literal)
    for value in error.params.values():
        if hasattr(value, "message_id"):  # a nested message (a Message is also a str)
            assert_french(shown, value, top=False)
        elif isinstance(value, str):
            assert value.replace("\n", "\\n") in shown
    if top:
        assert shown != str(error), "the message is still in English"


def french_cli(*args: str) -> subprocess.CompletedProcess[str]:
    """The CLI run as under a French system locale (``LANG=fr_FR.UTF-8``)."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("RAG_ANNOTATOR_LANG", "LC_ALL", "LC_MESSAGES", "LANGUAGE")}
    env.update(LANG="fr_FR.UTF-8", PYTHONDONTWRITEBYTECODE="1")
    return subprocess.run([sys.executable, "-m", "rag_annotator", *args], capture_output=True,
                          text=True, env=env, timeout=120)
