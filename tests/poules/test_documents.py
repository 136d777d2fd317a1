"""What the circuit publishes for a pool tournament: the bulletin after each round, the annex, the
ranking (`standings poules`), as the build renders them."""

import datetime as dt
import io
from fractions import Fraction

import openpyxl
import pandas as pd
import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from reportgen.circuits.base import Reading
from reportgen.circuits.poules.circuit import CIRCUIT
from reportgen.circuits.poules.documents import _french_average
from reportgen.circuits.poules.metrics import average
from reportgen.circuits.poules.settings import PoulesSettings
from reportgen.ingest.directories import ClubDirectory
from reportgen.model import RANK_AND_PLAYER, Status
from reportgen.render import excel, html
from reportgen.render.ranking import to_csv, to_spreadsheet_csv
from tests.poules.test_builders import TODAY, Tour, names

P = names(8)
READING = Reading(ClubDirectory(), TODAY, "Ligue d'échecs")


def report(tour: Tour):
    return CIRCUIT.score(pd.DataFrame(), [tour.event()], PoulesSettings(), READING, {})


def half_draws(white: str, black: str) -> str | None:
    """The first registered wins, except that seed 5 draws with White against seed 8."""
    return "½-½" if (white, black) == (P[4], P[7]) else None


def test_while_it_runs_the_ranking_is_provisional_and_at_the_end_final():
    tour = Tour(8)
    tour.next()
    tour.play(half_draws)
    running = report(tour)
    ranking = running.rankings[0]
    assert ranking.status is Status.PROVISIONAL and ranking.identity == RANK_AND_PLAYER
    assert ranking.scope.kind == "event" and ranking.scope.name == "Tournoi test" and ranking.scope.season == 2026
    assert ranking.scope.event == "poules/test.xlsx" and ranking.path == "2026/test/classement"
    assert to_csv(ranking).decode().splitlines()[0] == "rank,player,round_reached,points,games,average,pool,pool_place,forfeit,tied"
    # Whole points as int, halves as float; A: 1 (6), 4 (4), 5 (1.5), 8 (0.5).
    by_name = {row.player: row.metrics for row in ranking.rows}
    assert by_name[P[0]]["points"] == 6 and type(by_name[P[0]]["points"]) is int
    assert by_name[P[4]]["points"] == 1.5 and by_name[P[7]]["points"] == 0.5
    assert [d.path for d in running.documents] == ["2026/test/tour-1"]
    tour.next(dt.date(2026, 9, 19))
    tour.play()
    over = report(tour)
    assert over.rankings[0].status is Status.FINAL and over.rankings[0].date == dt.date(2026, 9, 19)
    assert [d.path for d in over.documents] == ["2026/test/tour-1", "2026/test/tour-2"]


def test_the_site_says_a_tournament_s_first_day_while_it_runs_then_its_days():
    """Its ranking is dated by the day its last round started (its last bulletin's); its workbook's
    Date is its first day of play (docs/formats.md). The site's record keeps both; its pages say the
    first day while the tournament runs (the last day is not known yet), its days once it is over."""
    from reportgen.site import data
    from reportgen.site.days import record_day

    tour = Tour(8)
    tour.next()
    tour.play()
    tour.next(dt.date(2026, 9, 19))
    running = report(tour).rankings[0]
    assert running.status is Status.PROVISIONAL and running.date == dt.date(2026, 9, 19)
    record = data.ranking_record(running, {})
    assert (record["start"], record["date"]) == ("2026-09-05", "2026-09-19")
    assert record_day(record) == "5 septembre 2026"
    tour.play()
    over = data.ranking_record(report(tour).rankings[0], {})
    assert over["status"] == "final" and record_day(over) == "du 5 au 19 septembre 2026"
    # a tournament of one round, launched and decided on its first day: one day, no `start`
    one = Tour(4)
    one.next()
    one.play()
    single = data.ranking_record(report(one).rankings[0], {})
    assert single["status"] == "final" and "start" not in single and record_day(single) == "5 septembre 2026"


