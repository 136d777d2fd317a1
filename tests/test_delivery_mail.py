"""`reportgen mail`: a draft per club that parses back with the standard `email` package, and
`--send` against a real SMTP server on 127.0.0.1 (aiosmtpd, started by a fixture) that refuses one
recipient with 550, or drops the connection: the others go through, the failures are named, a
later run sends only what failed, and the send log lives in the archive, not in outputs/."""

from __future__ import annotations

import asyncio
import datetime as dt
import os
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
import time
from collections import Counter
from contextlib import contextmanager
from dataclasses import dataclass, field
from email import message_from_bytes, policy
from pathlib import Path

import pytest
from aiosmtpd.smtp import AuthResult

from reportgen import config, french
from reportgen.delivery import database, seasons
from reportgen.delivery import mail as drafts
from reportgen.delivery import send as sending
from reportgen.pipeline import build, score
from reportgen.render import mail as mail_render
from tests.browser import LAID_WORDS, broken_by_the_rule
from tests.builders import TODAY, write_tournament, write_workbook
from tests.ports import smtp_server

REPORTGEN = str(Path(sys.executable).parent / "reportgen")
SENDER = "Ligue Grand Sud <secretariat@example.org>"


# -- a real SMTP server ----------------------------------------------------------------------------

@dataclass
class Received:
    mail_from: str
    rcpt_tos: list[str]
    data: bytes

    @property
    def message(self):
        return message_from_bytes(self.data, policy=policy.default)


@dataclass
class Handler:
    """Accepts everything, except the addresses it is told to refuse (550) or to drop the
    connection on; while `hold` is set, it keeps a message it received without answering."""

    refuse: set[str] = field(default_factory=set)
    drop: set[str] = field(default_factory=set)
    received: list[Received] = field(default_factory=list)
    hold: bool = False
    drop_after_data: set[str] = field(default_factory=set)  # recipients whose message is kept, unanswered

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        if address in self.refuse:
            return f"550 5.1.1 <{address}>: Recipient address rejected: User unknown"
        if address in self.drop:
            server.transport.close()
            return "421 4.4.2 closing"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        self.received.append(Received(envelope.mail_from, list(envelope.rcpt_tos), envelope.original_content))
        while self.hold:
            await asyncio.sleep(0.02)
        if self.drop_after_data & set(envelope.rcpt_tos):
            server.transport.close()
        return "250 Message accepted for delivery"

    def count(self) -> Counter:
        """How many messages each set of recipients received."""
        return Counter(tuple(r.rcpt_tos) for r in self.received)


@pytest.fixture
def smtp():
    handler = Handler()
    controller = smtp_server(handler)
    handler.port = controller.port
    try:
        yield handler
    finally:
        handler.hold = False  # a message held unanswered would keep the server from stopping
        controller.stop()


# -- a small league whose clubs have addresses ----------------------------------------------------

CLUBS = [  # code, name, département, Email
    ["CARC", "Carcassonne", "11", "contact@carc.example.org; president@carc.example.org"],  # two: one message
    ["TLSE", "Toulouse", "31", "secretariat@tlse.example.org"],
    ["ALBI", "Albi", "81", "refuse@albi.example.org"],  # the fixture's server refuses it
    ["MTPL", "Montpellier", "34", ""],
    ["PERP", "Perpignan", "66", "perp@example.org"],
    ["NIME", "Nîmes", "30", ""],
    ["MARS", "Marseille", "13", ""],
]


def set_clubs(inputs: Path, clubs: list[list[str]]) -> None:
    """clubs.xlsx with these addresses (what the bulletins print is unchanged: no rebuild needed)."""
    write_workbook(inputs / "clubs.xlsx", {"Clubs": [["Code", "Nom", "Département", "Email"], *clubs]})


def set_mail(inputs: Path, port: int, extra: str = "") -> None:
    (inputs / config.SETTINGS_FILE).write_text(
        f'[mail]\nhost = "127.0.0.1"\nport = {port}\nsecurity = "none"\nsender = "{SENDER}"\n{extra}',
        encoding="utf-8")


@pytest.fixture
def league(small_league_copy, tmp_path):
    set_clubs(small_league_copy.inputs, CLUBS)
    set_mail(small_league_copy.inputs, 2525)
    return small_league_copy


def plan_of(built, archive: Path, **options) -> drafts.Plan:
    loaded = seasons.load(built.inputs, archive, TODAY)
    return drafts.prepare(loaded, score(loaded), built.outputs, **options)


def send(plan: drafts.Plan, settings: config.Mail, archive: Path, **options) -> sending.Run:
    with sending.SendLog(archive) as log:
        return sending.send(plan, settings, log, **options)


@dataclass
class Ran:
    returncode: int
    stdout: str
    stderr: str


def cli(*args: str, env: dict | None = None) -> Ran:
    """The command in this process (a process of its own costs seconds): its exit code and output
    as `reportgen.cli.main` gives them (a ReportgenError is said on standard error, with its
    `cli.exit_code`)."""
    from typer.testing import CliRunner

    from reportgen.cli import app, exit_code
    from reportgen.model import ReportgenError

    result = CliRunner().invoke(app, list(args), env=env)
    stderr, code = result.stderr, result.exit_code
    if isinstance(result.exception, ReportgenError):
        stderr += str(result.exception) + "\n"
        code = exit_code(result.exception)
    elif result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return Ran(code, result.stdout, stderr)


def mail_args(built, archive: Path, *options: str) -> list[str]:
    return ["mail", "--inputs", str(built.inputs), "--outputs", str(built.outputs), "--archive", str(archive),
            *options]


def mail_command(built, archive: Path, *options: str, env: dict | None = None, process: bool = False) -> Ran:
    args = mail_args(built, archive, *options)
    if process:  # the real command, as the secretary runs it
        done = subprocess.run([REPORTGEN, *args], capture_output=True, text=True, timeout=300, env=env)
        return Ran(done.returncode, done.stdout, done.stderr)
    return cli(*args, env=env)


# -- drafts ---------------------------------------------------------------------------------------

def test_one_draft_per_club_with_an_address_and_players_that_parses_back(league, tmp_path):
    plan = plan_of(league, tmp_path / "archive")
    written = drafts.write_drafts(plan, league.outputs)
    assert plan.season == 2026
    assert sorted(p.name for p in written) == ["ALBI.eml", "CARC.eml", "TLSE.eml"]
    # Clubs without an address are listed, with how many of their players are ranked.
    assert [(club.code, count) for club, count in plan.without_address] == [("MTPL", 0), ("NIME", 0), ("MARS", 0)]
    assert [club.code for club in plan.without_players] == ["PERP"]

    raw = (league.outputs / "mail" / "2026" / "CARC.eml").read_bytes()
    # RFC 2047, the whole subject in encoded words (render/mail.py `Policy`)
    assert raw.isascii() and b"Subject: =?utf-8?q?Bulletins_de_classement_2026_=E2=80=94_Carcassonne?=" in raw
    draft = message_from_bytes(raw, policy=policy.default)
    assert draft["From"] == SENDER
    assert draft["To"] == "contact@carc.example.org, president@carc.example.org"  # both addresses, one message
    assert draft["Subject"] == "Bulletins de classement 2026 — Carcassonne"
    assert draft["Date"].datetime == dt.datetime(2026, 1, 10, 9, tzinfo=dt.timezone.utc)  # the bulletin's date
    assert draft["Message-ID"].endswith("@reportgen.invalid>")
    assert draft["X-Unsent"] == "1"  # Outlook opens it ready to send, not as a message received
    text = draft.get_body(("plain",)).get_content()
    html = draft.get_body(("html",)).get_content()
    # from the latest dated bulletin (issue 27); places as the site says them (« (évolution : −2) »
    # right after the points read like points), since the ranking its bulletin names
    assert "3e place\u00a0: DUPONT Jean, 520 points (▼ 2 places perdues)\n" in text
    assert "\nPlaces gagnées ou perdues depuis le classement final 2025.\n" in text
    assert ('<td style="padding: 3px 5px; overflow-wrap: anywhere; word-break: break-word;">'
            '<span style="display: inline-block">DUPONT</span> '
            '<span style="display: inline-block">Jean</span></td>\n<td style="text-align: right; padding: 3px 5px;">520</td>\n'
            '<td style="padding: 3px 5px; white-space: nowrap;">▼ 2</td>') in html
    assert "avec la place des joueurs du club de Carcassonne." in text and "joueurs du club de Carcassonne.</p>" in html
    attachment, own = list(draft.iter_attachments())  # the bulletin, then the club's own (test_club_bulletin.py)
    assert (attachment.get_filename(), own.get_filename()) == ("grand-sud-classement-2026-01-10.pdf",
                                                               "bulletin-CARC-2026.pdf")
    assert attachment.get_content_type() == "application/pdf"
    assert attachment.get_content() == (league.outputs / "grand-sud" / "2026" / "classement-2026-01-10.pdf").read_bytes()

    albi = message_from_bytes((league.outputs / "mail" / "2026" / "ALBI.eml").read_bytes(), policy=policy.default)
    albi_text = albi.get_body(("plain",)).get_content()
    assert "MARTIN Paul, 575 points" in albi_text and "=SOMME(A1:A9) Hacker" in albi_text
    assert "avec la place des joueurs du club d’Albi." in albi_text  # elided before a vowel
    toulouse = message_from_bytes((league.outputs / "mail" / "2026" / "TLSE.eml").read_bytes(), policy=policy.default)
    # A name from a workbook is data: escaped in the HTML part, as typed in the plain one.
    assert ('<span style="display: inline-block">&lt;SCRIPT&gt;ALERT(1)&lt;/SCRIPT&gt;</span> '
            '<span style="display: inline-block">Mallory</span>') in toulouse.get_body(("html",)).get_content()
    assert "<SCRIPT>ALERT(1)</SCRIPT> Mallory" in toulouse.get_body(("plain",)).get_content()



