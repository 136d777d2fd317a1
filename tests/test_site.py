"""The league's website (issue 24): outputs/index.html and outputs/site/, read back as HTML from a
built league, and drawn from the example league's real rankings."""

import dataclasses
import datetime as dt
import html
import json
import re
import shutil
from html.parser import HTMLParser
from pathlib import Path

import pytest

from reportgen import circuits, french
from reportgen.model import Column, Ranking, RankingRow, Scope, ScopeKind, Status
from reportgen.render.changes import Republished
from reportgen.render.index import MANIFEST
from reportgen.site import data, publish
from reportgen.site.pages import Site, event_page_name, page_name, search_key
from reportgen.site.privacy import Public
from reportgen.site.sources import load
from tests.builders import publish_site_data


class Page(HTMLParser):
    """What a test reads of a page: links, scripts, headers, text, tables' rows, JSON-LD."""

    def __init__(self, text: str):
        super().__init__()
        self.links: list[str] = []
        self.sources: list[str] = []
        self.text: list[str] = []
        self.th_scopes: list[str | None] = []
        self.lang = None
        self.meta: dict[str, str] = {}
        self.json_ld: list[str] = []
        self._in_ld = False
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "html":
            self.lang = attrs.get("lang")
        if tag == "a" and "href" in attrs:
            self.links.append(attrs["href"])
        if tag in ("script", "link", "img") and (attrs.get("src") or attrs.get("href")):
            self.sources.append(attrs.get("src") or attrs.get("href"))
        if tag == "th":
            self.th_scopes.append(attrs.get("scope"))
        if tag == "meta" and attrs.get("property"):
            self.meta[attrs["property"]] = attrs.get("content", "")
        self._in_ld = tag == "script" and attrs.get("type") == "application/ld+json"

    def handle_endtag(self, tag):
        self._in_ld = False

    def handle_data(self, text):
        if self._in_ld:
            self.json_ld.append(text)
        else:
            self.text.append(text)

    @property
    def words(self) -> str:
        return " ".join(" ".join(self.text).split())


def site_pages(outputs: Path) -> list[Path]:
    return [outputs / "index.html", *sorted((outputs / "site").glob("*.html"))]


@pytest.fixture(scope="module")
def outputs(small_league_built):
    return small_league_built.outputs


def test_every_page_is_french_static_and_links_only_files_of_the_site(outputs):
    pages = site_pages(outputs)
    assert len(pages) > 10
    for path in pages:
        page = Page(path.read_text(encoding="utf-8"))
        assert page.lang == "fr", path
        assert all(scope in ("col", "row") for scope in page.th_scopes), path
        for link in page.links + page.sources:
            assert not re.match(r"[a-z]+:|//|/", link), (path, link)  # relative: no request leaves the page
            if link.startswith("#"):  # within the page (« Aller au contenu »): a part of it
                assert f' id="{link[1:]}"' in path.read_text(encoding="utf-8"), (path.name, link)
                continue
            target = (path.parent / link.split("#")[0]).resolve()
            assert target.is_file(), (path.name, link)
            assert target.name != "verification.html"  # the secretary's page is not public


LONG_DATE = re.compile(rf"(1er|\d{{1,2}}) ({'|'.join(french.MONTHS)}) (\d{{4}})")


def test_a_sortable_table_s_dates_sort_by_their_day_not_their_number(outputs, tmp_path):
    """« 14 mars 2026 » read as a number sorts by its day of the month (site.js `value`): every date
    cell of a sortable table gives its ISO date to sort by, the players' lines and the corrections
    (one made here) included."""
    corrections = publish.corrections(tmp_path, [Republished(
        "grand-sud", "2026/classement-2026-01-10", "Classement", dt.date(2026, 1, 10), ("classeur corrigé",))],
        "2026-02-01")
    pages = Site(outputs, list(circuits.CIRCUITS), "Ligue", corrections=corrections).pages()
    checked: dict[str, int] = {}
    for path, page in pages.items():
        if not path.endswith(".html"):
            continue
        for table in re.findall(r'<table class="sortable[^"]*"[^>]*>(.*?)</table>', page.decode("utf-8"), re.S):
            for attributes, text in re.findall(r"<td([^>]*)>([^<]*)</td>", table):
                found = LONG_DATE.fullmatch(text.replace("\u00a0", " ").strip())
                if found:
                    day = 1 if found[1] == "1er" else int(found[1])
                    key = f"{int(found[3]):04d}{french.MONTHS.index(found[2]) + 1:02d}{day:02d}"
                    # (a correction's day then its place among that day's: « 20260201.000001 »)
                    assert re.search(rf'data-sort="{key}(\.\d{{6}})?"', attributes), (path, text)
                    kind = path.split("-")[0]
                    checked[kind] = checked.get(kind, 0) + 1
    assert {"site/joueur", "site/corrections.html"} <= set(checked)


def test_the_home_page_shows_each_ranking_in_force_and_the_latest_publications(outputs):
    page = Page((outputs / "index.html").read_text(encoding="utf-8"))
    manifest = json.loads((outputs / "grand-sud" / MANIFEST).read_text(encoding="utf-8"))
    assert "Classement régional Grand Sud" in page.words
    assert "Classement complet et bulletins de la saison 2026" in page.words
    assert "site/grand-sud-2026.html" in page.links and "site/grand-sud-2025.html" in page.links
    assert "MARTIN Paul" in page.words and "Dernières publications" in page.words
    assert f"grand-sud/{manifest['documents'][-1]['path']}.html" in page.links
    assert "Calendrier" in page.words and "Aucune date annoncée" in page.words
    assert "site/corrections.html" in page.links


def test_the_build_s_problems_and_notices_are_on_the_secretary_s_page_not_the_site(small_league_copy):
    from reportgen.pipeline import build
    from tests.builders import TODAY, write_tournament

    write_tournament(small_league_copy.inputs, "2026-03-07-albi", day="07/03/2026", club="NOPE")
    result = build(small_league_copy.inputs, small_league_copy.outputs, TODAY)
    assert result.problems
    secretary = (small_league_copy.outputs / "verification.html").read_text(encoding="utf-8")
    assert "2026-03-07-albi.xlsx" in secretary and "NOPE" in secretary
    for path in site_pages(small_league_copy.outputs):
        assert "NOPE" not in path.read_text(encoding="utf-8"), path
    home = Page((small_league_copy.outputs / "index.html").read_text(encoding="utf-8"))
    assert "MARTIN Paul" in home.words  # the last publication is still shown


def public_files(outputs: Path) -> dict[str, bytes]:
    """What the site shows of the league: its pages, their data and images, and calendrier.ics."""
    found = [outputs / "index.html", outputs / "calendrier.ics", *(outputs / "site").rglob("*")]
    return {path.relative_to(outputs).as_posix(): path.read_bytes() for path in found if path.is_file()}


def stub_pdfs(monkeypatch) -> None:
    """PDFs as a pure function of their HTML (tests/test_incremental_build.py): a renamed league
    renders every bulletin again, which WeasyPrint would take most of the test's time to lay out."""
    from reportgen.render import pdf as pdf_render
    from tests.test_incremental_build import stand_in

    monkeypatch.setattr(pdf_render, "render_pdf", lambda page, day=None, templates=None: stand_in(page))
    monkeypatch.setattr(pdf_render, "render_many", lambda pages, workers=2, progress=None: [
        stand_in(page) for page, _ in pages])


ORIGINAL = '[league]\nname = "Ligue d’Origine"\n\n[site]\nurl = "https://origine.example.org"\n'
RENAMED = '[league]\nname = "Ligue Renommée"\n\n[site]\nurl = "https://renommee.example.org"\n'


