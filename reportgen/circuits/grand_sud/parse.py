"""A Grand Sud tournament workbook: the `Tournoi` fields and the `Résultats` sheet (docs/formats.md)."""

from __future__ import annotations

from dataclasses import dataclass

from reportgen import french
from reportgen.circuits.base import Reading
from reportgen.ingest import values
from reportgen.ingest.directories import Club
from reportgen.ingest.sheets import Sheet
from reportgen.ingest.tables import (
    CLUB,
    FIRST_NAME,
    LAST_NAME,
    LICENCE,
    PLACE,
    PLACE_DUPLICATE,
    PLAYER,
    Table,
    required_table,
)
from reportgen.ingest.text import normalise_label
from reportgen.ingest.tournament import TournamentSheet, read_name_and_date
from reportgen.ingest.workbook import Workbook
from reportgen.model import Entry, Event, Problem, ResultRow, SourceRef
from reportgen.problems import (
    DUPLICATE_PLACE,
    EMPTY,
    MISSING_CLUB_COLUMN,
    MISSING_SHEET,
    PLACE_RANGE,
    UNKNOWN_CLUB,
    blocking,
)

RESULTS_SHEET = "Résultats"
MISSING_PLACES_SHOWN = 5  # a fix names the first five places nobody has, then how many more
# §2.1 tournoi en poules (a duplicate phase then pools: two places), §2.2 tout en duplicate.
FORMULAS = {"poules": "poules", "duplicate": "duplicate", "tout en duplicate": "duplicate",
            "tout duplicate": "duplicate"}
FORMULA_FIX = "écrivez « poules » ou « duplicate »"  # a formula refused or left empty


@dataclass(frozen=True)
class GrandSudTournament:
    """The `Tournoi` fields of a Grand Sud tournament."""

    club: Club  # the organising club, from clubs.xlsx
    series: str  # its yearly series: an edition replaces the previous one (INTERPRETATIONS.md, rolling window)
    formula: str  # "poules" or "duplicate" (§2.1, §2.2)
    location: str


@dataclass(frozen=True, kw_only=True)
class GrandSudRow(ResultRow):
    place: int  # final place
    place_duplicate: int  # place of the duplicate phase (the final place again in an all-duplicate tournament)


GrandSudEvent = Event[GrandSudTournament]


def _formula(value: object) -> str:
    label = normalise_label(values.text(value))
    if label not in FORMULAS:
        # §2.3: another formula needs a vote of the league before it can count.
        raise values.BadValue(f"la formule « {values.shown(value)} » n’est pas prévue par le règlement (§2.3)",
                              FORMULA_FIX)
    return FORMULAS[label]


def parse(workbook: Workbook, sheet: TournamentSheet, reading: Reading,
          problems: list[Problem]) -> GrandSudEvent | None:
    found: list[Problem] = []
    name, day = read_name_and_date(sheet, reading.today, found)
    club_text = sheet.read("club", values.text, found)
    club = reading.clubs.find(club_text) if club_text else None
    if club_text and club is None and reading.clubs.unknown(club_text):
        codes = ", ".join(c.code for c in reading.clubs.clubs) or "aucun"
        found.append(UNKNOWN_CLUB(sheet.ref("club"), club=club_text, fix=f"écrivez le code ou le nom d’un club de "
                                  f"l’annuaire ({codes}), ou ajoutez le club à clubs.xlsx"))
    formula = sheet.read("formule", _formula, found, fill=FORMULA_FIX)
    series = sheet.read("serie", values.text, found, required=False)
    location = sheet.read("lieu", values.text, found, required=False)

    rows = _results(workbook, formula, found)
    refused = blocking(found)  # a warning alone (an empty Prénom) refuses nothing
    if refused:
        # Refused: its rows never reach the results table, whose checks (the players' clubs) would
        # otherwise only speak on the next run, once these problems are fixed. Said now, all at once.
        _check_clubs(rows, reading, found)
    problems.extend(found)
    if refused or club is None:
        # "club" is required: a missing, empty or unknown club has put a problem in found; a club on a
        # row of clubs.xlsx with its own problem is said there, once, and blocks the build
        return None
    content = GrandSudTournament(club=club, series=series or club.code, formula=formula, location=location or "")
    return Event(id=workbook.label, name=name, date=day, content=content, results=rows)


def _check_clubs(rows: list[GrandSudRow], reading: Reading, found: list[Problem]) -> None:
    """The players' clubs the directory does not know, as the results table says them."""
    from reportgen.ingest.normalise import unknown_club  # pandas: only for a refused workbook

    if not reading.clubs.clubs:
        return  # no directory (or a broken one): said once, as the cause
    for row in rows:
        if row.club and reading.clubs.unknown(row.club):
            found.append(unknown_club(row.club, row.club_ref or row.ref, reading.clubs))