# Each « Évolution » cell of a mail's tables (its heading « Évol. »): its text and how many lines it is drawn on (the tops of
# its text's boxes)
EVOLUTION_LINES = r"""() => Array.from(document.querySelectorAll('table'), table => {
  const column = Array.from(table.tHead.rows[0].cells).findIndex(th => th.querySelector('abbr[title=Évolution]'));
  return column < 0 ? [] : Array.from(table.tBodies[0].rows, row => {
    const range = document.createRange();
    range.selectNodeContents(row.cells[column]);
    return [row.cells[column].textContent, new Set(Array.from(range.getClientRects(), r => Math.round(r.top))).size];
  });
}).flat()"""


def test_a_club_s_mail_shows_each_evolution_on_one_line_on_a_phone(league, tmp_path, browser):
    """At 390 px a club's mail drew « ▼ 2 places perdues » on two or three lines, each row as tall:
    the cell shows « ▼ 2 », as the bulletins and the site do, and the words under the table say what
    ▲ and ▼ are, as the bulletin's legend does (the plain text part keeps the words on each line)."""
    plan = plan_of(league, tmp_path / "archive")
    shown = []
    for code in ("CARC", "TLSE"):
        # the message's HTML as drafts.message makes it (without the club's own bulletin, a PDF)
        _, html = mail_render.bodies(drafts.TEMPLATE, drafts.context(plan, next(m for m in plan.clubs if m.club.code == code), []))
        page = tmp_path / f"{code}.html"
        page.write_text(html, encoding="utf-8")
        for width in (390, 1280):
            found = browser.look(page, tmp_path, width, audit=False)
            assert found.scroll_width <= width  # no sideways scrolling
            shown += browser.pages[width].evaluate(EVOLUTION_LINES)
    assert all(lines == 1 for _, lines in shown), shown
    assert {text for text, _ in shown} == {"▼ 2", "nouveau"}, shown
    assert ("Évolution\u00a0: places gagnées ▲ ou perdues ▼ depuis le classement final 2025.</p>"
            in html), html


def test_a_hyphenated_first_name_in_a_club_s_mail_is_not_broken_at_its_hyphen(league, tmp_path, browser):
    """At 390 px a club's mail broke « LAMBERT Anne-Sophie » at its hyphen, « Anne- » over « Sophie »,
    where the site keeps such a word whole (site/lines.py `player_name`): the mail keeps it whole
    too, with an inline style (a mail has no stylesheet), the name still escaped; a name too long
    for the column wraps between its words."""
    plan = plan_of(league, tmp_path / "archive")
    context = drafts.context(plan, next(m for m in plan.clubs if m.club.code == "CARC"), [])
    context["rankings"][0]["rows"][0]["player"] = "DUPONT-CASTELNAU Anne-Sophie <b>"
    _, html = mail_render.bodies(drafts.TEMPLATE, context)
    assert ('<span style="display: inline-block"><span style="display: inline-block">DUPONT-CASTELNAU</span></span> '
            '<span style="display: inline-block"><span style="display: inline-block">Anne-Sophie</span> &lt;b&gt;</span>'
            ) in html
    page = tmp_path / "CARC.html"
    page.write_text(html, encoding="utf-8")
    found = browser.look(page, tmp_path, 390, audit=False)
    assert found.scroll_width <= 390
    laid = browser.pages[390].evaluate(LAID_WORDS, ["DUPONT-CASTELNAU", "Anne-Sophie"])
    assert [(shown["word"], shown["lines"], shown["fits"]) for shown in laid] == [
        ("DUPONT-CASTELNAU", 1, True), ("Anne-Sophie", 1, True)]
    assert broken_by_the_rule(("CARC",), laid, 390) == set()


# Each row of a mail's tables: its place, the lines the place is drawn on, and each box of the player's
# name (surname, first name) with the top and bottom of its text
ROWS = r"""() => Array.from(document.querySelectorAll('tbody tr'), row => {
  const range = document.createRange();
  range.selectNodeContents(row.cells[0]);
  const tops = new Set(Array.from(range.getClientRects(), r => Math.round(r.top)));
  const boxes = Array.from(row.cells[1].querySelectorAll(':scope > span'), box => {
    const drawn = box.getBoundingClientRect();
    return [box.textContent, Math.round(drawn.top), Math.round(drawn.bottom)];
  });
  return [row.cells[0].textContent, tops.size, boxes];
})"""


def test_a_shared_137th_place_and_long_names_in_a_club_s_mail_on_a_phone(league, tmp_path, browser):
    """At 390 px a club's mail drew « 137e ex aequo » on three lines of its Place column and broke a
    long name anywhere between its words (« VAN DEN » over « BERGHE Jean-Baptiste »). The place stays
    on one line (an inline style: a mail program may drop a <style>); a name breaks between its
    surname and its first name first, within one only when it is longer than the column, at a hyphen
    only when that word is; the mail is no wider than the phone. At 1280 px each row is one line.
    « Évolution » over « ▼ 2 » took 86 px of the 390, and the names' column lacked them: « DE LA » over
    « FONTAINE », « Marie- » over « Bérénice »; headed « Évol. » (its <abbr>'s title the whole word), it
    leaves the column room for each surname and each first name on a line of its own.
    A real league: two Carcassonne players, each 18th of a tournament of 32 new players (no seeds:
    the same points), share the 137th place of the Grand Sud ranking."""
    names = [("VAN DEN BERGHE", "Jean-Baptiste"), ("DE LA FONTAINE", "Marie-Bérénice")]
    clubs = [[f"C{k}", f"Club {k}", "31", ""] for k in range(8)]  # a series per club: a club's next one replaces it
    set_clubs(league.inputs, CLUBS + clubs)
    for k in range(8):
        rows = [[n, f"T{k}JOUEUR{n:02d}", "Jean", "", "Montpellier"] for n in range(1, 12 if k == 7 else 33)]
        if k < 2:
            rows[17][1:] = [*names[k], "", "Carcassonne"]
        write_tournament(league.inputs, f"2026-04-0{k + 1}-c{k}", day=f"0{k + 1}/04/2026", club=f"C{k}", results=rows)
    assert build(league.inputs, league.outputs, TODAY).ok
    plan = plan_of(league, tmp_path / "archive")
    context = drafts.context(plan, next(m for m in plan.clubs if m.club.code == "CARC"), [])
    assert [(row["rank"], row["player"]) for row in context["rankings"][0]["rows"]][1:] == [
        ("137e ex aequo", " ".join(names[0])), ("137e ex aequo", " ".join(names[1]))]
    _, html = mail_render.bodies(drafts.TEMPLATE, context)
    page = tmp_path / "CARC.html"
    page.write_text(html, encoding="utf-8")
    for width in (390, 1280):
        found = browser.look(page, tmp_path, width, audit=False)
        assert found.scroll_width <= width  # no sideways scrolling
        rows = browser.pages[width].evaluate(ROWS)[1:]
        assert [(place, lines) for place, lines, _ in rows] == [("137e ex aequo", 1)] * 2, rows
        for (_, _, boxes), name in zip(rows, names):
            (surname, top, bottom), (first, first_top, first_bottom) = boxes
            assert (surname, first) == name
            if width == 390:  # the first name under the surname, each on one line (as tall as the other)
                assert first_top >= bottom and bottom - top == first_bottom - first_top, boxes
            else:
                assert first_top == top, boxes
    laid = browser.pages[390].evaluate(LAID_WORDS, ["Jean-Baptiste", "Marie-Bérénice"])
    assert [shown["word"] for shown in laid] == ["Jean-Baptiste", "Marie-Bérénice"], laid
    assert broken_by_the_rule(("CARC",), laid, 390) == set()  # each fits its column, whole
    assert '<abbr title="Évolution">Évol.</abbr></th>' in html


