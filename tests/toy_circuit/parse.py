"""A skittles tournament workbook: `Tournoi` (with its own field, Allées) and `Quilles` (Place, Nom,
Prénom, Club)."""

from __future__ import annotations

from dataclasses import dataclass

from reportgen.circuits.base import Reading
from reportgen.ingest import values
from reportgen.ingest.tables import CLUB, FIRST_NAME, LAST_NAME, PLACE, PLAYER, required_table
from reportgen.ingest.tournament import TournamentSheet, read_name_and_date
from reportgen.ingest.workbook import Workbook
from reportgen.model import Entry, Event, Problem, ResultRow
from reportgen.problems import blocking

SHEET = "Quilles"


@dataclass(frozen=True)
class Skittles:
    lanes: int | None  # the `Allées` field


@dataclass(frozen=True, kw_only=True)
class SkittlesRow(ResultRow):
    place: int


def parse(workbook: Workbook, sheet: TournamentSheet, reading: Reading, problems: list[Problem]) -> Event | None:
    found: list[Problem] = []
    name, day = read_name_and_date(sheet, reading.today, found)
    lanes = sheet.read("allees", values.whole_number, found, required=False)
    results = workbook.sheet(SHEET)
    rows: list[SkittlesRow] = []
    if results is None:
        found.append(Problem(workbook.ref(), f"la feuille « {SHEET} » est introuvable",
                             "ajoutez la feuille des résultats (Place, Nom, Prénom, Club)", code="missing-sheet"))
    else:
        table = required_table(workbook, results, [PLACE, LAST_NAME, FIRST_NAME, PLAYER, CLUB], [PLACE, CLUB],
                               "ajoutez une ligne d'en-têtes au-dessus des résultats", found, names=True)
        for row in table.rows if table else []:
            place = table.read(row, "place", values.place, found)
            club = table.read(row, "club", values.text, found)
            last, first, name_ref = table.read_name(row, found)
            if place is not None and club and last is not None:
                rows.append(SkittlesRow(entry=Entry("", last, first), ref=name_ref, club=club,
                                        club_ref=table.ref(row, "club"), place=place[0]))
    problems.extend(found)
    if blocking(found):  # a warning alone (`read_name`'s empty Prénom) refuses nothing
        return None
    return Event(id=workbook.label, name=name, date=day, content=Skittles(lanes), results=rows)
