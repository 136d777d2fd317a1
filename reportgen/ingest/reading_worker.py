"""A reading worker, the process that reads workbooks for the build (ingest/reading_pool.py starts
it): a path in through its pipe, the file's answer out (ingest/file_reader.py), until the parent
closes the pipe. It has an address-space limit, ignores Ctrl-C (the parent stops it) and dies with
the parent, even a parent killed with SIGKILL. `spawning` also serves the PDF workers
(render/pdf.py): a spawned worker does not run the command's main script again."""

from __future__ import annotations

import gc
import os
import resource
import signal
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from multiprocessing.connection import Connection

from reportgen.ingest.file_reader import answer

WORKER_MEMORY_LIMIT = 2 * 1024**3  # bytes of address space a reading worker may add

# The parent's ends of its workers' pipes (reading_pool adds each before it forks a worker). A forked
# worker closes its copies: else a worker would hold the parent's end of its own pipe, and never see
# it closed.
parent_ends: list[Connection] = []


def close_parent_ends() -> None:
    """In a forked worker: its copies of the parent's ends of every worker's pipe closed (its own
    included), so that each worker sees its pipe closed when the parent closes it."""
    for end in parent_ends:
        end.close()


def _limit_memory() -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    with open("/proc/self/statm") as statm:
        current = int(statm.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    limit = current + WORKER_MEMORY_LIMIT
    if hard != resource.RLIM_INFINITY:
        limit = min(limit, hard)
    resource.setrlimit(resource.RLIMIT_AS, (limit, hard))


def die_with_parent(parent: int) -> None:
    """Make this worker process end when `parent` ends, however it ends (SIGKILL included), and
    leave Ctrl-C to the parent, which stops its workers itself: Linux's PR_SET_PDEATHSIG, else a
    thread watching the parent's pid."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    armed = False
    if sys.platform.startswith("linux"):
        try:
            import ctypes

            libc = ctypes.CDLL(None, use_errno=True)
            armed = libc.prctl(1, signal.SIGKILL, 0, 0, 0) == 0  # PR_SET_PDEATHSIG
        except (OSError, AttributeError):
            armed = False
    if os.getppid() != parent:  # the parent died before the line above
        os._exit(1)
    if not armed:
        def watch() -> None:
            while os.getppid() == parent:
                time.sleep(0.5)
            os._exit(1)

        threading.Thread(target=watch, daemon=True).start()


@contextmanager
def spawning() -> Iterator[None]:
    """Around the start of spawned workers: they do not run the main script again.

    A spawned process runs the parent's main script again, as a module, before its task (to find
    functions defined there): for `reportgen build`, the command line and everything it imports,
    0.2 s of CPU per worker, for nothing: our workers run functions of reportgen's own modules,
    which they import by name. (A main module run with `python -m` is imported by name instead:
    left as it is.)"""
    main = sys.modules.get("__main__")
    path = getattr(main, "__file__", None)
    if main is None or path is None or getattr(main, "__spec__", None) is not None:
        yield
        return
    del main.__file__
    try:
        yield
    finally:
        main.__file__ = path


def serve(connection: Connection, parent: int) -> None:
    """A reading worker: a path in, its answer out, until the parent closes the pipe."""
    die_with_parent(parent)
    # Forked: what the parent held is left out of the cycle collector's passes (they went through it
    # all, and copied every page they touched), and its ends of the other workers' pipes are closed.
    gc.freeze()
    close_parent_ends()
    _limit_memory()
    connection.send_bytes(b"ready")
    while True:
        try:
            path = connection.recv_bytes().decode("utf-8", "surrogateescape")
        except (EOFError, OSError):
            return
        connection.send_bytes(answer(path)[1])

