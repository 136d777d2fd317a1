"""Seeding and the serpentine (Art. III, Étapes 1 and 2).

Round 1: by RON points (more first), then registration time (earlier first). Later rounds: pool
winners, then seconds, then repêchés; winners and seconds each by average points per game (more
first), then registration; repêchés in the order their pools were repêched (Art. X: the third's
average, then the date assigned to the pool). Every order is a tie-break chain
(reportgen.scoring.tiebreaks).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TypeVar

from reportgen.circuits.poules.domain import Registrant
from reportgen.scoring.tiebreaks import Criterion, by, rank

T = TypeVar("T")

RON, REGISTRATION, GROUP, AVERAGE, REPECHAGE_ORDER = (
    "points RON", "inscription", "rang dans la poule", "moyenne", "ordre de repêchage")

WINNER, SECOND, REPECHED = 0, 1, 2  # the groups of a later round's seeding, in order


def serpentine(players: Sequence[T], pools: int) -> list[list[T]]:
    """Deal seeded players into pools: 1..p into pools 1..p, p+1..2p into pools p..1, and so on."""
    dealt: list[list[T]] = [[] for _ in range(pools)]
    for index, player in enumerate(players):
        lap, position = divmod(index, pools)
        dealt[position if lap % 2 == 0 else pools - 1 - position].append(player)
    return dealt


def first_round(registrants: Sequence[Registrant]) -> list[Registrant]:
    """Round 1: RON points, more first; then registration, earlier first."""
    chain: list[Criterion[Registrant]] = [by(RON, lambda r: -r.ron), by(REGISTRATION, lambda r: r.order)]
    return [placed.item for placed in rank(list(registrants), chain).placed]


@dataclass(frozen=True)
class Qualified:
    """A player qualified for the next round, as his pool left him."""

    player: Registrant
    group: int  # WINNER, SECOND or REPECHED
    average: Fraction  # average points per game that count in his pool
    repechage: int = 0  # his place in the repêchage order (repêchés only)


def later_round(qualified: Sequence[Qualified]) -> list[Registrant]:
    """Winners, then seconds (each by average, then registration), then repêchés in their order."""
    chain: list[Criterion[Qualified]] = [by(GROUP, lambda q: q.group),
             by(AVERAGE, lambda q: -q.average if q.group != REPECHED else 0),
             by(REGISTRATION, lambda q: q.player.order if q.group != REPECHED else q.repechage)]
    return [placed.item.player for placed in rank(list(qualified), chain).placed]
