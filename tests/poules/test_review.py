"""Review of the pool tournaments against the regulation (001_bd00e4ad95b2e633.txt) as INTERPRETATIONS.md
reads it: each test is a case the first version got wrong, worked by hand."""

import datetime as dt

from reportgen import config
from reportgen.circuits.poules.ranking import tournament_ranking
from reportgen.circuits.poules.settings import PoulesSettings
from reportgen.circuits.poules.standings import FORFEIT, QUALIFIED
from reportgen.circuits.poules.tournament import BETWEEN_ROUNDS, FINISHED, PLAYING_BARRAGE
from tests.poules.test_builders import Tour, names, ranking_names
from tests.poules.test_notices import body, drafts
from tests.poules.test_regulation import both, strength, table

P = names(8)


def p(seed: int) -> str:
    return P[seed - 1]


def test_article_VI_the_forfeits_of_a_round_come_last_by_registration_whatever_their_pool():
    """INTERPRETATIONS.md: « The players who forfeited in a round come after all the others of that
    round, by registration time » — not by their place in their pool. 7 players, two pools (A: seeds
    1, 4, 5; B: 2, 3, 6, 7); seed 5 forfeits in A (A's 3rd place then), seed 2 in B (B's 4th)."""
    tour = Tour(7)
    tour.next()
    tour.play()  # the first registered wins
    tour.forfeit(p(5), 1)
    tour.forfeit(p(2), 1)
    tournament = tour.replay()
    assert [x[1] for x in table(tournament, 1, "A")] == [1, 2, 3] and table(tournament, 1, "A")[2][4] == FORFEIT
    assert [x[1] for x in table(tournament, 1, "B")] == [1, 2, 3, 4] and table(tournament, 1, "B")[3][4] == FORFEIT
    tour.next(dt.date(2026, 9, 19))
    tour.play()
    tournament = tour.replay()
    assert tournament.status == FINISHED
    # The final pool (1, 3, 4, 6), then round 1: B's third (7), then the forfeits 2 and 5 by registration.
    assert ranking_names(tournament)[4:] == [p(7), p(2), p(5)]


def test_article_XI_the_cancellation_threshold_is_the_regulations_not_a_setting_that_does_nothing(tmp_path):
    """Art. XI: « S'il ne reste plus que 2 joueurs non forfait le tournoi est annulé ». The number is
    the regulation's (docs/poules.md says so): a `cancelled_at` in reportgen.toml, which nothing read,
    is refused like any unknown setting instead of being silently ignored."""
    (tmp_path / "reportgen.toml").write_text("[circuits.poules]\ncancelled_at = 3\n", encoding="utf-8")
    problems: list = []
    config.load(tmp_path, {"poules": PoulesSettings()}, problems)
    assert [p.code for p in problems] == ["unknown-setting"] and "cancelled_at" in str(problems[0])


def test_article_XI_a_rehabilitation_typed_on_a_row_of_its_own_lifts_the_forfeit():
    """Art. XI and INTERPRETATIONS.md: « A rehabilitated player (`Réhabilité` = oui) gets his results
    back. » The secretary keeps the forfeit row and adds the rehabilitation below it (its own date):
    the player is back in his pool, and the notices say it once — a forfeit, then its lifting."""
    tour = Tour(4)  # the final pool of 4
    tour.next()
    a, b, c, d = P[:4]
    tour.play(strength([d, a, b, c]))
    tour.forfeit(d, 1, day=dt.date(2026, 9, 10))
    assert ranking_names(tour.replay()) == [a, b, c, d]
    tour.forfeit(d, 1, rehabilitated=True, day=dt.date(2026, 9, 12))
    tournament = tour.replay()
    assert tournament.status == FINISHED and ranking_names(tournament) == [d, a, b, c]
    assert not next(line for line in tournament.current.pools[0].lines if line.player.name == d).forfeit
    found = drafts(tour)
    assert body(found["2026/test/avis/tour-1/forfait-joueurd-un"]).startswith("Bonjour Un JOUEURD,\n\nUn forfait est "
                                                                             "prononcé contre vous au tour 1")
    assert found["2026/test/avis/tour-1/forfait-joueurd-un"]["Date"] == "Thu, 10 Sep 2026 09:00:00 +0000"
    assert found["2026/test/avis/tour-1/rehabilitation-joueurd-un"]["Date"] == "Sat, 12 Sep 2026 09:00:00 +0000"
    assert "Votre forfait au tour 1 est levé" in body(found["2026/test/avis/tour-1/rehabilitation-joueurd-un"])


