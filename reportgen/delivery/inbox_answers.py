"""The messages `reportgen inbox` reads, and the answer each club gets: a reply (« Re: » subject,
In-Reply-To, References) in French, from `templates/mail/inbox-{text,html}.j2`, saying each
workbook accepted (« le tournoi « X » du 14 mars 2026 est enregistré »: « votre » would be wrong
for a tournament the sender does not organise; filed while its circuit waits for one it depends on,
that its full check and publication wait, nothing for the club to correct), the same workbook as
the one already filed (byte for byte: received on that day, nothing changes), held (another club's tournament, named: the
league's secretary decides; the same bytes held again for the same club's tournament: the workbook
received that day, still waiting for her decision) or its problems with sheet, cell and fix (the
same bytes refused again for the same problems: the workbook already refused that day, its problems
still there), with the circuit's blank workbook attached when the layout itself is wrong. A
workbook's warnings (an empty Prénom, which refuses nothing) follow, each with its sheet, cell and
fix: what its club may still do for it to be complete, filed, held or sent again unchanged (held:
sent again completed, it is held the same way, for the secretary to decide); after the problems of
a refused one, as what alone would not have refused it.

An answer is a `.eml` draft (its Date the day the message arrived, its Message-ID a digest of it:
the same message, the same draft), or sent over SMTP with `--send` through `send.py`'s `Session`
(the `[mail] timeout` of each exchange, the `run_timeout` of the run) and in its send log (table
`sending`, the bulletin `inbox:<mailbox>/<uidvalidity>/<uid>`): logged `sending` before DATA and
confirmed after, so an answer goes out once whatever stops a run; one the server may have had when
a run died is `unknown` and never sent again on its own. A message is known by the sha256 of its
bytes (`ranking_sha` in the log)."""

from __future__ import annotations

import datetime as dt
import email
import email.policy
import hashlib
import importlib
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from email.message import EmailMessage
from email.utils import getaddresses
from typing import Any

from reportgen import circuits, french
from reportgen.config import Mail
from reportgen.delivery.inbox_filing import EDITED, PLACED, REPLACES, WORKBOOK_SUFFIXES, Filed, Said
from reportgen.delivery.send import SendLog, Session, deliver
from reportgen.delivery.send_log import SendStatus
from reportgen.ingest.directories import Club, ClubDirectory
from reportgen.ingest.text import clean_text
from reportgen.model import FIELDS_SHEET, AnnexSheet, Attachment, Message, cell_name, cell_position
from reportgen.render.mail import bodies, to_message

XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
_IDENTIFIER = re.compile(r"<[!-;=?-~]+>")  # a Message-ID: printable ASCII between < and >
# A subject that is already a reply, as clients write it: « Re: », « re: », French Outlook's « RE : ».
# Only « re », the prefix RFC 5322 (3.6.5) names: a forward's (« TR : », « Fwd: ») gets « Re: » before
# it, as a mail client does, since the answer replies to the club's message, whatever it forwarded.
_REPLY = re.compile(r"re\s*:", re.IGNORECASE)


@dataclass
class Received:
    """A message of the mailbox, as read from its bytes."""

    sender: str  # its From address (lowercase)
    subject: str
    message_id: str  # its Message-ID, <...> (empty when it has none)
    references: str  # its References header
    date: dt.date  # the day it arrived: the server received it (inbox.py `arrived`), never its Date header
    workbooks: list[tuple[str, bytes]] = field(default_factory=list)  # (file name as given, bytes)
    others: list[str] = field(default_factory=list)  # the names of its other attachments (a .csv, a .pdf)
    in_reply_to: str = ""  # its In-Reply-To header's identifiers

    @property
    def thread(self) -> set[str]:
        """The identifiers of the messages it replies to, nearest or earlier (inbox_run.py `_thread`)."""
        return set(f"{self.references} {self.in_reply_to}".split())


