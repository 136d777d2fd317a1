"""One test per reading of INTERPRETATIONS.md, « grand-sud », named after the rule."""

import datetime as dt

import pandas as pd

from reportgen.circuits.grand_sud.documents import bulletin_rows
from reportgen.circuits.grand_sud.listing import Listing
from reportgen.circuits.grand_sud.scoring import Tournament, rank
from reportgen.circuits.grand_sud.settings import GrandSudSettings
from tests.builders import event, league, players, report, standing

SETTINGS = GrandSudSettings()


# -- Points tables ----------------------------------------------------------------------------

def test_points_tables_duplicate_tournament_uses_the_final_place_in_both_tables():
    _, points, _ = league([event("2026-01-10", "CARC", ["A Un", "B Un", "C Un"], formula="duplicate")])
    assert points.sort_values("place")["points"].tolist() == [40 + 480, 35 + 400, 30 + 320]


def test_points_tables_pools_tournament_adds_duplicate_and_final_places():
    _, points, _ = league([event("2026-01-10", "CARC", ["A Un", "B Un", "C Un"], formula="poules",
                                 duplicate=[3, 1, 2])])
    by_player = dict(zip(points["player"], points["points"]))
    assert by_player == {"A Un": 30 + 480, "B Un": 40 + 400, "C Un": 35 + 320}


def test_points_tables_a_place_beyond_32_earns_nothing():
    _, points, rankings = league([event("2026-01-10", "CARC", players(40))])
    assert points.sort_values("place")["points"].tolist()[32:] == [0] * 8
    assert len(rankings[0].rows) == 32  # 33rd..40th have 0 points: not listed


# -- Seeds present ------------------------------------------------------------------------------

def test_seeds_present_are_the_players_among_the_first_16_of_the_ranking_in_force():
    first = players(20)
    second = first[:5] + players(10, "NOUVEAU")
    tournaments, points, _ = league([event("2026-01-10", "CARC", first), event("2026-02-10", "ALBI", second)])
    assert tournaments["2026-01-10-CARC.xlsx"].seeds == 0  # INTERPRETATIONS: 0 before any tournament
    assert tournaments["2026-02-10-ALBI.xlsx"].seeds == 5
    winner = points[(points["event"] == "2026-02-10-ALBI.xlsx") & (points["place"] == 1)]
    assert int(winner["points"].iloc[0]) == 90 + 580  # both tables at 5 seeds


def test_seeds_present_counts_every_player_of_the_tournament_not_only_the_first_32():
    first = players(16)
    second = players(32, "NOUVEAU") + first[:3]  # the seeds finish 33rd to 35th
    tournaments, _, _ = league([event("2026-01-10", "CARC", first), event("2026-02-10", "ALBI", second)])
    assert tournaments["2026-02-10-ALBI.xlsx"].seeds == 3


def test_seeds_present_same_day_tournaments_are_simultaneous():
    first = players(20)
    other = players(10, "AUTRE")
    # Were TLSE scored after ALBI, the ten ALBI players would push 13th..16th out of the seeds.
    same_day = [event("2026-02-10", "ALBI", other), event("2026-02-10", "TLSE", first[12:16] + players(4, "X"))]
    tournaments, _, rankings = league([event("2026-01-10", "CARC", first), *same_day])
    assert tournaments["2026-02-10-TLSE.xlsx"].seeds == 4
    assert [r.date for r in rankings if not r.final] == [dt.date(2026, 1, 10), dt.date(2026, 2, 10)]


def test_seeds_present_with_a_tie_at_16_everyone_ranked_16_is_a_seed_and_the_count_is_capped():
    day = "2026-01-10"
    a, b = players(20, "A"), players(20, "B")
    first_day = [event(day, "CARC", a), event(day, "TLSE", b), event(day, "ALBI", ["SOLO Un"])]
    _, _, rankings = league(first_day)
    seeds = [row for row in rankings[0].rows if row.seed]
    assert len(seeds) == 17 and seeds[-1].rank == 16 and seeds[-2].rank == 16
    everyone = [row.player for row in seeds] + players(5, "Z")
    tournaments, _, _ = league([*first_day, event("2026-02-01", "MTPL", everyone)])
    assert tournaments["2026-02-01-MTPL.xlsx"].seeds == 16


# -- Which tournaments count ---------------------------------------------------------------------

