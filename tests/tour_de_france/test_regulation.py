"""Regulation 004 (« Le Tour de France »): every example of the text, and the readings of
INTERPRETATIONS.md, « tour-de-france »."""

import datetime as dt
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

from reportgen.circuits.tour_de_france.parse import TourDeFranceRow, TourDeFranceTournament, ranking_places
from reportgen.circuits.tour_de_france.scale import first_quarter_size, gaps, place_points, shared, tournament_value
from reportgen.circuits.tour_de_france.scoring import score_seasons, season_total
from reportgen.circuits.tour_de_france.settings import TourDeFranceSettings
from reportgen.model import Entry, Event, SourceRef
from tests.builders import results

SETTINGS = TourDeFranceSettings()


def test_example_a_tournament_of_19_participants_is_worth_1143():
    assert tournament_value(19, SETTINGS) == 1143


def test_example_a_tournament_of_100_players_is_worth_1816():
    assert tournament_value(100, SETTINGS) == 1816


@pytest.mark.parametrize("players", [1, 5, 6])
def test_under_7_participants_the_tournament_does_not_count(players):
    assert tournament_value(players, SETTINGS) is None


@pytest.mark.parametrize("players, value", [(7, 700), (14, 1000), (21, 1200), (35, 1400), (56, 1600), (84, 1800)])
def test_value_at_each_anchor_point(players, value):
    assert tournament_value(players, SETTINGS) == value


@pytest.mark.parametrize("players, value", [
    (8, 743), (10, 829), (13, 957), (15, 1029), (17, 1086), (20, 1171), (28, 1300), (40, 1448), (70, 1700),
    (85, 1801), (120, 1836)])
def test_value_between_anchor_points_is_linear_and_rounded(players, value):
    # e.g. 10: 700 + 300 x 3/7 = 828.57 -> 829; 40: 1400 + 200 x 5/21 = 1447.6 -> 1448
    assert tournament_value(players, SETTINGS) == value


def test_example_17_players_4th_556_7th_300_17th_27():
    points = place_points(tournament_value(17, SETTINGS), 17, SETTINGS)
    assert (points[4 - 1], points[7 - 1], points[17 - 1]) == (556, 300, 27)
    assert points == [1086, 869, 695, 556, 470, 385, 300, 272, 244, 216, 189, 162, 135, 108, 81, 54, 27]


def test_example_17_players_the_first_quarter_has_3_players_and_the_7th_opens_the_second():
    assert first_quarter_size(17) == 3


def test_second_is_80_percent_of_first_and_third_80_percent_of_second():
    assert place_points(1086, 17, SETTINGS)[:3] == [1086, 869, 695]  # 868.8 -> 869, 695.2 -> 695


def test_gaps_are_rounded_with_the_larger_ones_first():
    assert gaps(300, 11) == [28, 28, 28] + [27] * 8


def test_example_multipliers_three_results_360_140_30_make_515():
    assert season_total([Fraction(360), Fraction(140), Fraction(30)], SETTINGS)[0] == 515


def test_example_multipliers_a_fourth_result_of_190_makes_705():
    assert season_total([Fraction(360), Fraction(140), Fraction(30), Fraction(190)], SETTINGS)[0] == 705


def test_multipliers_the_two_best_results_always_count_in_full():
    for count in range(1, 10):
        assert SETTINGS.factors(count)[:2] == (1.0, 1.0)[:count]


def test_multipliers_are_a_setting():
    halves = TourDeFranceSettings(multipliers=((1.0,), (1.0, 0.5)))
    assert season_total([Fraction(100), Fraction(80), Fraction(60)], halves)[0] == 100 + 80 + 30


def test_ex_aequo_share_the_points_of_the_places_they_cover():
    points = place_points(1086, 17, SETTINGS)
    assert shared(points, [1, 2, 3, 3, 5])[2:4] == [Fraction(695 + 556, 2)] * 2


def event(day: str, players: list[str], participants=None, excluded=(), places=None) -> Event:
    rows = [TourDeFranceRow(entry=Entry("", *name.split(" ")), ref=SourceRef(f"{day}.xlsx", "Résultats", f"B{i + 2}"),
                            place=(places or list(range(1, len(players) + 1)))[i], excluded=name in excluded,
                            place_ref=SourceRef(f"{day}.xlsx", "Résultats", f"A{i + 2}"))
            for i, name in enumerate(players)]
    content = TourDeFranceTournament(location="", participants=participants or len(players))
    # the places typed, then those of the ranking, as the parse gives a workbook's rows
    return Event(f"{day}.xlsx", f"Tournoi du {day}", dt.date.fromisoformat(day), content, ranking_places(rows))


NAMES = [f"JOUEUR{chr(65 + i // 26)}{chr(65 + i % 26)} Un" for i in range(130)]


