"""The day reportgen works as of (reportgen/clock.py): REPORTGEN_TODAY, else the machine's day; the
tests pinned to one day (tests/conftest.py), so that they say the same in January 2027 as now."""

import ast
import datetime as dt
import os
import subprocess
import sys
from pathlib import Path

import pytest

from benchmarks.build_on_day import python_on
from benchmarks.measure import FRESH_PROCESS
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


@pytest.mark.parametrize(("day", "said"), [("2026-12-01", "1er\u00a0décembre 2026"), ("2099-01-15", "15\u00a0janvier 2099")])
def test_the_benchmarks_build_as_of_their_day(tmp_path, day, said):
    """The benchmarks' `reportgen build` in a new process (measure.FRESH_PROCESS, through
    build_on_day) works as of the benchmark's day, REPORTGEN_TODAY, and still when that day is ahead
    of the machine's (as make bench's 15 January 2027 is in December 2026): started by `python_on`,
    under faketime, where the variable alone is refused."""
    inputs = small_league(tmp_path / "inputs")
    done = subprocess.run([*python_on(dt.date.fromisoformat(day)), "-c", FRESH_PROCESS, str(inputs),
                           str(tmp_path / "outputs"), day], capture_output=True, text=True, timeout=600,
                          cwd=PACKAGE.parent)
    assert done.returncode == 0, done.stderr
    assert int(done.stdout.split()[-1]) > 0  # the files it wrote, counted as measure.py reports them
    page = (tmp_path / "outputs" / "verification.html").read_text(encoding="utf-8")
    assert f'<p class="subtitle">{said} · aucun problème</p>' in page  # the day the whole command worked as of


# What reads the machine's clock, by the name it is reached through (`dt.date.today`, `date.today`,
# `datetime.now`, `time.localtime`): called, or passed along uncalled (a default argument, a
# callback), or imported by name (`from time import time`). `datetime.now().year` is a day too.
CLOCK_READERS = {"date": {"today"}, "datetime": {"today", "now", "utcnow"},
                 "time": {"time", "time_ns", "localtime", "gmtime", "ctime", "asctime", "strftime"}}

# Moments, not days: what these modules read of the real clock is a moment recorded or compared
# (clock.py's docstring, architecture.md), never a day taken from it in the module
# (`test_no_module_takes_a_day_from_the_real_clock`). Each says why; one that no longer reads it
# leaves the list. A moment read back as a day elsewhere (an archived version's: the day
# site_archive.py scores that copy as of) is `clock.moment()`, on the day REPORTGEN_TODAY names.
REAL_CLOCK = {
    ("delivery/send.py", "datetime.now"): "when a message went out or was said received: the send log, the mail's Date",
    ("delivery/remind.py", "datetime.now"): "when a reminder went out: the send log, the mail's Date",
    ("delivery/inbox_answers.py", "datetime.now"): "when an answer went out: the send log, the mail's Date",
    ("delivery/inbox_run.py", "datetime.now"): "when a message was recorded in the inbox's database",
    ("render/scratch.py", "time.time"): "the age of a leftover scratch folder, against its mtime",
}


def clock_reading(node: ast.AST) -> str | None:
    """`owner.name` when `node` reaches a reader of the machine's clock (CLOCK_READERS), else None.
    `clock.today` is none: it is the one source of the day."""
    if isinstance(node, ast.ImportFrom) and node.module in CLOCK_READERS:
        return next((f"{node.module}.{alias.name}" for alias in node.names
                     if alias.name in CLOCK_READERS[node.module]), None)
    if not isinstance(node, ast.Attribute):
        return None
    owner = node.value
    owner_name = owner.attr if isinstance(owner, ast.Attribute) else owner.id if isinstance(owner, ast.Name) else None
    return f"{owner_name}.{node.attr}" if node.attr in CLOCK_READERS.get(owner_name or "", ()) else None


def clock_readings(source: str) -> list[tuple[int, str]]:
    return sorted((node.lineno, found) for node in ast.walk(ast.parse(source)) if (found := clock_reading(node)))


DAY_PARTS = {"date", "year", "month", "day", "weekday", "isoweekday", "isocalendar", "toordinal", "timetuple"}


def days_taken(source: str) -> list[tuple[int, str]]:
    """Each day taken from a clock reading in one expression (`datetime.now(utc).date()`,
    `datetime.now().astimezone(tz).year`): the chain of calls and attributes under `.date`, `.year`…
    reaches a reader; its arguments are not followed (`fromisoformat(x).date()` is no reading)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Attribute) and node.attr in DAY_PARTS:
            link: ast.AST = node.value
            while isinstance(link, ast.Call | ast.Attribute):
                if (reader := clock_reading(link)) is not None:
                    found.append((node.lineno, f"{reader}().{node.attr}"))
                    break
                link = link.func if isinstance(link, ast.Call) else link.value
    return sorted(found)


def test_the_scan_finds_each_way_of_reading_the_day():
    """Called or not, through the module or the class imported: what the scan below must see."""
    source = """
import datetime as dt, time
from datetime import date, datetime
from time import localtime
a = dt.date.today()
b = date.today
c = datetime.now().year
def build(today=datetime.today): ...
d = dt.datetime.utcnow()
e = dt.date.fromtimestamp(time.time())
f = time.localtime().tm_year
g = clock.today(), reading.today, self.today, dt.date.fromisoformat("2026-12-07"), time.monotonic()
"""
    assert clock_readings(source) == [(4, "time.localtime"), (5, "date.today"), (6, "date.today"), (7, "datetime.now"),
                                      (8, "datetime.today"), (9, "datetime.utcnow"), (10, "time.time"),
                                      (11, "time.localtime")]


def test_every_module_reads_the_day_from_the_clock():
    """One source of today: a module reading the machine's clock itself would ignore REPORTGEN_TODAY
    (the tests' pinned day, a rebuild as of a past day); only the moments of REAL_CLOCK read it."""
    found = {(path.relative_to(PACKAGE).as_posix(), reader, line) for path in sorted(PACKAGE.rglob("*.py"))
             if path != PACKAGE / "clock.py" for line, reader in clock_readings(path.read_text(encoding="utf-8"))}
    assert sorted((module, reader, line) for module, reader, line in found if (module, reader) not in REAL_CLOCK) == []
    assert {(module, reader) for module, reader, _ in found} == set(REAL_CLOCK)  # none left that reads nothing


def test_no_module_takes_a_day_from_the_real_clock():
    """The modules of REAL_CLOCK read moments: a day taken there from the machine's clock
    (`datetime.now(utc).date()` in remind.py, which computes the days reminders are due) would pass
    the scan by module above, and ignore REPORTGEN_TODAY."""
    sample = """
a = dt.datetime.now(dt.timezone.utc).date()
b = datetime.now().astimezone(tz).year
c = dt.datetime.fromisoformat(text).date(), moment.date(), clock.today().year
"""
    assert days_taken(sample) == [(2, "datetime.now().date"), (3, "datetime.now().year")]
    found = [(path.relative_to(PACKAGE).as_posix(), line, taken) for path in sorted(PACKAGE.rglob("*.py"))
             if path != PACKAGE / "clock.py" for line, taken in days_taken(path.read_text(encoding="utf-8"))]
    assert found == []