@pytest.mark.parametrize("settings, said", [
    (RENAMED + '\n[ligue]\nnom = "Autre"\n', "la table [ligue] n’existe pas"),
    (RENAMED + "\n[circuits.grand-sud]\nmin_counted_results = -1\n", "« -1 » est trop petit (minimum 1)"),
    # Unreadable, the file gives the defaults: the default name, no address.
    ('[league]\nname = "Ligue Renommée\n', "à la ligne 2, colonne 8, « name = \"Ligue Renommée » : un texte entre guillemets n’est pas fermé"),
], ids=["unknown-table", "bad-value", "syntax-error"])
def test_a_settings_file_with_a_blocking_problem_leaves_the_site_as_the_last_build_published(
        small_league_copy, monkeypatch, settings, said):
    """Every circuit is held by a blocking problem of reportgen.toml (it could concern any of them):
    the site is held too, the league's name and the site's address included, and calendrier.ics."""
    from reportgen.model import Messages
    from reportgen.pipeline import build
    from tests.builders import TODAY, write_workbook

    stub_pdfs(monkeypatch)
    inputs, outputs = small_league_copy.inputs, small_league_copy.outputs
    write_workbook(inputs / "calendrier.xlsx", {"Calendrier": [["Date", "Circuit", "Club", "Nom", "Lieu"],
                                                               ["10/01/2026", "grand-sud", "TLSE", "Open de Toulouse", ""]]})
    (inputs / "reportgen.toml").write_text(ORIGINAL, encoding="utf-8")
    assert build(inputs, outputs, TODAY).ok
    before = public_files(outputs)
    assert "calendrier.ics" in before and "Origine" in before["index.html"].decode("utf-8")
    assert b"https://origine.example.org/site/og-" in before["index.html"]
    (inputs / "reportgen.toml").write_text(settings, encoding="utf-8")
    told: list[str] = []
    result = build(inputs, outputs, TODAY, progress=Messages(told.append))
    assert result.blocked == ["grand-sud"] and not result.published  # the one circuit the league plays
    assert [p for p in result.problems if p.where.path == "reportgen.toml" and said in p.message]
    after = public_files(outputs)
    assert after == before, [name for name in after if after[name] != before.get(name)]
    assert not any(word in data for data in after.values()
                   for word in ("Renommée".encode(), b"renommee.example.org", b"Ligue Grand Sud"))
    # The secretary is told, in French: the problem on her page, the site held in the build's lines.
    secretary = html.unescape((outputs / "verification.html").read_text(encoding="utf-8"))
    assert said in secretary.replace("\u00a0", " ").replace("\u202f", " ")  # its typography's spaces aside
    assert "site : reportgen.toml est à corriger, rien de nouveau n’est publié" in told
    # the circuit's own line names the file to correct, not « des classeurs » she would look for
    assert "grand-sud : reportgen.toml est à corriger, rien de nouveau n’est publié" in told


def test_a_settings_file_with_only_a_note_still_renames_the_league_on_the_site(small_league_copy, monkeypatch):
    """A [inbox] table without its user is a warning (only `reportgen inbox` needs it): it holds
    nothing, and the league's new name reaches the site."""
    from reportgen.pipeline import build
    from tests.builders import TODAY

    stub_pdfs(monkeypatch)
    inputs, outputs = small_league_copy.inputs, small_league_copy.outputs
    (inputs / "reportgen.toml").write_text(RENAMED + '\n[inbox]\nhost = "imap.example.org"\n', encoding="utf-8")
    result = build(inputs, outputs, TODAY)
    assert result.ok and not result.blocked
    assert [p.code for p in result.warnings if p.where.path == "reportgen.toml"] == ["missing-setting"]
    text = (outputs / "index.html").read_text(encoding="utf-8")
    home = Page(text)
    assert "Ligue Renommée" in home.words and "Ligue Grand Sud" not in home.words
    assert "https://renommee.example.org/site/og-" in text  # and its address, [site] url


def test_a_season_page_links_every_bulletin_annex_and_csv_of_its_season(outputs):
    page = Page((outputs / "site" / "grand-sud-2026.html").read_text(encoding="utf-8"))
    manifest = json.loads((outputs / "grand-sud" / MANIFEST).read_text(encoding="utf-8"))
    expected = set()
    for document in manifest["documents"]:
        if document["season"] == 2026:
            expected |= {f"../grand-sud/{document['path']}.{suffix}" for suffix in ("html", "pdf")}
            if document["csv"]:
                expected.add(f"../grand-sud/{document['path']}.csv")
    expected |= {f"../grand-sud/{a['path']}.xlsx" for a in manifest["annexes"] if a["season"] == 2026}
    # The season runs: its final ranking is a CSV without a bulletin (one document per ranking),
    # named « provisoire » until the season is over: no link says « final » yet.
    expected.add("../grand-sud/2026/classement-provisoire-2026.csv")
    assert len(expected) >= 5 and expected <= set(page.links)
    assert not any("classement-final" in link for link in page.links)
    assert not any("/2025/" in link for link in page.links)


def test_every_player_name_in_a_ranking_links_to_the_player_s_page(outputs):
    text = (outputs / "site" / "grand-sud-2026.html").read_text(encoding="utf-8")
    rows = re.findall(r'<th scope="row">(.*?)</th>', text)
    assert len(rows) >= 5
    assert all(re.fullmatch(r'<a href="joueur-[0-9a-f]{12}\.html">[^<]+</a>', row) for row in rows), rows
    # a hostile name is data: escaped, and never part of a file name
    assert "&lt;SCRIPT&gt;ALERT(1)&lt;/SCRIPT&gt;" in text and "<SCRIPT>" not in text.upper().replace("<SCRIPT SRC", "")


def test_a_player_s_page_has_every_season_with_his_places_as_a_chart_and_a_table(outputs):
    page_file = outputs / "site" / page_name("joueur", "L:1002")
    text = page_file.read_text(encoding="utf-8")
    page = Page(text)
    assert "MARTIN Paul" in page.words
    assert "saison 2026" in page.words and "saison 2025" in page.words
    # his club under his name, linked to its page (his lines have no « Club » column: he played for that one)
    club, link = re.search(r'<p class="player-club">Club&nbsp;: <a href="(club-[0-9a-f]{12}\.html)">([^<]+)</a></p>',
                           text).group(2, 1)
    assert link == page_name("club", club) and (outputs / "site" / link).is_file()
    # His 2026 season has one dated ranking: one date, no line to draw (the season's final ranking, of
    # that date too, is not a second point: test_a_player_s_chart_draws_the_dated_rankings_one_place_a_date).
    season_2026 = text[:text.index("saison 2025</h2>")]
    assert "<svg" not in season_2026 and 'class="chart-data"' not in season_2026
    # Each line's result after its column's name (« Total : 1 445 », not « 1 445 Total »), never cut after its colon;
    # on a tournament's line, the points he earned there (Report.event_columns), « ne compte pas » for one hors
    # circuit (its page's note says why).
    lines = re.findall(r'<th scope="row" role="rowheader">(.*?)</th><td role="cell">[^<]*</td><td role="cell">([^<]*)</td>'
                       r'</tr>', "".join(table.split("</table>")[0] for table in text.split('class="sortable publications"')[1:]))
    assert ">Club</th>" not in text
    said = {('href="tournoi-' in title, re.sub(r"\d[\d\s]*", "N", result)) for title, result in lines}
    assert said == {(False, "Total\u00a0:\u00a0N"), (True, "Points\u00a0:\u00a0N"), (True, "ne compte pas")}


def test_the_same_outputs_give_the_same_pages_and_a_rebuild_writes_none(small_league_copy):
    from reportgen.pipeline import build
    from tests.builders import TODAY

    outputs = small_league_copy.outputs
    order = list(circuits.CIRCUITS)
    first = Site(outputs, order, "Ligue").pages()
    assert first == Site(outputs, order, "Ligue").pages()
    before = {p: p.stat().st_mtime_ns for p in site_pages(outputs)}
    (small_league_copy.inputs / "reportgen.toml").write_text("")  # a change of inputs: the build runs
    build(small_league_copy.inputs, outputs, TODAY)
    assert {p: p.stat().st_mtime_ns for p in site_pages(outputs)} == before


@pytest.fixture(scope="module")
def example_site(example_scored, example_league, tmp_path_factory):
    """The example league's real rankings published as the site reads them (manifests and site
    data), without rendering a PDF."""
    outputs = publish_site_data(example_league, example_scored, tmp_path_factory.mktemp("example-site"))
    return outputs, Site(outputs, list(circuits.CIRCUITS), example_league.settings.name).pages()


