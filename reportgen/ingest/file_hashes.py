"""The SHA-256 of files by their stat (`outputs/.reportgen/hashes`), as git's index keeps them: a
file whose size, mtime, inode and ctime are those recorded is not read and hashed again. What the
build's key and the last build's state compare (render/cache.py, pipeline/state.py) stays the
content hash; this only spares reading 4,000 workbooks and as many outputs to learn that they did
not change.

An entry is trusted only when every stat field is equal and the file's mtime is older than the
cache file's own mtime (git's « racy » rule, `is_racy_timestamp` in its read-cache.c: both in the
filesystem's clock, whatever its granularity). A file edited after the cache was written shows an
mtime at least the cache's; one edited within the same tick of the filesystem's clock as the cache
was written shows the very mtime recorded, so an entry that recent is « racy »: the file is hashed
again, and the cache written again so that, older than the new cache, it is trusted next time. An
edit that puts the size and mtime back (`touch -d`) still changes the ctime, which no user program
can set. Entries are keyed by absolute path; a file copied, moved or replaced has another inode or
ctime and is hashed again. As in git, a file edited between its stat and the cache's writing within
the very tick of its previous mtime would not be seen: a tick is a few milliseconds (ext4, tmpfs),
and the stats are taken, the cache written, by the same build. Within one build, a file it hashed
(or wrote) is not read again while its stat is the one its entry took: the same tick's edit the
cache would miss too, and no other.

JSON, written through a temporary file and a rename; a cache lost or unreadable costs one hashing
of every file. Per file, one `scandir` entry, one stat and one dict lookup: a build that finds
nothing changed goes through ~29,000 of them at 100x (docs/performance.md)."""

from __future__ import annotations

import errno
import hashlib
import json
import os
import stat as stat_kind
from operator import attrgetter
from pathlib import Path

from reportgen.collector import uncollected
from reportgen.ingest.read_cache import FOLDER, FORMAT, write_file

HASHES = "hashes"
_NAME = attrgetter("name")


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
        self.known: dict[str, list] = {}  # absolute path -> [size, mtime_ns, ino, ctime_ns, sha256]
        self.used: dict[str, list] = {}  # the entries this build could record (the others are forgotten)
        # The cache file's mtime when loaded (the filesystem's clock): files modified at or after it
        # are racy. 0 without a cache: every entry is new.
        self.written = 0
        self.racy = False  # an entry found racy: the cache is written again, newer than the file
        if self.path is not None:
            self._load(self.path)

    def _load(self, path: Path) -> None:
        try:
            with open(path, "rb") as stream:
                written = os.fstat(stream.fileno()).st_mtime_ns
                with uncollected():  # a tree: nothing to collect (read_cache.load_json)
                    data = json.loads(stream.read())
        except (OSError, ValueError):
            return
        if isinstance(data, dict) and data.get("format") == FORMAT and isinstance(data.get("files"), dict):
            self.known, self.written = data["files"], written

    def digest(self, path: str | os.PathLike) -> str:
        """The file's SHA-256."""
        name = os.path.abspath(path)
        return self._digest(name, os.stat(name))

    def folder(self, folder: Path, skip_hidden: bool, prefix: str = "") -> dict[str, str]:
        """Every file under `folder` (`folder_files`): `prefix` and its path relative to it -> its
        SHA-256; a link to nothing -> where it points (« -> target », never a SHA-256), so that a link
        whose file went, or came back, changes what a key made of these values says."""
        found = {}
        known, used, written = self.known, self.used, self.written
        gone: list[tuple[str, str]] = []
        for relative, name, stat in folder_files(Path(os.path.abspath(folder)), skip_hidden, prefix, gone):
            entry = known.get(name)
            # The lookup inlined (the commonest case of a build that finds nothing changed); the
            # entry's shape checked here rather than when loaded: the cache is data from outputs/.
            if (type(entry) is list and len(entry) == 5 and entry[1] == stat.st_mtime_ns
                    and entry[0] == stat.st_size and entry[2] == stat.st_ino and entry[3] == stat.st_ctime_ns
                    and entry[1] < written and type(value := entry[4]) is str):
                used[name] = entry
                found[relative] = value
            else:
                found[relative] = self._digest(name, stat)
        for relative, target in gone:
            found[relative] = f"-> {target}"
        return found

    def recorded(self, path: str | os.PathLike) -> str | None:
        """The file's SHA-256 when its stat is the one recorded and the entry is trusted, without
        reading the file; None otherwise (absent, changed, replaced, too recent: `digest` would read it)."""
        name = os.path.abspath(path)
        try:
            stat = os.stat(name)
        except OSError:
            return None
        return self._trusted(name, stat)

    def _trusted(self, name: str, stat: os.stat_result) -> str | None:
        """The recorded SHA-256 of `name` when its entry is this stat and older than the cache (then
        kept for the next build); None otherwise, the cache to write again if only its age failed."""
        entry = self.known.get(name)
        if (type(entry) is list and len(entry) == 5 and type(entry[4]) is str
                and entry[:4] == [stat.st_size, stat.st_mtime_ns, stat.st_ino, stat.st_ctime_ns]):
            if entry[1] < self.written:
                self.used[name] = entry
                return entry[4]
            self.racy = True  # the same stat, but maybe not the same bytes: read again, recorded anew
        return None

    def _digest(self, name: str, stat: os.stat_result) -> str:
        """`name`: an absolute path; `stat`: its stat, taken before it is read."""
        value = self._trusted(name, stat)
        if value is None:
            entry = self.used.get(name)
            if type(entry) is list and entry[:4] == [stat.st_size, stat.st_mtime_ns, stat.st_ino, stat.st_ctime_ns]:
                # Hashed (or written) by this build already, the same stat since: not read again when
                # another walk meets it (archive/ for the build's key, then its seasons' check and
                # their reading for the site). What it would miss, the cache would too (the module's note).
                return entry[4]
            value = content_digest(name)
            self.used[name] = [stat.st_size, stat.st_mtime_ns, stat.st_ino, stat.st_ctime_ns, value]
        return value

    def knows(self, name: str, value: str) -> bool:
        """Whether this build found the file `name` (absolute) by its stat with the SHA-256 `value`,
        or recorded it so (`recorded`, `folder`, `learn`)."""
        entry = self.used.get(name)
        return type(entry) is list and len(entry) == 5 and entry[4] == value

    def learn(self, path: str | os.PathLike, value: str) -> None:
        """A file this build has just written, `value` the SHA-256 of the bytes it wrote: recorded
        by its stat now, without reading it back (trusted once the cache is written after it)."""
        name = os.path.abspath(path)
        stat = os.stat(name)
        self.used[name] = [stat.st_size, stat.st_mtime_ns, stat.st_ino, stat.st_ctime_ns, value]

    def save(self) -> bool:
        """Keep the entries of the files this build hashed; nothing written when they are those
        loaded and none was racy. False if the file could not be written (the next build hashes
        every file)."""
        if self.path is None or (self.used == self.known and not self.racy):
            return self.path is not None
        data = {"format": FORMAT, "files": dict(sorted(self.used.items()))}
        try:
            write_file(self.path, (json.dumps(data, separators=(",", ":")) + "\n").encode("ascii"))
        except OSError:
            return False
        self.known, self.racy = dict(self.used), False
        return True


