"""A build's private temporary folders (render/scratch.py: the site's view, the PDF spool) are not
left behind by a build killed with SIGKILL: the next build removes them, and never those of a build
still running nor an older reportgen's. Each test has a system temporary folder of its own (TMPDIR,
or `tempfile.tempdir` in this process), so that other builds of the machine are not in the way."""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from reportgen.render import scratch
from reportgen.render.scratch import Scratch
from tests.builders import small_league, write_tournament

REPORTGEN = str(Path(sys.executable).parent / "reportgen")
ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def temporary(tmp_path, monkeypatch) -> Path:
    folder = tmp_path / "tmp"
    folder.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(folder))
    return folder


def left_in(folder: Path) -> list[str]:
    """The names of the build's folders in `folder`, hidden drafts included, the random part cut."""
    return sorted(path.name.lstrip(".").rpartition("-")[0] for path in folder.iterdir()
                  if path.name.lstrip(".").startswith(scratch.PREFIX))


def test_a_folder_is_swept_once_the_process_holding_it_is_killed_and_not_before(temporary):
    holder = subprocess.Popen(
        [sys.executable, "-c", "import sys, time\nfrom reportgen.render.scratch import Scratch\n"
                               "print(Scratch('pdf').folder, flush=True)\ntime.sleep(120)"],
        stdout=subprocess.PIPE, text=True, env={**os.environ, "TMPDIR": str(temporary)})
    try:
        assert holder.stdout is not None
        held = Path(holder.stdout.readline().strip())
        (held / "0.html").write_text("<p>en cours</p>", encoding="utf-8")
        assert held.parent == temporary and held.name.startswith("reportgen-build-pdf-")
        assert scratch.sweep() == [] and held.is_dir()  # its process runs: kept
    finally:
        holder.kill()
        holder.wait()
    assert scratch.sweep() == [held] and not held.exists()


def test_a_sweep_removes_only_the_unheld_folders_of_a_build(temporary):
    held = [Scratch("pdf"), Scratch("site-view")]
    dead = temporary / "reportgen-build-pdf-a1b2c3d4"  # no process holds it: its build is gone
    draft = temporary / ".reportgen-build-pdf-m3n4o5p6"  # its maker killed before it locked it
    for folder in (dead, draft):
        folder.mkdir()
        (folder / "0.html").write_text("<p>abandonné</p>", encoding="utf-8")
    others = [temporary / "reportgen-pdf-i9j0k1l2",  # an older reportgen's, unlocked, perhaps running
              temporary / "reportgen-site-view-q7r8s9t0",
              temporary / "reportgen-pdf-notmkdtemp",  # not a name mkdtemp gave
              temporary / "pymp-u1v2w3x4"]  # another program's multiprocessing
    for folder in others:
        folder.mkdir()
    assert sorted(scratch.sweep()) == sorted([dead, draft]) and not dead.exists() and not draft.exists()
    assert all(one.folder.is_dir() for one in held) and all(f.is_dir() for f in others)
    for one in held:
        one.discard()
        assert not one.folder.exists()
    assert sorted(temporary.iterdir()) == sorted(others)


def test_an_older_reportgens_unlocked_folders_are_swept_once_a_day_old(temporary):
    """No lock says whether an older reportgen's build still uses them: a day unchanged says it."""
    old = [temporary / "reportgen-pdf-i9j0k1l2", temporary / "reportgen-site-view-q7r8s9t0",
           temporary / "reportgen-inputs-x1y2z3_4"]
    recent = temporary / "reportgen-pdf-a1b2c3d4"
    for folder in [*old, recent]:
        folder.mkdir()
        (folder / "0.html").write_text("<p>ancien</p>", encoding="utf-8")
    a_day_ago = time.time() - scratch.LEGACY_AGE - 60
    for folder in old:
        os.utime(folder, (a_day_ago, a_day_ago))
    assert sorted(scratch.sweep()) == sorted(old)
    assert list(temporary.iterdir()) == [recent]


