"""The site's pages made again only for what changed (issue 27), as bulletins are (render/cache.py):
each page is recorded with a hash of what its template is given (template, file name, league,
Open Graph tags, context, with the code and render fingerprints: `cache.source_key`) and the hash
of its bytes. A page whose source hashes the same and whose file in outputs/ still has the recorded
bytes is taken from there, not rendered again; one edited or deleted by hand is made again.

The records are kept in `outputs/.reportgen/pages` (hidden, JSON, never code), written after the
site is published: a build stopped before leaves the last records, whose hashes the new files no
longer match, so those pages are rendered again. The key hashes the context, never the page:
pickling plain data costs a small part of rendering it (docs/performance.md)."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from pathlib import Path
from typing import cast

from reportgen.ingest.file_hashes import FileHashes
from reportgen.ingest.read_cache import FOLDER, FORMAT, load_json, write_file
from reportgen.render import cache

RECORDS = "pages"
MISSING = object()  # `Pages.lookup`: the page is to be made


class Pages:
    """The records of the last build's pages, and this build's as it makes them."""

    def __init__(self, outputs: Path, hashes: FileHashes | None = None) -> None:
        self.outputs = outputs
        # the build's file hashes (ingest/file_hashes.py): a page they know by its stat as the bytes
        # recorded is neither read nor hashed to be taken
        self.hashes = hashes
        found = load_json(outputs / FOLDER / RECORDS)
        valid = isinstance(found, dict) and found.get("format") == FORMAT and isinstance(found.get("pages"), dict)
        self.previous: dict[str, object] = found["pages"] if valid else {}
        self.records: dict[str, dict[str, str]] = {}
        self.rendered: list[str] = []  # the pages this build rendered, by path relative to outputs/
        self.taken: set[str] = set()  # those it took from disk, their bytes checked against their record
        # the other files of the site it took from disk whole (the Open Graph cards, by their name:
        # site/og.py `known`), with the SHA-256 of the bytes read; not recorded (a card's name says
        # what it shows)
        self.files: dict[str, str] = {}

    def page(self, path: str, parts: tuple[object, ...], render: Callable[[], bytes], read: bool = False) -> bytes | None:
        """The page at `path` (relative to outputs/): the bytes on disk when `parts` (all its template
        is given) hash as last time and the file is the one recorded, else `render()`'s. None when
        the file is the one recorded by its stat (`hashes`) and `read` is not asked: taken as it is
        on disk, unread (at 100x, 14,000 unchanged pages of 20 KB read and hashed at each build)."""
        key, data = self.lookup(path, parts, read)
        return self.made(path, key, render()) if data is MISSING else cast(bytes | None, data)

    def lookup(self, path: str, parts: tuple[object, ...], read: bool = False) -> tuple[str | None, bytes | None | object]:
        """The page's key, and its bytes when the last build's page is taken (`page`): None when taken
        unread, `MISSING` when it must be made (then given to `made`, by whoever makes it: the
        players' pages worker, site/pages_aside.py)."""
        key = cache.source_key("site page", path, *parts)
        recorded = self.previous.get(path)
        # a page the last build did not make (every page of a first build) is made: not even its
        # path joined (twice per page: 2 % of the site's pages at 100x)
        if recorded is not None:
            target = self.outputs / path
            if not read:
                sha256 = cache.proven(target, recorded, key, self.hashes)
                if sha256 is not None:
                    self.taken.add(path)
                    self.records[path] = {"key": str(key), "sha256": sha256}
                    return key, None
            data = cache.reuse(target, recorded, key)
            if data is not None and isinstance(recorded, dict):  # reuse checked the bytes against its SHA-256
                self.taken.add(path)
                self.records[path] = {"key": str(key), "sha256": str(recorded["sha256"])}
                return key, data
        return key, MISSING

    def made(self, path: str, key: str | None, data: bytes) -> bytes:
        """`data`, the page just made for `path` whose `lookup` gave `key`, recorded."""
        self.rendered.append(path)
        record = cache.source_record(key, data)
        if record is not None:
            self.records[path] = record
        return data

    def read(self, path: str) -> bytes:
        """A page `page` took from disk unread (None), read now."""
        return (self.outputs / path).read_bytes()

    def file(self, path: str, data: bytes) -> None:
        """`data` just read whole from the file at `path` (relative to outputs/) and given as it is:
        the staging need not read it again to compare it (at 100x, 4,000 cards of 25 KB)."""
        self.files[path] = hashlib.sha256(data).hexdigest()

    def proven_file(self, path: str) -> bool:
        """Whether the file at `path` (relative to outputs/) is one a build wrote, as the file hashes
        know it by its stat (an Open Graph card, whose name says what it shows): taken unread, its
        recorded SHA-256 given to the staging (at 100x, 4,000 cards of 25 KB read at each build)."""
        sha256 = self.hashes.recorded(self.outputs / path) if self.hashes is not None else None
        if sha256 is None:
            return False
        self.files[path] = sha256
        return True

    def digest(self, path: str) -> tuple[str | None, bool]:
        """The SHA-256 of the bytes this build gave for the page or file at `path` (relative to
        outputs/), None when not recorded, and whether they were taken from the file itself: what the
        staging would otherwise read and hash again (site/publish.py `stage`)."""
        record = self.records.get(path)
        if record is None and path in self.files:
            return self.files[path], True
        return (record["sha256"] if record else None), path in self.taken

    def save(self) -> None:
        """Record this build's pages (only those it made: a page no longer made is forgotten)."""
        data = {"format": FORMAT, "pages": dict(sorted(self.records.items()))}
        try:
            write_file(self.outputs / FOLDER / RECORDS, (json.dumps(data, separators=(",", ":")) + "\n").encode("ascii"))
        except OSError:
            pass  # the next build renders every page, which is all a missing record costs
