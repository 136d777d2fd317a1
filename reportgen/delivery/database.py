"""The league's SQLite database, `archive/league.sqlite`: each archived season's normalised data,
the send log and the messages `reportgen inbox` handled (docs/archive.md describes every table).

Foreign keys are on for every connection. Transactions are explicit (`transaction()`): an archive
is written in one, each message's log rows in one.

A database that cannot be used (locked by another program, damaged, written by a newer reportgen,
on a full disk) raises a `DatabaseUnusable`: a French sentence naming the file and what to do,
which the command line prints like any ReportgenError (`guarded()` turns SQLite's errors into it)."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from reportgen.model import ReportgenError
from reportgen.render.files import MachineError

DATABASE = "league.sqlite"
SCHEMA_VERSION = 10
# How long to wait for another reportgen's transaction (a message's log rows, an archive being
# written) before saying the file is locked.
WAIT_SECONDS = 2.0


class DatabaseUnusable(ReportgenError):
    """The league's database cannot be used: says which file and what to do, in French. Each kind
    is made by its `at()`."""

    def __init__(self, path: Path, text: str):
        self.path = path
        super().__init__(text)

    def needed_by(self, what: str) -> DatabaseUnusable:
        """The same fault, said after what needs the database."""
        return type(self)(self.path, f"{what} : {self}")


class DatabaseLocked(DatabaseUnusable, MachineError):
    @classmethod
    def at(cls, path: Path) -> DatabaseLocked:
        return cls(path, f"{path} est verrouillé par un autre programme (une autre commande reportgen, ou un "
                         "logiciel qui l’a ouvert) : fermez-le, puis relancez la commande")


class DatabaseDamaged(DatabaseUnusable):
    @classmethod
    def at(cls, path: Path) -> DatabaseDamaged:
        return cls(path, f"{path} est endommagé (ce n’est plus une base de données SQLite lisible) : remettez-le "
                         "depuis votre sauvegarde, puis relancez la commande")


class DatabaseNewer(DatabaseUnusable):
    @classmethod
    def at(cls, path: Path, version: int) -> DatabaseNewer:
        return cls(path, f"{path} a été écrit par une version plus récente de reportgen (schéma {version}, celle-ci "
                         f"ne connaît que le schéma {SCHEMA_VERSION}) : mettez reportgen à jour, puis relancez la "
                         "commande")


class DatabaseUnwritable(DatabaseUnusable, MachineError):
    @classmethod
    def at(cls, path: Path) -> DatabaseUnwritable:
        return cls(path, f"{path} : impossible d’y écrire (disque plein, ou fichier protégé en écriture) ; rien n’y "
                         "a été enregistré — libérez de la place sur le disque ou donnez le droit d’écriture, puis "
                         "relancez la commande")


def unusable(path: Path, error: sqlite3.Error) -> DatabaseUnusable:
    """SQLite's error, as the French sentence of what to do."""
    code = (getattr(error, "sqlite_errorcode", None) or 0) & 0xFF
    text = str(error)
    if code in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED) or "locked" in text:
        return DatabaseLocked.at(path)
    if code in (sqlite3.SQLITE_FULL, sqlite3.SQLITE_IOERR, sqlite3.SQLITE_READONLY, sqlite3.SQLITE_CANTOPEN,
                sqlite3.SQLITE_PERM) or any(word in text for word in ("full", "disk I/O", "readonly", "open")):
        return DatabaseUnwritable.at(path)
    return DatabaseDamaged.at(path)  # SQLITE_NOTADB, SQLITE_CORRUPT, and whatever else a broken file gives


@contextmanager
def guarded(path: Path) -> Iterator[None]:
    """SQLite's errors in the block raised as DatabaseUnusable (naming `path`)."""
    try:
        yield
    except sqlite3.Error as error:
        raise unusable(path, error) from error