def test_a_sweep_never_takes_a_folder_being_made(tmp_path):
    """A sweep may find a draft between its making and its locking: its maker makes another. A
    process makes folders, writes in each and discards it, as fast as it can, while this one sweeps
    the same temporary folder as fast as it can: the maker never finds its folder gone."""
    temporary = tmp_path / "tmp"
    temporary.mkdir()
    maker = subprocess.Popen(
        [sys.executable, "-c",
         "import time\nfrom reportgen.render.scratch import Scratch\nend = time.monotonic() + 3\n"
         "made = 0\nwhile time.monotonic() < end:\n"
         "    one = Scratch('pdf')\n    (one.folder / '0.html').write_text('x')\n"
         "    assert (one.folder / '0.html').read_text() == 'x'\n    one.discard()\n    made += 1\n"
         "print(made)"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env={**os.environ, "TMPDIR": str(temporary)})
    previous, tempfile.tempdir = tempfile.tempdir, str(temporary)
    try:
        swept = 0
        while maker.poll() is None:
            swept += len(scratch.sweep())
    finally:
        tempfile.tempdir = previous
    out, said = maker.communicate()
    assert maker.returncode == 0, said
    assert int(out) > 100 and list(temporary.iterdir()) == []


def test_make_clean_sweeps_what_killed_builds_left_and_nothing_held(tmp_path, temporary):
    work = tmp_path / "work"
    work.mkdir()
    shutil.copy(ROOT / "Makefile", work / "Makefile")
    (work / ".venv").symlink_to(Path(sys.executable).parent.parent)
    dead = [temporary / "reportgen-build-pdf-a1b2c3d4", temporary / ".reportgen-build-process-e5f6g7h8"]
    for folder in dead:
        folder.mkdir()
    held = Scratch("site-view")
    try:
        done = subprocess.run(["make", "clean"], cwd=work, capture_output=True, text=True, timeout=60,
                              env={**os.environ, "TMPDIR": str(temporary)})
        assert done.returncode == 0, done.stderr
        assert list(temporary.iterdir()) == [held.folder]
    finally:
        held.discard()


def slow_build(tmp_path: Path, temporary: Path, name: str) -> tuple[list, dict, subprocess.Popen]:
    """A real `reportgen build` of a league whose new tournament has 300 players (its PDFs take
    seconds), started in a session of its own (so that its fork server and PDF workers can be
    signalled with it), once its PDF spool is in `temporary`: its command, environment and process."""
    inputs = small_league(tmp_path / name / "inputs")
    write_tournament(inputs, "2026-03-07-albi", day="07/03/2026", club="ALBI",
                     results=[[place, f"JOUEUR{place}", "Test", "", "Albi"] for place in range(1, 301)])
    command = [REPORTGEN, "build", "--inputs", inputs, "--outputs", tmp_path / name / "outputs"]
    environment = {**os.environ, "TMPDIR": str(temporary)}
    build = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=tmp_path,
                             env=environment, start_new_session=True)
    deadline = time.monotonic() + 180
    while "reportgen-build-pdf" not in left_in(temporary) and build.poll() is None \
            and time.monotonic() < deadline:
        time.sleep(0.005)
    if build.poll() is not None or "reportgen-build-pdf" not in left_in(temporary):
        os.killpg(build.pid, signal.SIGKILL)
        _, said = build.communicate()
        pytest.fail(f"the build ended ({build.returncode}) before its PDFs rendered: {said.decode()}")
    return command, environment, build


@pytest.fixture
def short_temporary():
    """A short system temporary folder: multiprocessing's fork server puts its socket there, and an
    AF_UNIX path is at most 107 bytes (pytest-xdist's tmp_path, /tmp/pytest-of-root/pytest-N/popen-gwN/
    <test>, is too long)."""
    temporary = Path(tempfile.mkdtemp(prefix="rg-"))
    yield temporary
    shutil.rmtree(temporary, ignore_errors=True)


def multiprocessings(folder: Path) -> list[Path]:
    """multiprocessing's own temporary folders (`pymp-…`) in `folder` or one level down."""
    return [*folder.glob("pymp-*"), *folder.glob("*/pymp-*")]


