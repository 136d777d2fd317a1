"""The parent's side of reading: the reading workers (ingest/reading_worker.py) started, fed and
stopped, and the files shared between them and this process.

A few small workbooks (a new tournament, the example league: up to IN_PROCESS_BYTES on disk
together) are read in the build's own process, each if it inflates to little (what its pre-check
costs is bounded) and once its pre-check has bounded what the reader can decode from it: starting
two workers costs more than reading them (docs/performance.md). For more files, two workers read
them, and this process reads files too, under the same bounds, between their answers: each file's
outcome is the same whoever reads it (ingest/file_reader.py). A process running a single thread
forks its workers (milliseconds); one that runs threads (pandas' BLAS, a progress bar) spawns them
(a fresh interpreter, 0.1 CPU-s each), and reads meanwhile: a build starts them before either
(`start_readers`).

The workers are plain processes fed through pipes, so the parent knows which file each one reads
(each holds the next file too, READ_AHEAD, and answers in order): a worker past its file's time limit
is killed and replaced, a crash names its file at once, and the parent never takes in more than a
bounded answer per file and in all (it reads the answer's length before the answer).
"""

from __future__ import annotations

import multiprocessing
import os
import pickle
import signal
import threading
import time
from collections.abc import Callable
from multiprocessing.connection import Connection, wait
from multiprocessing.process import BaseProcess
from pathlib import Path

from reportgen.ingest import precheck
from reportgen.ingest.file_reader import MAX_ANSWER, answer
from reportgen.ingest.reading_worker import parent_ends, serve, spawning
from reportgen.ingest.sheets import Sheet
from reportgen.model import ReportgenError

FILE_TIME_LIMIT = 60.0  # seconds a worker may spend on one file (the 99,999-player file takes ~5 s)
MAX_ANSWERS = 128 * 1024**2  # bytes of every file's sheets together: what the parent holds
START_TIME_LIMIT = 60.0  # seconds for a worker to start (spawned: a fresh interpreter)
WORKERS = 2
READ_AHEAD = 2  # files a worker is given ahead: the next is there when it answers, whatever this process does
IN_PROCESS_BYTES = 1024**2  # new workbooks' bytes on disk, together, up to which this process reads them


def _may_fork() -> bool:
    """Whether a worker may be forked from this process: it runs a single thread (Linux says so in
    /proc), so no lock can be held by a thread the child would not have. Forked, a worker starts in
    milliseconds with the reader already imported; spawned, it starts a fresh interpreter and
    imports it (0.1 CPU-s each). A process that has imported pandas (BLAS threads) or shows a
    progress bar (rich's refresh thread) spawns its workers."""
    try:
        return len(os.listdir("/proc/self/task")) == 1
    except OSError:
        return False


def start_worker(target: Callable[[Connection, int], None], forked: bool) -> tuple[BaseProcess, Connection]:
    """A worker process running `target(its end of the pipe, this process's id)`, forked or
    spawned, and this process's end of its pipe. That end is listed in `parent_ends` before the
    fork, for a forked worker to close its copy (`close_parent_ends`): else the worker would hold
    this end of its own pipe and never see it closed. Its pipe is closed by `stop_worker`."""
    context = multiprocessing.get_context("fork") if forked else multiprocessing.get_context("spawn")
    connection, child = context.Pipe()
    parent_ends.append(connection)
    # Started with Ctrl-C blocked, so that a worker can never print a KeyboardInterrupt while it
    # starts; it ignores SIGINT from then on (die_with_parent).
    blocked = _block_interrupts()
    try:
        process = context.Process(target=target, args=(child, os.getpid()), daemon=True)
        with spawning():
            process.start()
    except BaseException:
        stop_worker(connection)
        raise
    finally:
        _restore_interrupts(blocked)
        child.close()
    return process, connection


def stop_worker(connection: Connection) -> None:
    """This process's end of a worker's pipe closed (the worker ends at the end of its pipe)."""
    connection.close()
    if connection in parent_ends:
        parent_ends.remove(connection)


class SideWorker:
    """A worker process beside the build, serving `target` on its pipe: the Open Graph cards'
    (site/drawing.py), the large annexes' (render/annex_worker.py). Forked when this process runs a
    single thread, spawned otherwise, as the reading workers are; stopped by closing its pipe."""

    def __init__(self, process: BaseProcess, connection: Connection) -> None:
        self.process = process
        self.connection = connection

    @classmethod
    def start(cls, target: Callable[[Connection, int], None], spawned: bool = False) -> SideWorker | None:
        """A worker running `target`; None when it cannot be started (the build does its work).
        `spawned`: a fresh interpreter even where it could be forked (a worker that needs nothing
        the build holds, started while the build holds the most)."""
        try:
            return cls(*start_worker(target, not spawned and _may_fork()))
        except OSError:
            return None

    def stop(self) -> None:
        """Its pipe closed, which it ends at; killed if it has not ended 5 s later."""
        stop_worker(self.connection)
        self.process.join(5)
        if self.process.is_alive():
            self.process.kill()
            self.process.join(5)