def test_which_tournaments_count_a_club_outside_the_grand_sud_departements_is_hors_circuit():
    events = [event("2026-01-10", "CARC", players(5)), event("2026-02-10", "MARS", players(5, "M"))]
    tournaments, points, rankings = league(events)
    assert not tournaments["2026-02-10-MARS.xlsx"].eligible
    assert set(points["event"]) == {"2026-01-10-CARC.xlsx"}
    assert [r.window for r in rankings] == [["2026-01-10-CARC.xlsx"]] * 2
    assert ("hors circuit" in [status for _, status in Listing(tournaments).statuses(rankings[-1])])


def test_which_tournaments_count_is_a_setting():
    events = [event("2026-02-10", "MARS", players(5, "M"))]
    settings = GrandSudSettings(departements=("13",))
    tournaments, _, rankings = league(events, settings)
    assert tournaments["2026-02-10-MARS.xlsx"].eligible and len(rankings[0].rows) == 5


# -- Rolling window ------------------------------------------------------------------------------

def test_rolling_window_a_year_n_edition_replaces_the_n_minus_1_one_points_and_participants():
    events = [event("2025-03-01", "CARC", ["ANCIEN Un", "FIDELE Un"]),
              event("2025-06-01", "ALBI", ["AUTRE Un"]),
              event("2026-03-01", "CARC", ["FIDELE Un", "NOUVEAU Un"])]
    tournaments, _, rankings = league(events)
    after = rankings[-2]  # after 1 March 2026, before the final ranking
    assert after.window == ["2025-06-01-ALBI.xlsx", "2026-03-01-CARC.xlsx"]
    assert "ANCIEN Un" not in [row.player for row in after.rows]  # absent in N: loses his N−1 points
    statuses_ = dict((t.id, s) for t, s in Listing(tournaments).statuses(after))
    assert statuses_["2025-03-01-CARC.xlsx"].startswith("remplacé")


def test_rolling_window_editions_older_than_n_minus_1_are_gone():
    events = [event("2024-05-01", "ALBI", ["VIEUX Un"]), event("2025-05-01", "CARC", ["A Un"]),
              event("2026-05-01", "TLSE", ["B Un"])]
    _, _, rankings = league(events)
    in_2026 = [r for r in rankings if r.season == 2026 and not r.final][0]
    assert in_2026.window == ["2025-05-01-CARC.xlsx", "2026-05-01-TLSE.xlsx"]


def test_rolling_window_a_series_lets_a_club_run_two_tournaments_a_year():
    events = [event("2026-03-01", "TLSE", ["A Un"], series="TLSE-printemps"),
              event("2026-10-01", "TLSE", ["B Un"], series="TLSE-automne")]
    _, _, rankings = league(events)
    assert len(rankings[-1].window) == 2


def test_final_ranking_of_year_n_counts_only_year_n_tournaments():
    events = [event("2025-05-01", "ALBI", ["ALBIGEOIS Un"]), event("2026-05-01", "CARC", ["CARCASSONNAIS Un"])]
    _, _, rankings = league(events)
    last_dated, final = rankings[-2], rankings[-1]
    assert not last_dated.final and len(last_dated.window) == 2
    assert final.final and final.season == 2026 and final.window == ["2026-05-01-CARC.xlsx"]
    assert [row.player for row in final.rows] == ["CARCASSONNAIS Un"]
    assert final.date == dt.date(2026, 5, 1)


def test_final_ranking_is_the_ranking_in_force_for_the_first_tournament_of_the_next_year():
    # 2025's final ranking has only A's 2025 result; the dated one also keeps B's 2024 result.
    events = [event("2024-06-01", "ALBI", ["B Un"]), event("2025-01-10", "CARC", ["A Un"]),
              event("2026-01-10", "TLSE", ["B Un", "C Un"])]
    tournaments, _, rankings = league(events)
    assert [(r.season, r.final) for r in rankings] == [
        (2024, False), (2024, True), (2025, False), (2025, True), (2026, False), (2026, True)]
    assert tournaments["2026-01-10-TLSE.xlsx"].seeds == 0  # B is not in the final ranking of 2025
    assert rankings[4].previous is rankings[3]


# -- Best results --------------------------------------------------------------------------------

