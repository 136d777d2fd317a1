"""The blank Tour de France workbook an organiser fills in (`reportgen template tour-de-france
[--club CODE]`): its workbook names no club, so the organising club given is its `Lieu`, as the
Grand Sud's template fills it (a club's name is its town's in clubs.xlsx), for the club to correct."""

from __future__ import annotations

import datetime as dt

from reportgen.circuits.common import column_rule, fields_sheet
from reportgen.ingest.directories import Club, ClubDirectory
from reportgen.model import Annex, AnnexColumn, AnnexSheet, InputRule

HEADERS = ["Place", "Nom", "Prénom", "Hors classement"]
EXAMPLE = [1, "MARTIN", "Paul", ""]


def blank_workbook(clubs: ClubDirectory, club: Club | None, day: dt.date) -> Annex:
    # Every rule says its kind; none blocks typing (model.InputRule): the reader takes a place
    # typed « 1er », « x » for oui, a date typed as text, and `check` says the rest.
    tournoi = fields_sheet([
        ("Circuit", "tour-de-france", InputRule(0, 0, 0, 0, "Le circuit du tournoi.", "list",
                                                choices=("tour-de-france",))),
        ("Nom", "", InputRule(0, 0, 0, 0, "Le nom du tournoi, tel qu’il sera imprimé dans les bulletins.", "text")),
        ("Date", "", InputRule(0, 0, 0, 0, "Le premier jour de jeu (jj/mm/aaaa).", "date")),
        ("Lieu", club.name if club else "", InputRule(0, 0, 0, 0, "La ville.", "text")),
        ("Participants", "", InputRule(0, 0, 0, 0, "Facultatif : les participants physiques, s’ils sont plus "
                                       "nombreux que les joueurs classés.", "whole", minimum=1, maximum=9999)),
    ])
    columns = [AnnexColumn(h, "int" if h == "Place" else "text", 22 if h == "Nom" else 14) for h in HEADERS]
    results = AnnexSheet("Résultats", columns, [], [
        column_rule(0, "La place : des ex aequo partagent un numéro et le suivant le saute (3, 3, 5).", "whole",
                    minimum=1, maximum=9999),
        column_rule(1, "Le nom de famille, en capitales.", "text"),
        column_rule(2, "Le prénom.", "text"),
        column_rule(3, "oui pour un joueur hors classement (l’organisateur, un complément de table).", "list",
                    choices=("oui", "non")),
    ])
    return Annex("modele-tour-de-france", "Tournoi du Tour de France — classeur à remplir", day,
                 [tournoi, results, AnnexSheet("Exemple", columns, [EXAMPLE])])
