"""The shared types: located problems sort the way a secretary reads a file."""

import datetime as dt
import pickle

import jinja2
import pytest

from reportgen.model import (
    Deferred,
    InputRule,
    Problem,
    Ranking,
    RankingRow,
    Scope,
    SourceRef,
    Status,
    column_index,
    column_letter,
)
from reportgen.render import cache
from reportgen.scoring.in_force import ranking_in_force


def test_problems_of_a_file_sort_without_error_whole_file_first_then_cells_in_row_order():
    problems = [Problem(SourceRef("t.xlsx", "Résultats", "A10"), "c"), Problem(SourceRef("t.xlsx"), "a"),
                Problem(SourceRef("t.xlsx", "Résultats", "B2"), "b"), Problem(SourceRef("t.xlsx", "Résultats", "A2"), "b")]
    assert [str(p.where) for p in sorted(problems)] == [
        "t.xlsx", "t.xlsx, feuille « Résultats », cellule A2", "t.xlsx, feuille « Résultats », cellule B2", "t.xlsx, feuille « Résultats », cellule A10"]


def test_columns_past_z_sort_by_their_index_not_their_letters_as_text():
    cells = ["AA1", "B1", "Z9", "AA9", "AB9", "A1", "BA9", "AZ9"]
    problems = [Problem(SourceRef("t.xlsx", "Résultats", cell), "x") for cell in cells]
    assert [p.where.cell for p in sorted(problems)] == ["A1", "B1", "AA1", "Z9", "AA9", "AB9", "AZ9", "BA9"]


def test_column_index_is_the_inverse_of_column_letter():
    assert [column_index(column_letter(i)) for i in (0, 25, 26, 27, 51, 52, 701, 702)] == [0, 25, 26, 27, 51, 52, 701, 702]
    assert column_index("AA") == 26


def ranking(season: int, day: str, status: Status = Status.PROVISIONAL, in_force_from: str | None = None) -> Ranking:
    row = RankingRow(1, "L:1", "DUPONT Jean", "1", "", {"points": 1})
    return Ranking(f"{season}/{day}-{status.value}", Scope("season", season), dt.date.fromisoformat(day), status, (),
                   (row,), dt.date.fromisoformat(in_force_from) if in_force_from else None)


# A Grand Sud history: the 2025 final holds from 1 January 2026 until the first 2026 ranking.
HISTORY = [ranking(2025, "2025-06-01"), ranking(2025, "2025-11-15"),
           ranking(2025, "2025-11-15", Status.FINAL, "2026-01-01"),
           ranking(2026, "2026-01-10"), ranking(2026, "2026-03-14"), ranking(2026, "2026-03-14", Status.FINAL, "2027-01-01")]


def in_force(day: str) -> str | None:
    found = ranking_in_force(HISTORY, dt.date.fromisoformat(day))
    return found.path if found else None


def test_the_ranking_in_force_the_day_before_the_first_tournament_ever_is_none():
    assert in_force("2025-05-31") is None


def test_the_ranking_in_force_on_a_tournament_day_includes_that_day():
    assert in_force("2025-06-01") == "2025/2025-06-01-provisional"


def test_after_the_last_tournament_of_a_year_its_last_ranking_holds_until_31_december():
    assert in_force("2025-12-31") == "2025/2025-11-15-provisional"


def test_the_first_day_of_a_year_the_final_ranking_of_the_year_before_holds():
    assert in_force("2026-01-01") == "2025/2025-11-15-final"
    assert in_force("2026-01-09") == "2025/2025-11-15-final"  # the day before the season's first tournament


def test_from_the_seasons_first_tournament_the_new_ranking_holds():
    assert in_force("2026-01-10") == "2026/2026-01-10-provisional"


def test_a_day_with_a_ranking_of_each_season_taking_effect_gives_the_newer_season():
    history = [*HISTORY, ranking(2027, "2027-01-01")]
    found = ranking_in_force(history, dt.date(2027, 1, 1))
    assert found is not None and found.season == 2027


def test_an_input_rule_is_help_only_unless_it_says_its_kind_and_never_refuses_everything():
    """A rule that says no kind blocks nothing; a whole-number range with no room or a list with no
    choices would refuse whatever a club types: refused where it is written."""
    help_only = InputRule(1, 1, 1, 1, "La ville.")
    assert (help_only.kind, help_only.blocking) == ("text", False)
    for impossible in ({"kind": "whole"}, {"kind": "whole", "minimum": 5, "maximum": 1}, {"kind": "list"},
                       {"kind": "texte"}):
        with pytest.raises(ValueError):
            InputRule(1, 1, 1, 1, "?", **impossible)  # type: ignore[arg-type]


# -- a list made when first read (model.Deferred) ---------------------------------------------------

def test_a_deferred_list_is_made_once_when_first_read_and_reads_as_that_list():
    made = []

    def make():
        made.append(1)
        return [{"player": "DURAND Anne"}, {"player": "MARTIN Paul"}]

    rows = Deferred(make, 2)
    assert len(rows) == 2 and bool(rows) and made == []  # its length known without making it
    assert [row["player"] for row in rows] == ["DURAND Anne", "MARTIN Paul"] and made == [1]
    assert rows[1] == {"player": "MARTIN Paul"} and rows[:1] == [{"player": "DURAND Anne"}]
    assert rows == [{"player": "DURAND Anne"}, {"player": "MARTIN Paul"}] != rows[:1]
    assert made == [1]  # read four times, made once
    # as a template reads it: a loop, its length, a slice (render/html.py `printed`)
    template = jinja2.Environment().from_string("{{ rows|length }}{% for r in rows[:1] %} {{ r.player }}{% endfor %}")
    assert template.render(rows=rows) == "2 DURAND Anne"


def test_a_deferred_list_pickles_as_its_items():
    rows = Deferred(lambda: [("A", 1), ("B", 2)], 2)
    assert pickle.loads(pickle.dumps(rows)) == [("A", 1), ("B", 2)]
    assert cache.source_key(Deferred(lambda: [1, 2], 2)) == cache.source_key(Deferred(lambda: [1, 2], 2)) \
        != cache.source_key(Deferred(lambda: [1, 3], 2))


def test_a_deferred_list_of_another_length_than_announced_is_refused():
    # the summary printed « 3 joueurs classés » before the rows were made: never a bulletin that lies
    with pytest.raises(ValueError, match="2 items, 3 announced"):
        list(Deferred(lambda: [1, 2], 3))


def test_a_deferred_list_of_unknown_length_is_made_when_counted():
    made = []
    rows = Deferred(lambda: made.append(1) or [[1], [2], [3]], None)  # an annex's place history
    assert made == [] and len(rows) == 3 and made == [1] and list(rows) == [[1], [2], [3]]
