"""What `normalise.results_table` now works out once per spelling or per player gives what working
it out per row gave: the printed spelling of a player (most accents, then most frequent, then the
latest), chosen with each spelling counted once rather than once per row."""

from hypothesis import given
from hypothesis import strategies as st

from reportgen.ingest.normalise import best_spelling


def old_best_spelling(spellings: list[str]) -> str:
    def score(index: int) -> tuple[int, int, int]:
        spelling = spellings[index]
        return (sum(not char.isascii() for char in spelling), spellings.count(spelling), index)

    return spellings[max(range(len(spellings)), key=score)]


@given(st.lists(st.sampled_from(["DUPONT Jean", "DUPONT Jéan", "DUPONT Jeàn", "DUPOND Jean", "DUPONT JEAN"]),
                min_size=1, max_size=30))
def test_the_printed_spelling_is_the_one_chosen_row_by_row(spellings):
    assert best_spelling(spellings) == old_best_spelling(spellings)


def test_accents_then_frequency_then_the_latest():
    assert best_spelling(["DUPONT Jean", "DUPONT Jean", "DUPONT Jéan"]) == "DUPONT Jéan"
    assert best_spelling(["DUPOND Jean", "DUPONT Jean", "DUPONT Jean"]) == "DUPONT Jean"
    assert best_spelling(["DUPONT Jean", "DUPOND Jean"]) == "DUPOND Jean"

