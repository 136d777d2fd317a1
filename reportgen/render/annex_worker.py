"""Large annexes' XLSX written in a worker process, on the second core, while the build lays out the
rest of the circuit (twelfth round).

Why: one new tournament at 100x writes its season's annex again whole (a column per dated ranking
in its place history: it changes with every tournament), 10-12 CPU-s of XlsxWriter in the build's
process, which is the build's critical path (the PDF renders on the other core and is waited for
only after the site's pages). An annex is plain data in (`Annex`) and bytes out, the same bytes
whoever writes them (`excel.write_annex`, however its rows are cut), so a worker can write it while
the build makes the circuit's bulletins, CSVs and site records, and hand the bytes back when the
build reaches the annex.

When: only an annex of at least `THRESHOLD` cells (the example league's take milliseconds; a worker
costs a fork, or a fresh interpreter and XlsxWriter's import when spawned). The worker is started for
the first such annex of a build and writes them one after the other. It is sent each annex as
`excel.annex_parts` cuts it, `ROWS` rows a message, and reads all of an annex's messages before it
writes (the build never waits on a full pipe), unpickling them one at a time: it holds the annex's
pickled bytes and XlsxWriter's tables, not the annex as objects too. A worker that fails (dies, its
writing raises, it cannot start or be sent to) is stopped and the annex written in the build's
process, where an error shows as it would have: the outputs are the same, only slower.

The worker leaves Ctrl-C to the build and dies with it (reading_worker.die_with_parent), as the
reading workers and the cards' worker (site/drawing.py) do."""

from __future__ import annotations

import gc
import pickle
from collections import deque
from collections.abc import Callable
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess

from reportgen.model import Annex
from reportgen.render import excel

THRESHOLD = 100_000  # cells of an annex from which it goes to the worker (the 10x season's: 200,000, 1 CPU-s)
ROWS = 2_000  # rows a message: a few hundred KiB pickled


def cells(annex: Annex) -> int:
    return sum(len(sheet.rows) * len(sheet.columns) for sheet in annex.sheets)


class Aside:
    """The annexes a build gives away (`give`) and takes back (`take`), in any order."""

    def __init__(self) -> None:
        self.worker: _Worker | None = None
        self.failed = False  # no new worker once one failed
        self.given: list[str] = []  # the paths given and not answered yet, in the order given
        self.answers: dict[str, bytes | None] = {}  # answers read while waiting for another

    def give(self, annex: Annex) -> bool:
        """`annex` handed to the worker (started if need be); False when it is to be written here:
        too small, or no worker."""
        if cells(annex) < THRESHOLD or self.failed:
            return False
        if self.worker is None:
            self.worker = _start()
            if self.worker is None:
                self.failed = True
                return False
        try:
            send = self.worker.connection.send_bytes
            send(pickle.dumps((annex.path, annex.title, annex.date), protocol=5))
            for part in excel.annex_parts(annex, ROWS):
                send(pickle.dumps(part, protocol=5))
            send(b"")
        except (OSError, ValueError):
            self._fail()
            return False
        self.given.append(annex.path)
        return True

    def take(self, path: str, write_here: Callable[[], bytes]) -> bytes:
        """The bytes of the annex given for `path`, once the worker has written them; written here
        (`write_here`) when the worker failed."""
        while path not in self.answers and path in self.given and self.worker is not None:
            try:
                answered, data = pickle.loads(self.worker.connection.recv_bytes())
            except (EOFError, OSError, pickle.UnpicklingError):
                self._fail()
                break
            self.given.remove(answered)
            self.answers[answered] = data
        data = self.answers.pop(path, None)
        if not self.given:
            self.close()
        return data if data is not None else write_here()

    def close(self) -> None:
        """The worker stopped (every annex back, or the build stopped before)."""
        if self.worker is not None:
            self.worker.stop()
            self.worker = None

    def _fail(self) -> None:
        self.close()
        self.failed = True
        self.given = []


class _Worker:
    def __init__(self, process: BaseProcess, connection: Connection) -> None:
        self.process = process
        self.connection = connection

    def stop(self) -> None:
        from reportgen.ingest.reading_pool import stop_worker

        stop_worker(self.connection)  # the worker ends at the end of its pipe
        self.process.join(5)
        if self.process.is_alive():
            self.process.kill()
            self.process.join(5)


def _start() -> _Worker | None:
    """A worker, forked when this process runs a single thread, spawned otherwise, as the reading
    workers are; None when it cannot be started."""
    from reportgen.ingest.reading_pool import _may_fork, start_worker

    try:
        return _Worker(*start_worker(serve, _may_fork()))
    except OSError:
        return None


def serve(connection: Connection, parent: int) -> None:
    """The worker: an annex's messages in (its path, title and date, its parts, an empty message),
    (path, XLSX bytes or None if writing failed) out, until the build closes the pipe."""
    from reportgen.ingest.reading_worker import close_parent_ends, die_with_parent

    die_with_parent(parent)
    gc.freeze()  # forked: what the build held is left out of the collector's passes
    close_parent_ends()  # forked: its copy of the build's end of its pipe, which it must see closed
    while True:
        try:
            path, title, date = pickle.loads(connection.recv_bytes())
            parts: deque[bytes] = deque()
            while message := connection.recv_bytes():  # all of it read first: the build never waits
                parts.append(message)
        except (EOFError, OSError):
            return
        try:
            data: bytes | None = excel.write_annex(title, date, (pickle.loads(parts.popleft()) for _ in range(len(parts))))
        except Exception:  # noqa: BLE001  (written again by the build, which says the error)
            data = None
        try:
            connection.send_bytes(pickle.dumps((path, data), protocol=5))
        except OSError:  # the build closed the pipe (it stopped): nothing to say
            return
