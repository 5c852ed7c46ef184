"""Claim splitter: boundary precision, recall and F1 on the gold set (want F1 >= 0.95).

Usage: ``python tests/bench/bench_splitter.py [--show]``.  The gold set is
``tests/data/claim_split_gold.txt`` (French and English answers written for this project,
with "⟂" at each claim boundary).  A predicted boundary is the gap between two consecutive
claims; it matches a gold boundary that lies inside the gap (spaces and list markers are
left out of claims).  ``--show`` prints every sample with a miss.  Also prints the time to
split the whole set 100 times, and — as a check against boundaries written by someone else —
the same figures on the built-in sample's answers, whose claims its author split by hand
(only answers with at least one claim located in the text; claims the author left out, e.g.
a closing politeness sentence, count as misses).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from rag_annotator.domain.claim_split import split_claims
from rag_annotator.import_export.sample import create_sample
from tests.claim_split_gold import Sample, load, matched, score


def _sample_answers() -> list[Sample]:
    """The sample's answers with the boundaries of the claims its author wrote."""
    with tempfile.TemporaryDirectory() as folder:
        store = create_sample(Path(folder) / "sample.goldset")
        try:
            out = []
            for answer in store.query("SELECT id, text FROM answers ORDER BY id"):
                starts = [r["span_start"] for r in store.query(
                    "SELECT span_start FROM claims WHERE answer_id = ? AND span_start IS NOT "
                    "NULL ORDER BY span_start", (answer["id"],))]
                if starts:
                    out.append(Sample(answer["text"], frozenset(starts[1:]), len(starts)))
            return out
        finally:
            store.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--show", action="store_true", help="print the samples with a miss")
    args = parser.parse_args()
    samples = load()
    result = score(samples, split_claims)
    print(f"samples {result['samples']}, gold claims {result['sentences']}, "
          f"gold boundaries {result['tp'] + result['fn']}")
    print(f"boundary precision {result['precision']:.4f}  recall {result['recall']:.4f}  "
          f"F1 {result['f1']:.4f}  (tp {result['tp']}, fp {result['fp']}, fn {result['fn']})")
    start = time.perf_counter()
    for _ in range(100):
        for sample in samples:
            split_claims(sample.text)
    elapsed = time.perf_counter() - start
    chars = sum(len(s.text) for s in samples) * 100
    print(f"speed: {chars / elapsed / 1e6:.2f} M characters/s")
    sample = score(_sample_answers(), split_claims)
    print(f"built-in sample's answers ({sample['samples']} answers, {sample['sentences']} "
          f"claims): precision {sample['precision']:.4f}  recall {sample['recall']:.4f}  "
          f"F1 {sample['f1']:.4f}")
    if args.show:
        for sample in samples:
            _tp, fp, fn = matched(sample, split_claims(sample.text))
            if fp or fn:
                print("---", repr(sample.text))
                for a, b in split_claims(sample.text):
                    print("   |", sample.text[a:b])


if __name__ == "__main__":
    main()
