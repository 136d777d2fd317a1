"""`reportgen mail --send`: the clubs' messages over SMTP, with the send log in the archive's
database (so deleting outputs/ never makes a club receive the same bulletin twice).

The log has a row per address and bulletin: a bulletin is its circuit, its path and the sha256 of
its ranking as published (a corrected ranking is a new bulletin; a PDF re-rendered by another
WeasyPrint is not). An address is sent only the bulletins it has not received (all of them with
`resend`); addresses of a club that lack the same bulletins share one message. A refused
recipient, a refused message or a dropped connection is logged as failed and does not stop the
others: the next message opens a new connection, and a later run sends only what failed.

An address never receives the same bulletin twice unless `resend`, whatever stops a run:
- one sender at a time: `SendLog` holds an OS lock (flock on archive/.mail-send.lock) that the
  kernel releases with the process, even after kill -9; a second sender stops before sending;
- a message's rows are committed as `sending` once the server greeted us, before MAIL FROM and
  DATA, then set to `sent` or `failed`. A row still `sending` when the next run opens the log is
  a run that died while the server had the message: `unknown`, reported at every run and never
  sent again on its own (the secretary asks the club, then `--resend --club CODE`, or
  `--received --club CODE` when the club has it: `mark_received`);
- a log that cannot be written (locked, damaged, read-only) stops the run before the next
  message: nothing goes out unlogged;
- each exchange with the server may take `[mail] timeout` seconds, the run `[mail] run_timeout`:
  what is left when that is spent is not attempted (no row) and goes next run."""

from __future__ import annotations

import datetime as dt
import re
import smtplib
import ssl
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from email.message import EmailMessage
from email.utils import make_msgid, parseaddr
from types import TracebackType
from typing import TypeVar

from reportgen import french
from reportgen.config import PASSWORD_VARIABLE, Mail, Security, password_from_environment
from reportgen.delivery.mail import Bulletin, ClubMail, Plan, message, pdf_digests, write_club_bulletins
from reportgen.delivery.send_log import INSERT, SendLog, SendStatus
from reportgen.model import ReportgenError
from reportgen.render.mail import SMTP, to_message

Say = Callable[[str], None]
T = TypeVar("T")


@dataclass
class Outcome:
    club: str  # the club's name
    to: tuple[str, ...]
    bulletins: tuple[str, ...]  # their file names
    sent: tuple[str, ...]  # the addresses the server accepted
    failed: dict[str, str]  # address -> the server's answer (or what happened to the connection)
    unconfirmed: str = ""  # why the server never confirmed the message it received (the others: unknown)

    @property
    def ok(self) -> bool:
        return not self.failed and not self.unconfirmed


@dataclass
class Unknown:
    """An address whose message a dead run left unconfirmed: perhaps received, perhaps not."""

    club: str  # the club's name
    code: str
    address: str
    bulletins: tuple[str, ...]  # their file names
    at: str  # when it was attempted (ISO 8601, UTC)


@dataclass
class Run:
    outcomes: list[Outcome] = field(default_factory=list)
    up_to_date: int = 0  # clubs that had nothing new (nor unknown)
    unknown: list[Unknown] = field(default_factory=list)
    left: list[tuple[str, tuple[str, ...]]] = field(default_factory=list)  # (club, to) not attempted: time spent


def _answer(code: int, text: bytes | str) -> str:
    words = text.decode("utf-8", "replace") if isinstance(text, bytes) else text
    return f"{code} {' '.join(words.split())}".strip()


def _timed_out(error: BaseException) -> bool:
    """smtplib turns a read that timed out into SMTPServerDisconnected: the timeout is its context."""
    return isinstance(error, TimeoutError) or isinstance(error.__context__, TimeoutError)


@dataclass
class Answer:
    """What the server made of a message."""

    refused: dict[str, str]  # address -> the server's answer (or what happened to the connection)
    unconfirmed: str = ""  # why the server never confirmed a message it received: perhaps delivered


class Unconfirmed(Exception):
    """The connection failed once the message was handed over: the server may deliver it."""

    def __init__(self, refused: dict[str, tuple[int, bytes]], cause: BaseException) -> None:
        super().__init__(cause)
        self.refused = refused
        self.cause = cause


def _refused(refused: dict[str, tuple[int, bytes]]) -> dict[str, str]:
    return {address: _answer(code, text) for address, (code, text) in refused.items()}


