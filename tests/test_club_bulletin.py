"""A bulletin per club (issue 25): the PDF `reportgen mail` makes for each club with players
(outputs/clubs/<season>/<CODE>.pdf), read back with pdftotext; attached to the club's draft, alone
with `[mail] attach = "club"`; the site's pages linked with `[site] url`; sent through a real SMTP
server (aiosmtpd, the fixture of test_delivery_mail.py); and, on the example league, its places and
points against the CSV of the same ranking and the Masters' gap to the 16th place."""

from __future__ import annotations

import csv
import dataclasses
import datetime as dt
import hashlib
import html as html_text
import io
import re
import sqlite3
import subprocess
from email import message_from_bytes, policy
from pathlib import Path

import pytest

from reportgen import circuits, config, french
from reportgen.circuits.masters import club as masters_club
from reportgen.delivery import club_bulletin
from reportgen.delivery import mail as drafts
from reportgen.render.ranking import to_spreadsheet_csv
from reportgen.site.pages import FOLDER, club_page_name, season_page_name
from tests import test_delivery_mail as base
from tests.test_calendar import write_calendar
from tests.test_delivery_mail import SENDER, mail_command, plan_of, read_settings, set_mail

# The fixtures of the mail tests: the SMTP server, and the small league whose clubs have addresses.
smtp = base.smtp
league = base.league

SITE = '[site]\nhost = "ssh.example.org"\nuser = "ligue"\nfolder = "www"\nurl = "https://ligue.example.org/"\n'


def pdf_text(path: Path) -> str:
    return subprocess.run(["pdftotext", "-layout", str(path), "-"], capture_output=True, text=True,
                          check=True).stdout


def draft(outputs: Path, code: str):
    return message_from_bytes((outputs / "mail" / "2026" / f"{code}.eml").read_bytes(), policy=policy.default)


def test_each_club_with_players_has_its_pdf_naming_its_players_only(league, tmp_path):
    plan = plan_of(league, tmp_path / "archive")
    drafts.write_drafts(plan, league.outputs)
    folder = league.outputs / "clubs" / "2026"
    # Every club with a player in the rankings mailed (Marseille's tournament counts for none), none for the others.
    assert sorted(p.name for p in folder.iterdir()) == ["ALBI.pdf", "CARC.pdf", "TLSE.pdf"]
    carcassonne = pdf_text(folder / "CARC.pdf")
    assert "Bulletin du club de Carcassonne au 10 janvier 2026" in carcassonne
    # headed as the site heads the club's page (it read « Carcassonne saison 2026 »)
    assert "Club de Carcassonne saison 2026" in carcassonne
    assert "DUPONT Jean" in carcassonne and "520" in carcassonne and "−2" in carcassonne
    assert not {"MARTIN", "DURAND", "Mallory", "Hacker", "PROVENCAL"} & set(carcassonne.split())
    # Its tournament of the season, received (the workbook of 10 January, Tournoi's Club: CARC).
    assert "10 janvier 2026" in carcassonne and "reçu" in carcassonne
    albi = pdf_text(folder / "ALBI.pdf")
    assert "MARTIN Paul" in albi and "=SOMME(A1:A9) Hacker" in albi and "DUPONT" not in albi
    assert "Aucun tournoi organisé par le club" in albi  # Albi's tournament was in 2025
    assert "<SCRIPT>ALERT(1)</SCRIPT> Mallory" in pdf_text(folder / "TLSE.pdf")  # a name is data, as typed
    # The Masters' part: fewer than 16 players ranked, each place qualifies today.
    assert "Moins de 16 joueurs au classement annuel" in carcassonne


