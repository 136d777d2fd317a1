"""`check` tells the whole story in one run: every problem of a workbook at once, each with its
fix (verification.html's « Correction » column), two copies of one tournament as one problem, and a
club's second tournament of a year said (§1). Real workbooks, the real `load`/`score`, the real CLI."""

import datetime as dt
import json
import subprocess
import sys
from pathlib import Path

import openpyxl
import pytest

from reportgen.pipeline import load, score
from tests.builders import write_clubs, write_tournament

TODAY = dt.date(2026, 11, 29)
REPORTGEN = str(Path(sys.executable).parent / "reportgen")


@pytest.fixture
def inputs(tmp_path):
    folder = tmp_path / "inputs"
    write_clubs(folder)
    return folder


def check(inputs: Path, outputs: Path) -> tuple[subprocess.CompletedProcess, dict]:
    """`reportgen check --format json` as a process, and what it printed."""
    done = subprocess.run([REPORTGEN, "check", "--inputs", str(inputs), "--outputs", str(outputs),
                           "--format", "json"], capture_output=True, text=True, timeout=300, cwd=inputs.parent)
    return done, json.loads(done.stdout)


# -- every problem of a workbook at once ---------------------------------------------------------

BAD_DATE_AND_TYPO = [[1, "DUPONT", "Jean", "1001", "Carcassonne"], [2, "MARTIN", "Paul", "1002", "Albbi"],
                     [3, "DURAND", "Anne", "", "Toulouse"]]


def test_a_bad_date_and_a_club_typo_are_both_said_in_one_run(inputs):
    write_tournament(inputs, "t", day="31/02/2026", results=BAD_DATE_AND_TYPO)
    found = {(p.where.cell, p.code): p for p in load(inputs, TODAY).all_problems()}
    assert set(found) == {("B3", "bad-value"), ("E3", "unknown-club")}
    assert "« Albbi »" in found["E3", "unknown-club"].message
    assert "« Albi »" in found["E3", "unknown-club"].fix  # the nearest club, as on a readable workbook


def test_check_reports_both_and_fills_the_correction_column(inputs, tmp_path):
    write_tournament(inputs, "t", day="31/02/2026", results=BAD_DATE_AND_TYPO)
    done, printed = check(inputs, tmp_path / "outputs")
    assert done.returncode == 1
    assert sorted(p["cell"] for p in printed["problems"]) == ["B3", "E3"]
    date = next(p for p in printed["problems"] if p["cell"] == "B3")
    assert date["message"] == "« 31/02/2026 » n’est pas une date qui existe"
    assert date["fix"] == "corrigez le jour : février 2026 compte 28 jours (jj/mm/aaaa, du 01/02/2026 au 28/02/2026)"
    page = (tmp_path / "outputs" / "verification.html").read_text("utf-8")
    assert "février 2026 compte 28 jours" in page and "vouliez-vous dire «\u00a0Albi\u00a0»" in page
    assert "<td></td></tr>" not in page  # no problem row without its correction
    # which circuits the problems hold back: the page alone says what `make` will not publish
    assert ("Tant que ces problèmes restent, «\u00a0make\u00a0» ne publie rien de nouveau pour «\u00a0Classement "
            "régional Grand Sud\u00a0»") in page


def test_a_verification_page_without_problems_holds_no_circuit_back(inputs, tmp_path):
    write_tournament(inputs, "t")
    done, _ = check(inputs, tmp_path / "outputs")
    assert done.returncode == 0, done.stderr
    assert "ne publie rien de nouveau" not in (tmp_path / "outputs" / "verification.html").read_text("utf-8")


@pytest.mark.parametrize(("typed", "fix"), [
    ("31/02/2026", "corrigez le jour : février 2026 compte 28 jours (jj/mm/aaaa, du 01/02/2026 au 28/02/2026)"),
    ("2026-04-31", "corrigez le jour : avril 2026 compte 30 jours (jj/mm/aaaa, du 01/04/2026 au 30/04/2026)"),
    ("12/13/2026", "le mois (13) va de 1 à 12 : écrivez la date au format jj/mm/aaaa (jour, puis mois), "
                   "par exemple 14/03/2026"),
])
def test_a_date_no_calendar_has_says_how_to_fix_it(inputs, typed, fix):
    write_tournament(inputs, "t", day=typed)
    [problem] = load(inputs, TODAY).all_problems()
    assert problem.message == f"« {typed} » n’est pas une date qui existe"
    assert problem.fix == fix


