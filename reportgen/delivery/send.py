"""`reportgen mail --send`: the clubs' messages over SMTP, with the send log in the archive's
database (so deleting outputs/ never makes a club receive the same bulletin twice).

The log has a row per address and bulletin: a bulletin is its circuit, its path and the sha256 of
its ranking as published (a corrected ranking is a new bulletin; a PDF re-rendered by another
WeasyPrint is not). An address is sent only the bulletins it has not received (all of them with
`resend`); addresses of a club that lack the same bulletins share one message. A refused
recipient, a refused message or a dropped connection is logged as failed and does not stop the
others: the next message opens a new connection, and a later run sends only what failed."""

from __future__ import annotations

import datetime as dt
import hashlib
import os
import smtplib
import socket
import sqlite3
import ssl
from collections.abc import Callable
from dataclasses import dataclass
from email.policy import SMTP
from email.utils import parseaddr
from pathlib import Path

from reportgen.config import PASSWORD_VARIABLE, Mail
from reportgen.delivery import database
from reportgen.delivery.mail import Bulletin, ClubMail, Plan, message
from reportgen.model import ReportgenError
from reportgen.render.mail import message_id, to_message

TIMEOUT = 30  # seconds, for each exchange with the server

Say = Callable[[str], None]


@dataclass
class Outcome:
    club: str  # the club's name
    to: tuple[str, ...]
    bulletins: tuple[str, ...]  # their file names
    sent: tuple[str, ...]  # the addresses the server accepted
    failed: dict[str, str]  # address -> the server's answer (or what happened to the connection)

    @property
    def ok(self) -> bool:
        return not self.failed


def _answer(code: int, text: bytes | str) -> str:
    words = text.decode("utf-8", "replace") if isinstance(text, bytes) else text
    return f"{code} {' '.join(words.split())}".strip()


class Connection:
    """One SMTP session, opened on first use and again after a failure cut it."""

    def __init__(self, settings: Mail, password: str | None) -> None:
        self.settings = settings
        self.password = password
        self.smtp: smtplib.SMTP | None = None

    def open(self) -> smtplib.SMTP:
        if self.smtp is None:
            settings = self.settings
            smtp: smtplib.SMTP
            if settings.security == "ssl":
                smtp = smtplib.SMTP_SSL(settings.host, settings.port, timeout=TIMEOUT,
                                        context=ssl.create_default_context())
            else:
                smtp = smtplib.SMTP(settings.host, settings.port, timeout=TIMEOUT)
            try:
                if settings.security == "starttls":
                    smtp.starttls(context=ssl.create_default_context())
                if settings.user:
                    smtp.login(settings.user, self.password or "")
            except BaseException:
                smtp.close()
                raise
            self.smtp = smtp
        return self.smtp

    def drop(self) -> None:
        if self.smtp is not None:
            try:
                self.smtp.quit()
            except (smtplib.SMTPException, OSError):
                self.smtp.close()
            self.smtp = None

    def send(self, sender: str, to: tuple[str, ...], data: bytes) -> dict[str, str]:
        """Send; the addresses refused with the server's answer (all of them when it failed)."""
        envelope_from = parseaddr(sender)[1]
        try:
            refused = self.open().sendmail(envelope_from, list(to), data)
        except smtplib.SMTPRecipientsRefused as error:
            self._after_error()
            return {address: _answer(code, text) for address, (code, text) in error.recipients.items()}
        except smtplib.SMTPAuthenticationError as error:  # every message would fail the same way: stop
            self.drop()
            raise ReportgenError(f"le serveur refuse l'identification de « {self.settings.user} » "
                                 f"({_answer(error.smtp_code, error.smtp_error)}) : vérifiez user dans [mail] et "
                                 f"le mot de passe de {PASSWORD_VARIABLE} ; rien d'autre n'a été envoyé") from None
        except smtplib.SMTPServerDisconnected as error:
            self.smtp = None
            return dict.fromkeys(to, f"la connexion au serveur a été coupée ({error or 'sans réponse'})")
        except smtplib.SMTPResponseException as error:
            self._after_error()
            return dict.fromkeys(to, _answer(error.smtp_code, error.smtp_error))
        except (smtplib.SMTPException, ssl.SSLError, socket.timeout, OSError) as error:
            self.drop()
            what = error.strerror if isinstance(error, OSError) and error.strerror else str(error)
            return dict.fromkeys(to, f"le serveur {self.settings.host}:{self.settings.port} ne répond pas "
                                 f"comme prévu ({what or error.__class__.__name__})")
        return {address: _answer(code, text) for address, (code, text) in refused.items()}

    def _after_error(self) -> None:
        """After a refusal the session may go on; if the server closed it, the next send reconnects."""
        if self.smtp is not None:
            try:
                self.smtp.rset()
            except (smtplib.SMTPException, OSError):
                self.smtp.close()
                self.smtp = None


