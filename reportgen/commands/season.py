"""`reportgen season close`: the secretary says a season is over before its year is; `reportgen season
open`: she takes it back, a workbook of the season still to come."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Optional

import typer

from reportgen import clock
from reportgen.cli_support import InputsOption, date_option, err, listed, names_nothing, print_problems
from reportgen.commands.delivery_options import ArchiveOption

if TYPE_CHECKING:
    from reportgen.pipeline import League

app = typer.Typer(help="Les saisons : clôture, réouverture (une saison commence d’elle-même avec ses tournois).",
                  no_args_is_help=True)


@app.command("close")
def close(
    season: Annotated[int, typer.Argument(metavar="saison", help="L’année de la saison, par exemple 2026.")],
    date: Annotated[Optional[str], typer.Option("--date", help="La date de clôture (jj/mm/aaaa ; par défaut "
                                                "aujourd’hui), au plus tôt celle du dernier tournoi de la saison.")] = None,
    inputs: InputsOption = Path("inputs"),
    archive: ArchiveOption = Path("archive"),
) -> None:
    """Clore une saison : son bulletin final (HTML, PDF) est publié au prochain « make » (inputs/saisons.toml)."""
    from reportgen import french, pipeline
    from reportgen.ingest.discover import folder_named
    from reportgen.ingest.seasons import SEASONS_FILE, seasons_toml
    from reportgen.render.files import write_atomic

    day = date_option(date, "--date") or clock.today()
    folder_named(inputs)  # a mistyped --inputs would be created, with a saisons.toml nobody reads
    if day.year < season:  # a mistyped year (2062 for 2026) would leave the season meant open, silently
        names_nothing(f"la saison {season} ne peut pas être close le {french.date_long(day)} : elle n’a pas commencé "
                      f"— vérifiez l’année (par exemple « reportgen season close {day.year} »)")
    closed = _closed(inputs)
    if season in closed:
        err(f"la saison {season} est déjà close depuis le {french.date_long(closed[season])}")
        return
    league = pipeline.load(inputs, players_noticed=False)  # its events alone: no notice on the players
    if season < day.year:  # a mistyped year (2019 for 2025) would close a season of nothing, silently
        _refuse_unless_the_league_has(season, league, inputs, archive)
    _refuse_before_its_last_tournament(season, day, league)
    closed[season] = day
    write_atomic(inputs / SEASONS_FILE, seasons_toml(closed))
    if clock.today().year > season:  # over with its year (Reading.season_closed): the build knows it already
        # « terminée », not « close »: closed is what saisons.toml records, and it was over before this
        err(f"la saison {season} est terminée depuis la fin de son année ({french.date_long(dt.date(season, 12, 31))}) : "
            f"« make » en publie déjà le classement final, rien de plus à faire (clôture notée dans "
            f"{inputs / SEASONS_FILE})")
        return
    err(f"saison {season} close le {french.date_long(day)} ({inputs / SEASONS_FILE}) ; "
        "lancez « make » pour publier son classement final")
    _say_awaited(season, day, league)


@app.command("open")
def open_(
    season: Annotated[int, typer.Argument(metavar="saison", help="L’année de la saison, par exemple 2026.")],
    inputs: InputsOption = Path("inputs"),
) -> None:
    """Rouvrir une saison close : son classement redevient « à date » au prochain « make » (inputs/saisons.toml)."""
    from reportgen import french
    from reportgen.ingest.discover import folder_named
    from reportgen.ingest.seasons import SEASONS_FILE, seasons_toml
    from reportgen.render.files import write_atomic

    today = clock.today()
    folder_named(inputs)
    if season == today.year + 1:  # the next one: she means to start it, which takes no command
        names_nothing(f"la saison {season} n’a pas commencé : rien à rouvrir — une saison n’a pas besoin d’être "
                      f"ouverte : ses tournois sont ceux datés de {season}, déposez leurs classeurs dans {inputs} une fois "
                      "joués (« reportgen template calendrier » pour annoncer ses tournois)")
    if season > today.year:  # a mistyped year (2062 for 2026): the season meant would stay closed, silently
        names_nothing(f"la saison {season} n’a pas commencé : rien à rouvrir — vérifiez l’année (par exemple "
                      f"« reportgen season open {today.year} »)")
    closed = _closed(inputs)
    if today.year > season:  # Reading.season_closed: over with its year, whatever saisons.toml says
        # « terminée »: « close » is what saisons.toml records (`season close`), which it may never have held
        err(f"la saison {season} est terminée depuis la fin de son année ({french.date_long(dt.date(season, 12, 31))}) "
            "et ne peut pas être rouverte : son classement final reste celui que « make » publie")
        raise typer.Exit(2)
    if season not in closed:  # as `close` of a season already closed: said, nothing to do
        err(f"la saison {season} n’est pas close : rien à rouvrir")
        return
    day = closed.pop(season)
    write_atomic(inputs / SEASONS_FILE, seasons_toml(closed))
    # What the build does once the line is gone (tests/test_seasons.py builds it): the final
    # bulletins leave outputs/ and the site, the CSV is named « provisoire » again.
    err(f"saison {season} rouverte : sa clôture du {french.date_long(day)} est retirée de {inputs / SEASONS_FILE}")
    err(f"au prochain « make », son classement redevient « à date » : ses bulletins finaux (classement-final-{season}, "
        f"HTML et PDF) sont retirés de outputs/ et du site, son classement y est publié comme provisoire "
        f"(classement-provisoire-{season}.csv et l’annexe), et son dernier bulletin daté est de nouveau le "
        f"classement en vigueur ; « reportgen season close {season} » la clôt de nouveau une fois tous ses "
        "tournois reçus")


def _refuse_unless_the_league_has(season: int, league: League, inputs: Path, archive: Path) -> None:
    """A past season names one of the league when it has a tournament in inputs/ or in the archive
    (its workbooks leave inputs/ once archived); else the command was mistyped (exit 2), as `archive
    --season` says of it."""
    from reportgen import french
    from reportgen.delivery import seasons
    from reportgen.delivery.published import event_season

    there = {event_season(event) for found in league.circuits.values() for event in found.events}
    if season in there:
        return
    there |= seasons.archived_years(archive)
    if season not in there:
        names_nothing(f"la saison {season} n’a aucun tournoi dans {inputs} ni dans l’archive"
                      + french.existing("saisons", sorted(there)),
                      [problem for problem in league.all_problems() if problem.blocking])


def _refuse_before_its_last_tournament(season: int, day: dt.date, league: League) -> None:
    """A season closed on a day before tournaments of it that inputs/ holds would publish as final a
    ranking that still counts them (`pipeline.closed_before`, the regulation's rule): refused, each
    named, with the day to close it on. What is wrong is the day typed (README: exit 2, as a season
    not begun by it), not the workbooks, which the build reads right; a workbook whose own date is
    wrong is the other fix the line gives."""
    from reportgen import french
    from reportgen.pipeline import closed_before

    later = sorted((event.date, event.id, event.name) for slug, found in league.circuits.items()
                   for event in found.events if closed_before(slug, event, {season: day}))
    if not later:
        return
    many = len(later) > 1
    listed(f"la saison {season} ne peut pas être close le {french.date_long(day)} : "
           f"{french.plural(len(later), 'tournoi')} de la saison {'sont datés' if many else 'est daté'} plus tard, "
           f"et son classement final {'les' if many else 'le'} compte :",
           [f"{path} : {name}, {french.date_long(date)}" for date, path, name in later])
    last = later[-1][0]
    err(f"clôturez-la le {french.date_long(last)} ou après (« reportgen season close {season} --date "
        f"{french.date_short(last)} ») ; si {'l’un de ces classeurs' if many else 'ce classeur'} n’est pas de la "
        f"saison {season}, corrigez la date de sa feuille « Tournoi »")
    raise typer.Exit(2)


def _say_awaited(season: int, day: dt.date, league: League) -> None:
    """The tournaments calendrier.xlsx announces in the season whose workbook has not arrived, in
    the circuits the closing makes final: its final bulletin prints them « non reçus » under its
    title (pipeline/calendar.py `mark_awaited`), and one dated after the closing day would be refused
    once it comes. Said, not refused (a cancelled tournament may stay in a calendar nobody updated),
    with what to do either way."""
    from reportgen import circuits, french

    clubs = league.reading.clubs
    awaited = sorted((entry for entry in league.calendar if entry.coming and entry.date.year == season
                      and circuits.REGISTRY[entry.circuit].final_when_closed), key=lambda entry: entry.date)
    if not awaited:
        return
    many = len(awaited) > 1
    listed(f"attention : calendrier.xlsx annonce {french.plural(len(awaited), 'tournoi')} de la saison {season} "
           f"dont le classeur n’est pas arrivé ; son classement final {'les' if many else 'le'} dira "
           f"non reçu{'s' if many else ''} :",
           [f"{entry.title(clubs)}, {french.date_long(entry.date)} ({circuits.REGISTRY[entry.circuit].title})"
            + (" : après la clôture, son classeur serait refusé" if entry.date > day else "") for entry in awaited])
    err(f"s’il{'s ont' if many else ' a'} été annulé{'s' if many else ''}, retirez-{'les' if many else 'le'} de "
        f"calendrier.xlsx ; sinon rouvrez la saison (« reportgen season open {season} ») et clôturez-la une fois "
        f"{'leurs classeurs reçus' if many else 'son classeur reçu'}")


def _closed(inputs: Path) -> dict[int, dt.date]:
    """The seasons saisons.toml closes; a file that cannot be read said as `check` says it (exit 1):
    neither command writes over what the secretary must correct first."""
    from reportgen.ingest.seasons import read_closed
    from reportgen.model import Problem

    problems: list[Problem] = []
    closed = read_closed(inputs, problems)
    if problems:
        print_problems(problems, [])
        raise typer.Exit(1)
    return closed
