"""Who filed each workbook of inputs/, as `reportgen inbox` recorded it in the league's database:
the club whose message brought it (`Filers`), for `inbox`'s owners and for the calendar of every
command that loads the league (`filed_senders`). Light on purpose: `reportgen build` imports it before
it knows whether anything changed, without the mail modules (delivery/inbox_run.py)."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Mapping
from pathlib import Path

from reportgen.delivery import database
from reportgen.ingest.discover import discover
from reportgen.ingest.file_hashes import FileHashes


def decided(archive: Path, query: str) -> list[sqlite3.Row]:
    """What `inbox` decided, as `query` selects it; nothing without a database or from one that
    cannot be read (`check` lists nothing then, the command that writes it says why)."""
    try:
        connection = database.connect(archive, create=False)
    except database.DatabaseUnusable:
        return []
    if connection is None:
        return []
    try:
        return connection.execute(query).fetchall()
    except sqlite3.Error:
        return []
    finally:
        connection.close()


class Filers:
    """Which club's message filed a workbook of inputs/: the latest accepted there, else the latest
    that brought these very bytes (the secretary renamed or moved the file); none when no club's
    message did (the secretary put it there). The one rule of `inbox`'s owners (`Inbox._filed_by`)
    and of the calendar's senders (`filed_senders`)."""

    QUERY = ("SELECT f.path, f.sha256, m.club_code FROM inbox_file f JOIN inbox_message m ON m.id = f.message "
             "WHERE f.status = 'accepted' AND m.club_code != '' ORDER BY m.id")

    def __init__(self, rows: list[sqlite3.Row]) -> None:
        self.by_path = {row["path"]: row["club_code"] for row in rows}  # the latest message's, rows in order
        self.by_bytes = {row["sha256"]: row["club_code"] for row in rows}

    def of(self, path: str, digest: Callable[[], str]) -> str:
        """The club's code for the file at `path`; `digest` gives its SHA-256, asked for only when no
        message filed it there."""
        return self.by_path.get(path) or self.by_bytes.get(digest(), "")


def filed_senders(archive: Path, folder: Path, digests: Mapping[str, str] | None = None,
                  hashes: FileHashes | None = None) -> dict[str, str]:
    """The club whose message filed each workbook of the league's `folder` (inputs/, or the folder
    put together from it: delivery/seasons.py), by its path there (`Filers`); those no club's message
    filed are not in it. `digests`: each file's SHA-256 by its path, when the caller knows them; else
    a workbook no message filed at its path is hashed (through `hashes`). The commands that load the
    league give it to `load`, whose calendar matches a workbook whose sheet names no club with its
    sender's row first, as `inbox` matched it (inbox_filing.py `examine`): without it, a club's own
    stage was another club's tournament on the home page and in the clubs' mails (that club's row of
    the same day), and its own row « résultats attendus », reminded."""
    rows = decided(archive, Filers.QUERY)
    if not rows:  # no inbox: nothing listed, nothing hashed
        return {}
    filers, hashes = Filers(rows), hashes if hashes is not None else FileHashes(None)
    paths = digests.keys() if digests is not None else [  # the workbooks a build reads, a broken link aside
        p.relative_to(folder).as_posix() for p in discover(folder)[0] if p.is_file()]
    found = {}
    for path in paths:
        club = filers.of(path, lambda: digests[path] if digests is not None else hashes.digest(folder / path))
        if club:
            found[path] = club
    return found
