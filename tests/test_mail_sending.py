"""`reportgen mail` as a new user found it (issue 25, « Also in delivery »), against the real SMTP
server of tests/test_delivery_mail.py (aiosmtpd on 127.0.0.1): a message sent is dated when it is
sent and has a Message-ID of its own at every attempt, while drafts stay byte-identical; drafts
need no server; an uncertain message the club says it received is noted so, without sending; the
run's session (`mail --send`'s and `remind --send`'s) stops at its time and always hangs up."""

from __future__ import annotations

import datetime as dt
import os
import time
from email import message_from_bytes, policy
from zoneinfo import ZoneInfo

import pytest

from reportgen import config
from reportgen.delivery import database
from reportgen.delivery.send import Session
from tests import test_delivery_mail as base

# The fixtures of the mail tests: the SMTP server, and the small league whose clubs have addresses.
smtp = base.smtp
league = base.league

CARCASSONNE, TOULOUSE, ALBI, EACH_ONCE = base.CARCASSONNE, base.TOULOUSE, base.ALBI, base.EACH_ONCE


def sent_rows(archive) -> list[tuple]:
    log = database.connect(archive, create=False)
    try:
        return [tuple(row) for row in log.execute("SELECT club_code, address, at, message_id, status, answer "
                                                  "FROM sending ORDER BY id")]
    finally:
        log.close()


def drafts_of(built) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted((built.outputs / "mail" / "2026").iterdir())}


def test_a_sent_message_is_dated_now_in_local_time_with_a_new_message_id_at_each_send(league, tmp_path, smtp):
    archive = tmp_path / "archive"
    base.set_mail(league.inputs, smtp.port)
    paris = {**os.environ, "TZ": "Europe/Paris"}
    first = base.mail_command(league, archive, "--send", env=paris, process=True)
    assert first.returncode == 0, first.stderr
    drafts = drafts_of(league)
    rows = sent_rows(archive)
    assert len(smtp.received) == 3 and len(rows) == 4
    for received in smtp.received:
        message = received.message
        (address, *_) = received.rcpt_tos
        ((at, identifier),) = {(row[2], row[3]) for row in rows if row[1] == address}
        # Dated the moment it was sent (the log's), in the machine's time zone; not the bulletin's 10 January.
        moment = dt.datetime.fromisoformat(at)
        assert message["Date"].datetime == moment
        offset = moment.astimezone(ZoneInfo("Europe/Paris")).strftime("%z")
        assert str(message["Date"]).endswith(f" {offset}")
        # Its Message-ID is its own (the sender's domain), the one the log keeps for that attempt.
        assert message["Message-ID"] == identifier and identifier.endswith("@example.org>")
    assert len({row[3] for row in rows}) == 3  # one per message: Carcassonne's two addresses share theirs
    for data in drafts.values():  # the drafts keep the bulletin's date and their digest id
        draft = message_from_bytes(data, policy=policy.default)
        assert draft["Date"].datetime == dt.datetime(2026, 1, 10, 9, tzinfo=dt.timezone.utc)
        assert draft["Message-ID"].endswith("@reportgen.invalid>")

    # --resend: the same messages again, each with a new Message-ID (Gmail drops a known one).
    again = base.mail_command(league, archive, "--send", "--resend")
    assert again.returncode == 0, again.stderr
    assert smtp.count() == {CARCASSONNE: 2, TOULOUSE: 2, ALBI: 2}
    identifiers = [r.message["Message-ID"] for r in smtp.received]
    assert len(set(identifiers)) == 6
    assert {row[3] for row in sent_rows(archive)[4:]} == set(identifiers[3:])
    # Drafts stay the same bytes at every run.
    assert drafts_of(league) == drafts


