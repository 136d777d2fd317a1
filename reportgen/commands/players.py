"""`reportgen players …`: who is who, as the secretary decides it (recorded in inputs/joueurs.xlsx,
so that the same question never comes back). The players are those the build reads: inputs/ and,
once a season N−1 a circuit needs has left it for the archive, that season's (delivery/seasons.py),
whose players the build's notes name too."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, NoReturn

import typer

from reportgen.cli_support import InputsOption, err, names_nothing, print_problems
from reportgen.commands.delivery_options import ArchiveOption

app = typer.Typer(help="Les joueurs : liste, même personne, personnes distinctes.", no_args_is_help=True)
PlayerArgument = Annotated[str, typer.Argument(metavar="joueur", help="Le joueur, écrit « NOM Prénom ».")]


def _league(inputs: Path, archive: Path):
    from reportgen.delivery.seasons import league_folder
    from reportgen.pipeline import load

    with league_folder(inputs, archive, say=err) as folder:
        league = load(folder)
    # The problems that concern the whole league (unreadable files, the players' directory), and the
    # club directory's: while it has one, the tournaments that name clubs are held back, and their
    # players with them.
    stops = sorted(set(league.problems).union(league.club_problems()))
    if stops:
        print_problems(stops, [])
        raise typer.Exit(1)
    return league


def _known(league, name: str) -> dict[str, str]:
    """The player of that name in the results, or listed without one (a Tantrix entrant who played
    no game), by the name typed or the one the players' directory gives him: licence and latest
    club ({} if nobody)."""
    from reportgen.ingest.text import name_key

    wanted = name_key(name)
    for inputs_ in league.circuits.values():
        for rows in (inputs_.results, inputs_.listed):
            if rows.empty:
                continue
            mine = rows[(rows["typed"].map(name_key) == wanted) | (rows["player"].map(name_key) == wanted)]
            if not mine.empty:
                return {"licence": str(mine["licence"].iloc[-1]), "club": str(mine["club"].iloc[-1])}
    return {}


def _nobody(league, said: str) -> NoReturn:
    """A name that appears in no workbook: a mistyped command (exit 2); but a workbook to correct
    may hold him: its problems first (exit 1)."""
    names_nothing(said, [problem for problem in league.all_problems() if problem.blocking])


@app.command("merge")
def merge(player: PlayerArgument, spelling: Annotated[str, typer.Argument(metavar="graphie", help="Son autre graphie.")],
          inputs: InputsOption = Path("inputs"), archive: ArchiveOption = Path("archive")) -> None:
    """Dire que deux noms sont la même personne : le second devient une autre graphie du premier."""
    from reportgen.ingest.directories import PLAYERS_FILE
    from reportgen.render.directory import add_spelling

    league = _league(inputs, archive)
    known = _known(league, player)
    if not known and not _known(league, spelling):
        _nobody(league, f"ni « {player} » ni « {spelling} » n'apparaissent dans les classeurs de {inputs} "
                        "(« reportgen players list » les liste)")
    add_spelling(inputs / PLAYERS_FILE, player, spelling, known.get("licence", ""), known.get("club", ""))
    err(f"« {spelling} » est désormais une autre graphie de « {player} » ({inputs / PLAYERS_FILE})")


@app.command("distinct")
def distinct(player: PlayerArgument, other: Annotated[str, typer.Argument(metavar="autre", help="L'autre joueur.")],
             inputs: InputsOption = Path("inputs"), archive: ArchiveOption = Path("archive")) -> None:
    """Dire que deux noms proches sont deux personnes : la question ne sera plus posée."""
    from reportgen.ingest.directories import PLAYERS_FILE
    from reportgen.render.directory import add_distinct

    league = _league(inputs, archive)
    # The two names of a question the build asked (two people who may be one): a name of nobody,
    # recorded, would leave the question asked.
    for name in (player, other):
        if not _known(league, name):
            _nobody(league, f"« {name} » n'apparaît dans aucun classeur de {inputs} (« reportgen players list » liste "
                            "les joueurs)")
    add_distinct(inputs / PLAYERS_FILE, player, other)
    err(f"« {player} » et « {other} » sont deux personnes ({inputs / PLAYERS_FILE})")


@app.command("list")
def list_players(inputs: InputsOption = Path("inputs"), archive: ArchiveOption = Path("archive")) -> None:
    """Lister les joueurs de chaque circuit avec leurs tournois."""
    from reportgen import french

    league = _league(inputs, archive)
    for slug, inputs_ in league.circuits.items():
        rows = inputs_.results
        if rows.empty:
            continue
        names = {e.id: e.name for e in inputs_.events}
        typer.echo(f"{slug} : {french.plural(rows['player_id'].nunique(), 'joueur')}")
        for _, mine in sorted(rows.groupby("player_id"), key=lambda item: (item[1]["player"].iloc[0], item[0])):
            first = mine.iloc[0]
            licence = f", licence {first['licence']}" if first["licence"] else ""
            club = f", {mine['club'].iloc[-1]}" if mine["club"].iloc[-1] else ""
            played = " ; ".join(f"{names[row.event]} ({french.date_short(row.date.date())})"
                               for row in mine.sort_values("date").itertuples())
            typer.echo(f"  {first['player']}{licence}{club} — {french.plural(len(mine), 'tournoi')} : {played}")
