"""Writing outputs so that a reader never sees a half-written file, and a folder never holds half a
publication, whatever stops the build (Ctrl-C, kill -9, a full disk, a power cut).

One file: `write_atomic` (a temporary file in the same folder, fsync, `os.replace`).

A folder of files published together (a circuit's bulletins, PDFs, CSV, annexes and manifest):
`publish_folder` (or render/staging.py's `Staging`, file by file as each is made), a small
journal. Every new file is first written in full next to its target as
`.<name>.<random>.tmp` (reportgen/temporaries.py); then the journal, the list of renames and removals, is written atomically:
that is the commit. Only then are the files renamed into place and the stale ones removed, and the
journal deleted. `recover` (run before anything reads the folder) finishes a committed publication
and removes the temporary files of one that was not: the folder holds the old publication or the new
one, never a mix.

A write that fails (disk full, read-only folder, a file where a folder is expected) raises
`OutputError`, a French sentence naming the folder; nothing of that publication is left behind.
Such a fault of the machine, not of the workbooks, is a `MachineError`: the command exits with
code 4 (`EXIT_MACHINE`), not 1.
"""

from __future__ import annotations

import errno
import fcntl
import json
import os
import signal
import threading
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from reportgen.model import ReportgenError
from reportgen.render import syncing
from reportgen.temporaries import Temporaries, clean_temporaries, new_temporary

JOURNAL = ".publication-journal.json"


EXIT_MACHINE = 4  # the exit code of a fault of the machine: disk full, read-only folder, permission
# What the machine says when it refuses a write, not reportgen's fault nor the workbooks'.
MACHINE_ERRNOS = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EROFS, errno.EACCES, errno.EPERM})


class MachineError(ReportgenError):
    """The machine refused to write (disk full, read-only, permission): exit code 4, not 1 (the
    workbooks have problems)."""


class OutputError(MachineError):
    """Outputs could not be written: says which folder, why and what to do, in French."""

    def __init__(self, folder: Path, error: OSError, what: str = "rien n’y a été publié à moitié",
                 option: str = "--outputs"):
        self.folder = folder
        self.error = error
        reason, fix = _reason(error, f" avec {option}" if option else "")
        super().__init__(f"{_shown(folder)} : impossible d’écrire dans ce dossier, {reason} ; {what} — {fix}")


def _shown(path: Path) -> str:
    from reportgen.ingest.text import escape_controls

    return escape_controls(str(path))


def _reason(error: OSError, option: str = " avec --outputs") -> tuple[str, str]:
    if error.errno in (errno.ENOSPC, errno.EDQUOT):
        return "le disque est plein", "libérez de la place sur le disque, puis relancez la commande"
    if error.errno == errno.EFBIG:
        return ("un fichier dépasse la taille que le système permet d’écrire",
                "levez cette limite (ulimit -f) ou écrivez sur un autre disque, puis relancez la commande")
    if error.errno in (errno.EROFS, errno.EACCES, errno.EPERM):
        return ("le dossier est en lecture seule ou protégé en écriture",
                f"donnez le droit d’écriture sur ce dossier, ou indiquez-en un autre{option}")
    if error.errno in (errno.ENOTDIR, errno.EEXIST, errno.EISDIR):
        return ("un fichier y porte le nom d’un dossier attendu (ou l’inverse)",
                f"renommez ou déplacez ce fichier, ou indiquez un autre dossier{option}")
    name = errno.errorcode.get(error.errno or 0, "inconnue")
    return f"erreur du système ({name})", "vérifiez le dossier et le disque, puis relancez la commande"


# The two operations that touch the disk, named so that tests inject faults at each one (a full
# disk at the n-th write, a kill -9 at the n-th rename).
def _write(stream, data: bytes) -> None:  # type: ignore[no-untyped-def]
    stream.write(data)


def _rename(source: Path | str, target: Path | str) -> None:
    os.replace(source, target)


def _stage(path: Path, data: bytes, mode: int = 0o644, sync: bool = True,
           temporaries: Temporaries | None = None) -> Path:
    """`data` written in full, and synced, to a temporary file next to `path`, with permissions `mode`.
    `sync` False: not synced here; the caller syncs it before any commit names it (render/staging.py,
    one syncfs for the whole publication). `temporaries`: the writer's names, when it has its own."""
    handle, temporary = temporaries.new(path) if temporaries is not None else new_temporary(path)
    try:
        with os.fdopen(handle, "wb") as stream:
            _write(stream, data)
            stream.flush()
            if sync:
                os.fsync(stream.fileno())
            os.fchmod(handle, mode)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise
    return temporary


def write_atomic(path: Path, data: bytes, mode: int | None = None) -> bool:
    """Write `data` to `path` through a temporary file in the same folder (permissions `mode`, 0644
    by default); False if unchanged. A failure leaves `path` as it was and no temporary file; an
    OSError becomes OutputError."""
    if not isinstance(data, (bytes, bytearray)):
        raise TypeError(f"write_atomic writes bytes, not {type(data).__name__}")
    try:
        if path.is_file() and path.read_bytes() == data:
            return False
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary = _stage(path, data, 0o644 if mode is None else mode)
        try:
            _rename(temporary, path)
        except BaseException:
            temporary.unlink(missing_ok=True)
            raise
    except OSError as error:
        raise OutputError(path.parent, error, "le fichier précédent est intact") from error
    return True


