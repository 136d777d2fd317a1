"""Each table of reportgen.toml as a frozen dataclass, and `setting()`, which declares a field's
default, bounds and example (what `reader.py` checks a value against); the passwords, never in the
file, come from the environment through `password_from_environment()`."""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from reportgen.config.values import _toml
from reportgen.model import Problem, ReportgenError, SourceRef
from reportgen.problems import (
    MISSING_SETTING,
)

SETTINGS_FILE = "reportgen.toml"
TABLES = ("league", "mail", "site", "calendar", "inbox", "circuits")  # the top-level tables reportgen reads
# The SMTP password is never written in a file: `reportgen mail --send` reads it from this variable.
PASSWORD_VARIABLE = "REPORTGEN_SMTP_PASSWORD"
# Nor the SFTP password: `reportgen publish` reads it from this one.
SFTP_PASSWORD_VARIABLE = "REPORTGEN_SFTP_PASSWORD"
# Nor the IMAP password: `reportgen inbox` reads it from this one.
IMAP_PASSWORD_VARIABLE = "REPORTGEN_IMAP_PASSWORD"
# Keys that would hold a password: refused in any table that connects to a server.
_SECRET_KEYS = ("password", "pass", "passwd", "mot_de_passe")


def password_from_environment(variable: str, asking: str, command: str) -> str:
    """A server's password, from the environment variable `variable` only; unset or empty, a French
    error naming it. `asking`: what needs it (« la boîte aux lettres »); `command`: the command to
    show in the example (« inbox »)."""
    found = os.environ.get(variable)
    if not found:
        raise ReportgenError(f"{asking} demande un mot de passe : donnez-le dans la variable d’environnement "
                             f"{variable} (jamais dans un fichier), par exemple {variable}='…' reportgen {command}")
    return found


class Security(StrEnum):
    """How a connection to a mail server ([mail], [inbox]) is protected: TLS from the first byte,
    TLS after STARTTLS, or none (a test server on the machine)."""

    SSL = "ssl"
    STARTTLS = "starttls"
    NONE = "none"


# A check of a whole value (after its type and bounds): None when right, else what is wrong, in French.
Check = Callable[[Any], "str | None"]


def setting(default: Any, *, minimum: float | None = None, maximum: float | None = None,
            choices: tuple[Any, ...] | None = None, min_length: int | None = None,
            check: Check | None = None, example: Any = None) -> Any:
    """A field of a settings dataclass, with what a `reportgen.toml` override must respect.

    `minimum`, `maximum` and `choices` apply to every number or text of the value (each item of a
    list, of a list of lists); `min_length` to the value itself (a text's characters, blanks aside,
    or a list's items); `check` sees the whole value once its type and bounds are right; `example`
    is the value a fix suggests when the default is none (an empty text).
    """
    rules = {"min": minimum, "max": maximum, "choices": choices, "min_length": min_length, "check": check,
             "example": example}
    return field(default=default, metadata={key: rule for key, rule in rules.items() if rule is not None})


_ADDRESS = re.compile(r"[^@\s<>\"(),;:]+@[^@\s<>\"(),;:]+\.[^@\s<>\"(),;:.]+")


def mail_address(value: str) -> str | None:
    """A sender as a mail program writes it: an address, or a name and an address in <>."""
    from email.utils import parseaddr

    name, address = parseaddr(value)
    if not _ADDRESS.fullmatch(address) or (address != value.strip() and "<" not in value):
        return "ce n’est pas une adresse électronique, seule ou après un nom"
    return None


@dataclass(frozen=True)
class Mail:
    """The [mail] table: the SMTP server `reportgen mail --send` sends through, and the sender of
    the drafts (without it, a draft has no From: the mail program adds it). The password comes
    from the environment (PASSWORD_VARIABLE), never from a file."""

    host: str = setting("", min_length=1, example="smtp.example.org")
    port: int = setting(587, minimum=1, maximum=65535)
    security: str = setting(Security.STARTTLS, choices=(Security.STARTTLS, Security.SSL, Security.NONE))
    sender: str = setting("", min_length=1, check=mail_address, example="Ligue <secretariat@example.org>")
    user: str = setting("", example="secretariat@example.org")  # optional: no login when empty
    # Seconds: each exchange with the server (a silent server fails that club, not the run), and the
    # whole run (what is left when it is spent is not attempted, and goes next run).
    timeout: float = setting(20.0, minimum=0.1, maximum=600)
    run_timeout: float = setting(600.0, minimum=0.1, maximum=86400)
    # What a club's message attaches: its own bulletin (outputs/clubs/) and the full bulletins of
    # its circuits ("all"), or its own bulletin alone ("club": a club that finds them too heavy).
    attach: str = setting("all", choices=("all", "club"))

    # Keys only `mail --send` needs (no default makes sense); drafts need none: a [mail] table may
    # give the sender alone, or be absent (see `missing_for_sending`).
    for_sending = ("host", "sender")
    required = ()  # keys a [mail] table must write: none (a [site] table must write its server's)


