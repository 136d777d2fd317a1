"""A Grand Sud tournament workbook: the `Tournoi` fields and the `Résultats` sheet (docs/formats.md)."""

from __future__ import annotations

from reportgen.circuits.base import Reading
from reportgen.ingest import values
from reportgen.ingest.tables import CLUB, FIRST_NAME, LAST_NAME, LICENCE, PLACE, PLACE_DUPLICATE, PLAYER, find_table
from reportgen.ingest.text import normalise_label
from reportgen.ingest.tournament import TournamentSheet, read_name_and_date
from reportgen.ingest.workbook import Workbook
from reportgen.model import Entry, Event, Problem, SourceRef

RESULTS_SHEET = "Résultats"
# §2.1 tournoi en poules (a duplicate phase then pools: two places), §2.2 tout en duplicate.
FORMULAS = {"poules": "poules", "duplicate": "duplicate", "tout en duplicate": "duplicate",
            "tout duplicate": "duplicate"}


def _formula(value: object) -> str:
    label = normalise_label(values.text(value))
    if label not in FORMULAS:
        # §2.3: another formula needs a vote of the league before it can count.
        raise values.BadValue(f"la formule « {values.shown(value)} » n'est pas prévue par le règlement (§2.3)",
                              "écrivez « poules » ou « duplicate »")
    return FORMULAS[label]


def parse(workbook: Workbook, sheet: TournamentSheet, reading: Reading,
          problems: list[Problem]) -> Event | None:
    found: list[Problem] = []
    name, day = read_name_and_date(sheet, reading.today, found)
    club_text = sheet.read("club", values.text, found)
    club = reading.clubs.find(club_text) if club_text else None
    if club_text and club is None:
        codes = ", ".join(c.code for c in reading.clubs.clubs) or "aucun"
        found.append(Problem(sheet.ref("club"), f"le club « {club_text} » n'est pas dans l'annuaire clubs.xlsx",
                             f"écrivez le code ou le nom d'un club de l'annuaire ({codes}), "
                             "ou ajoutez le club à clubs.xlsx", code="unknown-club"))
    formula = sheet.read("formule", _formula, found)
    series = sheet.read("serie", values.text, found, required=False)
    location = sheet.read("lieu", values.text, found, required=False)

    entries, rows = _results(workbook, formula, found)
    problems.extend(found)
    if found:
        return None
    return Event(id=workbook.label, name=name, date=day, entries=entries, rows=rows,
                 info={"club": club, "series": series or club.code, "formula": formula,
                       "location": location or ""})


def _results(workbook: Workbook, formula: str | None, found: list[Problem]):
    sheet = workbook.sheet(RESULTS_SHEET)
    if sheet is None:
        found.append(Problem(workbook.ref(), f"la feuille « {RESULTS_SHEET} » est introuvable",
                             "ajoutez la feuille des résultats (Place, Nom, Prénom, Licence, Club, Place duplicate)",
                             code="missing-sheet"))
        return [], []
    table = find_table(workbook, sheet, [PLACE, PLACE_DUPLICATE, LAST_NAME, FIRST_NAME, PLAYER, LICENCE, CLUB])
    header_ref = workbook.ref(sheet, table.header_row if table else 0, 0)
    needed = [PLACE] + ([PLACE_DUPLICATE] if formula == "poules" else [])
    missing = [column.header for column in needed if not (table and table.has(column.key))]
    if not (table and table.has_names()):
        missing.append("Nom (ou Joueur)")
    if missing:
        found.append(Problem(header_ref, "colonne introuvable : " + ", ".join(f"« {m} »" for m in missing),
                             "ajoutez une ligne d'en-têtes avec ces colonnes au-dessus des résultats",
                             code="missing-column"))
        return [], []
    entries, rows = [], []
    places: dict[str, dict[int, str]] = {"place": {}, "place_duplicate": {}}
    for row in table.rows:
        last, first, name_ref = table.read_name(row, found)
        licence = table.read(row, "licence", values.text, found, required=False) or ""
        club = table.read(row, "club", values.text, found, required=False) or ""
        record = {"club": club, "ref": name_ref,
                  "place_ref": table.ref(row, "place")}
        for key in ("place", "place_duplicate") if formula == "poules" else ("place",):
            parsed = table.read(row, key, values.place, found)
            if parsed is None:
                continue
            number, tied = parsed
            ref = table.ref(row, key)
            if tied or number in places[key]:
                where = f" (déjà en {places[key][number]})" if number in places[key] else ""
                found.append(Problem(ref, f"la place {number} est donnée deux fois{where} ; le règlement "
                                     "Grand Sud ne prévoit pas d'ex aequo",
                                     "donnez à chaque joueur une place différente", code="duplicate-place"))
            places[key].setdefault(number, ref.cell)
            record[key] = number
        if last is None:
            continue
        if formula == "duplicate":
            record["place_duplicate"] = record.get("place")  # §2.2: the final place counts twice
        entries.append(Entry(licence, last, first))
        rows.append(record)
    if not rows and not found:
        found.append(Problem(workbook.ref(sheet), "aucun résultat dans la feuille",
                             "listez tous les joueurs du tournoi sous la ligne d'en-têtes", code="empty"))
    count = len(table.rows)
    for key, given in places.items():
        for number, cell in given.items():
            if number > count:
                header = table.headers[key]
                found.append(Problem(
                    SourceRef(workbook.label, sheet.name, cell, header),
                    f"la place {number} dépasse le nombre de joueurs classés ({count})",
                    "chaque place de 1 au nombre de joueurs doit être donnée une fois", code="place-range"))
    return entries, rows
