"""The Grand Sud's places in one sort (`scoring.placed`) against the generic tie-break chain it
replaced (`tiebreaks.rank` with §1's CHAIN), on generated lines full of equal totals, tournaments
played and best results."""

from hypothesis import given, settings
from hypothesis import strategies as st

from reportgen.circuits.grand_sud.scoring import CHAIN, _Line, placed
from reportgen.scoring import tiebreaks

NAMES = ["ALPHA Un", "BRAVO Deux", "alpha un", "CHARLIE Trois", "Delta Quatre"]


@st.composite
def lines(draw):
    count = draw(st.integers(0, 40))
    found = []
    for number in range(count):
        total = draw(st.integers(0, 4))
        found.append(_Line(f"p{draw(st.integers(0, 10**6))}-{number}", draw(st.sampled_from(NAMES)), "", [], 1,
                           played=draw(st.integers(1, 3)), total=total, best=total + draw(st.integers(0, 2))))
    return found


def by_chain(listed, keys):
    ranked = tiebreaks.rank(listed, CHAIN, display=lambda line: (keys[line.player], line.player_id))
    return [(p.item.player_id, p.rank, p.tied, p.decided_by) for p in ranked.placed]


@settings(deadline=None, max_examples=300)
@given(lines(), st.randoms(use_true_random=False))
def test_one_sort_places_as_the_chain_does(listed, random):
    keys = {name: name.casefold() for name in NAMES}
    random.shuffle(listed)
    assert [(line.player_id, rank, tied, decided) for line, rank, tied, decided in placed(listed, keys)] == \
        by_chain(listed, keys)


def test_each_step_of_the_chain_is_named_where_it_decides():
    keys = {name: name for name in NAMES}
    listed = [_Line("a", "ALPHA Un", "", [], 1, played=2, total=10, best=6),
              _Line("b", "BRAVO Deux", "", [], 1, played=3, total=10, best=6),
              _Line("c", "CHARLIE Trois", "", [], 1, played=3, total=10, best=5),
              _Line("d", "Delta Quatre", "", [], 1, played=3, total=10, best=5),
              _Line("e", "alpha un", "", [], 1, played=1, total=12, best=12)]
    assert [(line.player_id, rank, tied, decided) for line, rank, tied, decided in placed(listed, keys)] == [
        ("e", 1, False, ()), ("a", 2, False, ("played",)), ("b", 3, False, ("played", "best")),
        ("c", 4, True, ("played", "best")), ("d", 4, True, ("played", "best"))]
