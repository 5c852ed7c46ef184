"""Claim verdicts of automatic judges (LLM graders), imported as an assessor of kind judge.

Three formats, each read whole, matched to the claims of one run (``--run NAME``, required)
and stored in ``judge_verdicts`` in one operation (all or nothing, undoable).  The judge is
an assessor of kind ``judge`` named by ``--assessor`` (default: the tool's name); importing
again under the same name replaces its verdicts on the claims the file names.  Human verdicts
are never touched.

Mapping of each tool's labels to our verdicts (also printed in the import report):

``ragchecker`` — a RAGChecker results file, ``{"results": [{"query_id", "response_claims",
  "retrieved2response", ...}]}``.  ``query_id`` is the case key; each response claim (a list
  of strings: a triplet, or ``[text]``) has one label per retrieved chunk in
  ``retrieved2response``.  RAGChecker counts a claim as faithful when any chunk entails it,
  so: any ``Entailment`` → supported; else any ``Contradiction`` → contradicted; else (all
  ``Neutral``) → not supported.
``ragas-verdicts`` — Ragas faithfulness's NLI statements as JSON Lines, one answer per line:
  ``{"case" (case key) or "user_input" (the question), "statements": [{"statement",
  "verdict": 1 | 0, "reason"}]}``.  1 (can be inferred from the context) → supported; 0 →
  not supported.  Ragas does not tell a contradiction from a missing fact, so it never gives
  contradicted.
``deepeval-verdicts`` — DeepEval FaithfulnessMetric's claims and verdicts, a JSON array (or
  JSON Lines) of ``{"case" or "input", "claims": [text...], "verdicts": [{"verdict": "yes" |
  "no" | "idk", "reason"}]}`` (claims and verdicts in the same order).  yes → supported;
  no (the context contradicts it) → contradicted; idk (the context says nothing of it) → not
  supported.  DeepEval's own score counts idk as faithful; here an idk is **never** counted
  as supported.

Matching a tool's claim to ours, within the answer of the run to the case: the same text
after normalisation (NFC, case folded, spaces collapsed; a triplet's parts joined by spaces),
else — when the tool lists exactly as many claims as the answer has, i.e. it graded our own
split — the claim at the same position.  A claim of theirs matching none of ours, and a case
or answer not found, are listed in the report, never silently dropped.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rag_annotator.domain import validation as v
from rag_annotator.domain.changes import Changes, made
from rag_annotator.domain.clock import utc_now
from rag_annotator.domain.ports import Store, Writer
from rag_annotator.errors import Conflict, InvalidValue, NotFound
from rag_annotator.import_export.files import ImportRejected, polled, read_text_lines
from rag_annotator.import_export.registry import Options
from rag_annotator.import_export.runs_jsonl import normalise
from rag_annotator.messages import N_, Joined, Message

MAPPINGS: dict[str, dict[str, str]] = {
    "ragchecker": {"Entailment (any chunk)": "supported",
                   "Contradiction (no chunk entails)": "contradicted",
                   "Neutral (every chunk)": "not_supported"},
    "ragas-verdicts": {"1": "supported", "0": "not_supported"},
    "deepeval-verdicts": {"yes": "supported", "no": "contradicted", "idk": "not_supported"},
}
DEFAULT_NAMES = {"ragchecker": "RAGChecker", "ragas-verdicts": "Ragas",
                 "deepeval-verdicts": "DeepEval"}


@dataclass
class ToolClaim:
    """One claim as the tool wrote it, with its label mapped to our verdict."""

    where: str | Message          # "results[2] claim 3", for messages
    text: str
    raw_label: str
    verdict: str | None
    rationale: str = ""


@dataclass
class ToolAnswer:
    """The claims a tool graded for one case's answer."""

    where: str | Message
    case: str | None = None      # case key
    question: str | None = None  # question text, when the tool names no case
    claims: list[ToolClaim] = field(default_factory=list)


