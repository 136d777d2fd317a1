"""The league's calendar (issue 25): inputs/calendrier.xlsx read with its located problems, announced
tournaments matched to the workbooks that arrive, the « provisoire » note of a ranking that awaits
one, outputs/calendrier.ics (issue 24) and the blank calendar of `reportgen template calendrier`."""

import datetime as dt
import html as markup
import io
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import NamedTuple

import icalendar
import openpyxl
from pypdf import PdfReader

from reportgen import french
from reportgen.circuits.base import Reading
from reportgen.delivery import published
from reportgen.ingest.calendar import COMING, PLAYED, Announced, Played, calendar
from reportgen.ingest.directories import Club, ClubDirectory
from reportgen.model import SourceRef
from reportgen.pipeline import build, load, score
from reportgen.pipeline.calendar import Revisions, season_notes
from reportgen.render.ical import uid
from tests.browser import check_page
from tests.builders import TODAY, small_league, write_clubs, write_tournament, write_workbook
from tests.excel_validation import refusals
from tests.test_delivery_mail import cli

REPORTGEN = str(Path(sys.executable).parent / "reportgen")
HEADER = ["Date", "Circuit", "Club", "Nom", "Lieu"]


def write_calendar(inputs: Path, rows: list[list[object]]) -> Path:
    return write_workbook(inputs / "calendrier.xlsx", {"Calendrier": [HEADER, *rows]})


def problems_of(inputs: Path) -> list[tuple[str, str | None, str]]:
    league = load(inputs, TODAY)
    return [(p.code, p.where.cell, p.message) for p in league.problems if p.where.path == "calendrier.xlsx"]


# -- reading calendrier.xlsx ----------------------------------------------------------------------

def test_a_good_calendar_is_read_into_typed_entries(tmp_path):
    inputs = tmp_path / "inputs"
    write_clubs(inputs)
    write_calendar(inputs, [["13/06/2026", "grand-sud", "PERP", "Open de Perpignan", "Perpignan"],
                            [dt.datetime(2026, 12, 12), "Masters", "", "Masters 2026", "Carcassonne"]])
    league = load(inputs, TODAY)
    assert league.problems == [] and league.announced
    assert [(e.date, e.circuit, e.club, e.name, e.place, e.status) for e in league.calendar] == [
        (dt.date(2026, 6, 13), "grand-sud", "PERP", "Open de Perpignan", "Perpignan", COMING),
        (dt.date(2026, 12, 12), "masters", "", "Masters 2026", "Carcassonne", COMING)]
    assert league.calendar[0].where == SourceRef("calendrier.xlsx", "Calendrier", "A2", "Date")


def test_each_bad_cell_is_a_located_french_problem_with_its_fix(tmp_path):
    inputs = tmp_path / "inputs"
    write_clubs(inputs)
    write_calendar(inputs, [["31/02/2026", "grand-sud", "PERP", "Open", ""],
                            ["13/06/2026", "belote", "PERP", "Open", ""],
                            ["13/06/2026", "grand-sud", "RODZ", "Open de Rodez", ""],
                            ["20/06/2026", "grand-sud", "", "", "Albi"],
                            ["27/06/2026", "grand-sud", "ALBI", "Open d'Albi", ""],
                            ["27/06/2026", "grand-sud", "Albi", "Tournoi d'été", ""]])
    found = problems_of(inputs)
    assert [(code, cell) for code, cell, _ in found] == [
        ("bad-value", "A2"), ("unknown-circuit", "B3"), ("unknown-club", "C4"), ("missing-value", "D5"),
        ("announced-twice", "A7")]
    league = load(inputs, TODAY)
    by_code = {p.code: p for p in league.problems}
    assert "février 2026 compte 28 jours" in by_code["bad-value"].fix
    assert by_code["unknown-circuit"].message == "le circuit « belote » n’existe pas"
    assert "grand-sud" in by_code["unknown-circuit"].fix
    assert by_code["announced-twice"].message == "ce tournoi est déjà annoncé en A6 (même circuit, même date, même club)"
    assert str(by_code["unknown-club"].where) == "calendrier.xlsx, feuille « Calendrier », cellule C4 (colonne « Club »)"


def test_a_calendar_without_its_columns_or_sheet_says_what_to_write(tmp_path):
    inputs = tmp_path / "inputs"
    write_workbook(inputs / "calendrier.xlsx", {"Feuille1": [["Quand", "Quoi"]], "Feuille2": [["x"]]})
    assert [code for code, _, _ in problems_of(inputs)] == ["missing-sheet"]
    write_workbook(inputs / "calendrier.xlsx", {"Calendrier": [["Quand", "Nom"], ["13/06/2026", "Open"]]})
    [(code, _, message)] = problems_of(inputs)
    assert code == "missing-column" and message == "colonne introuvable : « Date », « Circuit »"


def test_check_prints_the_calendar_problem_and_exits_1(tmp_path):
    inputs = tmp_path / "inputs"
    write_clubs(inputs)
    write_calendar(inputs, [["13/06/2026", "belote", "PERP", "Open", ""]])
    done = subprocess.run([REPORTGEN, "check", "--inputs", str(inputs), "--outputs", str(tmp_path / "out")],
                          capture_output=True, text=True)
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert "calendrier.xlsx" in done.stdout + done.stderr and "« belote » n’existe pas" in done.stdout + done.stderr


# -- announced and played --------------------------------------------------------------------------

def announced(day: int, name: str, club: str = "", circuit: str = "grand-sud") -> Announced:
    return Announced(dt.date(2026, 6, day), circuit, name, "", club, SourceRef("calendrier.xlsx", "Calendrier", "A2"))


def played(day: int, name: str, club: str = "", circuit: str = "grand-sud") -> Played:
    return Played(dt.date(2026, 6, day), circuit, name, "Ville", club, f"{name}.xlsx")


def test_a_workbook_is_matched_by_club_then_by_name_then_as_the_one_left_on_its_day():
    entries = calendar(
        [announced(13, "Open de Rodez", "RODZ"), announced(13, "Open d'Albi", "ALBI"), announced(20, "Coupe"),
         announced(27, "Trophée", "NIME"), announced(27, "Autre", circuit="tantrix")],
        [played(13, "Tournoi de juin", "ALBI"), played(13, "7e Open de Rodez", "RODZ"), played(20, "coupe "),
         played(27, "Grand prix de Nîmes")])
    shown = [(e.date.day, e.circuit, e.name, e.status, e.known_as) for e in entries]
    assert shown == [
        (13, "grand-sud", "7e Open de Rodez", PLAYED, "Open de Rodez"),
        (13, "grand-sud", "Tournoi de juin", PLAYED, "Open d'Albi"),
        (20, "grand-sud", "coupe ", PLAYED, "Coupe"),
        (27, "grand-sud", "Grand prix de Nîmes", PLAYED, "Trophée"),
        (27, "tantrix", "Autre", COMING, "Autre")]  # another circuit's workbook is not its