def test_the_bulletin_marks_qualifiers_barragistes_repeches_and_forfeits():
    tour = Tour(16)
    tour.next()
    order = names(16)
    rank = {name: index for index, name in enumerate(order)}
    fixed = {(order[5], order[10]): "1-0", (order[10], order[5]): "1-0",
             (order[10], order[13]): "1-0", (order[13], order[10]): "0-1"}  # C: 6 and 11 level for 2nd
    tour.play(lambda w, b: fixed.get((w, b)) or ("1-0" if rank[w] < rank[b] else "0-1"),
              skip={order[7], order[8], order[15]})
    for index in (7, 8, 15):
        tour.forfeit(order[index], 1)
    pending = report(tour).documents[0]
    assert pending.title == "Tournoi test\u00a0— Tour\u00a01\u00a0: barrages"
    assert pending.context["alerts"] == ["Barrages à jouer avant la suite du tournoi (Art. IX) : voir ci-dessous."]
    pool_c = pending.context["pools"][2]
    assert [(row["place"], row["status_label"]) for row in pool_c["rows"]] == [
        ("1", ""), ("2=", "barragiste"), ("2=", "barragiste"), ("4", "")]
    assert pending.context["barrages"] == [{"pool": "C", "players": f"{order[5]}, {order[10]}", "state": "à lancer",
                                           "games": [{"white": order[10], "black": order[5], "result": "à lancer"}]}]
    tour.next(barrages=True)
    tour.result(order[10], order[5], "0-1", phase="barrage")
    done = report(tour).documents[0]
    assert done.title == "Tournoi test\u00a0— Résultats du tour\u00a01"  # never « tour » over « 1 »
    rows = {row["player"]: row for pool in done.context["pools"] for row in pool["rows"]}
    assert rows[order[0]]["status_label"] == "qualification" and rows[order[7]]["status_label"] == "forfait"
    assert rows[order[10]]["barrage"] == "0" and rows[order[5]]["barrage"] == "1"
    repeche = [name for name, row in rows.items() if row["status_label"] == "repêchage"]
    assert len(repeche) == 1 and done.context["repechage"].startswith("Repêchage (Art. X) : 1 place libérée")
    assert done.context["next"]["written"] is False and len(done.context["next"]["pools"]) == 2
    assert [f["player"] for f in done.context["forfeits"]] == [order[7], order[8], order[15]]
    page = html.render(done)
    assert "Poules du tour 2" in page and "reportgen poules next" in page and ">repêchage</span>" in page
    # The crossed cells: a game against a forfeited player is shown greyed, not counted.
    pool_a = done.context["pools"][0]
    assert {cell["kind"] for cell in pool_a["rows"][0]["cells"][1:]} == {"void"}


def test_a_cancelled_tournament_says_so_and_names_are_escaped():
    tour = Tour(entrants=[("<i>PIRATE</i> Jean", 2000.0, dt.datetime(2026, 8, 1)),
                          ("DUPONT Ana", 1900.0, dt.datetime(2026, 8, 2)),
                          ("DURAND Léo", 1800.0, dt.datetime(2026, 8, 3)),
                          ("DUVAL Max", 1700.0, dt.datetime(2026, 8, 4))], emails=False)
    tour.next()
    tour.forfeit("DURAND Léo", 1)
    tour.forfeit("DUVAL Max", 1)
    document = report(tour).documents[0]
    assert document.title == "Tournoi test\u00a0— Tour\u00a01\u00a0— tournoi annulé"
    assert document.context["alerts"][0].startswith("Tournoi annulé (Art. XI) : il ne reste que 2 joueurs non forfaits")
    page = html.render(document)
    assert "&lt;I&gt;PIRATE&lt;/I&gt;" in page and "<I>PIRATE" not in page