def test_the_club_tournaments_come_from_the_calendar_received_awaited_or_to_come(league, tmp_path):
    """As of the day its message is written (TODAY, 29 November), as the message says the results
    awaited: the bulletin's date (its latest ranking's, 10 January) said « à venir » a tournament of
    14 March that the message said awaited."""
    write_calendar(league.inputs, [["03/01/2026", "grand-sud", "CARC", "Galette de Carcassonne", "Carcassonne"],
                                   ["10/01/2026", "grand-sud", "CARC", "Open de Carcassonne", "Carcassonne"],
                                   ["14/03/2026", "grand-sud", "CARC", "Printemps de Carcassonne", "Carcassonne"],
                                   ["12/12/2026", "grand-sud", "CARC", "Noël à Carcassonne", "Trèbes"],
                                   ["14/03/2026", "grand-sud", "TLSE", "Printemps de Toulouse", "Toulouse"]])
    plan = plan_of(league, tmp_path / "archive")
    assert plan.day == dt.date(2026, 1, 10)
    assert [(t["day"], t["name"], t["place"], t["status"]) for t in plan.own["CARC"].tournaments] == [
        ("3 janvier 2026", "Galette de Carcassonne", "Carcassonne", "attendu"),  # before it, no workbook yet
        ("10 janvier 2026", "Tournoi 2026-01-10-carcassonne", "Carcassonne", "reçu"),  # its workbook's name
        ("14 mars 2026", "Printemps de Carcassonne", "Carcassonne", "attendu"),  # after the bulletin's date
        ("12 décembre 2026", "Noël à Carcassonne", "Trèbes", "à venir")]
    [carcassonne] = [club_mail for club_mail in plan.clubs if club_mail.club.code == "CARC"]
    assert [ranking["awaited"] for ranking in drafts.context(plan, carcassonne, [])["rankings"]][0].startswith(
        "Classement provisoire : vos classeurs du 3 janvier et du 14 mars sont attendus")


def test_a_club_tournament_the_calendar_knows_by_its_club_alone_is_named_after_the_club(league, tmp_path):
    write_calendar(league.inputs, [["14/11/2026", "grand-sud", "CARC", "", ""]])
    plan = plan_of(league, tmp_path / "archive")
    assert [(t["name"], t["place"]) for t in plan.own["CARC"].tournaments][-1] == ("Tournoi de Carcassonne", "")


def test_club_pdfs_are_the_same_bytes_and_rewritten_only_when_they_change(league, tmp_path):
    drafts.write_drafts(plan_of(league, tmp_path / "archive"), league.outputs)
    folder = league.outputs / "clubs" / "2026"
    first = {p.name: (p.read_bytes(), p.stat().st_mtime_ns) for p in folder.iterdir()}
    drafts.write_drafts(plan_of(league, tmp_path / "archive"), league.outputs)
    assert {p.name: (p.read_bytes(), p.stat().st_mtime_ns) for p in folder.iterdir()} == first


@pytest.fixture
def laid_out(monkeypatch) -> list[str]:
    """The club PDFs WeasyPrint lays out, by their page's title (the real renderer, counted)."""
    from reportgen.render import pdf

    titles: list[str] = []
    real = pdf.render_many

    def counting(pages, *args, **kwargs):
        titles.extend(page.split("<title>", 1)[1].split("</title>", 1)[0] for page, _ in pages)
        return real(pages, *args, **kwargs)

    monkeypatch.setattr(pdf, "render_many", counting)
    return titles


def test_a_club_pdf_is_laid_out_again_only_when_its_page_changed_or_its_file_was_touched(league, tmp_path, laid_out):
    drafts.write_drafts(plan_of(league, tmp_path / "archive"), league.outputs)
    folder = league.outputs / "clubs" / "2026"
    first = {p.name: p.read_bytes() for p in folder.iterdir()}
    assert len(laid_out) == 3
    laid_out.clear()
    drafts.write_drafts(plan_of(league, tmp_path / "archive"), league.outputs)
    assert laid_out == []  # the same rankings: every club PDF taken from disk, proven by its record
    (folder / "CARC.pdf").write_bytes(first["CARC.pdf"][:-10] + b"edited\n%%EOF")
    (folder / "ALBI.pdf").unlink()
    drafts.write_drafts(plan_of(league, tmp_path / "archive"), league.outputs)
    assert sorted(title.split("&nbsp;— ")[-1] for title in laid_out) == ["Club de Carcassonne 2026", "Club d’Albi 2026"]
    assert {p.name: p.read_bytes() for p in folder.iterdir()} == first
    laid_out.clear()
    (league.outputs / ".reportgen" / club_bulletin.RECORDS).unlink()
    drafts.write_drafts(plan_of(league, tmp_path / "archive"), league.outputs)
    assert len(laid_out) == 3  # without its record a PDF on disk proves nothing: all laid out again
    assert {p.name: p.read_bytes() for p in folder.iterdir()} == first


