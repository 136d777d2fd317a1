"""Published pages in a real browser: Playwright drives Debian's Chromium (`make test` installs it from
system-packages.txt; nothing is ever downloaded: no `playwright install`).

`check_page(browser, page_file, site)` is what every published page must pass, wherever it comes
from (a bulletin, the index, a site page):
- it loads with no console error, no failed request, no HTTP error (the browser's own request for an
  icon too) and no request outside the site: every request
  is routed, and one that is not a file of `site` is refused and reported;
- at 390 px (a phone) and at 1280 px (a laptop) the document is no wider than the window;
- axe-core finds no WCAG 2.0 / 2.1 A or AA violation, run as it runs by default (with `preload`:
  it fetches each linked stylesheet again, which Chromium refuses to a page of file://, so the page
  is served for that check by a small HTTP server on 127.0.0.1, on a port of its own: `Served`);
- its screenshots at both widths are saved in `test-artifacts/browser/` (git-ignored), to look at.

Use the session fixture `browser` (one Chromium for the whole session, made available to every
test by tests/conftest.py: a fixture imported into two modules would be two browsers); the pages are
reused, so a check costs a page load and an axe run.
"""

from __future__ import annotations

import datetime as dt
import functools
import os
import re
import shutil
import threading
from dataclasses import dataclass, field
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import unquote, urlparse

import pytest

from reportgen.render import fonts
from reportgen.render.files import write_atomic
from reportgen.render.html import TEMPLATES

ROOT = Path(__file__).resolve().parents[1]
ARTIFACTS = ROOT / "test-artifacts" / "browser"
WIDTHS = (390, 1280)  # a phone, a laptop
WCAG = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
# Each scroll region a reader sees on a page (`.scroll`: templates/site/macros.html.j2, a chart's, a
# player's lines; not one in a closed <details> or hidden at this width), once its size observers ran
# (two frames): its name, whether it scrolls, and whether it is a Tab stop (site.js: only while it
# scrolls; a bulletin, which has no script, keeps every region one).
SCROLL_REGIONS = r"""async () => {
  await new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)));
  return Array.from(document.querySelectorAll('.scroll[role=region]')).filter(region => region.checkVisibility())
    .map(region => ({
    label: region.getAttribute('aria-label') || region.getAttribute('aria-labelledby'),
    scrolls: region.scrollWidth > region.clientWidth || region.scrollHeight > region.clientHeight,
    stop: region.tabIndex === 0}));
}"""

# Each of the `wanted` words (a player's name's, a file's name with its marks) as the page or mail lays
# it out (not a chart's, nor a folded chart's data): the lines its letters are drawn on (an inline-block,
# a hyphenated word's `.kept` box or a mail's inline box, reports one client rect whatever its lines: each
# letter is measured), whether it is broken at a place other than after a hyphen, how far it reaches past
# the right edge of the box it is laid out in (its cell, heading, item or paragraph, around its inline
# boxes) and of the window (0: within), whether it fits that box on one line (a copy of it on one line,
# out of the flow, no wider than the box's content), and whether what is written right after it up to
# the next breaking space (« » », « : » after a no-break space, in the following elements too) ends on
# its last letter's line (`glued`).
LAID_WORDS = r"""wanted => {
  const words = new Set(wanted), found = [];
  const letter = (node, at) => {  // the box a character of a text is drawn in
    const range = document.createRange();
    range.setStart(node, at); range.setEnd(node, at + 1);
    return range.getBoundingClientRect();
  };
  // the last character written after `node`'s character `at`, in `box`, before a breaking space: [node, index]
  const glued = (node, at, box) => {
    const next = document.createTreeWalker(box, NodeFilter.SHOW_TEXT);
    next.currentNode = node;
    let last = null;
    for (let text = node; text; text = next.nextNode(), at = 0) {
      const run = text.data.slice(at).match(/^[^ \t\r\n]*/)[0];
      const end = run.search(/\s*$/);  // its last character that is not a (no-break) space
      if (end > 0) last = [text, at + end - 1];
      if (run.length < text.data.length - at) break;
    }
    return last;
  };
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement;
    if (parent.closest("script, style, svg, .sr-only") || !parent.checkVisibility()) continue;
    for (const match of node.data.matchAll(/\S+/g)) {
      const word = match[0];
      if (!words.has(word)) continue;
      const tops = [], rights = [];
      for (let at = match.index; at < match.index + word.length; at++) {
        const drawn = letter(node, at);
        tops.push(Math.round(drawn.top)); rights.push(drawn.right);
      }
      let box = parent;
      while (["inline", "inline-block"].includes(getComputedStyle(box).display)) box = box.parentElement;
      const style = getComputedStyle(box);
      const room = box.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
      const copy = document.createElement("span");
      copy.textContent = word;
      copy.style.cssText = "position: absolute; white-space: nowrap; visibility: hidden";
      parent.appendChild(copy);
      const width = copy.getBoundingClientRect().width;
      copy.remove();
      const right = Math.max(...rights), edge = box.getBoundingClientRect().right - parseFloat(style.paddingRight);
      const after = glued(node, match.index + word.length, box);
      found.push({word, lines: new Set(tops).size, fits: width <= room + 0.5,
                  glued: !after || Math.round(letter(...after).top) <= tops[tops.length - 1] + 2,
                  inside: tops.some((top, i) => i > 0 && top > tops[i - 1] + 2 && word[i - 1] !== "-"),
                  beyond: Math.max(0, Math.round(right - edge)),
                  out: Math.max(0, Math.round(right - document.documentElement.clientWidth))});
    }
  }
  return found;
}"""


