"""The site in Debian's Chromium (issue 24), through the session browser of tests/browser.py: a
ranking page on a 390 px phone shows place, player, points and evolution without sideways
scrolling; the search box and the sortable tables work from the file system, with no server; an
Open Graph image is drawn with its pixels."""

import io
import json
import re

from PIL import Image
from pypdf import PdfReader

from reportgen.site import og
from reportgen.site.pages import search_key
from tests.browser import SCROLL_REGIONS, WIDTHS, check_page

SHOWN_HEADERS = ("Array.from(document.querySelectorAll('table.ranking thead th'))"
                 ".filter(th => th.offsetWidth > 0).map(th => th.textContent)")


def test_a_ranking_page_fits_a_phone_with_place_player_points_and_evolution(browser, small_league_built):  # noqa: F811
    outputs = small_league_built.outputs
    page = outputs / "site" / "grand-sud-2026.html"
    phone = browser.look(page, outputs, 390, audit=False)
    assert phone.scroll_width <= 390 and not phone.console and not phone.outside
    assert browser.pages[390].evaluate(SHOWN_HEADERS) == ["Place", "Joueur", "Total", "Évol."]
    browser.look(page, outputs, 1280, audit=False)
    assert "Club" in browser.pages[1280].evaluate(SHOWN_HEADERS)  # the other columns on a wider screen


SEARCH_AND_SORT = """() => {
  const input = document.getElementById("recherche");
  input.value = "leger zoe";
  input.dispatchEvent(new Event("input"));
  const found = Array.from(document.querySelectorAll("#resultats a"), a => [a.textContent, a.getAttribute("href")]);
  const table = document.querySelector("table.ranking");
  const header = table.querySelectorAll("thead th")[1];
  const arrow = () => getComputedStyle(table.querySelector("thead th[aria-sort] button"), "::after").content;
  const before = arrow();
  header.click();
  const names = Array.from(table.querySelectorAll("tbody th"), th => th.textContent);
  return {found: found, hidden: input.form.hidden, names: names, sort: header.getAttribute("aria-sort"),
          arrows: [before, arrow()]};
}"""


def test_the_search_finds_a_player_by_part_of_his_name_and_a_header_sorts_its_table(browser, small_league_built):  # noqa: F811
    outputs = small_league_built.outputs
    looked = browser.look(outputs / "site" / "grand-sud-2025.html", outputs, 1280, audit=False)
    assert not looked.console and not looked.outside
    seen = browser.pages[1280].evaluate(SEARCH_AND_SORT)
    assert not seen["hidden"]
    assert [name for name, _ in seen["found"]] == ["LÉGER Zoé (joueur)"]
    assert (outputs / "site" / seen["found"][0][1]).is_file()
    assert seen["sort"] == "ascending" and seen["names"] == sorted(seen["names"], key=str.casefold)
    # The order is drawn once the reader sorts: before, the table reads (and is as wide) as published.
    assert seen["arrows"][0] == "none" and "▲" in seen["arrows"][1], seen["arrows"]


SEARCH = """words => {
  const input = document.getElementById("recherche");
  input.value = words;
  input.dispatchEvent(new Event("input"));
  return Array.from(document.querySelectorAll("#resultats a"), a => a.textContent);
}"""


def test_the_search_tells_a_tournament_s_editions_apart_by_their_day(browser, example_site):  # noqa: F811
    browser.look(example_site / "site" / "grand-sud-2026.html", example_site, 1280, audit=False)
    found = [text for text in browser.pages[1280].evaluate(SEARCH, "tournoi d'albi") if "(tournoi" in text]
    assert found == sorted(set(found), key=found.index) and len(found) >= 2  # no two alike
    assert all(re.fullmatch(r"Tournoi d'Albi \(tournoi, \d{1,2} \w+ \d{4}\)", text) for text in found), found


def test_the_search_reads_a_phone_s_apostrophe_as_the_straight_one(browser, example_site):  # noqa: F811
    # « d’albi » is what a phone's keyboard types: it finds what « d'albi » finds, as the index's keys
    browser.look(example_site / "site" / "grand-sud-2026.html", example_site, 390, audit=False)
    found = browser.pages[390].evaluate(SEARCH, "tournoi d'albi")
    assert found and all(browser.pages[390].evaluate(SEARCH, words) == found
                         for words in ("tournoi d’albi", "TOURNOI D‘ALBI", "tournoi dʼalbi"))