def password_for(settings: Mail) -> str | None:
    if not settings.user:
        return None
    password = os.environ.get(PASSWORD_VARIABLE)
    if not password:
        raise ReportgenError(f"[mail] user = « {settings.user} » demande un mot de passe : donnez-le dans la "
                             f"variable d'environnement {PASSWORD_VARIABLE} (jamais dans un fichier), par exemple "
                             f"{PASSWORD_VARIABLE}='…' reportgen mail --send")
    return password


def received(connection: sqlite3.Connection, club: str, address: str, bulletin: Bulletin) -> bool:
    return connection.execute(
        "SELECT 1 FROM sending WHERE club_code = ? AND address = ? AND circuit = ? AND bulletin = ? "
        "AND ranking_sha = ? AND status = 'sent' LIMIT 1",
        (club, address.casefold(), bulletin.circuit, bulletin.bulletin, bulletin.key)).fetchone() is not None


def pending(connection: sqlite3.Connection, club_mail: ClubMail,
            resend: bool) -> list[tuple[tuple[str, ...], list[Bulletin]]]:
    """(addresses, the bulletins they lack), addresses lacking the same ones together."""
    groups: dict[tuple[str, ...], list[str]] = {}
    for address in club_mail.club.emails:
        lacking = tuple(b.circuit for b in club_mail.bulletins
                        if resend or not received(connection, club_mail.club.code, address, b))
        if lacking:
            groups.setdefault(lacking, []).append(address)
    return [(tuple(addresses), [b for b in club_mail.bulletins if b.circuit in lacking])
            for lacking, addresses in groups.items()]


def send(plan: Plan, settings: Mail, archive: Path, resend: bool = False, say: Say = lambda text: None,
         now: Callable[[], dt.datetime] = lambda: dt.datetime.now(dt.timezone.utc)) -> tuple[list[Outcome], int]:
    """Send what each club lacks: (each message's outcome, how many clubs had nothing new)."""
    password = password_for(settings)
    log = database.connect(archive)
    assert log is not None
    smtp = Connection(settings, password)
    outcomes: list[Outcome] = []
    up_to_date = 0
    try:
        work = [(club_mail, to, bulletins) for club_mail in plan.clubs
                for to, bulletins in pending(log, club_mail, resend)]
        up_to_date = len({c.club.code for c in plan.clubs} - {c.club.code for c, _, _ in work})
        for number, (club_mail, to, bulletins) in enumerate(work, 1):
            draft = message(plan, club_mail.only(bulletins), to)
            data = to_message(draft, settings.sender).as_bytes(policy=SMTP)  # the draft, with CRLF
            failed = smtp.send(settings.sender, to, data)
            outcome = Outcome(club_mail.club.name, to, tuple(a.filename for a in draft.attachments),
                              tuple(a for a in to if a not in failed), failed)
            moment = now().astimezone(dt.timezone.utc).replace(microsecond=0).isoformat()
            identifier = message_id(draft)
            with database.transaction(log):
                log.executemany(
                    "INSERT INTO sending (at, season, club_code, club_name, address, circuit, bulletin, ranking_sha, "
                    "pdf_sha, message_id, status, answer) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    [(moment, plan.season, club_mail.club.code, club_mail.club.name, address.casefold(), b.circuit,
                      b.bulletin, b.key, hashlib.sha256(attachment.data).hexdigest(), identifier,
                      "failed" if address in failed else "sent", failed.get(address, ""))
                     for address in to for b, attachment in zip(bulletins, draft.attachments)])
            outcomes.append(outcome)
            where = ", ".join(to)
            if outcome.ok:
                say(f"[{number}/{len(work)}] {outcome.club} ({where}) : envoyé — {', '.join(outcome.bulletins)}")
            else:
                answers = "; ".join(f"{address} : {answer}" for address, answer in failed.items())
                say(f"[{number}/{len(work)}] {outcome.club} ({where}) : ÉCHEC — {answers}")
    finally:
        smtp.drop()
        log.close()
    return outcomes, up_to_date

