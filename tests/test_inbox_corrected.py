"""A refused workbook corrected in reply (another file name, its date corrected: `inbox_file.corrects`)
whatever stops or repeats `reportgen inbox`: against the real Dovecot and aiosmtpd of
tests/test_inbox.py, run again and again, or killed (SIGKILL) at each step of handling the
correction, the end state is that of one uninterrupted run: the correction filed once, each answer
sent once, the refusal it corrects never sent after its « enregistré », the refused copy counted
corrected, the rows and the secretary's lists as they were."""

from __future__ import annotations

import datetime as dt
import json
import shutil
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from email.message import EmailMessage
from pathlib import Path

import pytest

from reportgen import config
from tests import dovecot, test_inbox
from tests.test_inbox import ALBI, League, message, reply, waiting_block, workbook
from tests.test_inbox_owners import tree

server, league = test_inbox.server, test_inbox.league  # the real Dovecot and a league reading it
smtp = test_inbox.smtp  # the real SMTP server of the mail tests (aiosmtpd)

CAME = dt.datetime(2026, 3, 22, 12, 0, tzinfo=dt.timezone.utc)  # the day the refused ones reached the server
REFUSED = "inbox/refused/2026-03-22-albi-1-casse.xlsx"  # under archive/: the copy the correction corrects
# the send log's word for an answer a run was killed sending (README: *incertaine*)
UNCONFIRMED = "l’envoi s’est arrêté pendant que le serveur avait le message, avant sa réponse"
FILED = "grand-sud/2026/2026-03-20-albi-tournoi-casse.xlsx"  # under inputs/: the correction


@dataclass(frozen=True)
class Mails:
    """Albi's messages, made once so that two leagues receive the same bytes: two refused (the
    first's « casse.xlsx », a place typed « deux »; the second's « resultats.xlsx », its date « le 21
    mars », in a thread of its own), then the first corrected, its date too (20/03), as
    « casse-v2.xlsx » in reply to its message (Albi told by phone: the refusal is still a draft)."""

    refused: tuple[EmailMessage, ...]
    correction: EmailMessage


@pytest.fixture
def mails(tmp_path) -> Mails:
    broken = workbook(tmp_path / "casse", "casse", day="21/03/2026", club="ALBI",
                      results=[["deux", "MARTIN", "Paul", "1002", "Albi"]])
    first = message(ALBI, "Tournoi du 21", [("casse.xlsx", broken)])
    undated = message(ALBI, "Résultats", [("resultats.xlsx", workbook(tmp_path / "u", "resultats", day="le 21 mars",
                                                                      club="ALBI"))], number=2)
    fixed = workbook(tmp_path / "f", "casse", day="20/03/2026", club="ALBI")
    correction = reply(None, first["Message-ID"], "Re: Tournoi du 21", [("casse-v2.xlsx", fixed)], 3)
    return Mails((first, undated), correction)


def refused_then_corrected(league: League, mails: Mails, port: int) -> None:
    """Both refused by an `inbox` that drafts their answers; then the correction in the mailbox and
    the SMTP server set, for the `inbox --send` that handles it."""
    for one in mails.refused:
        league.server.append(one, arrived=CAME)
    assert league.run().returncode == 0
    league.server.append(mails.correction, arrived=CAME + dt.timedelta(days=1))
    league.with_smtp(port)


def beside(league: League, root: Path, server: dovecot.Dovecot) -> League:
    """Another league reading `server`, its workbooks the same bytes as `league`'s."""
    other = League(root, server)
    shutil.rmtree(other.inputs)
    shutil.copytree(league.inputs, other.inputs)
    other.settings(server.port)
    return other


def table(league: League, query: str) -> list[tuple]:
    connection = sqlite3.connect(league.archive / "league.sqlite")
    try:
        return connection.execute(query).fetchall()
    finally:
        connection.close()


def end_state(league: League, smtp) -> dict[str, object]:
    """What a run leaves, in terms two leagues share: each folder's files, each table's rows but
    for what is of the moment (when recorded or sent, a sent message's Message-ID) or of the
    server (its port and UIDVALIDITY, in the names of the messages' copies and the send log's keys), the
    answers the SMTP server received, in order, the mailbox and the secretary's list (`check`).
    Every file, hidden ones too: a temporary file a killed run left."""
    [(uidvalidity,)] = table(league, "SELECT DISTINCT uidvalidity FROM inbox_message")

    def shared(value: object) -> object:
        if not isinstance(value, str):
            return value
        return value.replace(str(uidvalidity), "<uidvalidity>").replace(str(league.root), "<league>") \
            .replace(f"127.0.0.1:{league.server.port}/", "127.0.0.1:<port>/")  # the mailbox's name (send log)

    def rows(query: str) -> list[tuple]:
        return [tuple(shared(value) for value in row) for row in table(league, query)]

    return {
        "inputs": {name: digest for name, digest in tree(league.inputs).items()
                   if name != config.SETTINGS_FILE},  # its servers' ports
        "archive": {shared(f"inbox/{name}"): digest for name, digest in tree(league.archive / "inbox").items()},
        "drafts": tree(league.outputs / "mail" / "inbox"),
        "inbox_message": rows("SELECT uid, message_id, sender, subject, arrived_on, copy, copy_sha, club_code, status, "
                              "why, answer FROM inbox_message ORDER BY id"),
        "inbox_file": rows("SELECT m.uid, f.position, f.filename, f.sha256, f.status, f.circuit, f.event, f.date, "
                           "f.path, f.replaced, f.problems, f.owners, f.known_since, f.corrects FROM inbox_file f "
                           "JOIN inbox_message m ON m.id = f.message ORDER BY m.uid, f.position"),
        "sending": rows("SELECT season, club_code, club_name, address, circuit, bulletin, ranking_sha, pdf_sha, status, "
                        "answer FROM sending ORDER BY id"),
        "received": [(sent.rcpt_tos, sent.message["Subject"], sent.message["In-Reply-To"], sent.message["References"])
                     for sent in smtp.received],
        "mailbox": (league.server.uids(), league.server.uids("Traités")),
        "check": shared(league.check().stderr),
    }