def _sendmail(smtp: smtplib.SMTP, envelope_from: str, to: tuple[str, ...], data: bytes,
              before: Callable[[], None]) -> dict[str, tuple[int, bytes]]:
    """smtplib's `sendmail` step by step (the message is ASCII, CRLF, ending with CRLF), to call
    `before` just before DATA and to tell a failure after the message was handed over (Unconfirmed:
    the server may deliver it) from one before (it will not). The refused recipients."""
    smtp.ehlo_or_helo_if_needed()
    code, answer = smtp.mail(envelope_from)
    if code != 250:
        raise smtplib.SMTPSenderRefused(code, answer, envelope_from)
    refused = {}
    for address in to:
        code, answer = smtp.rcpt(address)
        if code not in (250, 251):
            refused[address] = (code, answer)
        if code == 421:  # the server is closing
            raise smtplib.SMTPRecipientsRefused(refused)
    if len(refused) == len(to):
        raise smtplib.SMTPRecipientsRefused(refused)
    before()
    code, answer = smtp.docmd("DATA")
    if code != 354:
        raise smtplib.SMTPDataError(code, answer)
    try:
        ending = b"" if data.endswith(b"\r\n") else b"\r\n"
        smtp.send(re.sub(rb"(?m)^\.", b"..", data) + ending + b".\r\n")  # a line's leading dot doubled (RFC 5321)
        code, answer = smtp.getreply()
    except (smtplib.SMTPServerDisconnected, OSError) as error:
        raise Unconfirmed(refused, error) from error
    if code != 250:
        raise smtplib.SMTPDataError(code, answer)
    return refused


class Connection:
    """One SMTP session, opened on first use and again after a failure cut it."""

    def __init__(self, settings: Mail, password: str | None) -> None:
        self.settings = settings
        self.password = password
        self.smtp: smtplib.SMTP | None = None

    def open(self, timeout: float) -> smtplib.SMTP:
        """The session, each exchange of it limited to `timeout` seconds."""
        if self.smtp is None:
            settings = self.settings
            smtp: smtplib.SMTP
            if settings.security == Security.SSL:
                smtp = smtplib.SMTP_SSL(settings.host, settings.port, timeout=timeout,
                                        context=ssl.create_default_context())
            else:
                smtp = smtplib.SMTP(settings.host, settings.port, timeout=timeout)
            try:
                if settings.security == Security.STARTTLS:
                    smtp.starttls(context=ssl.create_default_context())
                if settings.user:
                    smtp.login(settings.user, self.password or "")
            except BaseException:
                smtp.close()
                raise
            self.smtp = smtp
        elif self.smtp.sock is not None:
            self.smtp.sock.settimeout(timeout)
        return self.smtp

    def drop(self) -> None:
        if self.smtp is not None:
            try:
                self.smtp.quit()
            except (smtplib.SMTPException, OSError):
                self.smtp.close()
            self.smtp = None

    def send(self, sender: str, to: tuple[str, ...], data: bytes, timeout: float,
             before: Callable[[], None]) -> Answer:
        """Send, calling `before` just before DATA (not at all when the server refused earlier)."""
        envelope_from = parseaddr(sender)[1]
        server = f"le serveur {self.settings.host}:{self.settings.port}"
        # `timeout` is [mail] timeout, or less when that is all the run has left.
        setting = "timeout" if timeout >= self.settings.timeout else "run_timeout"
        silent = f"{server} n’a pas répondu dans le temps permis ({french.points(timeout)} s, réglage {setting} de [mail])"
        try:
            refused = _sendmail(self.open(timeout), envelope_from, to, data, before)
        except Unconfirmed as error:
            self.drop()
            lost = silent if _timed_out(error.cause) else "la connexion a été coupée"
            return Answer(_refused(error.refused), f"{lost} après avoir reçu le message, sans confirmer sa réception")
        except smtplib.SMTPRecipientsRefused as error:
            self._after_error()
            return Answer(_refused(error.recipients))
        except smtplib.SMTPAuthenticationError as error:  # every message would fail the same way: stop
            self.drop()
            raise ReportgenError(f"le serveur refuse l’identification de « {self.settings.user} » "
                                 f"({_answer(error.smtp_code, error.smtp_error)}) : vérifiez user dans [mail] et "
                                 f"le mot de passe de {PASSWORD_VARIABLE} ; rien d’autre n’a été envoyé") from None
        except (smtplib.SMTPServerDisconnected, TimeoutError) as error:
            self.drop()
            if _timed_out(error):
                return Answer(dict.fromkeys(to, silent))
            return Answer(dict.fromkeys(to, "la connexion au serveur a été coupée"))
        except smtplib.SMTPResponseException as error:
            self._after_error()
            return Answer(dict.fromkeys(to, _answer(error.smtp_code, error.smtp_error)))
        except ConnectionRefusedError:
            return Answer(dict.fromkeys(to, f"{server} ne répond pas comme prévu (connexion refusée : aucun "
                                        "serveur de courriel à cette adresse et ce port ?)"))
        except (smtplib.SMTPException, ssl.SSLError, OSError) as error:
            self.drop()
            what = error.strerror if isinstance(error, OSError) and error.strerror else str(error)
            return Answer(dict.fromkeys(to, f"{server} ne répond pas comme prévu ({what or error.__class__.__name__})"))
        return Answer(_refused(refused))

    def _after_error(self) -> None:
        """After a refusal the session may go on; if the server closed it, the next send reconnects."""
        if self.smtp is not None:
            try:
                self.smtp.rset()
            except (smtplib.SMTPException, OSError):
                self.smtp.close()
                self.smtp = None