@contextmanager
def one_writer(path: Path) -> Iterator[Path]:
    """Hold the workbook `path` of inputs/ while it is written: one writer at a time, waiting while
    another holds it (`fcntl.flock` on `.~reportgen.<name>.lock` beside it, released when the file
    is closed). Taken by the secretary's commands for their whole read-modify-write
    (render/workbook_file.editing) and by `inbox` as it files a club's version (delivery/inbox_filing),
    so that neither removes the other's temporary file nor writes over the other mid-write. Yields
    the file to write: the target of a symbolic link.

    The lock file is removed as the lock is released, so that none is left in her inputs/ (one per
    workbook `inbox` filed, else). Removed while held, it is the one locked only if the name still
    names it once locked: a writer that waited on a file since removed takes the name's new one."""
    target = Path(os.path.realpath(path))
    target.parent.mkdir(parents=True, exist_ok=True)
    name = target.parent / f".~reportgen.{target.name}.lock"
    while True:
        lock = open(name, "a")
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            if os.stat(name).st_ino == os.fstat(lock.fileno()).st_ino:
                break
        except FileNotFoundError:
            pass
        lock.close()  # removed by the writer before us: wait on the name's new file
    try:
        yield target
    finally:
        name.unlink(missing_ok=True)
        lock.close()


def remove_others(folder: Path, pattern: str, kept: Iterable[Path]) -> None:
    """Remove the files of `folder` (not of its subfolders) matching `pattern` that are not `kept`:
    the drafts or PDFs a command made last time and no longer makes."""
    kept = set(kept)
    if folder.is_dir():
        for stale in folder.glob(pattern):
            if stale not in kept and stale.is_file():
                stale.unlink()


@contextmanager
def _interruptions_deferred() -> Iterator[None]:
    """Ctrl-C (and SIGTERM) wait until the block ends: the renames of a committed publication are
    done together. A signal that came meanwhile is handled right after."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    received: list[tuple[int, object]] = []
    handlers: dict[signal.Signals, Any] = {}
    for number in (signal.SIGINT, signal.SIGTERM):
        handlers[number] = signal.getsignal(number)
        signal.signal(number, lambda signum, frame: received.append((signum, frame)))
    try:
        yield
    finally:
        for number, handler in handlers.items():
            signal.signal(number, handler)
        for signum, frame in received[:1]:
            handler = handlers[signal.Signals(signum)]
            if callable(handler):  # Python's KeyboardInterrupt, or the command's own handler
                handler(signum, frame)
            elif handler == signal.SIG_DFL:
                signal.raise_signal(signum)


def _complete(folder: Path, journal: dict) -> None:
    """Do what a committed journal says (again, if a previous run stopped halfway), then drop it.
    Its paths joined as text, not as `Path`s: at 100x the site's journal names 25,000 files, and
    three `Path`s made for each were most of the commit's time in Python (thirteenth round)."""
    root = os.fspath(folder)
    touched = {root}

    def inside(relative: str) -> str:
        if relative.startswith("/") or ".." in relative.split("/"):
            raise ValueError(f"not a path of {folder}: {relative}")
        return os.path.join(root, relative)

    for temporary, target in journal["renames"]:
        source, destination = inside(temporary), inside(target)
        if os.path.exists(source):
            _rename(source, destination)
            touched.add(os.path.dirname(destination))
    for stale in journal["removals"]:
        Path(inside(stale)).unlink(missing_ok=True)
    for path in sorted(touched):
        syncing.fsync_folder(Path(path))
    (folder / JOURNAL).unlink(missing_ok=True)
    syncing.fsync_folder(folder)


def relative_name(folder: Path, path: Path) -> str:
    """`path`, inside `folder`, as a journal names it: relative to `folder`, with "/" (`Path.relative_to`
    as text, without making two `Path`s for each of the site's 25,000 files)."""
    prefix, text = os.path.join(os.fspath(folder), ""), os.fspath(path)
    if text.startswith(prefix):
        return text[len(prefix):]
    return path.relative_to(folder).as_posix()  # a folder "." (its files have no "./"), or ValueError


def recover(folder: Path) -> bool:
    """Finish the committed publication a stopped run left in `folder`, and remove the temporary
    files of an uncommitted one. True when a publication was finished."""
    if not folder.is_dir():
        return False
    finished = False
    journal_path = folder / JOURNAL
    try:
        if journal_path.is_file():
            journal = json.loads(journal_path.read_text(encoding="utf-8"))
            with _interruptions_deferred():
                _complete(folder, journal)
            finished = True
        clean_temporaries(folder)
    except OSError as error:
        raise OutputError(folder, error, "la publication interrompue reste à terminer") from error
    except (ValueError, KeyError, TypeError):  # not a journal of ours (written atomically, so never half)
        journal_path.unlink(missing_ok=True)
        clean_temporaries(folder)
    return finished


def publish_folder(folder: Path, files: dict[Path, bytes], last: Path | None = None,
                   stale_suffixes: tuple[str, ...] = ()) -> list[Path]:
    """Publish `files` (paths inside `folder`) all together: those that changed replace the old
    ones, and the files of `folder` with one of `stale_suffixes` that `files` no longer has are
    removed. `last` (the manifest) is renamed after every other file. Returns the files written.
    (render/staging.py stages each file as it comes, for a publication too large to hold.)"""
    from reportgen.render.staging import Staging

    staging = Staging(folder)
    for path, data in sorted(files.items()):
        staging.put(path, data)
    return staging.publish(last, stale_suffixes)


def _roll_back(staged: list[tuple[Path, Path]], created: list[Path]) -> None:
    for temporary, _ in staged:
        try:
            temporary.unlink(missing_ok=True)
        except OSError:
            pass  # the next run's clean-up removes it
    for folder in reversed(created):
        try:
            folder.rmdir()
        except OSError:
            pass