def test_a_workbook_naming_its_club_is_matched_with_its_own_row_never_with_another_clubs(small_league_copy):
    """Albi's and Nîmes's tournaments announced on 14 March; Nîmes's and Carcassonne's workbooks
    arrive, each naming its club. Nîmes's is matched with its row; Carcassonne's (announced nowhere)
    was matched by the last pass with Albi's row, whatever its club: the calendar, the site and the
    reminders said Albi's results received. Albi's row stays awaited, Carcassonne's tournament is
    one the calendar did not announce."""
    inputs = small_league_copy.inputs
    write_calendar(inputs, [["14/03/2026", "grand-sud", "ALBI", "Open d’Albi", "Albi"],
                            ["14/03/2026", "grand-sud", "NIME", "Trophée de Nîmes", "Nîmes"]])
    write_tournament(inputs, "2026-03-14-nimes", day="14/03/2026", club="NIME")
    write_tournament(inputs, "2026-03-14-carcassonne", day="14/03/2026", club="CARC")
    league = load(inputs, TODAY)
    assert league.problems == []
    day = [(e.known_as, e.club, e.workbook, e.where is not None) for e in league.calendar
           if e.date == dt.date(2026, 3, 14)]
    assert sorted(day) == [("Open d’Albi", "ALBI", "", True),
                           ("Tournoi 2026-03-14-carcassonne", "CARC", "2026-03-14-carcassonne.xlsx", False),
                           ("Trophée de Nîmes", "NIME", "2026-03-14-nimes.xlsx", True)]
    [albi] = [e for e in league.calendar if e.club == "ALBI" and e.date == dt.date(2026, 3, 14)]
    assert albi.status not in (PLAYED,) and albi.coming


def test_an_announced_tournament_stays_a_venir_while_its_day_has_fewer_workbooks():
    entries = calendar([announced(13, "Open A", "AAAA"), announced(13, "Open B", "BBBB")],
                       [played(13, "Open B", "BBBB"), played(14, "Open A", "AAAA")])
    assert [(e.name, e.status) for e in entries] == [("Open A", COMING), ("Open B", PLAYED), ("Open A", PLAYED)]


def test_the_uid_of_an_announced_tournament_stays_when_its_workbook_arrives_under_another_name():
    [before] = calendar([announced(13, "Open de Rodez", "RODZ")], [])
    [after] = calendar([announced(13, "Open de Rodez", "RODZ")], [played(13, "7e Open", "RODZ")])
    assert after.name == "7e Open" and uid(before) == uid(after)
    [other] = calendar([announced(13, "Open de Millau", "RODZ")], [])
    assert uid(other) != uid(before)
    # the typographic apostrophe, kept as typed since the forty-fourth round, keeps the UID it had
    # when the reading made it plain: a subscribed phone saw the event twice
    [typographic] = calendar([announced(13, "Open de l’Aude", "RODZ")], [])
    [plain] = calendar([announced(13, "Open de l'Aude", "RODZ")], [])
    assert uid(typographic) == uid(plain)



def test_an_entry_is_titled_by_its_name_else_its_place_else_its_club():
    clubs = ClubDirectory([Club("TLSE", "Toulouse", "31"), Club("GRAU", "Le Grau-du-Roi", "30")])
    [named, placed, by_club, by_article, online] = calendar(
        [Announced(dt.date(2026, 11, day), "grand-sud", name, place, club, SourceRef("calendrier.xlsx"))
         for day, name, place, club in [(1, "Open d'automne", "Albi", "TLSE"), (8, "", "Auch", "TLSE"),
                                        (15, "", "", "TLSE"), (22, "", "", "GRAU"), (29, "", "en ligne", "TLSE")]], [])
    assert [e.title(clubs) for e in (named, placed, by_club, by_article, online)] == [
        "Open d'automne", "Tournoi d’Auch", "Tournoi de Toulouse", "Tournoi du Grau-du-Roi", "Tournoi en ligne"]

# -- the build: the « provisoire » note and calendrier.ics -------------------------------------------

def league_with_calendar(small_league_copy) -> tuple[Path, Path]:
    """The small league (tournaments of 01/06/2025, 10/01/2026 twice, 07/02/2026) and a calendar
    that announces Toulouse's (arrived, under another name), Perpignan's of 20/01/2026 (awaited) and
    the season's last one."""
    inputs, outputs = small_league_copy.inputs, small_league_copy.outputs
    write_calendar(inputs, [["10/01/2026", "grand-sud", "TLSE", "Open de Toulouse", ""],
                            ["20/01/2026", "grand-sud", "PERP", "Open de Perpignan", "Perpignan"],
                            ["12/12/2026", "grand-sud", "", "Finale de la saison", "Carcassonne"]])
    return inputs, outputs


def test_a_ranking_after_an_awaited_tournament_says_it_is_provisional(small_league_copy):
    inputs, outputs = league_with_calendar(small_league_copy)
    # Albi's of 27/01, a week after Perpignan's, arrives first.
    write_tournament(inputs, "2026-01-27-albi", day="27/01/2026", club="ALBI")
    result = build(inputs, outputs, TODAY)
    assert result.ok, result.problems
    note = "provisoire : résultats de Perpignan du 20 janvier attendus"
    folder = outputs / "grand-sud" / "2026"
    # The ranking of 27/01, the season's ranking « à date » (one document per ranking): Perpignan's
    # is awaited; the finale of 12/12 is not yet.
    # « du 20\u00a0janvier »: a page never parts a day from its month, nor « provisoire » from its « : »
    shown = french.day_month_kept(french.typography(note))
    assert f'<p class="awaited" style="margin: 1mm 0 0; color: #9a3412; font-weight: 600;">{shown}</p>' in (
        folder / "classement-2026-01-27.html").read_text()
    pdf_text = " ".join(" ".join(page.extract_text().split()) for page in PdfReader(folder / "classement-2026-01-27.pdf").pages)
    assert note in pdf_text
    assert "provisoire" not in (folder / "classement-2026-01-10.html").read_text()  # dated before it
    # the site's season page says it beside the ranking it concerns, as the bulletin under its title
    season = outputs / "site" / "grand-sud-2026.html"
    assert re.search(r'<h2 id="classement">Classement après le tournoi [^<]* du 27\u00a0janvier 2026</h2>\n'
                     r'<p class="awaited">Provisoire\u00a0: résultats de Perpignan du 20\u00a0janvier attendus\.</p>',
                     season.read_text()), season.read_text()
    # `mail` and `archive` score the league again: they find outputs/ up to date, note included.
    assert published.stale(published.season_files(score(load(inputs, TODAY)), 2026)[0], outputs) == []
    # Its workbook arrives: the rankings of 20/01 and after no longer await anything.
    write_tournament(inputs, "2026-01-20-perpignan", day="20/01/2026", club="PERP")
    assert build(inputs, outputs, TODAY).ok
    assert "provisoire" not in (folder / "classement-2026-01-20.html").read_text()
    assert "provisoire" not in (folder / "classement-2026-01-27.html").read_text()
    assert "Provisoire" not in season.read_text()


def test_a_season_s_ranking_in_force_awaits_a_tournament_past_since_its_latest_bulletin():
    """The site's season page shows the latest bulletin (of 14 November, before Perpignan's of 21
    November): it said nothing of Perpignan's results, awaited on the build's day (29 November);
    `season_notes` gives the note the page says beside it. A tournament to come is not awaited."""
    entries = calendar([announced(13, "Open de Rodez", "RODZ"), announced(20, "Open de Perpignan", "PERP"),
                        announced(27, "Coupe", circuit="tantrix")], [played(13, "Open de Rodez", "RODZ")])
    clubs = ClubDirectory([Club("PERP", "Perpignan", "66")])
    assert season_notes(entries, Reading(clubs, dt.date(2026, 6, 24))) == {
        ("grand-sud", 2026): "provisoire : résultats de l’Open de Perpignan du 20 juin attendus"}
    assert season_notes(entries, Reading(clubs, dt.date(2026, 6, 20))) == {}
    # closed, its ranking in force is final: nothing awaited, those results never came
    assert season_notes(entries, Reading(clubs, dt.date(2026, 6, 24), closed={2026: dt.date(2026, 6, 22)})) == {
        ("grand-sud", 2026): "résultats de l’Open de Perpignan du 20 juin non reçus"}


