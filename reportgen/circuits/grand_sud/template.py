"""The blank Grand Sud workbook a club fills in (`reportgen template grand-sud --club CODE`): the
canonical layout of docs/formats.md, with lists, whole numbers, dates, input help, the league's
clubs and a filled example on a sheet of its own (never read as a result)."""

from __future__ import annotations

import datetime as dt
from dataclasses import replace

from reportgen.circuits.common import TEMPLATE_ROWS, clubs_sheet, column_rule, fields_sheet
from reportgen.ingest.directories import Club, ClubDirectory
from reportgen.model import Annex, AnnexColumn, AnnexSheet, InputRule

HEADERS = ["Place", "Nom", "Prénom", "Licence", "Club", "Place duplicate"]
# A whole small tournament of the `poules` formula, so that typed as it is it passes `check`: the
# final places and the duplicate's each from 1 to the number of players (§2.2). Its clubs are the
# league's (the organiser's first), when it has a directory.
EXAMPLE = [[1, "DUPONT", "Jean", "12345", "Carcassonne", 3], [2, "MARTIN", "Paul", "23456", "Toulouse", 1],
           [3, "DURAND", "Anne", "", "Carcassonne", 2]]


def blank_workbook(clubs: ClubDirectory, club: Club | None, day: dt.date) -> Annex:
    # Every rule says its kind; none blocks typing (model.InputRule): the reader takes a club's
    # code or name, « 1er », « tout en duplicate », a date typed as text, and `check` says the rest.
    tournoi = fields_sheet([
        ("Circuit", "grand-sud", InputRule(0, 0, 0, 0, "Le circuit du tournoi.", "list", choices=("grand-sud",))),
        ("Nom", "", InputRule(0, 0, 0, 0, "Le nom du tournoi, tel qu’il sera imprimé dans les bulletins.", "text")),
        ("Date", "", InputRule(0, 0, 0, 0, "Le premier jour de jeu (jj/mm/aaaa).", "date")),
        ("Club", club.code if club else "", _clubs_rule("Le club organisateur (son code).", clubs, "A")),
        ("Série", "", InputRule(0, 0, 0, 0, "Facultatif : pour un club qui organise deux tournois par an.", "text")),
        ("Formule", "", InputRule(0, 0, 0, 0, "poules (duplicate puis poules) ou duplicate (tout en duplicate).",
                                  "list", choices=("poules", "duplicate"))),
        ("Lieu", club.name if club else "", InputRule(0, 0, 0, 0, "Facultatif : la ville.", "text")),
    ])
    columns = [AnnexColumn(h, "int" if h.startswith("Place") else "text", 22 if h == "Nom" else 12) for h in HEADERS]
    results = AnnexSheet("Résultats", columns, [], [
        column_rule(0, "La place finale : chaque place de 1 au nombre de joueurs une fois.", "whole",
                    minimum=1, maximum=999),
        column_rule(1, "Le nom de famille, en capitales.", "text"),
        column_rule(2, "Le prénom.", "text"),
        column_rule(3, "Le numéro de licence, s’il est connu.", "text"),
        replace(_clubs_rule("Le club du joueur, tel que l’annuaire le nomme.", clubs, "B"),
                first_row=1, first_col=4, last_row=TEMPLATE_ROWS, last_col=4),
        column_rule(5, "La place au duplicate (formule poules ; sinon laissez vide).", "whole", minimum=1, maximum=999),
    ])
    example = AnnexSheet("Exemple", columns, _example(clubs, club))
    title = f"Tournoi Grand Sud — classeur à remplir{' par ' + club.name if club else ''}"
    return Annex("modele-grand-sud", title, day, [tournoi, results, example, clubs_sheet(clubs)])


def _clubs_rule(message: str, clubs: ClubDirectory, column: str) -> InputRule:
    """A list of the `Clubs` sheet's codes (A) or names (B); with no directory, input help only
    (an empty range would offer the sheet's header and refuse everything else)."""
    if not clubs.clubs:
        return InputRule(0, 0, 0, 0, message, "text")
    return InputRule(0, 0, 0, 0, message, "list", source=f"=Clubs!${column}$2:${column}${len(clubs.clubs) + 1}")


def _example(clubs: ClubDirectory, club: Club | None) -> list[list[object]]:
    """EXAMPLE with clubs the Club list offers: the organiser's, then the directory's others."""
    names = [c.name for c in ([club] if club else []) + [c for c in clubs.clubs if c != club]]
    if not names:
        return [list(row) for row in EXAMPLE]
    return [row[:4] + [names[index % len(names)]] + row[5:] for index, row in enumerate(EXAMPLE)]
