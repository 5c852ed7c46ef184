"""The text ``metrics`` prints without ``--json``: a rendering of
:class:`~rag_annotator.reports.run_figures.RunFigures` for a person at a terminal (per case
and mean, answers, diagnosis, latency, agents, comparison, pairs to judge next), each
proportion and mean followed by its interval in brackets (issue 16)."""

from __future__ import annotations

from typing import Any

from rag_annotator.metrics.values import Reading
from rag_annotator.reports.intervals_json import agents_json, answers_json, ci
from rag_annotator.reports.run_figures import RunFigures


def metrics_text(figures: RunFigures) -> list[str]:
    """The lines ``metrics FILE --run NAME`` prints."""
    agents = figures.agents
    agents_data = agents.to_json()
    agents_json(agents_data, figures.intervals)
    if not figures.report.per_query and agents.has_data:  # an agent run: no retrieved list
        return [f"run {figures.run}: agent trajectories only (no retrieved documents, no "
                "answers): retrieval and answer metrics do not apply",
                *_agents_lines(agents_data)]
    lines = _retrieval_lines(figures)
    lines.append("")
    answers = figures.answers.to_json()
    answers_json(answers, figures.intervals)
    lines += _answers_lines(answers)
    lines += _enough_lines(figures)
    lines += _diagnosis_lines(figures.diagnosis.to_json())
    lines += _exposure_lines(figures)
    if figures.latency.has_data:
        lines.append(_latency_line(figures.latency.to_json(),
                                   ci(figures.intervals.latency.get("share_under_target"))))
    if agents.has_data:
        lines += _agents_lines(agents_data)
    if figures.comparison is not None:
        lines += _compare_lines(figures.comparison.to_json())
        lines += _significance_lines(figures)
    if figures.options.next_count:
        lines.append("judge next (settles = values undetermined under strict that the label "
                     "decides, whatever it is):")
        for s in figures.next_pairs:
            what = ", ".join(m for _run, m in s.values) or "narrows only"
            lines.append(f"  {s.case_key}  {s.document_key}  settles {s.settles} ({what})")
        if not figures.next_pairs:
            lines.append("  nothing: no value is undetermined")
    return lines


def _retrieval_lines(figures: RunFigures) -> list[str]:
    report = figures.report
    names = list(report.measures)
    level = _level(figures)
    width = max([len("case"), len(f"{level} high"), *(len(q) for q in report.readings)])
    lines = [f"run {figures.run}, unjudged documents: {figures.policy.value}; documents "
             "outside a case's pool count as not relevant",
             *(["by document: each document at the rank of its best passage, relevant when "
                "one of its judged passages is, not relevant when judged passages are and "
                "none is, unjudged when none is judged"] if figures.options.by_document
               else []),
             "  ".join([f"{'case':<{width}}", *(f"{n:>9}" for n in names)])]
    for qid, readings in report.readings.items():
        lines.append("  ".join([f"{qid:<{width}}",
                                *(_reading_cell(readings[n]) for n in names)]))
    lines.append("  ".join([f"{'mean':<{width}}", *(_cell(report.mean[n]) for n in names)]))
    overall = figures.intervals.retrieval.get(None, {})
    for label, side in ((f"{level} low", 0), (f"{level} high", 1)):
        lines.append("  ".join([f"{label:<{width}}", *(
            _cell(None if (i := overall.get(n)) is None else i.to_json()[side])
            for n in names)]))
    lines.append("  ".join([f"{'cases':<{width}}",
                            *(f"{report.mean_count[n]:>9}" for n in names)]))
    lines.append(report.topic_note())
    if figures.policy.value == "strict":
        lines.append("'?' = undetermined: depends on documents still unjudged; '-' = not "
                     "defined (zero denominator)")
    return lines


def _level(figures: RunFigures) -> str:
    """The intervals' level in percent (``95%``, ``99.5%``)."""
    return f"{figures.intervals.level * 100:g}%"


def _pct(value: object) -> str:
    return "not computable" if not isinstance(value, (int, float)) else f"{value:.1%}"


def _range(interval: object) -> str:
    """`` [low–high]`` of a ``[low, high]`` range in percent, or nothing."""
    if not isinstance(interval, list):
        return ""
    return f" [{interval[0]:.1%}–{interval[1]:.1%}]"


def _mean_range(interval: object, spec: str) -> str:
    if not isinstance(interval, list):
        return ""
    return f" [{format(interval[0], spec)}–{format(interval[1], spec)}]"