def awaited_notes(inputs: Path) -> set[str]:
    """The « provisoire » notes the scored league's documents carry (what base.html.j2 prints)."""
    return {document.context["awaited"] for report in score(load(inputs, TODAY)).reports.values()
            for document in report.documents if "awaited" in document.context}


def test_an_awaited_tournament_known_by_its_club_alone_is_named_after_the_club(tmp_path):
    inputs = small_league(tmp_path / "inputs")
    write_calendar(inputs, [["01/11/2026", "grand-sud", "NIME", "", "Beaucaire"],
                            ["08/11/2026", "grand-sud", "TLSE", "", ""]])
    write_tournament(inputs, "2026-11-14-albi", day="14/11/2026", club="ALBI")
    # The ranking of 14/11 awaits both: the second row names neither tournament nor place.
    assert awaited_notes(inputs) == {
        "provisoire : résultats de Beaucaire du 1er novembre et de Toulouse du 8 novembre attendus"}


def test_the_ics_lists_played_and_announced_tournaments_as_all_day_events(small_league_copy):
    inputs, outputs = league_with_calendar(small_league_copy)
    assert build(inputs, outputs, TODAY).ok
    data = (outputs / "calendrier.ics").read_bytes()
    parsed = icalendar.Calendar.from_ical(data)
    events = [(str(e["summary"]), e.decoded("dtstart"), e.decoded("dtend"), str(e.get("location", "")),
               str(e["description"])) for e in parsed.walk("VEVENT")]
    assert [(summary, start) for summary, start, *_ in events] == [
        ("Tournoi 2025-06-01-albi", dt.date(2025, 6, 1)),
        ("Tournoi 2026-01-10-carcassonne", dt.date(2026, 1, 10)),
        ("Tournoi 2026-01-10-toulouse", dt.date(2026, 1, 10)),
        ("Open de Perpignan", dt.date(2026, 1, 20)),
        ("Tournoi 2026-02-07-marseille", dt.date(2026, 2, 7)),
        ("Finale de la saison", dt.date(2026, 12, 12))]
    assert all(end - start == dt.timedelta(days=1) and isinstance(start, dt.date) and not isinstance(start, dt.datetime)
               for _, start, end, _, _ in events)
    assert b"DTSTART;VALUE=DATE:20260120" in data
    perpignan = events[3]
    # its day past on the build's day, its workbook not arrived: awaited, as the home page says (it read « à venir »)
    assert perpignan[3] == "Perpignan" and "Organisé par Perpignan" in perpignan[4]
    assert perpignan[4].endswith("Résultats attendus.") and events[5][4].endswith("Résultats à venir.")
    assert "Résultats publiés" in events[2][4]
    stamps = {e.decoded("dtstamp") for e in parsed.walk("VEVENT")}
    assert stamps == {dt.datetime(2026, 11, 29, tzinfo=dt.timezone.utc)}  # the build's day, not the clock
    assert b"DUPONT" not in data and b"MARTIN" not in data  # no player in the calendar
    uids = [str(e["uid"]) for e in parsed.walk("VEVENT")]
    assert len(set(uids)) == len(uids)


def test_the_same_inputs_give_the_same_ics_bytes_and_a_broken_calendar_keeps_the_last_one(small_league_copy,
                                                                                           tmp_path):
    inputs, outputs = league_with_calendar(small_league_copy)
    assert build(inputs, outputs, TODAY).ok
    first = (outputs / "calendrier.ics").read_bytes()
    again = tmp_path / "again"
    shutil.copytree(inputs, again / "inputs")
    assert build(again / "inputs", again / "outputs", TODAY).ok
    assert (again / "outputs" / "calendrier.ics").read_bytes() == first
    write_calendar(inputs, [["pas une date", "grand-sud", "", "Open", ""]])
    assert not build(inputs, outputs, TODAY).ok
    assert (outputs / "calendrier.ics").read_bytes() == first
    (inputs / "calendrier.xlsx").unlink()
    assert build(inputs, outputs, TODAY).ok
    assert not (outputs / "calendrier.ics").exists()  # no calendar announced: none published


# -- the blank calendar ---------------------------------------------------------------------------

