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
        # the words are the bulletin's own title (its <title> adds its circuit and season)
        assert head_title(bulletin.read_text("utf-8")).startswith(html.unescape(words) + " — "), path
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
        words = [text for _, text in found]
        linked[slug] += bool(found)
        if not found:
            unlinked.append((slug, record["name"]))
        elif slug == "grand-sud":
            # the dated bulletin made after it, of its day, and nothing else
            assert [path for path, _ in found] == [f"grand-sud/{day.year}/classement-{day.isoformat()}"]
            assert re.fullmatch(rf"Classement après (le tournoi|les tournois) .+ du {french.date_long(day)}", words[0])
        elif slug == "tour-de-france":
            assert words == [f"Classement après {record['name']} ({french.date_long(day)})"]
        elif slug == "masters":
            assert words == ["Classement final", "Feuilles de match"]
        elif slug == "tantrix":
            # its own bulletin, then the rating list made after it
            assert words == [record["name"], f"Classement Elo au {french.date_long(day)}"]
        elif slug == "poules":
            assert words == [f"{record['name']} — Résultats du tour 1", f"{record['name']} — Résultats du tour 2",
                             f"{record['name']} — Tour final et classement final"]
    assert all(linked.values()), linked
    # Only the Grand Sud tournaments of clubs outside the region's départements (« hors circuit »,
    # Marseille 13, Bordeaux 33) make no ranking: their pages link none, rather than another's.
    assert sorted(unlinked) == [("grand-sud", "Tournoi de Bordeaux"), ("grand-sud", "Tournoi de Marseille")]


def test_every_page_of_the_site_has_a_title_of_its_own(example_site):
    pages = sorted((example_site / "site").glob("*.html")) + [example_site / "index.html"]
    titles = [head_title(page.read_text("utf-8")) for page in pages]
    assert len(pages) > 300 and len(set(titles)) == len(titles), sorted(t for t in titles if titles.count(t) > 1)
    # the editions of one tournament: its day in its title
    assert "Tournoi d'Albi, 15 février 2025 — Ligue Grand Sud des clubs de jeux de réflexion" in titles
    assert "Tournoi d'Albi, 14 février 2026 — Ligue Grand Sud des clubs de jeux de réflexion" in titles


def test_a_tournament_page_with_its_bulletins_is_a_good_web_page(browser, example_site):
    outputs = example_site
    for wanted in ("grand-sud", "poules"):
        page = next(outputs / "site" / event_page_name(circuit, record)
                    for circuit in load(outputs, CIRCUITS, ()) if circuit.slug == wanted
                    for record in circuit.rankings if record["kind"] == "event" and circuit.reporting(record["event"]))
        check_page(browser, page, outputs)


OUTSIDE = ("Tournoi hors circuit\u00a0: il ne compte pas pour le classement régional (club hors des départements "
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
    day = french.date_long(dt.date.fromisoformat(record["date"]))
    assert text.index(f"</a> · {day}</p>") < text.index('<p class="note">Tournoi hors circuit') < text.index("<table")
    check_page(browser, page, example_site)
