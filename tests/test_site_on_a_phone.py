"""A player's page on a 320 px phone (the thirty-first round), measured in Debian's Chromium on the
example league's site:

- his tables of places and results fit the phone, nothing scrolled sideways in their own box (a
  date, a title, a place and « Total : 2 176,75 » side by side needed about 70 px more): each row is
  two lines there, its title above, its date, place and result below, no word cut inside itself;
  a laptop shows the same table as before;
- that grid is still a table for a screen reader (every part says its role: Chromium's
  accessibility tree has the table, its rows and their cells), and axe finds nothing wrong in it;
- the chart of his places, shrunk to the phone, draws its labels at 10 px or more (9.3 before);
- a player's name breaks at its hyphen (« Jean- » over « François ») on the site's pages only when
  that word is longer than its cell or heading, its text unchanged;
- at 390 px every table whose columns a phone hides names them just above it, and says to turn the
  phone, which shows them (a tournament's « Place au duplicate » hidden without a word made its 17th,
  140 points, above its 18th, 145, read as a mistake)."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from tests.browser import LAID_WORDS, SCROLL_REGIONS, broken_by_the_rule

# Every region of the page that scrolls one of `tables` (a player's when not given: Playwright passes null), with
# how far it scrolls sideways.
SCROLLED = """tables => Array.from(document.querySelectorAll('.scroll'))
  .filter(region => region.querySelector(tables || 'table.publications, table.results'))
  .map(region => ({label: region.getAttribute('aria-label'), over: region.scrollWidth - region.clientWidth}))"""
# Each word of a cell's text with its boxes on screen (several when the word is cut over two lines): the
# walk the scripts below share.
EACH_WORD = r"""const eachWord = (cell, visit) => {
    const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (const word of node.data.matchAll(/\S+/g)) {
        const range = document.createRange();
        range.setStart(node, word.index);
        range.setEnd(node, word.index + word[0].length);
        visit(word[0], Array.from(range.getClientRects()));
      }
    }
  };"""
# The rows of `tables` (a player's by default) as laid out: where the title (the row's heading, its
# second cell) and the date are, and the words of any heading or cell drawn on two lines, cut inside
# themselves (« Classemen » over « t »).
ROWS = r"""tables => {
  """ + EACH_WORD + r"""
  const rows = [], cut = [];
  for (const table of document.querySelectorAll(tables || 'table.publications, table.results')) {
    for (const row of table.rows) {
      const [date, title] = row.cells;
      rows.push({title: title.getBoundingClientRect().toJSON(), date: date.getBoundingClientRect().toJSON()});
      for (const cell of row.cells) {
        eachWord(cell, (word, rects) => {
          if (new Set(rects.map(r => Math.round(r.top))).size > 1) cut.push(word);
        });
      }
    }
  }
  return {rows, cut};
}"""
# The labels of each chart of a player's places: their size on screen (font size times the chart's scale).
PLACE_LABELS = """() => Array.from(document.querySelectorAll('figure.places svg text'),
  text => parseFloat(getComputedStyle(text).fontSize) * text.getScreenCTM().a)"""


def player_pages(site: Path) -> list[Path]:
    """The players' pages whose tables needed the most room: each circuit's with the longest result,
    in words (« Points : hors classement ») and in figures (« Total : 2 176,75 »), and its with the
    most lines, and FAURE Stéphane's (tests/test_site_browser.py); and one page in twenty-five of the others."""
    pages = sorted((site / "site").glob("joueur-*.html"))
    texts = {page: page.read_text(encoding="utf-8") for page in pages}
    chosen = {next(page for page in pages if "<h1>FAURE Stéphane</h1>" in texts[page]), *pages[::25]}
    for circuit in ("Classement régional Grand Sud", "Tour de France de Diplomatie", "Tantrix", "Masters Grand Sud",
                    "Tournoi en ligne par poules"):
        theirs = [page for page in pages if f"<h2>{circuit}&nbsp;— saison" in texts[page]]
        for result in (r"\u00a0:\u00a0[^<]*<", r"\u00a0:\u00a0[\d\u202f,]*<"):  # the longest in words, in figures
            chosen.add(max(theirs, key=lambda page: max(map(len, re.findall(result, texts[page])), default=0)))
        chosen.add(max(theirs, key=lambda page: texts[page].count('<tr role="row">')))
    return sorted(chosen)