def test_best_results_counts_the_best_half_of_the_tournaments_rounded_down():
    days = ["2026-01-10", "2026-02-10", "2026-03-10", "2026-04-10", "2026-05-10"]
    clubs = ["CARC", "TLSE", "ALBI", "MTPL", "PERP"]
    events = [event(d, c, ["REGULIER Un"] + players(3, c)) for d, c in zip(days, clubs)]
    _, points, rankings = league(events)
    final = rankings[-1]
    assert final.counted_results == 2  # ⌊5/2⌋
    mine = sorted(points[points["player"] == "REGULIER Un"]["points"], reverse=True)
    row = next(r for r in final.rows if r.player == "REGULIER Un")
    assert row.total == sum(mine[:2]) and row.played == 5 and len(row.counted) == 2


def test_best_results_at_least_one_after_the_first_tournament():
    _, _, rankings = league([event("2026-01-10", "CARC", ["A Un", "B Un"])])
    assert rankings[0].counted_results == 1
    assert standing(rankings[0]) == [(1, "A Un", 520), (2, "B Un", 435)]


# -- Tie-break -------------------------------------------------------------------------------------

def ranking_of(results: dict[str, list[int]], settings=SETTINGS):
    """Rank players from their points in tournaments T0, T1... (None: did not play)."""
    count = max(len(points) for points in results.values())
    counted = [Tournament(event(f"2026-01-{10 + k}", "CARC", ["X Un"]), True) for k in range(count)]
    rows = [{"event": counted[k].id, "date": pd.Timestamp(counted[k].date), "player_id": name, "player": name,
             "club": "", "licence": "", "points": points} for name, results_ in results.items() for k, points in enumerate(results_)
            if points is not None]
    return rank(pd.DataFrame(rows), counted, counted[-1].date, False, None, settings)


def test_tie_break_fewer_tournaments_played_first():
    ranking = ranking_of({"MOINS Un": [500, None, None, None], "PLUS Un": [300, 200, None, None]})
    assert standing(ranking) == [(1, "MOINS Un", 500), (2, "PLUS Un", 500)]


def test_tie_break_played_counts_tournaments_that_scored_nothing():
    ranking = ranking_of({"ZERO Un": [500, 0, None, None], "UN Un": [500, None, None, None]})
    assert standing(ranking) == [(1, "UN Un", 500), (2, "ZERO Un", 500)]
    as_setting = ranking_of({"ZERO Un": [500, 0, None, None], "UN Un": [500, None, None, None]},
                            GrandSudSettings(played_counts_non_scoring=False))
    assert [row.rank for row in as_setting.rows] == [1, 1]


def test_tie_break_then_the_best_single_result():
    ranking = ranking_of({"REGULIER Un": [250, 250, None, None], "PIC Un": [None, None, 400, 100]})
    assert standing(ranking) == [(1, "PIC Un", 500), (2, "REGULIER Un", 500)]


def test_tie_break_players_still_equal_share_the_place():
    ranking = ranking_of({"PREMIER Un": [600, None], "EGAL Un": [None, 500], "AUTRE Un": [500, None],
                          "DERNIER Un": [None, 100]})
    assert [(row.rank, row.tied) for row in ranking.rows] == [(1, False), (2, True), (2, True), (4, False)]
    assert [row.player for row in ranking.rows[1:3]] == ["AUTRE Un", "EGAL Un"]  # alphabetical within a tie


# -- Who is listed, evolution -----------------------------------------------------------------------

def test_who_is_listed_players_with_more_than_0_points():
    ranking = ranking_of({"MARQUE Un": [10], "NUL Un": [0]})
    assert [row.player for row in ranking.rows] == ["MARQUE Un"]


def test_evolution_is_the_place_before_minus_the_place_now_and_new_for_newcomers():
    events = [event("2026-01-10", "CARC", ["A Un", "B Un", "C Un"]),
              event("2026-02-10", "TLSE", ["C Un", "D Un"])]
    _, _, rankings = league(events)
    second = {row["player"]: row["evolution"] for row in bulletin_rows(rankings[1])[0]}  # as printed
    assert rankings[1].rows[0].player == "C Un"  # best 1 of 2: his 520 at TLSE, from 3rd to 1st
    assert second["C Un"]["kind"] == "up" and second["C Un"]["value"] == "+2"
    assert second["D Un"]["kind"] == "new" and second["D Un"]["value"] == "nouveau"
    assert second["B Un"]["kind"] == "down"