def test_a_player_s_chart_draws_the_dated_rankings_one_place_a_date(example_site):
    """A player's places, date by date, are his dated rankings': the Grand Sud's final ranking of the
    season (« tournois de 2026 seulement ») shares the last date but counts other tournaments, and
    drawn beside them the line moved where nothing happened (and in his lines: the next test); the
    chart's table dates as the site dates."""
    _, pages = example_site
    charted = 0
    for path, body in pages.items():
        if not path.startswith("site/joueur-"):
            continue
        text = body.decode("utf-8")
        for section in text.split('<figure class="places">')[1:]:
            section = section[:section.index("</figure>")]
            charted += 1
            svg = re.search(r"<svg .*?</svg>", section, re.S)
            assert svg and 'role="img"' in svg[0] and "<polyline" in svg[0]
            table = section[section.index('class="chart-data"'):].split("</table>")[0]
            places = re.findall(r"<tr><td>([^<]+)</td><td>(\d+)</td></tr>", table)
            days = [day for day, _ in places]
            assert len(places) == svg[0].count("<circle") >= 2 and len(days) == len(set(days)), path
            assert all(re.fullmatch(r"(1er|\d{1,2})\u00a0[a-zéû]+ \d{4}", day) for day in days), days
    assert charted >= 50


def test_a_player_s_lines_give_one_place_a_day_each_linked_to_its_document(example_site):
    """LAMY's page read « Classement après le tournoi d’Auch » 8th and, the same day, « Classement final
    provisoire de la saison 2026 (tournois de 2026 seulement) » 3rd, the same total, the one line with
    no link: the season's ranking so far, published as CSV and annex without a bulletin. While a
    season runs its ranking « à date » is its latest dated bulletin (one document per ranking): a
    player's lines leave that one out on the day of a dated ranking, as his chart does; his season's
    results still name it; a season's final bulletin, once it is published, keeps its line."""
    _, pages = example_site
    lines = 0
    for path, body in pages.items():
        if path.startswith("site/joueur-"):
            for table in re.findall(r'aria-label="Sa place dans chaque classement publié[^"]*" tabindex="0">(.*?)</table>',
                                    body.decode("utf-8"), re.S):
                for header in re.findall(r'<th scope="row" role="rowheader">(.*?)</th>', table):
                    lines += 1
                    assert "<a href=" in header, (path, header)
    assert lines > 1000
    [lamy] = [body.decode("utf-8") for path, body in pages.items()
              if path.startswith("site/joueur-") and b"<h1>LAMY" in body]
    season = lamy[lamy.index("Classement régional Grand Sud&nbsp;— saison 2026"):]
    table = season[:season.index("</table>")]
    assert [words_of(row.replace("</", " </")) for row in re.findall(
        r"<tr role=\"row\"><td[^>]*>14\u00a0novembre 2026</td>(.*?)</tr>", table)] == [
        "Classement après le tournoi d’Auch du 14 novembre 2026 8 Total : 1 695"]
    assert "provisoire" not in table
    assert "tournoi par tournoi&nbsp;— Classement final provisoire de la saison 2026 (tournois de 2026 seulement)" in season
    # the season before, over: its final bulletin's line beside its last dated one
    before = lamy[lamy.index("Classement régional Grand Sud&nbsp;— saison 2025"):]
    assert '">Classement final de la saison 2025</a></th>' in before[:before.index("</table>")]


def test_places_gained_and_lost_are_drawn_as_the_bulletins_draw_them_and_sort_as_numbers(example_site):
    """« ▼ 2 » and « ▲ 3 », said « 2 places perdues » (render/evolution.py, the bulletins' cell), « = »
    for none; each cell sorts by its number (templates/site/site.js reads `data-sort`)."""
    _, pages = example_site
    season = pages["site/grand-sud-2026.html"].decode("utf-8")
    assert re.search(r'<td class="evo down" data-sort="-2"><span aria-hidden="true">▼</span> 2'
                     r'<span class="sr-only"> places perdues</span></td>', season)
    assert re.search(r'<td class="evo up" data-sort="\d+"><span aria-hidden="true">▲</span> \d+', season)
    assert '<td class="evo same" data-sort="0"><span aria-hidden="true">=</span>' in season
    assert not re.search(r'class="evo[^>]*>[-\u2212+]?\d', season)  # never a bare « 0 » or « -2 »


def test_a_tournament_page_carries_its_results_open_graph_and_a_sports_event(example_site):
    outputs, pages = example_site
    events = [path for path in pages if path.startswith("site/tournoi-")]
    assert len(events) >= 4
    for path in events:
        page = Page(pages[path].decode("utf-8"))
        event = json.loads("".join(page.json_ld))
        assert event["@type"] == "SportsEvent" and event["name"] and re.fullmatch(r"\d{4}-\d\d-\d\d", event["startDate"])
        assert page.meta["og:title"] == event["name"] and page.meta["og:description"]
        assert len(page.th_scopes) > 3


def test_the_search_index_finds_players_clubs_and_tournaments_accents_and_case_aside(example_site):
    outputs, pages = example_site
    script = pages["site/recherche.js"].decode("utf-8")
    entries = json.loads(script[script.index("["):script.rindex("]") + 1])
    kinds = {entry["t"] for entry in entries}
    assert kinds == {"joueur", "club", "tournoi"}
    assert all(f"site/{entry['u']}" in pages for entry in entries)
    wanted = search_key("andre helene")
    assert search_key("ANDRÉ Hélène") == wanted
    assert [e for e in entries if search_key("TANTRIX d'AUTOMNE") in e["k"] and e["t"] == "tournoi"]
    assert [e for e in entries if e["t"] == "club" and "nimes" in e["k"]]
    # the apostrophe a phone's keyboard types (’), or its likes, is the straight one the names have
    assert search_key("Tournoi d’ALBI") == search_key("tournoi d‘albi") == search_key("tournoi dʼalbi") == "tournoi d'albi"
    assert not [e for e in entries if re.search("[\u2018\u2019\u02bc]", e["k"])]
    # each tournament with its day: the editions of one tournament (Albi 2025 and 2026) told apart; a
    # pool tournament with its days (« du 5 septembre au 6 octobre 2026 »)
    tournaments = [(e["n"], e["d"]) for e in entries if e["t"] == "tournoi"]
    assert len(set(tournaments)) == len(tournaments) > len({name for name, _ in tournaments})
    assert all(re.fullmatch(r"(du (1er|\d{1,2})( \w+)? au )?(1er|\d{1,2}) \w+ \d{4}", day) for _, day in tournaments)
    assert sum(day.startswith("du ") for _, day in tournaments) == 2


def words_of(markup: str) -> str:
    """A fragment's text, its tags (a title's date hidden on a phone) and entities aside."""
    return " ".join(html.unescape(re.sub(r"<[^>]+>", "", markup)).split())


def test_a_tournament_has_one_name_on_its_page_in_the_search_and_in_every_list_linking_it(example_site):
    """The Masters was « Classement final » (its final ranking's title) in the lists of its season's
    page, of clubs' and players' pages, and « Masters Grand Sud 2026 » on its page and in the search:
    a tournament is called by its name everywhere (site/sources.py `shown_title`)."""
    _, pages = example_site
    names = {path.removeprefix("site/"): words_of(re.search(r"<h1>(.*?)</h1>", text.decode("utf-8"))[1])
             for path, text in pages.items() if path.startswith("site/tournoi-")}
    assert "Masters Grand Sud 2026" in names.values()
    script = pages["site/recherche.js"].decode("utf-8")
    for entry in json.loads(script[script.index("["):script.rindex("]") + 1]):
        if entry["t"] == "tournoi":
            assert entry["n"] == names[entry["u"]]
    linked = 0
    for path, text in pages.items():
        if path.endswith(".html") and not path.startswith("site/tournoi-"):
            for url, words in re.findall(r'<a href="(?:\.\./site/)?(tournoi-[^"]+\.html)">(.*?)</a>', text.decode("utf-8")):
                assert words_of(words) == names[url], (path, url)
                linked += 1
    assert linked > 50
    for path in ("site/masters-2026.html", *(p for p in pages if p.startswith(("site/club-", "site/joueur-")))):
        assert "Classement final</a>" not in pages[path].decode("utf-8"), path