def test_a_player_s_tables_fit_a_320_px_phone_two_lines_a_row_no_word_cut(browser, example_site):
    pages = player_pages(example_site)
    assert len(pages) >= 15
    # « Total : 2 176,75 », the widest result the example has
    assert any("Total\u00a0:\u00a02\u202f176,75" in page.read_text(encoding="utf-8") for page in pages)
    for page in pages:
        found = browser.look(page, example_site, 320, audit=False)
        tab = browser.pages[320]
        assert found.scroll_width <= 320, (page.name, found.scroll_width)
        regions = tab.evaluate(SCROLLED)
        assert regions and all(region["over"] <= 0 for region in regions), (page.name, regions)
        laid = tab.evaluate(ROWS)
        assert laid["cut"] == [], (page.name, laid["cut"])
        # the title alone on the row's first line, across it; the date, place and result below
        for row in laid["rows"]:
            assert row["date"]["top"] >= row["title"]["bottom"] - 1, (page.name, row)
            assert row["title"]["width"] > 250, (page.name, row)
    # a laptop lays the table out as before: each row one line, the date beside its title
    browser.look(pages[0], example_site, 1280, audit=False)
    for row in browser.pages[1280].evaluate(ROWS)["rows"]:
        assert row["date"]["right"] <= row["title"]["left"] + 1 and abs(row["date"]["top"] - row["title"]["top"]) < 1


def test_a_season_s_bulletins_fit_a_320_px_phone_two_lines_a_row_no_word_cut(browser, example_site):
    """The Tour de France's table of bulletins scrolled sideways by 5 px at 320 px (« International »
    in a title squeezed between its date and its files, each row five or six lines tall): on a phone
    each row is two lines, as a player's places are, the document's title across the first, its
    date and files below; no word cut inside itself; every circuit's season page alike. A laptop
    shows the table as before, and a screen reader a table still."""
    pages = sorted((example_site / "site").glob("*-[0-9][0-9][0-9][0-9].html"))
    assert {page.name for page in pages} >= {"tour-de-france-2005.html", "grand-sud-2025.html", "grand-sud-2026.html",
                                            "masters-2026.html", "poules-2026.html", "tantrix-2026.html"}
    for page in pages:
        found = browser.look(page, example_site, 320, audit=False)
        tab = browser.pages[320]
        assert found.scroll_width <= 320, (page.name, found.scroll_width)
        assert tab.evaluate(SCROLLED, "table.documents") == [{"label": "Bulletins", "over": 0}], page.name
        laid = tab.evaluate(ROWS, "table.documents")
        assert laid["cut"] == [], (page.name, laid["cut"])
        for row in laid["rows"]:
            assert row["date"]["top"] >= row["title"]["bottom"] - 1, (page.name, row)
            assert row["title"]["width"] > 250, (page.name, row)
        # the page's last table: its rows as the tree has them, as many as the markup's; and the markup
        # says each part's role (a browser that reads a table from its display, as a player's tables do)
        markup = page.read_text(encoding="utf-8")
        markup = markup[markup.index('<table class="sortable documents"'):]
        markup = markup[:markup.index("</table>")]
        assert markup.count("<tr") == markup.count('<tr role="row">') == len(laid["rows"])
        assert markup.count("<td") == markup.count('<td role="cell"') and markup.count('role="rowgroup"') == 2
        assert markup.count("<th ") == markup.count('role="columnheader"') == 3
        head, *body = [t["rows"] for t in accessible_tables(tab) if t["rows"]][-1]
        assert head == ["columnheader"] * 3 and len(body) == len(laid["rows"]) - 1, (page.name, head, len(body))
        assert all(row == ["cell"] * 3 for row in body), (page.name, body[:2])
    for page in pages:
        browser.look(page, example_site, 1280, audit=False)
        tab = browser.pages[1280]
        assert tab.evaluate("getComputedStyle(document.querySelector('table.documents')).display") == "table"
        for row in tab.evaluate(ROWS, "table.documents")["rows"]:
            assert row["date"]["right"] <= row["title"]["left"] + 1 and abs(row["date"]["top"] - row["title"]["top"]) < 1


def test_every_part_of_a_player_s_tables_says_its_table_s_role():
    """The roles a grid would lose in a browser that reads a table from its display, in the page's
    markup itself (a line made in Python, site/lines.py, or by the template)."""
    from reportgen.site import lines

    start = lines.head("14 mars 2026", "Classement", "Classement au 14 mars 2026", "a.html", "20260314")
    line = lines.line(start, "3", "Total\u00a0:\u00a01 086", "Albi")
    results = str(lines.results([("20260314", "14 mars 2026", "Open", "t.html", "120", True)]))
    for row in (line, results):
        assert row.count('<tr role="row">') == 1 and row.count("<td") == row.count('<td role="cell"')
        assert row.count('<th scope="row" role="rowheader">') == 1 == row.count("<th")


