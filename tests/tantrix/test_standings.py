"""All-play-all standings (rule 10), defaults (rule 7) and the vanished game (rule 3) in the standings,
each tie-break level with a literal case (TPs from rule 9's table)."""

from __future__ import annotations

import pytest

from reportgen.circuits.tantrix.documents import event_ranking
from reportgen.circuits.tantrix.settings import TantrixSettings
from reportgen.circuits.tantrix.standings import HEAD_TO_HEAD, MARGINS, PLAYOFF, TILES, WINS
from reportgen.render.ranking import to_csv
from tests.tantrix.test_workbooks import scored, write_event

A, B, C, D, E = "ANDRÉ Anne", "BLANC Bruno", "COLIN Claire", "DUMAS Denis", "ESTÈVE Emma"


def standings(tmp_path, games, settings=None):
    write_event(tmp_path, "Open", games)
    return [(line.name, line.rank, round(line.tps / 10, 1), line.decided_by, line.playoff)
            for line in scored(tmp_path, settings).events[0].lines]


def test_rule_10_first_by_tps_after_time_penalties(tmp_path):
    # A beats B by 5 (15.0 - 5.0) but used 17:00: 3 TPs to B (12.0 - 8.0); B beats C by 1 (13.3 - 6.7),
    # C beats A by 1 (13.3 - 6.7). Without the penalty A would lead with 21.7.
    games = [[1, A, B, 30, 25, "17:00", "10:00"], [2, B, C, 21, 20], [3, C, A, 21, 20]]
    assert standings(tmp_path, games) == [(B, 1, 21.3, [], False), (C, 2, 20.0, [], False), (A, 3, 18.7, [], False)]


def test_rule_10_b_a_tie_on_tps_goes_to_the_tps_the_tied_players_scored_against_each_other(tmp_path):
    # A 15.0 + 1.9 + 13.3 = 30.2 and B 5.0 + 6.7 + 18.5 = 30.2: A beat B (15.0 - 5.0).
    games = [[1, A, B, 25, 20], [1, C, D, 30, 20], [2, A, C, 10, 31], [2, B, D, 34, 10],
             [3, A, D, 21, 20], [3, B, C, 19, 20]]
    assert standings(tmp_path, games) == [(C, 1, 47.6, [], False), (A, 2, 30.2, [HEAD_TO_HEAD], False),
                                          (B, 3, 30.2, [HEAD_TO_HEAD], False), (D, 4, 12.0, [], False)]


def test_rule_10_b_is_computed_once_over_the_whole_tied_group(tmp_path):
    # A, B, C all at 20.0 after a cycle; D far behind. Among the three, each scored 20.0: all still level.
    # The three share first place: a play-off to play, whatever their games won, margins or tiles.
    games = [[1, A, B, 25, 20], [1, C, D, 40, 4], [2, B, C, 30, 25], [2, A, D, 40, 4], [3, C, A, 35, 30],
             [3, B, D, 40, 4]]
    lines = standings(tmp_path, games)
    assert [line[:3] for line in lines] == [(A, 1, 40.0), (B, 1, 40.0), (C, 1, 40.0), (D, 4, 0.0)]
    assert all(line[3] == [PLAYOFF] and line[4] for line in lines[:3])


def test_rule_10_c_which_places_go_to_a_play_off_is_a_setting(tmp_path):
    games = [[1, A, B, 25, 20], [1, C, D, 40, 4], [2, B, C, 30, 25], [2, A, D, 40, 4], [3, C, A, 35, 30],
             [3, B, D, 40, 4]]
    # Not at stake (only 4th place would be): wins 1 each, margins 0 each, then tiles: C 60, A 55, B 50.
    lines = standings(tmp_path, games, TantrixSettings(playoff_places=(4,)))
    assert [line[:2] for line in lines] == [(C, 1), (A, 2), (B, 3), (D, 4)]
    assert lines[0][3] == [TILES] and not any(line[4] for line in lines)


