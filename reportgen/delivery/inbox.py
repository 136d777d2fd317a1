"""The league's mailbox over IMAP (the standard library's `imaplib`), for `reportgen inbox`: the
[inbox] settings, the password from REPORTGEN_IMAP_PASSWORD only; the folder's UIDVALIDITY and the
UID of each message in it, a message's bytes fetched without marking it read (BODY.PEEK) with the
day the server received it (INTERNALDATE, `arrived`), and a
handled message moved to the `done` folder (created if missing): MOVE when the server has it, else
COPY, \\Deleted and EXPUNGE (UID EXPUNGE with UIDPLUS, so no other deleted message goes too).

Folder names go on the wire in IMAP's modified UTF-7 (« Traités » is `Trait&AOk-s`): `imaplib`
sends what it is given."""

from __future__ import annotations

import base64
import datetime as dt
import imaplib
import re
import socket
import ssl
from collections.abc import Iterator
from contextlib import contextmanager

from reportgen.config import IMAP_PASSWORD_VARIABLE, Inbox, Security, password_from_environment
from reportgen.model import ReportgenError


def folder_name(name: str) -> str:
    """`name` in IMAP's modified UTF-7 (RFC 3501 §5.1.3), quoted: printable ASCII as it is (« & »
    as « &- »), runs of other characters as UTF-16 in base64 with « , » for « / »."""
    out: list[str] = []
    run: list[str] = []

    def flush() -> None:
        if run:
            encoded = base64.b64encode("".join(run).encode("utf-16-be")).decode("ascii").rstrip("=")
            out.append("&" + encoded.replace("/", ",") + "-")
            run.clear()

    for char in name:
        if 0x20 <= ord(char) <= 0x7E:
            flush()
            out.append("&-" if char == "&" else char)
        else:
            run.append(char)
    flush()
    return '"' + "".join(out) + '"'  # config.Inbox refuses quotes and backslashes in a folder name


def _why(error: BaseException) -> str:
    """What happened to the connection, in French."""
    if isinstance(error, ConnectionRefusedError):
        return "connexion refusée : aucun serveur IMAP à cette adresse et ce port ?"
    if isinstance(error, TimeoutError):
        return "pas de réponse dans le temps permis, réglage timeout de [inbox]"
    if isinstance(error, socket.gaierror):
        return "adresse inconnue"
    if isinstance(error, ssl.SSLError):
        return f"échec du chiffrement TLS : {error.reason or error}"
    return (error.strerror if isinstance(error, OSError) and error.strerror else str(error)) or type(error).__name__


