"""Every kind of published page in a real browser (headless Chromium through Playwright,
tests/browser.py): no console error, no request outside the site, no sideways scrolling on a phone
(390 px) nor a laptop (1280 px), no WCAG 2.0/2.1 A or AA violation that axe-core finds. The
screenshots are left in test-artifacts/browser/ to look at.

`make test` installs Chromium (system-packages.txt): without it these tests fail and say so."""

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from reportgen import circuits
from tests.browser import check_page, missing_resources
from tests.builders import small_league, write_tournament

FONTS = sorted(path.name for path in (Path(__file__).parents[1] / "templates" / "fonts").iterdir())

# One page of each kind the example league publishes (the smallest of its kind: the checks are the
# same, and axe's time grows with the cells), relative to outputs/.
PAGES = {
    "grand-sud ranking": "grand-sud/2025/classement-2025-02-15.html",
    "grand-sud final ranking": "grand-sud/2025/classement-final-2025.html",
    "masters bulletin": "masters/2026/masters-2026.html",
    "masters match sheets": "masters/2026/feuilles-de-match-2026.html",
    "pool tournament round": "poules/2026/2026-09-05-open-automne/tour-2.html",
    "pool tournament final round": "poules/2026/2026-09-05-open-automne/tour-3.html",
    "tantrix event": "tantrix/2026/2026-03-14-week-end-tantrix-de-printemps.html",
    "tantrix knockout event": "tantrix/2026/2026-10-10-coupe-tantrix-d-automne.html",
    "tantrix rating list": "tantrix/2026/classement-elo-2026-10-10.html",
    "tour-de-france ranking": "tour-de-france/2005/classement-2005-04-09.html",
    "index": "index.html",
    "verification": "verification.html",
}


@pytest.mark.parametrize("kind", PAGES)
def test_each_kind_of_page_is_a_good_web_page(kind, browser, example_site):  # noqa: F811
    check_page(browser, example_site / PAGES[kind], example_site)


# The site's own pages (reportgen/site/), one of each kind, found by their names.
SITE_PAGES = {"season": "site/grand-sud-2026.html", "player": "site/joueur-*.html", "club": "site/club-*.html",
              "tournament": "site/tournoi-*.html", "corrections": "site/corrections.html"}


@pytest.mark.parametrize("kind", SITE_PAGES)
def test_each_kind_of_site_page_is_a_good_web_page(kind, browser, example_site):  # noqa: F811
    found = sorted(example_site.glob(SITE_PAGES[kind]))
    assert found, f"no {kind} page in {example_site / 'site'}"
    check_page(browser, found[0], example_site)


# The cells of the page's tables that hold a number alone (« 1 435 », « +3 », « −2,5 »), and the ones
# of those drawn on more than one line.
CUT_NUMBERS = r"""Array.from(document.querySelectorAll('tbody td'))
  .filter(td => td.offsetWidth > 0 && /^[+\u2212-]?[\d\u202f\u00a0 ,]+$/.test(td.textContent.trim()))
  .filter(td => {
    const range = document.createRange();
    range.selectNodeContents(td);
    return new Set(Array.from(range.getClientRects(), r => Math.round(r.top))).size > 1;
  }).map(td => td.textContent)"""


def test_on_a_phone_no_number_is_cut_across_two_lines(browser, example_site):  # noqa: F811
    """A season's ranking on a 390 px phone: « 1 435 » once drawn « 143 » over « 5 »."""
    browser.look(example_site / "site" / "grand-sud-2026.html", example_site, 390, audit=False)
    tab = browser.pages[390]
    assert tab.evaluate("document.querySelectorAll('tbody td').length") > 100
    assert tab.evaluate(CUT_NUMBERS) == []