def test_the_draft_attaches_the_club_pdf_after_the_bulletins(league, tmp_path):
    drafts.write_drafts(plan_of(league, tmp_path / "archive"), league.outputs)
    message = draft(league.outputs, "CARC")
    attachments = list(message.iter_attachments())
    assert [a.get_filename() for a in attachments] == ["grand-sud-classement-2026-01-10.pdf", "bulletin-CARC-2026.pdf"]
    assert attachments[1].get_content() == (league.outputs / "clubs" / "2026" / "CARC.pdf").read_bytes()
    text = message.get_body(("plain",)).get_content()
    assert "Le bulletin du club, ses joueurs dans chaque circuit et ses tournois de la saison, est joint en PDF\u00a0: " \
           "bulletin-CARC-2026.pdf." in text
    assert "Le bulletin complet est joint en PDF\u00a0: grand-sud-classement-2026-01-10.pdf." in text
    assert "Sur le site" not in text and "<a href" not in message.get_body(("html",)).get_content()


def test_attach_club_attaches_the_club_pdf_alone_and_the_site_is_linked(league, tmp_path):
    set_mail(league.inputs, 2525, 'attach = "club"\n' + SITE)
    drafts.write_drafts(plan_of(league, tmp_path / "archive"), league.outputs)
    message = draft(league.outputs, "CARC")
    assert [a.get_filename() for a in message.iter_attachments()] == ["bulletin-CARC-2026.pdf"]
    text = message.get_body(("plain",)).get_content()
    html = message.get_body(("html",)).get_content()
    assert "bulletins complets" not in text and "bulletin complet" not in text
    club_url = f"https://ligue.example.org/{FOLDER}/{club_page_name('Carcassonne')}"
    season_url = f"https://ligue.example.org/{FOLDER}/{season_page_name('grand-sud', 2026)}"
    assert f"La page du club de Carcassonne\u00a0: {club_url}" in text
    assert f"{circuits.REGISTRY['grand-sud'].title} 2026\u00a0: {season_url}" in text
    assert f'<a href="{club_url}">' in html and f'<a href="{season_url}">' in html


def test_a_bad_attach_value_or_site_url_is_a_located_problem(tmp_path):
    settings, problems = read_settings(tmp_path, '[mail]\nattach = "clubs"\n')
    assert settings is None
    assert problems == [
        "reportgen.toml, table [mail], réglage « attach » : « \"clubs\" » n’est pas une valeur possible (ligne 2) — écrivez une valeur "
        "parmi \"all\", \"club\", par exemple attach = \"all\""]
    assert read_settings(tmp_path, '[mail]\nattach = "club"\n') == (config.Mail(attach="club"), [])
    (tmp_path / config.SETTINGS_FILE).write_text(SITE.replace("https://ligue.example.org/", "ligue"))
    found: list = []
    assert config.load_site(tmp_path, found) is None
    assert [str(p) for p in found] == [
        "reportgen.toml, table [site], réglage « url » : « \"ligue\" » ne convient pas : ce n’est pas l’adresse d’un site, comme "
        "https://ligue.example.org (ligne 5) — écrivez par exemple url = \"https://ligue.example.org\""]


def test_sending_carries_the_club_pdf_and_logs_it_for_each_bulletin(league, tmp_path, smtp):
    archive = tmp_path / "archive"
    set_mail(league.inputs, smtp.port, 'attach = "club"\n')
    sent = mail_command(league, archive, "--send")
    assert sent.returncode == 0, sent.stderr
    assert "3 brouillons dans" in sent.stdout and "3 bulletins de club dans" in sent.stdout
    assert "  Toulouse → secretariat@tlse.example.org : bulletin-TLSE-2026.pdf (2 joueurs)" in sent.stdout
    assert "Toulouse (secretariat@tlse.example.org) : envoyé — bulletin-TLSE-2026.pdf" in sent.stdout
    by_club = {tuple(r.rcpt_tos): r.message for r in smtp.received}
    toulouse = by_club[("secretariat@tlse.example.org",)]
    assert toulouse["From"] == SENDER
    (attachment,) = toulouse.iter_attachments()
    own = (league.outputs / "clubs" / "2026" / "TLSE.pdf").read_bytes()
    assert attachment.get_filename() == "bulletin-TLSE-2026.pdf" and attachment.get_content() == own
    # The send log keeps, for the bulletin the club now has, the PDF that carried it: the club's own.
    with sqlite3.connect(archive / "league.sqlite") as db:
        rows = db.execute("SELECT circuit, pdf_sha FROM sending WHERE club_code = 'TLSE'").fetchall()
    assert rows == [("grand-sud", hashlib.sha256(own).hexdigest())]
    again = mail_command(league, archive, "--send")
    assert again.returncode == 0 and "3 clubs avaient déjà tout reçu" in again.stdout
    assert len(smtp.received) == 3


