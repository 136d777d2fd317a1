"""Proposed changes to inputs/ written safely: a value typed in a cell meant for typing (under a
sheet's whole-number rules) is never lost, whoever proposes the change; and a workbook that exists
is edited in place (openpyxl: open, write the change's cells, save atomically; render/workbook_file.py
refuses an open or read-only file, lets one writer at a time, keeps formulas' values, the file's
permissions and a symbolic link), so that every cell keeps its value and its style, and the sheets keep their widths, colours, comments, validations,
conditional formats and defined names. Only a new workbook is written whole (XlsxWriter)."""

from __future__ import annotations

import copy
import datetime as dt
from pathlib import Path
from typing import Any

import openpyxl
from openpyxl.styles import Alignment, Font, PatternFill
from openpyxl.styles.numbers import is_date_format
from openpyxl.utils import get_column_letter
from openpyxl.worksheet.datavalidation import DataValidation
from openpyxl.worksheet.worksheet import Worksheet

from reportgen.ingest.values import shown
from reportgen.ingest.workbook import read_workbooks
from reportgen.model import AnnexSheet, Cell, InputChange, InputRule, Problem, SheetEdit, SourceRef, cell_name
from reportgen.problems import NOT_XLSX, WOULD_OVERWRITE
from reportgen.render.excel import render_annex
from reportgen.render.files import write_atomic
from reportgen.render.workbook_file import EditedWorkbook, editing


def _typed(sheet: AnnexSheet, rows: list[list[object]]) -> dict[Cell, object]:
    """The values typed in the sheet's input cells (the blocks of its rules), in the file as it is."""
    found: dict[Cell, object] = {}
    for rule in sheet.rules:
        for row in range(rule.first_row, rule.last_row + 1):
            for col in range(rule.first_col, rule.last_col + 1):
                value = rows[row][col] if row < len(rows) and col < len(rows[row]) else ""
                if value not in ("", None):
                    found[sheet.name, row, col] = value
    return found


def _proposed(sheets: dict[str, AnnexSheet], cell: Cell) -> object:
    name, row, col = cell
    rows = sheets[name].rows if name in sheets else []
    value = rows[row - 1][col] if 1 <= row <= len(rows) and col < len(rows[row - 1]) else None
    return "" if value is None else value


def lost_values(change: InputChange, inputs: Path) -> list[Problem]:
    """Every typed value of the existing workbook that the change would not carry over."""
    target = inputs / change.path
    if not target.exists():
        return []
    workbooks, unreadable = read_workbooks([target], inputs)
    if unreadable:
        return unreadable
    existing = {sheet.name: [list(row) for row in sheet.rows] for sheet in workbooks[0].sheets}
    proposed = {sheet.name: sheet for sheet in change.workbook.sheets}
    moved = dict(change.moved)
    problems = []
    for sheet in change.workbook.sheets:
        for cell, value in sorted(_typed(sheet, existing.get(sheet.name, [])).items()):
            if _proposed(proposed, moved.get(cell, cell)) != value:
                problems.append(WOULD_OVERWRITE(SourceRef(change.path, cell[0], cell_name(cell[1], cell[2])),
                                                message=f"la valeur saisie « {shown(value)} » serait effacée",
                                                fix="effacez-la d’abord vous-même si elle est fausse"))
    return problems


def apply(change: InputChange, inputs: Path) -> list[Problem]:
    """Write the change, unless it would lose a typed value: then nothing is written. reportgen
    writes .xlsx only: a workbook read from another format (.ods, .xls, .xlsb, or an .xlsm and its
    macros) is never overwritten with another format under its name."""
    if Path(change.path).suffix.lower() != ".xlsx":
        return [NOT_XLSX(SourceRef(change.path), suffix=Path(change.path).suffix.lower() or "fichiers sans extension")]
    with editing(inputs / change.path) as target:  # refused if open or read-only; one writer at a time
        return _apply(change, inputs, target)


