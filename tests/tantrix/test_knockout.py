"""Knockout events (rule 10 a): matches, the bracket, and the placing with competition ranks."""

from __future__ import annotations

from reportgen.circuits.tantrix.documents import event_bulletin, event_ranking
from reportgen.circuits.tantrix.settings import TantrixSettings
from reportgen.circuits.tantrix.standings import PLAYOFF, TILES, TPS, WINS
from reportgen.render import html
from tests.tantrix.test_workbooks import scored, write_event

P = ["ALBERT Ana", "BARON Béa", "CARON Cid", "DANIEL Dan", "EMERY Eve", "FAVRE Fred", "GILLES Gus", "HAMON Hugo"]


def match(tmp_path, games):
    write_event(tmp_path, "Coupe", games, kind="élimination")
    result = scored(tmp_path).events[0]
    names = result.games.names
    return [(m.round, names[m.a], names[m.b], m.tps, m.wins, m.tiles,
             names[m.winner] if m.winner else None, m.decided_by) for m in result.matches]


def test_rule_10a_a_match_is_all_the_games_of_two_players_in_a_round_won_on_tps(tmp_path):
    games = [[1, P[0], P[1], 30, 20], [1, P[1], P[0], 24, 20], [1, P[0], P[1], 25, 25]]
    # 16.2 + 5.3 + 10.0 = 31.5 against 3.8 + 14.7 + 10.0 = 28.5
    assert match(tmp_path, games) == [(1, P[0], P[1], (315, 285), (3, 3), (75, 69), P[0], TPS)]


def test_rule_10a_level_on_tps_the_match_goes_to_games_won(tmp_path):
    # 13.3 + 13.3 + 3.4 = 30.0 each way; A won two games to one.
    games = [[1, P[0], P[1], 20, 19], [1, P[0], P[1], 24, 23], [1, P[0], P[1], 14, 26]]
    assert match(tmp_path, games) == [(1, P[0], P[1], (300, 300), (4, 2), (58, 68), P[0], WINS)]


def test_rule_10a_level_on_tps_and_games_the_match_goes_to_tiles(tmp_path):
    # A wins by 5 but at 16:00 (15.0 - 2 = 13.0); B wins by 9 but at 17:00 (16.0 - 3 = 13.0): 20.0 each,
    # a game each; tiles 30 + 20 = 50 against 25 + 29 = 54.
    games = [[1, P[0], P[1], 30, 25, "16:00"], [1, P[0], P[1], 20, 29, "", "17:00"]]
    assert match(tmp_path, games) == [(1, P[0], P[1], (200, 200), (2, 2), (50, 54), P[1], TILES)]


def test_rule_10a_level_on_all_three_is_a_play_off_to_play(tmp_path):
    games = [[1, P[0], P[1], 30, 25], [1, P[0], P[1], 25, 30]]
    assert match(tmp_path, games) == [(1, P[0], P[1], (200, 200), (2, 2), (55, 55), None, PLAYOFF)]
    write_event(tmp_path, "Coupe", games, kind="élimination")
    result = scored(tmp_path).events[0]
    assert [(line.rank, line.playoff, line.stage) for line in result.lines] == [
        (1, True, "finale : barrage à jouer"), (1, True, "finale : barrage à jouer")]
    page = html.render(event_bulletin(result, TantrixSettings(), "Ligue"))
    assert "ils se rencontrent encore une fois, 5 minutes par joueur" in page


def test_rule_7_a_default_in_a_knockout_is_20_0_with_50_14_tiles(tmp_path):
    games = [[1, P[0], P[1], 20, 25], [1, P[0], P[1], "", "", "", "", "B"], [1, P[0], P[1], "", "", "", "", "B"]]
    # 5.0 + 20 + 20 against 15.0 + 0 + 0
    assert match(tmp_path, games) == [(1, P[0], P[1], (450, 150), (4, 2), (120, 53), P[0], TPS)]


def bracket(final_winner_first: bool = True) -> list[list[object]]:
    """8 players: P1-P8, P4-P5, P2-P7, P3-P6; P1-P4, P2-P3; final P1-P2 (the first named wins)."""
    games = []
    for a, b in ((0, 7), (3, 4), (1, 6), (2, 5)):
        games += [[1, P[a], P[b], 30, 20 + a], [1, P[b], P[a], 20, 25]]
    for a, b in ((0, 3), (1, 2)):
        games += [[2, P[a], P[b], 28, 20], [2, P[a], P[b], 20, 22], [2, P[a], P[b], 27, 21]]
    first, second = (P[0], P[1]) if final_winner_first else (P[1], P[0])
    games += [[3, first, second, 30, 10], [3, second, first, 26, 25], [3, first, second, 22, 22]]
    return games


def test_rule_10a_knockout_places_by_the_last_round_played_with_competition_ranks(tmp_path):
    write_event(tmp_path, "Coupe", bracket(), kind="élimination")
    result = scored(tmp_path).events[0]
    placed = [(line.rank, line.name, line.tied, line.stage) for line in result.lines]
    assert [rank for rank, *_ in placed] == [1, 2, 3, 3, 5, 5, 5, 5]
    assert placed[:2] == [(1, P[0], False, "vainqueur"), (2, P[1], False, "finaliste")]
    assert {name for _, name, *_ in placed[2:4]} == {P[2], P[3]} and all(tied for _, _, tied, _ in placed[2:])
    assert {name for _, name, *_ in placed[4:]} == set(P[4:])
    assert all(stage == "élimination à la ronde 1" for *_, stage in placed[4:])
    ranking = event_ranking(result)
    assert [row.rank for row in ranking.rows] == [1, 2, 3, 3, 5, 5, 5, 5] and ranking.final
    assert ranking.columns[0].key == "tps" and ranking.rows[0].metrics["stage"] == "vainqueur"


def test_rule_10a_within_a_shared_place_players_are_listed_by_tps(tmp_path):
    write_event(tmp_path, "Coupe", bracket(), kind="élimination")
    result = scored(tmp_path).events[0]
    quarter = [line.tps for line in result.lines[4:]]
    assert quarter == sorted(quarter, reverse=True)


def test_the_final_decided_on_games_won_is_said_on_the_winner_s_row(tmp_path):
    games = [[1, P[0], P[1], 20, 19], [1, P[0], P[1], 24, 23], [1, P[0], P[1], 14, 26]]
    write_event(tmp_path, "Coupe", games, kind="élimination")
    result = scored(tmp_path).events[0]
    assert [line.decided_by for line in result.lines] == [[WINS], [WINS]]
    document = event_bulletin(result, TantrixSettings(), "Ligue")
    assert document.context["rows"][0]["decided"] == "finale gagnée aux parties gagnées (TPs à égalité)"
    assert document.context["bracket"][0]["label"] == "Ronde 1\u00a0— finale"


def test_a_bracket_in_progress_places_the_players_still_in_it_first(tmp_path):
    games = [[1, P[0], P[1], 30, 20], [1, P[2], P[3], 30, 20]]
    write_event(tmp_path, "Coupe", games, kind="élimination")
    result = scored(tmp_path).events[0]
    assert [(line.rank, line.stage) for line in result.lines] == [
        (1, "en lice après la ronde 1"), (1, "en lice après la ronde 1"),
        (3, "élimination à la ronde 1"), (3, "élimination à la ronde 1")]
    assert not event_ranking(result).final
