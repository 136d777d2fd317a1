"""`reportgen masters …`: the Masters' own commands (part of the command line's layer: docs/architecture.md)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from reportgen.cli_support import InputsOption, date_option, err, names_nothing, print_problems, write_change

app = typer.Typer(help="Le Masters Grand Sud : participants, classeur des matchs.", no_args_is_help=True)


@app.command("prepare")
def masters_prepare(
    season: Annotated[int, typer.Option(help="La saison du classement annuel qui qualifie les joueurs.")],
    date: Annotated[Optional[str], typer.Option("--date", help="La date du Masters (jj/mm/aaaa).")] = None,
    location: Annotated[Optional[str], typer.Option("--lieu", help="Le lieu du Masters.")] = None,
    inputs: InputsOption = Path("inputs"),
) -> None:
    """Écrire la liste des 16 participants et le classeur du Masters (120 matchs, scores à saisir).

    Relancé après un désistement, il remet les participants et les matchs à jour dans le classeur tel
    que vous le tenez (formats, couleurs, notes conservés), sans jamais effacer un score saisi."""
    from reportgen import french
    from reportgen.circuits.masters.prepare import prepare
    from reportgen.pipeline import load, score

    day = date_option(date, "--date")
    league = load(inputs)
    scored = score(league, ["grand-sud"])
    blocking = scored.blocked.get("grand-sud", []) + league.problems_of("masters")
    if blocking or "grand-sud" not in scored.reports:
        print_problems(blocking or [], league.notices)
        if not blocking:
            err(f"aucun tournoi Grand Sud dans {inputs}")
        raise typer.Exit(1)
    # A season of no Grand Sud final ranking nor Masters workbook: a mistyped --season (exit 2).
    seasons = sorted({r.season for r in scored.reports["grand-sud"].rankings if r.final})
    if season not in seasons and not any(e.content.season == season for e in league.circuits["masters"].events):
        names_nothing(f"aucun classement final Grand Sud pour la saison {season}" + french.existing("saisons", seasons))
    settings = league.settings.circuits["masters"]
    prepared = prepare(season, scored.reports["grand-sud"], league.circuits["masters"].events, day, location, settings)
    if prepared.problems:
        print_problems(prepared.problems, prepared.notices)
        # A tie at the 16th place and no workbook yet: the workbook where the play-off is recorded.
        if prepared.change is not None:
            write_change(prepared.change, inputs)  # one it cannot write: its problems said
            err(f"classeur écrit : {inputs / prepared.change.path} (feuille « Désistements » à remplir)")
        raise typer.Exit(1)
    assert prepared.change is not None  # prepared without a problem
    write_change(prepared.change, inputs)
    for notice in prepared.notices:
        err(f"note : {notice}")
    target = inputs / prepared.change.path
    typer.echo(f"Participants du Masters Grand Sud {season} :")
    for participant in prepared.participants:
        club = f", {participant.club}" if participant.club else ""
        # « 1re place », not « 1er », which says a man (the league knows no gender)
        typer.echo(f"{participant.number:>3}  {participant.name}  ({french.place(participant.annual_rank)} du "
                   f"classement annuel{club})")
    err(f"classeur écrit : {target} ({french.plural(prepared.kept, 'match déjà saisi conservé', 'matchs déjà saisis conservés')}) ; "
         "lancez « make » pour les feuilles de match")


