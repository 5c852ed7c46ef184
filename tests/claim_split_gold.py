"""The gold claim boundaries of ``tests/data/claim_split_gold.txt`` and how they are scored
(shared by ``tests/test_claim_split.py`` and ``tests/bench/bench_splitter.py``)."""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from pathlib import Path

GOLD_FILE = Path(__file__).parent / "data" / "claim_split_gold.txt"
MARK = "⟂"


@dataclass(frozen=True)
class Sample:
    """One answer text and the offsets where its claims 2..n start."""

    text: str
    boundaries: frozenset[int]
    claims: int


def load(path: Path = GOLD_FILE) -> list[Sample]:
    """Every sample of the gold file."""
    blocks = path.read_text(encoding="utf-8").split("\n====\n")[1:]
    samples = []
    for block in blocks:
        raw = block.strip("\n")
        text, boundaries = "", set()
        for i, piece in enumerate(raw.split(MARK)):
            if i:
                k = len(text)
                while k < len(text) + len(piece) and (text + piece)[k].isspace():
                    k += 1
                boundaries.add(k)
            text += piece
        samples.append(Sample(text, frozenset(boundaries), len(boundaries) + 1))
    return samples


def predicted_gaps(spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The gaps between consecutive predicted claims: (end of one, start of the next).

    A gold boundary (where the next claim's words start) matches a predicted gap when it
    lies inside it, so spaces and list markers ("- ", "2) ") left out of a claim do not
    count against the splitter.
    """
    return [(a[1], b[0]) for a, b in itertools.pairwise(spans)]


def matched(sample: Sample, spans: list[tuple[int, int]]) -> tuple[int, int, int]:
    """(true positives, false positives, false negatives) of one sample."""
    gaps = predicted_gaps(spans)
    gold = set(sample.boundaries)
    tp = 0
    for low, high in gaps:
        hit = next((g for g in sorted(gold) if low <= g <= high), None)
        if hit is not None:
            gold.discard(hit)
            tp += 1
    return tp, len(gaps) - tp, len(gold)


def score(samples: list[Sample], split) -> dict[str, float]:  # type: ignore[no-untyped-def]
    """Boundary precision, recall and F1 over all samples (micro-averaged), plus counts."""
    tp = fp = fn = 0
    for sample in samples:
        t, p, n = matched(sample, split(sample.text))
        tp, fp, fn = tp + t, fp + p, fn + n
    precision = tp / (tp + fp) if tp + fp else 1.0
    recall = tp / (tp + fn) if tp + fn else 1.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return {"precision": precision, "recall": recall, "f1": f1, "tp": tp, "fp": fp, "fn": fn,
            "samples": len(samples),
            "sentences": sum(s.claims for s in samples)}