def test_what_a_build_killed_with_sigkill_left_in_the_temporary_folder_is_removed_by_the_next(
        tmp_path, short_temporary):
    """Killed while its PDFs render, it leaves its PDF spool (and its site's view, if it was making
    the pages then, and the fonts' folder of the PDF it was rendering) and multiprocessing's folder
    of its fork server, in its own; nothing at all once the next build ran. The test waits for the
    spool, not the view: the view lives only while the pages are made, a moment a loaded machine's
    polling can miss (Scratch itself is killed with either: the first test)."""
    temporary = short_temporary
    command, environment, build = slow_build(tmp_path, temporary, "league")
    os.killpg(build.pid, signal.SIGKILL)  # the build, its fork server and its PDF workers
    build.communicate()
    left = left_in(temporary)
    kinds = {"reportgen-build-pdf", "reportgen-build-site-view", "reportgen-build-fonts",  # fonts: render_pdf's
             "reportgen-build-process"}
    assert "reportgen-build-pdf" in left and "reportgen-build-process" in left and set(left) <= kinds
    pymp = multiprocessings(temporary)
    assert len(pymp) == 1 and pymp[0].parent.name.startswith("reportgen-build-process-")
    after = subprocess.run(command, capture_output=True, text=True, cwd=tmp_path, env=environment, timeout=600)
    assert after.returncode == 0, after.stderr
    assert list(temporary.iterdir()) == []  # its own folders too, multiprocessing's among them


def stopped(group: int, timeout: float = 30.0) -> None:
    """Wait until every process of the process group `group` is still: stopped, ended, or waiting for
    a stopped child it made with vfork (SIGSTOP is delivered asynchronously: `killpg` returns while a
    process on the other core may still run a moment, CI's failure of the thirty-second round's first
    run, a folder removed after it was listed)."""
    deadline = time.monotonic() + timeout
    while True:
        processes = {}  # pid: (state, ppid)
        for entry in Path("/proc").iterdir():
            try:
                fields = (entry / "stat").read_text().rpartition(")")[2].split()
            except (OSError, ValueError):
                continue  # not a process, or one that ended
            if len(fields) > 2 and fields[2] == str(group):  # state, ppid, pgrp
                processes[entry.name] = (fields[0], fields[1])
        stopped_parents = {ppid for state, ppid in processes.values() if state in "tT"}
        # A process in uninterruptible sleep (D) with a stopped child is a vfork's parent (Python's
        # subprocess spawns with vfork: a PDF worker importing WeasyPrint runs gcc) caught before the
        # child's exec: it waits, unable to run, until the child execs or ends (CI, 6 December).
        if processes and all(state in "tTZX" or (state == "D" and pid in stopped_parents)
                             for pid, (state, _) in processes.items()):
            return
        assert time.monotonic() < deadline, f"the build's processes not stopped: {processes}"
        time.sleep(0.01)


def test_a_build_never_sweeps_the_folders_of_a_build_running_beside_it(tmp_path, short_temporary):
    """Two builds side by side in one temporary folder: the first is held still (SIGSTOP, its whole
    session) while its PDFs render, the second runs whole meanwhile; the first's folders are all
    there when it goes on, and it publishes its PDFs. Neither leaves anything behind.

    All but a hidden draft (`.reportgen-build-…`): a process stopped between making a folder and
    locking it leaves it unlocked, which the second build's sweep may take; its maker then makes
    another (render/scratch.py, `Scratch.__init__`), so the first build still publishes. The first
    build makes its site's view as its PDFs start, the moment it is stopped: CI's run of 7 December
    found a folder listed then gone, most likely such a draft (the assertion did not say which)."""
    temporary = short_temporary
    _, environment, first = slow_build(tmp_path, temporary, "first")
    os.killpg(first.pid, signal.SIGSTOP)
    try:
        stopped(first.pid)  # every process of the session still: none removes a folder after the listing
        held = sorted(path for path in temporary.iterdir())
        pymp = multiprocessings(temporary)
        assert len(pymp) == 1
        second = subprocess.run(
            [REPORTGEN, "build", "--inputs", small_league(tmp_path / "second" / "inputs"),
             "--outputs", tmp_path / "second" / "outputs"],
            capture_output=True, text=True, cwd=tmp_path, env=environment, timeout=600)
        assert second.returncode == 0, second.stderr
        gone = [path for path in held if not path.exists()]
        assert [path for path in gone if not path.name.startswith(f".{scratch.PREFIX}")] == [] and pymp[0].is_dir()
        # the second's own are gone
        assert sorted(path for path in temporary.iterdir()) == [path for path in held if path not in gone]
    finally:
        os.killpg(first.pid, signal.SIGCONT)
    _, said = first.communicate(timeout=600)
    assert first.returncode == 0, said.decode()
    assert list((tmp_path / "first" / "outputs" / "grand-sud").rglob("classement-2026-03-07.pdf"))
    assert list(temporary.iterdir()) == []