def test_the_verification_page_s_notes_read_as_large_as_its_text(browser, example_site):  # noqa: F811
    """Its notes are questions to answer (one person or two, with the command to run): not the
    bulletins' small grey footnotes."""
    browser.look(example_site / "verification.html", example_site, 1280, audit=False)
    tab = browser.pages[1280]
    assert tab.evaluate("document.querySelectorAll('.notes li').length") > 0
    size = "el => getComputedStyle(el).fontSize"
    assert tab.eval_on_selector(".notes li", size) == tab.eval_on_selector("body", size)
    color = "el => getComputedStyle(el).color"
    assert tab.eval_on_selector(".notes li", color) == tab.eval_on_selector("body", color)


def test_no_site_page_has_an_empty_heading_or_empty_parentheses(example_site):  # noqa: F811
    """The open season's ranking, published as CSV and annex without a bulletin, once had no title:
    an empty heading on its season page and the home page, « (…) » left empty on its players' pages."""
    pages = sorted((example_site / "site").glob("*.html")) + [example_site / "index.html"]
    assert len(pages) > 300
    for page in pages:
        text = page.read_text(encoding="utf-8")
        assert not re.search(r"<(h1|h2|h3|caption)>\s*</\1>", text), page.name
        assert "()" not in text and "Classement&nbsp;: </th>" not in text, page.name
        # nor one inside another: « tournoi par tournoi (Classement final provisoire … (tournois de 2026 seulement)) »
        assert not re.search(r"\([^()<]*\(", text), page.name
    season = (example_site / "site" / "grand-sud-2026.html").read_text(encoding="utf-8")
    # its heading the latest dated bulletin's (tests/test_site.py), the final ranking so far listed by its CSV
    assert '<h2 id="classement">Classement après le tournoi d' in season
    # the table named by that heading (axe checks the reference), not by a caption that repeats it
    assert '<table class="sortable ranking" aria-labelledby="classement">' in season and "<caption>Classement" not in season
    assert '<td role="cell">Classement final provisoire de la saison 2026 (tournois de 2026 seulement)</td>' in season


def test_the_pages_draw_the_shipped_font_published_next_to_them(browser, example_site):  # noqa: F811
    page = example_site / PAGES["pool tournament round"]
    browser.look(page, example_site, 1280, audit=False)
    used = browser.pages[1280].evaluate(
        "[...document.fonts].filter(f => f.status === 'loaded').map(f => f.family + ' ' + f.weight)")
    assert {"Inter 400", "Inter 600", "Inter 700"} <= set(used)
    assert sorted(path.name for path in (example_site / "fonts").iterdir()) == FONTS


def test_a_built_bulletin_and_the_home_page_open_with_their_rows_and_links(browser, small_league_built):  # noqa: F811
    """The site's home page: each circuit's ranking in force and the latest publications (tests/test_site.py
    checks where its links go)."""
    outputs = small_league_built.outputs
    browser.look(outputs / "grand-sud" / "2026" / "classement-2026-01-10.html", outputs, 1280, audit=False)
    tab = browser.pages[1280]
    assert tab.title().startswith("Classement après les tournois de Carcassonne et de Toulouse")
    assert tab.evaluate("document.querySelectorAll('tbody tr').length") > 6  # ranking, latest points, tournaments
    browser.look(outputs / "index.html", outputs, 1280, audit=False)
    documents = list((outputs / "grand-sud").rglob("*.html"))
    assert tab.evaluate("document.querySelectorAll('a').length") > len(documents)
    assert tab.evaluate("document.querySelectorAll('tbody tr').length") >= 5
    assert not browser.findings.console and not browser.findings.outside


