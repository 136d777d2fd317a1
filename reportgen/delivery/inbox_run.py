"""`reportgen inbox`, one run: each message of the mailbox handled once, whatever stops a run.

A message goes through states recorded in `archive/league.sqlite` (table inbox_message, keyed by
the mailbox, the folder's UIDVALIDITY and the message's UID), each step done only after the state
before it was committed, and each step safe to do again:

1. its bytes are copied to `archive/inbox/messages/<uidvalidity>-<uid>.eml`, then its row is
   inserted: `received` (or `left`: unknown sender, or no workbook attached; such a message stays
   in the folder for the secretary and is listed at every run, never filed nor answered);
2. each workbook is checked (`inbox_filing.examine`) and what to do with it is committed with the
   state `filing` (table inbox_file): nothing is filed before the decisions are in the database; a
   workbook of another club's tournament (one whose earlier version another club's message filed,
   as inbox_file says, or whose sheet names another club), or a new version of one of hers (one she
   edited since it was filed or found, or placed with no club known: inbox_filing.py `mine`) that
   loses a value she typed (`Inbox._losing`, inbox_cells.py), is
   `held` for the secretary (sent again
   byte for byte while it waits, it is checked again: held again, it shares the first copy, nothing
   new for her, and its club is told it still waits for her decision);
3. the decisions are carried out (filed under inputs/, earlier versions kept, unless the secretary
   edited one since the decision and the new version loses some of it: held instead, its row rewritten, inbox_filing.py `held_instead`; refused and held
   ones kept aside; nothing for the same bytes as inputs/ holds, `same`; bytes refused or held
   again share their first copy: one the secretary deleted made them a new decision, in a copy
   of their own), then `filed`;
4. the answer: a draft in `outputs/mail/inbox/`, and with `--send` sent through the send log
   (`inbox_answers.send_answer`: at most once); then `done` (a failed send leaves it `filed`: the
   next run sends the answer again, and files nothing twice; so does one not attempted because the
   run's `[mail] run_timeout`, counted from the start of the run, was spent: the messages after it
   are still filed, their answers wait for the next run). Without `--send` it is `done` with
   `why` = `drafted`: the next `inbox --send` sends it (`send_drafted`), composed again from the
   copy of the message and the decisions recorded, still a reply to it, then clears `why`;
5. the message is moved to the `done` folder.

A drafted answer that a newer message of the same club has superseded (every workbook it answers
for is in the newer message: the same file name, or the same tournament, circuit, name and date,
or, refused, a workbook of the newer message corrects it, inbox_filing.py `corrects`) is not sent: the newer answer says where that tournament stands, the older one would contradict it
(« refusé » after « enregistré »). It is marked `superseded` and listed; its draft stays. An answer
drafted before runs recorded `drafted` (its `why` empty) is never sent: the secretary may have sent
that draft by hand.

A kill -9 at any point leaves a state the next run finishes from its copy of the message: no
attachment lost, no answer sent twice. One run at a time: a flock on `archive/.inbox.lock`, which
the kernel drops with the process."""

from __future__ import annotations

import dataclasses
import datetime as dt
import sqlite3
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import IO

from reportgen import clock, french
from reportgen.config import Mail
from reportgen.delivery import database
from reportgen.delivery.filers import Filers, decided
from reportgen.delivery.inbox import Mailbox
from reportgen.delivery.inbox_answers import (
    IF_FILED,
    POSTPONED,
    Received,
    answer_status,
    club_of,
    compose,
    owned_by,
    read_message,
    send_answer,
    waited,
)
from reportgen.delivery.inbox_cells import NO_CELLS, Cells, Lost, cells, cells_of, lost, read_cells
from reportgen.delivery.inbox_filing import (
    CORRECTING,
    EDITED,
    PLACED,
    WORKBOOK_SUFFIXES,
    Earlier,
    Filed,
    Losing,
    Owner,
    Replaced,
    carry_out,
    corrects,
    decide,
    examine,
    one_version_each,
    sha256,
    slug,
)
from reportgen.delivery.lock import hold
from reportgen.delivery.send import SendLog, Session
from reportgen.delivery.send_log import SendStatus
from reportgen.ingest.directories import Club, ClubDirectory
from reportgen.ingest.sheets import Sheet
from reportgen.model import ReportgenError
from reportgen.render.files import write_atomic
from reportgen.temporaries import clean_temporaries

LOCK = ".inbox.lock"  # in the archive folder, beside the database
COPIES = "inbox/messages"  # under the archive folder: every message read, as the server gave it
DRAFTS = "mail/inbox"  # under outputs/: the answers

Say = Callable[[str], None]


class MessageStatus(StrEnum):
    """A message's state in `inbox_message.status` (database.py's CHECK lists the same words), in
    the order a run takes it: copied (`received`), its workbooks' fate committed (`filing`), carried
    out (`filed`), answered and moved (`done`); or `left` in the box for the secretary."""

    RECEIVED = "received"
    FILING = "filing"
    FILED = "filed"
    DONE = "done"
    LEFT = "left"