class Mailbox:
    """One IMAP session on the [inbox] folder, opened by `open()` (a French ReportgenError when the
    server cannot be reached, refuses the login or lacks the folder)."""

    def __init__(self, settings: Inbox, secret: str) -> None:
        self.settings = settings
        self.secret = secret
        self.imap: imaplib.IMAP4 | None = None
        self.uidvalidity = 0
        self.capabilities: set[str] = set()

    @property
    def name(self) -> str:
        """The mailbox as the database records it: user, server and folder."""
        return f"{self.settings.user}@{self.settings.host}:{self.settings.port}/{self.settings.folder}"

    def _server(self) -> str:
        return f"le serveur IMAP {self.settings.host}:{self.settings.port}"

    def open(self) -> Mailbox:
        settings = self.settings
        try:
            imap: imaplib.IMAP4
            if settings.security == Security.SSL:
                imap = imaplib.IMAP4_SSL(settings.host, settings.port, ssl_context=ssl.create_default_context(),
                                         timeout=settings.timeout)
            else:
                imap = imaplib.IMAP4(settings.host, settings.port, timeout=settings.timeout)
        except (OSError, imaplib.IMAP4.error) as error:
            raise ReportgenError(f"{self._server()} ne répond pas ({_why(error)}) : vérifiez host, port et security "
                                 "dans [inbox] ; aucun message n’a été lu") from None
        self.imap = imap
        try:
            if settings.security == Security.STARTTLS:
                imap.starttls(ssl_context=ssl.create_default_context())
            try:
                imap.login(settings.user, self.secret)
            except imaplib.IMAP4.error:
                raise ReportgenError(f"{self._server()} refuse l’identification de « {settings.user} » : vérifiez user "
                                     f"dans [inbox] et le mot de passe de {IMAP_PASSWORD_VARIABLE} ; aucun message "
                                     "n’a été lu") from None
            typ, data = imap.capability()
            self.capabilities = set(data[0].decode("ascii", "replace").upper().split()) if typ == "OK" else set()
            typ, data = imap.select(folder_name(settings.folder))
            if typ != "OK":
                raise ReportgenError(f"{self._server()} n’a pas de dossier « {settings.folder} » : corrigez folder "
                                     "dans [inbox] (le nom du dossier tel que votre messagerie l’affiche)")
            found = imap.untagged_responses.get("UIDVALIDITY", [b"0"])[-1]
            self.uidvalidity = int(found if isinstance(found, bytes) else found[0])
        except ReportgenError:
            self.close()
            raise
        except (OSError, imaplib.IMAP4.error) as error:
            self.close()
            raise ReportgenError(f"{self._server()} ne répond pas comme prévu ({_why(error)}) ; aucun message n’a "
                                 "été lu") from None
        return self

    def close(self) -> None:
        if self.imap is not None:
            try:
                self.imap.logout()
            except (OSError, imaplib.IMAP4.error):
                pass
            self.imap = None

    def __enter__(self) -> Mailbox:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _session(self) -> imaplib.IMAP4:
        assert self.imap is not None, "open() first"
        return self.imap

    @contextmanager
    def _talking(self) -> Iterator[None]:
        """A connection lost or silent in the middle of a run, said in French: what is done stays done."""
        try:
            yield
        except (OSError, imaplib.IMAP4.error) as error:
            raise ReportgenError(f"la connexion avec {self._server()} a été perdue ({_why(error)}) ; relancez "
                                 "« reportgen inbox » : ce qui est fait reste fait, le reste sera repris") from None

    def _check(self, typ: str, data: list, what: str) -> list:
        if typ != "OK":
            detail = b" ".join(d for d in data if isinstance(d, bytes)).decode("utf-8", "replace")
            raise ReportgenError(f"{self._server()} refuse {what} ({detail}) ; relancez « reportgen inbox » : ce "
                                 "qui est fait reste fait, le reste sera repris")
        return data

    def uids(self) -> list[int]:
        """The UIDs of the messages in the folder, oldest first."""
        with self._talking():
            data = self._check(*self._session().uid("SEARCH", "ALL"), "la liste des messages")
        return sorted(int(uid) for uid in (data[0] or b"").split())

    def fetch(self, uid: int) -> tuple[bytes, dt.date | None]:
        """The message's bytes as the server keeps them (it stays unread), and the day the server
        received it (`arrived`)."""
        with self._talking():
            data = self._check(*self._session().uid("FETCH", str(uid), "(INTERNALDATE BODY.PEEK[])"),
                               f"le message {uid}")
        for part in data:
            if isinstance(part, tuple) and re.search(rb"\bUID %d\b" % uid, part[0]):
                return bytes(part[1]), arrived(data)
        for part in data:  # a server that sends the UID after the literal
            if isinstance(part, tuple):
                return bytes(part[1]), arrived(data)
        raise ReportgenError(f"{self._server()} ne donne pas le message {uid} (supprimé entre-temps ?) ; relancez "
                             "« reportgen inbox »")

    def ensure_done(self) -> None:
        """The folder handled messages go to, created if missing."""
        imap = self._session()
        done = folder_name(self.settings.done)
        with self._talking():
            typ, data = imap.list('""', done)
            if typ == "OK" and any(item for item in data if item):
                return
            self._check(*imap.create(done), f"de créer le dossier « {self.settings.done} »")

    def move(self, uid: int) -> None:
        """The message to the `done` folder."""
        with self._talking():
            self._move(uid)

    def _move(self, uid: int) -> None:
        imap = self._session()
        done = folder_name(self.settings.done)
        if "MOVE" in self.capabilities:
            self._check(*imap.uid("MOVE", str(uid), done), f"de ranger le message {uid}")
            return
        self._check(*imap.uid("COPY", str(uid), done), f"de ranger le message {uid}")
        self._check(*imap.uid("STORE", str(uid), "+FLAGS.SILENT", r"(\Deleted)"), f"de ranger le message {uid}")
        if "UIDPLUS" in self.capabilities:
            self._check(*imap.uid("EXPUNGE", str(uid)), f"de ranger le message {uid}")
        else:
            self._check(*imap.expunge(), f"de ranger le message {uid}")


def arrived(data: list) -> dt.date | None:
    """The day a FETCH response (`data`) says the server received its message, its INTERNALDATE, in
    this machine's time zone, the one its day is read in (`clock.today()`, which dates every run and
    build; REPORTGEN_TODAY sets that day, never this one: a run as of a past day may read a message
    that arrived after it). Not the message's Date header, the sender's clock (wrong, or anything a
    sender writes); None when the server gave none."""
    said = b" ".join(part[0] if isinstance(part, tuple) else part for part in data if isinstance(part, (tuple, bytes)))
    moment = imaplib.Internaldate2tuple(said)  # the local time of that moment
    return dt.date(moment.tm_year, moment.tm_mon, moment.tm_mday) if moment is not None else None


def open_mailbox(settings: Inbox) -> Mailbox:
    """The session, opened; a silent server costs at most [inbox] timeout seconds per exchange."""
    return Mailbox(settings, password_from_environment(IMAP_PASSWORD_VARIABLE, "la boîte aux lettres", "inbox")).open()
