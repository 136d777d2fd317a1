"""Invariants of the pool tournaments over random ones played to their end through `poules next`'s
code: random sizes, random results (draws and ties included, hence barrages), random forfeits."""

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from reportgen.circuits.poules.ranking import tournament_ranking
from reportgen.circuits.poules.standings import QUALIFIED, REPECHE
from reportgen.circuits.poules.structure import pools_for
from reportgen.circuits.poules.tournament import (
    BETWEEN_ROUNDS,
    CANCELLED,
    FINISHED,
    NOT_STARTED,
    PLAYING_BARRAGE,
    PLAYING_MAIN,
    barrage_games_to_write,
)
from tests.poules.test_builders import START, Tour


def play_out(players: int, seed: int, forfeits: float) -> Tour:
    """A tournament of `players` played to its end (or its cancellation): results drawn with
    `seed`, each player of a round forfeiting with probability `forfeits`."""
    rng = random.Random(seed)
    tour = Tour(players)
    for _ in range(40):
        tournament = tour.replay()
        assert not tournament.problems, tournament.problems
        if tournament.status in (FINISHED, CANCELLED):
            return tour
        if tournament.status in (NOT_STARTED, BETWEEN_ROUNDS):
            assert tour.next(START).change is not None
        elif tournament.status == PLAYING_MAIN:
            current = tournament.current
            out = {p.name for p in current.participants if rng.random() < forfeits}
            for name in sorted(out):
                tour.forfeit(name, current.number)
            tour.play(lambda white, black: rng.choice(["1-0", "0-1", "½-½", "½-½"]), number=current.number, skip=out)
        elif tournament.status == PLAYING_BARRAGE:
            if barrage_games_to_write(tournament.current):
                assert tour.next(START, barrages=True).change is not None
            else:
                tour.play(lambda white, black: rng.choice(["1-0", "0-1", "½-½"]))
    raise AssertionError("the tournament never ended")


@settings(max_examples=25)
@given(st.integers(min_value=2, max_value=32), st.integers(min_value=0, max_value=10**6),
       st.sampled_from([0.0, 0.0, 0.1, 0.3]))
def test_a_tournament_played_to_its_end_keeps_every_invariant(players, seed, forfeits):
    tour = play_out(players, seed, forfeits)
    tournament = tour.replay()
    registered = {row[0] for row in tour.sheets["Inscrits"][1:]}
    ranking = tournament_ranking(tournament)
    # The ranking is a permutation of the registrants.
    assert sorted(s.player.name for s in ranking) == sorted(registered)
    # Round by round, last round first; in each, the forfeits after the others, by registration.
    keys = [(-s.round, s.line.forfeit) for s in ranking]
    assert keys == sorted(keys)
    for number in {s.round for s in ranking}:
        forfeits = [s.player.order for s in ranking if s.round == number and s.line.forfeit]
        assert forfeits == sorted(forfeits)
    if tournament.status == FINISHED:
        assert [s.rank for s in ranking] == list(range(1, players + 1)) and not any(s.tied for s in ranking)
        final = tournament.rounds[-1]
        assert len(final.pools) == 1
        assert [s.player.name for s in ranking[:len(final.participants)]] == [
            line.player.name for line in final.pools[0].lines]
    for index, played in enumerate(tournament.rounds):
        sizes = [len(pool.players) for pool in played.pools]
        assert max(sizes) - min(sizes) <= 1 and len(played.pools) == pools_for(len(played.participants))
        if index == 0 and players >= 6:
            assert all(3 <= size <= 6 for size in sizes)
        for pool in played.pools:
            pairs = sorted((g.white, g.black) for g in pool.games)
            keys = [p.key for p in pool.players]
            assert pairs == sorted((w, b) for w in keys for b in keys if w != b)  # each pair twice, each colour
            order = {p.key: p.order for p in pool.players}
            assert all(order[g.white] > order[g.black] for g in pool.barrage_games)  # White: later registrant
        if played.decided and not played.final:
            qualified = [line for pool in played.pools for line in pool.lines if line.status in (QUALIFIED, REPECHE)]
            following = {p.key for p in tournament.rounds[index + 1].participants} if index + 1 < len(
                tournament.rounds) else {p.key for pool in tournament.upcoming or [] for p in pool}
            assert {line.player.key for line in qualified} == following
            if not played.forfeits:
                assert len(qualified) == 2 * len(played.pools) and not played.repeched
    if tournament.status == CANCELLED:
        current = tournament.current
        assert len(current.participants) - len(current.forfeited) <= 2