@dataclass
class Handled:
    """A message, as this run left it."""

    uid: int
    sender: str
    subject: str
    club: str  # the club's name ('' when the sender is unknown)
    status: MessageStatus  # DONE, FILED (its answer failed: sent again next run) or LEFT
    why: str = ""  # left: unknown-sender | no-workbook; done: drafted (answer not sent yet) | superseded
    files: list[Filed] = field(default_factory=list)
    answer: str = ""  # the draft, relative to outputs/
    sent: str = ""  # with --send: sent | already | unknown | failed | postponed | superseded (`later` only)
    said: str = ""  # what the server said of a failed or unknown send
    new: bool = True  # handled by this run (False: left by an earlier one, still in the folder)
    later: bool = False  # answered as a draft by an earlier run, sent (or superseded) by this one
    others: tuple[str, ...] = ()  # left without workbook: the names of the files it has instead (a .csv)


@dataclass
class Sending:
    """What `--send` needs: the [mail] settings, the send log (held) and the sending run's session
    (send.py's, as `mail --send` and `remind --send`: entered for the whole run)."""

    settings: Mail
    log: SendLog
    session: Session


def lock(archive: Path) -> IO[str]:
    """The inbox's lock, held while the file stays open."""
    path = archive / LOCK
    return hold(path, f"une autre lecture de la boîte aux lettres est en cours (elle tient {path}) : attendez qu’elle "
                      "finisse ; aucun message n’a été lu", "aucun message n’a été lu")


def sending(settings: Mail, log: SendLog) -> Sending:
    return Sending(settings, log, Session(settings))


