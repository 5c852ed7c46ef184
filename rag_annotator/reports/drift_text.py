"""The text ``metrics FILE --drift`` prints: a rendering of
:class:`~rag_annotator.metrics.drift.Drift` for a person at a terminal (each run with its
version fields and overall headline figures with their ranges and changes, then the
regressions with what changed and the cases that flipped)."""

from __future__ import annotations

from rag_annotator.metrics.drift import OVERALL, VERSION_FIELDS, Drift, DriftRow

#: Characters of a run's notes shown (the JSON has them whole).
NOTES_WIDTH = 60


def _figure(name: str, value: float | None, low_high: list[float] | None) -> str:
    if value is None:
        return f"{name} not computable"
    spread = "" if low_high is None else f" [{low_high[0]:.3f}–{low_high[1]:.3f}]"
    return f"{name} {value:.3f}{spread}"


def _delta(value: float | None) -> str:
    return "-" if value is None else f"{value:+.3f}"


def _row_lines(row: DriftRow, baseline: str | None) -> list[str]:
    version = row.point.version
    lines = [f"{version.name}  ({version.created_at})"]
    for name in VERSION_FIELDS:
        value = version.fields.get(name, "")
        if len(value) > NOTES_WIDTH:
            value = value[:NOTES_WIDTH - 1] + "…"
        lines.append(f"    {name}: {value or '-'}")
    previous = row.from_previous.get(OVERALL, {})
    from_base = row.from_baseline.get(OVERALL, {})
    for name, h in row.point.headlines.get(OVERALL, {}).items():
        change = ""
        if previous.get(name) is not None:
            change += f"; vs previous {_delta(previous[name])}"
        if from_base.get(name) is not None:
            change += f"; vs {baseline} {_delta(from_base[name])}"
        ci = None if h.interval is None else h.interval.to_json()
        lines.append(f"    {_figure(name, h.value, ci)} (n={h.n}){change}")
    for r in row.regressions:
        lines.append(f"    REGRESSION {r.measure} against {r.against}: "
                     f"{_delta(r.result.mean_diff)} (Holm p {r.result.p_holm:.4f}, "
                     f"{r.result.n} cases)")
        changed = ", ".join(f"{f}: {b or '-'} -> {a or '-'}"[:NOTES_WIDTH * 2]
                            for f, (b, a) in r.changed_fields.items())
        lines.append(f"      changed: {changed or 'no version field'}")
        if r.flipped_validated:
            lines.append(f"      validated -> not validated: {', '.join(r.flipped_validated)}")
        if r.lost_relevant:
            lines.append(f"      relevant found -> lost: {', '.join(r.lost_relevant)}")
    return lines


def drift_text(drift: Drift) -> list[str]:
    """The lines of ``metrics FILE --drift`` (overall figures; ``--json`` has every
    family)."""
    if not drift.rows:
        return ["no run: nothing to compare"]
    lines = [f"drift: {len(drift.rows)} runs in the order made; changes from the previous "
             f"run and from {drift.baseline}; ranges at {drift.level * 100:g}%; regressions = "
             "significantly worse (paired randomization test, Holm)"]
    for row in drift.rows:
        lines += _row_lines(row, drift.baseline)
    if not drift.regressions:
        lines.append("no significant regression")
    return lines