@dataclass
class JudgeImportReport:
    """What a judge import stored."""

    judge: str = ""
    run: str = ""
    tool: str = ""
    answers: int = 0
    imported: int = 0
    by_text: int = 0
    by_position: int = 0
    verdicts: Counter[str] = field(default_factory=Counter)
    unmatched: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    #: What the import's one operation changed (None: nothing).
    changes: Changes | None = None

    @property
    def mapping(self) -> dict[str, str]:
        """The tool's labels → our verdicts."""
        return MAPPINGS.get(self.tool, {})

    def summary(self) -> str:
        """One paragraph in the reader's language (verdicts and labels are codes)."""
        counts = ", ".join(f"{n} {k}" for k, n in sorted(self.verdicts.items())) or Message(
            "none")
        mapping = "; ".join(f"{k} → {val}" for k, val in self.mapping.items())
        text = Message("{imported} claim verdicts of judge '{judge}' imported for run '{run}' "
                       "over {answers} answers ({counts}); matched by text {by_text}, by "
                       "position {by_position}. Mapping: {mapping}.", imported=self.imported,
                       judge=self.judge, run=self.run, answers=self.answers, counts=counts,
                       by_text=self.by_text, by_position=self.by_position, mapping=mapping)
        if self.unmatched:
            return Message("{text} {n} of the tool's claims matched none of ours and were not "
                           "imported: {claims}{more}.", text=text, n=len(self.unmatched),
                           claims=Joined(self.unmatched[:5]),
                           more="; …" if len(self.unmatched) > 5 else "")
        return text


# -- reading ----------------------------------------------------------------------------------
def _load_json(path: Path) -> Any:
    text = "\n".join(line for _n, line in read_text_lines(path))
    try:
        return json.loads(text)
    except ValueError as error:
        line = getattr(error, "lineno", None)
        raise ImportRejected(path, line, "not valid JSON ({error}).", error=error) from None


def _load_items(path: Path) -> list[tuple[str | Message, Any]]:
    """A JSON array (items named ``[i]``) or JSON Lines (items named ``line n``)."""
    lines = [(n, line) for n, line in read_text_lines(path) if line.strip()]
    if not lines:
        raise ImportRejected(path, None, "the file is empty.")
    if lines[0][1].lstrip().startswith("["):
        data = _load_json(path)
        if not isinstance(data, list):
            raise ImportRejected(path, None, "expected a JSON array of objects.")
        return [(Message("item [{i}]", i=i), item) for i, item in enumerate(data)]
    items: list[tuple[str | Message, Any]] = []
    for number, line in lines:
        try:
            items.append((Message("line {number}", number=number), json.loads(line)))
        except ValueError as error:
            raise ImportRejected(path, number, "not valid JSON ({error}); each line must be "
                                               "one JSON object.", error=error) from None
    return items


def _fail(path: Path, where: str | Message, message: str, **params: Any) -> ImportRejected:
    return ImportRejected(path, None, "{where}: {message_}", where=where,
                          message_=Message(message, **params))


def _string(path: Path, where: str | Message, obj: dict[str, Any], name: str) -> str | None:
    value = obj.get(name)
    if value is None:
        return None
    if not isinstance(value, (str, int)) or isinstance(value, bool) or str(value) == "":
        raise _fail(path, where, "'{name}' must be a non-empty text.", name=name)
    try:
        return v.check_text(name, str(value))
    except InvalidValue as error:
        raise _fail(path, where, "{error}", error=error) from None


def _case_of(path: Path, where: str | Message, obj: dict[str, Any], key_field: str,
             question_field: str) -> tuple[str | None, str | None]:
    case = _string(path, where, obj, key_field)
    question = _string(path, where, obj, question_field)
    if case is None and question is None:
        raise _fail(path, where, "name the case with '{key_field}' (its key) or "
                                 "'{question_field}' (its question).",
                                 key_field=key_field, question_field=question_field)
    return case, question


