"""The day reportgen works as of (reportgen/clock.py): REPORTGEN_TODAY, else the machine's day; the
tests pinned to one day (tests/conftest.py), so that they say the same in January 2027 as now."""

import ast
import datetime as dt
import os
import subprocess
import sys
from pathlib import Path

import pytest

from reportgen import clock
from tests.builders import small_league
from tests.conftest import PINNED_TODAY

REPORTGEN = str(Path(sys.executable).parent / "reportgen")
PACKAGE = Path(__file__).resolve().parents[1] / "reportgen"


def reportgen(*args: str, cwd: Path, today: str, machine_day: str | None = None) -> subprocess.CompletedProcess:
    """The real command, as the secretary runs it, with REPORTGEN_TODAY set to `today`; with the
    machine's clock moved to noon of `machine_day` when given (libfaketime: a day still to come can be
    the machine's only so, the variable refuses it)."""
    moved = ["faketime", f"{machine_day} 12:00:00"] if machine_day else []
    return subprocess.run([*moved, REPORTGEN, *args], capture_output=True, text=True, cwd=cwd, timeout=300,
                          env={**os.environ, clock.VARIABLE: today})


def test_the_tests_run_as_of_the_pinned_day():
    """Set at import by conftest, inherited by every process a test starts."""
    assert os.environ[clock.VARIABLE] == "2026-12-07"
    assert clock.today() == PINNED_TODAY


def test_reportgen_works_as_of_the_day_the_variable_names(tmp_path):
    """`season close` without --date closes the season on the day reportgen works as of: the one
    REPORTGEN_TODAY names, neither the pinned day nor the machine's."""
    inputs = small_league(tmp_path / "inputs")
    done = reportgen("season", "close", "2026", "--inputs", str(inputs), "--archive", str(tmp_path / "archive"),
                     cwd=tmp_path, today="2026-11-30")
    assert done.returncode == 0, done.stderr
    assert done.stderr.splitlines()[0] == (f"saison 2026 close le 30 novembre 2026 ({inputs / 'saisons.toml'}) ; "
                                           "lancez « make » pour publier son classement final")
    assert '2026 = 2026-11-30' in (inputs / "saisons.toml").read_text(encoding="utf-8")
    # Once its year is over, the same command says the season was over already (Reading.season_closed):
    # a day of 2027, earlier than the machine's, moved there.
    (inputs / "saisons.toml").unlink()
    later = reportgen("season", "close", "2026", "--inputs", str(inputs), "--archive", str(tmp_path / "archive"),
                      cwd=tmp_path, today="2027-01-15", machine_day="2027-02-01")
    assert later.returncode == 0, later.stderr
    assert later.stderr.startswith("la saison 2026 est terminée depuis la fin de son année (31 décembre 2026)")


def test_a_day_still_to_come_is_refused(tmp_path):
    """REPORTGEN_TODAY left set in a shell would, once its day is ahead, publish what that day says
    (a season's final ranking before its end): a day after the machine's is a mistyped command, exit
    2, one French line saying what is wrong and what to do, nothing written. The machine's own day
    is no day ahead."""
    inputs = small_league(tmp_path / "inputs")
    outputs = tmp_path / "outputs"
    ahead = reportgen("check", "--inputs", str(inputs), "--outputs", str(outputs), cwd=tmp_path,
                      today="2026-12-11", machine_day="2026-12-10")
    assert (ahead.returncode, ahead.stdout) == (2, "")
    assert ahead.stderr.splitlines() == [
        "la variable d’environnement REPORTGEN_TODAY vaut « 2026-12-11 », un jour à venir (la machine est au "
        "10 décembre 2026) : reportgen publierait dès aujourd’hui les classements de ce jour-là ; retirez-la "
        "(unset REPORTGEN_TODAY) pour dater du jour de la machine"]
    assert not outputs.exists()
    same = reportgen("check", "--inputs", str(inputs), "--outputs", str(outputs), cwd=tmp_path,
                     today="2026-12-10", machine_day="2026-12-10")
    assert same.returncode == 0, same.stderr
    assert "10 décembre 2026" in (outputs / "verification.html").read_text(encoding="utf-8")


def test_a_day_ahead_of_the_real_clock_is_refused(tmp_path):
    """The same on the machine's real clock, libfaketime aside: a week after it."""
    inputs = small_league(tmp_path / "inputs")
    ahead = (dt.date.today() + dt.timedelta(days=7)).isoformat()
    done = reportgen("check", "--inputs", str(inputs), "--outputs", str(tmp_path / "outputs"), cwd=tmp_path, today=ahead)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr.startswith(f"la variable d’environnement REPORTGEN_TODAY vaut « {ahead} », un jour à venir")
    assert len(done.stderr.splitlines()) == 1
    assert not (tmp_path / "outputs").exists()


@pytest.mark.parametrize("typed", ["2026-13-01", "07/12/2026", "20261207", "demain"])
def test_a_day_that_is_no_iso_date_is_a_mistyped_command(tmp_path, typed):
    """Exit 2 as the command line's other usage errors, one French line naming the variable and
    what it holds, nothing written: never a traceback, never the machine's day in its place."""
    inputs = small_league(tmp_path / "inputs")
    done = reportgen("check", "--inputs", str(inputs), "--outputs", str(tmp_path / "outputs"), cwd=tmp_path, today=typed)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr.splitlines() == [
        f"la variable d’environnement REPORTGEN_TODAY vaut « {typed} », qui n’est pas une date : écrivez-la "
        "aaaa-mm-jj (par exemple REPORTGEN_TODAY=2026-12-07), ou retirez-la pour dater du jour de la machine"]
    assert not (tmp_path / "outputs" / "verification.html").exists()


def test_an_empty_variable_is_the_machine_day(monkeypatch):
    monkeypatch.setenv(clock.VARIABLE, "")
    assert clock.today() == dt.date.today()


def reads_the_machine_day(node: ast.AST) -> bool:
    """`date.today()`, `datetime.today()`, `datetime.now().date()`: the machine's day read directly."""
    if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Attribute):
        return False
    called = node.func
    if called.attr == "today":
        return not (isinstance(called.value, ast.Name) and called.value.id == "clock")
    return (called.attr == "date" and isinstance(called.value, ast.Call) and isinstance(called.value.func, ast.Attribute)
            and called.value.func.attr == "now")


def test_every_module_reads_the_day_from_the_clock():
    """One source of today: a module reading the machine's day itself would ignore REPORTGEN_TODAY
    (the tests' pinned day, a rebuild as of a past day)."""
    found = [f"{path.relative_to(PACKAGE)}:{node.lineno}" for path in sorted(PACKAGE.rglob("*.py"))
             if path != PACKAGE / "clock.py"
             for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))) if reads_the_machine_day(node)]
    assert found == []
