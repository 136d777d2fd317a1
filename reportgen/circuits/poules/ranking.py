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

from collections.abc import Sequence
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

    def level_in_a_barrage(group: Sequence[tuple[int, Pool, Line]], position: int) -> bool:
        return all(line.pending for _, _, line in group) and len({(n, pool.index) for n, pool, _ in group}) == 1

    chain: list[Criterion[tuple[int, Pool, Line]]] = [
        by(ROUND_REACHED, lambda item: -item[0]),
        by(FORFEITED, lambda item: item[2].forfeit),
        by(POOL_PLACE, lambda item: item[2].place),
        by(AVERAGE, lambda item: -item[2].average),
        Criterion(REGISTRATION, lambda item, group: item[2].player.order,
                  applies=lambda group, position: not level_in_a_barrage(group, position)),
    ]
    ranked = rank(items, chain, display=lambda item: item[2].player.order)
    # What set a place among equals: the pool's own tie-breaks (barrage, registration), then the
    # average and registration across the pools of a round.
    return [Standing(placed.rank, placed.tied, placed.item[0], placed.item[1], placed.item[2],
                     tuple(dict.fromkeys(placed.item[2].decided_by + tuple(
                         c for c in placed.decided_by if c in (AVERAGE, REGISTRATION)))))
            for placed in ranked.placed]