def parse_ragchecker(path: Path) -> list[ToolAnswer]:
    """RAGChecker results (see the module docstring)."""
    data = _load_json(path)
    if not isinstance(data, dict) or not isinstance(data.get("results"), list):
        raise ImportRejected(path, None, 'expected a RAGChecker results object: {"results": '
                                         "[...]}.")
    answers = []
    for i, result in enumerate(data["results"]):
        where = f"results[{i}]"
        if not isinstance(result, dict):
            raise _fail(path, where, "expected an object.")
        case, question = _case_of(path, where, result, "query_id", "query")
        claims = result.get("response_claims")
        labels = result.get("retrieved2response")
        if claims is None or labels is None:
            raise _fail(path, where, "has no 'response_claims' or 'retrieved2response': run "
                                     "RAGChecker's evaluation (checking step) first.")
        if not isinstance(claims, list) or not isinstance(labels, list) or len(
                claims) != len(labels):
            raise _fail(path, where, "'response_claims' and 'retrieved2response' must be "
                                     "lists of the same length (one label list per claim).")
        answer = ToolAnswer(where, case, question if case is None else None)
        for j, (claim, per_chunk) in enumerate(zip(claims, labels)):
            cwhere = Message("{where} claim {j}", where=where, j=j)
            if isinstance(claim, str):
                claim = [claim]
            if (not isinstance(claim, list) or not claim
                    or not all(isinstance(p, str) for p in claim)):
                raise _fail(path, cwhere, "a response claim must be a list of texts (a "
                                          "triplet or [text]).")
            if not isinstance(per_chunk, list) or not all(
                    x in ("Entailment", "Neutral", "Contradiction") for x in per_chunk):
                raise _fail(path, cwhere, "expected one of Entailment, Neutral, "
                                          "Contradiction per retrieved chunk.")
            if "Entailment" in per_chunk:
                verdict = "supported"
            elif "Contradiction" in per_chunk:
                verdict = "contradicted"
            else:
                verdict = "not_supported"
            answer.claims.append(ToolClaim(cwhere, " ".join(claim),
                                           ",".join(per_chunk) or "(no chunk)", verdict))
        answers.append(answer)
    return answers


def parse_ragas_verdicts(path: Path) -> list[ToolAnswer]:
    """Ragas faithfulness statements (see the module docstring)."""
    answers = []
    for where, obj in _load_items(path):
        if not isinstance(obj, dict):
            raise _fail(path, where, "expected a JSON object.")
        case, question = _case_of(path, where, obj, "case", "user_input")
        statements = obj.get("statements")
        if not isinstance(statements, list):
            raise _fail(path, where, "'statements' must be a list of {statement, verdict, "
                                     "reason}.")
        answer = ToolAnswer(where, case, question if case is None else None)
        for j, item in enumerate(statements):
            swhere = Message("{where} statement {j}", where=where, j=j)
            if not isinstance(item, dict) or not isinstance(item.get("statement"), str):
                raise _fail(path, swhere, "expected {\"statement\": text, \"verdict\": 1 or "
                                          "0}.")
            raw = item.get("verdict")
            if raw not in (0, 1) or isinstance(raw, bool):
                raise _fail(path, swhere, "the verdict must be 1 or 0 (got {raw!r}).", raw=raw)
            reason = item.get("reason")
            answer.claims.append(ToolClaim(swhere, item["statement"], str(raw),
                                           "supported" if raw == 1 else "not_supported",
                                           reason if isinstance(reason, str) else ""))
        answers.append(answer)
    return answers


def parse_deepeval_verdicts(path: Path) -> list[ToolAnswer]:
    """DeepEval faithfulness claims and verdicts (see the module docstring)."""
    mapping = MAPPINGS["deepeval-verdicts"]
    answers = []
    for where, obj in _load_items(path):
        if not isinstance(obj, dict):
            raise _fail(path, where, "expected a JSON object.")
        case, question = _case_of(path, where, obj, "case", "input")
        claims, verdicts = obj.get("claims"), obj.get("verdicts")
        if (not isinstance(claims, list) or not isinstance(verdicts, list)
                or len(claims) != len(verdicts)):
            raise _fail(path, where, "'claims' and 'verdicts' must be lists of the same "
                                     "length (one verdict per claim).")
        answer = ToolAnswer(where, case, question if case is None else None)
        for j, (claim, item) in enumerate(zip(claims, verdicts)):
            cwhere = Message("{where} claim {j}", where=where, j=j)
            if not isinstance(claim, str):
                raise _fail(path, cwhere, "a claim must be a text.")
            if not isinstance(item, dict) or item.get("verdict") not in mapping:
                raise _fail(path, cwhere, "expected {\"verdict\": \"yes\", \"no\" or "
                                          "\"idk\"}.")
            reason = item.get("reason")
            answer.claims.append(ToolClaim(cwhere, claim, item["verdict"],
                                           mapping[item["verdict"]],
                                           reason if isinstance(reason, str) else ""))
        answers.append(answer)
    return answers


