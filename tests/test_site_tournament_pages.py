"""A tournament's page on the site links what its circuit published on it, each document named by its
own title (« Classement après le tournoi d'Albi du 14 février 2026 », « … — Résultats du tour 1 »), and
the editions of one tournament have pages of their own titles: the example league as published
(tests/browser.py `example_site`: every circuit's files, the site's pages, no PDF laid out)."""

import datetime as dt
import html
import json
import re

from reportgen import french
from reportgen.render.index import MANIFEST
from reportgen.site.pages import event_page_name
from reportgen.site.sources import load
from tests.browser import check_page

CIRCUITS = ("grand-sud", "masters", "tour-de-france", "poules", "tantrix")
# one bulletin linked: <a href="…html">its title</a> (<a href="…pdf">PDF</a>)
LINK = re.compile(r'<li><a href="([^"]+)\.html">([^<]+)</a> \(<a href="([^"]+)\.pdf">PDF</a>\)</li>')


def head_title(text: str) -> str:
    return html.unescape(re.search(r"<title>([^<]*)</title>", text)[1])


def tournament_pages(outputs):
    """(circuit slug, its event record, the page's text) for every tournament of the site."""
    for circuit in load(outputs, CIRCUITS, ()):
        for record in circuit.rankings:
            if record["kind"] == "event":
                yield circuit.slug, record, (outputs / "site" / event_page_name(circuit, record)).read_text("utf-8")


def bulletins(outputs, page: str) -> list[tuple[str, str]]:
    """The documents a tournament's page links: (the file, relative to outputs/, the link's words);
    each link resolves to a published bulletin, its PDF beside it, named by the bulletin's title."""
    found = []
    for link, words, pdf in LINK.findall(page):
        assert link.startswith("../") and pdf == link
        path = link.removeprefix("../")
        bulletin = outputs / f"{path}.html"
        assert bulletin.is_file(), path
        # the words are the bulletin's own title (its <title> adds its circuit and season), a date's day
        # and month kept on one line in the link (french.day_month_kept), not in a tab's title
        assert head_title(bulletin.read_text("utf-8")).replace("\u00a0", " ").startswith(
            html.unescape(words).replace("\u00a0", " ") + " — "), path
        found.append((path, html.unescape(words)))
    # each document of its circuit's manifest, so its PDF is laid out by a build (this fixture's
    # outputs have none)
    for path, _ in found:
        slug, _, inside = path.partition("/")
        manifest = json.loads((outputs / slug / MANIFEST).read_text("utf-8"))
        assert inside in {d["path"] for d in manifest["documents"]}
    return found


def test_each_tournament_page_links_the_documents_its_circuit_published_on_it(example_site):
    outputs = example_site
    linked: dict[str, int] = dict.fromkeys(CIRCUITS, 0)
    unlinked = []
    for slug, record, page in tournament_pages(outputs):
        found = bulletins(outputs, page)
        assert "Bulletin complet" not in page and "tableau croisé" not in page
        day = dt.date.fromisoformat(record["date"])
        shown = french.day_month_kept(french.date_long(day))  # « 14\u00a0novembre 2026 » on a page
        words = [text for _, text in found]
        linked[slug] += bool(found)
        if not found:
            unlinked.append((slug, record["name"]))
        elif slug == "grand-sud":
            # the dated bulletin made after it, of its day, and nothing else
            assert [path for path, _ in found] == [f"grand-sud/{day.year}/classement-{day.isoformat()}"]
            assert re.fullmatch(rf"Classement après (le tournoi|les tournois) .+ du {shown}", words[0])
        elif slug == "tour-de-france":
            assert words == [f"Classement après {french.the(record['name'])} ({shown})"]
        elif slug == "masters":
            assert words == ["Classement final", "Feuilles de match"]
        elif slug == "tantrix":
            # its own bulletin, then the rating list made after it
            assert words == [record["name"], f"Classement Elo au {shown}"]
        elif slug == "poules":
            # « — » kept with the name before it (french.SEPARATOR), « tour » with its number
            assert words == [f"{record['name']}\u00a0— Résultats du tour\u00a01", f"{record['name']}\u00a0— Résultats du tour\u00a02",
                             f"{record['name']}\u00a0— Tour final et classement final"]
    assert all(linked.values()), linked
    # Only the Grand Sud tournaments of clubs outside the region's départements (« hors circuit »,
    # Marseille 13, Bordeaux 33) make no ranking: their pages link none, rather than another's.
    assert sorted(unlinked) == [("grand-sud", "Tournoi de Bordeaux"), ("grand-sud", "Tournoi de Marseille")]