def accessible_tables(tab) -> list[dict]:  # type: ignore[no-untyped-def]
    """Each table of the page as Chromium's accessibility tree has it (through the DevTools protocol):
    its role, its name, each row's cells' roles."""
    session = tab.context.new_cdp_session(tab)
    try:
        nodes = session.send("Accessibility.getFullAXTree")["nodes"]
    finally:
        session.detach()
    by_id = {node["nodeId"]: node for node in nodes}

    def role(node: dict) -> str:
        return node.get("role", {}).get("value", "")

    def shown_children(node: dict) -> list[dict]:
        """A node's children, an ignored one (a generic box) replaced by its own."""
        found = []
        for child in (by_id[i] for i in node.get("childIds", []) if i in by_id):
            found += shown_children(child) if child.get("ignored") or role(child) in ("generic", "none") else [child]
        return found

    def rows(node: dict) -> list[list[str]]:
        found = []
        for child in shown_children(node):
            if role(child) == "row":
                found.append([role(cell) for cell in shown_children(child)])
            elif role(child) == "rowgroup":
                found += rows(child)
        return found

    return [{"name": node.get("name", {}).get("value", ""), "rows": rows(node)}
            for node in nodes if role(node) == "table" and not node.get("ignored")]


def test_a_player_s_tables_are_tables_to_a_screen_reader_on_a_phone_and_on_a_laptop(browser, example_site):
    page = player_pages(example_site)[0]
    for width in (320, 1280):
        browser.look(page, example_site, width, audit=False)
        tab = browser.pages[width]
        shown = tab.evaluate("""() => Array.from(document.querySelectorAll('table.publications, table.results'),
          table => [getComputedStyle(table).display, table.rows.length])""")
        assert {display for display, _ in shown} == {"grid" if width == 320 else "table"}
        tables = [t for t in accessible_tables(tab) if t["name"].startswith(("Sa place", "Ses résultats"))]
        assert [len(t["rows"]) for t in tables] == [rows for _, rows in shown], (width, tables)
        for table in tables:
            head, *body = table["rows"]
            assert set(head) == {"columnheader"} and body, (width, table)
            # the club, hidden on a phone, is no cell there (nor on a laptop when none of the season's lines
            # names one); each row's title its heading
            cells = ["cell", "rowheader", "cell", "cell"]
            club = ["cell"] if width == 1280 and table["name"].startswith("Sa place") and body[0] != cells else []
            assert all(row == cells + club for row in body), (width, table["name"], body[:2])
    # axe (ARIA's rules: a row's cells, a cell's row) finds nothing wrong in the grid
    found = browser.look(page, example_site, 320, "player-on-a-phone")
    assert not found.violations and not found.console, found


def test_a_player_s_place_chart_draws_its_labels_at_10_px_on_a_320_px_phone_as_before_on_a_laptop(browser, example_site):
    pages = [page for page in player_pages(example_site) if '<figure class="places">' in page.read_text(encoding="utf-8")]
    assert len(pages) >= 3
    for page in pages:
        browser.look(page, example_site, 320, audit=False)
        sizes = browser.pages[320].evaluate(PLACE_LABELS)
        assert sizes and min(sizes) >= 10, (page.name, sizes)  # 9.25 before: 10 units at 296/320
    for width in (390, 1280):  # drawn at its own size: as before
        browser.look(pages[0], example_site, width, audit=False)
        assert set(browser.pages[width].evaluate(PLACE_LABELS)) == {10}


# Each hyphen inside one of `words` (the players' names' words with a hyphen) in the laid-out text
# (not a chart's) whose next letter begins a lower line than the one before it ends: the words broken
# there; and how many such hyphens were looked at.
BROKEN_AT_HYPHENS = r"""words => {
  const wanted = new Set(words), broken = []; let seen = 0;
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (node.parentElement.closest("script, style, svg") || !node.parentElement.getClientRects().length) continue;
    for (const word of node.data.matchAll(/\S+-\S+/g)) {
      if (!wanted.has(word[0])) continue;
      for (let at = word.index + word[0].indexOf("-"); at >= 0 && at < word.index + word[0].length; at = node.data.indexOf("-", at + 1)) {
        const before = document.createRange(), after = document.createRange();
        before.setStart(node, at - 1); before.setEnd(node, at);
        after.setStart(node, at + 1); after.setEnd(node, at + 2);
        const a = before.getBoundingClientRect(), b = after.getBoundingClientRect();
        if (!a.height) continue;
        seen++;
        if (b.top > a.top + a.height / 2) broken.push(word[0]);
      }
    }
  }
  return {seen, broken};
}"""
# Every line as narrow as its words allow: each name's heading, cell and link drawn at its narrowest,
# so that a name breaks at every place it may.
NARROWEST = """() => { const style = document.createElement('style');
  style.textContent = 'h1, th, td, li, a { width: min-content; display: inline-block; }';
  document.head.append(style); }"""


def hyphenated_words(site: Path) -> list[str]:
    """The words with a hyphen of the players' names the site shows (its search index)."""
    index = (site / "site" / "recherche.js").read_text(encoding="utf-8")
    entries = json.loads(index[index.index("["):index.rindex("]") + 1])
    return sorted({word for entry in entries if entry["t"] == "joueur" for word in entry["n"].split() if "-" in word})