PARSERS = {"ragchecker": parse_ragchecker, "ragas-verdicts": parse_ragas_verdicts,
           "deepeval-verdicts": parse_deepeval_verdicts}


# -- storing ----------------------------------------------------------------------------------
def import_verdicts(store: Store, path: Path, tool: str, *, run: str | None,
                    judge: str | None = None,
                    cancel: Callable[[], bool] | None = None) -> JudgeImportReport:
    """Parse ``path`` in ``tool``'s format and store its verdicts (one operation; ``cancel``
    is polled between answers and rolls it back)."""
    parsed = PARSERS[tool](path)
    if not run:
        raise ImportRejected(path, None, "name the run whose answers the judge graded with "
                                         "--run NAME.")
    name = judge or DEFAULT_NAMES[tool]
    try:
        v.check_key("judge name", name)
    except InvalidValue as error:
        raise ImportRejected(path, None, "{error} Name the judge with --assessor NAME.",
                                         error=error) from None
    report = JudgeImportReport(judge=name, run=run, tool=tool, answers=len(parsed))
    with store.operation("import_judge_verdicts", f"{name} → {run} ← {path.name}") as op:
        runs = op.select("runs", name=run)
        if not runs:
            raise NotFound("{file}: no run named '{run}' in this gold set; import the run "
                           "first or check --run.", file=path, run=run)
        judge_id = _judge_assessor(op, path, name)
        cases = _case_index(op)
        now = utc_now()
        seen: dict[int, str | Message] = {}
        for answer in polled(parsed, cancel, every=100):
            case_id = _find_case(path, answer, cases)
            found = op.select("answers", run_id=runs[0]["id"], case_id=case_id)
            if not found:
                raise _fail(path, answer.where, "run '{run}' has no answer to case "
                                                "{value!r}; check "
                                                "--run.",
                                                run=run, value=answer.case or answer.question)
            ours = sorted(op.select("claims", answer_id=found[0]["id"]),
                          key=lambda c: (c["position"], c["id"]))
            for tool_claim, claim in _match(answer, ours, report):
                if claim["id"] in seen:
                    raise _fail(path, tool_claim.where, "grades the same claim as "
                                                        "{seen}; remove one.",
                                                        seen=seen[claim['id']])
                seen[claim["id"]] = tool_claim.where
                _store_verdict(op, judge_id, claim["id"], tool_claim, now)
                report.imported += 1
                report.verdicts[tool_claim.verdict or "unmapped"] += 1
        if report.unmatched and not report.imported:  # nothing stored: say so, store nothing
            raise ImportRejected(path, None, _NONE_MATCHED, n=len(report.unmatched), run=run,
                                 hint=Message(_hint(tool)))
    if report.unmatched:
        report.warnings.append(Message("{n_unmatched} claims of the file matched none of "
                                       "run {run}'s claims: {unmatched}"
                                       "{value}",
                                       n_unmatched=len(report.unmatched), run=run,
                                       unmatched=Joined(report.unmatched[:5]),
                                       value='; …' if len(report.unmatched) > 5 else ''))
    report.changes = made(op.changes())
    return report


_NONE_MATCHED = N_("none of the file's {n} claims matches a claim of run '{run}' (by text, or "
                 "by position when the counts agree); nothing was imported: {hint}.")
def _hint(tool: str) -> str:
    return _OWN_CLAIMS if tool == "ragchecker" else _SAME_SPLIT


_SAME_SPLIT = N_("split the answers the same way, or give the claims in the answers' order")
_OWN_CLAIMS = N_("RAGChecker grades its own claim triplets, not the app's sentences; import "
               "the file with the format ragchecker-run to keep them as the answer's claims "
               "with their verdicts")