def test_a_name_wider_than_its_column_breaks_inside_itself_and_the_mail_never_scrolls(league, tmp_path, browser):
    """At 390 px a word of a name wider than the Joueur column (« WOLFESCHLEGELSTEINHAUSENBERGERDORFF »,
    or « DUPONT-CASTELNAU » beside « 137e ex aequo ») widened the table and the whole mail scrolled
    sideways: such a word now breaks inside itself (an inline style: a mail has no stylesheet), a
    hyphenated one at its hyphen, once the name broke between its surname and its first name; a word
    that fits its column stays whole (« Jean-Baptiste »), the place on one line. At 1280 px each name is
    on one line. The real message of a real league's club, its players renamed."""
    from dataclasses import replace

    plan = plan_of(league, tmp_path / "archive")
    drafts.write_club_bulletins(plan)
    club_mail = next(m for m in plan.clubs if m.club.code == "CARC")
    circuit = club_mail.bulletins[0].circuit
    row = club_mail.players[circuit][0]
    long_word = "WOLFESCHLEGELSTEINHAUSENBERGERDORFF"
    names = [f"{long_word} Hubert", long_word, "DUPONT Jean-Baptiste", "DUPONT-CASTELNAU Anne"]  # the second: no box
    club_mail.players[circuit] = [replace(row, rank=137, tied=True, player=name) for name in names]
    message = drafts.message(plan, club_mail)
    page = tmp_path / "CARC.html"
    page.write_text(message.html, encoding="utf-8")
    words = [long_word, "Hubert", "DUPONT", "Jean-Baptiste", "DUPONT-CASTELNAU", "Anne"]
    for width in (390, 1280):
        found = browser.look(page, tmp_path, width, audit=False)
        assert found.scroll_width == width  # no sideways scrolling
        laid = browser.pages[width].evaluate(LAID_WORDS, words)
        assert {shown["word"] for shown in laid} == set(words), laid
        # each word within its cell, whole when it fits; the long word broken inside itself, « DUPONT- » over
        # « CASTELNAU », longer than the column
        broken = broken_by_the_rule(("CARC", width), laid, width, whole=width == 1280)
        assert broken == ({(390, long_word), (390, "DUPONT-CASTELNAU")} if width == 390 else set()), laid
        rows = browser.pages[width].evaluate(ROWS)
        assert [[box for box, *_ in boxes] for *_, boxes in rows] == [
            [long_word, "Hubert"], [], ["DUPONT", "Jean-Baptiste"], ["DUPONT-CASTELNAU", "Anne"]]
        for *_, boxes in rows:  # at 390 px the first name under the surname, on a line of its own
            if boxes:
                (_, top, bottom), (_, first_top, _) = boxes
                assert first_top >= bottom if width == 390 else first_top == top, boxes
        assert [(place, tops) for place, tops, _ in rows] == [("137e ex aequo", 1)] * 4
    assert f"  137e place ex aequo\u00a0: {long_word} Hubert, " in message.text  # the text part as typed


def test_each_attached_file_s_name_stays_on_one_line_unless_longer_than_the_line(league, tmp_path, browser):
    """At 390 px a club's mail broke the attached files' names at their hyphens, « grand- » at a line's
    end, « sud-classement-2026-01-10.pdf » on the next: each name is now a box of its own (an inline
    style) with the mark after it (« , » or « . »: outside the box, a full stop after a name as wide as
    the line took a line of its own), on one line when it fits, after the line's break; only a name
    longer than the line breaks, within it, and the mail never scrolls sideways. The real message of a real league's club (its
    bulletin and its own), then several circuits' bulletins and a name longer than a phone's line."""
    plan = plan_of(league, tmp_path / "archive")
    drafts.write_club_bulletins(plan)
    club_mail = next(m for m in plan.clubs if m.club.code == "CARC")
    real = drafts.message(plan, club_mail).html
    too_long = "grand-sud-classement-apres-le-tournoi-de-carcassonne-du-10-janvier-2026-annexe-complete.pdf"
    files = ["grand-sud-classement-2026-01-10.pdf", "tour-de-france-classement-final-2026.pdf", "masters-2026.pdf",
             too_long]
    _, several = mail_render.bodies(drafts.TEMPLATE, drafts.context(plan, club_mail, files))
    # each name with its mark (« , » or « . »: a word of its own)
    named = {"real": ["grand-sud-classement-2026-01-10.pdf.", "bulletin-CARC-2026.pdf."],
             "several": [f"{name}," for name in files[:3]] + [f"{too_long}."]}
    for name, html in (("real", real), ("several", several)):
        page = tmp_path / f"{name}.html"
        page.write_text(html, encoding="utf-8")
        for width in (390, 1280):
            found = browser.look(page, tmp_path, width, audit=False)
            assert found.scroll_width == width  # no sideways scrolling
            laid = browser.pages[width].evaluate(LAID_WORDS, named[name])
            assert sorted(shown["word"] for shown in laid) == sorted(named[name]), laid
            # each name on one line, its mark after it; the one longer than a phone's line broken within it
            broken = broken_by_the_rule((name, width), laid, width, whole=width == 1280)
            assert broken == ({(390, f"{too_long}.")} if (name, width) == ("several", 390) else set()), laid


def test_a_provisional_ranking_says_so_under_its_title_as_its_bulletin_does(league, tmp_path):
    """A tournament the calendar announced before the latest ranking, its workbook not received:
    what the bulletin notes (« provisoire : résultats de Toulouse du 3 janvier attendus », its
    context's `awaited`) is the line under the ranking's title in both bodies, a sentence of its own
    (it began in lower case), and, to the club that owes those results, its own workbook awaited (it
    read « résultats de Toulouse … attendus » in Toulouse's mail); a ranking that awaits nothing has
    none."""
    from tests.test_calendar import write_calendar

    write_calendar(league.inputs, [["03/01/2026", "grand-sud", "TLSE", "Galette de Toulouse", "Toulouse"],
                                   ["05/01/2026", "grand-sud", "ALBI", "", "Albi"]])
    plan = plan_of(league, tmp_path / "archive")
    plan.own = {}  # the club's own PDF is not what this test reads
    [bulletin] = [b for b in plan.bulletins if b.circuit == "grand-sud"]
    assert bulletin.document.context["awaited"] == ("provisoire : résultats de Toulouse du 3 janvier et d’Albi du "
                                                    "5 janvier attendus")
    title = french.dates_kept(bulletin.document.title)
    said = {"CARC": "Classement provisoire : les résultats de Toulouse du 3 janvier et d’Albi du 5 janvier sont "
                    "attendus.",
            "TLSE": "Classement provisoire : votre classeur du 3 janvier est attendu, ainsi que les résultats "
                    "d’Albi du 5 janvier. Pour l’envoyer, répondez à ce message en le joignant."}
    for code, words in said.items():
        message = drafts.message(plan, next(c for c in plan.clubs if c.club.code == code))
        # its long dates and its « : » unbroken (french.dates_kept, typography)
        note = french.dates_kept(french.typography(words))
        assert f"— {title}\n{note}\n" in message.text
        assert f"{title}<br><span style=\"color: #9a3412; font-weight: 600;\">{note}</span></p>" in (message.html or "")
    write_calendar(league.inputs, [["03/01/2026", "grand-sud", "TLSE", "Galette de Toulouse", "Toulouse"]])
    plan = plan_of(league, tmp_path / "archive")
    plan.own = {}
    own = drafts.message(plan, next(c for c in plan.clubs if c.club.code == "TLSE"))
    alone = "Classement provisoire : votre classeur du 3 janvier est attendu. Pour l’envoyer, répondez à ce message en le joignant."
    assert f"\n{french.dates_kept(french.typography(alone))}\n" in own.text

    write_calendar(league.inputs, [])  # nothing awaited: no note
    plan = plan_of(league, tmp_path / "archive")
    plan.own = {}
    calm = drafts.message(plan, next(c for c in plan.clubs if c.club.code == "CARC"))
    assert "provisoire" not in calm.text and "provisoire" not in (calm.html or "")


def test_a_mail_says_the_results_its_ranking_awaits_on_the_day_it_is_written_as_the_site_does(league, tmp_path):
    """Cahors's mail of 7 December reported the ranking of 14 November and said nothing of Cahors's
    own tournament of 28 November, its workbook awaited, while the site said « Provisoire : résultats
    de Cahors du 28 novembre attendus » beside that ranking: the mail awaited what the bulletin's date
    awaited. Here the latest bulletin is of 10 January, Toulouse's tournament of 20 January is
    announced, and the mail is written on 29 November: Carcassonne is told Toulouse's results are
    awaited, Toulouse that its own workbook is, and how to send it."""
    from tests.test_calendar import write_calendar

    write_calendar(league.inputs, [["20/01/2026", "grand-sud", "TLSE", "Galette de Toulouse", "Toulouse"]])
    assert build(league.inputs, league.outputs, TODAY).ok
    season = (league.outputs / "site" / "grand-sud-2026.html").read_text()
    assert "Provisoire\u00a0: résultats de Toulouse du 20\u00a0janvier attendus." in season
    plan = plan_of(league, tmp_path / "archive")
    plan.own = {}  # the club's own PDF is not what this test reads
    [bulletin] = [b for b in plan.bulletins if b.circuit == "grand-sud"]
    assert bulletin.document.date == dt.date(2026, 1, 10) and "awaited" not in bulletin.document.context
    said = {"CARC": "Classement provisoire : les résultats de Toulouse du 20 janvier sont attendus.",
            "TLSE": "Classement provisoire : votre classeur du 20 janvier est attendu. Pour l’envoyer, répondez "
                    "à ce message en le joignant."}
    for code, words in said.items():
        message = drafts.message(plan, next(c for c in plan.clubs if c.club.code == code))
        note = french.dates_kept(french.typography(words))
        assert f"\n{note}\n" in message.text, message.text
        assert f"<span style=\"color: #9a3412; font-weight: 600;\">{note}</span>" in (message.html or "")