def _answers_lines(data: dict[str, Any]) -> list[str]:
    lines = ["answers (cases expecting an answer, reviewed): tested / produced / validated, "
             "quality = validated/produced, coverage = produced/tested, success = "
             "validated/tested"]
    groups = [*data["per_family"].items(), ("overall", data["overall"])]
    width = max(len(name) for name, _ in groups)
    for name, g in groups:
        lines.append(f"  {name:<{width}}  {g['tested']:>4} / {g['produced']:>4} / "
                     f"{g['validated']:>4}  quality {_pct(g['quality'])}"
                     f"{_range(g['quality_ci'])}, coverage {_pct(g['coverage'])}"
                     f"{_range(g['coverage_ci'])}, success {_pct(g['success'])}"
                     f"{_range(g['success_ci'])}"
                     + (f"; {g['unreviewed']} unreviewed" if g["unreviewed"] else ""))
    abst = data["abstention"]
    lines.append(f"  abstention expected: {abst['correct']} correct of {abst['reviewed']} "
                 f"reviewed ({_pct(abst['rate'])}{_range(data['abstention_ci'])}), "
                 f"{abst['expected']} expected")
    lines.append(f"  faithfulness mean {_pct(data['faithfulness_mean'])}"
                 f"{_range(data['faithfulness_mean_ci'])} over "
                 f"{data['faithfulness_answers']} answers; contradicted "
                 f"{_pct(data['contradicted_share'])}{_range(data['contradicted_share_ci'])}, "
                 f"unsupported {_pct(data['unsupported_share'])}"
                 f"{_range(data['unsupported_share_ci'])} of {data['claims']['verified']} "
                 f"verified claims; must-contain recall {_pct(data['must_contain_recall'])}"
                 f"{_range(data['must_contain_recall_ci'])}")
    return lines


def _trial_lines(trials: dict[str, Any]) -> list[str]:
    """Success per trial and pass^k, when some case has several trials."""
    pass_k = trials.get("pass_k") or {}
    if len(pass_k) < 2:
        return []
    per_trial = ", ".join(f"{t}: {_pct(v['success_rate'])} ({v['successes']}/{v['decided']})"
                          for t, v in trials["per_trial"].items())
    ks = ", ".join(f"k={k} {v['value']:.4f} (over {v['cases']})" for k, v in pass_k.items())
    lines = [f"  success rate per trial  {per_trial}", f"  pass^k  {ks}"]
    if trials.get("cases_with_undecided_trials"):
        lines.append(f"  ({trials['cases_with_undecided_trials']} cases with an undecided "
                     "trial are out of pass^k)")
    return lines


def _agents_lines(data: dict[str, Any]) -> list[str]:
    def num(value: object, spec: str) -> str:
        return "-" if not isinstance(value, (int, float)) else format(value, spec)

    lines = [f"agents ({data['trajectories']} trajectories; review marks override the "
             "automatic checks; undecided verdicts are out of the rates)"
             + (f"; left out: {data['retired_excluded']} of retired cases"
                if data["retired_excluded"] else "")]
    groups = [*data["per_family"].items(), ("overall", data["overall"])]
    width = max(len(name) for name, _ in groups)
    for name, g in groups:
        success, path = g["task_success"], g["path_acceptable"]
        lines.append(
            f"  {name:<{width}}  {g['trajectories']:>4} trajectories  task success "
            f"{_pct(success['rate'])} ({success['successes']}/"
            f"{success['successes'] + success['failures']}"
            + (f", {success['undecided']} undecided" if success["undecided"] else "")
            + f"){_range(g['task_success_ci'])}, path acceptable {_pct(path['rate'])} "
            f"({path['acceptable']}/{path['acceptable'] + path['not_acceptable']}"
            + (f", {path['undecided']} undecided" if path["undecided"] else "")
            + f"){_range(g['path_acceptable_ci'])}, both {_pct(g['both']['rate'])}"
            f"{_range(g['both_ci'])}")
    o = data["overall"]
    lines.append(f"  mean steps {num(o['mean_steps'], '.2f')}"
                 f"{_mean_range(o['mean_steps_ci'], '.2f')}, mean tokens "
                 f"{num(o['mean_tokens'], '.0f')}{_mean_range(o['mean_tokens_ci'], '.0f')} "
                 f"(over {o['tokens_trajectories']}), mean seconds "
                 f"{num(o['mean_seconds'], '.2f')}{_mean_range(o['mean_seconds_ci'], '.2f')} "
                 f"(over {o['seconds_trajectories']});"
                 f" total cost {num(o['total_cost'], '.4f')} (over {o['cost_trajectories']}),"
                 f" cost per successful task "
                 + ("not computable" if o["cost_per_success"] is None
                    else f"{o['cost_per_success']:.4f}"))
    lines += _trial_lines(data.get("trials") or {})
    lines.append(f"  overruled by a review: task success {o['overruled']['task_success']}, "
                 f"path {o['overruled']['path_acceptable']} (of {o['reviewed']} reviewed)")
    if o["violations"]:
        lines.append("  violation rate per invariant (broken / checked; unknown left out):")
        code_width = max(len(code) for code in o["violations"])
        for code, v in o["violations"].items():
            lines.append(f"    {code:<{code_width}}  {_pct(v['rate'])}  ({v['broken']}/"
                         f"{v['checked']}" + (f", {v['unknown']} unknown" if v["unknown"]
                                              else "") + ")"
                         + _range(o["violations_ci"].get(code)))
    return lines