def folder_files(folder: Path, skip_hidden: bool, prefix: str = "",
                 gone: list[tuple[str, str]] | None = None) -> list[tuple[str, str, os.stat_result]]:
    """Every file under `folder`, sorted as pathlib sorts them: (`prefix` and its path relative to
    `folder`, in posix form; its full path; its stat). As `Path.rglob("*")` then `is_file()` did:
    linked folders not followed, linked files followed, a folder that cannot be listed skipped,
    compiled Python left out; with `skip_hidden`, what is under a name starting with "." or "~$" too
    (as discover skips them). One `scandir` per folder and one stat per file: the stat the hashes
    are keyed on. `gone`, when given, receives each link to nothing: (`prefix` and its path, where
    it points)."""
    found: list[tuple[str, str, os.stat_result]] = []
    _walk(os.fspath(folder), prefix, skip_hidden, found, gone)
    return found


def _walk(directory: str, parts: str, skip_hidden: bool, found: list, gone: list | None) -> None:
    """Each folder's entries by name, a folder's files where its name sorts: the order of pathlib's
    tuples of parts (« a/b » before « a-c »), without a sort of the whole list."""
    try:
        with os.scandir(directory) as entries:
            listed = sorted(entries, key=_NAME)
    except PermissionError:
        return
    for entry in listed:
        name = entry.name
        if name == "__pycache__" or (skip_hidden and name.startswith((".", "~$"))):
            continue
        if entry.is_dir(follow_symlinks=False):
            _walk(entry.path, f"{parts}{name}/", skip_hidden, found, gone)
            continue
        if name.endswith(".pyc") and len(name) > len(".pyc"):  # Path.suffix's rule
            continue
        try:
            stat = entry.stat()  # a linked file: its target's
        except OSError as error:
            if error.errno in (errno.ENOENT, errno.ENOTDIR, errno.EBADF, errno.ELOOP):
                if gone is not None and entry.is_symlink():
                    gone.append((parts + name, os.readlink(entry.path)))
                continue  # a link to nothing, or to itself: not a file, as is_file() said
            raise
        if stat_kind.S_ISREG(stat.st_mode):
            found.append((parts + name, entry.path, stat))
