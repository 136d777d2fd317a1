"""The regulation of the pool tournaments (001_bd00e4ad95b2e633.txt) as INTERPRETATIONS.md reads it:
pool standings and forfeits (Art. IV, XI), barrages (Art. IX), qualification and repêchages (Art. V,
X), cancellation and restoration (Art. XI), the tournament's ranking (Art. VI). Each scenario is
played through the workbook's rows and `poules next`'s own code, and worked by hand in the test."""

import datetime as dt
from fractions import Fraction

from reportgen.circuits.poules.standings import (
    DECIDED,
    ELIMINATED,
    FORFEIT,
    NO_BARRAGE,
    PENDING,
    PLAYING,
    QUALIFIED,
    REPECHE,
    TO_PLAY,
)
from reportgen.circuits.poules.tournament import (
    BETWEEN_ROUNDS,
    CANCELLED,
    FINISHED,
    PLAYING_BARRAGE,
    PLAYING_MAIN,
)
from tests.poules.test_builders import REGISTERED, Tour, names, ranking_names

P = names(16)  # P[0] is seed 1 (most RON points) and the first registered


def p(seed: int) -> str:
    return P[seed - 1]


def strength(order: list[str], overrides: dict[tuple[str, str], str] | None = None):
    """Results where the player earlier in `order` wins; `overrides` (White, Black) -> result first."""
    rank = {name: index for index, name in enumerate(order)}

    def decide(white: str, black: str) -> str:
        if overrides and (white, black) in overrides:
            return overrides[white, black]
        return "1-0" if rank.get(white, 99) < rank.get(black, 99) else "0-1"
    return decide


def both(a: str, b: str, a_as_white: str, a_as_black: str) -> dict[tuple[str, str], str]:
    """The two games of a and b: a's result with White, then with Black, each as `1`, `½` or `0`."""
    code = {"1": "1-0", "½": "½-½", "0": "0-1"}
    flip = {"1": "0-1", "½": "½-½", "0": "1-0"}
    return {(a, b): code[a_as_white], (b, a): flip[a_as_black]}


def lines(tournament, number: int, pool: str):
    played = tournament.rounds[number - 1]
    return next(x for x in played.pools if x.label == pool).lines


def table(tournament, number: int, pool: str) -> list[tuple[str, int | str, Fraction, int, str]]:
    return [(line.player.name, f"{line.place}=" if line.pending else line.place, line.points, line.games, line.status)
            for line in lines(tournament, number, pool)]


# -- Art. IV and XI: standings, forfeits ---------------------------------------------------------------

def test_article_IV_and_XI_standings_count_only_games_against_players_who_did_not_forfeit():
    tour = Tour(4)  # one round: the final pool of 4
    tour.next()
    a, b, c, d = P[:4]
    # D beat A twice before forfeiting; two of his games were never played.
    tour.play(strength([a, b, c], {(d, a): "1-0", (a, d): "0-1", (d, b): "1-0"}), skip={c} if False else set())
    for row in tour.games(1):
        if d in row[2:4] and c in row[2:4]:
            row[4] = ""
    tour.forfeit(d, 1)
    tournament = tour.replay()
    assert tournament.status == FINISHED  # his empty games do not leave the round incomplete
    assert table(tournament, 1, "A") == [(a, 1, 4, 4, ""), (b, 2, 2, 4, ""), (c, 3, 0, 4, ""), (d, 4, 0, 6, FORFEIT)]
    assert ranking_names(tournament) == [a, b, c, d]


def test_article_XI_a_forfeit_for_a_round_decides_the_barrage_on_the_standings_without_him():
    tour = Tour(4)  # the final pool of 4
    tour.next()
    a, b, c, d = P[:4]
    # A and B split their games and both beat C twice; A beats D twice, B only once: A 5, B 4.
    tour.play(strength([a, b, c, d], both(a, b, "1", "0") | both(b, d, "1", "0")))
    assert tour.replay().status == FINISHED and ranking_names(tour.replay())[:2] == [a, b]
    tour.forfeit(d, 1)  # without D's games, A and B are level for first place: a barrage
    tournament = tour.replay()
    assert tournament.status == PLAYING_BARRAGE and [x.name for x in tournament.current.barrages[0].players] == [a, b]
    assert table(tournament, 1, "A")[:2] == [(a, "1=", 3, 4, PENDING), (b, "1=", 3, 4, PENDING)]