def four(b_d: tuple[int, int], c_d: tuple[int, int], a_b: tuple[int, int], a_c: tuple[int, int],
         b_c: tuple[int, int] = (20, 20)) -> list[list[object]]:
    """A beats D by 10; the other scores as given (A's first)."""
    return [[1, A, B, *a_b], [1, C, D, *c_d], [2, A, C, *a_c], [2, B, D, *b_d], [3, A, D, 30, 20], [3, B, C, *b_c]]


def test_rule_10_d_a_lesser_tie_goes_to_games_won_a_draw_counting_half(tmp_path):
    # B: draw with C (10.0), lost to A by 32 (0.5), beat D by 1 (13.3) = 23.8, 1½ won.
    # C: draw with B (10.0), lost to A by 10 (3.8), drew with D (10.0) = 23.8, 1 won. Their game: 10 - 10.
    games = four(b_d=(21, 20), c_d=(25, 25), a_b=(40, 8), a_c=(30, 20))
    lines = standings(tmp_path, games)
    assert [line[:4] for line in lines] == [(A, 1, 51.9, []), (B, 2, 23.8, [WINS]), (C, 3, 23.8, [WINS]),
                                            (D, 4, 20.5, [])]


def test_rule_10_d_then_the_sum_of_margins(tmp_path):
    # B: lost to A by 1 (6.7), beat D by 2 (13.9): 30.6, margins +1; C: lost to A by 4 (5.3), beat D by 6
    # (15.3): 30.6, margins +2. Same games won (1½ each); their game a draw.
    games = four(b_d=(22, 20), c_d=(26, 20), a_b=(21, 20), a_c=(24, 20))
    assert [line[:4] for line in standings(tmp_path, games)][1:3] == [(C, 2, 30.6, [MARGINS]), (B, 3, 30.6, [MARGINS])]


def test_rule_10_d_then_the_tiles_scored(tmp_path):
    # The same margins (+1 each) and TPs (30.6), but C scored 82 tiles and B 62.
    games = four(b_d=(22, 20), c_d=(32, 30), a_b=(21, 20), a_c=(31, 30))
    assert [line[:4] for line in standings(tmp_path, games)][1:3] == [(C, 2, 30.6, [TILES]), (B, 3, 30.6, [TILES])]


def test_rule_10_c_a_lesser_place_can_matter_too(tmp_path):
    games = four(b_d=(21, 20), c_d=(25, 25), a_b=(40, 8), a_c=(30, 20))
    lines = standings(tmp_path, games, TantrixSettings(playoff_places=(1, 2)))
    assert [line[:2] + line[3:] for line in lines][1:3] == [(B, 2, [PLAYOFF], True), (C, 2, [PLAYOFF], True)]


def test_a_tie_left_level_by_every_criterion_shares_the_place(tmp_path):
    # B and C: the very same results against A and D, a draw together.
    games = four(b_d=(22, 20), c_d=(22, 20), a_b=(21, 20), a_c=(21, 20))
    lines = standings(tmp_path, games)
    assert [line[:2] + line[4:] for line in lines][1:3] == [(B, 2, False), (C, 2, False)]


def test_the_standings_columns_count_defaults_penalties_and_the_vanished_game(tmp_path):
    # A beats B 30-20 but over time (16:00: 2 TPs); C defaults against A (18-2); B-C vanished (23-23).
    write_event(tmp_path, "Open", [[1, A, B, 30, 20, "16:00"], [2, A, C, "", "", "", "", "B"],
                                   [3, B, C, "", "", "", "", "", "oui"]])
    result = scored(tmp_path).events[0]
    csv = to_csv(event_ranking(result)).decode().splitlines()
    assert csv == ["rank,player,tps,games,wins,margin,tiles,playoff,tied",
                   f"1,{A},32.2,2,2,30,65,False,False", f"2,{B},15.8,2,0.5,-10,43,False,False",
                   f"3,{C},12.0,2,0.5,-20,38,False,False"]