def test_article_IX_barragistes_of_two_pools_stay_level_in_the_current_ranking():
    """docs/poules.md: while the tournament runs, « players level in a barrage still to play share
    their place ». Two pools of 4 (A: 1, 4, 5, 8; B: 2, 3, 6, 7), each with a 2nd/3rd tie on the
    same points and average: the four barragistes are not ordered by registration across the pools;
    each barrage's players stay level, and the two barrages are ordered by their first registered."""
    tour = Tour(8)
    tour.next()
    tour.play(strength([p(n) for n in (1, 4, 5, 8, 2, 3, 6, 7)], both(p(4), p(5), "1", "0") | both(p(3), p(6), "1", "0")))
    tournament = tour.replay()
    assert tournament.status == PLAYING_BARRAGE
    ranking = [(s.rank, s.tied, s.player.name) for s in tournament_ranking(tournament)]
    assert ranking[2:6] == [(3, True, p(3)), (3, True, p(6)), (5, True, p(4)), (5, True, p(5))]
    tour.next(dt.date(2026, 9, 19), barrages=True)
    tour.result(p(5), p(4), "1-0", phase="barrage")
    tour.result(p(6), p(3), "0-1", phase="barrage")
    tournament = tour.replay()
    assert tournament.status == BETWEEN_ROUNDS
    assert [x[4] for x in table(tournament, 1, "A")][:2] == [QUALIFIED, QUALIFIED]
    assert not any(s.tied for s in tournament_ranking(tournament))


def test_article_XII_notices_name_things_as_they_are():
    """The notices' French: the opponents listed « A, B et C »; the one player left in a pool emptied
    by forfeits has no game that counts (not « 0 partie qui comptent »); a forfeit in his pool names
    the player (not « contre lui », whoever it is); a cancellation says how many are left."""
    tour = Tour(6)  # A: seeds 1, 4, 5; B: 2, 3, 6
    tour.next()
    tour.play(skip={p(4), p(5)})
    tour.forfeit(p(4), 1)
    tour.forfeit(p(5), 1)
    found = drafts(tour)
    assert "Vous jouez dans la poule A avec JOUEURD Un et JOUEURE Un." in body(
        found["2026/test/avis/tour-1/lancement-joueura-un"])
    assert "Vous terminez à la 1re place de la poule A du tour 1 avec 0 point sans partie qui compte : les autres " \
           "joueurs de la poule sont forfaits." in body(found["2026/test/avis/tour-1/classement-poule-joueura-un"])
    assert "Vos parties contre JOUEURD Un ne comptent plus" in body(
        found["2026/test/avis/tour-1/forfait-joueurd-un-joueura-un"])
    tour = Tour(3)
    tour.next()
    tour.forfeit(P[1], 1)
    tour.forfeit(P[2], 1)
    assert "après les forfaits, il ne reste qu’un joueur non forfait au tour 1." in body(
        drafts(tour)["2026/test/avis/tour-1/annulation-joueura-un"])


def test_article_III_pools_of_six_are_printed_one_per_line():
    """Art. III: a pool of round 1 holds up to 6 players. Their cross tables, two pools side by side,
    leave each result cell too narrow to read: such a round's pools are printed one per line."""
    import pandas as pd

    from reportgen.circuits.base import Reading
    from reportgen.circuits.poules.circuit import CIRCUIT
    from reportgen.ingest.directories import ClubDirectory
    from reportgen.render import html
    from tests.poules.test_builders import TODAY

    def bulletin(count):
        tour = Tour(count)
        tour.next()
        return CIRCUIT.score(pd.DataFrame(), [tour.event()], PoulesSettings(), Reading(ClubDirectory(), TODAY),
                             {}).documents[0]

    assert [bulletin(count).context["wide"] for count in (10, 11)] == [False, True]  # pools of 5 and 5; 6 and 5
    assert '<div class="pools wide">' in html.render(bulletin(11))
