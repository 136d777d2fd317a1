"""The league's SQLite database, `archive/league.sqlite`: each archived season's normalised data
and the send log (docs/archive.md describes every table).

Foreign keys are on for every connection. Transactions are explicit (`transaction()`): an archive
is written in one, each message's log rows in one."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

DATABASE = "league.sqlite"
SCHEMA_VERSION = 2

SCHEMA = """
CREATE TABLE IF NOT EXISTS archive (
    id          INTEGER PRIMARY KEY,
    season      INTEGER NOT NULL,
    version     INTEGER NOT NULL CHECK (version >= 1),
    folder      TEXT NOT NULL UNIQUE,
    archived_at TEXT NOT NULL,
    reason      TEXT NOT NULL DEFAULT '',
    reportgen   TEXT NOT NULL,
    UNIQUE (season, version)
);
CREATE TABLE IF NOT EXISTS archived_file (
    archive_id INTEGER NOT NULL REFERENCES archive(id),
    path       TEXT NOT NULL,
    kind       TEXT NOT NULL CHECK (kind IN ('bulletin', 'csv', 'annex', 'input', 'record')),
    circuit    TEXT NOT NULL DEFAULT '',
    sha256     TEXT NOT NULL CHECK (length(sha256) = 64),
    size       INTEGER NOT NULL,
    PRIMARY KEY (archive_id, path)
);
CREATE TABLE IF NOT EXISTS club (
    archive_id  INTEGER NOT NULL REFERENCES archive(id),
    code        TEXT NOT NULL,
    name        TEXT NOT NULL,
    departement TEXT NOT NULL,
    emails      TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (archive_id, code)
);
CREATE TABLE IF NOT EXISTS player (
    archive_id INTEGER NOT NULL REFERENCES archive(id),
    id         TEXT NOT NULL,
    name       TEXT NOT NULL,
    name_key   TEXT NOT NULL,
    licence    TEXT NOT NULL DEFAULT '',
    club       TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (archive_id, id)
);
CREATE INDEX IF NOT EXISTS player_by_name ON player (name_key);
CREATE TABLE IF NOT EXISTS tournament (
    id         INTEGER PRIMARY KEY,
    archive_id INTEGER NOT NULL REFERENCES archive(id),
    circuit    TEXT NOT NULL,
    season     INTEGER NOT NULL,
    source     TEXT NOT NULL,
    name       TEXT NOT NULL,
    date       TEXT NOT NULL,
    club_code  TEXT,
    content    TEXT NOT NULL,
    UNIQUE (archive_id, source),
    FOREIGN KEY (archive_id, club_code) REFERENCES club (archive_id, code)
);
CREATE TABLE IF NOT EXISTS result (
    tournament_id INTEGER NOT NULL REFERENCES tournament(id),
    line          INTEGER NOT NULL,
    archive_id    INTEGER NOT NULL,
    player_id     TEXT NOT NULL,
    last_name     TEXT NOT NULL,
    first_name    TEXT NOT NULL,
    licence       TEXT NOT NULL,
    club          TEXT NOT NULL,
    place         INTEGER,
    fields        TEXT NOT NULL,
    sheet         TEXT NOT NULL,
    cell          TEXT NOT NULL,
    PRIMARY KEY (tournament_id, line),
    FOREIGN KEY (archive_id, player_id) REFERENCES player (archive_id, id)
);
CREATE TABLE IF NOT EXISTS ranking (
    id            INTEGER PRIMARY KEY,
    archive_id    INTEGER NOT NULL REFERENCES archive(id),
    circuit       TEXT NOT NULL,
    season        INTEGER NOT NULL,
    path          TEXT NOT NULL,
    scope         TEXT NOT NULL CHECK (scope IN ('season', 'event', 'ratings')),
    event         TEXT NOT NULL DEFAULT '',
    date          TEXT NOT NULL,
    in_force_from TEXT NOT NULL,
    status        TEXT NOT NULL CHECK (status IN ('provisional', 'final', 'rating')),
    columns       TEXT NOT NULL,
    position      INTEGER NOT NULL,
    UNIQUE (archive_id, circuit, path)
);
CREATE TABLE IF NOT EXISTS ranking_row (
    ranking_id INTEGER NOT NULL REFERENCES ranking(id),
    line       INTEGER NOT NULL,
    archive_id INTEGER NOT NULL,
    rank       INTEGER NOT NULL,
    tied       INTEGER NOT NULL CHECK (tied IN (0, 1)),
    player_id  TEXT NOT NULL,
    player     TEXT NOT NULL,
    licence    TEXT NOT NULL,
    club       TEXT NOT NULL,
    points     REAL,
    played     INTEGER,
    metrics    TEXT NOT NULL,
    decided_by TEXT NOT NULL DEFAULT '',
    playoff    INTEGER NOT NULL DEFAULT 0 CHECK (playoff IN (0, 1)),
    PRIMARY KEY (ranking_id, line),
    FOREIGN KEY (archive_id, player_id) REFERENCES player (archive_id, id)
);
CREATE TABLE IF NOT EXISTS sending (
    id          INTEGER PRIMARY KEY,
    at          TEXT NOT NULL,
    season      INTEGER NOT NULL,
    club_code   TEXT NOT NULL,
    club_name   TEXT NOT NULL,
    address     TEXT NOT NULL,
    circuit     TEXT NOT NULL,
    bulletin    TEXT NOT NULL,
    ranking_sha TEXT NOT NULL,
    pdf_sha     TEXT NOT NULL,
    message_id  TEXT NOT NULL,
    status      TEXT NOT NULL CHECK (status IN ('sending', 'sent', 'failed', 'unknown')),
    answer      TEXT NOT NULL DEFAULT ''
);
CREATE INDEX IF NOT EXISTS sending_received ON sending (club_code, address, circuit, bulletin, ranking_sha, status);
CREATE VIEW IF NOT EXISTS current_archive AS
    SELECT a.* FROM archive a WHERE a.version = (SELECT max(b.version) FROM archive b WHERE b.season = a.season);