@dataclass
class Findings:
    """What one page showed at one width."""

    width: int
    scroll_width: int = 0
    console: list[str] = field(default_factory=list)  # errors, uncaught exceptions, failed requests
    outside: list[str] = field(default_factory=list)  # requests refused: not a file of the site
    violations: list[str] = field(default_factory=list)  # axe-core: rule, impact, first targets


class Quiet(SimpleHTTPRequestHandler):
    def log_message(self, format, *args) -> None:  # type: ignore[no-untyped-def]  # noqa: A002
        pass  # no line per request on the test's output


class Served:
    """A published folder served read-only over HTTP on 127.0.0.1, on a port the system gives
    (never a fixed one: several sessions run at once), in a thread, until `close`."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder.resolve()
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(self.folder)))
        self.origin = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def url(self, page_file: Path) -> str:
        return f"{self.origin}/{page_file.resolve().relative_to(self.folder).as_posix()}"

    def file(self, url: str) -> Path | None:
        """The file of the folder a URL of this server names; None for any other URL."""
        if not url.startswith(self.origin + "/"):
            return None
        return (self.folder / unquote(urlparse(url).path).lstrip("/")).resolve()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()
        self.thread.join()


class Browser:
    """One Chromium, one tab per width, reused by every check of the session: those of `WIDTHS`
    opened at once, another (a 320 px phone) the first time a page is looked at that width."""

    def __init__(self, playwright) -> None:  # type: ignore[no-untyped-def]
        chromium = shutil.which("chromium") or shutil.which("chromium-browser")
        if chromium is None:
            pytest.fail("Chromium is not installed: run make test (it installs the tests' packages of system-packages.txt)")
        # The fonts the browser sees, whatever ran before it in this process: a build sets
        # FONTCONFIG_FILE to the project's fonts (render/fonts.py) and a browser started after it
        # inherited them, one started before saw the machine's: « Marie-Bérénice » measured 109 px one
        # way, 105 the other, and a test with a tight margin passed or failed by the tests' order.
        # (given to the launch: Playwright's driver otherwise passes on its own environment, that of
        # the moment it started)
        fonts.use_project_fonts(TEMPLATES / "fonts")
        self.chromium = playwright.chromium.launch(executable_path=chromium, headless=True, env=dict(os.environ),
                                                   args=["--no-sandbox", "--disable-gpu"])
        self.pages = {width: self._tab(width) for width in WIDTHS}
        self.site: Path | None = None
        # every site looked at: the browser asks for a page's icon after its load, when the next look
        # may have begun on another site
        self.sites: set[Path] = set()
        self.served: dict[Path, Served] = {}  # the folders served over HTTP for axe, by folder
        self.findings: Findings = Findings(0)

    def _tab(self, width: int):  # type: ignore[no-untyped-def]
        page = self.chromium.new_page(viewport={"width": width, "height": 900})
        page.route("**/*", self._route)
        page.on("console", self._console)
        page.on("pageerror", lambda error: self.findings.console.append(f"exception: {error}"))
        page.on("requestfailed", self._failed)
        page.on("response", lambda response: response.status >= 400 and self.findings.console.append(
            f"HTTP {response.status}: {response.url}"))  # the browser's own requests too (an icon)
        return page

    def _console(self, message) -> None:  # type: ignore[no-untyped-def]
        """Errors, and axe's warning that it could not preload the stylesheets (its run then
        skips what needs them)."""
        if message.type == "error" or (message.type == "warning" and "preload" in message.text):
            self.findings.console.append(message.text)

    def _failed(self, request) -> None:  # type: ignore[no-untyped-def]
        """A request that failed; not one cancelled because the tab went to the next page (a page's
        icon is asked for after its load)."""
        if request.failure != "net::ERR_ABORTED":
            self.findings.console.append(f"failed: {request.url} ({request.failure})")

    def _route(self, route) -> None:  # type: ignore[no-untyped-def]
        url = route.request.url
        path = Path(unquote(urlparse(url).path)).resolve() if url.startswith("file://") \
            else next((found for served in self.served.values() if (found := served.file(url)) is not None), None)
        if path is None or not any(path.is_relative_to(site) for site in self.sites):
            self.findings.outside.append(url)
            route.abort()
        else:
            route.continue_()

    def look(self, page_file: Path, site: Path, width: int, name: str = "", audit: bool = True) -> Findings:
        """Open the page in the tab of that width (`pages[width]`, left on it for the caller): from
        the file system, or with `audit` over HTTP (`Served`), its screenshot saved as `name` and
        axe-core's violations found."""
        from axe_playwright_python.sync_playwright import Axe

        self.site, self.findings = site.resolve(), Findings(width)
        self.sites.add(self.site)
        if width not in self.pages:
            self.pages[width] = self._tab(width)
        page = self.pages[width]
        page.goto(self.url(page_file) if audit else page_file.resolve().as_uri(), wait_until="load")
        page.evaluate("document.fonts.ready")
        self.findings.scroll_width = page.evaluate("document.documentElement.scrollWidth")
        if not audit:
            return self.findings
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        # Written whole then renamed: under pytest-xdist two workers may save the same page at once.
        write_atomic(ARTIFACTS / f"{name}-{width}.png", page.screenshot(full_page=True))
        # axe's defaults, preload included: it fetches each linked stylesheet again (for its
        # css-orientation-lock rule), which the page served over HTTP allows.
        results = Axe().run(page, options={"runOnly": {"type": "tag", "values": WCAG}})
        for violation in results.response["violations"]:
            targets = [" ".join(map(str, node["target"])) for node in violation["nodes"][:3]]
            self.findings.violations.append(f"{violation['id']} ({violation['impact']}, "
                                            f"{len(violation['nodes'])} nodes): {targets}")
        return self.findings

    def url(self, page_file: Path) -> str:
        """The file's address over HTTP, its site (`self.site`) served from the first time."""
        assert self.site is not None
        if self.site not in self.served:
            self.served[self.site] = Served(self.site)
        return self.served[self.site].url(page_file)

    def close(self) -> None:
        self.chromium.close()
        for served in self.served.values():
            served.close()