def corrected_once(state: dict, mails: Mails) -> None:
    """What the end state says of this path: the correction filed, its row naming the refused copy it
    corrects, that copy kept and no longer listed, the other refusal still listed; the refusal of
    « casse.xlsx » never sent, Albi's « enregistré » and the other refusal sent once each."""
    assert list(state["inputs"]).count(FILED) == 1
    assert REFUSED in state["archive"]
    [corrects] = [row[-1] for row in state["inbox_file"] if row[2] == "casse-v2.xlsx"]
    assert json.loads(corrects) == [[REFUSED, "casse.xlsx", "2026-03-22"]]  # its copy, name, day refused
    assert [row[8:10] for row in state["inbox_message"]] == [("done", "superseded"), ("done", ""), ("done", "")]
    assert [sent[2] for sent in state["received"]] == [mails.correction["Message-ID"], mails.refused[1]["Message-ID"]]
    listed = waiting_block(state["check"])
    assert "resultats.xlsx de" in listed[1] and "casse.xlsx" not in "\n".join(listed), listed


def test_a_correction_in_reply_run_again_and_again_changes_nothing(league, mails, smtp):
    """The correction handled (filed, its « enregistré » sent, the refusal it corrects superseded),
    then `inbox --send` and `inbox` run again: nothing filed or kept twice, no answer sent twice,
    every row as it was, the refused copy still corrected, the secretary's lists unchanged."""
    refused_then_corrected(league, mails, smtp.port)
    done = league.run("--send")
    assert done.returncode == 0, done.stderr
    assert "(version corrigée de casse.xlsx, refusé le 22 mars 2026)" in done.stdout, done.stdout
    state = end_state(league, smtp)
    corrected_once(state, mails)
    listed = waiting_block(done.stderr)
    filed = (league.inputs / FILED).stat()
    everything = table(league, "SELECT * FROM inbox_message"), table(league, "SELECT * FROM inbox_file"), \
        table(league, "SELECT * FROM sending")
    for options in (("--send",), ()):
        again = league.run(*options)
        assert again.returncode == 0, again.stderr
        assert "aucun nouveau message" in again.stdout and "version corrigée" not in again.stdout, again.stdout
        assert waiting_block(again.stderr) == listed
        assert end_state(league, smtp) == state
        assert (table(league, "SELECT * FROM inbox_message"), table(league, "SELECT * FROM inbox_file"),
                table(league, "SELECT * FROM sending")) == everything  # moments and Message-IDs too
        assert ((now := (league.inputs / FILED).stat()).st_ino, now.st_mtime_ns) == (filed.st_ino, filed.st_mtime_ns)


def journal(archive: Path, commit: int) -> tuple[str, ...]:
    """strace's options that kill the run as it commits its `commit`-th transaction on the database:
    in SQLite's rollback journal, a commit is the journal's removal; killed as it asks for it, the
    transaction is not committed (the next opening rolls it back)."""
    return "-P", str(archive / "league.sqlite-journal"), "-e", f"inject=unlink:signal=SIGKILL:when={commit}"


def renaming(count: int) -> tuple[str, ...]:
    """strace's options that kill the run as it renames a file into place for the `count`-th time."""
    return "-e", f"inject=rename:signal=SIGKILL:when={count}"


# Where the `inbox --send` handling the correction is killed. Its steps: the message's copy renamed
# into place, its row committed (`received`), the check's scratch folder renamed into place, the
# decisions committed (`filing`, with `corrects`), the correction renamed into inputs/, `filed`
# committed, the answer's draft renamed into place, the send log's row committed before DATA, then
# confirmed (`sent`), `done` committed, the message moved, then the refusal's draft marked
# `superseded`.
@dataclass(frozen=True)
class Kill:
    """Where the run is killed (strace's options, given the archive folder), and what it leaves: the
    messages' states, whether the correction is in inputs/, how many answers the SMTP server has."""

    strace: Callable[[Path], tuple[str, ...]]
    states: list[str]
    filed: bool
    received: int


