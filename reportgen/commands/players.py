"""`reportgen players …`: who is who, as the secretary decides it (recorded in inputs/joueurs.xlsx,
so that the same question never comes back). The players are those the build reads: inputs/ and,
once a season N−1 a circuit needs has left it for the archive, that season's (delivery/seasons.py),
whose players the build's notes name too."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, NoReturn

import typer

from reportgen.cli_support import InputsOption, err, names_nothing, print_problems
from reportgen.commands.delivery_options import ArchiveOption

app = typer.Typer(help="Les joueurs : liste, même personne, personnes distinctes.", no_args_is_help=True)
PlayerArgument = Annotated[str, typer.Argument(metavar="joueur", help="Le joueur, écrit « NOM Prénom ».")]


@contextmanager
def _league(inputs: Path, archive: Path) -> Iterator:
    """The league the build reads, while the command says what it has to: a workbook put back from
    the archive is named there (delivery/seasons.py)."""
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
        yield league


@dataclass(frozen=True)
class Known:
    """A name's rows in the workbooks: his licence and latest club, and where each tournament has
    him (its first row's cell, by event)."""

    licence: str
    club: str
    ids: frozenset[str]  # the players those rows are (one, unless a merge is pending)
    cells: dict[str, str]  # event id -> its first cell, as said (model.SourceRef)

    @property
    def where(self) -> str:
        return next(iter(self.cells.values()))


def _known(league, name: str) -> Known | None:
    """The player of that name in the results, or listed without one (a Tantrix entrant who played
    no game), by the name typed or the one the players' directory gives him (None if nobody)."""
    from reportgen.ingest.duplicates import tournament_cells
    from reportgen.ingest.text import name_key

    wanted = name_key(name)
    for inputs_ in league.circuits.values():
        for rows in (inputs_.results, inputs_.listed):
            if rows.empty:
                continue
            mine = rows[(rows["typed"].map(name_key) == wanted) | (rows["player"].map(name_key) == wanted)]
            if not mine.empty:
                return Known(str(mine["licence"].iloc[-1]), str(mine["club"].iloc[-1]),
                             frozenset(mine["player_id"]), tournament_cells(mine))
    return None


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

    with _league(inputs, archive) as league:
        known, other = _known(league, player), _known(league, spelling)
        if known is None and other is None:
            _nobody(league, f"ni « {player} » ni « {spelling} » n’apparaissent dans les classeurs de {inputs} "
                            "(« reportgen players list » les liste)")
        if known is not None and other is not None:
            _refuse_two_players(player, known, spelling, other)
        found = [k for k in (known, other) if k is not None]
        # A licence typed is the player whatever the directory says (ingest/players.py): the row is
        # given the one either name has, else the licensed name's results would stay apart.
        add_spelling(inputs / PLAYERS_FILE, player, spelling, next((k.licence for k in found if k.licence), ""),
                     next((k.club for k in found if k.club), ""))
        err(f"« {spelling} » est désormais une autre graphie de « {player} » ({inputs / PLAYERS_FILE})")


def _refuse_two_players(player: str, known: Known, spelling: str, other: Known) -> None:
    """Names the workbooks make two players whatever joueurs.xlsx says (exit 1, nothing written):
    two licences (a licence is a player, ingest/players.py), or both in one tournament
    (`shared_tournament`: the build's question on them says the same)."""
    from reportgen.ingest.duplicates import answers, shared_tournament

    if known.ids & other.ids:
        return  # one player already (a merge made again)
    if known.licence and other.licence and known.licence != other.licence:
        err(f"« {player} » (licence {known.licence}, {known.where}) et « {spelling} » (licence {other.licence}, "
            f"{other.where}) ont deux licences différentes : ce sont deux joueurs quoi que dise joueurs.xlsx — "
            f"{answers(player, spelling, licences=True)}")
        raise typer.Exit(1)
    shared = shared_tournament(known.cells, other.cells)
    if shared:
        err(f"« {player} » ({shared[0]}) et « {spelling} » ({shared[1]}) sont dans le même tournoi : ce sont deux "
            f"joueurs tant que les deux lignes y sont — {answers(player, spelling, one_tournament=True)}")
        raise typer.Exit(1)


@app.command("distinct")
def distinct(player: PlayerArgument, other: Annotated[str, typer.Argument(metavar="autre", help="L’autre joueur.")],
             inputs: InputsOption = Path("inputs"), archive: ArchiveOption = Path("archive")) -> None:
    """Dire que deux noms proches sont deux personnes : la question ne sera plus posée."""
    from reportgen.ingest.directories import PLAYERS_FILE
    from reportgen.render.directory import add_distinct

    with _league(inputs, archive) as league:
        # The two names of a question the build asked (two people who may be one): a name of nobody,
        # recorded, would leave the question asked.
        for name in (player, other):
            if not _known(league, name):
                _nobody(league, f"« {name} » n’apparaît dans aucun classeur de {inputs} (« reportgen players list » liste "
                                "les joueurs)")
        add_distinct(inputs / PLAYERS_FILE, player, other)
        err(f"« {player} » et « {other} » sont deux personnes ({inputs / PLAYERS_FILE})")


@app.command("list")
def list_players(inputs: InputsOption = Path("inputs"), archive: ArchiveOption = Path("archive")) -> None:
    """Lister les joueurs de chaque circuit avec leurs tournois."""
    from reportgen import french

    with _league(inputs, archive) as league:
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