# -- one tournament sent twice ----------------------------------------------------------------------

def test_a_tournament_renamed_and_sent_again_is_one_problem_naming_both_files(inputs, tmp_path):
    first = write_tournament(inputs, "2026-03-14-carcassonne")
    (inputs / "tournoi carcassonne mars.xlsx").write_bytes(first.read_bytes())
    league = load(inputs, TODAY)
    [problem] = league.all_problems()
    assert problem.code == "duplicate-tournament"
    assert problem.where.path == "tournoi carcassonne mars.xlsx"
    assert "« 2026-03-14-carcassonne.xlsx »" in problem.message and "même tournoi" in problem.message
    assert "« tournoi carcassonne mars.xlsx »" in problem.fix
    assert "grand-sud" in score(league).blocked
    done, printed = check(inputs, tmp_path / "outputs")
    assert done.returncode == 1 and [p["code"] for p in printed["problems"]] == ["duplicate-tournament"]


def test_the_same_club_date_and_series_in_two_workbooks_blocks_the_circuit_and_resends_nothing(inputs, tmp_path):
    from reportgen.pipeline import build

    outputs = tmp_path / "outputs"
    write_tournament(inputs, "2026-03-14-carcassonne")
    assert build(inputs, outputs, TODAY).ok
    # The same Tournoi fields, other bytes: the club sent it again with a name corrected.
    write_tournament(inputs, "carcassonne-corrige", results=[
        [1, "DUPONT", "Jean", "1001", "Carcassonne"], [2, "MARTIN", "Paul", "1002", "Albi"],
        [3, "DURANT", "Anne", "", "Toulouse"]])
    result = build(inputs, outputs, TODAY)
    assert result.blocked == ["grand-sud"] and result.republished == []
    [problem] = result.problems
    assert problem.code == "duplicate-tournament"
    assert "« 2026-03-14-carcassonne.xlsx »" in problem.message and "même club, même date, même série" in \
        problem.message
    assert "carcassonne-corrige.xlsx" in (problem.where.path + problem.fix)


def test_one_club_s_tournament_sent_again_with_a_series_is_one_tournament(inputs):
    """Told « S’il s’agit de deux tournois distincts, donnez à l’un une « Série » à lui », a club sent
    its tournament again with one: another edition (club, date, series), both were scored and
    `check` said nothing. One club's workbooks of the same name on the same day are one tournament."""
    write_tournament(inputs, "printemps")
    write_tournament(inputs, "printemps-serie", extra_fields=[["Série", "printemps"]])
    for name, typed in (("printemps", "Tournoi de l'Aude"), ("printemps-serie", "TOURNOI DE L’AUDE")):
        book = openpyxl.load_workbook(inputs / f"{name}.xlsx")
        book["Tournoi"]["B2"] = typed  # the same Nom, its case and apostrophe typed otherwise
        book.save(inputs / f"{name}.xlsx")
    [problem] = load(inputs, TODAY).all_problems()
    assert problem.code == "duplicate-tournament" and problem.where.path == "printemps.xlsx"
    assert "« printemps-serie.xlsx »" in problem.message and "(même club, même nom, même date)" in problem.message


def test_two_tournaments_of_one_club_on_one_day_in_two_series_are_two(inputs):
    write_tournament(inputs, "matin", extra_fields=[["Série", "Matin"]])
    write_tournament(inputs, "soir", extra_fields=[["Série", "Soir"]], results=[
        [1, "DUPONT", "Jean", "1001", "Carcassonne"], [2, "MARTIN", "Paul", "1002", "Albi"]])
    league = load(inputs, TODAY)
    assert league.all_problems() == [] and len(league.circuits["grand-sud"].events) == 2


# -- a club's second tournament of a year replaces its first (§1) ---------------------------------