def test_every_page_of_the_site_has_a_title_of_its_own(example_site):
    pages = sorted((example_site / "site").glob("*.html")) + [example_site / "index.html"]
    titles = [head_title(page.read_text("utf-8")) for page in pages]
    assert len(pages) > 300 and len(set(titles)) == len(titles), sorted(t for t in titles if titles.count(t) > 1)
    # the editions of one tournament: its day in its title
    assert "Tournoi d'Albi, 15 février 2025\u00a0— Ligue Grand Sud des clubs de jeux de réflexion" in titles
    assert "Tournoi d'Albi, 14 février 2026\u00a0— Ligue Grand Sud des clubs de jeux de réflexion" in titles


def test_a_tournament_page_with_its_bulletins_is_a_good_web_page(browser, example_site):
    outputs = example_site
    for wanted in ("grand-sud", "poules"):
        page = next(outputs / "site" / event_page_name(circuit, record)
                    for circuit in load(outputs, CIRCUITS, ()) if circuit.slug == wanted
                    for record in circuit.rankings if record["kind"] == "event" and circuit.reporting(record["event"]))
        check_page(browser, page, outputs)


OUTSIDE = ("Hors circuit\u00a0: ce tournoi ne compte pas pour le classement régional (club hors des départements "
           "du Grand Sud, §1).")


def test_a_tournament_outside_the_circuit_says_so_on_its_page_and_no_other_does(browser, example_site):
    """Marseille 2025 and Bordeaux 2026 (clubs of the 13 and the 33) count for no Grand Sud ranking:
    their pages say why they link no bulletin (the circuit says it, Report.event_notes), the
    sentence under the tournament's day, a good web page at both widths."""
    said = sorted((record["name"], record["date"][:4]) for slug, record, page in tournament_pages(example_site)
                  if OUTSIDE in html.unescape(page))
    assert said == [("Tournoi de Bordeaux", "2026"), ("Tournoi de Marseille", "2025")]
    circuit, record = next((circuit, record) for circuit in load(example_site, CIRCUITS, ()) for record in circuit.rankings
                           if record.get("note") and record["name"] == "Tournoi de Marseille")
    page = example_site / "site" / event_page_name(circuit, record)
    text = page.read_text("utf-8")
    day = french.day_month_kept(french.date_long(dt.date.fromisoformat(record["date"])))
    assert text.index(f"</a> · {day}</p>") < text.index('<p class="note">Hors circuit') < text.index("<table")
    check_page(browser, page, example_site)


def test_a_tournament_outside_the_circuit_is_marked_so_in_its_season_s_list_and_on_its_card(example_site):
    """Bordeaux 2026 counts for nothing (its page says why), yet the season's « Tournois » listed it as
    any other and its share card said « Classement régional Grand Sud » as if it counted: both say
    « hors circuit », from its record's note (the one its page shows); no other tournament is marked."""
    from reportgen.site.pages import event_card
    from reportgen.site.privacy import Public

    grand_sud = next(c for c in load(example_site, CIRCUITS, ()) if c.slug == "grand-sud")
    season = (example_site / "site" / "grand-sud-2026.html").read_text("utf-8")
    listed = re.search(r"<h2>Tournois</h2>\s*<ul>(.*?)</ul>", season, re.S)[1]
    items = {html.unescape(re.sub(r"<[^>]+>", "", item)): item for item in re.findall(r"<li>(.*?)</li>", listed)}
    marked = sorted(text for text in items if "hors circuit" in text)
    assert len(marked) == 1 and " · Tournoi de Bordeaux · hors circuit" in marked[0], marked
    assert items[marked[0]].endswith('</a> · <span class="nowrap">hors circuit</span>')  # never « hors / circuit »
    cards = {record["name"]: event_card("Ligue", grand_sud.title, record, Public()).subtitle
             for record in grand_sud.rankings if record["kind"] == "event" and record["season"] == 2026}
    assert cards["Tournoi de Bordeaux"].startswith(f"{grand_sud.title} — hors circuit — "), cards["Tournoi de Bordeaux"]
    assert [name for name, subtitle in cards.items() if "hors circuit" in subtitle] == ["Tournoi de Bordeaux"]


# -- what each result earned: the columns a circuit adds to its tournaments' results (Report.event_columns)

