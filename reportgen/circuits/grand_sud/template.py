"""The blank Grand Sud workbook a club fills in (`reportgen template grand-sud --club CODE`): the
canonical layout of docs/formats.md, with lists, whole numbers, dates, input help, the league's
clubs and a filled example on a sheet of its own (never read as a result)."""

from __future__ import annotations

import datetime as dt

from reportgen.circuits.common import clubs_sheet, column_rule, fields_sheet
from reportgen.ingest.directories import Club, ClubDirectory
from reportgen.model import Annex, AnnexColumn, AnnexSheet, InputRule

HEADERS = ["Place", "Nom", "Prénom", "Licence", "Club", "Place duplicate"]
EXAMPLE = [1, "DUPONT", "Jean", "12345", "Carcassonne", 3]


def blank_workbook(clubs: ClubDirectory, club: Club | None, day: dt.date) -> Annex:
    codes = f"=Clubs!$A$2:$A${len(clubs.clubs) + 1}"
    names = f"=Clubs!$B$2:$B${len(clubs.clubs) + 1}"
    tournoi = fields_sheet([
        ("Circuit", "grand-sud", InputRule(0, 0, 0, 0, "Le circuit du tournoi.", "list", choices=("grand-sud",))),
        ("Nom", "", InputRule(0, 0, 0, 0, "Le nom du tournoi, tel qu'il sera imprimé dans les bulletins.")),
        ("Date", "", InputRule(0, 0, 0, 0, "Le premier jour de jeu (jj/mm/aaaa).", "date")),
        ("Club", club.code if club else "", InputRule(0, 0, 0, 0, "Le club organisateur (son code).", "list",
                                                      source=codes)),
        ("Série", "", InputRule(0, 0, 0, 0, "Facultatif : pour un club qui organise deux tournois par an.")),
        ("Formule", "", InputRule(0, 0, 0, 0, "poules (duplicate puis poules) ou duplicate (tout en duplicate).",
                                  "list", choices=("poules", "duplicate"))),
        ("Lieu", club.name if club else "", InputRule(0, 0, 0, 0, "Facultatif : la ville.")),
    ])
    columns = [AnnexColumn(h, "int" if h.startswith("Place") else "text", 22 if h == "Nom" else 12) for h in HEADERS]
    results = AnnexSheet("Résultats", columns, [], [
        column_rule(0, "La place finale : chaque place de 1 au nombre de joueurs une fois.", "whole",
                    minimum=1, maximum=999),
        column_rule(1, "Le nom de famille, en capitales."),
        column_rule(2, "Le prénom."),
        column_rule(3, "Le numéro de licence, s'il est connu."),
        column_rule(4, "Le club du joueur, tel que l'annuaire le nomme.", "list", source=names),
        column_rule(5, "La place au duplicate (formule poules ; sinon laissez vide).", "whole", minimum=1, maximum=999),
    ])
    example = AnnexSheet("Exemple", columns, [EXAMPLE])
    title = f"Tournoi Grand Sud — classeur à remplir{' par ' + club.name if club else ''}"
    return Annex("modele-grand-sud", title, day, [tournoi, results, example, clubs_sheet(clubs)])
