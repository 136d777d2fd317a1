"""One `syncfs` for a whole publication instead of an `fsync` per file (render/staging.py).

Why: a publication's files must be on disk before its journal commits them (render/files.py), and
at 100x the site alone stages 25,000 files: an `fsync` each was 15-18 CPU-s of a first build, and
more in wall time on a busy disk. Linux's `syncfs(fd)` writes back every dirty file of the
filesystem holding `fd` and waits for it: once it returns, the staged files are on disk, as after
their fsyncs. Python has no `os.syncfs` (3.11, 3.12), so libc's is called through ctypes.

Where there is none (not Linux, a libc without it) or it fails, `syncfs` says so (False) and the
caller fsyncs each file as before: the guarantee stays, only its cost changes. A file on another
filesystem than the folder synced (a subfolder that is a mount point) is not covered by it: the
caller fsyncs that one at once (`same_filesystem`).

The fsyncs themselves are here too (`fsync_file`, `fsync_folder`): one way to open, sync and close,
each saying what an error means to it."""

from __future__ import annotations

import ctypes
import functools
import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

FOLDER = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0)  # how a folder is opened to be synced


@functools.cache
def _libc_syncfs() -> Callable[[int], int] | None:
    """libc's `syncfs`, or None where the C library has none."""
    try:
        function = ctypes.CDLL(None, use_errno=True).syncfs
    except (OSError, AttributeError):
        return None
    function.argtypes = [ctypes.c_int]
    function.restype = ctypes.c_int
    return function  # type: ignore[no-any-return]


def available() -> bool:
    """Whether this machine can sync a filesystem at once (a staging then skips each file's fsync)."""
    return _libc_syncfs() is not None


def syncfs(folder: Path) -> bool:
    """Every dirty file of the filesystem holding `folder` written to disk, waited for. False when
    that could not be done (no syncfs, the folder not opened, the call failed: a write-back error
    is reported again by the file's own fsync, which the caller then does)."""
    function = _libc_syncfs()
    if function is None:
        return False
    try:
        with _opened(folder, FOLDER) as descriptor:
            return function(descriptor) == 0
    except OSError:  # the folder could not be opened
        return False


def fsync_file(path: Path) -> None:
    """One file's bytes written to disk (the fallback when syncfs could not be done). An error is
    raised: nothing may commit a file whose bytes are not on disk."""
    with _opened(path) as descriptor:
        os.fsync(descriptor)


def fsync_folder(folder: Path) -> None:
    """A folder's entries (the renames and removals done in it) written to disk. An error is passed
    over: some file systems refuse to open or sync a folder, and the renames are done all the same."""
    try:
        with _opened(folder, FOLDER) as descriptor:
            os.fsync(descriptor)
    except OSError:
        pass


@contextmanager
def _opened(path: Path, flags: int = os.O_RDONLY) -> Iterator[int]:
    descriptor = os.open(path, flags)
    try:
        yield descriptor
    finally:
        os.close(descriptor)


class Devices:
    """Whether a folder is on the filesystem of a given root (its `st_dev`), each folder asked once."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self._device: int | None = None
        self._known: dict[Path, bool] = {}

    def same_filesystem(self, folder: Path) -> bool:
        if folder not in self._known:
            if self._device is None:
                self._device = os.stat(self.root).st_dev
            self._known[folder] = os.stat(folder).st_dev == self._device
        return self._known[folder]
