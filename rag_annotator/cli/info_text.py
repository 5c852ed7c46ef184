"""``info``'s text in the reader's language: the gold set's counts as a short aligned table.

The labels ("cases", "judgments"…) are translated and padded to the widest one, so the
columns stay aligned in every language; family names, run names and the agreement
measures' names (percent, kappa, alpha) are the file's or the field's own words."""

from __future__ import annotations

from typing import Any

from rag_annotator.messages import N_, Message, Plural, render

_LABELS = (N_("cases"), N_("documents"), N_("runs"), N_("judgments"), N_("claims"),
           N_("agreement"))


def info_lines(info: dict[str, Any]) -> list[str]:
    """The lines ``info`` prints (``info`` is :func:`rag_annotator.cli.info_dict`'s)."""
    labels = {label: Message(label).render() for label in _LABELS}
    width = max(len(text) for text in labels.values())

    def row(label: str, value: object) -> str:
        return f"  {labels[label]:<{width}}  {value}"

    j, c = info["judgments"], info["claims"]
    runs = [Plural("{run} ({n} case)", "{run} ({n} cases)", n, run=k).render()
            for k, n in info["runs"].items()]
    lines = [
        Message("{file}: {name} (schema {version})", file=info["file"], name=info["name"],
                version=info["schema_version"]).render(),
        row("cases", f"{info['cases']}  " + "  ".join(
            f"{k} {v}" for k, v in info["families"].items() if v)),
        row("documents", f"{info['documents']}  " + "  ".join(  # by kind: pdf 3  docx 2
            f"{kind} {n}" for kind, n in info.get("documents_by_kind", {}).items()
            if kind != "none" and n)),
        row("runs", ", ".join(runs) or Message("none").render()),
        row("judgments", Message(
            "relevant {relevant}, not relevant {not_relevant}, unjudged {unjudged} (of which "
            "disputed {disputed})", **{k: j[k] for k in ("relevant", "not_relevant",
                                                         "unjudged", "disputed")}).render()),
        row("claims", Message(
            "supported {supported}, not supported {not_supported}, contradicted "
            "{contradicted}, unverified {unverified}",
            **{k: c[k] for k in ("supported", "not_supported", "contradicted",
                                 "unverified")}).render()),
    ]
    agreement = info["agreement"]
    if agreement["units"]:
        figures = [f"{key} {_figure(agreement[key], '.1f' if key == 'percent' else '.3f')}"
                   + (" %" if key == "percent" and agreement[key] is not None else "")
                   for key in ("percent", "kappa", "alpha")
                   if key != "kappa" or agreement["assessors"] == 2]
        lines.append(row("agreement", Plural(
            "{assessors} assessors, {n} pair judged by two or more: {figures}",
            "{assessors} assessors, {n} pairs judged by two or more: {figures}",
            agreement["units"], assessors=agreement["assessors"],
            figures=", ".join(figures)).render()))
    return lines


def _figure(value: object, spec: str) -> str:
    """A measure written per locale (``0,812`` in French); "not defined" in words."""
    if not isinstance(value, (int, float)):
        return Message("not defined").render()
    return render("{value:" + spec + "}", {"value": value})  # not an id: no text to translate
