"""A circuit held back by one it depends on (the Masters by the Grand Sud) is said, but it is not one
more problem to correct: `check`, `build` and verification.html count the Grand Sud's problems
only (model.Level.HELD)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import openpyxl
import pytest

from reportgen.model import Level, Messages
from reportgen.pipeline import build, load, score
from tests.builders import TODAY
from tests.conftest import EXAMPLE_INPUTS
from tests.test_incremental_build import stub_pdfs  # noqa: F401  (a fixture)

REPORTGEN = str(Path(sys.executable).parent / "reportgen")
BROKEN = "2026/2026-11-14-auch.xlsx"


@pytest.fixture(scope="module")
def league(tmp_path_factory) -> Path:
    """The example league, one Grand Sud workbook without its `Place` header; the Masters' whole."""
    inputs = tmp_path_factory.mktemp("held") / "inputs"
    shutil.copytree(EXAMPLE_INPUTS, inputs)
    book = openpyxl.load_workbook(inputs / BROKEN)
    book["Résultats"]["A3"] = "abc"
    book.save(inputs / BROKEN)
    return inputs


def check(inputs: Path, *options: str) -> tuple[subprocess.CompletedProcess, str]:
    outputs = inputs.parent / "outputs"
    done = subprocess.run([REPORTGEN, "check", "--inputs", str(inputs), "--outputs", str(outputs), *options],
                          capture_output=True, text=True, timeout=300, cwd=inputs.parent)
    return done, (outputs / "verification.html").read_text("utf-8")


def test_the_masters_waiting_for_the_grand_sud_is_said_but_not_counted(league):
    done, page = check(league)
    assert done.returncode == 1, done.stderr
    lines = [line for line in done.stderr.splitlines() if not line.startswith("note : ")]
    assert lines[0] == "1 problème à corriger dans les classeurs :"
    assert lines[1].startswith(f"  - {BROKEN}, feuille « Résultats », cellule A3 : ")
    assert lines[2] == ("1 circuit en attente d’un circuit dont il dépend (rien à corriger dans ses propres "
                        "classeurs) :")
    assert lines[3].startswith("  - masters/masters-2026.xlsx : le circuit « Classement régional Grand Sud », "
                               "dont dépend « Masters Grand Sud », a des classeurs à corriger")
    assert len(lines) == 4
    text = page.replace("\u202f", " ").replace("\xa0", " ").replace("&nbsp;", " ")
    assert "· 1 problème à corriger</p>" in text and "avertissement" not in text
    # a sentence, not a row that starts with « (rien à corriger dans ce classeur) : … », nor one with a
    # second colon (« … a des classeurs à corriger : rien ne peut être établi »)
    assert ("<strong>En attente</strong> : rien n’est à corriger dans ce classeur, mais le circuit « Classement "
            "régional Grand Sud », dont dépend « Masters Grand Sud », a des classeurs à corriger, et rien ne peut "
            "être établi avant leur correction</td>") in text
    assert "(rien à corriger" not in text
    assert "« Classement régional Grand Sud » et « Masters Grand Sud »" in text  # both held back


def test_the_json_gives_the_hold_its_level(league):
    done, _ = check(league, "--format", "json")
    printed = json.loads(done.stdout)
    assert [(p["file"], p["level"]) for p in printed["problems"]] == [
        (BROKEN, "blocking"), ("masters/masters-2026.xlsx", "held")]


def test_the_hold_blocks_its_circuit_but_is_no_blocking_problem(league):
    scored = score(load(league, TODAY))
    [hold] = scored.blocked["masters"]
    assert hold.code == "upstream" and hold.level is Level.HELD and not hold.blocking


def test_the_build_says_the_masters_waits_rather_than_that_its_workbooks_are_to_correct(league, tmp_path,
                                                                                         stub_pdfs):  # noqa: F811
    said: list[str] = []
    result = build(league, tmp_path / "outputs", TODAY, progress=Messages(said.append))
    assert sorted(result.blocked) == ["grand-sud", "masters"] and not result.ok
    assert [p.level for p in result.problems] == [Level.BLOCKING, Level.HELD]
    assert "grand-sud : des classeurs sont à corriger, rien de nouveau n’est publié" in said
    assert ("masters : en attente d’un circuit dont il dépend (grand-sud), rien de nouveau n’est publié"
            in said)


def test_a_masters_without_any_grand_sud_workbook_says_what_it_lacks(tmp_path):
    """No Grand Sud workbook at all: nothing of the Grand Sud's to correct (no hold); the Masters
    says itself that it has no Grand Sud ranking, a problem to correct."""
    for name in ("clubs.xlsx", "joueurs.xlsx", "masters"):
        copy = shutil.copytree if (EXAMPLE_INPUTS / name).is_dir() else shutil.copy
        copy(EXAMPLE_INPUTS / name, tmp_path / name)
    scored = score(load(tmp_path, TODAY))
    [problem] = scored.blocked["masters"]
    assert problem.code == "no-ranking" and problem.blocking
    assert problem.message == "aucun classement final Grand Sud pour la saison 2026"
