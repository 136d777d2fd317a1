"""« Règlement Tournoi Masters de fin de saison » (regulation 000): §1 and §2, and the readings
of INTERPRETATIONS.md, « masters », one test each."""

import datetime as dt
import itertools
from pathlib import Path

from reportgen.circuits.masters.parse import Withdrawal
from reportgen.circuits.masters.results import complete_rounds, participants
from reportgen.circuits.masters.schedule import SCHEDULE
from reportgen.circuits.masters.settings import MastersSettings
from reportgen.circuits.masters.standings import (
    ANNUAL,
    ATTACK,
    BARRAGE,
    DEFENSE,
    HEAD_TO_HEAD,
    TOPS,
    Match,
    Participant,
    match_points,
    standings,
)
from reportgen.model import Entry, Ranking, RankingRow, Scope, SourceRef, Status

REGULATION = Path(__file__).resolve().parents[2] / "docs" / "regulations" / "000_33ab733906bdf5e8.txt"
SETTINGS = MastersSettings()


def test_section_2_the_schedule_is_the_regulations_table():
    text = REGULATION.read_text(encoding="utf-8")
    lines = [line.strip().strip("|").strip() for line in
             text[text.index("2. Ordre des matchs"):text.index("Exemple : Au 3ème match")].splitlines()]
    rounds = []
    for index, line in enumerate(lines):
        if line.startswith("Match "):
            rounds.append(tuple(tuple(int(n) for n in cell.split("-")) for cell in lines[index + 1:index + 9]))
    assert tuple(rounds) == SCHEDULE


def test_section_2_example_third_match_table_2_opposes_the_2nd_and_the_13th():
    assert SCHEDULE[3 - 1][2 - 1] == (2, 13)


def test_section_1_the_schedule_is_a_round_robin_each_player_meets_the_15_others_once():
    pairs = [frozenset(pair) for round_ in SCHEDULE for pair in round_]
    assert len(pairs) == 120 and set(pairs) == {frozenset(p) for p in itertools.combinations(range(1, 17), 2)}
    for round_ in SCHEDULE:
        assert sorted(n for pair in round_ for n in pair) == list(range(1, 17))


def match(a, b, score_a, score_b, tops_a=0, tops_b=0, round_=1, table=1):
    return Match(round_, table, a, b, score_a, score_b, tops_a, tops_b)


def test_section_1_a_win_2_points_a_draw_1_a_loss_0():
    assert match_points(match(1, 2, 7, 5), SETTINGS) == (2, 0)
    assert match_points(match(1, 2, 4, 8), SETTINGS) == (0, 2)
    assert match_points(match(1, 2, 6, 6, 11, 12), SETTINGS) == (1, 1)


def test_section_1_a_top_top_draw_gives_2_points_each():
    assert match_points(match(1, 2, 12, 12, 12, 12), SETTINGS) == (2, 2)
    assert match_points(match(1, 2, 10, 10, 12, 12), SETTINGS) == (2, 2)  # a top on every coup, both


def people(count: int, annual=None) -> list[Participant]:
    return [Participant(n, f"id{n}", f"JOUEUR{chr(64 + n)} Un", "", "", (annual or {}).get(n, n))
            for n in range(1, count + 1)]


def order(lines):
    return [(line.rank, line.participant.number, line.decided_by) for line in lines]


def test_tie_break_tops_first():
    # 1 and 2 both beat 3 and drew each other; 2 made more tops
    lines = standings(people(3), [match(1, 2, 6, 6, 3, 5), match(1, 3, 7, 5), match(2, 3, 7, 5)], SETTINGS)
    assert order(lines) == [(1, 2, [TOPS]), (2, 1, [TOPS]), (3, 3, [])]


def test_tie_break_then_defense_fewer_coups_conceded():
    lines = standings(people(3), [match(1, 2, 6, 6, 4, 4), match(1, 3, 7, 5, 2, 2), match(2, 3, 7, 4, 2, 2)],
                      SETTINGS)
    assert [line.participant.number for line in lines] == [2, 1, 3] and lines[0].decided_by == [DEFENSE]


def test_tie_break_then_attack_more_coups_taken():
    # same defense (11), 2 took 14 coups and 1 took 13
    lines = standings(people(3), [match(1, 2, 6, 6, 4, 4), match(1, 3, 7, 5, 2, 2), match(2, 3, 8, 5, 2, 2)],
                      SETTINGS)
    assert [line.participant.number for line in lines] == [2, 1, 3] and lines[0].decided_by == [ATTACK]


def test_tie_break_then_head_to_head_between_two():
    # 4 beat 3; 3 beat 1 where 4 lost to 1 by the same score: equal on everything but their match
    matches = [match(3, 4, 5, 7), match(1, 3, 5, 7), match(1, 4, 7, 5), match(2, 3, 7, 5), match(2, 4, 7, 5),
               match(1, 2, 6, 6)]
    lines = standings(people(4), matches, SETTINGS)
    assert order(lines) == [(1, 2, []), (2, 1, []), (3, 4, [HEAD_TO_HEAD]), (4, 3, [HEAD_TO_HEAD])]


def test_tie_break_head_to_head_for_three_or_more_counts_the_points_between_them():
    # 2, 3 and 4 finish equal on everything; between them 2 made 4 points, 3 and 4 one each; 3 and 4
    # drew their own match, so the annual ranking puts 3 before 4
    matches = [match(2, 3, 7, 5), match(2, 4, 7, 5), match(3, 4, 6, 6),
               match(1, 2, 8, 5), match(2, 5, 6, 6), match(1, 3, 5, 7), match(3, 5, 7, 6),
               match(1, 4, 5, 7), match(4, 5, 7, 6), match(1, 5, 6, 6)]
    lines = standings(people(5), matches, SETTINGS)
    assert {(l.points, l.tops, l.defense, l.attack) for l in lines[:3]} == {(5, 0, 24, 25)}
    assert order(lines) == [(1, 2, [HEAD_TO_HEAD]), (2, 3, [HEAD_TO_HEAD, ANNUAL]), (3, 4, [HEAD_TO_HEAD, ANNUAL]),
                            (4, 1, []), (5, 5, [])]


