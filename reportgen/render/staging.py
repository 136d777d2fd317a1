"""A folder's next publication staged on disk file by file, as each file is made, then published all
together through render/files.py's journal.

Why: a circuit's files used to be held in memory until all of them (its PDFs included) were made,
then written at once; at 100x the Grand Sud's bulletins alone are gigabytes. Each file now goes to
its temporary file (`.<name>.<token><count>.tmp`, next to its target: reportgen/temporaries.py `Temporaries`,
no mkstemp per file) as soon as it is made, and only its SHA-256 stays in memory (the manifest
records it). Nothing shows before the commit: the
journal is written only by `publish`, after every file is staged, so a build stopped before it
leaves the previous publication, and its temporary files are removed by `discard` or, after a
kill, by the next run's `recover`.

Synced once (eleventh round): where the machine can sync a filesystem at once
(render/syncing.py), each temporary file is written without its own `fsync`, and `publish` syncs
the folder's filesystem once before it writes the journal (a publication of `FEW` files or fewer,
one new tournament's, fsyncs each there instead: a syncfs also waits for whatever the machine's
other programs left to write on that filesystem). Where the machine has no syncfs, each file is
fsynced as it is written, as before; where the sync fails, each is fsynced at `publish`. A file staged on another
filesystem than the folder's (a subfolder that is a mount point) is fsynced at once. Either way
nothing is committed before its bytes are on disk (at 100x the site's 25,000 pages: 15-18 CPU-s
of fsyncs before). The build syncs the site's staging earlier (`sync`, twelfth round), while its
PDFs render, so that the commit after them waits for no disk.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from operator import attrgetter
from pathlib import Path

from reportgen.render import files as output_files
from reportgen.render import syncing
from reportgen.render.files import JOURNAL, OutputError
from reportgen.temporaries import Temporaries, is_temporary, temporaries_of

# Paths sorted by their parts, the order of `Path`'s own comparisons, each path's key made once rather
# than two paths' parts compared at each step (the site's 25,000 paths: 0.27 → 0.13 CPU-s).
_ORDER = attrgetter("parts")
FEW = 32  # staged files up to which each is fsynced at `publish` rather than the filesystem synced


class Staging:
    """The files of one folder's next publication, each staged on disk when `put`; `publish` commits
    them (what changed replaces the old files, the stale ones are removed) or `discard` drops them."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        # target -> its temporary file, or None when the target already holds these very bytes
        self.staged: dict[Path, Path | None] = {}
        self.digests: dict[Path, str] = {}  # target -> SHA-256 of its new bytes
        self.created: list[Path] = []  # the folders made for the staged files (removed by `discard`)
        # the folders found or made for them: not looked for again at each file (the site's 25,000)
        self.folders: set[Path] = set()
        # one sync of the filesystem at `publish` rather than an fsync per file, where it can be done
        self.deferred = syncing.available()
        self.unsynced: set[Path] = set()  # the targets whose temporary file awaits that sync
        self.devices = syncing.Devices(folder)
        self.putting: Path | None = None  # the file being put, until its temporary file is recorded
        self.temporaries = Temporaries()  # the folder is this staging's alone: no mkstemp per file
        output_files.recover(folder)  # a publication a stopped run left, before anything is staged here

    def put(self, path: Path, data: bytes, on_disk: str | None = None, digest: str | None = None) -> None:
        """`data` staged for `path` (inside the folder), unless `path` already holds it; a second put
        of a path replaces the first. An OSError drops everything staged (OutputError).

        `on_disk`: the SHA-256 of `data` when the caller has just read `data` from `path` and checked
        it against that hash (a file taken from disk, as its manifest proves it: render/cache.py
        `reuse`); then it is neither read again nor hashed again (at 10x, every unchanged bulletin's
        megabytes read and hashed twice more). `digest`: the SHA-256 of `data` when the caller has
        just computed it (a site page's record, site/reuse.py), not computed again."""
        if on_disk is not None:
            self.keep(path, on_disk)
            return
        with self._or_discard(path):
            self._drop(path)
            if path.is_file() and path.read_bytes() == data:
                self.staged[path] = None
            else:
                self._make_folders(path)
                later = self._sync_later(path)
                self.staged[path] = output_files._stage(path, data, sync=not later, temporaries=self.temporaries)
                if later:
                    self.unsynced.add(path)
            self.digests[path] = digest or hashlib.sha256(data).hexdigest()

    def keep(self, path: Path, sha256: str) -> None:
        """`path` published as it is on disk, the caller having proven that it holds the bytes whose
        SHA-256 is `sha256` (a file taken from disk as its manifest and its stat prove it, render/cache.py
        `proven`): neither read nor hashed."""
        with self._or_discard(path):
            self._drop(path)
            self.staged[path] = None
            self.digests[path] = sha256

    def put_parts(self, path: Path, parts: Iterable[bytes], on_disk: str | None = None) -> None:
        """`put` of the bytes `parts` make together, each written as it comes and not kept: a file
        too large to hold whole beside what made it (a circuit's site data at 100x). Written to its
        temporary file first, then dropped if `path` already holds the same bytes (compared by
        SHA-256, read in blocks); synced only when kept. `on_disk`: the SHA-256 of what `path`
        holds when the caller knows it by its stat (ingest/file_hashes.py `recorded`): not read."""
        with self._or_discard(path):
            self._drop(path)
            self._make_folders(path)
            digest = hashlib.sha256()
            handle, temporary = self.temporaries.new(path)
            try:
                with os.fdopen(handle, "wb") as stream:
                    for part in parts:
                        digest.update(part)
                        output_files._write(stream, part)
                    if (on_disk if on_disk is not None else _sha256(path)) == digest.hexdigest():
                        stream.close()
                        temporary.unlink()
                        self.staged[path] = None
                    else:
                        stream.flush()
                        if self._sync_later(path):
                            self.unsynced.add(path)
                        else:
                            os.fsync(stream.fileno())
                        os.chmod(temporary, 0o644)
                        self.staged[path] = temporary
            except BaseException:
                temporary.unlink(missing_ok=True)
                raise
            self.digests[path] = digest.hexdigest()

    @contextmanager
    def _or_discard(self, putting: Path | None = None) -> Iterator[None]:
        """What is staged dropped if the block fails: an OSError said as the folder's OutputError.
        `putting`: the file the block stages, until it is recorded (see `discard`)."""
        self.putting = putting
        try:
            yield
            self.putting = None
        except OSError as error:
            self.discard()
            raise OutputError(self.folder, error) from error
        except BaseException:
            self.discard()
            raise

    def _make_folders(self, path: Path) -> None:
        """The folders `path` needs, each one made recorded (a discard removes it again)."""
        if path.parent in self.folders:
            return
        for parent in reversed([path.parent, *path.parent.parents]):
            if not parent.exists():
                parent.mkdir()
                self.created.append(parent)
        self.folders.add(path.parent)

    def _sync_later(self, path: Path) -> bool:
        """Whether `path`'s temporary file may wait for `publish`'s sync of the folder's filesystem:
        not when it is on another one, which that sync does not reach."""
        return self.deferred and self.devices.same_filesystem(path.parent)

    def sync(self) -> None:
        """The staged bytes on disk now rather than at `publish`: the build calls it while its PDFs
        render, so that the commit after them has nothing left to wait for (a syncfs waits for what
        every program left to write on that filesystem: 0.06 s on an idle machine, a second under a
        busy disk). A file put after it is synced at `publish`, as any. An error of the disk drops
        everything staged (OutputError), as at `publish`."""
        with self._or_discard():
            self._sync()

    def _sync(self) -> None:
        """Every staged file not synced yet on disk: the folder's filesystem synced once, or, where
        that could not be done, each file fsynced (an error of the disk raised as its OSError)."""
        waiting = [temporary for path in sorted(self.unsynced) if (temporary := self.staged.get(path)) is not None]
        # a few files (one new tournament's) fsynced each: a syncfs also waits for whatever else the
        # machine's other programs left to write on that filesystem
        if waiting and (len(waiting) <= FEW or not syncing.syncfs(self.folder)):
            for temporary in waiting:
                syncing.fsync_file(temporary)
        self.unsynced.clear()

    def _drop(self, path: Path) -> None:
        self.unsynced.discard(path)
        temporary = self.staged.pop(path, None)
        if temporary is not None:
            temporary.unlink(missing_ok=True)

    def __contains__(self, path: object) -> bool:
        return path in self.staged

    def paths(self) -> list[Path]:
        return sorted(self.staged, key=_ORDER)

    def _stale(self, suffixes: tuple[str, ...]) -> list[Path]:
        """The folder's files with one of `suffixes` that were not put nor kept (temporary files
        aside), as `rglob` and `is_file` find them (links to files included, linked folders not
        entered), but from the folders' entries: no stat nor `Path` per file that is staged (the
        site's 25,000 pages: 0.53 → 0.17 CPU-s at 100x, twentieth round)."""
        names: dict[Path, set[str]] = {}  # each folder's staged files, by name
        for path in self.staged:
            names.setdefault(path.parent, set()).add(path.name)
        found = []
        folders = [self.folder]
        while folders:
            folder = folders.pop()
            known = names.get(folder, set())
            with os.scandir(folder) as entries:
                for entry in entries:
                    if entry.is_dir(follow_symlinks=False):
                        folders.append(folder / entry.name)
                    elif entry.name not in known and os.path.splitext(entry.name)[1] in suffixes \
                            and entry.is_file() and not is_temporary(folder / entry.name):
                        found.append(folder / entry.name)
        return sorted(found, key=_ORDER)

    def digest(self, path: Path) -> str:
        return self.digests[path]

    def discard(self) -> None:
        """Every staged file removed, and the folders made for them: nothing of it shows. A put
        stopped (Ctrl-C) after its temporary file was made and before it was recorded leaves one
        `staged` does not name: removed too (more likely since no fsync fills the time between)."""
        if self.putting is not None:
            recorded = set(self.staged.values())
            for stray in temporaries_of(self.putting):
                if stray not in recorded:
                    stray.unlink(missing_ok=True)
            self.putting = None
        output_files._roll_back([(temporary, path) for path, temporary in self.staged.items()
                                 if temporary is not None], self.created)
        self.staged.clear()
        self.digests.clear()
        self.created.clear()
        self.folders.clear()
        self.unsynced.clear()

    def publish(self, last: Path | None = None, stale_suffixes: tuple[str, ...] = ()) -> list[Path]:
        """Commit: the journal (renames of the staged files, `last` after every other one; removals of
        the folder's files with one of `stale_suffixes` that were not put) written atomically, then
        done. Returns the files written. What is not committed is rolled back."""
        folder = self.folder
        with self._or_discard():
            self._sync()  # the staged bytes on disk before the journal that commits them
            stale = self._stale(stale_suffixes) if folder.is_dir() else []
        changed = sorted((path for path, temporary in self.staged.items() if temporary is not None), key=_ORDER)
        if last in changed:
            changed.remove(last)
            changed.append(last)
        staged = [(temporary, path) for path in changed if (temporary := self.staged[path]) is not None]
        if not staged and not stale:
            self.discard()
            return []
        created, self.created = self.created, []
        self.folders.clear()  # those made may be rolled back
        self.staged.clear()
        committed = False
        try:
            journal = {"renames": [[output_files.relative_name(folder, t), output_files.relative_name(folder, p)]
                                   for t, p in staged],
                       "removals": [output_files.relative_name(folder, p) for p in stale]}
            with output_files._interruptions_deferred():
                # The commit: once the journal is in place, the publication is finished even if this
                # process stops now (the next run's `recover` does the rest).
                journal_temporary = output_files._stage(folder / JOURNAL,
                                                        json.dumps(journal, ensure_ascii=False).encode("utf-8"))
                staged.append((journal_temporary, folder / JOURNAL))
                output_files._rename(journal_temporary, folder / JOURNAL)
                committed = True
                staged.clear()
                syncing.fsync_folder(folder)
                output_files._complete(folder, journal)
        except OSError as error:
            if committed:  # the next run completes it
                raise OutputError(folder, error, "la publication sera terminée au prochain lancement") from error
            output_files._roll_back(staged, created)
            raise OutputError(folder, error) from error
        except BaseException:
            output_files._roll_back(staged, created)
            raise
        return changed


def _sha256(path: Path) -> str | None:
    """The SHA-256 of a file's bytes, read in blocks; None when it is not a file."""
    if not path.is_file():
        return None
    digest = hashlib.sha256()
    with path.open("rb") as stream:
        while block := stream.read(1 << 20):
            digest.update(block)
    return digest.hexdigest()
