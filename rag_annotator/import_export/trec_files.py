"""TREC run and qrels files: strict parsing, all-or-nothing import, exports tools accept.

Formats (research/ecosystem.md §1): a run line is ``qid Q0 docno rank score tag`` (fields
after the sixth ignored with a warning, as trec_eval ignores them), a qrels line exactly
``qid iter docno rel``, whitespace-separated; several values in ``iter`` are judgment
groups (one assessor each), and labels may be any non-negative integer (the scale grows).
On import a run is ordered the way trec_eval orders it (score descending, ties by docno
descending; the rank column is ignored), a negative qrels label means "in the pool,
unjudged" (a judgment row without a grade), duplicates are refused with both line
numbers, and unknown case or document ids become placeholders that the report lists
(``strict=True`` refuses them).  Exports write only judged pairs to qrels (with the
iteration column the imported qrels used), runs in rank order with their stored scores
(ties kept), ``\\n`` endings and no BOM.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple, Protocol

from rag_annotator.domain import validation as v
from rag_annotator.domain.changes import Changes, made
from rag_annotator.domain.clock import utc_now
from rag_annotator.domain.judging_ops import MAX_GRADE
from rag_annotator.domain.operations import ensure_assessor
from rag_annotator.domain.ports import Store, Writer
from rag_annotator.errors import Conflict, InvalidValue, KnownError
from rag_annotator.gc_pause import bulk_objects
from rag_annotator.import_export.files import (
    ImportRejected,
    atomic_text_writer,
    check_cancel,
    polled,
    read_text_blocks,
    read_text_lines,
)
from rag_annotator.import_export.passages import ChunkTally
from rag_annotator.messages import Joined, Message

RUN_FIELDS = "qid Q0 docno rank score tag"
QRELS_FIELDS = "qid iter docno rel"


class RunLine(NamedTuple):
    """One retrieved document of a run file (a named tuple: a run has millions of them, and
    building a tuple costs a third of a frozen dataclass)."""

    qid: str
    docno: str
    score: float
    line: int


@dataclass(frozen=True)
class QrelsLine:
    """One label of a qrels file (None = negative label = in the pool, unjudged);
    ``iteration`` is column 2 as written (a judgment group in multi-assessor qrels)."""

    qid: str
    docno: str
    grade: int | None
    line: int
    iteration: str = "0"


#: The meta key remembering the qrels iteration column of an assessor's labels, so the
#: qrels export writes it back (``qrels_iteration:<assessor>``).
ITERATION_META = "qrels_iteration:"


@dataclass
class ImportReport:
    """What an import stored, for the CLI and the UI to show."""

    rows: int = 0
    cases: int = 0
    new_cases: list[str] = field(default_factory=list)
    new_documents: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    name: str = ""
    #: What the import's one operation changed (None: nothing).
    changes: Changes | None = None
    #: How the retrieved chunks (texts, not ids) were found in the documents.
    chunks: ChunkTally = field(default_factory=ChunkTally)

    def summary(self) -> str:
        """One paragraph (a message, rendered in the reader's language): what was stored,
        then how the retrieved chunks were found."""
        located = self.chunks.summary()
        if located is None:
            return self.core_summary()
        return Message("{core} {located}.", core=self.core_summary(), located=located)

    def core_summary(self) -> str:
        """What was stored, without the chunks' sentence."""
        parts = [Message("{rows} lines for {cases} cases imported as run '{name}'",
                         rows=self.rows, cases=self.cases, name=self.name) if self.name else
                 Message("{rows} lines for {cases} cases imported", rows=self.rows,
                         cases=self.cases)]
        if self.new_cases:
            parts.append(Message("{n} unknown case ids added as placeholder cases ({first})",
                                 n=len(self.new_cases), first=_first(self.new_cases)))
        if self.new_documents:
            parts.append(Message("{n} unknown document ids added as placeholder documents "
                                 "({first})", n=len(self.new_documents),
                                 first=_first(self.new_documents)))
        return Message("{parts}.", parts=Joined(parts))


def _first(items: list[str], n: int = 5) -> str:
    return ", ".join(items[:n]) + (", …" if len(items) > n else "")


# -- parsing ---------------------------------------------------------------------------------
def _fields(path: Path) -> Iterable[tuple[int, list[str]]]:
    for number, text in read_text_lines(path):
        if not text.strip() or text.startswith("#"):
            continue  # blank lines and trec_eval 10's comment lines
        yield number, text.split()


def parse_run(path: Path, cancel: Callable[[], bool] | None = None,
              warnings: list[str] | None = None) -> tuple[dict[str, list[RunLine]], str]:
    """Parse a run file; return each query's lines in trec_eval order, and the run tag.

    ``cancel`` is polled once per block of lines (:class:`~.files.Cancelled` stops it).
    Fields after the sixth are ignored, as trec_eval ignores them (its own test run
    ``results.trunc`` has some); ``warnings`` gets one line saying how many lines had them.

    Written for millions of lines (the import's own cost next to SQLite's): a run's lines are
    grouped by query, so the current query's table is kept at hand, and one sort per query
    on (score, docno) descending gives trec_eval's order.
    """
    queries: dict[str, dict[str, RunLine]] = {}
    tags: set[str] = set()
    trailing: list[int] = []
    try:
        _parse_blocks(path, queries, tags, cancel, trailing)
    except BaseException:
        release(queries)  # a cancelled parse must not stall the window either
        raise
    if not queries:
        raise ImportRejected(path, None, "the file holds no run lines.")
    if trailing and warnings is not None:
        warnings.append(Message("{n_trailing} lines have fields after the sixth (first at line "
                                "{trailing}); they were ignored, as trec_eval ignores them",
                                n_trailing=len(trailing), trailing=trailing[0]))
    ordered = {
        qid: sorted(lines.values(), key=_trec_eval_key, reverse=True)
        for qid, lines in queries.items()
    }
    return ordered, sorted(tags)[0] if len(tags) == 1 else ""


def _parse_blocks(path: Path, queries: dict[str, dict[str, RunLine]], tags: set[str],
                  cancel: Callable[[], bool] | None, trailing: list[int]) -> None:
    """:func:`parse_run`'s loop: fill ``queries`` (qid → docno → line) and ``tags``;
    ``trailing`` gets the numbers of the lines with more than six fields."""
    current_qid: str | None = None
    current: dict[str, RunLine] = {}
    last_tag = None
    for first, block in read_text_blocks(path):
        check_cancel(cancel)
        for number, text in enumerate(block, start=first):
            if not text or text.startswith("#") or text.isspace():
                continue  # blank lines and trec_eval 10's comment lines, as in _fields
            parts = text.split()
            if len(parts) != 6:
                if len(parts) < 6:
                    raise ImportRejected(path, number, "expected 6 fields ({run_fields}), "
                                                       "got {n_parts}.",
                                                       run_fields=RUN_FIELDS, n_parts=len(parts))
                trailing.append(number)
                parts = parts[:6]
            qid, _q0, docno, rank, score_text, tag = parts
            if not rank.isdecimal():  # fast path: int() reads every decimal string
                try:
                    int(rank)
                except ValueError:
                    raise ImportRejected(path, number,
                                         "the rank '{rank}' is not an integer.",
                                         rank=rank) from None
            try:
                score = float(score_text)
            except ValueError:
                raise ImportRejected(path, number, "the score '{score_text}' is not a number "
                                                   "(use a decimal point).",
                                                   score_text=score_text) from None
            if not math.isfinite(score):
                raise ImportRejected(path, number, "the score '{score_text}' is not finite.",
                                                   score_text=score_text)
            if qid != current_qid:
                current_qid, current = qid, queries.setdefault(qid, {})
            previous = current.get(docno)
            if previous is not None:
                raise ImportRejected(path, number, "document {docno} appears twice for query "
                                                   "{qid} (first at line {line_no}); "
                                                   "remove the duplicate.",
                                                   docno=docno, qid=qid, line_no=previous.line)
            current[docno] = RunLine(qid, docno, score, number)
            if tag != last_tag:
                tags.add(tag)
                last_tag = tag


def _trec_eval_key(line: RunLine) -> tuple[float, str]:
    return line.score, line.docno


def parse_qrels(path: Path) -> list[QrelsLine]:
    """Parse a qrels file (negative labels become unjudged).

    Column 2 is kept: when it holds several values they are judgment groups (trec_eval's
    ``qrels_jg`` files, e.g. its ``test/qrels.123``), and a pair may be labelled once per
    group; otherwise a pair labelled twice is refused.
    """
    seen: dict[tuple[str, str, str], int] = {}
    out: list[QrelsLine] = []
    for number, parts in _fields(path):
        if len(parts) != 4:
            raise ImportRejected(path, number, "expected 4 fields ({qrels_fields}), got "
                                               "{n_parts}.",
                                               qrels_fields=QRELS_FIELDS, n_parts=len(parts))
        qid, iteration, docno, rel = parts
        try:
            grade = int(rel)
        except ValueError:
            raise ImportRejected(path, number, "the label '{rel}' is not an integer.",
                                               rel=rel) from None
        first = seen.get((qid, iteration, docno))
        if first is not None:
            raise ImportRejected(path, number, "query {qid}, document {docno} is labelled "
                                               "twice (first at line {first}); keep one.",
                                               qid=qid, docno=docno, first=first)
        seen[(qid, iteration, docno)] = number
        out.append(QrelsLine(qid, docno, grade if grade >= 0 else None, number, iteration))
    if not out:
        raise ImportRejected(path, None, "the file holds no qrels lines.")
    return out


def qrels_groups(lines: list[QrelsLine], assessor: str) -> dict[str, list[QrelsLine]]:
    """Assessor name → its lines: one assessor when column 2 holds one value, else one per
    judgment group, named ``<assessor>-<group>``."""
    groups: dict[str, list[QrelsLine]] = {}
    for q in lines:
        groups.setdefault(q.iteration, []).append(q)
    if len(groups) == 1:
        return {assessor: lines}
    return {f"{assessor}-{group}": group_lines for group, group_lines in groups.items()}


# -- import ----------------------------------------------------------------------------------
def _resolve(op: Writer, path: Path, qids: Iterable[str], docnos: Iterable[str], *,
             strict: bool, report: ImportReport,
             first_line: Callable[[str, str], int | None],
             ) -> tuple[dict[str, int], dict[str, int]]:
    """Map ids to rows, creating placeholders for unknown ones (or refusing when strict).

    ``first_line(kind, id)`` ("case" or "document") gives the line an error names; it is
    called only on an unknown id, so a big file pays nothing for it when all ids are known.
    """
    cases, docs = op.ids_by_key("cases"), op.ids_by_key("documents")
    agents = {row["key"] for row in op.select("cases", kind="agent")}
    now = utc_now()
    for qid in qids:
        if qid in cases:
            if qid in agents:
                raise ImportRejected(path, first_line("case", qid),
                                     "case '{qid}' is an agent case: retrieved documents, "
                                     "answers and relevance labels belong to RAG cases; "
                                     "import its trajectory instead (format trajectories), "
                                     "or fix the id.", qid=qid)
            continue
        if strict:
            raise ImportRejected(path, first_line("case", qid),
                                 "unknown case id '{qid}' (strict import); add the case "
                                 "first or import without --strict.", qid=qid)
        v.check_key("case id", qid)
        cases[qid] = int(op.insert("cases", {
            "key": qid, "question": "", "status": "draft",
            "notes": f"Placeholder created by importing {path.name}.",
            "created_at": now, "updated_at": now})["id"])
        report.new_cases.append(qid)
    for docno in docnos:
        if docno in docs:
            continue
        if strict:
            raise ImportRejected(path, first_line("document", docno),
                                 "unknown document id '{docno}' (strict import); add it to "
                                 "the corpus first or import without --strict.", docno=docno)
        docs[docno] = int(op.insert("documents", {
            **v.document_columns({"key": docno, "text": "", "origin": "placeholder"}),
            "created_at": now, "updated_at": now})["id"])
        report.new_documents.append(docno)
    return cases, docs


def _first_lines(queries: dict[str, list[RunLine]]) -> Callable[[str, str], int | None]:
    """``first_line`` for a run: the first line naming a case or a document, computed on
    first use (only an unknown id needs it)."""
    found: dict[tuple[str, str], int] = {}

    def first_line(kind: str, ident: str) -> int | None:
        if not found:
            for qid, lines in queries.items():
                for r in lines:
                    for key in (("case", qid), ("document", r.docno)):
                        if r.line < found.get(key, r.line + 1):
                            found[key] = r.line
        return found.get((kind, ident))

    return first_line


def import_run(store: Store, path: Path, *, name: str | None = None,
               strict: bool = False, cancel: Callable[[], bool] | None = None,
               progress: Callable[[int, int], None] | None = None) -> ImportReport:
    """Import a TREC run as a new run, in one operation (undoable).

    ``cancel`` is polled while parsing and every few thousand rows stored; returning True
    raises :class:`~.files.Cancelled` and the operation rolls back.  ``progress(done,
    total)`` follows the rows stored.  The cyclic collector is paused meanwhile: its full
    passes over a million parsed lines hold the GIL for hundreds of milliseconds, which
    froze the window while the import ran on a worker thread (none of them is in a cycle).
    """
    with bulk_objects():
        warnings: list[str] = []
        queries, tag = parse_run(path, cancel, warnings)
        try:
            report = _import_run(store, path, queries, tag, name=name, strict=strict,
                                 cancel=cancel, progress=progress)
            report.warnings[:0] = warnings
            return report
        finally:
            release(queries)


def release(table: dict[str, Any]) -> None:
    """Empty a big parsed table entry by entry.

    Dropping a million parsed lines at once frees them in one C-level cascade that holds
    the GIL for a tenth of a second or more — the window, on the main thread, would stall;
    entry by entry, the interpreter can switch threads between entries.
    """
    while table:
        table.popitem()


def _import_run(store: Store, path: Path, queries: dict[str, list[RunLine]], tag: str, *,
                name: str | None, strict: bool, cancel: Callable[[], bool] | None,
                progress: Callable[[int, int], None] | None) -> ImportReport:
    run_name = name or tag
    if not run_name:
        raise ImportRejected(path, None, "the lines carry several run tags; name the run "
                                         "with --run NAME.")
    v.check_key("run name", run_name)
    report = ImportReport(name=run_name, cases=len(queries))
    with store.operation("import_run", f"{run_name} ← {path.name}") as op:
        if op.select("runs", name=run_name):
            raise Conflict("a run named '{run_name}' already exists; choose another name "
                           "with --run NAME.", run_name=run_name)
        cases, docs = _resolve(op, path, queries,
                               dict.fromkeys(r.docno for ls in queries.values() for r in ls),
                               strict=strict, report=report,
                               first_line=_first_lines(queries))
        run_id = int(op.insert("runs", {"name": run_name, "created_at": utc_now(),
                                        "notes": f"Imported from {path.name}."})["id"])
        report.rows = op.insert_rows(
            "retrieved", ("run_id", "case_id", "document_id", "rank", "score"),
            _run_rows(run_id, queries, cases, docs, cancel, progress))
    report.changes = made(op.changes())
    return report


def _run_rows(run_id: int, queries: dict[str, list[RunLine]], cases: dict[str, int],
              docs: dict[str, int], cancel: Callable[[], bool] | None,
              progress: Callable[[int, int], None] | None
              ) -> Iterator[tuple[int, int, int, int, float]]:
    """The ``retrieved`` rows of a run, query by query; ``cancel`` is polled between
    queries, ``progress`` told every :data:`PROGRESS_ROWS` rows or so."""
    total = sum(map(len, queries.values()))
    done = told = 0
    for qid, lines in queries.items():
        check_cancel(cancel)
        if progress is not None and done - told >= PROGRESS_ROWS:
            progress(done, total)
            told = done
        case_id = cases[qid]
        yield from ((run_id, case_id, docs[r.docno], rank, r.score)
                    for rank, r in enumerate(lines, start=1))
        done += len(lines)


#: Rows stored between two progress reports of a run import.
PROGRESS_ROWS = 20_000


def import_qrels(store: Store, path: Path, *, assessor: str,
                 strict: bool = False, cancel: Callable[[], bool] | None = None
                 ) -> ImportReport:
    """Import a qrels file as one assessor's judgments, in one operation (undoable); a
    file with judgment groups in column 2 gives one assessor per group (``qrels_groups``).

    An existing judgment of that assessor on the same pair is replaced.  Graded labels raise
    the gold set's scale when no graded judgment exists yet; otherwise they must fit it.
    The iteration column is remembered per assessor, for the qrels export.
    """
    lines = parse_qrels(path)
    groups = qrels_groups(lines, assessor)
    report = ImportReport(rows=len(lines), cases=len({q.qid for q in lines}))
    if len(groups) > 1:
        report.warnings.append(Message("column 2 holds {n_groups} judgment groups: imported as "
                                       "{n_groups} assessors ({first})",
                                       n_groups=len(groups), first=_first(list(groups))))
    first_line: dict[tuple[str, str], int] = {}
    for q in lines:
        first_line.setdefault(("case", q.qid), q.line)
        first_line.setdefault(("document", q.docno), q.line)
    with store.operation("import_qrels", f"{assessor} ← {path.name}") as op:
        _raise_scale(op, path, lines, report)
        cases, docs = _resolve(op, path, dict.fromkeys(q.qid for q in lines),
                               dict.fromkeys(q.docno for q in lines), strict=strict,
                               report=report,
                               first_line=lambda kind, ident: first_line.get((kind, ident)))
        for name, group_lines in groups.items():
            _store_labels(op, name, group_lines, cases, docs, cancel)
    report.changes = made(op.changes())
    return report


def _raise_scale(op: Writer, path: Path, lines: list[QrelsLine], report: ImportReport) -> None:
    """Raise the grading scale to the file's top label, unless graded judgments lock it."""
    top = max((q.grade for q in lines if q.grade is not None), default=0)
    meta = op.get("meta", {"key": "max_grade"})
    scale = int(meta["value"]) if meta and meta["value"] else 1
    if top <= scale:
        return
    graded = [r for r in op.select("judgments") if r["grade"] is not None]
    if graded:
        line = next(q.line for q in lines if q.grade == top)
        raise ImportRejected(path, line, "label {top} is above this gold set's scale "
                                         "(0–{scale}), which is locked because "
                                         "judgments exist.", top=top, scale=scale)
    op.update("meta", {"key": "max_grade"}, {"value": str(top)})
    report.warnings.append(
        Message("grading scale raised to 0–{top} (above {max_grade}, the top of the "
                "Judge keys; metrics --relevance-level N decides which grades count "
                "as relevant)", top=top, max_grade=MAX_GRADE) if top > MAX_GRADE
        else Message("grading scale raised to 0–{top}", top=top))


def _store_labels(op: Writer, assessor: str, lines: list[QrelsLine], cases: dict[str, int],
                  docs: dict[str, int], cancel: Callable[[], bool] | None) -> None:
    """One assessor's labels, and the iteration column its file used."""
    assessor_id = ensure_assessor(op, assessor)
    now = utc_now()
    existing = {(r["case_id"], r["document_id"]): r
                for r in op.select("judgments", assessor_id=assessor_id)}
    for q in polled(lines, cancel, every=2_000):
        key = (cases[q.qid], docs[q.docno])
        row = existing.get(key)
        if row is None:
            op.insert("judgments", {"case_id": key[0], "document_id": key[1],
                                    "assessor_id": assessor_id, "grade": q.grade,
                                    "note": "", "updated_at": now})
        elif row["grade"] != q.grade:
            op.update("judgments", {"id": row["id"]}, {"grade": q.grade, "updated_at": now})
    iterations = {q.iteration for q in lines}
    meta_key = ITERATION_META + assessor
    if len(iterations) == 1:
        value = next(iter(iterations))
        if op.get("meta", {"key": meta_key}) is None:
            op.insert("meta", {"key": meta_key, "value": value})
        else:
            op.update("meta", {"key": meta_key}, {"value": value})


def check_assessor(name: str) -> str:
    """Validate an assessor name given on the command line."""
    try:
        return v.check_key("assessor", name)
    except InvalidValue as error:
        raise InvalidValue("--assessor: {error}", error=error) from None


# -- export ----------------------------------------------------------------------------------
@dataclass
class ExportReport:
    """What an export wrote and what the user should know about it."""

    path: Path
    lines: int = 0
    warnings: list[str] = field(default_factory=list)


class RelevanceSource(Protocol):
    """The store reads a TREC export needs."""

    def effective_labels(self) -> list[tuple[str, str, int | None, bool]]: ...
    def run_rankings(self, run_id: int) -> dict[str, list[tuple[str, float | None]]]: ...
    def by_key(self, table: str, key: str) -> dict[str, Any]: ...
    def trajectory_counts(self) -> dict[int, int]: ...
    def agent_case_ids(self) -> dict[str, int]: ...
    def export_meta(self) -> dict[str, str | None]: ...


def _agent_cases(store: RelevanceSource) -> frozenset[str]:
    """Keys of the agent cases (no RAG questions: never written to a TREC file)."""
    return frozenset(store.agent_case_ids())


def export_qrels(store: RelevanceSource, destination: Path) -> ExportReport:
    """Write the effective labels as qrels: judged pairs only, one label per pair.

    Unjudged pairs are left out (``-1`` means different things to different tools); disputed
    pairs are left out with a warning (adjudicate them first).  Cases whose judged documents
    are all non-relevant are reported: they score 0 in every average.  Column 2 is the
    iteration the imported qrels used when they all used one (``Q0``, ``1``…), else ``0``.
    """
    report = ExportReport(destination)
    recorded = {str(value) for key, value in store.export_meta().items()
                if key.startswith(ITERATION_META) and value}
    iteration = recorded.pop() if len(recorded) == 1 else "0"
    _check_trec_id(iteration, destination)
    disputed: list[str] = []
    relevant_by_case: dict[str, bool] = {}
    agents = _agent_cases(store)
    with atomic_text_writer(destination) as out:
        for case, doc, grade, is_disputed in store.effective_labels():
            if case in agents:
                continue
            if is_disputed:
                disputed.append(f"{case}/{doc}")
                continue
            if grade is None:
                continue
            _check_trec_id(case, destination)
            _check_trec_id(doc, destination)
            out.write(f"{case} {iteration} {doc} {grade}\n")
            report.lines += 1
            relevant_by_case[case] = relevant_by_case.get(case, False) or grade >= 1
    if disputed:
        report.warnings.append(Message("{n_disputed} disputed pairs left out (adjudicate them): "
                                       "{first}", n_disputed=len(disputed), first=_first(disputed)))
    no_relevant = sorted(c for c, rel in relevant_by_case.items() if not rel)
    if no_relevant:
        report.warnings.append(Message("{n_no_relevant} cases have no relevant document and will "
                                       "score 0 in averages (in trec_eval's and in the app's trec "
                                       "mean, which count them): {first}",
                                       n_no_relevant=len(no_relevant), first=_first(no_relevant)))
    return report


def export_run(store: RelevanceSource, run_name: str, destination: Path) -> ExportReport:
    """Write a run with exactly 6 fields, lines in rank order, scores as stored.

    Tied scores keep their values (a tie is information: rewriting the whole case lost it);
    the lines go by rank, and a warning names the cases where a tie's stored order is not
    the one trec_eval gives it (docno descending), since tools will read that tie in their
    order.  Only a case with a missing score, or a score that rises down the ranking, is
    rewritten as depth − rank + 1 (every tool must read the app's order), with a warning.
    """
    run = store.by_key("runs", run_name)
    _check_trec_id(run_name, destination)
    agents = _agent_cases(store)
    rankings = {case: docs for case, docs in store.run_rankings(int(run["id"])).items()
                if case not in agents}
    if not rankings and store.trajectory_counts().get(int(run["id"])):
        raise KnownError("run '{run_name}' holds agent trajectories and no retrieved "
                         "lists: there is nothing to write as a TREC run (its trajectories go "
                         "out with the json, csv and xlsx exports).",
                         run_name=run_name, path=destination)
    report = ExportReport(destination)
    rewritten: list[str] = []
    reordered: list[str] = []
    with atomic_text_writer(destination) as out:
        for case, docs in rankings.items():
            scores = [s for _d, s in docs]
            keep = all(s is not None for s in scores) and all(
                a is not None and b is not None and a >= b for a, b in itertools.pairwise(scores))
            if not keep:
                rewritten.append(case)
            elif any(a == b and da < db for (da, a), (db, b) in itertools.pairwise(docs)):
                reordered.append(case)
            for rank, (doc, score) in enumerate(docs, start=1):
                value = score if keep else float(len(docs) - rank + 1)
                out.write(f"{case} Q0 {doc} {rank} {value!r} {run_name}\n")
                report.lines += 1
    if rewritten:
        report.warnings.append(Message(
                               "scores of {n_rewritten} cases were missing or rose down "
                               "the ranking and were rewritten from the ranks: "
                               "{first}", n_rewritten=len(rewritten), first=_first(rewritten)))
    if reordered:
        report.warnings.append(Message(
                               "{n_reordered} cases have tied scores stored in an order "
                               "trec_eval does not use (it breaks ties by docno, descending); "
                               "tools will read those ties in their own order: "
                               "{first}", n_reordered=len(reordered), first=_first(reordered)))
    _warn_missing_cases(store, agents, rankings, report)
    return report


def _warn_missing_cases(store: RelevanceSource, agents: frozenset[str],
                        rankings: dict[str, Any], report: ExportReport) -> None:
    judged_cases = {case for case, _d, grade, _x in store.effective_labels()
                    if grade is not None and case not in agents}
    missing = sorted(judged_cases - set(rankings))
    if missing:
        report.warnings.append(Message("{n_missing} judged cases have no line in this run (use "
                                       "trec_eval -c, or metrics --all-judged, to count them): "
                                       "{first}", n_missing=len(missing), first=_first(missing)))


def _check_trec_id(value: str, destination: Path) -> None:
    if not value or any(ch.isspace() for ch in value) or value.startswith("#"):
        raise KnownError("the id '{value}' contains whitespace or starts with '#', which TREC "
                         "files cannot hold; rename it before exporting.",
                         value=value, path=destination)