# -- Art. IX: barrages and registration order ----------------------------------------------------------

def six_players_tie_for_second_in_pool_a() -> Tour:
    """6 players, two pools of 3 (A: seeds 1, 4, 5; B: 2, 3, 6): in A seed 1 wins everything and
    seeds 4 and 5 each win their game with White: level on 1 point at the 2nd/3rd boundary."""
    tour = Tour(6)
    tour.next()
    tour.play(strength([p(1), p(4), p(5), p(2), p(3), p(6)], both(p(4), p(5), "1", "0")))
    return tour


def test_article_IX_a_tie_at_the_qualifying_boundary_calls_a_barrage_white_to_the_later_registrant():
    tour = six_players_tie_for_second_in_pool_a()
    tournament = tour.replay()
    assert tournament.status == PLAYING_BARRAGE
    assert table(tournament, 1, "A") == [(p(1), 1, 4, 4, ""), (p(4), "2=", 1, 4, PENDING), (p(5), "2=", 1, 4, PENDING)]
    barrage = tournament.current.pools[0].barrage
    assert barrage.state == TO_PLAY and [(w.name, b.name) for w, b in barrage.to_add] == [(p(5), p(4))]
    refused = tour.next(dt.date(2026, 9, 19))  # without --barrages: nothing written, the games named
    assert refused.change is None and "    à jouer : JOUEURE Un (Blancs) – JOUEURD Un (Noirs)" in refused.said
    written = tour.next(dt.date(2026, 9, 19), barrages=True)
    assert written.change is not None
    assert tour.games(1, "barrage") == [[1, "A", p(5), p(4), "", "barrage", dt.date(2026, 9, 19)]]
    assert tour.replay().current.pools[0].barrage.state == PLAYING
    tour.result(p(5), p(4), "0-1", phase="barrage")  # the earlier registrant wins the barrage with Black
    tournament = tour.replay()
    assert tournament.status == BETWEEN_ROUNDS
    pool = tournament.rounds[0].pools[0]
    assert pool.barrage.state == DECIDED
    assert table(tournament, 1, "A") == [(p(1), 1, 4, 4, QUALIFIED), (p(4), 2, 1, 4, QUALIFIED),
                                         (p(5), 3, 1, 4, ELIMINATED)]
    assert [(line.barrage_half, line.decided_by) for line in pool.lines[1:]] == [(2, ("barrage",)), (0, ("barrage",))]


def test_article_IX_a_drawn_barrage_leaves_the_tie_to_registration_order():
    tour = six_players_tie_for_second_in_pool_a()
    tour.next(barrages=True)
    tour.result(p(5), p(4), "½-½", phase="barrage")
    tournament = tour.replay()
    assert [(name, place, status) for name, place, _, _, status in table(tournament, 1, "A")] == [
        (p(1), 1, QUALIFIED), (p(4), 2, QUALIFIED), (p(5), 3, ELIMINATED)]
    assert lines(tournament, 1, "A")[1].decided_by == ("inscription",)


def test_article_IX_a_tie_for_first_place_of_the_final_pool_calls_a_barrage():
    tour = Tour(3)
    tour.next()
    a, b, c = P[:3]
    tour.play(strength([a, b, c], both(a, b, "1", "0")))
    tournament = tour.replay()
    assert tournament.status == PLAYING_BARRAGE and [(w.name, b_.name) for w, b_ in
                                                     tournament.current.pools[0].barrage.to_add] == [(b, a)]
    tour.next(barrages=True)
    tour.result(b, a, "1-0", phase="barrage")  # the later registrant wins: he is first
    tournament = tour.replay()
    assert tournament.status == FINISHED and ranking_names(tournament) == [b, a, c]


def test_article_IX_other_ties_go_to_registration_order_without_a_barrage():
    # The final pool: level for 2nd place (no barrage: only first place is settled by one).
    tour = Tour(3)
    tour.next()
    a, b, c = P[:3]
    tour.play(strength([a, c, b], both(b, c, "1", "0")))
    tournament = tour.replay()
    assert tournament.status == FINISHED and ranking_names(tournament) == [a, b, c]
    assert lines(tournament, 1, "A")[1].decided_by == ("inscription",)
    # A pool that qualifies: level for first place (both qualify) and for 3rd place (both out).
    tour = Tour(8)  # two pools of 4: A = seeds 1, 4, 5, 8
    tour.next()
    tour.play(strength([p(n) for n in (1, 4, 5, 8, 2, 3, 6, 7)], both(p(1), p(4), "1", "0") | both(p(5), p(8), "0", "1")))
    tournament = tour.replay()
    assert tournament.status == BETWEEN_ROUNDS
    assert table(tournament, 1, "A") == [(p(1), 1, 5, 6, QUALIFIED), (p(4), 2, 5, 6, QUALIFIED),
                                         (p(5), 3, 1, 6, ELIMINATED), (p(8), 4, 1, 6, ELIMINATED)]