def _apply(change: InputChange, inputs: Path, target: Path) -> list[Problem]:
    problems = lost_values(change, inputs)
    if problems:
        return problems
    if not target.exists():
        write_atomic(target, render_annex(change.workbook))
        return []
    edited = EditedWorkbook(target)  # formulas as formulas (and their values), styles and all
    book = edited.book
    for index, spec in enumerate(change.workbook.sheets):
        if spec.name not in book.sheetnames:  # a sheet the change needs and the file lacks
            new_sheet(book, spec, index)
    for edit in _whole(change) if change.edits is None else change.edits:
        problems += edit_sheet(book[edit.sheet], edit, change.path)
    if problems:
        return problems
    edited.save(target)
    return []


# -- editing in place ---------------------------------------------------------------------------------

DATE_FORMAT, MOMENT_FORMAT = "dd/mm/yyyy", "dd/mm/yyyy hh:mm"  # as render/excel.py writes them


def _same(old: object, new: object) -> bool:
    if isinstance(old, dt.datetime) and isinstance(new, dt.date) and not isinstance(new, dt.datetime):
        return old == dt.datetime.combine(new, dt.time())
    return old == new and type(old) is type(new) or (old in (None, "") and new in (None, ""))


def _empty_row(sheet: Worksheet, row: int) -> bool:
    return all(cell.value in (None, "") for cell in sheet[row]) if row <= sheet.max_row else True


def write_cell(sheet: Worksheet, row: int, col: int, value: Any, header_row: int = 0) -> None:
    """Write a value into a cell (0-based row and column) and keep the sheet's conventions: a cell
    that held something keeps its style; an empty one takes the style (number format, font, fill,
    borders) of the cell above when that one is a data cell, or of the header cell to its left
    when it is a header. Text is always text (a name starting with "=" never becomes a formula)."""
    cell = sheet.cell(row + 1, col + 1)
    value = None if value == "" else value
    if _same(cell.value, value):
        return
    if cell.value in (None, "") and not cell.has_style:  # a cell she formatted ahead keeps her format
        if row - 1 > header_row:  # the cell above is a data cell
            above = sheet.cell(row, col + 1)
            if above.has_style:
                cell._style = copy.copy(above._style)
        elif row == header_row and col > 0:
            left = sheet.cell(row + 1, col)
            if left.has_style:
                cell._style = copy.copy(left._style)
    cell.value = value
    if isinstance(value, str):
        cell.data_type = "s"
    elif isinstance(value, dt.date) and not is_date_format(cell.number_format):
        moment = isinstance(value, dt.datetime) and value.time() != dt.time()
        cell.number_format = MOMENT_FORMAT if moment else DATE_FORMAT


def edit_sheet(sheet: Worksheet, edit: SheetEdit, path: str) -> list[Problem]:
    """Write one SheetEdit into the sheet; appended rows refuse to land on a row written since it was read."""
    for row in range(edit.start, edit.start + len(edit.appended)):
        if not _empty_row(sheet, row + 1):
            return [WOULD_OVERWRITE(SourceRef(path, sheet.title, cell_name(row, 0)),
                                    message=f"la ligne {row + 1} n’est plus vide : le classeur a changé depuis sa "
                                    "lecture", fix="relancez la commande")]
    for row, col, value in edit.cells:
        write_cell(sheet, row, col, value, edit.header_row)
    for offset, values in enumerate(edit.appended):
        for col, value in enumerate(values):
            if value is not None:
                write_cell(sheet, edit.start + offset, col, value, edit.header_row)
    for rule in edit.rules:
        _extend_validation(sheet, rule)
    return []


def _whole(change: InputChange) -> list[SheetEdit]:
    """Every cell of the change's workbook, header row included, as the program's own."""
    return [SheetEdit(spec.name, tuple(
        [(0, col, column.header) for col, column in enumerate(spec.columns) if column.header]
        + [(row, col, value) for row, values in enumerate(spec.rows, start=1) for col, value in enumerate(values)]))
        for spec in change.workbook.sheets]


