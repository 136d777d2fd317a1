"""The tournaments' Open Graph cards drawn ahead while the build lays its circuits out
(site/cards_ahead.py): drawn from the circuit's staged `site.json`, the same bytes as the site's pages
draw, the worker stopped as the pages begin and their cards drawn at the build's priority; a site
built with them is the site built without, and a worker lost leaves its cards to the build."""

from __future__ import annotations

import datetime as dt
import functools
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reportgen import pipeline
from reportgen.ingest.reading_pool import SideWorker
from reportgen.render import scratch
from reportgen.site import cards_ahead, data, drawing, og
from reportgen.site.pages import event_card
from reportgen.site.privacy import Public
from tests.test_site_drawing import cards, few  # noqa: F401  (a fixture)

TITLE = "Classement régional Grand Sud"


def event_cards(outputs: Path) -> dict[str, og.Card]:
    """The Grand Sud's tournaments' cards by file name, as the site's pages name them."""
    return {card.file_name(): card for card in
            (event_card("Ligue", TITLE, record, Public()) for record in data.event_records_in(outputs / "grand-sud" / data.DATA))}


@pytest.fixture
def ahead(small_league_copy, tmp_path):
    """A worker given the small league's Grand Sud `site.json`, for outputs whose site holds no card;
    its folder removed after the test."""
    outputs = tmp_path / "elsewhere"
    (outputs / "site").mkdir(parents=True)
    started = cards_ahead.CardsAhead("Ligue", Public(), outputs)
    started.give(small_league_copy.outputs / "grand-sud" / data.DATA, TITLE)
    yield started
    started.discard()
    assert started.scratch is None


HURRIED: set[int] = set()  # the workers `lowest_then_hurried` put back at the tests' priority, by pid


def lowest_then_hurried(ahead: cards_ahead.CardsAhead) -> int:
    """The scheduling policy the worker gave itself (cards_ahead._yield_to_the_build, at its start),
    then the worker put back at the tests' own: at the lowest priority, a worker on a machine whose
    cores the other tests keep busy (pytest-xdist, their builds' PDF workers) could draw nothing
    within `drawn_ahead`'s minute."""
    assert ahead.worker is not None
    pid = ahead.worker.process.pid
    HURRIED.add(pid)
    deadline = time.monotonic() + 30
    try:
        while (policy := os.sched_getscheduler(pid)) != os.SCHED_IDLE and time.monotonic() < deadline:
            time.sleep(0.01)
        os.sched_setscheduler(pid, os.sched_getscheduler(0), os.sched_param(0))
    except PermissionError:  # leaving SCHED_IDLE needs a nice limit this user may lack: waited for
        pass
    except ProcessLookupError:  # a worker already gone: what it drew is all there is
        return -1
    return policy


def drawn_ahead(ahead: cards_ahead.CardsAhead, count: int) -> set[str]:
    """The names of the cards in the worker's folder, once there are `count` of them (60 s at most),
    the worker hurried first (`lowest_then_hurried`)."""
    assert ahead.scratch is not None
    if ahead.worker is not None and ahead.worker.process.pid not in HURRIED:
        lowest_then_hurried(ahead)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        names = {path.name for path in ahead.scratch.folder.iterdir() if not path.name.startswith(".")}
        if len(names) >= count:
            return names
        time.sleep(0.05)
    return names


def test_event_records_in_gives_the_tournaments_records_read_records_reads(small_league_copy, tmp_path):
    folder = small_league_copy.outputs / "grand-sud"
    events = [record for record in data.read(folder) if record["kind"] == "event"]
    assert events and list(data.event_records_in(folder / data.DATA)) == events
    # read a few characters at a time: every record cut somewhere, decoded once the rest is read
    for chunk in (1, 7, 64, 1000):
        assert list(data.event_records_in(folder / data.DATA, chunk)) == events
    broken = tmp_path / data.DATA
    broken.write_bytes((folder / data.DATA).read_bytes()[:-40])  # cut: not laid out as written
    assert len(list(data.event_records_in(broken))) <= len(events)
    assert list(data.event_records_in(tmp_path / "missing.json")) == []
    broken.write_text('{"rankings":[[]],"scales":[]}\n', encoding="utf-8")  # a record that is no object
    assert list(data.event_records_in(broken)) == []


