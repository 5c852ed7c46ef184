"""The command line (DESIGN section 6): a stable contract that users and tests script against.

``rag-annotator [FILE] [--assessor NAME]`` opens the desktop app; the sub-commands work
headless on the same store and domain operations.  A known error prints one line on stderr
(``error: FILE: what is wrong; what to do``) and exits with status 2; ``check`` exits with 1
when it finds problems.  Qt is imported only when the desktop app is started.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import json
import os
import sqlite3
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rag_annotator import __version__
from rag_annotator.cli.figures import add_metric_options, check_run_given, cmd_drift
from rag_annotator.cli.language import take_language
from rag_annotator.cli.progress import Progress, add_verbose, say_check
from rag_annotator.errors import InvalidValue, KnownError
from rag_annotator.import_export import registry
from rag_annotator.messages import Message, Plural, render_any
from rag_annotator.metrics import DEFAULT_MEASURES
from rag_annotator.storage.schema import SCHEMA_VERSION
from rag_annotator.storage.store import GoldSetStore

if TYPE_CHECKING:
    from rag_annotator.reports.run_figures import FigureOptions

#: Modules of ``rag_annotator.cli`` that add commands of their own: each defines
#: ``add_parsers(sub)`` and ``HANDLERS`` (command name -> handler of the parsed arguments).
#: One module per topic keeps this file the dispatcher, not the home of every command.
_COMMAND_MODULES: tuple[str, ...] = (
    "rag_annotator.cli.rights",
    "rag_annotator.cli.structured",
    "rag_annotator.cli.team",
    "rag_annotator.cli.sampling",
)
IMPORT_FORMATS = tuple(registry.IMPORTS)
EXPORT_FORMATS = tuple(registry.EXPORTS)
EXIT_PROBLEMS = 1
EXIT_ERROR = 2
#: 128 + SIGPIPE, what a shell reports for a command whose reader closed the pipe.
EXIT_BROKEN_PIPE = 141

_DESCRIPTION = """\
Build, judge and verify the gold set a RAG system is evaluated against.

  rag-annotator [FILE] [--assessor NAME]   open the desktop app on FILE
                                           (else the last file, else the built-in sample)
  rag-annotator new FILE [--sample]        create a gold-set file, empty or holding the sample
  rag-annotator info FILE [--json]         counts by entity and state, schema version
  rag-annotator check FILE                 integrity, schema and cross-reference checks
                                           (exit 1 on problems)
  rag-annotator import FILE [FORMAT] SOURCE [--run NAME] [--assessor NAME] [--strict]
                                           bring a run (trec-run, jsonl-run, ragas) or
                                           judgments (qrels) in; agent trajectories
                                           (trajectories, openai-trajectories, tau-bench);
                                           a RAGChecker file as a run (ragchecker-run)
  rag-annotator export FILE FORMAT DEST [--run NAME]
                                           write a run (trec-run) or the labels (qrels)
  rag-annotator metrics FILE --run NAME [--measures LIST] [--unjudged trec|judged-only|strict]
                [--json] [--compare OTHER_RUN [--family F]] [--target-ms N] [--next N]
                [--level L] [--resamples N] [--seed N] [--target-half-width W]
                [--all-judged] [--relevance-level N] [--by-document]
                                           retrieval measures of a run, per case and mean;
                                           answer metrics, diagnosis, latency; intervals
  rag-annotator metrics FILE --drift [--baseline RUN] [--json]
                                           every run in order, regressions and their causes
  rag-annotator merge FILE OTHER_FILE      bring in another expert's judgments and verdicts
  rag-annotator rights FILE [--identity I --remove-group G [--apply]] [--json]
                                           test identities, exposures; replay a rights change
  rag-annotator assign FILE --assessors A,B,C --per-pair K [--control X] [--seed N] --out DIR
                                           one assignment file per expert (judging as a team)
  rag-annotator collect FILE SOURCE...     bring assignment files back (idempotent)

Run 'rag-annotator COMMAND --help' for a command's options."""


def _gui_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="rag-annotator", description=_DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("file", nargs="?", help="a .goldset file to open")
    parser.add_argument("--assessor", metavar="NAME",
                        help="who is judging in this session (not saved)")
    parser.add_argument("--language", choices=("fr", "en"),
                        help="interface language for this session")
    parser.add_argument("--version", action="version",
                        version=f"rag-annotator {__version__} (schema {SCHEMA_VERSION})")
    return parser