def test_drafts_are_reproducible_and_a_club_no_longer_mailed_loses_its_draft(league, tmp_path):
    plan = plan_of(league, tmp_path / "archive")
    drafts.write_drafts(plan, league.outputs)
    first = {p.name: p.read_bytes() for p in (league.outputs / "mail" / "2026").iterdir()}
    drafts.write_drafts(plan_of(league, tmp_path / "archive"), league.outputs)
    assert {p.name: p.read_bytes() for p in (league.outputs / "mail" / "2026").iterdir()} == first
    set_clubs(league.inputs, [[*club[:3], "" if club[0] == "TLSE" else club[3]] for club in CLUBS])
    drafts.write_drafts(plan_of(league, tmp_path / "archive"), league.outputs)
    assert sorted(p.name for p in (league.outputs / "mail" / "2026").iterdir()) == ["ALBI.eml", "CARC.eml"]


def test_the_drafts_of_one_circuit_and_season(league, tmp_path):
    plan = plan_of(league, tmp_path / "archive", season=2025, circuit="grand-sud")
    written = drafts.write_drafts(plan, league.outputs)
    assert [p.relative_to(league.outputs).as_posix() for p in written] == [
        "mail/2025/grand-sud/CARC.eml", "mail/2025/grand-sud/TLSE.eml", "mail/2025/grand-sud/ALBI.eml"]
    draft = message_from_bytes(written[2].read_bytes(), policy=policy.default)
    # One circuit's club bulletin is not the club's bulletin of every circuit: its name says which.
    assert [a.get_filename() for a in draft.iter_attachments()] == ["grand-sud-classement-final-2025.pdf",
                                                                     "grand-sud-bulletin-ALBI-2025.pdf"]
    text = draft.get_body(("plain",)).get_content()
    assert "2e place\u00a0: MARTIN Paul" in text and "4e place\u00a0: LÉGER Zoé" in text


def test_stale_outputs_are_never_mailed(league, tmp_path):
    pdf = league.outputs / "grand-sud" / "2026" / "classement-2026-01-10.html"
    pdf.write_text(pdf.read_text(encoding="utf-8").replace("DUPONT", "DUPOND"), encoding="utf-8")
    plan = plan_of(league, tmp_path / "archive")
    assert plan.problems and "classement-2026-01-10.html : absent ou pas à jour" in plan.problems[0]
    result = mail_command(league, tmp_path / "archive")
    assert result.returncode == 1 and "lancez « make »" in result.stderr
    assert not (league.outputs / "mail").exists()


def test_a_circuit_whose_players_have_no_club_says_so_not_that_every_club_has_no_player(league, tmp_path,
                                                                                        new_tournament_league):
    """The Tour de France names no club: `mail --circuit tour-de-france` listed every club of the
    league as « sans joueur »; a circuit with no bulletin for the clubs was « aucun classement publié »."""
    from reportgen.pipeline import build
    from tests.test_reading import write_diplomacy

    write_diplomacy(league.inputs, "diplomatie", [[1, "A", "Un", ""], [2, "B", "Deux", ""]])
    assert build(league.inputs, league.outputs, TODAY).ok
    done = mail_command(league, tmp_path / "archive", "--circuit", "tour-de-france", "--season", "2005")
    assert done.returncode == 0, done.stderr
    assert "Ces classements (tour-de-france) ne nomment aucun club : il n’y a rien à envoyer aux clubs" in done.stdout
    assert "Clubs sans joueur" not in done.stdout
    none = mail_command(league, tmp_path / "archive", "--circuit", "masters")
    assert none.returncode == 1
    assert f"aucun bulletin de classement masters à envoyer aux clubs dans {league.outputs}" in none.stderr


def test_without_a_mail_table_drafts_are_written_and_send_says_what_to_add(league, tmp_path):
    (league.inputs / config.SETTINGS_FILE).unlink()
    drafted = mail_command(league, tmp_path / "archive")
    assert drafted.returncode == 0, drafted.stderr
    assert "Saison 2026 : 3 brouillons" in drafted.stdout
    assert "From" not in message_from_bytes((league.outputs / "mail" / "2026" / "CARC.eml").read_bytes())
    result = mail_command(league, tmp_path / "archive", "--send")
    assert result.returncode == 1
    assert "2 problèmes à corriger dans reportgen.toml :" in result.stderr
    assert ("reportgen.toml, table [mail] : le réglage « host » manque dans la table [mail] : l’envoi (--send) en a "
            "besoin — ajoutez la ligne host = \"smtp.example.org\" sous [mail]") in result.stderr
    assert "les brouillons, sans --send, n’en ont pas besoin" in result.stderr
    assert 'security = "starttls"' in result.stderr


def test_the_clubs_without_an_address_are_listed_with_the_cell_it_goes_in(league, tmp_path):
    """« Clubs sans adresse (colonne Email de clubs.xlsx vide) » named no cell, where every other
    message names it (model.in_sheet): each club is listed with its empty cell."""
    drafted = mail_command(league, tmp_path / "archive")
    assert drafted.returncode == 0, drafted.stderr
    assert ("Clubs sans adresse, rien n’est préparé pour eux : Montpellier (aucun joueur classé ; rien dans "
            "clubs.xlsx, feuille « Clubs », cellule D5), Nîmes (aucun joueur classé ; rien dans clubs.xlsx, feuille "
            "« Clubs », cellule D7), Marseille (aucun joueur classé ; rien dans clubs.xlsx, feuille « Clubs », "
            "cellule D8)\n") in drafted.stdout, drafted.stdout


# -- sending --------------------------------------------------------------------------------------

def test_send_refused_recipient_is_reported_the_others_go_through_and_a_second_run_sends_nothing(
        league, tmp_path, smtp):
    archive = tmp_path / "archive"
    set_mail(league.inputs, smtp.port)
    smtp.refuse = {"refuse@albi.example.org"}

    first = mail_command(league, archive, "--send", process=True)
    assert first.returncode == 1, first.stderr
    assert "[1/3] Carcassonne (contact@carc.example.org, president@carc.example.org) : envoyé" in first.stdout
    assert "[3/3] Albi (refuse@albi.example.org) : ÉCHEC" in first.stdout
    assert ("Albi (refuse@albi.example.org) : 550 5.1.1 <refuse@albi.example.org>: Recipient address rejected: "
            "User unknown") in first.stderr
    assert "Traceback" not in first.stderr
    by_club = {tuple(r.rcpt_tos): r for r in smtp.received}
    assert set(by_club) == {("contact@carc.example.org", "president@carc.example.org"),
                            ("secretariat@tlse.example.org",)}
    carcassonne = by_club[("contact@carc.example.org", "president@carc.example.org")]
    assert carcassonne.mail_from == "secretariat@example.org"
    message = carcassonne.message
    assert message["From"] == SENDER and message["Subject"] == "Bulletins de classement 2026 — Carcassonne"
    assert message["To"] == "contact@carc.example.org, president@carc.example.org"
    assert message["Date"].datetime.date() != dt.date(2026, 1, 10)  # sent now, not on the bulletin's date
    assert message["Message-ID"].endswith("@example.org>")
    assert [a.get_filename() for a in message.iter_attachments()] == ["grand-sud-classement-2026-01-10.pdf",
                                                                      "bulletin-CARC-2026.pdf"]
    # The message sent is the draft, but for its Date and Message-ID, and the draft's mark.
    assert message["X-Unsent"] is None
    draft = (league.outputs / "mail" / "2026" / "CARC.eml").read_bytes()
    assert without_date_and_id(carcassonne.data) == without_date_and_id(draft).replace(b"X-Unsent: 1\n", b"", 1)

    # A second run sends only what failed: Albi, refused again.
    second = mail_command(league, archive, "--send")
    assert second.returncode == 1
    assert "[1/1] Albi (refuse@albi.example.org) : ÉCHEC" in second.stdout
    assert "2 clubs avaient déjà tout reçu" in second.stdout
    assert len(smtp.received) == 2

    # The address works now: Albi alone receives its bulletin; then nothing is left to send.
    smtp.refuse = set()
    third = mail_command(league, archive, "--send")
    assert third.returncode == 0, third.stderr
    assert [tuple(r.rcpt_tos) for r in smtp.received[2:]] == [("refuse@albi.example.org",)]
    fourth = mail_command(league, archive, "--send")
    assert fourth.returncode == 0 and "aucun message envoyé, 3 clubs avaient déjà tout reçu" in fourth.stdout
    assert len(smtp.received) == 3

    # --resend sends everything again.
    again = mail_command(league, archive, "--send", "--resend")
    assert again.returncode == 0 and len(smtp.received) == 6


def without_date_and_id(data: bytes) -> bytes:
    """A message's bytes, LF line ends, without its Date and Message-ID headers."""
    lines = data.replace(b"\r\n", b"\n").split(b"\n")
    return b"\n".join(line for line in lines if not line.startswith((b"Date: ", b"Message-ID: ")))