# -- the example league --------------------------------------------------------------------------

def number(text: str) -> float:
    """A French number as a page or the CSV writes it (« 1 086 », « 12,5 »)."""
    return float(text.replace("\u202f", "").replace("\xa0", "").replace(" ", "").replace(",", "."))


def test_on_the_example_league_places_and_points_are_the_csv_ones_and_the_masters_gap_is_right(
        example_league, example_scored):
    season, slug = 2026, "grand-sud"
    kind = circuits.REGISTRY[slug].mail_ranking
    ranking = [r for r in example_scored.reports[slug].rankings if r.season == season
               and (not kind or r.scope.kind == kind)][-1]
    made = club_bulletin.prepare(example_league, example_scored, season, None, {slug: ranking}, ranking.date)
    # The CSV of the same ranking, as published (French Excel form: « ; », BOM, French headings).
    published = {line["Joueur"]: line for line in csv.DictReader(
        io.StringIO(to_spreadsheet_csv(ranking).decode("utf-8-sig")), delimiter=";")}
    title = circuits.REGISTRY[slug].title
    points_header = next(column.header for column in ranking.columns if column.key == "points")
    checked = set()
    for bulletin in made.values():
        (section,) = [s for s in bulletin.sections if s.circuit == title]
        assert section.headers[:3] == ("Place", "Joueur", "Points")
        for place, player, points, *_ in section.rows:
            line = published[player]
            assert int(place.split()[0].removesuffix("re").removesuffix("e")) == int(line["Place"])
            assert number(points) == number(line[points_header])
            checked.add(player)
    assert checked == {row.player for row in ranking.rows if row.club}  # every club's player, once

    annual = masters_club.annual_ranking(season, example_scored.reports)
    assert annual is not None and len(annual.rows) > 16
    sixteenth = annual.rows[15]
    club = annual.rows[20].club  # a club with a player outside the 16
    (race,) = masters_club.race(annual, lambda row: row.club == club)
    assert {cells[1] for cells in race.rows} == {row.player for row in annual.rows if row.club == club}
    assert any(not cells[4].startswith(("+", "à")) for cells in race.rows)  # behind the 16th: « −… »
    assert race.headers == ("Place", "Joueur", "Points", "Par rapport à la 16e place", "Écart (points)")
    for cells in race.rows:
        row = next(r for r in annual.rows if r.player == cells[1])
        between = row.metrics["points"] - sixteenth.metrics["points"]
        assert cells[4] == "à égalité" if between == 0 else number(cells[4].replace("−", "-")) == between
        assert cells[3] == ("dans les 16" if row.rank <= 16 else
                            f"{row.rank - 16} place{'s' if row.rank - 16 > 1 else ''} derrière la 16e")
    assert f"16e place aujourd’hui : {sixteenth.player}" in race.note


def test_what_the_example_club_bulletins_say_of_a_player_agrees_with_no_gender(example_league, example_scored):
    """The league does not know its players' genders: each club's bulletin (PDF) said « 1er » under
    « Place » where the club's mail says « 1re », and the race to the Masters « 2 places derrière le
    16e » under « Par rapport au 16e », « Les 16 premiers du classement annuel jouent le Masters »,
    « Moins de 16 joueurs sont classés : chacun est aujourd’hui qualifié »."""
    from reportgen.render import html
    from tests.poules.test_notices import GENDERED

    season = 2026
    rankings = {}
    for slug, report in example_scored.reports.items():  # the ranking each circuit's mail reports
        kind = circuits.REGISTRY[slug].mail_ranking
        found = [r for r in report.rankings if r.season == season and (not kind or r.scope.kind == kind)]
        if found:
            rankings[slug] = found[-1]
    made = club_bulletin.prepare(example_league, example_scored, season, None, rankings, dt.date(2026, 11, 28))
    pages = {code: html.render(club_bulletin.document(bulletin, "Ligue", dt.date(2026, 11, 28), True)).split("<body")[1]
             for code, bulletin in made.items()}  # what is printed, not the style sheet's comments
    places = {cells[0] for bulletin in made.values() for section in bulletin.sections for cells in section.rows}
    assert {"1re", "2e"} <= places and any(place.endswith("e ex aequo") for place in places)
    # before the Masters is played: the race to it, for every club (and with fewer than 16 ranked)
    annual = masters_club.annual_ranking(season, example_scored.reports)
    races = [section for club in {row.club for row in annual.rows}
             for rows in (annual.rows, annual.rows[:10])
             for section in masters_club.race(dataclasses.replace(annual, rows=rows), lambda row, c=club: row.club == c)]
    assert any("derrière la 16e" in cells[3] for section in races if len(section.headers) > 3 for cells in section.rows)
    said = [*pages.values(), *(" ".join([*section.headers, section.note, *(str(cell) for cells in section.rows
                                                                         for cell in cells)]) for section in races)]
    assert sorted({word for text in said for word in GENDERED.findall(text)}) == []


