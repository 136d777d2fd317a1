"""A machine where the PDF workers' fork server cannot start (render/pdf.py `_pool`): its socket is
a file of the temporary folder, and a TMPDIR deep in the tree makes that path longer than AF_UNIX
allows. The build then renders its PDFs in its own process, the same bytes, instead of stopping
with « erreur interne » (what it did before). And neither way leaves WeasyPrint's copies of the
fonts in the temporary folder (a worker left one, about 1 MB, at each build)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from tests.test_hostile_publish import new_tournament

REPORTGEN = str(Path(sys.executable).parent / "reportgen")


def build(league: Path, temporary: Path) -> subprocess.CompletedProcess[str]:
    """`reportgen build` of `league` (its inputs/ and outputs/), TMPDIR `temporary`, as `make` runs it."""
    return subprocess.run([REPORTGEN, "build", "--inputs", league / "inputs", "--outputs", league / "outputs",
                           "--archive", league / "archive"], capture_output=True, text=True, cwd=league,
                          env={**os.environ, "TMPDIR": str(temporary)}, timeout=600)


def pdfs(outputs: Path) -> dict[str, bytes]:
    return {path.relative_to(outputs).as_posix(): path.read_bytes() for path in sorted(outputs.rglob("*.pdf"))}


def test_a_temporary_folder_too_deep_for_a_socket_renders_the_pdfs_in_the_build(small_league_built, tmp_path):
    leagues = {}
    for name in ("deep", "short"):  # the same league with one new tournament, twice
        league = leagues[name] = tmp_path / name
        for folder in ("inputs", "outputs"):
            shutil.copytree(getattr(small_league_built, folder), league / folder)
        new_tournament(league / "inputs")
    deep = tmp_path / ("t" * 60) / ("m" * 60)
    deep.mkdir(parents=True)
    before = pdfs(leagues["deep"] / "outputs")
    assert len(str(deep)) > 107  # longer than an AF_UNIX socket's path may be

    done = build(leagues["deep"], deep)
    assert done.returncode == 0, done.stderr
    assert "erreur interne" not in done.stderr
    rendered = pdfs(leagues["deep"] / "outputs")
    assert [path for path in rendered if rendered[path] != before.get(path)]  # the new tournament's PDFs
    short = tmp_path / "tmp"
    short.mkdir()
    assert build(leagues["short"], short).returncode == 0
    assert rendered == pdfs(leagues["short"] / "outputs")  # the same bytes as the pool's
    # nor WeasyPrint's copies of the fonts, in the build's process or in a PDF worker (render_pdf)
    assert not list(deep.iterdir()) and not list(short.iterdir())
