"""The tournaments' Open Graph cards drawn ahead, while the build still lays its circuits out
(issue 27, twenty-second round: the site's share of a first build).

Why: a first build at 100x draws about 4,000 tournaments' cards (site/og.py, about 10 ms each). The
card worker of site/drawing.py drew them all while the pages were made: 40 CPU-s on the second core
then, while that core idled through about 19 s of the Grand Sud's layout before them (measured: the
rest of it writes the large annexes, render/annex_worker.py). A tournament's card is made from its
ranking record alone (site/pages.py `event_card`: the league, the circuit's title, the record's
name, date, place and top three in their public form), and that record is in the circuit's
`site.json`, staged at the top of its layout (pipeline/publishing.py). So the build gives each
circuit's staged `site.json` to a worker as soon as it is written; the worker reads its tournaments'
records one at a time and draws, into a private folder (render/scratch.py), each card that
outputs/site/ does not already hold.

It runs at the lowest priority (Linux's SCHED_IDLE): on a core nothing else wants, so never in the
way of the build's process nor of the annex worker the layout waits for. The pages take a card from
its folder when it is there (`take`), and stop it as they begin (`stop`): what it has not drawn, they
draw, or site/drawing.py's worker does, at the build's own priority. Until the thirty-fifth round it
went on to draw the pages' cards itself; on a busy machine a process at the lowest priority gets next
to no time, and cannot be raised back without privilege (sched(7): RLIMIT_NICE), so the build's own
process drew 3,600 to 4,000 cards at 100x while it waited.

Never wrong, only slower: a card is taken by its file name, a hash of all it shows (og.Card
`file_name`), so a card drawn ahead for a record the site reads otherwise is never taken; one not
drawn (the worker stopped, failed or was never started) is drawn as before. The same PNG bytes
whoever draws them (og.draw).

When: only while no PDF renders beside the layout (the build says so: the pool not started early,
pipeline/building.py), only for a `site.json` made again (one taken as it is names no new card),
and only for a circuit of at least `TOURNAMENTS` tournaments (a worker costs an interpreter, Pillow's
import and the file read again: not worth it for a few cards).

The worker is spawned, never forked: it needs nothing the build holds, and is started while the
build holds the most (the Grand Sud's layout at 100x). It leaves Ctrl-C to the build and dies with
it (reading_worker.die_with_parent)."""

from __future__ import annotations

import os
from collections import deque
from collections.abc import Iterator
from multiprocessing.connection import Connection
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from reportgen.ingest.reading_pool import SideWorker
    from reportgen.render.scratch import Scratch
    from reportgen.site import og
    from reportgen.site.privacy import Public

TOURNAMENTS = 100  # a circuit's tournaments from which its cards are drawn ahead: fewer are drawn by the pages as before


class CardsAhead:
    """The worker drawing the tournaments' cards ahead, and the folder it draws them into."""

    def __init__(self, league: str, public: Public, outputs: Path) -> None:
        self.league, self.public, self.outputs = league, public, outputs
        self.worker: SideWorker | None = None
        self.scratch: Scratch | None = None
        self.failed = False  # a worker that could not start or was lost: none started again

    def give(self, data: Path, title: str) -> None:
        """A circuit's `site.json` (`data`, staged) and its title: its tournaments' cards drawn."""
        if self.worker is None and not self.failed:
            self._start()
        if self.worker is None:
            return
        try:
            self.worker.connection.send((str(data), title))
        except (OSError, ValueError):
            self.discard()
            self.failed = True

    def stop(self) -> None:
        """Its worker killed, without waiting for it (at the lowest priority it may wait long for a
        core to read its pipe's end on): what it drew stays to be taken, a card it was writing is
        not there (written under its name once whole), and the process is reaped by `discard`."""
        if self.worker is not None:
            self.worker.process.kill()

    def take(self, name: str) -> bytes | None:
        """The card of that file name, when the worker drew it; None otherwise (a card is written
        under its name only once whole: a worker stopped mid-card leaves none)."""
        if self.scratch is None:
            return None
        try:
            return (self.scratch.folder / name).read_bytes()
        except OSError:
            return None

    def discard(self) -> None:
        """The worker stopped and its folder removed (the build's end, whatever it is)."""
        if self.worker is not None:
            self.worker.stop()
            self.worker = None
        if self.scratch is not None:
            self.scratch.discard()
            self.scratch = None

    def _start(self) -> None:
        from reportgen.ingest.reading_pool import SideWorker
        from reportgen.render.scratch import Scratch

        try:  # a temporary folder that cannot be made (a full disk): the pages draw every card
            self.scratch = Scratch("cards")
        except OSError:
            self.failed = True
            return
        self.worker = SideWorker.start(serve, spawned=True)
        if self.worker is None:
            self.failed = True
            return
        try:
            self.worker.connection.send((self.league, self.public, str(self.outputs), str(self.scratch.folder)))
        except (OSError, ValueError):
            self.discard()
            self.failed = True


def serve(connection: Connection, parent: int) -> None:
    """The worker: the league's facts, then (`site.json` path, circuit title) pairs, each
    tournament's card drawn into the folder, until the build closes the pipe or kills it."""
    from reportgen.ingest.reading_worker import die_with_parent

    die_with_parent(parent)
    _yield_to_the_build()
    try:
        league, public, outputs, folder = connection.recv()
    except (EOFError, OSError):
        return
    from reportgen.site.data import event_records_in
    from reportgen.site.pages import FOLDER, event_card

    site, drawn = Path(outputs) / FOLDER, Path(folder)
    files: deque[tuple[str, str]] = deque()  # (site.json, title), their cards drawn ahead in turn

    def ahead() -> Iterator[og.Card]:
        while files:
            path, title = files.popleft()
            for record in event_records_in(Path(path)):
                yield event_card(league, title, record, public)

    cards = ahead()
    idle = False  # nothing left to draw ahead: wait for the next file

    def heard(wait: bool) -> bool:
        """The files the build sent queued (with `wait`, at least one); False once it closed the
        pipe: the worker stops."""
        try:
            while wait or connection.poll(0):
                files.append(connection.recv())
                wait = False
        except (EOFError, OSError):
            return False
        return True

    while heard(wait=idle):
        card = next(cards, None)
        if card is None:  # through the files given so far: those given since next, else wait
            cards, idle = ahead(), not files
            continue
        idle = False
        name = card.file_name()
        if not (site / name).exists():  # else an earlier build's, taken from there
            _draw(drawn / name, card)


def _draw(path: Path, card: og.Card) -> None:
    """The card drawn and written there, unless it is already (two tournaments may show the same);
    a card whose drawing fails is not written: the pages draw it, where the error shows."""
    from reportgen.site import og

    if path.exists():
        return
    try:
        data = og.draw(card)
    except Exception:  # noqa: BLE001
        return
    try:
        _write(path, data)
    except OSError:
        pass  # the pages draw it


def _yield_to_the_build() -> None:
    """This worker runs only on a core nothing else wants: the build's process and its annex worker,
    whose annexes the layout waits for, always come first (Linux's SCHED_IDLE; else the lowest
    priority)."""
    try:
        os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
    except (AttributeError, OSError):
        try:
            os.nice(19)
        except OSError:
            pass


def _write(path: Path, data: bytes) -> None:
    """The card under its name once whole (the site takes a card by its name only)."""
    temporary = path.with_name(f".{path.name}.tmp")
    temporary.write_bytes(data)
    os.replace(temporary, path)
