"""Files of the site made either in the build's process or by one worker process on the second core,
the same bytes whoever makes them: the Open Graph cards (site/drawing.py) and the players' pages
(site/pages_aside.py).

Each item is given under the path of the file it makes. Items are queued for the worker, at most
`in_flight` given to it at a time (the pipes never fill both ways: what the build sends is small),
the next given as it sends files back, between two of the build's pages (`ready`). Once the build
has nothing else to make (`finish`), it makes the queue's end itself while the worker makes its
start, and gives each file as it comes: nothing waits in memory for the last one.

A worker that fails (dies, stays silent for `SILENCE` seconds, cannot start) is stopped and what it
had to make is made here: the site is the same, only slower; no second worker is started. A file
the worker could not make (it answers None) is made here, where the error shows as it would have
without a worker."""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterator
from multiprocessing.connection import Connection
from typing import TYPE_CHECKING, Any, Generic, TypeVar

if TYPE_CHECKING:
    from reportgen.ingest.reading_pool import SideWorker

Item = TypeVar("Item")
SILENCE = 60.0  # seconds without a file back after which the worker is taken as stuck


class Shared(Generic[Item]):
    """The items to make, their worker and the files made; `_here` makes one in this process,
    `_start` starts the worker."""

    in_flight = 32  # items given to the worker and not yet back
    # an item queued while no worker can make it is made at once (a card: small); False: left to
    # `finish`, which makes and gives them one at a time (pages: made at once, all would be held)
    at_once = True

    def __init__(self, aside: bool) -> None:
        self.aside = aside  # whether a worker may make them: the second core is free
        self.made_here = 0
        self.worker: SideWorker | None = None
        self.queued: deque[tuple[str, Item]] = deque()  # for the worker, not given to it yet
        self.pending: dict[str, Item] = {}  # path -> item, given to the worker
        self.done: list[tuple[str, bytes]] = []  # (path, bytes) not given out yet

    def _here(self, path: str, item: Item) -> bytes:
        raise NotImplementedError

    def _start(self) -> SideWorker | None:
        raise NotImplementedError

    def start(self) -> None:
        """The worker started now, if it may be and is not yet (else by the first item queued)."""
        if self.worker is None and self.aside:
            self.worker = self._start()
            self.aside = self.worker is not None

    def queue(self, path: str, item: Item) -> None:
        """`item` made by the worker (or here, should it fail): given by `ready` or `finish`."""
        self.start()
        if self.worker is None and self.at_once:
            self._make_here(path, item)
            return
        self.queued.append((path, item))
        if self.worker is not None:
            self._collect(wait=False)

    def ready(self) -> Iterator[tuple[str, bytes]]:
        """The files made since the last call, each once. Called between pages, it also gives the
        worker the next queued items as it sends files back (cheap once nothing is left)."""
        if self.pending:
            self._collect(wait=False)
        yield from self._given()

    def finish(self) -> Iterator[tuple[str, bytes]]:
        """Every file not given yet, each as soon as it is made (the queue's end here while the
        worker makes its start); the worker stopped."""
        while self.pending or self.queued:
            if self.queued and (self.pending or self.worker is None):  # the worker busy (or gone): one made here
                self._make_here(*self.queued.pop())
                self._collect(wait=False)
            else:
                self._collect(wait=True)
            yield from self._given()
        self.close()
        yield from self._given()

    def close(self) -> None:
        """The worker stopped (every file back, or the site stopped before)."""
        if self.worker is not None:
            self.worker.stop()
            self.worker = None

    def _given(self) -> Iterator[tuple[str, bytes]]:
        done, self.done = self.done, []
        yield from done

    def _make_here(self, path: str, item: Item) -> None:
        self.done.append((path, self._here(path, item)))
        self.made_here += 1

    def _collect(self, wait: bool) -> None:
        """The worker's files back so far, and as many queued items given to it as it has room for;
        with `wait`, at least one file back (or the worker's failure)."""
        if self.worker is None:  # failed: what was queued for it is made by `finish`
            return
        connection = self.worker.connection
        try:
            while self.pending and connection.poll(SILENCE if wait else 0):
                path, data = connection.recv()
                item = self.pending.pop(path)
                if data is None:  # the worker failed to make it: made here, where the error shows as it would have
                    self._make_here(path, item)
                else:
                    self.done.append((path, data))
                wait = False
            if wait and self.pending:  # silent for SILENCE seconds
                self._fail()
                return
            while self.queued and len(self.pending) < self.in_flight:
                path, item = self.queued.popleft()
                self.pending[path] = item  # before the send: a failed send makes it here
                connection.send((path, item))
        except (EOFError, OSError, ValueError):
            self._fail()

    def _fail(self) -> None:
        """The worker failed: stopped, and what it had to make (given or queued) left to `finish`,
        which makes it here; no other worker."""
        self.close()
        self.aside = False
        self.queued.extendleft(reversed(list(self.pending.items())))
        self.pending = {}


def answer(connection: Connection, make: Callable[[Any], bytes]) -> None:
    """A worker's side: (path, item) in, (path, the bytes `make` made of it, or None when it failed)
    out, until the build closes the pipe."""
    while True:
        try:
            path, item = connection.recv()
        except (EOFError, OSError):
            return
        try:
            data: bytes | None = make(item)
        except Exception:  # noqa: BLE001  (made again by the build, where the error shows)
            data = None
        try:
            connection.send((path, data))
        except OSError:  # the build closed the pipe (it stopped): nothing to say
            return