FOCUSED = "document.activeElement.id || document.activeElement.textContent"


def test_the_search_box_works_from_the_keyboard_alone(browser, small_league_built):  # noqa: F811
    # the arrows go through the results and back to the box; Enter opens the first result
    outputs = small_league_built.outputs
    looked = browser.look(outputs / "site" / "grand-sud-2025.html", outputs, 1280, audit=False)
    page = browser.pages[1280]
    page.focus("#recherche")
    page.keyboard.type("du")
    found = page.eval_on_selector_all("#resultats a", "links => links.map(a => [a.textContent, a.href])")
    assert len(found) >= 2 and "DUPONT Jean (joueur)" in [text for text, _ in found]
    assert page.text_content("#statut") == f"{len(found)} résultats"  # role=status: said once typed
    moves = []
    for key in ("ArrowUp", "ArrowDown", "ArrowDown", "ArrowUp", "ArrowUp"):
        page.keyboard.press(key)
        moves.append(page.evaluate(FOCUSED))
    first, second = found[0][0], found[1][0]
    assert moves == ["recherche", first, second, first, "recherche"]
    page.keyboard.press("End")  # the first ArrowUp, in the box, took its caret to the start (the browser's own)
    page.keyboard.type("zz")
    assert page.text_content("#statut") == "Aucun résultat"
    assert page.eval_on_selector_all("#resultats li", "items => items.map(li => li.innerHTML)") == ["Aucun résultat"]
    page.keyboard.press("Enter")  # nothing to open: the page stays
    page.keyboard.press("ArrowDown")
    assert page.evaluate(FOCUSED) == "recherche"
    for _ in range(2):
        page.keyboard.press("Backspace")
    with page.expect_navigation():
        page.keyboard.press("Enter")
    assert page.url == found[0][1] and not looked.console and not looked.outside


def test_escape_on_a_result_closes_the_results_and_goes_back_to_the_box(browser, small_league_built):  # noqa: F811
    """A keyboard's reader gone down into the results with the arrows: Escape left them open over the
    page and the focus on a result. It closes them and takes him back to the box, what he typed kept."""
    outputs = small_league_built.outputs
    looked = browser.look(outputs / "site" / "grand-sud-2025.html", outputs, 390, audit=False)
    page = browser.pages[390]
    page.focus("#recherche")
    page.keyboard.type("du")
    page.keyboard.press("ArrowDown")
    assert page.evaluate(FOCUSED).endswith("(joueur)") and page.eval_on_selector_all("#resultats li", "items => items.length")
    page.keyboard.press("Escape")
    assert page.evaluate(FOCUSED) == "recherche" and page.input_value("#recherche") == "du"
    assert page.eval_on_selector_all("#resultats li", "items => items.length") == 0
    assert page.text_content("#statut") == "" and not looked.console


def closeness(name: str, wanted: str) -> int:
    """As site.js ranks a result: 0 the name starts with what is typed, 1 a word does, 2 inside."""
    key = search_key(name)
    return 0 if key.startswith(wanted) else 1 if f" {wanted}" in " " + re.sub(r"[-']", " ", key) else 2


def test_the_search_shows_first_the_names_that_start_with_what_is_typed(browser, example_site):  # noqa: F811
    # « ma »: MALLET, MANGIN, MARTIN… before BENOÎT Marie, before a name with « ma » inside a word
    looked = browser.look(example_site / "site" / "grand-sud-2026.html", example_site, 1280, audit=False)
    page = browser.pages[1280]
    page.focus("#recherche")
    page.keyboard.type("ma")
    shown = page.eval_on_selector_all("#resultats a", "links => links.map(a => a.textContent)")
    names = [text.rsplit(" (", 1)[0] for text in shown]
    ranks = [closeness(name, "ma") for name in names]
    assert len(shown) == 15 and ranks == sorted(ranks) and ranks[0] == 0 and not looked.console
    status = page.text_content("#statut")
    assert re.fullmatch(r"\d+ résultats, les 15 premiers affichés", status), status
    index = [entry["n"] for entry in json.loads((example_site / "site" / "recherche.js").read_text(
        encoding="utf-8").split("=", 1)[1].rstrip().rstrip(";"))]
    matching = [name for name in index if "ma" in search_key(name)]
    assert names == sorted(matching, key=lambda name: closeness(name, "ma"))[:15]  # stable: the index's order


