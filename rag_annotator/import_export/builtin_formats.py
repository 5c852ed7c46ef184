"""The registry's entries for the TREC, JSONL-run and Ragas-run formats (adapters only)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from rag_annotator.domain.ports import Store
from rag_annotator.errors import KnownError
from rag_annotator.import_export import runs_jsonl, trec
from rag_annotator.import_export.registry import Options


def import_trec_run(store: Store, source: Path, options: Options) -> trec.ImportReport:
    """A TREC run (qid Q0 docno rank score tag) as a new run."""
    return trec.import_run(store, source, name=options.run, strict=options.strict)


def import_qrels(store: Store, source: Path, options: Options) -> trec.ImportReport:
    """TREC qrels as one assessor's judgments (default assessor: ``qrels``)."""
    assessor = trec.check_assessor(options.assessor or "qrels")
    return trec.import_qrels(store, source, assessor=assessor, strict=options.strict)


def import_jsonl_run(store: Store, source: Path, options: Options) -> trec.ImportReport:
    """One JSON object per case: case, retrieved, optional answer, citations, contexts."""
    return runs_jsonl.import_jsonl_run(store, source, name=options.run, strict=options.strict)


def import_ragas_run(store: Store, source: Path, options: Options) -> trec.ImportReport:
    """Ragas JSONL (user_input, retrieved_contexts, response) as a run."""
    return runs_jsonl.import_ragas(store, source, name=options.run)


@dataclass
class LinesWritten:
    """An export report for single-file line formats."""

    path: Path
    lines: int
    warnings: list[str] = field(default_factory=list)

    def summary(self) -> str:
        return f"{self.lines} lines written"


def export_trec_run(store: trec.RelevanceSource, dest: Path, options: Options) -> LinesWritten:
    """One run, strictly decreasing scores."""
    if not options.run:
        raise KnownError("trec-run export needs --run NAME (see 'info' for the runs).")
    report = trec.export_run(store, options.run, dest)
    return LinesWritten(report.path, report.lines, report.warnings)


def export_qrels(store: trec.RelevanceSource, dest: Path, options: Options) -> LinesWritten:
    """The effective labels of judged pairs."""
    report = trec.export_qrels(store, dest)
    return LinesWritten(report.path, report.lines, report.warnings)
