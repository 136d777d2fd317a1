"""The site's Open Graph cards drawn in a worker process, on the second core, while this process
makes the pages (eleventh round).

Why: in a first build at 100x the cards (site/og.py, about 4,000, 12 ms each) were half of the
site's time, drawn one after the other by the process that also makes the pages. A card is plain
text in (`og.Card`) and PNG bytes out, the same bytes whoever draws it (og.draw depends on the card,
the font files and Pillow only), so one worker can draw them while the pages are made.

When: only with many cards to draw (a worker costs a fork, or a fresh interpreter and Pillow's
import when spawned: not worth it for the few cards of a new tournament) and when nothing else uses
the second core (the build says so: no PDF rendering then, pipeline/building.py). The first
`THRESHOLD` cards are drawn here; the next are queued for the worker, at most `IN_FLIGHT` given to
it at a time (the pipes never fill both ways), the next given as it sends cards back. The pages
name every card early (the seasons' and tournaments' pages come first), the players' and clubs'
pages name none: the queue lets the worker draw while this process makes those (thirteenth round;
before, this process drew each card the worker was behind on at once, a third of them at 100x, and
the worker then idled through the players' pages). Whatever is still queued when the pages are
done is shared: this process draws from the queue's end while the worker draws from its start.
A worker that fails (dies, stays silent, cannot start) is killed and its cards drawn here: the site
is the same, only slower. It runs at the build's own priority: the worker that drew the tournaments'
cards ahead (site/cards_ahead.py) ran at the lowest, and is stopped as the pages begin (thirty-fifth
round: handed the pages' cards, it drew next to none of them on a busy machine, and the build's
process drew 4,000 cards itself at 100x).

The worker leaves Ctrl-C to the build and dies with it (reading_worker.die_with_parent), as the
reading workers do."""

from __future__ import annotations

import gc
from collections import deque
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
        self.queued: deque[tuple[str, og.Card]] = deque()  # for the worker, not given to it yet
        self.pending: dict[str, og.Card] = {}  # path -> card, given to the worker
        self.done: list[tuple[str, bytes]] = []  # (path, PNG) not given out by `ready` yet

    def draw(self, path: str, card: og.Card) -> None:
        """`card` drawn for `path`, now or by the worker."""
        if self.worker is None and self.aside and self.drawn_here >= THRESHOLD:
            self.worker = _start()
            self.aside = self.worker is not None
        if self.worker is None:
            self._draw_here(path, card)
            return
        self.queued.append((path, card))
        self._collect(wait=False)

    def ready(self) -> Iterator[tuple[str, bytes]]:
        """The cards drawn since the last call, each once. Called between pages, it also gives the
        worker the next queued cards as it sends its own back (cheap once nothing is left to draw)."""
        if self.pending:
            self._collect(wait=False)
        yield from self._given()

    def finish(self) -> Iterator[tuple[str, bytes]]:
        """Every card not given yet, once drawn (the queue's end here while the worker draws its
        start); the worker stopped."""
        while self.pending or self.queued:
            if self.queued and self.pending:  # the worker busy: one more card drawn here meanwhile
                self._draw_here(*self.queued.pop())
                self._collect(wait=False)
            else:
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

    def _draw_here(self, path: str, card: og.Card) -> None:
        self.done.append((path, og.draw(card)))
        self.drawn_here += 1

    def _collect(self, wait: bool) -> None:
        """The worker's cards back so far, and as many queued cards given to it as it has room for;
        with `wait`, at least one card back (or the worker's failure)."""
        if self.worker is None:  # failed: what was queued for it is drawn here
            while self.queued:
                self._draw_here(*self.queued.popleft())
            return
        connection = self.worker.connection
        try:
            while self.pending and connection.poll(SILENCE if wait else 0):
                path, data = connection.recv()
                card = self.pending.pop(path)
                # None: the worker's drawing failed; drawn here, where the error shows as it would have
                self.done.append((path, data if data is not None else og.draw(card)))
                wait = False
            if wait and self.pending:  # silent for SILENCE seconds
                self._fail()
                return
            while self.queued and len(self.pending) < IN_FLIGHT:
                path, card = self.queued.popleft()
                self.pending[path] = card  # before the send: a failed send draws it here
                connection.send((path, card))
        except (EOFError, OSError, ValueError):
            self._fail()

    def _fail(self) -> None:
        """The worker failed: stopped, and what it had to draw (given or queued) drawn here; no other
        worker."""
        self.close()
        self.aside = False
        pending, self.pending = self.pending, {}
        for path, card in pending.items():
            self._draw_here(path, card)
        while self.queued:
            self._draw_here(*self.queued.popleft())


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