def password_for(settings: Mail) -> str | None:
    """The SMTP password, when [mail] names a user (a server without login needs none)."""
    if not settings.user:
        return None
    return password_from_environment(PASSWORD_VARIABLE, f"[mail] user = « {settings.user} »", "mail --send")


class Session:
    """A sending run's SMTP connection and time, shared by `mail --send`, `remind --send` and
    `inbox --send`: the password is checked when it is made (a missing one stops the command before
    anything is written or sent); the run's `[mail] run_timeout` counts from `with`, whose end drops
    the connection, whatever stopped the run."""

    def __init__(self, settings: Mail) -> None:
        self.settings = settings
        self.smtp = Connection(settings, password_for(settings))
        self.deadline = 0.0
        self.reached = 0  # how many items `paced` handed out

    def __enter__(self) -> Session:
        self.deadline = time.monotonic() + self.settings.run_timeout
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.smtp.drop()

    def allowance(self) -> float | None:
        """The seconds the next message's exchanges may take (`[mail] timeout`, or less when that is
        all the run has left); None once the run's time is spent: not attempted, it goes next run."""
        remaining = self.deadline - time.monotonic()
        return min(self.settings.timeout, remaining) if remaining > 0 else None

    def paced(self, work: Sequence[T]) -> Iterator[tuple[int, T, float]]:
        """Each item with its number (from 1) and its `allowance`, until the run's time is spent."""
        for number, item in enumerate(work, 1):
            timeout = self.allowance()
            if timeout is None:
                return
            self.reached = number
            yield number, item, timeout

    def left(self, work: Sequence[T]) -> list[T]:
        """What `paced(work)` did not reach: not attempted, it goes next run."""
        return list(work[self.reached:])


def pending(log: SendLog, club_mail: ClubMail,
            resend: bool) -> tuple[list[tuple[tuple[str, ...], list[Bulletin]]], list[Unknown]]:
    """(addresses, the bulletins they lack), addresses lacking the same ones together; and the
    addresses whose bulletins are unknown, which are not sent again (unless `resend`)."""
    groups: dict[tuple[str, ...], list[str]] = {}
    unknown: list[Unknown] = []
    club = club_mail.club
    for address in club.emails:
        states = {b.circuit: None if resend else log.state(club.code, address, b) for b in club_mail.bulletins}
        lacking = tuple(circuit for circuit, state in states.items() if state is None)
        if lacking:
            groups.setdefault(lacking, []).append(address)
        uncertain = [(b.filename, state[1]) for b in club_mail.bulletins
                     if (state := states[b.circuit]) is not None and state[0] == SendStatus.UNKNOWN]
        if uncertain:
            unknown.append(Unknown(club.name, club.code, address, tuple(name for name, _ in uncertain),
                                   max(at for _, at in uncertain)))
    return ([(tuple(addresses), [b for b in club_mail.bulletins if b.circuit in lacking])
             for lacking, addresses in groups.items()], unknown)


def mark_received(plan: Plan, log: SendLog,
                  now: Callable[[], dt.datetime] = lambda: dt.datetime.now(dt.timezone.utc)) -> list[Unknown]:
    """The club said it received its uncertain message (`mail --send --received`): the plan's
    `unknown` rows of its bulletins become `sent`, with a note, and nothing is sent. What was noted
    (`at`: now)."""
    moment = now().astimezone(dt.timezone.utc).replace(microsecond=0).isoformat()
    note = f"reçu : le club l’a confirmé, noté le {moment} (reportgen mail --send --received)"
    marked = []
    with log.writing("rien n’a été noté") as db:
        for club_mail in plan.clubs:
            club = club_mail.club
            for address in club.emails:
                names = tuple(b.filename for b in club_mail.bulletins if db.execute(
                    "UPDATE sending SET status = 'sent', answer = ? WHERE club_code = ? AND address = ? AND "
                    "circuit = ? AND bulletin = ? AND ranking_sha = ? AND status = 'unknown'",
                    (note, club.code, address.casefold(), b.circuit, b.bulletin, b.key)).rowcount)
                if names:
                    marked.append(Unknown(club.name, club.code, address, names, moment))
    return marked


