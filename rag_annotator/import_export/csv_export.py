"""CSV export: a folder with one file per entity, for data tools (``data``) or Excel (``excel``).

Files (one per entity of :data:`FLAT_ENTITIES`, header row first, rows by natural keys):
``cases.csv``, ``documents.csv``, ``expected_sources.csv``, ``runs.csv``, ``retrieved.csv``,
``answers.csv``, ``judgments.csv``, ``adjudications.csv``, ``claims.csv``,
``answer_reviews.csv``, and for agent cases ``trajectories.csv``, ``trajectory_steps.csv``
(one row per tool call, by run, case and position) and ``trajectory_reviews.csv``.
``cases.csv`` carries each case's ``kind`` (rag or agent) and an agent case's expectations
(``expected_state``, ``forbidden_tools``, ``required_tools``, ``tool_order`` as JSON text;
``max_steps``, ``max_tokens``, ``max_seconds``, ``max_cost``).

Profiles:

* ``data`` — RFC 4180 quoting, comma, UTF-8 without BOM, ``\\n`` line endings, numbers with a
  decimal point; what pandas, DuckDB or R read without options.
* ``excel`` — UTF-8 with BOM (so Excel detects UTF-8), CRLF, and under a French locale ``;``
  as separator and a decimal comma (Excel's French defaults), ``,`` and ``.`` otherwise.
  Every text cell that a spreadsheet could read as a formula (``=``, ``+``, ``-``, ``@``, tab,
  CR, LF first) is neutralised with a leading ``'`` — reversibly, see ``safety`` — and the
  ``csv`` import undoes it.

List fields (tags, must-contain points, rights…) and the other JSON values (an agent case's
expectations, a trajectory's final state) are written as their JSON text; an
empty cell stands for null where a field may be null (the native JSON keeps the difference).
The folder appears whole or not at all: it is written under a temporary name beside the
destination and renamed (the destination must not exist, or be an empty folder).
"""

from __future__ import annotations

import csv
import json
import locale
import os
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rag_annotator.errors import KnownError
from rag_annotator.import_export.entity_counts import counts_text
from rag_annotator.import_export.registry import Options
from rag_annotator.import_export.safety import neutralise
from rag_annotator.messages import Joined, Message
from rag_annotator.storage import tempfiles
from rag_annotator.storage.reads_exchange import JSON_COLUMNS, Scope
from rag_annotator.storage.store import GoldSetStore

#: The entities of the CSV and XLSX exports, in the order they are written and imported.
FLAT_ENTITIES = ("cases", "documents", "expected_sources", "runs", "retrieved", "answers",
                 "judgments", "adjudications", "claims", "answer_reviews", "trajectories",
                 "trajectory_steps", "trajectory_reviews")

#: Rows between two cancel checks / progress reports.
TICK_ROWS = 10_000


@dataclass
class TablesReport:
    """What a CSV or XLSX export wrote."""

    path: Path
    counts: dict[str, int] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)

    def summary(self) -> str:
        parts = counts_text(self.counts, zeros=True)
        return Message("written to {file}: {counts}.", file=self.path.name,
                       counts=parts)


def scope_of(store: GoldSetStore, options: Options) -> Scope:
    """The export scope the options name (a release limits the cases to its snapshot's)."""
    cases: tuple[str, ...] | None = None
    if options.release:
        try:
            snapshot = store.release_snapshot(options.release)
        except KeyError:
            raise KnownError("no release named '{release}'; see the Releases list.",
                             release=options.release
                             ) from None
        cases = tuple(sorted(snapshot.get("cases", {})))
    return Scope(runs=tuple(options.runs), families=tuple(options.families),
                 assessors=tuple(options.assessors), cases=cases)


class Ticker:
    """Polls ``options.cancel`` and reports ``options.progress`` every :data:`TICK_ROWS`."""

    def __init__(self, options: Options, total: int) -> None:
        self.options = options
        self.total = max(total, 1)
        self.done = 0

    def __call__(self, rows: int = TICK_ROWS) -> None:
        self.done += rows
        if self.options.cancel is not None and self.options.cancel():
            from rag_annotator.import_export.native_json import cancelled

            raise cancelled()
        if self.options.progress is not None:
            self.options.progress(min(self.done, self.total), self.total)


def entity_stream(store: GoldSetStore, entity: str, scope: Scope
                  ) -> tuple[tuple[str, ...], Iterator[tuple[Any, ...]]]:
    """One entity's columns and rows, list fields in one canonical JSON spelling (what the
    domain writes), so that an export does not depend on how a list was once stored."""
    columns, rows = store.entity_rows(entity, scope)
    lists = [i for i, c in enumerate(columns) if c in JSON_COLUMNS]
    if not lists:
        return columns, rows

    def canonical(row: tuple[Any, ...]) -> tuple[Any, ...]:
        cells = list(row)
        for i in lists:
            if cells[i] is not None:
                cells[i] = json.dumps(json.loads(cells[i]), ensure_ascii=False)
        return tuple(cells)

    return columns, map(canonical, rows)


def count_rows(store: GoldSetStore, scope: Scope) -> dict[str, int]:
    """Rows each entity would export (the preview and the progress total)."""
    return {entity: store.entity_count(entity, scope) for entity in FLAT_ENTITIES}


