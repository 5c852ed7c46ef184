"""XLSX import: the entity sheets of a manager workbook into an EMPTY gold set.

The workbook is untrusted: it is opened by :func:`tabular.open_workbook`, the one XLSX reader
of the imports (size and zip-bomb checks first, defusedxml, read-only with cached values: a
formula someone typed is never evaluated here; its last value is read).  Sheets are
recognised by name (``cases``, ``judgments``, ``judgments (2)``…,
the summary and unknown sheets are ignored); cells are read as the export wrote them
(``_xHHHH_`` escapes undone), and a cell the export had to cut is refused.  Errors name the
sheet and row.  Same rules as the CSV import otherwise (empty file only, one undoable
operation; see ``csv_import``).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from rag_annotator.import_export import native_json, sheet_words
from rag_annotator.import_export.csv_export import FLAT_ENTITIES
from rag_annotator.import_export.csv_import import EntityRows, build_document, load_tables
from rag_annotator.import_export.files import ImportRejected
from rag_annotator.import_export.registry import Options
from rag_annotator.import_export.tabular import CellBudget, open_workbook, sheet_rows
from rag_annotator.import_export.xlsx_export import unescape
from rag_annotator.messages import Message
from rag_annotator.storage.reads_exchange import ENTITY_SQL
from rag_annotator.storage.store import GoldSetStore

#: Row numbers of later parts are offset by this, so one number names sheet and row.
_PART_STRIDE = 10_000_000


def _counted(budget: CellBudget, title: str, rows: Iterator[tuple[Any, ...]]
             ) -> Iterator[tuple[Any, ...]]:
    for number, values in enumerate(rows, start=1):
        budget.count(title, number, values)
        yield values


def _cells(values: tuple[Any, ...]) -> list[Any]:
    return [unescape(v) if isinstance(v, str) else v for v in values]


def _decoded(entity: str, names: list[str], rows: list[tuple[int, list[Any]]]
             ) -> list[tuple[int, list[Any]]]:
    """The cells written in words back to the flat table's values (``sheet_words``)."""
    worded = [i for i, c in enumerate(names) if c in sheet_words.WORDED
              or sheet_words.enum_of(entity, c) is not None]
    if not worded:
        return rows
    for _number, cells in rows:
        for i in worded:
            if i >= len(cells):  # a row cut short (trailing empty cells left out)
                if names[i] not in sheet_words.EMPTY_OBJECTS:
                    continue
                cells.extend([None] * (i + 1 - len(cells)))
            cells[i] = sheet_words.decode(entity, names[i], cells[i])
    return rows


def read_tables(path: Path) -> dict[str, EntityRows]:
    """The entity sheets of a workbook, parts joined in order."""
    with open_workbook(path) as wb:
        return _tables(path, wb)


def _tables(path: Path, wb: Any) -> dict[str, EntityRows]:
    sheets: dict[str, list[tuple[int, str]]] = {}
    for title in wb.sheetnames:
        found = sheet_words.entity_of(title)  # in either language, or the machine name
        if found is not None and found[0] in FLAT_ENTITIES:
            sheets.setdefault(found[0], []).append((found[1], title))
    tables: dict[str, EntityRows] = {}
    budget = CellBudget(path)
    for entity, parts in sheets.items():
        parts.sort()
        titles = {number: title for number, title in parts}
        header: list[str] | None = None

        def where(number: int, titles: dict[int, str] = titles
                  ) -> tuple[Path, int | None, str | Message]:
            part, row = divmod(number, _PART_STRIDE)
            part = part or min(titles)  # 0: the header of the first sheet
            return path, None, Message("sheet '{sheet}', row {row}: ",
                                       sheet=titles.get(part, "?"), row=row or 1)

        rows: list[tuple[int, list[Any]]] = []
        for number, title in parts:
            it: Iterator[tuple[Any, ...]] = _counted(budget, title, sheet_rows(wb[title]))
            first = [str(c) if c is not None else "" for c in next(it, ())]
            if header is None:
                header = first
            elif first != header:
                raise ImportRejected(path, None, "sheet '{title}': its header differs from "
                                                 "sheet '{parts}'.", title=title, parts=parts[0][1])
            rows.extend((number * _PART_STRIDE + i, _cells(values))
                        for i, values in enumerate(it, start=2))
        columns = ENTITY_SQL[entity][0]
        names = [sheet_words.column_of(entity, h, columns) for h in header or []]
        tables[entity] = EntityRows(entity, names, _decoded(entity, names, rows), where,
                                    {n: h for n, h in zip(names, header or []) if n != h})
    if not tables:
        raise ImportRejected(path, None, "the workbook has none of the entity sheets "
                                         "({flat_entities}).",
                                         flat_entities=', '.join(FLAT_ENTITIES))
    return tables


def import_xlsx(store: GoldSetStore, source: Path, options: Options
                ) -> native_json.ImportReport:
    """Read a manager workbook's entity sheets into an empty gold set."""
    native_json.require_empty(store, source, "XLSX")
    notes: list[str] = []
    data = build_document(read_tables(source), excel=False, decimal_comma=False, notes=notes)
    report = load_tables(store, source, data, "XLSX", options.cancel)
    report.warnings.extend(notes)  # columns someone added to a sheet
    return report