def test_a_player_s_name_breaks_at_its_hyphen_only_when_longer_than_its_line_on_a_phone(browser, example_site):
    """« LECLERCQ Jean- » over « François »: his page's heading, the site's rankings (a season's, a
    tournament's, a club's: the home page's top players have no hyphen), the search's list; the
    name's text unchanged. Each such word is whole on its line when it fits its cell or heading,
    broken at its hyphen only when longer (`nowrap` never broke it, and a long one widened the page:
    tests/test_site_long_names.py): at 390 px every one of the example's is whole; at 320 px the Grand
    Sud ranking's Joueur column is 2 px narrower than « Jean-François » (its table overflowed its box
    by 1 px to keep it whole)."""
    words = hyphenated_words(example_site)
    assert {"Jean-François", "Anne-Sophie"} <= set(words)
    site = example_site / "site"
    texts = {page: page.read_text(encoding="utf-8") for page in sorted(site.glob("*.html"))}
    named = [page for page, text in texts.items() if "Jean-François" in text]
    pages = [site / "grand-sud-2026.html", site / "masters-2026.html",
             next(page for page in named if page.name.startswith("joueur-") and re.search(r"<h1>.*Jean-François.*</h1>",
                                                                                          texts[page])),
             next(page for page in named if page.name.startswith("tournoi-")),
             next(page for page in named if page.name.startswith("club-"))]
    for width in (320, 390):
        for page in pages:
            browser.look(page, example_site, width, audit=False)
            tab = browser.pages[width]
            laid = tab.evaluate(LAID_WORDS, words)
            assert laid, (page.name, width)
            broken_by_the_rule((page.name,), laid, width)
            if width == 390:
                assert tab.evaluate(BROKEN_AT_HYPHENS, words)["broken"] == [], page.name
    # his page's heading: his name as written, which a reader copies and a search finds
    player = pages[2]
    browser.look(player, example_site, 320, audit=False)
    heading = browser.pages[320].evaluate("document.querySelector('h1').textContent")
    assert heading.endswith(" Jean-François") and "\u2011" not in texts[player] and "&#8209;" not in texts[player]
    # the search's list: the name of each player found, as the pages write it
    tab = browser.pages[320]
    tab.fill("#recherche", "jean-fran")
    links = tab.evaluate("""() => Array.from(document.querySelectorAll('#resultats a'),
      a => [a.textContent, Array.from(a.querySelectorAll('.kept'), span => span.textContent)])""")
    assert links and all(text.endswith(" Jean-François (joueur)") and kept == ["Jean-François"] for text, kept in links)
    assert tab.evaluate(BROKEN_AT_HYPHENS, words)["broken"] == []


def test_the_checks_see_a_name_broken_at_its_hyphen(browser, example_site):
    """Without the span around it, « Jean-François » at its narrowest breaks at its hyphen: the check
    above would see it. Its box made narrower than the word where its cell is wide enough, it breaks at
    its hyphen while it fits: the rule's check fails."""
    page = example_site / "site" / "masters-2026.html"
    browser.look(page, example_site, 320, audit=False)
    tab = browser.pages[320]
    tab.evaluate("""() => { for (const span of document.querySelectorAll('.kept')) span.replaceWith(span.textContent); }""")
    tab.evaluate(NARROWEST)
    laid = tab.evaluate(BROKEN_AT_HYPHENS, ["Jean-François"])
    assert laid["seen"] >= 1 and laid["broken"] == ["Jean-François"] * laid["seen"], laid
    browser.look(page, example_site, 390, audit=False)
    tab = browser.pages[390]
    tab.evaluate("""() => { for (const span of document.querySelectorAll('.kept')) span.style.width = '3em'; }""")
    laid = tab.evaluate(LAID_WORDS, ["Jean-François"])
    assert laid and all(shown["fits"] and shown["lines"] > 1 for shown in laid), laid
    with pytest.raises(AssertionError):
        broken_by_the_rule((page.name,), laid, 390)


