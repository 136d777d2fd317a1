"""Rule 9 (tournament points), rules 2 and 9 (time), rule 7 (defaults) and rule 3 (the vanished game)."""

from __future__ import annotations

import datetime as dt

import pytest
from hypothesis import given
from hypothesis import strategies as st

from reportgen.circuits.tantrix.points import (
    DEFAULT,
    PLAYED,
    VANISHED,
    penalty,
    read_time,
    score_game,
    winner_tenths,
)
from reportgen.ingest.values import BadValue
from tests.tantrix.test_workbooks import scored, write_event

# Rule 9's table, typed as the regulation prints it: margin, winner's TPs, loser's TPs.
RULE_9_TABLE = """
0 10.0 10.0
1 13.3 6.7
2 13.9 6.1
3 14.3 5.7
4 14.7 5.3
5 15.0 5.0
6 15.3 4.7
7 15.5 4.5
8 15.8 4.2
9 16.0 4.0
10 16.2 3.8
11 16.4 3.6
12 16.6 3.4
13 16.8 3.2
14 17.0 3.0
15 17.2 2.8
16 17.3 2.7
17 17.5 2.5
18 17.7 2.3
19 17.8 2.2
20 18.0 2.0
21 18.1 1.9
22 18.3 1.7
23 18.4 1.6
24 18.5 1.5
25 18.7 1.3
26 18.8 1.2
27 18.9 1.1
28 19.1 0.9
29 19.2 0.8
30 19.3 0.7
31 19.4 0.6
32 19.5 0.5
33 19.7 0.3
34 19.8 0.2
35 19.9 0.1
36 20.0 0.0
"""
ROWS = [tuple(line.split()) for line in RULE_9_TABLE.strip().splitlines()]


def test_rule_9_table_has_its_37_rows():
    assert len(ROWS) == 37 and [int(row[0]) for row in ROWS] == list(range(37))


@pytest.mark.parametrize("margin, winner, loser", ROWS)
def test_rule_9_each_row_of_the_table(margin, winner, loser):
    tenths = winner_tenths(int(margin))
    assert (tenths / 10, (200 - tenths) / 10) == (float(winner), float(loser))
    game = score_game(PLAYED, (20 + int(margin), 20), (None, None), None, False)
    assert game.tps == (round(float(winner) * 10), round(float(loser) * 10))


@pytest.mark.parametrize("margin", [36, 37, 40, 56])
def test_rule_9_thirty_six_or_more_is_20_to_0(margin):
    assert winner_tenths(margin) == 200


def test_rule_9_the_loser_side_and_a_draw():
    assert score_game(PLAYED, (19, 24), (None, None), None, False).tps == (50, 150)
    assert score_game(PLAYED, (21, 21), (None, None), None, False).tps == (100, 100)
    assert score_game(PLAYED, (21, 21), (None, None), None, False).wins == (1, 1)


# -- time: whole minutes, a TP from 15:00 on -----------------------------------------------------

# What a secretary types for 14:59, 15:00, 15:59 and 16:00 used, in each form docs/formats.md accepts.
FORMS = {
    "mm:ss text": ["14:59", "15:00", "15:59", "16:00"],
    "whole minutes": [14, 15, 15, 16],  # 15:59 typed in whole minutes is 15
    "whole minutes as text": ["14", "15", "15", "16"],
    # Excel keeps a typed 15:30 as 15 h 30 (a time cell): read as 15 min 30 s.
    "Excel time cell (h:mm)": [dt.time(14, 59), dt.time(15, 0), dt.time(15, 59), dt.time(16, 0)],
    # A real duration, typed 0:15:59 or kept in an [mm]:ss cell.
    "Excel duration": [dt.time(0, 14, 59), dt.time(0, 15), dt.time(0, 15, 59), dt.time(0, 16)],
    "Excel [h]:mm duration": [dt.timedelta(hours=14, minutes=59), dt.timedelta(hours=15),
                              dt.timedelta(hours=15, minutes=59), dt.timedelta(hours=16)],
    "Excel day fraction": [(14 * 60 + 59) / 1440, 15 * 60 / 1440, (15 * 60 + 59) / 1440, 16 * 60 / 1440],
}