class Inbox:
    """One run over the mailbox."""

    def __init__(self, mailbox: Mailbox, connection: sqlite3.Connection, inputs: Path, outputs: Path,
                 archive: Path, clubs: ClubDirectory, league: str, sender: str, send: Sending | None = None,
                 today: dt.date | None = None) -> None:
        self.mailbox = mailbox
        self.db = connection
        self.inputs = inputs
        self.outputs = outputs
        self.archive = archive
        self.clubs = clubs
        self.league = league
        self.sender = sender  # From of the drafts
        self.send = send
        self.today = today or clock.today()

    @contextmanager
    def writing(self) -> Iterator[sqlite3.Connection]:
        try:
            with database.transaction(self.db):
                yield self.db
        except database.DatabaseUnusable as fault:
            raise fault.needed_by("la lecture de la boîte s’est arrêtée (relancez-la : rien ne sera fait deux "
                                  "fois)") from None

    def _row(self, uid: int) -> sqlite3.Row | None:
        row: sqlite3.Row | None = self.db.execute(
            "SELECT * FROM inbox_message WHERE mailbox = ? AND uidvalidity = ? AND uid = ?",
            (self.mailbox.name, self.mailbox.uidvalidity, uid)).fetchone()
        return row

    def run(self, say: Say = lambda text: None) -> list[Handled]:
        # The temporary files a run killed mid-write left where only the inbox writes (its lock is held):
        # a workbook kept aside, a message's copy, an answer's draft.
        clean_temporaries(self.archive / "inbox")
        clean_temporaries(self.outputs / DRAFTS)
        self.mailbox.ensure_done()
        handled = []
        with self.send.session if self.send is not None else nullcontext():  # hangs up whatever stops the run
            for uid in self.mailbox.uids():
                one = self.handle(uid)
                if one.new and one.status != MessageStatus.LEFT:
                    say(describe(one, self.inputs, self.outputs, self.archive))
                handled.append(one)
            if self.send is not None:  # after this run's messages, which may supersede a draft
                for one in self.send_drafted():
                    say(describe(one, self.inputs, self.outputs, self.archive))
                    handled.append(one)
        return handled

    def handle(self, uid: int) -> Handled:
        """Take the message from where its state says, to `done` and moved (or `left`)."""
        row = self._row(uid)
        new = row is None
        if row is None:
            row = self._record(uid)
        received = read_message(self._copy(row), _arrived(row))
        if row["status"] == MessageStatus.LEFT:  # clubs.xlsx may know the sender now
            row = self._again(row, received)
        club = (self.clubs.find(row["club_code"]) or Club(row["club_code"], row["club_code"], "")
                if row["club_code"] else None)  # a club gone from clubs.xlsx since is still answered
        one = Handled(uid, row["sender"], row["subject"], club.name if club else "", row["status"], row["why"],
                      new=new or row["status"] not in (MessageStatus.LEFT, MessageStatus.DONE),
                      others=tuple(received.others))
        if row["status"] == MessageStatus.LEFT:
            return one
        if row["status"] == MessageStatus.DONE:  # a run stopped before moving it, or the same message renumbered
            one.answer = row["answer"]
            self.mailbox.move(uid)
            return one
        assert club is not None
        name = f"{received.date.isoformat()}-{slug(club.code, 20)}-{uid}"
        status = row["status"]
        if status == MessageStatus.RECEIVED:
            self._decide(row["id"], received, club.code, name)
            status = MessageStatus.FILING
        one.files = self._files(row["id"])
        if status == MessageStatus.FILING:
            contents = {sha256(content): content for _, content in received.workbooks}
            for position, filed in enumerate(one.files):
                data = contents[filed.sha256]
                done = carry_out(filed, data, self.inputs, self.archive, name,
                                 self._losing(filed.filename, data, None, before=row["id"]))
                if done != filed:  # held instead: she edited a version it replaces meanwhile
                    self._redecide(row["id"], position, done)
                    one.files[position] = done
            self._set(row["id"], MessageStatus.FILED)
            status = MessageStatus.FILED
        one.answer = f"{DRAFTS}/{name}.eml"
        key = f"inbox:{self.mailbox.name}/{self.mailbox.uidvalidity}/{uid}"
        answer = compose(received, club, one.files, self.league, self.clubs, f"{DRAFTS}/{name}", key)
        write_atomic(self.outputs / one.answer, answer.email(self.sender).as_bytes())
        if self.send is not None:
            one.sent, one.said = send_answer(answer, row["copy_sha"], club, self.send.settings, self.send.log,
                                             self.send.session)
            if one.sent in (SendStatus.FAILED, POSTPONED):  # stays `filed`: answered next run
                one.status = MessageStatus.FILED
                return one
        self._set(row["id"], MessageStatus.DONE, one.answer, "" if self.send is not None else "drafted")
        one.status = MessageStatus.DONE
        self.mailbox.move(uid)
        return one

    def send_drafted(self) -> list[Handled]:
        """The answers earlier runs only drafted, sent now (each once: the send log), oldest first;
        a superseded one marked so, never sent."""
        assert self.send is not None
        done = []
        rows = self.db.execute("SELECT * FROM inbox_message WHERE mailbox = ? AND status = 'done' AND why = 'drafted' "
                               "ORDER BY id", (self.mailbox.name,)).fetchall()
        for row in rows:
            club = self.clubs.find(row["club_code"]) or Club(row["club_code"], row["club_code"], "")
            files = self._files(row["id"])
            one = Handled(row["uid"], row["sender"], row["subject"], club.name, MessageStatus.DONE, files=files,
                          answer=row["answer"], new=False, later=True)
            if self._superseded(row, files):
                one.sent = "superseded"
                self._set(row["id"], MessageStatus.DONE, row["answer"], "superseded")
            else:
                key = f"inbox:{self.mailbox.name}/{row['uidvalidity']}/{row['uid']}"
                received = read_message(self._copy(row), _arrived(row))
                answer = compose(received, club, files, self.league, self.clubs, row["answer"].removesuffix(".eml"),
                                 key)
                one.sent, one.said = send_answer(answer, row["copy_sha"], club, self.send.settings, self.send.log,
                                                 self.send.session)
                if one.sent not in (SendStatus.FAILED, POSTPONED):  # still `drafted`: sent next run
                    self._set(row["id"], MessageStatus.DONE, row["answer"])
            done.append(one)
        return done

    def _files(self, message: int) -> list[Filed]:
        return [Filed.from_row(r) for r in self.db.execute(
            "SELECT * FROM inbox_file WHERE message = ? ORDER BY position", (message,))]

    def _superseded(self, row: sqlite3.Row, files: list[Filed]) -> bool:
        """Whether newer messages of the same club carry every workbook `files` answers for (`_marks`),
        or, refused, a workbook that corrects it (`Filed.corrects`)."""
        newer = set()
        for later in self.db.execute("SELECT id FROM inbox_message WHERE mailbox = ? AND club_code = ? AND id > ? "
                                     "AND status != 'left'", (self.mailbox.name, row["club_code"], row["id"])):
            for filed in self._files(later["id"]):
                newer |= _marks(filed) | {("corrected", corrected.path) for corrected in filed.corrects}
        return bool(files) and all((_marks(filed) | {("corrected", filed.path)}) & newer for filed in files)

    def _decide(self, message: int, received: Received, club: str, name: str) -> None:
        """Each workbook checked, and what to do with it committed (`filing`) before anything is done."""
        checked = []
        refused = {}  # each workbook's latest refusal to the club, for `decide` and `one_version_each`
        thread = self._thread(received, club)
        for filename, content in received.workbooks:
            verdict = examine(self.inputs, filename, content, self.today, self.clubs, self.outputs, thread, club)
            digest = sha256(content)
            refused[digest] = self._before("refused", digest, club)
            found = self._found(verdict.same)
            earlier = Earlier(found, self._edited(found), self._losing(filename, content, verdict.sheets, None))
            checked.append((verdict, decide(verdict, filename, content, club, name, self.inputs, earlier,
                                            self._filed_by(verdict.same), self._known_since(digest),
                                            refused[digest], self._before("held", digest, club))))
        decided = one_version_each(checked, name, refused)
        refusals = self._refusals(received, club)  # those of its thread an accepted workbook may correct
        accepted = sum(filed.status in CORRECTING for filed in decided)
        decided = [dataclasses.replace(filed, corrects=corrects(filed, refusals, accepted)) for filed in decided]
        with self.writing() as db:
            db.executemany("INSERT INTO inbox_file (message, position, filename, sha256, status, circuit, event, date, "
                           "path, replaced, problems, owners, known_since, corrects) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, "
                           "?, ?, ?, ?, ?)",
                           [(message, position, *filed.row()) for position, filed in enumerate(decided)])
            db.execute("UPDATE inbox_message SET status = 'filing' WHERE id = ?", (message,))

    def _thread(self, received: Received, club: str) -> dict[str, dt.date]:
        """The workbooks (under inputs/) filed from the messages of `club` that `received` replies to, or
        whose answers it replies to (`_replied`), each with the day the message that filed it arrived
        (the server's, the latest if several did; not its Date header, the sender's clock): a workbook
        sent in reply, its date corrected, is a new version of one of them (inbox_filing.py
        `_correction`), never of one that arrived before its own day."""
        where, ids = _replied(received)
        if not ids:
            return {}
        rows = self.db.execute(
            "SELECT f.path, MAX(m.arrived_on) AS arrived_on FROM inbox_file f JOIN inbox_message m ON m.id = f.message "
            f"WHERE m.club_code = ? AND f.status IN ('accepted', 'same') AND {where} GROUP BY f.path", (club, *ids))
        return {row["path"]: dt.date.fromisoformat(row["arrived_on"]) for row in rows}

    def _refusals(self, received: Received, club: str) -> list[tuple[Filed, dt.date]]:
        """The workbooks refused to `club` in the messages `received` replies to, or whose answers it
        replies to (`_replied`), still kept aside (waiting, or set aside by their copy's deletion),
        each with the day its message arrived: those an accepted workbook of it may correct
        (inbox_filing.py `corrects`)."""
        where, ids = _replied(received)
        if not ids:
            return []
        rows = self.db.execute(
            "SELECT m.arrived_on, f.* FROM inbox_file f JOIN inbox_message m ON m.id = f.message WHERE m.club_code = ? "
            f"AND f.status = 'refused' AND {where} ORDER BY m.id, f.position", (club, *ids))
        return [(Filed.from_row(row), dt.date.fromisoformat(row["arrived_on"])) for row in rows
                if (self.archive / row["path"]).is_file()]

    def _filed_by(self, paths: list[str]) -> dict[str, Owner]:
        """The club whose message last filed each of `paths` (under inputs/), by `Filers`' rule (looked
        up by its path alone, a Tantrix tournament renamed, whose sheets name no club, was any club's to
        replace, told « enregistré »); a file no message filed (the secretary put it there) is not in it."""
        filers = Filers(self.db.execute(Filers.QUERY).fetchall())
        found = {}
        for path in paths:
            code = filers.of(path, lambda: sha256(file.read_bytes()) if (file := self.inputs / path).is_file() else "")
            if code:
                club = self.clubs.find(code)
                found[path] = Owner(code, club.name if club is not None else code)
        return found

    def _found(self, paths: list[str]) -> dict[str, str]:
        """The sha256 of each of `paths` (under inputs/) as the decision finds it, hashed once: the
        bytes `_edited` judges are those `decide` records (`Replaced.found`), so that her write between
        the two (her command writing the next round into a file the club filed) is found at filing
        (`edited_meanwhile`), never taken for the bytes the decision judged."""
        return {path: sha256(file.read_bytes()) for path in paths if (file := self.inputs / path).is_file()}

    def _edited(self, found: Mapping[str, str]) -> frozenset[str]:
        """Those of the earlier versions `found` (under inputs/, the sha256 of each) the secretary changed
        since the inbox last filed them there, or found them there unchanged (`same`): their bytes are no
        longer the `sha256` of that latest `inbox_file` row (by hand, or with a circuit's command of hers
        or `players`), nor those of a workbook held or refused for her (she filed it: a club's version,
        not her edit; a version the inbox filed once, which she put back from archive/inbox/replaced/,
        is her edit). A club's new version of one is held for her when it loses a value
        she typed (inbox_filing.py `mine`, `_losing`); a file no message filed or found is not in it."""
        edited = set()
        for path, digest in found.items():
            row = self._last_filed(path, None)
            if row is None:
                continue
            if digest != row["sha256"] and self.db.execute(
                    "SELECT 1 FROM inbox_file WHERE sha256 = ? AND status IN ('held', 'refused')", (digest,)).fetchone() is None:
                edited.add(path)
        return frozenset(edited)

    def _losing(self, filename: str, data: bytes, sheets: list[Sheet] | None, before: int | None) -> Losing:
        """What the club's version (`data`, the attachment `filename`; `sheets`, as its check read them,
        None: read here) loses of an earlier version of the
        secretary's (inbox_filing.py `mine`): inbox_cells.py `lost`, from the version the inbox last filed
        or found at its path (`_base`; of a message before `before`, the one being filed, when given),
        none for a file she put in inputs/ herself (`PLACED`), or known to no message (her write, found
        as the inbox files, to a file of hers it never filed: every cell she has is hers); None when one
        of the three cannot be read (held, as the secretary's doubt would be)."""
        club: list[Cells | None] = []  # read once, for the first earlier version it is compared with

        def losing(path: str, kind: str) -> list[Lost] | None:
            base = NO_CELLS if kind == PLACED else self._base(path, before)
            hers = read_cells(self.inputs / path) if (self.inputs / path).is_file() else None
            if not club:
                club.append(cells(sheets) if sheets is not None else cells_of(data, filename))
            if base is None or hers is None or club[0] is None:
                return None
            return lost(base, hers, club[0])
        return losing

    def _last_filed(self, path: str, before: int | None) -> sqlite3.Row | None:
        """The latest `inbox_file` row that filed `path` or found it there (`accepted` or `same`), of a
        message before `before` when given, with its message's copy and day: what the secretary's bytes
        are compared with (`_edited`, `_base`)."""
        row: sqlite3.Row | None = self.db.execute(
            "SELECT f.sha256, m.copy, m.arrived_on FROM inbox_file f JOIN inbox_message m ON m.id = f.message WHERE "
            "f.path = ? AND f.status IN ('accepted', 'same') AND (? IS NULL OR m.id < ?) ORDER BY m.id DESC LIMIT 1",
            (path, before, before)).fetchone()
        return row

    def _base(self, path: str, before: int | None) -> Cells | None:
        """The cells of the version of `path` the inbox last filed or found there (its latest `accepted`
        or `same` row, of a message before `before` when given): its message's attachment of that
        SHA-256, from the copy kept in archive/inbox/messages/; none when no message filed or found it;
        None when that copy is gone or damaged (no attachment of those bytes)."""
        row = self._last_filed(path, before)
        if row is None:
            return NO_CELLS
        try:
            received = read_message((self.archive / row["copy"]).read_bytes(), _arrived(row))
        except OSError:
            return None
        sent = next(((name, data) for name, data in received.workbooks if sha256(data) == row["sha256"]), None)
        return cells_of(sent[1], sent[0]) if sent is not None else None

    def _latest(self, status: str, digest: str, club: str = "") -> sqlite3.Row | None:
        """The latest decision `status` for these bytes (`digest`), with the day its message arrived
        (`arrived_on`); of `club`'s messages only, when given."""
        row: sqlite3.Row | None = self.db.execute(
            "SELECT m.arrived_on, f.* FROM inbox_file f JOIN inbox_message m ON m.id = f.message WHERE f.status = ? "
            "AND f.sha256 = ? AND (? = '' OR m.club_code = ?) ORDER BY m.id DESC LIMIT 1",
            (status, digest, club, club)).fetchone()
        return row

    def _known_since(self, digest: str) -> str:
        """The day (ISO) the message that last filed these bytes arrived, as the answers date a
        message (« votre message du … »); '' when no message did (the secretary put them in inputs/)."""
        row = self._latest("accepted", digest)
        return str(row["arrived_on"]) if row is not None else ""

    def _before(self, status: str, digest: str, club: str) -> Filed | None:
        """The latest decision `status` (`refused` or `held`) for these bytes in `club`'s messages
        (another club sending them has been told nothing of them), its `known_since` the day the
        message that first brought them so (with its problems, for its owners) arrived: its own,
        unless it repeated an earlier decision. A copy the secretary deleted is her answer: a held
        one's « no » (`held_waiting`), a refused one set aside (`refused_rows`); these bytes kept
        aside again are a new decision, kept in a copy of their own and dated from their message,
        never « still waiting for her decision », nor « already refused » and written back under the
        name of the message she had set aside (listed again as that one's)."""
        row = self._latest(status, digest, club)
        if row is None or not (self.archive / row["path"]).is_file():
            return None
        return dataclasses.replace(Filed.from_row(row), known_since=row["known_since"] or row["arrived_on"])

    def _redecide(self, message: int, position: int, filed: Filed) -> None:
        """The decision for a workbook of `message` as it was carried out (inbox_filing.py `held_instead`):
        recorded once its copy is kept, before the answer is composed from it (a run stopped between
        finds the same edit and holds it again)."""
        with self.writing() as db:
            db.execute("UPDATE inbox_file SET filename = ?, sha256 = ?, status = ?, circuit = ?, event = ?, date = ?, "
                       "path = ?, replaced = ?, problems = ?, owners = ?, known_since = ?, corrects = ? WHERE "
                       "message = ? AND position = ?", (*filed.row(), message, position))

    def _set(self, message: int, status: MessageStatus, answer: str = "", why: str = "") -> None:
        with self.writing() as db:
            db.execute("UPDATE inbox_message SET status = ?, answer = ?, why = ? WHERE id = ?",
                       (status, answer, why, message))

    def _record(self, uid: int) -> sqlite3.Row:
        """The message copied into the archive, then its row: `received`, or `left`."""
        data, arrived = self.mailbox.fetch(uid)
        copy = f"{COPIES}/{self.mailbox.uidvalidity}-{uid}.eml"
        write_atomic(self.archive / copy, data)
        # the day the server received it (a server that says none: the day it was read)
        received = read_message(data, arrived or self.today)
        club = club_of(self.clubs, received.sender)
        status, why = MessageStatus.RECEIVED, ""
        if club is None:
            status, why = MessageStatus.LEFT, "unknown-sender"
        elif not received.workbooks:
            status, why = MessageStatus.LEFT, "no-workbook"
        digest, answer = sha256(data), ""
        earlier = self.db.execute("SELECT answer FROM inbox_message WHERE mailbox = ? AND copy_sha = ? AND "
                                  "status = 'done'", (self.mailbox.name, digest)).fetchone()
        if earlier is not None:  # the same message, renumbered by the server (a new UIDVALIDITY): moved only
            status, answer = MessageStatus.DONE, earlier["answer"]
        moment = dt.datetime.now(dt.timezone.utc).replace(microsecond=0).isoformat()
        with self.writing() as db:
            db.execute("INSERT INTO inbox_message (mailbox, uidvalidity, uid, recorded_at, message_id, sender, subject, "
                       "arrived_on, copy, copy_sha, club_code, status, why, answer) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                       (self.mailbox.name, self.mailbox.uidvalidity, uid, moment, received.message_id, received.sender,
                        received.subject, received.date.isoformat(), copy, digest, club.code if club else "",
                        status, why, answer))
        row = self._row(uid)
        assert row is not None
        return row

    def _again(self, row: sqlite3.Row, received: Received) -> sqlite3.Row:
        """A message left for the secretary whose sender clubs.xlsx now names (she added the address),
        with a workbook: handled from now on like a new one."""
        club = club_of(self.clubs, received.sender)
        if club is None or not received.workbooks:
            return row
        with self.writing() as db:
            db.execute("UPDATE inbox_message SET status = 'received', why = '', club_code = ? WHERE id = ? AND "
                       "status = 'left'", (club.code, row["id"]))
        again = self._row(row["uid"])
        assert again is not None
        return again

    def _copy(self, row: sqlite3.Row) -> bytes:
        path = self.archive / row["copy"]
        try:
            data = path.read_bytes()
        except OSError:
            data = b""
        if sha256(data) != row["copy_sha"]:
            raise ReportgenError(f"{path} : la copie du message de {row['sender']} manque ou a changé ; remettez-la "
                                 "depuis votre sauvegarde, puis relancez « reportgen inbox »")
        return data