def read_message(data: bytes, arrived: dt.date) -> Received:
    """The message, `arrived` the day the server received it (its Date header is the sender's clock:
    a wrong one dated the answers, the lists and the files of another day)."""
    parsed = email.message_from_bytes(data, policy=email.policy.default)
    assert isinstance(parsed, EmailMessage)
    addresses = getaddresses([str(parsed.get("From", ""))])
    sender = clean_text(addresses[0][1].strip().casefold()) if addresses else ""
    # Identifiers only (« <…> »): what a header of the reply may carry, whatever the message wrote.
    identifier = next(iter(_IDENTIFIER.findall(str(parsed.get("Message-ID", "")))), "")
    references = " ".join(_IDENTIFIER.findall(str(parsed.get("References", ""))))
    received = Received(sender, clean_text(str(parsed.get("Subject", "")).strip()), identifier, references, arrived,
                        in_reply_to=" ".join(_IDENTIFIER.findall(str(parsed.get("In-Reply-To", "")))))
    for part in parsed.walk():
        name = part.get_filename()
        if name and name.lower().endswith(WORKBOOK_SUFFIXES):
            payload = part.get_payload(decode=True)
            if isinstance(payload, bytes):  # its name is data: printed, never a path (inbox_filing)
                received.workbooks.append((clean_text(name), payload))
        elif name and part.get_content_disposition() != "inline":  # a signature's logo is no file sent
            received.others.append(clean_text(name))
    return received


def club_of(clubs: ClubDirectory, sender: str) -> Club | None:
    """The club whose `Email` column lists the sender's address."""
    return next((club for club in clubs.clubs if sender and sender in {a.casefold() for a in club.emails}), None)


def blank_template(circuit: str, clubs: ClubDirectory, club: Club | None, day: dt.date,
                   known: Mapping[str, object] | None = None) -> Attachment | None:
    """The circuit's blank workbook for `club`, if it has one: what `reportgen template CIRCUIT --club` writes,
    the inbox attaches to an answer whose layout is wrong and `remind` to a reminder. `known`: fields
    of its `Tournoi` sheet already typed in, by label (a reminder's tournament: its name, its date)."""
    from reportgen.render.excel import render_annex

    info = circuits.REGISTRY.get(circuit)
    if info is None or not info.template:
        return None
    module = importlib.import_module(info.template_module)
    annex = module.blank_workbook(clubs, club, day)
    if known:
        annex = replace(annex, sheets=[_typed_in(sheet, known) for sheet in annex.sheets])
    return Attachment(f"modele-{circuit}.xlsx", render_annex(annex), XLSX)


def _typed_in(sheet: AnnexSheet, known: Mapping[str, object]) -> AnnexSheet:
    """The `Tournoi` sheet (label, value rows) with the values `known` by label; another sheet as it is."""
    if sheet.name != FIELDS_SHEET:
        return sheet
    return replace(sheet, rows=[[label, known.get(label, value)] for label, value in sheet.rows])


@dataclass
class Answer:
    draft: Message
    key: str  # the message answered, as the send log names it
    in_reply_to: str
    references: str

    def email(self, sender: str, sent: tuple[dt.datetime, str] | None = None) -> EmailMessage:
        """The reply as a draft, or (`sent`) as it goes out (render/mail.py's to_message)."""
        message = to_message(self.draft, sender, sent)
        if self.in_reply_to:
            message["In-Reply-To"] = self.in_reply_to
            message["References"] = " ".join(filter(None, [self.references, self.in_reply_to]))
        return message


def waited(filed: Filed) -> list[str]:
    """The titles of the circuits a workbook filed while it waits depends on (« « Classement régional
    Grand Sud » »), as the secretary and the clubs know them."""
    if not filed.waits:
        return []
    info = circuits.REGISTRY.get(filed.circuit)
    return [f"« {circuits.REGISTRY[slug].title} »" for slug in (info.requires if info else ()) if slug in circuits.REGISTRY]


# Before a held workbook's notes (`Filed.notes`): what filing it would change, were it filed.
IF_FILED = "s’il est enregistré, "


# After a filed workbook's note that it replaces its series' first tournament of the year, whose
# words (`check`'s) end « donnez à l’un une « Série » à lui, dans sa feuille « Tournoi » »: where the club
# types it and what then, which a club that never read the formats could not tell.
SERIES_FIX = ("pour cela, tapez-y, champ « Série », un nom de votre choix (par exemple « automne », à garder les "
              "années suivantes), puis renvoyez le classeur en réponse à ce message : il remplacera la version "
              "enregistrée")


