"""`reportgen template CIRCUIT [--club CODE]`: a blank workbook for a club to fill in, read anywhere
in inputs/ once filled; `reportgen template calendrier`: the league's blank calendar, read as
inputs/calendrier.xlsx alone. Each says where the filled one goes."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from reportgen import clock
from reportgen.cli_support import InputsOption, err, names_nothing, print_problems

CALENDAR = "calendrier"  # not a circuit: the league's calendar of tournaments
FOLDER = "modeles"  # under outputs/: for the secretary to send (the site links none: `publish` leaves it out)


def with_templates() -> list[str]:
    """The circuits that have a blank workbook, in the registry's order: what the command accepts
    besides the calendar, as its help and its refusal say it (the help's list is made when the command
    line imports this module, after the installed packages' circuits are registered: cli.py)."""
    from reportgen import circuits

    return [slug for slug, info in circuits.REGISTRY.items() if info.template]


def template(
    circuit: Annotated[str, typer.Argument(help=f"Le circuit du tournoi ({', '.join(with_templates())}), ou "
                                           f"« {CALENDAR} » pour le calendrier de la ligue.")],
    club: Annotated[Optional[str], typer.Option("--club", help="Le code du club organisateur.")] = None,
    inputs: InputsOption = Path("inputs"),
    outputs: Annotated[Path, typer.Option("--outputs", help=f"Dossier des bulletins publiés (ce que produit make) : "
                                          f"le classeur va dans son sous-dossier {FOLDER}/.")] = Path("outputs"),
) -> None:
    """Écrire un classeur vierge à remplir (listes, aide à la saisie, exemple) : celui d’un tournoi, pour le club
    qui l’organise, ou le calendrier de la ligue, et dire où le déposer une fois rempli."""
    from reportgen import circuits, french
    from reportgen.ingest.calendar import CALENDAR_FILE
    from reportgen.ingest.directories import CLUBS_FILE, ClubDirectory, read_clubs
    from reportgen.ingest.discover import folder_named
    from reportgen.ingest.workbook import read_workbooks
    from reportgen.model import Problem
    from reportgen.render.excel import render_annex
    from reportgen.render.files import write_atomic

    if circuit not in [*with_templates(), CALENDAR]:
        raise typer.BadParameter(f"pas de classeur à remplir pour « {circuit} » ; circuits : "
                                 + ", ".join(with_templates()) + f", ou « {CALENDAR} »", param_hint="CIRCUIT")
    if circuit == CALENDAR and club:
        raise typer.BadParameter("le calendrier est celui de la ligue, pas d’un club", param_hint="--club")
    # A mistyped --inputs: its clubs.xlsx unread (the workbook's club list empty), and the filled
    # workbook sent to a folder that is not there.
    folder_named(inputs)
    problems: list[Problem] = []
    clubs = ClubDirectory()
    if (inputs / CLUBS_FILE).is_file():
        workbooks, problems = read_workbooks([inputs / CLUBS_FILE], inputs)
        if workbooks:
            clubs = read_clubs(workbooks[0], problems)
    if any(problem.blocking for problem in problems):  # a warning (a club's bad Email) blocks no blank workbook
        print_problems(problems, [])
        raise typer.Exit(1)
    organiser = clubs.find(club) if club else None
    if club and organiser is None:  # a mistyped code, said before the directory's warnings
        names_nothing(f"le club « {club} » n’est pas dans {inputs / CLUBS_FILE}"
                      + french.existing("codes", [known.code for known in clubs.clubs],
                                        "il n’y en a aucun" if (inputs / CLUBS_FILE).is_file() else "il est absent"))
    if problems:
        print_problems(problems, [])
    if circuit == CALENDAR:
        from reportgen.ingest.calendar import blank_calendar

        data = render_annex(blank_calendar({slug: info.title for slug, info in circuits.REGISTRY.items()}, clubs,
                                           clock.today()))
    else:  # the one made for the inbox's answers and the reminders too
        from reportgen.delivery.inbox_answers import blank_template

        blank = blank_template(circuit, clubs, organiser, clock.today())
        assert blank is not None  # `with_templates` lists the circuits that have one
        data = blank.data
    target = outputs / FOLDER / f"modele-{circuit}{'-' + organiser.code.lower() if organiser else ''}.xlsx"
    write_atomic(target, data)
    # Whole paths: the league's folders are the current folder's inputs/ and outputs/, as for every
    # command (README), and « outputs/modeles/… » did not say which when --inputs named another.
    err(f"classeur à remplir écrit : {target.absolute()}")
    if circuit == CALENDAR:  # read under that name alone (README)
        err(f"une fois rempli, enregistrez-le sous le nom {(inputs / CALENDAR_FILE).absolute()} : « make » et "
            "« reportgen remind » le lisent là")
    else:  # a tournament's workbook is read anywhere in inputs/
        err(f"à envoyer au club qui organise le tournoi ; une fois rempli, déposez-le dans {inputs.absolute()} (dans "
            "le sous-dossier de votre choix) : « make » le lit là")