def _arrived(row: sqlite3.Row) -> dt.date:
    """The day a recorded message arrived (`inbox_message.arrived_on`)."""
    return dt.date.fromisoformat(row["arrived_on"])


def _replied(received: Received) -> tuple[str, list[str]]:
    """SQL on `inbox_message m`, and its parameters: the messages `received` replies to, or whose
    answer it replies to (its Message-ID as the send log has it). Both identifiers: a mail program's
    reply names the answer and, in References, the club's message, also when the secretary sent a
    drafted answer by hand. ('', []) when it replies to nothing."""
    ids = sorted(received.thread)
    if not ids:
        return "", []
    marks = ", ".join("?" * len(ids))
    return (f"(m.message_id IN ({marks}) OR EXISTS (SELECT 1 FROM sending s WHERE s.bulletin = 'inbox:' || "
            f"m.mailbox || '/' || m.uidvalidity || '/' || m.uid AND s.message_id IN ({marks})))", ids + ids)


def _without_workbook(others: tuple[str, ...]) -> str:
    """Why a club's message was left, and what to do: a file that is no workbook (a .csv, a .pdf)
    is named, the club asked for its workbook (its sender is told nothing: the message is hers)."""
    if not others:
        return "aucun classeur joint : lisez-le dans votre messagerie ; il est listé à chaque relève tant qu’il reste " \
            "dans la boîte"
    named = french.joined([f"« {name} »" for name in others])
    return (f"aucun classeur joint ({named} : reportgen ne lit que les classeurs .xlsx, .xlsm, .xlsb, .xls et .ods) : "
            "lisez-le dans votre messagerie et, si ce sont des résultats, demandez au club son classeur enregistré en "
            ".xlsx ; il est listé à chaque relève tant qu’il reste dans la boîte")


