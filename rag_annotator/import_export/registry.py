"""Every import and export format, by the name the CLI and the dialogs use.

One table per direction maps a format name to ``"module:function"`` in this package, loaded
only when used (so ``rag-annotator info`` never imports openpyxl).  Every function has the
same shape so the CLI, the UI dialogs and the tests call them alike:

* importer: ``fn(store, source: Path, options: Options) -> report``
* exporter: ``fn(store, dest: Path, options: Options) -> report``

where ``report`` has ``warnings: list[str]`` and ``summary() -> str`` (one English sentence;
the UI builds its own translated text from the report's fields).

An importer writes through ONE operation of the store (one transaction, its history rows, one
undoable step) and its report carries that operation's
:class:`~rag_annotator.domain.changes.Changes` as ``report.changes`` — None only when the
import changed nothing — exactly as ``merge`` does: the UI applies it as it is (undo stack,
``changes_applied``) and never builds one itself.  A bulk import that inserts by ranges names
no pair: its ``changes.every_pair`` is True.  An importer is all or nothing: it raises a
:class:`~rag_annotator.errors.KnownError` naming the file, the line or row and what to do, and
leaves the store as it was; ``Options.cancel`` returning True raises
:class:`~rag_annotator.import_export.files.Cancelled` the same way.  An exporter writes its
file(s) whole or not at all (temporary file, then rename).
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from rag_annotator.domain.changes import Changes
from rag_annotator.errors import InvalidValue, KnownError
from rag_annotator.messages import N_, Message


@dataclass(frozen=True)
class Options:
    """What the user chose besides the file names; each format reads what concerns it.

    Attributes:
        run: a run name (run imports: the new run's name; run exports: which run).
        assessor: whose labels or verdicts an import brings in (None: the format's default).
        strict: refuse unknown case or document ids instead of adding placeholders.
        mapping: field → column header, for spreadsheet imports (``--map``).
        profile: CSV flavour, ``data`` (RFC 4180) or ``excel`` (BOM, ``;``, neutralised cells).
        locale: ``fr`` or ``en`` for the Excel profile's decimal separator (None: the system's);
            the language of the workbook's summary and of the PDF.
        level: the level of the intervals of the workbook's summary and of the PDF.
        history: include the operation history (native JSON export).
        release: limit an export to a frozen release's content.
        runs, families, assessors: limit an export to these (empty: all).
        pending: qrels export: the pairs still to judge, label -1 (``export --pending``).
        cancel: polled by long imports/exports; returning True stops them, nothing changed.
        progress: called with (done, total) by long imports/exports.
    """

    run: str | None = None
    assessor: str | None = None
    strict: bool = False
    mapping: dict[str, str] = field(default_factory=dict)
    profile: str = "data"
    locale: str | None = None
    level: float = 0.95
    history: bool = False
    release: str | None = None
    runs: tuple[str, ...] = ()
    families: tuple[str, ...] = ()
    assessors: tuple[str, ...] = ()
    pending: bool = False
    cancel: Callable[[], bool] | None = None
    #: run imports from texts (ragas): keep a context that matches no document as a new
    #: document of origin ``unmatched_context`` instead of leaving it out.
    add_unmatched: bool = False
    progress: Callable[[int, int], None] | None = None


class Report(Protocol):
    """What every importer and exporter returns."""

    warnings: list[str]

    def summary(self) -> str: ...


class ImportReport(Report, Protocol):
    """What every importer returns: a :class:`Report` with the Changes it made."""

    changes: Changes | None


#: Import formats: name → "module:function" (module relative to this package).
IMPORTS: dict[str, str] = {
    "trec-run": "builtin_formats:import_trec_run",
    "qrels": "builtin_formats:import_qrels",
    "jsonl-run": "builtin_formats:import_jsonl_run",
    "ragas": "ragas_run:import_ragas",
    "json": "native_json:import_json",
    "csv": "csv_import:import_csv",
    "xlsx": "xlsx_import:import_xlsx",
    "beir": "ecosystem:import_beir",
    "deepeval": "ecosystem:import_deepeval",
    "cases": "cases_import:import_cases",
    "corpus": "corpus_import:import_corpus",
    "ragas-testset": "ragas_testset:import_testset",
    "ragchecker": "judge_verdicts:import_ragchecker",
    "ragas-verdicts": "judge_verdicts:import_ragas_verdicts",
    "deepeval-verdicts": "judge_verdicts:import_deepeval_verdicts",
    "trajectories": "trajectories:import_trajectories_file",
    "openai-trajectories": "trajectories:import_openai_file",
    "tau-bench": "tau_bench:import_tau_file",
    "ragchecker-run": "ragchecker_run:import_ragchecker_run_file",
}

#: Export formats: name → "module:function".
EXPORTS: dict[str, str] = {
    "trec-run": "builtin_formats:export_trec_run",
    "qrels": "builtin_formats:export_qrels",
    "json": "native_json:export_json",
    "csv": "csv_export:export_csv",
    "xlsx": "xlsx_export:export_xlsx",
    "pdf": "pdf_export:export_pdf",
    "beir": "ecosystem:export_beir",
    "ragas": "ecosystem:export_ragas",
    "ragchecker": "ecosystem:export_ragchecker",
    "deepeval": "ecosystem:export_deepeval",
}


def _load(table: dict[str, str], name: str, direction: str) -> Callable[..., Any]:
    try:
        target = table[name]
    except KeyError:
        raise InvalidValue("unknown {direction} format '{name}'; known: "
                           "{table}",
                           direction=direction, name=name, table=', '.join(sorted(table))) from None
    module_name, function = target.split(":")
    module = importlib.import_module(f"rag_annotator.import_export.{module_name}")
    fn: Callable[..., Any] = getattr(module, function)
    return fn


def importer(name: str) -> Callable[[Any, Path, Options], ImportReport]:
    """The import function of a format (InvalidValue if unknown).

    Python's JSON and XML readers recurse: a hostile file nested thousands of levels deep
    ends in RecursionError wherever it is parsed.  Readers that can name the line do; any
    other becomes a one-line refusal here (the import's transaction has rolled back).
    """
    run = _load(IMPORTS, name, "import")

    @functools.wraps(run)  # inspect.unwrap(importer(name)) is the format's function
    def guarded(store: Any, source: Path, options: Options) -> ImportReport:
        from rag_annotator.import_export.files import TOO_DEEP, ImportRejected

        try:
            result: ImportReport = run(store, source, options)
        except RecursionError:
            raise ImportRejected(Path(source), None, TOO_DEEP) from None
        except ImportRejected as error:
            _name_the_right_format(error, Path(source), name)
            raise
        return result

    return guarded


def _name_the_right_format(error: KnownError, source: Path, chosen: str) -> None:
    """A file refused by the format the user chose but recognised as another: the message
    names that one (a pretty-printed .json given to a JSON Lines importer, a cases sheet
    given to ``xlsx``)."""
    from rag_annotator.import_export.detect import hint

    extra = hint(source, chosen)
    if extra is not None:
        reason = Message(error.message_id, **error.params)
        error.message_id, error.params = N_("{reason}{hint}"), {"reason": reason, "hint": extra}
        error.args = (error.render("en"), *error.args[1:])


def exporter(name: str) -> Callable[[Any, Path, Options], Report]:
    """The export function of a format (InvalidValue if unknown).

    Every export (the CLI's, the export dialog's) goes through here, so here is where a
    destination that is the open gold set, its journal, lock or backups is refused, before
    the format writes anything (``files.refuse_own_files``), and where what an export killed
    mid-way left in the destination's folder is removed (``storage.tempfiles``).
    """
    run = _load(EXPORTS, name, "export")

    @functools.wraps(run)  # inspect.unwrap(exporter(name)) is the format's function
    def guarded(store: Any, dest: Path, options: Options) -> Report:
        from rag_annotator.import_export.files import refuse_own_files
        from rag_annotator.storage.tempfiles import clean_leftovers

        refuse_own_files(Path(store.path), Path(dest))
        clean_leftovers(Path(dest).expanduser().parent)  # what a killed export left there
        result: Report = run(store, dest, options)
        return result

    return guarded


def parse_mapping(text: str | None) -> dict[str, str]:
    """``--map question=Intitulé,reference_answer=Réponse`` → {field: header}."""
    mapping: dict[str, str] = {}
    for item in (text or "").split(","):
        if not item.strip():
            continue
        name, sep, header = item.partition("=")
        if not sep or not name.strip() or not header.strip():
            raise InvalidValue("--map: '{item}' is not field=Header; write e.g. "
                               "--map question=Intitulé,reference_answer=Réponse", item=item)
        mapping[name.strip()] = header.strip()
    return mapping