def test_article_IX_one_barrage_phase_per_round_a_later_tie_goes_to_registration():
    """A barrage is written for pool A; then a forfeit in pool B leaves two players level at its
    2nd/3rd boundary: the round's barrage phase has begun, so registration decides (Art. IX)."""
    tour = Tour(8)  # A: seeds 1, 4, 5, 8; B: seeds 2, 3, 6, 7
    tour.next()
    pool_a = both(p(4), p(5), "1", "0")
    # Pool B: 2 beats 3 and 6, 3 and 6 split, 7 beats 6 twice and loses to 2 and 3: 2 6, 3 3, 7 2, 6 1.
    pool_b = both(p(3), p(6), "1", "0") | both(p(7), p(6), "1", "1")
    tour.play(strength([p(1), p(4), p(5), p(8), p(2), p(3), p(7), p(6)], pool_a | pool_b))
    assert [x[:2] for x in table(tour.replay(), 1, "B")] == [(p(2), 1), (p(3), 2), (p(7), 3), (p(6), 4)]
    tour.next(barrages=True)
    assert len(tour.games(1, "barrage")) == 1
    tour.forfeit(p(7), 1)  # without 7: 2 has 4 points, 3 and 6 one each
    tournament = tour.replay()
    pool_b_state = tournament.current.pools[1]
    assert pool_b_state.barrage.state == NO_BARRAGE
    assert table(tournament, 1, "B")[:3] == [(p(2), 1, 4, 4, ""), (p(3), 2, 1, 4, ""), (p(6), 3, 1, 4, "")]
    assert tournament.status == PLAYING_BARRAGE  # only pool A's barrage is awaited
    tour.result(p(5), p(4), "1-0", phase="barrage")
    tournament = tour.replay()
    assert tournament.status == BETWEEN_ROUNDS
    assert [x[4] for x in table(tournament, 1, "B")] == [QUALIFIED, QUALIFIED, ELIMINATED, FORFEIT]
    assert [x[4] for x in table(tournament, 1, "A")] == [QUALIFIED, QUALIFIED, ELIMINATED, ELIMINATED]


# -- Art. V and X: qualification, repêchages -------------------------------------------------------------

def sixteen(entrants=None) -> Tour:
    """16 players, four pools of 4: A = seeds 1, 8, 9, 16; B = 2, 7, 10, 15; C = 3, 6, 11, 14;
    D = 4, 5, 12, 13. In each pool the better seed wins both games (6, 4, 2, 0 points), except in
    D where seed 12 draws both games with seed 4 (5, 4, 3, 0): D's third has the best average, ½."""
    tour = Tour(entrants=entrants) if entrants else Tour(16)
    tour.next()
    return tour


def standard(overrides=None):
    return strength([p(n) for n in range(1, 17)], (overrides or {}) | both(p(12), p(4), "½", "½"))


def test_article_X_a_repechage_worked_by_hand():
    tour = sixteen()
    tour.play(standard(), skip={p(8), p(9), p(16)})
    for seed in (8, 9, 16):  # three of pool A forfeit: one player left, one qualifying place freed
        tour.forfeit(p(seed), 1)
    tournament = tour.replay()
    played = tournament.rounds[0]
    # Thirds: B seed 10, 2 points in 6 games (⅓); C seed 11, ⅓; D seed 12, 3 in 6 (½): D is repêched.
    assert played.free_places == 1 and [x.label for x in played.pools if x.index in played.repeched] == ["D"]
    assert table(tournament, 1, "D")[2] == (p(12), 3, 3, 6, REPECHE)
    assert table(tournament, 1, "A") == [(p(1), 1, 0, 0, QUALIFIED), (p(8), 2, 0, 2, FORFEIT),
                                         (p(9), 3, 0, 2, FORFEIT), (p(16), 4, 0, 2, FORFEIT)]
    # Round 2 (8 qualified: 2 pools of 4). Winners by average: 2 (1) and 3 (1, registered later),
    # 4 (⅚), 1 (0: no game counts); seconds 5, 6, 7 (⅔ each, by registration); the repêché 12.
    # Serpentine: pool A gets the 1st, 4th, 5th and 8th of that order.
    assert [[q.name for q in pool] for pool in tournament.upcoming] == [[p(2), p(1), p(5), p(12)],
                                                                         [p(3), p(4), p(6), p(7)]]


