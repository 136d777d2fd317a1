"""Test helpers: Grand Sud leagues built in memory, and real workbooks written with openpyxl."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import openpyxl

from reportgen.circuits.base import Reading
from reportgen.circuits.grand_sud.circuit import GrandSud
from reportgen.circuits.grand_sud.parse import GrandSudRow, GrandSudTournament
from reportgen.circuits.grand_sud.scoring import score_league
from reportgen.circuits.grand_sud.settings import GrandSudSettings
from reportgen.ingest.directories import Club, ClubDirectory
from reportgen.ingest.normalise import results_table
from reportgen.ingest.players import Identities
from reportgen.model import Entry, Event, SourceRef

# The day the tests' in-process builds pass (`build(..., TODAY)`); a command or process reads its day
# from the clock, pinned by tests/conftest.py (PINNED_TODAY, 7 December 2026)
TODAY = dt.date(2026, 11, 29)
CLUBS = ClubDirectory([
    Club("CARC", "Carcassonne", "11"), Club("TLSE", "Toulouse", "31"), Club("ALBI", "Albi", "81"),
    Club("MTPL", "Montpellier", "34"), Club("PERP", "Perpignan", "66"), Club("NIME", "Nîmes", "30"),
    Club("MARS", "Marseille", "13"),
])


def event(day: str, club: str, players: list[str], formula: str = "duplicate",
          duplicate: list[int] | None = None, series: str | None = None) -> Event:
    """A tournament: `players` in final-place order, given as "NAME First" (or "#licence NAME First")."""
    date = dt.date.fromisoformat(day)
    found = CLUBS.find(club)
    rows = []
    for index, player in enumerate(players):
        licence = ""
        if player.startswith("#"):
            licence, _, player = player[1:].partition(" ")
        last, _, first = player.partition(" ")
        place = index + 1
        ref = SourceRef(f"{day}-{club}.xlsx", "Résultats", f"B{index + 2}")
        rows.append(GrandSudRow(entry=Entry(licence, last, first), ref=ref, place=place,
                                place_duplicate=duplicate[index] if duplicate else place))
    content = GrandSudTournament(club=found, series=series or found.code, formula=formula, location="")
    return Event(f"{day}-{club}.xlsx", f"Tournoi de {found.name}", date, content, rows)


def results(events: list[Event]):
    problems = []
    identities = Identities([], [e for ev in events for e in ev.entries], problems)
    table = results_table(events, identities, CLUBS, problems)
    assert not problems, problems
    return table


def league(events: list[Event], settings: GrandSudSettings = GrandSudSettings()):
    """(tournaments, points, rankings) of these events."""
    eligible = {e.id: e.content.club.departement in settings.departements for e in events}
    return score_league(results(events), events, eligible, settings)


def report(events: list[Event], settings: GrandSudSettings = GrandSudSettings()):
    reading = Reading(CLUBS, dt.date(2030, 1, 1), "Ligue de test")
    return GrandSud().score(results(events), events, settings, reading, {})


def players(count: int, prefix: str = "JOUEUR") -> list[str]:
    """Distinct names: JOUEURA Un, JOUEURB Un... (letters, as names have no digits)."""
    names = []
    for index in range(count):
        letters = ""
        number = index
        while True:
            letters = chr(65 + number % 26) + letters
            number = number // 26 - 1
            if number < 0:
                break
        names.append(f"{prefix}{letters} Un")
    return names


def standing(ranking) -> list[tuple[int, str, int]]:
    return [(row.rank, row.player, row.total) for row in ranking.rows]


# -- real workbooks ---------------------------------------------------------------------------

def write_workbook(path: Path, sheets: dict[str, list[list[object]]], formulas: bool = True) -> Path:
    """A real .xlsx; with formulas=False a string starting with "=" stays text, as a club typed it."""
    book = openpyxl.Workbook()
    book.remove(book.active)
    for name, rows in sheets.items():
        sheet = book.create_sheet(name)
        for row in rows:
            sheet.append(row)
        if not formulas:
            for cells in sheet.iter_rows():
                for cell in cells:
                    if isinstance(cell.value, str) and cell.value.startswith("="):
                        cell.data_type = "s"
    path.parent.mkdir(parents=True, exist_ok=True)
    book.save(path)
    return path


def write_clubs(inputs: Path, clubs: ClubDirectory = CLUBS) -> Path:
    rows = [["Code", "Nom", "Département", "Email"]]
    rows += [[c.code, c.name, c.departement, f"contact@{c.code.lower()}.example.org"] for c in clubs.clubs]
    return write_workbook(inputs / "clubs.xlsx", {"Clubs": rows})


def write_tournament(inputs: Path, name: str, day: object = "14/03/2026", club: str = "CARC",
                     formula: str = "duplicate", results: list[list[object]] | None = None,
                     header: list[str] | None = None, extra_fields: list[list[object]] = (),
                     circuit: str = "grand-sud", formulas: bool = True) -> Path:
    fields = [["Circuit", circuit], ["Nom", f"Tournoi {name}"], ["Date", day], ["Club", club],
              ["Formule", formula], *extra_fields]
    header = header or ["Place", "Nom", "Prénom", "Licence", "Club"]
    if results is None:
        results = [[1, "DUPONT", "Jean", "1001", "Carcassonne"], [2, "MARTIN", "Paul", "1002", "Albi"],
                   [3, "DURAND", "Anne", "", "Toulouse"]]
    return write_workbook(inputs / f"{name}.xlsx", {"Tournoi": fields, "Résultats": [header, *results]}, formulas)


def small_league(inputs: Path) -> Path:
    """Two seasons, a same-day pair, a hors-circuit tournament, a hostile name and a formula-like one."""
    write_clubs(inputs)
    write_tournament(inputs, "2025-06-01-albi", day="01/06/2025", club="ALBI", results=[
        [1, "DUPONT", "Jean", "1001", "Carcassonne"], [2, "MARTIN", "Paul", "1002", "Albi"],
        [3, "DURAND", "Anne", "", "Toulouse"], [4, "LÉGER", "Zoé", "1004", "Albi"]])
    write_tournament(inputs, "2026-01-10-carcassonne", day="10/01/2026", club="CARC", formula="poules",
                     header=["Place", "Nom", "Prénom", "Licence", "Club", "Place duplicate"], results=[
                         [1, "MARTIN", "Paul", "1002", "Albi", 2], [2, "=SOMME(A1:A9)", "Hacker", "", "Albi", 1],
                         [3, "DUPONT", "Jean", "1001", "Carcassonne", 3]], formulas=False)
    write_tournament(inputs, "2026-01-10-toulouse", day="10/01/2026", club="TLSE", results=[
        [1, "<script>alert(1)</script>", "Mallory", "", "Toulouse"], [2, "DURAND", "Anne", "", "Toulouse"]])
    write_tournament(inputs, "2026-02-07-marseille", day="07/02/2026", club="MARS", results=[
        [1, "MARTIN", "Paul", "1002", "Albi"], [2, "PROVENCAL", "Marius", "", "Marseille"]])
    return inputs


# -- a workbook as the secretary keeps it: her formats, widths, colours, comments, validations ----------

def style_like_a_secretary(path: Path, sheet: str, formats: dict[int, str] | None = None) -> None:
    """Her touch on one sheet of a real file: a yellow header, a column width, a comment, a
    validation, a conditional format, a defined name, and `formats` (1-based column -> number format)
    on every data cell of those columns."""
    from openpyxl.comments import Comment
    from openpyxl.formatting.rule import CellIsRule
    from openpyxl.styles import PatternFill
    from openpyxl.workbook.defined_name import DefinedName
    from openpyxl.worksheet.datavalidation import DataValidation

    book = openpyxl.load_workbook(path)
    ws = book[sheet]
    for cell in ws[1]:
        cell.fill = PatternFill("solid", fgColor="FFFF00")
    ws.column_dimensions["A"].width = 31.5
    ws["A1"].comment = Comment("Ne pas renommer cette colonne", "la secrétaire")
    validation = DataValidation("textLength", operator="lessThan", formula1="60")
    validation.add(f"A2:A{max(ws.max_row, 2)}")
    ws.add_data_validation(validation)
    ws.conditional_formatting.add(f"A2:A{max(ws.max_row, 2)}",
                                  CellIsRule(operator="equal", formula=['"X"'], fill=PatternFill("solid", fgColor="FF0000")))
    book.defined_names["Premier"] = DefinedName("Premier", attr_text=f"'{sheet}'!$A$2")
    for col, number_format in (formats or {}).items():
        for row in range(2, ws.max_row + 1):
            ws.cell(row, col).number_format = number_format
    book.save(path)


def snapshot(path: Path) -> dict[str, dict[str, tuple[object, str]]]:
    """Every non-empty cell's value and number format, by sheet and cell name."""
    book = openpyxl.load_workbook(path)
    return {ws.title: {cell.coordinate: (cell.value, cell.number_format) for row in ws.iter_rows() for cell in row
                       if cell.value is not None} for ws in book.worksheets}