def _results(workbook: Workbook, formula: str | None, found: list[Problem]):
    elsewhere = len(found)  # the `Tournoi` sheet's problems: an empty sheet is said with them, in one answer
    sheet = workbook.sheet(RESULTS_SHEET)
    if sheet is None:
        # « Place duplicate » only where its formula needs it (formats.md): a duplicate tournament was
        # asked for a column it has no use for
        columns = "Place, Nom, Prénom, Licence, Club" + (", Place duplicate" if formula == "poules" else "")
        found.append(MISSING_SHEET(workbook.ref(), sheet=RESULTS_SHEET, present=workbook.present(),
                                   fix=f"nommez « Résultats » la feuille des résultats, ou ajoutez-la ({columns})"))
        return []
    table = required_table(workbook, sheet, [PLACE, PLACE_DUPLICATE, LAST_NAME, FIRST_NAME, PLAYER, LICENCE, CLUB],
                           [PLACE] + ([PLACE_DUPLICATE] if formula == "poules" else []),
                           "ajoutez une ligne d’en-têtes avec ces colonnes au-dessus des résultats", found, names=True,
                           typed_by_hand=True)
    if table is None:
        return []
    if not table.has("club"):
        found.append(MISSING_CLUB_COLUMN(_after_headers(workbook, sheet, table.header_row)))
    rows: list[GrandSudRow] = []
    # Each place given -> the row that gave it first: its cell is named only when a problem says it
    # (a `SourceRef` per row and place was made for each of 200,000 rows at 100x, twentieth round).
    places: dict[str, dict[int, int]] = {"place": {}, "place_duplicate": {}}
    # What every row of the sheet asks alike, asked once for the sheet (fourteenth round).
    keys = ("place", "place_duplicate") if formula == "poules" else ("place",)
    has_club, has_licence = table.has("club"), table.has("licence")
    name_key = "last_name" if table.has("last_name") else "player"
    whole = _read_whole(table, keys)
    for position, row in enumerate(table.rows):
        if whole is not None:
            last, first, licence, club, *placed = whole[position]
        else:  # row by row: each problem said in the rows' order, as a secretary reads them
            last, first, _ = table.read_name(row, found)
            licence = table.read(row, "licence", values.text, found, required=False) or ""
            club = table.read(row, "club", values.text, found, required=False) or ""
        given: dict[str, int] = {}
        for index, key in enumerate(keys):
            parsed = placed[index] if whole is not None else table.read(row, key, values.untied_place, found)
            if parsed is None:
                continue
            number, tied = parsed
            first_row = places[key].setdefault(number, row)
            if tied or first_row != row:
                where = f" (déjà en {table.ref(first_row, key).cell})" if first_row != row else ""
                found.append(DUPLICATE_PLACE(table.ref(row, key), place=number, first=where))
            given[key] = number
        if last is None or "place" not in given:
            continue  # the problem is already said
        rows.append(GrandSudRow(entry=Entry(licence, last, first), ref=table.ref(row, name_key), club=club,
                                club_ref=table.ref(row, "club") if has_club else None,
                                licence_ref=table.ref(row, "licence") if has_licence else None,
                                place=given["place"],
                                # §2.2: in an all-duplicate tournament the final place counts twice
                                place_duplicate=given.get("place_duplicate", given["place"])))
    if not rows and len(found) == elsewhere:
        found.append(EMPTY(workbook.ref(sheet), rows="tous les joueurs du tournoi"))
    count = len(table.rows)
    for key, given_rows in places.items():
        # A place beyond the count means one below it is given to nobody: a row deleted, or a place
        # mistyped. The cell said is the high place; the fix names the missing one(s), to look for.
        missing = [number for number in range(1, count + 1) if number not in given_rows]
        for number, row in given_rows.items():
            if number > count:
                found.append(PLACE_RANGE(table.ref(row, key), place=number, count=count,
                                         fix="chaque place de 1 au nombre de joueurs doit être donnée une fois"
                                         + _nobody(missing)))
    return rows


def _after_headers(workbook: Workbook, sheet: Sheet, header_row: int) -> SourceRef:
    """The first empty cell right of the header row's last header: where a column missing goes."""
    headers = sheet.rows[header_row]
    used = max((col for col, value in enumerate(headers) if not values.is_empty(value)), default=-1)
    return workbook.ref(sheet, header_row, used + 1)


def _nobody(missing: list[int]) -> str:
    """« : la place 5 n'est donnée à personne », for the places from 1 to the count no row has (the
    first few: a sheet cut in half misses a hundred)."""
    if len(missing) == 1:
        return f" : la place {missing[0]} n’est donnée à personne"
    if not missing:
        return ""
    return f" : les places {french.listed([str(n) for n in missing], MISSING_PLACES_SHOWN)} ne sont données à personne"


def _read_whole(table: Table, keys: tuple[str, ...]) -> list[tuple] | None:
    """Each data row's (last, first, licence, club, then its places of `keys`) when every cell of
    those columns reads at once (`Table.read_all`: most workbooks, a column in one loop rather than
    a call per cell); None when one does not (a blank name, a place that is no place...)."""
    names = table.read_names()
    if names is None:
        return None
    columns: list[list] = []
    for column in [table.read_all(key, values.text, required=False) for key in ("licence", "club")] + \
            [table.read_all(key, values.untied_place) for key in keys]:
        if column is None:
            return None
        columns.append(column)
    return [(last, first, licence or "", club or "", *placed)
            for (last, first), licence, club, *placed in zip(names, *columns)]
