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
costs a fork, or a fresh interpreter and XlsxWriter's import when spawned). A circuit gives the worker
all of its large annexes at once (`give`), each cut by `excel.annex_parts`, `ROWS` rows a message;
the worker reads all of them before it writes any, so the build never waits on a full pipe, and
unpickles them one at a time: it holds the annexes' pickled bytes and XlsxWriter's tables, not the
annexes as objects too. It writes each to a file of a temporary folder (render/scratch.py: swept
by the next build if this one is killed) and answers with its name:
a short message, which never fills the pipe while the build is busy elsewhere (an answer of
megabytes would block the worker until the build read it, and the next annex with it). A worker
that fails (dies, its writing raises, it cannot start or be sent to) is stopped and its annexes
written in the build's process, where an error shows as it would have: the outputs are the same,
only slower.

The worker leaves Ctrl-C to the build and dies with it (reading_worker.die_with_parent), as the
reading workers and the cards' worker (site/drawing.py) do."""

from __future__ import annotations

import datetime as dt
import gc
import pickle
from collections import deque
from collections.abc import Callable, Collection
from multiprocessing.connection import Connection
from pathlib import Path
from typing import TYPE_CHECKING

from reportgen.model import Annex
from reportgen.render.scratch import Scratch

if TYPE_CHECKING:
    from reportgen.ingest.reading_pool import SideWorker

THRESHOLD = 100_000  # cells of an annex from which it goes to the worker (the 10x season's: 200,000, 1 CPU-s)
ROWS = 2_000  # rows a message: a few hundred KiB pickled


def cells(annex: Annex) -> int:
    return sum(len(sheet.rows) * len(sheet.columns) for sheet in annex.sheets)


class Aside:
    """The large annexes of a circuit given away at once (`give`), each taken back (`take`) in any
    order."""

    def __init__(self) -> None:
        self.worker: SideWorker | None = None
        self.scratch: Scratch | None = None  # where the worker writes each annex (swept if the build is killed)
        self.given: list[str] = []  # the paths given and not answered yet, in the order given
        self.answers: dict[str, str | None] = {}  # path -> its file's name, None if writing failed
        # path -> (title, date, the messages of its rows as sent): what `take` writes here when the
        # worker failed, for annexes given `kept` (taken back once their circuit's objects are gone)
        self.kept: dict[str, tuple[str, dt.date, list[bytes]]] = {}

    def start(self, annexes: list[Annex]) -> None:
        """The worker started now when some of `annexes` (those about to be written again) are large
        enough, before they are given (`give`): spawned (the build runs threads by then), it imports
        XlsxWriter on the other core while the build makes what comes first (a circuit's site
        records), instead of while the build waits to send it the annexes (thirteenth round)."""
        if self.worker is None and any(cells(annex) >= THRESHOLD for annex in annexes):
            self.worker = _start()

    def give(self, annexes: list[Annex], kept: Collection[str] = ()) -> set[str]:
        """Those of `annexes` large enough handed to the worker (`start`ed for them, or started
        now), all at once (a second call would find the worker writing, and wait); the paths of
        those given, none when there is no worker (a worker started for none is stopped). The
        messages of those whose path is in `kept` are kept here too: `take` then needs no
        `write_here` for them, their `Annex` may be gone by then (pipeline/publishing.py `Later`)."""
        assert not self.given and self.scratch is None, "an Aside's annexes are given once"
        large = [annex for annex in annexes if cells(annex) >= THRESHOLD]
        if not large:
            self.close()
            return set()
        if self.worker is None:
            self.worker = _start()
        if self.worker is None:
            return set()
        from reportgen.render import excel  # XlsxWriter: only once an annex is given

        try:
            self.scratch = Scratch("annexes")
            send = self.worker.connection.send_bytes
            for annex in large:
                send(pickle.dumps((annex.path, annex.title, annex.date, str(self.scratch.folder)), protocol=5))
                messages: list[bytes] = []  # kept, or each dropped once sent
                for part in excel.annex_parts(annex, ROWS):
                    message = pickle.dumps(part, protocol=5)
                    send(message)
                    if annex.path in kept:
                        messages.append(message)
                if annex.path in kept:
                    self.kept[annex.path] = (annex.title, annex.date, messages)
                send(b"")
            send(pickle.dumps(None))  # no more: the worker writes
        except (OSError, ValueError):
            self.close()
            self.kept = {}  # none given: each written here as if there had been no worker
            return set()
        self.given = [annex.path for annex in large]
        return set(self.given)

    def take(self, path: str, write_here: Callable[[], bytes] | None = None) -> bytes:
        """The bytes of the annex given for `path`, once the worker has written them; written here
        (`write_here`, or from its messages when it was given `kept`) when the worker failed, where
        an error is raised as the worker met it."""
        while path not in self.answers and path in self.given and self.worker is not None:
            try:
                answered, name = pickle.loads(self.worker.connection.recv_bytes())
            except (EOFError, OSError, pickle.UnpicklingError):
                self.close()  # the worker failed: whatever it did not answer is written here
                break
            self.given.remove(answered)
            self.answers[answered] = name
        name = self.answers.pop(path, None)
        data = None
        if name is not None and self.scratch is not None:
            try:
                data = (self.scratch.folder / name).read_bytes()
            except OSError:
                data = None
        kept = self.kept.pop(path, None)
        if not self.given and not self.answers:
            self.close()
        if data is not None:
            return data
        if write_here is not None:
            return write_here()
        assert kept is not None, "an annex taken back without `write_here` was given `kept`"
        from reportgen.render import excel

        title, date, messages = kept
        return excel.write_annex(title, date, (pickle.loads(message) for message in messages))

    def close(self) -> None:
        """The worker stopped and its folder removed (every annex back, or the build stopped
        before)."""
        if self.worker is not None:
            self.worker.stop()
            self.worker = None
        if self.scratch is not None:
            self.scratch.discard()
            self.scratch = None
        self.given = []  # `kept` stays: what `take` writes here from now on


def _start() -> SideWorker | None:
    from reportgen.ingest.reading_pool import SideWorker

    return SideWorker.start(serve)


def serve(connection: Connection, parent: int) -> None:
    """The worker: annexes' messages in (for each, its path, title, date and the folder to write it
    to, its parts, an empty message; then None), each annex written, (path, its file's name or None if
    writing failed) out; until the build closes the pipe."""
    from reportgen.ingest.reading_worker import close_parent_ends, die_with_parent
    from reportgen.render import excel

    die_with_parent(parent)
    gc.freeze()  # forked: what the build held is left out of the collector's passes
    close_parent_ends()  # forked: its copy of the build's end of its pipe, which it must see closed
    while True:
        batch: list[tuple[tuple[str, str, dt.date, str], deque[bytes]]] = []
        try:  # all of them read first: the build never waits on a full pipe
            while (header := pickle.loads(connection.recv_bytes())) is not None:
                parts: deque[bytes] = deque()
                while message := connection.recv_bytes():
                    parts.append(message)
                batch.append((header, parts))
        except (EOFError, OSError):
            return
        for index, ((path, title, date, folder), parts) in enumerate(batch):
            name: str | None = f"{index}.xlsx"
            try:
                data = excel.write_annex(title, date, (pickle.loads(parts.popleft()) for _ in range(len(parts))))
                (Path(folder) / f"{index}.xlsx").write_bytes(data)
            except Exception:  # noqa: BLE001  (written again by the build, which says the error)
                name = None
            try:
                connection.send_bytes(pickle.dumps((path, name), protocol=5))
            except OSError:  # the build closed the pipe (it stopped): nothing to say
                return
