"""The players' pages made by a worker process on the second core while the build's process makes
them too (site/pages_aside.py): the same site, the same pages' records; a worker only when the second
core is free and many pages are to be made; a worker that fails, cannot start or cannot read the
site's data leaves its pages to the build's process; the pages stopped, the worker is killed."""

from __future__ import annotations

import dataclasses
import datetime as dt
import html
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from reportgen import circuits, pipeline
from reportgen.ingest.reading_pool import SideWorker
from reportgen.site import pages_aside
from reportgen.site.pages import FOLDER, Site
from reportgen.site.reuse import Pages
from tests.test_site_cards_ahead import alive
from tests.test_site_og import meta


def league_of(outputs: Path) -> str:
    return html.unescape(meta((outputs / "index.html").read_bytes(), "og:site_name"))


@pytest.fixture
def workers(monkeypatch) -> list[pages_aside.PlayersPages]:
    """Every players' pages worker a test's sites start (`PAGES` at 1: the small league's few pages
    are enough), its sharer kept to look at once the pages are made."""
    monkeypatch.setattr(pages_aside, "PAGES", 1)
    started: list[pages_aside.PlayersPages] = []
    real_init = pages_aside.PlayersPages.__init__

    def init(self: pages_aside.PlayersPages, *args: object) -> None:
        started.append(self)
        real_init(self, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(pages_aside.PlayersPages, "__init__", init)
    return started


@pytest.fixture
def slow_here(monkeypatch) -> None:
    """Each page the build's process makes itself takes 20 ms more: the worker, started with the
    pages, has time to read the site's data and make some of the small league's few."""
    real_here = pages_aside.PlayersPages._here

    def here(self: pages_aside.PlayersPages, path: str, item: str) -> bytes:
        time.sleep(0.02)
        return real_here(self, path, item)

    monkeypatch.setattr(pages_aside.PlayersPages, "_here", here)


def site_of(outputs: Path, aside: bool, reuse: Pages | None = None) -> dict[str, bytes]:
    return Site(outputs, list(circuits.CIRCUITS), league_of(outputs), draw_aside=aside, reuse=reuse).pages()


def players_pages(site: dict[str, bytes]) -> set[str]:
    return {path for path in site if path.startswith(f"{FOLDER}/joueur-")}


def test_a_site_whose_players_pages_a_worker_makes_is_the_same_site(small_league_copy, workers, slow_here):
    outputs = small_league_copy.outputs
    aside = site_of(outputs, aside=True)
    (sharer,) = workers
    assert sharer.worker is None  # killed once its pages were back
    players = players_pages(aside)
    assert len(players) > 5 and sharer.made_here < len(players)  # the worker made the others
    assert aside == site_of(outputs, aside=False)


def test_the_pages_records_are_those_of_a_site_made_here(small_league_copy, workers):
    """A build records each page's key and hash (site/reuse.py): those made by the worker too, so that
    the next build takes them; the same records as without a worker."""
    outputs = small_league_copy.outputs
    (outputs / ".reportgen" / "pages").unlink()  # every page to make
    with_worker, without = Pages(outputs), Pages(outputs)
    assert site_of(outputs, aside=True, reuse=with_worker) == site_of(outputs, aside=False, reuse=without)
    assert workers and with_worker.records == without.records
    assert sorted(with_worker.rendered) == sorted(without.rendered)
    assert players_pages(dict.fromkeys(with_worker.records)) <= set(with_worker.rendered)


def test_pages_taken_from_the_last_build_never_go_to_the_worker(small_league_copy, monkeypatch):
    """A rebuild with nothing changed: every player's page is taken from disk (its record's key and
    hash), so no worker is started, however few pages start one."""
    outputs = small_league_copy.outputs
    monkeypatch.setattr(pages_aside, "PAGES", 1)
    monkeypatch.setattr(pages_aside, "_start", lambda data: pytest.fail("a worker was started"))
    made = Pages(outputs)
    assert made.previous  # the build recorded its pages
    site_of(outputs, aside=True, reuse=made)
    assert not players_pages(dict.fromkeys(made.rendered))


def test_no_worker_for_a_few_pages_nor_while_the_second_core_renders_pdfs(small_league_copy, monkeypatch):
    outputs = small_league_copy.outputs
    monkeypatch.setattr(pages_aside, "_start", lambda data: pytest.fail("a worker was started"))
    site_of(outputs, aside=True)  # fewer than `PAGES` to make
    monkeypatch.setattr(pages_aside, "PAGES", 1)
    site_of(outputs, aside=False)  # the build says the second core renders PDFs


def killed_at_start(real: Callable[[pages_aside.Data], SideWorker | None]) -> Callable[[pages_aside.Data], SideWorker | None]:
    def start(data: pages_aside.Data) -> SideWorker | None:
        worker = real(data)
        assert worker is not None
        worker.process.kill()
        worker.process.join(5)
        return worker
    return start


def test_a_lost_worker_leaves_its_pages_to_the_build_made_one_at_a_time(small_league_copy, workers, monkeypatch):
    """Each page left is made as it is given, never all at once (at 100x, 17,000 pages held)."""
    outputs = small_league_copy.outputs
    monkeypatch.setattr(pages_aside, "_start", killed_at_start(pages_aside._start))
    held: list[int] = []  # the pages made and not given yet, as each is made here
    real_make = pages_aside.PlayersPages._make_here

    def make_here(self: pages_aside.PlayersPages, path: str, item: str) -> None:
        held.append(len(self.done))
        real_make(self, path, item)

    monkeypatch.setattr(pages_aside.PlayersPages, "_make_here", make_here)
    aside = site_of(outputs, aside=True)
    (sharer,) = workers
    assert sharer.made_here == len(players_pages(aside)) and not sharer.aside  # no second worker
    assert held and max(held) == 0
    assert aside == site_of(outputs, aside=False)


def test_a_worker_that_cannot_start_leaves_its_pages_to_the_build(small_league_copy, workers, monkeypatch):
    """Made in turn by the build's process, as without a worker."""
    outputs = small_league_copy.outputs
    monkeypatch.setattr(pages_aside, "_start", lambda data: None)
    aside = site_of(outputs, aside=True)
    (sharer,) = workers
    assert not sharer.aside and sharer.made_here == 0 and not sharer.queued
    assert aside == site_of(outputs, aside=False)


def test_a_worker_that_cannot_read_the_sites_data_answers_none_and_the_build_makes_each_page(
        small_league_copy, workers, monkeypatch, tmp_path):
    """Its data gone (here, a folder that holds no site): it answers None for each page, which the
    build's process makes itself, where an error would show."""
    outputs = small_league_copy.outputs
    real_start = pages_aside._start
    monkeypatch.setattr(pages_aside, "_start", lambda data: real_start(
        dataclasses.replace(data, folder=str(tmp_path / "nothing"))))
    aside = site_of(outputs, aside=True)
    (sharer,) = workers
    assert sharer.made_here == len(players_pages(aside))
    assert aside == site_of(outputs, aside=False)


def test_pages_stopped_midway_kill_the_worker(small_league_copy, workers):
    """The pages stopped (an error, Ctrl-C) while the worker makes some: it is killed, not waited for."""
    outputs = small_league_copy.outputs
    pages = Site(outputs, list(circuits.CIRCUITS), league_of(outputs), draw_aside=True).each_page()
    next(pages), next(pages)  # the home page, then the next: the worker started, the players' pages queued for it
    (sharer,) = workers
    worker = sharer.worker
    assert worker is not None and (sharer.pending or sharer.queued)
    pages.close()
    assert not worker.process.is_alive() and sharer.worker is None


def test_a_first_build_with_the_worker_is_the_build_without(new_tournament_league, tmp_path, monkeypatch, workers,
                                                             slow_here):
    """A whole build (its site made from the staged data, pipeline/site_view.py, its records saved):
    the same outputs, byte for byte, as a build whose players' pages are all made in its process."""
    inputs, outputs = new_tournament_league
    shutil.rmtree(outputs / "site")
    (outputs / ".reportgen" / "pages").unlink()  # every page to make
    without = tmp_path / "without"
    shutil.copytree(outputs, without)
    day = dt.date(2026, 12, 19)
    assert pipeline.build(inputs, outputs, day).ok
    assert workers and workers[0].made_here < len(players_pages(dict.fromkeys(
        f"{FOLDER}/{path.name}" for path in (outputs / FOLDER).iterdir())))
    monkeypatch.setattr(pages_aside, "PAGES", 10**9)
    assert pipeline.build(inputs, without, day).ok
    assert len(workers) == 1

    def files(root: Path) -> dict[str, bytes]:
        return {path.relative_to(root).as_posix(): path.read_bytes() for path in root.rglob("*")
                if path.is_file() and "state" not in path.name}

    assert files(outputs / FOLDER) == files(without / FOLDER)
    assert (outputs / "index.html").read_bytes() == (without / "index.html").read_bytes()
    assert (outputs / ".reportgen" / "pages").read_bytes() == (without / ".reportgen" / "pages").read_bytes()


def test_the_worker_ignores_ctrl_c(small_league_copy, workers, slow_here):
    """Ctrl-C reaches every process of a terminal's job: the build stops its worker itself."""
    outputs = small_league_copy.outputs
    pages = Site(outputs, list(circuits.CIRCUITS), league_of(outputs), draw_aside=True).each_page()
    made = dict([next(pages), next(pages)])
    (sharer,) = workers
    assert sharer.worker is not None
    # whenever it comes: a worker still starting has Ctrl-C blocked, then ignored (a pending one dropped)
    os.kill(sharer.worker.process.pid, signal.SIGINT)
    made.update(pages)
    assert sharer.made_here < len(players_pages(made))  # it went on making pages
    assert made == site_of(outputs, aside=False)


def test_a_build_killed_leaves_no_worker(small_league_copy):
    """kill -9 of the build's process while its worker makes pages: the worker dies with it."""
    outputs = small_league_copy.outputs
    code = ("import multiprocessing, sys, time\nfrom pathlib import Path\nfrom reportgen import circuits\n"
            "from reportgen.site import pages_aside\nfrom reportgen.site.pages import Site\n"
            "pages_aside.PAGES = 1\n"
            "pages = Site(Path(sys.argv[1]), list(circuits.CIRCUITS), 'Ligue', draw_aside=True).each_page()\n"
            "next(pages), next(pages)\n"
            "(worker,) = multiprocessing.active_children()\nprint(worker.pid, flush=True)\ntime.sleep(120)\n")
    holder = subprocess.Popen([sys.executable, "-c", code, str(outputs)], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None
        pid = int(holder.stdout.readline())
        assert alive(pid)
    finally:
        holder.kill()
        holder.wait()
    deadline = time.monotonic() + 30
    while alive(pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not alive(pid)
