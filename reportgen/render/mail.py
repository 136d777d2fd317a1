"""E-mail drafts (.eml) with the standard library's `email`: French subjects encoded as RFC 2047
requires, UTF-8 bodies (plain text, and HTML as an alternative when the message has one), attached
files, a Date and a Message-ID taken from the message itself, and MIME boundaries derived from its
content (same message, same bytes). A message sent over SMTP is given the moment it leaves and an
identifier of its own instead (`to_message`'s `sent`): the draft's are for reproducible drafts.

The bodies of the messages (the clubs' bulletins, the reminders, the inbox's answers) come from
Jinja templates in `templates/mail/`: the HTML one autoescaped like the bulletins, the plain-text one
not (an « & » stays an « & »). The templates' own words are given French typography as they are
compiled (render/html.py `Typography`): no-break spaces before « : ; ? ! » and inside « », never in what they are
given (a name is as typed); a value whose dates must not break says so (the `dates` filter).

A subject with accents is written as RFC 2047 encoded words from end to end (`Policy`): Python
3.11's folding (policy.default) leaves the space between two encoded words outside them, where
every reader drops it (« forfait d’IMBERTInès »; CPython gh-144156, fixed in later versions).
A sender's name with accents (From, and any address header) is written so that no two encoded
words touch: each run of words that are not plain ASCII one encoded word, its spaces inside it, the
plain words between as they are. Python 3.11 folded a long name into encoded words cut inside a word
(« Médit » / « erranée »), which RFC 2047 readers join but Python's own parser reads with a space
(« Médit erranée », CPython gh-128110); a space between two encoded words is dropped by the former
and kept by the latter. With none, every reader reads the name as written; a run too long for 75
characters stays one encoded word (readers take it; cut, one reader or the other would misread it).
Every message is written with it, drafts (`to_message`'s policy) and sent ones (`SMTP`)."""

from __future__ import annotations

import datetime as dt
import hashlib
import re
from email.charset import BASE64, QP, Charset
from email.header import Header
from email.headerregistry import Address, AddressHeader, UnstructuredHeader
from email.message import EmailMessage
from email.policy import EmailPolicy
from email.utils import format_datetime
from functools import cache
from itertools import groupby
from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, StrictUndefined, pass_environment
from markupsafe import Markup, escape

from reportgen import french
from reportgen.ingest.discover import WORKBOOK_SUFFIXES
from reportgen.ingest.text import surname_and_first
from reportgen.model import Message
from reportgen.render.html import TEMPLATES, Typography
from reportgen.site.lines import INLINE_BOX, KEPT_INLINE, player_name

_UTF8 = Charset("utf-8")
_UTF8.header_encoding = QP  # « q » words, as policy.default writes them: a raw header stays legible


class Policy(EmailPolicy):
    """policy.default, but a header of free text (the Subject) that is not ASCII is written whole as
    encoded words of at most 75 characters, each line one of them, its spaces inside them (« _ »):
    the blanks between two words are folding, which readers drop (RFC 2047, 6.2), and none of the
    subject's own spaces is one of them. An ASCII one is folded at its spaces, as before. An address
    header whose names are not ASCII (a From with accents) is written by `_addresses`."""

    def _words(self, name: str, value: object) -> str | None:
        if self.utf8 or str(value).isascii():
            return None
        if isinstance(value, AddressHeader):  # a name with accents; an address is ASCII, else Python's way
            addresses = value.addresses
            return self._addresses(name, addresses) if all(a.addr_spec.isascii() for a in addresses) else None
        if not isinstance(value, UnstructuredHeader):
            return None
        # 76 columns: a continuation line's encoded word, after its space, is 75 characters at most
        words = Header(str(value), _UTF8, header_name=name).encode(maxlinelen=76, linesep=self.linesep)
        return f"{name}: {words}{self.linesep}"

    def _addresses(self, name: str, addresses: tuple[Address, ...]) -> str:
        """« Nom <adresse> », each name's runs of words that are not plain ASCII as one encoded word
        (`_phrase`), folded at the spaces between words within 78 columns where a word allows it."""
        tokens: list[str] = []
        for address in addresses:
            tokens += [*_phrase(address.display_name), f"<{address.addr_spec}>"] if address.display_name \
                else [address.addr_spec]
            tokens[-1] += ","
        tokens[-1] = tokens[-1].rstrip(",")
        lines = [f"{name}:"]
        for token in tokens:
            if len(lines[-1]) + 1 + len(token) > 78 and lines[-1] != f"{name}:":
                lines.append("")
            lines[-1] += f" {token}"
        return self.linesep.join(lines) + self.linesep

    def fold(self, name: str, value: str) -> str:
        return self._words(name, value) or super().fold(name, value)

    def fold_binary(self, name: str, value: str) -> bytes:
        words = self._words(name, value)
        return words.encode("ascii") if words else super().fold_binary(name, value)


