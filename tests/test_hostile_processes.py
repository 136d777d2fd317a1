"""Interrupting reportgen (issue 13): Ctrl-C stops at once with one French line and exit code 130,
no worker traceback and no worker left; a parent killed with SIGKILL takes its workers with it.
And settings of the wrong shape are located problems, not internal errors. Real processes."""

from __future__ import annotations

import html
import os
import random
import selectors
import signal
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import pytest

from reportgen import french
from reportgen.ingest import reading_pool
from tests.builders import small_league, write_tournament
from tests.test_hostile_files import published, refused, snapshot

REPORTGEN = str(Path(sys.executable).parent / "reportgen")
INTERRUPTED = "interrompu (Ctrl-C) : rien n’a été publié à moitié ; relancez la commande pour reprendre."


def children(pid: int) -> list[int]:
    """The live processes whose parent is `pid` (zombies are dead)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            fields = stat.rsplit(")", 1)[1].split()
            if int(fields[1]) == pid and fields[0] != "Z":
                found.append(int(entry.name))
    return found


def alive(pid: int) -> bool:
    try:
        fields = (Path("/proc") / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return False
    return fields[0] != "Z"


def still_alive(pids: list[int], within: float) -> list[int]:
    """Those of `pids` still alive `within` seconds from now: a process that exits takes a moment to
    be reaped, longer when the other core runs the rest of the suite (pytest-xdist); the wait ends
    as soon as all are gone. `within` stays below what the workers would take to finish their work."""
    deadline = time.monotonic() + within
    while [pid for pid in pids if alive(pid)] and time.monotonic() < deadline:
        time.sleep(0.05)
    return [pid for pid in pids if alive(pid)]


def command_line(pid: int) -> bytes:
    try:
        return (Path("/proc") / str(pid) / "cmdline").read_bytes()
    except OSError:
        return b""


def reading_workers_of(pid: int) -> list[int]:
    """Its reading workers, forked (its own command line) or spawned (`spawn_main` in theirs)."""
    own = command_line(pid)
    return [child for child in children(pid) if command_line(child) == own or b"spawn_main" in command_line(child)]


def pdf_workers_of(pid: int) -> list[int]:
    """Its PDF workers, forked by its fork server."""
    return [worker for child in children(pid) if b"multiprocessing.forkserver" in command_line(child)
            for worker in children(child)]


@pytest.fixture
def rendering(tmp_path):
    """`reportgen build` of a league, in a session of its own (as a terminal's foreground job),
    stopped once its two PDF workers are busy: (process, its stderr so far, its workers: the PDF
    workers and the two reading workers, forked since the league is over 1 MB). A tournament of
    300 players makes PDFs that take seconds to render, so that the workers are still at it when
    the test stops them."""
    inputs = small_league(tmp_path / "inputs")
    big = write_tournament(inputs, "2026-03-07-albi", day="07/03/2026", club="ALBI",
                           results=[[place, f"JOUEUR{place}", "Test", "", "Albi"] for place in range(1, 301)])
    with zipfile.ZipFile(big, "a") as package:  # a picture no reader reads: the league is over IN_PROCESS_BYTES
        package.writestr("xl/media/image1.png", random.Random(0).randbytes(reading_pool.IN_PROCESS_BYTES))
    process = subprocess.Popen([REPORTGEN, "build", "--inputs", inputs, "--outputs", tmp_path / "outputs"],
                               stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, cwd=tmp_path,
                               start_new_session=True)
    assert process.stderr is not None
    said = b""
    selector = selectors.DefaultSelector()
    selector.register(process.stderr, selectors.EVENT_READ)
    deadline = time.monotonic() + 120
    # The PDF workers frozen as soon as they exist, until the build says it has PDFs to make: they
    # cannot finish them first, however much the build does before it says so.
    while len(pdf_workers_of(process.pid)) < 2 and time.monotonic() < deadline:
        time.sleep(0.01)
    workers = pdf_workers_of(process.pid)
    assert len(workers) == 2, workers
    for worker in workers:
        os.kill(worker, signal.SIGSTOP)
    while b"PDF \xc3\xa0 produire" not in said and time.monotonic() < deadline:
        if selector.select(timeout=1):
            said += os.read(process.stderr.fileno(), 65536)
    assert b"PDF \xc3\xa0 produire" in said, said
    readers = reading_workers_of(process.pid)
    assert len(readers) == 2 and all(command_line(pid) == command_line(process.pid) for pid in readers), readers
    for worker in workers:
        os.kill(worker, signal.SIGCONT)  # rendering again, their PDFs seconds from done
    workers += readers
    yield process, said, workers
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()


@pytest.mark.parametrize("to_the_group", [True, False], ids=["terminal", "parent-only"])
def test_ctrl_c_stops_at_once_with_one_french_line(rendering, tmp_path, to_the_group):
    """A terminal's Ctrl-C reaches every process of the job; `kill -INT` only the parent.

    « At once » without a stopwatch: the PDF workers are frozen (SIGSTOP) before the Ctrl-C, so
    they can never finish their queue on their own; a build that waited for them would never end
    (the timeouts below only keep such a failure from hanging the suite), one that stops at once
    kills them (SIGKILL reaches a stopped process)."""
    process, said, workers = rendering
    for worker in pdf_workers_of(process.pid):
        os.kill(worker, signal.SIGSTOP)
    if to_the_group:
        os.killpg(process.pid, signal.SIGINT)
    else:
        os.kill(process.pid, signal.SIGINT)
    _, rest = process.communicate(timeout=60)
    lines = (said + rest).decode("utf-8").splitlines()
    assert process.returncode == 130
    assert lines[-1] == INTERRUPTED
    assert lines.count(INTERRUPTED) == 1 and not [line for line in lines if "Traceback" in line
                                                  or "KeyboardInterrupt" in line or "Aborted" in line]
    assert not still_alive(workers, within=30)  # frozen, they die only if the build kills them
    outputs = tmp_path / "outputs"
    assert not [p for p in outputs.rglob("*") if p.is_file()]  # interrupted before publishing: nothing


def test_workers_die_with_a_parent_killed_with_sigkill(rendering):
    process, _, workers = rendering
    os.kill(process.pid, signal.SIGKILL)
    process.wait()
    assert not still_alive(workers, within=20)  # not 60 s of rendering for nobody


# -- settings of the wrong shape ------------------------------------------------------------------

@pytest.mark.parametrize("settings, expected", [
    ('circuits = ["grand-sud"]\n',
     "reportgen.toml, table [circuits] : « circuits » doit être une table, pas « [\"grand-sud\"] » (ligne 1) — écrivez "
     "[circuits] seul sur sa ligne, puis ses réglages en dessous, un par ligne"),
    ('[circuits.grand-sud]\nmin_counted_results = "beaucoup"\n',
     "reportgen.toml, table [circuits.grand-sud], réglage « min_counted_results » : « \"beaucoup\" » n’est pas un nombre entier (ligne 2) "
     "— écrivez un nombre entier, par exemple min_counted_results = 1"),
], ids=["circuits-list", "text-for-a-number"])
def test_settings_of_the_wrong_shape_are_located_problems(small_league_copy, tmp_path, settings, expected):
    settings_file = small_league_copy.inputs / "reportgen.toml"
    assert refused(small_league_copy, "reportgen.toml", settings.encode()) == [expected]
    before = snapshot(small_league_copy.outputs)
    done = subprocess.run([REPORTGEN, "build", "--inputs", small_league_copy.inputs, "--outputs",
                           small_league_copy.outputs], capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert done.returncode == 1, done.stderr
    assert f"  - {expected}" in done.stderr.splitlines() and "erreur interne" not in done.stderr
    # Nothing new published; the secretary's page says the problem (the build writes it, as check does).
    after = snapshot(small_league_copy.outputs)
    assert published(after) == published(before)
    message = expected.split(" : ", 1)[1].split(" (ligne")[0]
    assert french.typography(message) in html.unescape(after["verification.html"].decode("utf-8"))  # its no-break spaces
    assert settings_file.exists()
