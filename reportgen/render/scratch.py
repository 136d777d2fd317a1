"""A build's private temporary folders (the site's view, pipeline/site_view.py; the PDF spool,
render/pdf_spool.py; the annex worker's, render/annex_worker.py; WeasyPrint's copies of the fonts for
one PDF, render/pdf.py; multiprocessing's own and what WeasyPrint's import makes (the fork server's
TMPDIR), `of_this_process`; the inputs merged with the archived
seasons, delivery/seasons.py; an attachment's trial league, delivery/inbox_filing.py) in the
system's temporary folder, which a killed build or command does not leave there.

Why: each is removed by its `discard` at the end of the build, whatever ends it, but a build killed
(kill -9, the machine's out-of-memory killer, a power cut) used to leave them in /tmp for good: at
100x the spool holds hundreds of megabytes of HTML, and a secretary's machine fills up over a season.

One rule: a folder is `reportgen-build-<kind>-<random>`, locked (`flock` on the folder itself) by the
process that made it, for as long as that process lives: the kernel releases the lock when it ends,
however it ends. `sweep` (each build's start, pipeline/publishing.py `_prepare`; `make clean`)
removes those whose lock it can take: whoever made them is gone. A lock rather than a pid in the
name: pids are reused, and a container sharing /tmp sees other pids.

A folder is made under a hidden name (`.reportgen-build-…`) and renamed once locked, so that no
sweep finds it unlocked under its visible name. A process killed between the two leaves the hidden
draft unlocked: `sweep` takes those too, by the same rule. A sweep may thus take a draft in the very
moment between its making and its locking by a live process: that process then finds its draft gone
(its rename fails) and makes another, so that no folder in use is ever lost (`Scratch.__init__`).

The unlocked folders of reportgen before the locks (`reportgen-pdf-…`, `reportgen-site-view-…`,
until 4 December 2026; `reportgen-inputs-…`, `reportgen-inbox-…`, until the fourteenth round) are
removed once a day old (`LEGACY_AGE`): no lock says whether their build
runs, and no build lasts a day."""

from __future__ import annotations

import atexit
import fcntl
import os
import re
import shutil
import tempfile
import time
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path

from reportgen.render.syncing import FOLDER  # how a folder is opened (to lock it here)

PREFIX = "reportgen-build-"
# mkdtemp's names for the folders of reportgen before the locks (its 8 random characters)
LEGACY = re.compile(r"reportgen-(pdf|site-view|inputs|inbox)-[a-z0-9_]{8}")
LEGACY_AGE = 24 * 3600  # seconds since an unlocked legacy folder last changed before it is removed


class Scratch:
    """A private temporary folder (`folder`), held by this process until `discard`."""

    def __init__(self, kind: str) -> None:
        while True:  # again only when a sweep took the draft before it was locked
            draft = Path(tempfile.mkdtemp(prefix=f".{PREFIX}{kind}-"))
            try:
                lock = os.open(draft, FOLDER)
            except FileNotFoundError:
                continue
            fcntl.flock(lock, fcntl.LOCK_EX)  # waits for a sweep that holds it to have removed it
            try:
                os.rename(draft, draft.with_name(draft.name.removeprefix(".")))
            except FileNotFoundError:
                os.close(lock)
                continue
            self._lock: int | None = lock
            self.folder = draft.with_name(draft.name.removeprefix("."))
            return

    def __enter__(self) -> Path:
        return self.folder

    def __exit__(self, *_: object) -> None:
        self.discard()

    def discard(self) -> None:
        """The folder and what it holds removed, then the lock let go (a sweep finds nothing)."""
        shutil.rmtree(self.folder, ignore_errors=True)
        self.release()

    def release(self) -> None:
        """The lock let go, the folder left to the next sweep."""
        if self._lock is not None:
            os.close(self._lock)
            self._lock = None


def sweep() -> list[Path]:
    """The folders whose maker is gone, removed: those whose lock can be taken (hidden drafts
    included), and the legacy folders a day old."""
    removed = []
    now = time.time()
    for folder in Path(tempfile.gettempdir()).iterdir():
        name = folder.name
        if LEGACY.fullmatch(name):
            try:
                if now - folder.lstat().st_mtime < LEGACY_AGE:
                    continue
            except OSError:
                continue
        elif not name.removeprefix(".").startswith(PREFIX):
            continue
        if _remove_unless_held(folder):
            removed.append(folder)
    return removed


def _remove_unless_held(folder: Path) -> bool:
    """Remove `folder` if its lock can be taken; the lock is held while it is removed, so that a
    maker waiting for it (`Scratch.__init__`) finds it gone."""
    try:
        descriptor = os.open(folder, FOLDER | os.O_NOFOLLOW)
    except OSError:  # gone meanwhile, not a folder, or another user's
        return False
    try:
        if os.fstat(descriptor).st_uid != os.getuid():  # another user's: not ours to remove
            return False
        fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
        shutil.rmtree(folder, ignore_errors=True)
        return True
    except OSError:  # held (BlockingIOError): its build is running
        return False
    finally:
        os.close(descriptor)


_process: list[Scratch] = []  # this process's own folder (`of_this_process`), made at most once


def of_this_process() -> Path:
    """A folder held until this process ends, for what lives as long as it: multiprocessing's own
    temporary folder (`pymp-…`, the fork server's socket: render/pdf.py `_pool`), which
    multiprocessing removes only at the process's exit, never after a kill."""
    if not _process:
        _process.append(Scratch("process"))
    return _process[0].folder


@atexit.register
def _at_exit() -> None:
    """This process's folder removed at its exit once empty; else left, its lock let go, to the next
    sweep. Registered when this module is imported, which the command line does before anything
    imports multiprocessing: atexit runs the last registered first, so multiprocessing's own exit
    (which removes its `pymp-…` folder from ours) runs before this."""
    for scratch in _process:
        try:
            os.rmdir(scratch.folder)
        except OSError:  # multiprocessing's folder still in it (another import order): swept later
            pass
        scratch.release()


@contextmanager
def temporary_folder(folder: Path) -> Iterator[None]:
    """`tempfile`'s default folder (the documented `tempfile.tempdir`) is `folder` in this process
    for the time of the block: what a library makes with `mkdtemp`/`mkstemp` meanwhile goes there.
    This process's alone: the environment (TMPDIR) that other programs see is not changed.
    multiprocessing's folder follows it because CPython makes it with `tempfile.mkdtemp` in
    `tempfile.gettempdir()` (3.11's `util.get_temp_dir`): a Python that stopped would put it back
    in the system's folder, nothing broken, and tests/test_scratch.py's killed build would say so."""
    previous, tempfile.tempdir = tempfile.tempdir, str(folder)
    try:
        yield
    finally:
        tempfile.tempdir = previous


@contextmanager
def environment(name: str, value: str) -> Iterator[None]:
    """The variable `name` of this process's environment is `value` during the block, then as it
    was (unset if it was): for this process and the programs it starts meanwhile."""
    previous = os.environ.get(name)
    os.environ[name] = value
    try:
        yield
    finally:
        if previous is None:
            del os.environ[name]
        else:
            os.environ[name] = previous


def programs_temporary_folder(folder: Path) -> AbstractContextManager[None]:
    """TMPDIR is `folder` for the programs this process starts during the block, and for what they
    start in turn: their temporary files go there (a C compiler's, another Python's `tempfile`).
    Other threads' programs started meanwhile get it too: `folder` must outlive them (this
    process's own, `of_this_process`)."""
    return environment("TMPDIR", str(folder))


if __name__ == "__main__":  # `make clean`
    sweep()