"""

# What each older version needs around SCHEMA (which creates every table and index it lacks):
# (before, after). v2: the send log's status may say `sending` (written before DATA) and `unknown`;
# SQLite cannot change a CHECK, so v1's table is put aside, SCHEMA creates the new one, the rows
# are copied over.
UPGRADES = {
    1: ("DROP INDEX sending_received; ALTER TABLE sending RENAME TO sending_v1",
        "INSERT INTO sending SELECT * FROM sending_v1; DROP TABLE sending_v1"),
}


def _run(connection: sqlite3.Connection, statements: str) -> None:
    for statement in statements.split(";"):
        if statement.strip():
            connection.execute(statement)


def connect(archive: Path, create: bool = True) -> sqlite3.Connection | None:
    """The database of this archive folder (created with its schema when `create`), foreign keys on;
    None when it does not exist and `create` is False."""
    path = archive / DATABASE
    if not path.exists():
        if not create:
            return None
        archive.mkdir(parents=True, exist_ok=True)
    connection = sqlite3.connect(path, isolation_level=None)  # transactions are explicit
    connection.row_factory = sqlite3.Row
    connection.execute("PRAGMA foreign_keys = ON")
    version = connection.execute("PRAGMA user_version").fetchone()[0]
    if version > SCHEMA_VERSION:
        connection.close()
        raise RuntimeError(f"{path} was written by a newer reportgen (schema {version})")
    if version < SCHEMA_VERSION:
        # A new database (version 0) gets SCHEMA alone.
        upgrades = [UPGRADES[old] for old in range(version, SCHEMA_VERSION) if old in UPGRADES] if version else []
        with transaction(connection):
            for before, _ in upgrades:
                _run(connection, before)
            _run(connection, SCHEMA)
            for _, after in upgrades:
                _run(connection, after)
            connection.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
    return connection


@contextmanager
def transaction(connection: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
    """One transaction: committed if the block ends normally, rolled back otherwise."""
    connection.execute("BEGIN IMMEDIATE")
    try:
        yield connection
    except BaseException:
        connection.execute("ROLLBACK")
        raise
    connection.execute("COMMIT")