def test_rule_7_more_than_two_defaults_leaves_a_player_out_with_his_opponents_results_against_him(tmp_path):
    games = [[1, A, E, "", "", "", "", "B"], [2, B, E, "", "", "", "", "B"], [3, C, E, "", "", "", "", "B"],
             [4, D, E, 20, 30], [1, B, C, 25, 20], [2, C, D, 25, 20], [3, D, A, 25, 20], [4, A, B, 30, 20],
             [5, A, C, 20, 20], [5, B, D, 20, 25]]
    write_event(tmp_path, "Open", games)
    result = scored(tmp_path).events[0]
    assert [result.games.names[p] for p in result.games.left_out] == [E] and result.games.defaults_lost == {
        result.games.keys["esteve emma"]: 3}
    assert [line.name for line in result.lines] == [D, A, C, B]
    d = next(line for line in result.lines if line.name == D)
    assert (d.games, d.tps) == (3, 50 + 150 + 150)  # his loss to E (20-30) does not count for the standings
    ranking = event_ranking(result)
    assert E not in [row.player for row in ranking.rows]
    # His played game counts for the ratings, the defaults never do.
    assert result.changes[result.games.keys["esteve emma"]].games == 1
    assert result.changes[next(p for p, n in result.games.names.items() if n == D)].games == 4  # E included


def test_two_defaults_keep_a_player_in_the_standings(tmp_path):
    write_event(tmp_path, "Open", [[1, A, E, "", "", "", "", "B"], [2, B, E, "", "", "", "", "B"], [3, C, E, 30, 20],
                                   [1, B, C, 20, 21], [2, A, C, 20, 21], [3, A, B, 20, 21]])
    result = scored(tmp_path).events[0]
    assert result.games.left_out == [] and E in [line.name for line in result.lines]


@pytest.mark.parametrize("kind", ["toutes-rondes", "élimination"])
def test_the_event_standings_csv_starts_rank_player_tps_games_wins(tmp_path, kind):
    write_event(tmp_path, "Open", [[1, A, B, 30, 20]], kind=kind)
    header = to_csv(event_ranking(scored(tmp_path).events[0])).decode().splitlines()[0]
    assert header.startswith("rank,player,tps,games,wins,")


def test_the_settings_are_read_from_reportgen_toml(tmp_path):
    from reportgen.pipeline import load
    from tests.tantrix.test_workbooks import TODAY

    write_event(tmp_path, "Open", [[1, A, B, 30, 20]])
    (tmp_path / "reportgen.toml").write_text("[circuits.tantrix]\nplayoff_places = [1, 2, 3]\nmax_defaults = 3\n")
    league = load(tmp_path, TODAY)
    assert league.all_problems() == [] and league.settings.circuits["tantrix"].playoff_places == (1, 2, 3)
    (tmp_path / "reportgen.toml").write_text("[circuits.tantrix]\nplayoff_places = [0]\n")
    assert [p.where.path for p in load(tmp_path, TODAY).all_problems()] == ["reportgen.toml"]


def test_a_player_left_out_for_one_default_is_said_in_the_singular(tmp_path):
    """With `max_defaults = 0` one default leaves a player out: the bulletin said « a perdu 1 parties
    par forfait »; its words are the ranking's and the annex's (texts.defaults_lost)."""
    from reportgen.circuits.tantrix.documents import event_bulletin
    from reportgen.render import html

    write_event(tmp_path, "Open", [[1, A, E, "", "", "", "", "B"], [2, A, B, 30, 20], [3, B, E, 25, 20]])
    settings = TantrixSettings(max_defaults=0)
    result = scored(tmp_path, settings).events[0]
    assert [out.why for out in event_ranking(result).left_out] == [
        "hors classement : 1 partie perdue par forfait (règle 7)"]
    page = " ".join(html.render(event_bulletin(result, settings, "Ligue")).split())
    assert f"{E} a perdu 1 partie par forfait, ce qui l’écarte du classement" in page
    # its method says the rule in the same words: « plus de 0 parties par forfait » before
    assert "Un joueur qui compte au moins 1 partie perdue par forfait est écarté du classement" in page
