"""A club's page: its players' lines in each circuit's ranking in force, and the tournaments its
players played, each linked to its page; and the clubs that have one (every club a ranking names).
The rendering itself is `Site.club`'s (site/pages.py), which gives the tables (`Site.table`)."""

from __future__ import annotations

import functools
import operator
from collections.abc import Callable, Sequence
from typing import Any

from reportgen import french
from reportgen.site import lines as html_lines
from reportgen.site.days import record_day, record_start
from reportgen.site.sources import Circuit, shown_title

# a tournament in the clubs' lists: the date it sorts by, its days as shown (days.record_day), circuit, title, page
Event = tuple[str, str, str, str, str]
CLUB = operator.itemgetter("club")  # a ranking row's club
Table = Callable[[Circuit, dict[str, Any], Sequence[dict[str, Any]]], dict[str, Any]]  # `Site.table`


class ClubPages:
    """What the clubs' pages of one site share, each made once a site: the clubs, each circuit's
    ranking in force with its rows by club, the tournaments by club, and each tournament's item."""

    def __init__(self, circuits: Sequence[Circuit], event_page: Callable[[Circuit, dict[str, Any]], str],
                 season_page: Callable[[str, int], str]):
        self.circuits = circuits
        self.event_page = event_page  # a tournament's page (site/pages.py names it)
        self.season_page = season_page  # a circuit's season's page, by its slug and season (site/pages.py)
        self._items: dict[Event, str] = {}  # a tournament's in the clubs' lists (`_event_item`)
        self._events: dict[str, list[Event]] = {}  # each club's, sorted (`events`)

    @functools.cached_property
    def clubs(self) -> list[str]:
        """Every club a ranking names, sorted: each has its page and is in the search (once a build,
        not once for each: a scan of every ranking's every row, each a player's line, by `map`: at
        100x 1.6 million rows, where a comprehension's step per row was a third of the clubs' pages)."""
        named: set[str] = set()
        for circuit in self.circuits:
            for ranking in circuit.rankings:
                named.update(map(CLUB, ranking["rows"]))
        return sorted(club for club in named if club)

    @functools.cached_property
    def _by_club(self) -> tuple[list[tuple[Circuit, dict[str, Any], dict[str, list[dict[str, Any]]]]],
                                dict[str, set[Event]]]:
        """Once for every club page (not a scan of every ranking per club): each circuit's ranking
        in force with its rows by club, and the tournaments each club's players played (`Event`)."""
        headlines = []
        for circuit in self.circuits:
            seasons = circuit.seasons()
            ranking = circuit.headline(seasons[0]) if seasons else None
            if ranking:
                rows: dict[str, list[dict[str, Any]]] = {}
                for row in ranking["rows"]:
                    rows.setdefault(row["club"], []).append(row)
                headlines.append((circuit, ranking, rows))
        events: dict[str, set[Event]] = {}
        for c in self.circuits:
            for r in c.rankings:
                if r["kind"] == "event":
                    event = (record_start(r), record_day(r), c.title, shown_title(r), self.event_page(c, r))
                    for club in {row["club"] for row in r["rows"]}:
                        events.setdefault(club, set()).add(event)
        return headlines, events

    def sections(self, club: str) -> list[tuple[Circuit, dict[str, Any], list[dict[str, Any]]]]:
        """A club's sections: each circuit's ranking in force where its players are, with their rows."""
        return [(circuit, ranking, rows[club]) for circuit, ranking, rows in self._by_club[0] if rows.get(club)]

    def events(self, club: str) -> list[Event]:
        """The tournaments a club's players played, the latest first, as its page lists them: sorted
        once, for its page's source and, when made, its list (at 100x, 1,200 a club)."""
        found = self._events.get(club)
        if found is None:
            found = self._events[club] = sorted(self._by_club[1].get(club, ()), reverse=True)
        return found

    def club(self, club: str, table: Table) -> dict[str, Any]:
        """A club's page as its template draws it: its players' rows in each ranking in force, as
        `table` makes them, and the tournaments they played."""
        # each with its season's page, its whole ranking and its bulletins (the PDF a club prints), as
        # the home page links them: a club's page linked none
        sections = [{"circuit": circuit.title, "table": table(circuit, ranking, rows), "season": ranking["season"],
                     "season_url": self.season_page(circuit.slug, ranking["season"])}
                    for circuit, ranking, rows in self.sections(club)]
        # the tournaments its players played, with their pages (and through them, their bulletins)
        return {"title": french.club_title(club), "sections": sections,
                "events": html_lines.table_body(self._event_item(event) for event in self.events(club)),
                "description": f"Les joueurs {french.of_club(club)}"}

    def _event_item(self, event: Event) -> str:
        """A tournament's item in the clubs' lists (`_by_club`'s), made once a site."""
        found = self._items.get(event)
        if found is None:
            _, day, circuit, name, url = event
            found = self._items[event] = html_lines.event_item(day, circuit, name, url)
        return found