def test_results_found_alike_come_by_name_and_a_tournament_s_editions_latest_first(browser, example_site):  # noqa: F811
    """« tou »: the club of Toulouse (« toulouse ») before « Tournoi d’Albi », then the tournaments by
    name. The index was sorted as JSON text: every tournament came first, ordered by the text of its
    day (« 10 octobre 2026 », « 11 octobre 2025 », « 13 juin 2026 »…), and the club never showed
    among the first 15."""
    browser.look(example_site / "site" / "grand-sud-2026.html", example_site, 390, audit=False)
    found = browser.pages[390].evaluate(SEARCH, "tou")
    assert found[0] == "Toulouse (club)", found
    names = [text.rsplit(" (", 1)[0] for text in found]
    assert names == sorted(names, key=search_key)
    albi = [text for text in browser.pages[390].evaluate(SEARCH, "tournoi d'albi") if "(tournoi" in text]
    years = [int(text[-5:-1]) for text in albi]
    assert len(years) >= 2 and years == sorted(years, reverse=True), albi


SORT_BY_EVOLUTION = """() => {
  const table = document.querySelector("table.ranking");
  const headers = Array.from(table.querySelectorAll("thead th"));
  const column = headers.findIndex(th => th.textContent === "Évol.");
  headers[column].click();
  return Array.from(table.tBodies[0].rows, row => {
    const cell = row.cells[column], shown = cell.cloneNode(true);
    shown.querySelectorAll(".sr-only").forEach(words => words.remove());
    return [cell.getAttribute("data-sort"), shown.textContent, cell.querySelector(".sr-only")?.textContent ?? ""];
  });
}"""


def test_a_season_sorted_by_evolution_puts_places_lost_before_places_gained(browser, example_site):  # noqa: F811
    """The places are drawn as the bulletins draw them (« ▼ 2 », render/evolution.py) and sorted by
    the number each cell gives (`data-sort`, site/lines.py `evolution`): the largest loss first, the
    newcomers (« nouveau », no number) after every number."""
    browser.look(example_site / "site" / "grand-sud-2026.html", example_site, 1280, audit=False)
    shown = browser.pages[1280].evaluate(SORT_BY_EVOLUTION)
    numbers = [int(sort) for sort, _, _ in shown if sort is not None]
    assert any(n < 0 for n in numbers) and any(n > 0 for n in numbers) and 0 in numbers
    assert numbers == sorted(numbers) and all(sort is not None for sort, _, _ in shown[:len(numbers)])
    # what a reader sees: the arrow and the places, « = » for none; what a screen reader says besides
    seen = {int(sort): (text, said) for sort, text, said in shown if sort is not None}
    for n, (text, said) in seen.items():
        assert text == (f"▼ {-n}" if n < 0 else f"▲ {n}" if n > 0 else "="), (n, text)
        assert said == (" places perdues" if n < -1 else " place perdue" if n == -1 else " places gagnées" if n > 1
                        else " place gagnée" if n == 1 else "même place"), (n, said)
    assert all(text == "nouveau" and not said for sort, text, said in shown if sort is None)


SORT_BY_DATE_TWICE = """selector => {
  const table = document.querySelector(selector);
  const header = Array.from(table.querySelectorAll("thead th")).find(th => th.textContent === "Date");
  header.click();  // ascending, or descending when it came in ascending order (a player's places)
  if (header.getAttribute("aria-sort") !== "descending") header.click();  // the latest first
  return Array.from(table.tBodies[0].rows, row => row.cells[0].getAttribute("data-sort"));
}"""