def test_a_tour_de_france_tournament_s_page_gives_each_player_s_points_and_no_empty_club_column(example_site,
                                                                                                   example_scored):
    """A Tour de France tournament's page showed Place, Joueur and a « Club » empty in every row (its
    sheets name no club), not the points its bulletin gives each player: it shows those points
    (`Report.event_columns`), a tournament that does not count says why, and a column empty in
    every row is not shown, here nor on its players' pages, whose lines say « Points : N ». A player
    the organiser left out of the ranking (« hors classement », the bulletin's words for him under the
    tournament's name) had an empty Points cell: it says « hors classement », here and on his page."""
    outputs, pages = example_site
    earned = {(t["name"], t["date"]): {row["player"]: row["points"] for row in t["rows"]}
              for d in example_scored.reports["tour-de-france"].documents for t in d.context["latest"]}
    left_out = {(t["name"], t["date"]): t["excluded"]
                for d in example_scored.reports["tour-de-france"].documents for t in d.context["latest"]}
    seen = {True: 0, False: 0}
    excluded_seen = 0
    for record in load(outputs, ["tour-de-france"], ()).pop().rankings:
        if record["kind"] != "event":
            continue
        text = pages[f"site/{page_name('tournoi', 'tour-de-france/' + record['path'])}"].decode("utf-8")
        headers = [words_of(h) for h in re.findall(r'<th scope="col"[^>]*>(.*?)</th>', text)]
        rows = {words_of(player): [words_of(cell) for cell in cells.split("</td>") if cell]
                for player, cells in re.findall(r'<th scope="row">(.*?)</th>(.*?)</tr>', text)}
        given = earned[(record["name"], french.date_long(dt.date.fromisoformat(record["date"])))]
        counts = bool(given)
        seen[counts] += 1
        if counts:
            assert headers == ["Place", "Joueur", "Points"]
            shown = {player: words_of(re.sub(r"<td[^>]*>", "", cells[0])) for player, cells in rows.items()}
            # a player out of the ranking earns nothing: his cell says why, as the bulletin names him
            excluded = left_out[(record["name"], french.date_long(dt.date.fromisoformat(record["date"])))]
            assert shown == {**{player: words_of(points) for player, points in given.items()},
                             **dict.fromkeys(excluded, "hors classement")}
            for player in excluded:
                excluded_seen += 1
                row = next(r for r in record["rows"] if r["player"] == player)
                page = html.unescape(pages[f"site/{page_name('joueur', row['id'])}"].decode("utf-8"))
                assert re.search(rf'>{re.escape(record["name"])}</a></th><td role="cell">\d*</td>'
                                 r'<td role="cell">Points\u00a0:\u00a0hors classement</td>', page), player
        else:
            assert headers == ["Place", "Joueur"] and "ce tournoi ne compte pas pour le classement" in text
            # and its players' lines for it say so, not an empty result
            first = pages[f"site/{page_name('joueur', record['rows'][0]['id'])}"].decode("utf-8")
            assert re.search(rf'>{re.escape(html.escape(record["name"]))}</a></th><td role="cell">\d+</td>'
                             r'<td role="cell">ne compte pas</td>', first), record["name"]
    assert seen[True] > 5 and seen[False] >= 1 and excluded_seen == 4
    player = pages[f"site/{page_name('joueur', record['rows'][0]['id'])}"].decode("utf-8")
    section = player[player.index("Tour de France de Diplomatie&nbsp;— saison"):]
    section = section[:section.index("</table>")]
    assert ">Club<" not in section and 'class="secondary"></td>' not in section
    assert re.search(r'<td role="cell">Points\u00a0:\u00a0\d', section)


def test_the_masters_pages_name_the_grand_sud_ranking_their_annual_places_are_in_and_link_it(example_site):
    """The Masters' « Class. annuel » (LAMY 3e, DUPUY 10e) read against the Grand Sud's table of the
    home page and of its season page, its latest dated bulletin (LAMY 8e, DUPUY 4e), a sliding window
    over two years: every page showing a Masters table names the ranking those places are in, the
    season's of the year's tournaments only, under the title the Grand Sud's page lists it by, and
    links its CSV, the same file."""
    _, pages = example_site
    title = "Classement final provisoire de la saison 2026 (tournois de 2026 seulement)"
    csv = "grand-sud/2026/classement-provisoire-2026.csv"
    grand_sud = pages["site/grand-sud-2026.html"].decode("utf-8")
    listed = re.search(r'<td role="cell">([^<]*)</td>\s*<td role="cell"><a href="\.\./' + re.escape(csv) + '">CSV</a>',
                       grand_sud)
    assert listed and words_of(listed[1]) == title
    said = (f"Classement annuel : place au classement du Grand Sud qui qualifie pour le Masters, « {title} », "
            f"au 28 novembre 2026, jour du Masters (fichier {csv}).")
    masters = [path for path, text in pages.items() if path.endswith(".html") and "Class. annuel</th>" in text.decode("utf-8")]
    assert {"index.html", "site/masters-2026.html", "site/tournoi-92344426ef59.html"} <= set(masters)
    assert any(path.startswith("site/club-") for path in masters)
    for path in masters:
        text = pages[path].decode("utf-8")
        note = text[text.index("Class. annuel</th>"):].split("</table>", 1)[1]
        note = note[:note.index("</p>")]
        assert words_of(note) == said, path
        assert f'<a href="{"" if path == "index.html" else "../"}{csv}">' in note, path
    assert "qualifie pour le Masters" not in grand_sud


def test_the_masters_pages_link_the_public_copy_of_the_grand_sud_ranking_when_it_has_one(example_league, example_scored,
                                                                                          tmp_path):
    """A player who hides his name (joueurs.xlsx's Publication) has the Grand Sud's CSV published as a
    public copy, uploaded in place of the whole file: the Masters' pages link that copy."""
    outputs = publish_site_data(example_league, example_scored, tmp_path)
    manifest = outputs / "grand-sud" / MANIFEST
    found = json.loads(manifest.read_text(encoding="utf-8"))
    found["public"] = {"2026/classement-provisoire-2026.csv": "public/2026/classement-provisoire-2026.csv"}
    manifest.write_text(json.dumps(found), encoding="utf-8")
    pages = Site(outputs, list(circuits.CIRCUITS), example_league.settings.name).pages()
    for path in ("site/masters-2026.html", "index.html"):
        text = pages[path].decode("utf-8")
        assert "grand-sud/public/2026/classement-provisoire-2026.csv\">Classement final provisoire" in text, path
        assert "grand-sud/2026/classement-provisoire-2026.csv\">" not in text, path


def test_a_season_s_bulletins_are_listed_by_date(example_site):
    """Tantrix's season page listed 14 mars, 10 octobre, 14 mars, 10 octobre (its tournaments'
    bulletins, then its rating lists, as its publications file has them): by date now, every circuit."""
    _, pages = example_site
    seen = 0
    for path in [p for p in pages if re.fullmatch(r"site/[a-z-]+-\d{4}\.html", p)]:
        text = pages[path].decode("utf-8")
        if '<table class="sortable documents"' in text:
            seen += 1
            table = text[text.index('<table class="sortable documents"'):].split("</table>")[0]
            days = re.findall(r'<td role="cell" data-sort="(\d{8})">[^<]', table)  # its annexes after, undated
            assert days and days == sorted(days), path
    assert seen == 6


def test_a_season_page_names_its_circuit_s_regulation_by_its_title_once(example_site):
    """The Grand Sud's season page read « Règlement : « Règlement Classement Masters » »: a title that
    says it is a regulation stands alone, the others after « Règlement : », each in a <cite> (a work's
    title, in italics), never in guillemets of the page's own."""
    _, pages = example_site
    said = {}
    for path in [p for p in pages if re.fullmatch(r"site/[a-z-]+-\d{4}\.html", p)]:
        summary = re.search(r'<p class="summary">(.*?)</p>', pages[path].decode("utf-8"))[1]
        said[path.removeprefix("site/").rpartition("-")[0]] = summary
    assert said == {
        "grand-sud": "<cite>Règlement Classement Masters</cite>",
        "masters": "<cite>Règlement Tournoi Masters de fin de saison</cite>",
        "poules": "<cite>Règlement du tournoi en ligne par poules</cite>",
        "tantrix": "<cite>Tournois de Tantrix sur Internet\u00a0— le règlement</cite>",
        "tour-de-france": "Règlement&nbsp;: <cite>Le Tour de France</cite>"}


def test_a_manifest_of_an_earlier_build_names_the_regulation_once_too(example_site, tmp_path):
    """A circuit held back keeps the manifest an earlier build wrote, whose regulation was quoted
    (« « Règlement … » »): its season page names it once all the same."""
    outputs = tmp_path / "outputs"
    shutil.copytree(example_site[0], outputs)
    manifest = outputs / "tour-de-france" / MANIFEST
    data = json.loads(manifest.read_text(encoding="utf-8"))
    data["regulation"] = f"« {data['regulation']} »"
    manifest.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    page = Site(outputs, list(circuits.CIRCUITS), "Ligue").pages()["site/tour-de-france-2005.html"].decode("utf-8")
    assert '<p class="summary">Règlement&nbsp;: <cite>Le Tour de France</cite></p>' in page