@pytest.mark.parametrize(("typed", "excluded", "expected"), [
    ([1, 2, 3, 3, 5], {1}, [1, None, 2, 2, 4]),  # under an excluded 2nd, 3, 3 move up and stay ex aequo
    ([1, 2, 2, 4], {2}, [1, 2, None, 3]),  # ex aequo with an excluded player: alone in his place
    ([1, 1, 1, 4], {0}, [None, 1, 1, 3]),  # an excluded winner among three ex aequo
    ([1, None, 2, 3], {1}, [1, None, 2, 3]),  # an excluded player typed without a place
    ([1, 2, 3, 4], {3}, [1, 2, 3, None]),  # last: the places as typed, the example league's case
])
def test_the_places_of_a_ranking_move_up_over_excluded_players_and_keep_ex_aequo(typed, excluded, expected):
    """« Cas particuliers »: a player left out does not figure in the ranking; the places of those
    typed below him move up, ex aequo still share one (« cas des exaequo »)."""
    players = NAMES[:len(typed)]
    made = event("2005-03-19", players, excluded={players[i] for i in excluded}, places=typed)
    assert [row.place for row in made.results] == expected


def test_excluded_players_are_removed_before_places_are_scored():
    players = NAMES[:8]
    tournaments, _ = score_seasons(results([event("2005-03-19", players, excluded={players[1]})]),
                                   [event("2005-03-19", players, excluded={players[1]})], SETTINGS)
    scored = tournaments[0]
    assert scored.value == 743  # all 8 physical participants count for the value
    assert [(name, place) for _, name, place, _ in scored.results][:2] == [(players[0], 1), (players[2], 2)]
    assert scored.excluded == [players[1]] and len(scored.scale) == 7


def test_a_tournament_under_7_players_scores_nothing_and_is_said_not_to_count():
    events = [event("2005-03-19", NAMES[:6]), event("2005-04-09", NAMES[:9])]
    tournaments, rankings = score_seasons(results(events), events, SETTINGS)
    assert not tournaments[0].counts and tournaments[1].counts
    assert {row.played for row in rankings[-1].rows} == {1}


def test_tournaments_under_12_players_are_marked_and_use_the_standard_scale():
    events = [event("2005-03-19", NAMES[:11])]
    tournaments, _ = score_seasons(results(events), events, SETTINGS)
    assert tournaments[0].small and tournaments[0].scale == place_points(tournament_value(11, SETTINGS), 11, SETTINGS)


def test_the_season_total_is_recomputed_after_every_tournament():
    events = [event("2005-03-19", NAMES[:7]), event("2005-04-09", NAMES[:7][::-1]), event("2005-05-07", NAMES[:7])]
    _, rankings = score_seasons(results(events), events, SETTINGS)
    assert [(r.date, r.final) for r in rankings] == [(dt.date(2005, 3, 19), False), (dt.date(2005, 4, 9), False),
                                                     (dt.date(2005, 5, 7), False), (dt.date(2005, 5, 7), True)]
    first = {row.player: row.total for row in rankings[0].rows}
    assert first[NAMES[0]] == 700
    third = {row.player: row for row in rankings[2].rows}
    # 700, 700 and 100 for the first player: the worst counts half
    assert third[NAMES[0]].total == 700 + 700 + 50


@hypothesis_settings(deadline=None)
@given(st.integers(7, 120), st.integers(0, 30))
def test_points_never_increase_down_the_ranking_last_place_scores_and_gaps_shrink_within_each_segment(ranked, extra):
    value = tournament_value(ranked + extra, SETTINGS)
    points = place_points(value, ranked, SETTINGS)
    assert len(points) == ranked and points[0] == value
    assert all(a >= b for a, b in zip(points, points[1:]))
    assert points[-1] > 0
    second_quarter = 3 + first_quarter_size(ranked)  # index of the first of the second quarter
    assert points[second_quarter] == 300
    for segment in (points[3:second_quarter + 1], points[second_quarter:] + [0]):
        steps = [a - b for a, b in zip(segment, segment[1:])]
        assert all(a >= b for a, b in zip(steps, steps[1:])) and max(steps, default=0) - min(steps, default=0) <= 1


@hypothesis_settings(deadline=None)
@given(st.integers(7, 120), st.data())
def test_ex_aequo_sharing_keeps_the_sum_of_the_table(ranked, data):
    points = place_points(tournament_value(ranked, SETTINGS), ranked, SETTINGS)
    # random ex aequo groups: cut 1..ranked into consecutive runs
    cuts = sorted(data.draw(st.sets(st.integers(2, ranked), max_size=ranked // 2)))
    places, start = [], 1
    for cut in cuts + [ranked + 1]:
        places += [start] * (cut - start)
        start = cut
    assert sum(shared(points, places)) == sum(points)
