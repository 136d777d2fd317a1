"""Found in review: the order of same-date events (INTERPRETATIONS.md, rule 12), and what the bulletin
says of ties (rule 10), of the final (rule 10 a), of a player left out (rule 7) and of the colour
draw (rule 5)."""

from __future__ import annotations

import random
import re
from pathlib import Path

from reportgen.circuits.tantrix.documents import annex, event_bulletin
from reportgen.circuits.tantrix.settings import TantrixSettings
from reportgen.render import html
from tests.tantrix.test_standings import A, B, C, D, E, four
from tests.tantrix.test_workbooks import scored, write_event

P = ["ALBERT Ana", "BARON Béa"]


def test_interpretations_same_date_events_are_rated_in_the_alphabetical_order_of_their_names(tmp_path):
    # Character codes would put « Open » before « coupe » (capitals first) and « Étoile » last.
    write_event(tmp_path, "Open de Lyon", [[1, A, B, 30, 20]], day="01/03/2026", file="x")
    write_event(tmp_path, "coupe de Nice", [[1, A, B, 20, 30]], day="01/03/2026", file="y")
    write_event(tmp_path, "Étoile", [[1, A, B, 25, 25]], day="01/03/2026", file="z")
    result = scored(tmp_path)
    assert [r.event.name for r in result.events] == ["coupe de Nice", "Étoile", "Open de Lyon"]
    # The ratings follow that order: « Open de Lyon » is rated last, after the other two.
    opens = result.events[2]
    assert all(change.before.games == 2 for change in opens.changes.values())


def test_rule_10a_the_final_s_loser_row_says_the_final_was_lost(tmp_path):
    # 13.3 + 13.3 + 3.4 = 30.0 each way; A won two games to one: the final goes to games won.
    write_event(tmp_path, "Coupe", [[1, P[0], P[1], 20, 19], [1, P[0], P[1], 24, 23], [1, P[0], P[1], 14, 26]],
                kind="élimination")
    document = event_bulletin(scored(tmp_path).events[0], TantrixSettings(), "Ligue")
    assert [row["decided"] for row in document.context["rows"]] == [
        "finale gagnée aux parties gagnées (TPs à égalité)", "finale perdue aux parties gagnées (TPs à égalité)"]


def test_rule_10a_a_match_of_a_bracket_in_progress_decided_on_tiles_names_its_round(tmp_path):
    # A wins by 5 at 16:00 (13.0), B by 9 at 17:00 (13.0): level on TPs and games, B has more tiles.
    write_event(tmp_path, "Coupe", [[1, P[0], P[1], 30, 25, "16:00"], [1, P[0], P[1], 20, 29, "", "17:00"],
                                    [1, A, B, 30, 20]], kind="élimination")
    rows = event_bulletin(scored(tmp_path).events[0], TantrixSettings(), "Ligue").context["rows"]
    decided = {row["player"]: row["decided"] for row in rows}
    assert decided[P[1]] == "ronde 1 gagnée aux tuiles (TPs et parties gagnées à égalité)"
    assert decided[P[0]] == "ronde 1 perdue aux tuiles (TPs et parties gagnées à égalité)"
    assert decided[A] == decided[B] == ""


def test_rule_10c_the_play_off_notice_says_la_1re_place_and_lists_the_players(tmp_path):
    # A, B and C all at 40.0, 20.0 each among themselves: a play-off for the first place.
    write_event(tmp_path, "Open", [[1, A, B, 25, 20], [1, C, D, 40, 4], [2, B, C, 30, 25], [2, A, D, 40, 4],
                                   [3, C, A, 35, 30], [3, B, D, 40, 4]])
    document = event_bulletin(scored(tmp_path).events[0], TantrixSettings(), "Ligue")
    assert document.context["playoffs"][0].startswith(
        f"Égalité pour la 1re place : barrage à jouer entre {A}, {B} et {C}, 5 minutes par joueur")
    assert "pour une place qui compte (1re)" in document.context["notes"][-1]


def test_rule_10c_a_play_off_for_two_lesser_places_names_them(tmp_path):
    games = four(b_d=(21, 20), c_d=(25, 25), a_b=(40, 8), a_c=(30, 20))
    write_event(tmp_path, "Open", games)
    settings = TantrixSettings(playoff_places=(1, 2))
    document = event_bulletin(scored(tmp_path, settings).events[0], settings, "Ligue")
    assert document.context["playoffs"][0].startswith(f"Égalité pour les places 2 et 3 : barrage à jouer entre {B} et {C}")
    assert "pour une place qui compte (1re, 2e)" in document.context["notes"][-1]