def test_a_bulletin_read_on_the_site_links_back_to_its_home_and_its_circuit_s_season(browser, example_site):  # noqa: F811
    """A bulletin opened from a shared link, on a phone, is no dead end: every circuit's bulletin
    page links the site's home and its circuit's season page, relative (the same on the league's
    host and in outputs/); followed in the browser, the season page opens. Its PDF does not print
    them: `@media screen` only, which WeasyPrint skips (tests/test_print_pages.py reads the PDFs)."""
    bulletins = sorted(path for slug in circuits.CIRCUITS for path in (example_site / slug).rglob("*.html"))
    assert {path.relative_to(example_site).parts[0] for path in bulletins} == set(circuits.CIRCUITS)
    for path in bulletins:
        slug, season = path.relative_to(example_site).parts[:2]  # outputs/<circuit>/<season>/…
        links = re.search(r'<nav class="site-nav".*?</nav>', path.read_text(encoding="utf-8"), re.S)
        home, season_page = re.findall(r'href="([^"]+)"', links[0]) if links else (None, None)
        assert home and (path.parent / home).resolve() == (example_site / "index.html").resolve(), path
        assert (path.parent / season_page).resolve() == (example_site / "site" / f"{slug}-{season}.html"), path
        assert (example_site / "site" / f"{slug}-{season}.html").is_file(), path
    browser.look(example_site / PAGES["tantrix event"], example_site, 390, audit=False)
    tab = browser.pages[390]
    tab.get_by_role("navigation", name="Site de la ligue").get_by_role("link", name="saison 2026").click()
    tab.wait_for_load_state()
    assert tab.url.endswith("/site/tantrix-2026.html")
    assert not browser.findings.console and not browser.findings.outside


def test_a_build_publishes_the_fonts_every_page_names(small_league_built):
    outputs = small_league_built.outputs
    assert sorted(path.name for path in (outputs / "fonts").iterdir()) == FONTS
    pages = sorted(outputs.rglob("*.html"))
    assert len(pages) > 3 and {page: missing_resources(page) for page in pages} == {page: [] for page in pages}


def test_a_build_puts_back_fonts_removed_from_outputs(small_league_copy):
    from reportgen.pipeline import build
    from tests.builders import TODAY

    shutil.rmtree(small_league_copy.outputs / "fonts")
    assert not build(small_league_copy.inputs, small_league_copy.outputs, TODAY).unchanged
    assert sorted(path.name for path in (small_league_copy.outputs / "fonts").iterdir()) == FONTS
    assert build(small_league_copy.inputs, small_league_copy.outputs, TODAY).unchanged


def test_check_publishes_the_fonts_of_its_page(tmp_path):
    inputs = small_league(tmp_path / "inputs")
    write_tournament(inputs, "casse", day="le 8", club="Lunel")
    result = subprocess.run([str(Path(sys.executable).parent / "reportgen"), "check", "--inputs", str(inputs),
                             "--outputs", str(tmp_path / "out")], capture_output=True, text=True, cwd=tmp_path)
    assert result.returncode == 1, result.stderr
    assert missing_resources(tmp_path / "out" / "verification.html") == []


def test_a_request_outside_the_site_is_caught(browser, example_site, tmp_path):  # noqa: F811
    page = example_site / "escape.html"
    page.write_text('<!DOCTYPE html><html lang="fr"><head><title>x</title></head><body><main>'
                    '<img src="https://example.org/x.png" alt="x"><img src="../outside.png" alt="y"></main></body></html>')
    try:
        with pytest.raises(AssertionError, match="request outside the site"):
            check_page(browser, page, example_site)
    finally:
        page.unlink()


def test_a_wide_table_is_reached_and_scrolled_with_the_keyboard_on_a_phone(browser, example_site):  # noqa: F811
    page = example_site / PAGES["tantrix event"]
    browser.look(page, example_site, 390, audit=False)
    tab = browser.pages[390]
    reached = []
    # the links back to the site first (base.html.j2), then the page's regions in order: the ranking,
    # the cross table, the games, the seeds
    for _ in range(7):
        tab.keyboard.press("Tab")
        reached.append(tab.evaluate("document.activeElement.getAttribute('aria-label') "
                                    "|| document.activeElement.textContent"))
        if reached[-1] == "Parties":
            break
    assert reached == ["Accueil", "Saison 2026", "Classement", "Tableau croisé", "Parties"]
    assert tab.evaluate("document.activeElement.scrollWidth > document.activeElement.clientWidth")
    tab.keyboard.press("ArrowRight")
    tab.wait_for_function("document.activeElement.scrollLeft > 0")  # a smooth scroll takes a moment