def describe(one: Handled, inputs: Path, outputs: Path, archive: Path) -> str:
    """One line per message, in French; its own words elide with ’, as the clubs' names it quotes
    do (« du club d’Albi »), so that one line never mixes two apostrophes. Each file it names is
    named from where the command runs (`inputs`, `outputs`, `archive` as given), as the summary
    and the list of workbooks kept aside name theirs: the secretary opens it as it is printed."""
    who = f"{one.club} ({one.sender})" if one.club else one.sender
    # « (sans objet) », as a mail program lists it: « «  » » quoted nothing
    subject = f"« {one.subject} »" if one.subject else "(sans objet)"
    if one.status == MessageStatus.LEFT:
        # what she does with it, each time it is listed (README: « add the address to clubs.xlsx »)
        why = "expéditeur inconnu (son adresse n’est dans aucune cellule de la colonne « Email » de clubs.xlsx) : si " \
            "c’est celle d’un club, ajoutez-la dans la cellule du club, la prochaine relève le traitera" \
            if one.why == "unknown-sender" else _without_workbook(one.others)
        return f"{who}, {subject} : laissé dans la boîte pour vous — {why}"
    parts = []
    for filed in one.files:
        # same, refused or held again: the day of the earlier message these bytes repeat (`Filed.known_since`)
        since = filed.since
        # its warnings, said to its club: what it may still complete (`make check` lists them too)
        warned = french.plural(len(filed.warnings), "avertissement") if filed.warnings else ""
        if filed.status == "accepted":
            titles = waited(filed)
            parts.append(f"{filed.filename} enregistré dans {inputs / filed.path}"
                         + (f" (remplace {', '.join(str(inputs / r.path) for r in filed.replaced)}, gardé dans l’archive)"
                            if filed.replaced else "")
                         + (f" (en attente {french.joined([f'du {title}' for title in titles])}, dont il dépend : "
                            f"vérifié en entier et publié une fois {'leurs' if len(titles) > 1 else 'ses'} classeurs "
                            "corrigés)" if titles else "")
                         + (f" ({warned})" if warned else "")
                         + "".join(f" ({corrected.said})" for corrected in filed.corrects)
                         # what filing it changes besides its own earlier version, as `check` says it
                         + "".join(f" ; {note.message}" for note in filed.notes))
        elif filed.status == "same":
            said = f", reçu le {since}" if since else ""
            parts.append(f"{filed.filename} déjà reçu à l’identique ({inputs / filed.path}{said}) : rien de changé"
                         + (f" ({warned})" if warned else "")
                         + "".join(f" ({corrected.said})" for corrected in filed.corrects))
        elif filed.status == "held":  # held again: nothing new for her to decide
            said = f"déjà mis de côté pour vous, le même classeur que celui reçu le {since}" if since else \
                "MIS DE CÔTÉ pour vous"
            reasons = ([f"tournoi {owned_by(filed)}"] if filed.owners else []) + hers_said(filed, inputs)
            parts.append(f"{filed.filename} {said} : {' ; '.join(reasons)}{' ;' if filed.hers else ','} gardé dans "
                         f"{archive / filed.path}" + (f" ({warned})" if warned else "") + _if_filed(filed))
        else:
            said = f", le même classeur que celui refusé le {since}" if since else ""
            parts.append(f"{filed.filename} refusé{said} ({french.plural(len(filed.blocking), 'problème')}"
                         f"{f', {warned}' if warned else ''}, gardé dans {archive / filed.path})")
    answer = {"sent": "réponse envoyée", "already": "réponse déjà envoyée", "": f"réponse : {outputs / one.answer}",
              "unknown": "réponse INCERTAINE (non renvoyée)", "failed": f"réponse NON envoyée — {one.said}",
              POSTPONED: "réponse non tentée : le temps de l’envoi est écoulé (réglage run_timeout de [mail]), "
                         "elle partira à la prochaine relève avec --send",
              "superseded": "réponse non envoyée : un message plus récent du club pour le même tournoi l’a "
                            f"remplacée (brouillon gardé : {outputs / one.answer})"}[one.sent]
    if one.later:
        return f"{who}, {subject} (réponse préparée lors d’une relève précédente) : {answer}"
    return f"{who}, {subject} : {' ; '.join(parts)} ; {answer}"