@settings(max_examples=60, deadline=None)
@given(st.lists(st.fixed_dictionaries({
    "kind": st.sampled_from(["event", "season"]),
    "name": st.text(st.characters(blacklist_categories=("Cs",)), max_size=12),
    "rows": st.lists(st.dictionaries(st.text(max_size=3), st.integers() | st.text(max_size=5)), max_size=3)}),
    max_size=6), st.integers(1, 50))
def test_event_records_in_reads_any_records_in_any_chunks(records, chunk):
    """Whatever the records hold (braces, quotes, escapes, any character) and wherever the chunks
    cut them: the tournaments' records, in order."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / data.DATA
        encode = functools.partial(json.dumps, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
        path.write_text('{"rankings":[' + ",".join(encode(r) for r in records) + '],"scales":[]}\n', encoding="utf-8")
        assert list(data.event_records_in(path, chunk)) == [r for r in records if r["kind"] == "event"]


@pytest.mark.usefixtures("few")
def test_the_cards_drawn_ahead_are_those_the_pages_draw_and_the_rest_are_drawn_at_the_builds_priority(
        small_league_copy, ahead):
    """The worker drawing ahead runs at the lowest priority; the pages stop it and draw what it did
    not at the build's own priority (on a busy machine a worker at the lowest priority draws next to
    nothing, and the build's process drew 4,000 cards itself at 100x)."""
    expected = event_cards(small_league_copy.outputs)
    assert lowest_then_hurried(ahead) == os.SCHED_IDLE
    assert drawn_ahead(ahead, len(expected)) == set(expected)
    for name, card in expected.items():
        assert ahead.take(name) == og.draw(card)
    assert ahead.take("og-0000000000000000.png") is None
    ahead.stop()
    asked = cards(12)
    drawer = drawing.Cards(aside=True)
    for path, card in asked.items():
        drawer.draw(path, card)
    assert drawer.worker is not None  # started once `THRESHOLD` cards were drawn here
    # the build's own policy (SCHED_OTHER, unless whoever runs the tests chose another)
    assert os.sched_getscheduler(drawer.worker.process.pid) == os.sched_getscheduler(0) != os.SCHED_IDLE
    assert dict(drawer.finish()) == {path: og.draw(card) for path, card in asked.items()}
    assert drawer.made_here < len(asked)  # the worker drew those after the first `THRESHOLD`


def test_a_stopped_worker_leaves_what_it_drew_to_be_taken(small_league_copy, ahead):
    """`stop` kills the worker at once (at the lowest priority it might wait long to read its pipe's
    end): the cards it drew are still taken, and `discard` reaps it and removes its folder."""
    expected = event_cards(small_league_copy.outputs)
    assert drawn_ahead(ahead, len(expected)) == set(expected)
    worker = ahead.worker
    assert worker is not None
    ahead.stop()
    worker.process.join(10)
    assert not worker.process.is_alive()
    assert {name: ahead.take(name) for name in expected} == {name: og.draw(card) for name, card in expected.items()}
    ahead.stop()  # again: nothing more to do
    ahead.discard()
    assert ahead.worker is None and ahead.scratch is None