def test_rule_10d_a_tie_left_level_by_every_criterion_says_so_in_the_bulletin_and_the_annex(tmp_path):
    # B and C: the very same results against A and D, a draw together.
    write_event(tmp_path, "Open", four(b_d=(22, 20), c_d=(22, 20), a_b=(21, 20), a_c=(21, 20)))
    result = scored(tmp_path)
    rows = event_bulletin(result.events[0], TantrixSettings(), "Ligue").context["rows"]
    shared = "place partagée (TPs entre eux, parties gagnées, marges et tuiles à égalité)"
    assert [(row["rank"], row["decided"]) for row in rows] == [("1", ""), ("2=", shared), ("2=", shared), ("4", "")]
    standings = annex(2026, result.events, result.lists[-1], TantrixSettings()).sheets[1].rows
    assert [row[-1] for row in standings] == ["", shared, shared, ""]


def test_rule_7_the_left_out_player_s_played_games_are_counted_in_good_french(tmp_path):
    default = ["", "", "", "", "B"]
    write_event(tmp_path, "Open", [[1, A, E, *default], [2, B, E, *default], [3, C, E, *default], [4, D, E, 20, 30],
                                   [1, B, C, 25, 20], [2, C, D, 25, 20], [3, D, A, 25, 20]])
    page = html.render(event_bulletin(scored(tmp_path).events[0], TantrixSettings(), "Ligue"))
    assert "sa partie jouée compte pour le classement Elo." in page and "ses 1 parties" not in page
    write_event(tmp_path, "Open", [[1, A, E, *default], [2, B, E, *default], [3, C, E, *default],
                                   [1, B, C, 25, 20], [2, C, D, 25, 20], [3, D, A, 25, 20]])
    page = html.render(event_bulletin(scored(tmp_path).events[0], TantrixSettings(), "Ligue"))
    assert "aucune partie jouée." in page and "ses 0 parties" not in page


def test_rule_5_the_bulletin_says_all_that_replays_the_draw_a_player_without_preferences_included(tmp_path):
    """The draw replayed from the bulletin's seed and the method the secretary follows (docs/tantrix.md,
    « Redoing a colour draw from its seed »): random.Random(seed), games in sheet order, the colours
    rouge, jaune, bleu, vert; sample(the colours neither asked for, 2) for A then B, or
    choice(the three colours other than the first preference of the one who gave some)."""
    palette = ["rouge", "jaune", "bleu", "vert"]
    preferences = {A: ("rouge", "jaune"), B: ("rouge", "jaune"), C: ("bleu", "vert")}  # D: none
    games = [[1, A, B, 25, 20], [1, C, D, 20, 22], [2, A, D, 30, 20], [2, B, C, 20, 21]]
    write_event(tmp_path, "Open", games, registrations=[[n, "", *c] for n, c in preferences.items()] + [[D, ""]])
    result = scored(tmp_path).events[0]
    page = html.render(event_bulletin(result, TantrixSettings(), "Ligue"))
    text = " ".join(re.sub(r"<[^>]+>", " ", page).split())
    seed = int(re.search(r"Graine du tirage : (\d+)", text)[1])
    assert "le secrétariat de la ligue refait le tirage à l’identique" in text
    method = (Path(__file__).parents[2] / "docs" / "tantrix.md").read_text(encoding="utf-8")
    assert "`rng = random.Random(seed)`" in method and "`rouge, jaune, bleu, vert`" in method
    assert "`rng.choice(the three other colours, in the order above)`" in method
    assert "`a, b = rng.sample(remaining, 2)`" in method
    rng = random.Random(seed)
    replayed = []
    for _, a, b, *_ in games:
        first, second = preferences.get(a), preferences.get(b)
        if first and second and first[0] != second[0]:
            replayed.append((first[0], second[0]))
        elif first and second and first[1] != second[1]:
            replayed.append((first[1], second[1]))
        elif first and second:
            replayed.append(tuple(rng.sample([c for c in palette if c not in first], 2)))
        else:
            known = (first or second)[0]
            other = rng.choice([c for c in palette if c != known])
            replayed.append((known, other) if first else (other, known))
    assert [(pair.a, pair.b) for pair in result.colours] == replayed


def test_rule_13_equal_seeding_values_are_listed_alphabetically_accents_and_case_aside(tmp_path):
    # Three newcomers, all at 1850 reduced (1650): character codes would list « ÉMERY » after « FAVRE ».
    write_event(tmp_path, "Open", [[1, "FAVRE Fred", "ÉMERY Eve", 25, 20], [2, "FAVRE Fred", "LUCAS Léo", 25, 20]])
    seeds = scored(tmp_path).events[0].seeds
    assert [seed.name for seed in seeds] == ["ÉMERY Eve", "FAVRE Fred", "LUCAS Léo"]