def test_article_X_two_pools_repeched_are_taken_and_seeded_in_their_order():
    tour = sixteen()
    tour.play(standard(), skip={p(n) for n in (8, 9, 16, 7, 10, 15)})
    for seed in (8, 9, 16, 7, 10, 15):  # pools A and B each keep one player: two places freed
        tour.forfeit(p(seed), 1)
    tournament = tour.replay()
    played = tournament.rounds[0]
    assert played.free_places == 2
    assert [played.pools[index].label for index in played.repeched] == ["D", "C"]  # ½ before ⅓
    # Winners 3 (1), 4 (⅚), then 1 and 2 (0, by registration); seconds 5 and 6 (⅔); repêchés 12, 11.
    assert [[q.name for q in pool] for pool in tournament.upcoming] == [[p(3), p(2), p(5), p(11)],
                                                                         [p(4), p(1), p(6), p(12)]]


def test_article_X_footnote_the_pool_takes_the_earliest_registration_among_those_level_with_its_third():
    # Registration order differs from the seeding here: seed 11 registered last of all, seed 12 just
    # before him, seed 6 early. In C, 6 and 11 are level for 2nd place; 6 wins the barrage, 11 is
    # third with ½ — like D's third, seed 12. C's date is 6's (level on points with its third): C is
    # repêched, although its third registered after D's.
    hours = {n: n for n in range(1, 17)}
    hours[11], hours[12] = 40, 39
    entrants = [(p(n), 2000.0 - 10 * n, REGISTERED + dt.timedelta(hours=hours[n])) for n in range(1, 17)]
    tour = sixteen(entrants)
    pool_c = both(p(6), p(11), "1", "0") | both(p(11), p(14), "1", "1")
    tour.play(standard(pool_c), skip={p(8), p(9), p(16)})
    for seed in (8, 9, 16):
        tour.forfeit(p(seed), 1)
    tour.next(barrages=True)
    assert [row[2:4] for row in tour.games(1, "barrage")] == [[p(11), p(6)]]
    tour.result(p(11), p(6), "0-1", phase="barrage")
    tournament = tour.replay()
    played = tournament.rounds[0]
    assert table(tournament, 1, "C")[1:3] == [(p(6), 2, 3, 6, QUALIFIED), (p(11), 3, 3, 6, REPECHE)]
    assert [played.pools[index].label for index in played.repeched] == ["C"]


def test_article_V_without_forfeits_the_first_two_of_each_pool_go_through():
    tour = sixteen()
    tour.play(standard())
    tournament = tour.replay()
    assert tournament.rounds[0].free_places == 0 and tournament.rounds[0].repeched == []
    assert sorted(q.name for pool in tournament.upcoming for q in pool) == sorted(
        p(n) for n in (1, 8, 2, 7, 3, 6, 4, 5))


# -- Art. XI: cancellation and restoration ---------------------------------------------------------------

def test_article_XI_cancellation_with_two_players_left_and_restoration_after_a_rehabilitation():
    tour = Tour(4)
    tour.next()
    a, b, c, d = P[:4]
    tour.forfeit(c, 1)
    tour.forfeit(d, 1)
    tournament = tour.replay()
    assert tournament.status == CANCELLED and tournament.current.cancelled
    refused = tour.next()
    assert refused.change is None and refused.said[0].startswith("le tournoi est annulé (Art. XI)")
    tour.sheets["Forfaits"][2][3] = "oui"  # D is cleared: three players who have not forfeited
    tournament = tour.replay()
    assert tournament.status == PLAYING_MAIN and tournament.current.restored and not tournament.current.cancelled
    tour.play(strength([a, b, c, d]))
    tournament = tour.replay()
    assert tournament.status == FINISHED and ranking_names(tournament) == [a, b, d, c]
    assert tour.next().said == ["le tournoi est terminé (tour final : tour 1) : rien à ajouter"]
    assert [(x[0], x[4]) for x in table(tournament, 1, "A")] == [(a, ""), (b, ""), (d, ""), (c, FORFEIT)]


