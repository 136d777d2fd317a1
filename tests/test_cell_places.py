"""A place in a workbook is said one way wherever the secretary reads it: `check`'s and `build`'s lines
and verification.html's « À savoir » notes wrote Excel's syntax, « b.xlsx:'Résultats'!B3 », while
verification.html's problems and the answers to the clubs said « feuille « Résultats », cellule B3 ».
One function says it (model.in_sheet), and every one of them says it so; `check --format json` keeps
its parts apart for scripts."""

from __future__ import annotations

import html
import json
import re
import subprocess
import sys
from pathlib import Path

from reportgen.delivery.inbox_filing import Said
from reportgen.model import SourceRef, in_sheet
from reportgen.problems import BAD_VALUE
from tests.builders import write_clubs, write_tournament

REPORTGEN = str(Path(sys.executable).parent / "reportgen")
EXCEL = re.compile(r"'[^'\n]*'!")  # « 'Résultats'!B3 »


def check(inputs: Path, *options: str) -> subprocess.CompletedProcess:
    return subprocess.run([REPORTGEN, "check", "--inputs", str(inputs), *options], capture_output=True, text=True,
                          cwd=inputs.parent, timeout=300)


def test_the_terminal_and_the_secretary_s_page_say_a_cell_as_the_clubs_are_told_it(tmp_path):
    inputs = tmp_path / "inputs"
    write_clubs(inputs)
    write_tournament(inputs, "a", day="10/01/2026", results=[[1, "LOPEZ", "Thierry", "", "Nîmes"],
                                                             [2, "MARTIN", "Paul", "1002", "Albi"]])
    write_tournament(inputs, "b", day="07/02/2026", results=[[1, "LOPES", "Thierry", "", "Nîmes"],
                                                             [2, "MARTIN", "Paul", "1002", "Albi"]])
    write_tournament(inputs, "c", day="le 8", club="ALBI")  # a date that is none, in the Tournoi sheet's B3
    out = tmp_path / "out"
    said = check(inputs, "--outputs", str(out))
    assert said.returncode == 1
    assert not EXCEL.search(said.stderr), said.stderr
    # a problem, at its field of the Tournoi sheet; a note, at the cells of two names
    assert "  - c.xlsx, feuille « Tournoi », cellule B3 (champ « Date ») : « le 8 » n’est pas une date" in said.stderr
    assert ("note : LOPEZ Thierry (a.xlsx, feuille « Résultats », cellule B2) et LOPES Thierry (b.xlsx, feuille "
            "« Résultats », cellule B2) sont peut-être la même personne") in said.stderr
    page = html.unescape((out / "verification.html").read_text(encoding="utf-8")).replace("\u00a0", " ")
    assert not EXCEL.search(page)
    assert "<td>feuille « Tournoi », cellule B3 (champ « Date »)</td>" in page
    assert "LOPEZ Thierry (a.xlsx, feuille « Résultats », cellule B2) et LOPES Thierry" in page
    # scripts still get the parts
    data = json.loads(check(inputs, "--format", "json").stdout)
    assert [(p["file"], p["sheet"], p["cell"], p["column"]) for p in data["problems"]] == [
        ("c.xlsx", "Tournoi", "B3", "Date")]


def test_the_club_s_answer_says_the_cell_in_the_same_words():
    problem = BAD_VALUE(SourceRef("2025/2025-09-20-nimes.xlsx", "Résultats", "B35", "Nom"), message="m", fix="f")
    assert str(problem.where) == "2025/2025-09-20-nimes.xlsx, " + Said.of(problem).where
    assert Said.of(problem).where == in_sheet("Résultats", "cellule B35", "Nom") == \
        "feuille « Résultats », cellule B35 (colonne « Nom »)"
    assert str(SourceRef("reportgen.toml", "mail", "port")) == "reportgen.toml, table [mail], réglage « port »"
    assert str(SourceRef("a.xlsx", "Résultats", "A2:B9")) == "a.xlsx, feuille « Résultats », cellules A2 à B9"
    assert str(SourceRef("a.xlsx")) == "a.xlsx"