@pytest.mark.parametrize("code", ["../../etc/passwd", "CA RC", ""])
def test_a_club_code_never_makes_a_path(code):
    assert "/" not in club_bulletin.safe(code) and club_bulletin.safe(code)


def test_once_the_masters_is_played_its_part_is_the_standings(example_scored):
    masters = circuits.CIRCUITS["masters"]
    standings = example_scored.reports["masters"].rankings[-1]
    club = next(row.club for row in standings.rows if row.club)
    (section,) = masters_club.club_sections(standings.season, {"masters": standings}, example_scored.reports,
                                            lambda row: row.club == club)
    assert section.circuit == masters.info.title and section.headers[:2] == ("Place", "Joueur")
    assert [cells[1] for cells in section.rows] == [row.player for row in standings.rows if row.club == club]
    assert "16e" not in " ".join(section.headers)
    # under its title « Masters Grand Sud », not « Masters Grand Sud 2026 » again: what the ranking is
    assert section.title == ("Classement final" if standings.final else
                             f"Classement au {french.date_long(standings.date)}"), section.title


def test_a_club_s_tournament_date_and_a_shared_place_are_printed_on_one_line(example_league, example_scored):
    # Nîmes's « 19 septembre 2026 » wrapped « 19 septembre » over « 2026 » in a 28 mm column
    import datetime as dt

    from pypdf import PdfReader

    from reportgen.render import html, pdf

    season, slug = 2026, "grand-sud"
    ranking = [r for r in example_scored.reports[slug].rankings if r.season == season][-1]
    made = club_bulletin.prepare(example_league, example_scored, season, None, {slug: ranking}, ranking.date)
    document = club_bulletin.document(made["NIME"], "Ligue", dt.date(2026, 11, 28), True)
    assert [t for t in document.context["tournaments"] if "septembre" in str(t["day"])]
    lines = [line.replace("\u00a0", " ") for page in PdfReader(io.BytesIO(pdf.render_pdf(html.render(document)))).pages
             for line in page.extract_text().splitlines()]
    dated = [line for line in lines if "septembre" in line]
    assert dated and all("19 septembre 2026" in line for line in dated), dated
    # nor a shared place: « 116e ex » over « aequo » in its 18 mm column
    tied = [line for line in lines if " ex" in line or "aequo" in line]
    assert tied and all("e ex aequo " in line for line in tied), tied