def _range(rule: InputRule) -> str:
    return (f"{get_column_letter(rule.first_col + 1)}{rule.first_row + 1}:"
            f"{get_column_letter(rule.last_col + 1)}{rule.last_row + 1}")


def _validation(rule: InputRule) -> DataValidation:
    """The rule as Excel's validation, with the same help and refusal as render/excel.py writes."""
    style, title = rule.alert
    options: dict[str, Any] = {"showInputMessage": True, "showErrorMessage": rule.kind != "text", "allow_blank": True,
                               "promptTitle": "Saisie", "prompt": rule.message,
                               "errorStyle": style, "errorTitle": title, "error": rule.message}
    if rule.kind == "whole":
        return DataValidation("whole", operator="between", formula1=str(rule.minimum), formula2=str(rule.maximum),
                              **options)
    if rule.kind == "list":
        source = rule.source.lstrip("=") if rule.source else '"' + ",".join(rule.choices) + '"'
        return DataValidation("list", formula1=source, **options)
    if rule.kind == "date":
        first, last = (str(_serial(day)) for day in (rule.FIRST_DATE, rule.LAST_DATE))
        return DataValidation("date", operator="between", formula1=first, formula2=last, **options)
    return DataValidation(**options)


def _serial(day: dt.date) -> int:
    """A date as Excel's serial number, what a date validation's bounds are written as."""
    return (day - dt.date(1899, 12, 30)).days


def _extend_validation(sheet: Worksheet, rule: InputRule) -> None:
    """The rule's cells join the sheet's validation of the same kind that covers the cell above
    them (the secretary's own, with her messages); a new validation otherwise."""
    wanted = _validation(rule)
    first = f"{get_column_letter(rule.first_col + 1)}{rule.first_row + 1}"
    above = f"{get_column_letter(rule.first_col + 1)}{rule.first_row}"
    for validation in sheet.data_validations.dataValidation:
        if (validation.type, validation.formula1, validation.formula2) == (wanted.type, wanted.formula1, wanted.formula2) \
                and (first in validation.sqref or (rule.first_row > 0 and above in validation.sqref)):
            validation.sqref.add(_range(rule))  # nothing when it covers them already
            return
    wanted.add(_range(rule))
    sheet.add_data_validation(wanted)


HEADER_FONT = Font(bold=True, color="FFFFFF")
HEADER_FILL = PatternFill("solid", fgColor="1F3A5F")


def new_sheet(book: openpyxl.Workbook, spec: AnnexSheet, index: int) -> Worksheet:
    """A sheet the workbook lacks, added at its place in the change's order, in the layout
    render/excel.py gives a new workbook (header row, widths, formats, validations)."""
    sheet = book.create_sheet(spec.name, min(index, len(book.sheetnames)))
    for col, column in enumerate(spec.columns):
        sheet.column_dimensions[get_column_letter(col + 1)].width = column.width
        if column.header:
            cell = sheet.cell(1, col + 1, column.header)
            cell.data_type = "s"
            cell.font, cell.fill = HEADER_FONT, HEADER_FILL
            cell.alignment = Alignment(wrap_text=True, vertical="top")
    for row, values in enumerate(spec.rows, start=1):
        for col, value in enumerate(values):
            if value in (None, ""):
                continue
            write_cell(sheet, row, col, value)
            cell = sheet.cell(row + 1, col + 1)
            kind = spec.columns[col].kind if col < len(spec.columns) else "auto"
            if kind in ("int", "number", "auto") and isinstance(value, (int, float)) and not isinstance(value, bool):
                cell.number_format = "#,##0" if float(value).is_integer() else "#,##0.0"
    for rule in spec.rules:
        _extend_validation(sheet, rule)
    sheet.freeze_panes = "A2"
    return sheet