ROW = re.compile(r'<tr><td data-sort="(\d+)">\d+</td><th scope="row">.*?</th>(.*?)</tr>')
CELL = re.compile(r'<td class="([^"]*)">(.*?)</td>')
HEAD = re.compile(r"<thead>(.*?)</thead>")
# a tournament's results as every circuit's page showed them before any added a column
PLAIN_HEAD = ('<tr><th scope="col" class="num" aria-sort="ascending">Place</th><th scope="col">Joueur</th>'
              '<th scope="col" class="secondary" title="Club">Club</th></tr>')


def page_rows(page: str) -> dict[int, list[tuple[str, str]]]:
    """A tournament page's results: each place's cells after the player's, (class, text)."""
    return {int(place): [(kind, html.unescape(text)) for kind, text in CELL.findall(cells)]
            for place, cells in ROW.findall(page)}


def grand_sud_points(league):
    """The Grand Sud's points table as its scoring computes it (`score_league`), and its tournaments."""
    from reportgen.circuits.grand_sud.scoring import score_league

    found, settings = league.circuits["grand-sud"], league.settings.circuits["grand-sud"]
    eligible = {e.id: e.content.club.departement in settings.departements for e in found.events}
    tournaments, points, _ = score_league(found.results, found.events, eligible, settings)
    return tournaments, points


def test_a_grand_sud_tournament_page_shows_what_each_player_earned_there(browser, example_site, example_league,
                                                                       example_scored):
    """« Open de printemps de Toulouse »: each player's points there (§2.1, the scoring's points table,
    0 beyond the 32nd), as the bulletin that reports on it lists them in its « Points marqués »
    table, and his place in the duplicate phase in a « duplicate + poules » tournament (the final
    place again in one « tout en duplicate »: not repeated). On a phone, place, player and points."""
    tournaments, points = grand_sud_points(example_league)
    expected: dict[str, dict[int, tuple[int, int]]] = {}
    for event, place, place_duplicate, total in zip(*(points[c].tolist() for c in
                                                      ("event", "place", "place_duplicate", "points"))):
        expected.setdefault(event, {})[place] = (total, place_duplicate)
    bulletin_rows = {(latest["name"], latest["date"]): latest["rows"]
                     for document in example_scored.reports["grand-sud"].documents
                     for latest in document.context.get("latest", [])}
    seen = 0
    for slug, record, page in tournament_pages(example_site):
        if slug != "grand-sud" or record["event"] not in expected:
            continue
        seen += 1
        in_pools = tournaments[record["event"]].event.content.formula == "poules"
        head = HEAD.search(page)[1]
        assert head.startswith(PLAIN_HEAD.removesuffix("</tr>")), head
        assert '<th scope="col" class="num" title="Points marqués au tournoi">Points</th>' in head  # shown on a phone
        assert ('<th scope="col" class="secondary num" title="Place au duplicate">Place dupl.</th>' in head) == in_pools
        rows = page_rows(page)
        assert rows.keys() == expected[record["event"]].keys()
        for place, (total, place_duplicate) in expected[record["event"]].items():
            cells = [("secondary", rows[place][0][1]), ("num", french.number(total))]
            if in_pools:
                cells.append(("secondary num", str(place_duplicate)))
            assert rows[place] == cells, (record["name"], place)
        # the bulletin's « Points marqués » table of it: the same points at the same places
        day = french.date_long(dt.date.fromisoformat(record["date"]))
        listed = bulletin_rows[record["name"], day]
        assert listed and all(rows[row["place"]][1][1] == row["total"] for row in listed)
        assert {place for place, (total, _) in expected[record["event"]].items() if total > 0} == \
            {row["place"] for row in listed}
    assert seen == len(expected) == 23
    circuit, record = next((circuit, record) for circuit in load(example_site, CIRCUITS, ())
                           for record in circuit.rankings if record["kind"] == "event"
                           and record["name"] == "Open de printemps de Toulouse" and record["date"] == "2026-03-14")
    page = example_site / "site" / event_page_name(circuit, record)
    check_page(browser, page, example_site)
    shown = browser.pages[390].evaluate(
        "Array.from(document.querySelectorAll('table.ranking thead th'))"
        ".filter(th => getComputedStyle(th).display !== 'none').map(th => th.textContent)")
    assert shown == ["Place", "Joueur", "Points"]