def test_drafts_need_no_server_a_sender_alone_gives_their_from(league, tmp_path, smtp):
    archive = tmp_path / "archive"
    (league.inputs / config.SETTINGS_FILE).write_text(f'[mail]\nsender = "{base.SENDER}"\n', encoding="utf-8")
    checked = base.cli("check", "--inputs", str(league.inputs), "--outputs", str(league.outputs),
                       "--archive", str(archive))
    assert checked.returncode == 0, checked.stderr  # no problem in reportgen.toml
    drafted = base.mail_command(league, archive)
    assert drafted.returncode == 0, drafted.stderr
    assert message_from_bytes(drafts_of(league)["CARC.eml"], policy=policy.default)["From"] == base.SENDER
    # --send needs the server, says so in French with the fix, and sends nothing.
    result = base.mail_command(league, archive, "--send")
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert result.stderr.startswith(
        "1 problème à corriger dans reportgen.toml :\n  - reportgen.toml, table [mail] : le réglage « host » manque dans "
        "la table [mail] : l’envoi (--send) en a besoin — ajoutez la ligne host = \"smtp.example.org\" sous [mail]\n"
        "rien n’est envoyé : --send a besoin du serveur et de l’expéditeur")
    assert smtp.received == []


def test_a_message_the_club_says_it_received_is_noted_sent_without_sending(league, tmp_path, smtp):
    archive = tmp_path / "archive"
    base.set_mail(league.inputs, smtp.port)
    smtp.drop_after_data = set(TOULOUSE)  # Toulouse's message reaches the server, its answer is lost
    first = base.mail_command(league, archive, "--send")
    assert first.returncode == 1 and "1 envoi incertain" in first.stderr
    assert "si oui, notez-le (reportgen mail --send --received --club TLSE)" in first.stderr
    assert smtp.count() == EACH_ONCE

    # The option is only for a club named with --send, and not with --resend.
    for options in (["--received"], ["--send", "--received"], ["--send", "--received", "--resend", "--club", "TLSE"]):
        assert base.mail_command(league, archive, *options).returncode == 2

    # Toulouse confirms: noted, nothing sent; no server needed for that (the [mail] table is gone).
    (league.inputs / config.SETTINGS_FILE).unlink()
    noted = base.mail_command(league, archive, "--send", "--received", "--club", "tlse")
    assert noted.returncode == 0, noted.stderr
    assert "  Toulouse (secretariat@tlse.example.org) : noté reçu — grand-sud-classement-2026-01-10.pdf" in noted.stdout
    assert "1 envoi incertain noté reçu (Toulouse), rien n’a été envoyé" in noted.stdout
    assert smtp.count() == EACH_ONCE
    (row,) = [r for r in sent_rows(archive) if r[0] == "TLSE"]
    assert row[4] == "sent" and row[5].startswith("reçu : le club l’a confirmé, noté le ")

    # Later runs no longer report it, send nothing, and exit 0.
    base.set_mail(league.inputs, smtp.port)
    smtp.drop_after_data = set()
    later = base.mail_command(league, archive, "--send")
    assert later.returncode == 0, later.stderr
    assert "aucun message envoyé, 3 clubs avaient déjà tout reçu" in later.stdout and "incertain" not in later.stderr
    assert smtp.count() == EACH_ONCE
    # A club with nothing uncertain: said, nothing changes.
    nothing = base.mail_command(league, archive, "--send", "--received", "--club", "CARC")
    assert nothing.returncode == 0 and "Carcassonne : aucun envoi incertain à noter" in nothing.stdout
    assert [r[4] for r in sent_rows(archive)] == ["sent"] * 4


def test_a_session_hands_out_work_until_its_time_is_spent_and_always_hangs_up(smtp):
    settings = config.Mail(host="127.0.0.1", port=smtp.port, security="none", sender=base.SENDER, timeout=5,
                           run_timeout=0.2)
    reached = []
    with Session(settings) as session:
        for number, item, timeout in session.paced("abc"):
            reached.append((number, item))
            assert timeout <= settings.run_timeout  # never more than the run has left
            connected = session.smtp.open(timeout)  # the real server greets us
            time.sleep(settings.run_timeout)  # the run's time is spent before the next item
        assert session.allowance() is None  # what `inbox --send` asks before each answer
    assert reached == [(1, "a")] and session.left("abc") == ["b", "c"]
    assert connected.sock is None and session.smtp.smtp is None  # hung up at the end of `with`
    # A run that fails midway hangs up too; one with time to spare leaves nothing.
    settings = config.Mail(host="127.0.0.1", port=smtp.port, security="none", sender=base.SENDER)
    with pytest.raises(RuntimeError), Session(settings) as session:
        for _, _, timeout in session.paced("ab"):
            connected = session.smtp.open(timeout)
        assert session.left("ab") == []
        raise RuntimeError("le journal est illisible")
    assert connected.sock is None and session.smtp.smtp is None
