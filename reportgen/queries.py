"""What the commands ask of a scored league, as the library answers it: which ranking `reportgen
standings` shows (a season's, the one in force on a day, the final one, an event's by its name),
that ranking as a table for the terminal, and the problems in the order they are printed. The
command line only parses its options, calls these, prints and exits."""

from __future__ import annotations

import datetime as dt
from collections.abc import Collection, Iterable

from reportgen import french
from reportgen.ingest.directories import CLUBS_FILE
from reportgen.ingest.text import normalise_label
from reportgen.model import Column, MistypedName, Problem, Ranking, RankingRow, ReportgenError, ScopeKind
from reportgen.scoring.in_force import ranking_in_force


class NotFound(ReportgenError):
    """No ranking answers the question though no workbook is at fault (a final one asked for before
    any event is over); the message says so, and what to do, in French (`standings` exits 2, as for
    a MistypedName). A season, a tournament or a day (before the first ranking takes effect) that
    names none of the circuit's is a MistypedName instead (the command was mistyped)."""


def sorted_problems(problems: Iterable[Problem]) -> list[Problem]:
    """The club directory's own problems first: the « club inconnu » lines may follow from them."""
    return sorted(problems, key=lambda p: (p.where.path.casefold() != CLUBS_FILE, p))


def season_ranking(circuit: str, rankings: list[Ranking], season: int | None = None, day: dt.date | None = None,
                   final: bool = False, published: Collection[str] | None = None) -> Ranking:
    """The season ranking `reportgen standings` shows: the latest one published (of `season`), the
    final one, or the one in force on `day`; for a circuit without season rankings (Tantrix, pool
    tournaments), its latest event's. `published`: the paths of the rankings that have a bulletin.
    While a season runs, its ranking « à date » is its latest dated bulletin (issue 27): its final
    ranking so far, which has none until the season is over, is the latest published only with
    `final` (the site, the bulletins and the mails show the same)."""
    chosen = [r for r in rankings if r.scope.kind == ScopeKind.SEASON and (season is None or r.season == season)]
    ranking: Ranking | None
    starts: list[dt.date] = []  # with `day`: when each ranking it might have been takes effect
    played: list[Ranking] = []  # a circuit of events: those of the season asked for, over or not
    if not chosen and not any(r.scope.kind == ScopeKind.SEASON for r in rankings):
        # An event's standings: its latest (final: once complete, as the Masters' after its 15 matches;
        # on `day`: the latest of an event played by then).
        played = [r for r in rankings if r.scope.kind == ScopeKind.EVENT and (season is None or r.season == season)]
        events = [r for r in played if r.final or not final]
        starts = [r.date for r in events]
        ranking = max((r for r in events if day is None or r.date <= day), key=lambda r: r.date, default=None)
    elif day is not None:
        starts = [r.effective for r in chosen]
        ranking = ranking_in_force(chosen, day)
    else:
        latest = max(r.season for r in chosen) if chosen else None
        chosen = [r for r in chosen if r.season == latest and (r.final or not final)]
        if not final and published is not None:
            chosen = [r for r in chosen if r.path in published] or chosen
        ranking = chosen[-1] if chosen else None
    if ranking is None:
        season_text = f" pour la saison {season}" if season else ""
        said = (f"aucun classement{' final' if final else ''} {circuit}{season_text}"
                + (f" en vigueur le {french.date_long(day)}" if day else ""))
        seasons = sorted({r.season for r in rankings})
        if season is not None and season not in seasons:
            raise MistypedName(said + french.existing("saisons", seasons))
        if day is not None and starts:  # a day before the first: --at names no ranking (exit 2, README)
            raise MistypedName(f"{said} ; le premier entre en vigueur le {french.date_long(min(starts))}")
        if final and played:  # events under way, none over yet (a Masters before its 15th match)
            asked = f"reportgen standings {circuit}" + (f" --season {season}" if season else "")
            raise NotFound(f"{said} : aucun tournoi n’est encore fini (son classement final vient une fois tous "
                           "ses matchs saisis) ; sans --final, "
                           f"« {asked} » donne le classement à date")
        raise NotFound(said)
    return ranking


