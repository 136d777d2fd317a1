"""The tie-break engine every circuit ranks with: named criteria applied to the players still level."""

from hypothesis import given
from hypothesis import strategies as st

from reportgen.scoring.tiebreaks import Criterion, by, rank

POINTS = by("points", lambda item: -item[1])
FEWER = by("played", lambda item: item[2])


def names(ranked):
    return [(p.item[0], p.rank, p.tied, p.decided_by) for p in ranked.placed]


def test_the_first_criterion_orders_and_the_next_only_splits_the_players_still_level():
    items = [("a", 10, 3), ("b", 12, 5), ("c", 10, 2), ("d", 9, 1)]
    assert names(rank(items, [POINTS, FEWER])) == [
        ("b", 1, False, ()), ("c", 2, False, ("played",)), ("a", 3, False, ("played",)), ("d", 4, False, ())]


def test_players_the_chain_leaves_level_share_the_place_and_the_next_is_skipped():
    items = [("z", 10, 3), ("y", 10, 3), ("x", 8, 1)]
    ranked = rank(items, [POINTS, FEWER], display=lambda item: item[0])
    assert names(ranked) == [("y", 1, True, ()), ("z", 1, True, ()), ("x", 3, False, ())]
    assert ranked.unresolved == [[("y", 10, 3), ("z", 10, 3)]]


def head_to_head(wins):
    """Points each made against the others of the group, from a (winner, loser) list."""
    def key(item, group):
        others = {other[0] for other in group} - {item[0]}
        return -sum(1 for winner, loser in wins if winner == item[0] and loser in others)
    return key


def test_head_to_head_is_computed_inside_the_tied_group_and_reapplied_on_a_smaller_group():
    # a, b, c level on points. Inside the group: a beat b and c; b beat c twice, c beat b once.
    wins = [("a", "b"), ("a", "c"), ("b", "c"), ("c", "b"), ("b", "c")]
    items = [("a", 5, 0), ("b", 5, 0), ("c", 5, 0)]
    once = rank(items, [POINTS, Criterion("h2h", head_to_head(wins))], display=lambda item: item[0])
    again = rank(items, [POINTS, Criterion("h2h", head_to_head(wins), reapply=True)], display=lambda item: item[0])
    # counted over the group: a 2, b 2, c 1 -> {a, b} still level
    assert names(once) == [("a", 1, True, ("h2h",)), ("b", 1, True, ("h2h",)), ("c", 3, False, ("h2h",))]
    # applied again to {a, b}: a beat b
    assert names(again) == [("a", 1, False, ("h2h", "h2h")), ("b", 2, False, ("h2h", "h2h")),
                            ("c", 3, False, ("h2h",))]


def test_a_criterion_that_does_not_apply_to_first_place_leaves_it_to_a_play_off():
    annual = Criterion("annual", lambda item, group: item[2], applies=lambda group, position: position != 0)
    items = [("a", 5, 2), ("b", 5, 1), ("c", 3, 9), ("d", 3, 4)]
    ranked = rank(items, [POINTS, annual], display=lambda item: item[0])
    assert names(ranked) == [("a", 1, True, ()), ("b", 1, True, ()),
                             ("d", 3, False, ("annual",)), ("c", 4, False, ("annual",))]
    assert ranked.unresolved == [[("a", 5, 2), ("b", 5, 1)]]


rows = st.lists(st.tuples(st.text("abcdef", min_size=1, max_size=3), st.integers(0, 4), st.integers(0, 3)),
                max_size=12)


@given(rows)
def test_with_plain_criteria_the_order_is_the_sorted_keys_and_ranks_are_competition_ranks(items):
    ranked = rank(items, [POINTS, FEWER], display=lambda item: item[0])
    keys = [(-p.item[1], p.item[2]) for p in ranked.placed]
    assert keys == sorted(keys)
    assert sorted(p.item for p in ranked.placed) == sorted(items)
    for index, placed in enumerate(ranked.placed):
        first = next(i for i, k in enumerate(keys) if k == keys[index])
        assert placed.rank == first + 1
        assert placed.tied == (keys.count(keys[index]) > 1)