def test_an_earlier_builds_cards_are_not_drawn_ahead(small_league_copy, tmp_path):
    """outputs/site/ holds every card already: the worker draws none of them. A second file given
    after it, with one tournament of its own, says when the worker is through the first."""
    outputs = small_league_copy.outputs
    expected = event_cards(outputs)
    for name, card in expected.items():
        (outputs / "site" / name).write_bytes(og.draw(card))
    record = next(data.event_records_in(outputs / "grand-sud" / data.DATA))
    other = tmp_path / data.DATA
    other.write_text(json.dumps({"rankings": [{**record, "name": "Un autre tournoi"}], "scales": []},
                                ensure_ascii=False, sort_keys=True, separators=(",", ":")) + "\n", encoding="utf-8")
    last = event_card("Ligue", TITLE, {**record, "name": "Un autre tournoi"}, Public())
    ahead = cards_ahead.CardsAhead("Ligue", Public(), outputs)
    try:
        ahead.give(outputs / "grand-sud" / data.DATA, TITLE)
        ahead.give(other, TITLE)
        assert drawn_ahead(ahead, 1) == {last.file_name()}
        assert ahead.take(last.file_name()) == og.draw(last)
    finally:
        ahead.discard()


def test_a_lost_worker_leaves_its_cards_to_the_build(small_league_copy, ahead):
    assert ahead.worker is not None
    ahead.worker.process.kill()
    ahead.worker.process.join(10)
    ahead.give(small_league_copy.outputs / "grand-sud" / data.DATA, TITLE)  # a send to a dead worker
    assert ahead.failed and ahead.worker is None  # none started again
    ahead.give(small_league_copy.outputs / "grand-sud" / data.DATA, TITLE)
    assert ahead.worker is None
    ahead.stop()  # the pages begin: nothing to stop, and nothing drawn ahead to take
    assert ahead.take(next(iter(event_cards(small_league_copy.outputs)))) is None


def test_a_site_built_with_cards_drawn_ahead_is_the_site_built_without(new_tournament_league, tmp_path, monkeypatch):
    """A new tournament (its `site.json` made again) with every card to draw: the build gives the
    Grand Sud's `site.json` to the worker, the pages take cards it drew, and the site is the same bytes
    as a build that draws every card in the pages."""
    inputs, outputs = new_tournament_league
    shutil.rmtree(outputs / "site")
    without = tmp_path / "without"
    shutil.copytree(outputs, without)
    day = dt.date(2026, 12, 19)
    taken: list[str] = []
    real_take = cards_ahead.CardsAhead.take

    def take(self: cards_ahead.CardsAhead, name: str) -> bytes | None:
        found = real_take(self, name)
        if found is not None:
            taken.append(name)
        return found

    given: list[Path] = []
    real_give = cards_ahead.CardsAhead.give

    def give(self: cards_ahead.CardsAhead, data_file: Path, title: str) -> None:
        given.append(data_file)
        real_give(self, data_file, title)

    stopped: list[SideWorker] = []  # the worker the pages stopped as they began
    real_stop = cards_ahead.CardsAhead.stop

    def stop(self: cards_ahead.CardsAhead) -> None:
        """Once the worker has drawn every tournament's card (it runs on a core nothing else wants:
        on a busy machine it may have drawn none yet when the pages begin: `drawn_ahead` hurries it)."""
        if self.worker is not None:
            drawn_ahead(self, len(list(data.event_records_in(given[0]))))
            stopped.append(self.worker)
        real_stop(self)

    monkeypatch.setattr(cards_ahead, "TOURNAMENTS", 1)  # the small league's few tournaments drawn ahead too
    monkeypatch.setattr(cards_ahead.CardsAhead, "take", take)
    monkeypatch.setattr(cards_ahead.CardsAhead, "give", give)
    monkeypatch.setattr(cards_ahead.CardsAhead, "stop", stop)
    assert pipeline.build(inputs, outputs, day).ok
    assert [path.name.startswith(".site.json.") for path in given] == [True]  # the Grand Sud's, staged
    assert taken  # cards drawn ahead were taken by the pages
    assert len(stopped) == 1 and not stopped[0].process.is_alive()  # stopped by the pages, reaped by the build
    monkeypatch.setattr(cards_ahead.CardsAhead, "give", lambda self, data, title: None)
    assert pipeline.build(inputs, without, day).ok
    site = {path.relative_to(outputs).as_posix(): path.read_bytes() for path in (outputs / "site").rglob("*")}
    assert site == {path.relative_to(without).as_posix(): path.read_bytes() for path in (without / "site").rglob("*")}
    assert (outputs / "index.html").read_bytes() == (without / "index.html").read_bytes()
    assert set(taken) <= {Path(name).name for name in site} and any(name.endswith(".png") for name in site)


