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


def test_a_label_is_the_same_whether_normalised_before_or_not_and_whatever_the_type():
    """Texts are normalised once and kept: a number or a yes/no cell is never given the entry of
    a text, nor of another number that hashes alike (1, 1.0 and True)."""
    from reportgen.ingest.text import normalise_label

    assert [normalise_label(value) for value in (True, 1, 1.0, "1", "True")] == ["true", "1", "1 0", "1", "true"]
    assert [normalise_label(value) for value in ("True", "1", 1.0, 1, True)] == ["true", "1", "1 0", "1", "true"]
    assert normalise_label("Prénom :") == normalise_label("Prénom :") == "prenom"


def test_a_totals_row_is_set_aside_whatever_its_first_cell_and_numbers_never_are():
    from pathlib import Path

    from reportgen.ingest.tables import LAST_NAME, PLACE, find_table
    from reportgen.ingest.text import Unprintable
    from reportgen.ingest.workbook import Sheet, Workbook

    rows = [["Place", "Nom"], [1.0, "A"], ["2e", "B"], [3, "C"], [Unprintable(), "D"],
            ["Tôtal :", 4], ["", "TOTAL"], [True, "E"]]
    sheet = Sheet("Résultats", rows)
    table = find_table(Workbook(Path("t.xlsx"), "t.xlsx", [sheet]), sheet, [PLACE, LAST_NAME])
    assert table is not None and table.rows == [1, 2, 3, 4, 7]