def missing_resources(page_file: Path) -> list[str]:
    """The `url(...)` a page names (its stylesheet's fonts) that are not files next to it: what a
    browser would fail to load, found without one."""
    named = re.findall(r'url\("?([^")]+)"?\)', page_file.read_text(encoding="utf-8"))
    return [url for url in named if not url.startswith("data:") and not (page_file.parent / url).is_file()]


@pytest.fixture(scope="session")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        opened = Browser(playwright)
        yield opened
        opened.close()


def artifact_name(page_file: Path, site: Path) -> str:
    return re.sub(r"[^A-Za-z0-9.-]+", "_", page_file.resolve().relative_to(site.resolve()).with_suffix("").as_posix())


def check_page(browser: Browser, page_file: Path, site: Path) -> dict[int, Findings]:
    """Load `page_file` (a file of the published folder `site`) at each width and fail with everything
    found wrong, all widths together; returns the findings when all is well."""
    name = artifact_name(page_file, site)
    seen = {width: browser.look(page_file, site, width, name) for width in WIDTHS}
    wrong = []
    for width, found in seen.items():
        if found.scroll_width > width:
            wrong.append(f"{width} px: the page is {found.scroll_width} px wide (scrolls sideways)")
        wrong += [f"{width} px: console: {text}" for text in found.console]
        wrong += [f"{width} px: request outside the site: {url}" for url in found.outside]
        wrong += [f"{width} px: axe: {text}" for text in found.violations]
    assert not wrong, f"{name}:\n" + "\n".join(wrong)
    return seen


