"""The library answers what the commands ask (reportgen/queries.py): the command line only prints."""

import pytest

from reportgen import queries
from reportgen.model import Problem, SourceRef


def test_the_club_directory_problems_come_first():
    later = Problem(SourceRef("a.xlsx"), "club inconnu", "corrigez")
    cause = Problem(SourceRef("clubs.xlsx"), "illisible", "corrigez")
    assert queries.sorted_problems([later, cause]) == [cause, later]


def test_no_ranking_is_a_french_answer_not_an_exception_text():
    with pytest.raises(queries.NotFound, match="^aucun classement grand-sud pour la saison 2031$"):
        queries.season_ranking("grand-sud", [], season=2031)
    with pytest.raises(queries.NotFound, match="^aucun tournoi tantrix ne s'appelle « Open »$"):
        queries.event_ranking("tantrix", [], "Open")