def test_a_tournament_of_a_circuit_that_adds_no_column_is_shown_as_before(example_site, example_league,
                                                                         example_scored):
    """The pools, Tantrix and the Masters give no column (their own rankings of a tournament say what
    each earned): their records are the bytes the site had before (site.json made without the
    argument); a Grand Sud tournament outside the circuit earned nothing, its results « Place,
    Joueur, Club » alone (the Tour de France's, whose sheets name no club, « Place, Joueur, Points »:
    tests/test_site.py)."""
    from reportgen.site.data import DATA, circuit_data, event_sources, results_of

    for slug, report in example_scored.reports.items():
        if slug in ("grand-sud", "tour-de-france"):
            continue
        assert report.event_columns == {}
        found = example_league.circuits[slug]
        before = circuit_data(report, event_sources(found.events, results_of(found.results.to_dict("records")),
                                                    report.event_notes))
        assert (example_site / slug / DATA).read_bytes() == before
    plain = [(slug, record["name"]) for slug, record, page in tournament_pages(example_site)
             if HEAD.search(page)[1] == PLAIN_HEAD]
    assert sorted(plain) == [("grand-sud", "Tournoi de Bordeaux"), ("grand-sud", "Tournoi de Marseille")]


def test_a_tournament_s_record_is_made_again_when_what_a_result_earned_changes():
    """`EventRecord.key` holds the added columns' values: a point corrected makes the record again
    (a build takes it back from the last site.json only under the same key); without columns, the
    record is Place, Joueur, Club as an archived season's tournament gives it (`event_records`)."""
    from types import SimpleNamespace

    from reportgen.model import Column, Event, ResultColumn
    from reportgen.site.data import EventRecord, event_records

    event = Event("a.xlsx", "Tournoi d'Albi", dt.date(2026, 2, 14), SimpleNamespace(location="Albi"))
    results = [("a.xlsx", 2, "Albi", "L:2", "MARTIN Paul"), ("a.xlsx", 1, "Auch", "L:1", "DURAND Anne")]
    points = Column("points", "Points marqués au tournoi", short="Points")
    games = Column("games", "Parties gagnées", "number", halves=True)

    def made(earned: dict[str, int]) -> EventRecord:
        return EventRecord(event, results, columns=(ResultColumn(points, earned),
                                                    ResultColumn(games, {"L:1": 2.5, "L:2": 2})))

    one = made({"L:1": 1086, "L:2": 595})
    assert one.key() == made({"L:1": 1086, "L:2": 595}).key()
    assert one.key() != made({"L:1": 1086, "L:2": 590}).key() != EventRecord(event, results).key()
    record = one.record()
    assert [c["key"] for c in record["columns"]] == ["club", "points", "games"]
    assert record["columns"][1] == {"key": "points", "header": "Points marqués au tournoi", "short": "Points",
                                    "numeric": True}
    assert [(row["player"], row["values"], row.get("sort")) for row in record["rows"]] == [
        ("DURAND Anne", {"club": "Auch", "points": french.number(1086), "games": "2½"}, {"games": 2.5}),
        ("MARTIN Paul", {"club": "Albi", "points": "595", "games": "2"}, {"games": 2})]
    archived = event_records([event], [{"event": "a.xlsx", "place": 1, "club": "Auch", "player_id": "L:1",
                                        "player": "DURAND Anne"}])
    assert archived[0]["columns"] == [{"key": "club", "header": "Club", "short": "Club"}]
    assert archived[0]["rows"][0]["values"] == {"club": "Auch"} and "sort" not in archived[0]["rows"][0]


def test_a_result_without_a_place_leaves_the_other_places_of_its_circuit_numbered():
    """A Tour de France player out of the ranking has no place: the results table's column then holds
    NaN for him and every other place of the circuit as a float (4.0). The tournaments' pages read
    only whole numbers as places, so one such player left every Tour de France page without a place
    and its rows in the alphabetical order of their names."""
    from types import SimpleNamespace

    from reportgen.model import Event
    from reportgen.site.data import EventRecord

    event = Event("t.xlsx", "Tournoi de Reims", dt.date(2026, 3, 14), SimpleNamespace(location="Reims"))
    results = [("t.xlsx", float("nan"), None, "N:1", "ORGA Nisateur"), ("t.xlsx", 2.0, None, "N:2", "BOUVIER Marie"),
               ("t.xlsx", 1.0, None, "N:3", "PARIS Raphaël")]
    assert [(row["rank"], row["player"]) for row in EventRecord(event, results).record()["rows"]] == [
        (1, "PARIS Raphaël"), (2, "BOUVIER Marie"), (None, "ORGA Nisateur")]