def test_a_rating_chart_s_captions_keep_a_hyphenated_name_whole_its_names_for_a_reader_plain():
    """A Tantrix player's rating chart (site/player_page.py): its caption and its table's, laid out
    on the page, keep « Marie-Claude » on one line; the chart's, its region's names are words."""
    from markupsafe import Markup

    from reportgen.render.html import environment
    from reportgen.site import figures, lines

    name = "ROUSSEAU Marie-Claude"
    label = f"Classement Elo de {name}, saison 2026"
    points = [("2026-01-10", 1500.0, "1\u202f500"), ("2026-02-14", 1512.0, "1\u202f512")]
    figure = environment().from_string('{% import "chart.html.j2" as charts %}{{ charts.figure(chart) }}').render
    laid = figure(chart=figures.values(points, label, "Classement Elo",
                                       Markup(f"Classement Elo de {lines.player_name(name)}, saison 2026")))
    kept = 'ROUSSEAU <span class="kept">Marie-Claude</span>'
    assert f"<figcaption>Classement Elo de {kept}, saison 2026</figcaption>" in laid
    assert f"<caption>Classement Elo de {kept}, saison 2026\u00a0: les mêmes valeurs</caption>" in laid
    assert laid.count(f'aria-label="{label}"') == 2 and laid.count('class="kept"') == 2  # the SVG's and its region's
    # without it (the bulletins' charts), the captions as before
    plain = figure(chart=figures.values(points, label, "Classement Elo"))
    assert f"<figcaption>{label}</figcaption>" in plain and "kept" not in plain
    assert plain == laid.replace(kept, name)


# -- the columns a phone hides (site.css `.secondary`): said above their table, with how to see them

# Each table of the page a reader sees (not a folded chart's): the headings of its columns hidden at
# this width (a ranking's whole heading, its title), those shown, and the text just above it, when shown.
COLUMNS = r"""() => Array.from(document.querySelectorAll('main table')).filter(table => table.getClientRects().length)
  .map(table => {
    const headers = Array.from(table.querySelectorAll('thead th'));
    const above = (table.closest('.scroll') || table).previousElementSibling;
    return {hidden: headers.filter(th => !th.getClientRects().length).map(th => th.title || th.textContent.trim()),
            shown: headers.filter(th => th.getClientRects().length).map(th => th.textContent.trim()),
            above: above && above.getClientRects().length ? above.innerText.replace(/\s+/g, ' ').trim() : ''};
  })"""


def hiding_pages(site: Path) -> dict[str, Path]:
    """A page of each kind whose tables a phone shows a part of: every circuit's season, the home
    page, the « duplicate + poules » tournament of Carcassonne (its « Place au duplicate » says why
    MARÉCHAL Marie's 140 points are above LEROY Thérèse's 145), a club's page; and a tournament that
    hides nothing (Place, Joueur, Points). A player's lines name a club only when he played for more
    than one, which no player of the example did (`two_clubs`)."""
    pages = sorted((site / "site").glob("*.html"))
    texts = {page: page.read_text(encoding="utf-8") for page in pages}

    def first(prefix: str, *words: str, without: str = "\0") -> Path:
        return next(page for page in pages if page.name.startswith(prefix) and all(w in texts[page] for w in words)
                    and without not in texts[page])

    return {**{page.stem: page for page in pages if re.fullmatch(r"[a-z-]+-\d{4}", page.stem)},
            "home": site / "index.html",
            "carcassonne": first("tournoi-", "<h1>Tournoi de Carcassonne</h1>", "Place au duplicate", "MARÉCHAL Marie"),
            "club": first("club-"), "plain tournament": first("tournoi-", without='class="secondary')}


def test_a_phone_says_which_columns_it_hides_and_how_to_see_them(browser, example_site):
    """At 390 px the Carcassonne tournament's « Place dupl. » was hidden without a word: 17th with 140
    points above 18th with 145 read as a mistake. Above every table a phone shows a part of, a notice
    names the columns hidden, by their whole headings, and says to turn the phone: turned (844 px),
    it shows them, as a laptop does, and no notice. A table hiding nothing says nothing."""
    pages = hiding_pages(example_site)
    assert {"grand-sud-2026", "masters-2026", "poules-2026", "tantrix-2026", "tour-de-france-2005"} <= pages.keys()
    for kind, page in pages.items():
        found = browser.look(page, example_site, 390, audit=False)
        assert found.scroll_width <= 390
        tables = browser.pages[390].evaluate(COLUMNS)
        hiding = [table for table in tables if table["hidden"]]
        assert bool(hiding) == (kind != "plain tournament"), (kind, tables)
        for table in tables:
            if table["hidden"]:
                assert table["above"].startswith("Sur un écran étroit, ") and "masquée" in table["above"], (kind, table)
                assert all(name in table["above"] for name in table["hidden"]), (kind, table)
                assert table["above"].endswith(("Tournez le téléphone pour les voir.", "Tournez le téléphone pour la voir."))
            else:
                assert "masquée" not in table["above"], (kind, table)
        if kind == "carcassonne":
            assert hiding == [{"hidden": ["Club", "Place au duplicate"], "shown": ["Place", "Joueur", "Points"],
                               "above": "Sur un écran étroit, des colonnes sont masquées : Club, Place au duplicate. "
                                        "Tournez le téléphone pour les voir."}]
        for width in (844, 1280):  # the phone turned; a laptop
            browser.look(page, example_site, width, audit=False)
            wide = browser.pages[width].evaluate(COLUMNS)
            assert len(wide) == len(tables) and all(not t["hidden"] and "masquée" not in t["above"] for t in wide), kind