def test_a_table_sorted_by_date_is_in_date_order_not_by_day_of_month(browser, example_site):  # noqa: F811
    """« 14 mars 2026 » sorts as the day it is, not as 14, and « 2026-03-14 » not as 2026: a
    season's documents and a player's lines, latest first, each date before the one above it."""
    player = next(page for page in sorted((example_site / "site").glob("joueur-*.html"))
                  if page.read_text(encoding="utf-8").count('<tr role="row"><td role="cell" data-sort=') > 5)
    for page, selector in ((example_site / "site" / "grand-sud-2026.html", "table.documents"),
                           (player, "table.publications")):
        browser.look(page, example_site, 1280, audit=False)
        keys = [key for key in browser.pages[1280].evaluate(SORT_BY_DATE_TWICE, selector) if key]
        assert len(set(keys)) > 5 and keys == sorted(keys, reverse=True), (page.name, keys)


# The words of a table's headings (its header cells, each row's publication) drawn on two lines, cut
# inside themselves (« Classemen » over « t »): each word's boxes on more than one line.
CUT_WORDS = r"""selector => {
  const cut = [];
  for (const cell of document.querySelectorAll(`${selector} th`)) {
    const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (const word of node.textContent.matchAll(/\S+/g)) {
        const range = document.createRange();
        range.setStart(node, word.index);
        range.setEnd(node, word.index + word[0].length);
        if (new Set(Array.from(range.getClientRects(), r => Math.round(r.top))).size > 1) cut.push(word[0]);
      }
    }
  }
  return cut;
}"""
# A player's tables of his places: the region each scrolls in, its rows' heights in lines of text.
PUBLICATIONS = """() => Array.from(document.querySelectorAll('table.publications'), table => {
  const region = table.parentElement, line = parseFloat(getComputedStyle(table).lineHeight);
  return {role: region.getAttribute('role'), label: region.getAttribute('aria-label'),
          tabindex: region.getAttribute('tabindex'), scrolls: region.scrollWidth > region.clientWidth,
          lines: Array.from(table.tBodies[0].rows, row => Math.floor(row.getBoundingClientRect().height / line))};
})"""