def hers_said(held: Filed, inputs: Path) -> list[str]:
    """Each version of the secretary's a held workbook would replace (`Filed.hers`), as her run's line
    and her list of held workbooks say it: her edit, or her own file, stays in inputs/."""
    said = []
    for version in held.hers:
        path = inputs / version.path
        said.append((f"votre modification de {path} (faite après son dépôt) reste en place (la version du club ne la "
                     "remplace pas sans vous)" if version.hers == EDITED else
                     f"{path}, que vous avez mis vous-même dans inputs/, reste en place (la version du club ne le "
                     "remplace pas sans vous)") + cells_lost(version))
    return said


def cells_lost(version: Replaced) -> str:
    """The cells of hers the club's version loses or changes (`Replaced.lost`), the first few named:
    « ; la version du club ne reprend pas 2 cases de la vôtre : Parties!E3 (vous : « 1-0 », le club :
    vide), Parties!E4 (…) »; nothing when none could be compared (a workbook unreadable). Its own
    separator, « , », and parentheses: the line's « ; » and « : » still part its clauses (the
    terminal's plain spaces, as every line of hers)."""
    if not version.losses:
        return ""
    named = [f"{cell.cell} (vous : {_quoted(cell.hers)}, le club : {_quoted(cell.club)})" for cell in version.lost]
    more = version.losses - len(version.lost)
    listed = ", ".join(named) + (f" et {french.plural(more, 'autre case', 'autres cases')}" if more > 0 else "")
    return f" ; la version du club ne reprend pas {french.plural(version.losses, 'case', 'cases')} de la vôtre : {listed}"


