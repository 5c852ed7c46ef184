"""The registry's entries for the TREC, JSONL-run and Ragas-run formats (adapters only)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from rag_annotator.domain.ports import Store
from rag_annotator.errors import KnownError
from rag_annotator.import_export import runs_jsonl, trec_files
from rag_annotator.import_export.registry import Options
from rag_annotator.messages import Message


def import_trec_run(store: Store, source: Path, options: Options) -> trec_files.ImportReport:
    """A TREC run (qid Q0 docno rank score tag) as a new run."""
    return trec_files.import_run(store, source, name=options.run, strict=options.strict,
                                 cancel=options.cancel, progress=options.progress)


def import_qrels(store: Store, source: Path, options: Options) -> trec_files.ImportReport:
    """TREC qrels as one assessor's judgments (default assessor: ``qrels``)."""
    assessor = trec_files.check_assessor(options.assessor or "qrels")
    return trec_files.import_qrels(store, source, assessor=assessor, strict=options.strict,
                                   cancel=options.cancel)


def import_jsonl_run(store: Store, source: Path, options: Options) -> trec_files.ImportReport:
    """One JSON object per case: case, retrieved, optional answer, citations, contexts."""
    return runs_jsonl.import_jsonl_run(store, source, name=options.run, strict=options.strict,
                                       cancel=options.cancel)


@dataclass
class LinesWritten:
    """An export report for single-file line formats."""

    path: Path
    lines: int
    warnings: list[str] = field(default_factory=list)

    def summary(self) -> str:
        return Message("{lines} lines written", lines=self.lines)


def export_trec_run(store: trec_files.RelevanceSource, dest: Path,
                    options: Options) -> LinesWritten:
    """One run, strictly decreasing scores."""
    if not options.run:
        raise KnownError("trec-run export needs --run NAME (see 'info' for the runs).")
    report = trec_files.export_run(store, options.run, dest)
    return LinesWritten(report.path, report.lines, report.warnings)


def export_qrels(store: trec_files.RelevanceSource, dest: Path, options: Options) -> LinesWritten:
    """The effective labels of judged pairs; with ``--pending``, the pairs still to judge
    (label -1; in an assignment file, its expert's remaining pairs in their order)."""
    if options.pending:
        from rag_annotator.import_export.team_files import export_pending
        from rag_annotator.storage.store import GoldSetStore

        if not isinstance(store, GoldSetStore):
            raise KnownError("--pending needs a gold-set file.")
        return LinesWritten(dest, export_pending(store, dest))
    report = trec_files.export_qrels(store, dest)
    return LinesWritten(report.path, report.lines, report.warnings)
