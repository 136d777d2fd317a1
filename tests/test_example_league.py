"""The example league of inputs/: what it promises, its reviewed standings, its generator."""

import subprocess
import sys
from pathlib import Path

import pytest

from reportgen.render.ranking import to_json
from tests import golden

ROOT = Path(__file__).resolve().parents[1]
INPUTS = ROOT / "examples" / "league"


@pytest.fixture
def league(example_league):
    return example_league


@pytest.fixture
def report(example_scored):
    return example_scored.reports["grand-sud"]


def test_the_example_league_reads_without_a_problem(league):
    assert league.all_problems() == []
    # Two pairs of look-alike names the generator drew: the secretary is asked about them, the
    # older name first (the one `players merge` would keep). Each pair is in one tournament, whose
    # two cells are named: two people, or a row typed twice there.
    assert [n.split(" — ")[0] for n in league.notices] == [
        "CARRÉ Gaëtan (2025/2025-09-20-nimes.xlsx, feuille « Résultats », cellule B35) et BARRÉ Gaëtan "
        "(2025/2025-09-20-nimes.xlsx, feuille « Résultats », cellule B20) sont peut-être la même personne : les noms diffèrent de 1 "
        "lettre, même club, tous deux dans le même tournoi",
        "CHEVALLIER Thérèse (tour-de-france/2005/2005-05-14-namur.xlsx, feuille « Résultats », cellule B11) et CHEVALIER Thérèse "
        "(tour-de-france/2005/2005-05-14-namur.xlsx, feuille « Résultats », cellule B4) sont peut-être la même personne : les noms "
        "diffèrent de 1 lettre, tous deux dans le même tournoi"]


def test_every_command_the_example_leagues_notes_offer_does_what_it_says(league, tmp_path):
    """A reviewer ran the `players merge` the note on CARRÉ and BARRÉ Gaëtan offered: refused, both
    are in the 2025 Nîmes tournament. Each command a note quotes, run on a copy of the league, is
    done, and its question is no longer asked."""
    import re
    import shlex
    import shutil

    from reportgen.pipeline import load
    from tests.builders import TODAY
    from tests.test_cli import run

    questions = [n for n in league.notices if "même personne" in n]
    offered = [command for notice in questions for command in re.findall(r"« reportgen (players \w+ \"[^»]*\") »", notice)]
    assert len(offered) >= len(questions) == 2
    for index, command in enumerate(offered):
        copy = shutil.copytree(INPUTS, tmp_path / str(index))
        done = run(*shlex.split(command), "--inputs", str(copy))
        assert done.returncode == 0, (command, done.stderr)
        assert len([n for n in load(copy, TODAY).notices if "même personne" in n]) == len(questions) - 1, command


def test_the_example_league_is_as_realistic_as_promised(league):
    clubs = league.reading.clubs.clubs
    grand_sud = league.settings.circuits["grand-sud"].departements
    assert len([c for c in clubs if c.departement in grand_sud]) == 13
    assert any(c.departement not in grand_sud for c in clubs)
    events = league.circuits["grand-sud"].events
    for season in (2025, 2026):
        mine = [e for e in events if e.date.year == season and e.content.club.departement in grand_sud]
        assert len(mine) >= 10
        assert all(20 <= len(e.results) <= 70 for e in mine)
        assert {e.content.formula for e in mine} == {"poules", "duplicate"}
    days = [e.date for e in events]
    assert any(days.count(day) > 1 for day in days)  # two tournaments on the same day
    by_year = {year: {e.content.series for e in events if e.date.year == year} for year in (2025, 2026)}
    assert by_year[2025] - by_year[2026]  # a club that skips a year
    results = league.circuits["grand-sud"].results
    seasons = results.groupby("player_id")["date"].apply(lambda d: sorted(set(d.dt.year)))
    assert any(years == [2026] for years in seasons)  # players who come (back) in 2026


@pytest.mark.parametrize("season", [2025, 2026])
def test_final_standings_match_the_reviewed_golden_file(report, season):
    final = next(r for r in report.rankings if r.final and r.season == season)
    golden.check(f"grand-sud/standings-final-{season}.json", to_json(final).decode(), as_json=True)


def test_every_ranking_of_the_example_agrees_with_the_naive_reference(league, report):
    from reportgen.circuits.grand_sud.scoring import score_league
    from tests.grand_sud.reference import reference_rankings

    inputs = league.circuits["grand-sud"]
    departements = league.settings.circuits["grand-sud"].departements
    eligible = {e.id: e.content.club.departement in departements for e in inputs.events}
    _, _, rankings = score_league(inputs.results, inputs.events, eligible, league.settings.circuits["grand-sud"])
    published = [(r.season, r.date, r.final, sorted((row.rank, row.player_id, row.total) for row in r.rows))
                 for r in rankings]
    assert len(published) == 12 + 1 + 10 + 1  # a ranking per Grand Sud date, and a final per season
    assert published == reference_rankings(inputs.results, inputs.events)