def _quoted(value: str) -> str:
    """A cell's value between French quotes (inbox_cells.py cut a long one, « … »); an empty one « vide »."""
    return f"« {value} »" if value else "vide"


def _if_filed(held: Filed) -> str:
    """A held workbook's notes, as a filed one's are said after « ; » (`describe`): what filing it
    would change besides its own earlier version, which her decision weighs (« ; s’il est enregistré,
    il remplace le tournoi … »)."""
    return f" ; {IF_FILED}{' ; '.join(note.message for note in held.notes)}" if held.notes else ""


def _marks(filed: Filed) -> set[tuple[str, ...]]:
    """What makes two workbooks of one club versions of the same tournament: the same file name, or
    the same circuit, name and date (when its sheet could be read)."""
    return {("file", filed.filename.casefold())} | (
        {("event", filed.circuit, filed.event.casefold(), filed.date)} if filed.date else set())


def refused_rows(archive: Path) -> list[sqlite3.Row]:
    """The workbooks `inbox` refused that still wait for a corrected version (their `inbox_file` rows,
    with their message's `club_code`, `sender`, `arrived_on`, `answer` (its draft, in outputs/) and
    `answer_status`); none without a database. A later
    accepted workbook of the same club corrects one when it is the same tournament (`_marks`: the
    same file name, or the same tournament when the refused one's sheet said which): the club's
    other tournaments filed meanwhile do not, or a tournament whose workbook never came right would
    leave the list unseen; or when it corrects it (`Filed.corrects`: sent in reply to the refusal,
    under another file name or with its date or name corrected, inbox_filing.py `corrects`), the
    refused one then kept in the archive and in inbox_file as what came. The same bytes refused again share one copy (inbox_filing.py `decide`):
    listed once, from the first message still waiting. The secretary sets one aside by deleting it,
    as she does a held one."""
    # A workbook sent again as the version in inputs/ (`same`) answers a refused one as a filed one does:
    # the club says that version counts (it did while such a copy was filed again as `accepted`).
    # `answer_status`: whether the answer to its message went out, as the send log knows it (`sent`, else
    # `unknown`; none while it is a draft): inbox_answers.py `send_answer` logs it under the message's digest.
    rows = decided(archive, "SELECT m.id AS message_id, m.club_code, m.sender, m.arrived_on, m.answer, "
                             f"{answer_status('m.copy_sha')} AS answer_status, f.* FROM inbox_file f "
                             "JOIN inbox_message m ON m.id = f.message WHERE f.status IN ('refused', 'accepted', "
                             "'same') ORDER BY m.id, f.position")
    accepted: dict[str, list[tuple[int, set[tuple[str, ...]]]]] = {}  # club -> (message, marks) of each filed
    corrected: dict[str, int] = {}  # a refused copy -> the latest message whose workbook corrects it (`corrects`)
    for row in rows:
        if row["status"] != "refused":
            filed = Filed.from_row(row)
            accepted.setdefault(row["club_code"], []).append((row["message_id"], _marks(filed)))
            for one in filed.corrects:
                corrected[one.path] = max(corrected.get(one.path, 0), row["message_id"])
    waiting: list[sqlite3.Row] = []
    for row in rows:
        if row["status"] != "refused" or not (archive / row["path"]).is_file() \
                or corrected.get(row["path"], 0) > row["message_id"]:
            continue
        refused = _marks(Filed.from_row(row))
        if not any(later > row["message_id"] and marks & refused
                   for later, marks in accepted.get(row["club_code"], ())) \
                and all(row["path"] != listed["path"] for listed in waiting):
            waiting.append(row)
    return waiting