def assert_kept(before: dict[str, dict[str, tuple[object, str]]], path: Path, sheet: str,
                changed: frozenset[str] = frozenset()) -> None:
    """Every cell of `before` (but `changed`, the program's own) has its value and number format in
    the file, and `sheet` kept the touch of `style_like_a_secretary`."""
    after = snapshot(path)
    for name, cells in before.items():
        for coordinate, kept in cells.items():
            if f"{name}!{coordinate}" not in changed:
                assert after[name].get(coordinate) == kept, (name, coordinate, kept, after[name].get(coordinate))
    book = openpyxl.load_workbook(path)
    ws = book[sheet]
    assert ws.column_dimensions["A"].width == 31.5
    assert ws["A1"].comment is not None and ws["A1"].comment.text == "Ne pas renommer cette colonne"
    assert {cell.fill.fgColor.rgb for cell in ws[1] if cell.value is not None} == {"00FFFF00"}
    assert any(v.type == "textLength" and v.formula1 == "60" for v in ws.data_validations.dataValidation)
    assert len(ws.conditional_formatting) == 1
    assert "Premier" in book.defined_names


def publish_site_data(league, scored, outputs: Path) -> Path:
    """A scored league's manifests and site data written in `outputs` as a build publishes them,
    without rendering a bulletin: what the site's pages are made from."""
    from reportgen import circuits
    from reportgen.render.index import MANIFEST
    from reportgen.render.manifest import Manifest
    from reportgen.site import data

    for slug, report in scored.reports.items():
        info = circuits.REGISTRY[slug]
        (outputs / slug).mkdir()
        (outputs / slug / MANIFEST).write_bytes(
            Manifest.of(slug, info.title, info.regulation_title, report).to_json())
        found = league.circuits[slug]
        (outputs / slug / data.DATA).write_bytes(data.circuit_data(
            report, data.event_sources(found.events, data.results_of(found.results.to_dict("records")),
                                    report.event_notes, report.event_columns)))
    return outputs
