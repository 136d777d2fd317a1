"""Articles I and III: how many rounds and pools, the seeding and the serpentine."""

import datetime as dt

import pytest
from hypothesis import given
from hypothesis import strategies as st

from reportgen.circuits.poules.domain import Registrant
from reportgen.circuits.poules.seeding import REPECHED, SECOND, WINNER, Qualified, first_round, later_round, serpentine
from reportgen.circuits.poules.structure import LETTERS, pool_index, pool_names, pools_for, rounds_for
from reportgen.model import SourceRef
from tests.poules.test_builders import Tour, names


def article_i(players: int) -> int:
    """Art. I read literally: up to 5, one round; 6·2^(n−2) to 6·2^(n−1)−1, n rounds."""
    if players <= 5:
        return 1
    return next(n for n in range(2, 20) if 6 * 2 ** (n - 2) <= players <= 6 * 2 ** (n - 1) - 1)


@pytest.mark.parametrize("players", range(2, 201))
def test_article_I_and_III_rounds_and_pools_for_every_N_from_2_to_200(players):
    rounds = rounds_for(players)
    assert rounds == article_i(players)
    pools = pools_for(players)
    assert pools == 2 ** (rounds - 1)  # Art. III: 2^(n−1) pools in round 1
    sizes = [len(pool) for pool in serpentine(list(range(players)), pools)]
    if players >= 6:
        assert all(3 <= size <= 6 for size in sizes)  # « entre 3 et 6 » in round 1
    else:
        assert sizes == [players]
    # Without defections each later round has half the pools, 4 players each, down to one pool.
    qualified, left = 2 * pools, rounds - 1
    while left:
        assert rounds_for(qualified) == left and pools_for(qualified) == pools // 2
        assert all(len(pool) == 4 for pool in serpentine(list(range(qualified)), pools // 2))
        pools, qualified, left = pools // 2, pools, left - 1
    assert pools == 1


@pytest.mark.parametrize("players, rounds, pools", [
    (2, 1, 1), (5, 1, 1), (6, 2, 2), (11, 2, 2), (12, 3, 4), (20, 3, 4), (23, 3, 4), (24, 4, 8), (47, 4, 8),
    (48, 5, 16), (95, 5, 16), (96, 6, 32), (191, 6, 32), (192, 7, 64), (200, 7, 64)])
def test_article_I_bounds_of_the_formula(players, rounds, pools):
    assert (rounds_for(players), pools_for(players)) == (rounds, pools)


def test_article_I_fewer_rounds_when_defections_thin_the_qualified():
    # 16 qualified would play 3 more rounds; 5 left after defections play the final at once.
    assert rounds_for(16) == 3 and rounds_for(5) == 1 and pools_for(5) == 1 and rounds_for(7) == 2


@pytest.mark.parametrize("pools, players, expected", [
    (2, 6, [[1, 4, 5], [2, 3, 6]]),
    (3, 9, [[1, 6, 7], [2, 5, 8], [3, 4, 9]]),
    (4, 10, [[1, 8, 9], [2, 7, 10], [3, 6], [4, 5]]),
    (4, 20, [[1, 8, 9, 16, 17], [2, 7, 10, 15, 18], [3, 6, 11, 14, 19], [4, 5, 12, 13, 20]]),
    (1, 4, [[1, 2, 3, 4]]),
])
def test_article_III_etape_2_the_serpentine(pools, players, expected):
    assert serpentine(list(range(1, players + 1)), pools) == expected


@given(st.integers(min_value=1, max_value=64), st.integers(min_value=0, max_value=400))
def test_the_serpentine_deals_each_seed_once_and_pool_sizes_differ_by_at_most_one(pools, players):
    dealt = serpentine(list(range(players)), pools)
    assert len(dealt) == pools
    assert sorted(seed for pool in dealt for seed in pool) == list(range(players))
    sizes = [len(pool) for pool in dealt]
    assert max(sizes) - min(sizes) <= 1
    for index, pool in enumerate(dealt):  # seeds 1..p head pools 1..p; within a pool, seeds go down
        assert pool == sorted(pool) and (not pool or pool[0] == index)


def registrant(name: str, ron: float, hour: int, order: int) -> Registrant:
    return Registrant(name, name, ron, dt.datetime(2026, 8, 1, hour), order, "", SourceRef("t.xlsx"))


def test_article_III_etape_1_round_one_by_ron_points_then_registration_time():
    early = registrant("EARLY", 1850.0, 8, 0)
    late = registrant("LATE", 1850.0, 20, 2)
    best = registrant("BEST", 1900.5, 12, 1)
    assert [r.name for r in first_round([late, early, best])] == ["BEST", "EARLY", "LATE"]


def test_article_III_etape_1_later_rounds_winners_then_seconds_then_repeches():
    a, b, c, d, e, f = (registrant(n, 1500.0, 8 + i, i) for i, n in enumerate("ABCDEF"))
    from fractions import Fraction

    seeded = later_round([
        Qualified(f, REPECHED, Fraction(9, 10), 1), Qualified(e, REPECHED, Fraction(1, 10), 0),
        Qualified(d, SECOND, Fraction(1, 2)), Qualified(c, SECOND, Fraction(3, 4)),
        Qualified(b, WINNER, Fraction(1, 2)), Qualified(a, WINNER, Fraction(1, 2))])
    # Winners by average then registration (A before B), seconds by average (C before D), repêchés in
    # their repêchage order whatever their average (E before F).
    assert [r.name for r in seeded] == ["A", "B", "C", "D", "E", "F"]


@pytest.mark.parametrize("label, index", [("A", 0), ("b", 1), ("Poule C", 2), ("3", 2), ("Z", 25), ("AA", 26),
                                          ("", None), ("0", None), ("A1", None), ("é", None)])
def test_pool_names_as_typed(label, index):
    assert pool_index(label) == index
    if index is not None:
        assert pool_index(LETTERS.label(index)) == index


def test_the_written_pools_of_round_one_are_the_serpentine_of_the_seeding():
    tour = Tour(12)  # RON points decrease with the names: JOUEURA is seed 1
    tour.next()
    pools = {}
    for row in tour.games(1):
        pools.setdefault(row[1], set()).update(row[2:4])
    seeds = names(12)
    assert pools == {"A": {seeds[i] for i in (0, 7, 8)}, "B": {seeds[i] for i in (1, 6, 9)},
                     "C": {seeds[i] for i in (2, 5, 10)}, "D": {seeds[i] for i in (3, 4, 11)}}


@pytest.mark.parametrize(("typed", "written", "shown"), [
    ([1, 2], [1, 2, 3], ["1", "2", "3"]), (["", "3"], ["1", "2", "3"], ["1", "2", "3"]),
    (["Poule B"], ["Poule A", "Poule B", "Poule C"], ["A", "B", "C"]),
    (["poule 2"], ["poule 1", "poule 2", "poule 3"], ["1", "2", "3"]),
    (["b"], ["a", "b", "c"], ["A", "B", "C"]), (["A"], ["A", "B", "C"], ["A", "B", "C"]),
    ([], ["A", "B", "C"], ["A", "B", "C"]), (["?"], ["A", "B", "C"], ["A", "B", "C"]),
    (["?", 0, 2], [1, 2, 3], ["1", "2", "3"])])
def test_later_rounds_name_their_pools_as_the_sheet_names_its_first(typed, written, shown):
    """`written`: what `poules next` types; `shown`: « poule 3 », « poule A » in every output (the
    `Poule` prefix dropped, letters upper-case)."""
    names = pool_names(typed)
    assert [names.written(index) for index in range(3)] == written
    assert [pool_index(str(names.written(index))) for index in range(3)] == [0, 1, 2]  # and they read back
    assert [names.label(index) for index in range(3)] == shown
