"""Every problem says what to do (issue « every message has its fix »): statically, each
`Problem(...)` and `BadValue(...)` of reportgen/ is given a fix; and on a corpus of broken inputs
(the example league with one damage per file, every circuit, the directories, the settings), the
real `reportgen check` gives each problem a fix and fills verification.html's « Correction »
column on every row."""

from __future__ import annotations

import ast
import json
import shutil
import subprocess
import sys
from collections.abc import Callable
from html.parser import HTMLParser
from pathlib import Path

import openpyxl
import pytest

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "league"
REPORTGEN = str(Path(sys.executable).parent / "reportgen")

# -- statically: each construction passes a fix ------------------------------------------------

# (function name, index of its `fix` argument): the two ways reportgen states a problem.
WITH_A_FIX = {"Problem": 2, "BadValue": 1}


def constructions_without_a_fix() -> list[str]:
    missing = []
    for path in sorted((ROOT / "reportgen").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            name = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", None)
            if name not in WITH_A_FIX:
                continue
            index = WITH_A_FIX[name]
            if any(isinstance(arg, ast.Starred) for arg in node.args[:index + 1]):
                continue  # Problem(where, *message_and_fix): the pair comes whole from elsewhere
            fix = node.args[index] if len(node.args) > index else \
                next((k.value for k in node.keywords if k.arg == "fix"), None)
            if fix is None or (isinstance(fix, ast.Constant) and not fix.value):
                missing.append(f"{path.relative_to(ROOT)}:{node.lineno} {name}(...)")
    return missing


def test_every_problem_and_bad_value_of_reportgen_is_given_a_fix():
    assert constructions_without_a_fix() == []


# -- on a corpus of broken inputs: the real `check` ------------------------------------------

Damage = Callable[[Path], None]


def edit(name: str, sheet: str, changes: dict[str, object]) -> Damage:
    """Type `changes` ({cell: value}) into one sheet of one workbook, as a club would."""
    def damage(inputs: Path) -> None:
        book = openpyxl.load_workbook(inputs / name)
        for cell, value in changes.items():
            book[sheet][cell] = value
        book.save(inputs / name)
    return damage


def drop_sheet(name: str, sheet: str) -> Damage:
    def damage(inputs: Path) -> None:
        book = openpyxl.load_workbook(inputs / name)
        del book[sheet]
        book.save(inputs / name)
    return damage


def write(name: str, data: bytes) -> Damage:
    def damage(inputs: Path) -> None:
        (inputs / name).parent.mkdir(parents=True, exist_ok=True)
        (inputs / name).write_bytes(data)
    return damage


def copy(name: str, to: str) -> Damage:
    def damage(inputs: Path) -> None:
        shutil.copyfile(inputs / name, inputs / to)
    return damage


# Each damage, and the file whose problems it causes (each must give at least one problem there).
# Two corpora: a club directory with a problem hides the « club inconnu » of the workbooks (said
# once, as their cause: pipeline.load), and a problem that belongs to no circuit blocks them all
# (no « upstream » problem then), so those are broken on their own.
WORKBOOKS: list[tuple[str, Damage]] = [
    # Grand Sud: a date no calendar has and a club typo in one workbook; a place given twice; a
    # missing sheet; a missing column; a formula never calculated; invisible characters; a copy.
    ("2026/2026-06-27-foix.xlsx", edit("2026/2026-06-27-foix.xlsx", "Tournoi", {"B4": "31/02/2026"})),
    ("2026/2026-06-27-foix.xlsx", edit("2026/2026-06-27-foix.xlsx", "Résultats", {"E5": "Albbi"})),
    ("2026/2026-06-13-rodez.xlsx", edit("2026/2026-06-13-rodez.xlsx", "Résultats", {"A5": "1"})),
    ("2026/2026-05-16-bordeaux.xlsx", drop_sheet("2026/2026-05-16-bordeaux.xlsx", "Résultats")),
    ("2026/2026-09-19-nimes.xlsx", edit("2026/2026-09-19-nimes.xlsx", "Résultats", {"B1": "Patronyme"})),
    ("2026/2026-10-10-tarbes.xlsx", edit("2026/2026-10-10-tarbes.xlsx", "Résultats", {"A4": "=1+1"})),
    ("2026/2026-11-14-auch.xlsx", edit("2026/2026-11-14-auch.xlsx", "Résultats", {"B4": "\u200f\u200e"})),
    ("2026/copie.xlsx", copy("2026/2026-02-14-albi.xlsx", "2026/copie.xlsx")),
    # Tantrix: tiles that are no number, a formula never calculated, an unknown type.
    ("tantrix/2026-03-14-week-end-de-printemps.xlsx",
     edit("tantrix/2026-03-14-week-end-de-printemps.xlsx", "Parties", {"D4": "vingt", "C5": "=A5"})),
    ("tantrix/2026-10-10-coupe-d-automne.xlsx",
     edit("tantrix/2026-10-10-coupe-d-automne.xlsx", "Tournoi", {"B4": "au hasard"})),
    # Tour de France: a place that does not follow.
    ("tour-de-france/2005/2005-10-29-paris.xlsx",
     edit("tour-de-france/2005/2005-10-29-paris.xlsx", "Résultats", {"A5": 9})),
    # Poules: a registrant twice, a game with an unknown player.
    ("poules/2026-09-05-open-automne.xlsx",
     edit("poules/2026-09-05-open-automne.xlsx", "Inscrits", {"A22": "AUGER Anaïs"})),
    ("poules/2026-10-24-coupe-toussaint.xlsx",
     edit("poules/2026-10-24-coupe-toussaint.xlsx", "Parties", {"C2": "INCONNU Paul"})),
    # The Masters workbook is left whole: Grand Sud, which it needs, is broken (the upstream problem).
]
DIRECTORIES: list[tuple[str, Damage]] = [  # and what else belongs to no circuit (blocks them all)
    ("reportgen.toml", write("reportgen.toml", b'[circuits.grand-sud]\ndepartements = ["9"]\nseeds = "seize"\n')),
    ("2026/abime.xlsx", write("2026/abime.xlsx", b"PK\x03\x04 not a zip at all")),  # no workbook
    ("clubs.xlsx", edit("clubs.xlsx", "Clubs", {"A17": "FOIX", "B17": "Foix bis", "C17": "09"})),
    ("joueurs.xlsx", edit("joueurs.xlsx", "Joueurs", {"B1": "Patronyme"})),
    ("masters/masters-2026.xlsx", edit("masters/masters-2026.xlsx", "Matchs", {"E2": "7,5"})),
]
CORPORA = {"workbooks": WORKBOOKS, "directories": DIRECTORIES}


def check(root: Path, corpus: list[tuple[str, Damage]]) -> tuple[subprocess.CompletedProcess, dict, str]:
    """`reportgen check --format json` on the example league with `corpus`'s damages: the process,
    what it printed, and verification.html."""
    inputs = root / "inputs"
    shutil.copytree(EXAMPLE, inputs)
    for _, damage in corpus:
        damage(inputs)
    done = subprocess.run([REPORTGEN, "check", "--inputs", str(inputs), "--outputs", str(root / "outputs"),
                           "--format", "json"], capture_output=True, text=True, timeout=600, cwd=root)
    return done, json.loads(done.stdout), (root / "outputs" / "verification.html").read_text("utf-8")


@pytest.fixture(scope="module")
def checked(tmp_path_factory) -> dict[str, tuple[subprocess.CompletedProcess, dict, str]]:
    return {name: check(tmp_path_factory.mktemp(name), corpus) for name, corpus in CORPORA.items()}


@pytest.mark.parametrize("corpus", sorted(CORPORA))
def test_the_corpus_is_broken_everywhere_it_was_damaged(checked, corpus):
    done, printed, _ = checked[corpus]
    assert done.returncode == 1, done.stderr
    files = {p["file"] for p in printed["problems"]}
    assert sorted({name for name, _ in CORPORA[corpus]} - files) == []


@pytest.mark.parametrize("corpus", sorted(CORPORA))
def test_every_problem_of_the_corpus_has_its_fix(checked, corpus):
    _, printed, _ = checked[corpus]
    assert len(printed["problems"]) >= len(CORPORA[corpus])
    assert [p for p in printed["problems"] if not p["fix"].strip()] == []


def test_a_circuit_blocked_by_the_one_it_needs_says_to_fix_that_one_first(checked):
    _, printed, _ = checked["workbooks"]  # the Masters workbook is whole, Grand Sud is not
    [upstream] = [p for p in printed["problems"] if p["code"] == "upstream"]
    assert upstream["file"] == "masters/masters-2026.xlsx"
    assert upstream["fix"] == ("corrigez d’abord les classeurs du circuit « Classement régional Grand Sud » "
                               "(leurs problèmes sont listés avec eux)")
    assert upstream["message"].startswith("le circuit « Classement régional Grand Sud », dont dépend « Masters Grand Sud »,")


class Rows(HTMLParser):
    """The cells of each table row of a page."""

    def __init__(self) -> None:
        super().__init__()
        self.rows: list[list[str]] = []
        self.cell: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: object) -> None:
        if tag == "tr":
            self.rows.append([])
        elif tag == "td":
            self.cell = []

    def handle_endtag(self, tag: str) -> None:
        if tag == "td" and self.cell is not None:
            self.rows[-1].append("".join(self.cell).strip())
            self.cell = None

    def handle_data(self, data: str) -> None:
        if self.cell is not None:
            self.cell.append(data)


@pytest.mark.parametrize("corpus", sorted(CORPORA))
def test_verification_page_fills_the_correction_column_of_every_row(checked, corpus):
    _, printed, page = checked[corpus]
    parser = Rows()
    parser.feed(page)
    rows = [row for row in parser.rows if row]  # the header row has <th>, no <td>
    assert len(rows) == len(printed["problems"])
    assert all(len(row) == 3 for row in rows)
    assert [row for row in rows if not row[2]] == []