def swept(temporary: Path) -> list[Path]:
    """`scratch.sweep` of the temporary folder `temporary`."""
    previous, tempfile.tempdir = tempfile.tempdir, str(temporary)
    try:
        return scratch.sweep()
    finally:
        tempfile.tempdir = previous


def test_the_fork_server_imports_weasyprint_without_running_a_compiler(tmp_path, short_temporary):
    """WeasyPrint's import asks `ctypes.util.find_library` for each library under its Windows and
    macOS names first; each name the library cache did not list sent it on to gcc and ld, 70 programs
    and 0.19 s before the first PDF could start, with temporary files that a kill left in /tmp (CI,
    3 December). WeasyPrint names each library by its Linux file name too, which dlopen opens itself:
    with find_library finding nothing during the import (render/libraries.py), the fork server runs
    no program, and the PDFs are the same bytes as WeasyPrint imported the usual way."""
    trace = tmp_path / "programs"
    page = ("<!doctype html><html lang='fr'><head><meta charset='utf-8'><title>t</title></head>"
            "<body><p>Classement à date</p></body></html>")
    script = ("import sys\nfrom reportgen.render import pdf\n"
              f"sys.stdout.buffer.write(b''.join(pdf.render_many([({page!r}, pdf.EPOCH_DAY)] * 2, workers=2)))\n")
    environment = {**os.environ, "TMPDIR": str(short_temporary)}
    quick = subprocess.run(["strace", "-f", "-qq", "-e", "trace=execve", "-o", str(trace), sys.executable, "-c", script],
                           capture_output=True, env=environment, timeout=120)
    assert quick.returncode == 0, quick.stderr.decode()[-2000:]
    programs = {Path(found).name for found in re.findall(r'execve\("([^"]+)"', trace.read_text())}
    # no compiler nor linker; ldconfig is a worker's one lookup of the C library (render/memory.py)
    assert programs <= {Path(sys.executable).name, "ldconfig"}, programs
    usual = subprocess.run([sys.executable, "-c", "import weasyprint\n" + script], capture_output=True,
                           env=environment, timeout=120)  # imported before: as WeasyPrint does it
    assert usual.returncode == 0 and usual.stdout == quick.stdout and quick.stdout.count(b"%PDF-") == 2
    assert list(short_temporary.iterdir()) == []


def test_an_environment_variable_is_set_for_the_block_and_then_as_it_was(monkeypatch):
    monkeypatch.setenv("REPORTGEN_TEST_VARIABLE", "before")
    with scratch.environment("REPORTGEN_TEST_VARIABLE", "during"):
        assert os.environ["REPORTGEN_TEST_VARIABLE"] == "during"
    assert os.environ["REPORTGEN_TEST_VARIABLE"] == "before"
    monkeypatch.delenv("REPORTGEN_TEST_VARIABLE")
    with pytest.raises(RuntimeError), scratch.environment("REPORTGEN_TEST_VARIABLE", "during"):
        raise RuntimeError("the block fails")
    assert "REPORTGEN_TEST_VARIABLE" not in os.environ  # unset again, as it was
