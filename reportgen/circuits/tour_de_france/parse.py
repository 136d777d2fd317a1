"""A Tour de France tournament workbook: `Tournoi` and `Résultats` (docs/formats.md)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from reportgen.circuits.base import Reading
from reportgen.ingest import values
from reportgen.ingest.tables import FIRST_NAME, LAST_NAME, PLACE, PLAYER, Column, required_table
from reportgen.ingest.tournament import TournamentSheet, read_name_and_date
from reportgen.ingest.workbook import Workbook
from reportgen.model import Entry, Event, Problem, ResultRow, SourceRef
from reportgen.problems import BAD_VALUE, EMPTY, MISSING_SHEET, PLACE_RANGE, PLACE_SEQUENCE, blocking

RESULTS_SHEET = "Résultats"
EXCLUDED = Column("excluded", "Hors classement", ("Exclu", "Non classé", "HC"))


@dataclass(frozen=True)
class TourDeFranceTournament:
    """The `Tournoi` fields of a Diplomacy tournament."""

    location: str
    participants: int  # physical participants: the `Participants` field, else the rows


@dataclass(frozen=True, kw_only=True)
class TourDeFranceRow(ResultRow):
    # His place in the tournament's ranking, the one his points come from (`ranking_places`): not the
    # number typed when a player out of the ranking is typed above him. None for one out of the ranking.
    place: int | None
    excluded: bool  # `Hors classement`: dropped, the places below move up
    place_ref: SourceRef  # the typed place's cell


TourDeFranceEvent = Event[TourDeFranceTournament]


def parse(workbook: Workbook, sheet: TournamentSheet, reading: Reading, problems: list[Problem]) -> TourDeFranceEvent | None:
    found: list[Problem] = []
    name, day = read_name_and_date(sheet, reading.today, found)
    location = sheet.read("lieu", values.text, found, required=False) or ""
    participants = sheet.read("participants", values.whole_number, found, required=False)
    rows = _results(workbook, found)
    if participants is not None and participants < len(rows):
        found.append(BAD_VALUE(sheet.ref("participants"), message=f"{participants} participants, mais {len(rows)} "
                               "joueurs sont listés",
                               fix="indiquez le nombre de participants physiques, ou laissez vide"))
    problems.extend(found)
    if blocking(found):  # a warning alone (an empty Prénom) refuses nothing
        return None
    content = TourDeFranceTournament(location=location, participants=participants or len(rows))
    return Event(id=workbook.label, name=name, date=day, content=content, results=ranking_places(rows))


def ranking_places(rows: list[TourDeFranceRow]) -> list[TourDeFranceRow]:
    """The rows with their places in the tournament's ranking (`places_in_ranking`). Made here once,
    every output reads it: the bulletins, the annex, the tournaments' and players' pages, the archive,
    `history`. A row whose place stays is kept (a tournament without an excluded player: every one)."""
    places = places_in_ranking([(row.place, row.excluded) for row in rows])
    return [row if place == row.place else replace(row, place=place) for row, place in zip(rows, places, strict=True)]


def places_in_ranking(typed: list[tuple[int | None, bool]]) -> list[int | None]:
    """Each row's place in the tournament's ranking, from its place typed (checked: ex aequo share a
    number, the next one skips them) and its « hors classement » mark, in the rows' order. The
    regulation's « cas particuliers »: the players the organiser left out « ne devront pas figurer dans
    le classement », so they have no place and the places below theirs move up (INTERPRETATIONS: points
    by place over the ranked players, excluded ones removed); « cas des exaequo »: ex aequo keep one
    place, a player's place being 1 + the ranked players typed strictly above him (3, 3 under an
    excluded 2nd: 2, 2). Linear once the places are sorted. Given the places of a ranking (none for an
    excluded player), it gives them back: an archive already written by this rule is upgraded unchanged."""
    ranked = sorted(place for place, excluded in typed if not excluded and place is not None)
    first: dict[int, int] = {}
    for before, typed_place in enumerate(ranked):
        first.setdefault(typed_place, before + 1)
    return [None if excluded or place is None else first[place] for place, excluded in typed]


def archived_places(fields: list[dict[str, Any]]) -> list[int | None]:
    """A tournament's places in its ranking from its archived results rows (each row's `fields` in the
    league's database, in line order: its `place` and `excluded`), for the database's schema 6: an
    archive written before the thirty-third round holds the places typed (delivery/database.py)."""
    return places_in_ranking([(row.get("place"), bool(row.get("excluded"))) for row in fields])


def _results(workbook: Workbook, found: list[Problem]):
    elsewhere = len(found)  # the `Tournoi` sheet's problems: an empty sheet is said with them, in one answer
    sheet = workbook.sheet(RESULTS_SHEET)
    if sheet is None:
        found.append(MISSING_SHEET(workbook.ref(), sheet=RESULTS_SHEET, present=workbook.present(),
                                   fix="nommez « Résultats » la feuille des résultats, ou ajoutez-la (Place, Nom, Prénom, "
                                   "Hors classement)"))
        return []
    table = required_table(workbook, sheet, [PLACE, LAST_NAME, FIRST_NAME, PLAYER, EXCLUDED], [PLACE],
                           "ajoutez une ligne d’en-têtes avec ces colonnes au-dessus des résultats", found, names=True,
                           typed_by_hand=True)
    if table is None:
        return []
    rows: list[TourDeFranceRow] = []
    complete = True  # every row read: a row left out (its problem said) would put each place below it out of sequence
    for row in table.rows:
        excluded = bool(table.read(row, "excluded", values.yes_no, found, required=False))
        parsed = table.read(row, "place", values.place, found, required=not excluded)
        last, first, name_ref = table.read_name(row, found)
        if last is None or (parsed is None and not excluded):
            complete = False
            continue
        rows.append(TourDeFranceRow(entry=Entry("", last, first), ref=name_ref, place=parsed[0] if parsed else None,
                                    excluded=excluded, place_ref=table.ref(row, "place")))
    if complete:  # else the places are checked once the row's own problem is corrected
        _check_places(rows, found)
    if not rows and len(found) == elsewhere:
        found.append(EMPTY(workbook.ref(sheet)))
    return rows


def _check_places(rows: list[TourDeFranceRow], found: list[Problem]) -> None:
    """Ex aequo share a number and the next place skips them (3, 3, 5): the only valid shape."""
    given = sorted((row.place, row.place_ref) for row in rows if row.place is not None)
    for index, (place, ref) in enumerate(given):
        if index and given[index - 1][0] == place:
            continue  # an ex aequo of the previous one
        if place > len(given):
            found.append(PLACE_RANGE(ref, place=place, count=len(given),
                                     fix="numérotez les places de 1 au nombre de joueurs"))
        elif place != index + 1:
            found.append(PLACE_SEQUENCE(ref, place=place, expected=index + 1))