def test_the_worker_ignores_ctrl_c(small_league_copy, ahead):
    """Ctrl-C reaches every process of a terminal's job: the build stops its worker itself."""
    assert ahead.worker is not None
    os.kill(ahead.worker.process.pid, signal.SIGINT)  # a worker still starting has it blocked, then ignored
    expected = event_cards(small_league_copy.outputs)
    assert drawn_ahead(ahead, len(expected)) == set(expected)  # still there, it drew them all
    assert ahead.worker.process.is_alive()


def test_a_build_killed_leaves_no_worker_and_its_folder_to_the_next_sweep(small_league_copy, tmp_path, monkeypatch):
    """kill -9 of the build's process while the worker draws: the worker dies with it, and its folder
    (the build's, locked by it) is removed by the next build's sweep."""
    temporary = tmp_path / "tmp"
    temporary.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(temporary))  # this process's sweep looks there
    outputs = tmp_path / "elsewhere"
    (outputs / "site").mkdir(parents=True)
    code = ("import sys, time\nfrom pathlib import Path\nfrom reportgen.site.cards_ahead import CardsAhead\n"
            "from reportgen.site.privacy import Public\n"
            "ahead = CardsAhead('Ligue', Public(), Path(sys.argv[1]))\nahead.give(Path(sys.argv[2]), 'Titre')\n"
            "print(ahead.worker.process.pid, ahead.scratch.folder, flush=True)\ntime.sleep(120)\n")
    holder = subprocess.Popen([sys.executable, "-c", code, str(outputs),
                               str(small_league_copy.outputs / "grand-sud" / data.DATA)],
                              stdout=subprocess.PIPE, text=True, env={**os.environ, "TMPDIR": str(temporary)})
    try:
        assert holder.stdout is not None
        pid, folder = holder.stdout.readline().split()
        assert Path(folder).parent == temporary and scratch.sweep() == []  # held while the build runs
    finally:
        holder.kill()
        holder.wait()
    deadline = time.monotonic() + 30
    while alive(int(pid)) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not alive(int(pid))
    assert scratch.sweep() == [Path(folder)] and not Path(folder).exists()


def alive(pid: int) -> bool:
    """Whether the process runs (a zombie waiting for its reaper has ended)."""
    try:
        with open(f"/proc/{pid}/status") as status:
            return not any(line.startswith("State:") and "Z" in line.split()[1] for line in status)
    except OSError:
        return False


def test_no_temporary_folder_no_cards_ahead(small_league_copy, tmp_path, monkeypatch):
    """A system temporary folder that cannot be written (a full disk): nothing is drawn ahead and the
    build goes on, the pages drawing every card."""
    def refused(kind: str) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(scratch, "Scratch", refused)
    ahead = cards_ahead.CardsAhead("Ligue", Public(), tmp_path)
    ahead.give(small_league_copy.outputs / "grand-sud" / data.DATA, TITLE)
    ahead.stop()
    assert ahead.failed and ahead.worker is None and ahead.take("og-x.png") is None
    ahead.discard()


def test_a_file_given_once_the_worker_is_idle_is_drawn_too(small_league_copy, ahead):
    """The worker through the first circuit's file and waiting: a second circuit's file, given then,
    has its cards drawn ahead as the first's were (not left until the pages ask)."""
    expected = event_cards(small_league_copy.outputs)
    assert drawn_ahead(ahead, len(expected)) == set(expected)
    time.sleep(0.2)  # the worker waits for a message
    ahead.give(small_league_copy.outputs / "grand-sud" / data.DATA, "Un autre circuit")
    other = {card.file_name() for card in (event_card("Ligue", "Un autre circuit", record, Public())
                                           for record in data.event_records_in(small_league_copy.outputs / "grand-sud" / data.DATA))}
    assert drawn_ahead(ahead, len(expected) + len(other)) == set(expected) | other