SEASONS_NAV = re.compile(r'<nav class="seasons" aria-label="([^"]*)">(.*?)</nav>', re.S)


def other_seasons(page: str) -> list[tuple[str, str]] | None:
    """A season page's links to its circuit's other seasons (the page, the words), None without any."""
    found = SEASONS_NAV.findall(page)
    if not found:
        return None
    (label, nav), = found
    assert label == "Autres saisons du circuit"
    return re.findall(r'<a href="([^"]+)">([^<]+)</a>', nav)


def test_a_season_page_links_its_circuit_s_other_seasons(example_site):
    """The Grand Sud's 2025 and 2026 pages linked each other nowhere (the home page alone listed
    them): each season page links the others the site has, the latest first; a circuit of one
    season says nothing of others."""
    _, pages = example_site
    assert other_seasons(pages["site/grand-sud-2026.html"].decode("utf-8")) == [("grand-sud-2025.html", "2025")]
    assert other_seasons(pages["site/grand-sud-2025.html"].decode("utf-8")) == [("grand-sud-2026.html", "2026")]
    for path in ("site/masters-2026.html", "site/poules-2026.html", "site/tantrix-2026.html",
                 "site/tour-de-france-2005.html"):
        assert other_seasons(pages[path].decode("utf-8")) is None, path


def test_a_ranking_of_ratings_or_events_is_a_circuit_s_headline_when_it_has_no_season_ranking(example_site):
    outputs, pages = example_site
    home = Page(pages["index.html"].decode("utf-8"))
    for info in circuits.REGISTRY.values():
        if (outputs / info.slug / MANIFEST).exists():
            assert info.title in home.words
    assert home.words.count("Place Joueur") >= 4  # a top-ten table per circuit with a ranking


def test_corrections_stay_listed_after_the_build_that_made_them(tmp_path):
    import datetime as dt

    from reportgen.render.changes import Republished

    first = publish.corrections(tmp_path, [Republished("grand-sud", "2026/classement-2026-01-10", "Classement",
                                                       dt.date(2026, 1, 10), ("classeur corrigé",))], "2026-02-01")
    (tmp_path / "site").mkdir()
    (tmp_path / "site" / publish.HISTORY).write_bytes(publish.history_file(first))
    later = publish.corrections(tmp_path, [Republished("grand-sud", "2026/classement-2026-02-07", "Classement",
                                                       dt.date(2026, 2, 7), ("tournoi en retard",))], "2026-03-01")
    assert [c["day"] for c in later] == ["2026-03-01", "2026-02-01"]
    assert publish.corrections(tmp_path, [], "2026-04-01") == first  # nothing new: the same history


def test_a_correction_said_again_by_a_later_build_of_the_day_is_listed_once(tmp_path):
    """Each build's corrections are numbered (`order`) so that a day's are listed in the order they
    ran; the same correction said by two builds of one day was listed twice, the number telling
    apart what is the same correction. Listed once, as the later build's."""
    import datetime as dt

    from reportgen.render.changes import Republished

    change = Republished("grand-sud", "2026/classement-2026-01-10", "Classement", dt.date(2026, 1, 10),
                         ("classeur corrigé",))
    (tmp_path / "site").mkdir()
    first = publish.corrections(tmp_path, [change], "2026-02-01")
    (tmp_path / "site" / publish.HISTORY).write_bytes(publish.history_file(first))
    again = publish.corrections(tmp_path, [change], "2026-02-01")
    assert len(again) == 1 and again[0]["order"] == 2


def test_the_public_form_of_a_player():
    public = Public({"L:1": ("initiales", "D. J."), "L:2": ("non", "M. P.")})
    assert public.name("L:1", "DUPONT Jean") == "D. J." and public.shown("L:1")
    assert public.name("L:2", "MARTIN Paul") == "joueur non publié" and not public.shown("L:2")
    assert public.name("L:3", "DURAND Anne") == "DURAND Anne"


def test_a_player_s_page_says_which_results_count_where_only_the_best_ones_do(example_site, example_league):
    """The Grand Sud counts only the best results: LEBRUN Nicolas played six tournaments in 2026
    and his total, 1 620, is his five best; the sixth, 80 points, is marked as not counted. Each
    result names its tournament, linked to its page, with its date, in the order of the bulletin's
    columns (by date; Perpignan before Toulouse on 14 March, by id): the points of each are those
    of his row of the bulletin of 14 November (LEBRUN Nicolas: 80, 580, 340, 315, 245, 140)."""
    outputs, pages = example_site
    text = pages[f"site/{page_name('joueur', 'L:11147')}"].decode("utf-8")
    table = text[text.index('<table class="sortable results" role="table">'):].split("</table>")[0]
    assert ('<th scope="col" role="columnheader" aria-sort="ascending">Date</th><th scope="col" role="columnheader">Tournoi</th>'
            '<th scope="col" role="columnheader">Points</th><th scope="col" role="columnheader">Compté au classement</th>') in table
    rows = re.findall(r'<tr role="row"><td role="cell" data-sort="(\d{8})">([^<]+)</td><th scope="row" role="rowheader">'
                      r'<a href="([^"]+)">([^<]+)</a></th><td role="cell">([^<]+)</td><td role="cell">([^<]+)</td></tr>', table)
    events = {event.name: event for event in example_league.circuits["grand-sud"].events}
    shown = []
    for sort, day, url, name, points, counted in rows:
        event = events[html.unescape(name)]
        assert (sort, day) == (event.date.strftime("%Y%m%d"), french.day_month_kept(french.date_long(event.date)))
        assert url == page_name("tournoi", f"grand-sud/tournoi/{event.id}") and f"site/{url}" in pages
        assert "LEBRUN Nicolas" in pages[f"site/{url}"].decode("utf-8")
        shown.append((html.unescape(name), points, counted))
    assert shown == [("Tournoi de Carcassonne", "80", "non (hors des meilleurs résultats)"),
                     ("Tournoi d'Albi", "580", "oui"), ("Tournoi de Perpignan", "340", "oui"),
                     ("Open de printemps de Toulouse", "315", "oui"), ("Tournoi de Nîmes", "245", "oui"),
                     ("Tournoi d'Auch", "140", "oui")]


def results_shown(pages, player_id: str) -> list[tuple[str, str, str, str]]:
    """Each result of a player's page's latest results table: (date, tournament, points, counted)."""
    text = pages[f"site/{page_name('joueur', player_id)}"].decode("utf-8")
    found = []
    for table in text.split('<table class="sortable results" role="table">')[1:]:
        for row in re.findall(r'<tr role="row"><td[^>]*>(.*?)</td><th[^>]*>(.*?)</th><td[^>]*>(.*?)</td>'
                              r'<td[^>]*>(.*?)</td></tr>', table.split("</table>")[0]):
            found.append(tuple(html.unescape(re.sub(r"<[^>]+>", "", cell)).replace("\u00a0", " ") for cell in row))
    return found


def test_a_zero_among_the_best_results_is_said_to_count_as_the_bulletin_counts_it(example_site):
    """DUPUY Frédéric has 5 results in 2026 and the best 5 count: his 0 at Toulouse's Open de
    printemps counts, as the final bulletin (not struck) and the annex (« Compté au classement
    final : oui ») say. His page said « non (hors des meilleurs résultats) », the first results adding
    up to his total taken for those that count (reviewer, 43rd round); his 0 of 2025, LEROY Chloé's
    of the Open d'automne, too."""
    _, pages = example_site
    dupuy = results_shown(pages, "L:10185")
    assert ("14 mars 2026", "Open de printemps de Toulouse", "0", "oui") in dupuy
    assert ("8 mars 2025", "Open de printemps de Toulouse", "0", "oui") in dupuy
    assert all(counted == "oui" for *_, counted in dupuy)
    assert ("24 octobre 2026", "Open d'automne de Toulouse", "0", "oui") in results_shown(pages, "L:14625")