def test_the_tantrix_seeding_column_is_headed_by_what_it_holds(browser, example_site):
    """The rating list's last column holds ratings (« 1 936,2 »), the ones seeding reads (rule 13): a
    phone's notice named it « Pour les têtes de série » and a laptop headed it « Têtes de série », a
    list of names by its heading (reviewer, 43rd round). Its whole heading « Elo pour les têtes de
    série », its short one « Elo TS » over its ratings."""
    page = hiding_pages(example_site)["tantrix-2026"]
    browser.look(page, example_site, 390, audit=False)
    ratings = [table for table in browser.pages[390].evaluate(COLUMNS) if "Elo pour les têtes de série" in table["hidden"]]
    assert len(ratings) == 1 and ratings[0]["above"].startswith("Sur un écran étroit, des colonnes sont masquées : ")
    assert ", Elo pour les têtes de série. Tournez" in ratings[0]["above"]
    browser.look(page, example_site, 1280, audit=False)
    cells = browser.pages[1280].evaluate("""() => Array.from(document.querySelectorAll('main table')).map(table => {
      const headers = Array.from(table.querySelectorAll('thead th'), th => th.textContent.trim());
      const at = headers.indexOf('Elo TS');
      return at < 0 ? null : Array.from(table.querySelectorAll('tbody tr'), tr => tr.children[at].textContent.trim());
    }).filter(Boolean)""")
    assert len(cells) == 1 and cells[0] and all(re.fullmatch(r"\d(?:\u202f\d{3})*,\d|\d+,\d", cell) for cell in cells[0]), cells


def test_a_phone_already_turned_shows_every_column(browser, example_site):
    """A phone turned and still at most 600 px wide (an iPhone SE's 568 x 320) hid the columns too,
    its notice said to turn it, then named them and at most the CSV file under the table: the
    Carcassonne tournament (a Grand Sud tournament: no CSV of its own) was a dead end. Turned, a phone
    shows every column of every table, as a laptop does, and no notice, no word cut inside itself; a
    table wider than the phone scrolls in its own labelled region, never the page; axe finds nothing
    wrong there."""
    pages = hiding_pages(example_site)
    browser.look(pages["carcassonne"], example_site, 568, audit=False)  # its tab, held upright
    tab = browser.pages[568]
    tab.set_viewport_size({"width": 568, "height": 320})
    try:
        found = browser.look(pages["carcassonne"], example_site, 568, "tournament-turned")
        assert not found.violations and not found.console, found
        for kind, page in pages.items():
            tab.goto(page.resolve().as_uri(), wait_until="load")
            assert tab.evaluate("document.documentElement.scrollWidth") <= 568, kind
            tables = tab.evaluate(COLUMNS)
            assert tables and all(not t["hidden"] and "masquée" not in t["above"] for t in tables), (kind, tables)
            assert tab.evaluate(ROWS, "table.ranking")["cut"] == [], kind  # no word cut inside (« Toul|ous|e »)
            if kind == "carcassonne":
                assert [t["shown"] for t in tables] == [["Place", "Joueur", "Club", "Points", "Place dupl."]], tables
            assert tab.evaluate("""Array.from(document.querySelectorAll('table.ranking')).every(table => {
              const region = table.closest('.scroll');
              return region && region.getAttribute('role') === 'region'
                && (region.getAttribute('aria-label') || region.getAttribute('aria-labelledby'));
            })"""), kind
            # a Tab stop while it scrolls (site.js), to scroll it with the keyboard; not one otherwise
            regions = tab.evaluate(SCROLL_REGIONS)
            assert all(region["stop"] == region["scrolls"] for region in regions), (kind, regions)
    finally:
        tab.set_viewport_size({"width": 568, "height": 900})


def test_a_phone_s_notice_of_hidden_columns_passes_axe(browser, example_site):
    found = browser.look(hiding_pages(example_site)["carcassonne"], example_site, 390, "tournament-hidden-columns")
    assert not found.violations and not found.console, found


# Each text of each chart drawn at its own size (a rating's, a tournament's scale: `figure.figure`),
# where it is drawn and the box its region shows, the SVG's and the viewport's right edges.
CHART_TEXTS = """() => Array.from(document.querySelectorAll('figure.figure svg.chart'), svg => {
  const region = svg.closest('.scroll').getBoundingClientRect(), box = svg.getBoundingClientRect();
  return {label: svg.getAttribute('aria-label'), shown: svg.getClientRects().length > 0,
          region: [region.left, region.right], svg: [box.left, box.right], width: innerWidth,
          texts: Array.from(svg.querySelectorAll('text'), text => {
            const at = text.getBoundingClientRect(); return [text.textContent, at.left, at.right]; })};
})"""