@pytest.mark.parametrize("form", FORMS)
def test_rules_2_and_9_penalties_at_14_59_15_00_15_59_16_00_in_every_time_form(form):
    assert [penalty(read_time(value)) for value in FORMS[form]] == [0, 1, 1, 2]


@pytest.mark.parametrize("form", [f for f in FORMS if f != "Excel day fraction"])
def test_rules_2_and_9_penalties_read_from_a_real_workbook_in_every_time_form(tmp_path, form):
    """The same four times typed in a workbook (openpyxl writes Excel time cells), read by calamine."""
    typed = FORMS[form]
    games = [[number, "MOREAU Lucie", "FAURE Stéphane", 30, 20, value, "10:00"]
             for number, value in enumerate(typed, start=1)]
    write_event(tmp_path, "Open", games)
    result = scored(tmp_path).events[0]
    # 30-20: margin 10, 16.2 - 3.8; each TP of penalty goes to the opponent.
    assert [g.scored.penalties for g in result.games.games] == [(0, 0), (1, 0), (1, 0), (2, 0)]
    assert [g.scored.tps for g in result.games.games] == [(162, 38), (152, 48), (152, 48), (142, 58)]


def test_excel_reads_a_typed_15_30_as_15_hours_30_and_we_read_15_minutes_30():
    assert read_time(dt.time(15, 30)) == 15 * 60 + 30
    assert read_time(dt.datetime(1899, 12, 30, 15, 30)) == 15 * 60 + 30
    assert read_time(dt.time(15, 29, 59, 997000)) == 15 * 60 + 30  # a day fraction rounded by the reader


@pytest.mark.parametrize("typed", ["15h30", "-3", "1:02:03", "61", dt.timedelta(hours=1, seconds=1), -1, 12.5,
                                   dt.datetime(2026, 3, 14, 15, 30), True])
def test_a_time_that_cannot_be_read_is_refused(typed):
    with pytest.raises(BadValue):
        read_time(typed)


def test_both_players_over_time_exchange_the_difference():
    # A wins 30-20 (16.2 - 3.8); A used 16:10 (2), B 15:05 (1): A gives 2, receives 1.
    game = score_game(PLAYED, (30, 20), (970, 905), None, False)
    assert game.penalties == (2, 1) and game.tps == (152, 48)


def test_scores_stay_within_0_and_20_and_the_penalty_never_changes_the_winner():
    game = score_game(PLAYED, (25, 24), (1800, None), None, False)  # 13.3 - 6.7, A at 30:00: 16 TPs
    assert game.tps == (0, 200) and game.wins == (2, 0)
    game = score_game(PLAYED, (50, 10), (None, 1000), None, False)  # 20 - 0, B at 16:40: A already at 20
    assert game.tps == (200, 0)


@given(st.integers(0, 56), st.integers(0, 56), st.one_of(st.none(), st.integers(0, 3599)),
       st.one_of(st.none(), st.integers(0, 3599)))
def test_a_game_always_shares_20_tps_within_0_and_20(tiles_a, tiles_b, time_a, time_b):
    game = score_game(PLAYED, (tiles_a, tiles_b), (time_a, time_b), None, False)
    assert sum(game.tps) == 200 and all(0 <= tps <= 200 for tps in game.tps)
    assert game.wins == ((2, 0) if tiles_a > tiles_b else (0, 2) if tiles_b > tiles_a else (1, 1))


# -- defaults (rule 7) and the vanished game (rule 3) ----------------------------------------------

def test_rule_7_a_default_is_20_0_and_50_14_in_a_knockout_18_2_and_35_15_elsewhere():
    knockout = score_game(DEFAULT, None, (None, None), 1, True)
    assert (knockout.tiles, knockout.tps, knockout.wins, knockout.rated) == ((50, 14), (200, 0), (2, 0), False)
    other = score_game(DEFAULT, None, (None, None), 0, False)
    assert (other.tiles, other.tps, other.wins, other.rated) == ((15, 35), (20, 180), (0, 2), False)


def test_rule_3_a_vanished_game_is_a_23_23_draw_in_every_respect():
    game = score_game(VANISHED, None, (2000, 2000), None, False)
    assert (game.tiles, game.tps, game.wins, game.penalties, game.rated) == ((23, 23), (100, 100), (1, 1), (0, 0), True)
