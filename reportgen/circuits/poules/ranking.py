"""The tournament's ranking (Art. VI and INTERPRETATIONS.md): the final pool's order gives places
1 to k; then the players eliminated in the round before the final, then those of the round before
that, back to round 1. Among the players of one round: by place in their pool (every third before
any fourth…), then average points per game in that pool (more first), then registration; those who
forfeited in that round after all the others, by registration.

While the tournament runs, the same order is the current ranking: the players of the round in
play first, by their place in their pool so far. Players level in a barrage still to play share
their place.
"""

from __future__ import annotations

from dataclasses import dataclass

from reportgen.circuits.poules.domain import Registrant
from reportgen.circuits.poules.standings import Line
from reportgen.circuits.poules.tournament import Pool, Tournament
from reportgen.scoring.tiebreaks import Criterion, by, rank

ROUND_REACHED, FORFEITED, POOL_PLACE, AVERAGE, REGISTRATION = (
    "tour atteint", "forfait", "place dans la poule", "moyenne", "inscription")


@dataclass(frozen=True)
class Standing:
    rank: int
    tied: bool  # level with others until their barrage is played
    round: int  # the last round he played
    pool: Pool  # his pool of that round
    line: Line  # his line in it
    decided_by: tuple[str, ...]

    @property
    def player(self) -> Registrant:
        return self.line.player


def tournament_ranking(tournament: Tournament) -> list[Standing]:
    last: dict[str, tuple[int, Pool, Line]] = {}
    for played in tournament.rounds:
        for pool in played.pools:
            for line in pool.lines:
                last[line.player.key] = (played.number, pool, line)
    items = list(last.values())
    # Players level in a barrage still to play share their place: they are known to registration by
    # the first registered of their barrage, so that each barrage's players stay together and level,
    # even when players of other pools have the same place and average.
    barrage_first: dict[tuple[int, int], int] = {}
    for number, pool, line in items:
        if line.pending:
            key = (number, pool.index)
            barrage_first[key] = min(barrage_first.get(key, line.player.order), line.player.order)

    def registration(item: tuple[int, Pool, Line]) -> int:
        number, pool, line = item
        return barrage_first[number, pool.index] if line.pending else line.player.order

    # INTERPRETATIONS.md: the players who forfeited in a round come after all the others of that
    # round, by registration time alone (their place in their pool and their average, 0, say nothing).
    chain: list[Criterion[tuple[int, Pool, Line]]] = [
        by(ROUND_REACHED, lambda item: -item[0]),
        by(FORFEITED, lambda item: item[2].forfeit),
        by(POOL_PLACE, lambda item: 0 if item[2].forfeit else item[2].place),
        by(AVERAGE, lambda item: 0 if item[2].forfeit else -item[2].average),
        by(REGISTRATION, registration),
    ]
    ranked = rank(items, chain, display=lambda item: item[2].player.order)
    # What set a place among equals: the pool's own tie-breaks (barrage, registration), then the
    # average and registration across the pools of a round.
    return [Standing(placed.rank, placed.tied, placed.item[0], placed.item[1], placed.item[2],
                     tuple(dict.fromkeys(placed.item[2].decided_by + tuple(
                         c for c in placed.decided_by if c in (AVERAGE, REGISTRATION)))))
            for placed in ranked.placed]