def notes_said(filed: Filed) -> list[dict[str, str]]:
    """A workbook's notes as its answer says them, each a sentence: a filed one's as they are, a held
    one's after « S’il est enregistré, » (the secretary decides) and without a fix: sent again by its
    sender, it is held again, so « renvoyez le classeur » would send it round for nothing."""
    held = filed.status == "held"
    said: list[dict[str, str]] = []
    for note in filed.notes:
        message = (IF_FILED if held else "") + note.message
        fix = "" if held else SERIES_FIX if note.code == REPLACES and filed.status == "accepted" else note.fix
        # a final ranking changed and a calendar announcing another day share their fix: said once
        if any(fix == earlier["fix"] for earlier in said):
            fix = ""
        said.append({"message": message[:1].upper() + message[1:], "fix": fix})
    return said


def replaced_on(filed: Filed) -> str:
    """The date of the earlier version a workbook replaces when it is not its own (« 29 novembre 2026 »):
    the club corrected its date (inbox_filing.py `_correction`, a single version); '' when it has its
    date (every version found by name and day, or by edition, has it)."""
    days = [r.date for r in filed.replaced if r.date and r.date != filed.date]
    return french.date_long(dt.date.fromisoformat(days[0])) if days else ""


def owned_by(filed: Filed) -> str:
    """Whose tournament a held workbook is: « du club d’Albi » (« … et du club de Nîmes »)."""
    return french.joined([french.of_club(owner.name) for owner in filed.owners])


def grouped(problems: Sequence[Said]) -> list[dict[str, str]]:
    """A workbook's problems, or its warnings, as its answer lists them: one problem in several cells
    of one column said once, its cells as runs (« cellules A2 à A41 »): forty rows of « ? » for a
    place made forty lines of the same words."""
    groups: dict[object, list[Said]] = {}
    for said in problems:
        one_cell = _position(said.cell) is not None  # a range (« A2:B9 ») or a settings key is said on its own
        groups.setdefault((said.sheet, said.column, said.message, said.fix) if one_cell else id(said), []).append(said)
    return [{"where": found[0].where if len(found) == 1 else found[0].located(f"cellules {_runs(found)}"),
             "message": found[0].message, "fix": found[0].fix} for found in groups.values()]


def _position(cell: str | None) -> tuple[int, int] | None:
    """A cell's (row, column), None for anything else a problem may be located at."""
    try:
        return cell_position(cell) if cell else None
    except ValueError:
        return None


def _runs(found: list[Said]) -> str:
    """The cells of `found` (each one cell: `grouped`), successive rows of a column as one run: « A2 à
    A41, A45 »."""
    cells = sorted((column, row) for row, column in (cell_position(said.cell) for said in found if said.cell))
    runs: list[list[tuple[int, int]]] = []  # each run's first and last (column, row)
    for column, row in cells:
        if runs and runs[-1][1] == (column, row - 1):
            runs[-1][1] = (column, row)
        else:
            runs.append([(column, row), (column, row)])
    return ", ".join(cell_name(first[1], first[0]) + (f" à {cell_name(last[1], last[0])}" if last != first else "")
                     for first, last in runs)