def system_locale() -> str:
    """``fr`` when the system's language is French, else ``en``."""
    name = (locale.getlocale()[0] or os.environ.get("LC_ALL") or os.environ.get("LANG")
            or "")
    return "fr" if name.lower().startswith("fr") else "en"


@dataclass(frozen=True)
class Dialect:
    """How cells are written: separator, decimal mark, line ending, BOM, neutralisation."""

    delimiter: str = ","
    decimal: str = "."
    newline: str = "\n"
    bom: bool = False
    neutralise: bool = False

    @classmethod
    def of(cls, profile: str, locale_name: str | None) -> Dialect:
        if profile in ("", "data"):
            return cls()
        if profile != "excel":
            raise KnownError("unknown CSV profile '{profile}'; choose data or excel.",
                             profile=profile)
        french = (locale_name or system_locale()) == "fr"
        return cls(delimiter=";" if french else ",", decimal="," if french else ".",
                   newline="\r\n", bom=True, neutralise=True)

    def cells(self, row: Iterable[Any]) -> list[str]:
        """One row's cells as text."""
        out = []
        for value in row:
            if value is None:
                out.append("")
            elif isinstance(value, str):
                out.append(neutralise(value) if self.neutralise else value)
            elif isinstance(value, float):
                text = repr(value)
                out.append(text.replace(".", self.decimal) if self.decimal != "." else text)
            else:
                out.append(str(value))
        return out


def _replace_folder(tmp: Path, dest: Path) -> None:
    if dest.exists():
        if not dest.is_dir() or any(dest.iterdir()):
            raise KnownError("the destination exists and is not an empty folder; choose a new "
                             "folder name.", path=dest)
        dest.rmdir()
    os.replace(tmp, dest)


def write_folder(dest: Path, write: Callable[[Path], None]) -> None:
    """Run ``write(tmp_folder)`` and publish the folder under ``dest`` only if it succeeds."""
    dest = dest.expanduser()
    if dest.exists() and (not dest.is_dir() or any(dest.iterdir())):
        raise KnownError("the destination exists and is not an empty folder; choose a new "
                         "folder name.", path=dest)
    if not dest.parent.is_dir():
        raise KnownError("the folder that should hold it does not exist; create it first.",
                         path=dest.parent)
    try:
        tmp = tempfiles.temp_folder(dest.parent)
    except OSError as error:  # a read-only folder
        raise KnownError("could not write in this folder ({value}); "
                         "choose a folder you can write to.",
                         value=error.strerror or error, path=dest.parent) from error
    try:
        write(tmp)
        _replace_folder(tmp, dest)
    except OSError as error:
        tempfiles.remove(tmp)
        raise KnownError("could not write the folder ({value}); nothing "
                         "was written.", value=error.strerror or error, path=dest) from error
    except BaseException:
        tempfiles.remove(tmp)
        raise


#: Characters an Excel cell holds: Excel cuts longer cells of a CSV when it opens it.
EXCEL_CELL = 32_767


def write_csv(path: Path, columns: Iterable[str], rows: Iterator[tuple[Any, ...]],
              dialect: Dialect, tick: Ticker, long_cells: list[str] | None = None) -> int:
    """One entity's file; returns the rows written.  With ``long_cells`` (the Excel
    profile), the rows holding a cell longer than Excel keeps are listed there."""
    with open(path, "w", encoding="utf-8-sig" if dialect.bom else "utf-8",
              newline="") as handle:
        writer = csv.writer(handle, delimiter=dialect.delimiter,
                            lineterminator=dialect.newline, quoting=csv.QUOTE_MINIMAL)
        writer.writerow(list(columns))
        count = 0
        cells = dialect.cells
        for row in rows:
            out = cells(row)
            writer.writerow(out)
            count += 1
            if long_cells is not None and sum(map(len, out)) > EXCEL_CELL and any(
                    len(c) > EXCEL_CELL for c in out):
                long_cells.append(Message("{file} line {line}", file=path.stem,
                                          line=count + 1))
            if count % TICK_ROWS == 0:
                tick()
        handle.flush()
        os.fsync(handle.fileno())
    return count


def export_csv(store: GoldSetStore, dest: Path, options: Options) -> TablesReport:
    """Write the folder of CSV files (``options.profile``: data or excel)."""
    dialect = Dialect.of(options.profile, options.locale)
    scope = scope_of(store, options)
    report = TablesReport(dest)
    tick = Ticker(options, sum(count_rows(store, scope).values()))

    long_cells: list[str] | None = [] if dialect.neutralise else None

    def write(folder: Path) -> None:
        for entity in FLAT_ENTITIES:
            columns, rows = entity_stream(store, entity, scope)
            report.counts[entity] = write_csv(folder / f"{entity}.csv", columns, rows,
                                              dialect, tick, long_cells)
        tick(0)

    write_folder(dest, write)
    if long_cells:
        report.warnings.append(
            Message(
            "{n_long_cells} rows hold a cell longer than Excel keeps ({excel_cell:,} "
            "characters; Excel cuts it on opening, the file itself is whole): "
            "{long_cells}{value}",
            n_long_cells=len(long_cells), excel_cell=EXCEL_CELL,
            long_cells=Joined(long_cells[:5], ", "), value=', …' if len(long_cells) > 5 else ''))
    return report