def test_tie_break_a_cycle_between_three_goes_to_the_annual_ranking():
    matches = [match(2, 3, 7, 5), match(3, 4, 7, 5), match(4, 2, 7, 5),
               match(1, 2, 7, 5), match(1, 3, 7, 5), match(1, 4, 7, 5)]
    lines = standings(people(4, annual={2: 8, 3: 3, 4: 5}), matches, SETTINGS)
    assert {(l.points, l.defense, l.attack) for l in lines[1:]} == {(2, 19, 17)}
    assert order(lines) == [(1, 1, []), (2, 3, [ANNUAL]), (3, 4, [ANNUAL]), (4, 2, [ANNUAL])]


def test_tie_break_then_the_annual_ranking():
    # 2 and 3 equal on everything and drew their match: the better annual rank (3: 4th) goes first
    matches = [match(1, 2, 7, 5), match(1, 3, 7, 5), match(1, 4, 7, 5), match(2, 3, 6, 6), match(2, 4, 7, 5),
               match(3, 4, 7, 5)]
    lines = standings(people(4, annual={2: 9, 3: 4, 4: 12}), matches, SETTINGS)
    assert order(lines) == [(1, 1, []), (2, 3, [ANNUAL]), (3, 2, [ANNUAL]), (4, 4, [])]


def test_a_tie_for_first_that_survives_head_to_head_is_a_barrage_not_decided():
    lines = standings(people(3), [match(1, 2, 6, 6), match(1, 3, 7, 5), match(2, 3, 7, 5)], SETTINGS)
    assert [(l.rank, l.barrage, l.decided_by) for l in lines] == [(1, True, [BARRAGE]), (1, True, [BARRAGE]),
                                                                  (3, False, [])]


def test_section_1_a_three_way_cycle_for_first_is_a_shared_first_place_marked_barrage():
    # « sauf en cas d'égalité pour la victoire du tournoi Masters »: 1 beat 2, 2 beat 3, 3 beat 1 by the
    # same score, and each beat 4: equal on points, tops, defense, attack and on the points between
    # them (a cycle), so head-to-head cannot break it and the annual ranking may not: a barrage.
    matches = [match(1, 2, 7, 5), match(2, 3, 7, 5), match(3, 1, 7, 5),
               match(1, 4, 7, 5), match(2, 4, 7, 5), match(3, 4, 7, 5)]
    lines = standings(people(4), matches, SETTINGS)
    assert {(l.points, l.tops, l.defense, l.attack) for l in lines[:3]} == {(4, 0, 17, 19)}
    assert [(l.rank, l.participant.number, l.barrage, l.decided_by) for l in lines] == [
        (1, 1, True, [BARRAGE]), (1, 2, True, [BARRAGE]), (1, 3, True, [BARRAGE]), (4, 4, False, [])]
    # A provisional standing (before the 15th match) has no barrage: the annual ranking decides.
    provisional = standings(people(4), matches, SETTINGS, final=False)
    assert [(l.rank, l.participant.number, l.barrage) for l in provisional] == [
        (1, 1, False), (2, 2, False), (3, 3, False), (4, 4, False)]


def final_ranking(size: int) -> Ranking:
    rows = tuple(RankingRow(n, f"L:{n}", f"JOUEUR{chr(64 + n)} Un", str(n), "", {}) for n in range(1, size + 1))
    return Ranking("x", Scope("season", 2026), dt.date(2026, 11, 1), Status.FINAL, (), rows)


def test_participants_are_the_first_16_numbered_in_ranking_order():
    players, problems = participants(final_ranking(20), [])
    assert not problems and [(p.number, p.annual_rank) for p in players] == [(n, n) for n in range(1, 17)]


def test_a_withdrawal_chain_two_withdrawals_bring_in_the_17th_and_the_18th():
    gone = [Withdrawal(Entry("3", "", ""), SourceRef("m.xlsx")), Withdrawal(Entry("", "JOUEURH", "Un"), SourceRef("m.xlsx"))]
    players, problems = participants(final_ranking(20), gone)
    assert not problems
    assert [p.annual_rank for p in players] == [1, 2, 4, 5, 6, 7, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18]
    assert [p.number for p in players] == list(range(1, 17))


def test_a_withdrawal_of_someone_not_in_the_ranking_is_a_located_problem():
    _, problems = participants(final_ranking(20), [Withdrawal(Entry("", "INCONNU", "Paul"), SourceRef("m.xlsx", "Désistements", "A2"))])
    assert [str(p) for p in problems] == ["m.xlsx, feuille « Désistements », cellule A2 : INCONNU Paul n’est pas dans le classement final "
                                          "Grand Sud 2026 — vérifiez l’orthographe ou la licence"]


def test_only_complete_matches_count_in_a_provisional_standing():
    played = [match(*pair, 7, 5, round_=r + 1, table=t + 1) for r in range(3) for t, pair in enumerate(SCHEDULE[r])]
    partial = [match(*SCHEDULE[3][0], 7, 5, round_=4, table=1)]
    assert complete_rounds(played + partial) == 3
    assert complete_rounds(played[8:]) == 0  # round 1 missing: nothing counts yet