def broken_by_the_rule(where: tuple, laid: list[dict], width: int, whole: bool = False) -> set[tuple[int, str]]:
    """Check each word `LAID_WORDS` found (`where`: what the failure says) as a name's words are laid
    out: within its box and the window, the marks written after it on its last line; on one line when it
    fits its box (and always when `whole`: a laptop's page), else a hyphenated word broken at its
    hyphens only, another inside itself. Returns
    the words broken, with `width`."""
    broken = set()
    for shown in laid:
        assert shown["beyond"] == 0 and shown["out"] == 0 and shown["glued"], (*where, shown)
        if shown["fits"]:
            assert shown["lines"] == 1, (*where, shown)  # whole when it fits
        else:
            assert shown["lines"] > 1 and shown["inside"] == ("-" not in shown["word"]), (*where, shown)
            broken.add((width, shown["word"]))
        assert not whole or shown["lines"] == 1, (*where, shown)
    return broken


@pytest.fixture(scope="session")
def example_site(example_league, example_scored, tmp_path_factory) -> Path:
    """The example league published as a site, without its PDFs (the browser opens the HTML; laying
    out 45 PDFs would cost a minute): every circuit's files as a build publishes them, the fonts,
    the site's pages (home, seasons, players, clubs, tournaments, corrections), and a verification
    page with problems to show."""
    from reportgen import circuits, problems
    from reportgen.model import SourceRef
    from reportgen.pipeline.publishing import publish, render_report
    from reportgen.render import verification
    from reportgen.render.changes import WITHDRAWN, Republished
    from reportgen.render.html import publish_fonts
    from reportgen.site import publish as site
    from reportgen.site.data import event_sources, results_of
    from reportgen.site.pages import Site

    outputs = tmp_path_factory.mktemp("example-site") / "outputs"
    for slug, report in example_scored.reports.items():
        found = example_league.circuits[slug]
        files, _ = render_report(slug, report, outputs / slug,
                                 events=event_sources(found.events, results_of(found.results.to_dict("records")),
                                                     report.event_notes, report.event_columns))
        publish(files, outputs / slug)
    publish_fonts(outputs)
    league = "Ligue Grand Sud des clubs de jeux de réflexion"
    site.publish(outputs, Site(outputs, list(circuits.CIRCUITS), league, public=example_league.public).pages())
    found = [problems.MISSING_SHEET(SourceRef("carcassonne/2026-03-14.xlsx"), sheet="Résultats",
                                    fix="ajoutez la feuille « Résultats » (voir docs/formats.md)"),
             problems.BAD_VALUE(SourceRef("carcassonne/2026-03-14.xlsx", "Tournoi", "B3", "Date"),
                                message="« 31/02/2026 » n’est pas une date", fix="tapez la date sous la forme 14/03/2026"),
             # and long dates in every text the page prints (tests/test_dates_unbroken.py)
             problems.SEASON_CLOSED(SourceRef("nimes/2026-11-28.xlsx", "Tournoi", "B3", "Date"), season=2026,
                                    closed="21 novembre 2026", day="28 novembre 2026", reopen=problems.reopen(2026))]
    title = "Classement après le tournoi de Nîmes du 19 septembre 2026"
    republished = [Republished("grand-sud", "2026/classement-2026-09-19", title, dt.date(2026, 9, 19),
                               ("classeur modifié : 2026/2026-09-19-nimes.xlsx (tournoi du 19 septembre 2026)",))]
    withdrawn = [Republished("grand-sud", "2026/classement-2026-10-10", "Classement après le tournoi de Tarbes du 10 octobre 2026",
                             dt.date(2026, 10, 10), ("classeur retiré : 2026/2026-10-10-tarbes.xlsx (tournoi du 10 octobre 2026)",),
                             kind=WITHDRAWN)]
    page = verification.render_page(found, ["1 fichier CSV ignoré : enregistrez-le en .xlsx"], league, "3 décembre 2026",
                                    republished=republished, withdrawn=withdrawn, restored=republished, held=[title])
    (outputs / verification.VERIFICATION_PAGE).write_text(page, encoding="utf-8")
    return outputs