KILLS = {
    "copying": Kill(lambda archive: renaming(1), ["done", "done"], False, 0),
    "deciding": Kill(lambda archive: journal(archive, 2), ["done", "done", "received"], False, 0),
    "filing": Kill(lambda archive: renaming(3), ["done", "done", "filing"], False, 0),
    "marking-filed": Kill(lambda archive: journal(archive, 3), ["done", "done", "filing"], True, 0),
    "drafting": Kill(lambda archive: renaming(4), ["done", "done", "filed"], True, 0),
    "on-the-wire": Kill(lambda archive: journal(archive, 5), ["done", "done", "filed"], True, 1),
    "marking-done": Kill(lambda archive: journal(archive, 6), ["done", "done", "filed"], True, 1),
    "superseding": Kill(lambda archive: journal(archive, 7), ["done", "done", "done"], True, 1),
}


@pytest.mark.parametrize("point", list(KILLS))
def test_kill_9_while_handling_a_correction_in_reply_then_a_rerun_ends_as_an_uninterrupted_run(
        league, mails, smtp, tmp_path, point):
    """The same messages given to a league whose `inbox --send` runs uninterrupted, and to one whose
    real `reportgen inbox --send` is killed (SIGKILL) at a step of handling the correction, then run
    again, and again: both end alike (files, rows, `corrects`, drafts, mailbox, the secretary's
    list), each answer received once, the refusal it corrects never sent. Killed with the answer on
    the wire, the one difference is the one README says: that answer is *incertaine*, not sent again."""
    kill = KILLS[point]
    started = dovecot.start()
    try:
        uninterrupted = beside(league, tmp_path / "uninterrupted", started)
        refused_then_corrected(uninterrupted, mails, smtp.port)
        assert uninterrupted.run("--send").returncode == 0
        expected = end_state(uninterrupted, smtp)
    finally:
        dovecot.stop(started)
    corrected_once(expected, mails)
    smtp.received.clear()

    refused_then_corrected(league, mails, smtp.port)
    killed = league.process("--send", strace=kill.strace(league.archive))
    assert killed.returncode in (-9, 128 + 9), killed.stderr
    assert [row[1] for row in league.rows()] == kill.states
    assert (league.inputs / FILED).is_file() == kill.filed and len(smtp.received) == kill.received
    rerun = league.run("--send")
    if point == "on-the-wire":  # the server may have had it: said, never sent again on its own
        assert rerun.returncode == 1 and "réponses incertaines" in rerun.stderr, rerun.stderr
        expected["sending"] = [(*row[:8], "unknown", UNCONFIRMED) if row[5].endswith("/3") else row
                               for row in expected["sending"]]  # the correction's answer (uid 3)
    else:
        assert rerun.returncode == 0, rerun.stderr
    assert end_state(league, smtp) == expected
    assert league.run("--send").returncode == 0  # an uncertain answer is said by the run that met it
    assert end_state(league, smtp) == expected  # and again: nothing more


def test_kill_9_with_the_refusal_on_the_wire_then_a_reply_to_it_still_corrects_it(league, mails, smtp, tmp_path):
    """`inbox --send` killed once the server has the refusal of « casse.xlsx », before it confirms it:
    Albi has it and answers it, « casse-v2.xlsx » in reply to that answer alone (its Message-ID,
    which the send log wrote before DATA). The rerun finds the refusal uncertain, never sends it
    again, and takes the reply for its correction: filed, the refused copy no longer listed."""
    league.with_smtp(smtp.port)
    league.server.append(mails.refused[0], arrived=CAME)
    # the 6th removal of the journal is the answer's confirmation, after the send log's row written
    # before DATA (the assertions below check the kill landed there: the row `sending`, the server has it)
    killed = league.process("--send", strace=journal(league.archive, 6))
    assert killed.returncode in (-9, 128 + 9), killed.stderr
    assert [row[:2] for row in league.rows()] == [(1, "filed")] and table(league, "SELECT status FROM sending") == \
        [("sending",)]
    [refusal] = smtp.received
    fixed = workbook(tmp_path / "f", "casse", day="20/03/2026", club="ALBI")
    league.server.append(reply(None, refusal.message["Message-ID"], "Re: Tournoi du 21", [("casse-v2.xlsx", fixed)], 3),
                         arrived=CAME + dt.timedelta(days=1))
    rerun = league.run("--send")
    assert rerun.returncode == 1 and "réponses incertaines" in rerun.stderr, rerun.stderr
    assert "casse-v2.xlsx enregistré" in rerun.stdout, rerun.stdout
    assert "(version corrigée de casse.xlsx, refusé le 22 mars 2026)" in rerun.stdout, rerun.stdout
    assert [sent.message["In-Reply-To"] for sent in smtp.received] == [mails.refused[0]["Message-ID"],
                                                                       "<re-tournoi-du-21-3@club.example.org>"]
    assert "refusé" not in league.check().stderr and (league.inputs / FILED).read_bytes() == fixed
    assert league.run("--send").returncode == 0 and len(smtp.received) == 2  # and again: nothing more