def test_the_blank_calendar_has_lists_and_its_example_typed_in_passes_check(tmp_path):
    inputs = tmp_path / "inputs"
    write_clubs(inputs)
    done = subprocess.run([REPORTGEN, "template", "calendrier", "--inputs", str(inputs), "--outputs",
                           str(tmp_path / "out")], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    path = tmp_path / "out" / "modeles" / "modele-calendrier.xlsx"
    book = openpyxl.load_workbook(path)
    assert book.sheetnames == ["Calendrier", "Exemple", "Clubs"]
    assert [c.value for c in book["Calendrier"][1]] == [*HEADER, "Fin"]
    checks = {str(v.sqref): (v.type, v.formula1) for v in book["Calendrier"].data_validations.dataValidation}
    assert checks["C2:C201"] == ("list", "Clubs!$A$2:$A$8") and checks["A2:A201"][0] == "date"
    assert checks["B2:B201"][0] == "list" and "grand-sud" in checks["B2:B201"][1]
    typed = []
    for cells in book["Exemple"].iter_rows(min_row=2):
        for cell in cells:
            book["Calendrier"][cell.coordinate].value = cell.value
            typed.append(cell.coordinate)
    assert typed and [m for c in typed for m in refusals(book["Calendrier"], c, book["Calendrier"][c].value)] == []
    book.save(inputs / "calendrier.xlsx")
    league = load(inputs, TODAY)
    assert league.problems == [] and [e.status for e in league.calendar] == [COMING, COMING]
    refused = subprocess.run([REPORTGEN, "template", "calendrier", "--club", "CARC", "--inputs", str(inputs)],
                             capture_output=True, text=True, env={**os.environ, "COLUMNS": "200"})
    assert refused.returncode == 2 and "pas d’un club" in refused.stderr


def test_the_calendar_setting_is_checked_like_any_other(tmp_path):
    from reportgen import config

    (tmp_path / "reportgen.toml").write_text("[calendar]\nremind_after_days = 0\n")
    problems = []
    assert config.load(tmp_path, {}, problems).calendar.remind_after_days == 7  # the default stays
    assert [(p.code, str(p.where)) for p in problems] == [("out-of-range", "reportgen.toml, table [calendar], réglage « remind_after_days »")]
    (tmp_path / "reportgen.toml").write_text("[calendar]\nremind_after_days = 14\n")
    assert config.load(tmp_path, {}, problems := []).calendar.remind_after_days == 14 and problems == []


def home_calendar(outputs: Path) -> str:
    """The home page's calendar section."""
    home = (outputs / "index.html").read_text(encoding="utf-8")
    calendar = home[home.index('<section class="calendar">'):]
    return calendar[:calendar.index("</section>")]


def calendar_words(outputs: Path) -> str:
    """The home page's calendar section as its words read: its spaces plain, a status out of the span
    that keeps it on one line."""
    calendar = home_calendar(outputs).replace('<span class="nowrap">', "").replace("</span>", "")
    return " ".join(markup.unescape(calendar).split())


def test_the_home_page_shows_the_season_s_calendar_and_links_the_ics(small_league_copy):
    inputs, outputs = league_with_calendar(small_league_copy)
    assert build(inputs, outputs, TODAY).ok
    calendar = home_calendar(outputs)
    # The latest season's tournaments: first what comes next in date order (results awaited, those to
    # come), then the tournaments over, the latest first, folded under them; the file to subscribe to.
    coming, past = calendar.split('<details class="past" data-print="open">\n<summary>Tournois passés (3)</summary>')
    days = [coming.index(day) for day in ("20\u00a0janvier 2026", "12\u00a0décembre 2026")]
    assert days == sorted(days) and "10\u00a0janvier 2026" not in coming and "7\u00a0février 2026" not in coming
    days = [past.index(day) for day in ("7\u00a0février 2026", "10\u00a0janvier 2026")]
    assert days == sorted(days) and "20\u00a0janvier 2026" not in past and "</details>" in past
    # its name says where; its day past, awaited (not « à venir » ten months on); the season's last one to come
    assert ("Open de Perpignan (Classement régional Grand Sud)&nbsp;<span class=\"nowrap\">— résultats attendus</span></li>"
            in calendar)
    assert "Finale de la saison (Classement régional Grand Sud), Carcassonne&nbsp;<span class=\"nowrap\">— à venir</span></li>" in calendar
    assert "1er\u00a0juin 2025" not in calendar and "1er juin 2025" not in calendar  # the season before
    assert '<a href="calendrier.ics">Télécharger le calendrier</a>' in calendar and (outputs / "calendrier.ics").is_file()
    assert "webcal:" not in calendar  # no public address: a relative link can only download the file


# Each calendar line's status (« — à venir », « — résultats attendus »): its words, and the tops of
# the lines it is drawn on (its text from the line's last « — »)
STATUS_LINES = r"""() => Array.from(document.querySelectorAll('section.calendar li'), item => {
  const walker = document.createTreeWalker(item, NodeFilter.SHOW_TEXT), nodes = [];
  for (let node = walker.nextNode(); node; node = walker.nextNode()) nodes.push(node);
  const text = nodes.map(node => node.data).join(''), start = text.lastIndexOf('—');
  if (start < 0) return null;
  const range = document.createRange();
  let offset = 0;
  for (const node of nodes) {
    if (start >= offset && start < offset + node.data.length) range.setStart(node, start - offset);
    offset += node.data.length;
  }
  range.setEndAfter(nodes[nodes.length - 1]);
  const tops = new Set(Array.from(range.getClientRects(), rect => Math.round(rect.top)));
  return {status: text.slice(start), lines: tops.size};
}).filter(Boolean)"""


def test_a_phone_keeps_a_tournament_s_status_on_one_line(small_league_copy, browser):
    """At 390 px the home page's calendar ended a line with « — à » and began the next with
    « venir »: a short status is kept whole (as a date's day and month), at 320 px too."""
    inputs, outputs = league_with_calendar(small_league_copy)
    assert build(inputs, outputs, TODAY).ok
    for width in (390, 320):
        browser.look(outputs / "index.html", outputs, width, audit=False)
        shown = browser.pages[width].evaluate(STATUS_LINES)
        assert {" ".join(s["status"].split()) for s in shown} >= {"— à venir", "— résultats attendus"}, shown
        assert all(s["lines"] == 1 for s in shown), (width, shown)


def test_the_home_page_s_calendar_says_what_comes_next_first_and_folds_the_tournaments_over(small_league_copy, browser):
    """The home page's calendar listed the year's tournaments in date order: with the example league,
    sixteen played ones on a phone's screen and more before the first « à venir ». A visitor comes
    for what is next: the results awaited and the tournaments to come first, then the tournaments
    over, folded in a « Tournois passés » that opens without a script (with the keyboard too); the
    page still passes axe at 390 and 1280 px."""
    inputs, outputs = league_with_calendar(small_league_copy)
    assert build(inputs, outputs, TODAY).ok
    check_page(browser, outputs / "index.html", outputs)
    tab = browser.pages[390]
    shown = """() => Array.from(document.querySelectorAll('section.calendar li'), item =>
      [item.textContent.replace(/\\s+/g, ' '), item.checkVisibility()])"""
    # past ones in the page, unseen until the visitor opens them
    assert tab.evaluate(shown) == [
        ["20 janvier 2026 · Open de Perpignan (Classement régional Grand Sud) — résultats attendus", True],
        ["12 décembre 2026 · Finale de la saison (Classement régional Grand Sud), Carcassonne — à venir", True],
        # the latest first, a day's in the calendar's order
        ["7 février 2026 · Tournoi 2026-02-07-marseille (Classement régional Grand Sud)", False],
        ["10 janvier 2026 · Tournoi 2026-01-10-carcassonne (Classement régional Grand Sud)", False],
        ["10 janvier 2026 · Tournoi 2026-01-10-toulouse (Classement régional Grand Sud)", False]], tab.evaluate(shown)
    summary = tab.locator("section.calendar details.past summary")
    assert " ".join(summary.inner_text().split()) == "Tournois passés (3)"
    summary.focus()
    tab.keyboard.press("Enter")
    assert all(visible for _, visible in tab.evaluate(shown))


def test_the_home_page_printed_shows_the_tournaments_over_and_folds_them_again_after(small_league_copy, browser):
    """A secretary printing the home page got the tournaments to come alone: « Tournois passés » was
    printed folded, the tournaments over hidden. Printed from Chromium, they are on paper, and the
    page is as it was after (folded, as the visitor left it; opened, it stays open)."""
    inputs, outputs = league_with_calendar(small_league_copy)
    assert build(inputs, outputs, TODAY).ok
    browser.look(outputs / "index.html", outputs, 1280, audit=False)
    tab = browser.pages[1280]
    opened = "document.querySelector('section.calendar details.past').open"
    printed = " ".join(" ".join(page.extract_text().split()) for page in PdfReader(io.BytesIO(tab.pdf(format="A4"))).pages)
    assert "Tournois passés (3)" in printed and "à venir" in printed
    assert "7 février 2026 · Tournoi 2026-02-07-marseille" in printed, printed
    assert "10 janvier 2026 · Tournoi 2026-01-10-toulouse" in printed, printed
    assert tab.evaluate(opened) is False
    tab.locator("section.calendar details.past summary").click()  # opened by the visitor: left open
    tab.pdf(format="A4")
    assert tab.evaluate(opened) is True


def test_a_calendar_with_nothing_left_to_come_says_so_above_the_tournaments_over(small_league_copy):
    inputs, outputs = small_league_copy.inputs, small_league_copy.outputs
    write_calendar(inputs, [["10/01/2026", "grand-sud", "TLSE", "Open de Toulouse", ""]])  # arrived
    assert build(inputs, outputs, TODAY).ok
    calendar = home_calendar(outputs)
    assert "<ul>" not in calendar[:calendar.index("<details")]  # nothing to come: no empty list
    assert 0 < calendar.index("<p>Aucun autre tournoi annoncé pour l’instant.</p>") < calendar.index("Tournois passés (3)")
    assert "Aucune date annoncée" not in calendar


def test_with_the_site_s_address_the_home_page_offers_to_subscribe_to_the_calendar(small_league_copy):
    inputs, outputs = league_with_calendar(small_league_copy)
    with open(inputs / "reportgen.toml", "a", encoding="utf-8") as settings:
        settings.write('\n[site]\nurl = "https://ligue.example.org/classements/"\n')
    assert build(inputs, outputs, TODAY).ok
    calendar = home_calendar(outputs)
    # webcal:// is what phones and calendar programs follow as a subscription; the file stays downloadable
    assert '<a href="webcal://ligue.example.org/classements/calendrier.ics">S’abonner au calendrier</a>' in calendar
    assert '<a href="calendrier.ics">télécharger le fichier iCalendar</a>' in calendar


def test_the_home_page_lists_next_season_announced_beside_this_one_s(small_league_copy):
    inputs, outputs = league_with_calendar(small_league_copy)
    write_calendar(inputs, [["20/01/2026", "grand-sud", "PERP", "Open de Perpignan", "Perpignan"],
                            ["12/12/2026", "grand-sud", "", "Finale de la saison", "Carcassonne"],
                            ["16/01/2027", "grand-sud", "", "Tournoi d'hiver", "Lourdes"]])
    assert build(inputs, outputs, TODAY).ok
    calendar = home_calendar(outputs)
    # Announced in November: January's tournament does not hide this season's, still to come or played.
    days = [calendar.index(day) for day in ("20\u00a0janvier 2026", "12\u00a0décembre 2026", "16\u00a0janvier 2027",
                                            "Tournois passés", "10\u00a0janvier 2026")]
    assert days == sorted(days)
    assert "Tournoi d'hiver (Classement régional Grand Sud), Lourdes\u00a0<span class=\"nowrap\">— à venir</span></li>" in markup.unescape(calendar)
    assert "1er\u00a0juin 2025" not in calendar  # the season before
    # In the new year, the season just ended is no longer listed.
    assert build(inputs, outputs, dt.date(2027, 1, 2)).ok
    calendar = home_calendar(outputs)
    assert "16\u00a0janvier 2027" in calendar and "décembre 2026" not in calendar


def club_alone_league(inputs: Path) -> Path:
    """The small league and a calendar whose rows of November name a tournament by its club alone,
    or by its club and place."""
    small_league(inputs)
    write_calendar(inputs, [["01/11/2026", "grand-sud", "NIME", "", "Le Grau-du-Roi"],
                            ["08/11/2026", "grand-sud", "TLSE", "", ""]])
    return inputs


def test_the_home_page_names_a_tournament_the_calendar_knows_by_its_club_alone(tmp_path):
    inputs = club_alone_league(tmp_path / "inputs")
    assert build(inputs, tmp_path / "outputs", TODAY).ok
    calendar = home_calendar(tmp_path / "outputs")
    assert ("8\u00a0novembre 2026 · Tournoi de Toulouse (Classement régional Grand Sud)&nbsp;<span class=\"nowrap\">— résultats "
            "attendus</span></li>" in calendar)
    assert ("1er\u00a0novembre 2026 · Tournoi du Grau-du-Roi (Classement régional Grand Sud)&nbsp;<span class=\"nowrap\">— "
            "résultats attendus</span></li>" in calendar)


def test_the_ics_names_a_tournament_the_calendar_knows_by_its_club_alone(tmp_path):
    inputs = club_alone_league(tmp_path / "inputs")
    assert build(inputs, tmp_path / "outputs", TODAY).ok
    parsed = icalendar.Calendar.from_ical((tmp_path / "outputs" / "calendrier.ics").read_bytes())
    events = {e.decoded("dtstart"): e for e in parsed.walk("VEVENT")}
    toulouse, grau = events[dt.date(2026, 11, 8)], events[dt.date(2026, 11, 1)]
    assert str(toulouse["summary"]) == "Tournoi de Toulouse" and "location" not in toulouse
    assert "Organisé par Toulouse." in str(toulouse["description"])
    assert str(grau["summary"]) == "Tournoi du Grau-du-Roi" and str(grau["location"]) == "Le Grau-du-Roi"


def pool_tournaments(inputs: Path) -> Path:
    """The small league, two pool tournaments and a calendar announcing the first: the Open, played
    from 5 to 19 September 2026 (its final started on the 19th: over), and the Coupe, begun on 24
    October, its second round launched on 7 November (running)."""
    from tests.poules.test_builders import Tour

    small_league(inputs)
    over = Tour(8, name="Open d'automne en ligne", day=dt.date(2026, 9, 5))
    over.next(dt.date(2026, 9, 5))
    over.play()
    over.next(dt.date(2026, 9, 19))
    over.play()
    over.write(inputs, "2026-09-05-open.xlsx")
    running = Tour(8, name="Coupe de la Toussaint en ligne", day=dt.date(2026, 10, 24))
    running.next(dt.date(2026, 10, 24))
    running.play()
    running.next(dt.date(2026, 11, 7))
    running.write(inputs, "2026-10-24-coupe.xlsx")
    write_calendar(inputs, [["05/09/2026", "poules", "", "Open d'automne en ligne", "en ligne"]])
    return inputs


def test_the_ics_gives_a_pool_tournament_its_days_as_the_site_says_them(tmp_path):
    """calendrier.ics gave a pool tournament, played over weeks, its first day alone (DTEND the day
    after it), where its page says « du 5 au 19 septembre 2026 »; the home page's calendar too. Over,
    it spans its days, DTEND the day after its last (exclusive, RFC 5545); running, its last day is
    not known: its first day, as its page says it."""
    inputs = pool_tournaments(tmp_path / "inputs")
    outputs = tmp_path / "outputs"
    assert build(inputs, outputs, TODAY).ok
    parsed = icalendar.Calendar.from_ical((outputs / "calendrier.ics").read_bytes())
    events = {str(e["summary"]): (e.decoded("dtstart"), e.decoded("dtend")) for e in parsed.walk("VEVENT")}
    assert events["Open d'automne en ligne"] == (dt.date(2026, 9, 5), dt.date(2026, 9, 20))
    assert events["Coupe de la Toussaint en ligne"] == (dt.date(2026, 10, 24), dt.date(2026, 10, 25))
    assert events["Tournoi 2026-02-07-marseille"] == (dt.date(2026, 2, 7), dt.date(2026, 2, 8))  # one day, as before
    pages = {markup.unescape(re.search(r"<h1>(.*?)</h1>", page.read_text(encoding="utf-8")).group(1)):
             " ".join(markup.unescape(re.sub(r"<[^>]+>", "", page.read_text(encoding="utf-8"))).split())
             for page in (outputs / "site").glob("tournoi-*.html")}
    assert "Tournoi en ligne par poules · du 5 au 19 septembre 2026" in pages["Open d'automne en ligne"]
    assert "Tournoi en ligne par poules · 24 octobre 2026" in pages["Coupe de la Toussaint en ligne"]
    calendar = calendar_words(outputs)
    assert "du 5 au 19 septembre 2026 · Open d'automne en ligne" in calendar
    assert "24 octobre 2026 · Coupe de la Toussaint en ligne" in calendar


def test_the_home_page_s_calendar_leaves_out_a_place_its_title_says_as_a_word(tmp_path):
    """« Lyon » was left out after « DipLyon III », which only holds it (a substring of a word: the
    home page read « DipLyon III (…) » with no town), as after « Open de Lyon ». A place is left out
    when the tournament's name or its circuit's title says it as a word, by the rule of its card
    (french.said_in: tests/test_site.py for the cards)."""
    from reportgen.pipeline.calendar import for_site

    inputs = tmp_path / "inputs"
    small_league(inputs)
    write_calendar(inputs, [["05/12/2026", "grand-sud", "TLSE", "DipLyon III", "Lyon"],
                            ["12/12/2026", "grand-sud", "TLSE", "Open de Lyon", "Lyon"],
                            ["13/12/2026", "grand-sud", "TLSE", "Open d'ALBI", "Albi"],
                            ["19/12/2026", "poules", "TLSE", "Coupe d'hiver", "en ligne"]])
    league = load(inputs, TODAY)
    shown, _ = for_site(league.calendar, league.announced, league.reading, TODAY)
    assert [(item["title"], item["place"]) for item in shown if item["day"].endswith("décembre 2026")] == [
        ("DipLyon III (Classement régional Grand Sud)", "Lyon"),
        ("Open de Lyon (Classement régional Grand Sud)", ""),
        ("Open d'ALBI (Classement régional Grand Sud)", ""),
        ("Coupe d'hiver (Tournoi en ligne par poules)", "")]  # its circuit's title says it


def test_a_tournament_whose_day_passed_is_awaited_on_the_home_page_and_in_the_ics_from_that_day(small_league_copy):
    """The home page's calendar said « 7 novembre 2026 · Tournoi d'automne de Perpignan … — à venir » a
    month after its day, its workbook not arrived, where the club's bulletin says « attendu »
    (pipeline/calendar.py `state`, one rule for both). The site reads no clock: the build's day
    says it, and the same inputs built the day after that tournament give the page again (the day is
    in the key of « nothing changed »)."""
    inputs, outputs = small_league_copy.inputs, small_league_copy.outputs
    write_calendar(inputs, [["07/11/2026", "grand-sud", "PERP", "Tournoi d'automne de Perpignan", "Perpignan"],
                            ["12/12/2026", "grand-sud", "", "Finale de la saison", "Carcassonne"]])

    def said(day: dt.date) -> tuple[str, str]:
        assert build(inputs, outputs, day).ok
        events = {str(e["summary"]): str(e["description"])
                  for e in icalendar.Calendar.from_ical((outputs / "calendrier.ics").read_bytes()).walk("VEVENT")}
        return calendar_words(outputs), events["Tournoi d'automne de Perpignan"]

    calendar, event = said(dt.date(2026, 11, 7))  # its day: not yet awaited
    assert "Tournoi d'automne de Perpignan (Classement régional Grand Sud) — à venir" in calendar
    assert event.endswith("Résultats à venir.")
    calendar, event = said(dt.date(2026, 11, 8))  # the same inputs, the day after
    assert "Tournoi d'automne de Perpignan (Classement régional Grand Sud) — résultats attendus" in calendar
    assert "Finale de la saison (Classement régional Grand Sud), Carcassonne — à venir" in calendar
    assert event.endswith("Résultats attendus.")


def test_an_event_whose_results_are_awaited_then_published_is_an_update_calendar_programs_take(small_league_copy):
    """calendrier.ics stamped every event with the calendar's latest date (DTSTAMP 12 December, in
    the future) and gave no SEQUENCE: an event going from « à venir » to « attendus » to « publiés »
    kept its stamp and its sequence, and a calendar program may keep the old one (RFC 5545: DTSTAMP
    is when the file was made, SEQUENCE grows with each significant change). Each change is now a
    revision: SEQUENCE one higher, DTSTAMP its day. It said 0, 2, 5, from the state of its results,
    and the finale, unchanged, was stamped again with each build's day (the file changed every day)."""
    inputs, outputs = small_league_copy.inputs, small_league_copy.outputs
    write_calendar(inputs, [["07/11/2026", "grand-sud", "PERP", "Tournoi d'automne de Perpignan", "Perpignan"],
                            ["12/12/2026", "grand-sud", "", "Finale de la saison", "Carcassonne"]])
    coming = ics_events(inputs, outputs, dt.date(2026, 11, 7))  # its day: « à venir »
    awaited = ics_events(inputs, outputs, dt.date(2026, 11, 8))
    write_tournament(inputs, "2026-11-07-perpignan", day="07/11/2026", club="PERP")
    published = ics_events(inputs, outputs, dt.date(2026, 11, 9))
    perpignan, finale = (uid_of(coming, name) for name in ("Tournoi d'automne de Perpignan", "Finale de la saison"))
    assert [said[perpignan].description.rsplit(". ", 1)[-1] for said in (coming, awaited, published)] == [
        "Résultats à venir.", "Résultats attendus.", "Résultats publiés."]
    assert [said[perpignan][:2] for said in (coming, awaited, published)] == [
        (stamp(dt.date(2026, 11, 7)), 0), (stamp(dt.date(2026, 11, 8)), 1), (stamp(dt.date(2026, 11, 9)), 2)]
    # the finale, still to come and unchanged, keeps its first stamp and sequence
    assert {said[finale][:2] for said in (coming, awaited, published)} == {(stamp(dt.date(2026, 11, 7)), 0)}


class Said(NamedTuple):
    """An event of calendrier.ics as a calendar program reads it."""

    stamp: dt.datetime
    sequence: int
    description: str
    summary: str
    location: str


def ics_events(inputs: Path, outputs: Path, day: dt.date, **options) -> dict[str, Said]:
    """The events of calendrier.ics built on `day`, by UID, parsed back with icalendar."""
    assert build(inputs, outputs, day, **options).ok
    return parsed_events((outputs / "calendrier.ics").read_bytes())


def parsed_events(data: bytes) -> dict[str, Said]:
    return {str(e["uid"]): Said(e.decoded("dtstamp"), e.decoded("sequence"), str(e["description"]), str(e["summary"]),
                                str(e.get("location", "")))
            for e in icalendar.Calendar.from_ical(data).walk("VEVENT")}


def uid_of(events: dict[str, Said], summary: str) -> str:
    [found] = [key for key, said in events.items() if said.summary == summary]
    return found


def stamp(day: dt.date) -> dt.datetime:
    return dt.datetime.combine(day, dt.time(0), dt.timezone.utc)


def test_a_revised_event_goes_one_higher_dated_that_day_and_a_later_day_changes_no_byte(small_league_copy):
    """A new Lieu left the event's state « à venir », so its SEQUENCE stayed the same and a calendar
    program could keep showing the old place; and every build stamped every event with its day, so
    the file changed every day with nothing new and each subscriber downloaded a calendar whose
    events all looked revised."""
    inputs, outputs = small_league_copy.inputs, small_league_copy.outputs
    rows = [["20/01/2026", "grand-sud", "PERP", "Open de Perpignan", "Perpignan"],
            ["12/12/2026", "grand-sud", "", "Finale de la saison", "Carcassonne"]]
    write_calendar(inputs, rows)
    first = ics_events(inputs, outputs, TODAY)
    assert {(said.stamp, said.sequence) for said in first.values()} == {(stamp(TODAY), 0)}
    rows[1][4] = "Narbonne"  # the finale moves
    write_calendar(inputs, rows)
    moved = ics_events(inputs, outputs, TODAY + dt.timedelta(days=1))
    finale = uid_of(moved, "Finale de la saison")
    assert (moved[finale].location, moved[finale][:2]) == ("Narbonne", (stamp(TODAY + dt.timedelta(days=1)), 1))
    assert {key: said for key, said in moved.items() if key != finale} == {
        key: said for key, said in first.items() if key != finale}  # the others as they were
    data = (outputs / "calendrier.ics").read_bytes()
    # nothing new the days after: the same bytes (a day the finale is still to come and Perpignan awaited)
    for later in (TODAY + dt.timedelta(days=2), TODAY + dt.timedelta(days=9)):
        assert build(inputs, outputs, later).ok
        assert (outputs / "calendrier.ics").read_bytes() == data, later


def test_a_workbook_taken_out_raises_the_sequence_never_lowers_it(small_league_copy):
    """Marseille's workbook taken out of inputs/ (« publiés » back to « attendus ») took its SEQUENCE
    from 5 down to 2, which a calendar program ignores (RFC 5545 3.8.7.4), keeping « Résultats
    publiés »; put back, it went up to 5 again, the number it already held."""
    inputs, outputs = small_league_copy.inputs, small_league_copy.outputs
    write_calendar(inputs, [["07/02/2026", "grand-sud", "MARS", "Open de Marseille", ""]])
    published = ics_events(inputs, outputs, TODAY)
    marseille = uid_of(published, "Tournoi 2026-02-07-marseille")
    workbook = inputs / "2026-02-07-marseille.xlsx"
    kept = workbook.read_bytes()
    workbook.unlink()
    taken_out = ics_events(inputs, outputs, TODAY)
    workbook.write_bytes(kept)
    back = ics_events(inputs, outputs, TODAY + dt.timedelta(days=1))
    assert [said[marseille].description.rsplit(". ", 1)[-1] for said in (published, taken_out, back)] == [
        "Résultats publiés.", "Résultats attendus.", "Résultats publiés."]
    assert [said[marseille][:2] for said in (published, taken_out, back)] == [
        (stamp(TODAY), 0), (stamp(TODAY), 1), (stamp(TODAY + dt.timedelta(days=1)), 2)]


def test_a_calendar_published_before_its_revisions_were_kept_is_gone_on_from(small_league_copy):
    """The first build of this version finds a calendrier.ics whose SEQUENCE came from the state of
    its results (5: « publiés ») and no revisions kept: it goes on from 5, never back to 0."""
    inputs, outputs = small_league_copy.inputs, small_league_copy.outputs
    rows = [["10/01/2026", "grand-sud", "TLSE", "Open de Toulouse", "Toulouse"]]
    write_calendar(inputs, rows)
    assert build(inputs, outputs, TODAY).ok
    ics = outputs / "calendrier.ics"
    ics.write_bytes(ics.read_bytes().replace(b"SEQUENCE:0", b"SEQUENCE:5"))  # as the previous version wrote it
    (outputs / ".reportgen" / "calendar-revisions.json").unlink()
    again = ics_events(inputs, outputs, TODAY + dt.timedelta(days=1))
    assert {said[:2] for said in again.values()} == {(stamp(TODAY), 5)}  # unchanged: as they were
    rows[0][4] = "Blagnac"
    write_calendar(inputs, rows)
    moved = ics_events(inputs, outputs, TODAY + dt.timedelta(days=2))
    toulouse = uid_of(moved, "Tournoi 2026-01-10-toulouse")
    assert moved[toulouse][:2] == (stamp(TODAY + dt.timedelta(days=2)), 6)
    assert {said[:2] for key, said in moved.items() if key != toulouse} == {(stamp(TODAY), 5)}


def test_make_clean_keeps_the_calendar_s_sequences_in_the_archive(small_league_copy, tmp_path):
    """`reportgen build` keeps the revisions in archive/, which `make clean` keeps: outputs/ removed,
    the next build publishes each event with the SEQUENCE its subscribers hold, not 0 (the next
    revision would then be ignored until it went past)."""
    inputs, outputs, archive = small_league_copy.inputs, small_league_copy.outputs, tmp_path / "archive"
    rows = [["12/12/2026", "grand-sud", "", "Finale de la saison", "Carcassonne"]]

    def built(unchanged: bool = False) -> bytes:
        done = cli("build", "--inputs", str(inputs), "--outputs", str(outputs), "--archive", str(archive))
        assert done.returncode == 0, done.stderr
        assert (f"grand-sud : à jour dans {outputs}" in done.stderr) == unchanged, done.stderr
        return (outputs / "calendrier.ics").read_bytes()

    write_calendar(inputs, rows)
    built()
    rows[0][4] = "Narbonne"
    write_calendar(inputs, rows)
    revised = built()
    events = parsed_events(revised)
    assert events[uid_of(events, "Finale de la saison")].sequence == 1
    assert (archive / ".calendar-revisions.json").is_file()
    # kept there, they are not what the build's key of archive/ is made of: nothing changed, nothing done
    assert built(unchanged=True) == revised
    shutil.rmtree(outputs)  # make clean
    assert built() == revised


def test_a_build_killed_between_the_revisions_and_calendrier_ics_publishes_the_revision_once(small_league_copy,
                                                                                           tmp_path):
    """The revisions are kept before calendrier.ics is written (`write_calendar`). Killed (kill -9,
    through strace, as it renames the new calendrier.ics into place) after keeping them, the build
    left the subscribers' file as it was; the rerun writes the revision it had made, SEQUENCE 1, not
    a second one (2), and a third run writes nothing new."""
    inputs, outputs, archive = small_league_copy.inputs, small_league_copy.outputs, tmp_path / "archive"
    command = [REPORTGEN, "build", "--inputs", str(inputs), "--outputs", str(outputs), "--archive", str(archive)]
    rows = [["12/12/2026", "grand-sud", "", "Finale de la saison", "Carcassonne"]]
    write_calendar(inputs, rows)
    assert subprocess.run(command, capture_output=True, text=True, timeout=300).returncode == 0
    ics = outputs / "calendrier.ics"
    published = ics.read_bytes()
    rows[0][4] = "Narbonne"
    write_calendar(inputs, rows)
    # which of the build's renames puts calendrier.ics in place: counted on a copy doing the same
    trial, renames = tmp_path / "trial", tmp_path / "renames"
    for folder in (outputs, archive):
        shutil.copytree(folder, trial / folder.name)
    copy = [REPORTGEN, "build", "--inputs", str(inputs), "--outputs", str(trial / outputs.name), "--archive",
            str(trial / archive.name)]
    assert subprocess.run(["strace", "-qq", "-o", str(renames), "-e", "trace=rename", *copy], capture_output=True,
                          timeout=300).returncode == 0
    targets = re.findall(r'^rename\("[^"]*", "([^"]*)"\)', renames.read_text(), re.M)
    when = targets.index(str(trial / outputs.name / "calendrier.ics")) + 1
    killed = subprocess.run(["strace", "-qq", "-o", "/dev/null", "-e", f"inject=rename:signal=SIGKILL:when={when}",
                             *command], capture_output=True, text=True, timeout=300)
    assert killed.returncode in (-9, 128 + 9), killed.stderr
    assert ics.read_bytes() == published  # as its subscribers have it
    kept = (archive / ".calendar-revisions.json").read_text(encoding="utf-8")
    assert '"sequence": 1' in kept  # the revision was kept before the kill
    for _ in range(2):
        done = subprocess.run(command, capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stderr
        events = parsed_events(ics.read_bytes())
        finale = events[uid_of(events, "Finale de la saison")]
        assert (finale.location, finale.sequence) == ("Narbonne", 1)
    assert (archive / ".calendar-revisions.json").read_text(encoding="utf-8") == kept


def test_a_pool_tournament_that_runs_is_said_running_on_the_home_page_and_in_the_ics(tmp_path):
    """A pool tournament between its rounds (its workbook there, its final not played) was said as one
    over (« Résultats publiés. », nothing on the home page): it is « en cours », never awaited."""
    inputs = pool_tournaments(tmp_path / "inputs")
    outputs = tmp_path / "outputs"
    assert build(inputs, outputs, TODAY).ok
    calendar = calendar_words(outputs)
    assert "24 octobre 2026 · Coupe de la Toussaint en ligne (Tournoi en ligne par poules) — en cours" in calendar
    assert "Open d'automne en ligne (Tournoi en ligne par poules) —" not in calendar  # over: nothing said
    events = {str(e["summary"]): str(e["description"])
              for e in icalendar.Calendar.from_ical((outputs / "calendrier.ics").read_bytes()).walk("VEVENT")}
    assert events["Coupe de la Toussaint en ligne"].endswith("Tournoi en cours : résultats publiés tour par tour.")
    assert events["Open d'automne en ligne"].endswith("Résultats publiés.")


def test_a_tournament_announced_over_several_days_is_awaited_after_its_fin(tmp_path):
    """The calendar's Fin (optional) gives the last day of a tournament played over weeks (a pool
    tournament online: its results are its final's): its days are said from its Date to its Fin on
    the home page and in calendrier.ics, it is « en cours » while it is played (it said « à venir »,
    as of a tournament not begun) and awaited after its Fin, where it was « résultats attendus » from
    the day after its first day. A Fin before its Date is a located problem."""
    from reportgen.pipeline.calendar import calendar_bytes, for_site

    inputs = tmp_path / "inputs"
    small_league(inputs)
    rows = [["19/12/2026", "poules", "TLSE", "Coupe d'hiver", "en ligne", "30/01/2027"],
            ["12/12/2026", "grand-sud", "TLSE", "Open de Noël", "Toulouse", "01/12/2026"]]
    write_workbook(inputs / "calendrier.xlsx", {"Calendrier": [[*HEADER, "Fin"], *rows]})
    assert problems_of(inputs) == [("bad-value", "F3", "la fin, le 1er décembre 2026, est avant le premier jour du "
                                    "tournoi, le 12 décembre 2026 (colonne « Date »)")]
    write_workbook(inputs / "calendrier.xlsx", {"Calendrier": [[*HEADER, "Fin"], rows[0]]})
    league = load(inputs, TODAY)
    assert league.problems == []
    [cup] = [entry for entry in league.calendar if entry.name == "Coupe d'hiver"]
    none_kept = Revisions.kept(tmp_path / "outputs")  # no revision kept: each event at its first

    def said(today: dt.date) -> tuple[tuple[str, str], tuple[dt.date, dt.date, str]]:
        shown, _ = for_site(league.calendar, True, league.reading, today)
        [item] = [(item["day"], item["status"]) for item in shown if item["title"].startswith("Coupe d'hiver")]
        data = calendar_bytes(league.calendar, True, False, "Ligue", league.reading, today, none_kept).data
        [event] = [e for e in icalendar.Calendar.from_ical(data).walk("VEVENT") if str(e["summary"]) == cup.name]
        return item, (event.decoded("dtstart"), event.decoded("dtend"), str(event["description"]))

    home, ics = said(dt.date(2026, 12, 18))  # the day before its first
    assert home == ("du 19 décembre 2026 au 30 janvier 2027", "à venir") and ics[2].endswith("Résultats à venir.")
    for day in (dt.date(2026, 12, 19), dt.date(2027, 1, 10), dt.date(2027, 1, 30)):  # being played: it said « à venir »
        home, ics = said(day)
        assert home == ("du 19 décembre 2026 au 30 janvier 2027", "en cours"), day
        assert ics[:2] == (dt.date(2026, 12, 19), dt.date(2027, 1, 31))
        assert ics[2].endswith("Tournoi en cours : aucun résultat reçu."), ics[2]
    home, ics = said(dt.date(2027, 1, 31))  # the day after its Fin
    assert home == ("du 19 décembre 2026 au 30 janvier 2027", "résultats attendus")
    assert ics[2].endswith("Résultats attendus.")


def test_a_pool_tournament_keeps_its_announced_days_while_it_runs_and_its_own_once_over(tmp_path):
    """Once a pool tournament's workbook arrived, its announced Fin was lost: the Coupe, running, was
    « 24 octobre 2026 » alone on the home page and in calendrier.ics, where the calendar announced it
    until 12 December. It keeps the announced days while it runs; once over, its own (the day its
    final started, 19 September for the Open announced until 10 October), as its page says them."""
    inputs = pool_tournaments(tmp_path / "inputs")
    write_workbook(inputs / "calendrier.xlsx", {"Calendrier": [
        [*HEADER, "Fin"], ["05/09/2026", "poules", "", "Open d'automne en ligne", "en ligne", "10/10/2026"],
        ["24/10/2026", "poules", "", "Coupe de la Toussaint en ligne", "en ligne", "12/12/2026"]]})
    outputs = tmp_path / "outputs"
    assert build(inputs, outputs, TODAY).ok
    calendar = calendar_words(outputs)
    assert "du 24 octobre au 12 décembre 2026 · Coupe de la Toussaint en ligne (Tournoi en ligne par poules) — " \
           "en cours" in calendar, calendar
    assert "du 5 au 19 septembre 2026 · Open d'automne en ligne (Tournoi en ligne par poules)" in calendar
    events = {str(e["summary"]): (e.decoded("dtstart"), e.decoded("dtend"))
              for e in icalendar.Calendar.from_ical((outputs / "calendrier.ics").read_bytes()).walk("VEVENT")}
    assert events["Coupe de la Toussaint en ligne"] == (dt.date(2026, 10, 24), dt.date(2026, 12, 13))
    assert events["Open d'automne en ligne"] == (dt.date(2026, 9, 5), dt.date(2026, 9, 20))


def test_a_pool_workbook_of_registrations_alone_is_not_said_played(tmp_path):
    """A pool workbook whose round 1 is not written yet (its registrations alone) made its tournament
    « joué » (nothing said on the home page, « Résultats publiés. » in calendrier.ics) when nothing
    of it is played: « inscriptions reçues », as its build note says it (it was « en cours » from its
    first day, where the note said it had not begun), its last day unknown without a Fin, then never
    awaited; awaited after its Fin."""
    from reportgen.pipeline.calendar import calendar_bytes, for_site, over_their_days
    from tests.poules.test_builders import Tour

    inputs = tmp_path / "inputs"
    small_league(inputs)
    Tour(8, name="Coupe d'hiver en ligne", day=dt.date(2026, 11, 21)).write(inputs, "2026-11-21-coupe.xlsx")
    Tour(8, name="Open de Noël en ligne", day=dt.date(2026, 11, 28)).write(inputs, "2026-11-28-open.xlsx")
    write_workbook(inputs / "calendrier.xlsx", {"Calendrier": [
        [*HEADER, "Fin"], ["21/11/2026", "poules", "", "Coupe d'hiver en ligne", "en ligne", "30/01/2027"]]})
    league = load(inputs, TODAY)
    assert league.problems == []
    entries = over_their_days(league.calendar, score(league).reports)
    none_kept = Revisions.kept(tmp_path / "outputs")  # no revision kept: each event at its first

    def said(today: dt.date, name: str) -> tuple[str, str]:
        shown, _ = for_site(entries, True, league.reading, today)
        [status] = [item["status"] for item in shown if item["title"].startswith(name)]
        data = calendar_bytes(entries, True, False, "Ligue", league.reading, today, none_kept).data
        [event] = [e for e in icalendar.Calendar.from_ical(data).walk("VEVENT") if str(e["summary"]) == name]
        return status, str(event["description"]).rsplit(". ", 1)[-1]

    registered = ("inscriptions reçues", "Inscriptions reçues : résultats à venir.")
    for today in (dt.date(2026, 11, 20), dt.date(2026, 11, 21), TODAY, dt.date(2027, 1, 30)):
        assert said(today, "Coupe d'hiver en ligne") == registered
    assert said(dt.date(2027, 1, 31), "Coupe d'hiver en ligne") == ("résultats attendus", "Résultats attendus.")
    assert said(TODAY, "Open de Noël en ligne") == registered
    assert said(dt.date(2027, 3, 1), "Open de Noël en ligne") == registered  # no Fin: not due on a known day