def compose(received: Received, club: Club, filed: list[Filed], league: str, clubs: ClubDirectory, path: str,
            key: str) -> Answer:
    """The answer to `received`, from what was decided for each of its workbooks."""
    accepted: list[dict[str, Any]] = []
    same: list[dict[str, Any]] = []
    held: list[dict[str, Any]] = []
    refused: list[dict[str, Any]] = []
    attachments: list[Attachment] = []
    for one in filed:
        shown = clean_text(one.filename)
        # same, refused or held again: the day of the earlier message these bytes repeat (`Filed.known_since`)
        since = one.since
        if one.status == "accepted":
            day = dt.date.fromisoformat(one.date)
            titles = waited(one)
            accepted.append({"filename": shown, "event": one.event, "circuit": circuits.REGISTRY[one.circuit].title,
                             "date": french.date_long(day), "season": day.year, "replaced": bool(one.replaced),
                             "replaced_on": replaced_on(one),
                             "waits": french.joined([f"le {title}" for title in titles]), "many": len(titles) > 1,
                             "warnings": grouped(one.warnings),
                             # what filing it changes besides its own earlier version, each a sentence
                             "notes": notes_said(one)})
            continue
        if one.status == "same":
            same.append({"filename": shown, "event": one.event, "date": french.date_long(dt.date.fromisoformat(one.date)),
                         "since": since, "warnings": grouped(one.warnings)})
            continue
        if one.status == "held":
            day = dt.date.fromisoformat(one.date)
            # another club's tournament, else a version of the secretary's (`Filed.hers`): her edit of it
            # first (« modifiée depuis son dépôt »), else her own file (« mise en place »); `lost`: the club's
            # version changes or empties cells of hers (inbox_cells.py), said to the club without them
            hers = min((version.hers for version in one.hers), key=(EDITED, PLACED).index, default="")
            held.append({"filename": shown, "event": one.event, "date": french.date_long(day),
                         "owners": owned_by(one), "hers": hers,
                         "lost": any(version.losses for version in one.hers), "replaced": bool(one.replaced), "since": since,
                         "warnings": grouped(one.warnings), "notes": notes_said(one)})
            continue
        template = blank_template(one.circuit, clubs, club, received.date) if one.layout else None
        if template is not None and template.filename not in {a.filename for a in attachments}:
            attachments.append(template)
        refused.append({"filename": shown, "template": template.filename if template else "",
                        "problems": grouped(one.blocking), "warnings": grouped(one.warnings), "since": since})
    # a message without a subject: its answer's, in a mailbox's list, says what it is about (it read
    # « Re: votre classeur », a reply to a subject nobody wrote)
    reply = received.subject if _REPLY.match(received.subject) else \
        f"Re: {received.subject}" if received.subject else "Votre classeur de résultats"
    context = {"received": french.date_long(received.date), "subject": received.subject, "accepted": accepted,
               "same": same, "held": held, "refused": refused, "league": league, "title": reply}
    text, html = bodies("inbox", context)
    draft = Message(path=path, to=(received.sender,), subject=reply, text=text, date=received.date, html=html,
                    attachments=tuple(attachments))
    return Answer(draft, key, received.message_id, received.references)


POSTPONED = "postponed"  # a send not attempted: the run's time (`[mail] run_timeout`) was spent


def answer_status(digest: str) -> str:
    """SQL: what the send log knows of the answer to the message whose bytes' sha256 is `digest` (a
    placeholder or a column): `sent` if it went out, else `unknown` if a dead run left it unconfirmed,
    else NULL (a draft). One query for `send_answer` (not sent twice) and the refused workbooks'
    list (inbox_run.py `refused_rows`), which preferred the two statuses the other way round; sent
    wins, as delivery/send_log.py `sent_or_unknown` has it for the bulletins and the reminders."""
    return ("(SELECT s.status FROM sending s WHERE s.bulletin LIKE 'inbox:%' AND s.ranking_sha = "
            f"{digest} AND s.status IN ('sent', 'unknown') ORDER BY s.status = 'sent' DESC LIMIT 1)")


def send_answer(answer: Answer, digest: str, club: Club, settings: Mail, log: SendLog,
                session: Session) -> tuple[str, str]:
    """(status, what the server said): `sent`, `failed` (sent again next run), `unknown` (a run
    died while the server had it: not sent again), `already` (the log has it sent), or `postponed`
    (not attempted, the run's time was spent: sent next run)."""
    address = answer.draft.to[0]
    # The message is its bytes: the same message under another UID (the server renumbered the
    # folder: a new UIDVALIDITY) is never answered twice.
    found = log.connection.execute(f"SELECT {answer_status('?')} AS status", (digest,)).fetchone()["status"]
    if found is not None:
        return ("already" if found == SendStatus.SENT else SendStatus.UNKNOWN), ""
    timeout = session.allowance()
    if timeout is None:
        return POSTPONED, ""
    pdf = hashlib.sha256(b"".join(a.data for a in answer.draft.attachments)).hexdigest()
    outcome, _ = deliver(
        session.smtp, settings, log, answer.draft.to, lambda sent: answer.email(settings.sender, sent),
        lambda moment, identifier: [(moment, answer.draft.date.year, club.code, club.name, address.casefold(), "", answer.key,
                                     digest, pdf, identifier)],
        timeout, f"la réponse {french.at(club.name)} est peut-être partie sans que le journal le note : le prochain "
        "passage la signalera comme incertaine", lambda: dt.datetime.now(dt.timezone.utc))
    status = SendStatus.UNKNOWN if outcome.unconfirmed else SendStatus.FAILED if outcome.refused else SendStatus.SENT
    said = outcome.unconfirmed or "; ".join(outcome.refused.values())
    return status, said