def printed_lines(path: Path) -> list[tuple[int, float, str]]:
    """Each line of the PDF as poppler reads it, top to bottom: its page (from 0), where it ends on
    the page from the left (points) and its words."""
    found = subprocess.run(["pdftotext", "-bbox", str(path), "-"], capture_output=True, text=True, check=True).stdout
    lines: dict[tuple[int, float], list[tuple[float, float, str]]] = {}
    for number, page in enumerate(found.split("<page ")[1:]):
        for left, top, right, word in re.findall(
                r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="[\d.]+">([^<]*)</word>', page):
            lines.setdefault((number, round(float(top))), []).append((float(left), float(right), html_text.unescape(word)))
    return [(number, max(right for _, right, _ in words), " ".join(word for _, _, word in sorted(words)))
            for (number, _), words in sorted(lines.items())]


def test_a_club_s_tables_are_as_wide_as_they_need_and_each_on_its_heading_s_page(example_league, example_scored, tmp_path):
    """clubs/2026/AUCH.pdf put its Masters table of three rows on page 2, with room for it on page 1,
    its « Points » column stretched across the page (273 mm). Every club's PDF of the example league,
    as `reportgen mail` makes it (the Grand Sud's latest ranking and the Masters' standings): each
    table starts on the page of its heading, one of up to seven rows whole there, each narrower than
    the page; Auch's Masters on page 1 (14 rows of the Grand Sud above it leave it room)."""
    import datetime as dt

    from reportgen.render import html, pdf

    season = 2026
    rankings = {"grand-sud": [r for r in example_scored.reports["grand-sud"].rankings if r.season == season][-1],
                "masters": example_scored.reports["masters"].rankings[-1]}
    made = club_bulletin.prepare(example_league, example_scored, season, None, rankings,
                                 max(r.date for r in rankings.values()))
    assert len(made) > 10
    for code, bulletin in made.items():
        path = tmp_path / f"{code}.pdf"
        path.write_bytes(pdf.render_pdf(html.render(club_bulletin.document(bulletin, "Ligue", dt.date(2026, 11, 28), True))))
        lines = printed_lines(path)
        width = float(re.search(r'<page width="([\d.]+)"', subprocess.run(
            ["pdftotext", "-bbox", "-l", "1", str(path), "-"], capture_output=True, text=True, check=True).stdout)[1])
        at = 0
        for section in bulletin.sections:
            at = next(index for index in range(at, len(lines)) if lines[index][2] == section.circuit)
            heading = lines[at][0]
            header = next(line for line in lines[at:] if line[2].startswith(" ".join(section.headers[:2])))
            rows = [next(line for line in lines[at:] if section_row[1] in line[2]) for section_row in section.rows]
            assert header[0] == rows[0][0] == heading, (code, section.circuit)
            if len(rows) <= 7:
                assert {row[0] for row in rows} == {heading}, (code, section.circuit)
            # none stretched across the page (its 12 mm margins, 34 points): each ends 10 mm short of the
            # right margin at least, one of three columns in the page's left half
            limit = width / 2 if len(section.headers) <= 3 else width - 34 - 28
            assert header[1] < limit, (code, section.circuit, header)
        if code == "AUCH":
            assert [line[0] for line in lines if line[2] == "Masters Grand Sud"] == [0]


def test_a_club_s_pool_tournament_is_given_its_days_as_the_site_gives_them(tmp_path):
    """A pool tournament played over weeks was listed in its club's bulletin by its first day alone
    (« 5 septembre 2026 »), where the site and calendrier.ics say « du 5 septembre au 6 octobre 2026 »
    once it is over: the same days, by the same rule (`model.played_days`, through the calendar's
    `PlayedDays`). The example league's two pool tournaments, organised by Toulouse as its calendar
    says; its tournaments of one day as they were."""
    import datetime as dt
    import shutil

    from reportgen.pipeline import load, score
    from reportgen.render import html, pdf
    from tests.builders import TODAY
    from tests.conftest import EXAMPLE_INPUTS
    from tests.test_site import POOL_DAYS

    inputs = tmp_path / "inputs"
    shutil.copytree(EXAMPLE_INPUTS, inputs)
    write_calendar(inputs, [["05/09/2026", "poules", "TLSE", "Open d'automne en ligne", "en ligne"],
                            ["24/10/2026", "poules", "TLSE", "Coupe de la Toussaint en ligne", "en ligne"]])
    league = load(inputs, TODAY)
    scored = score(league)
    ranking = [r for r in scored.reports["grand-sud"].rankings if r.season == 2026][-1]
    toulouse = club_bulletin.prepare(league, scored, 2026, None, {"grand-sud": ranking}, ranking.date)["TLSE"]
    days = {t["name"]: t["day"] for t in toulouse.tournaments}
    assert days == {"Open de printemps de Toulouse": "14 mars 2026", "Open d'automne en ligne": POOL_DAYS["Open d'automne en ligne"],
                    "Open d'automne de Toulouse": "24 octobre 2026",
                    "Coupe de la Toussaint en ligne": POOL_DAYS["Coupe de la Toussaint en ligne"]}, days
    path = tmp_path / "TLSE.pdf"
    path.write_bytes(pdf.render_pdf(html.render(club_bulletin.document(toulouse, "Ligue", dt.date(2026, 11, 28), True))))
    text = " ".join(pdf_text(path).split())
    assert "du 5 septembre au 6 octobre 2026 Tournoi en ligne par poules Open d'automne en ligne" in text, text


def test_a_club_s_tournaments_are_said_as_of_its_bulletin_s_date_and_a_running_one_is_running(tmp_path):
    """Toulouse's bulletin « au 28 novembre 2026 », made on 7 December, listed in red « attendu » a
    pool tournament of 5 December, later than the bulletin and under way. A tournament is awaited
    when its day is past both on the bulletin's date and on the day it is made (pipeline/calendar.py
    `state`, the home page's rule); a pool tournament between its rounds (its workbook there, its
    final not played) is « en cours »; one announced whose workbook has not arrived is awaited once
    its first day is past, as any other (its first round is written in its workbook that day).
    (`reportgen mail` gives the day its message is written, as that message says the results
    awaited: test_a_club_s_pdf_says_its_tournaments_as_its_message_does_on_the_day_it_is_written.)"""
    from reportgen.pipeline import load, score
    from tests.test_calendar import pool_tournaments

    inputs = pool_tournaments(tmp_path / "inputs")
    write_calendar(inputs, [["24/10/2026", "poules", "TLSE", "Coupe de la Toussaint en ligne", "en ligne"],
                            ["07/11/2026", "grand-sud", "TLSE", "Open de novembre", "Toulouse"],
                            ["05/12/2026", "poules", "TLSE", "Open d'hiver en ligne", "en ligne"]])
    league = load(inputs, dt.date(2026, 12, 7))
    scored = score(league)
    ranking = [r for r in scored.reports["grand-sud"].rankings if r.season == 2026][-1]

    def said(day: dt.date) -> dict[str, tuple[str, str]]:
        toulouse = club_bulletin.prepare(league, scored, 2026, None, {"grand-sud": ranking}, day)["TLSE"]
        return {t["name"]: (t["status"], t["kind"]) for t in toulouse.tournaments}

    assert said(dt.date(2026, 11, 28)) == {"Tournoi 2026-01-10-toulouse": ("reçu", "up"),
                                           "Coupe de la Toussaint en ligne": ("en cours", "muted"),
                                           "Open de novembre": ("attendu", "down"),
                                           "Open d'hiver en ligne": ("à venir", "muted")}
    assert said(dt.date(2026, 12, 7))["Open d'hiver en ligne"] == ("attendu", "down")


def test_a_club_s_bulletin_says_a_cancelled_pool_tournament_and_one_of_registrations_alone_as_the_site_does(tmp_path):
    """Toulouse's bulletin listed its pool tournament cancelled (Art. XI: 2 players left not forfeit, its
    own bulletin « tournoi annulé ») « en cours », and the one whose workbook holds its registrations
    alone « en cours » too, where its build note said it had not begun: « annulé » and « inscriptions
    reçues », the home page's words (pipeline/calendar.py `state`)."""
    from reportgen.pipeline import load, score
    from tests.builders import write_workbook
    from tests.poules.test_builders import Tour
    from tests.test_calendar import HEADER, pool_tournaments

    inputs = pool_tournaments(tmp_path / "inputs")
    Tour(8, name="Open d'hiver en ligne", day=dt.date(2026, 11, 21)).write(inputs, "2026-11-21-hiver.xlsx")
    trophy = Tour(4, name="Trophée en ligne", day=dt.date(2026, 10, 3))
    trophy.next(dt.date(2026, 10, 3))
    first, second = list(dict.fromkeys(row[2] for row in trophy.games(1)))[:2]
    trophy.forfeit(first, 1, day=dt.date(2026, 10, 10))
    trophy.forfeit(second, 1, day=dt.date(2026, 10, 11))
    trophy.write(inputs, "2026-10-03-trophee.xlsx")
    write_workbook(inputs / "calendrier.xlsx", {"Calendrier": [
        [*HEADER, "Fin"], ["03/10/2026", "poules", "TLSE", "Trophée en ligne", "en ligne", "14/11/2026"],
        ["21/11/2026", "poules", "TLSE", "Open d'hiver en ligne", "en ligne", "30/01/2027"]]})
    league = load(inputs, dt.date(2026, 12, 7))
    scored = score(league)
    ranking = [r for r in scored.reports["grand-sud"].rankings if r.season == 2026][-1]
    toulouse = club_bulletin.prepare(league, scored, 2026, None, {"grand-sud": ranking}, dt.date(2026, 12, 7))["TLSE"]
    said = {t["name"]: (t["status"], t["kind"]) for t in toulouse.tournaments}
    assert said == {"Tournoi 2026-01-10-toulouse": ("reçu", "up"), "Trophée en ligne": ("annulé", "muted"),
                    "Open d'hiver en ligne": ("inscriptions reçues", "muted")}, said


def page_lines(path: Path) -> list[list[str]]:
    """Each page's lines, as pdftotext lays them out, blank ones left out."""
    return [[" ".join(line.split()) for line in page.splitlines() if line.strip()]
            for page in pdf_text(path).split("\f")]


def test_a_club_s_evolution_is_said_under_its_table_since_the_ranking_its_bulletin_names(
        example_league, example_scored, tmp_path):
    """The legend « Évolution : … depuis le classement précédent » was printed on page 2, under the
    tournaments' table, where the Grand Sud bulletin of the same ranking says « depuis le classement
    au 24 octobre 2026 » (`evolution_since`): it is said right under the players' table it explains,
    in the bulletin's words."""
    from reportgen.render import html, pdf

    season, slug = 2026, "grand-sud"
    # the ranking a club's message reports: the season's latest with a bulletin (delivery/mail.py)
    documents = {d.path: d for d in example_scored.reports[slug].documents}
    ranking = [r for r in example_scored.reports[slug].rankings if r.season == season and r.path in documents][-1]
    document = documents[ranking.path]
    since = document.context["evolution_since"]
    assert since == "depuis le classement au 24 octobre 2026"
    toulouse = club_bulletin.prepare(example_league, example_scored, season, None, {slug: ranking},
                                     ranking.date)["TLSE"]
    path = tmp_path / "TLSE.pdf"
    path.write_bytes(pdf.render_pdf(html.render(club_bulletin.document(toulouse, "Ligue", ranking.date, True))))
    (first, *_), legend = page_lines(path), f"Évolution : places gagnées (+) ou perdues (−) {since}."
    # on the table's page, after its last player, before the next circuit's part
    assert legend in first, first
    after = first.index(legend)
    assert re.match(r"\d+e .*DURAND Nathalie", first[after - 1]) and first[after + 1] == "Masters Grand Sud", first
    assert "depuis le classement précédent" not in pdf_text(path)


def test_a_club_s_pdf_says_its_tournaments_as_its_message_does_on_the_day_it_is_written(tmp_path):
    """The example league's latest bulletins: the Grand Sud's of 14 November, the Masters' of 28
    November, which dated Cahors's own PDF; its message written on 7 December. The PDF said its
    tournaments as of 28 November: its Open of 5 December « à venir », while the message sent with
    it said « vos classeurs du 21 novembre et du 5 décembre sont attendus ». Both say them on the
    day the message is written (pipeline/calendar.py `state`), the PDF naming that day; its
    tournament between the two bulletins, of 21 November, awaited in both as before."""
    import shutil

    from reportgen.pipeline import load, score
    from tests.conftest import EXAMPLE_INPUTS

    inputs = tmp_path / "inputs"
    shutil.copytree(EXAMPLE_INPUTS, inputs)
    write_calendar(inputs, [["21/11/2026", "grand-sud", "CAHO", "Coupe de Cahors", "Cahors"],
                            ["05/12/2026", "grand-sud", "CAHO", "Open d'hiver de Cahors", "Cahors"],
                            ["19/12/2026", "grand-sud", "CAHO", "Noël à Cahors", "Cahors"]])
    league = load(inputs, dt.date(2026, 12, 7))
    plan = drafts.prepare(league, score(league), tmp_path / "outputs")
    dates = {bulletin.circuit: bulletin.document.date for bulletin in plan.bulletins}
    assert (dates["grand-sud"], dates["masters"], plan.day) == (dt.date(2026, 11, 14), dt.date(2026, 11, 28),
                                                                 dt.date(2026, 11, 28))
    [cahors] = [club_mail for club_mail in plan.clubs if club_mail.club.code == "CAHO"]
    lines = {ranking["circuit"]: ranking["awaited"] for ranking in drafts.context(plan, cahors, [])["rankings"]}
    assert lines[circuits.REGISTRY["grand-sud"].title] == (
        "Classement provisoire : vos classeurs du 21 novembre et du 5 décembre sont attendus. Pour les envoyer, "
        "répondez à ce message en les joignant."), lines
    own = plan.own["CAHO"]
    assert {t["name"]: t["status"] for t in own.tournaments if "Cahors" in t["name"]} == {
        "Coupe de Cahors": "attendu", "Open d'hiver de Cahors": "attendu", "Noël à Cahors": "à venir"}
    [path] = club_bulletin.write({"CAHO": own}, tmp_path / "outputs", "Ligue", plan.day, True, "clubs/2026")
    text = " ".join(pdf_text(path).split())
    assert "Bulletin du club de Cahors au 28 novembre 2026" in text, text
    assert "Leurs résultats au 7 décembre 2026, jour où ce bulletin a été préparé." in text, text
    assert "Open d'hiver de Cahors Cahors attendu" in text and "Noël à Cahors Cahors à venir" in text, text