# A word of a name written as it is: atext (RFC 5322) that cannot be taken for an encoded word
_PLAIN = re.compile(r"[A-Za-z0-9!#$%&'*+/^_`{|}~-]+")
_UTF8_B = Charset("utf-8")
_UTF8_B.header_encoding = BASE64


def _phrase(name: str) -> list[str]:
    """A display name's words: each plain one as it is, each run of the others one encoded word
    holding their spaces (`_encoded`), so that no two encoded words are side by side."""
    tokens: list[str] = []
    for plain, words in groupby(name.split(" "), key=lambda word: bool(_PLAIN.fullmatch(word))):
        tokens += list(words) if plain else [_encoded(" ".join(words))]
    return tokens


def _encoded(text: str) -> str:
    """One encoded word, whatever its length (`Header` would cut it): « q » (legible in the raw
    header) within RFC 2047's 75 characters, else the shorter of « q » and « b »."""
    legible = _UTF8.header_encode(text)
    return legible if len(legible) <= 75 else min(legible, _UTF8_B.header_encode(text), key=len)


POLICY = Policy()
SMTP = POLICY.clone(linesep="\r\n")  # what goes out over SMTP (email.policy.SMTP's line ends)


def message_id(message: Message) -> str:
    """The Message-ID header: a digest of the message (its path names the recipient's draft)."""
    parts = [message.path, message.subject, message.text]
    if message.html or message.attachments:  # the notices keep the identifiers they always had
        parts += [", ".join(message.to), message.html]
        parts += [f"{a.filename} {hashlib.sha256(a.data).hexdigest()}" for a in message.attachments]
    digest = hashlib.sha256("\n".join(parts).encode()).hexdigest()[:24]
    return f"<{digest}@reportgen.invalid>"


def to_message(message: Message, sender: str = "", sent: tuple[dt.datetime, str] | None = None) -> EmailMessage:
    """The message as a draft (dated its date at 09:00 UTC, its id a digest of it, marked unsent
    for the mail programs that open it as one), or, with `sent` = (the moment it is sent, a
    Message-ID of its own), as it goes out."""
    draft = EmailMessage(policy=POLICY)
    if sender:
        draft["From"] = sender
    draft["To"] = ", ".join(message.to)
    draft["Subject"] = message.subject
    identifier = message_id(message)
    moment, header_id = sent or (dt.datetime.combine(message.date, dt.time(9), dt.timezone.utc), identifier)
    draft["Date"] = format_datetime(moment)
    draft["Message-ID"] = header_id
    if sent is None:  # a draft: Outlook opens it to be sent (not as a message received); never sent so
        draft["X-Unsent"] = "1"
    draft.set_content(message.text, cte="quoted-printable")  # 7-bit clean: any mail program opens it
    if message.html:
        draft.add_alternative(message.html, subtype="html", cte="quoted-printable")
    for attachment in message.attachments:
        maintype, _, subtype = attachment.content_type.partition("/")
        draft.add_attachment(attachment.data, maintype=maintype, subtype=subtype, filename=attachment.filename)
    # The generator would draw random boundaries: these come from the message, and cannot occur
    # in its parts (quoted-printable and base64 never write "=_" followed by this digest).
    token = identifier.strip("<>").split("@")[0]
    for index, part in enumerate(draft.walk()):
        if part.is_multipart():
            part.set_boundary(f"=_reportgen_{token}_{index}")
    return draft


