"""The figures of a whole gold-set file (not of one run), built once per file and request:
:class:`FileFigures` — the pairs by effective label, the agreement between assessors
(overall, per family, assessor by assessor) and every automatic judge measured on its human
review sample.

They used to be computed by each surface on its own (the Dashboard, ``info --json``, the
workbook) and once more with every run's figures; now :func:`build_file_figures` reads the
store once and every surface renders the one value.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from rag_annotator.metrics.agreement import (
    Agreement,
    AgreementReport,
    JudgmentRow,
    agreement_report,
)
from rag_annotator.metrics.judge_sample import JudgeSample
from rag_annotator.reports.judge_figures import judge_samples, judges_json
from rag_annotator.storage.store import GoldSetStore

_NO_AGREEMENT = AgreementReport(Agreement(0, 0, None, None, None), {})


@dataclass(frozen=True)
class FileFigures:
    """See the module docstring.  ``agreement_counted``: False when the file holds more
    judgments than the caller let be read for the agreement (``agreement_limit``): its
    figures are then left empty, and a surface says where to find them."""

    judgments: Mapping[str, int] = field(default_factory=dict)
    #: cases by family, claims by verdict (``unverified`` included); with ``counts`` only
    families: Mapping[str, int] = field(default_factory=dict)
    claims: Mapping[str, int] = field(default_factory=dict)
    agreement: AgreementReport = _NO_AGREEMENT
    agreement_counted: bool = True
    judges: Mapping[str, Mapping[str, JudgeSample]] = field(default_factory=dict)

    def judges_json(self) -> dict[str, Any]:
        """``metrics --json``'s ``judges``: judge → level → its measures."""
        return judges_json(self.judges)


def build_file_figures(store: GoldSetStore, level: float = 0.95, *,
                       agreement_limit: int | None = None, judges: bool = True,
                       counts: bool = True) -> FileFigures:
    """Read the file-wide figures of ``store`` (``agreement_limit``: above this many
    judgments the agreement is not counted; ``judges``: measure the automatic judges;
    ``counts``: count the pairs by effective label — the Dashboard has them already from
    the judging progress, kept up to date pair by pair)."""
    counted = agreement_limit is None or store.count("judgments") <= agreement_limit
    return FileFigures(
        judgments=store.judgment_counts() if counts else {},
        families=store.family_counts() if counts else {},
        claims=store.claim_counts() if counts else {},
        agreement=(agreement_report(JudgmentRow(*r) for r in store.judgment_rows())
                   if counted else _NO_AGREEMENT),
        agreement_counted=counted,
        judges=judge_samples(store, level) if judges else {})