def so_far(ranking: Ranking, published: Collection[str]) -> bool:
    """A season's final ranking while its season runs: it has no bulletin yet (`published`: the
    paths of the rankings that have one), the year's tournaments alone, « provisoire » wherever it
    is shown (`standings`, `history`). An event's standings (a pool tournament's, CSV and annex
    only) never are."""
    return ranking.final and ranking.scope.kind == ScopeKind.SEASON and ranking.path not in published


def event_ranking(circuit: str, rankings: list[Ranking], name: str, season: int | None = None) -> Ranking:
    """The latest ranking of the event named `name` (its `Nom`, case and spaces aside)."""
    events = [r for r in rankings if r.scope.kind == ScopeKind.EVENT and (season is None or r.season == season)]
    matching = [r for r in events if normalise_label(r.scope.name) == normalise_label(name)]
    if not matching:
        known = sorted({r.scope.name for r in events})
        raise MistypedName(f"aucun tournoi {circuit} ne s’appelle « {name} »" + (f" en {season}" if season else "")
                           + french.existing("tournois", known))
    if len({r.scope.event for r in matching}) > 1:
        dates = ", ".join(sorted({french.date_long(r.date) for r in matching}))
        raise MistypedName(f"plusieurs tournois {circuit} s’appellent « {name} » ({dates}) : précisez --season")
    return matching[-1]


def table(ranking: Ranking, so_far: bool = False) -> str:
    """A ranking for the terminal, from its own columns (those no row fills are left out), titled by
    its status as its bulletin is (« classement final », else of its date). `so_far`: a season's
    final ranking while the season runs (it has no bulletin yet), « provisoire »."""
    if ranking.scope.kind == ScopeKind.SEASON:
        title = (f"Classement final {ranking.season}"
                 + (f" provisoire (tournois de {ranking.season} seulement)" if so_far else "") if ranking.final
                 else f"Classement au {french.date_long(ranking.date)}")
    elif ranking.scope.kind == ScopeKind.EVENT:
        title = f"{ranking.scope.name} — " + (
            "classement final" if ranking.final else f"classement au {french.date_long(ranking.date)}")
    else:
        title = f"Liste de classement au {french.date_long(ranking.date)}"
    columns = [c for c in ranking.all_columns if any(row.value(c.key) not in ("", None) for row in ranking.rows)]

    def shown(row: RankingRow, column: Column) -> str:
        value = row.value(column.key)
        if column.key == "rank":
            return "" if value in ("", None) else french.shared_place(value, row.tied)
        if column.kind == "bool":
            return "oui" if value else ""
        if column.kind == "evolution" or (column.kind in ("int", "number") and isinstance(value, (int, float))
                                          and not isinstance(value, bool)):
            # as the bulletins and the site write it (« 1 991,0 », « +3 », « = »), a plain space between thousands
            return french.column_value(value, column).replace(french.THOUSANDS_SEPARATOR, " ")
        return "" if value is None else str(value)

    headers = [c.short or c.header for c in columns]
    lines = [[shown(row, c) for c in columns] for row in ranking.rows]
    widths = [max(len(h), *(len(line[i]) for line in lines)) if lines else len(h) for i, h in enumerate(headers)]
    right = {i for i, c in enumerate(columns) if c.kind in ("int", "number", "evolution")}

    def fmt(cells: list[str]) -> str:
        return "  ".join(c.rjust(w) if i in right else c.ljust(w)
                         for i, (c, w) in enumerate(zip(cells, widths))).rstrip()

    legend = ["", ranking.legend.text] if ranking.legend else []  # what a column gives places in, as pages say it
    return "\n".join([title, fmt(headers), fmt(["-" * w for w in widths]), *(fmt(line) for line in lines), *legend])
