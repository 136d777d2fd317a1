"""`reportgen inbox` against a real IMAP server (Dovecot on 127.0.0.1, tests/dovecot.py) and, with
--send, the real SMTP server of the mail tests (aiosmtpd): messages put in with IMAP APPEND as a
mail client would, real workbooks attached; each message handled once, whatever stops a run."""

from __future__ import annotations

import dataclasses
import datetime as dt
import email
import email.policy
import os
import re
import sqlite3
import subprocess
import sys
import time
from email.message import EmailMessage
from pathlib import Path

import pytest

from reportgen import config
from reportgen.delivery import inbox as imap
from reportgen.delivery.inbox_filing import Earlier, Filed, safe_filename, slug
from reportgen.ingest.directories import Club, ClubDirectory
from reportgen.pipeline import load
from reportgen.render.files import one_writer
from reportgen.temporaries import TEMPORARY
from tests import dovecot, test_delivery_mail
from tests.browser import LAID_WORDS, broken_by_the_rule
from tests.builders import CLUBS, TODAY, small_league, write_clubs, write_tournament, write_workbook
from tests.ports import free_port
from tests.test_delivery_mail import SENDER, cli, silent_server

REPORTGEN = str(Path(sys.executable).parent / "reportgen")
ALBI = "contact@albi.example.org"  # tests/builders.py's clubs.xlsx gives each club contact@<code>.example.org
TLSE = "contact@tlse.example.org"
smtp = test_delivery_mail.smtp  # the real SMTP server of the mail tests (aiosmtpd)


@pytest.fixture
def server():
    started = dovecot.start()
    try:
        yield started
    finally:
        dovecot.stop(started)


class League:
    def __init__(self, root: Path, server: dovecot.Dovecot) -> None:
        self.root = root
        self.inputs = small_league(root / "inputs")
        self.outputs = root / "outputs"
        self.archive = root / "archive"
        self.server = server
        self.settings(server.port)

    def settings(self, port: int, mail: str = "") -> None:
        (self.inputs / config.SETTINGS_FILE).write_text(
            f'[inbox]\nhost = "127.0.0.1"\nport = {port}\nsecurity = "none"\nuser = "{dovecot.USER}"\n{mail}',
            encoding="utf-8")

    def with_smtp(self, port: int, extra: str = "") -> None:
        self.settings(self.server.port, f'\n[mail]\nhost = "127.0.0.1"\nport = {port}\nsecurity = "none"\n'
                                        f'sender = "{SENDER}"\n{extra}')

    def command(self, *options: str, strace: tuple[str, ...] = ()) -> list[str]:
        command = [REPORTGEN, "inbox", "--inputs", str(self.inputs), "--outputs", str(self.outputs),
                   "--archive", str(self.archive), *options]
        return ["strace", "-qq", "-o", "/dev/null", *strace, *command] if strace else command

    def run(self, *options: str, env: dict | None = None):
        """`reportgen inbox` in this process (a process of its own costs seconds)."""
        return cli(*self.command(*options)[1:], env={config.IMAP_PASSWORD_VARIABLE: dovecot.PASSWORD, **(env or {})})

    def process(self, *options: str, strace: tuple[str, ...] = ()) -> subprocess.CompletedProcess:
        """`reportgen inbox` in a process of its own (to be killed)."""
        environment = {**os.environ, config.IMAP_PASSWORD_VARIABLE: dovecot.PASSWORD}
        return subprocess.run(self.command(*options, strace=strace), capture_output=True, text=True, timeout=120,
                              env=environment)

    def check(self):
        return cli("check", "--inputs", str(self.inputs), "--outputs", str(self.outputs), "--archive",
                   str(self.archive))

    def rows(self) -> list[tuple]:
        connection = sqlite3.connect(self.archive / "league.sqlite")
        try:
            return connection.execute("SELECT uid, status, why FROM inbox_message ORDER BY uid").fetchall()
        finally:
            connection.close()

    def logged_ids(self) -> list[str]:
        """The Message-IDs the send log recorded for the answers."""
        connection = sqlite3.connect(self.archive / "league.sqlite")
        try:
            return [row[0] for row in connection.execute("SELECT message_id FROM sending ORDER BY id")]
        finally:
            connection.close()

    def drafts(self) -> list[email.message.EmailMessage]:
        folder = self.outputs / "mail" / "inbox"
        return [email.message_from_bytes(p.read_bytes(), policy=email.policy.default)
                for p in sorted(folder.glob("*.eml"))] if folder.is_dir() else []


@pytest.fixture
def league(tmp_path, server) -> League:
    return League(tmp_path / "league", server)


def workbook(tmp_path: Path, name: str, **options) -> bytes:
    return write_tournament(tmp_path / "made", name, **options).read_bytes()


def message(sender: str, subject: str, attachments: list[tuple[str, bytes]] = (), number: int = 1) -> EmailMessage:
    mail = EmailMessage()
    mail["From"] = f"Club <{sender}>"
    mail["To"] = dovecot.USER
    mail["Subject"] = subject
    mail["Date"] = "Sat, 14 Mar 2026 18:30:00 +0100"
    mail["Message-ID"] = f"<{slug(subject)}-{number}@club.example.org>"
    mail.set_content("Bonjour, voici nos résultats.\n")
    for filename, data in attachments:
        mail.add_attachment(data, maintype="application", subtype="octet-stream", filename=filename)
    return mail


def body(draft: email.message.EmailMessage) -> str:
    return draft.get_body(("plain",)).get_content()


SPRING = {"name": "printemps", "day": "14/03/2026", "club": "ALBI"}

# What Toulouse's spring tournament is told it replaces (Grand Sud §1): its January one, of its series
TOULOUSE_REPLACED = ("il remplace le tournoi « Tournoi 2026-01-10-toulouse » du 10 janvier 2026, deuxième tournoi de la "
                     "série TLSE en 2026 : seul le dernier de l’année compte (§1) ; 1 joueur du premier, absent du "
                     "second, en perd les points : <SCRIPT>ALERT(1)</SCRIPT> Mallory. S’il s’agit de deux tournois "
                     "distincts, donnez à l’un une « Série » à lui, dans sa feuille « Tournoi »")


def test_a_valid_workbook_is_filed_and_answered(league, tmp_path):
    league.server.append(message(ALBI, "Résultats du 14 mars", [("Tournoi Albi (printemps).xlsx",
                                                                 workbook(tmp_path, **SPRING))]))
    done = league.run()
    assert done.returncode == 0, done.stderr
    filed = league.inputs / "grand-sud" / "2026" / "2026-03-14-albi-tournoi-printemps.xlsx"
    assert filed.is_file()
    assert "1 message traité : 1 classeur enregistré, aucun classeur refusé" in done.stdout
    assert [row[:2] for row in league.rows()] == [(1, "done")]
    assert league.server.uids() == [] and len(league.server.uids("Traités")) == 1  # moved, folder created
    [draft] = league.drafts()
    assert draft["Subject"] == "Re: Résultats du 14 mars"
    assert draft["In-Reply-To"] == "<resultats-du-14-mars-1@club.example.org>"
    assert draft["References"] == "<resultats-du-14-mars-1@club.example.org>"
    assert draft["To"] == ALBI
    assert "le tournoi «\u00a0Tournoi printemps\u00a0» du 14\u00a0mars\u00a02026 est enregistré" in body(draft)
    # and what follows, said (the club was told nothing of it)
    assert "il sera pris en compte au prochain calcul des classements de la ligue." in body(draft)
    assert "votre tournoi" not in body(draft)  # its sender may not be its organiser: never said
    assert ".\n\nBien cordialement," in body(draft)
    assert not list(draft.iter_attachments())
    # the next `make` reads it with the others, without a problem
    assert not load(league.inputs, TODAY).all_problems()


def test_each_file_a_run_names_is_named_from_where_she_runs_it(league, tmp_path):
    """The run's line for a message named the workbook refused and the answer's draft from the
    archive and outputs folders (« gardé dans inbox/refused/… ; réponse : mail/inbox/… »), which the
    secretary could not open as printed, while the summary below said « outputs/mail/inbox »."""
    league.server.append(message(ALBI, "Résultats du 14 mars", [("a.xlsx", workbook(tmp_path, **SPRING))]))
    broken = workbook(tmp_path, "casse", day="21/03/2026", club="ALBI", results=[["deux", "MARTIN", "Paul", "1002", "Albi"]])
    league.server.append(message(ALBI, "Tournoi du 21", [("casse.xlsx", broken)], number=2))
    done = league.run()
    assert done.returncode == 0, done.stderr
    named = re.findall(r"(?:enregistré dans|gardé dans|réponse :) (\S+\.(?:xlsx|eml))", done.stdout)
    assert len(named) == 4, done.stdout
    assert all(Path(path).is_file() for path in named), done.stdout
    assert {Path(path).parent for path in named} == {league.inputs / "grand-sud" / "2026", league.archive / "inbox" /
                                                     "refused", league.outputs / "mail" / "inbox"}


def test_a_broken_workbook_is_refused_kept_aside_and_answered_with_the_cell_and_the_fix(league, tmp_path):
    broken = workbook(tmp_path, "casse", day="21/03/2026", club="ALBI", results=[
        [1, "DUPONT", "Jean", "1001", "Carcassonne"], ["deux", "MARTIN", "Paul", "1002", "Albi"]])
    league.server.append(message(ALBI, "Tournoi du 21", [("casse.xlsx", broken)]))
    done = league.run()
    assert done.returncode == 0, done.stderr
    assert "aucun classeur enregistré, 1 classeur refusé" in done.stdout
    assert not (league.inputs / "grand-sud").exists()  # nothing where `make` reads
    refused = list((league.archive / "inbox" / "refused").iterdir())
    assert [p.name for p in refused] == ["2026-03-14-albi-1-casse.xlsx"] and refused[0].read_bytes() == broken
    text = body(league.drafts()[0])
    assert "casse.xlsx\u00a0: ce classeur n’a pas pu être enregistré" in text
    assert "feuille «\u00a0Résultats\u00a0», cellule A3" in text and "«\u00a0deux\u00a0»" in text
    assert "Corrigez le classeur et renvoyez-le en réponse à ce message\u00a0: il sera vérifié de nouveau.\n\n" \
           "Bien cordialement," in text  # the closing apart, as in every answer
    assert not list(league.drafts()[0].iter_attachments())  # the layout is right: no template
    # `check` lists it, outside inputs/, until the club sends a workbook that is accepted
    checked = league.check()
    assert checked.returncode == 0, checked.stderr
    assert "1 classeur reçu par courriel refusé" in checked.stderr
    assert "casse.xlsx de contact@albi.example.org (message du 14 mars 2026) : refusé" in checked.stderr
    league.server.append(message(ALBI, "Corrigé", [("casse.xlsx", workbook(tmp_path / "ok", "casse", day="21/03/2026",
                                                                          club="ALBI"))], number=2))
    assert league.run().returncode == 0
    checked = league.check()
    assert checked.returncode == 0 and "refusé" not in checked.stderr, checked.stderr


def test_a_message_is_dated_the_day_the_server_received_it_never_by_its_date_header_nor_the_run(
        league, tmp_path, monkeypatch):
    """Albi's mail reached the league's server on Friday 13 March, its Date header saying Monday 16
    (the club's computer's clock); Toulouse's carried no Date header. Read later, the answers, the
    files' names, the database and the list of workbooks refused said the 16th for Albi and, for
    Toulouse, the day `inbox` ran. Each now says the day the server received it (IMAP INTERNALDATE),
    in the machine's time zone, as its other days are: Toulouse's, received at 23:30 UTC on 14 March,
    came on the 15th in Paris."""
    monkeypatch.setenv("TZ", "Europe/Paris")
    time.tzset()
    try:
        broken = workbook(tmp_path, "casse", day="07/03/2026", club="ALBI",
                          results=[["deux", "MARTIN", "Paul", "1002", "Albi"]])
        albi = message(ALBI, "Tournoi du 7", [("casse.xlsx", broken)])
        albi.replace_header("Date", "Mon, 16 Mar 2026 09:00:00 +0100")
        league.server.append(albi, arrived=dt.datetime(2026, 3, 13, 18, 0, tzinfo=dt.timezone(dt.timedelta(hours=1))))
        toulouse = message(TLSE, "Printemps", [("t.xlsx", workbook(tmp_path / "t", "printemps", day="14/03/2026",
                                                                    club="TLSE"))], number=2)
        del toulouse["Date"]
        league.server.append(toulouse, arrived=dt.datetime(2026, 3, 14, 23, 30, tzinfo=dt.timezone.utc))
        done = league.run()
        assert done.returncode == 0, done.stderr
        drafts = league.outputs / "mail" / "inbox"
        assert sorted(p.name for p in drafts.iterdir()) == ["2026-03-13-albi-1.eml", "2026-03-15-tlse-2.eml"]
        assert [p.name for p in (league.archive / "inbox" / "refused").iterdir()] == ["2026-03-13-albi-1-casse.xlsx"]
        said = {draft["To"]: (draft["Date"], body(draft)) for draft in league.drafts()}
        assert said[ALBI][0].startswith("Fri, 13 Mar 2026")
        assert "Nous avons bien reçu votre message du 13\u00a0mars\u00a02026 («\u00a0Tournoi du 7\u00a0»)" in said[ALBI][1]
        assert "Nous avons bien reçu votre message du 15\u00a0mars\u00a02026 («\u00a0Printemps\u00a0»)" in said[TLSE][1]
        connection = sqlite3.connect(league.archive / "league.sqlite")
        try:
            assert connection.execute("SELECT uid, arrived_on FROM inbox_message ORDER BY uid").fetchall() == [
                (1, "2026-03-13"), (2, "2026-03-15")]
        finally:
            connection.close()
        for listed in (done.stderr, league.check().stderr):
            assert f"casse.xlsx de {ALBI} (message du 13 mars 2026) : refusé, gardé dans " in listed, listed
    finally:
        monkeypatch.undo()
        time.tzset()


def test_a_refused_workbook_still_waits_when_its_club_files_another_tournament(league, tmp_path):
    broken = workbook(tmp_path, "casse", day="21/03/2026", club="ALBI", results=[
        [1, "DUPONT", "Jean", "1001", "Carcassonne"], ["deux", "MARTIN", "Paul", "1002", "Albi"]])
    league.server.append(message(ALBI, "Tournoi du 21", [("casse.xlsx", broken)]))
    # Albi's spring tournament, accepted after: no correction of the tournament of the 21st.
    league.server.append(message(ALBI, "Printemps", [("p.xlsx", workbook(tmp_path / "p", **SPRING))], number=2))
    assert league.run().returncode == 0
    checked = league.check()
    assert checked.returncode == 0, checked.stderr
    assert "casse.xlsx de contact@albi.example.org (message du 14 mars 2026) : refusé" in checked.stderr
    # Its `Tournoi` sheet says which tournament it is, its results could not be read: its corrected
    # version under another file name answers it (the list kept saying it waited, and a drafted
    # refusal was sent after the correction).
    connection = sqlite3.connect(league.archive / "league.sqlite")
    try:
        assert connection.execute("SELECT event, date FROM inbox_file WHERE filename = 'casse.xlsx'").fetchall() == \
            [("Tournoi casse", "2026-03-21")]
    finally:
        connection.close()
    league.server.append(message(ALBI, "Corrigé", [("casse-v2.xlsx", workbook(tmp_path / "ok", "casse", day="21/03/2026",
                                                                             club="ALBI"))], number=3))
    assert league.run().returncode == 0
    checked = league.check()
    assert checked.returncode == 0 and "refusé" not in checked.stderr, checked.stderr


def test_a_refused_workbook_corrected_in_reply_under_another_name_or_date_waits_no_more(league, tmp_path):
    """Albi's « Tournoi casse » of 21/03, refused (« deux » for a place), was corrected, its date
    too (20/03), saved as « casse-v2.xlsx » and sent in reply to the refusal, as the answer asks:
    filed, while the refused one stayed « en attente d’une version corrigée » in every `inbox` and
    `check` for ever (only the same file name or tournament answered it), and no reminder went for
    its tournament. A workbook sent in reply to the refusal (its thread) corrects it when it is of its
    circuit, of a tournament played by the day the refused one came, and of its name on a day close
    by (or of its day): the refused copy kept in the archive, no longer listed, the new one's line
    saying which it corrects. So is one whose tournament could not be read (its date not a date)
    corrected by the one workbook of a reply. A reply carrying Albi's tournament of the next week,
    of the same name, corrects nothing."""
    came = dt.datetime(2026, 3, 22, 12, 0, tzinfo=dt.timezone.utc)  # the day the refused ones reached the server
    broken = workbook(tmp_path, "casse", day="21/03/2026", club="ALBI", results=[["deux", "MARTIN", "Paul", "1002", "Albi"]])
    first = message(ALBI, "Tournoi du 21", [("casse.xlsx", broken)])
    league.server.append(first, arrived=came)
    undated = message(ALBI, "Résultats", [("resultats.xlsx", workbook(tmp_path / "u", "resultats", day="le 21 mars",
                                                                      club="ALBI"))], number=2)
    league.server.append(undated, arrived=came)
    done = league.run()
    assert done.returncode == 0 and "2 classeurs refusés" in done.stdout, done.stdout
    refused = sorted(p.name for p in (league.archive / "inbox" / "refused").iterdir())
    assert refused == ["2026-03-22-albi-1-casse.xlsx", "2026-03-22-albi-2-resultats.xlsx"]

    def waiting() -> str:
        return league.check().stderr

    # the next week's tournament of its name, in reply to the refusal: another tournament
    week = workbook(tmp_path / "w", "casse", day="28/03/2026", club="ALBI")
    league.server.append(reply(first, "<by-hand-1@ligue.example.org>", "Re: Tournoi du 21",
                               [("casse-28.xlsx", week)], 3), arrived=came + dt.timedelta(days=7))
    done = league.run()
    assert done.returncode == 0 and "1 classeur enregistré" in done.stdout, done.stdout
    assert "version corrigée" not in done.stdout
    assert "2 classeurs reçus par courriel refusés" in waiting()
    # its date corrected, under another file name, in reply to the refusal
    fixed = workbook(tmp_path / "f", "casse", day="20/03/2026", club="ALBI")
    league.server.append(reply(first, "<by-hand-1@ligue.example.org>", "Re: Tournoi du 21",
                               [("casse-v2.xlsx", fixed)], 4), arrived=came + dt.timedelta(days=1))
    done = league.run()
    assert done.returncode == 0, done.stderr
    [line] = [line for line in done.stdout.splitlines() if "casse-v2.xlsx enregistré" in line]
    assert "(version corrigée de casse.xlsx, refusé le 22 mars 2026)" in line, line
    for listed in (done.stderr, waiting()):
        assert "1 classeur reçu par courriel refusé" in listed and "casse.xlsx de" not in listed, listed
        assert f"resultats.xlsx de {ALBI} (message du 22 mars 2026) : refusé" in listed
    # the one workbook of a reply to the refusal whose tournament could not be read
    dated = workbook(tmp_path / "d", "resultats", day="21/03/2026", club="ALBI")
    league.server.append(reply(undated, "<by-hand-2@ligue.example.org>", "Re: Résultats",
                               [("tournoi-albi.xlsx", dated)], 5), arrived=came + dt.timedelta(days=1))
    done = league.run()
    assert done.returncode == 0, done.stderr
    assert "(version corrigée de resultats.xlsx, refusé le 22 mars 2026)" in done.stdout, done.stdout
    assert "refusé" not in waiting()
    # kept in the archive and in the database, as the history of what came
    assert sorted(p.name for p in (league.archive / "inbox" / "refused").iterdir()) == refused
    assert [row[1] for row in inbox_files(league)] == ["refused", "refused", "accepted", "accepted", "accepted"]