def test_the_send_log_is_in_the_archive_so_a_new_outputs_folder_sends_nothing_twice(league, tmp_path, smtp):
    archive = tmp_path / "archive"
    set_mail(league.inputs, smtp.port)
    assert mail_command(league, archive, "--send").returncode == 0
    assert len(smtp.received) == 3
    # outputs/ deleted and rebuilt (the same files): the log was never in it.
    kept = tmp_path / "kept"
    shutil.copytree(league.outputs, kept)
    shutil.rmtree(league.outputs)
    shutil.copytree(kept, league.outputs, ignore=shutil.ignore_patterns("mail"))
    assert not [p for p in league.outputs.rglob("*") if p.suffix in (".sqlite", ".db", ".json")
                and p.name not in ("publications.json", "site.json", "corrections.json")]  # the site's data
    result = mail_command(league, archive, "--send")
    assert result.returncode == 0 and "aucun message envoyé, 3 clubs avaient déjà tout reçu" in result.stdout
    assert len(smtp.received) == 3
    log = database.connect(archive, create=False)
    rows = log.execute("SELECT club_code, address, bulletin, status FROM sending ORDER BY id").fetchall()
    log.close()
    assert [tuple(row) for row in rows] == [
        ("CARC", "contact@carc.example.org", "2026/classement-2026-01-10", "sent"),
        ("CARC", "president@carc.example.org", "2026/classement-2026-01-10", "sent"),
        ("TLSE", "secretariat@tlse.example.org", "2026/classement-2026-01-10", "sent"),
        ("ALBI", "refuse@albi.example.org", "2026/classement-2026-01-10", "sent")]


def test_bulletins_sent_under_their_former_names_are_not_sent_again_under_the_new_ones(league, tmp_path, smtp,
                                                                                       monkeypatch):
    """The attachments were once named after the PDF alone (« classement-2026-01-10.pdf »), now
    after their circuit too: the send log knows a bulletin by its circuit, path and ranking, never
    by a name, so what went out under the former names is not sent again under the new ones."""
    archive = tmp_path / "archive"
    set_mail(league.inputs, smtp.port)
    with monkeypatch.context() as former:
        former.setattr(drafts.Bulletin, "filename", property(lambda bulletin: bulletin.pdf.name))
        first = mail_command(league, archive, "--send")
    assert first.returncode == 0, first.stderr
    names = {a.get_filename() for r in smtp.received for a in r.message.iter_attachments()}
    assert "classement-2026-01-10.pdf" in names and len(smtp.received) == 3
    again = mail_command(league, archive, "--send")
    assert again.returncode == 0 and "aucun message envoyé, 3 clubs avaient déjà tout reçu" in again.stdout
    assert len(smtp.received) == 3
    # Asked, it goes out again, under the new name.
    resent = mail_command(league, archive, "--send", "--resend", "--club", "TLSE")
    assert resent.returncode == 0 and len(smtp.received) == 4
    assert [a.get_filename() for a in smtp.received[3].message.iter_attachments()] == [
        "grand-sud-classement-2026-01-10.pdf", "bulletin-TLSE-2026.pdf"]


def test_a_corrected_ranking_is_a_new_bulletin_and_a_new_address_gets_what_it_lacks(league, tmp_path, smtp):
    archive = tmp_path / "archive"
    set_mail(league.inputs, smtp.port)
    plan = plan_of(league, archive)
    settings = config.Mail(host="127.0.0.1", port=smtp.port, security="none", sender=SENDER)
    outcomes = send(plan, settings, archive).outcomes
    assert all(o.ok for o in outcomes) and len(smtp.received) == 3
    # Carcassonne gives a third address: only that address is sent the bulletin.
    set_clubs(league.inputs, [[*CLUBS[0][:3], CLUBS[0][3] + "; tresorier@carc.example.org"], *CLUBS[1:]])
    run = send(plan_of(league, archive), settings, archive)
    assert [o.to for o in run.outcomes] == [("tresorier@carc.example.org",)] and run.up_to_date == 2
    # The same path with another ranking (the season went on) is sent again.
    changed = plan_of(league, archive)
    bulletin = changed.clubs[0].bulletins[0]
    changed.clubs[0].bulletins[0] = drafts.Bulletin(bulletin.circuit, bulletin.title, bulletin.ranking,
                                                    bulletin.document, bulletin.pdf, "0" * 64)
    outcomes = send(changed, settings, archive).outcomes
    assert [o.club for o in outcomes] == ["Carcassonne"] and len(outcomes[0].to) == 3


def test_a_dropped_connection_does_not_stop_the_others(league, tmp_path, smtp):
    archive = tmp_path / "archive"
    set_mail(league.inputs, smtp.port)
    set_clubs(league.inputs, [[*c[:3], "drop@tlse.example.org"] if c[0] == "TLSE" else c for c in CLUBS])
    smtp.drop = {"drop@tlse.example.org"}
    result = mail_command(league, archive, "--send")
    assert result.returncode == 1
    assert "Toulouse (drop@tlse.example.org) : la connexion au serveur a été coupée" in result.stderr
    # Carcassonne before, and Albi after the cut (on a new connection), went through.
    assert sorted(tuple(r.rcpt_tos) for r in smtp.received) == [
        ("contact@carc.example.org", "president@carc.example.org"), ("refuse@albi.example.org",)]


def test_a_server_that_does_not_answer_fails_every_club_and_says_so(league, tmp_path):
    with socket.socket() as silent:  # bound and never listening: refused, and no other test (xdist) can take it
        silent.bind(("127.0.0.1", 0))
        set_mail(league.inputs, silent.getsockname()[1])
        result = mail_command(league, tmp_path / "archive", "--send")
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert result.stderr.count("ne répond pas comme prévu") == 4  # each address of the 3 clubs


@pytest.fixture
def smtp_with_login():
    handler = Handler()

    def authenticate(server, session, envelope, mechanism, auth_data):
        ok = auth_data.login == b"secretariat@example.org" and auth_data.password == b"s3cret"
        return AuthResult(success=ok, handled=False)

    controller = smtp_server(handler, authenticator=authenticate, auth_require_tls=False)
    handler.port = controller.port
    try:
        yield handler
    finally:
        controller.stop()


def test_the_password_comes_from_the_environment_only(league, tmp_path, smtp_with_login):
    set_mail(league.inputs, smtp_with_login.port, 'user = "secretariat@example.org"\n')
    env = {config.PASSWORD_VARIABLE: None}
    missing = mail_command(league, tmp_path / "archive", "--send", env=env)
    assert missing.returncode == 1 and "REPORTGEN_SMTP_PASSWORD" in missing.stderr
    assert smtp_with_login.received == []
    wrong = mail_command(league, tmp_path / "archive", "--send", env={config.PASSWORD_VARIABLE: "nope"})
    assert wrong.returncode == 1 and "le serveur refuse l’identification" in wrong.stderr
    assert smtp_with_login.received == []
    right = mail_command(league, tmp_path / "archive", "--send", env={config.PASSWORD_VARIABLE: "s3cret"})
    assert right.returncode == 0, right.stderr
    assert len(smtp_with_login.received) == 3


# -- the [mail] settings --------------------------------------------------------------------------

def read_settings(tmp_path: Path, text: str):
    (tmp_path / config.SETTINGS_FILE).write_text(text, encoding="utf-8")
    problems = []
    from reportgen import circuits

    league = config.load(tmp_path, {slug: c.Settings() for slug, c in circuits.CIRCUITS.items()}, problems)
    return league.mail, [str(p) for p in sorted(problems)]


def test_the_mail_table_is_read_and_checked_like_every_setting(tmp_path):
    settings, problems = read_settings(tmp_path, '[mail]\nhost = "smtp.example.org"\nport = 587\n'
                                       'security = "starttls"\nsender = "Ligue Grand Sud <secretariat@example.org>"\n'
                                       'user = "secretariat@example.org"\n')
    assert problems == []
    assert settings == config.Mail("smtp.example.org", 587, "starttls", "Ligue Grand Sud <secretariat@example.org>",
                                   "secretariat@example.org")
    settings, problems = read_settings(tmp_path, '[mail]\nhost = "smtp.example.org"\nport = 70000\nsecurity = "tls"\n'
                                       'sender = "secretariat"\npassword = "x"\n')
    assert settings is None
    assert problems == [
        "reportgen.toml, table [mail], réglage « password » : le mot de passe ne s’écrit jamais dans un fichier (ligne 6) — retirez la "
        "ligne password = … et donnez le mot de passe dans la variable d’environnement REPORTGEN_SMTP_PASSWORD au "
        "moment d’envoyer",
        "reportgen.toml, table [mail], réglage « port » : « 70000 » est trop grand (de 1 à 65535) (ligne 3) — écrivez une valeur de 1 à "
        "65535, par exemple port = 587",
        "reportgen.toml, table [mail], réglage « security » : « \"tls\" » n’est pas une valeur possible (ligne 4) — écrivez une valeur "
        "parmi \"starttls\", \"ssl\", \"none\", par exemple security = \"starttls\"",
        "reportgen.toml, table [mail], réglage « sender » : « \"secretariat\" » ne convient pas : ce n’est pas une adresse électronique, "
        "seule ou après un nom (ligne 5) — écrivez par exemple sender = \"Ligue <secretariat@example.org>\""]
    # Drafts need no server: a table without host nor sender is no problem (--send asks for them).
    settings, problems = read_settings(tmp_path, '[mail]\nport = 25\n')
    assert problems == [] and settings == config.Mail(port=25)
    assert [str(p) for p in config.missing_for_sending(settings)] == [
        "reportgen.toml, table [mail] : le réglage « host » manque dans la table [mail] : l’envoi (--send) en a besoin — "
        "ajoutez la ligne host = \"smtp.example.org\" sous [mail]",
        "reportgen.toml, table [mail] : le réglage « sender » manque dans la table [mail] : l’envoi (--send) en a besoin — "
        "ajoutez la ligne sender = \"Ligue <secretariat@example.org>\" sous [mail]"]
    assert read_settings(tmp_path, 'host = "x"\n')[1] == [
        "reportgen.toml, réglage « host » : le réglage « host » est en dehors de toute table (ligne 1) — placez-le sous [mail], "
        "[site] ou [inbox]"]


