"""The Grand Sud ranking (regulation 000, « Règlement Classement Masters », §1 to §3).

Chronological by nature: the points of a tournament depend on the seeds present, who are the first
16 of the ranking in force before it (§1, §2.1), and that ranking depends on the earlier points.
So rankings are built date after date, every tournament of a date scored against the same ranking
in force (§1: same-day tournaments are simultaneous).
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import hashlib
import pickle
from bisect import bisect_left
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from reportgen.circuits.grand_sud import metrics, tables
from reportgen.circuits.grand_sud.parse import GrandSudEvent
from reportgen.circuits.grand_sud.settings import GrandSudSettings
from reportgen.ingest.text import name_key, words_key
from reportgen.scoring import tiebreaks

# The tables padded with a row of zeros: every place beyond 32 looks up row 33 (§2: only the first
# 32 score).
_DUPLICATE = np.vstack([np.array(tables.DUPLICATE), np.zeros((1, tables.MAX_SEEDS + 1), dtype=int)])
_FINAL = np.vstack([np.array(tables.FINAL), np.zeros((1, tables.MAX_SEEDS + 1), dtype=int)])


# §1: « En cas d'égalité de points entre deux joueurs, c'est le joueur qui a effectué le moins de
# tournoi qui est privilégié. En cas de nouvelle égalité, c'est celui qui a marqué le plus de points
# dans un tournoi qui est privilégié. » Players still level share the place.
# The lines are the rows of rank()'s summary table: pandas named tuples, whose fields only exist at run time.
CHAIN: list[tiebreaks.Criterion[_Line]] = [metrics.POINTS.by(lambda line: -line.total),
                                           metrics.PLAYED.by(lambda line: line.played),
                                           metrics.BEST.by(lambda line: -line.best)]


@dataclass(frozen=True)
class Tournament:
    event: GrandSudEvent
    eligible: bool  # organised by a club of the Grand Sud départements (§1)
    seeds: int = 0  # seeds present (§2.1), from the ranking in force before its date
    # The event's id, date and series, copied once: every ranking's window and listing reads them for
    # each tournament of the history (millions of reads at 100x; a property each cost a call).
    id: str = field(init=False, compare=False)
    date: dt.date = field(init=False, compare=False)
    series: str = field(init=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "id", self.event.id)
        object.__setattr__(self, "date", self.event.date)
        object.__setattr__(self, "series", self.event.content.series)


@dataclass(slots=True)  # one per player of every ranking: no instance dict (fewer objects to collect)
class Row:
    rank: int
    tied: bool
    player_id: str
    player: str
    licence: str
    club: str
    played: int
    total: int
    best: int
    points: dict[str, int]  # tournament id -> points, for the tournaments of the window he played
    counted: set[str]  # the tournament ids whose points make his total
    previous_rank: int | None
    seed: bool
    decided_by: tuple[str, ...] = ()  # the metrics (keys) of §1 that set his place among equal totals


@dataclass
class Ranking:
    season: int
    date: dt.date  # the date of the latest tournament it includes (the final: of the season)
    final: bool
    window: list[str]  # ids of the tournaments counted, in date order
    counted_results: int  # ⌊T/2⌋, at least the minimum
    rows: list[Row]
    latest: list[str] = field(default_factory=list)  # ids of the tournaments of `date`
    previous: Ranking | None = None
    # The tournaments the window replaced (id -> id of the replacing edition), from the same call to
    # window() as `window`: its bulletin lists them without working the window out again.
    replaced: dict[str, str] = field(default_factory=dict)
    # What says all the ranking is made from (`score_league`'s `Chain`): two rankings of one digest
    # have the same rows, window, date and previous ranking. Its published ranking's key and its
    # bulletin's grid are hashed as this digest, not row by row. "" when it is not known.
    digest: str = ""

    def rank_of(self) -> dict[str, int]:
        return {row.player_id: row.rank for row in self.rows}


def _table_points(results: pd.DataFrame, seeds: int | np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The duplicate and final points of §2.1 of each result (place duplicate = final place for §2.2
    tournaments); `seeds`: the seeds present, one number or one per result."""
    rows_final = np.minimum(results["place"].to_numpy(dtype=int), tables.PLACES_SCORED + 1) - 1
    rows_dup = np.minimum(results["place_duplicate"].to_numpy(dtype=int), tables.PLACES_SCORED + 1) - 1
    return _DUPLICATE[rows_dup, seeds], _FINAL[rows_final, seeds]


def tournament_points(results: pd.DataFrame, seeds: int | np.ndarray) -> pd.DataFrame:
    """Duplicate + final points of §2.1, as columns of `results`."""
    scored = results.copy()
    duplicate, final = _table_points(scored, seeds)
    scored["seeds"] = seeds
    scored["duplicate_points"] = duplicate
    scored["final_points"] = final
    scored["points"] = scored["duplicate_points"] + scored["final_points"]
    return scored