def test_the_annex_has_the_ranking_the_pools_and_every_game():
    tour = Tour(8)
    tour.next()
    tour.play(half_draws)
    annex = report(tour).annexes[0]
    book = openpyxl.load_workbook(io.BytesIO(excel.render_annex(annex)))
    assert book.sheetnames == ["Classement", "Poules", "Parties"]
    games = [[c.value for c in row] for row in book["Parties"].iter_rows()]
    assert games[0] == ["Tour", "Poule", "Phase", "Blancs", "Noirs", "Résultat", "Points Blancs", "Points Noirs",
                        "Compte"]
    assert len(games) == 1 + 24 and games[1][:6] == [1, "A", "principale", P[0], P[3], "1-0"]
    pools = [[c.value for c in row] for row in book["Poules"].iter_rows(min_row=2)]
    assert pools[0][:7] == [1, "A", 1, P[0], 6, 6, 1]


def test_the_average_has_three_decimals_in_the_bulletin_the_annex_and_the_csv():
    """« Moyenne » (the tie-break between the pools, Art. VI): the same three decimals everywhere,
    the CSV's and docs/poules.md's (two in the bulletin would show 0,67 for 2/3 and 0,665 alike)."""
    tour = Tour(8)
    tour.next()
    tour.play(half_draws)
    built = report(tour)
    rows = {row["player"]: row for pool in built.documents[0].context["pools"] for row in pool["rows"]}
    assert [rows[P[i]]["average"] for i in (0, 3, 4, 7)] == ["1,000", "0,667", "0,250", "0,083"]  # 0.5 in 6: 0,083
    book = openpyxl.load_workbook(io.BytesIO(excel.render_annex(built.annexes[0])))
    for sheet in ("Poules", "Classement"):
        header = [c.value for c in book[sheet][1]]
        cells = [row[header.index("Moyenne")] for row in book[sheet].iter_rows(min_row=2)]
        assert cells and {cell.number_format for cell in cells} == {"#,##0.000_)"}, sheet
    published = [line.split(";") for line in to_spreadsheet_csv(built.rankings[0]).decode("utf-8-sig").splitlines()[1:]]
    assert {line[1]: line[5] for line in published} == {name: row["average"] for name, row in rows.items()}
    csv_rows = [line.split(",") for line in to_csv(built.rankings[0]).decode().splitlines()[1:]]
    assert {line[1]: float(line[5]) for line in csv_rows} == {  # 0.083 in the CSV, 0,083 in the bulletin
        name: float(row["average"].replace(",", ".")) for name, row in rows.items()}


@pytest.mark.parametrize(("points", "games", "shown"), [(Fraction(1, 2), 8, "0,063"), (Fraction(5, 2), 8, "0,313"),
                                                         (Fraction(3, 2), 8, "0,188")])
def test_article_III_the_average_is_shown_rounded_half_up(points, games, shown):
    """« moyenne de points » (Art. III, the seeding; Art. X, the repêchages; the ranking): the text
    says nothing of its rounding; three decimals, half up as one rounds by hand. 0.5 in 8 games,
    0,0625, showed 0,062 and 2.5 in 8 showed 0,312 (half to even) while 1.5 in 8 showed 0,188."""
    assert _french_average(points / games) == shown  # the bulletin
    assert average(points / games) == float(shown.replace(",", "."))  # the annex, the CSV and JSON


@given(st.fractions(min_value=0, max_value=1))
@example(Fraction(1, 16))
@example(Fraction(5, 16))
@example(Fraction(1, 2000))  # 0,0005: 0,001
@example(Fraction(999, 2000))  # 0,4995: 0,500
@example(Fraction(1, 3))
def test_article_III_any_average_is_shown_as_the_half_up_rounding_of_its_exact_value(exact):
    """Whatever the fraction, the average shown is the multiple of 0,001 nearest to it, the larger
    one when it lies halfway: worked out on the exact fraction, never on a float."""
    shown = Fraction(_french_average(exact).replace(",", "."))
    assert (shown * 1000).denominator == 1
    assert abs(exact - shown) < Fraction(1, 2000) or shown - exact == Fraction(1, 2000)
    assert Fraction(repr(average(exact))) == shown