def _judge_assessor(op: Writer, path: Path, name: str) -> int:
    found = op.select("assessors", name=name)
    if found:
        if found[0].get("kind") != "judge":
            raise Conflict("{file}: '{name}' is a human assessor of this gold set; name the "
                           "automatic judge otherwise with --assessor NAME.", file=path, name=name)
        return int(found[0]["id"])
    return int(op.insert("assessors", {"name": name, "kind": "judge",
                                       "created_at": utc_now()})["id"])


def _case_index(op: Writer) -> tuple[dict[str, int], dict[str, list[int]]]:
    keys: dict[str, int] = {}
    questions: dict[str, list[int]] = {}
    for row in op.select("cases"):
        keys[row["key"]] = int(row["id"])
        if row["question"]:
            questions.setdefault(normalise(row["question"]), []).append(int(row["id"]))
    return keys, questions


def _find_case(path: Path, answer: ToolAnswer,
               cases: tuple[dict[str, int], dict[str, list[int]]]) -> int:
    keys, questions = cases
    if answer.case is not None:
        if answer.case not in keys:
            raise _fail(path, answer.where, "no case with key '{case}' in this gold "
                                            "set.", case=answer.case)
        return keys[answer.case]
    found = questions.get(normalise(answer.question or ""), [])
    if len(found) != 1:
        what = "no case has" if not found else "several cases have"
        raise _fail(path, answer.where, "{what} this question; give the case key instead.",
                                        what=what)
    return found[0]


def _match(answer: ToolAnswer, ours: list[dict[str, Any]],
           report: JudgeImportReport) -> list[tuple[ToolClaim, dict[str, Any]]]:
    by_text: dict[str, list[dict[str, Any]]] = {}
    for claim in ours:
        by_text.setdefault(normalise(claim["text"]), []).append(claim)
    pairs: list[tuple[ToolClaim, dict[str, Any]]] = []
    misses: list[tuple[int, ToolClaim]] = []
    used: set[int] = set()
    for i, tool_claim in enumerate(answer.claims):
        candidates = [c for c in by_text.get(normalise(tool_claim.text), [])
                      if c["id"] not in used]
        if candidates:
            pairs.append((tool_claim, candidates[0]))
            used.add(candidates[0]["id"])
            report.by_text += 1
        else:
            misses.append((i, tool_claim))
    same_split = len(answer.claims) == len(ours)
    for i, tool_claim in misses:
        if same_split and ours[i]["id"] not in used:
            pairs.append((tool_claim, ours[i]))
            used.add(ours[i]["id"])
            report.by_position += 1
        else:
            report.unmatched.append(Message("{where} «{text}»", where=tool_claim.where,
                                            text=tool_claim.text[:60]))
    return pairs


def _store_verdict(op: Writer, judge_id: int, claim_id: int, claim: ToolClaim,
                   now: str) -> None:
    values = {"verdict": claim.verdict, "raw_label": claim.raw_label,
              "rationale": v.check_text("rationale", claim.rationale) or ""}
    existing = op.select("judge_verdicts", claim_id=claim_id, assessor_id=judge_id)
    if existing:
        if any(existing[0][k] != val for k, val in values.items()):
            op.update("judge_verdicts", {"id": existing[0]["id"]}, {**values, "updated_at": now})
    else:
        op.insert("judge_verdicts", {"claim_id": claim_id, "assessor_id": judge_id, **values,
                                     "updated_at": now})


# -- registry entry points ----------------------------------------------------------------------
def import_ragchecker(store: Store, source: Path, options: Options) -> JudgeImportReport:
    """RAGChecker results: claim labels against the retrieved chunks."""
    return import_verdicts(store, source, "ragchecker", run=options.run, judge=options.assessor,
                           cancel=options.cancel)


def import_ragas_verdicts(store: Store, source: Path, options: Options) -> JudgeImportReport:
    """Ragas faithfulness statements (1 / 0)."""
    return import_verdicts(store, source, "ragas-verdicts", run=options.run,
                           judge=options.assessor, cancel=options.cancel)


def import_deepeval_verdicts(store: Store, source: Path,
                             options: Options) -> JudgeImportReport:
    """DeepEval faithfulness verdicts (yes / no / idk)."""
    return import_verdicts(store, source, "deepeval-verdicts", run=options.run,
                           judge=options.assessor, cancel=options.cancel)