def _command_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="rag-annotator")
    sub = parser.add_subparsers(dest="command", required=True)
    for add in (_add_file_commands, _add_import, _add_export, _add_metrics, _add_merge):
        add(sub)
    for module in _command_modules():
        module.add_parsers(sub)
    return parser


def _command_modules() -> list[Any]:
    import importlib

    return [importlib.import_module(name) for name in _COMMAND_MODULES]


def _handlers() -> dict[str, Any]:
    handlers: dict[str, Any] = {
        "new": _cmd_new, "info": _cmd_info, "check": _cmd_check, "import": _cmd_import,
        "export": _cmd_export, "metrics": _cmd_metrics, "merge": _cmd_merge}
    for module in _command_modules():
        handlers.update(module.HANDLERS)
    return handlers


def _add_file_commands(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """``new``, ``info`` and ``check``."""
    new = sub.add_parser("new", help="create a gold-set file",
                         description="Create a new gold-set file, empty or holding the sample.")
    new.add_argument("file", help="path of the new .goldset file (must not exist)")
    new.add_argument("--sample", action="store_true",
                     help="fill it with the built-in French sample")
    new.add_argument("--name", help="the gold set's name (default: the file name)")
    info = sub.add_parser("info", help="counts by entity and state",
                          description="Counts by entity and state, and the schema version.")
    info.add_argument("file")
    info.add_argument("--json", action="store_true", help="print one JSON object")
    add_verbose(info)
    check = sub.add_parser("check", help="integrity and cross-reference checks",
                           description="Integrity, schema and cross-reference checks; "
                                       "exit status 1 when a problem is found.")
    check.add_argument("file")
    check.add_argument("--rules", action="store_true",
                       help="also list the family rules cases do not meet (warnings: they do "
                            "not change the exit status)")


def _add_import(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    imp = sub.add_parser(
        "import", help="bring a run or judgments in",
        description="Import a file into the gold set, all or nothing. trec-run: a TREC run "
                    "(qid Q0 docno rank score tag) as a new run; qrels: TREC qrels "
                    "(qid iter docno rel) as one assessor's judgments (negative labels = "
                    "in the pool, unjudged; several iter values = judgment groups, one "
                    "assessor ASSESSOR-GROUP each); jsonl-run: one JSON object per case (case, "
                    "retrieved, optional answer, citations, contexts); ragas: Ragas JSONL "
                    "(user_input, retrieved_contexts, response), questions and contexts "
                    "matched to cases and documents by text. Unknown case or document ids "
                    "become placeholders, listed in the report, unless --strict. "
                    "trajectories: one agent trajectory per line (case, steps of tool, "
                    "arguments, result, final_state, answer, tokens, seconds, cost); "
                    "openai-trajectories: one OpenAI-style chat log per line (case, messages "
                    "with tool_calls and tool results, final_state, usage); both go into one "
                    "run (added to it if it exists) and need agent cases. tau-bench: "
                    "tau-bench / tau2-bench results (task_id, trial, reward, traj or "
                    "messages), one trajectory per trial, agent cases made for unknown "
                    "tasks. ragchecker-run: RAGChecker's checking_inputs / checking_outputs "
                    "JSON as a new run (queries, chunks with their doc_id, response; its "
                    "claims with the judge's verdicts when present).")
    imp.add_argument("file", help="the .goldset file")
    imp.add_argument("format", metavar="FORMAT",
                     help="one of " + ", ".join(IMPORT_FORMATS) + " (leave it out: picked "
                          "from the content, and said)")
    imp.add_argument("source", nargs="?", help="the file to import")
    imp.add_argument("--add-unmatched", action="store_true",
                     help="ragas: keep a retrieved context that matches no document as a "
                          "document of its own (default: left out of the ranking, listed)")
    imp.add_argument("--run", metavar="NAME",
                     help="run name (trec-run: default the run tag; jsonl-run, ragas: "
                          "default the file name; trajectories: default the lines' run "
                          "field, else the file name)")
    imp.add_argument("--assessor", metavar="NAME",
                     help="whose judgments or verdicts these are (qrels default: qrels; "
                          "grader verdicts default: the grader's name)")
    imp.add_argument("--strict", action="store_true",
                     help="refuse unknown case or document ids instead of adding placeholders")
    imp.add_argument("--map", metavar="FIELD=HEADER,...",
                     help="spreadsheet imports: which column holds which field, e.g. "
                          "question=Intitulé,reference_answer=Réponse")
    imp.add_argument("--profile", choices=("data", "excel"), default=None,
                     help="csv: how the files were written (default: detected)")


def _add_export(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    exp = sub.add_parser(
        "export", help="write a run or the labels for other tools",
        description="Export for other tools. qrels: the effective labels of judged pairs "
                    "(unjudged and disputed pairs left out); trec-run: one run with strictly "
                    "decreasing scores. The file appears whole or not at all.")
    exp.add_argument("file", help="the .goldset file")
    exp.add_argument("format", choices=EXPORT_FORMATS)
    exp.add_argument("dest", help="the file to write")
    exp.add_argument("--run", metavar="NAME", help="which run (trec-run, ragas, ragchecker)")
    exp.add_argument("--profile", choices=("data", "excel"), default="data",
                     help="csv: data (RFC 4180, comma, UTF-8) or excel (BOM, ';' under a "
                          "French locale, CRLF, formula-looking cells neutralised)")
    exp.add_argument("--locale", choices=("fr", "en"),
                     help="csv --profile excel: decimal comma and ';' (fr) or not (en); "
                          "xlsx, pdf: the language of the summary; default: "
                          "RAG_ANNOTATOR_LANG, else the system's")
    exp.add_argument("--level", type=float, default=0.95, metavar="L",
                     help="xlsx, pdf: the level of the summary's intervals (default: 0.95)")
    exp.add_argument("--history", action="store_true",
                     help="json: include the operation history")
    exp.add_argument("--release", metavar="NAME", help="export a frozen release's content")
    exp.add_argument("--runs", metavar="LIST", help="comma-separated runs to include")
    exp.add_argument("--families", metavar="LIST", help="comma-separated families to include")
    exp.add_argument("--assessors", metavar="LIST",
                     help="comma-separated assessors whose judgments to include")
    add_verbose(exp)
    exp.add_argument("--pending", action="store_true",
                     help="qrels: write the pairs still to judge, label -1 (in an assignment "
                          "file: its expert's remaining pairs, in their order)")


def _add_metrics(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    met = sub.add_parser(
        "metrics", help="retrieval and answer metrics of a run, diagnosis, latency",
        description="Retrieval measures of one run, per case and mean, under a policy for "
                    "retrieved documents that have no effective label: trec (count them as "
                    "not relevant, as trec_eval does), judged-only (drop them first, as "
                    "trec_eval -J), strict (publish a value only if it is the same whatever "
                    "they turn out to be; otherwise it is undetermined). Documents outside a "
                    "case's pool count as not relevant. A zero denominator gives null (not "
                    "defined), never 0. Means run over the judged cases the run covers "
                    "(trec_eval's topics; "
                    "--all-judged: every judged case), the same for every measure; under trec "
                    "a value not defined counts 0 in the mean, as in trec_eval; otherwise the "
                    "cases where it is published count. "
                    "Also: the answer metrics (tested / produced / validated per family, "
                    "faithfulness, abstention), where each case failed, latency and cost; "
                    "for a run holding agent trajectories, the agent metrics (task success, "
                    "path acceptable, violation rate per invariant, mean steps, tokens and "
                    "seconds, cost per successful task; JSON: an \"agents\" key).")
    met.add_argument("file", help="the .goldset file")
    met.add_argument("--run", metavar="NAME", help="which run (required unless --drift)")
    met.add_argument("--measures", metavar="LIST",
                     help="comma-separated, e.g. P@5,R@10,RR,RR@10,nDCG@10,AP,Judged@10,"
                          "Success@10 (default: " + ",".join(DEFAULT_MEASURES) + ")")
    met.add_argument("--unjudged", choices=("trec", "judged-only", "strict"), default="trec",
                     help="what an unjudged retrieved document is worth (default: trec)")
    met.add_argument("--all-judged", action="store_true",
                     help="average over every judged case, those the run does not cover "
                          "scoring 0 (trec_eval -c); default: the judged cases the run covers")
    met.add_argument("--relevance-level", type=int, default=1, metavar="N",
                     help="relevant means grade >= N for P, R, RR, AP and Success (trec_eval "
                          "-l N; nDCG keeps the grades as gains; default: 1)")
    met.add_argument("--by-document", action="store_true",
                     help="retrieval measures per document, not per retrieved passage: a "
                          "document ranks at its best passage and is relevant when one of "
                          "its judged passages is (JSON: \"by_document\": true)")
    met.add_argument("--json", action="store_true", help="print one JSON object")
    met.add_argument("--compare", metavar="OTHER_RUN",
                     help="compare with another run, per case and measure: wins, losses, "
                          "ties (JSON: a \"compare\" key)")
    met.add_argument("--family", metavar="FAMILY",
                     help="with --compare: only the cases of this family")
    met.add_argument("--target-ms", type=int, default=2000, metavar="N",
                     help="latency target in milliseconds for the share of answers under "
                          "it (default: 2000)")
    met.add_argument("--next", type=int, default=0, metavar="N",
                     help="also list the N unjudged pairs whose label settles the most "
                          "values undetermined under strict (JSON: a \"next\" key)")
    met.add_argument("--depth", type=int, default=10, metavar="K",
                     help="depth of the diagnosis' expected-source check (default: 10)")
    add_metric_options(met)
    add_verbose(met)


def _add_merge(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    mrg = sub.add_parser(
        "merge", help="bring in another expert's judgments and verdicts",
        description="Merge a colleague's copy of the gold set into FILE, all or nothing and "
                    "undoable: their assessors, judgments, claim verdicts and adjudications, "
                    "matched by case and document keys. Pairs whose case or document FILE "
                    "lacks are skipped and listed. The same assessor with two labels: the "
                    "newer wins. Verdicts and adjudications set in both and different: "
                    "FILE's are kept. Every conflict is printed as a warning.")
    mrg.add_argument("file", help="the .goldset file to merge into")
    mrg.add_argument("other", metavar="OTHER_FILE", help="the colleague's .goldset file (read)")


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``rag-annotator`` console script."""
    args = list(sys.argv[1:] if argv is None else argv)
    _clean_temporary_leftovers()
    try:
        handlers = _handlers()
        if args and args[0] in handlers:
            ns = _command_parser().parse_args(take_language(args))
            code = int(handlers[ns.command](ns))
            sys.stdout.flush()  # here, where a closed pipe is caught, not at exit
            return code
        ns = _gui_parser().parse_args(args)
        from rag_annotator.app import run_gui  # Qt only for the desktop app

        return int(run_gui(ns.file, ns.assessor, ns.language))
    except KnownError as error:
        print(f"error: {error.render()}", file=sys.stderr)
        return EXIT_ERROR
    except KeyboardInterrupt:
        from rag_annotator.cli.progress import EXIT_INTERRUPTED, interrupted

        print(interrupted(args[0] if args else "rag-annotator",
                          args[1] if len(args) > 1 else None), file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        # The reader went away (``info … | head -5``): nothing left to say to it.  Python's
        # recipe: point stdout at devnull so the flush at exit cannot fail again.
        with contextlib.suppress(OSError, ValueError):
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        return EXIT_BROKEN_PIPE


def _clean_temporary_leftovers() -> None:
    """Remove what a killed process of ours left in the app's temporary folder."""
    from rag_annotator.paths import app_paths
    from rag_annotator.storage.tempfiles import clean_leftovers

    with contextlib.suppress(OSError):
        clean_leftovers(app_paths().temp)


def _say_took_over(store: GoldSetStore) -> None:
    """One line on stderr when the command took over a stale lock."""
    if store.lock is not None and store.lock.took_over is not None:
        print(Message("note: {path}: took over the stale lock of {holder} (no longer held)",
                      path=str(store.path), holder=store.lock.took_over.message()).render(),
              file=sys.stderr)


def _cmd_new(ns: argparse.Namespace) -> int:
    path = Path(ns.file)
    if ns.sample:
        from rag_annotator.import_export.sample import create_sample

        store = create_sample(path)
    else:
        store = GoldSetStore.create(path, name=ns.name or "")
    with store:
        said = (Message("created {path} (schema {version}, with the sample)",
                        path=str(store.path), version=store.schema_version) if ns.sample else
                Message("created {path} (schema {version})", path=str(store.path),
                        version=store.schema_version))
        print(said.render())
    return 0


def info_dict(store: GoldSetStore) -> dict[str, Any]:
    """The object ``info --json`` prints (DESIGN section 6)."""
    from rag_annotator.reports.file_figures import build_file_figures

    file = build_file_figures(store, judges=False)
    return {
        "file": str(store.path),
        "name": store.meta("name"),
        "schema_version": store.schema_version,
        "documents": store.count("documents"),
        "documents_by_kind": store.document_kind_counts(),  # pdf, docx… ('none': plain text)
        "kept_files": store.kept_file_counts(),  # the PDFs' bytes kept to show their pages
        "cases": store.count("cases"),
        "runs": store.run_case_counts(),
        "families": store.family_counts(),
        "statuses": store.status_counts(),
        "assessors": store.assessor_progress(),  # {name: {judged, remaining}}
        "judgments": dict(file.judgments),
        "answers": store.count("answers"),
        "claims": store.claim_counts(),
        "answer_reviews": store.count("answer_reviews"),
        "releases": store.count("releases"),
        "agents": store.agent_counts(),
        "max_grade": int(store.meta("max_grade", "1") or 1),
        "agreement": file.agreement.to_json(),
    }


def _cmd_info(ns: argparse.Namespace) -> int:
    with GoldSetStore.open(ns.file, read_only=True, verify="remembered") as store:
        say_check(store, ns.verbose)
        info = info_dict(store)
    if ns.json:
        print(json.dumps(info, ensure_ascii=False, indent=2))
        return 0
    from rag_annotator.cli.info_text import info_lines

    print("\n".join(info_lines(info)))
    return 0


def _cmd_check(ns: argparse.Namespace) -> int:
    from rag_annotator.domain.family_rules import check_case

    # schema="report": a file whose schema differs is listed here, not refused; its rows
    # are then not read (a view may stand in for a table, a table may be missing).
    with GoldSetStore.open(ns.file, read_only=True, schema="report") as store, \
            Progress("check", "steps") as bar:
        bar.report(1, 4)  # opening checked the pages; then integrity, schema, references
        schema = store.schema_problems()
        problems = store.integrity_problems() + schema
        bar.report(3, 4)
        if schema:
            problems.append(Message("schema or settings differ from this build's: "
                                    "cross-reference checks skipped (the rows of such a "
                                    "file are not read)"))
        else:
            problems += store.cross_reference_problems()
        bar.report(4, 4)
        name = store.path
        # Family rules are curation advice (a draft may be incomplete): listed on request,
        # never a reason to exit 1.
        advice: list[str] = []
        if ns.rules and not schema:
            try:
                advice = [Message("case {key}: {warning}", key=case["key"], warning=w.message)
                          for case in store.family_rule_inputs()
                          if case["status"] != "retired" for w in check_case(case)]
            except sqlite3.Error:  # a damaged schema is already reported above
                advice = []
    for problem in problems:
        print(f"{name}: {render_any(problem)}")
    for line in advice:
        print(f"{name}: warning: {render_any(line)}")  # "warning:" as on every line
    if advice:
        print(Plural("{n} warning on cases (family rules; not integrity problems)",
                     "{n} warnings on cases (family rules; not integrity problems)",
                     len(advice)).render(), file=sys.stderr)
    if problems:
        print(Plural("{n} problem found", "{n} problems found", len(problems)).render(),
              file=sys.stderr)
        return EXIT_PROBLEMS
    print(Message("{name}: ok (integrity, foreign keys, schema {version}, cross-references)",
                  name=str(name), version=SCHEMA_VERSION).render())
    return 0


def _cmd_import(ns: argparse.Namespace) -> int:
    from rag_annotator.import_export.detect import pick_format

    fmt, source = pick_format(ns.format, ns.source, IMPORT_FORMATS)
    bar = Progress(f"import {fmt}")
    options = registry.Options(run=ns.run, assessor=ns.assessor, strict=ns.strict,
                               mapping=registry.parse_mapping(ns.map),
                               profile=ns.profile or "", add_unmatched=ns.add_unmatched,
                               progress=bar.report, cancel=bar.poll)
    run_import = registry.importer(fmt)
    with GoldSetStore.open(ns.file, assessor=ns.assessor or "", lock=True) as store, bar:
        _say_took_over(store)
        bar.store = store
        report = run_import(store, source, options)
    for warning in report.warnings:
        print(f"warning: {render_any(warning)}", file=sys.stderr)
    for line in getattr(report, "file_lines", list)():  # a folder's: every file, one line
        print(f"  {render_any(line)}")
    print(f"{source}: {render_any(report.summary())}")
    return 0


def _split_list(text: str | None) -> tuple[str, ...]:
    return tuple(item.strip() for item in (text or "").split(",") if item.strip())


def _cmd_export(ns: argparse.Namespace) -> int:
    dest = Path(ns.dest)
    if not 0.0 < ns.level < 1.0:
        raise InvalidValue("--level: {level} is not between 0 and 1; give e.g. 0.95.",
                           level=ns.level)
    options = registry.Options(run=ns.run, profile=ns.profile, locale=ns.locale,
                               level=ns.level, history=ns.history, release=ns.release,
                               runs=_split_list(ns.runs), families=_split_list(ns.families),
                               assessors=_split_list(ns.assessors), pending=ns.pending)
    if ns.pending and ns.format != "qrels":
        raise InvalidValue("--pending: only with the qrels format.")
    run_export = registry.exporter(ns.format)
    bar = Progress(f"export {ns.format}")
    options = dataclasses.replace(options, progress=bar.report, cancel=bar.poll)
    with GoldSetStore.open(ns.file, read_only=True, verify="remembered") as store, bar:
        say_check(store, ns.verbose)
        report = run_export(store, dest, options)
    for warning in report.warnings:
        print(f"warning: {render_any(warning)}", file=sys.stderr)
    print(f"{dest}: {render_any(report.summary())}")
    return 0


def _cmd_merge(ns: argparse.Namespace) -> int:
    from rag_annotator.import_export.long_lists import few_lines
    from rag_annotator.import_export.merge import merge_file

    with GoldSetStore.open(ns.file, lock=True) as store, Progress("merge") as bar:
        _say_took_over(store)
        bar.store = store
        report = merge_file(store, Path(ns.other), tick=bar.tick)
    for line in few_lines(report.skipped):  # "skipped" on the count line too
        skipped = Message("skipped {line}", line=line)
        print(f"warning: {skipped.render()}", file=sys.stderr)
    conflicts = [conflict.describe() for conflict in report.conflicts]
    for conflict in few_lines(conflicts):
        print(f"warning: {conflict}", file=sys.stderr)
    print(f"{ns.file}: {render_any(report.summary())}")
    return 0


def _cmd_metrics(ns: argparse.Namespace) -> int:
    from rag_annotator.reports.file_figures import build_file_figures
    from rag_annotator.reports.render import metrics_json
    from rag_annotator.reports.run_figures import build

    check_run_given(ns)
    options = _metric_options(ns)
    if ns.drift:
        return cmd_drift(ns, options)
    with GoldSetStore.open(ns.file, read_only=True, verify="remembered") as store, \
            Progress("metrics", "steps") as bar:
        say_check(store, ns.verbose)
        bar.report(1, 3)  # opened; then the figures, then their rendering
        figures = build(store, ns.run, options)
        # the judges' review samples are file-wide: read only for the JSON that prints them
        file = build_file_figures(store, options.level, agreement_limit=0, counts=False,
                                  judges=True) if ns.json else None
        bar.report(2, 3)
    if ns.family is not None and ns.family not in set(figures.case_families.values()):
        raise InvalidValue("--family: no case of family '{family}' in {file}.",
                           family=ns.family, file=ns.file)
    if ns.json:
        # Indented for a person at a terminal; compact (C encoder, ~10x faster on 10,000
        # cases) for a script.
        print(json.dumps(metrics_json(figures, file), ensure_ascii=False, allow_nan=False,
                         indent=2 if sys.stdout.isatty() else None))
        return 0
    from rag_annotator.reports.text import metrics_text  # not for --json (issue 19)

    print("\n".join(metrics_text(figures)))
    return 0


def _metric_options(ns: argparse.Namespace) -> FigureOptions:
    """The ``metrics`` options, checked (InvalidValue naming the option)."""
    from rag_annotator.cli.figures import interval_options
    from rag_annotator.metrics import Policy, parse_measures
    from rag_annotator.reports.run_figures import FigureOptions

    try:
        measures = parse_measures(ns.measures or DEFAULT_MEASURES)
    except ValueError as error:
        raise InvalidValue("--measures: {error}", error=error) from None
    for option, value, low in (("--target-ms", ns.target_ms, 0), ("--next", ns.next, 0),
                               ("--depth", ns.depth, 1),
                               ("--relevance-level", ns.relevance_level, 1)):
        if value < low:
            raise InvalidValue("{option}: {value} is below {low}; give a whole number "
                               ">= {low}.", option=option, value=value, low=low)
    if ns.family is not None and ns.compare is None:
        raise InvalidValue("--family: only used with --compare OTHER_RUN.")
    return FigureOptions(policy=Policy.parse(ns.unjudged),
                         measures=tuple(m.name for m in measures), target_ms=ns.target_ms,
                         depth=ns.depth, compare=ns.compare, family=ns.family,
                         next_count=ns.next, relevance_level=ns.relevance_level,
                         all_judged=ns.all_judged, by_document=ns.by_document,
                         **interval_options(ns))
