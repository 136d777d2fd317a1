"""The send log in `archive/league.sqlite` (docs/archive.md), held by one sender at a time: what
each address received, attempts confirmed after DATA or left `unknown` by a dead run. `send.py`
sends through it; `remind` and `inbox --send` share it."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from enum import StrEnum
from pathlib import Path
from typing import IO

from reportgen.delivery import database
from reportgen.delivery.lock import hold
from reportgen.delivery.mail import Bulletin

LOCK = ".mail-send.lock"  # in the archive folder, beside the database


def _lock(archive: Path) -> IO[str]:
    """The sender's lock, held while the file stays open (the kernel drops it with the process)."""
    path = archive / LOCK
    return hold(path, f"un autre envoi des courriels est en cours (il tient {path}) : attendez qu’il finisse, puis "
                      "relancez « reportgen mail --send » pour envoyer ce qui reste ; rien n’a été envoyé",
                "rien n’a été envoyé")


class SendStatus(StrEnum):
    """An attempt's state in the log's `status` column (database.py's CHECK lists the same words):
    committed `sending` before DATA, then `sent` (the server confirmed), `failed` (refused: sent
    again next run) or `unknown` (the server had it, unconfirmed: never sent again by itself)."""

    SENDING = "sending"
    SENT = "sent"
    FAILED = "failed"
    UNKNOWN = "unknown"


def sent_or_unknown(connection: sqlite3.Connection, where: str,
                    parameters: tuple[object, ...]) -> tuple[SendStatus, str] | None:
    """(SENT, when) if a message the rows `where` picks was sent; else (UNKNOWN, when) if a dead run
    left one unconfirmed; else None (`when`: the latest attempt's moment)."""
    found = {row["status"]: row["at"] for row in connection.execute(
        f"SELECT status, max(at) AS at FROM sending WHERE {where} AND status IN ('sent', 'unknown') GROUP BY status",
        parameters)}
    status = next((s for s in (SendStatus.SENT, SendStatus.UNKNOWN) if s in found), None)
    return None if status is None else (status, found[status])


INSERT = ("INSERT INTO sending (at, season, club_code, club_name, address, circuit, bulletin, ranking_sha, pdf_sha, "
           "message_id, status, answer) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")


class SendLog:
    """The send log, held by this process alone for one run: the lock first, then the database,
    where attempts a dead run left `sending` become `unknown` (a write, so a log that cannot be
    written is found before anything is sent). Raises a French ReportgenError, nothing sent,
    when another sender runs or the database cannot be written."""

    def __init__(self, archive: Path) -> None:
        self.path = archive / database.DATABASE
        self.lock = _lock(archive)
        try:
            connection = database.connect(archive)
            assert connection is not None
        except database.DatabaseUnusable as fault:
            self.lock.close()
            raise fault.needed_by("rien n’a été envoyé") from None
        self.connection = connection
        try:
            with self.writing("rien n’a été envoyé"):
                connection.execute("UPDATE sending SET status = 'unknown', answer = ? WHERE status = 'sending'",
                                   ("l’envoi s’est arrêté pendant que le serveur avait le message, avant sa réponse",))
        except BaseException:
            self.close()
            raise

    def close(self) -> None:
        self.connection.close()
        self.lock.close()

    def __enter__(self) -> SendLog:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def writing(self, what: str) -> Iterator[sqlite3.Connection]:
        """One committed transaction; a refusal of the database is said in French (`what`: what
        was sent)."""
        try:
            with database.transaction(self.connection):
                yield self.connection
        except database.DatabaseUnusable as fault:
            raise fault.needed_by(what) from None

    def state(self, club: str, address: str, bulletin: Bulletin) -> tuple[SendStatus, str] | None:
        """(SENT, when) if the address received the bulletin; else (UNKNOWN, when) if a dead run
        left an attempt of it unconfirmed; else None."""
        return sent_or_unknown(self.connection, "club_code = ? AND address = ? AND circuit = ? AND bulletin = ? "
                               "AND ranking_sha = ?",
                               (club, address.casefold(), bulletin.circuit, bulletin.bulletin, bulletin.key))