def deliver(smtp: Connection, settings: Mail, log: SendLog, to: tuple[str, ...],
            compose: Callable[[tuple[dt.datetime, str]], EmailMessage], rows: Callable[[str, str], list[tuple]],
            timeout: float, lost: str, now: Callable[[], dt.datetime]) -> tuple[Answer, str]:
    """One message through the send log, whoever sends it (`mail`, `remind`, `inbox`): composed
    (`compose`) dated now in the local time zone with a Message-ID of its own (a resend with the
    draft's would be dropped by Gmail as a duplicate); its rows (`rows(moment, identifier)`)
    committed `sending` before anything goes out, then `sent`, `failed` or `unknown` (`lost`: what
    to say when that write fails). (the server's answer, the moment logged)."""
    sent_at = now().astimezone(dt.timezone.utc).replace(microsecond=0)
    moment = sent_at.isoformat()
    identifier = make_msgid(domain=parseaddr(settings.sender)[1].rpartition("@")[2])
    data = compose((sent_at.astimezone(), identifier)).as_bytes(policy=SMTP)
    logged = rows(moment, identifier)
    ids: list[int] = []

    def attempt() -> None:
        """Before anything of the message goes out: its rows, `sending`, committed."""
        with log.writing("rien de plus n’a été envoyé") as db:
            ids.extend(db.execute(INSERT, (*row, SendStatus.SENDING, "")).lastrowid or 0 for row in logged)

    answer = smtp.send(settings.sender, to, data, timeout, before=attempt)
    answers = {address.casefold(): text for address, text in answer.refused.items()}
    if ids:
        success = SendStatus.UNKNOWN if answer.unconfirmed else SendStatus.SENT
        with log.writing(lost) as db:
            db.executemany("UPDATE sending SET status = ?, answer = ? WHERE id = ?",
                           [(SendStatus.FAILED, answers[row[4]], row_id) if row[4] in answers
                            else (success, answer.unconfirmed, row_id) for row, row_id in zip(logged, ids)])
    else:  # refused before DATA: nothing went out
        with log.writing("rien de plus n’a été envoyé") as db:
            db.executemany(INSERT, [(*row, SendStatus.FAILED, answers.get(row[4], "")) for row in logged])
    return answer, moment


def send(plan: Plan, settings: Mail, log: SendLog, resend: bool = False, say: Say = lambda text: None,
         now: Callable[[], dt.datetime] = lambda: dt.datetime.now(dt.timezone.utc)) -> Run:
    """Send what each club lacks, within `settings.run_timeout`."""
    session = Session(settings)
    write_club_bulletins(plan)  # what the messages attach, if the drafts were not written first
    with session:
        run = Run()
        work = []
        for club_mail in plan.clubs:
            groups, unknown = pending(log, club_mail, resend)
            work += [(club_mail, to, bulletins) for to, bulletins in groups]
            run.unknown += unknown
            if not groups and not unknown:
                run.up_to_date += 1
        for number, (club_mail, to, bulletins), timeout in session.paced(work):
            draft = message(plan, club_mail.only(bulletins), to)
            answer, moment = deliver(
                session.smtp, settings, log, to, lambda sent: to_message(draft, settings.sender, sent=sent),
                lambda moment, identifier: [
                    (moment, plan.season, club_mail.club.code, club_mail.club.name, address.casefold(), b.circuit,
                     b.bulletin, b.key, digest, identifier)
                    for address in to for b, digest in zip(bulletins, pdf_digests(plan, draft, bulletins))],
                timeout,
                f"le message {french.de(club_mail.club.name)} est peut-être parti sans que le journal le note : le "
                "prochain envoi le signalera comme incertain ; rien de plus n’a été envoyé", now)
            failed = answer.refused
            accepted = tuple(a for a in to if a not in failed)
            outcome = Outcome(club_mail.club.name, to, tuple(a.filename for a in draft.attachments),
                              () if answer.unconfirmed else accepted, failed, answer.unconfirmed)
            run.outcomes.append(outcome)
            where = ", ".join(to)
            if answer.unconfirmed:
                run.unknown += [Unknown(outcome.club, club_mail.club.code, address, outcome.bulletins, moment)
                                for address in accepted]
                say(f"[{number}/{len(work)}] {outcome.club} ({where}) : INCERTAIN — {answer.unconfirmed}")
            elif outcome.ok:
                say(f"[{number}/{len(work)}] {outcome.club} ({where}) : envoyé — {', '.join(outcome.bulletins)}")
            else:
                listed = "; ".join(f"{address} : {text}" for address, text in failed.items())
                say(f"[{number}/{len(work)}] {outcome.club} ({where}) : ÉCHEC — {listed}")
        run.left = [(c.club.name, addresses) for c, addresses, _ in session.left(work)]
    return run