def to_eml(message: Message, sender: str = "") -> bytes:
    return to_message(message, sender).as_bytes()


@cache
def _environment(templates: Path, html: bool) -> Environment:
    """The mails' own environment (their own `dates`; their templates' words set as the bulletins',
    `Typography`, never what they are given): HTML autoescaped."""
    found = Environment(loader=FileSystemLoader(templates), autoescape=html, undefined=StrictUndefined,
                        trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True, extensions=[Typography])
    found.filters["typography"] = french.typography  # reportgen's sentences given as data: a problem
    # the whole date kept, year included: a mail is running text (a page keeps day and month only,
    # render/html.py `unbroken_dates`: french.day_month_kept says why)
    found.filters["dates"] = french.dates_kept
    if html:
        found.filters["player"] = player
        found.filters["file_names"] = file_names
    return found


def player(name: object) -> Markup:
    """A player's name in a mail's HTML: each hyphenated word a box of its own, whole when it fits
    the column (« LAMBERT Anne- » over « Sophie » no more: site/lines.py `player_name`, `KEPT_INLINE`),
    and its surname and first name each a box of its own, so that a phone's narrow column breaks
    between them first (« VAN DEN BERGHE » over « Jean-Baptiste », not « VAN DEN » over « BERGHE
    Jean-Baptiste »), within one only when it is longer than the column (at a hyphen first, else
    anywhere: the cell's `overflow-wrap`, templates/mail/club-html.j2); a mail program that ignores
    the boxes wraps the name between any words."""
    surname, first = surname_and_first(str(name))  # each in a box of its own (`INLINE_BOX`)
    if not first:
        return Markup(player_name(name, KEPT_INLINE))
    return Markup(" ".join(INLINE_BOX.format(player_name(part, KEPT_INLINE)) for part in (surname, first)))


# A file's name quoted in reportgen's words given as data (a problem's, a note's: « ce classeur et
# « 2026-03-14-albi-v2.xlsx » sont deux versions du tournoi … »), as the `typography` filter leaves it
# (no-break spaces inside its guillemets) and escaped: the guillemet before it, the name, then the
# guillemet and the marks after it up to the next space (« », », « » : »).
# Its suffixes: a workbook's, as inputs/ takes them, and the documents a mail attaches.
_FILE_SUFFIXES = "|".join(sorted((suffix.lstrip(".") for suffix in (*WORKBOOK_SUFFIXES, ".pdf", ".csv")),
                                 key=lambda suffix: (-len(suffix), suffix)))
_QUOTED_FILE = re.compile(rf"(«\u00a0)([^«»\s][^«»]*?\.(?:{_FILE_SUFFIXES}))(\u00a0»[^ \t\r\n]*)", re.IGNORECASE)


@pass_environment
def file_names(environment: Environment, text: str) -> Markup:
    """A sentence of reportgen's words in a mail's HTML, escaped, each file's name quoted in it a box of
    its own with its guillemets and marks (`templates/mail/file_name.j2`, as the mail's own file names
    are): a phone broke « 2026-03-14-albi- » / « printemps-v2.xlsx » at a hyphen in a refused
    workbook's problem. The words themselves are unchanged, and the plain text part has none of this."""
    box = environment.get_template("mail/file_name.j2").module.file_name  # type: ignore[attr-defined]
    return Markup(_QUOTED_FILE.sub(lambda found: str(box(Markup(found[2]), Markup(found[3]), before=Markup(found[1]))),
                                   str(escape(text))))


def bodies(name: str, context: dict[str, Any], templates: Path = TEMPLATES) -> tuple[str, str]:
    """(plain text, HTML) of a message from `mail/<name>-text.j2` and `mail/<name>-html.j2`: every
    message the league sends has both (a pool tournament's notices are drawn by their circuit)."""
    text = _environment(templates, False).get_template(f"mail/{name}-text.j2").render(**context)
    return text, _environment(templates, True).get_template(f"mail/{name}-html.j2").render(**context)