def test_a_tantrix_player_s_rating_chart_shows_its_dates_whole_on_a_phone(browser, example_site):
    """At 320 px a Tantrix player's rating chart (320 units, never shrunk) scrolled in its box, 296
    px wide: its last date was cut at the box's edge (« 10/1 »). Every text of it is whole in its box,
    in the chart and in the window, at 320 and 390 px, on every Tantrix player's page."""
    pages = [page for page in sorted((example_site / "site").glob("joueur-*.html"))
             if "Classement Elo" in page.read_text(encoding="utf-8")]
    assert len(pages) >= 5
    cut = []
    for width in (320, 390):
        for page in pages:
            browser.look(page, example_site, width, audit=False)
            charts = [c for c in browser.pages[width].evaluate(CHART_TEXTS) if c["label"].startswith("Classement Elo")]
            assert charts and all(chart["shown"] for chart in charts)
            for chart in charts:
                left, right = max(chart["region"][0], chart["svg"][0], 0), min(chart["region"][1], chart["svg"][1],
                                                                               chart["width"])
                cut += [(width, page.name, shown, round(start, 1), round(end, 1), round(right, 1))
                        for shown, start, end in chart["texts"] if start < left - 0.5 or end > right + 0.5]
    assert not cut, cut


# Each word of the corrections' table drawn outside the window or its scrolling box, or cut inside
# itself over two lines; how far the box scrolls sideways.
CORRECTIONS_TEXTS = r"""() => {
  const table = document.querySelector('table.corrections'), region = table.closest('.scroll');
  const box = region.getBoundingClientRect(), left = Math.max(box.left, 0), right = Math.min(box.right, innerWidth);
  """ + EACH_WORD + r"""
  const out = [], cut = [];
  for (const cell of table.querySelectorAll('th, td')) {
    eachWord(cell, (word, rects) => {
      if (rects.some(r => r.left < left - 0.5 || r.right > right + 0.5)) out.push(word);
      if (new Set(rects.map(r => Math.round(r.top))).size > 1) cut.push(word);
    });
  }
  return {out, cut, over: region.scrollWidth - region.clientWidth, display: getComputedStyle(table).display,
          rows: table.rows.length};
}"""


def test_the_corrections_fit_a_phone_no_reason_cut(browser, example_site, tmp_path):
    """At 390 px the corrections' four columns needed 418 px: the table scrolled in its box and its
    « Raison » column was cut at the box's edge. On a 320 and a 390 px phone each row is three lines
    (its date and circuit, its document, its reasons), every word whole in the window and in the box,
    which scrolls nothing; a laptop shows the table as before; axe finds nothing wrong at any width."""
    import datetime as dt
    import shutil

    from reportgen import circuits
    from reportgen.render.changes import NEW_RESULTS, Republished
    from reportgen.site import publish
    from reportgen.site.pages import Site
    from tests.browser import check_page

    site = tmp_path / "outputs"
    for folder in ("site", "fonts"):
        shutil.copytree(example_site / folder, site / folder)
    shutil.copy(example_site / "index.html", site / "index.html")
    tarbes = "classeur modifié : 2026/2026-10-10-tarbes.xlsx (tournoi du 10 octobre 2026)"
    changes = [Republished("grand-sud", "2026/annexe-grand-sud-2026", "Classement régional Grand Sud 2026",
                           dt.date(2026, 11, 14), (tarbes, "l’annuaire des joueurs (joueurs.xlsx) a changé", NEW_RESULTS)),
               Republished("grand-sud", "2026/classement-2026-10-10", "Classement après le tournoi de Tarbes du 10 octobre 2026",
                           dt.date(2026, 10, 10), ("correction du classeur de ce jour : 2026/2026-10-10-tarbes.xlsx",)),
               Republished("poules", "2026/2026-09-05-open-automne/tour-3", "Open d'automne en ligne — tour 3",
                           dt.date(2026, 10, 6), ("classeur modifié : 2026/poules/2026-09-05-open-automne.xlsx "
                                                  "(tournoi du 5 septembre 2026)",)),
               Republished("tantrix", "2026/annexe-tantrix-2026", "Tantrix 2026", dt.date(2026, 10, 10),
                           ("classeur ajouté : 2026/tantrix/2026-10-10-coupe.xlsx (tournoi du 10 octobre 2026)",))]
    pages = Site(example_site, list(circuits.CIRCUITS), "Ligue Grand Sud des clubs de jeux de réflexion",
                 corrections=publish.corrections(tmp_path, changes, "2026-12-06")).pages()
    page = site / "site" / "corrections.html"
    page.write_bytes(pages["site/corrections.html"])
    for width in (320, 390):
        found = browser.look(page, site, width, f"corrections-{width}")
        laid = browser.pages[width].evaluate(CORRECTIONS_TEXTS)
        assert laid["rows"] == 5 and laid["display"] == "grid", laid
        assert found.scroll_width <= width and laid["over"] <= 0, (width, found.scroll_width, laid["over"])
        assert laid["out"] == [] and laid["cut"] == [], (width, laid)
        assert not found.violations and not found.console, found
        # each row in the order it reads: its date and circuit, then its document, then its reasons below
        rows = browser.pages[width].evaluate("""() => Array.from(document.querySelectorAll('table.corrections tbody tr'),
          row => Array.from(row.cells, cell => cell.getBoundingClientRect().toJSON()))""")
        for day, circuit, document, reasons in rows:
            assert abs(day["top"] - circuit["top"]) < 1 and day["right"] <= circuit["left"]
            assert max(day["bottom"], circuit["bottom"]) <= document["top"] + 1 <= reasons["top"] + 1
            assert document["bottom"] <= reasons["top"] + 1 and reasons["width"] > 250
    check_page(browser, page, site)  # 390 and 1280 px
    assert browser.pages[1280].evaluate(CORRECTIONS_TEXTS)["display"] == "table"


