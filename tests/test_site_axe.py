"""axe-core as it runs by default, stylesheets preloaded (tests/browser.py serves the pages over
HTTP on 127.0.0.1 for it), and the site still opened from the file system with no request leaving
it: what a secretary does before uploading it."""

from axe_playwright_python.sync_playwright import Axe

from tests.browser import WCAG

KINDS = ("index.html", "site/grand-sud-2026.html", "site/joueur-*.html", "site/club-*.html", "site/tournoi-*.html",
         "site/corrections.html")


def one_of_each_kind(outputs):
    found = [sorted(outputs.glob(kind))[0] for kind in KINDS]
    return found


def test_axe_preloads_the_stylesheets_of_a_page_served_over_http(browser, small_league_built):
    outputs = small_league_built.outputs
    page = outputs / "site" / "grand-sud-2026.html"
    served = browser.look(page, outputs, 1280, "axe-preload")
    assert browser.pages[1280].url.startswith("http://127.0.0.1:")
    assert not served.console and not served.outside and not served.violations
    # from the file system, axe's preload is refused and the check says so: it would have failed above
    browser.look(page, outputs, 1280, audit=False)
    Axe().run(browser.pages[1280], options={"runOnly": {"type": "tag", "values": WCAG}})
    assert any("preload" in text for text in browser.findings.console)


def test_every_kind_of_site_page_opens_from_the_file_system_with_no_request_outside(browser, small_league_built):
    outputs = small_league_built.outputs
    for page in one_of_each_kind(outputs):
        for width in (390, 1280):
            found = browser.look(page, outputs, width, audit=False)
            assert browser.pages[width].url.startswith("file://")
            assert not found.console and not found.outside, (page.name, found)
            assert found.scroll_width <= width, page.name
