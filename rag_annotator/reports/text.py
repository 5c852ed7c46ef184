"""The text ``metrics`` prints without ``--json``: a rendering of
:class:`~rag_annotator.reports.run_figures.RunFigures` for a person at a terminal (per case
and mean, answers, diagnosis, latency, agents, comparison, pairs to judge next)."""

from __future__ import annotations

from typing import Any

from rag_annotator.metrics.values import Reading
from rag_annotator.reports.run_figures import RunFigures


def metrics_text(figures: RunFigures) -> list[str]:
    """The lines ``metrics FILE --run NAME`` prints."""
    agents = figures.agents
    if not figures.report.per_query and agents.has_data:  # an agent run: no retrieved list
        return [f"run {figures.run}: agent trajectories only (no retrieved documents, no "
                "answers): retrieval and answer metrics do not apply",
                *_agents_lines(agents.to_json())]
    lines = _retrieval_lines(figures)
    lines.append("")
    lines += _answers_lines(figures.answers.to_json())
    lines += _diagnosis_lines(figures.diagnosis.to_json())
    if figures.latency.has_data:
        lines.append(_latency_line(figures.latency.to_json()))
    if agents.has_data:
        lines += _agents_lines(agents.to_json())
    if figures.comparison is not None:
        lines += _compare_lines(figures.comparison.to_json())
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
    width = max([len("case"), *(len(q) for q in report.readings)])
    lines = [f"run {figures.run}, unjudged documents: {figures.policy.value}; documents "
             "outside a case's pool count as not relevant",
             "  ".join([f"{'case':<{width}}", *(f"{n:>9}" for n in names)])]
    for qid, readings in report.readings.items():
        lines.append("  ".join([f"{qid:<{width}}",
                                *(_reading_cell(readings[n]) for n in names)]))
    lines.append("  ".join([f"{'mean':<{width}}", *(_cell(report.mean[n]) for n in names)]))
    lines.append("  ".join([f"{'cases':<{width}}",
                            *(f"{report.mean_count[n]:>9}" for n in names)]))
    if figures.policy.value == "strict":
        lines.append("'?' = undetermined: depends on documents still unjudged; '-' = not "
                     "defined (zero denominator)")
    return lines


def _pct(value: object) -> str:
    return "not computable" if not isinstance(value, (int, float)) else f"{value:.1%}"


def _answers_lines(data: dict[str, Any]) -> list[str]:
    lines = ["answers (cases expecting an answer, reviewed): tested / produced / validated, "
             "quality = validated/produced, coverage = produced/tested, success = "
             "validated/tested"]
    groups = [*data["per_family"].items(), ("overall", data["overall"])]
    width = max(len(name) for name, _ in groups)
    for name, g in groups:
        lines.append(f"  {name:<{width}}  {g['tested']:>4} / {g['produced']:>4} / "
                     f"{g['validated']:>4}  quality {_pct(g['quality'])}, coverage "
                     f"{_pct(g['coverage'])}, success {_pct(g['success'])}"
                     + (f"; {g['unreviewed']} unreviewed" if g["unreviewed"] else ""))
    abst = data["abstention"]
    lines.append(f"  abstention expected: {abst['correct']} correct of {abst['reviewed']} "
                 f"reviewed ({_pct(abst['rate'])}), {abst['expected']} expected")
    lines.append(f"  faithfulness mean {_pct(data['faithfulness_mean'])} over "
                 f"{data['faithfulness_answers']} answers; contradicted "
                 f"{_pct(data['contradicted_share'])}, unsupported "
                 f"{_pct(data['unsupported_share'])} of {data['claims']['verified']} verified "
                 f"claims; must-contain recall {_pct(data['must_contain_recall'])}")
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
            + f"), path acceptable {_pct(path['rate'])} ({path['acceptable']}/"
            f"{path['acceptable'] + path['not_acceptable']}"
            + (f", {path['undecided']} undecided" if path["undecided"] else "")
            + f"), both {_pct(g['both']['rate'])}")
    o = data["overall"]
    lines.append(f"  mean steps {num(o['mean_steps'], '.2f')}, mean tokens "
                 f"{num(o['mean_tokens'], '.0f')} (over {o['tokens_trajectories']}), mean "
                 f"seconds {num(o['mean_seconds'], '.2f')} (over {o['seconds_trajectories']});"
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
                                              else "") + ")")
    return lines


def _diagnosis_lines(data: dict[str, Any]) -> list[str]:
    lines = [f"diagnosis (top {data['depth']}): {data['failing']} of {data['cases']} cases "
             "fail somewhere"]
    for kind, value in data["overall"].items():
        if value["cases"]:
            lines.append(f"  {kind:<10} {value['cases']:>5} cases; first action: "
                         f"{value['action']}")
    return lines


def _latency_line(data: dict[str, Any]) -> str:
    def ms(value: object) -> str:
        return "-" if not isinstance(value, (int, float)) else f"{value:.0f} ms"
    cost = data["cost_per_validated"]
    return (f"latency over {data['timed']} answers: median {ms(data['median_ms'])}, p90 "
            f"{ms(data['p90_ms'])}, {_pct(data['share_under_target'])} under "
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


def _reading_cell(reading: Reading) -> str:
    if reading.status == "undetermined":
        return f"{'?':>9}"
    return _cell(reading.value)


def _cell(value: float | None) -> str:
    return f"{value:>9.4f}" if value is not None else f"{'-':>9}"
