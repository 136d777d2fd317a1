"""The site's pages, drawn from what each circuit published (its manifest and `site.json`), never
from a clock: the same outputs give the same bytes.

outputs/index.html is the home page; every other page is in outputs/site/, flat, named from ids
(a player's or club's page from a hash of its id, never from a name), with relative links only."""

from __future__ import annotations

import functools
import hashlib
import itertools
import json
from collections.abc import Callable, Iterator, Mapping, Sequence
from itertools import chain
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from jinja2 import Template
from markupsafe import Markup

from reportgen import collector, french
from reportgen.french import search_key
from reportgen.model import linked_legend
from reportgen.render.html import TEMPLATES, environment
from reportgen.site import corrections, drawing, figures, og, pages_aside
from reportgen.site import lines as html_lines
from reportgen.site.club_page import ClubPages
from reportgen.site.days import long_day, record_day, record_days, record_start, sort_key
from reportgen.site.pages_aside import PlayersPages
from reportgen.site.player_page import (
    PlayerPages,
    Section,
    labelled,
    left_out_row,
    main_column,
    main_label,
    place,
    public_name,
)
from reportgen.site.privacy import Public
from reportgen.site.reuse import MISSING, Pages
from reportgen.site.sources import Circuit, Entry, Player, load, note_mark, shown_title

if TYPE_CHECKING:
    from reportgen.site.cards_ahead import CardsAhead

FOLDER = "site"  # outputs/site/: every page but the home page
HOME = "index.html"
TOP = 10  # the home page shows each circuit's first ten
LATEST = 10  # and the ten latest publications
ASSETS = ("site.css", "site.js", "favicon.svg")  # copied from templates/site/
PLAYER = "player.html.j2"
SEARCH = "recherche.js"  # the search index, a script every page loads


@functools.cache  # a tournament's or player's page is linked from many others
def page_name(kind: str, key: str) -> str:
    """A page's file name from an id: never a name typed in a workbook."""
    return f"{kind}-{hashlib.sha256(key.encode('utf-8')).hexdigest()[:12]}.html"


def season_page_name(slug: str, season: int) -> str:
    """A circuit's season page (`reportgen mail` links it too, from the delivery layer)."""
    return f"{slug}-{season}.html"


def event_page_name(circuit: Circuit, ranking: dict[str, Any]) -> str:
    """A tournament's page, from its ranking's path."""
    return page_name("tournoi", f"{circuit.slug}/{ranking['path']}")


def club_page_name(club: str) -> str:
    """A club's page, from its name as the rankings give it."""
    return page_name("club", club.replace("’", "'"))  # its address as before ’ was kept as typed


def card_lines(public: Public, ranking: dict[str, Any] | None, count: int = 3) -> tuple[tuple[str, str, str], ...]:
    """A ranking's first rows as a card shows them: place, public name, its main value as a player's
    line says it, « Points : 780 », or a value that names itself alone, « Finale » (`labelled`: the
    value before its column's short name read « finale Tour », « 6 910 Total »)."""
    if not ranking:
        return ()
    value = main_column(ranking)
    return tuple((place(row), public_name(public, row), labelled(row, value["key"], main_label(value)) if value else "")
                 for row in ranking["rows"][:count])


def event_card(league: str, circuit_title: str, ranking: dict[str, Any], public: Public) -> og.Card:
    """A tournament's Open Graph card, from its ranking record: what its page names, and what the
    build draws ahead from the circuit's `site.json` (site/cards_ahead.py). Its place after its days
    unless its name or its circuit's title already says it: an online tournament's card said « en
    ligne » twice, its circuit's title then its place (« Tournoi en ligne … — du 5 septembre au 6
    octobre 2026 · en ligne »)."""
    title, where = shown_title(ranking), ranking.get("place", "")
    if where and french.said_in(where, title, circuit_title):
        where = ""
    where = " · ".join(part for part in (record_day(ranking), where) if part)
    # a tournament that counts for nothing says so after its circuit (« … Grand Sud — hors circuit — »)
    subtitle = " — ".join(part for part in (circuit_title, note_mark(ranking), where) if part)
    return og.Card(league, title, subtitle, card_lines(public, ranking))


