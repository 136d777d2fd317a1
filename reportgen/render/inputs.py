"""Proposed changes to inputs/ written safely: a value typed in a cell meant for typing (under a
sheet's whole-number rules) is never lost, whoever proposes the change."""

from __future__ import annotations

from pathlib import Path

from reportgen.ingest.values import shown
from reportgen.ingest.workbook import read_workbooks
from reportgen.model import AnnexSheet, Cell, InputChange, Problem, SourceRef, cell_name
from reportgen.render.excel import render_annex
from reportgen.render.files import write_atomic


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
                problems.append(Problem(SourceRef(change.path, cell[0], cell_name(cell[1], cell[2])),
                                        f"la valeur saisie « {shown(value)} » serait effacée",
                                        "effacez-la d'abord vous-même si elle est fausse", code="would-overwrite"))
    return problems


def apply(change: InputChange, inputs: Path) -> list[Problem]:
    """Write the change, unless it would lose a typed value: then nothing is written. reportgen
    writes .xlsx only: a workbook read from another format (.ods, .xls, .xlsb, or an .xlsm and its
    macros) is never overwritten with another format under its name."""
    if Path(change.path).suffix.lower() != ".xlsx":
        return [Problem(SourceRef(change.path), f"reportgen n'écrit que des classeurs .xlsx, pas des "
                        f"{Path(change.path).suffix.lower() or 'fichiers sans extension'}",
                        "ouvrez-le dans Excel ou LibreOffice, enregistrez-le au format .xlsx, retirez l'ancien "
                        "fichier de inputs/, puis relancez la commande", code="not-xlsx")]
    problems = lost_values(change, inputs)
    if not problems:
        write_atomic(inputs / change.path, render_annex(change.workbook))
    return problems
