"""The native JSON export: the whole gold set in one versioned, lossless file, written a list
at a time (``native_json`` describes the shape and reads it back).

Export → import into a new file → export gives the same bytes: every list has a fixed order
(keys; the stored order where an entity has no key: expected sources, citations, claims,
evidence, releases).  The ``agent_metrics`` section is derived (each agent run's
``RunFigures``), never imported.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from rag_annotator.errors import KnownError
from rag_annotator.import_export import native_samples, native_team
from rag_annotator.import_export.entity_counts import counts_text
from rag_annotator.import_export.files import atomic_text_writer
from rag_annotator.import_export.native_documents import export_files
from rag_annotator.import_export.native_structured import export_sections
from rag_annotator.import_export.registry import Options
from rag_annotator.messages import Message
from rag_annotator.storage.reads_exchange import DERIVED_COLUMNS, JSON_COLUMNS
from rag_annotator.storage.store import GoldSetStore

FORMAT = "rag_annotator"
#: 2: documents carry their kind, pages, headings, kept file and passage span, and the kept
#: files travel in ``document_files`` (version 1 files are still read).
VERSION = 2


@dataclass
class ExportReport:
    """What an export wrote."""

    path: Path
    counts: dict[str, int] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)

    def summary(self) -> str:
        parts = counts_text(self.counts)
        if not parts.parts:
            return Message("written to {file}: nothing.", file=self.path.name)
        return Message("written to {file}: {counts}.", file=self.path.name,
                       counts=parts)


class _Cancelled(KnownError):
    pass


def cancelled() -> KnownError:
    """The error an export or import raises when the user cancels (nothing written)."""
    return _Cancelled("cancelled; nothing was written.")


# -- export --------------------------------------------------------------------------------
def _dump(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, allow_nan=False, separators=(", ", ": "))


def _lists(row: dict[str, Any]) -> dict[str, Any]:
    for name in DERIVED_COLUMNS.intersection(row):  # the flat tables' convenience columns
        del row[name]
    for name in JSON_COLUMNS.intersection(row):
        row[name] = json.loads(row[name]) if row[name] is not None else None
    if row.get("extra") == {}:  # nothing kept: the row reads as before schema 10
        del row["extra"]
    return row


class _Writer:
    """Writes the document a list at a time, one row per line (diff-friendly, streaming)."""

    def __init__(self, out: TextIO, tick: Callable[[], None]) -> None:
        self.out = out
        self.first = True
        self.tick = tick

    def scalar(self, name: str, value: Any) -> None:
        self._key(name)
        self.out.write(_dump(value))

    def rows(self, name: str, rows: Iterator[Any] | list[Any]) -> int:
        self._key(name)
        count = 0
        for row in rows:
            self.out.write("[\n  " if count == 0 else ",\n  ")
            self.out.write(_dump(row))
            count += 1
            if count % 10_000 == 0:
                self.tick()
        self.out.write("\n ]" if count else "[]")
        return count

    def _key(self, name: str) -> None:
        self.out.write("{\n " if self.first else ",\n ")
        self.first = False
        self.out.write(_dump(name) + ": ")

    def close(self) -> None:
        self.out.write("\n}\n")


def export_json(store: GoldSetStore, dest: Path, options: Options) -> ExportReport:
    """Write the whole gold set (with ``options.history``: the history too)."""
    report = ExportReport(dest)
    total = max(1, sum(store.count(t) for t in ("documents", "cases", "retrieved", "answers",
                                                "judgments", "claims", "trajectory_steps")))
    done = 0

    def tick() -> None:
        nonlocal done
        done += 10_000
        if options.cancel is not None and options.cancel():
            raise cancelled()
        if options.progress is not None:
            options.progress(min(done, total), total)

    with atomic_text_writer(dest) as out:
        w = _Writer(out, tick)
        w.scalar("format", FORMAT)
        w.scalar("version", VERSION)
        w.scalar("schema_version", store.schema_version)
        w.scalar("meta", store.export_meta())
        report.counts["assessors"] = w.rows("assessors", store.export_assessors())
        report.counts["identities"] = w.rows("identities", store.export_identities())
        report.counts["documents"] = w.rows("documents", _flat(store, "documents"))
        report.counts["document_files"] = w.rows("document_files", export_files(store))
        report.counts["cases"] = w.rows("cases", _cases(store))
        report.counts["case_reviews"] = w.rows("case_reviews", store.export_case_reviews())
        report.counts["runs"] = w.rows("runs", _flat(store, "runs"))
        report.counts["retrieved"] = w.rows("retrieved", _flat(store, "retrieved"))
        report.counts["answers"] = w.rows("answers", _answers(store))
        report.counts["claims"] = store.count("claims")
        report.counts["answer_reviews"] = w.rows("answer_reviews",
                                                 _flat(store, "answer_reviews"))
        for section, rows in export_sections(store):
            report.counts[section] = w.rows(section, rows)
        report.counts["trajectories"] = w.rows("trajectories", _trajectories(store))
        report.counts["trajectory_steps"] = store.count("trajectory_steps")
        report.counts["trajectory_reviews"] = w.rows("trajectory_reviews",
                                                     _flat(store, "trajectory_reviews"))
        metrics = agent_metrics(store)
        if metrics:
            w.scalar("agent_metrics", metrics)
        assessors = assessor_metrics(store)
        if assessors:  # derived, like agent_metrics (issue 15)
            w.scalar("assessor_metrics", assessors)
        report.counts["judgments"] = w.rows("judgments", _flat(store, "judgments"))
        report.counts["adjudications"] = w.rows("adjudications", _flat(store, "adjudications"))
        report.counts["releases"] = w.rows("releases", store.export_releases())
        for team in native_team.TEAM_SECTIONS:
            report.counts[team] = w.rows(team, native_team.export_rows(store, team))
        report.counts["review_samples"] = w.rows("review_samples",
                                                 native_samples.export_rows(store))
        if options.history:
            report.counts["operations"] = w.rows("history", store.export_history())
        w.close()
        tick()
    return report


def agent_metrics(store: GoldSetStore) -> dict[str, Any]:
    """Run name → its agent metrics (task success, path, violation rate per invariant,
    means, cost per success; overall and per family) for every run holding trajectories.

    Derived from the trajectories and reviews of the same file (each run's ``RunFigures``,
    as the dashboard and ``metrics --json`` show them), for readers that do not recompute
    them; the import ignores this section (it recomputes nothing from it).
    """
    from rag_annotator.reports.render import native_agent_json
    from rag_annotator.reports.run_figures import AGENTS, FigureOptions, build

    only_agents = FigureOptions(parts=frozenset({AGENTS}))
    return {run: native_agent_json(build(store, run, only_agents))
            for run in store.trajectory_run_names()}


def assessor_metrics(store: GoldSetStore) -> dict[str, Any]:
    """The team's figures (``reports.team.store_team_figures``: per assessor judged,
    remaining, median seconds, kappa, self-consistency, outliers; pairwise kappa, alpha), as
    the workbook's Assessors sheet shows them; empty without any assessor.  Derived, never
    imported.  (The top-level ``assessors`` key is the list of assessor rows.)"""
    from rag_annotator.reports.team import store_team_figures

    figures = store_team_figures(store)
    return figures.to_json() if figures.assessors or figures.items else {}


def _flat(store: GoldSetStore, entity: str) -> Iterator[dict[str, Any]]:
    columns, rows = store.entity_rows(entity)
    for row in rows:
        yield _lists(dict(zip(columns, row)))


def _cases(store: GoldSetStore) -> Iterator[dict[str, Any]]:
    sources: dict[str, list[dict[str, Any]]] = {}
    columns, rows = store.entity_rows("expected_sources")
    for row in rows:
        item = dict(zip(columns, row))
        sources.setdefault(item.pop("case"), []).append(item)
    for case in _flat(store, "cases"):
        case["expected_sources"] = sources.get(case["key"], [])
        yield case


def _trajectories(store: GoldSetStore) -> Iterator[dict[str, Any]]:
    steps: dict[int, list[dict[str, Any]]] = {}
    for trajectory_id, position, tool, arguments, result in store.export_trajectory_steps():
        steps.setdefault(trajectory_id, []).append(
            {"position": position, "tool": tool, "arguments": arguments, "result": result})
    for trajectory in store.export_trajectories():
        trajectory_id = trajectory.pop("id")
        _lists(trajectory)
        trajectory["steps"] = steps.get(trajectory_id, [])
        yield trajectory


def _answers(store: GoldSetStore) -> Iterator[dict[str, Any]]:
    citations: dict[int, list[dict[str, Any]]] = {}
    for answer_id, doc, marker, start, end, support, note in store.export_citations():
        citations.setdefault(answer_id, []).append(
            {"document": doc, "marker": marker, "span_start": start, "span_end": end,
             "support": support, "note": note})
    evidence: dict[int, list[dict[str, Any]]] = {}
    for claim_id, doc, start, end in store.export_evidence():
        evidence.setdefault(claim_id, []).append(
            {"document": doc, "span_start": start, "span_end": end})
    verdicts: dict[int, list[dict[str, Any]]] = {}
    for claim_id, assessor, verdict, raw, rationale, at in store.export_judge_verdicts():
        verdicts.setdefault(claim_id, []).append(
            {"assessor": assessor, "verdict": verdict, "raw_label": raw,
             "rationale": rationale, "updated_at": at})
    claims: dict[int, list[dict[str, Any]]] = {}
    for (claim_id, answer_id, position, text, start, end, verdict, rationale, assessor,
         at) in store.export_claims():
        claims.setdefault(answer_id, []).append(
            {"position": position, "text": text, "span_start": start, "span_end": end,
             "verdict": verdict, "rationale": rationale, "assessor": assessor,
             "updated_at": at, "evidence": evidence.get(claim_id, []),
             "judge_verdicts": verdicts.get(claim_id, [])})
    for answer in store.export_answers():
        answer_id = answer.pop("id")
        _lists(answer)
        answer["citations"] = citations.get(answer_id, [])
        answer["claims"] = claims.get(answer_id, [])
        yield answer