def refused_waiting(archive: Path) -> list[str]:
    """`refused_rows`, one French line each, as `check` and `inbox` list them, with what became of the
    answer listing the corrections (`answer_said`)."""
    return [f"{row['filename']} de {row['sender']} (message du {french.date_long(_arrived(row))}) "
            f": refusé, gardé dans {archive / row['path']} ; {answer_said(row['answer_status'], 'au club')} ; pour "
            "l’écarter, supprimez-le" for row in refused_rows(archive)]


def answer_said(status: str | None, to: str, draft: str = "") -> str:
    """The answer listing a refused workbook's corrections `to` its club (« au club d’Albi »), as the
    send log knows it (`refused_rows`'s `answer_status`): `check` said « la réponse au club liste les
    corrections » of a mere draft too. The one wording of `check`, `inbox` and `remind`'s reason
    for not reminding its tournament (delivery/remind.py `Refused.said`); `draft`, the draft's path."""
    answer = f"la réponse qui liste les corrections {to}"
    if status == SendStatus.SENT:
        return f"{answer} est partie"
    if status == SendStatus.UNKNOWN:
        return f"{answer} est peut-être partie (envoi incertain : « reportgen inbox » en dit plus)"
    return f"{answer} est en brouillon{f' ({draft})' if draft else ''} : envoyez-la (« reportgen inbox --send »)"


def _in_inputs(inputs: Path, kept: dict[str, Path]) -> set[str]:
    """Which of the held files (sha256 -> the file kept) have their bytes in a workbook of inputs/:
    the secretary filed them. Only files of a held one's size are read."""
    sizes = {path.stat().st_size for path in kept.values()}
    found = set()
    for path in inputs.rglob("*") if inputs.is_dir() else []:
        if path.suffix.lower() in WORKBOOK_SUFFIXES and path.is_file() and path.stat().st_size in sizes:
            found.add(sha256(path.read_bytes()))
    return found & set(kept)


def held_waiting(archive: Path, inputs: Path) -> list[str]:
    """The workbooks `inbox` held (another club's tournament) that wait for the secretary: still in
    the archive, their bytes in no workbook of inputs/ (once she puts one there, it is filed; once
    she deletes it, she has said no). One French line each, saying where it is and how to file it.
    The same bytes held again share one copy (inbox_filing.py `again`): listed once, from the message
    that first brought it, with whose tournament it is as the latest decision says (the secretary may
    have given it to another club since)."""
    rows = decided(archive, "SELECT m.sender, m.arrived_on, f.* FROM inbox_file f JOIN inbox_message m "
                             "ON m.id = f.message WHERE f.status = 'held' ORDER BY m.id, f.position")
    kept: dict[str, tuple[sqlite3.Row, Filed]] = {}  # each copy: its first row, its latest decision
    for row in rows:
        if (archive / row["path"]).is_file():
            kept[row["path"]] = (kept.get(row["path"], (row,))[0], Filed.from_row(row))
    held = list(kept.values())
    if not held:  # `check` and `inbox` ask at every run: inputs/ is walked only for a held workbook
        return []
    filed = _in_inputs(inputs, {one.sha256: archive / one.path for _, one in held})
    lines = []
    for row, one in held:
        if one.sha256 in filed:
            continue
        sent = french.date_long(_arrived(row))
        day = french.date_long(dt.date.fromisoformat(one.date))
        instead = french.joined([str(inputs / r.path) for r in one.replaced])
        # its warnings counted as `inbox` counts a filed one's: its club has them, `check` lists them once filed
        warned = (f" ({french.plural(len(one.warnings), 'avertissement')}, signalé{'s' if len(one.warnings) > 1 else ''} "
                  "au club)") if one.warnings else ""
        # Its words elide with ’ as the club's name french.py writes in it does (« du club d’Albi »):
        # one line, one apostrophe (the terminal's other lines keep the straight one).
        whose = [f"est un tournoi {owned_by(one)}"] if one.owners else []
        reasons = " ; ".join(whose + hers_said(one, inputs))
        # her edit is not in the club's version: filing it, she types it again if it still holds
        retype = " (votre modification n’y est pas : reportez-la s’il le faut)" \
            if any(version.hers == EDITED for version in one.hers) else ""
        lines.append(f"{row['filename']} de {row['sender']} (message du {sent}) : « {one.event} » du {day}"
                     f"{' ' if one.owners else ' : '}{reasons} ; gardé dans {archive / one.path}{warned}{_if_filed(one)} ; "
                     "pour l’enregistrer, mettez-le dans "
                     + (f"inputs/ à la place de {instead}{retype}" if instead else "inputs/")
                     + " ; pour l’écarter, supprimez-le")
    return lines