# -- TLS: STARTTLS (the default) and implicit TLS ----------------------------------------------------

# A self-signed certificate for 127.0.0.1, valid until 2126, made for these tests only (openssl req
# -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -subj /CN=127.0.0.1 -addext
# subjectAltName=IP:127.0.0.1,DNS:localhost -days 36500).
TEST_CERTIFICATE = """\
-----BEGIN CERTIFICATE-----
MIIBmjCCAUGgAwIBAgIUSe1YJ6+B7uogyvK5NBcWztdrqGkwCgYIKoZIzj0EAwIw
FDESMBAGA1UEAwwJMTI3LjAuMC4xMCAXDTI2MTEzMDIzMDEyOFoYDzIxMjYxMTA2
MjMwMTI4WjAUMRIwEAYDVQQDDAkxMjcuMC4wLjEwWTATBgcqhkjOPQIBBggqhkjO
PQMBBwNCAARs4hhDFF2pGlm1FoTkyfGCloI97fqmuSDrLlhlTxKL0Ha11FHDtDUV
HadYXGQY2kGr9eX9nr/gLG+FDjhrSi0Uo28wbTAdBgNVHQ4EFgQU00E6sd6+elYN
FidHFhXy3GSAbdEwHwYDVR0jBBgwFoAU00E6sd6+elYNFidHFhXy3GSAbdEwDwYD
VR0TAQH/BAUwAwEB/zAaBgNVHREEEzARhwR/AAABgglsb2NhbGhvc3QwCgYIKoZI
zj0EAwIDRwAwRAIgUwffskYWeWaUW+ykPwnXecQWJQUotW+gVegq1KhavoACIB/B
kNZJ8h/n88A8hKxasJzljHmptP70S+Vm59B1wcCb
-----END CERTIFICATE-----
"""
TEST_KEY = """\
-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgHRuw8FdAfY9bsbbq
l+Ulxxm5GZ7DTPDU/mJFjorbyWShRANCAARs4hhDFF2pGlm1FoTkyfGCloI97fqm
uSDrLlhlTxKL0Ha11FHDtDUVHadYXGQY2kGr9eX9nr/gLG+FDjhrSi0U
-----END PRIVATE KEY-----
"""


@pytest.fixture
def tls_files(tmp_path):
    (tmp_path / "cert.pem").write_text(TEST_CERTIFICATE)
    (tmp_path / "key.pem").write_text(TEST_KEY)
    return tmp_path / "cert.pem", tmp_path / "key.pem"


@pytest.mark.parametrize("security", ["starttls", "ssl"])
def test_the_messages_go_over_tls_and_an_unknown_certificate_is_refused(league, tmp_path, tls_files, monkeypatch,
                                                                       security):
    import ssl

    certificate, key = tls_files
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(certificate, key)
    handler = Handler()
    tls = {"tls_context": context, "require_starttls": True} if security == "starttls" else {"ssl_context": context}
    controller = smtp_server(handler, **tls)
    try:
        settings = config.Mail(host="127.0.0.1", port=controller.port, security=security, sender=SENDER)
        # A certificate no authority vouches for: every message fails, named, nothing is logged as sent.
        outcomes = send(plan_of(league, tmp_path / "archive"), settings, tmp_path / "archive").outcomes
        assert outcomes and not any(o.sent for o in outcomes) and handler.received == []
        assert "CERTIFICATE_VERIFY_FAILED" in next(iter(outcomes[0].failed.values()))
        # Trusted (as a system's authorities would): the messages go through, encrypted.
        monkeypatch.setenv("SSL_CERT_FILE", str(certificate))
        outcomes = send(plan_of(league, tmp_path / "archive"), settings, tmp_path / "archive").outcomes
        assert all(o.ok for o in outcomes) and len(handler.received) == 3
    finally:
        controller.stop()


def test_a_circuit_without_points_is_mailed_with_its_own_score_column(tmp_path):
    """A ranking whose rows have a club but no `points` (a Tantrix event: TPs) gives each player
    his place and the ranking's own score, with its heading; no KeyError on `points`."""
    from reportgen.ingest.directories import Club
    from reportgen.model import RANK_AND_PLAYER, Column, Document, Ranking, RankingRow, Scope, Status

    columns = (Column("tps", "TPs", "number", 8), Column("games", "Parties", width=8))
    rows = (RankingRow(1, "a", "AMAR Ali", "", "Albi", {"tps": 12.5, "games": 4}),
            RankingRow(2, "b", "BRUN Léa", "", "Albi", {"tps": 9, "games": 4}, tied=True))
    ranking = Ranking("2026/printemps/classement", Scope("event", 2026, "tantrix/p.xlsx", "Printemps"),
                      dt.date(2026, 4, 4), Status.FINAL, columns, rows, identity=RANK_AND_PLAYER)
    pdf = tmp_path / "classement.pdf"
    pdf.write_bytes(b"%PDF-1.7\n")
    document = Document(ranking.path, "tantrix/event.html.j2", "Printemps — classement", ranking.date, {}, 2026)
    bulletin = drafts.Bulletin("tantrix", "Tantrix", ranking, document, pdf, "key")
    albi = Club("ALBI", "Albi", "81", ("contact@albi.example.org",))
    plan = drafts.Plan(2026, None, "Ligue", SENDER, [bulletin])
    club_mail = drafts.ClubMail(albi, [bulletin], {"tantrix": list(rows)})
    message = drafts.message(plan, club_mail)
    # a place, never « 1er », which would say the player is a man (the league does not know)
    assert "1re place\u00a0: AMAR Ali, 12,5 TPs" in message.text
    assert "2e place ex aequo\u00a0: BRUN Léa, 9 TPs" in message.text and "1er" not in message.text
    assert ">1re</td>" in (message.html or "") and ">2e ex aequo</td>" in (message.html or "")
    assert ">TPs</th>" in (message.html or "") and "points" not in message.text.split("Tantrix")[1]



def test_each_attachment_names_its_circuit_in_ascii_and_the_body_lists_those_names(tmp_path):
    """Two circuits whose latest bulletins are both « classement-2026-04-04.pdf », and one whose PDF
    already bears its circuit's name (« masters-2026.pdf »): each is attached under a name that
    starts with its circuit (a club receiving several circuits' bulletins tells them apart; the
    Grand Sud's was the bare « classement-….pdf »), ASCII, never its circuit twice; both bodies list
    exactly those names, in their order."""
    import re

    from reportgen.ingest.directories import Club
    from reportgen.model import Column, Document, Ranking, RankingRow, Scope, Status

    day = dt.date(2026, 4, 4)
    bulletins, players = [], {}
    for circuit, name in (("grand-sud", f"classement-{day}"), ("tantrix", f"classement-{day}"),
                          ("masters", "masters-2026"), ("tour-de-france", "classement-été")):
        row = RankingRow(1, "a", "AMAR Ali", "", "Albi", {"points": 100})
        ranking = Ranking(f"2026/{name}", Scope("season", 2026), day,
                          Status.PROVISIONAL, (Column("points", "Points", "number", 8),), (row,))
        folder = tmp_path / circuit
        folder.mkdir()
        pdf = folder / f"{name}.pdf"
        pdf.write_bytes(f"%PDF-1.7 {circuit}\n".encode())
        document = Document(ranking.path, "x.html.j2", "Classement", day, {}, 2026)
        bulletins.append(drafts.Bulletin(circuit, circuit.title(), ranking, document, pdf, circuit))
        players[circuit] = [row]
    plan = drafts.Plan(2026, None, "Ligue", SENDER, bulletins)
    message = drafts.message(plan, drafts.ClubMail(Club("ALBI", "Albi", "81", ("a@albi.example.org",)),
                                                   bulletins, players))
    names = [attachment.filename for attachment in message.attachments]
    assert names == ["grand-sud-classement-2026-04-04.pdf", "tantrix-classement-2026-04-04.pdf", "masters-2026.pdf",
                     "tour-de-france-classement-ete.pdf"]
    [text] = re.findall(r"Les bulletins complets sont joints en PDF\W+(.+)\.\n", message.text)
    shown = re.sub("<[^>]+>", "", message.html or "")  # the HTML's words, each name a box of its own there
    [html] = re.findall(r"Les bulletins complets sont joints en PDF\W+(.+)\.\n", shown)
    assert text.split(", ") == names and html.split(", ") == names


