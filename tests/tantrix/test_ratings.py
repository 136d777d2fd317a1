"""Ratings (rule 12 as INTERPRETATIONS.md reads it), the rating lists, and the seeding list (rule 13)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from reportgen.circuits.tantrix.documents import list_ranking
from reportgen.circuits.tantrix.games import Game
from reportgen.circuits.tantrix.parse import GameRow
from reportgen.circuits.tantrix.points import DEFAULT, PLAYED, score_game
from reportgen.circuits.tantrix.ratings import Rating, rate_event
from reportgen.circuits.tantrix.settings import TantrixSettings
from reportgen.model import SourceRef
from reportgen.render.ranking import to_csv
from tests.tantrix.test_workbooks import scored, write_event

SETTINGS = TantrixSettings()
A, B, C, D = "ANDRÉ Anne", "BLANC Bruno", "COLIN Claire", "DUMAS Denis"


def game(a: str, b: str, tiles: tuple[int, int] | None, default: int | None = None, line: int = 0) -> Game:
    kind = DEFAULT if default is not None else PLAYED
    row = GameRow(line, 1, a, b, a, b, kind, tiles, (None, None), default, SourceRef("test.xlsx"))
    return Game(row, a, b, score_game(kind, tiles, (None, None), default, False))


def test_rule_12_a_small_case_worked_by_hand(tmp_path):
    """Event 1, three newcomers at 1850 (G = 0, so their weight is 0 and R' is the performance):
    A beats B by 5 (15.0 - 5.0) and C by 1 (13.3 - 6.7); B and C draw (10 - 10).
      f_A = 28.3 / 40 = 0.7075  Φ⁻¹ = 0.54610  perf_A = 1850 + 565.7 × 0.54610 = 2158.93
      f_B = 15.0 / 40 = 0.375   Φ⁻¹ = -0.31864 perf_B = 1669.75
      f_C = 16.7 / 40 = 0.4175  Φ⁻¹ = -0.20829 perf_C = 1732.17
      Δ = (3 × 1850 − 5560.84) × 2 / 6 = −3.61: A 2155.3, B 1666.1, C 1728.6 (Σ = 5550 = 3 × 1850).
    Event 2: D, a newcomer, beats A by 10 (16.2 - 3.8).
      f_A = 0.19  Φ⁻¹ = −0.87790 perf_A = 1850 (D before) − 496.6 = 1353.37
      f_D = 0.81  Φ⁻¹ = 0.87790  perf_D = 2155.31 (A before) + 496.6 = 2651.94
      R'_A = (min(2, 36) × 2155.31 + 1 × 1353.37) / 3 = 1888.00; R'_D = 2651.94 (weight 0)
      Δ = ((2155.31 − 1888.00) + (1850 − 2651.94)) / 2 = −267.31: A 1620.7, D 2384.6."""
    write_event(tmp_path, "Un", [[1, A, B, 25, 20], [2, A, C, 21, 20], [3, B, C, 20, 20]], day="01/03/2026")
    write_event(tmp_path, "Deux", [[1, D, A, 30, 20]], day="08/03/2026")
    lists = scored(tmp_path).lists
    assert [[(row.name, round(row.rating.value, 1), row.rating.games) for row in found.rows] for found in lists] == [
        [(A, 2155.3, 2), (C, 1728.6, 2), (B, 1666.1, 2)],
        [(D, 2384.6, 1), (C, 1728.6, 2), (B, 1666.1, 2), (A, 1620.7, 3)]]
    change = scored(tmp_path).events[1].changes
    a = next(c for c in change.values() if c.before.games == 2)
    assert (round(a.score, 2), round(a.opponents, 2), round(a.performance, 2)) == (0.19, 1850.0, 1353.37)


def test_rule_12_the_score_is_clipped_so_a_20_0_whitewash_stays_finite():
    changes = rate_event({}, [game(A, B, (50, 10))], SETTINGS)
    assert changes[A].score == 0.99 and changes[B].score == 0.01
    assert changes[A].after.value == pytest.approx(1850 + 565.7 * 2.3263478740408408)


def test_rule_7_defaults_are_never_rated_and_a_player_with_only_defaults_is_not_on_the_list(tmp_path):
    write_event(tmp_path, "Un", [[1, A, B, 25, 20], [2, A, C, "", "", "", "", "B"]])
    result = scored(tmp_path)
    assert {result.events[0].games.names[p]: c.games for p, c in result.events[0].changes.items()} == {A: 1, B: 1}
    assert C not in [row.name for row in result.lists[0].rows]


@st.composite
def events(draw):
    players = [f"P{index}" for index in range(draw(st.integers(2, 7)))]
    before = {p: Rating(draw(st.floats(1200, 2600)), draw(st.integers(0, 80)))
              for p in players if draw(st.booleans())}
    games = []
    for line in range(draw(st.integers(1, 15))):
        a, b = draw(st.sampled_from(players)), draw(st.sampled_from(players))
        if a == b:
            continue
        if draw(st.integers(0, 5)) == 0:
            games.append(game(a, b, None, draw(st.sampled_from([0, 1])), line))
        else:
            games.append(game(a, b, (draw(st.integers(0, 56)), draw(st.integers(0, 56))), line=line))
    return before, games


@given(events())
def test_rule_12_sum_of_games_times_rating_is_kept_over_an_event(case):
    before, games = case
    changes = rate_event(before, games, SETTINGS)
    kept = sum(c.games * c.before.value for c in changes.values())
    assert sum(c.games * c.after.value for c in changes.values()) == pytest.approx(kept, abs=1e-6)
    assert all(c.after.games == c.before.games + c.games for c in changes.values())
    assert sum(c.games for c in changes.values()) == 2 * sum(1 for g in games if g.scored.rated)


@given(st.integers(3, 8), st.lists(st.integers(0, 40), min_size=1, max_size=4), st.floats(1400, 2400),
       st.integers(0, 60))
def test_rule_12_symmetric_results_give_equal_ratings(count, margins, start, played):
    """Each player beats the next one round a circle by the same margins: all end level."""
    players = [f"P{index}" for index in range(count)]
    games = [game(players[i], players[(i + 1) % count], (20 + margin, 20), line=i)
             for margin in margins for i in range(count)]
    changes = rate_event({p: Rating(start, played) for p in players}, games, SETTINGS)
    values = [changes[p].after.value for p in players]
    assert max(values) - min(values) < 1e-6 and values[0] == pytest.approx(start)


def test_rule_13_a_provisional_rating_is_reduced_for_seeding():
    assert Rating(2000, 9).seeding(SETTINGS) == pytest.approx(2000 - 200 * 27 / 36)
    assert Rating(2000, 36).seeding(SETTINGS) == 2000 and Rating(2000, 50).seeding(SETTINGS) == 2000
    assert Rating(1850, 0).seeding(SETTINGS) == 1650


def test_a_rating_list_after_each_event_date_with_each_player_s_change(tmp_path):
    write_event(tmp_path, "Un", [[1, A, B, 25, 20]], day="01/03/2026")
    write_event(tmp_path, "Deux", [[1, A, C, 25, 20]], day="01/03/2026")  # same date: one list for both
    write_event(tmp_path, "Trois", [[1, B, C, 30, 20]], day="08/03/2026")
    result = scored(tmp_path)
    assert [(found.date.day, [r.event.name for r in found.events]) for found in result.lists] == [
        (1, ["Deux", "Un"]), (8, ["Trois"])]  # same date: by event name
    ranking = list_ranking(result.lists[1], SETTINGS)
    csv = to_csv(ranking).decode().splitlines()
    assert csv[0] == "rank,player,rating,games,provisional,change,seeding,tied"
    rows = {row.player: row.metrics for row in ranking.rows}
    assert rows[A]["change"] == 0.0 and rows[A]["provisional"] == "oui" and rows[A]["games"] == 2
    assert rows[B]["change"] > 0 and rows[C]["change"] < 0
    first = {row.name: row.rating.value for row in result.lists[0].rows}
    now = {row.name: row.rating.value for row in result.lists[1].rows}
    assert rows[B]["change"] == round(now[B] - first[B], 1) and rows[C]["change"] == round(now[C] - first[C], 1)
    assert ranking.scope.kind == "ratings" and ranking.status.value == "rating"


def test_rule_12_same_date_events_are_rated_one_after_the_other_by_name(tmp_path):
    write_event(tmp_path, "Bêta", [[1, A, B, 40, 10]], day="01/03/2026", file="b")
    write_event(tmp_path, "Alpha", [[1, B, C, 30, 20]], day="01/03/2026", file="a")
    result = scored(tmp_path)
    assert [r.event.name for r in result.events] == ["Alpha", "Bêta"]
    beta = result.events[1]
    b = next(p for p, n in beta.games.names.items() if n == B)
    assert beta.changes[b].before.games == 1  # Alpha, rated first, already counts


def test_rule_13_the_seeding_list_uses_only_the_events_of_earlier_dates(tmp_path):
    write_event(tmp_path, "Un", [[1, A, B, 40, 10], [2, C, D, 30, 20]], day="01/03/2026")
    write_event(tmp_path, "Deux", [[1, A, C, 20, 20], [2, B, D, 20, 20]], day="08/03/2026",
                registrations=[[A, "", "rouge"], [B, "", "rouge"], [C, 2100, "bleu"], [D, "", "vert"]])
    before = [(s.name, round(s.value, 1), s.source) for s in scored(tmp_path).events[1].seeds]
    # A later workbook, and one of the same date, change nothing in a published seeding list.
    write_event(tmp_path, "Trois", [[1, A, D, 10, 40]], day="15/03/2026")
    write_event(tmp_path, "Zéro", [[1, B, D, 10, 40]], day="08/03/2026")
    after = scored(tmp_path)
    deux = next(r for r in after.events if r.event.name == "Deux")
    assert [(s.name, round(s.value, 1), s.source) for s in deux.seeds] == before
    ratings = {row.name: row.rating for row in after.lists[0].rows}
    assert before[0] == (A, round(ratings[A].seeding(SETTINGS), 1), "classement")
    assert deux.ratings_date.day == 1


def test_rule_13_a_player_without_a_rating_is_seeded_by_the_elo_typed_in_inscrits_or_1650(tmp_path):
    write_event(tmp_path, "Un", [[1, A, B, 25, 20]], registrations=[[A, 1990, "rouge"], [B, "", "bleu"]])
    seeds = scored(tmp_path).events[0].seeds
    assert [(s.name, s.value, s.source) for s in seeds] == [(A, 1990, "Inscrits"), (B, 1650, "départ")]
    ignored = scored(tmp_path, TantrixSettings(seed_unrated_from_inscrits=False)).events[0].seeds
    assert [(s.name, s.value) for s in ignored] == [(A, 1650), (B, 1650)]
