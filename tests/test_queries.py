"""The library answers what the commands ask (reportgen/queries.py): the command line only prints."""

import json

import pytest

from reportgen import queries
from reportgen.model import MistypedName, Problem, SourceRef


def test_the_club_directory_problems_come_first():
    later = Problem(SourceRef("a.xlsx"), "club inconnu", "corrigez")
    cause = Problem(SourceRef("clubs.xlsx"), "illisible", "corrigez")
    assert queries.sorted_problems([later, cause]) == [cause, later]


def test_no_ranking_is_a_french_answer_not_an_exception_text():
    """A season or a tournament that names none of the circuit's is a mistyped name (exit 2), which
    says what exists."""
    with pytest.raises(MistypedName, match="^aucun classement grand-sud pour la saison 2031 ; il n’y en a aucun$"):
        queries.season_ranking("grand-sud", [], season=2031)
    with pytest.raises(MistypedName, match="^aucun tournoi tantrix ne s’appelle « Open » ; il n’y en a aucun$"):
        queries.event_ranking("tantrix", [], "Open")


def test_while_a_season_runs_the_latest_published_ranking_is_its_latest_dated_bulletin(example_scored):
    """Issue 27: a running season's ranking « à date » is its latest dated bulletin, as the site and
    the mails show it (the example league on 29 November 2026: the 2026 season runs). Its final
    ranking so far, which has no bulletin yet, only with --final, and said to be « provisoire », counting
    the year's tournaments only (§1): why a place there is not the dated bulletin's."""
    report = example_scored.reports["grand-sud"]
    published = {document.path for document in report.documents}
    shown = queries.season_ranking("grand-sud", report.rankings, published=published)
    assert (shown.path, shown.final) == ("2026/classement-2026-11-14", False)
    assert queries.table(shown).splitlines()[0] == "Classement au 14 novembre 2026"
    so_far = queries.season_ranking("grand-sud", report.rankings, final=True, published=published)
    assert so_far.path == "2026/classement-provisoire-2026" and so_far.path not in published
    assert queries.table(so_far, so_far=True).splitlines()[0] == "Classement final 2026 provisoire (tournois de 2026 seulement)"
    over = queries.season_ranking("grand-sud", report.rankings, season=2025, published=published)
    assert (over.path, over.path in published) == ("2025/classement-final-2025", True)
    assert queries.table(over).splitlines()[0] == "Classement final 2025"


def test_an_event_circuit_s_final_standings_and_those_of_a_day_are_its_events(example_scored):
    """`standings masters --final` said « aucun classement masters » of a Masters whose 15 matches are
    played (its bulletin says « Classement final »); `--at` found nothing in a circuit of events."""
    import datetime as dt

    masters = example_scored.reports["masters"].rankings
    assert queries.season_ranking("masters", masters, final=True).path == "2026/masters-2026"
    assert queries.season_ranking("masters", masters, season=2026, final=True).path == "2026/masters-2026"
    tantrix = [r for r in example_scored.reports["tantrix"].rankings if r.scope.kind.value == "event"]
    assert queries.season_ranking("tantrix", tantrix, day=dt.date(2026, 6, 1)).scope.name == \
        "Week-end Tantrix de printemps"
    with pytest.raises(MistypedName, match="^aucun classement tantrix en vigueur le 1er janvier 2026 ; le premier "
                                           "entre en vigueur le 14 mars 2026$"):
        queries.season_ranking("tantrix", tantrix, day=dt.date(2026, 1, 1))
    with pytest.raises(MistypedName, match="^aucun classement final masters pour la saison 2025 ; saisons : 2026$"):
        queries.season_ranking("masters", masters, season=2025, final=True)


def test_a_day_before_the_first_ranking_names_none_and_says_when_it_takes_effect(example_scored):
    """`standings --at` a day no ranking is in force yet exited 1, as if a workbook had a problem:
    the option names no ranking (exit 2, README), and the line says the first day one is in force
    (of the season asked for, with --season)."""
    import datetime as dt

    grand_sud = example_scored.reports["grand-sud"].rankings
    with pytest.raises(MistypedName, match="^aucun classement grand-sud en vigueur le 1er janvier 2020 ; le premier "
                                           "entre en vigueur le 25 janvier 2025$"):
        queries.season_ranking("grand-sud", grand_sud, day=dt.date(2020, 1, 1))
    with pytest.raises(MistypedName, match="^aucun classement grand-sud pour la saison 2026 en vigueur le 5 janvier "
                                           "2026 ; le premier entre en vigueur le 24 janvier 2026$"):
        queries.season_ranking("grand-sud", grand_sud, season=2026, day=dt.date(2026, 1, 5))
    assert queries.season_ranking("grand-sud", grand_sud, day=dt.date(2025, 1, 25)).date == dt.date(2025, 1, 25)


