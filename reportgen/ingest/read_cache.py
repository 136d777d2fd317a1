"""The sheets of every workbook read (`outputs/.reportgen/reads`), by the SHA-256 of its file: a
build reads again only the workbooks that changed, and a league read from two sources (inputs/ and
an archived season) reads each workbook once. Kept with the readers it serves; valid only for the
code that wrote it (the fingerprint the build gives, render/cache.py). JSON, no code ever loaded
from outputs/, written through a temporary file and a rename."""

from __future__ import annotations

import datetime as dt
import functools
import json
import os
from pathlib import Path
from typing import Any

from reportgen.collector import uncollected
from reportgen.ingest.text import Unprintable
from reportgen.ingest.workbook import Sheet
from reportgen.temporaries import new_temporary

FOLDER = ".reportgen"  # under outputs/: hidden, so no output listing shows it
READS = "reads"
# The archived seasons' workbooks, read again for the site's pages (delivery/site_archive.py): their
# own file, as the build's is sealed before the site's pages are made and keeps inputs/'s alone.
ARCHIVE_READS = "archive-reads"
FORMAT = 1


def load_json(path: Path) -> Any:
    """The JSON of `path`, None when missing or damaged. Decoded without the cycle collector: a tree
    of dicts and lists has no cycle to find, and the read cache at 100x (millions of objects) made
    it walk the whole process three times while decoding (0.3 CPU-s, fifteenth round)."""
    try:
        data = path.read_bytes()
    except OSError:
        return None
    with uncollected():
        try:
            return json.loads(data)
        except ValueError:
            return None


def write_file(path: Path, data: bytes) -> None:
    """A temporary file then a rename: the file is the old one or the new one, never half."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = new_temporary(path)  # what `state.clean` removes after a killed build
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
        os.chmod(temporary, 0o644)
        os.replace(temporary, path)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise


def _cell(value: object) -> object:
    """A cell as JSON: text, numbers and booleans as they are, the others tagged."""
    if isinstance(value, Unprintable):
        return {"u": 1}
    if value is None or isinstance(value, (str, bool, int, float)):
        return value
    if isinstance(value, dt.datetime):
        return {"dt": value.isoformat()}
    if isinstance(value, dt.date):
        return {"d": value.isoformat()}
    if isinstance(value, dt.time):
        return {"t": value.isoformat()}
    if isinstance(value, dt.timedelta):
        return {"td": [value.days, value.seconds, value.microseconds]}
    raise TypeError(f"a cell of type {type(value).__name__}")


def _value(cell: object) -> object:
    if not isinstance(cell, dict):
        return cell
    if "u" in cell:
        return Unprintable()
    if "dt" in cell:
        return dt.datetime.fromisoformat(cell["dt"])
    if "d" in cell:
        return dt.date.fromisoformat(cell["d"])
    if "t" in cell:
        return dt.time.fromisoformat(cell["t"])
    if "td" in cell:
        days, seconds, microseconds = cell["td"]
        return dt.timedelta(days=days, seconds=seconds, microseconds=microseconds)
    raise ValueError("unknown cell")


def _exact_type(value: object) -> bool:
    """Only the types the reader gives, exactly (a subclass could carry more than JSON keeps)."""
    return type(value) in (str, bool, int, float, dt.datetime, dt.date, dt.time, dt.timedelta, Unprintable) \
        or value is None


class ReadCache:
    """The sheets of workbooks read before, by the SHA-256 of their file (with the size of the
    answer their reader sent, which the budget of what the parent holds counts)."""

    def __init__(self, outputs: Path | None, code: str, name: str = READS) -> None:
        self.path = outputs / FOLDER / name if outputs is not None else None
        self.code = code  # the code that reads (its fingerprint): another one reads again
        self.used: dict[str, dict] = {}  # what this build read or found: what the next one may reuse
        # Each workbook a first reading parsed, by its SHA-256 and label, until the load that follows
        # takes it (pipeline/parsed.py): this process only, never saved.
        self.parsed: dict[tuple[str, str], object] = {}
        self.sealed: bytes | None  # set by `seal`: the file `save` writes (None: the one there already)

    @functools.cached_property
    def known(self) -> dict[str, dict]:
        """The file's sheets, read when first asked for: a cache made before a build that finds
        nothing changed (`reportgen build`'s, given to `build`) costs nothing (at 100x the file is
        large)."""
        data = load_json(self.path) if self.path is not None else None
        if isinstance(data, dict) and data.get("format") == FORMAT and data.get("code") == self.code \
                and isinstance(data.get("files"), dict):
            return data["files"]
        return {}

    def get(self, digest: str) -> tuple[int, list[Sheet]] | None:
        entry = self.known.get(digest) or self.used.get(digest)  # read before, or by this build
        if not isinstance(entry, dict):
            return None
        try:
            # a tagged value (a date, a time) is a dict; the other cells are as JSON gives them: not
            # a call per cell (a million at 100x)
            sheets = [Sheet(name, [[_value(cell) if type(cell) is dict else cell for cell in row] for row in rows],
                            bool(hidden), set(formulas),
                            tuple(int(row) for row in hidden_rows))
                      for name, hidden, formulas, rows, hidden_rows in entry["sheets"]]
            size = int(entry["size"])
        except (KeyError, TypeError, ValueError):
            return None
        if not all(isinstance(sheet.name, str) for sheet in sheets):
            return None
        self.used[digest] = entry
        return size, sheets

    def put(self, digest: str, size: int, sheets: list[Sheet]) -> None:
        if not all(_exact_type(value) for sheet in sheets for row in sheet.rows for value in row):
            return
        self.used[digest] = {"size": size, "sheets": [
            [sheet.name, sheet.hidden, sorted(sheet.untrusted_formulas), [[_cell(value) for value in row]
                                                                          for row in sheet.rows],
             list(sheet.hidden_rows)]
            for sheet in sheets]}

    def seal(self) -> None:
        """What `save` writes, encoded now, and the sheets as Python objects dropped: a build calls it
        once the league is loaded, so that it does not hold every workbook's cells (at 100x, more
        than the encoded file many times over) while it scores and renders. No `get` or `put` after.
        The parses handed to its load, if it left any, dropped too."""
        self.parsed = {}
        if self.path is None:
            return
        files = dict(sorted(self.used.items()))
        self.sealed = None if files == self.known else self._encoded(files)
        self.known, self.used = {}, {}

    def _encoded(self, files: dict[str, dict]) -> bytes:
        data = {"format": FORMAT, "code": self.code, "files": files}
        return (json.dumps(data, ensure_ascii=True, separators=(",", ":")) + "\n").encode("ascii")

    def save(self) -> bool:
        """Keep what this build read (the workbooks gone from inputs/ are forgotten)."""
        if self.path is None:
            return False
        if not hasattr(self, "sealed"):
            files = dict(sorted(self.used.items()))
            self.sealed = None if files == self.known else self._encoded(files)
        if self.sealed is None and self.path.is_file():
            return True  # what was read is what the file holds
        if self.sealed is None:
            return False  # the file went while the build ran: the next build reads again
        try:
            write_file(self.path, self.sealed)
        except (OSError, ValueError):
            return False
        return True