def missing_for_sending(mail: Mail | None) -> list[Problem]:
    """What `reportgen mail --send` lacks in the [mail] table (all of it when there is none)."""
    mail = mail or Mail()
    return [MISSING_SETTING(SourceRef(SETTINGS_FILE, "mail"), key=key, table="mail",
                            why=" : l’envoi (--send) en a besoin",
                            example=_toml(Mail.__dataclass_fields__[key].metadata["example"]))
            for key in Mail.for_sending if not getattr(mail, key)]


def site_url(value: str) -> str | None:
    """The address the site is seen at, for the links social networks need absolute (`og:image`)."""
    from urllib.parse import urlsplit

    parts = urlsplit(value)
    if value and (parts.scheme not in ("http", "https") or not parts.netloc or parts.query or parts.fragment
                  or any(c.isspace() or c in "\"<>" for c in value)):
        return "ce n’est pas l’adresse d’un site, comme https://ligue.example.org"
    return None


@dataclass(frozen=True)
class Site:
    """The [site] table: the SFTP server `reportgen publish` sends outputs/ to. The password comes
    from the environment (SFTP_PASSWORD_VARIABLE), never from a file; `key` and `known_hosts` are
    paths on this machine (~ is the user's folder; relative: from the folder of reportgen.toml)."""

    host: str = setting("", min_length=1, example="ssh.example.org")
    port: int = setting(22, minimum=1, maximum=65535)
    user: str = setting("", min_length=1, example="ligue")
    folder: str = setting("", min_length=1, example="www")  # on the server
    key: str = setting("", example="~/.ssh/id_ed25519")  # optional: the agent's and ~/.ssh's keys otherwise
    known_hosts: str = setting("", example="~/.ssh/known_hosts")  # optional: ~/.ssh/known_hosts otherwise
    timeout: float = setting(20.0, minimum=0.1, maximum=600)  # seconds each exchange may take
    # optional: the site's public address; its pages name their Open Graph image by an absolute URL
    # and the clubs' messages link its pages
    url: str = setting("", check=site_url, example="https://ligue.example.org")

    required = ("host", "user", "folder")  # keys a [site] table must write, once it names a server
    # Keys a table may write alone, without a server: a league whose site another program uploads
    # still gives its address to the share images and the clubs' messages.
    alone = ("url",)

    @property
    def server(self) -> bool:
        """Whether the table names the SFTP server `reportgen publish` uploads to."""
        return bool(self.host)


@dataclass(frozen=True)
class CalendarSettings:
    """The [calendar] table: when `reportgen remind` reminds a club of the workbook it owes."""

    # Days after an announced tournament (inputs/calendrier.xlsx) without its workbook before the
    # organising club is reminded: a club sends its results within the week, as a rule.
    remind_after_days: int = setting(7, minimum=1, maximum=365)


def _folder_name(value: str) -> str | None:
    """An IMAP folder name as typed in a mail program: no quote, backslash or control character
    (they would need escaping on the wire, and no server folder the secretary picks has them)."""
    if any(c in value for c in '"\\') or any(ord(c) < 32 or ord(c) == 127 for c in value):
        return "un nom de dossier ne contient ni guillemet, ni barre oblique inverse, ni caractère invisible"
    return None


@dataclass(frozen=True)
class Inbox:
    """The [inbox] table: the IMAP mailbox `reportgen inbox` reads the clubs' workbooks from. The
    password comes from the environment (IMAP_PASSWORD_VARIABLE), never from a file."""

    host: str = setting("", min_length=1, example="imap.example.org")
    port: int = setting(993, minimum=1, maximum=65535)
    security: str = setting(Security.SSL, choices=(Security.SSL, Security.STARTTLS, Security.NONE))
    user: str = setting("", min_length=1, example="secretariat@example.org")
    folder: str = setting("INBOX", min_length=1, check=_folder_name)  # where the clubs' messages arrive
    done: str = setting("Traités", min_length=1, check=_folder_name)  # where handled messages are moved
    timeout: float = setting(30.0, minimum=0.1, maximum=600)  # seconds each exchange with the server may take

    required = ("host", "user")  # keys an [inbox] table must write (no default makes sense)


@dataclass(frozen=True)
class League:
    # The example league's (examples/league has no reportgen.toml): one league of five circuits, its
    # name on every circuit's bulletin, so it names no game of its own.
    name: str = setting("Ligue Grand Sud des clubs de jeux de réflexion", min_length=1)
    # slug -> that circuit's Settings; set by the [circuits.<slug>] tables, not a key of [league].
    circuits: dict[str, Any] = field(default_factory=dict, metadata={"table": False})
    # The [mail] table; None when the file has none (or a wrong one: its problems say why).
    mail: Mail | None = field(default=None, metadata={"table": False})
    # The [site] table, likewise.
    site: Site | None = field(default=None, metadata={"table": False})
    calendar: CalendarSettings = field(default_factory=CalendarSettings, metadata={"table": False})
    # The [inbox] table; None likewise.
    inbox: Inbox | None = field(default=None, metadata={"table": False})


