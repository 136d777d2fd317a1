"""What `reportgen build` reads of archive/, by content, for the key of the league it builds
(pipeline/building.py `build`, render/cache.py `build_key`'s `archive`).

A build with an archive is known by two keys: the folders' (`origin_key`: every file of inputs/
and archive/, the database's bytes included) and the league's (the workbooks it was put together
from, the senders `inbox` filed them for). The first misses whenever the database's file changes,
and the second then decides. It named nothing of what the site's archived seasons are made from
(delivery/site_archive.py: the database's archive, file, tournament, result, player and ranking
rows; the copies' workbooks, scored again): after a season's row corrected, the next `make` found
the league's key unchanged, said « rien n’a changé » and left the season's page as it was; after a
copy's workbook edited, it said nothing of it (the note « lancez reportgen archive verify »). A new
copy of a season that had left inputs/ (`archive --reason`) was not in it either.

So the league's key names every file of the seasons' copies (archive/<year>/: their workbooks,
records and manifests), and the database not by its bytes but by the rows the build reads. Not the
rest of archive/: the inbox's files (archive/inbox/: every message read, the workbooks refused, held
or replaced) change at each `inbox` run and the build reads none of them, nor the send log
(`sending`) and the inbox's tables, which change at each mail sent or message filed; a build that
reads none of them must stay skipped (the inbox's decisions the build reads are in its key already,
as `senders`). Those rows are read (read-only) only when the file's SHA-256, which
`origin_key` has just taken (by its stat: ingest/file_hashes.py), is not the one they were last
digested for (`outputs/.reportgen/archive-rows`): at 100x, a season's 146,000 ranking rows take
about a second to digest, once after each change of the file, never in a build that finds nothing
changed (its folders' key matches first). Not a counter the writers bump: a row edited with the
sqlite3 shell, or by an older reportgen, would not bump it."""

from __future__ import annotations

import hashlib
import json
import sqlite3
from pathlib import Path

from reportgen.delivery.database import DATABASE, WAIT_SECONDS
from reportgen.ingest.file_hashes import FileHashes
from reportgen.ingest.read_cache import FOLDER, load_json, write_file
from reportgen.render.cache import code_fingerprint

ROWS = "archive-rows"
FORMAT = 1
# The tables the build reads (delivery/site_archive.py, delivery/seasons.py: the view current_archive
# is made of `archive`); not club, sending, inbox_message nor inbox_file.
READ = ("archive", "archived_file", "player", "tournament", "result", "ranking", "ranking_row", "ranking_left_out")


def read_by_build(archive: Path, outputs: Path, hashes: FileHashes) -> dict[str, str] | None:
    """Every file of archive/ a build may read (`origin_key`'s, hidden ones aside): its path -> its
    SHA-256, the database's (and its journal's) replaced by the digest of the rows the build reads.
    None when archive/ cannot be listed: then nothing is skipped."""
    try:
        files = hashes.folder(archive, skip_hidden=True)
    except OSError:
        return None
    return seasons_and_rows(archive, files, outputs)


def seasons_and_rows(archive: Path, files: dict[str, str], outputs: Path) -> dict[str, str]:
    """Of `files` (archive/'s, path -> SHA-256), those of the seasons' copies (archive/<year>/), and the
    database by the digest of its rows (`database_digest`): what a build reads of archive/. Its
    journal (a write under way), archive/inbox/ and archive/'s own hidden files are left out."""
    read = {name: digest for name, digest in files.items() if name.split("/", 1)[0].isdigit()}
    if DATABASE in files:
        read[DATABASE] = database_digest(archive / DATABASE, files[DATABASE], outputs)
    return read


def database_digest(path: Path, file_digest: str, outputs: Path) -> str:
    """The digest of the rows of `READ`, kept by the file's SHA-256; the file's own SHA-256 when the
    database cannot be read now (locked, damaged, not one: the build says so among its notes)."""
    kept = outputs / FOLDER / ROWS
    code = code_fingerprint()
    memo = load_json(kept)
    if (isinstance(memo, dict) and memo.get("format") == FORMAT and memo.get("database") == file_digest
            and memo.get("code") == code and isinstance(memo.get("rows"), str)):
        return memo["rows"]
    try:
        digest, read_from = rows_digest(path)
    except sqlite3.Error:
        return f"file {file_digest}"
    rows = f"rows {digest}"
    if read_from != file_digest:  # a writer committed between the two readings: kept under neither
        return rows
    try:
        write_file(kept, json.dumps({"format": FORMAT, "database": file_digest, "code": code, "rows": rows}).encode())
    except OSError:
        pass  # digested again next time
    return rows


def rows_digest(path: Path) -> tuple[str, str]:
    """The SHA-256 of every row of `READ`, table by table in rowid order (a table an older schema
    lacks read as an empty one, as after its upgrade), and the SHA-256 of the file they were read
    from: both in one read transaction, which no writer can commit through (rollback journal), so
    that the rows are known by the bytes they are in. Read without writing (an older schema is not
    upgraded here)."""
    connection = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, timeout=WAIT_SECONDS,
                                 isolation_level=None)
    try:
        connection.execute("BEGIN")
        present = {name for (name,) in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        hasher = hashlib.sha256()
        for table in READ:
            hasher.update(f"\0{table}\0".encode())
            if table in present:
                for row in connection.execute(f"SELECT * FROM {table} ORDER BY rowid"):  # one row at a time
                    hasher.update(repr(row).encode())
                    hasher.update(b"\n")
        return hasher.hexdigest(), hashlib.sha256(path.read_bytes()).hexdigest()
    finally:
        connection.close()
