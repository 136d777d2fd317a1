"""A build's private temporary folders (render/scratch.py: the site's view, the PDF spool) are not
left behind by a build killed with SIGKILL: the next build removes them, and never those of a build
still running nor an older reportgen's. Each test has a system temporary folder of its own (TMPDIR,
or `tempfile.tempdir` in this process), so that other builds of the machine are not in the way."""

from __future__ import annotations

import os
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
    dead.mkdir()
    (dead / "0.html").write_text("<p>abandonné</p>", encoding="utf-8")
    others = [temporary / "reportgen-pdf-i9j0k1l2",  # an older reportgen's, unlocked, perhaps running
              temporary / ".reportgen-build-pdf-m3n4o5p6"]  # a folder being made, not locked yet
    for folder in others:
        folder.mkdir()
    assert scratch.sweep() == [dead] and not dead.exists()
    assert all(one.folder.is_dir() for one in held) and all(f.is_dir() for f in others)
    for one in held:
        one.discard()
        assert not one.folder.exists()
    assert sorted(temporary.iterdir()) == sorted(others)


def test_what_a_build_killed_with_sigkill_left_in_the_temporary_folder_is_removed_by_the_next(tmp_path):
    """Killed while its PDFs render (seconds: a tournament of 300 players), its PDF spool left (and
    its site's view, if it was making the pages then, and the fonts' folder of the PDF it was
    rendering), none once the next build ran. The test waits
    for the spool, not the view: the view lives only while the pages are made, a moment a loaded
    machine's polling can miss (Scratch itself is killed with either: the test above)."""
    inputs = small_league(tmp_path / "inputs")
    write_tournament(inputs, "2026-03-07-albi", day="07/03/2026", club="ALBI",
                     results=[[place, f"JOUEUR{place}", "Test", "", "Albi"] for place in range(1, 301)])
    # a short one: multiprocessing's fork server puts its socket there, and an AF_UNIX path is at
    # most 107 bytes (pytest-xdist's tmp_path, /tmp/pytest-of-root/pytest-N/popen-gwN/<test>, is not)
    temporary = Path(tempfile.mkdtemp(prefix="rg-"))
    try:
        command = [REPORTGEN, "build", "--inputs", inputs, "--outputs", tmp_path / "outputs"]
        environment = {**os.environ, "TMPDIR": str(temporary)}
        said = (tmp_path / "said.txt").open("wb")
        build = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=said, cwd=tmp_path,
                                 env=environment, start_new_session=True)
        try:
            deadline = time.monotonic() + 180
            while "reportgen-build-pdf" not in left_in(temporary) and build.poll() is None \
                    and time.monotonic() < deadline:
                time.sleep(0.005)
        finally:
            ended = build.poll()
            os.killpg(build.pid, signal.SIGKILL)  # the build and its PDF workers
            build.wait()
            said.close()
        left = left_in(temporary)
        assert ended is None, f"the build ended ({ended}) before its PDFs rendered: {(tmp_path / 'said.txt').read_text()}"
        kinds = {"reportgen-build-pdf", "reportgen-build-site-view", "reportgen-build-fonts"}  # fonts: render_pdf's
        assert "reportgen-build-pdf" in left and set(left) <= kinds
        after = subprocess.run(command, capture_output=True, text=True, cwd=tmp_path, env=environment, timeout=600)
        assert after.returncode == 0, after.stderr
        assert left_in(temporary) == []
    finally:
        shutil.rmtree(temporary, ignore_errors=True)