class _Worker:
    def __init__(self) -> None:
        forked = _may_fork()
        if forked:
            import python_calamine  # noqa: F401  (imported once here, which every forked worker then has)
        self.process, self.connection = start_worker(serve, forked)
        self.queue: list[Path] = []  # the paths given, answered in this order: it reads the first
        self.since = 0.0  # when it began reading the first

    @property
    def path(self) -> Path | None:
        """The file it is reading."""
        return self.queue[0] if self.queue else None

    def ready(self, timeout: float) -> bool:
        try:
            return self.connection.poll(timeout) and self.connection.recv_bytes(16) == b"ready"
        except (EOFError, OSError):
            return False

    def give(self, path: Path) -> None:
        if not self.queue:
            self.since = time.monotonic()
        self.connection.send_bytes(str(path).encode("utf-8", "surrogateescape"))
        self.queue.append(path)

    def answered(self) -> Path:
        """The file it has just answered for; it reads the next one from now."""
        self.since = time.monotonic()
        return self.queue.pop(0)

    def kill(self) -> None:
        if self.process.is_alive():
            self.process.kill()
        self.process.join(5)
        stop_worker(self.connection)


def _block_interrupts() -> set[int | signal.Signals] | None:
    if threading.current_thread() is not threading.main_thread():
        return None
    return signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})


def _restore_interrupts(previous: set[int | signal.Signals] | None) -> None:
    if previous is not None:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


_workers: list[_Worker] = []


def _start_workers(count: int, meanwhile: Callable[[], bool] = lambda: False) -> list[_Worker]:
    """`count` more workers, started side by side (each takes a fresh interpreter's start-up).
    While none is ready, `meanwhile` is called again and again, until it returns False."""
    started = [_Worker() for _ in range(count)]
    while started and not any(worker.connection.poll() for worker in started) and meanwhile():
        pass
    for worker in started:
        if not worker.ready(START_TIME_LIMIT):
            for other in started:
                other.kill()
            # Not a file's fault: the workers could not start at all.
            raise ReportgenError("les processus de lecture des classeurs n’ont pas pu démarrer "
                                 "(lancez reportgen depuis sa commande, pas depuis l’entrée standard)")
    return started


def _ensure_workers(count: int, meanwhile: Callable[[], bool] = lambda: False) -> None:
    """`count` live workers (those killed from outside while idle are replaced)."""
    for worker in [w for w in _workers if not w.process.is_alive()]:
        _replace(worker)
    _workers.extend(_start_workers(count - len(_workers), meanwhile))


def start_readers(paths: list[Path]) -> None:
    """Start now the workers that reading `paths` will take, if this process may fork them
    (`_may_fork`): called before a build shows its progress bar or imports pandas."""
    if paths and _may_fork() and not _few_and_small(paths):
        _ensure_workers(min(WORKERS, len(paths)))


def stop_workers() -> None:
    """Kill the reading workers at once (Ctrl-C, or the end of a process that wants them gone)."""
    while _workers:
        _workers.pop().kill()


def _refusal(message: str, fix: str) -> tuple[str, str, str]:
    return ("error", message, fix)


