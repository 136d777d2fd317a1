"""Long names on the site at a phone's width, in Debian's Chromium (tests/browser.py): a league whose
workbook has a long hyphenated name (« DUPONT-CASTELNAU-LABASTIDE Marie-Bérénice »), a long one-word
name and a short hyphenated one, built as the secretary builds it. A word with a hyphen was kept on
one line with `white-space: nowrap` (site.css `.nowrap`), which never breaks: a name wider than its
column pushed the page, or its table's box, wider than a 320 or 390 px phone.

On its ranking pages, its player's page, its tournament's page, its club's page and the home page, at
320 and 390 px: no page wider than the phone, no ranking scrolled sideways in its box, each name
within its cell or heading; a hyphenated word that fits is on one line, one that does not breaks at
its hyphen; at 1280 px every name on one line. A phone turned and a tablet show the whole ranking, its
names whole, scrolled in its own box, never the page."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.browser import LAID_WORDS, broken_by_the_rule
from tests.builders import TODAY, write_tournament
from tests.conftest import Built

LONG_HYPHENATED = ("DUPONT-CASTELNAU-LABASTIDE", "Marie-Bérénice")
LONG_WORD = ("WOLFESCHLEGELSTEINHAUSENBERGERDORFF", "Hubert")
SHORT_HYPHENATED = ("MARTIN", "Jean-Baptiste")
WORDS = [*LONG_HYPHENATED, *LONG_WORD, *SHORT_HYPHENATED]


@pytest.fixture(scope="module")
def long_names(small_league_built, tmp_path_factory) -> Built:
    """The small league (tests/conftest.py), built again with a Perpignan tournament of 2026 whose
    players have those names, the first of them its winner (the home page's top of the ranking)."""
    from reportgen.pipeline import build

    root = tmp_path_factory.mktemp("long-names")
    for folder in ("inputs", "outputs"):
        shutil.copytree(getattr(small_league_built, folder), root / folder)
    players = [LONG_HYPHENATED, LONG_WORD, SHORT_HYPHENATED, ("DUPONT", "Jean"), ("MARTIN", "Paul")]
    write_tournament(root / "inputs", "2026-03-14-perpignan", day="14/03/2026", club="PERP", results=[
        [place, surname, first, "", "Perpignan"] for place, (surname, first) in enumerate(players, 1)])
    result = build(root / "inputs", root / "outputs", TODAY)
    assert result.ok and not result.blocked
    return Built(root / "inputs", root / "outputs", result)


def pages_of(site: Path) -> dict[str, Path]:
    """The pages that show those names: the season's ranking, the tournament's, each player's, the
    club's, and the home page."""
    pages = sorted((site / "site").glob("*.html"))
    texts = {page: page.read_text(encoding="utf-8") for page in pages}

    def named(prefix: str, words: str) -> Path:
        return next(page for page in pages if page.name.startswith(prefix) and words in texts[page])

    found = {"season": site / "site" / "grand-sud-2026.html", "home": site / "index.html",
             "tournament": named("tournoi-", "Tournoi 2026-03-14-perpignan"), "club": named("club-", "<h1>Club de Perpignan")}
    for surname, first in (LONG_HYPHENATED, LONG_WORD, SHORT_HYPHENATED):
        found[f"player {surname}"] = named("joueur-", first)
    return found


# How far each ranking's region scrolls sideways, those that do (a phone held upright shows the main
# columns only, which fit it).
RANKINGS_SCROLLED = """() => Array.from(document.querySelectorAll('.scroll'))
  .filter(region => region.querySelector('table.ranking') && region.checkVisibility())
  .map(region => region.scrollWidth - region.clientWidth).filter(over => over > 0)"""


def test_long_names_never_make_a_page_wider_than_a_phone_and_a_hyphenated_word_that_fits_stays_whole(
        browser, long_names):
    outputs = long_names.outputs
    pages = pages_of(outputs)
    broken = set()
    for width in (320, 390, 1280):
        for kind, page in pages.items():
            found = browser.look(page, outputs, width, audit=False)
            tab = browser.pages[width]
            assert found.scroll_width == width, (kind, width, found.scroll_width)  # no sideways scrolling
            assert tab.evaluate(RANKINGS_SCROLLED) == [], (kind, width)  # nor in a ranking's own box
            laid = tab.evaluate(LAID_WORDS, WORDS)
            # each name on the pages of its tournament, its club and its ranking (the home page's: its top 10)
            named = [name for name in (LONG_HYPHENATED, LONG_WORD, SHORT_HYPHENATED)
                     if not kind.startswith("player ") or kind == f"player {name[0]}"]
            assert {shown["word"] for shown in laid} == {word for name in named for word in name}, (kind, width, laid)
            broken |= broken_by_the_rule((kind, width), laid, width, whole=width == 1280)
    # the long words were longer than a phone's line or cell, and broken there
    assert {(width, word) for width in (320, 390) for word in (LONG_HYPHENATED[0], LONG_WORD[0])} <= broken, broken
    assert all(word != "Jean-Baptiste" for _, word in broken), broken


def test_a_ranking_wider_than_a_turned_phone_or_a_tablet_scrolls_in_its_box_never_the_page(browser, long_names):
    """Turned (568 x 320) or on a tablet (768 px) a ranking shows every column, its names' words whole
    (« Jean-Baptiste », « DUPONT-CASTELNAU-LABASTIDE »), and scrolls in its own box when wider: the page
    scrolled sideways too (786 px at 568, 828 at 768), as far as an evolution's words read aloud
    (`.sr-only`, out of the flow) at the table's end, which its box did not hold."""
    outputs = long_names.outputs
    pages = pages_of(outputs)
    turned = browser.chromium.new_page(viewport={"width": 568, "height": 320})
    try:
        for width in (568, 768):
            for kind in ("season", "home", "club"):
                if width == 568:
                    tab = turned
                    tab.goto(pages[kind].resolve().as_uri(), wait_until="load")
                    tab.evaluate("document.fonts.ready")
                else:
                    browser.look(pages[kind], outputs, width, audit=False)
                    tab = browser.pages[width]
                assert tab.evaluate("document.documentElement.scrollWidth") == width, (kind, width)
                assert tab.evaluate(RANKINGS_SCROLLED), (kind, width)  # wider than the window, in its box
                laid = tab.evaluate(LAID_WORDS, WORDS)
                assert laid and all(shown["lines"] == 1 for shown in laid), (kind, width, laid)
    finally:
        turned.close()


def test_the_search_s_list_of_long_names_fits_a_phone(browser, long_names):
    """The search's list (site.js) names each player found as the pages do: « WOLFESCHLEGEL… » widened
    the page past a phone's width (395 px at 320 and 390 px). The list is as wide as the search box, on a
    laptop too: there too a word longer than it breaks inside itself."""
    outputs = long_names.outputs
    for width in (320, 390, 1280):
        browser.look(pages_of(outputs)["season"], outputs, width, audit=False)
        tab = browser.pages[width]
        for name in (LONG_WORD, LONG_HYPHENATED):
            tab.fill("#recherche", name[0][-9:].lower())
            assert tab.evaluate("Array.from(document.querySelectorAll('#resultats a'), a => a.textContent)") == [
                f"{' '.join(name)} (joueur)"]
            assert tab.evaluate("document.documentElement.scrollWidth") == width, (name, width)
            broken_by_the_rule(("search", name), tab.evaluate(LAID_WORDS, list(name)), width)  # the list's, the page's


def test_pages_with_long_names_pass_axe_on_a_phone_and_a_laptop(browser, long_names):
    from tests.browser import check_page

    pages = pages_of(long_names.outputs)
    for kind in ("season", "tournament", f"player {LONG_HYPHENATED[0]}", f"player {LONG_WORD[0]}"):
        check_page(browser, pages[kind], long_names.outputs)


# Each hyphenated word's box (`.kept`) in a link: its text, and its link's decoration against its own (a box
# of its own, an inline-block, is not drawn with its parent's underline: CSS propagates none into it)
KEPT_IN_LINKS = """() => Array.from(document.querySelectorAll('a .kept'), kept => [kept.textContent,
  getComputedStyle(kept.closest('a')).textDecorationLine, getComputedStyle(kept).display === 'inline'
  ? getComputedStyle(kept.closest('a')).textDecorationLine : getComputedStyle(kept).textDecorationLine])"""


def test_a_hyphenated_word_of_a_linked_name_is_underlined_as_the_rest_of_its_link(browser, long_names):
    """« BRUNET Jean-François » was a link underlined under « BRUNET » alone: « Jean-François », a box of
    its own since the long names' change, drew no underline (the final read, looking at the season's page
    at 1280 px)."""
    outputs = long_names.outputs
    for kind, page in pages_of(outputs).items():
        for width in (390, 1280):
            browser.look(page, outputs, width, audit=False)
            for word, link, drawn in browser.pages[width].evaluate(KEPT_IN_LINKS):
                assert drawn == link, (kind, width, word, link, drawn)
