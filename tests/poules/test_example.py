"""The example league's pool tournaments: what they promise, and their reviewed final rankings."""

import re

import pytest

from reportgen.circuits.poules.settings import PoulesSettings
from reportgen.circuits.poules.tournament import FINISHED, replay
from reportgen.model import RANK_AND_PLAYER, Status
from reportgen.render.ranking import to_json
from tests import golden

OPEN, CUP = "Open d'automne en ligne", "Coupe de la Toussaint en ligne"


@pytest.fixture(scope="module")
def events(example_league):
    return {event.name: event for event in example_league.circuits["poules"].events}


def played(event):
    return replay(event.content, event.date, PoulesSettings())


def test_the_open_runs_to_its_end_over_3_rounds_with_a_barrage_at_a_qualifying_place(events):
    tournament = played(events[OPEN])
    assert len(events[OPEN].content.registrants) == 20 and tournament.status == FINISHED
    assert [len(r.pools) for r in tournament.rounds] == [4, 2, 1]
    assert [sorted(len(pool.players) for pool in r.pools) for r in tournament.rounds] == [[5] * 4, [4, 4], [4]]
    barrages = [(r.number, pool.label) for r in tournament.rounds[:-1] for pool in r.pools
                if pool.barrage is not None and pool.barrage.state == "decided"]
    assert barrages  # a 2nd/3rd tie settled by barrage games
    for number, label in barrages:
        pool = tournament.rounds[number - 1].pools[ord(label) - 65]
        assert {line.place for line in pool.lines if line.barrage_half is not None} >= {2, 3}


def test_the_cup_has_a_forfeit_that_empties_a_pool_and_a_repechage_and_a_rehabilitation(events):
    tournament = played(events[CUP])
    assert len(events[CUP].content.registrants) == 13 and tournament.status == FINISHED
    first = tournament.rounds[0]
    assert [len(pool.players) for pool in first.pools] == [3, 3, 3, 4]
    assert [len(pool.active) for pool in first.pools][0] == 1 and first.free_places == 1 and len(first.repeched) == 1
    assert len(tournament.rounds[1].participants) == 8
    assert any(f.rehabilitated for r in tournament.rounds for f in r.forfeits)


@pytest.mark.parametrize("name, file", [(OPEN, "open-automne"), (CUP, "coupe-toussaint")])
def test_final_rankings_match_the_reviewed_golden_files(example_scored, name, file):
    ranking = next(r for r in example_scored.reports["poules"].rankings if r.scope.name == name)
    assert ranking.status is Status.FINAL and ranking.identity == RANK_AND_PLAYER
    assert ranking.scope.kind == "event" and ranking.scope.season == 2026 and ranking.scope.event.endswith(".xlsx")
    assert [c.key for c in ranking.columns][:3] == ["round_reached", "points", "games"]
    golden.check(f"poules/{file}-final.json", to_json(ranking).decode(), as_json=True)


def test_the_example_publishes_a_bulletin_per_round_an_annex_and_the_notices(example_scored):
    report = example_scored.reports["poules"]
    assert sorted(d.path for d in report.documents) == [
        "2026/2026-09-05-open-automne/tour-1", "2026/2026-09-05-open-automne/tour-2",
        "2026/2026-09-05-open-automne/tour-3", "2026/2026-10-24-coupe-toussaint/tour-1",
        "2026/2026-10-24-coupe-toussaint/tour-2", "2026/2026-10-24-coupe-toussaint/tour-3"]
    assert len(report.annexes) == 2 and report.messages
    assert [n for n in report.notices if "sans destinataire" in n] == [
        "poules/2026-09-05-open-automne.xlsx : les avis aux joueurs sans adresse dans la feuille « Inscrits » "
        "(colonne « Email ») sont écrits sans destinataire : KERVELLA Karine et QUÉRÉ Quentin"]
    # the cup's forfeit told to each player of the pool, « de » elided before the name as French writes it
    forfeits = {m.subject.split(" : ")[1] for m in report.messages if "forfait d" in m.subject}
    assert forfeits == {"forfait d’IMBERT Inès", "forfait de JOUBERT Jules", "forfait de PONS Paul"}, forfeits
    final = next(d for d in report.documents if d.path.endswith("open-automne/tour-3"))
    assert len(final.context["final"]) == 20 and final.context["final"][0]["rank"] == "1"


def test_the_pools_legend_names_the_forfeits_grey_only_where_a_pool_has_one(example_scored):
    # the open's first round has no forfeit: its legend said « grisé : partie contre un joueur
    # forfait » beside the grey diagonal alone; the cup's first round has one
    legends = {d.path.split("/", 1)[1]: d.context["legend"] for d in example_scored.reports["poules"].documents}
    assert all("la diagonale grise sépare chaque joueur de lui-même" in legend for legend in legends.values())
    forfeit = "en italique sur fond gris clair : partie d’un joueur forfait, qui ne compte pas"
    assert forfeit not in legends["2026-09-05-open-automne/tour-1"]
    assert forfeit in legends["2026-10-24-coupe-toussaint/tour-1"]


# A player's state in a pool, as its « Statut » column says it in the bulletins (PDF and site) and the
# annex's « Poules » sheet: nouns that agree with nobody (« qualifié » said Anaïs was a man).
STATES = {"qualification", "repêchage", "élimination", "forfait", "barragiste", ""}


def test_the_status_column_and_the_repechage_say_no_reader_is_a_man(example_scored):
    from reportgen.render.html import render

    report = example_scored.reports["poules"]
    labels = {row["status_label"] for d in report.documents for pool in d.context["pools"] for row in pool["rows"]}
    assert labels <= STATES and {"qualification", "repêchage", "élimination", "forfait"} <= labels
    pools = [sheet for annex in report.annexes for sheet in annex.sheets if sheet.name == "Poules"]
    assert [column.header for column in pools[0].columns][-1] == "Statut"
    assert {row[-1] for sheet in pools for row in sheet.rows} <= STATES
    repechages = [d.context["repechage"] for d in report.documents if d.context["repechage"]]
    assert repechages and [r for r in repechages if "repêché" in r] == []
    for document in report.documents:
        assert not re.search(r"\b(?:qualifiée?s?|repêchée?s?|éliminée?s?)</span>", render(document)), document.path
