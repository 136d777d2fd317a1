"""One problem vocabulary (issue 23): every kind of problem is declared once in reportgen/problems.py,
with a code of its own and its French message and fix; the code states problems by kind only; the
codes `check --format json` publishes are the declared ones, listed in docs/formats.md."""

from __future__ import annotations

import ast
import importlib.util
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from reportgen.model import Problem, SourceRef
from reportgen.problems import EMPTY, KINDS, MISSING_SHEET, Problems
from tests.builders import small_league, write_tournament, write_workbook

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "reportgen"
REPORTGEN = str(Path(sys.executable).parent / "reportgen")


def _script():
    spec = importlib.util.spec_from_file_location("problem_codes", ROOT / "scripts" / "problem_codes.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_every_code_is_declared_once():
    declared = re.findall(r'_kind\(\s*"([^"]+)"', (PACKAGE / "problems.py").read_text(encoding="utf-8"))
    assert len(declared) == len(set(declared)) == len(KINDS)
    assert all(re.fullmatch(r"[a-z]+(-[a-z]+)*", code) for code in declared)


@pytest.mark.parametrize("code", list(KINDS))
def test_every_kind_renders_a_message_and_a_fix(code):
    kind = KINDS[code]
    problem = kind(SourceRef("t.xlsx", "Résultats", "A2"), **{name: f"<{name}>" for name in kind.fields()})
    assert problem.code == code and problem.message and problem.fix
    assert "{" not in problem.message + problem.fix and "}" not in problem.message + problem.fix
    assert kind.meaning and kind.meaning[0].islower()  # a phrase of the docs' table
    with pytest.raises(TypeError):  # a misspelt field is refused, never silently dropped
        kind(SourceRef("t.xlsx"), **{name: "x" for name in kind.fields()}, not_a_field="x")


def test_a_kind_says_its_text_once_and_byte_for_byte_as_before():
    assert str(MISSING_SHEET(SourceRef("t.xlsx"), sheet="Résultats", fix="ajoutez la feuille des résultats")) == \
        "t.xlsx : la feuille « Résultats » est introuvable — ajoutez la feuille des résultats"
    assert str(EMPTY(SourceRef("t.xlsx", "Parties"), nothing="aucune partie", rows="les parties")) == \
        "t.xlsx, feuille « Parties » : aucune partie dans la feuille — listez les parties sous la ligne d’en-têtes"


def _calls(tree: ast.AST, name: str) -> list[ast.Call]:
    return [node for node in ast.walk(tree) if isinstance(node, ast.Call)
            and (getattr(node.func, "id", None) or getattr(node.func, "attr", None)) == name]


def test_the_code_states_problems_by_kind_only():
    """No `Problem(...)` outside problems.py (so none keeps the default code), no hand-typed code,
    and every code the source compares or names is declared."""
    built, typed, unknown = [], [], []
    for path in sorted(PACKAGE.rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        where = path.relative_to(ROOT)
        codes = re.findall(r'\bcode\s*(?:=|==|!=)\s*"([^"]*)"', text)  # code="x", p.code == "x"
        unknown += [f"{where}: {code}" for code in codes if code not in KINDS]
        if path.name != "problems.py":
            built += [f"{where}:{call.lineno}" for call in _calls(ast.parse(text), "Problem")]
            typed += [f"{where}: {code}" for code in codes]
    assert built == [] and typed == [] and unknown == []


def test_every_kind_is_used_and_every_fix_left_to_the_call_site_is_given():
    """A kind declared and never stated would be a dead row of the docs' table; a call site of a
    kind whose fix is its own words passes one (tests/test_every_fix.py, for kinds)."""
    names = {name for name in dir(sys.modules["reportgen.problems"]) if name.isupper() and name != "KINDS"}
    used: set[str] = set()
    missing_fix = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if path.name == "problems.py":
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        used |= {node.id for node in ast.walk(tree) if isinstance(node, ast.Name) and node.id in names}
        for name in names:
            kind = getattr(sys.modules["reportgen.problems"], name)
            if "fix" not in kind.fields() or "fix" in kind.defaults:
                continue
            for call in _calls(tree, name):
                fix = next((k.value for k in call.keywords if k.arg == "fix"), None)
                if fix is None or (isinstance(fix, ast.Constant) and not fix.value):
                    missing_fix.append(f"{path.relative_to(ROOT)}:{call.lineno} {name}")
    assert sorted(names - used) == [] and missing_fix == []


def test_the_table_of_docs_formats_is_the_module_s():
    script = _script()
    assert script.documented((ROOT / "docs" / "formats.md").read_text(encoding="utf-8")) == script.table(), \
        "docs/formats.md and reportgen/problems.py disagree: run python scripts/problem_codes.py"


def test_a_collector_adds_by_kind_at_its_scope():
    sheet = SourceRef("t.xlsx", "Résultats")
    problems = Problems(sheet)
    problems.add(EMPTY)
    problems.add(MISSING_SHEET, SourceRef("t.xlsx"), sheet="Parties", fix="ajoutez-la")
    problems.extend([Problem(SourceRef("u.xlsx"), "m", "f", code="bad-value")])
    assert len(problems) == 3 and problems
    assert [(p.where, p.code) for p in problems] == [
        (sheet, "empty"), (SourceRef("t.xlsx"), "missing-sheet"), (SourceRef("u.xlsx"), "bad-value")]
    assert not Problems()


def test_check_on_broken_workbooks_publishes_declared_codes_only(tmp_path):
    inputs = small_league(tmp_path / "inputs")
    write_tournament(inputs, "casse", day="le 8", club="Lunel", results=[
        [1, "DUPONT", "Jean", "", "Carcassonne"], [1, "MARTIN", "Paul", "", "Albi"], [9, "DUPONT", "Jean", "", ""]])
    write_workbook(inputs / "sans-tournoi.xlsx", {"Résultats": [["Place", "Nom", "Prénom"], [1, "A", "B"]]})
    write_workbook(inputs / "sans-resultats.xlsx", {"Tournoi": [["Circuit", "grand-sud"], ["Nom", "X"],
                                                               ["Date", "14/03/2026"], ["Club", "CARC"]]})
    (inputs / "abime.xlsx").write_bytes(b"PK\x03\x04 not a workbook")
    (inputs / "reportgen.toml").write_text("[inconnue]\nclef = 1\n", encoding="utf-8")
    result = subprocess.run([REPORTGEN, "check", "--inputs", str(inputs), "--outputs", str(tmp_path / "out"),
                             "--format", "json"], capture_output=True, text=True, timeout=120)
    assert result.returncode == 1 and "Traceback" not in result.stderr
    codes = [p["code"] for p in json.loads(result.stdout)["problems"]]
    assert len(codes) >= 6
    assert set(codes) <= KINDS.keys()
    assert {"bad-value", "unknown-club", "missing-sheet", "unreadable", "unknown-setting"} <= set(codes)