def read_all(paths: list[Path], held: dict[Path, tuple[int, list[Sheet]]] | None = None,
              done: Callable[[], None] = lambda: None) -> tuple[dict[Path, tuple], dict[Path, int]]:
    """Every file's outcome, and the size of each answer kept. A few small files are read here; the
    others by the workers and here, from both ends of the list. The workers are started once per
    process and kept for every later read (starting two spawned workers costs about 0.2 CPU-s, which
    a process reading many leagues, such as the test suite, pays once). `held` are the sheets of
    files read before (and the size of their answer then): they count in what the parent holds."""
    outcomes: dict[Path, tuple] = {path: ("ok", sheets) for path, (_, sheets) in (held or {}).items()}
    waiting = list(reversed(paths))
    kept: dict[Path, int] = {path: size for path, (size, _) in (held or {}).items()}  # bytes of each answer held
    if not paths:
        _within_budget(kept, outcomes)
        return outcomes, kept
    front = 0  # waiting[:front]: files tried here that are for a worker (precheck.Larger)

    def read_here() -> bool:
        """One more file read here, if its pre-check allows it: from the front of `waiting`, whose
        end the workers take. False when none is left to try."""
        nonlocal front
        if front >= len(waiting):
            return False
        try:
            outcome, data = answer(str(waiting[front]), here=True)
        except precheck.Larger:
            front += 1  # for a worker
            return True
        path = waiting.pop(front)
        _take(path, outcome, len(data), outcomes, kept)
        done()
        return True

    if _few_and_small(paths):  # all those allowed here are read here, without workers
        while read_here():
            pass
        if not waiting:
            return outcomes, kept
    # While spawned workers start (0.1-0.2 s: a fresh interpreter and its imports), this process would
    # wait: it reads files itself meanwhile, and goes on once they read. Each file's outcome is the
    # same whoever reads it.
    _ensure_workers(min(WORKERS, len(waiting)), read_here)
    while True:
        for index in range(len(_workers)):  # each worker holds up to READ_AHEAD files, taken from the end
            while waiting and len(_workers[index].queue) < READ_AHEAD:
                try:
                    _workers[index].give(waiting[-1])
                except OSError:  # gone since: a new one takes its files
                    _replace(_workers[index], waiting)
                    continue
                waiting.pop()
        busy = {worker.connection: worker for worker in _workers if worker.queue}
        if not busy:
            return outcomes, kept
        # This process reads files too, from the front, while the workers read theirs: it only checks
        # for their answers in between.
        if read_here():
            timeout = 0.0
        else:
            timeout = max(min(worker.since for worker in busy.values()) + FILE_TIME_LIMIT - time.monotonic(), 0)
        for connection in wait(list(busy), timeout=timeout):
            worker = busy[connection]  # type: ignore[index]
            try:
                data = worker.connection.recv_bytes(MAX_ANSWER + 4096)
            except (EOFError, OSError):  # the worker died on this file (crash, memory limit)
                path = worker.answered()
                _replace(worker, waiting)
                outcomes[path] = _refusal("le lecteur de classeurs s’est arrêté brutalement sur ce fichier",
                                          precheck.TOO_BIG_FIX)
                done()
                continue
            _take(worker.answered(), pickle.loads(data), len(data), outcomes, kept)
            done()
        now = time.monotonic()
        for worker in list(_workers):
            if worker.queue and now - worker.since >= FILE_TIME_LIMIT:
                path = worker.answered()
                _replace(worker, waiting)
                seconds = f"{FILE_TIME_LIMIT:g}".replace(".", ",")
                outcomes[path] = _refusal(
                    f"la lecture du fichier dépasse {seconds} secondes, bien plus que pour un tableau de résultats",
                    precheck.TOO_BIG_FIX)
                done()
    return outcomes, kept


def _few_and_small(paths: list[Path]) -> bool:
    """Whether these files are few and small enough (IN_PROCESS_BYTES on disk together) to be read
    here without starting workers, those whose pre-check allows it."""
    return sum(_size(path) for path in paths) <= IN_PROCESS_BYTES


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0  # said when it is read


def _take(path: Path, outcome: tuple, size: int, outcomes: dict[Path, tuple], kept: dict[Path, int]) -> None:
    """A file's outcome, and the size of its answer (pickled), which counts in what the parent holds."""
    outcomes[path] = outcome
    if outcome[0] == "ok":
        kept[path] = size
        _within_budget(kept, outcomes)


def _within_budget(kept: dict[Path, int], outcomes: dict[Path, tuple]) -> None:
    """Hold at most MAX_ANSWERS bytes of sheets: past it, the largest answers are dropped (the last
    path first among equals, so that the files refused do not depend on which worker was quicker)."""
    while sum(kept.values()) > MAX_ANSWERS:
        largest = max(kept, key=lambda path: (kept[path], str(path)))
        del kept[largest]
        outcomes[largest] = _refusal(
            f"ce classeur dépasse, avec les autres classeurs, le volume de données permis "
            f"({MAX_ANSWERS / 1024**2:g} Mo en tout)".replace(".", ","),
            "retirez de inputs/ ce qui n’est pas un résultat de tournoi, ou copiez les résultats dans un classeur neuf")


def _replace(worker: _Worker, waiting: list[Path] | None = None) -> None:
    """A new worker in its place; the files it still held go back to `waiting`, to be given first."""
    if waiting is not None:
        waiting.extend(reversed(worker.queue))
    worker.kill()
    _workers[_workers.index(worker)] = _start_workers(1)[0]
