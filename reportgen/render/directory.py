"""The secretary's decisions about players, written into `inputs/joueurs.xlsx` in place (openpyxl):
another spelling of a player, or two players who are not one. Nothing already typed in the file is
changed, nor its formats; a spelling is added after the ones already there, a player in the row
below the last one typed, with that row's formats (render/inputs.py `write_cell`). The file is
refused while open in a spreadsheet or read-only, and keeps its formulas' values, its permissions
and its symbolic link (render/workbook_file.py)."""

from __future__ import annotations

from pathlib import Path

import openpyxl

from reportgen.ingest.text import name_key, nom_and_prenom, split_full_name
from reportgen.render.inputs import write_cell
from reportgen.render.workbook_file import EditedWorkbook, editing

PLAYERS_SHEET = "Joueurs"
PLAYERS_HEADER = ["Licence", "Nom", "Prénom", "Club", "Autres graphies"]
DISTINCT_SHEET = "Distincts"
DISTINCT_HEADER = ["Joueur", "Autre joueur"]


def _open(path: Path) -> EditedWorkbook:
    edited = EditedWorkbook(path)
    if not path.exists():
        edited.book.active.title = PLAYERS_SHEET
        edited.book.active.append(PLAYERS_HEADER)
    return edited


def _sheet(book: openpyxl.Workbook, name: str, header: list[str]):
    wanted = name_key(name)
    for sheet in book.worksheets:
        if name_key(sheet.title) == wanted:
            return sheet
    sheet = book.create_sheet(name)
    sheet.append(header)
    return sheet


def _column(sheet, header: str) -> int:
    """1-based column of a header in the first row, added after the sheet's own headers if missing."""
    for cell in sheet[1]:
        if cell.value is not None and name_key(str(cell.value)) == name_key(header):
            return cell.column
    column = max((cell.column for cell in sheet[1] if cell.value not in (None, "")), default=0) + 1
    write_cell(sheet, 0, column - 1, header)
    return column


def _next_row(sheet) -> int:
    """1-based row below the last one holding a value (rows formatted ahead but empty do not count)."""
    return max((cell.row for row in sheet.iter_rows() for cell in row if cell.value not in (None, "")), default=0) + 1


def add_spelling(path: Path, player: str, spelling: str, licence: str = "", club: str = "") -> None:
    """Record `spelling` as another way of writing `player` (added to his row, or a new row)."""
    with editing(path) as target:
        edited = _open(target)
        _add_spelling(edited.book, player, spelling, licence, club)
        edited.save(target)


def _add_spelling(book: openpyxl.Workbook, player: str, spelling: str, licence: str, club: str) -> None:
    sheet = _sheet(book, PLAYERS_SHEET, PLAYERS_HEADER)
    last_col, first_col = _column(sheet, "Nom"), _column(sheet, "Prénom")
    aliases_col = _column(sheet, "Autres graphies")
    key = name_key(player)
    for row in range(2, sheet.max_row + 1):
        last, first = sheet.cell(row, last_col).value, sheet.cell(row, first_col).value
        if last and name_key(*nom_and_prenom(str(last), str(first or ""))) == key:  # as `load` reads the row
            known = str(sheet.cell(row, aliases_col).value or "")
            if name_key(spelling) not in {name_key(a) for a in known.split(";") if a.strip()}:
                write_cell(sheet, row - 1, aliases_col - 1, f"{known}; {spelling}" if known.strip() else spelling)
            # A row without a licence (an earlier merge wrote it so) gets the one found: without it
            # the licensed spelling's results stay his licence's, another player. A blank cell
            # only: a licence she typed is never replaced.
            licence_col = _column(sheet, "Licence") if licence else 0
            if licence_col and sheet.cell(row, licence_col).value in (None, ""):
                write_cell(sheet, row - 1, licence_col - 1, licence)
            break
    else:
        last, first = split_full_name(player)
        values = {"Licence": licence, "Nom": last, "Prénom": first, "Club": club, "Autres graphies": spelling}
        columns = {header: _column(sheet, header) for header in values}
        row = _next_row(sheet)
        for header, value in values.items():
            write_cell(sheet, row - 1, columns[header] - 1, value)  # text stays text, never a formula


def add_distinct(path: Path, player: str, other: str) -> None:
    """Record that `player` and `other` are two people."""
    with editing(path) as target:
        edited = _open(target)
        sheet = _sheet(edited.book, DISTINCT_SHEET, DISTINCT_HEADER)
        row = _next_row(sheet)
        for column, value in enumerate((player, other)):
            write_cell(sheet, row - 1, column, value)
        edited.save(target)