class Site:
    """Every page of the site, as bytes by path relative to outputs/."""

    def __init__(self, outputs: Path, order: Sequence[str], league: str, blocked: Sequence[str] = (),
                 public: Public | None = None, calendar: Sequence[dict[str, Any]] = (), calendar_file: str = "",
                 corrections: Sequence[dict[str, Any]] = (), templates: Path = TEMPLATES,
                 archived: Mapping[str, list[dict[str, Any]]] | None = None, url: str = "",
                 reuse: Pages | None = None, draw_aside: bool = False, ahead: CardsAhead | None = None,
                 awaited: Mapping[tuple[str, int], str] | None = None):
        self.league = league
        # « provisoire : résultats … attendus » by (circuit, season): the build's day's (pipeline/calendar.py
        # `season_notes`), said beside the season's ranking in force
        self.awaited = dict(awaited or {})
        # the Open Graph cards may be drawn by a worker on the second core (site/drawing.py): the
        # build says so when no PDF is rendering there
        self.draw_aside = draw_aside
        self.cards = drawing.Cards(False)
        self.ahead = ahead  # the tournaments' cards the build drew ahead (site/cards_ahead.py)
        # the last build's pages, to take those whose source is unchanged (site/reuse.py); None: render all
        self.reuse = reuse if templates == TEMPLATES else None  # the code fingerprint sees these templates only
        self.folder = outputs / FOLDER
        self.url = url.rstrip("/")  # [site] url: the site's public address, when the league gives it
        # the Open Graph images the pages name, by path; those taken from disk, until `_images` gives them
        self.images: set[str] = set()
        self.found: list[tuple[str, bytes | None]] = []
        self.home_card: og.Card | None = None
        self._tags: dict[tuple[og.Card, str], dict[str, Any]] = {}  # each card's `og:image` tags, by page folder
        # the players' pages given to a worker (site/pages_aside.py), their keys (site/reuse.py); those
        # taken from the last build meanwhile
        self._keys: dict[str, str | None] = {}
        self._taken: list[tuple[str, bytes | None]] = []
        # a tree of dicts and lists from JSON: nothing to collect, frozen until the pages are made (reportgen/collector.py)
        with collector.parsed():
            self._load(outputs, order, blocked, archived)
        # what a worker making players' pages reads the same data from (site/pages_aside.py)
        self._source = (str(outputs), list(order), list(blocked), archived or {})
        self.public = public or Public()
        self.calendar = list(calendar)
        self.calendar_file = calendar_file  # relative to outputs/: the iCalendar file, when there is one
        self.corrections = list(corrections)
        self.templates = templates
        self._templates: dict[str, Template] = {}  # by name (`_template`)
        # what the players' and the clubs' pages share, made once a site (site/player_page.py, club_page.py);
        # given the function that names a tournament's page, not a method of this Site: a method would
        # make a cycle, and the Site's data (1.4 million objects at 100x) would wait for a full
        # collection to be freed, 1.8 CPU-s, rather than go with the Site (fifteenth round)
        self.player_pages = PlayerPages(self.circuits, event_page_name)
        self.club_pages = ClubPages(self.circuits, event_page_name, season_page_name)

    def _load(self, outputs: Path, order: Sequence[str], blocked: Sequence[str],
              archived: Mapping[str, list[dict[str, Any]]] | None) -> None:
        """Each circuit's rankings from outputs/, and each player's lines in them."""
        self.circuits = load(outputs, order, blocked, archived)
        self.players: dict[str, Player] = {}
        players = self.players
        # in date order (circuits in registry order on one day): a player's name is his latest spelling
        for _, _, circuit, ranking in sorted(((r["date"], index, c, r) for index, c in enumerate(self.circuits)
                                             for r in c.rankings), key=lambda found: found[:2]):
            for index, row in enumerate(chain(ranking["rows"], map(left_out_row, ranking.get("left_out", ())))):
                player = players.get(row["id"])
                if player is None:  # not a Player made for each of 425,000 rows at 100x, then dropped
                    player = players[row["id"]] = Player(row["id"])
                player.name = row["player"]
                player.entries.append(Entry(circuit, ranking, row, index))

    # -- links ----------------------------------------------------------------------------------
    def player_page(self, player_id: str) -> str | None:
        return page_name("joueur", player_id) if self.public.shown(player_id) else None

    def season_page(self, circuit: Circuit, season: int) -> str:
        return season_page_name(circuit.slug, season)

    def club_page(self, club: str) -> str:
        return club_page_name(club)

    def link(self, file: str) -> str:
        """A file of outputs/ (relative to it) as the site links it: its public copy when its circuit
        has one (`Circuit.link`), the file itself otherwise."""
        slug, _, path = file.partition("/")
        circuit = next((c for c in self.circuits if c.slug == slug), None)
        return circuit.link(path) if circuit else file

    def legend(self, ranking: dict[str, Any]) -> dict[str, Any] | None:
        """What a ranking's pages say under its table (model.Legend), its file linked as the site links
        it and named so in its text (its public copy, not the whole file, in « (fichier …) »)."""
        legend = ranking.get("legend")
        return linked_legend(legend, self.link(legend["file"])) if legend else None

    # -- tables ---------------------------------------------------------------------------------
    def table(self, circuit: Circuit, ranking: dict[str, Any], rows: Sequence[dict[str, Any]] | None = None,
              here: str = "", club_column: bool = True) -> dict[str, Any]:
        """A ranking as the template draws it: place, player (linked to his page), the main value
        and the evolution always shown; the other columns marked `secondary` (hidden on a phone held
        upright, and named above the table there: `hidden`; turned, it shows them).
        Its rows made as HTML (site/lines.py), their links relative to the page (`here`). A column
        empty in every row is left out (a tournament's « Club » in a circuit whose sheets name none);
        without `club_column`, the Club column too (a club's page)."""
        listed = rows if rows is not None else ranking["rows"]
        columns = [c for c in ranking["columns"] if (club_column or c["key"] != "club")
                   and any(row["values"].get(c["key"], "") != "" for row in listed)]
        main = {c["key"] for c in columns if c["key"] == "evolution"}
        main |= {next((c["key"] for c in columns if c["key"] != "club"), "")}
        # numbers aligned right, as in the bulletins (a record of an earlier version says none); places
        # gained (« ▲ 3 ») centred, as the bulletins draw them
        aligned = {c["key"]: "evo" if c["key"] == "evolution" else "num" if c.get("numeric") else "" for c in columns}
        headers = [{"label": c["short"], "title": c["header"], "main": c["key"] in main,
                    "class": " ".join(name for name in ("" if c["key"] in main else "secondary", aligned[c["key"]])
                                      if name)} for c in columns]
        shown = [(c["key"], c["key"] in main, c["key"] == "club", ' class="num"' if aligned[c["key"]] == "num" else "")
                 for c in columns]

        def cell(key: str, is_main: bool, is_club: bool, num: str, row: dict[str, Any]) -> tuple[Any, bool, str | None, str]:
            value = row["values"].get(key, "")
            if key == "evolution" and value != "":  # places gained, drawn as the bulletins draw them
                drawn, attributes = html_lines.evolution(value)
                return drawn, is_main, None, attributes
            # a value whose text is not its number (« 2½ »): site.js sorts it by the number its record gives
            sorts = row.get("sort")
            number = sorts.get(key) if sorts else None
            sort = "" if number is None else f' data-sort="{number}"'
            return value, is_main, self.club_page(row["club"]) if is_club and row["club"] else None, num + sort

        body = html_lines.table_body(
            html_lines.ranking_row(here, row["rank"] or 0, place(row), public_name(self.public, row),
                                   self.player_page(row["id"]), [cell(*column, row) for column in shown])
            for row in listed)
        links = self.table_links(circuit, ranking)
        return {"headers": headers, "body": body, "title": ranking["title"] or ranking["name"],
                "hidden": html_lines.hidden_columns(tuple(h["title"] for h in headers if not h["main"])),
                "day": record_day(ranking), **links}

    def table_links(self, circuit: Circuit, ranking: dict[str, Any]) -> dict[str, Any]:
        """What a ranking's table links besides its rows' pages: its bulletin, its CSV and its legend's
        file, as the site links them (public copies: `Circuit.link`); all a table reads that its
        record does not say (a club's page's source, `club`)."""
        return {"bulletin": circuit.bulletin(ranking["path"]),
                "csv": None if ranking.get("no_csv") else circuit.link(f"{ranking['path']}.csv"),
                "legend": self.legend(ranking)}

    # -- pages ----------------------------------------------------------------------------------
    def render(self, template: str, path: str, card: og.Card | None = None, **context: Any) -> bytes | None:
        """A page; its Open Graph image is `card`'s, or the home page's (None: `render_from`)."""
        return self.render_from(template, path, card, context, lambda: context)

    def render_from(self, template: str, path: str, card: og.Card | None, source: object,
                    context: Callable[[], dict[str, Any]]) -> bytes | None:
        """A page whose context is made (`context()`) only when it is rendered: `source`, all the
        context is made from, says whether the last build's page can be taken (site/reuse.py);
        None when it is taken as it is on disk, unread (`Pages.page`: never the home page, which
        the build writes on its own)."""
        tags = self.image(card or self.home_card, f"{FOLDER}/" if path == HOME else "")

        def draw() -> bytes:
            return self._draw(template, path, tags, context())

        if self.reuse is None:
            return draw()
        return self.reuse.page(path if path == HOME else f"{FOLDER}/{path}", self._parts(template, tags, source),
                               draw, read=path == HOME)

    def _parts(self, template: str, tags: dict[str, Any] | None, source: object) -> tuple[object, ...]:
        """What a page's key is made from besides its path (site/reuse.py): whoever makes the page."""
        return template, self.league, tags, source

    def _draw(self, template: str, path: str, tags: dict[str, Any] | None, context: dict[str, Any]) -> bytes:
        here, root = (f"{FOLDER}/", "") if path == HOME else ("", "../")
        return self._template(template).render(league=self.league, root=root, here=here, og=tags,
                                               **context).encode("utf-8")

    def _template(self, name: str) -> Template:
        """A page's template, looked up once a site (not Jinja's check of its file's date at each page)."""
        found = self._templates.get(name)
        if found is None:
            found = self._templates[name] = environment(self.templates).get_template(f"site/{name}")
        return found

    def image(self, card: og.Card | None, here: str) -> dict[str, Any] | None:
        """The page's `og:image` tags, its PNG kept for `pages()`. Social networks want an absolute
        URL: with `[site] url` it is one; without, a path relative to the page is all the site can
        name (a network that does not resolve it shows no image, the page stays right)."""
        if card is None:
            return None
        # the home page's card is every player's and club's page's too: its name (a JSON dump and
        # a SHA-256) and text made once, not 17,000 times at 100x
        tags = self._tags.get((card, here))
        if tags is not None:
            return tags
        name = card.file_name()
        path = f"{FOLDER}/{name}"
        if path not in self.images:
            self.images.add(path)
            if self.reuse is not None and self.reuse.proven_file(path):
                self.found.append((path, None))  # a card the last build wrote, as its stat proves: unread
            elif (found := og.known(card, self.folder)) is not None:
                self.found.append((path, found))
                if self.reuse is not None:  # read whole just now: not read again by the staging
                    self.reuse.file(path, found)
            elif self.ahead is not None and (drawn := self.ahead.take(name)) is not None:
                self.found.append((path, drawn))
            else:  # given by `_images` once drawn
                self.cards.draw(path, card)
        tags = self._tags[card, here] = {"url": f"{self.url}/{FOLDER}/{name}" if self.url else f"{here}{name}",
                                         "alt": card.alt(), "width": og.WIDTH, "height": og.HEIGHT}
        return tags

    def pages(self) -> dict[str, bytes]:
        """Every page at once (tests, small sites); a build takes them one by one (`each_page`)."""
        return {path: data if data is not None else cast(Pages, self.reuse).read(path)
                for path, data in self.each_page()}

    def each_page(self) -> Iterator[tuple[str, bytes | None]]:
        """Every page as (path relative to outputs/, bytes), one at a time, each Open Graph image
        right after the first page that names it: a build stages each as it comes
        (site/publish.py `stage`), so no dict of every page is held (about 50 MB at 10x). None for
        the bytes of a page taken as it is on disk, unread (site/reuse.py `Pages.page`)."""
        if self.ahead is not None:  # at the lowest priority: the cards it has not drawn are drawn as the pages ask
            self.ahead.stop()
        self.cards = drawing.Cards(self.draw_aside)
        try:
            with collector.frozen():  # the league's data out of the collections while pages are made (reportgen/collector.py)
                yield from self._each_page()
        finally:
            self.cards.close()  # the worker stopped, whatever ended the pages

    def _each_page(self) -> Iterator[tuple[str, bytes | None]]:
        self.images, self.found, self._tags = set(), [], {}  # each image given once a run of the pages
        self._keys, self._taken = {}, []
        yield HOME, self.home()
        # started now, the players' pages queued for it: it reads the site's data, then makes them
        # while the pages below are made
        aside = self._players_aside()
        try:
            yield from self._images()
            for circuit in self.circuits:
                for season in circuit.seasons():
                    yield f"{FOLDER}/{self.season_page(circuit, season)}", self.season(circuit, season)
                    yield from self._images()
                for ranking in circuit.rankings:
                    if ranking["kind"] == "event":
                        yield f"{FOLDER}/{event_page_name(circuit, ranking)}", self.event(circuit, ranking)
                        yield from self._images()
                        yield from self._players_made(aside)
            # the pages below name no card: between two, the card worker is given the next queued ones
            yield from self._players(aside)
        finally:
            if aside is not None:
                aside.close()  # its pages all back, or the site stopped before
        for club in self.club_pages.clubs:
            yield f"{FOLDER}/{self.club_page(club)}", self.club(club)
            yield from self._images()
        yield f"{FOLDER}/corrections.html", self.render("corrections.html.j2", "corrections.html",
                                                        title="Corrections", corrections=self.correction_lines,
                                                        layouts=self.layout_lines())
        yield f"{FOLDER}/{SEARCH}", self.search_index()
        yield from self._images(finish=True)
        for asset in ASSETS:
            yield f"{FOLDER}/{asset}", (self.templates / "site" / asset).read_bytes()

    def _images(self, finish: bool = False) -> Iterator[tuple[str, bytes | None]]:
        """The Open Graph images taken from disk (None: unread) or drawn since the last call, each once (their bytes
        then dropped: `image` keeps only that a path was given); with `finish`, every one left, once
        drawn."""
        found, self.found = self.found, []
        yield from found
        yield from self.cards.finish() if finish else self.cards.ready()

    @functools.cached_property
    def correction_lines(self) -> list[dict[str, Any]]:
        """The documents whose content changed after they were published (a result corrected), the
        latest first: what a club must know. Made once: the corrections page and the home page's
        latest five, from one following of the withdrawals through the whole history."""
        by_slug = {circuit.slug: circuit for circuit in self.circuits}
        # in a club member's words, not the secretary's (site/corrections.py); what is in force in a
        # withdrawn document's place followed through the later withdrawals
        withdrawals = corrections.Withdrawals(self.corrections)
        return corrections.kept_within_days([corrections.line(change, by_slug.get(change["circuit"]), withdrawals, position)
                                             for position, change in enumerate(self.corrections)
                                             if not change.get("layout")])

    def layout_lines(self) -> list[dict[str, Any]]:
        """The days a new layout republished documents with the same content (a new version of
        reportgen or of its templates): one line a day, the latest first, with how many documents
        of which circuits; never a correction, which a reader would take for results found wrong."""
        days: dict[str, dict[str, int]] = {}
        for change in self.corrections:
            if change.get("layout"):
                counted = days.setdefault(change["day"], {})
                counted[change["circuit"]] = counted.get(change["circuit"], 0) + 1
        titles = {circuit.slug: circuit.title for circuit in self.circuits}
        return [{"day": long_day(day), "sort": sort_key(day), "documents": sum(counted.values()),
                 "circuits": [titles.get(slug, slug) for slug in sorted(counted, key=lambda s: (s not in titles, s))]}
                for day, counted in sorted(days.items(), reverse=True)]

    def home(self) -> bytes | None:
        circuits = []
        for circuit in self.circuits:
            seasons = circuit.seasons()
            ranking = circuit.headline(seasons[0]) if seasons else None
            circuits.append({
                "title": circuit.title, "blocked": circuit.blocked, "regulation": circuit.regulation,
                "table": self.table(circuit, ranking, ranking["rows"][:TOP], f"{FOLDER}/")
                if ranking else None,
                "seasons": [{"season": s, "url": self.season_page(circuit, s)} for s in seasons],
                # the results it awaits, as its season's page says them beside it (`season`)
                "awaited": self.awaited.get((circuit.slug, seasons[0]), "") if ranking else "",
            })
        latest = sorted(((d["date"], circuit.title, d["title"], circuit.link(f"{d['path']}.html"))
                         for circuit in self.circuits for d in circuit.documents), reverse=True)[:LATEST]
        # the home page's image: each circuit's leader (the player, clubs and corrections pages share it)
        leaders = [("", circuit.title, line[1]) for circuit in self.circuits if circuit.seasons()
                   for line in card_lines(self.public, circuit.headline(circuit.seasons()[0]), 1)]
        self.home_card = og.Card(self.league, "Classements et résultats", "Les classements en vigueur",
                                 tuple(leaders[:og.MAX_ROWS]))
        coming, past = self.home_calendar()
        # titled with the league's name (its <title> and og:title), as every other page ends its title; its
        # heading says what the page is, under the league's name the header already shows (its card's title)
        return self.render("home.html.j2", HOME, title=self.league, heading=self.home_card.title,
                           circuits=circuits, calendar=coming, calendar_past=past,
                           calendar_file=self.calendar_file, calendar_feed=self.calendar_feed(),
                           latest=[{"day": long_day(day), "circuit": title, "title": name, "url": url}
                                   for day, title, name, url in latest],
                           corrections=self.correction_lines[:5])

    def home_calendar(self) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        """The home page's calendar as a visitor reads it: what comes next first (results awaited, a
        tournament under way, those to come, in date order), then the tournaments over, the latest
        first, folded under them (`templates/site/home.html.j2`): the year's sixteen played ones came
        before the first « à venir », a phone's whole screen and more."""
        days = [list(same) for _, same in itertools.groupby((item for item in self.calendar if item["past"]),
                                                            key=lambda item: item["day"])]
        return ([item for item in self.calendar if not item["past"]],
                [item for same in reversed(days) for item in same])  # a day's in its order

    def calendar_feed(self) -> str:
        """The calendar's address for a subscription (webcal://, which phones and calendar programs open
        as « s'abonner », following the file as it changes): only with the site's public address; a
        relative link can only download the file once."""
        if not (self.url and self.calendar_file):
            return ""
        return "webcal://" + self.url.split("://", 1)[1] + "/" + self.calendar_file

    def season(self, circuit: Circuit, season: int) -> bytes | None:
        ranking = circuit.headline(season)
        events = sorted((r for r in circuit.rankings if r["season"] == season and r["kind"] == "event"),
                        key=lambda r: (record_start(r), r["path"]))
        documents = [{**d, "day": long_day(d["date"]),
                      **{kind: circuit.link(f"{d['path']}.{kind}") for kind in ("html", "pdf")},
                      "csv": circuit.link(f"{d['path']}.csv") if d["csv"] else None}
                     for d in circuit.documents if d["season"] == season]
        # a ranking published without a bulletin (the final ranking so far while its season runs,
        # sources.Circuit.in_force) listed by its CSV, now that the page's table is another
        documents += [{"date": r["date"], "day": long_day(r["date"]), "title": r["title"], "html": None, "pdf": None,
                       "csv": circuit.link(f"{r['path']}.csv")}
                      for r in circuit.rankings if r["season"] == season and not circuit.in_force(r)]
        # by date, as the page's table sorts them (a circuit's publications file lists them by kind:
        # Tantrix's tournaments' bulletins, then its rating lists); one day's in their order there
        documents.sort(key=lambda d: d["date"])
        # no date on the card: it is drawn again only when the season's top three changes
        awaited = self.awaited.get((circuit.slug, season), "") if ranking else ""
        # « Saison 2026 » capitalised: the card draws it on a line of its own under the circuit's title, as
        # it draws « Les classements en vigueur » (the page's heading says « … — saison 2026 » in one line)
        card = og.Card(self.league, circuit.title, f"Saison {season}", card_lines(self.public, ranking))
        scale = max((s for s in circuit.scales if s["season"] == season), key=lambda s: (s["date"], s["path"]),
                    default=None)  # the latest tournament's, as its bulletin draws it
        return self.render("season.html.j2", self.season_page(circuit, season), card,
                           title=f"{circuit.title}{french.SEPARATOR}saison {season}", circuit=circuit.shown(), season=season,
                           # the circuit's other seasons the site has (an archived one too), the latest first
                           seasons=[{"season": s, "url": self.season_page(circuit, s)}
                                    for s in circuit.seasons() if s != season],
                           table=self.table(circuit, ranking) if ranking else None, awaited=awaited,
                           chart=figures.bump(circuit.rankings, ranking, functools.partial(public_name, self.public))
                           if ranking else None,
                           scale=figures.scale(scale["values"], scale["title"]) if scale else None,
                           events=[{"title": shown_title(r), "day": record_day(r), "mark": note_mark(r),
                                    "url": event_page_name(circuit, r)} for r in events],
                           documents=documents,
                           annexes=[{**a, "xlsx": circuit.link(f"{a['path']}.xlsx")}
                                    for a in circuit.annexes if a["season"] == season])

    def event(self, circuit: Circuit, ranking: dict[str, Any]) -> bytes | None:
        name, (first, last), day = shown_title(ranking), record_days(ranking), record_day(ranking)
        event = {"@context": "https://schema.org", "@type": "SportsEvent", "name": name,
                 "startDate": first, **({"endDate": last} if last != first else {}),
                 "organizer": {"@type": "Organization", "name": self.league},
                 "superEvent": {"@type": "EventSeries", "name": circuit.title}}
        card = event_card(self.league, circuit.title, ranking, self.public)
        # what its circuit published on it, each with the words of its own title (« Classement après
        # le tournoi d'Albi du 14 février 2026 », « … — Résultats du tour 1 », its own bulletin)
        documents = [{"title": d["title"], "html": circuit.link(f"{d['path']}.html"),
                      "pdf": circuit.link(f"{d['path']}.pdf")} for d in circuit.reporting(ranking["event"])]
        csv = circuit.link(f"{ranking['path']}.csv")
        # Its source is what its context is made from, not the context: its table's rows are made as
        # HTML only when the page is rendered (a rebuild at 100x made the rows of 4,000 tournaments'
        # pages to find all but one unchanged). The ranking record whole (its rows, columns, date,
        # title, place, season: its digest when read from site.json, sources.Circuit `digest`, not
        # the 4,000 records pickled at 100x, nineteenth round), the circuit as the page shows it and
        # the links to its documents, its CSV and its legend's file (public copies: `link`), the players' public forms
        # (`Public.digest`: names and whether each has a page); the rest (page names from ids and
        # clubs, days, the JSON-LD) is code, in the key's code fingerprint, or the league, a part of
        # every page's key.
        source = (circuit.shown(), circuit.digest(ranking) or ranking, self.public.digest, documents, csv,
                  self.legend(ranking))
        return self.render_from("event.html.j2", event_page_name(circuit, ranking), card, source, lambda: {
            "title": name, "circuit": circuit.shown(), "season_url": self.season_page(circuit, ranking["season"]),
            # the editions of one tournament (Albi 2025 and 2026) told apart in a browser's tabs and history
            "head_title": f"{name}, {day}",
            "table": self.table(circuit, ranking), "documents": documents, "note": ranking.get("note", ""),
            "description": f"{circuit.title}\u00a0: résultats, {day}",
            "json_ld": json.dumps(event, ensure_ascii=False, sort_keys=True).replace("</", "<\\/")})

    def player(self, player: Player) -> bytes | None:
        """A player's page, made only when what it is made from changed (site/player_page.py
        `PlayerPages.source`): a new tournament changes the pages of its season's players, not of the others."""
        name, source = self._player_source(player)
        return self.render_from(PLAYER, page_name("joueur", player.id), None, source,
                                lambda: self._player_context(player, name))

    def _player_source(self, player: Player) -> tuple[str, object]:
        """A player's public name, and what its page is made from (site/player_page.py
        `PlayerPages.source`): the one key `player` and the worker's queue (`_players_aside`) look
        its page up by."""
        name = self.public.name(player.id, player.name)
        return name, self.player_pages.source(player, name)

    def _player_context(self, player: Player, name: str) -> dict[str, Any]:
        # his club under his name, linked to its page: his lines name it only when he played for another
        # too (player_page `clubs_column`), a column a phone hides
        club = self.player_pages.club(player)
        return {"title": name, "heading": Markup(html_lines.player_name(name)),
                "club": club, "club_url": self.club_page(club) if club else "",
                "sections": self.player_sections(player, name), "description": f"Résultats {french.of_person(name)}"}

    def player_bytes(self, player: Player) -> bytes:
        """A player's page made, whatever the last build made (site/pages_aside.py: the worker's, or
        one it gave back for the build to make)."""
        name = self.public.name(player.id, player.name)
        return self._draw(PLAYER, page_name("joueur", player.id), self.image(self.home_card, ""),
                          self._player_context(player, name))

    def _players_aside(self) -> PlayersPages | None:
        """A worker making players' pages beside this process, when the second core is free and
        enough of them are to be made (site/pages_aside.py), each page it is to make queued for it
        now; None: all made here, in turn (`_players`)."""
        if not self.draw_aside or self.home_card is None:
            return None
        previous = self.reuse.previous if self.reuse is not None else {}
        shown = [(f"{FOLDER}/{name}", player) for player in self.players.values() if (name := self.player_page(player.id))]
        if sum(1 for path, _ in shown if path not in previous) < pages_aside.PAGES:
            return None
        folder, order, blocked, archived = self._source
        aside = PlayersPages(pages_aside.Data(
            folder, order, self.league, blocked, dict(self.public.choices), archived, self.url, str(self.templates),
            self.home_card), lambda player: self.player_bytes(self.players[player]))
        aside.start()
        if aside.worker is None:  # it could not start: made here in turn
            return None
        tags = self.image(self.home_card, "")
        for path, player in shown:
            parts = self._parts(PLAYER, tags, self._player_source(player)[1])  # as `render_from` would
            key, found = self.reuse.lookup(path, parts) if self.reuse is not None else (None, MISSING)
            if found is MISSING:
                self._keys[path] = key
                aside.queue(path, player.id)
            else:
                self._taken.append((path, cast(bytes | None, found)))
        return aside

    def _players_made(self, aside: PlayersPages | None, finish: bool = False) -> Iterator[tuple[str, bytes | None]]:
        """The players' pages `aside` has made since the last call (with `finish`, all those left),
        recorded (site/reuse.py)."""
        if aside is None:
            return
        for path, data in aside.finish() if finish else aside.ready():
            key = self._keys.pop(path)
            yield path, self.reuse.made(path, key, data) if self.reuse is not None else data

    def _players(self, aside: PlayersPages | None) -> Iterator[tuple[str, bytes | None]]:
        """Every player's page shown: made here in turn, or, with `aside`, those taken from the last
        build, then the rest as this process and the worker make them."""
        if aside is None:
            for player in self.players.values():
                name = self.player_page(player.id)
                if name:
                    yield f"{FOLDER}/{name}", self.player(player)
                    yield from self._images()
            return
        taken, self._taken = self._taken, []
        yield from taken
        for page in self._players_made(aside, finish=True):
            yield page
            yield from self._images()

    def player_sections(self, player: Player, name: str) -> list[Section]:
        """A player's page's sections (site/player_page.py), made only when his page is rendered."""
        return self.player_pages.sections(player, name)

    def club(self, club: str) -> bytes | None:
        """A club's page, made only when what it is made from changed, as a tournament's (`event`):
        a setting or another day changes none, a new tournament of a circuit those of its players in
        none. Its source: the club (its title, its page's name), the players' public forms
        (`Public.digest`: names and whether each has a page), each section's circuit, its ranking
        record's digest (every row, so which are the club's; its columns, title, date) and what its
        table links (`table_links`), and the tournaments it lists (days, circuit, name, page). A
        record whose digest is unknown (an archived season's): its context is the source, as before."""
        sections = self.club_pages.sections(club)
        # its rows without the Club column, whose cells would each link to this very page
        table = functools.partial(self.table, club_column=False)
        digests = [circuit.digest(ranking) for circuit, ranking, _ in sections]
        if None in digests:
            return self.render("club.html.j2", self.club_page(club), **self.club_pages.club(club, table))
        source = (club, self.public.digest, self.club_pages.events(club),
                  [(circuit.title, digest, self.table_links(circuit, ranking))
                   for (circuit, ranking, _), digest in zip(sections, digests)])
        return self.render_from("club.html.j2", self.club_page(club), None, source,
                                lambda: self.club_pages.club(club, table))

    def search_index(self) -> bytes | None:
        """Players (those the site shows), clubs and tournaments, each with its page: a script the
        pages load (a fetch of a JSON file is refused to a page opened from the file system). Its
        entries are its source (site/reuse.py): the last build's file taken when they are the same
        (a setting, another day), each entry's search key and JSON made only when they are not.
        None when taken as it is on disk, unread (`Pages.page`)."""
        players = [(self.public.name(p.id, p.name), page) for p in self.players.values()
                   if (page := self.player_page(p.id))]
        clubs = [(club, self.club_page(club)) for club in self.club_pages.clubs]
        # a tournament with its day (« d »): the editions of one tournament share its name; its first
        # day (ISO) orders them
        events = [(shown_title(r), record_day(r), record_start(r), event_page_name(c, r))
                  for c in self.circuits for r in c.rankings if r["kind"] == "event"]

        def script() -> bytes:
            # The index's order is the order site.js lists results found alike (as near what is typed):
            # by name, « Toulouse » the club before « Tournoi de Tarbes »; a player before a club or a
            # tournament of the same name; a tournament's editions the latest first. (Sorted as JSON
            # text, every tournament came first, by the text of its day: « 10 octobre » before « 13 juin »,
            # and typing « tou » showed 15 tournaments and never the club of Toulouse.)
            # (its page last: two players of one name in a known order)
            entries = [((search_key(name), 0, 0, page), {"n": name, "t": "joueur", "u": page}) for name, page in players]
            entries += [((search_key(name), 1, 0, page), {"n": name, "t": "club", "u": page}) for name, page in clubs]
            entries += [((search_key(name), 2, -int(sort_key(start)), page), {"n": name, "t": "tournoi", "d": day, "u": page})
                        for name, day, start, page in events]
            lines = dict.fromkeys(json.dumps({**entry, "k": order[0]}, ensure_ascii=False, sort_keys=True)
                                  for order, entry in sorted(entries, key=lambda item: item[0]))
            # json.dumps leaves "</" as is: inside a script file it is plain text, never HTML.
            return ("window.RECHERCHE = [\n" + ",\n".join(lines) + "\n];\n").encode("utf-8")

        if self.reuse is None:
            return script()
        return self.reuse.page(f"{FOLDER}/{SEARCH}", (SEARCH, players, clubs, events), script)
