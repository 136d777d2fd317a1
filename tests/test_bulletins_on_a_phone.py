"""The bulletins as a club opens them from a mail, on a phone (375 px, and a small one of 320 px), in
Chromium (tests/browser.py): the page never wider than the screen, each ranking's last column on
screen or in reach of its own scrolling region, no text smaller than 12 px, the Tour de France's
scale in rows a phone shows whole, and axe-core content. The layout a phone gets is screen-only
(bulletin.css `@media screen`): the PDF keeps its A4 layout, and a table shown on a phone alone is
never printed."""

import io

import pytest
from pypdf import PdfReader

from reportgen.render import html, pdf
from tests.browser import artifact_name

# One bulletin of each circuit (relative to outputs/), the selector of its ranking, the heading of
# the column a phone shows last (its points; the wide ones are in the PDF), and its wide table
# whose last column scrolls into view (« Statut »), if any.
BULLETINS = {
    "grand-sud": ("grand-sud/2025/classement-2025-02-15.html", "table.ranking", "Total", "table.tournaments"),
    "masters": ("masters/2026/masters-2026.html", "table.masters", "Points", None),
    "poules": ("poules/2026/2026-09-05-open-automne/tour-3.html", "table.final", "Points", None),
    "tantrix": ("tantrix/2026/2026-03-14-week-end-tantrix-de-printemps.html", "table.tantrix", "TPs", None),
    "tour-de-france": ("tour-de-france/2005/classement-2005-04-09.html", "table.ranking", "Total", "table.tournaments"),
}

# The table's last column shown (its header cell), once its scrolling region is scrolled to its
# end: where it is, where the region is, and how far the region scrolls.
LAST_COLUMN = r"""selector => {
  const table = document.querySelector(selector);
  const region = table.closest('.scroll');
  const shown = Array.from(table.querySelectorAll('thead th')).filter(th => th.offsetWidth > 0);
  const last = shown[shown.length - 1];
  region.scrollLeft = region.scrollWidth;
  const box = region.getBoundingClientRect(), cell = last.getBoundingClientRect();
  return {heading: last.textContent.trim(), role: region.getAttribute('role'), label: region.getAttribute('aria-label'),
          tabindex: region.getAttribute('tabindex'), scrolls: region.scrollWidth > region.clientWidth,
          inRegion: cell.left >= box.left - 1 && cell.right <= box.right + 1,
          regionOnScreen: box.left >= 0 && box.right <= document.documentElement.clientWidth};
}"""

# Every piece of text drawn (not the words for screen readers alone, nor a chart's SVG, scaled
# with the chart) smaller than 12 px: its element, size and first words.
SMALL_TEXT = r"""() => {
  const found = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const element = node.parentElement;
    if (!node.textContent.trim() || element.closest('.sr-only, svg') || !element.getClientRects().length) continue;
    const size = parseFloat(getComputedStyle(element).fontSize);
    if (size < 12) found.push(`${element.tagName.toLowerCase()}.${element.className} ${size}px: ${node.textContent.trim().slice(0, 20)}`);
  }
  return found;
}"""

# The Tour de France's scale tables: for each, shown or not, its places, and whether every cell
# shown lies within the screen.
SCALES = r"""() => Array.from(document.querySelectorAll('table.scale-table'), table => ({
  shown: table.getClientRects().length > 0,
  places: Array.from(table.querySelectorAll('tr.places th'), th => th.textContent.trim()),
  onScreen: Array.from(table.querySelectorAll('th, td')).every(cell => {
    const rect = cell.getBoundingClientRect();
    return rect.left >= 0 && rect.right <= document.documentElement.clientWidth;
  }),
}))"""