# -- faults: two senders, a locked or damaged log, kill -9, a silent server ------------------------
# The promise under every fault: an address never receives the same bulletin twice unless --resend.

CARCASSONNE = ("contact@carc.example.org", "president@carc.example.org")
TOULOUSE = ("secretariat@tlse.example.org",)
ALBI = ("refuse@albi.example.org",)
EACH_ONCE = {CARCASSONNE: 1, TOULOUSE: 1, ALBI: 1}


def sender_process(built, archive: Path, *options: str) -> subprocess.Popen:
    """`reportgen mail --send` as the secretary runs it, in a process of its own."""
    return subprocess.Popen([REPORTGEN, *mail_args(built, archive, "--send", *options)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def wait_until(condition, what: str, seconds: float = 60) -> None:
    limit = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < limit, f"still waiting for {what}"
        time.sleep(0.02)


def sender_held_at_first_message(built, archive: Path, smtp) -> subprocess.Popen:
    """A sender whose first message the server has received and not yet answered (`smtp.hold`)."""
    set_mail(built.inputs, smtp.port)
    smtp.hold = True
    sender = sender_process(built, archive)
    wait_until(lambda: len(smtp.received) == 1, "the first message to reach the server")
    return sender


HOLD_DATABASE = ("import sqlite3, sys\n"
                 "connection = sqlite3.connect(sys.argv[1], isolation_level=None)\n"
                 "connection.execute('BEGIN EXCLUSIVE')\n"
                 "print('held', flush=True)\n"
                 "sys.stdin.read()\n")


@contextmanager
def database_held(archive: Path):
    """Another process holding archive/league.sqlite locked (BEGIN EXCLUSIVE) until the block ends."""
    holder = subprocess.Popen([sys.executable, "-c", HOLD_DATABASE, str(archive / database.DATABASE)],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "held"
        yield
    finally:
        holder.stdin.close()
        holder.wait(timeout=30)


def log_rows(archive: Path) -> list[tuple]:
    log = database.connect(archive, create=False)
    try:
        return [tuple(row) for row in log.execute("SELECT club_code, address, status FROM sending ORDER BY id")]
    finally:
        log.close()


def test_two_senders_at_once_each_club_receives_its_message_once(league, tmp_path, smtp):
    archive = tmp_path / "archive"
    set_mail(league.inputs, smtp.port)
    smtp.hold = True  # whoever gets the lock keeps it, its first message awaiting the server's answer
    senders = [sender_process(league, archive), sender_process(league, archive)]
    wait_until(lambda: any(p.poll() is not None for p in senders), "one of the senders to stop")
    smtp.hold = False
    results = [(p.wait(timeout=60), *p.communicate()) for p in senders]
    (stopped,) = [r for r in results if r[0] != 0]
    (done,) = [r for r in results if r[0] == 0]
    assert stopped[0] == 1
    assert "un autre envoi des courriels est en cours" in stopped[2] and "rien n’a été envoyé" in stopped[2]
    assert ".mail-send.lock" in stopped[2] and "Traceback" not in stopped[2]
    assert "3 messages envoyés" in done[1]
    assert smtp.count() == EACH_ONCE


def test_a_send_log_locked_by_another_process_means_nothing_is_sent(league, tmp_path, smtp):
    archive = tmp_path / "archive"
    set_mail(league.inputs, smtp.port)
    database.connect(archive).close()
    with database_held(archive):
        result = mail_command(league, archive, "--send")
    assert result.returncode == 4, result.stderr
    assert f"{archive / 'league.sqlite'} est verrouillé par un autre programme" in result.stderr
    assert result.stderr.splitlines()[-1] == (
        f"rien n’a été envoyé : {archive / 'league.sqlite'} est verrouillé par un autre programme (une autre "
        "commande reportgen, ou un logiciel qui l’a ouvert) : fermez-le, puis relancez la commande")
    assert smtp.received == []
    # Released: everything goes, once.
    assert mail_command(league, archive, "--send").returncode == 0
    assert smtp.count() == EACH_ONCE


def test_a_damaged_send_log_means_nothing_is_sent(league, tmp_path, smtp):
    archive = tmp_path / "archive"
    set_mail(league.inputs, smtp.port)
    archive.mkdir()
    (archive / "league.sqlite").write_bytes(b"not a database " * 300)
    result = mail_command(league, archive, "--send")
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert result.stderr.splitlines()[-1] == (
        f"rien n’a été envoyé : {archive / 'league.sqlite'} est endommagé (ce n’est plus une base de données "
        "SQLite lisible) : remettez-le depuis votre sauvegarde, puis relancez la commande")
    assert smtp.received == []


def test_a_log_locked_while_the_server_has_a_message_leaves_it_unknown_never_resent(league, tmp_path, smtp):
    archive = tmp_path / "archive"
    sender = sender_held_at_first_message(league, archive, smtp)
    with database_held(archive):  # the confirmation cannot be written
        smtp.hold = False
        code = sender.wait(timeout=60)
    out, errors = sender.communicate()
    assert code == 4 and "Traceback" not in errors
    assert "le message de Carcassonne est peut-être parti sans que le journal le note" in errors
    assert smtp.count() == {CARCASSONNE: 1}  # and nothing after it
    # The next run does not send Carcassonne again: it says the outcome is unknown.
    rerun = mail_command(league, archive, "--send")
    assert rerun.returncode == 1
    assert "2 envois incertains" in rerun.stderr and "Carcassonne (contact@carc.example.org)" in rerun.stderr
    assert smtp.count() == EACH_ONCE


def test_a_sender_killed_while_the_server_answers_is_never_resent_without_resend(league, tmp_path, smtp):
    archive = tmp_path / "archive"
    started = dt.datetime.now(dt.timezone.utc).date()  # the attempt's moment is the real clock's (UTC)
    sender = sender_held_at_first_message(league, archive, smtp)
    os.kill(sender.pid, signal.SIGKILL)
    sender.wait(timeout=30)
    sender.communicate()
    smtp.hold = False
    assert log_rows(archive) == [("CARC", "contact@carc.example.org", "sending"),
                                 ("CARC", "president@carc.example.org", "sending")]

    # The rerun (the lock went with the killed process) sends the others, and not Carcassonne.
    rerun = mail_command(league, archive, "--send")
    assert rerun.returncode == 1, rerun.stderr
    assert smtp.count() == EACH_ONCE
    assert "2 envois incertains" in rerun.stderr
    ended = dt.datetime.now(dt.timezone.utc).date()
    assert any(f"  - Carcassonne (contact@carc.example.org) : grand-sud-classement-2026-01-10.pdf, tenté le "
               f"{french.date_long(day)} à " in rerun.stderr for day in {started, ended})  # across midnight too
    assert "sinon renvoyez-le : reportgen mail --send --resend --club CARC" in rerun.stderr
    assert log_rows(archive)[:2] == [("CARC", "contact@carc.example.org", "unknown"),
                                     ("CARC", "president@carc.example.org", "unknown")]
    # Again: still unknown, still not sent.
    again = mail_command(league, archive, "--send")
    assert again.returncode == 1 and "2 envois incertains" in again.stderr
    assert smtp.count() == EACH_ONCE

    # The secretary decides: Carcassonne alone is sent once more; then nothing is left.
    resent = mail_command(league, archive, "--send", "--resend", "--club", "CARC")
    assert resent.returncode == 0, resent.stderr
    assert smtp.count() == {CARCASSONNE: 2, TOULOUSE: 1, ALBI: 1}
    last = mail_command(league, archive, "--send")
    assert last.returncode == 0 and "aucun message envoyé, 3 clubs avaient déjà tout reçu" in last.stdout
    assert smtp.count() == {CARCASSONNE: 2, TOULOUSE: 1, ALBI: 1}


@contextmanager
def silent_server(greet: bool):
    """A TCP server on 127.0.0.1 that accepts and says nothing (or only its greeting)."""
    listener = socket.create_server(("127.0.0.1", 0))
    clients = []

    def serve() -> None:
        while True:
            try:
                client, _ = listener.accept()
            except OSError:  # closed: the test is over
                return
            clients.append(client)
            if greet:
                client.sendall(b"220 silent.example.org ESMTP\r\n")

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield listener.getsockname()[1]
    finally:
        listener.close()
        for client in clients:
            client.close()


def test_a_server_silent_after_ehlo_costs_each_club_its_timeout(league, tmp_path):
    archive = tmp_path / "archive"
    with silent_server(greet=True) as port:
        set_mail(league.inputs, port, "timeout = 0.3\n")
        result = mail_command(league, archive, "--send")
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert result.stderr.count("n’a pas répondu dans le temps permis (0,3 s, réglage timeout de [mail])") == 4
    assert {status for _, _, status in log_rows(archive)} == {"failed"}  # tried again next run


def test_when_the_run_time_is_spent_the_remaining_clubs_wait_for_the_next_run(league, tmp_path, smtp):
    archive = tmp_path / "archive"
    with silent_server(greet=False) as port:
        set_mail(league.inputs, port, "timeout = 5\nrun_timeout = 0.3\n")
        result = mail_command(league, archive, "--send")
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert ("[1/3] Carcassonne (contact@carc.example.org, president@carc.example.org) : ÉCHEC — contact@carc.example.org"
            " : le serveur 127.0.0.1:") in result.stdout
    assert "n’a pas répondu dans le temps permis (0,3 s, réglage run_timeout de [mail])" in result.stdout
    assert "le temps de l’envoi est écoulé (réglage run_timeout de [mail] : 0,3 s) ; 2 messages non tentés" \
        in result.stderr
    assert "  - Toulouse (secretariat@tlse.example.org)\n  - Albi (refuse@albi.example.org)" in result.stderr
    assert [code for code, _, _ in log_rows(archive)] == ["CARC", "CARC"]  # the others were not attempted
    set_mail(league.inputs, smtp.port)
    assert mail_command(league, archive, "--send").returncode == 0
    assert smtp.count() == EACH_ONCE


V1_SENDING = """CREATE TABLE sending (
    id          INTEGER PRIMARY KEY,
    at          TEXT NOT NULL,
    season      INTEGER NOT NULL,
    club_code   TEXT NOT NULL,
    club_name   TEXT NOT NULL,
    address     TEXT NOT NULL,
    circuit     TEXT NOT NULL,
    bulletin    TEXT NOT NULL,
    ranking_sha TEXT NOT NULL,
    pdf_sha     TEXT NOT NULL,
    message_id  TEXT NOT NULL,
    status      TEXT NOT NULL CHECK (status IN ('sent', 'failed')),
    answer      TEXT NOT NULL DEFAULT ''
)"""  # the send log of schema 1, as reportgen wrote it


def test_a_schema_1_send_log_is_migrated_and_keeps_what_was_sent(league, tmp_path, smtp):
    archive = tmp_path / "archive"
    set_mail(league.inputs, smtp.port)
    assert mail_command(league, archive, "--send").returncode == 0
    # The same log as schema 1 had it: its rows in v1's table.
    old = sqlite3.connect(archive / database.DATABASE)
    old.executescript(f"ALTER TABLE sending RENAME TO kept; {V1_SENDING}; INSERT INTO sending SELECT * FROM kept "
                      "WHERE club_code != 'ALBI'; DROP TABLE kept; "
                      "CREATE INDEX sending_received ON sending (club_code, address, circuit, bulletin, ranking_sha, "
                      "status); PRAGMA user_version = 1;")
    old.close()
    log = database.connect(archive)
    assert log.execute("PRAGMA user_version").fetchone()[0] == database.SCHEMA_VERSION == 10
    assert "'sending'" in log.execute("SELECT sql FROM sqlite_master WHERE name = 'sending'").fetchone()[0]
    assert log.execute("SELECT count(*) FROM sqlite_master WHERE name = 'sending_received'").fetchone()[0] == 1
    log.close()
    assert log_rows(archive) == [("CARC", "contact@carc.example.org", "sent"),
                                 ("CARC", "president@carc.example.org", "sent"),
                                 ("TLSE", "secretariat@tlse.example.org", "sent")]
    # What schema 1 logged as sent is not sent again; Albi, whose row is gone, is.
    result = mail_command(league, archive, "--send")
    assert result.returncode == 0 and "1 message envoyé, 2 clubs avaient déjà tout reçu" in result.stdout
    assert smtp.count() == {CARCASSONNE: 1, TOULOUSE: 1, ALBI: 2}


def test_a_connection_cut_after_the_server_has_the_message_is_unknown_and_the_others_go_on(league, tmp_path, smtp):
    archive = tmp_path / "archive"
    set_mail(league.inputs, smtp.port)
    smtp.drop_after_data = set(TOULOUSE)
    result = mail_command(league, archive, "--send")
    assert result.returncode == 1
    assert ("[2/3] Toulouse (secretariat@tlse.example.org) : INCERTAIN — la connexion a été coupée après avoir reçu "
            "le message, sans confirmer sa réception") in result.stdout
    assert "1 envoi incertain" in result.stderr and "--resend --club TLSE" in result.stderr
    assert smtp.count() == EACH_ONCE  # Albi went on a new connection
    assert ("TLSE", "secretariat@tlse.example.org", "unknown") in log_rows(archive)
    smtp.drop_after_data = set()
    again = mail_command(league, archive, "--send")
    assert again.returncode == 1 and "1 envoi incertain" in again.stderr
    assert smtp.count() == EACH_ONCE
    # --club names a club of the plan, and only serves with --send.
    wrong = mail_command(league, archive, "--send", "--resend", "--club", "MTPL")  # a club without an address
    assert wrong.returncode == 1 and "--club MTPL : ce club n’a pas de courriel à recevoir" in wrong.stderr
    assert "codes possibles : CARC, TLSE, ALBI" in wrong.stderr
    assert mail_command(league, archive, "--club", "TLSE").returncode == 2
    assert smtp.count() == EACH_ONCE


def test_a_club_code_of_no_club_is_a_mistyped_command_said_alone(league, tmp_path, smtp):
    """`mail --send --club XXXX` exited 1, as for workbooks to correct, after the drafts and their
    listing; `--circuit` with an unknown circuit exits 2. A code of no club of clubs.xlsx is a
    mistyped command: that line alone, exit 2, nothing drafted nor sent. A club's name is its code's
    equal (as in the workbooks)."""
    archive = tmp_path / "archive"
    set_mail(league.inputs, smtp.port)
    shutil.rmtree(league.outputs / "mail", ignore_errors=True)
    wrong = mail_command(league, archive, "--send", "--club", "TLSE", "--club", "XXXX")
    assert (wrong.returncode, wrong.stdout) == (2, "")
    assert wrong.stderr.splitlines() == [
        f"--club XXXX : aucun club de ce code ni de ce nom dans {league.inputs / 'clubs.xlsx'} ; codes : CARC, TLSE, ALBI, MTPL, "
        "PERP, NIME, MARS"]
    assert smtp.count() == Counter() and not (league.outputs / "mail").exists()
    by_name = mail_command(league, archive, "--send", "--club", "toulouse")
    assert by_name.returncode == 0, by_name.stderr
    assert smtp.count() == Counter({TOULOUSE: 1})


def test_a_season_of_no_ranking_is_a_mistyped_command_said_alone(league, tmp_path):
    """`mail --season 2031` said « aucun bulletin … », exit 1, as for workbooks to correct."""
    wrong = mail_command(league, tmp_path / "archive", "--season", "2031")
    assert (wrong.returncode, wrong.stdout) == (2, "")
    assert wrong.stderr.splitlines() == ["aucun classement pour la saison 2031 ; saisons : 2025, 2026"]
    tour = mail_command(league, tmp_path / "archive", "--season", "2025", "--circuit", "tour-de-france")
    assert tour.returncode == 2 and tour.stderr.splitlines() == [
        "aucun classement tour-de-france pour la saison 2025 ; il n’y en a aucun"]


def test_a_club_code_not_found_while_clubs_xlsx_has_a_row_to_correct_shows_its_problems(league, tmp_path):
    """The club meant may be on the row of clubs.xlsx to correct: its problems first, exit 1."""
    set_clubs(league.inputs, [*CLUBS, ["", "Lunel", "34", ""]])  # a row without its code
    wrong = mail_command(league, tmp_path / "archive", "--send", "--club", "LUNL")
    assert wrong.returncode == 1 and "clubs.xlsx" in wrong.stderr.splitlines()[1]
    assert wrong.stderr.rstrip().endswith("(ou clubs.xlsx est à corriger, voir ci-dessus)")


def test_mail_right_after_make_finds_the_latest_bulletin_as_the_build_drew_it_with_its_chart(league, tmp_path):
    """A season with several dated rankings: its latest bulletin carries the places' chart
    (site/figures.charted). `mail` must expect that page, not one without the chart, or every
    `make` then `reportgen mail` stops on a file it calls stale."""
    write_tournament(league.inputs, "2026-03-14-toulouse", day="14/03/2026", club="TLSE", results=[
        [1, "DURAND", "Anne", "", "Toulouse"], [2, "DUPONT", "Jean", "1001", "Carcassonne"]])
    built = cli("build", "--inputs", str(league.inputs), "--outputs", str(league.outputs))
    assert built.returncode == 0, built.stderr
    page = (league.outputs / "grand-sud" / "2026" / "classement-2026-03-14.html").read_text(encoding="utf-8")
    assert 'class="chart"' in page  # the case this test is about
    done = mail_command(league, tmp_path / "archive")
    assert done.returncode == 0, done.stderr
    assert "absent ou pas à jour" not in done.stderr
    assert "grand-sud-classement-2026-03-14.pdf" in done.stdout


def test_the_club_option_says_it_takes_a_code_or_a_name():
    """`--club toulouse` sends to Toulouse (above, README: « its code or its name in clubs.xlsx »);
    `mail --help` said « son code dans clubs.xlsx »."""
    import typer.main

    from reportgen.cli import app

    mail = typer.main.get_command(app).commands["mail"]  # type: ignore[attr-defined]
    (club,) = [param for param in mail.params if param.name == "club"]
    assert "son code ou son nom dans clubs.xlsx" in club.help
