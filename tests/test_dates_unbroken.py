"""A long date's day and its month are never parted on a page: « 14 » never ends a line whose next
one starts with « novembre 2026 » (french.day_month_kept: the `dates` filter of render/html.py on
what the templates print, site/lines.py on the site's lines made in Python). Checked on the text
of every page of the example league (its five circuits' bulletins, which their PDFs are printed
from, the site's pages, the verification page), then in Chromium on a 320 px phone; and the files
whose words are read or compared (CSV, the annexes, the site's JSON and search index) keep
date_long's plain spaces."""

from __future__ import annotations

import re
import zipfile
from html.parser import HTMLParser
from pathlib import Path

from markupsafe import Markup

from reportgen import french
from reportgen.render.html import environment

MONTHS = "|".join(french.MONTHS)
# a long date whose day and month a line may part: any space but a no-break one between them
PARTED = re.compile(rf"\b(?:1er|\d{{1,2}})[ \t\r\n]+(?:{MONTHS})\b")
KEPT = re.compile(rf"\b(?:1er|\d{{1,2}})\u00a0(?:{MONTHS})\b")


class Laid(HTMLParser):
    """The text a page lays out in lines: its body's, without its scripts, styles and SVG (a
    chart's labels and tooltips are never wrapped). A page's <title>, in the head, is a tab's name."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.body, self.hidden, self.parts = False, 0, []

    def handle_starttag(self, tag, attrs):
        self.body |= tag == "body"
        self.hidden += tag in ("script", "style", "svg")

    def handle_endtag(self, tag):
        self.hidden -= tag in ("script", "style", "svg")

    def handle_data(self, data):
        if self.body and not self.hidden:
            self.parts.append(data)


def laid_text(page: Path) -> str:
    parser = Laid()
    parser.feed(page.read_text(encoding="utf-8"))
    return "".join(parser.parts)


def test_no_page_of_the_example_league_parts_a_date_s_day_from_its_month(example_site):
    pages = sorted(path for path in example_site.rglob("*.html") if ".reportgen" not in path.parts)
    circuits = {path.relative_to(example_site).parts[0] for path in pages}
    assert {"grand-sud", "masters", "poules", "tantrix", "tour-de-france", "site"} <= circuits
    parted, kept = {}, 0
    for page in pages:
        text = laid_text(page)
        kept += len(KEPT.findall(text))
        if found := [text[max(0, m.start() - 30):m.end() + 5] for m in PARTED.finditer(text)]:
            parted[page.relative_to(example_site).as_posix()] = found[:3]
    assert not parted, parted
    assert kept > 10_000  # every bulletin's title, every line of the players' pages...
    # the day and month kept, the year free to wrap in a narrow column
    season = (example_site / "site" / "grand-sud-2026.html").read_text(encoding="utf-8")
    assert "<h2 id=\"classement\">Classement après le tournoi d’Auch du 14\u00a0novembre 2026</h2>" in season
    assert "14\u00a0novembre 2026</td>" in season  # its table of bulletins
    bulletin = (example_site / "grand-sud" / "2026" / "classement-2026-11-14.html").read_text(encoding="utf-8")
    assert "<p class=\"subtitle\">Classement après le tournoi d’Auch du 14\u00a0novembre 2026</p>" in bulletin
    assert "Points marqués\u00a0: Tournoi d&#39;Auch, 14\u00a0novembre 2026</h2>" in bulletin
    # the tab's title and the PDF's running footer (one line, never wrapped) keep date_long's words
    assert "<title>Classement après le tournoi d’Auch du 14 novembre 2026&nbsp;— " in bulletin
    verification = laid_text(example_site / "verification.html")
    assert "3\u00a0décembre 2026" in verification
    # its problems' messages, the documents republished, withdrawn and restored, a circuit held back
    assert "close depuis le 21\u00a0novembre 2026\u00a0: ce tournoi du 28\u00a0novembre 2026" in verification
    assert "(tournoi du 10\u00a0octobre 2026)" in verification
    assert verification.count("du 19\u00a0septembre 2026") >= 5


def test_the_files_read_as_data_keep_date_long_s_plain_spaces(example_site):
    """The CSV files, the annexes, the site's JSON and its search index: words a reader's program
    or a test compares, never laid out in lines by a browser."""
    site_json = (example_site / "grand-sud" / "site.json").read_text(encoding="utf-8")
    assert "Classement après le tournoi d’Auch du 14 novembre 2026" in site_json
    assert "14 novembre 2026" in (example_site / "site" / "recherche.js").read_text(encoding="utf-8")
    data = [path for suffix in ("*.csv", "*.json", "*.js", "*.ics") for path in example_site.rglob(suffix)]
    annexes = sorted(example_site.rglob("*.xlsx"))
    assert len(annexes) >= 5 and any(path.suffix == ".csv" for path in data)
    texts = {path: path.read_text(encoding="utf-8") for path in data}
    for annex in annexes:  # every text an annex holds, its cells' and its sheets' names
        with zipfile.ZipFile(annex) as opened:
            texts[annex] = "".join(opened.read(name).decode("utf-8") for name in opened.namelist()
                                   if name.endswith(".xml"))
    assert not {path.name for path, text in texts.items() if KEPT.search(text)}


def test_the_filter_keeps_markup_as_markup_and_escapes_a_text():
    env = environment()
    page = env.from_string("<p>{{ a|dates }}</p><p>{{ b|dates }}</p>")
    assert page.render(a="<i>Open</i> du 1er mai 2026", b=Markup("<i>Open</i> du 1er mai 2026")) == (
        "<p>&lt;i&gt;Open&lt;/i&gt; du 1er\u00a0mai 2026</p><p><i>Open</i> du 1er\u00a0mai 2026</p>")


# Each long date of the page's laid-out text (not a chart's) whose month begins on a lower line
# than its day ends, with the words around it; and how many dates were looked at.
PARTED_ON_SCREEN = r"""root => {
  const months = "janvier|février|mars|avril|mai|juin|juillet|août|septembre|octobre|novembre|décembre";
  const date = new RegExp("(1er|\\d{1,2})[ \\u00a0\\n](?:" + months + ")(?![\\p{L}])", "gu");
  const walker = document.createTreeWalker(document.querySelector(root), NodeFilter.SHOW_TEXT);
  const parted = []; let seen = 0;
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const element = node.parentElement;
    if (element.closest("script, style, svg") || !element.getClientRects().length) continue;
    for (const found of node.data.matchAll(date)) {
      const end = found.index + found[1].length;
      const day = document.createRange(), month = document.createRange();
      day.setStart(node, end - 1); day.setEnd(node, end);
      month.setStart(node, end + 1); month.setEnd(node, end + 2);
      const a = day.getBoundingClientRect(), b = month.getBoundingClientRect();
      if (!a.height) continue;  // in a closed <details>
      seen++;
      if (b.top > a.top + a.height / 2) parted.push(node.data.slice(Math.max(0, found.index - 20), found.index + found[0].length));
    }
  }
  return {seen, parted};
}"""


def test_on_a_320_px_phone_no_date_s_day_ends_a_line(browser, example_site):  # noqa: F811
    """A season's page (its tournaments, its table of bulletins), the home page, a player's page and
    a Grand Sud bulletin, where « 14 » ended a line and « novembre » began the next at 390 px; the
    pages no wider than the phone (a table that needs more scrolls in its own box)."""
    player = sorted((example_site / "site").glob("joueur-*.html"))[0]
    pages = [example_site / "site" / "grand-sud-2026.html", example_site / "site" / "tour-de-france-2005.html",
             example_site / "index.html", player, example_site / "grand-sud" / "2026" / "classement-2026-11-14.html"]
    for page in pages:
        found = browser.look(page, example_site, 320, audit=False)
        assert found.scroll_width <= 320, (page.name, found.scroll_width)
        laid = browser.pages[320].evaluate(PARTED_ON_SCREEN, "body")
        assert laid["seen"] >= 2 and laid["parted"] == [], (page.name, laid)
    # the secretary's verification page, its tables as wide as they need (never published)
    browser.look(example_site / "verification.html", example_site, 320, audit=False)
    laid = browser.pages[320].evaluate(PARTED_ON_SCREEN, "body")
    assert laid["seen"] >= 10 and laid["parted"] == [], laid
    # the check sees a parted date: a plain space in a column as narrow as the phone's date cells
    tab = browser.pages[320]
    tab.evaluate("""() => { for (const [id, text] of [["plain", "le 19 septembre 2026"], ["kept", "le 19\\u00a0septembre 2026"]]) {
        const p = document.createElement("p"); p.id = id; p.style.width = "7em"; p.textContent = text;
        document.body.append(p); } }""")
    assert tab.evaluate(PARTED_ON_SCREEN, "#plain")["parted"] == ["le 19 septembre"]
    assert tab.evaluate(PARTED_ON_SCREEN, "#kept") == {"seen": 1, "parted": []}