def test_a_player_left_out_of_a_tantrix_event_has_its_line_saying_why(example_site):
    """DUPUY Frédéric lost 3 games by default at the Week-end Tantrix de printemps and is left out of
    its ranking (rule 7): his page had his « Classement Elo, 14 mars 2026, 8e » and no line for the
    event. It has one, linked to the event, no place, and why as its bulletin says it; the event's
    own table still ranks its ranked players only (reviewer, 43rd round)."""
    _, pages = example_site
    text = html.unescape(pages[f"site/{page_name('joueur', 'L:10185')}"].decode("utf-8"))
    rows = [row for row in re.findall(r'<tr role="row">.*?</tr>', text, re.S) if "Week-end Tantrix de printemps" in row]
    assert len(rows) == 1, rows
    cells = [re.sub(r"<[^>]+>", "", cell).strip() for cell in re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", rows[0], re.S)]
    assert cells[-2:] == ["", "hors classement\u00a0: 3 parties perdues par forfait (règle 7)"], cells
    assert 'href="tournoi-' in rows[0]
    event = next(path for path in pages if path.startswith("site/tournoi-")
                 and "<h1>Week-end Tantrix de printemps" in pages[path].decode("utf-8"))
    assert "DUPUY" not in pages[event].decode("utf-8").split("<table")[1]


def test_counted_marks_the_results_the_scoring_counted():
    """Each result marked as its circuit's scoring counted it (`RankingRow.counts`), a 0 among the
    best too: never read again from the points (10 + 8 make 18 before the 0, which counts); not
    known (None) when the row does not say."""
    def row(results, counts=()):
        return RankingRow(1, "L:1", "A", "", "Foix", {"points": 18}, results=results, counts=counts)
    assert data.counted(row((10, 8, 3), (True, True, False))) == [["10", True], ["8", True], ["3", False]]
    assert data.counted(row((10, 8, 0), (True, True, True))) == [["10", True], ["8", True], ["0", True]]
    assert data.counted(row((10, 8))) == [["10", None], ["8", None]]
    assert data.counted(row((10, 8), (True, True)), [1, 0]) == [["10", True, 1], ["8", True, 0]]  # each its tournament's index


def test_a_ranking_s_record_names_each_result_s_tournament_once_by_index():
    """site.json: a ranking's tournaments listed once (`events`), each result naming its own by its
    index there, not by its id (30-40 bytes, on each of thousands of results)."""
    rows = (RankingRow(1, "L:1", "A", "", "Foix", {"points": 18}, results=(10, 8), events=("2026/b.xlsx", "2026/a.xlsx"),
                       counts=(True, True)),
            RankingRow(2, "L:2", "B", "", "Albi", {"points": 8}, results=(8,), events=("2026/c.xlsx",), counts=(True,)),
            RankingRow(3, "L:3", "C", "", "Albi", {"points": 0}))
    ranking = Ranking("2026/classement", Scope(ScopeKind.SEASON, 2026), dt.date(2026, 3, 1), Status.PROVISIONAL,
                      (Column("points", "Points", "int"),), rows)
    record = data.ranking_record(ranking, {})
    assert record["events"] == ["2026/a.xlsx", "2026/b.xlsx", "2026/c.xlsx"]
    assert [row.get("results") for row in record["rows"]] == [[["10", True, 1], ["8", True, 0]], [["8", True, 2]], None]
    assert "events" not in data.ranking_record(dataclasses.replace(ranking, rows=rows[2:]), {})


def test_every_tournament_has_its_page_with_its_places_even_where_no_bulletin_ranks_it_alone(example_site,
                                                                                            example_league):
    """A Grand Sud or Tour de France tournament is not ranked on its own (its places feed the season's
    ranking): its page lists its places from the workbook, each player linked, in the search too."""
    outputs, pages = example_site
    script = pages["site/recherche.js"].decode("utf-8")
    for slug in ("grand-sud", "tour-de-france"):
        events = example_league.circuits[slug].events
        assert events
        for event in events:
            path = f"site/{page_name('tournoi', f'{slug}/tournoi/{event.id}')}"
            page = Page(pages[path].decode("utf-8"))
            assert event.name in page.words and json.loads("".join(page.json_ld))["name"] == event.name
            assert f'"u": "{path.removeprefix("site/")}"' in script
    event = sorted(example_league.circuits["grand-sud"].events, key=lambda e: e.date)[-1]
    text = pages[f"site/{page_name('tournoi', f'grand-sud/tournoi/{event.id}')}"].decode("utf-8")
    winner = [row for row in event.results if getattr(row, "place", None) == 1][0]
    first = re.search(r'<tr><td data-sort="1">1</td><th scope="row"><a href="(joueur-[0-9a-f]{12}\.html)">([^<]+)</a>',
                      text)
    assert first and first[2].startswith(winner.entry.last_name) and f"site/{first[1]}" in pages
    player = pages[f"site/{first[1]}"].decode("utf-8")
    assert event.name in Page(player).words  # the tournament is on the winner's page, with his place


def test_a_club_s_page_lists_its_players_and_the_tournaments_they_played(example_site, example_league):
    outputs, pages = example_site
    page = Page(pages[f"site/{page_name('club', 'Nîmes')}"].decode("utf-8"))
    assert "Nîmes" in page.words and "Tournois de ses joueurs" in page.words
    tournaments = [link for link in page.links if link.startswith("tournoi-")]
    assert tournaments and all(f"site/{link}" in pages for link in tournaments)
    players = [link for link in page.links if link.startswith("joueur-")]
    assert players and all(f"site/{link}" in pages for link in players)


def test_a_club_s_page_leads_from_each_ranking_to_its_season_s_page_and_bulletins(example_site):
    """A club's president on his club's page, wanting the bulletin to print: each section showed his
    players' lines in a ranking and linked neither the ranking whole nor its bulletins (the home page
    was the way). Under each: « Classement complet et bulletins de la saison 2026 », its season's page."""
    _, pages = example_site
    text = pages[f"site/{page_name('club', 'Albi')}"].decode("utf-8")
    sections = re.findall(r"<h2>([^<]+)</h2>(.*?)</section>", text, re.S)
    assert [title for title, _ in sections][:2] == ["Classement régional Grand Sud", "Masters Grand Sud"]
    for (_, section), season in zip(sections, ("grand-sud-2026.html", "masters-2026.html")):
        assert f'<a href="{season}">Classement complet et bulletins de la saison 2026</a>' in section
        assert f"site/{season}" in pages


def test_a_new_tournament_rewrites_only_the_pages_it_touches(small_league_copy):
    from reportgen.pipeline import build
    from tests.builders import TODAY, write_tournament

    outputs = small_league_copy.outputs
    before = {p: (p.read_bytes(), p.stat().st_mtime_ns) for p in site_pages(outputs)}
    write_tournament(small_league_copy.inputs, "2026-03-07-albi", day="07/03/2026", club="ALBI",
                     results=[[1, "DURAND", "Anne", "", "Toulouse"], [2, "NOUVEAU", "Joueur", "", "Albi"]])
    assert build(small_league_copy.inputs, outputs, TODAY).ok
    after = {p: (p.read_bytes(), p.stat().st_mtime_ns) for p in site_pages(outputs)}
    rewritten = {p.name for p in after if p in before and after[p][1] != before[p][1]}
    assert {p.name for p in after if p in before and after[p][0] != before[p][0]} == rewritten
    assert "grand-sud-2026.html" in rewritten and "index.html" in rewritten
    assert "grand-sud-2025.html" not in rewritten and page_name("joueur", "L:1004") not in rewritten  # LÉGER: 2025
    assert page_name("joueur", "N:nouveau joueur") in {p.name for p in after if p not in before}


def test_an_open_season_s_page_shows_its_latest_dated_bulletin_s_ranking_and_a_season_over_its_final(
        example_site, example_scored):
    """Issue 27, « one document per ranking »: while the 2026 season runs, its ranking « à date » is
    its latest dated bulletin, the one the clubs' mails and PDFs show. The final ranking so far (the
    season's tournaments alone, in force from 1 January) shares its date but has no bulletin: the
    season's page, the home page and the clubs' pages must not show it as the ranking (the site said
    MARTIN Jean-François 23rd where his club's mail said 16th). The 2025 season is over: its final."""
    _, pages = example_site
    rankings = [r for r in example_scored.reports["grand-sud"].rankings if r.scope.kind == "season"]

    def top(ranking, count=5):
        return [row.player for row in ranking.rows[:count]]

    dated = max((r for r in rankings if r.season == 2026 and not r.final), key=lambda r: r.date)
    so_far = next(r for r in rankings if r.season == 2026 and r.final)
    assert so_far.date == dated.date and top(so_far) != top(dated)  # the two differ on the same date

    def shows(page, ranking):
        words = Page(pages[page].decode("utf-8")).words
        table = words[words.index("Place Joueur"):]
        positions = [table.find(f"{row.rank} {row.player}") for row in ranking.rows[:5]]
        return -1 not in positions and positions == sorted(positions)

    season = Page(pages["site/grand-sud-2026.html"].decode("utf-8")).words
    assert shows("site/grand-sud-2026.html", dated) and not shows("site/grand-sud-2026.html", so_far)
    assert "Classement après le tournoi" in season.split("Place Joueur")[0]
    final_2025 = next(r for r in rankings if r.season == 2025 and r.final)
    assert "Classement final de la saison 2025" in Page(pages["site/grand-sud-2025.html"].decode("utf-8")).words
    assert shows("site/grand-sud-2025.html", final_2025)


def test_a_result_whose_tournament_is_not_known_is_shown_last_without_one():
    """A `site.json` written before results named their tournaments (two values each), or an index
    with no tournament behind it: its points and mark still shown, « — » for the tournament, last."""
    from reportgen.site.player_page import UNKNOWN, PlayerPages
    from reportgen.site.sources import Circuit, Entry

    event = {"kind": "event", "event": "2026/a.xlsx", "path": "tournoi/2026/a.xlsx", "name": "Open d'Albi",
             "title": "Open d'Albi", "date": "2026-03-14"}
    season = {"kind": "season", "events": ["2026/a.xlsx", "2026/gone.xlsx"]}
    circuit = Circuit("grand-sud", "Grand Sud", "", False, [], [], [event, season])
    pages = PlayerPages([circuit], lambda c, r: f"tournoi-{r['event']}.html")
    row = {"results": [["9", True, 1], ["8", True], ["5", False, 0]]}
    assert pages.results(circuit, Entry(circuit, season, row, 0)) == [
        ("20260314", "14 mars 2026", "Open d'Albi", "tournoi-2026/a.xlsx.html", "5", False),
        (*UNKNOWN, "9", True), (*UNKNOWN, "8", True)]


def test_no_page_of_the_example_league_lets_a_sign_start_a_line(example_site):
    """Every circuit's pages (a Tour de France scale, Tantrix's Elo charts, the Grand Sud's results):
    no « : ; ? ! » after an ordinary space, none inside « » (tests/test_site_typography.py)."""
    from tests.test_site_typography import breakable_spaces

    _, pages = example_site
    found = {path: spaces for path, page in pages.items() if path.endswith(".html")
             and (spaces := breakable_spaces(page))}
    assert not found, found


def test_a_new_layout_of_the_same_results_is_one_line_apart_not_a_correction(outputs, tmp_path):
    """The corrections page lists the documents whose results changed (what a club must know);
    a new layout of the same results (render/changes.py `same_content`) is one line a day under
    them, never on the home page's latest corrections."""
    from reportgen.render.changes import NEW_VERSION, Republished

    corrections = publish.corrections(tmp_path, [
        Republished("grand-sud", "2026/classement-2026-01-10", "Classement du 10", dt.date(2026, 1, 10), (NEW_VERSION,), True),
        Republished("grand-sud", "2025/classement-2025-03-08", "Classement du 8", dt.date(2025, 3, 8), (NEW_VERSION,), True),
        Republished("grand-sud", "2025/classement-2025-02-15", "Classement du 15", dt.date(2025, 2, 15),
                    ("classeur modifié : 2025/albi.xlsx (tournoi du 15 février 2025)",))], "2026-12-06")
    pages = Site(outputs, list(circuits.CIRCUITS), "Ligue", corrections=corrections).pages()
    page = Page(pages["site/corrections.html"].decode("utf-8"))
    assert "Classement du 15" in page.words and "résultats du tournoi du 15 février 2025 corrigés" in page.words
    assert "Classement du 10" not in page.words and "Classement du 8" not in page.words
    assert ("Mise en page mise à jour le 6 décembre 2026 (même contenu) : 2 documents "
            "(Classement régional Grand Sud).") in page.words
    home = Page(pages["index.html"].decode("utf-8"))
    assert "Classement du 15" in home.words and "Classement du 10" not in home.words and "Mise en page" not in home.words


def test_the_corrections_are_told_to_a_club_member_not_in_the_secretary_s_words(example_site, tmp_path):
    """« classeur modifié : 2026/2026-10-10-tarbes.xlsx (tournoi du 10 octobre 2026) » is what the
    secretary is told (render/changes.py: her build's messages and verification page); the site says
    what changed for a club member: the tournament's results corrected, no file, no date said twice
    (« … du 14 novembre 2026 (14 novembre 2026) »), the annex named as the Excel file it is, linked."""
    outputs, _ = example_site
    tarbes = "classeur modifié : 2026/2026-10-10-tarbes.xlsx (tournoi du 10 octobre 2026)"
    changes = [Republished("grand-sud", "2026/classement-2026-11-14", "Classement après le tournoi d'Auch du 14 novembre 2026",
                           dt.date(2026, 11, 14), (tarbes,)),
               Republished("grand-sud", "2026/annexe-grand-sud-2026", "Classement régional Grand Sud 2026",
                           dt.date(2026, 11, 14), (tarbes, "l’annuaire des joueurs (joueurs.xlsx) a changé")),
               Republished("grand-sud", "2026/classement-2026-10-10", "Classement après le tournoi de Tarbes du 10 octobre 2026",
                           dt.date(2026, 10, 10), ("correction du classeur de ce jour : 2026/2026-10-10-tarbes.xlsx",)),
               Republished("tantrix", "2026/annexe-tantrix-2026", "Tantrix 2026", dt.date(2026, 10, 10),
                           ("classeur ajouté : 2026/tantrix/2026-10-10-coupe.xlsx (tournoi du 10 octobre 2026)",))]
    assert "classeur modifié : 2026/2026-10-10-tarbes.xlsx" in str(changes[0])  # the secretary's words, hers
    pages = Site(outputs, list(circuits.CIRCUITS), "Ligue",
                 corrections=publish.corrections(tmp_path, changes, "2026-12-06")).pages()
    corrections = Page(pages["site/corrections.html"].decode("utf-8"))
    home = Page(pages["index.html"].decode("utf-8"))
    for page in (corrections, home):
        words = page.words
        assert "classeur" not in words and ".xlsx" not in words and "annuaire" not in words, words
        assert words.count("résultats du tournoi de Tarbes du 10 octobre 2026 corrigés") == 3, words
        assert "résultats de la Coupe Tantrix d'automne du 10 octobre 2026 ajoutés au classement" in words, words
        assert "liste des joueurs mise à jour" in words
        assert not re.search(r"(\d+ \w+ \d{4}) \(\1\)", words), words
        assert "Annexe Excel : Classement régional Grand Sud 2026 (14 novembre 2026)" in words, words
    assert "../grand-sud/2026/annexe-grand-sud-2026.xlsx" in corrections.links
    assert "grand-sud/2026/annexe-grand-sud-2026.xlsx" in home.links


# The example's pool tournaments, played over weeks: from their workbook's Date (their first day of
# play, and their file's name) to the day their final started (their last bulletin's date)
POOL_DAYS = {"Open d'automne en ligne": "du 5 septembre au 6 octobre 2026",
             "Coupe de la Toussaint en ligne": "du 24 octobre au 22 novembre 2026"}


def test_a_tournament_s_card_leaves_out_its_place_only_when_its_title_says_it_as_a_word(example_site):
    """The Tour de France's « DipLyon III, Coupe de France » in Lyon keeps its place on its card, its
    « Tournoi International de Lyon » does not say it twice: the rule of the home page's calendar too
    (french.said_in: tests/test_calendar.py)."""
    from reportgen.site.pages import event_card

    outputs, _ = example_site
    title = circuits.REGISTRY["tour-de-france"].title
    subtitles = {record["name"]: event_card("Ligue", title, record, Public()).subtitle
                 for record in data.event_records_in(outputs / "tour-de-france" / data.DATA)}
    assert subtitles["DipLyon III, Coupe de France"] == f"{title} — 3 décembre 2005 · Lyon"
    assert subtitles["Tournoi International de Lyon"] == f"{title} — 9 avril 2005"


def test_a_pool_tournament_is_named_by_its_days_of_play_wherever_the_site_names_it(example_site, example_league):
    """The site named a pool tournament by the day its final started, its ranking's date
    (« Open d'automne en ligne · 6 octobre 2026 »): on its page, the season's, a player's, in the
    search and its card; its workbook and its file's name say 5 septembre, and
    the corrections, which read the workbook's day, said « résultats du tournoi du 5 septembre 2026
    corrigés », a day no page showed. Its days are said, « du 5 septembre au 6 octobre 2026 »; a
    tournament of one day (every other circuit's: their workbooks give one date) is as it was."""
    outputs, pages = example_site
    first = {event.id: event.date for found in example_league.circuits.values() for event in found.events}
    season = Page(pages["site/poules-2026.html"].decode("utf-8")).words
    search = {entry["n"]: entry["d"] for entry in (json.loads(line.rstrip(","))
              for line in pages["site/recherche.js"].decode("utf-8").splitlines()[1:-1]) if entry["t"] == "tournoi"}
    seen = 0
    for circuit in load(outputs, list(circuits.CIRCUITS), ()):
        for record in (r for r in circuit.rankings if r["kind"] == "event"):
            page = Page(pages[f"site/{event_page_name(circuit, record)}"].decode("utf-8"))
            ld = json.loads(page.json_ld[0])
            if circuit.slug != "poules":  # one day: its workbook's, the ranking's
                day = french.date_long(first[record["event"]])
                assert day == french.date_long(dt.date.fromisoformat(record["date"])), record["name"]
                assert f"{circuit.title} · {day}" in page.words and "endDate" not in ld, record["name"]
                continue
            days = POOL_DAYS[record["name"]]
            assert days.startswith(f"du {french.date_long(first[record['event']])[:-5]} ")  # from its workbook's Date
            assert f"{circuit.title} · {days}" in page.words, page.words
            assert f"{record['name']}, {days} — " in page.words  # its <title>
            assert " ".join(page.meta["og:image:alt"].split()).startswith(f"{record['name']} — {circuit.title} — {days} — ")
            assert (ld["startDate"], ld["endDate"]) == (first[record["event"]].isoformat(), record["date"])
            assert f"{days} · {record['name']}" in season
            assert search[record["name"]] == days
            player = pages[f"site/{page_name('joueur', record['rows'][0]['id'])}"].decode("utf-8")
            assert f"{days} Tournoi : {record['name']}" in Page(player).words
            seen += 1
    assert seen == 2


def test_a_pool_tournament_under_way_is_listed_by_the_day_it_shows(example_league, example_scored, tmp_path):
    """A pool tournament under way shows its first day (its last is not known yet) but was listed by
    its latest round's date: started on 24 October, shown « 24 octobre 2026 », it came after a
    tournament played from 1 to 5 November, in its season's list and a player's lines. Listed by
    the first day shown, as a calendar lists what lasts several days (site/days.py `record_start`)."""
    report = example_scored.reports["poules"]
    autumn, toussaint = sorted(report.rankings, key=lambda r: r.date)
    moved = dataclasses.replace(autumn, date=dt.date(2026, 11, 5),  # played from 1 to 5 November
                                scope=dataclasses.replace(autumn.scope, start=dt.date(2026, 11, 1)))
    running = dataclasses.replace(toussaint, status=Status.PROVISIONAL)  # from 24 October, under way
    scored = dataclasses.replace(example_scored, reports={
        **example_scored.reports, "poules": dataclasses.replace(report, rankings=[moved, running])})
    outputs = publish_site_data(example_league, scored, tmp_path)
    pages = Site(outputs, list(circuits.CIRCUITS), "Ligue").pages()
    season = Page(pages["site/poules-2026.html"].decode("utf-8")).words
    listed = [season.index("24 octobre 2026 · Coupe de la Toussaint en ligne"),
              season.index("du 1er au 5 novembre 2026 · Open d'automne en ligne")]
    assert listed == sorted(listed), season
    both = {row.player_id for row in autumn.rows} & {row.player_id for row in toussaint.rows}
    player = html.unescape(pages[f"site/{page_name('joueur', min(both))}"].decode("utf-8"))
    lines = [player.index("Coupe de la Toussaint en ligne"), player.index("Open d'automne en ligne")]
    assert lines == sorted(lines)
    assert re.search(r'data-sort="20261024">24\s+octobre 2026<', player)  # the day kept with its month


def test_a_corrected_pool_tournament_is_named_as_its_pages_name_it(example_site, tmp_path):
    """A workbook's correction names its tournament by the workbook's day (render/changes.py); a pool
    tournament's pages give its days, not that one alone: the corrections name it."""
    outputs, _ = example_site
    change = Republished("poules", "2026/2026-09-05-open-automne/tour-3",
                         "Open d'automne en ligne — Tour final et classement final", dt.date(2026, 10, 6),
                         ("classeur modifié : poules/2026-09-05-open-automne.xlsx (tournoi du 5 septembre 2026)",))
    pages = Site(outputs, list(circuits.CIRCUITS), "Ligue",
                 corrections=publish.corrections(tmp_path, [change], "2026-12-06")).pages()
    for path in ("site/corrections.html", "index.html"):
        words = Page(pages[path].decode("utf-8")).words
        assert "résultats de l’Open d'automne en ligne corrigés" in words, words
        assert "5 septembre 2026 corrigés" not in words


def test_a_club_s_page_is_titled_with_the_club_and_its_rows_do_not_link_back_to_it(example_site):
    """« Auch » alone was the page's heading, « Les joueurs du club Auch » its description, and each
    row's Club cell linked to the page itself: « Club d’Auch », « Les joueurs du club d’Auch »
    (french.py's naming of a club), no Club column there (a season's page keeps it)."""
    _, pages = example_site
    name = page_name("club", "Auch")
    text = html.unescape(pages[f"site/{name}"].decode("utf-8"))
    assert "<h1>Club d’Auch</h1>" in text and "<title>Club d’Auch\u00a0— " in text
    assert '<meta name="description" content="Les joueurs du club d’Auch">' in text
    page = Page(pages[f"site/{name}"].decode("utf-8"))
    assert name not in page.links and "Tournois de ses joueurs" in page.words
    assert not re.search(r"<th[^>]*>Club</th>", text) and "<tbody>" in text
    assert re.search(r"<th[^>]*>Club</th>", pages["site/grand-sud-2026.html"].decode("utf-8"))


def test_a_pool_player_s_lines_say_the_round_he_reached_once(example_site):
    """A pool tournament's line on a player's page read « Tour : finale », « Tour : tour 2 »: the
    round said twice, its column's short name before a value that names itself. It says « Finale »,
    « Tour 2 »; the other circuits' lines keep their column's name, « Points : 780 »."""
    _, pages = example_site
    said: set[str] = set()
    for path, body in pages.items():
        if path.startswith("site/joueur-"):
            text = body.decode("utf-8")
            said |= set(re.findall(r'<td role="cell">([^<]*)</td>', text))
    assert not [value for value in said if value.startswith("Tour\u00a0:")], said
    assert {"Finale", "Tour\u00a01", "Tour\u00a02"} <= said
    assert any(value.startswith("Total\u00a0:\u00a0") for value in said), said



def test_the_home_page_says_the_results_its_ranking_awaits_as_the_season_s_page(small_league_copy):
    """calendrier.xlsx announces Perpignan's of 20 March, past on the build's day, whose workbook has
    not come: the season's page said « Provisoire : résultats de Perpignan du 20 mars attendus. » beside
    the ranking in force, and the home page showed that ranking's top ten without a word of it."""
    from reportgen.pipeline import build
    from tests.builders import TODAY, write_workbook

    inputs, outputs = small_league_copy.inputs, small_league_copy.outputs
    write_workbook(inputs / "calendrier.xlsx", {"Calendrier": [["Date", "Circuit", "Club", "Nom", "Lieu"],
                                                              ["20/03/2026", "grand-sud", "PERP", "Open de Perpignan", "Perpignan"]]})
    assert build(inputs, outputs, TODAY).ok
    note = '<p class="awaited">Provisoire\u00a0: résultats de Perpignan du 20\u00a0mars attendus.</p>'
    assert note in (outputs / "site" / "grand-sud-2026.html").read_text(encoding="utf-8")
    home = (outputs / "index.html").read_text(encoding="utf-8")
    grand_sud = home.split("<h2>Classement régional Grand Sud</h2>")[1].split("</section>")[0]
    assert note in grand_sud
    assert "awaited" not in home.replace(grand_sud, "")  # the other circuits await nothing
