"""Ratings (rule 12, read as INTERPRETATIONS.md says): the sequential performance method, event by
event in date order (same date: by event name).

- a player with no rated game yet has the starting rating (1850) and G = 0; defaults are never rated;
- for each player i of the event with g_i rated games in it: f_i = his TPs / (20·g_i), clipped to
  [0.01, 0.99]; perf_i = the mean of his opponents' ratings before the event (one term per game)
  + 565.7·Φ⁻¹(f_i);
- R'_i = (w_i·R_i + g_i·perf_i) / (w_i + g_i), with w_i = min(G_i, 36);
- one shift Δ for all the event's players keeps Σ g_i·R_i (rule 9b):
  Δ = Σ g_i·(R_i − R'_i) / Σ g_i; the new rating is R'_i + Δ; G_i += g_i;
- "provisoire" while G < 36; for seeding, a provisional rating loses 200·(36 − G)/36.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from statistics import NormalDist

from reportgen.circuits.tantrix.games import Game
from reportgen.circuits.tantrix.points import GAME
from reportgen.circuits.tantrix.settings import TantrixSettings

_NORMAL = NormalDist()


@dataclass(frozen=True)
class Rating:
    value: float
    games: int  # G: rated games so far

    def provisional(self, settings: TantrixSettings) -> bool:
        return self.games < settings.established_games

    def seeding(self, settings: TantrixSettings) -> float:
        """Rule 13: the rating a seeding list uses, reduced while provisional."""
        missing = max(0, settings.established_games - self.games)
        return self.value - settings.seeding_reduction * missing / settings.established_games


@dataclass(frozen=True)
class Change:
    """One player's rating through one event."""

    player: str
    before: Rating
    after: Rating
    games: int  # g: his rated games in the event
    score: float  # f: his share of the TPs, clipped
    opponents: float  # the mean of his opponents' ratings before the event
    performance: float


def start(settings: TantrixSettings) -> Rating:
    return Rating(settings.rating_start, 0)


def rate_event(ratings: dict[str, Rating], games: Iterable[Game], settings: TantrixSettings) -> dict[str, Change]:
    """The event's rating changes; `ratings` (before the event) is left as it is. Only rated games
    count (rule 7: not defaults); a vanished game is a 10–10 draw."""
    played: dict[str, list[tuple[str, int]]] = {}  # player -> (opponent, TPs in tenths) per rated game
    for game in games:
        if not game.scored.rated:
            continue
        for side, player in enumerate(game.players):
            played.setdefault(player, []).append((game.players[1 - side], game.scored.tps[side]))
    if not played:
        return {}
    before = {player: ratings.get(player, start(settings)) for player in played}
    interim: dict[str, tuple[float, int, float, float, float]] = {}
    for player, results in played.items():
        count = len(results)
        score = sum(tps for _, tps in results) / (GAME * count)
        score = min(1 - settings.score_clip, max(settings.score_clip, score))
        opponents = sum(before[opponent].value for opponent, _ in results) / count
        performance = opponents + settings.rating_spread * _NORMAL.inv_cdf(score)
        weight = min(before[player].games, settings.established_games)
        value = (weight * before[player].value + count * performance) / (weight + count)
        interim[player] = (value, count, score, opponents, performance)
    total = sum(count for _, count, *_ in interim.values())
    shift = sum(count * (before[player].value - value) for player, (value, count, *_) in interim.items()) / total
    return {player: Change(player, before[player], Rating(value + shift, before[player].games + count), count, score,
                           opponents, performance)
            for player, (value, count, score, opponents, performance) in interim.items()}