def test_a_pool_tournament_s_standings_are_not_provisional_in_json(tmp_path):
    """`standings poules --format json` said `"so_far": true` of a pool tournament that is over: its
    ranking has no bulletin of its own (CSV and annex), as a running season's final ranking has none."""

    from tests.conftest import EXAMPLE_INPUTS
    from tests.test_delivery_mail import cli

    done = cli("standings", "poules", "--format", "json", "--inputs", str(EXAMPLE_INPUTS), "--archive",
               str(tmp_path / "archive"))
    assert done.returncode == 0, done.stderr
    shown = json.loads(done.stdout)
    assert (shown["final"], shown["so_far"]) == (True, False)


def test_an_event_s_final_standings_are_titled_final_as_its_bulletin(example_scored):
    """`standings masters` titled « Masters Grand Sud 2026 — classement au 28 novembre 2026 » the
    standings after its 15th match, which its bulletin, the mail and `history` call « Classement
    final »; likewise a pool tournament that is over. Titled from the ranking's own status."""
    masters = queries.season_ranking("masters", example_scored.reports["masters"].rankings)
    assert queries.table(masters).splitlines()[0] == "Masters Grand Sud 2026 — classement final"
    pools = queries.season_ranking("poules", example_scored.reports["poules"].rankings)
    assert queries.table(pools).splitlines()[0] == "Coupe de la Toussaint en ligne — classement final"


def test_the_masters_standings_say_what_their_annual_column_gives_places_in(example_scored):
    """The Masters' « Class. annuel » column gives places in the Grand Sud ranking that qualified its
    players, which the Grand Sud's latest dated bulletin is not: its bulletins and pages say which
    under the table (`Legend`); `standings` printed the column and no word of it, nor did its JSON."""
    from reportgen.render.ranking import to_json

    masters = queries.season_ranking("masters", example_scored.reports["masters"].rankings)
    said = ("Classement annuel : place au classement du Grand Sud qui qualifie pour le Masters, « Classement "
            "final provisoire de la saison 2026 (tournois de 2026 seulement) », au 28 novembre 2026, jour du "
            "Masters (fichier grand-sud/2026/classement-provisoire-2026.csv).")
    lines = queries.table(masters).splitlines()
    assert lines[-2:] == ["", said] and "Class. annuel" in lines[1]
    assert json.loads(to_json(masters))["legend"] == said
    pools = queries.season_ranking("poules", example_scored.reports["poules"].rankings)
    assert "legend" not in json.loads(to_json(pools)) and queries.table(pools).splitlines()[-1].split()[0] == "13"


def test_final_gives_a_tantrix_circuit_s_latest_event_over_titled_final(tmp_path):
    """`standings tantrix --final` seemed ignored (the same « classement au » title): it gives the latest
    event over, not a knockout still under way, and says « classement final »."""
    from reportgen.pipeline import load, score
    from tests.tantrix.test_knockout import P
    from tests.tantrix.test_workbooks import TODAY, round_robin, write_event

    write_event(tmp_path, "Open", round_robin((P[0], P[1], 27, 19), (P[1], P[2], 30, 12)), day="14/03/2026")
    write_event(tmp_path, "Coupe", [[1, P[0], P[1], 30, 20], [1, P[2], P[3], 30, 20]], day="10/10/2026",
                kind="élimination")  # its final still to play
    rankings = score(load(tmp_path, TODAY)).reports["tantrix"].rankings
    latest = queries.season_ranking("tantrix", rankings)
    assert queries.table(latest).splitlines()[0] == "Coupe — classement au 10 octobre 2026"
    over = queries.season_ranking("tantrix", rankings, final=True)
    assert queries.table(over).splitlines()[0] == "Open — classement final"
