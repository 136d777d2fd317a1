"""The SHA-256 of files by their stat (`outputs/.reportgen/hashes`), as git's index keeps them: a
file whose size, mtime, inode and ctime are those recorded is not read and hashed again. What the
build's key and the last build's state compare (render/cache.py, pipeline/state.py) stays the
content hash; this only spares reading 4,000 workbooks and as many outputs to learn that they did
not change.

An entry is trusted only when every stat field is equal, and it is recorded only when the file's
mtime was older than the moment it was stat'ed by more than `RACY_NS` (git's « racy » rule): a file
edited after it was hashed, even within the same tick of the filesystem's clock, always shows
another mtime than the one recorded. An edit that puts the size and mtime back (`touch -d`) still
changes the ctime, which no user program can set. Entries are keyed by absolute path; a file
copied, moved or replaced has another inode or ctime and is hashed again. JSON, written through a
temporary file and a rename; a cache lost or unreadable costs one hashing of every file."""

from __future__ import annotations

import errno
import hashlib
import json
import os
import stat as stat_kind
import time
from pathlib import Path

from reportgen.ingest.read_cache import FOLDER, FORMAT, load_json, write_file

HASHES = "hashes"
# Coarser than any filesystem's timestamps (FAT's 2 s; ext4 and tmpfs stamp with the kernel's
# coarse clock, a few milliseconds behind the one Python reads), so that an edit after the stat
# cannot carry the mtime recorded.
RACY_NS = 3_000_000_000


def content_digest(path: str | os.PathLike) -> str:
    hasher = hashlib.sha256()
    with open(path, "rb") as stream:
        while chunk := stream.read(1 << 20):
            hasher.update(chunk)
    return hasher.hexdigest()


class FileHashes:
    """path -> SHA-256, from the stat recorded by an earlier build when it is the file's stat now."""

    def __init__(self, outputs: Path | None) -> None:
        self.path = outputs / FOLDER / HASHES if outputs is not None else None
        self.known: dict[str, object] = {}  # absolute path -> [size, mtime_ns, ino, ctime_ns, sha256]
        self.used: dict[str, list] = {}  # the entries this build could record (the others are forgotten)
        data = load_json(self.path) if self.path is not None else None
        if isinstance(data, dict) and data.get("format") == FORMAT and isinstance(data.get("files"), dict):
            self.known = data["files"]

    def digest(self, path: str | os.PathLike) -> str:
        """The file's SHA-256."""
        since = time.time_ns()  # before the stat: an edit after it is newer than this
        name = os.path.abspath(path)
        return self._digest(name, os.stat(name), since)

    def folder(self, folder: Path, skip_hidden: bool) -> dict[str, str]:
        """Every file under `folder` (`folder_files`): its path relative to it -> its SHA-256."""
        since = time.time_ns()
        files = folder_files(Path(os.path.abspath(folder)), skip_hidden)  # absolute paths, made once
        return {relative: self._digest(path, stat, since) for relative, path, stat in files}

    def _digest(self, name: str, stat: os.stat_result, since: int) -> str:
        """`name`: an absolute path; `stat`: its stat, taken after the time.time_ns() `since`."""
        fields = [stat.st_size, stat.st_mtime_ns, stat.st_ino, stat.st_ctime_ns]
        entry = self.known.get(name)
        # Checked here rather than when loaded: most entries are never looked at twice.
        if type(entry) is list and len(entry) == 5 and entry[:4] == fields and type(entry[4]) is str:
            self.used[name] = entry
            return entry[4]
        value = content_digest(name)
        if stat.st_mtime_ns < since - RACY_NS:  # else racy: hashed again next time
            self.used[name] = [*fields, value]
        return value

    def save(self) -> bool:
        """Keep the entries of the files this build hashed; nothing written when they are those
        loaded. False if the file could not be written (the next build hashes every file)."""
        if self.path is None or self.used == self.known:
            return self.path is not None
        data = {"format": FORMAT, "files": dict(sorted(self.used.items()))}
        try:
            write_file(self.path, (json.dumps(data, separators=(",", ":")) + "\n").encode("ascii"))
        except OSError:
            return False
        self.known = dict(self.used)
        return True


def folder_files(folder: Path, skip_hidden: bool) -> list[tuple[str, str, os.stat_result]]:
    """Every file under `folder`, sorted as pathlib sorts them: (its path relative to `folder`, in
    posix form; its full path; its stat). As `Path.rglob("*")` then `is_file()` did: linked folders
    not followed, linked files followed, a folder that cannot be listed skipped, compiled Python
    left out; with `skip_hidden`, what is under a name starting with "." or "~$" too (as discover
    skips them). One `scandir` per folder and one stat per file: the stat the hashes are keyed on."""
    found: list[tuple[tuple[str, ...], str, os.stat_result]] = []
    stack: list[tuple[str, tuple[str, ...]]] = [(os.fspath(folder), ())]
    while stack:
        directory, parts = stack.pop()
        try:
            with os.scandir(directory) as entries:
                listed = list(entries)
        except PermissionError:
            continue
        for entry in listed:
            name = entry.name
            if name == "__pycache__" or (skip_hidden and name.startswith((".", "~$"))):
                continue
            if entry.is_dir(follow_symlinks=False):
                stack.append((entry.path, (*parts, name)))
                continue
            if name.endswith(".pyc") and len(name) > len(".pyc"):  # Path.suffix's rule
                continue
            try:
                stat = entry.stat()  # a linked file: its target's
            except OSError as error:
                if error.errno in (errno.ENOENT, errno.ENOTDIR, errno.EBADF, errno.ELOOP):
                    continue  # a link to nothing, or to itself: not a file, as is_file() said
                raise
            if stat_kind.S_ISREG(stat.st_mode):
                found.append(((*parts, name), entry.path, stat))
    found.sort(key=lambda item: item[0])
    return [("/".join(parts), path, stat) for parts, path, stat in found]