def test_a_refused_workbook_whose_tournament_could_not_be_read_is_corrected_by_no_reply_of_two_workbooks(
        league, tmp_path, smtp):
    """Albi's « resultats.xlsx », its date « le 21 mars » (its tournament unknown), refused as a draft;
    Albi's reply to the refusal carried two tournaments: one of them was taken for its correction
    (the thread's one refused workbook whose tournament could not be read, whatever the reply
    carried), so that it left the waiting list, and `inbox --send` never sent its refusal
    (superseded). Such a workbook is corrected by a reply carrying one accepted workbook alone:
    of two, neither is known to be it. Still waiting, its refusal sent."""
    came = dt.datetime(2026, 3, 22, 9, 0, tzinfo=dt.timezone.utc)
    undated = message(ALBI, "Résultats", [("resultats.xlsx", workbook(tmp_path / "u", "resultats", day="le 21 mars",
                                                                      club="ALBI"))])
    league.server.append(undated, arrived=came)
    assert league.run().returncode == 0  # refused, answered as a draft
    two = [("tournoi-albi.xlsx", workbook(tmp_path / "d", "resultats", day="21/03/2026", club="ALBI")),
           ("autre.xlsx", workbook(tmp_path / "o", "autre", day="14/03/2026", club="ALBI"))]
    league.server.append(reply(undated, "<by-hand-1@ligue.example.org>", "Re: Résultats", two, 2),
                         arrived=came + dt.timedelta(days=1))
    league.with_smtp(smtp.port)
    done = league.run("--send")
    assert done.returncode == 0 and "2 classeurs enregistrés" in done.stdout, done.stdout
    assert "version corrigée" not in done.stdout
    for listed in (done.stderr, league.check().stderr):
        assert f"resultats.xlsx de {ALBI} (message du 22 mars 2026) : refusé" in listed, listed
    assert league.rows() == [(1, "done", ""), (2, "done", "")]  # the refusal sent, not superseded
    assert sorted(sent.message["In-Reply-To"] for sent in smtp.received) == [
        "<re-resultats-2@club.example.org>", "<resultats-1@club.example.org>"]


def test_a_workbook_refused_twice_in_one_thread_is_named_once_on_the_line_of_its_correction(league, tmp_path):
    """Albi's « casse.xlsx » refused on 22/03, sent again unchanged in reply on 23/03 (refused again,
    one copy kept), then corrected as « casse-v2.xlsx » in reply to both: its line named the refused
    one twice, « (version corrigée de casse.xlsx, refusé le 22 mars 2026) (version corrigée de
    casse.xlsx, refusé le 23 mars 2026) ». Named once, by its copy, from the day it was first refused."""
    came = dt.datetime(2026, 3, 22, 9, 0, tzinfo=dt.timezone.utc)
    broken = workbook(tmp_path, "casse", day="21/03/2026", club="ALBI", results=[["deux", "MARTIN", "Paul", "1002", "Albi"]])
    first = message(ALBI, "Tournoi du 21", [("casse.xlsx", broken)])
    league.server.append(first, arrived=came)
    again = reply(first, "<by-hand-1@ligue.example.org>", "Re: Tournoi du 21", [("casse.xlsx", broken)], 2)
    league.server.append(again, arrived=came + dt.timedelta(days=1))
    assert league.run().returncode == 0
    assert [p.name for p in (league.archive / "inbox" / "refused").iterdir()] == ["2026-03-22-albi-1-casse.xlsx"]
    fixed = reply(again, "<by-hand-2@ligue.example.org>", "Re: Tournoi du 21",
                  [("casse-v2.xlsx", workbook(tmp_path / "f", "casse", day="20/03/2026", club="ALBI"))], 3)
    fixed.replace_header("References", f"{first['Message-ID']} <by-hand-1@ligue.example.org> {again['Message-ID']} "
                                       "<by-hand-2@ligue.example.org>")  # as a mail program keeps the thread
    league.server.append(fixed, arrived=came + dt.timedelta(days=2))
    done = league.run()
    assert done.returncode == 0, done.stderr
    [line] = [line for line in done.stdout.splitlines() if "casse-v2.xlsx enregistré" in line]
    assert line.count("version corrigée") == 1 and "(version corrigée de casse.xlsx, refusé le 22 mars 2026)" in line, \
        line
    assert "refusé" not in league.check().stderr


def test_no_reminder_asks_for_a_workbook_refused_and_waiting_for_its_correction(league, tmp_path, smtp):
    """Albi was answered « corrigez le classeur et renvoyez-le », then reminded « nous n’avons pas
    encore reçu son classeur »: that tournament gets no reminder while its corrected version is
    awaited, the secretary told why; Albi's other late tournament gets its reminder. While the
    answer is only a draft, `remind` said « le club d’Albi a la liste des corrections »: it says the
    answer is a draft to send, and that Albi has the list once the send log has it sent."""
    write_workbook(league.inputs / "calendrier.xlsx", {"Calendrier": [
        ["Date", "Circuit", "Club", "Nom", "Lieu"], ["21/03/2026", "grand-sud", "ALBI", "Tournoi casse", "Albi"],
        ["28/03/2026", "grand-sud", "ALBI", "Tournoi autre", "Albi"]]})
    broken = workbook(tmp_path, "casse", day="21/03/2026", club="ALBI", results=[
        [1, "DUPONT", "Jean", "1001", "Carcassonne"], ["deux", "MARTIN", "Paul", "1002", "Albi"]])
    league.server.append(message(ALBI, "Tournoi du 21", [("casse.xlsx", broken)]))
    assert league.run().returncode == 0
    done = cli("remind", "--inputs", str(league.inputs), "--outputs", str(league.outputs), "--archive",
               str(league.archive))
    assert done.returncode == 0, done.stderr
    assert [p.name for p in (league.outputs / "rappels").iterdir()] == ["2026-03-28-ALBI-grand-sud.eml"]
    [draft] = (league.outputs / "mail" / "inbox").iterdir()
    assert ("pas de rappel pour « Tournoi casse » du 21 mars 2026 : son classeur, reçu par courriel le 14 mars 2026, "
            f"a été refusé ; la réponse qui liste les corrections au club d’Albi est en brouillon ({draft}) : "
            "envoyez-la (« reportgen inbox --send ») ; la version corrigée est attendue ensuite") \
        in " ".join(done.stderr.split()), done.stderr
    assert "a la liste des corrections" not in done.stderr
    # `check`'s list of the workbooks kept aside says it too: it said « la réponse au club liste les
    # corrections » of a draft
    assert "la réponse qui liste les corrections au club est en brouillon : envoyez-la (« reportgen inbox " \
        "--send ») ; pour l’écarter" in " ".join(league.check().stderr.split())
    league.with_smtp(smtp.port)
    assert league.run("--send").returncode == 0 and len(smtp.received) == 1  # the drafted answer goes
    assert "la réponse qui liste les corrections au club est partie ; pour l’écarter" \
        in " ".join(league.check().stderr.split())
    done = cli("remind", "--inputs", str(league.inputs), "--outputs", str(league.outputs), "--archive",
               str(league.archive))
    assert done.returncode == 0, done.stderr
    assert ("pas de rappel pour « Tournoi casse » du 21 mars 2026 : son classeur, reçu par courriel le 14 mars 2026, "
            "a été refusé ; la réponse qui liste les corrections au club d’Albi est partie ; la version corrigée "
            "est attendue") \
        in " ".join(done.stderr.split()), done.stderr


def test_no_reminder_asks_for_a_workbook_refused_whose_date_could_not_be_read(league, tmp_path, smtp):
    """Albi's workbook, its date typed « 21/03/26 », was refused and Albi answered « corrigez le classeur »;
    `remind --send` then told Albi « nous n’avons pas encore reçu votre classeur »: the refused workbook
    said no date, so it waited for no tournament. A workbook of the club refused without a readable date
    may be any of its due tournaments of its circuit played before it came: none is reminded, the
    secretary told which file it may be; Albi's tournament played after it came, and another club's,
    are reminded as before."""
    write_workbook(league.inputs / "calendrier.xlsx", {"Calendrier": [
        ["Date", "Circuit", "Club", "Nom", "Lieu"], ["07/03/2026", "grand-sud", "ALBI", "Tournoi casse", "Albi"],
        ["21/03/2026", "grand-sud", "TLSE", "Tournoi de Toulouse", "Toulouse"],
        ["28/03/2026", "grand-sud", "ALBI", "Tournoi suivant", "Albi"]]})
    broken = workbook(tmp_path, "casse", day="07/03/26", club="ALBI")
    league.server.append(message(ALBI, "Re: Rappel", [("Résultats.xlsx", broken)]))
    league.with_smtp(smtp.port)
    assert league.run("--send").returncode == 0
    [answer] = [received.message for received in smtp.received]
    assert "«\u00a007/03/26\u00a0» n’est pas une date" in body(answer)  # refused, the cell and the fix said
    done = cli("remind", "--send", "--inputs", str(league.inputs), "--outputs", str(league.outputs), "--archive",
               str(league.archive))
    assert done.returncode == 0, done.stderr
    assert sorted(p.name for p in (league.outputs / "rappels").iterdir()) == [
        "2026-03-21-TLSE-grand-sud.eml", "2026-03-28-ALBI-grand-sud.eml"]  # not Albi's of 7 March
    assert sorted(received.rcpt_tos[0] for received in smtp.received[1:]) == [ALBI, TLSE]
    assert ("pas de rappel pour « Tournoi casse » du 7 mars 2026 : son classeur est peut-être « Résultats.xlsx », "
            "reçu par courriel le 14 mars 2026 et refusé sans que son tournoi ait pu être lu ; la réponse qui liste "
            "les corrections au club d’Albi est partie ; la version corrigée est attendue") \
        in " ".join(done.stderr.split()), done.stderr


def waiting_block(stderr: str) -> list[str]:
    """The lines that list the workbooks `inbox` kept aside, from a command's standard error."""
    lines = stderr.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("1 classeur reçu par courriel"))
    return lines[start:start + 4]


def test_inbox_and_check_list_the_workbooks_kept_aside_in_the_same_words(league, tmp_path):
    broken = workbook(tmp_path, "casse", day="21/03/2026", club="ALBI", results=[
        [1, "DUPONT", "Jean", "1001", "Carcassonne"], ["deux", "MARTIN", "Paul", "1002", "Albi"]])
    league.server.append(message(ALBI, "Printemps", [("p.xlsx", workbook(tmp_path / "p", **SPRING))], number=2))
    league.server.append(message(ALBI, "Tournoi du 21", [("casse.xlsx", broken)]))
    assert league.run().returncode == 0
    # Toulouse sends Albi's tournament: held for the secretary.
    theirs = workbook(tmp_path / "t", **SPRING, results=[[1, "DURAND", "Anne", "", "Toulouse"]])
    league.server.append(message(TLSE, "Tournoi d'Albi", [("t.xlsx", theirs)], number=3))
    done = league.run()
    checked = league.check()
    assert done.returncode == 0 and checked.returncode == 0, done.stderr + checked.stderr
    said = waiting_block(checked.stderr)
    assert said[0] == ("1 classeur reçu par courriel refusé (hors de inputs/, il ne bloque rien) en attente d’une "
                       "version corrigée :") and "casse.xlsx" in said[1]
    assert said[2].startswith("1 classeur reçu par courriel mis de côté pour vous") and "t.xlsx" in said[3]
    assert waiting_block(done.stderr) == said  # one list, the same words, after `inbox` as after `check`


def test_the_answer_asks_for_the_workbooks_in_the_plural_when_several_are_refused(league, tmp_path):
    rows = [[1, "DUPONT", "Jean", "1001", "Carcassonne"], ["deux", "MARTIN", "Paul", "1002", "Albi"]]
    broken = [(f"{name}.xlsx", workbook(tmp_path / name, name, day=day, club="ALBI", results=rows))
              for name, day in (("casse", "21/03/2026"), ("abime", "28/03/2026"))]
    league.server.append(message(ALBI, "Deux tournois", broken))
    assert league.run().returncode == 0
    [draft] = league.drafts()
    html = draft.get_body(("html",)).get_content()
    asked = "Corrigez les classeurs et renvoyez-les en réponse à ce message\u00a0: ils seront vérifiés de nouveau."
    assert asked in body(draft) and asked in html
    assert "Corrigez le classeur" not in body(draft) + html


def test_a_workbook_whose_layout_is_wrong_gets_the_blank_template(league, tmp_path):
    path = write_workbook(tmp_path / "sans-resultats.xlsx", {"Tournoi": [
        ["Circuit", "grand-sud"], ["Nom", "Tournoi sans feuille"], ["Date", "21/03/2026"], ["Club", "ALBI"],
        ["Formule", "duplicate"]]})
    league.server.append(message(ALBI, "Résultats", [("sans-resultats.xlsx", path.read_bytes())]))
    assert league.run().returncode == 0
    [draft] = league.drafts()
    assert "modele-grand-sud.xlsx" in body(draft)
    [attached] = draft.iter_attachments()
    assert attached.get_filename() == "modele-grand-sud.xlsx" and attached.get_content()[:2] == b"PK"


def test_each_workbook_s_name_in_an_answer_stays_on_one_line_unless_longer_than_the_line(league, tmp_path, browser):
    """At 390 px the inbox's answer broke a workbook's name at its hyphens (« 2026-03-14-albi- » at a line's
    end, « tournoi-de-printemps.xlsx » on the next), as the club's mail did its bulletins' names: each name
    is now a box of its own with the marks around it up to the next space (« … .xlsx : », « (modele-grand-
    sud.xlsx) ; »: templates/mail/files.j2, the club's mail's), on one line when it fits, after the line's
    break; only a name longer than the line breaks, within it; the answer never scrolls sideways. A real
    run: one message of Albi with a workbook filed, one refused for its layout (the blank template
    attached) and one filed under a name longer than a phone's line, at 390 and 1280 px in Chromium."""
    filed = "2026-03-14-albi-tournoi-de-printemps.xlsx"
    refused = "sans-resultats-tournoi-d-albi-du-21-mars.xlsx"
    too_long = "resultats_du_tournoi_d_ete_d_albi_saisis_par_le_club_version_definitive_corrigee.xlsx"
    layout = write_workbook(tmp_path / refused, {"Tournoi": [
        ["Circuit", "grand-sud"], ["Nom", "Tournoi sans feuille"], ["Date", "21/03/2026"], ["Club", "ALBI"],
        ["Formule", "duplicate"]]})
    league.server.append(message(ALBI, "Résultats", [
        (filed, workbook(tmp_path, **SPRING)), (refused, layout.read_bytes()),
        (too_long, workbook(tmp_path, name="ete", day="28/03/2026", club="ALBI"))]))
    assert league.run().returncode == 0
    [draft] = league.drafts()
    html = draft.get_body(("html",)).get_content()
    assert all(f"<strong>{name}</strong>" in html for name in (filed, refused, too_long))  # as bold as before
    page = tmp_path / "answer.html"
    page.write_text(html, encoding="utf-8")
    # each name (the template's with its brackets), its colon or semicolon after a no-break space (`glued`)
    named = [filed, refused, "(modele-grand-sud.xlsx)", too_long]
    for width in (390, 1280):
        found = browser.look(page, tmp_path, width, audit=False)
        assert found.scroll_width == width  # no sideways scrolling
        laid = browser.pages[width].evaluate(LAID_WORDS, named)
        assert sorted(shown["word"] for shown in laid) == sorted(named), laid
        # each name on one line, its mark after it; the one longer than a phone's line broken within it
        broken = broken_by_the_rule(("answer", width), laid, width, whole=width == 1280)
        assert broken == ({(390, too_long)} if width == 390 else set()), laid