def second_tournament_of_the_year(inputs: Path) -> None:
    write_tournament(inputs, "2026-01-10-carcassonne", day="10/01/2026", results=[
        [1, "DUPONT", "Jean", "1001", "Carcassonne"], [2, "MARTIN", "Paul", "1002", "Albi"],
        [3, "DURAND", "Anne", "", "Toulouse"], [4, "LÉGER", "Zoé", "1004", "Albi"],
        [5, "ROUX", "Marc", "", "Albi"]])
    write_tournament(inputs, "2026-03-14-carcassonne", day="14/03/2026", results=[
        [1, "MARTIN", "Paul", "1002", "Albi"], [2, "DUPONT", "Jean", "1001", "Carcassonne"]])


def test_a_clubs_second_tournament_of_the_year_is_said_by_check(inputs, tmp_path):
    second_tournament_of_the_year(inputs)
    done, printed = check(inputs, tmp_path / "outputs")
    assert done.returncode == 0 and printed["problems"] == []
    [notice] = [n for n in printed["notices"] if "remplace" in n]
    assert notice.startswith("grand-sud : 2026-03-14-carcassonne.xlsx (« Tournoi 2026-03-14-carcassonne », "
                             "14 mars 2026) remplace 2026-01-10-carcassonne.xlsx")
    assert "deuxième tournoi de la série CARC en 2026 : seul le dernier de l’année compte (§1)" in notice
    assert "3 joueurs du premier, absents du second, en perdent les points : DURAND Anne, LÉGER Zoé et ROUX Marc" \
        in notice


def test_a_clubs_second_tournament_of_the_year_is_said_by_build_and_on_the_bulletin(inputs, tmp_path):
    from reportgen.pipeline import build

    second_tournament_of_the_year(inputs)
    result = build(inputs, tmp_path / "outputs", TODAY)
    assert result.ok
    assert any("remplace 2026-01-10-carcassonne.xlsx" in n for n in result.notices), result.notices
    page = (tmp_path / "outputs" / "grand-sud" / "2026" / "classement-2026-03-14.html").read_text("utf-8")
    assert ("<p class=\"replaced\">«\u00a0Tournoi 2026-01-10-carcassonne\u00a0» (Carcassonne, 10/01/2026) est remplacé par "
            "«\u00a0Tournoi 2026-03-14-carcassonne\u00a0» du 14/03/2026\u00a0: deuxième tournoi de la série CARC en 2026, seul "
            "le dernier compte (§1), points et participants.</p>") in page
    assert "remplacé par l’édition du 14/03/2026 (même année, §1)" in page
    first = (tmp_path / "outputs" / "grand-sud" / "2026" / "classement-2026-01-10.html").read_text("utf-8")
    assert "class=\"replaced\"" not in first  # nothing replaced yet on 10 January


def test_the_secretary_s_page_locates_a_setting_by_its_table_and_key(inputs, tmp_path):
    # « feuille « circuits.grand-sud », cellule min_countd_results »: spreadsheet words for a text file
    (inputs / "reportgen.toml").write_text("[circuits.grand-sud]\nmin_countd_results = 2\n", encoding="utf-8")
    done, _ = check(inputs, tmp_path / "outputs")
    assert done.returncode == 1, done.stderr
    page = (tmp_path / "outputs" / "verification.html").read_text(encoding="utf-8")
    assert "table [circuits.grand-sud], réglage «\u00a0min_countd_results\u00a0»" in page
    assert "feuille «\u00a0circuits" not in page


@pytest.mark.parametrize(("formula", "asked"), [("duplicate", False), ("poules", True)])
def test_a_missing_results_sheet_asks_for_the_columns_its_formula_needs(inputs, tmp_path, formula, asked):
    # a duplicate tournament was asked for « Place duplicate », which only a pool one needs
    from tests.builders import write_workbook

    write_workbook(inputs / "2026-03-14-albi.xlsx", {"Tournoi": [
        ["Circuit", "grand-sud"], ["Nom", "Tournoi d'Albi"], ["Date", "14/03/2026"], ["Club", "ALBI"],
        ["Formule", formula]]})
    done, said = check(inputs, tmp_path / "outputs")
    [fix] = [p["fix"] for p in said["problems"] if p["code"] == "missing-sheet"]
    assert fix.startswith("nommez « Résultats » la feuille des résultats, ou ajoutez-la (Place, Nom, Prénom, Licence, Club")
    assert ("Place duplicate" in fix) == asked