@pytest.mark.parametrize(("typed", "shown"), [
    (lambda index: index + 1, "3"), (lambda index: str(index + 1), "3"), (lambda index: f"Poule {index + 1}", "3"),
    (lambda index: "ABCD"[index], "C"), (lambda index: "abcd"[index], "C"), (lambda index: f"Poule {'ABCD'[index]}", "C")],
    ids=["numbers", "numbers-as-text", "Poule-3", "letters", "lower-case", "Poule-A"])
def test_every_output_names_the_pools_as_the_sheet_does(typed, shown):
    """Issue 22: a club whose `Parties` sheet numbers its pools 1–4 reads « poule 3 » in its bulletin,
    annex, CSV, e-mails and problems, not « poule C »; `Poule 3` shows as « poule 3 » (not « poule
    Poule 3 »), lower-case letters upper-case. Letters stay letters."""
    order = names(12)  # round 1: 4 pools of 3 (Art. III); the third, « C », holds seeds 3, 6, 11
    tour = Tour(12)
    tour.next()
    for row in tour.games(1):
        row[1] = typed(" ABCD".index(row[1]) - 1)
    tour.play()
    built = report(tour)
    bulletin = built.documents[0]
    assert [pool["label"] for pool in bulletin.context["pools"]][2] == shown
    following = ["1", "2"] if shown == "3" else ["A", "B"]  # round 2's pools
    assert [pool["label"] for pool in bulletin.context["next"]["pools"]] == following  # not written yet
    page = html.render(bulletin)
    assert f"<h3>Poule {shown}" in page and f"<h3>Poule {'C' if shown == '3' else '3'}" not in page
    assert "Poule Poule" not in page
    book = openpyxl.load_workbook(io.BytesIO(excel.render_annex(built.annexes[0])))
    pools = {row[3]: row[1] for row in book["Poules"].iter_rows(min_row=2, values_only=True)}
    games = {(row[3], row[4]): row[1] for row in book["Parties"].iter_rows(min_row=2, values_only=True)}
    assert pools[order[2]] == pools[order[10]] == games[order[5], order[10]] == shown
    csv_rows = [line.split(",") for line in to_csv(built.rankings[0]).decode().splitlines()[1:]]
    assert {line[1]: line[6] for line in csv_rows}[order[5]] == shown
    start = next(m for m in built.messages if m.path == "2026/test/avis/tour-1/lancement-joueurc-un")
    assert start.subject == f"Tournoi test : tour 1, poule {shown}"
    assert f"Vous jouez dans la poule {shown} avec " in start.text and "poule Poule" not in start.text
    # Round 2, written by `poules next`, continues the sheet's names, and says them so.
    said = tour.next(dt.date(2026, 9, 19)).said
    assert [line.split(" : ")[0] for line in said[1:]] == [f"  poule {label}" for label in following]
    assert [pool["label"] for pool in report(tour).documents[1].context["pools"]] == following
    # A located problem names the pools as the sheet does: a game moved to a pool round 2 lacks.
    moved = tour.games(2)[0]
    moved[1] = typed(3)  # the fourth pool
    fourth, first, second = ("4", "1", "2") if shown == "3" else ("D", "A", "B")
    problem = report(tour).problems[0]
    assert problem.where.cell == f"B{1 + len(tour.games(1)) + 1}"
    assert problem.message == f"il n’y a pas de poule {fourth} au tour 2 (les poules {first} et {second})"


def test_a_tournament_not_over_says_what_its_workbook_still_awaits():
    """What the build's note and its club's reminder say once its Fin is past (`Report.pending`): the
    games of a round under way, the round to write next, the final; nothing once over."""
    tour = Tour(8, name="Coupe")
    tour.next()
    first = tour.games(1)[0][2]
    tour.play(skip={first})
    missing = len([row for row in tour.games(1) if first in (row[2], row[3])])
    event = tour.event().id
    assert report(tour).pending == {
        event: f"le tour\u00a01 n’est pas terminé ({missing} parties restent à jouer)"}
    tour.play()
    assert report(tour).pending == {event: "le tour final reste à jouer"}
    tour.next()
    tour.play()
    over = report(tour)
    assert [ranking.final for ranking in over.rankings] == [True] and over.pending == {}