def test_a_climb_of_three_places_is_up_three_and_a_fall_of_two_down_two():
    from reportgen.circuits.club_sections import evolution as in_its_bulletin  # a club's own bulletin's table
    from reportgen.circuits.common import evolution as moved
    from reportgen.render.evolution import cell  # what a bulletin and the site draw
    from reportgen.render.evolution import said as in_a_mail  # what a club reads in its mail
    from reportgen.render.evolution import shown as in_a_table  # what its mail's table shows

    up = moved(5, 2)  # 5th in the previous ranking, 2nd now: three places gained
    assert (up["kind"], up["value"]) == ("up", "+3")
    assert cell(up["value"]) == '<span aria-hidden="true">▲</span> 3<span class="sr-only"> places gagnées</span>'
    down = moved(2, 4)
    assert (down["kind"], down["value"]) == ("down", "-2")
    assert cell(down["value"]) == '<span aria-hidden="true">▼</span> 2<span class="sr-only"> places perdues</span>'
    assert moved(3, 3)["value"] == "0" and moved(None, 1)["value"] == "nouveau"
    assert cell("0") == '<span aria-hidden="true">=</span><span class="sr-only">même place</span>' and cell("nouveau") == "nouveau"
    assert (in_its_bulletin(up["value"]), in_its_bulletin(down["value"]), in_its_bulletin("0")) == ("+3", "−2", "=")
    # in words, as the site's cell reads: « −2 » after a player's points read like points
    assert [in_a_mail(value) for value in (up["value"], down["value"], "-1", "0", "nouveau")] == [
        ("▲", "3 places gagnées"), ("▼", "2 places perdues"), ("▼", "1 place perdue"), ("", "même place"),
        ("", "nouveau")]
    # in its mail's table, the arrow and the number alone (its legend says the words): one line of a phone
    assert [in_a_table(value) for value in (up["value"], down["value"], "-1", "0", "nouveau")] == [
        "▲ 3", "▼ 2", "▼ 1", "=", "nouveau"]


def test_the_16_seeds_are_marked():
    _, _, rankings = league([event("2026-01-10", "CARC", players(20))])
    assert [row.seed for row in rankings[0].rows] == [True] * 16 + [False] * (len(rankings[0].rows) - 16)


def test_a_ranking_after_every_tournament_date_and_a_final_one_per_season():
    events = [event("2025-11-10", "CARC", ["A Un"]), event("2026-01-10", "CARC", ["A Un"]),
              event("2026-01-10", "TLSE", ["B Un"]), event("2026-02-10", "ALBI", ["C Un"])]
    built = report(events)
    assert [d.path for d in built.documents] == [
        "2025/classement-2025-11-10", "2025/classement-final-2025", "2026/classement-2026-01-10",
        "2026/classement-2026-02-10", "2026/classement-final-2026"]
    assert built.documents[2].title == ("Classement après les tournois de Carcassonne et de Toulouse "
                                        "du 10 janvier 2026")
    assert [a.path for a in built.annexes] == ["2025/annexe-grand-sud-2025", "2026/annexe-grand-sud-2026"]


def test_a_bulletin_prints_each_players_club_as_of_its_date():
    """A player who moves to another club in 2026 stays with his 2025 club in the 2025 bulletins."""
    from dataclasses import replace

    first = event("2025-06-01", "ALBI", ["DUPONT Jean", "MARTIN Paul"])
    first = replace(first, results=[replace(row, club="Albi") for row in first.results])
    second = event("2026-02-01", "TLSE", ["DUPONT Jean", "MARTIN Paul"])
    second = replace(second, results=[replace(row, club="Toulouse" if row.entry.last_name == "DUPONT" else "")
                                      for row in second.results])
    _, _, rankings = league([first, second])
    clubs = {(r.date.isoformat(), r.final): {row.player: row.club for row in r.rows} for r in rankings}
    assert clubs["2025-06-01", False] == {"DUPONT Jean": "Albi", "MARTIN Paul": "Albi"}
    assert clubs["2025-06-01", True] == {"DUPONT Jean": "Albi", "MARTIN Paul": "Albi"}  # the 2025 final
    assert clubs["2026-02-01", False] == {"DUPONT Jean": "Toulouse", "MARTIN Paul": "Albi"}  # none given: the last one