def test_a_zip_bomb_in_an_email_is_a_located_refusal(league):
    import zipfile

    bomb = league.root / "bomb.xlsx"
    with zipfile.ZipFile(bomb, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("xl/workbook.xml", "<workbook/>")  # as tests/test_hostile_files.py's bomb
        archive.writestr("xl/worksheets/sheet1.xml", b"<a>" + b" " * 11_000_000 + b"</a>")
    league.server.append(message(ALBI, "Résultats", [("bombe.xlsx", bomb.read_bytes())]))
    done = league.run()
    assert done.returncode == 0, done.stderr
    assert "1 classeur refusé" in done.stdout
    text = body(league.drafts()[0])
    assert "bombe.xlsx\u00a0: ce classeur n’a pas pu être enregistré" in text
    assert "le classeur\u00a0: le fichier est anormalement volumineux une fois décompressé" in text


def test_a_message_without_a_subject_is_said_sans_objet(league, tmp_path):
    """Its line read « Albi (…), «  » : … »: an empty quotation. A workbook filed, a question left."""
    league.server.append(message(ALBI, "", [("a.xlsx", workbook(tmp_path, **SPRING))]))
    league.server.append(message(ALBI, "", number=2))
    done = league.run()
    assert done.returncode == 0, done.stderr
    lines = [line for line in (done.stdout + done.stderr).splitlines() if "contact@albi.example.org" in line]
    assert len(lines) == 2 and all("Albi (contact@albi.example.org), (sans objet) : " in line for line in lines), lines
    assert "«  »" not in done.stdout + done.stderr


def test_an_unknown_sender_and_a_message_without_workbook_are_left_for_the_secretary(league, tmp_path):
    league.server.append(message("inconnu@example.net", "Nos résultats", [("a.xlsx", workbook(tmp_path, **SPRING))]))
    question = message(ALBI, "Une question", number=2)
    # a signature's logo, inline: no attachment of the club's (it was said « aucun classeur joint (« image001.png » …) »)
    question.add_attachment(b"\x89PNG\r\n", maintype="image", subtype="png", filename="image001.png",
                            disposition="inline")
    league.server.append(question)
    league.server.append(message(ALBI, "Nos résultats en CSV", [("resultats.csv", b"Place;Nom\n1;DUPONT\n")], number=3))
    for _ in range(2):  # listed at every run, handled once
        done = league.run()
        assert done.returncode == 0, done.stderr
        assert "3 messages laissés dans la boîte pour vous" in done.stderr
        assert done.stdout.splitlines()[0] == "aucun message traité"  # three there: not « aucun nouveau message »
        # each with what to do (it said only « expéditeur inconnu (…) », « aucun classeur joint »)
        assert "  - inconnu@example.net, « Nos résultats » : laissé dans la boîte pour vous — expéditeur inconnu (son " \
            "adresse n’est dans aucune cellule de la colonne « Email » de clubs.xlsx) : si c’est celle d’un club, " \
            "ajoutez-la dans la cellule du club, la prochaine relève le traitera\n" in done.stderr
        assert "  - Albi (contact@albi.example.org), « Une question » : laissé dans la boîte pour vous — aucun classeur " \
            "joint : lisez-le dans votre messagerie ; il est listé à chaque relève tant qu’il reste dans la boîte\n" \
            in done.stderr
        # a results file that is no workbook: named, and what to ask its club (it said « aucun classeur joint »)
        assert "« Nos résultats en CSV » : laissé dans la boîte pour vous — aucun classeur joint (« resultats.csv » : " \
            "reportgen ne lit que les classeurs .xlsx, .xlsm, .xlsb, .xls et .ods) : lisez-le dans votre messagerie et, " \
            "si ce sont des résultats, demandez au club son classeur enregistré en .xlsx ; il est listé" in done.stderr
    assert league.rows() == [(1, "left", "unknown-sender"), (2, "left", "no-workbook"), (3, "left", "no-workbook")]
    assert league.server.uids() == [1, 2, 3]  # still there
    assert not (league.inputs / "grand-sud").exists() and league.drafts() == []
    # the secretary adds the address to clubs.xlsx: the next run handles that message
    write_workbook(league.inputs / "clubs.xlsx", {"Clubs": [["Code", "Nom", "Département", "Email"],
                                                            *[[c.code, c.name, c.departement, f"contact@{c.code.lower()}.example.org"
                                                               + ("; inconnu@example.net" if c.code == "ALBI" else "")]
                                                              for c in CLUBS.clubs]]})
    done = league.run()
    assert done.returncode == 0 and "1 classeur enregistré" in done.stdout, done.stderr
    assert league.rows() == [(1, "done", "drafted"), (2, "left", "no-workbook"), (3, "left", "no-workbook")]
    assert league.server.uids() == [2, 3]


def test_a_rerun_handles_nothing_twice(league, tmp_path):
    league.server.append(message(ALBI, "Résultats", [("a.xlsx", workbook(tmp_path, **SPRING))]))
    assert league.run().returncode == 0
    again = league.run()
    assert again.returncode == 0 and "aucun nouveau message" in again.stdout
    assert len(league.rows()) == 1 and len(league.drafts()) == 1


def test_two_versions_of_one_tournament_in_one_message_are_both_refused_and_kept(league, tmp_path):
    """Both were answered « enregistré », the second written over the first, which was kept nowhere:
    which counts is the club's to say. Both are kept aside and named in the answer, nothing filed;
    the same bytes twice are one workbook; two refused attachments of one name are kept in two files."""
    first = workbook(tmp_path / "1", **SPRING)
    second = workbook(tmp_path / "2", **SPRING, results=[[1, "MARTIN", "Paul", "1002", "Albi"]])
    league.server.append(message(ALBI, "Deux versions", [("version1.xlsx", first), ("version2.xlsx", second)]))
    league.server.append(message(ALBI, "Le même deux fois", [("a.xlsx", first), ("b.xlsx", first)], number=2))
    done = league.run()
    assert done.returncode == 0, done.stderr
    drafts = league.drafts()
    text = body(next(d for d in drafts if d["Subject"] == "Re: Deux versions"))
    assert "version1.xlsx\u00a0: ce classeur n’a pas pu être enregistré" in text
    assert "ce classeur et «\u00a0version2.xlsx\u00a0» sont deux versions du tournoi «\u00a0Tournoi printemps\u00a0» " \
           "du 14\u00a0mars\u00a02026\u00a0: lequel compte\u202f?" in text
    assert "ce classeur et «\u00a0version1.xlsx\u00a0» sont deux versions" in text
    kept = {p.name: p.read_bytes() for p in (league.archive / "inbox" / "refused").iterdir()}
    assert kept == {"2026-03-14-albi-1-version1.xlsx": first, "2026-03-14-albi-1-version2.xlsx": second}
    # the identical pair: one workbook, filed
    filed = league.inputs / "grand-sud" / "2026" / "2026-03-14-albi-tournoi-printemps.xlsx"
    assert filed.read_bytes() == first
    assert "est enregistré" in body(next(d for d in drafts if d["Subject"] == "Re: Le même deux fois"))


def test_a_file_s_name_quoted_in_a_problem_stays_on_one_line_on_a_phone(league, tmp_path, browser):
    """At 390 px the answer to two versions of one tournament broke the other version's name, quoted in
    the problem (« ce classeur et « 2026-03-14-albi-printemps-v2.xlsx » sont deux versions… »), at a
    hyphen, « …-albi- » at a line's end: a name quoted in a problem is a box of its own with its
    guillemets and marks, as the workbooks' names above it are (templates/mail/file_name.j2), still
    escaped; the plain text's words are those of before. A real run, in Chromium at 390 and 1280 px."""
    names = ["2026-03-14-albi-printemps-v1.xlsx", "2026-03-14-albi-printemps-v2&<b>.xlsx"]
    first = workbook(tmp_path / "1", **SPRING)
    second = workbook(tmp_path / "2", **SPRING, results=[[1, "MARTIN", "Paul", "1002", "Albi"]])
    league.server.append(message(ALBI, "Deux versions", list(zip(names, (first, second)))))
    assert league.run().returncode == 0
    [draft] = league.drafts()
    assert f"ce classeur et «\u00a0{names[1]}\u00a0» sont deux versions du tournoi" in body(draft)
    html = draft.get_body(("html",)).get_content()
    assert "2026-03-14-albi-printemps-v2&amp;&lt;b&gt;.xlsx\u00a0»</span> sont deux versions" in html
    page = tmp_path / "answer.html"
    page.write_text(html, encoding="utf-8")
    for width in (390, 1280):
        found = browser.look(page, tmp_path, width, audit=False)
        assert found.scroll_width == width  # no sideways scrolling
        laid = browser.pages[width].evaluate(LAID_WORDS, names)
        assert sorted(shown["word"] for shown in laid) == sorted(names * 2), laid  # in its paragraph, in the other's problem
        assert broken_by_the_rule(("answer", width), laid, width, whole=True) == set()


def test_two_versions_refused_together_sent_again_unchanged_are_said_to_be_the_same_and_kept_once(league, tmp_path):
    """Albi sends again the two versions of one tournament refused together on the 14th, byte for
    byte (one saved again as « version2 (1).xlsx »): each was kept a second time, listed twice for
    the secretary, and answered as a first refusal, where one refused workbook sent again is kept
    once and said to be the one already refused. Now the same: each is the workbook already refused
    on the 14th, the question still asked, the first copies the only ones, each listed once."""
    first = workbook(tmp_path / "1", **SPRING)
    second = workbook(tmp_path / "2", **SPRING, results=[[1, "MARTIN", "Paul", "1002", "Albi"]])
    league.server.append(message(ALBI, "Deux versions", [("version1.xlsx", first), ("version2.xlsx", second)]))
    assert league.run().returncode == 0
    again = message(ALBI, "Deux versions (renvoi)", [("version1.xlsx", first), ("version2 (1).xlsx", second)],
                    number=2)
    again.replace_header("Date", "Sat, 21 Mar 2026 09:00:00 +0100")
    league.server.append(again)
    done = league.run()
    assert done.returncode == 0, done.stderr
    kept = {"2026-03-14-albi-1-version1.xlsx": first, "2026-03-14-albi-1-version2.xlsx": second}
    assert {p.name: p.read_bytes() for p in (league.archive / "inbox" / "refused").iterdir()} == kept
    assert [row[1:3] + row[4:] for row in inbox_files(league)][2:] == [
        ("refused", f"inbox/refused/{name}", "2026-03-14") for name in kept]
    text = body(next(d for d in league.drafts() if d["Subject"] == "Re: Deux versions (renvoi)"))
    for name, other in (("version1.xlsx", "version2 (1).xlsx"), ("version2 (1).xlsx", "version1.xlsx")):
        assert f"{name}\u00a0: c’est le même classeur que celui déjà refusé le 14\u00a0mars\u00a02026\u202f; ses " \
               "problèmes sont toujours là" in text
        assert f"ce classeur et «\u00a0{other}\u00a0» sont deux versions du tournoi" in text
    assert "ce classeur n’a pas pu être enregistré" not in text
    assert "version2 (1).xlsx refusé, le même classeur que celui refusé le 14 mars 2026 (1 problème, gardé dans " \
           f"{league.archive / 'inbox' / 'refused' / '2026-03-14-albi-1-version2.xlsx'})" in done.stdout
    for said in (done.stderr, league.check().stderr):
        assert "2 classeurs reçus par courriel refusés" in said, said
        assert all(said.count(name) == 1 for name in kept), said


def test_a_refused_workbook_is_read_once_to_know_its_tournament(tmp_path, monkeypatch):
    """Its `Tournoi` sheet's name and date (`_named`) come from the reading the check made: the
    attachment was read a second time for them (a worker's read of a whole workbook, up to the
    pre-check's limits, for two cells)."""
    from reportgen.delivery.inbox_filing import examine
    from reportgen.ingest import reading_pool

    inputs = small_league(tmp_path / "inputs")
    broken = workbook(tmp_path, "casse", day="21/03/2026", club="ALBI", results=[
        [1, "DUPONT", "Jean", "1001", "Carcassonne"], ["deux", "MARTIN", "Paul", "1002", "Albi"]])
    read, real = [], reading_pool.read_all

    def counted(paths, *args, **kwargs):
        read.extend(path.name for path in paths if path.parent.name == "courriel")
        return real(paths, *args, **kwargs)

    monkeypatch.setattr(reading_pool, "read_all", counted)
    verdict = examine(inputs, "casse.xlsx", broken, TODAY)
    assert not verdict.accepted and verdict.problems
    assert verdict.named == ("Tournoi casse", dt.date(2026, 3, 21))
    assert len(read) == 1, read


def test_a_field_of_the_tournoi_sheet_is_named_a_field_not_a_column():
    # « feuille « Tournoi », cellule B2 (colonne « Nom ») »: on that sheet « Nom » heads a row
    from reportgen.delivery.inbox_filing import Said

    assert Said("Tournoi", "B2", "Nom", "vide", "", "x").where == "feuille « Tournoi », cellule B2 (champ « Nom »)"
    assert Said("Résultats", "A3", "Place", "x", "", "x").where == "feuille « Résultats », cellule A3 (colonne « Place »)"


def test_a_club_is_never_told_to_edit_the_league_s_club_directory(tmp_path):
    # « … ou ajoutez le club à clubs.xlsx »: the secretary's file, on her machine
    from reportgen.delivery.inbox_filing import Said
    from reportgen.ingest.directories import Club, ClubDirectory
    from reportgen.ingest.normalise import unknown_club
    from reportgen.model import SourceRef
    from reportgen.problems import UNKNOWN_CLUB

    clubs = ClubDirectory([Club("ALBI", "Albi", "81")])
    where = SourceRef("a.xlsx", "Résultats", "E3", "Club")
    said = [Said.of(unknown_club("Albii", where, clubs)), Said.of(unknown_club("XYZ", where, clubs)),
            Said.of(UNKNOWN_CLUB(where, club="XYZ", fix="écrivez le code ou le nom d’un club de l’annuaire (ALBI), ou "
                                                        "ajoutez le club à clubs.xlsx"))]
    assert [s.message for s in said] == ["le club « Albii » n’est pas dans la liste des clubs de la ligue",
                                         "le club « XYZ » n’est pas dans la liste des clubs de la ligue"] * 1 + [
        "le club « XYZ » n’est pas dans la liste des clubs de la ligue"]
    assert said[0].fix == ("vouliez-vous dire « Albi » ? Sinon, si votre club n’est pas dans la liste des clubs de la "
                           "ligue, dites-le-nous en répondant à ce message")
    assert said[2].fix == ("écrivez le code ou le nom d’un club de la liste des clubs de la ligue (ALBI) ; si votre "
                           "club n’y figure pas, dites-le-nous en répondant à ce message")
    assert not [s for s in said if "clubs.xlsx" in s.message + s.fix or "annuaire" in s.message + s.fix]
    # and as the readers word them today, a sheet's club and a player's (their words may change: the
    # club must still never be sent to the league's file)
    inputs = small_league(tmp_path / "inputs")
    write_tournament(inputs, "x", day="21/03/2026", club="XYZ", results=[[1, "DUPONT", "Jean", "1001", "Albii"]])
    read = [Said.of(p) for p in load(inputs, TODAY).all_problems() if p.code == UNKNOWN_CLUB.code]
    assert len(read) == 2 and not [s for s in read if "clubs.xlsx" in s.message + s.fix or "annuaire" in s.message + s.fix]


def test_a_workbook_sent_once_its_season_is_closed_is_refused_and_its_club_asked_to_tell_the_league(tmp_path):
    """A tournament dated after the day its season was closed would change the ranking published as
    final: refused as `make check` refuses it, and its club told what only it can correct (its date),
    never to edit the secretary's saisons.toml: to tell the league, which may open the season again."""
    from reportgen.delivery.inbox_filing import Said, examine
    from reportgen.ingest.seasons import SEASONS_FILE, seasons_toml

    inputs = small_league(tmp_path / "inputs")
    (inputs / SEASONS_FILE).write_bytes(seasons_toml({2026: dt.date(2026, 2, 7)}))
    verdict = examine(inputs, "tard.xlsx", workbook(tmp_path, "tard", day="14/03/2026", club="ALBI"), TODAY)
    assert not verdict.accepted
    assert [(s.sheet, s.cell, s.message, s.fix) for s in map(Said.of, verdict.problems)] == [(
        "Tournoi", "B3", "la saison 2026 est close depuis le 7 février 2026 : ce tournoi du 14 mars 2026 changerait "
        "son classement final", "si sa date est fausse, corrigez-la ; sinon, pour qu’il compte, dites-le-nous en "
        "répondant à ce message : la ligue peut rouvrir la saison")]


def test_one_problem_in_many_cells_is_said_once_with_its_cells_as_runs():
    # forty rows of « deux » for a place made forty lines of the same words in the club's answer
    from reportgen.delivery.inbox_answers import Received, compose
    from reportgen.delivery.inbox_filing import Said

    said = [Said("Résultats", f"A{row}", "Place", "« deux » n’est pas une place", "écrivez un nombre", "bad-value")
            for row in [*range(2, 42), 45]]
    said += [Said("Résultats", "B7", "Nom", "le champ est vide", "remplissez-le", "bad-value"),
             Said("Résultats", "A50", "Place", "« x » n’est pas une place", "écrivez un nombre", "bad-value")]
    filed = [Filed("r.xlsx", "0", "refused", "grand-sud", "", "", "inbox/refused/r.xlsx", problems=tuple(said))]
    text = compose(Received(ALBI, "R", "<a@b>", "", TODAY), CLUBS.find("ALBI"), filed, "Ligue", CLUBS, "p", "k").draft.text
    listed = [line for line in text.splitlines() if line.startswith("  - ")]
    assert listed == ["  - feuille «\u00a0Résultats\u00a0», cellules A2 à A41, A45 (colonne «\u00a0Place\u00a0»)\u00a0: "
                      "«\u00a0deux\u00a0» n’est pas une place\u202f; écrivez un nombre.",
                      "  - feuille «\u00a0Résultats\u00a0», cellule B7 (colonne «\u00a0Nom\u00a0»)\u00a0: le champ est vide\u202f; "
                      "remplissez-le.",
                      "  - feuille «\u00a0Résultats\u00a0», cellule A50 (colonne «\u00a0Place\u00a0»)\u00a0: «\u00a0x\u00a0» n’est "
                      "pas une place\u202f; écrivez un nombre."]


def test_two_refused_attachments_of_one_name_are_kept_in_two_files():
    from reportgen.delivery.inbox_filing import Verdict, one_version_each

    refused = [Filed("r.xlsx", digest, "refused", "grand-sud", "", "", "inbox/refused/m-r.xlsx") for digest in "ab"]
    kept = one_version_each([(Verdict(), filed) for filed in refused], "m")
    assert [filed.path for filed in kept] == ["inbox/refused/m-r.xlsx", "inbox/refused/m-r-2.xlsx"]
    # the same bytes, refused again, share the copy their first refusal kept: never renamed to another
    again = [Filed(name, "a", "refused", "grand-sud", "", "", "inbox/refused/first-r.xlsx", known_since="2026-03-14")
             for name in ("r.xlsx", "r (1).xlsx")]
    assert [filed.path for filed in one_version_each([(Verdict(), filed) for filed in again], "m")] == \
        ["inbox/refused/first-r.xlsx"] * 2


def test_two_versions_of_one_tournament_refused_together_keep_their_warnings_after_the_question():
    from reportgen.delivery.inbox_filing import Said, Verdict, one_version_each
    from reportgen.model import Event

    warning = Said("Résultats", "C2", "Prénom", "le prénom de ROUX est vide", "tapez son prénom", "empty-first-name",
                   "warning")
    event = Event("courriel/x.xlsx", "Tournoi", dt.date(2026, 3, 14), None)
    decided = [(Verdict(circuit="tour-de-france", event=event),
                Filed(name, digest, "accepted", "tour-de-france", "Tournoi", "2026-03-14", "p", problems=problems))
               for name, digest, problems in (("a.xlsx", "a", (warning,)), ("b.xlsx", "b", ()))]
    first, second = one_version_each(decided, "m")
    assert (first.status, second.status) == ("refused", "refused")
    assert [said.code for said in first.problems] == ["duplicate-tournament", "empty-first-name"]
    assert first.warnings == (warning,) and second.warnings == ()


def test_a_decision_keeps_its_warnings_in_its_problems_and_a_row_kept_before_reads_as_it_was():
    """No schema change: each problem of inbox_file's `problems` says its level; a row written before
    holds none, its problems blocking (a refused row's) as they were."""
    import dataclasses

    from reportgen.delivery.inbox_filing import Said

    columns = ("filename", "sha256", "status", "circuit", "event", "date", "path", "replaced", "problems", "owners",
               "known_since", "corrects")
    place = Said("Résultats", "A3", "Place", "« deux » n’est pas une place", "écrivez un nombre", "bad-value")
    warning = Said("Résultats", "C2", "Prénom", "le prénom de ROUX est vide", "tapez son prénom", "empty-first-name",
                   "warning")
    refused = Filed("r.xlsx", "a", "refused", "grand-sud", "", "", "inbox/refused/r.xlsx", problems=(place, warning))
    again = Filed.from_row(dict(zip(columns, refused.row())))
    assert again == refused and (again.blocking, again.warnings) == ((place,), (warning,))
    kept = dict(zip(columns, dataclasses.replace(refused, problems=(place,)).row()))
    before = dict(kept, problems=kept["problems"].replace('"level": "blocking", ', ""))
    assert "level" not in before["problems"]
    assert Filed.from_row(before) == Filed.from_row(kept) and Filed.from_row(before).warnings == ()


def test_a_new_version_replaces_the_old_file_and_keeps_it(league, tmp_path):
    old = league.inputs / "2026-01-10-toulouse.xlsx"  # put in inputs/ by hand, before the inbox
    before = old.read_bytes()
    corrected = workbook(tmp_path, "2026-01-10-toulouse", day="10/01/2026", club="TLSE", results=[
        [1, "DURAND", "Anne", "", "Toulouse"], [2, "MARTIN", "Paul", "1002", "Albi"]])
    league.server.append(message(TLSE, "Correction", [("toulouse.xlsx", corrected)]))
    done = league.run()
    assert done.returncode == 0, done.stderr
    assert not old.exists()
    new = league.inputs / "grand-sud" / "2026" / "2026-01-10-tlse-tournoi-2026-01-10-toulouse.xlsx"
    assert new.read_bytes() == corrected
    kept = league.archive / "inbox" / "replaced" / "2026-03-14-tlse-1" / "2026-01-10-toulouse.xlsx"
    assert kept.read_bytes() == before
    assert f"remplace {old}, gardé dans l’archive" in done.stdout
    assert "il remplace la version précédente de ce tournoi" in body(league.drafts()[0])
    assert not load(league.inputs, TODAY).all_problems()  # one version of the tournament
    # and a third version replaces the second, at the same place
    third = workbook(tmp_path / "3", "2026-01-10-toulouse", day="10/01/2026", club="TLSE", results=[[1, "DURAND", "Anne", "", "Toulouse"]])
    league.server.append(message(TLSE, "Correction 2", [("toulouse.xlsx", third)], number=2))
    assert league.run().returncode == 0
    assert new.read_bytes() == third
    assert (league.archive / "inbox" / "replaced" / "2026-03-14-tlse-2" / new.relative_to(league.inputs)).read_bytes() \
        == corrected


def waiting_for_a_lock(pid: int) -> bool:
    """Whether process `pid` waits for a lock held by another: its request in /proc/locks, marked
    « -> » (the kernel's list of locks held and asked for)."""
    return any(line.split()[1] == "->" and line.split()[5] == str(pid)
               for line in Path("/proc/locks").read_text().splitlines() if len(line.split()) > 5)


def filed_while_she_writes(league: League, held: Path, hers: bytes) -> str:
    """`reportgen inbox` run while the test, as a command of the secretary's, writes `hers` to the
    workbook `held`: holding it (render/files.one_writer), its temporary file beside it. The run
    must wait for her (its request for the lock in /proc/locks), her file untouched; then her write
    ends, and the run with it: its output."""
    before = held.read_bytes()
    environment = {**os.environ, config.IMAP_PASSWORD_VARIABLE: dovecot.PASSWORD}
    with one_writer(held):
        draft = held.parent / f".{held.name}.secretary{TEMPORARY}"  # her write, under way
        draft.write_bytes(hers)
        run = subprocess.Popen(league.command(), env=environment, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True)
        try:
            deadline = time.monotonic() + 120  # a run stuck elsewhere fails, never hangs the suite
            while not waiting_for_a_lock(run.pid):
                assert run.poll() is None, f"filed without waiting: {run.communicate()}"
                assert time.monotonic() < deadline, "neither waiting for the workbook nor done"
                time.sleep(0.05)
            assert draft.read_bytes() == hers and held.read_bytes() == before  # nothing of hers touched
            draft.rename(held)  # her write done
        except BaseException:
            run.kill()
            raise
    out, err = run.communicate(timeout=120)
    assert run.returncode == 0, err
    return out


def test_a_version_filed_while_a_command_of_the_secretary_writes_the_workbook_waits_and_keeps_hers(league, tmp_path):
    """`reportgen poules` or `masters` writing a workbook holds it across its read-modify-write, its
    temporary file beside it: `inbox` filing the club's new version of that workbook waits for her.
    Before (review), it removed her temporary file as a leftover of its own, mid-write, and wrote over
    her, or she over the club; then it filed the club's version over her write, kept in the archive,
    her line saying only « remplace … ». Her write is an edit made after the decision: the club's
    version is held for her, as one edited before it is (test_inbox_owners.py), hers stays."""
    first = workbook(tmp_path / "1", "2026-01-10-toulouse", day="10/01/2026", club="TLSE", results=[
        [1, "DURAND", "Anne", "", "Toulouse"], [2, "MARTIN", "Paul", "1002", "Albi"]])
    league.server.append(message(TLSE, "Correction", [("toulouse.xlsx", first)]))
    assert league.run().returncode == 0
    filed = league.inputs / "grand-sud" / "2026" / "2026-01-10-tlse-tournoi-2026-01-10-toulouse.xlsx"
    second = workbook(tmp_path / "2", "2026-01-10-toulouse", day="10/01/2026", club="TLSE",
                      results=[[1, "DURAND", "Anne", "", "Toulouse"]])
    league.server.append(message(TLSE, "Correction 2", [("toulouse.xlsx", second)], number=2))
    hers = workbook(tmp_path / "3", "2026-01-10-toulouse", day="10/01/2026", club="TLSE", results=[
        [1, "MARTIN", "Paul", "1002", "Albi"], [2, "DURAND", "Anne", "", "Toulouse"]])
    out = filed_while_she_writes(league, filed, hers)
    assert filed.read_bytes() == hers  # her write stays
    held = league.archive / "inbox" / "held" / "2026-03-14-tlse-2-toulouse.xlsx"
    assert held.read_bytes() == second and not (league.archive / "inbox" / "replaced" / "2026-03-14-tlse-2").exists()
    # compared again under the lock, as the decision compares (inbox_cells.py): her rows, not the club's
    assert (f"toulouse.xlsx MIS DE CÔTÉ pour vous : votre modification de {filed} (faite après son dépôt) reste en "
            "place (la version du club ne la remplace pas sans vous) ; la version du club ne reprend pas 7 cases de la "
            "vôtre : Résultats!B2 (vous : « MARTIN », le club : « DURAND »), Résultats!C2 (vous : « Paul », le club : "
            "« Anne »), Résultats!D2 (vous : « 1002 », le club : vide) et 4 autres cases ; gardé dans "
            f"{held} ;") in out
    assert "1 classeur mis de côté pour vous" in out and "enregistré dans" not in out
    assert [row[1:3] for row in inbox_files(league)] == [("accepted", filed.relative_to(league.inputs).as_posix()),
                                                        ("held", "inbox/held/2026-03-14-tlse-2-toulouse.xlsx")]
    assert "une version modifiée par le secrétariat de la ligue depuis son dépôt" in body(league.drafts()[-1])
    assert sorted(path.name for path in filed.parent.iterdir()) == [filed.name]  # no lock, no temporary left
    assert league.run().returncode == 0 and filed.read_bytes() == hers  # nothing done twice


def test_her_write_while_inbox_files_that_the_club_s_version_keeps_is_no_reason_to_hold_it(league, tmp_path):
    """Her command writes the workbook as the inbox comes to file the club's version, and what she
    writes is in the club's version already (the same values, saved by another program, another
    width: no cell of hers lost). Compared again under the lock (inbox_cells.py), it is filed as
    before: hers kept in the archive as the version it replaces. The two commits before held it (any
    other bytes were her edit)."""
    import openpyxl

    first = workbook(tmp_path / "1", "2026-01-10-toulouse", day="10/01/2026", club="TLSE", results=[
        [1, "DURAND", "Anne", "", "Toulouse"], [2, "MARTIN", "Paul", "", "Albi"]])
    league.server.append(message(TLSE, "Correction", [("toulouse.xlsx", first)]))
    assert league.run().returncode == 0
    filed = league.inputs / "grand-sud" / "2026" / "2026-01-10-tlse-tournoi-2026-01-10-toulouse.xlsx"
    # the club types Paul MARTIN's licence; so does she, meanwhile (a number, where its is a text)
    second = workbook(tmp_path / "2", "2026-01-10-toulouse", day="10/01/2026", club="TLSE",
                      results=[[1, "DURAND", "Anne", "", "Toulouse"], [2, "MARTIN", "Paul", "1002 ", "Albi"]])
    league.server.append(message(TLSE, "Correction 2", [("toulouse.xlsx", second)], number=2))
    # hers: the club's values (her 1002 a number, its « 1002 » a text), a width of her own
    book = openpyxl.load_workbook(write_tournament(tmp_path / "3", "2026-01-10-toulouse", day="10/01/2026", club="TLSE",
                                                   results=[[1, "DURAND", "Anne", "", "Toulouse"],
                                                            [2, "MARTIN", "Paul", 1002, "Albi"]]))
    book["Résultats"].column_dimensions["B"].width = 30
    book.save(tmp_path / "hers.xlsx")
    hers = (tmp_path / "hers.xlsx").read_bytes()
    out = filed_while_she_writes(league, filed, hers)
    assert "1 classeur enregistré" in out and "MIS DE CÔTÉ" not in out, out
    assert filed.read_bytes() == second
    kept = league.archive / "inbox" / "replaced" / "2026-03-14-tlse-2" / filed.relative_to(league.inputs)
    assert kept.read_bytes() == hers  # hers kept as the version it replaced
    assert [row[1] for row in inbox_files(league)] == ["accepted", "accepted"]


def test_an_earlier_version_of_another_name_is_held_too_before_it_is_kept_and_removed(league, tmp_path):
    """The earlier version the club's workbook replaces under another name (put in inputs/ by hand,
    here) is read, kept and removed by `inbox`: held too (review), so that her write to it ends
    first, never lost with the file removed; her write made after the decision, the club's version
    is then held for her, nothing of hers moved."""
    old = league.inputs / "2026-01-10-toulouse.xlsx"
    corrected = workbook(tmp_path / "1", "2026-01-10-toulouse", day="10/01/2026", club="TLSE", results=[
        [1, "DURAND", "Anne", "", "Toulouse"], [2, "MARTIN", "Paul", "1002", "Albi"]])
    league.server.append(message(TLSE, "Correction", [("toulouse.xlsx", corrected)]))
    hers = workbook(tmp_path / "2", "2026-01-10-toulouse", day="10/01/2026", club="TLSE",
                    results=[[1, "MARTIN", "Paul", "1002", "Albi"]])
    out = filed_while_she_writes(league, old, hers)
    assert old.read_bytes() == hers and not [p for p in (league.inputs / "grand-sud").rglob("*") if p.is_file()]
    held = league.archive / "inbox" / "held" / "2026-03-14-tlse-1-toulouse.xlsx"
    assert held.read_bytes() == corrected
    assert f"votre modification de {old} (faite après son dépôt) reste en place" in out
    assert not [path.name for path in league.inputs.iterdir() if path.name.startswith(".")]  # no lock, no temporary


def inbox_files(league: League) -> list[tuple]:
    """(uid, status, path, replaced, known_since) of each workbook the inbox decided for."""
    connection = sqlite3.connect(league.archive / "league.sqlite")
    try:
        return connection.execute("SELECT m.uid, f.status, f.path, f.replaced, f.known_since FROM inbox_file f "
                                  "JOIN inbox_message m ON m.id = f.message ORDER BY m.uid, f.position").fetchall()
    finally:
        connection.close()


def filed_then_sent_again(league, tmp_path, subject: str, filename: str) -> tuple[bytes, Path, os.stat_result]:
    """Albi's workbook filed from a first message, then the same bytes in a second one, not yet read:
    (its bytes, the file in inputs/, that file's stat)."""
    spring = workbook(tmp_path, **SPRING)
    league.server.append(message(ALBI, "Résultats", [("a.xlsx", spring)]))
    assert league.run().returncode == 0
    filed = league.inputs / "grand-sud" / "2026" / "2026-03-14-albi-tournoi-printemps.xlsx"
    before = filed.stat()
    league.server.append(message(ALBI, subject, [(filename, spring)], number=2))
    return spring, filed, before


def test_a_workbook_sent_again_unchanged_is_said_to_be_the_same_and_nothing_is_filed(league, tmp_path):
    """Albi sends its workbook again, byte for byte: it was told « il remplace la version
    précédente », and the message recorded as a new version. It is told it is the same workbook as
    the one received on the 14th, that nothing changes; inputs/ is not written (no rebuild), nothing
    is kept as a replaced version, and `make` is not asked for."""
    spring, filed, before = filed_then_sent_again(league, tmp_path, "Résultats (renvoi)", "a (1).xlsx")
    done = league.run()
    assert done.returncode == 0, done.stderr
    text = body(next(d for d in league.drafts() if d["Subject"] == "Re: Résultats (renvoi)"))
    assert "a (1).xlsx\u00a0: c’est le même classeur que celui déjà reçu le 14\u00a0mars\u00a02026 pour le tournoi " \
           "«\u00a0Tournoi printemps\u00a0» du 14\u00a0mars\u00a02026\u00a0: rien ne change, il reste enregistré " \
           "tel quel." in text
    assert "remplace" not in text and "est enregistré" not in text
    assert (filed.stat().st_ino, filed.stat().st_mtime_ns) == (before.st_ino, before.st_mtime_ns)
    assert not (league.archive / "inbox" / "replaced").exists()
    assert [row[1:] for row in inbox_files(league)] == [
        ("accepted", filed.relative_to(league.inputs).as_posix(), "[]", ""),
        ("same", filed.relative_to(league.inputs).as_posix(), "[]", "2026-03-14")]
    assert "aucun classeur enregistré, aucun classeur refusé, 1 classeur déjà reçu à l’identique" in done.stdout
    assert f"a (1).xlsx déjà reçu à l’identique ({league.inputs / 'grand-sud/2026/2026-03-14-albi-tournoi-printemps.xlsx'}, " \
           "reçu le 14 mars 2026) : rien de changé" in done.stdout
    assert "lancez « make »" not in done.stdout
    # Toulouse forwards the same bytes: nothing changes either, so nothing is held for the secretary
    # (she was never asked: a held copy of what inputs/ holds is listed nowhere)
    league.server.append(message(TLSE, "Pour info", [("a.xlsx", spring)], number=3))
    done = league.run()
    assert done.returncode == 0, done.stderr
    assert "c’est le même classeur que celui déjà reçu le 14\u00a0mars\u00a02026" in body(
        next(d for d in league.drafts() if d["Subject"] == "Re: Pour info"))
    assert [row[1] for row in inbox_files(league)] == ["accepted", "same", "same"]
    assert not (league.archive / "inbox" / "held").exists()
    assert (filed.stat().st_ino, filed.stat().st_mtime_ns) == (before.st_ino, before.st_mtime_ns)


def test_a_workbook_the_secretary_filed_sent_again_unchanged_stays_where_she_put_it(league, tmp_path):
    """The same bytes as a workbook she put in inputs/ by hand: it was moved to a name of the inbox's
    (a new path: a tournament renamed for the build) and the club told it replaced a version."""
    old = league.inputs / "2026-01-10-toulouse.xlsx"
    same = old.read_bytes()
    league.server.append(message(TLSE, "Toulouse", [("toulouse.xlsx", same)]))
    done = league.run()
    assert done.returncode == 0, done.stderr
    assert old.read_bytes() == same and not (league.inputs / "grand-sud").exists()
    text = body(league.drafts()[0])
    # no date: no message brought it
    assert "toulouse.xlsx\u00a0: c’est le même classeur que celui déjà reçu pour le tournoi" in text
    assert "remplace" not in text
    assert [row[1:] for row in inbox_files(league)] == [("same", "2026-01-10-toulouse.xlsx", "[]", "")]


BROKEN = [[1, "DUPONT", "Jean", "1001", "Carcassonne"], ["deux", "MARTIN", "Paul", "1002", "Albi"]]
FIRST_COPY = "inbox/refused/2026-03-14-albi-1-casse.xlsx"  # relative to the archive folder


def refused_then_sent_again(league, tmp_path, results: list[list[object]]) -> bytes:
    """Albi's workbook of the 21st (`results`) refused from a first message of 14 March, then the same
    bytes as « casse (1).xlsx » in a second one of 21 March, not yet read: its bytes."""
    broken = workbook(tmp_path, "casse", day="21/03/2026", club="ALBI", results=results)
    league.server.append(message(ALBI, "Tournoi du 21", [("casse.xlsx", broken)]))
    assert league.run().returncode == 0
    again = message(ALBI, "Tournoi du 21 (renvoi)", [("casse (1).xlsx", broken)], number=2)
    again.replace_header("Date", "Sat, 21 Mar 2026 09:00:00 +0100")
    league.server.append(again)
    return broken


def answer_to_the_resend(league) -> email.message.EmailMessage:
    return next(d for d in league.drafts() if d["Subject"] == "Re: Tournoi du 21 (renvoi)")


def test_a_refused_workbook_sent_again_unchanged_is_said_to_be_the_same_and_kept_once(league, tmp_path):
    """Albi sends again, byte for byte, the workbook refused on the 14th: it was answered as a new
    refusal, a second copy kept in archive/inbox/refused/ and listed twice for the secretary. Checked
    again, it has the same problems: its answer says it is the workbook already refused on the 14th
    and that its problems are still there, lists them and says what to do; the first copy stays the
    only one, listed once, and the new row points at it."""
    broken = refused_then_sent_again(league, tmp_path, BROKEN)
    done = league.run()
    assert done.returncode == 0, done.stderr
    draft = answer_to_the_resend(league)
    # the HTML's name in bold, in its box with its colon (templates/mail/file_name.j2)
    for text, strong, box in ((body(draft), "", ""), (draft.get_body(("html",)).get_content(), "</strong>", "</span>")):
        assert f"casse (1).xlsx{strong}\u00a0:{box} c’est le même classeur que celui déjà refusé le 14\u00a0mars\u00a02026" \
               "\u202f; ses problèmes sont toujours là et il n’a donc pas pu être enregistré. Voici ce qui est à " \
               "corriger\u00a0:" in text
        assert "feuille «\u00a0Résultats\u00a0», cellule A3" in text and "«\u00a0deux\u00a0»" in text
        assert "Si vous l’avez déjà corrigé, joignez bien le fichier enregistré après correction\u00a0: c’est " \
               "l’ancien qui nous est parvenu." in text
        assert "Corrigez le classeur et renvoyez-le en réponse à ce message\u00a0: il sera vérifié de nouveau." in text
        assert "ce classeur n’a pas pu être enregistré" not in text  # the words of a first refusal
    assert {p.name: p.read_bytes() for p in (league.archive / "inbox" / "refused").iterdir()} == \
        {"2026-03-14-albi-1-casse.xlsx": broken}
    assert [row[1:] for row in inbox_files(league)] == [("refused", FIRST_COPY, "[]", ""),
                                                        ("refused", FIRST_COPY, "[]", "2026-03-14")]
    assert "casse (1).xlsx refusé, le même classeur que celui refusé le 14 mars 2026 (1 problème, gardé dans " \
           f"{league.archive / FIRST_COPY})" in done.stdout
    # the secretary's list names it once, from the message that first brought it, after `inbox` as after `check`
    checked = league.check()
    assert checked.returncode == 0, checked.stderr
    for said in (done.stderr, checked.stderr):
        assert "1 classeur reçu par courriel refusé" in said and said.count("2026-03-14-albi-1-casse.xlsx") == 1, said
        assert "casse.xlsx de contact@albi.example.org (message du 14 mars 2026) : refusé" in said
    # she sets it aside (deletes it); sent a third time, it is a new refusal, as a held copy she deleted
    # is a new hold: it was told « déjà refusé le 14 mars » and its copy written back under the first
    # message's name, listed again as that message's, the one she had set aside
    (league.archive / FIRST_COPY).unlink()
    league.server.append(message(ALBI, "Tournoi du 21 (encore)", [("casse.xlsx", broken)], number=3))
    third = league.run()
    assert third.returncode == 0, third.stderr
    assert {p.name: p.read_bytes() for p in (league.archive / "inbox" / "refused").iterdir()} == \
        {"2026-03-14-albi-3-casse.xlsx": broken}
    text = body(next(d for d in league.drafts() if d["Subject"] == "Re: Tournoi du 21 (encore)"))
    assert "casse.xlsx\u00a0: ce classeur n’a pas pu être enregistré. Voici ce qui est à corriger" in text
    assert "déjà refusé" not in text and "cellule A3" in text
    assert inbox_files(league)[2][1:] == ("refused", "inbox/refused/2026-03-14-albi-3-casse.xlsx", "[]", "")
    assert f"casse.xlsx refusé (1 problème, gardé dans {league.archive / 'inbox' / 'refused' / '2026-03-14-albi-3-casse.xlsx'})" \
        in third.stdout
    for said in (third.stderr, league.check().stderr):
        assert "1 classeur reçu par courriel refusé" in said and said.count("2026-03-14-albi-3-casse.xlsx") == 1
        assert "2026-03-14-albi-1-casse.xlsx" not in said, said


def test_a_refused_workbook_sent_again_unchanged_is_filed_once_the_league_knows_its_club(league, tmp_path):
    """Refused for a player's club clubs.xlsx lacked; the secretary adds it, Albi sends the same bytes
    again: checked again, they pass and are filed as any workbook, its answer says nothing of the
    refusal, and the refused one waits no more."""
    broken = refused_then_sent_again(league, tmp_path, [[1, "DUPONT", "Jean", "1001", "Rodez"]])
    write_clubs(league.inputs, ClubDirectory([*CLUBS.clubs, Club("RODZ", "Rodez", "12")]))
    done = league.run()
    assert done.returncode == 0, done.stderr
    assert (league.inputs / "grand-sud" / "2026" / "2026-03-21-albi-tournoi-casse.xlsx").read_bytes() == broken
    text = body(answer_to_the_resend(league))
    assert "le tournoi «\u00a0Tournoi casse\u00a0» du 21\u00a0mars\u00a02026 est enregistré" in text
    assert "refusé" not in text and "corriger" not in text
    assert [row[1] for row in inbox_files(league)] == ["refused", "accepted"]
    checked = league.check()
    assert checked.returncode == 0 and "refusé" not in checked.stderr, checked.stderr


def test_a_refused_workbook_sent_again_unchanged_with_fewer_problems_is_answered_as_a_new_refusal(league, tmp_path):
    """Refused for a player's club clubs.xlsx lacked and a place; the secretary adds the club, Albi
    sends the same bytes again: the place is left, so its answer lists that problem alone as any
    refusal does, never « ses problèmes sont toujours là »; the same bytes are still kept once."""
    broken = refused_then_sent_again(league, tmp_path, [[1, "DUPONT", "Jean", "1001", "Rodez"],
                                                        ["deux", "MARTIN", "Paul", "1002", "Albi"]])
    write_clubs(league.inputs, ClubDirectory([*CLUBS.clubs, Club("RODZ", "Rodez", "12")]))
    done = league.run()
    assert done.returncode == 0, done.stderr
    text = body(answer_to_the_resend(league))
    assert "casse (1).xlsx\u00a0: ce classeur n’a pas pu être enregistré. Voici ce qui est à corriger" in text
    assert "cellule A3" in text and "Rodez" not in text and "déjà refusé" not in text
    assert {p.name: p.read_bytes() for p in (league.archive / "inbox" / "refused").iterdir()} == \
        {"2026-03-14-albi-1-casse.xlsx": broken}
    assert [row[1:] for row in inbox_files(league)] == [("refused", FIRST_COPY, "[]", ""),
                                                        ("refused", FIRST_COPY, "[]", "")]
    checked = league.check()
    assert checked.returncode == 0 and checked.stderr.count("2026-03-14-albi-1-casse.xlsx") == 1, checked.stderr


# DUPONT without a first name nor a licence: a warning (empty-first-name), which refuses nothing.
UNNAMED = [[1, "DUPONT", "", "", "Albi"], [2, "MARTIN", "Paul", "1002", "Albi"]]
# The warning as the club reads it, one line of the text answer.
TO_COMPLETE = ("  - feuille «\u00a0Résultats\u00a0», cellule C2 (colonne «\u00a0Prénom\u00a0»)\u00a0: le prénom de DUPONT "
               "est vide\u00a0: deux joueurs DUPONT sans prénom ni licence seraient comptés comme un seul\u202f; tapez son "
               "prénom dans cette case, ou sa licence.")
COMPLETE = "Pour qu’il soit complet, voici encore ce que vous pouvez faire\u00a0:"


def problems_kept(league: League) -> list[list[tuple]]:
    """(code, level, sheet, cell) of the `problems` of each inbox_file row, in order."""
    import json

    connection = sqlite3.connect(league.archive / "league.sqlite")
    try:
        return [[(p["code"], p["level"], p["sheet"], p["cell"]) for p in json.loads(row[0])] for row in
                connection.execute("SELECT f.problems FROM inbox_file f JOIN inbox_message m ON m.id = f.message "
                                   "ORDER BY m.uid, f.position")]
    finally:
        connection.close()


def test_an_accepted_workbook_s_warnings_are_in_its_answer_and_no_other_file_s(league, tmp_path, smtp):
    """DUPONT's empty Prénom beside a surname alone is a warning: the workbook is filed, and its club,
    the only one that knows his first name, was told nothing of it (the warning reached `make check`
    alone). Its answer says it is filed, then lists it with its cell and fix; the league's own
    warnings (a club's Email in clubs.xlsx, joueurs.xlsx, another club's tournament in inputs/) are
    none of its business. Kept with the decision: the draft sent by a later --send says the same."""
    write_workbook(league.inputs / "clubs.xlsx", {"Clubs": [
        ["Code", "Nom", "Département", "Email"],
        *[[c.code, c.name, c.departement, "pas une adresse" if c.code == "MARS" else f"contact@{c.code.lower()}.example.org"]
          for c in CLUBS.clubs]]})
    write_workbook(league.inputs / "joueurs.xlsx", {"Joueurs": [["Licence", "Nom", "Prénom", "Club", "Autres graphies"],
                                                               ["", "ROUX", "", "", ""]]})
    write_tournament(league.inputs, "2026-02-21-toulouse", day="21/02/2026", club="TLSE",
                     results=[[1, "BLANC", "", "", "Toulouse"], [2, "DURAND", "Anne", "", "Toulouse"]])
    assert {w.where.path for w in load(league.inputs, TODAY).warnings} == {
        "clubs.xlsx", "joueurs.xlsx", "2026-02-21-toulouse.xlsx"}
    league.server.append(message(ALBI, "Résultats", [("a.xlsx", workbook(tmp_path, **SPRING, results=UNNAMED))]))
    done = league.run()
    assert done.returncode == 0, done.stderr
    filed = league.inputs / "grand-sud" / "2026" / "2026-03-14-albi-tournoi-printemps.xlsx"
    assert filed.is_file() and "1 classeur enregistré, aucun classeur refusé" in done.stdout
    assert f"a.xlsx enregistré dans {filed} (1 avertissement) ;" in done.stdout
    [draft] = league.drafts()
    text, html = body(draft), draft.get_body(("html",)).get_content()
    assert ("a.xlsx\u00a0: le tournoi «\u00a0Tournoi printemps\u00a0» du 14\u00a0mars\u00a02026 est enregistré "
            "(Classement régional Grand Sud, saison 2026)\u202f; il sera pris en compte au prochain calcul des "
            f"classements de la ligue.\n\n{COMPLETE}\n{TO_COMPLETE}\n\nUne fois complété, renvoyez-le en réponse à ce "
            "message\u00a0: il remplacera la version enregistrée.\n\nBien cordialement,") in text
    assert f"de la ligue.</p>\n<p>{COMPLETE}</p>\n<ul>\n<li>feuille «\u00a0Résultats\u00a0», cellule C2 (colonne " \
           "«\u00a0Prénom\u00a0»)\u00a0: le prénom de DUPONT est vide" in html
    for said in (text, html):
        assert "BLANC" not in said and "ROUX" not in said and "adresse" not in said and "corriger" not in said
    assert problems_kept(league) == [[("empty-first-name", "warning", "Résultats", "C2")]]
    # drafted, then sent by a later --send from what was decided: the same words
    league.with_smtp(smtp.port)
    sent = league.run("--send")
    assert sent.returncode == 0, sent.stderr
    [mail] = smtp.received
    received = (body(mail.message), mail.message.get_body(("html",)).get_content())
    assert tuple(said.replace("\r\n", "\n") for said in received) == (text, html)  # as SMTP carries them


def test_kill_9_while_answering_an_accepted_workbook_with_a_warning_then_the_rerun_still_lists_it(league, tmp_path):
    league.server.append(message(ALBI, "Résultats", [("a.xlsx", workbook(tmp_path, **SPRING, results=UNNAMED))]))
    # renames: the message's copy, the check's scratch folder, the workbook filed, the answer's draft:
    # killed at the fourth
    killed = league.process(strace=("-e", "inject=rename:signal=SIGKILL:when=4"))
    assert killed.returncode in (-9, 128 + 9), killed.stderr
    assert [row[:2] for row in league.rows()] == [(1, "filed")] and league.drafts() == []
    done = league.run()
    assert done.returncode == 0, done.stderr
    [draft] = league.drafts()
    assert f"{COMPLETE}\n{TO_COMPLETE}\n" in body(draft)


def test_a_refused_workbook_lists_its_warnings_after_its_problems_as_not_blocking(league, tmp_path):
    """A place that is no number refuses it; DUPONT's empty Prénom would not: said after, as
    something that alone would not stop it. Sent again unchanged, both are still there: the
    workbook already refused, both listed again."""
    refused_then_sent_again(league, tmp_path, [[1, "DUPONT", "", "", "Albi"], ["deux", "MARTIN", "Paul", "1002", "Albi"]])
    done = league.run()
    assert done.returncode == 0, done.stderr
    first = body(next(d for d in league.drafts() if d["Subject"] == "Re: Tournoi du 21"))
    lines = first.splitlines()
    start = lines.index("casse.xlsx\u00a0: ce classeur n’a pas pu être enregistré. Voici ce qui est à corriger\u00a0:")
    assert lines[start + 1].startswith("  - feuille «\u00a0Résultats\u00a0», cellule A3 (colonne «\u00a0Place\u00a0»)")
    assert lines[start + 2:start + 6] == [
        "", "Pour qu’il soit complet, voici aussi ce que vous pouvez faire (cela seul n’empêcherait pas son "
        "enregistrement)\u00a0:", TO_COMPLETE, ""]
    assert "Corrigez le classeur et renvoyez-le en réponse à ce message" in first
    again = body(answer_to_the_resend(league))
    assert "déjà refusé le 14\u00a0mars\u00a02026\u202f; ses problèmes sont toujours là" in again
    assert "cellule A3" in again and TO_COMPLETE in again
    assert [row[1:] for row in inbox_files(league)] == [("refused", FIRST_COPY, "[]", ""),
                                                        ("refused", FIRST_COPY, "[]", "2026-03-14")]
    assert problems_kept(league) == [[("bad-value", "blocking", "Résultats", "A3"),
                                      ("empty-first-name", "warning", "Résultats", "C2")]] * 2
    assert "casse (1).xlsx refusé, le même classeur que celui refusé le 14 mars 2026 (1 problème, 1 avertissement, " \
           f"gardé dans {league.archive / FIRST_COPY})" in done.stdout


def test_a_workbook_with_a_warning_sent_again_unchanged_says_it_is_still_to_complete(league, tmp_path):
    """Told to type DUPONT's first name, Albi sends the same bytes again: most likely the file saved
    before the change. « Rien ne change » alone would let it believe the first name arrived; its
    answer says nothing changes, lists what is still to complete and says the old file came. Toulouse
    forwarding the same bytes is told nothing changes, nothing to complete: not its tournament."""
    spring = workbook(tmp_path, **SPRING, results=UNNAMED)
    league.server.append(message(ALBI, "Résultats", [("a.xlsx", spring)]))
    assert league.run().returncode == 0
    league.server.append(message(ALBI, "Complété", [("a.xlsx", spring)], number=2))
    league.server.append(message(TLSE, "Pour info", [("a.xlsx", spring)], number=3))
    done = league.run()
    assert done.returncode == 0, done.stderr
    drafts = {draft["Subject"]: body(draft) for draft in league.drafts()}
    assert ("a.xlsx\u00a0: c’est le même classeur que celui déjà reçu le 14\u00a0mars\u00a02026 pour le tournoi "
            "«\u00a0Tournoi printemps\u00a0» du 14\u00a0mars\u00a02026\u00a0: rien ne change, il reste enregistré tel "
            f"quel.\n\n{COMPLETE}\n{TO_COMPLETE}\n\nSi vous l’avez déjà complété, joignez bien le fichier enregistré après "
            "modification\u00a0: c’est l’ancien qui nous est parvenu.") in drafts["Re: Complété"]
    assert "rien ne change, il reste enregistré tel quel.\n" in drafts["Re: Pour info"]
    assert "DUPONT" not in drafts["Re: Pour info"]
    assert [row[1] for row in inbox_files(league)] == ["accepted", "same", "same"]
    assert problems_kept(league) == [[("empty-first-name", "warning", "Résultats", "C2")]] * 2 + [[]]
    assert f"a.xlsx déjà reçu à l’identique ({league.inputs / 'grand-sud/2026/2026-03-14-albi-tournoi-printemps.xlsx'}, reçu le " \
           "14 mars 2026) : rien de changé (1 avertissement) ;" in done.stdout


def test_the_answer_is_sent_once_as_a_reply(league, tmp_path, smtp):
    league.with_smtp(smtp.port)
    league.server.append(message(ALBI, "Résultats", [("a.xlsx", workbook(tmp_path, **SPRING))]))
    done = league.run("--send")
    assert done.returncode == 0, done.stderr
    assert "réponse envoyée" in done.stdout
    [sent] = smtp.received
    assert sent.rcpt_tos == [ALBI] and sent.message["In-Reply-To"] == "<resultats-1@club.example.org>"
    # Dated when sent, with an identifier of its own, kept in the log (the draft's is a digest).
    [draft] = league.drafts()
    assert sent.message["Message-ID"] != draft["Message-ID"] and sent.message["Date"] != draft["Date"]
    assert league.logged_ids() == [sent.message["Message-ID"]]
    assert league.run("--send").returncode == 0 and len(smtp.received) == 1


def test_an_answer_the_server_refused_is_sent_next_run_and_nothing_is_filed_twice(league, tmp_path, smtp):
    league.with_smtp(smtp.port)
    league.server.append(message(ALBI, "Résultats", [("a.xlsx", workbook(tmp_path, **SPRING))]))
    smtp.refuse = {ALBI}
    done = league.run("--send")
    assert done.returncode == 1 and "réponses non envoyées" in done.stderr and "550" in done.stderr
    assert [row[:2] for row in league.rows()] == [(1, "filed")] and league.server.uids() == [1]
    smtp.refuse = set()
    done = league.run("--send")
    assert done.returncode == 0, done.stderr
    assert len(smtp.received) == 1 and league.server.uids() == []
    assert len(list((league.inputs / "grand-sud" / "2026").iterdir())) == 1


def test_a_stalling_server_stops_the_sending_at_run_timeout_and_the_answers_go_next_run_once(league, tmp_path,
                                                                                              smtp):
    league.server.append(message(ALBI, "Résultats", [("a.xlsx", workbook(tmp_path, **SPRING))]))
    assert league.run().returncode == 0  # answered as a draft, sent by a later --send
    league.server.append(message(TLSE, "Tournoi de Toulouse", [("t.xlsx", workbook(
        tmp_path / "t", "toulouse", day="21/03/2026", club="TLSE"))], number=2))
    with silent_server(greet=False) as port:  # accepts the connection, never says a word
        league.with_smtp(port, "timeout = 5\nrun_timeout = 0.5\n")
        done = league.run("--send")
    assert done.returncode == 1 and "Traceback" not in done.stderr
    # Toulouse's answer used what was left of the run (or nothing was left); Albi's was not attempted.
    assert "le temps de l’envoi est écoulé (réglage run_timeout de [mail] : 0,5 s) ; " in done.stderr
    assert f"  - Albi ({ALBI})\n" in done.stderr
    assert "« Résultats » (réponse préparée lors d’une relève précédente) : réponse non tentée : le temps de " \
        "l’envoi est écoulé" in done.stdout
    # Toulouse's workbook is filed, both answers wait: its message in the box, Albi's still a draft.
    assert league.rows() == [(1, "done", "drafted"), (2, "filed", "")] and league.server.uids() == [2]
    assert len(list((league.inputs / "grand-sud" / "2026").iterdir())) == 2
    connection = sqlite3.connect(league.archive / "league.sqlite")
    try:
        assert {row[0] for row in connection.execute("SELECT status FROM sending")} <= {"failed"}
    finally:
        connection.close()
    league.with_smtp(smtp.port)
    done = league.run("--send")
    assert done.returncode == 0, done.stderr
    assert sorted(sent.rcpt_tos[0] for sent in smtp.received) == [ALBI, TLSE]
    assert league.rows() == [(1, "done", ""), (2, "done", "")] and league.server.uids() == []
    assert league.run("--send").returncode == 0 and len(smtp.received) == 2  # never twice


def test_kill_9_while_the_answer_is_on_the_wire_then_a_rerun_loses_nothing_and_answers_once(league, tmp_path, smtp):
    league.with_smtp(smtp.port)
    league.server.append(message(ALBI, "Résultats", [("a.xlsx", workbook(tmp_path, **SPRING))]))
    smtp.hold = True  # the server keeps the answer without confirming it
    environment = {**os.environ, config.IMAP_PASSWORD_VARIABLE: dovecot.PASSWORD}
    process = subprocess.Popen(league.command("--send"), env=environment, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 60
        while not smtp.received and time.monotonic() < deadline:
            time.sleep(0.05)
        assert smtp.received, process.stderr.read() if process.poll() is not None else "no answer sent"
    finally:
        process.kill()  # SIGKILL
        process.wait()
    smtp.hold = False
    filed = league.inputs / "grand-sud" / "2026" / "2026-03-14-albi-tournoi-printemps.xlsx"
    assert filed.is_file() and [row[:2] for row in league.rows()] == [(1, "filed")]
    assert league.server.uids() == [1]  # not moved yet
    again = league.run("--send")
    assert again.returncode == 1  # the answer is uncertain: said, never sent again on its own
    assert "réponses incertaines" in again.stderr
    assert len(smtp.received) == 1 and filed.is_file()
    assert [row[:2] for row in league.rows()] == [(1, "done")] and league.server.uids() == []


def test_kill_9_while_filing_then_a_rerun_finishes_the_filing(league, tmp_path):
    old = league.inputs / "2026-01-10-toulouse.xlsx"
    before = old.read_bytes()
    corrected = workbook(tmp_path, "x", day="10/01/2026", club="TLSE", results=[[1, "DURAND", "Anne", "", "Toulouse"]])
    league.server.append(message(TLSE, "Correction", [("toulouse.xlsx", corrected)]))
    # renames: the message's copy, the earlier version kept, the new file: killed at the third
    killed = league.process(strace=("-e", "inject=rename:signal=SIGKILL:when=3"))
    assert killed.returncode in (-9, 128 + 9), killed.stderr
    assert [row[:2] for row in league.rows()] == [(1, "filing")]
    assert old.read_bytes() == before  # not yet removed
    done = league.run()
    assert done.returncode == 0, done.stderr
    new = league.inputs / "grand-sud" / "2026" / "2026-01-10-tlse-tournoi-x.xlsx"
    assert new.read_bytes() == corrected and not old.exists()
    assert (league.archive / "inbox" / "replaced" / "2026-03-14-tlse-1" / old.name).read_bytes() == before
    assert len(league.drafts()) == 1 and league.server.uids() == []


def test_kill_9_while_keeping_two_versions_aside_then_a_rerun_keeps_each_once_and_answers_once(league, tmp_path):
    """The two versions of one tournament in one message (refused together, `one_version_each`): a
    run killed between keeping the first and the second aside; the rerun keeps both, files nothing,
    writes one answer naming both, and leaves none of the killed run's temporary files."""
    first = workbook(tmp_path / "1", **SPRING)
    second = workbook(tmp_path / "2", **SPRING, results=[[1, "MARTIN", "Paul", "1002", "Albi"]])
    league.server.append(message(ALBI, "Deux versions", [("version1.xlsx", first), ("version2.xlsx", second)]))
    # renames: the message's copy, each check's scratch folder, the first version kept aside, the
    # second: killed at the fifth
    killed = league.process(strace=("-e", "inject=rename:signal=SIGKILL:when=5"))
    assert killed.returncode in (-9, 128 + 9), killed.stderr
    assert [row[:2] for row in league.rows()] == [(1, "filing")]
    refused = league.archive / "inbox" / "refused"
    # the second stopped as a hidden temporary file, which the rerun removes
    assert {p.name: p.read_bytes() for p in refused.iterdir() if not p.name.startswith(".")} == \
        {"2026-03-14-albi-1-version1.xlsx": first}
    assert [p.name for p in refused.iterdir() if p.name.startswith(".")]
    done = league.run()
    assert done.returncode == 0, done.stderr
    assert {p.name: p.read_bytes() for p in refused.iterdir()} == {"2026-03-14-albi-1-version1.xlsx": first,
                                                                   "2026-03-14-albi-1-version2.xlsx": second}
    assert not (league.inputs / "grand-sud").exists()
    [draft] = league.drafts()
    assert "sont deux versions du tournoi" in body(draft) and league.server.uids() == []
    assert league.run().returncode == 0 and len(league.drafts()) == 1  # and again: nothing more


def test_kill_9_while_answering_a_workbook_sent_again_unchanged_then_a_rerun_answers_once(league, tmp_path):
    """The `same` decision recorded, the run killed as it writes its answer: the rerun answers once,
    still dated from the first message, files nothing and records no other row."""
    _, filed, before = filed_then_sent_again(league, tmp_path, "Renvoi", "a.xlsx")
    # renames: the message's copy, the check's scratch folder, the answer's draft: killed at the third
    killed = league.process(strace=("-e", "inject=rename:signal=SIGKILL:when=3"))
    assert killed.returncode in (-9, 128 + 9), killed.stderr
    assert [row[:2] for row in league.rows()] == [(1, "done"), (2, "filed")]  # filed: nothing, its answer next
    assert [row[1] for row in inbox_files(league)] == ["accepted", "same"]
    assert not [d for d in league.drafts() if d["Subject"] == "Re: Renvoi"]
    done = league.run()
    assert done.returncode == 0, done.stderr
    answers = [d for d in league.drafts() if d["Subject"] == "Re: Renvoi"]
    assert len(answers) == 1 and "déjà reçu le 14\u00a0mars\u00a02026" in body(answers[0])
    assert [row[1] for row in inbox_files(league)] == ["accepted", "same"] and league.server.uids() == []
    assert (filed.stat().st_ino, filed.stat().st_mtime_ns) == (before.st_ino, before.st_mtime_ns)
    assert league.run().returncode == 0 and len(league.drafts()) == 2  # and again: nothing more


def answers_to(smtp, subject: str) -> list[str]:
    """The plain text of each answer the SMTP server received to a message of `subject`."""
    return [body(sent.message) for sent in smtp.received if sent.message["Subject"] == f"Re: {subject}"]


def test_kill_9_on_the_refused_again_path_then_a_rerun_loses_nothing_and_answers_once(league, tmp_path, smtp):
    """The same bytes refused again (`again`: the first copy shared, dated from it), a real `reportgen
    inbox --send` killed once their decision is committed, as it writes their answer; then, once the
    secretary deleted that copy, the same bytes sent a third time (a new refusal, a copy of its own)
    killed as that copy is kept aside. Each rerun finishes from the decision recorded: the copy kept,
    one answer sent, saying what the decision said; the secretary's list names each copy once."""
    broken = refused_then_sent_again(league, tmp_path, BROKEN)
    league.with_smtp(smtp.port)
    # renames: the message's copy, the check's scratch folder, the answer's draft (its copy is the
    # first one, already there): killed at the third
    killed = league.process("--send", strace=("-e", "inject=rename:signal=SIGKILL:when=3"))
    assert killed.returncode in (-9, 128 + 9), killed.stderr
    assert [row[:2] for row in league.rows()] == [(1, "done"), (2, "filed")] and smtp.received == []
    assert inbox_files(league)[1][1:] == ("refused", FIRST_COPY, "[]", "2026-03-14")
    done = league.run("--send")
    assert done.returncode == 0, done.stderr
    [said] = answers_to(smtp, "Tournoi du 21 (renvoi)")
    assert "casse (1).xlsx\u00a0: c’est le même classeur que celui déjà refusé le 14\u00a0mars\u00a02026" in said
    # the first refusal's draft is superseded by the newer answer for the same tournament: never sent
    assert answers_to(smtp, "Tournoi du 21") == [] and "remplacée par une plus récente" in done.stdout
    assert {p.name: p.read_bytes() for p in (league.archive / "inbox" / "refused").iterdir()} == \
        {"2026-03-14-albi-1-casse.xlsx": broken}
    assert done.stderr.count("2026-03-14-albi-1-casse.xlsx") == 1
    # she deletes it; the third sending, a new refusal, killed as its own copy is kept aside
    (league.archive / FIRST_COPY).unlink()
    league.server.append(message(ALBI, "Tournoi du 21 (encore)", [("casse.xlsx", broken)], number=3))
    third = league.archive / "inbox" / "refused" / "2026-03-14-albi-3-casse.xlsx"
    # renames: the message's copy, the check's scratch folder, the new copy: killed at the third
    killed = league.process("--send", strace=("-e", "inject=rename:signal=SIGKILL:when=3"))
    assert killed.returncode in (-9, 128 + 9), killed.stderr
    assert league.rows()[2][:2] == (3, "filing") and not third.exists()
    done = league.run("--send")
    assert done.returncode == 0, done.stderr
    # the killed run's temporary file gone, the copy whole
    assert {p.name: p.read_bytes() for p in (league.archive / "inbox" / "refused").iterdir()} == {third.name: broken}
    [said] = answers_to(smtp, "Tournoi du 21 (encore)")
    assert "casse.xlsx\u00a0: ce classeur n’a pas pu être enregistré" in said and "déjà refusé" not in said
    assert len(smtp.received) == 2 and league.server.uids() == []
    assert done.stderr.count(third.name) == 1 and "2026-03-14-albi-1-casse.xlsx" not in done.stderr
    # and again: nothing more
    assert league.run("--send").returncode == 0 and len(smtp.received) == 2 and len(inbox_files(league)) == 3


def test_two_runs_at_once_do_not_both_run(league, tmp_path, smtp):
    league.with_smtp(smtp.port)
    league.server.append(message(ALBI, "Résultats", [("a.xlsx", workbook(tmp_path, **SPRING))]))
    smtp.hold = True
    environment = {**os.environ, config.IMAP_PASSWORD_VARIABLE: dovecot.PASSWORD}
    first = subprocess.Popen(league.command("--send"), env=environment, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 60
        while not smtp.received and time.monotonic() < deadline:
            time.sleep(0.05)
        second = league.run()
        assert second.returncode == 1
        assert "une autre lecture de la boîte aux lettres est en cours" in second.stderr
        smtp.hold = False
        out, err = first.communicate(timeout=60)
    finally:
        if first.poll() is None:
            first.kill()
            first.wait()
    assert first.returncode == 0, err
    assert len(smtp.received) == 1 and [row[:2] for row in league.rows()] == [(1, "done")]


def test_the_password_comes_from_the_environment_only(league, tmp_path):
    league.settings(league.server.port, 'password = "secret"\n')
    done = league.run()
    assert done.returncode == 1
    assert "le mot de passe ne s’écrit jamais dans un fichier" in done.stderr
    assert config.IMAP_PASSWORD_VARIABLE in done.stderr
    league.settings(league.server.port)
    done = league.run(env={config.IMAP_PASSWORD_VARIABLE: None})
    assert done.returncode == 1 and config.IMAP_PASSWORD_VARIABLE in done.stderr
    assert dovecot.PASSWORD not in done.stdout + done.stderr


def test_without_move_the_message_is_copied_deleted_and_expunged(league, tmp_path):
    league.server.append(message(ALBI, "Un", number=1))
    league.server.append(message(ALBI, "Deux", number=2))
    settings = config.Inbox(host="127.0.0.1", port=league.server.port, security="none", user=dovecot.USER)
    with imap.Mailbox(settings, dovecot.PASSWORD).open() as mailbox:
        mailbox.capabilities.discard("MOVE")
        mailbox.ensure_done()
        mailbox.move(1)
    assert league.server.uids() == [2] and len(league.server.uids("Traités")) == 1


def test_names_from_mail_are_never_paths():
    assert imap.folder_name("Traités") == '"Trait&AOk-s"'
    assert imap.folder_name("A&B") == '"A&-B"'
    assert safe_filename("../../etc/passwd.xlsx") == "passwd.xlsx"
    assert safe_filename("C:\\Users\\club\\Résultats d'Albi.XLSX") == "resultats-d-albi.xlsx"
    assert slug("") == "classeur"


def test_the_inbox_settings_are_checked_like_any_setting(tmp_path):
    def read(text: str) -> tuple[config.Inbox | None, list[str]]:
        (tmp_path / config.SETTINGS_FILE).write_text(text, encoding="utf-8")
        problems: list = []
        return config.load(tmp_path, {}, problems).inbox, [str(p) for p in problems]

    settings, problems = read('[inbox]\nhost = "imap.example.org"\nuser = "secretariat@example.org"\n')
    assert problems == [] and settings == config.Inbox("imap.example.org", 993, "ssl", "secretariat@example.org",
                                                       "INBOX", "Traités")
    settings, problems = read('[inbox]\nhost = "imap.example.org"\nsecurity = "tls"\nfolder = "a\\"b"\n')
    assert settings is None
    assert any("le réglage « user » manque dans la table [inbox]" in p and "sous [inbox]" in p for p in problems)
    assert any("security" in p and "tls" in p for p in problems)
    assert any("folder" in p and "guillemet" in p for p in problems)


def test_a_schema_2_database_gets_the_inbox_tables_and_keeps_its_rows(tmp_path):
    from reportgen.delivery import database

    connection = database.connect(tmp_path)
    connection.executescript("DROP TABLE inbox_file; DROP TABLE inbox_message; PRAGMA user_version = 2; "
                             "INSERT INTO sending (at, season, club_code, club_name, address, circuit, bulletin, "
                             "ranking_sha, pdf_sha, message_id, status) VALUES ('2026-03-14T10:00:00+00:00', 2026, "
                             "'ALBI', 'Albi', 'a@example.org', 'grand-sud', '2026/classement', 'x', 'y', '<m>', 'sent')")
    connection.close()
    connection = database.connect(tmp_path)
    try:
        assert connection.execute("PRAGMA user_version").fetchone()[0] == database.SCHEMA_VERSION == 10
        assert connection.execute("SELECT count(*) FROM inbox_message").fetchone()[0] == 0
        assert connection.execute("SELECT count(*) FROM sending").fetchone()[0] == 1
    finally:
        connection.close()


def test_a_schema_9_database_keeps_the_day_of_each_message_and_corrects_nothing_before(league, tmp_path):
    """Schema 10 renames `inbox_message.sent_on` `arrived_on` and adds `inbox_file.corrects`: the
    messages recorded before keep the day they said, their refused workbooks still wait, listed
    with that day, corrected by none."""
    broken = workbook(tmp_path, "casse", day="21/03/2026", club="ALBI", results=[["deux", "MARTIN", "Paul", "1002", "Albi"]])
    league.server.append(message(ALBI, "Tournoi du 21", [("casse.xlsx", broken)]))
    assert league.run().returncode == 0
    old = sqlite3.connect(league.archive / "league.sqlite")
    old.executescript("ALTER TABLE inbox_message RENAME COLUMN arrived_on TO sent_on; ALTER TABLE inbox_file DROP "
                      "COLUMN corrects; PRAGMA user_version = 9;")
    old.close()
    from reportgen.delivery import database

    connection = database.connect(league.archive)
    try:
        assert connection.execute("PRAGMA user_version").fetchone()[0] == database.SCHEMA_VERSION == 10
        assert [tuple(row) for row in connection.execute("SELECT uid, arrived_on FROM inbox_message")] == \
            [(1, "2026-03-14")]
        assert [row[0] for row in connection.execute("SELECT corrects FROM inbox_file")] == ["[]"]
    finally:
        connection.close()
    assert f"casse.xlsx de {ALBI} (message du 14 mars 2026) : refusé" in league.check().stderr


def test_a_server_that_is_not_there_is_said_in_french(league):
    league.settings(free_port())
    done = league.run()
    assert done.returncode == 1
    assert "ne répond pas (connexion refusée : aucun serveur IMAP à cette adresse et ce port ?)" in done.stderr
    assert not (league.archive / "inbox").exists()  # nothing read


def test_the_headers_of_a_message_are_data_in_the_reply():
    from reportgen.delivery.inbox_answers import read_message

    raw = (b"From: Club <Contact@Albi.example.org>\r\nSubject: =?utf-8?q?R=C3=A9sultats=0D=0ABcc:_x@example.net?=\r\n"
           b"Message-ID: <a@b>\r\nReferences: <x@y> junk\r\nDate: pas une date\r\n\r\nbody\r\n")
    received = read_message(raw, TODAY)
    assert received.sender == "contact@albi.example.org"
    assert "\n" not in received.subject and "\r" not in received.subject
    assert received.message_id == "<a@b>" and received.references == "<x@y>" and received.date == TODAY


def test_a_subject_that_is_already_a_reply_gets_no_second_re_whatever_its_case_and_spacing():
    from reportgen.delivery.inbox_answers import Received, compose

    def answered(subject: str) -> str:
        received = Received(ALBI, subject, "<a@b>", "", TODAY)
        return compose(received, CLUBS.find("ALBI"), [], "Ligue", CLUBS, "mail/inbox/x", "k").draft.subject

    assert answered("RE : Rappel : résultats du tournoi") == "RE : Rappel : résultats du tournoi"  # French Outlook
    assert answered("re: Résultats") == "re: Résultats" and answered("Re:Résultats") == "Re:Résultats"
    # A forwarded message is answered as any message: « Re: » before the forward's own prefix.
    assert answered("TR : Résultats") == "Re: TR : Résultats" and answered("Fwd: Résultats") == "Re: Fwd: Résultats"
    assert answered("Résultats du 14 mars") == "Re: Résultats du 14 mars" and answered("") == "Votre classeur de résultats"


def test_answers_drafted_without_send_are_sent_by_a_later_send_once_each_as_replies(league, tmp_path, smtp):
    league.server.append(message(ALBI, "Résultats", [("a.xlsx", workbook(tmp_path, **SPRING))]))
    league.server.append(message(TLSE, "Tournoi de Toulouse", [("t.xlsx", workbook(
        tmp_path / "t", "toulouse", day="21/03/2026", club="TLSE"))], number=2))
    drafted = league.run()
    assert drafted.returncode == 0, drafted.stderr
    assert league.rows() == [(1, "done", "drafted"), (2, "done", "drafted")] and league.server.uids() == []
    drafts = {draft["To"]: draft for draft in league.drafts()}
    league.with_smtp(smtp.port)
    smtp.refuse = {TLSE}
    done = league.run("--send")
    assert done.returncode == 1 and "réponses non envoyées" in done.stderr and "550" in done.stderr
    # nothing filed or checked again: said so, not « 0 message traité : 0 classeur enregistré, 0 classeur refusé »,
    # then what it sent
    assert "\naucun nouveau message\nréponses préparées lors des relèves précédentes : 1 envoyée\n" in done.stdout
    assert "0 classeur" not in done.stdout and "0 message" not in done.stdout
    assert league.rows() == [(1, "done", ""), (2, "done", "drafted")]  # the refused one: sent next time
    smtp.refuse = set()
    done = league.run("--send")
    assert done.returncode == 0, done.stderr
    assert sorted(sent.rcpt_tos[0] for sent in smtp.received) == [ALBI, TLSE]
    for sent in smtp.received:
        draft = drafts[sent.rcpt_tos[0]]
        assert sent.message["Subject"] == draft["Subject"]
        assert draft["In-Reply-To"] and sent.message["In-Reply-To"] == draft["In-Reply-To"]
        assert sent.message["References"] == draft["References"]
        assert sent.message["Message-ID"] != draft["Message-ID"]  # a send has its own
    assert {sent.message["Message-ID"] for sent in smtp.received} <= set(league.logged_ids())  # in the send log
    assert league.rows() == [(1, "done", ""), (2, "done", "")]
    again = league.run("--send")
    assert again.returncode == 0 and "relèves précédentes" not in again.stdout
    assert len(smtp.received) == 2


def test_a_drafted_answer_superseded_by_a_newer_message_for_the_same_tournament_is_not_sent(league, tmp_path, smtp):
    broken = workbook(tmp_path, "casse", day="21/03/2026", club="ALBI", results=[
        [1, "DUPONT", "Jean", "1001", "Carcassonne"], ["deux", "MARTIN", "Paul", "1002", "Albi"]])
    league.server.append(message(ALBI, "Tournoi du 21", [("casse.xlsx", broken)]))
    assert league.run().returncode == 0  # refused, answered as a draft
    fixed = workbook(tmp_path / "ok", "casse", day="21/03/2026", club="ALBI")
    league.server.append(message(ALBI, "Corrigé", [("casse.xlsx", fixed)], number=2))
    assert league.run().returncode == 0  # accepted, answered as a draft
    league.with_smtp(smtp.port)
    done = league.run("--send")
    assert done.returncode == 0, done.stderr
    assert "1 envoyée, 1 remplacée par une plus récente (non envoyée)" in done.stdout
    assert "« Tournoi du 21 » (réponse préparée lors d’une relève précédente) : réponse non envoyée : un message " \
        "plus récent du club pour le même tournoi l’a remplacée" in done.stdout
    [sent] = smtp.received
    assert sent.message["In-Reply-To"] == "<corrige-2@club.example.org>"
    assert league.rows() == [(1, "done", "superseded"), (2, "done", "")]
    assert league.run("--send").returncode == 0 and len(smtp.received) == 1


def test_a_drafted_refusal_whose_workbook_its_club_corrected_in_reply_is_not_sent_after_it(league, tmp_path, smtp):
    """Albi's refused « casse.xlsx » answered as a draft; Albi, told by phone, sends it corrected, its
    date too, as « casse-v2.xlsx » in reply to its own message. The next `inbox --send` sent the
    refusal after the « enregistré » of its correction (another file name and date: no newer answer
    for that tournament). The correction (`corrects`) supersedes it: listed, never sent."""
    came = dt.datetime(2026, 3, 22, 12, 0, tzinfo=dt.timezone.utc)
    broken = workbook(tmp_path, "casse", day="21/03/2026", club="ALBI", results=[["deux", "MARTIN", "Paul", "1002", "Albi"]])
    first = message(ALBI, "Tournoi du 21", [("casse.xlsx", broken)])
    league.server.append(first, arrived=came)
    assert league.run().returncode == 0  # refused, answered as a draft
    fixed = workbook(tmp_path / "ok", "casse", day="20/03/2026", club="ALBI")
    league.server.append(reply(None, first["Message-ID"], "Re: Tournoi du 21", [("casse-v2.xlsx", fixed)], 2),
                         arrived=came)
    league.with_smtp(smtp.port)
    done = league.run("--send")
    assert done.returncode == 0, done.stderr
    assert "aucune envoyée, 1 remplacée par une plus récente (non envoyée)" in done.stdout, done.stdout
    [sent] = smtp.received
    assert sent.message["In-Reply-To"] == "<re-tournoi-du-21-2@club.example.org>"
    assert league.rows() == [(1, "done", "superseded"), (2, "done", "")]


def test_an_answer_groups_a_problem_s_cells_and_says_a_range_on_its_own():
    """One problem in successive cells of a column is said once, as a run of cells; a problem located at
    a range (or anything else than one cell) is said where it is, never read as one cell: the answer
    was composed through the cell parser, which refuses « A2:B9 »."""
    from reportgen.delivery.inbox_answers import grouped
    from reportgen.delivery.inbox_filing import Said

    cells = [Said("Résultats", f"A{row}", "Place", "« ? » n’est pas une place", "tapez un nombre", "bad-value")
             for row in (2, 3, 4, 9)]
    ranges = [Said("Résultats", cell, None, "lignes en double", "supprimez-en une", "duplicate")
              for cell in ("A2:B9", "A12:B13")]
    said = grouped(cells + ranges)
    assert len(said) == 3 and "A2 à A4, A9" in said[0]["where"]
    assert [one["where"] for one in said[1:]] == [ranges[0].where, ranges[1].where]


def test_a_workbook_that_replaces_its_series_first_tournament_or_changes_a_final_ranking_says_so(league, tmp_path):
    """A club's second Grand Sud tournament of the year replaces its first (§1: one edition of a series a
    year counts), its players absent from the second losing the first's points; `check` says so, but
    `inbox` told the club « est enregistré » alone and its line said nothing. And a workbook dated
    21/11/2025 for 2026 changed the 2025 final ranking already published, said only by the build once
    it had published it. The run's line and the answer say each, in `check`'s words, also of a
    publication an earlier version made, whose manifest does not say its final seasons (it said
    nothing then: render/changes.py `_upgraded`)."""
    import json

    from reportgen.pipeline import build

    assert build(league.inputs, league.outputs, TODAY).ok  # 2025's final ranking published
    manifest = league.outputs / "grand-sud" / "publications.json"
    published = json.loads(manifest.read_text(encoding="utf-8"))
    assert published["sources"].pop("final") == [2025]  # as an earlier version wrote it
    manifest.write_text(json.dumps(published, ensure_ascii=False, indent=1), encoding="utf-8")
    league.server.append(message(TLSE, "Printemps", [("toulouse.xlsx", workbook(tmp_path, "printemps",
                                                                                 day="14/03/2026", club="TLSE"))]))
    league.server.append(message(ALBI, "Automne", [("albi.xlsx", workbook(tmp_path, "automne", day="21/11/2025",
                                                                          club="ALBI"))], number=2))
    done = league.run()
    assert done.returncode == 0, done.stderr
    replaces = TOULOUSE_REPLACED
    final = "ce tournoi du 21 novembre 2025 change le classement final de la saison 2025, déjà publié"
    lines = done.stdout.splitlines()
    [toulouse] = [line for line in lines if "toulouse.xlsx enregistré" in line]
    [albi] = [line for line in lines if "albi.xlsx enregistré" in line]
    assert f" ; {replaces} ; réponse : " in toulouse, toulouse
    assert (" ; il remplace le tournoi « Tournoi 2025-06-01-albi » du 1er juin 2025, deuxième tournoi "
                         "de la série ALBI en 2025 : seul le dernier de l’année compte (§1) ; 1 joueur du premier, "
                         "absent du second, en perd les points : LÉGER Zoé. S’il s’agit de deux tournois distincts, "
                         f"donnez à l’un une « Série » à lui, dans sa feuille « Tournoi » ; {final} ; réponse : ") in albi, albi
    drafts = {draft["To"]: draft for draft in league.drafts()}
    said = " ".join(body(drafts[TLSE]).split())
    assert ("est enregistré (Classement régional Grand Sud, saison 2026) ; il sera pris en compte au prochain calcul "
            "des classements de la ligue. Il remplace le tournoi « Tournoi 2026-01-10-toulouse » du 10 janvier 2026, "
            "deuxième tournoi de la série TLSE en 2026 : seul le dernier de l’année compte (§1) ; 1 joueur du "
            "premier, absent du second, en perd les points : <SCRIPT>ALERT(1)</SCRIPT> Mallory. S’il s’agit de deux "
            "tournois distincts, donnez à l’un une « Série » à lui, dans sa feuille « Tournoi » ; pour cela, tapez-y, "
            "champ « Série », un nom de votre choix (par exemple « automne », à garder les années suivantes), puis "
            "renvoyez le classeur en réponse à ce message : il remplacera la version enregistrée.") in said, said
    assert "&lt;SCRIPT&gt;ALERT(1)&lt;/SCRIPT&gt; Mallory" in drafts[TLSE].get_body(("html",)).get_content()
    said = " ".join(body(drafts[ALBI]).split())
    assert ("il remplacera la version enregistrée. Ce tournoi du 21 novembre 2025 change le classement final de la "
            "saison 2025, déjà publié ; si sa date est fausse, corrigez-la (feuille « Tournoi », cellule B3) et renvoyez le classeur "
            "en réponse à ce message.") in said, said


def test_the_version_the_answer_asks_for_with_a_series_replaces_the_one_without(league, tmp_path):
    """Toulouse's tournament of 14 March replaced its first of the year; the answer said « S’il s’agit
    de deux tournois distincts, donnez à l’un une « Série » à lui ». Toulouse did, and sent it again in
    reply: filed beside the first version (another series, so another tournament), its results counted
    twice and the January tournament still replaced, `check` saying nothing. The same club's tournament
    of the same name and day is a new version whatever its series: it replaces the one filed."""
    spring = workbook(tmp_path, "printemps", day="14/03/2026", club="TLSE")
    league.server.append(message(TLSE, "Printemps", [("toulouse.xlsx", spring)]))
    assert league.run().returncode == 0
    filed = league.inputs / "grand-sud" / "2026" / "2026-03-14-tlse-tournoi-printemps.xlsx"
    # where to type it and what then: a club that never read the formats could not tell
    assert "donnez à l’un une « Série » à lui, dans sa feuille « Tournoi » ; pour cela, tapez-y, champ « Série », un " \
        "nom de votre choix (par exemple « automne », à garder les années suivantes), puis renvoyez le classeur en " \
        "réponse à ce message : il remplacera la version enregistrée." \
        in " ".join(body(league.drafts()[0]).replace("\u00a0", " ").split())
    series = workbook(tmp_path / "2", "printemps", day="14/03/2026", club="TLSE", extra_fields=[["Série", "TLSE-printemps"]])
    league.server.append(message(TLSE, "Re: Printemps", [("toulouse.xlsx", series)], number=2))
    done = league.run()
    assert done.returncode == 0, done.stderr
    assert [p.name for p in filed.parent.iterdir()] == [filed.name] and filed.read_bytes() == series
    assert (league.archive / "inbox" / "replaced" / "2026-03-14-tlse-2" / filed.relative_to(league.inputs)).read_bytes() \
        == spring
    [answer] = [draft for draft in league.drafts() if draft["In-Reply-To"] == "<re-printemps-2@club.example.org>"]
    said = " ".join(body(answer).split())
    assert "il remplace la version précédente de ce tournoi" in said and "Série" not in said, said
    assert not load(league.inputs, TODAY).all_problems()  # one version of it, the January one kept


def test_a_new_version_of_a_tournament_that_replaces_its_series_first_one_says_so_too(league, tmp_path):
    """Toulouse's spring tournament replaces its January one (§1), which its answer says; Toulouse
    then sends it corrected: the new version's trial scoring met the « two workbooks of one
    tournament » problem between it and the version it replaces (expected, set aside as the club's),
    which stopped the Grand Sud there, and the answer said « il remplace la version précédente »
    alone. Checked as inputs/ will be once it is filed, without that version, it says both."""
    first = workbook(tmp_path, "printemps", day="14/03/2026", club="TLSE")
    league.server.append(message(TLSE, "Printemps", [("toulouse.xlsx", first)]))
    assert league.run().returncode == 0
    corrected = workbook(tmp_path / "corrige", "printemps", day="14/03/2026", club="TLSE",
                         results=[[1, "DURAND", "Anne", "", "Toulouse"], [2, "DUPONT", "Jean", "1001", "Carcassonne"]])
    league.server.append(message(TLSE, "Printemps corrigé", [("toulouse.xlsx", corrected)], number=2))
    done = league.run()
    assert done.returncode == 0, done.stderr
    replaces = TOULOUSE_REPLACED
    [line] = [line for line in done.stdout.splitlines() if "toulouse.xlsx enregistré" in line]
    assert "(remplace " in line and f" ; {replaces} ; réponse : " in line, line
    draft = email.message_from_bytes((league.outputs / "mail" / "inbox" / "2026-03-14-tlse-2.eml").read_bytes(),
                                     policy=email.policy.default)
    said = " ".join(body(draft).split())
    assert ("; il remplace la version précédente de ce tournoi ; il sera pris en compte au prochain calcul des "
            "classements de la ligue. Il remplace le tournoi « Tournoi 2026-01-10-toulouse » du 10 janvier 2026") \
        in said, said


# The day the messages of Albi's autumn tournaments reach the server: once they are played (the
# server's day, not their Date header's 14 March: a correction by reply is never taken for a version
# of a workbook that arrived before its own day, inbox_filing.py `_correction`)
AUTUMN_SENT = dt.datetime(2026, 11, 30, 12, 0, tzinfo=dt.timezone.utc)


def reply(to: EmailMessage | None, answer: str, subject: str, attachments: list[tuple[str, bytes]],
          number: int) -> EmailMessage:
    """A club's reply to the answer whose Message-ID is `answer`, to its message `to` (None: a mail
    program that names the answer alone)."""
    mail = message(ALBI, subject, attachments, number)
    mail["In-Reply-To"] = answer
    mail["References"] = f"{to['Message-ID']} {answer}" if to is not None else answer
    return mail


def test_a_workbook_whose_date_the_club_corrects_in_reply_to_its_answer_replaces_the_wrong_one(league, tmp_path,
                                                                                               smtp):
    """Albi's autumn tournament dated 29/11 by mistake, then sent again dated 28/11 in reply to the
    answer, as the answers invite (« si sa date est fausse, corrigez-la… et renvoyez le classeur en
    réponse à ce message »): it was filed as a second tournament, both in inputs/, the later date (the
    wrong one) replacing the other as the series' edition of the year (§1), `check` saying nothing.
    A reply in the thread of the answer that filed it, of the same club, circuit and name, on a day
    close by (`close_by`; the earlier message arrived on or after its date), is a new version of it:
    the wrong one leaves inputs/ (kept), the answer says which it replaced. The same workbook sent in
    a new message (no reply) is another tournament, as before."""
    league.with_smtp(smtp.port)
    wrong = workbook(tmp_path, "automne", day="29/11/2026", club="ALBI")
    first = message(ALBI, "Automne", [("albi.xlsx", wrong)])
    league.server.append(first, arrived=AUTUMN_SENT)
    assert league.run("--send").returncode == 0
    [sent] = smtp.received
    filed = league.inputs / "grand-sud" / "2026" / "2026-11-29-albi-tournoi-automne.xlsx"
    assert filed.read_bytes() == wrong
    right = workbook(tmp_path / "2", "automne", day="28/11/2026", club="ALBI")
    # the answer named alone: known by the Message-ID the send log keeps
    league.server.append(reply(None, sent.message["Message-ID"], "Re: Automne", [("albi.xlsx", right)], 2), arrived=AUTUMN_SENT)
    done = league.run("--send")
    assert done.returncode == 0, done.stderr
    corrected = league.inputs / "grand-sud" / "2026" / "2026-11-28-albi-tournoi-automne.xlsx"
    assert sorted(filed.parent.iterdir()) == [corrected] and corrected.read_bytes() == right
    assert (league.archive / "inbox" / "replaced" / "2026-11-30-albi-2" / filed.relative_to(league.inputs)).read_bytes() \
        == wrong
    assert f"(remplace {filed}, gardé dans l’archive)" in done.stdout, done.stdout
    said = " ".join(body(smtp.received[1].message).split())
    assert "le tournoi « Tournoi automne » du 28 novembre 2026 est enregistré (Classement régional Grand Sud, saison " \
        "2026) ; il remplace la version du 29 novembre 2026 de ce tournoi ;" in said, said
    assert "la version du 29\u00a0novembre\u00a02026 de ce tournoi" in smtp.received[1].message.get_body(("html",)).get_content()
    assert not [p for p in load(league.inputs, TODAY).all_problems() if "automne" in p.where.path]
    # not a reply: another tournament of the same name, filed beside it
    other = workbook(tmp_path / "3", "automne", day="27/11/2026", club="ALBI")
    league.server.append(message(ALBI, "Automne encore", [("albi.xlsx", other)], 3), arrived=AUTUMN_SENT)
    assert league.run("--send").returncode == 0
    assert len(list(filed.parent.iterdir())) == 2


def test_kill_9_between_filing_a_corrected_date_and_removing_the_wrong_one_then_a_rerun_finishes(league, tmp_path,
                                                                                                   smtp):
    """The corrected workbook (28/11) written in inputs/, the run killed as it removes the wrong one
    (29/11), its version sent before: both stand in inputs/ until the rerun, which removes the wrong
    one, keeps it once in the archive, sends the one answer and files nothing twice."""
    league.with_smtp(smtp.port)
    wrong = workbook(tmp_path, "automne", day="29/11/2026", club="ALBI")
    league.server.append(message(ALBI, "Automne", [("albi.xlsx", wrong)]), arrived=AUTUMN_SENT)
    assert league.run("--send").returncode == 0
    [sent] = smtp.received
    filed = league.inputs / "grand-sud" / "2026" / "2026-11-29-albi-tournoi-automne.xlsx"
    right = workbook(tmp_path / "2", "automne", day="28/11/2026", club="ALBI")
    league.server.append(reply(None, sent.message["Message-ID"], "Re: Automne", [("albi.xlsx", right)], 2), arrived=AUTUMN_SENT)
    # only what touches the wrong file is traced: its removal is the first unlink of it
    killed = league.process("--send", strace=("-P", str(filed), "-e", "inject=unlink,unlinkat:signal=SIGKILL"))
    assert killed.returncode in (-9, 128 + 9), killed.stderr
    corrected = league.inputs / "grand-sud" / "2026" / "2026-11-28-albi-tournoi-automne.xlsx"
    assert corrected.read_bytes() == right and filed.read_bytes() == wrong  # killed between the two
    assert [row[:2] for row in league.rows()] == [(1, "done"), (2, "filing")] and len(smtp.received) == 1
    done = league.run("--send")
    assert done.returncode == 0, done.stderr
    assert sorted(filed.parent.iterdir()) == [corrected] and corrected.read_bytes() == right
    kept = [p for p in (league.archive / "inbox" / "replaced").rglob("*.xlsx")]
    assert [p.read_bytes() for p in kept] == [wrong]
    assert len(smtp.received) == 2 and "il remplace la version du 29 novembre 2026 de ce tournoi" in \
        " ".join(body(smtp.received[1].message).split())
    assert league.run("--send").returncode == 0 and len(smtp.received) == 2  # and again: nothing more


def test_a_reply_is_no_new_version_of_a_workbook_that_arrived_before_its_day(league, tmp_path, smtp):
    """A workbook is sent once its tournament is played: Albi's « Tournoi automne » of 21/11, arrived on
    22/11, is not the one of 27/11 sent in reply to its answer with its date mistyped; that one is
    another tournament of its name (a weekly one), filed beside it, as the day the first message
    arrived (the server's, not its Date header) says."""
    league.with_smtp(smtp.port)
    first = message(ALBI, "Automne", [("albi.xlsx", workbook(tmp_path, "automne", day="21/11/2026", club="ALBI"))])
    league.server.append(first, arrived=dt.datetime(2026, 11, 22, 12, 0, tzinfo=dt.timezone.utc))
    assert league.run("--send").returncode == 0
    [sent] = smtp.received
    later = workbook(tmp_path / "2", "automne", day="27/11/2026", club="ALBI")
    league.server.append(reply(first, sent.message["Message-ID"], "Re: Automne", [("albi.xlsx", later)], 2))
    done = league.run("--send")
    assert done.returncode == 0, done.stderr
    assert sorted(p.name for p in (league.inputs / "grand-sud" / "2026").iterdir()) == [
        "2026-11-21-albi-tournoi-automne.xlsx", "2026-11-27-albi-tournoi-automne.xlsx"]
    assert "il remplace la version" not in " ".join(body(smtp.received[1].message).split())


def test_a_workbook_dated_near_the_day_the_calendar_announced_for_it_says_so_until_corrected(league, tmp_path,
                                                                                             smtp):
    """The calendar announced Albi's Grand Sud tournament on 28/11; Albi's workbook came dated 29/11:
    « enregistré » alone, while the 28/11 tournament stayed awaited (« non reçus »), a reminder to
    come. Its line and its answer say what the calendar announced, and how to correct the date; its
    corrected version, sent in reply, replaces it and is told nothing more. Another club's tournament
    announced close by is no word of Albi's."""
    write_workbook(league.inputs / "calendrier.xlsx", {"Calendrier": [
        ["Date", "Circuit", "Club", "Nom", "Lieu"], ["28/11/2026", "grand-sud", "ALBI", "Automne", "Albi"],
        ["27/11/2026", "grand-sud", "TLSE", "Automne", "Toulouse"]]})
    league.with_smtp(smtp.port)
    wrong = workbook(tmp_path, "automne", day="29/11/2026", club="ALBI")
    first = message(ALBI, "Automne", [("albi.xlsx", wrong)])
    league.server.append(first, arrived=AUTUMN_SENT)
    done = league.run("--send")
    assert done.returncode == 0, done.stderr
    [line] = [line for line in done.stdout.splitlines() if "albi.xlsx enregistré" in line]
    assert " ; le calendrier annonçait ce tournoi le 28 novembre 2026 ; réponse " in line, line
    said = " ".join(body(smtp.received[0].message).split())
    assert ("Le calendrier annonçait ce tournoi le 28 novembre 2026 ; si sa date est fausse, corrigez-la (feuille "
            "« Tournoi », cellule B3) et renvoyez le classeur en réponse à ce message.") in said, said
    assert "27 novembre" not in said and "27 novembre" not in line
    right = workbook(tmp_path / "2", "automne", day="28/11/2026", club="ALBI")
    # an answer she sent by hand from her mail program (another Message-ID): the club's message named
    league.server.append(reply(first, "<by-hand@ligue.example.org>", "Re: Automne", [("albi.xlsx", right)], 2), arrived=AUTUMN_SENT)
    done = league.run("--send")
    assert done.returncode == 0, done.stderr
    assert [p.name for p in (league.inputs / "grand-sud" / "2026").iterdir()] == ["2026-11-28-albi-tournoi-automne.xlsx"]
    said = " ".join(body(smtp.received[1].message).split())
    assert "il remplace la version du 29 novembre 2026 de ce tournoi" in said and "calendrier" not in said, said


def test_a_date_close_by_is_less_than_a_week_or_the_same_day_a_year_off():
    """What a slip of the date may be (`close_by`, for a reply's new version): a few days off, or a
    year mistyped; not a week (a weekly tournament's next one), a month, nor two years."""
    from reportgen.delivery.inbox_filing import close_by

    day = dt.date(2026, 11, 28)
    assert close_by(day, dt.date(2026, 11, 29)) and close_by(dt.date(2026, 12, 4), day)
    assert close_by(dt.date(2025, 11, 28), day) and close_by(day, dt.date(2027, 11, 28))
    # a week apart is a weekly tournament's next one
    assert not close_by(dt.date(2026, 12, 5), day) and not close_by(dt.date(2026, 11, 21), day)
    assert not close_by(dt.date(2026, 12, 6), day) and not close_by(dt.date(2026, 10, 28), day)
    assert not close_by(dt.date(2024, 11, 28), day) and not close_by(dt.date(2025, 11, 27), day)


# The earlier versions of a tournament where no message of the inbox filed any (`decide` called here,
# with no database): none she edited, none compared (a version of hers would be held).
NONE_OF_HERS = Earlier({}, frozenset(), lambda path, kind: None)


def filed_here(inputs: Path, made: Path, name: str, day: str, message: str, thread: dict[str, dt.date] | None = None,
               series: str = "") -> Filed:
    """Albi's Grand Sud workbook `name` dated `day` examined and decided as `inbox` does (`thread`: the
    workbooks the answers it replies to filed, with the day each message arrived), and written where
    it is filed, the versions it replaces removed."""
    from reportgen.delivery.inbox_filing import decide, examine

    data = write_tournament(made, name, day=day, club="ALBI",
                            extra_fields=[["Série", series]] if series else []).read_bytes()
    verdict = examine(inputs, "albi.xlsx", data, TODAY, CLUBS, thread=thread or {})
    filed = decide(verdict, "albi.xlsx", data, "ALBI", message, inputs, NONE_OF_HERS)
    assert filed.status == "accepted", filed
    for replaced in filed.replaced:
        (inputs / replaced.path).unlink()
    (inputs / filed.path).parent.mkdir(parents=True, exist_ok=True)
    (inputs / filed.path).write_bytes(data)
    return filed


def test_a_reply_replaces_one_tournament_of_its_thread_the_nearest_and_never_one_of_its_name_and_day_s_other(
        tmp_path):
    """One message filed Albi's two « Tournoi automne » of 21/11 and 28/11, the answer telling it to give
    one a « Série »; the club replied with the 28/11 one so: both were removed, the 21/11 tournament
    lost. A reply's version of its own name and day replaces that one alone; one of another day
    replaces the single nearest of its thread, its answer naming one date."""
    from reportgen.delivery.inbox_answers import replaced_on

    inputs = tmp_path / "inputs"
    write_clubs(inputs)
    first = [filed_here(inputs, tmp_path / day, "automne", f"{day}/11/2026", "m1") for day in ("21", "28")]
    thread = {filed.path: dt.date(2026, 11, 29) for filed in first}
    reply = filed_here(inputs, tmp_path / "r", "automne", "28/11/2026", "m2", thread, series="automne")
    assert [r.path for r in reply.replaced] == [first[1].path]
    # another day, nothing of its name and day: the nearest alone (29/11 for 28/11, not 22/11)
    inputs = tmp_path / "two" / "inputs"
    write_clubs(inputs)
    first = [filed_here(inputs, tmp_path / "two" / day, "hiver", f"{day}/11/2026", "m1", series=series)
             for day, series in (("22", "a"), ("29", "b"))]
    thread = {filed.path: dt.date(2026, 11, 29) for filed in first}
    reply = filed_here(inputs, tmp_path / "two" / "r", "hiver", "28/11/2026", "m2", thread, series="b")
    assert [r.path for r in reply.replaced] == [first[1].path]
    assert replaced_on(reply) == "29 novembre 2026"


def test_a_reply_never_replaces_another_real_tournament_of_its_name(tmp_path):
    """A reply in a thread replaced whichever tournament of its name was a week or a year away: Albi's
    weekly « Tournoi samedi », announced 21/11 and 28/11, lost its 28/11 one to the 21/11 one sent in
    reply; last year's, in last year's thread, left a season whose final ranking may be published. Not
    a file whose date matched the calendar (it was right), nor one whose message arrived before the
    reply's tournament was played; a year mistyped, sent this year, is still corrected. Nor was the
    28/11 one, matched with its calendar row, told « le calendrier annonçait ce tournoi le 21 novembre »."""
    inputs = tmp_path / "inputs"
    write_clubs(inputs)
    write_workbook(inputs / "calendrier.xlsx", {"Calendrier": [
        ["Date", "Circuit", "Club", "Nom", "Lieu"], ["21/11/2026", "grand-sud", "ALBI", "Tournoi samedi", "Albi"],
        ["28/11/2026", "grand-sud", "ALBI", "Tournoi samedi", "Albi"]]})
    week = filed_here(inputs, tmp_path / "28", "samedi", "28/11/2026", "m1", series="s28")
    assert not week.notes, week.notes
    reply = filed_here(inputs, tmp_path / "21", "samedi", "21/11/2026", "m2", {week.path: dt.date(2026, 11, 29)},
                       series="s21")
    assert reply.replaced == () and (inputs / week.path).exists()
    # a tournament of 21/11/2025, its message arrived on `arrived`, answered with one of 21/11/2026
    for case, arrived, corrected in (("year", dt.date(2025, 11, 22), False),  # last year's: another one
                                     ("typo", dt.date(2026, 11, 22), True)):  # the year mistyped, sent this year
        inputs = tmp_path / case / "inputs"
        write_clubs(inputs)
        first = filed_here(inputs, tmp_path / case / "2025", "annuel", "21/11/2025", "m1")
        reply = filed_here(inputs, tmp_path / case / "2026", "annuel", "21/11/2026", "m2", {first.path: arrived})
        assert [r.path for r in reply.replaced] == ([first.path] if corrected else []), case
        assert (inputs / first.path).exists() != corrected, case


def test_two_series_of_one_tournament_in_one_message_ask_which_counts(tmp_path):
    """Two workbooks in one message, Albi's « Tournoi automne » of 14/11 in two series: both were
    « enregistré » to one path, the second written over the first. Grouped as versions are (one
    organiser's name and day), both are refused: which counts is the club's to say."""
    from reportgen.delivery.inbox_filing import decide, examine, one_version_each

    inputs = tmp_path / "inputs"
    write_clubs(inputs)
    decided = []
    for series in ("x", "y"):
        data = write_tournament(tmp_path / series, "automne", day="14/11/2026", club="ALBI",
                                extra_fields=[["Série", series]]).read_bytes()
        verdict = examine(inputs, f"{series}.xlsx", data, TODAY, CLUBS)
        decided.append((verdict, decide(verdict, f"{series}.xlsx", data, "ALBI", "m1", inputs, NONE_OF_HERS)))
    found = one_version_each(decided, "m1")
    assert [f.status for f in found] == ["refused", "refused"], found
    assert "sont deux versions du tournoi « Tournoi automne »" in found[0].problems[0].message


def test_a_date_fix_two_notes_share_is_said_once():
    """A workbook changing a published final ranking and dated near a day the calendar announced was
    told « si sa date est fausse, corrigez-la (…) et renvoyez le classeur en réponse à ce message » twice
    in one sentence of its answer."""
    from reportgen.delivery.inbox_answers import notes_said
    from reportgen.delivery.inbox_filing import ANNOUNCED_ELSEWHERE, FINAL_CHANGED, NOTE, Said

    fix = "si sa date est fausse, corrigez-la (feuille « Tournoi », cellule B3) et renvoyez le classeur"
    filed = Filed("albi.xlsx", "0" * 64, "accepted", "grand-sud", "Tournoi automne", "2025-11-21", "p.xlsx", (),
                  (Said(None, None, None, "ce tournoi change le classement final", fix, FINAL_CHANGED, NOTE),
                   Said(None, None, None, "le calendrier annonçait ce tournoi le 22 novembre 2025", fix,
                        ANNOUNCED_ELSEWHERE, NOTE)))
    assert [note["fix"] for note in notes_said(filed)] == [fix, ""]
    # held (another club's tournament): its sender is told what filing it would change, never to send
    # it again corrected, which would only hold it again
    held = dataclasses.replace(filed, status="held")
    assert [(note["message"][:40], note["fix"]) for note in notes_said(held)] == [
        ("S’il est enregistré, ce tournoi change l", ""), ("S’il est enregistré, le calendrier annon", "")]