def look_on_a_phone(browser, site, circuit, width):
    page, ranking, points, wide = BULLETINS[circuit]
    # at 375 px, axe-core too (over HTTP, its screenshot saved); at 320 px, the layout alone
    found = browser.look(site / page, site, width, f"phone-{artifact_name(site / page, site)}", audit=width == 375)
    tab = browser.pages[width]
    assert found.scroll_width <= width, f"{circuit}: the page is {found.scroll_width} px wide"
    assert not found.console and not found.outside and not found.violations, found
    assert tab.evaluate(SMALL_TEXT) == []
    last = tab.evaluate(LAST_COLUMN, ranking)
    assert last["heading"] == points
    assert (last["role"], last["tabindex"]) == ("region", "0") and last["label"]
    assert last["inRegion"] and last["regionOnScreen"], last
    if wide:
        last = tab.evaluate(LAST_COLUMN, wide)
        assert last["heading"] == "Statut"
        assert last["scrolls"] and last["inRegion"] and last["regionOnScreen"], last
    return tab


@pytest.mark.parametrize("width", [375, 320])
@pytest.mark.parametrize("circuit", BULLETINS)
def test_a_bulletin_reads_on_a_phone(circuit, width, browser, example_site):  # noqa: F811
    look_on_a_phone(browser, example_site, circuit, width)


@pytest.mark.parametrize("width", [375, 320])
def test_a_phone_shows_the_whole_scale_of_a_tournament(width, browser, example_site):  # noqa: F811
    """Twenty places a row ran off a phone's screen (places 14 to 20 out of view): a phone shows its
    copy of five places a row, every place on screen, the wide one hidden."""
    tab = look_on_a_phone(browser, example_site, "tour-de-france", width)
    wide, narrow = tab.evaluate(SCALES)[:2]
    assert not wide["shown"] and narrow["shown"] and narrow["onScreen"]
    assert narrow["places"] == wide["places"] and len(narrow["places"]) > 10


def test_a_laptop_shows_the_scale_as_the_pdf_does(browser, example_site):  # noqa: F811
    browser.look(example_site / BULLETINS["tour-de-france"][0], example_site, 1280, audit=False)
    wide, narrow = browser.pages[1280].evaluate(SCALES)[:2]
    assert wide["shown"] and wide["onScreen"] and not narrow["shown"]


def test_the_phone_s_own_copy_of_a_table_is_never_printed():
    """A table shown on a phone in place of a wide one (`narrow-only`) is in the HTML a PDF is
    rendered from: WeasyPrint prints the wide one only, as at a desk."""
    css = html.environment().get_template("bulletin.css").render()
    page = (f'<!DOCTYPE html><html lang="fr"><head><meta charset="utf-8"><style>{css}</style></head><body><main>'
            '<div class="wide-only"><div class="scroll" role="region" aria-label="Barème" tabindex="0"><table>'
            "<tbody><tr><td>Largeur</td></tr></tbody></table></div></div>"
            '<table class="narrow-only"><tbody><tr><td>Téléphone</td></tr></tbody></table></main></body></html>')
    text = "".join(found.extract_text() for found in PdfReader(io.BytesIO(pdf.render_pdf(page))).pages)
    assert "Largeur" in text and "Téléphone" not in text


# Each « TS » badge of a ranking shown, with its player's name: how many boxes it is drawn in, its
# height, the height of a line of the name, on how many lines the name is drawn, and whether the
# badge's middle is on the line of the name's last letter.
SEEDS = r"""() => Array.from(document.querySelectorAll('table.ranking .seed'), seed => {
  const name = seed.previousSibling, range = document.createRange();
  range.setStart(name, name.length - 1);
  range.setEnd(name, name.length);
  const letter = range.getBoundingClientRect(), box = seed.getBoundingClientRect();
  range.selectNodeContents(name);
  const middle = (box.top + box.bottom) / 2;
  return {name: name.textContent, boxes: seed.getClientRects().length, height: box.height,
          line: parseFloat(getComputedStyle(seed.parentElement).lineHeight),
          nameLines: new Set(Array.from(range.getClientRects(), r => Math.round(r.top))).size,
          withLastLetter: letter.top <= middle && middle <= letter.bottom};
})"""