def test_article_XI_a_rehabilitated_player_gets_his_results_back():
    tour = Tour(4)
    tour.next()
    a, b, c, d = P[:4]
    tour.play(strength([d, a, b, c]))
    tour.forfeit(d, 1, rehabilitated=True)
    tournament = tour.replay()
    assert ranking_names(tournament) == [d, a, b, c] and not tournament.current.restored


# -- Art. VI and INTERPRETATIONS.md: the tournament's ranking --------------------------------------------

def test_article_VI_the_final_pool_then_the_eliminated_round_by_round_forfeits_last():
    tour = Tour(8)  # A = 1, 4, 5, 8; B = 2, 3, 6, 7
    tour.next()
    tour.play(skip={p(6)})  # the first registered wins; 6 forfeits in round 1
    tour.forfeit(p(6), 1)
    tournament = tour.replay()
    # B without 6: 2 has 4 points, 3 two, 7 none. Winners 1 (6 in 6: 1) and 2 (4 in 4: 1) by
    # registration; seconds 4 (⅔) then 3 (½).
    assert [[q.name for q in pool] for pool in tournament.upcoming] == [[p(1), p(2), p(4), p(3)]]
    tour.next(dt.date(2026, 9, 19))
    tour.play()
    tournament = tour.replay()
    assert tournament.status == FINISHED
    # The final pool: 1, 2, 3, 4. Round 1: the thirds (5 with ⅓ before 7 with 0), then the fourth
    # (8), then the forfeit (6).
    assert ranking_names(tournament) == [p(1), p(2), p(3), p(4), p(5), p(7), p(8), p(6)]
    from reportgen.circuits.poules.ranking import tournament_ranking

    last = tournament_ranking(tournament)
    assert [(s.round, s.line.points, s.line.games) for s in last[4:]] == [(1, 2, 6), (1, 0, 4), (1, 0, 6), (1, 0, 6)]


def test_the_current_ranking_while_a_barrage_is_pending_leaves_its_players_level():
    tour = six_players_tie_for_second_in_pool_a()
    from reportgen.circuits.poules.ranking import tournament_ranking

    ranking = tournament_ranking(tour.replay())
    tied = [(s.rank, s.player.name) for s in ranking if s.tied]
    # The winners 1 and 2, then 3 (second of B, ½ a game) and the barragistes, level (¼ a game).
    assert tied == [(4, p(4)), (4, p(5))]


def test_an_incomplete_round_is_in_play_and_lists_its_games():
    tour = Tour(6)
    tour.next()
    tour.play()
    tour.games(1)[0][4] = ""
    tournament = tour.replay()
    assert tournament.status == PLAYING_MAIN
    refused = tour.next()
    assert refused.change is None and refused.said[0] == "le tour 1 n’est pas terminé : 1 résultat manque"
    assert refused.said[1].startswith("  poules/test.xlsx, feuille « Parties », cellule E2")


def test_article_I_and_III_defections_shorten_the_tournament():
    """16 players would play 3 rounds (4 pools, 2, 1). Forfeits leave 5 qualified after round 1: the
    rounds left are those of 5 players, one: round 2 is the final pool, of 5 (Art. I, III)."""
    tour = sixteen()
    out = {p(n) for n in (8, 9, 16, 7, 10, 15, 6, 11, 14, 12, 13)}  # A, B, C keep one player, D two
    tour.play(standard(), skip=out)
    for name in sorted(out):
        tour.forfeit(name, 1)
    tournament = tour.replay()
    played = tournament.rounds[0]
    assert played.free_places == 3 + 0 and played.repeched == []  # no third left who has not forfeited
    assert [[q.name for q in pool] for pool in tournament.upcoming] == [[p(4), p(1), p(2), p(3), p(5)]]
    tour.next(dt.date(2026, 9, 19))
    tour.play()
    tournament = tour.replay()
    assert tournament.status == FINISHED and len(tournament.rounds) == 2 and tournament.rounds[1].final


def test_a_tournament_needs_two_registrants():
    tour = Tour(1)
    proposal = tour.next()
    assert proposal.change is None and proposal.said == ["il faut au moins deux inscrits pour lancer le tournoi "
                                                         "(feuille Inscrits)"]