def test_a_grand_sud_bulletin_names_the_ranking_its_evolution_compares_with(league):
    """The regulation's « évolution de la place par rapport au classement précédent »: the final ranking
    (the season's tournaments alone) follows the last dated one, which also counted the year before's,
    and a player's ▼40 there is no result lost. Its bulletin said « depuis le classement précédent »;
    it names that ranking, and what it counted that the final does not."""
    from reportgen.circuits.grand_sud.documents import evolution_since
    from reportgen.circuits.grand_sud.scoring import score_league

    inputs = league.circuits["grand-sud"]
    settings = league.settings.circuits["grand-sud"]
    eligible = {e.id: e.content.club.departement in settings.departements for e in inputs.events}
    tournaments, _, rankings = score_league(inputs.results, inputs.events, eligible, settings)
    said = {(r.season, r.date.isoformat(), r.final): evolution_since(r, tournaments) for r in rankings}
    assert said[(2025, "2025-01-25", False)] == "depuis le classement précédent"  # the first: all new
    assert said[(2026, "2026-01-24", False)] == "depuis le classement final 2025"
    assert said[(2026, "2026-11-14", False)] == "depuis le classement au 24 octobre 2026"
    assert said[(2026, "2026-11-14", True)] == ("depuis le classement au 14 novembre 2026, qui comptait aussi "
                                                "les tournois de 2025")
    assert said[(2025, "2025-12-06", True)] == "depuis le classement au 6 décembre 2025"  # nothing of 2024


def test_the_generator_reproduces_the_committed_example_byte_for_byte(tmp_path):
    subprocess.run([sys.executable, str(ROOT / "scripts" / "generate_example_league.py"), str(tmp_path)], check=True)
    committed = sorted(p.relative_to(INPUTS) for p in INPUTS.rglob("*.xlsx"))
    assert committed == sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*.xlsx"))
    for name in committed:
        assert (INPUTS / name).read_bytes() == (tmp_path / name).read_bytes(), name


def test_the_example_masters_has_a_withdrawal_all_matches_and_ties_decided_by_tops_and_head_to_head(example_scored):
    report = example_scored.reports["masters"]
    standing = report.rankings[0]
    assert standing.final and {row.metrics["played"] for row in standing.rows} == {15}
    assert [row.metrics["annual_rank"] for row in standing.rows if row.metrics["annual_rank"] > 16] == [17]  # the 17th stepped in
    page = report.documents[0].context
    decided = " ".join(row["decided"] for row in page["rows"])
    assert "départage aux tops" in decided and "départage au match particulier" in decided
    golden.check("masters/standings-final-2026.json", to_json(standing).decode(), as_json=True)


def test_what_the_example_masters_bulletin_says_of_a_player_agrees_with_no_gender(example_scored):
    """The league does not know its players' genders: the bulletin said « Désisté : BAILLY Stéphane
    (5e du classement annuel). Invité à sa place (§1) : HUMBERT Pierre (17e). », a tie « départagé
    aux tops », a first place « 1er ». The method's rules (« les 16 premiers… sont invités ») speak
    of any player, in the regulation's words, and are left."""
    from reportgen.render.html import render
    from tests.poules.test_notices import GENDERED

    page = render(example_scored.reports["masters"].documents[0])
    said = page.split("<body")[1].split('<section class="notes">')[0]  # what is printed, but the method
    assert ("<p>Désistement\u00a0: BAILLY Stéphane (5e place du classement annuel). Invitation à sa place (§1)\u00a0: "
            "HUMBERT Pierre (17e).</p>") in said
    assert "départage aux tops" in said and "départage au match particulier" in said
    assert GENDERED.findall(said) == []


def test_the_example_tour_de_france_2005_is_as_promised(league):
    events = league.circuits["tour-de-france"].events
    assert len(events) == 18 and {e.date.year for e in events} == {2005}
    sizes = sorted(e.content.participants for e in events)
    assert sizes[0] < 7 and sizes[-1] == 100 and any(7 <= s < 12 for s in sizes)
    rows = [row for e in events for row in e.results]
    assert any(row.excluded for row in rows)  # an organiser out of his own ranking
    assert any(sum(r.place == row.place for r in e.results) > 1 for e in events for row in e.results)  # ex aequo


def test_tour_de_france_season_standings_match_the_reviewed_golden_file(example_scored):
    report = example_scored.reports["tour-de-france"]
    season = next(r for r in report.rankings if r.final and r.season == 2005)
    golden.check("tour-de-france/standings-season-2005.json", to_json(season).decode(), as_json=True)


def test_the_tour_de_france_publishes_no_licence_nor_club_columns_it_does_not_have(example_scored):
    """Its workbooks have no licences nor clubs: its CSV files and its annex leave those columns out."""
    import io

    import openpyxl

    from reportgen.render import excel
    from reportgen.render.ranking import to_csv, to_spreadsheet_csv

    report = example_scored.reports["tour-de-france"]
    season = next(r for r in report.rankings if r.final and r.season == 2005)
    assert to_spreadsheet_csv(season).decode("utf-8-sig").splitlines()[0] == "Place;Joueur;Total;Tournois;Évolution"
    assert to_csv(season).decode().splitlines()[0] == "rank,player,points,played,evolution,tied"
    for annex in report.annexes:
        book = openpyxl.load_workbook(io.BytesIO(excel.render_annex(annex)))
        for sheet in book.worksheets:
            assert not {"Licence", "Club"} & {c.value for c in sheet[1]}, sheet.title