@pytest.fixture(scope="module")
def two_clubs(example_site, example_league, tmp_path_factory) -> tuple[Path, str]:
    """The example site, made again with one player who played a Grand Sud tournament of 2026 for
    another club (Tarbes, where every other line of his says Auch): the site and his name."""
    from reportgen import circuits
    from reportgen.site import publish
    from reportgen.site.data import DATA
    from reportgen.site.pages import Site

    site = tmp_path_factory.mktemp("two-clubs") / "outputs"
    shutil.copytree(example_site, site)
    data = site / "grand-sud" / DATA
    records = json.loads(data.read_bytes())
    event = next(r for r in records["rankings"] if r["kind"] == "event" and r["season"] == 2026
                 and any(row["club"] == "Auch" for row in r["rows"]))
    row = next(row for row in event["rows"] if row["club"] == "Auch")
    row["club"] = row["values"]["club"] = "Tarbes"
    data.write_text(json.dumps(records, ensure_ascii=False), encoding="utf-8")
    publish.publish(site, Site(site, list(circuits.CIRCUITS), "Ligue Grand Sud des clubs de jeux de réflexion",
                               public=example_league.public).pages())
    return site, row["player"]


def test_a_player_s_club_column_is_there_when_he_played_for_more_than_one_club(browser, two_clubs):
    """A player's « Club » column followed each section's lines, its header the phone's notice of it:
    his one club repeated on each line of a circuit whose sheets name it, none in another's, under
    « Club : Auch » below his name. His lines have the column, in every section alike, only when they
    name more than one club: each line then says which; a phone hides it and says so above each table,
    turned it shows it; axe finds nothing wrong. A player of one club has none, nor its notice."""
    site, name = two_clubs
    pages = {page: page.read_text(encoding="utf-8") for page in (site / "site").glob("joueur-*.html")}
    page = next(page for page, text in pages.items() if f"<h1>{name}</h1>" in text)
    text = pages[page]
    sections = text.split("<section>")[1:]
    assert len(sections) >= 2 and all(">Club</th>" in s and "hidden-columns" in s for s in sections), name
    assert {"Auch", "Tarbes"} <= set(re.findall(r'<td role="cell" class="secondary">([^<]+)</td>', text))
    assert not [p.name for p, t in pages.items() if p != page and (">Club</th>" in t or "hidden-columns" in t)]
    found = browser.look(page, site, 390, "player-two-clubs")
    assert not found.violations and not found.console and found.scroll_width <= 390, found
    tables = [t for t in browser.pages[390].evaluate(COLUMNS) if t["hidden"]]
    assert len(tables) == len(sections) and all(
        t["hidden"] == ["Club"] and t["above"] == "Sur un écran étroit, une colonne est masquée : Club. "
                                                  "Tournez le téléphone pour la voir." for t in tables), tables
    for width in (844, 1280):
        browser.look(page, site, width, audit=False)
        assert all("Club" in t["shown"] and not t["hidden"] for t in browser.pages[width].evaluate(COLUMNS)
                   if t["shown"][:2] == ["Date", "Publication"]), width
    landscape = browser.chromium.new_page(viewport={"width": 568, "height": 320})
    try:  # a phone still narrow turned: the club beside each line's result, the page no wider
        landscape.goto(page.resolve().as_uri(), wait_until="load")
        tables = [t for t in landscape.evaluate(COLUMNS) if t["shown"][:2] == ["Date", "Publication"]]
        assert len(tables) == len(sections) and all("Club" in t["shown"] and not t["hidden"] for t in tables), tables
        assert landscape.evaluate("document.documentElement.scrollWidth") <= 568
    finally:
        landscape.close()