def test_a_seed_s_badge_stays_on_the_line_of_his_name_on_a_small_phone(browser, example_site):  # noqa: F811
    """At 320 px « HUBERT Catherine » wraps: its « TS » went down to a line of its own. It ends the
    name's last line, in one box of one line, and the page is no wider than the screen."""
    page = example_site / "grand-sud" / "2026" / "classement-2026-11-14.html"
    found = browser.look(page, example_site, 320, audit=False)
    assert found.scroll_width <= 320
    seeds = browser.pages[320].evaluate(SEEDS)
    assert len(seeds) >= 10 and any(seed["nameLines"] > 1 for seed in seeds)  # the case is there
    for seed in seeds:
        assert seed["boxes"] == 1 and seed["height"] < 1.5 * seed["line"] and seed["withLastLetter"], seed


# Each table of a tournament's points on a Grand Sud bulletin: its headings shown, and whether it
# scrolls in its region.
LATEST = r"""() => Array.from(document.querySelectorAll('table.latest'), table => {
  const region = table.closest('.scroll');
  return {shown: Array.from(table.querySelectorAll('thead th')).filter(th => th.offsetWidth > 0).map(th => th.textContent.trim()),
          scrolls: region.scrollWidth > region.clientWidth,
          note: !!(region.nextElementSibling && region.nextElementSibling.classList.contains('narrow-note')
                   && region.nextElementSibling.offsetWidth > 0)};
})"""


@pytest.mark.parametrize("width", [375, 320, 1280])
def test_a_tournament_s_points_fit_a_phone_with_its_place_player_and_total(width, browser, example_site):  # noqa: F811
    """Its « Points dupl. » was cut at a 375 px screen's edge, « Points finale » and « Total » out of
    view: a phone shows the place, the player and the total, a note saying the PDF has the rest; a
    laptop shows every column, as the PDF prints them."""
    page = example_site / "grand-sud" / "2026" / "classement-2026-03-14.html"
    browser.look(page, example_site, width, audit=False)
    tables = browser.pages[width].evaluate(LATEST)
    assert len(tables) >= 2
    for table in tables:
        if width < 1000:
            assert table == {"shown": ["Place", "Joueur", "Total"], "scrolls": False, "note": True}, table
        else:
            assert table["shown"] == ["Place", "Place dupl.", "Joueur", "Points dupl.", "Points finale", "Total"]
            assert not table["note"]


# Each row of a tournaments table that does not count (« hors circuit », « remplacé par … »): whether
# its status is said on screen, the table's scrolling region at its start (its first cells shown).
STATUS_ON_SCREEN = r"""() => {
  const region = document.querySelector('table.tournaments').closest('.scroll');
  region.scrollLeft = 0;
  const width = document.documentElement.clientWidth;
  return Array.from(document.querySelectorAll('table.tournaments td.status-other'), cell => {
    const status = cell.textContent.trim();
    // the words drawn elsewhere in the row (a text's own box: its cell may run past the screen)
    const said = Array.from(cell.parentElement.querySelectorAll('td *')).some(element => {
      if (element.textContent.trim() !== status || !element.getClientRects().length) return false;
      const range = document.createRange();
      range.selectNodeContents(element);
      const rect = range.getBoundingClientRect();
      return rect.width > 0 && rect.left >= 0 && rect.right <= width;
    });
    return {status, said};
  });
}"""


@pytest.mark.parametrize("width", [390, 320])
def test_a_phone_says_a_tournament_is_hors_circuit_without_scrolling(width, browser, example_site):  # noqa: F811
    """The Grand Sud season's bulletin lists Bordeaux « hors circuit » in its tournaments table's last
    column, 867 px wide: a phone showed it only scrolled sideways. The row's tournament cell says it
    there too (on a phone only: the PDF and a laptop keep their « Statut » column)."""
    found = sorted((example_site / "grand-sud").glob("*/classement-*-20[0-9][0-9].html"))
    assert found
    statuses = []
    for page in found:
        browser.look(page, example_site, width, audit=False)
        shown = browser.pages[width].evaluate(STATUS_ON_SCREEN)
        assert all(row["said"] for row in shown), (page.name, shown)
        statuses += [row["status"] for row in shown]
    assert "hors circuit" in statuses
    browser.look(found[-1], example_site, 1280, audit=False)  # a laptop: the status said once, in its column
    assert not any(row["said"] for row in browser.pages[1280].evaluate(STATUS_ON_SCREEN))