def test_a_player_s_places_fit_a_small_phone_their_words_whole_their_rows_short(browser, example_site):  # noqa: F811
    """At 320 px FAURE Stéphane's page was 358 px wide, « Classement : » cut « Classemen » over « t »,
    each row four to six lines tall (« Classement : Classement après le tournoi de Carcassonne du 24
    janvier 2026 » beside its date): the page fits the screen, the table scrolls in its own labelled
    region the keyboard reaches, no heading is cut inside a word, most rows four lines tall at most
    (seven to eight before); each circuit's page alike (the Tour de France's « (9 avril 2005) », the
    Tantrix « Classement Elo »)."""
    pages = sorted((example_site / "site").glob("joueur-*.html"))
    texts = {page: page.read_text(encoding="utf-8") for page in pages}
    chosen = [next(page for page in pages if "<h1>FAURE Stéphane</h1>" in texts[page])]
    for circuit in ("Tour de France de Diplomatie", "Tantrix", "Masters Grand Sud", "Tournoi en ligne par poules"):
        chosen.append(next(page for page in pages if f"<h2>{circuit}&nbsp;— saison" in texts[page]))
    labels = []
    for page in chosen:
        found = browser.look(page, example_site, 320, audit=False)
        tab = browser.pages[320]
        assert found.scroll_width <= 320, (page.name, found.scroll_width)
        assert tab.evaluate(CUT_WORDS, "table.publications") == [], page.name
        tables = tab.evaluate(PUBLICATIONS)
        assert tables and all(t["lines"] for t in tables), page.name
        for table in tables:
            # a Tab stop while it scrolls (site.js), to scroll it with the keyboard
            assert (table["role"], table["tabindex"]) == ("region", "0" if table["scrolls"] else None), (page.name, table)
            assert table["label"], (page.name, table)
            assert sorted(table["lines"])[len(table["lines"]) // 2] <= 4, (page.name, table)  # the median row
        labels.append([t["label"] for t in tables])
    assert all(len(set(found)) == len(found) for found in labels)  # a region each, named apart
    assert labels[0][0] == "Sa place dans chaque classement publié, Classement régional Grand Sud, saison 2026"


def test_a_table_s_region_is_a_tab_stop_only_while_it_scrolls(browser, example_site):  # noqa: F811
    """Every table's region was a Tab stop (tabindex="0", so that one wider than the screen can be
    scrolled with the keyboard): five stops on the home page that scrolled nothing. site.js keeps a
    region a stop only while it scrolls, at 390 and 1280 px, checked again when it is shown (a chart's
    data, in a <details>, scrolls on a phone) and when the window narrows; axe finds nothing
    (scrollable-region-focusable)."""
    opened = "document.querySelectorAll('details').forEach(shut => { shut.open = true; })"
    pages = ["index.html", "site/grand-sud-2026.html", "site/tour-de-france-2005.html",
             next(f"site/{page.name}" for page in sorted((example_site / "site").glob("joueur-*.html"))
                  if "Classement Elo" in page.read_text(encoding="utf-8"))]
    scrolled = set()
    for name in pages:
        check_page(browser, example_site / name, example_site)  # axe, at each width
        for width in WIDTHS:
            browser.look(example_site / name, example_site, width, audit=False)
            browser.pages[width].evaluate(opened)
            regions = browser.pages[width].evaluate(SCROLL_REGIONS)
            assert regions and all(region["stop"] == region["scrolls"] for region in regions), (name, width, regions)
            scrolled |= {(name, width) for region in regions if region["scrolls"]}
            if name == "index.html":  # its rankings' tables fit: no stop
                assert not any(region["stop"] for region in regions), regions
    assert ("site/grand-sud-2026.html", 390) in scrolled and ("site/grand-sud-2026.html", 1280) not in scrolled
    # the laptop's window narrowed to a phone's: the region that now scrolls is a stop again
    browser.look(example_site / "site/grand-sud-2026.html", example_site, 1280, audit=False)
    tab = browser.pages[1280]
    try:
        tab.evaluate(opened)
        assert not any(region["stop"] for region in tab.evaluate(SCROLL_REGIONS))
        tab.set_viewport_size({"width": 390, "height": 900})
        regions = tab.evaluate(SCROLL_REGIONS)
        assert any(region["stop"] for region in regions) and all(r["stop"] == r["scrolls"] for r in regions), regions
    finally:
        tab.set_viewport_size({"width": 1280, "height": 900})


# Each channel of each pixel weighted by its place (exact in a double: under 2^53), so that a pixel
# moved or of another colour changes the sum.
DRAWN_PIXELS = """() => {
  const image = document.querySelector("img");
  const canvas = document.createElement("canvas");
  canvas.width = image.naturalWidth;
  canvas.height = image.naturalHeight;
  const context = canvas.getContext("2d");
  context.drawImage(image, 0, 0);
  const data = context.getImageData(0, 0, canvas.width, canvas.height).data;
  let sum = 0;
  for (let i = 0; i < data.length; i++) sum += data[i] * (i % 65521 + 1);
  return {width: image.naturalWidth, height: image.naturalHeight, sum: sum};
}"""


def test_chromium_draws_an_open_graph_image_with_the_pixels_it_was_drawn_with(browser, tmp_path):  # noqa: F811
    # site/og.py writes the PNG file itself (ISA-L's compression): a browser's own decoder reads it
    outputs = tmp_path  # served as the site (not the session's built league, which other tests read)
    shown = og.Card("Ligue", "Tournoi d'Albi", "14 mars 2026 · Albi",
                    (("1", "DUPONT Jean", "120 pts"), ("2=", "ÉLOÏSE Çà", "1 086 pts")))
    png = og.draw(shown)
    card = outputs / shown.file_name()
    card.write_bytes(png)
    looked = browser.look(card, outputs, 1280, audit=False)  # sets the site served below
    page = browser.pages[1280]
    page.goto(browser.url(card), wait_until="load")  # over HTTP: a canvas may read what it drew
    seen = page.evaluate(DRAWN_PIXELS)
    assert not looked.console and not looked.outside and not browser.findings.outside
    values = Image.open(io.BytesIO(png)).convert("RGBA").tobytes()
    assert (seen["width"], seen["height"]) == (og.WIDTH, og.HEIGHT)
    assert seen["sum"] == sum(value * (index % 65521 + 1) for index, value in enumerate(values))


ICON = """async () => {
  const link = document.querySelector("link[rel=icon]");
  const image = new Image();
  image.src = link.href;
  await image.decode();
  return [link.getAttribute("href"), image.naturalWidth, image.naturalHeight];
}"""


def test_every_page_names_an_icon_the_browser_draws(browser, small_league_built):  # noqa: F811
    # Without one, a browser asks the server for /favicon.ico at its first visit, and logs a 404
    # (a bulletin's page links none: it is given /favicon.ico, the next test)
    outputs = small_league_built.outputs
    for page, href in ((outputs / "index.html", "site/favicon.svg"),
                       (outputs / "site" / "grand-sud-2026.html", "favicon.svg")):
        looked = browser.look(page, outputs, 390, audit=False)
        assert not looked.console and not looked.outside
        assert browser.pages[390].evaluate(ICON) == [href, 32, 32]


def test_the_icon_a_browser_asks_the_server_for_is_the_pages_icon_at_every_size(browser, small_league_built):  # noqa: F811
    # At the root of outputs/ (where `publish` puts the home page), served as a host serves it; its
    # frames drawn from favicon.svg by scripts/make_favicon.py: run it again if this fails after a
    # change of the SVG (or of how Chromium draws it)
    import importlib.util
    import urllib.request

    from tests.browser import ROOT, Served

    spec = importlib.util.spec_from_file_location("make_favicon", ROOT / "scripts" / "make_favicon.py")
    assert spec is not None and spec.loader is not None
    make_favicon = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(make_favicon)
    outputs = small_league_built.outputs
    served = Served(outputs)
    try:
        with urllib.request.urlopen(f"{served.origin}/favicon.ico") as response:
            icon = Image.open(io.BytesIO(response.read()))
    finally:
        served.close()
    assert sorted(icon.ico.sizes()) == [(size, size) for size in make_favicon.SIZES]
    page = browser.chromium.new_page()
    try:
        for size in make_favicon.SIZES:
            drawn = make_favicon.drawn(page, (make_favicon.SITE / "favicon.svg").read_bytes(), size).tobytes()
            frame = icon.ico.getimage((size, size)).convert("RGBA").tobytes()
            differences = [abs(a - b) for a, b in zip(drawn, frame, strict=True)]
            assert max(differences) <= 48 and sum(differences) / len(differences) < 2, size
    finally:
        page.close()


ALIGNED = """() => {
  const table = document.querySelector("table.ranking");
  const shown = cell => cell.offsetWidth > 0;
  const heads = Array.from(table.querySelectorAll("thead th")).filter(shown);
  const row = Array.from(table.tBodies[0].rows[0].cells).filter(shown);
  return heads.map((th, i) => [th.textContent, getComputedStyle(th).textAlign, getComputedStyle(row[i]).textAlign,
                               th.querySelector("button")?.tabIndex, getComputedStyle(row[i]).fontVariantNumeric]);
}"""
SORTED_BY = """label => {
  const table = document.querySelector("table.ranking");
  const heads = Array.from(table.querySelectorAll("thead th"));
  const column = heads.findIndex(th => th.textContent === label);
  heads[column].click();
  return Array.from(table.tBodies[0].rows, row => row.cells[column].textContent);
}"""


def test_numbers_are_aligned_right_as_in_the_bulletins_and_words_sort_by_their_number(browser, example_site):  # noqa: F811
    """A pool tournament's ranking at 375 px and 1280 px: its numbers right-aligned (tabular
    figures), its player and its round reached (« finale », a word) left, each header still a
    sortable one (its button reached by the keyboard); the round sorts by its number (« tour 2 » before
    « finale »), games won « 2½ » between 2 and 3."""
    page = example_site / "site" / "poules-2026.html"
    for width in (375, 1280):
        looked = browser.look(page, example_site, width, audit=False)
        assert looked.scroll_width <= width and not looked.console
        aligned = {label: (head, cell, tab, figures)
                   for label, head, cell, tab, figures in browser.pages[width].evaluate(ALIGNED)}
        assert aligned["Place"][:2] == ("right", "right") and aligned["Place"][3] == "tabular-nums", aligned
        assert aligned["Joueur"][:2] == aligned["Tour"][:2] == ("left", "left")
        assert all(tab == 0 for _, _, tab, _ in aligned.values())
        if width == 1280:  # on a phone, its main value only: the round reached
            assert aligned["Points"][:2] == aligned["Moy."][:2] == ("right", "right")
    rounds = browser.pages[1280].evaluate(SORTED_BY, "Tour")
    assert rounds[-1] == "finale" and rounds.index("finale") > max(i for i, r in enumerate(rounds) if r.startswith("tour"))
    event = next(p for p in sorted((example_site / "site").glob("tournoi-*.html"))
                 if "Week-end Tantrix de printemps" in p.read_text(encoding="utf-8"))
    browser.look(event, example_site, 1280, audit=False)
    wins = browser.pages[1280].evaluate(SORTED_BY, "Gagnées")
    number = [int(w.rstrip("½") or 0) + (0.5 if w.endswith("½") else 0) for w in wins]
    assert number == sorted(number) and any(w.endswith("½") for w in wins), wins


FOCUSED_ELEMENT = """() => {
  const e = document.activeElement, box = e.getBoundingClientRect();
  return {tag: e.tagName, text: e.textContent.trim(), inMain: !!e.closest("main"),
          shown: box.width > 1 && box.height > 1 && box.top >= 0 && box.left >= 0};
}"""
HEADERS = """() => Array.from(document.querySelectorAll("table.ranking thead th"), th => {
  const button = th.querySelector("button");
  return {text: th.textContent, sort: th.getAttribute("aria-sort"), tabindex: th.getAttribute("tabindex"),
          button: button ? button.type : null};
})"""
NAMES = "Array.from(document.querySelectorAll('table.ranking tbody th'), th => th.textContent)"


def test_a_keyboard_skips_to_the_content_and_sorts_a_column_by_its_button(browser, small_league_built):  # noqa: F811
    """The first Tab stop is « Aller au contenu », shown once focused, which takes the next Tab into
    the page's content past the league's link and the search box; each sortable header holds a
    button (the accessible sortable table: Enter and Space press it, a screen reader says it is
    one), the column the table comes sorted by said so before any sort (`aria-sort`)."""
    outputs = small_league_built.outputs
    looked = browser.look(outputs / "site" / "grand-sud-2026.html", outputs, 1280, audit=False)
    page = browser.pages[1280]
    headers = page.evaluate(HEADERS)
    assert [h["sort"] for h in headers] == ["ascending"] + [None] * (len(headers) - 1)  # by place, as published
    assert all(h["button"] == "button" and h["tabindex"] is None for h in headers), headers
    page.keyboard.press("Tab")
    skip = page.evaluate(FOCUSED_ELEMENT)
    assert (skip["tag"], skip["text"], skip["shown"]) == ("A", "Aller au contenu", True)
    page.keyboard.press("Enter")
    page.keyboard.press("Tab")
    assert page.evaluate(FOCUSED_ELEMENT)["inMain"]
    page.focus("table.ranking thead th:nth-child(2) button")  # Joueur
    page.keyboard.press("Space")
    names = page.evaluate(NAMES)
    assert names == sorted(names, key=str.casefold) and len(set(names)) > 2
    assert [h["sort"] for h in page.evaluate(HEADERS)][:2] == [None, "ascending"]
    page.keyboard.press("Enter")
    assert page.evaluate(NAMES) == names[::-1] and page.evaluate(HEADERS)[1]["sort"] == "descending"
    assert not looked.console and not looked.outside


OPEN_RESULTS = "document.querySelectorAll('#resultats li').length"
# a point of the page's heading that the results, laid over it, leave to be seen
UNCOVERED = """() => {
  const heading = document.querySelector("h1"), box = heading.getBoundingClientRect();
  for (let x = box.right - 2; x > box.left; x -= 8) {
    for (const y of [box.top + 2, box.bottom - 2]) if (document.elementFromPoint(x, y) === heading) return {x: x, y: y};
  }
  return null;
}"""


def test_the_search_results_close_on_a_click_or_a_tap_elsewhere_and_when_the_focus_leaves(browser, small_league_built):  # noqa: F811
    """The results lay over the page's heading: a click or a tap outside the search closes them, as
    does a Tab past them (or back to the league's link); back in the box, they are shown again; a
    click or a tap on one still opens it."""
    outputs = small_league_built.outputs
    page_file = outputs / "site" / "grand-sud-2025.html"
    looked = browser.look(page_file, outputs, 1280, audit=False)
    page = browser.pages[1280]
    page.focus("#recherche")
    page.keyboard.type("du")
    shown = page.evaluate(OPEN_RESULTS)
    assert shown >= 2
    page.mouse.click(**page.evaluate(UNCOVERED))
    assert page.evaluate(OPEN_RESULTS) == 0 and page.text_content("#statut") == ""
    page.focus("#recherche")  # the box keeps what was typed: its results again
    assert page.evaluate(OPEN_RESULTS) == shown
    for _ in range(shown):
        page.keyboard.press("Tab")  # through the results: still open
    assert page.evaluate(OPEN_RESULTS) == shown
    page.keyboard.press("Tab")  # past the last
    assert page.evaluate(OPEN_RESULTS) == 0
    page.focus("#recherche")
    page.keyboard.press("Shift+Tab")  # back to the league's link
    assert page.evaluate(OPEN_RESULTS) == 0
    page.focus("#recherche")
    first = page.eval_on_selector("#resultats a", "a => a.href")
    with page.expect_navigation():
        page.click("#resultats a")
    assert page.url == first and not looked.console and not looked.outside
    # on a phone: a finger's tap
    context = browser.chromium.new_context(viewport={"width": 390, "height": 800}, has_touch=True)
    try:
        phone = context.new_page()
        phone.goto(page_file.resolve().as_uri())
        phone.focus("#recherche")
        phone.keyboard.type("du")
        assert phone.evaluate(OPEN_RESULTS) == shown
        phone.touchscreen.tap(**phone.evaluate(UNCOVERED))
        assert phone.evaluate(OPEN_RESULTS) == 0
        phone.focus("#recherche")
        with phone.expect_navigation():
            phone.tap("#resultats a")
        assert phone.url == first
    finally:
        context.close()


def test_a_printed_ranking_has_its_column_headers_on_every_page_and_no_search_box(browser, example_site):  # noqa: F811
    """The season's ranking (148 players) printed from Chromium on A4: its second page and those after
    began at a row with no column header (a button in a header, site.js's, keeps Chromium from repeating
    it), and the first showed the search box, an empty field on paper."""
    browser.look(example_site / "site" / "grand-sud-2026.html", example_site, 1280, audit=False)
    printed = PdfReader(io.BytesIO(browser.pages[1280].pdf(format="A4")))
    pages = [" ".join(page.extract_text().split()) for page in printed.pages]
    # 148 rows: the ranking fills its first page and at least three more, each under the headers
    # (the text as pypdf reads it: « PlaceJoueur »)
    headers = re.compile(r"Place ?Joueur Club Total Tournois")
    assert len(pages) >= 5 and headers.search(pages[0]), pages
    assert all(headers.match(text) for text in pages[1:4]), [text[:60] for text in pages]
    assert "Rechercher" not in pages[0]


def test_a_printed_page_leaves_a_folded_chart_s_data_out_and_prints_it_opened(browser, example_site):  # noqa: F811
    """A player's page printed from Chromium showed « Les données du graphique » under his rating
    chart, one folded line the paper cannot open. Printed, the chart and its caption are there and the
    folded line is not; a reader who opened the data gets it on paper."""
    player = next(page for page in sorted((example_site / "site").glob("joueur-*.html"))
                  if '<details class="chart-data">' in page.read_text(encoding="utf-8"))
    browser.look(player, example_site, 1280, audit=False)
    tab = browser.pages[1280]

    def printed() -> str:
        return " ".join(" ".join(page.extract_text().split()) for page in PdfReader(io.BytesIO(tab.pdf(format="A4"))).pages)

    folded = printed()
    assert "Classement Elo de" in folded and "Sa place dans chaque classement publié" in folded, folded
    assert "Les données du graphique" not in folded and "les mêmes valeurs" not in folded, folded
    tab.locator("details.chart-data summary").click()
    opened = printed()
    assert "Les données du graphique" in opened and "les mêmes valeurs" in opened, opened