class Connection(sqlite3.Connection):
    """A connection that knows its file, to name it in what it says."""

    path = Path(DATABASE)

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
    kind       TEXT NOT NULL CHECK (kind IN ('bulletin', 'csv', 'annex', 'input', 'record', 'font', 'contents')),
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
CREATE TABLE IF NOT EXISTS ranking_left_out (
    ranking_id INTEGER NOT NULL REFERENCES ranking(id),
    line       INTEGER NOT NULL,
    archive_id INTEGER NOT NULL,
    player_id  TEXT NOT NULL,
    player     TEXT NOT NULL,
    why        TEXT NOT NULL,
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
CREATE TABLE IF NOT EXISTS inbox_message (
    id          INTEGER PRIMARY KEY,
    mailbox     TEXT NOT NULL,
    uidvalidity INTEGER NOT NULL,
    uid         INTEGER NOT NULL,
    recorded_at TEXT NOT NULL,
    message_id  TEXT NOT NULL,
    sender      TEXT NOT NULL,
    subject     TEXT NOT NULL,
    arrived_on  TEXT NOT NULL,
    copy        TEXT NOT NULL,
    copy_sha    TEXT NOT NULL CHECK (length(copy_sha) = 64),
    club_code   TEXT NOT NULL DEFAULT '',
    status      TEXT NOT NULL CHECK (status IN ('received', 'filing', 'filed', 'done', 'left')),
    why         TEXT NOT NULL DEFAULT '',
    answer      TEXT NOT NULL DEFAULT '',
    UNIQUE (mailbox, uidvalidity, uid)
);
CREATE TABLE IF NOT EXISTS inbox_file (
    message  INTEGER NOT NULL REFERENCES inbox_message(id),
    position INTEGER NOT NULL,
    filename TEXT NOT NULL,
    sha256   TEXT NOT NULL CHECK (length(sha256) = 64),
    status   TEXT NOT NULL CHECK (status IN ('accepted', 'refused', 'held', 'same')),
    circuit  TEXT NOT NULL DEFAULT '',
    event    TEXT NOT NULL DEFAULT '',
    date     TEXT NOT NULL DEFAULT '',
    path     TEXT NOT NULL,
    replaced TEXT NOT NULL DEFAULT '[]',
    problems TEXT NOT NULL DEFAULT '[]',
    owners   TEXT NOT NULL DEFAULT '[]',
    known_since TEXT NOT NULL DEFAULT '',
    corrects TEXT NOT NULL DEFAULT '[]',
    PRIMARY KEY (message, position)
);
CREATE VIEW IF NOT EXISTS current_archive AS
    SELECT a.* FROM archive a WHERE a.version = (SELECT max(b.version) FROM archive b WHERE b.season = a.season);
"""


def _archived_places(connection: sqlite3.Connection) -> None:
    """v6: each archived tournament's places those its circuit's parse now gives (`archived_places`,
    circuits/base.py), in `place` and in `fields`, as an archive written today holds them. The Tour de
    France's: until the thirty-third round its rows held the place typed, a player « hors classement »
    placed too; its parse (`ranking_places`) now gives him none and moves up the places below his, as
    the regulation's « cas particuliers » say (« ne devront pas figurer dans le classement »), ex aequo
    sharing one place (« cas des exaequo »). Its bulletins and annex already numbered them so, since
    its points come from that ranking: what was published, and archived with the season, is left as
    it is, and its rows agree with it at last (its tournaments' and players' pages, `history`, read
    them). `archive --season` could not put them right: its files unchanged, it writes nothing.
    Nothing else reads these rows to check them (`archive verify` compares the files with their
    manifests and `archived_file`), and the typed places stay in the archived workbooks (`inputs/`)."""
    slugs = [row[0] for row in connection.execute("SELECT DISTINCT circuit FROM tournament ORDER BY circuit")]
    if not slugs:
        return  # no archived tournament (a send log alone): no circuit's code to load
    from reportgen import circuits

    for slug in slugs:
        places = getattr(circuits.CIRCUITS.get(slug), "archived_places", None)
        if places is None:
            continue
        for (tournament,) in connection.execute("SELECT id FROM tournament WHERE circuit = ? ORDER BY id",
                                                (slug,)).fetchall():
            rows = connection.execute("SELECT line, place, fields FROM result WHERE tournament_id = ? ORDER BY line",
                                      (tournament,)).fetchall()
            typed = [json.loads(row[2]) for row in rows]
            changed = []
            for row, fields, place in zip(rows, typed, places(typed), strict=True):
                if row[1] != place or fields.get("place") != place:
                    # sorted keys, as delivery/archive_rows.py writes them
                    changed.append((place, json.dumps({**fields, "place": place}, ensure_ascii=False, sort_keys=True),
                                    tournament, row[0]))
            connection.executemany("UPDATE result SET place = ?, fields = ? WHERE tournament_id = ? AND line = ?",
                                   changed)


def _arrivals_and_corrections(connection: sqlite3.Connection) -> None:
    """v10: `inbox_message.sent_on` renamed `arrived_on` (its rows keep the day they said: their Date
    header's, the best known then), `inbox_file.corrects` added (none for the rows before). Only where
    the table is v9's: SCHEMA made a newer one for a database older than the inbox (v2)."""
    def columns(table: str) -> set[str]:
        return {row[1] for row in connection.execute(f"PRAGMA table_info({table})")}

    if "sent_on" in columns("inbox_message"):
        connection.execute("ALTER TABLE inbox_message RENAME COLUMN sent_on TO arrived_on")
    if "corrects" not in columns("inbox_file"):
        connection.execute("ALTER TABLE inbox_file ADD COLUMN corrects TEXT NOT NULL DEFAULT '[]'")


# What each older version needs around SCHEMA (which creates every table and index it lacks):
# (before, after), taken in turn, SCHEMA run between each step's two halves (so a step finds the
# tables the steps before it made: v4's inbox_file exists only from v3); a half is SQL, or a
# function given the connection. v2: the send log's status may say `sending` (written before DATA)
# and `unknown`; SQLite cannot change a CHECK, so v1's table is put aside, SCHEMA creates the new
# one, the rows are copied over. v3: the tables of `reportgen inbox` (inbox_message, inbox_file),
# new: SCHEMA creates them, nothing else changes. v4: a copy holds the fonts its HTML pages name
# (kind `font`), a CHECK again: v3's archived_file put aside, its rows copied into the new one. v5:
# a workbook of another club's tournament is `held` in inbox_file (a CHECK), which names that club
# (`owners`, new): v4's inbox_file put aside, its rows copied with no owners. v6: the archived
# tournaments' places those of their circuit's parse (the Tour de France's, in its ranking:
# `_archived_places`), no table changed. v7: a workbook sent again byte for byte is `same` in
# inbox_file (a CHECK), with the day the one filed came (`known_since`, new): v6's inbox_file put
# aside, its rows copied with none. v8: a copy holds its contents pages, where its bulletins'
# « Accueil » and « Saison » links lead (kind `contents`, delivery/archive_contents.py), a CHECK
# again: v7's archived_file put aside, its rows copied; a copy made before keeps what it holds.
# v9: the players an event's ranking leaves out, and why (`ranking_left_out`, new: a Tantrix player
# after rule 7): SCHEMA creates it; a copy made before keeps none, its season's pages take them from
# its workbooks scored again (delivery/site_archive.py). v10: a message's day is the day the server
# received it (`arrived_on`, its IMAP INTERNALDATE, was `sent_on`: its Date header, the sender's
# clock), and an accepted workbook names the refused ones it corrects (`corrects`, new):
# `_arrivals_and_corrections`.
Step = str | Callable[[sqlite3.Connection], None]
UPGRADES: dict[int, tuple[Step, Step]] = {
    1: ("DROP INDEX sending_received; ALTER TABLE sending RENAME TO sending_v1",
        "INSERT INTO sending SELECT * FROM sending_v1; DROP TABLE sending_v1"),
    2: ("", ""),
    3: ("ALTER TABLE archived_file RENAME TO archived_file_v3",
        "INSERT INTO archived_file SELECT * FROM archived_file_v3; DROP TABLE archived_file_v3"),
    4: ("ALTER TABLE inbox_file RENAME TO inbox_file_v4",
        "INSERT INTO inbox_file (message, position, filename, sha256, status, circuit, event, date, path, replaced, "
        "problems) SELECT message, position, filename, sha256, status, circuit, event, date, path, replaced, problems "
        "FROM inbox_file_v4; DROP TABLE inbox_file_v4"),
    5: ("", _archived_places),
    6: ("ALTER TABLE inbox_file RENAME TO inbox_file_v6",
        "INSERT INTO inbox_file (message, position, filename, sha256, status, circuit, event, date, path, replaced, "
        "problems, owners) SELECT message, position, filename, sha256, status, circuit, event, date, path, replaced, "
        "problems, owners FROM inbox_file_v6; DROP TABLE inbox_file_v6"),
    7: ("ALTER TABLE archived_file RENAME TO archived_file_v7",
        "INSERT INTO archived_file SELECT * FROM archived_file_v7; DROP TABLE archived_file_v7"),
    8: ("", ""),
    9: ("", _arrivals_and_corrections),
}


def _run(connection: sqlite3.Connection, step: Step) -> None:
    if callable(step):
        step(connection)
        return
    for statement in step.split(";"):
        if statement.strip():
            connection.execute(statement)


def connect(archive: Path, create: bool = True) -> Connection | None:
    """The database of this archive folder (created with its schema when `create`), foreign keys on;
    None when it does not exist and `create` is False. Raises DatabaseUnusable."""
    path = archive / DATABASE
    if not path.exists():
        if not create:
            return None
        archive.mkdir(parents=True, exist_ok=True)
    with guarded(path):
        # transactions are explicit
        connection = sqlite3.connect(path, timeout=WAIT_SECONDS, isolation_level=None, factory=Connection)
        connection.path = path
        try:
            connection.row_factory = sqlite3.Row
            connection.execute("PRAGMA foreign_keys = ON")
            version = connection.execute("PRAGMA user_version").fetchone()[0]
            if version > SCHEMA_VERSION:
                raise DatabaseNewer.at(path, version)
            if version < SCHEMA_VERSION:
                # A new database (version 0) gets SCHEMA alone.
                upgrades = [UPGRADES[old] for old in range(version, SCHEMA_VERSION) if old in UPGRADES] if version else []
                with transaction(connection):
                    for before, after in upgrades or [("", "")]:
                        _run(connection, before)
                        _run(connection, SCHEMA)
                        _run(connection, after)
                    connection.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        except BaseException:
            connection.close()
            raise
    return connection


def archived_so_far(connection: sqlite3.Connection, archive_id: int) -> set[tuple[str, str]]:
    """(circuit, path) of each season's final ranking a copy holds without its bulletin: archived
    while its season ran, it is the season's ranking so far (`queries.so_far`), « provisoire »
    wherever it is shown, whatever its status and name say (a copy archived before it was named
    `classement-provisoire-2026`: the Grand Sud's `classement-final-2026`, the Tour de France's
    `classement-saison-2005`)."""
    return {(row["circuit"], row["path"]) for row in connection.execute(
        "SELECT circuit, path FROM ranking r WHERE archive_id = ? AND scope = 'season' AND status = 'final' "
        "AND NOT EXISTS (SELECT 1 FROM archived_file f WHERE f.archive_id = r.archive_id AND f.kind = 'bulletin' "
        "AND f.path = 'outputs/' || r.circuit || '/' || r.path || '.html')", (archive_id,))}


@contextmanager
def transaction(connection: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
    """One transaction: committed if the block ends normally, rolled back otherwise. Taking the
    write lock or committing raises DatabaseUnusable (locked, disk full); so does an SQLite error
    in the block."""
    path = connection.path if isinstance(connection, Connection) else Path(DATABASE)
    with guarded(path):
        connection.execute("BEGIN IMMEDIATE")
    try:
        with guarded(path):
            yield connection
            connection.execute("COMMIT")
    except BaseException:
        if connection.in_transaction:
            connection.execute("ROLLBACK")
        raise