def _diagnosis_lines(data: dict[str, Any]) -> list[str]:
    lines = [f"diagnosis (top {data['depth']}): {data['failing']} of {data['cases']} cases "
             "fail somewhere"]
    for kind, value in data["overall"].items():
        if value["cases"]:
            lines.append(f"  {kind:<10} {value['cases']:>5} cases; first action: "
                         f"{value['action']}")
    return lines


def _exposure_lines(figures: RunFigures) -> list[str]:
    """Out-of-scope exposure per identity (a critical count, apart from quality) and the
    three outcomes."""
    exposure, outcomes = figures.rights.exposure, figures.rights.outcomes
    if not exposure.checked:
        return []
    lines = [f"exposure (critical, never averaged into quality): {exposure.total}"]
    for who, row in exposure.per_identity().items():
        lines.append(f"  {who} ({', '.join(row['groups']) or 'no group'}): retrieved "
                     f"{row['retrieved']['count']}, context {row['context']['count']}, cited "
                     f"{row['cited']['count']} in {len(row['cases'])} of {row['checked']} "
                     "case(s)")
    lines.append(f"  outcomes: wrong answer {len(outcomes.wrong_answer)}, missing evidence "
                 f"{len(outcomes.missing_evidence)}, out-of-scope exposure "
                 f"{len(outcomes.exposure)} case(s)")
    return lines


def _latency_line(data: dict[str, Any], share_ci: list[float] | None = None) -> str:
    def ms(value: object) -> str:
        return "-" if not isinstance(value, (int, float)) else f"{value:.0f} ms"
    cost = data["cost_per_validated"]
    return (f"latency over {data['timed']} answers: median {ms(data['median_ms'])}, p90 "
            f"{ms(data['p90_ms'])}, {_pct(data['share_under_target'])}"
            f"{_range(share_ci if data['share_under_target'] is not None else None)} under "
            f"{data['target_ms']} ms; cost per validated answer "
            + ("not computable" if cost is None else f"{cost:.4f}"))


def _compare_lines(data: dict[str, Any]) -> list[str]:
    scope = f", family {data['family']}" if data["family"] else ""
    lines = [f"{data['run']} against {data['other']} ({data['unjudged']}{scope}): "
             "wins / losses / ties / not comparable, mean difference"]
    for m, c in data["by_measure"].items():
        delta = "-" if c["delta"] is None else f"{c['delta']:+.4f}"
        lines.append(f"  {m:<10} {c['wins']:>4} / {c['losses']:>4} / {c['ties']:>4} / "
                     f"{c['not_comparable']:>4}  {delta}")
    if data["only_run"] or data["only_other"]:
        lines.append(f"  cases only in {data['run']}: {len(data['only_run'])}, only in "
                     f"{data['other']}: {len(data['only_other'])}")
    return lines


def _enough_lines(figures: RunFigures) -> list[str]:
    """Per family: each figure's half-width today and how many more cases bring it under
    the target (seed 003's "how many questions are needed?")."""
    intervals = figures.intervals
    target = intervals.settings.target
    lines = [f"how many cases are enough (half-width at {_level(figures)} today -> more "
             f"cases for ±{target * 100:g} points; ? = cannot be told yet):"]
    families = sorted(intervals.enough, key=lambda f: (f is not None, f or ""))
    for family in families:
        found = intervals.enough[family]
        cells = [f"{name} ±{e.half_width * 100:.1f} -> "
                 + ("?" if e.more is None else f"+{e.more}")
                 for name, e in found.items() if e.n and e.half_width is not None]
        if cells:
            lines.append(f"  {'overall' if family is None else family}: " + ", ".join(cells))
    return lines if len(lines) > 1 else []


def _significance_lines(figures: RunFigures) -> list[str]:
    """The paired comparison: mean difference [range], p (t, randomization, Holm), verdict."""
    if not figures.significance:
        return []
    level = _level(figures)
    lines = [f"  paired: mean difference [{level} range], p t-test / randomization / Holm "
             "(over the randomization p), verdict"]
    for m, r in figures.significance.items():
        diff = "-" if r.mean_diff is None else f"{r.mean_diff:+.4f}"
        p = " / ".join("-" if v is None else f"{v:.4f}"
                       for v in (r.p_t, r.p_randomization, r.p_holm))
        lines.append(f"  {m:<10} {diff}{_mean_range(ci(r.mean_diff_ci), '+.4f')}  p {p}  "
                     f"{r.verdict}")
    return lines


def _reading_cell(reading: Reading) -> str:
    if reading.status == "undetermined":
        return f"{'?':>9}"
    return _cell(reading.value)


def _cell(value: float | None) -> str:
    return f"{value:>9.4f}" if value is not None else f"{'-':>9}"
