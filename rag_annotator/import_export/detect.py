"""Which import format a file is, from its content (``import FILE SOURCE`` without a format).

Read as little as needed: a folder's file names, a workbook's sheet names and headers, a
text file's first records or lines.  :func:`detect` names the format and why, or None when
the content says nothing sure; :func:`hint` is the sentence a refusal by the wrong format
gets ("this looks like a ragas file (fields user_input, retrieved_contexts): import it with
format ragas"), so an ordinary file given to the wrong importer is told where it belongs.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from rag_annotator.errors import KnownError
from rag_annotator.import_export.files import open_source
from rag_annotator.messages import Message

#: Bytes of a text file read to decide (whole records and lines of it).
SNIFF_BYTES = 256 * 1024

#: The sheets of this app's own workbook (the ``xlsx`` format).
_ENTITY_SHEETS = ("cases", "documents", "judgments", "runs", "retrieved", "answers")


def detect(source: Path) -> tuple[str, str] | None:
    """``(format, reason)`` for a file or folder, or None when its content is not telling
    (or cannot be read: a guess never raises)."""
    try:
        return _detect(source)
    except (OSError, KnownError, ValueError, RecursionError, MemoryError):
        return None


def _detect(source: Path) -> tuple[str, str] | None:
    try:
        if source.is_dir():
            return _folder(source)
        from rag_annotator.import_export.corpus_files import is_document_file

        if is_document_file(source):
            return "corpus", Message("a document file ({suffix})",
                                     suffix=source.suffix.lower())
        name = source.name.lower().removesuffix(".gz")
        if name.endswith((".xlsx", ".xlsm")):
            return _workbook(source)
        head = _head(source)
    except (OSError, KnownError):
        return None
    text = head.lstrip("\ufeff \t\r\n")
    if text[:1] in ("{", "["):
        return _json(text)
    if name.endswith((".csv", ".tsv")):
        return _table_headers(_first_line(text))
    return _lines(text) or _table_headers(_first_line(text))


def pick_format(first: str, second: str | None, known: Iterable[str]) -> tuple[str, Path]:
    """The CLI's ``import FILE [FORMAT] SOURCE``: the format given, else the one detected
    (said on stderr); a format name that is not one is refused naming them."""
    import sys

    names = tuple(known)
    if second is not None:
        if first not in names:
            raise KnownError("unknown import format '{first}'; known: {names} "
                             "(or leave the format out to have it picked from the content).",
                             first=first, names=', '.join(names))
        return first, Path(second)
    source = Path(first)
    found = detect(source)
    if found is None:
        raise KnownError("could not tell the format from the content; give it: import FILE "
                         "FORMAT SOURCE with FORMAT one of {names}.",
                         names=', '.join(names), path=source)
    print(Message("{source}: format {fmt} ({why})", source=str(source), fmt=found[0],
                  why=found[1]).render(), file=sys.stderr)
    return found[0], source


def hint(source: Path, chosen: str) -> Message | None:
    """A sentence naming the right format when the content says it is not ``chosen``."""
    found = detect(source)
    if found is None or found[0] == chosen:
        return None
    fmt, why = found
    return Message(" This looks like a '{fmt}' file ({why}): import it with format {fmt}.",
                   fmt=fmt, why=why)


def _head(source: Path) -> str:
    with open_source(source) as handle:
        data = handle.read(SNIFF_BYTES)
    return data.decode("utf-8", errors="replace")


def _first_line(text: str) -> str:
    return next((line for line in text.splitlines() if line.strip()), "")


def _folder(source: Path) -> tuple[str, str] | None:
    names = {p.name for p in source.iterdir()}
    if {"corpus.jsonl", "queries.jsonl"} <= names or "qrels" in names:
        return "beir", Message("corpus.jsonl, queries.jsonl and qrels/")
    if "cases.csv" in names:
        return "csv", Message("cases.csv and the other entity files of a csv export")
    if _holds_documents(source):
        return "corpus", Message("a folder of documents (.pdf, .docx, .md…)")
    return None


def _holds_documents(folder: Path, budget: int = 2000) -> bool:
    """True when a document file is among the first ``budget`` entries below ``folder``
    (hidden folders left out, links not followed)."""
    import os

    from rag_annotator.import_export.documents.reading import kind_of

    pending = [folder]
    while pending and budget > 0:
        with os.scandir(pending.pop()) as entries:
            for entry in entries:
                budget -= 1
                if entry.name.startswith(".") or entry.is_symlink():
                    continue
                if entry.is_dir(follow_symlinks=False):
                    pending.append(Path(entry.path))
                elif kind_of(Path(entry.name)) is not None:
                    return True
    return False


def _workbook(source: Path) -> tuple[str, str] | None:
    from rag_annotator.import_export.tabular import open_workbook

    with open_workbook(source) as workbook:
        sheets = [str(s) for s in workbook.sheetnames]
    from rag_annotator.import_export.sheet_words import entity_of

    # the entity sheets, named in either language or by their machine names
    own = [s for s in sheets if (found := entity_of(s)) and found[0] in _ENTITY_SHEETS]
    if any(entity_of(s) == ("cases", 1) for s in own) and len(own) >= 2:
        return "xlsx", Message("the entity sheets {sheets} of this app's workbook",
                               sheets=", ".join(own[:4]))
    return "cases", Message("a spreadsheet of cases (sheets: {sheets})",
                            sheets=", ".join(sheets[:3]))


def _keys(records: Iterable[Any]) -> set[str]:
    return {k for r in records if isinstance(r, dict) for k in r}


def _json(text: str) -> tuple[str, str] | None:
    records: list[Any] = []
    try:
        value: Any = json.loads(text)
    except ValueError:  # JSON Lines (or a file cut by the sniff): its first lines
        for line in text.splitlines()[:20]:
            try:
                records.append(json.loads(line))
            except ValueError:
                continue
        value = None
    if isinstance(value, dict):
        if value.get("format") == "rag_annotator":
            return "json", Message("this app's native JSON")
        if isinstance(value.get("results"), list) and (
                "metrics" in value or "query_id" in _keys(value["results"][:5])):
            # a new run by default; its verdicts onto an existing run: format ragchecker
            return "ragchecker-run", Message("a RAGChecker file ({shape})",
                                             shape='{"results": [...]}')
        if isinstance(value.get("simulations"), list):
            return "tau-bench", Message("a tau2-bench results object ({shape})",
                                        shape='{"simulations": [...]}')
        lists = [v for v in value.values()
                 if isinstance(v, list) and v and all(isinstance(x, dict) for x in v[:50])]
        records = lists[0] if len(lists) == 1 and not {"messages", "steps", "traj"} & set(
            value) else [value]
    elif isinstance(value, list):
        records = value
    if value is None and not records and text[:1] == "[":
        # a pretty-printed array longer than the sniff: its field names as they appear
        # (tau-bench's published trajectories are 4 MB of indented JSON)
        return _by_fields(set(re.findall(r'"([A-Za-z_]\w*)"\s*:', text)))
    return _by_fields(_keys(records[:50]))


def _by_fields(keys: set[str]) -> tuple[str, str] | None:
    def why(*names: str) -> str:
        return Message("fields {names}", names=", ".join(n for n in names if n in keys))

    retrieved = {"retrieved_contexts", "contexts", "context", "retrieved_context_ids"} & keys
    if ({"user_input", "question"} & keys and retrieved) or {"user_input", "response"} <= keys:
        return "ragas", why("user_input", "question", "retrieved_contexts", "contexts",
                            "context", "response", "answer")
    if {"user_input", "question"} & keys and {"reference_contexts", "synthesizer_name",
                                             "evolution_type", "ground_truth",
                                             "reference"} & keys:
        return "ragas-testset", why("user_input", "question", "reference_contexts",
                                    "synthesizer_name", "evolution_type")
    if "input" in keys and {"expected_output", "actual_output", "context",
                            "retrieval_context"} & keys:
        return "deepeval", why("input", "expected_output", "actual_output", "context")
    if {"task_id", "traj"} <= keys:
        return "tau-bench", why("task_id", "traj", "trial", "reward")
    if "messages" in keys:
        return "openai-trajectories", why("messages")
    if {"steps", "traj"} & keys:
        return "trajectories", why("steps", "traj", "case")
    if "case" in keys and {"retrieved", "contexts", "answer"} & keys:
        return "jsonl-run", why("case", "retrieved", "contexts", "answer")
    if {"_id", "id", "doc_id"} & keys and "text" in keys:
        return "corpus", why("_id", "id", "doc_id", "text", "title")
    return None


def _table_headers(line: str) -> tuple[str, str] | None:
    cells = [c.strip().strip('"').strip() for c in
             line.replace(";", ",").replace("\t", ",").split(",")]
    found = _by_fields({c for c in cells if c})
    if found is not None and found[0] != "corpus":
        return found
    from rag_annotator.import_export.cases_import import has_question

    if has_question(cells):
        return "cases", Message("a question column")
    return found


def _lines(text: str) -> tuple[str, str] | None:
    rows = [line.split() for line in text.splitlines()[:50] if line.strip()]
    if len(rows) > 1:
        rows = rows[:-1]  # the sniff may cut the last line
    if not rows:
        return None
    if all(len(r) >= 6 and _number(r[3]) and _number(r[4]) for r in rows):
        return "trec-run", Message("lines of qid Q0 docno rank score tag")
    if all(len(r) in (3, 4) and r[-1].lstrip("-").isdigit() for r in rows):
        return "qrels", Message("lines of qid iteration docno relevance")
    return None


def _number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True
