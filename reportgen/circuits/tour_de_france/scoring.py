"""The Tour de France season ranking (regulation 004), recomputed after every tournament date:
each player's results best first, the multiplier table applied (« Comment les points des
différentes étapes s'additionnent-ils ? »)."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache

import pandas as pd

from reportgen.circuits.tour_de_france.parse import TourDeFranceEvent
from reportgen.circuits.tour_de_france.scale import place_points, shared, tournament_value
from reportgen.circuits.tour_de_france.settings import TourDeFranceSettings
from reportgen.ingest.text import name_key, words_key
from reportgen.scoring import tiebreaks


@dataclass
class Scored:
    """One tournament with its scale and everyone's points."""

    event: TourDeFranceEvent
    participants: int  # physical participants N: the tournament's value
    value: int | None  # None: under the minimum, the tournament does not count
    scale: list[int]  # points of places 1..n, n = ranked players (excluded ones removed)
    small: bool  # under 12 players: marked, standard scale (INTERPRETATIONS)
    results: list[tuple[str, str, int, Fraction]] = field(default_factory=list)  # player id, name, place, points
    excluded: list[str] = field(default_factory=list)  # names of the players out of the ranking
    excluded_ids: list[str] = field(default_factory=list)  # their ids (their tournament page names them)

    @property
    def id(self) -> str:
        return self.event.id

    @property
    def counts(self) -> bool:
        return self.value is not None


def score_tournament(event: TourDeFranceEvent, table: pd.DataFrame, settings: TourDeFranceSettings) -> Scored:
    """Excluded players are removed, the others' places are those of the ranking (parse.py
    `ranking_places`: the places below an excluded player moved up); ex aequo share the points of
    the places they cover."""
    mine = table[table["event"] == event.id]
    ranked = mine[~mine["excluded"].astype(bool)].sort_values(["place", "player"])
    places = ranked["place"].astype(int).tolist()
    value = tournament_value(event.content.participants, settings)
    scale = place_points(value, len(places), settings) if value is not None and places else []
    scored = Scored(event, event.content.participants, value, scale,
                    event.content.participants < settings.small_tournament_below,
                    excluded=sorted(mine[mine["excluded"].astype(bool)]["player"]),
                    excluded_ids=sorted(mine[mine["excluded"].astype(bool)]["player_id"]))
    points = shared(scale, places) if scale else [Fraction(0)] * len(places)
    scored.results = list(zip(ranked["player_id"], ranked["player"], places, points))
    return scored


@dataclass
class Row:
    rank: int
    tied: bool
    player_id: str
    player: str
    played: int
    total: Fraction
    results: dict[str, tuple[Fraction, float]]  # tournament id -> (points, factor applied)
    previous_rank: int | None


@dataclass
class Ranking:
    season: int
    date: dt.date
    final: bool
    tournaments: list[str]  # ids of the season's tournaments so far (counting or not), date order
    latest: list[str]  # ids of the tournaments of `date`
    rows: list[Row]


def season_total(points: list[Fraction], settings: TourDeFranceSettings) -> tuple[Fraction, list[float]]:
    """Results best first times the factors of the multiplier table: 360, 140, 30 -> 515."""
    ordered = sorted(points, reverse=True)
    factors = settings.factors(len(ordered))
    return sum((p * _exact(f) for p, f in zip(ordered, factors)), Fraction(0)), list(factors)


@cache
def _exact(factor: float) -> Fraction:
    """A factor of the table as the fraction it stands for (0.5 -> 1/2), converted once."""
    return Fraction(factor).limit_denominator()


def rank_season(scored: list[Scored], season: int, day: dt.date, final: bool, previous: Ranking | None,
                settings: TourDeFranceSettings) -> Ranking:
    so_far = [t for t in scored if t.event.date.year == season and t.event.date <= day]
    names: dict[str, str] = {}
    results: dict[str, list[tuple[Fraction, dt.date, str]]] = {}
    for tournament in so_far:
        if not tournament.counts:
            continue
        for player_id, name, _, points in tournament.results:
            names[player_id] = name
            results.setdefault(player_id, []).append((points, tournament.event.date, tournament.id))
    lines = []
    for player_id, mine in results.items():
        ordered = sorted(mine, key=lambda r: (-r[0], r[1], r[2]))  # best first; equal points: earlier first
        total, factors = season_total([r[0] for r in ordered], settings)
        lines.append((total, player_id, {tid: (points, factor) for (points, _, tid), factor in zip(ordered, factors)}))
    # The text names no tie-break: equal season totals share the place (listed by the words of
    # their names in alphabetical order, as always: a sort, not an identity).
    ranked = tiebreaks.rank(lines, [tiebreaks.by("points", lambda line: -line[0])],
                            display=lambda line: (words_key(name_key(names[line[1]])), line[1]))
    before = {row.player_id: row.rank for row in previous.rows} if previous else {}
    rows = [Row(placed.rank, placed.tied, player_id, names[player_id], len(by_tournament), total, by_tournament,
                before.get(player_id)) for placed in ranked.placed for total, player_id, by_tournament in [placed.item]]
    return Ranking(season, day, final, [t.id for t in so_far],
                   [] if final else [t.id for t in so_far if t.event.date == day], rows)


def score_seasons(table: pd.DataFrame, events: list[TourDeFranceEvent], settings: TourDeFranceSettings
                  ) -> tuple[list[Scored], list[Ranking]]:
    """Every tournament scored, and the rankings of each season: after each date, then the season's."""
    ordered = sorted(events, key=lambda e: (e.date, e.id))
    scored = [score_tournament(event, table, settings) for event in ordered]
    rankings: list[Ranking] = []
    for season in sorted({e.date.year for e in ordered}):
        previous: Ranking | None = None
        for day in sorted({e.date for e in ordered if e.date.year == season}):
            previous = rank_season(scored, season, day, False, previous, settings)
            rankings.append(previous)
        assert previous is not None  # the season is the year of an event: it has at least that day
        final = rank_season(scored, season, previous.date, True, None, settings)
        for row, last in zip(final.rows, previous.rows):
            row.previous_rank = last.previous_rank  # the season's ranking is the last one, republished
        rankings.append(final)
    return scored, rankings