def seeds_present(players: Iterable[str], in_force: Ranking | None, settings: GrandSudSettings,
                  seed_ids: set[str] | None = None) -> int:
    """Players of the tournament (one id per result) ranked within the seed places of the ranking in
    force (§1, §2.1). `seed_ids`: those players, when the caller already knows them (one set per
    ranking in force)."""
    if in_force is None:
        return 0  # INTERPRETATIONS: before any tournament is known, there are 0 seeds
    seeds = seed_ids if seed_ids is not None else {row.player_id for row in in_force.rows if row.seed}
    return min(sum(1 for player_id in players if player_id in seeds), settings.seeds, tables.MAX_SEEDS)


def window(tournaments: list[Tournament], day: dt.date, final: bool) -> tuple[list[Tournament], dict[str, str]]:
    """The tournaments a ranking counts, and the replaced ones (id -> id of the replacing edition).

    §1: a year-N edition of a series replaces the year N−1 one, points and participants alike;
    the final ranking of year N counts only year-N tournaments. INTERPRETATIONS: per series, the
    latest edition of year N or N−1; older editions are gone.
    """
    year = day.year
    first_year = year if final else year - 1
    latest: dict[str, Tournament] = {}
    replaced: dict[str, str] = {}
    for tournament in sorted(tournaments, key=lambda t: (t.date, t.id)):
        if not tournament.eligible or tournament.date > day or tournament.date.year < first_year:
            continue
        if tournament.date.year > year:
            continue
        older = latest.get(tournament.series)
        if older is not None:
            replaced[older.id] = tournament.id
        latest[tournament.series] = tournament
    return sorted(latest.values(), key=lambda t: (t.date, t.id)), replaced


def same_year_editions(tournaments: list[Tournament]) -> list[tuple[Tournament, Tournament]]:
    """The editions a later one of the same series and year replaces (§1: « le tournoi organisé
    par le même club dans l'année N », one a year; window() keeps the latest): (replaced, by), in
    date order."""
    latest: dict[tuple[str, int], Tournament] = {}
    pairs = []
    for tournament in sorted(tournaments, key=lambda t: (t.date, t.id)):
        if not tournament.eligible:
            continue
        key = (tournament.series, tournament.date.year)
        if key in latest:
            pairs.append((latest[key], tournament))
        latest[key] = tournament
    return pairs


@dataclass(slots=True)  # as Row
class _Line:
    """A player's results in a ranking's window, before his place is known."""

    player_id: str
    player: str
    licence: str
    # (minus the points, tournament order, tournament id): sorted as they are, best first and, among
    # equal points, the earlier tournament first (the one counted); no key function per ranking.
    results: list[tuple[int, int, str]]
    keep: int  # ⌊T/2⌋: how many results make his total
    played: int = 0
    total: int = 0
    best: int = 0


# One result of a tournament counted by the ranking: (player id, points, name, licence, club), in
# the order of the tournament's rows.
_Result = tuple[str, int, str, str, str]


def _results_of(results: pd.DataFrame, points: list[int]) -> list[_Result]:
    """A tournament's `results` with the `points` of each."""
    return [(player_id, int(value), player, licence, club) for player_id, value, player, licence, club in zip(
        results["player_id"].tolist(), points, results["player"].tolist(),
        results["licence"].tolist(), results["club"].tolist())]


def placed(listed: list[_Line], keys: dict[str, str]) -> Iterator[tuple[_Line, int, bool, tuple[str, ...]]]:
    """Each line with its place, tied or not, and `decided_by`: what tiebreaks.rank(listed, CHAIN,
    display) gives, in one sort instead of a recursion per group of equal totals (the chain's
    steps each look at one player alone, and none applies again).

    Sorted by total, played, best, then by name (`keys`) and id: a group of equal totals is split by
    the tournaments played when they are not all the same (`decided_by` names it), each of those by
    the best result likewise; what is left level shares the place of its first."""
    ordered = sorted(listed, key=lambda line: (-line.total, line.played, -line.best, keys[line.player], line.player_id))
    played_step, best_step = CHAIN[1].name, CHAIN[2].name
    count = len(ordered)
    start = 0
    while start < count:  # a group of equal totals: [start, end)
        total, end = ordered[start].total, start + 1
        while end < count and ordered[end].total == total:
            end += 1
        by_played = (played_step,) if ordered[start].played != ordered[end - 1].played else ()
        first = start
        while first < end:  # equal totals and tournaments played: [first, last)
            played, last = ordered[first].played, first + 1
            while last < end and ordered[last].played == played:
                last += 1
            decided = (*by_played, best_step) if ordered[first].best != ordered[last - 1].best else by_played
            level = first
            while level < last:  # level on the whole chain: [level, stop), sharing one place
                best, stop = ordered[level].best, level + 1
                while stop < last and ordered[stop].best == best:
                    stop += 1
                tied = stop - level > 1
                for line in ordered[level:stop]:
                    yield line, level + 1, tied, decided
                level = stop
            first = last
        start = end


