"""The site's Open Graph cards drawn in a worker process, on the second core, while this process
makes the pages (eleventh round).

Why: in a first build at 100x the cards (site/og.py, about 4,000, 12 ms each) were half of the
site's time, drawn one after the other by the process that also makes the pages. A card is plain
text in (`og.Card`) and PNG bytes out, the same bytes whoever draws it (og.draw depends on the card,
the font files and Pillow only), so one worker can draw them while the pages are made.

When: only with many cards to draw (a worker costs a fork, or a fresh interpreter and Pillow's
import when spawned: not worth it for the few cards of a new tournament) and when nothing else uses
the second core (the build says so: no PDF rendering then, pipeline/building.py). The first
`THRESHOLD` cards are drawn here; the next go to the worker, at most `IN_FLIGHT` at a time (beyond,
this process draws the next itself rather than wait: neither core idles, and the pipes never fill
both ways). A worker that fails (dies, stays silent, cannot start) is killed and its cards drawn
here: the site is the same, only slower.

The worker leaves Ctrl-C to the build and dies with it (reading_worker.die_with_parent), as the
reading workers do."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from multiprocessing.connection import Connection
from typing import TYPE_CHECKING

from reportgen.site import og

if TYPE_CHECKING:
    from reportgen.ingest.reading_pool import SideWorker

THRESHOLD = 24  # cards drawn here before a worker is started
IN_FLIGHT = 32  # cards given to the worker and not yet back: a few hundred bytes each, far from a pipe's 64 KiB
SILENCE = 60.0  # seconds without a card back after which the worker is taken as stuck


class Cards:
    """The cards the pages name and that no earlier build drew, drawn here or by the worker;
    `ready` gives those drawn so far, `finish` the rest once all are drawn."""

    def __init__(self, aside: bool) -> None:
        self.aside = aside  # whether a worker may draw: the second core is free
        self.drawn_here = 0
        self.worker: SideWorker | None = None
        self.pending: dict[str, og.Card] = {}  # path -> card, given to the worker
        self.done: list[tuple[str, bytes]] = []  # (path, PNG) not given out by `ready` yet

    def draw(self, path: str, card: og.Card) -> None:
        """`card` drawn for `path`, now or by the worker."""
        if self.worker is None and self.aside and self.drawn_here >= THRESHOLD:
            self.worker = _start()
            self.aside = self.worker is not None
        if self.worker is not None:
            self._collect(wait=False)
        if self.worker is not None and len(self.pending) < IN_FLIGHT:
            try:
                self.worker.connection.send((path, card))
                self.pending[path] = card
                return
            except (OSError, ValueError):
                self._fail()
        self.done.append((path, og.draw(card)))
        self.drawn_here += 1

    def ready(self) -> Iterator[tuple[str, bytes]]:
        """The cards drawn since the last call, each once."""
        if self.worker is not None:
            self._collect(wait=False)
        yield from self._given()

    def finish(self) -> Iterator[tuple[str, bytes]]:
        """Every card not given yet, once the worker has drawn its own; the worker stopped."""
        while self.pending:
            self._collect(wait=True)
        self.close()
        yield from self._given()

    def close(self) -> None:
        """The worker stopped (every card back, or the site stopped before)."""
        if self.worker is not None:
            self.worker.stop()
            self.worker = None

    def _given(self) -> Iterator[tuple[str, bytes]]:
        done, self.done = self.done, []
        yield from done

    def _collect(self, wait: bool) -> None:
        """The worker's cards back so far; with `wait`, at least one (or its failure)."""
        assert self.worker is not None
        connection = self.worker.connection
        try:
            while self.pending and connection.poll(SILENCE if wait else 0):
                path, data = connection.recv()
                card = self.pending.pop(path)
                # None: the worker's drawing failed; drawn here, where the error shows as it would have
                self.done.append((path, data if data is not None else og.draw(card)))
                wait = False
            if wait:  # silent for SILENCE seconds
                self._fail()
        except (EOFError, OSError, ValueError):
            self._fail()

    def _fail(self) -> None:
        """The worker failed: stopped, and what it had to draw drawn here; no other worker."""
        self.close()
        self.aside = False
        pending, self.pending = self.pending, {}
        for path, card in pending.items():
            self.done.append((path, og.draw(card)))
            self.drawn_here += 1


def _start() -> SideWorker | None:
    from reportgen.ingest.reading_pool import SideWorker

    return SideWorker.start(serve)


def serve(connection: Connection, parent: int) -> None:
    """The worker: (path, card) in, (path, PNG bytes or None if drawing failed) out, until the
    build closes the pipe."""
    from reportgen.ingest.reading_worker import close_parent_ends, die_with_parent

    die_with_parent(parent)
    gc.freeze()  # forked: what the build held is left out of the collector's passes
    close_parent_ends()  # forked: its copy of the build's end of its pipe, which it must see closed
    while True:
        try:
            path, card = connection.recv()
        except (EOFError, OSError):
            return
        try:
            data: bytes | None = og.draw(card)
        except Exception:  # noqa: BLE001  (drawn again by the build, which says the error)
            data = None
        try:
            connection.send((path, data))
        except OSError:  # the build closed the pipe (it stopped): nothing to say
            return
