"""`check` tells the whole story in one run: every problem of a workbook at once, each with its
fix (verification.html's « Correction » column), two copies of one tournament as one problem, and a
club's second tournament of a year said (§1). Real workbooks, the real `load`/`score`, the real CLI."""

import datetime as dt
import json
import subprocess
import sys
from pathlib import Path

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
    assert date["message"] == "« 31/02/2026 » n'est pas une date qui existe"
    assert date["fix"] == "corrigez le jour : février 2026 compte 28 jours (jj/mm/aaaa, du 01/02/2026 au 28/02/2026)"
    page = (tmp_path / "outputs" / "verification.html").read_text("utf-8")
    assert "février 2026 compte 28 jours" in page and "vouliez-vous dire « Albi »" in page
    assert "<td></td></tr>" not in page  # no problem row without its correction


@pytest.mark.parametrize(("typed", "fix"), [
    ("31/02/2026", "corrigez le jour : février 2026 compte 28 jours (jj/mm/aaaa, du 01/02/2026 au 28/02/2026)"),
    ("2026-04-31", "corrigez le jour : avril 2026 compte 30 jours (jj/mm/aaaa, du 01/04/2026 au 30/04/2026)"),
    ("12/13/2026", "le mois (13) va de 1 à 12 : écrivez la date au format jj/mm/aaaa (jour, puis mois), "
                   "par exemple 14/03/2026"),
])
def test_a_date_no_calendar_has_says_how_to_fix_it(inputs, typed, fix):
    write_tournament(inputs, "t", day=typed)
    [problem] = load(inputs, TODAY).all_problems()
    assert problem.message == f"« {typed} » n'est pas une date qui existe"
    assert problem.fix == fix