def rank(points: pd.DataFrame, counted: list[Tournament], day: dt.date, final: bool,
         previous: Ranking | None, settings: GrandSudSettings) -> Ranking:
    """§3: each player's best ⌊T/2⌋ results; §1: ties to fewer tournaments, then best result.
    `points` holds every result up to `day`, in date order."""
    club_then: dict[str, str] = {}
    # A bulletin prints each player's club as of its date: the latest result up to it that names one
    # (a later transfer, or a later typo, never rewrites what an earlier bulletin said).
    for player_id, club in zip(points["player_id"].tolist(), points["club"].tolist()):
        if club:
            club_then[player_id] = club
    wanted = {t.id for t in counted}
    by_event: dict[str, list[_Result]] = {}
    for event, frame in points.groupby("event", sort=False):
        if event in wanted:
            by_event[str(event)] = _results_of(frame, frame["points"].tolist())
    return _rank(by_event, club_then, counted, day, final, previous, settings, {})


def _rank(by_event: dict[str, list[_Result]], club_then: dict[str, str], counted: list[Tournament], day: dt.date,
          final: bool, previous: Ranking | None, settings: GrandSudSettings, keys: dict[str, str],
          replaced: dict[str, str] | None = None) -> Ranking:
    """rank() from each counted tournament's results (`by_event`) and each player's club as of
    `day`: the work of one ranking date is its window's results, whatever the length of the history.

    One pass over the window's results in plain lists (a pandas group per player cost most of a
    ranking's time)."""
    ids = [t.id for t in counted]
    keep = max(settings.min_counted_results, len(ids) // 2)
    lines: dict[str, _Line] = {}
    for order, event in enumerate(ids):
        for player_id, value, player, licence, _ in by_event.get(event, ()):
            line = lines.get(player_id) or lines.setdefault(player_id, _Line(player_id, player, licence, [], keep))
            line.results.append((-value, order, event))
    counts_non_scoring = settings.played_counts_non_scoring
    for line in lines.values():
        results = line.results
        results.sort()  # best first; among equal points, the earlier tournament is the one counted
        line.total = -sum([result[0] for result in results[:keep]])
        line.best = -results[0][0]
        # Sorted, the results with points (minus below 0) come first: where 0 would go is how many.
        line.played = len(results) if counts_non_scoring else bisect_left(results, (0,))
    listed = [line for line in lines.values() if line.total >= settings.min_listed_points]
    for line in listed:  # each name's sorting key computed once for the whole history (`keys`)
        if line.player not in keys:
            # Sorting, not identity: the words in alphabetical order, as the bulletins always listed
            # equal players (INTERPRETATIONS.md, « who is who », leaves identity to name_key).
            keys[line.player] = words_key(name_key(line.player))
    previous_ranks = previous.rank_of() if previous else {}
    rows = []
    seeds = settings.seeds
    for line, place, tied, decided_by in placed(listed, keys):
        results = line.results
        rows.append(Row(
            rank=place, tied=tied, player_id=line.player_id, player=line.player,
            licence=line.licence, club=club_then.get(line.player_id, ""), played=line.played,
            total=line.total, best=line.best,
            points={event: -minus for minus, _, event in results},
            counted={event for _, _, event in results[:keep]},
            previous_rank=previous_ranks.get(line.player_id),
            seed=place <= seeds,
            decided_by=decided_by,
        ))
    latest = [] if final else [t.id for t in counted if t.date == day]
    return Ranking(day.year, day, final, ids, keep, rows, latest, previous, replaced or {})


class Chain:
    """A digest of everything `score_league` has read so far, in the order it reads it: the
    settings, then each tournament (its id, date, series, whether it counts and, when it does, its
    results as the rankings read them: player id, points, name, licence, club) and each ranking
    published (its day, final or not). A ranking is made from what was read before it alone (its
    window, the ranking in force before each tournament for the seeds, each player's club as of its
    date), so the digest at its publication says all it is made from: one new tournament after the
    last leaves the earlier rankings' digests as they were (issue 27: their CSVs, site records and
    bulletins keyed by it, not by their 230,000 rows at 100x). Pickled plain values only (no set: a
    pickle that would depend on the process's string hashing)."""

    def __init__(self, settings: GrandSudSettings) -> None:
        self._hash = hashlib.sha256(pickle.dumps(("grand-sud", dataclasses.astuple(settings)), protocol=5))

    def read(self, *values: object) -> None:
        self._hash.update(pickle.dumps(values, protocol=5))

    def digest(self) -> str:
        return self._hash.hexdigest()


def score_league(results: pd.DataFrame, events: list[GrandSudEvent], eligible: dict[str, bool],
                 settings: GrandSudSettings) -> tuple[dict[str, Tournament], pd.DataFrame, list[Ranking]]:
    """Every ranking of the league's history, in publication order.

    The ranking in force before a tournament is the one published after the previous date; at a
    change of year it is the final ranking of the year before (INTERPRETATIONS: the last ranking of
    the year is the final one).

    Linear in the results: each tournament's rows are scored once, and each ranking date works on
    its window only (each player's club as of the date is carried from date to date); the points
    table is put together once, at the end, from every tournament's rows and seeds at once.
    """
    by_date: dict[dt.date, list[GrandSudEvent]] = {}
    for event in sorted(events, key=lambda e: (e.date, e.id)):
        by_date.setdefault(event.date, []).append(event)
    # The table's columns as lists and each tournament's row positions, once: a pandas group and its
    # columns per tournament cost more than its rows at 100x (4,000 tournaments).
    listed = ("event", "player_id", "player", "licence", "club")
    columns = {name: results[name].tolist() if len(results) else [] for name in listed}
    rows_of: dict[str, list[int]] = {}
    for position, event_id in enumerate(columns["event"]):
        rows_of.setdefault(str(event_id), []).append(position)
    rows_final, rows_dup = ((np.minimum(results[name].to_numpy(dtype=int), tables.PLACES_SCORED + 1) - 1
                             if len(results) else np.zeros(0, dtype=int)) for name in ("place", "place_duplicate"))
    tournaments: dict[str, Tournament] = {}
    rankings: list[Ranking] = []
    in_force: Ranking | None = None
    empty = results.iloc[0:0].assign(seeds=0, duplicate_points=0, final_points=0, points=0)
    scored: list[tuple[list[int], int]] = []  # every eligible tournament's row positions and seeds, in date order
    by_event: dict[str, list[_Result]] = {}
    club_then: dict[str, str] = {}  # each player's latest club named, up to the last date scored
    name_keys: dict[str, str] = {}  # name -> its sorting key (words_key)
    chain = Chain(settings)

    def publish(day: dt.date, final: bool) -> None:
        nonlocal in_force
        counted, replaced = window(list(tournaments.values()), day, final)
        in_force = _rank(by_event, club_then, counted, day, final, in_force, settings, name_keys, replaced)
        chain.read("published", day, final)
        in_force.digest = chain.digest()
        rankings.append(in_force)

    def publish_final(year: int) -> None:
        days = [t.date for t in tournaments.values() if t.eligible and t.date.year == year]
        publish(max(days), final=True)

    for day, today_events in by_date.items():
        if rankings and day.year != rankings[-1].season:
            publish_final(rankings[-1].season)
        seed_ids = {row.player_id for row in in_force.rows if row.seed} if in_force is not None else None
        scored_today = False
        for event in today_events:
            mine = rows_of.get(event.id, [])
            player_ids = [columns["player_id"][position] for position in mine]
            seeds = seeds_present(player_ids, in_force, settings, seed_ids) if eligible[event.id] else 0
            tournaments[event.id] = Tournament(event, eligible[event.id], seeds)
            if eligible[event.id]:
                scored.append((mine, seeds))
                scored_today = True
                points = (_DUPLICATE[rows_dup[mine], seeds] + _FINAL[rows_final[mine], seeds]).tolist()
                by_event[event.id] = [(player_id, value, columns["player"][position], columns["licence"][position],
                                       columns["club"][position])
                                      for player_id, value, position in zip(player_ids, points, mine)]
                chain.read(event.id, event.date, event.content.series, True, by_event[event.id])
                for player_id, _, _, _, club in by_event[event.id]:
                    if club:
                        club_then[player_id] = club
            else:  # no ranking reads its rows
                chain.read(event.id, event.date, event.content.series, False)
        if scored_today:
            publish(day, final=False)
    if rankings:
        publish_final(rankings[-1].season)
    if not scored:
        return tournaments, empty, rankings
    rows = results.take([position for mine, _ in scored for position in mine]).reset_index(drop=True)
    seeds_of_rows = np.repeat([seeds for _, seeds in scored], [len(mine) for mine, _ in scored])
    points_table = pd.concat([empty, tournament_points(rows, seeds_of_rows)], ignore_index=True)
    return tournaments, points_table, rankings
