"""A player's page: his lines in every circuit's rankings, a section per circuit and season (each
line's place, main value and club, his latest results, his places and his rating as charts), and
what the page is made from (`PlayerPages.source`), so that a build takes the last one unchanged
before making its sections (site/reuse.py). The rendering itself is `Site.player`'s (site/pages.py)."""

from __future__ import annotations

import functools
import hashlib
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from markupsafe import Markup

from reportgen import french
from reportgen.site import figures
from reportgen.site import lines as html_lines
from reportgen.site.chart import places_svg
from reportgen.site.days import long_day, record_day, record_start, sort_key
from reportgen.site.privacy import Public
from reportgen.site.sources import Circuit, Entry, Player, shown_title

KINDS = {"season": "Classement", "ratings": "Classement Elo", "event": "Tournoi"}
# A result's tournament as its row shows it (`PlayerPages.results`): the key its date sorts by, its
# date, its name, its page (None: none).
Tournament = tuple[str, str, str, str | None]
UNKNOWN: Tournament = ("", "", "—", None)


def place(row: dict[str, Any]) -> str:
    """« 3 », « 3= » when shared, nothing when the tournament's sheet gives no place."""
    return "" if row["rank"] is None else french.shared_place(row["rank"], row["tied"])


def left_out_row(out: dict[str, Any]) -> dict[str, Any]:
    """A player an event's ranking leaves out (its record's `left_out`: a Tantrix player after rule 7)
    as a row of it for his page alone: no place, no value, why in their stead (`PlayerPages.sections`).
    Never one of the ranking's own rows: its tables and search list its ranked players only."""
    return {"rank": None, "tied": False, "id": out["id"], "player": out["player"], "club": "", "values": {},
            "why": out["why"]}


NOT_COUNTED = "ne compte pas"  # a player's line for a tournament whose page says it counts for nothing


def labelled(row: dict[str, Any], key: str | None, label: str) -> str:
    """A line's main value after its column's name, « Total : 1 445 » (French typing: a no-break
    space before the colon, and after it: « Total : » alone on a line over « 1 445 » in the narrow
    column a desktop gives it): the value first read « 1 445 Total ». A value that names itself
    (`label` empty: `main_label`) alone, as a sentence starts, « Finale », « Tour 2 », where « Tour :
    finale » and « Tour : tour 2 » read the round twice. Nothing when the ranking has no such column
    or the row no value."""
    value = row["values"].get(key, "") if key is not None else ""
    if value == "":
        return ""
    return f"{label}\u00a0:\u00a0{value}" if label else value[:1].upper() + value[1:]


def main_column(ranking: dict[str, Any]) -> dict[str, Any] | None:
    """The column of a ranking's main value (its first but the club), which a player's line and a
    card's line give after its name (`labelled`); None when it has none."""
    return next((c for c in ranking["columns"] if c["key"] != "club"), None)


def main_label(column: dict[str, Any] | None) -> str:
    """What a line says before its main value (`labelled`): its column's short name, or nothing when
    its values name themselves in words (a pool tournament's round reached: site/data.py
    `column_record`'s `words`)."""
    return "" if column is None or column.get("words") else column["short"]


def public_name(public: Public, row: dict[str, Any]) -> str:
    """A ranking row's player as the site may show him (site/privacy.py)."""
    return public.name(row["id"], row["player"])


def _in_order(entry: Entry) -> tuple[str, str]:
    """A season's lines in date order, as the site dates them (`record_start`; then by path: two
    rankings of one day)."""
    return record_start(entry.ranking), entry.ranking["path"]


def _one_series(places: list[tuple[str, Any, bool]]) -> list[tuple[str, Any]]:
    """A season's places date by date (its chart and the table under it): its dated rankings, a
    final ranking only on a date none has. The Grand Sud's final ranking counts the year's
    tournaments alone, where the dated ones count a window across two years: drawn beside the
    dated ranking of its day, the line would show a move that never happened."""
    dated = {day for day, _, final in places if not final}
    return [(day, rank) for day, rank, final in places if not final or day not in dated]


def _shadowed(circuit: Circuit, entries: list[Entry]) -> set[str]:
    """The paths of the season's rankings a player's lines leave out: its final ranking published without
    a bulletin while the season runs (`model.provisional_title`, « Classement final provisoire … »:
    its CSV and annex only) on the day of a dated ranking he is in. While a season runs its ranking
    « à date » is its latest dated bulletin (one document per ranking): the line without a link
    beside it, the year's tournaments alone against a window across two years, read as two places
    on one day (3rd beside 8th, the same total). His results of the season still come from it, and
    the places charted leave it out alike (`_one_series`)."""
    dated = {e.ranking["date"] for e in entries if e.ranking["kind"] == "season" and e.ranking.get("status") != "final"}
    return {e.ranking["path"] for e in entries
            if e.ranking["kind"] == "season" and e.ranking.get("status") == "final"
            and e.ranking["date"] in dated and circuit.bulletin(e.ranking["path"]) is None}


def root_of(path: str | None) -> str | None:
    """A path relative to outputs/ as a page of outputs/site/ links it."""
    return f"../{path}" if path else None


@dataclass(slots=True)  # not frozen: a frozen one's __init__ sets each field through object.__setattr__
class Section:
    """A circuit's season on a player's page, as templates/site/player.html.j2 prints it (`PlayerPages.sections`).
    Attributes, not a dict's keys: Jinja looks a name up as an attribute first, and a dict's raised
    an exception each time before its key was found (at 100x, 300,000 times: a tenth of the
    pages' rendering)."""

    circuit: str
    season: int
    clubs: bool  # whether his lines have a « Club » column (`clubs_column`)
    hidden: Markup  # that a phone hides that column (site/lines.py), or nothing: they have none
    places: Markup  # the rows of the table under his places' chart
    lines: Markup  # his lines, one per dated ranking
    results: Markup  # the rows of his latest results
    results_title: str  # the ranking they are from
    chart: str  # his places' chart (SVG), or nothing
    rating: dict[str, Any] | None  # his rating's chart (site/figures.py `values`), or None


class PlayerPages:
    """What the players' pages of one site share: each ranking's start of a line and digest,
    made once per ranking, not once per player (a ranking of the season is on the page of each
    of its players); kept by id() of a ranking record, which `circuits` holds for the site's life."""

    def __init__(self, circuits: Sequence[Circuit], event_page: Callable[[Circuit, dict[str, Any]], str]):
        self.circuits = circuits
        self.event_page = event_page  # a tournament's page (site/pages.py names it)
        self._order = tuple(c.slug for c in circuits)  # a player's page shows them in this order
        self._lines: dict[int, tuple[str, dict[str, Any] | None]] = {}
        self._shapes: dict[int, tuple[str, str | None, str, str, str]] = {}
        self._named: dict[int, list[Tournament]] = {}  # by id() of a ranking record (`tournaments`)
        self._events: dict[str, dict[str, dict[str, Any]]] = {}  # by circuit slug (`_event_records`)

    def source(self, player: Player, name: str) -> tuple[object, ...]:
        """All a player's page is made from: his public name, the circuits' order, and for each of
        his lines, what the page reads of its ranking (`ranking_source`) and his row (his place,
        values, club, results): its index in a ranking whose record's digest is known (that
        digest, in the ranking's source, says every row), else the row as it is."""
        # A listcomp with dict and set lookups per line, not a call: at 100x, 425,000 lines for
        # 17,000 pages, most of them unchanged and taken once this key is found the same (site/reuse.py).
        # An index pickles in a few bytes where a row pickles its values and results: a quarter of
        # the keys' cost (nineteenth round).
        sources, described = self._ranking_sources, self._described
        return (name, self._order, [(sources[id(e.ranking)], e.index if id(e.ranking) in described else e.row)
                                    for e in player.entries])

    @functools.cached_property
    def _ranking_sources(self) -> dict[int, str]:
        """Every ranking's `ranking_source`, by id(): made at once for the players' keys."""
        return {id(ranking): self.ranking_source(circuit, ranking)
                for circuit in self.circuits for ranking in circuit.rankings}

    @functools.cached_property
    def _described(self) -> frozenset[int]:
        """id() of the rankings whose record's digest is known (sources.Circuit `digest`)."""
        return frozenset(id(ranking) for circuit in self.circuits for ranking in circuit.rankings
                         if circuit.digest(ranking) is not None)

    def ranking_source(self, circuit: Circuit, ranking: dict[str, Any]) -> str:
        """A digest of what a player's page reads of a ranking besides his row (its circuit's title,
        its line's start with its date, kind, title and link, its main column, season, date, path
        and title) and, when known, the digest of the whole record (every row), so that a player's
        source holds a short string per line: made once per ranking (`_ranking_sources`)."""
        return hashlib.sha256(json.dumps(
            [circuit.title, *self.ranking_line(circuit, ranking), ranking["kind"], ranking["season"],
             ranking["date"], ranking["path"], ranking["title"], circuit.digest(ranking),
             self.tournaments(circuit, ranking)],
            ensure_ascii=False, sort_keys=True).encode("utf-8")).hexdigest()

    @staticmethod
    def club(player: Player) -> str:
        """His club as his latest line names it (the club he last played for: a ranking's row), or
        nothing when none does (a circuit whose sheets name no club)."""
        named = [(e.ranking["date"] or "", e.row["club"]) for e in player.entries if e.row["club"]]
        return max(named, key=lambda found: found[0])[1] if named else ""

    @staticmethod
    def clubs_column(player: Player) -> bool:
        """Whether his lines have a « Club » column, in every section of his page alike: only when
        they name more than one club (he played for another club, in a season or a circuit), each
        line then saying which. One club is said once, under his name (`club`), none is not known:
        no column. It followed each section's lines, a column of one club repeated in one circuit
        and none in another, and its header followed the phone's notice of it."""
        return len({e.row["club"] for e in player.entries if e.row["club"]}) > 1

    def sections(self, player: Player, name: str) -> list[Section]:
        """A player's page's sections: a circuit's season each, its lines, results and charts. Per
        line, only what is his (place, value, club): the rest made once per ranking (`_shape`)."""
        sections = []
        clubs = self.clubs_column(player)
        for circuit in self.circuits:
            seasons: dict[int, list[Entry]] = {}
            for e in player.entries:
                if e.circuit is circuit:
                    seasons.setdefault(e.ranking["season"], []).append(e)
            for season in sorted(seasons, reverse=True):
                entries = sorted(seasons[season], key=_in_order)
                shadowed = _shadowed(circuit, entries)
                lines, places, ratings, latest = [], [], [], None
                for e in entries:
                    row = e.row
                    start, key, short, kind, day = self._shape(circuit, e.ranking)
                    # a tournament that counts for nothing (its page's note: a Grand Sud tournament hors
                    # circuit, a Tour de France one under its minimum) says so, not an empty result
                    # a player the event's ranking leaves out says why (`left_out_row`)
                    result = labelled(row, key, short) or row.get("why") or (NOT_COUNTED if e.ranking.get("note") else "")
                    if e.ranking["path"] not in shadowed:
                        lines.append(html_lines.line(start, place(row), result,
                                                     row["club"] if clubs else None))
                    if kind == "season":
                        places.append((day, row["rank"], e.ranking.get("status") == "final"))
                        if row.get("results"):
                            latest = e
                    elif kind == "ratings":
                        shown = row["values"].get("rating", "")
                        if (rating := figures.number(shown)) is not None:
                            ratings.append((e.ranking["date"], rating, shown))
                series = _one_series(places)
                sections.append(Section(
                    circuit.title, season, clubs, html_lines.hidden_columns(("Club",) if clubs else ()),
                    places=html_lines.places(series), lines=html_lines.table_body(lines),
                    results=html_lines.results(self.results(circuit, latest) if latest else ()),
                    results_title=latest.ranking["title"] if latest else "",
                    chart=places_svg(series, f"Place {french.of_person(name)} au fil de la saison {season}")
                    if len(series) > 1 else "",
                    rating=figures.values(ratings, f"Classement Elo {french.of_person(name)}, saison {season}",
                                          "Classement Elo", Markup(f"Classement Elo {french.de_before(name)}"
                                                                   f"{html_lines.player_name(name)}, saison {season}"))))
        return sections

    def results(self, circuit: Circuit, entry: Entry) -> list[tuple[Any, ...]]:
        """A player's results in a ranking, each with its tournament (`tournaments`) before its points
        and whether it counts, in the order the bulletin's columns list them: by date, then by
        tournament id (its record's `events` are sorted so); a result whose tournament is not known
        (a `site.json` written before results named theirs) last."""
        named = self.tournaments(circuit, entry.ranking)
        found = []
        for points, counted, *where in entry.row["results"]:
            index = where[0] if where and 0 <= where[0] < len(named) else -1
            found.append((named[index] if index >= 0 else UNKNOWN, index, points, counted))
        # a stable sort: the results of unknown tournaments in site.json's order, best first
        found.sort(key=lambda result: (True,) if result[0] is UNKNOWN else (False, result[0][0], result[1]))
        return [(*tournament, points, counted) for tournament, _, points, counted in found]

    def tournaments(self, circuit: Circuit, ranking: dict[str, Any]) -> list[Tournament]:
        """The tournaments a ranking's results name by index (its record's `events`, site/data.py
        `ranking_record`) as its players' results show them, once per ranking; a player's page is
        made from them too (`ranking_source`: a tournament renamed changes the pages that name it)."""
        found = self._named.get(id(ranking))
        if found is None:
            records = self._event_records(circuit)
            found = self._named[id(ranking)] = [self._tournament(circuit, records.get(event))
                                                for event in ranking.get("events", ())]
        return found

    def _tournament(self, circuit: Circuit, record: dict[str, Any] | None) -> Tournament:
        """A tournament as a row of results shows it: the key its date sorts by (« 20260314 »), its
        date, its name, its page; unknown when the site has no record of it."""
        if record is None:
            return UNKNOWN
        return (sort_key(record_start(record)), record_day(record), shown_title(record),
                self.event_page(circuit, record))

    def _event_records(self, circuit: Circuit) -> dict[str, dict[str, Any]]:
        """A circuit's tournaments' records (each has its page) by tournament id, once per circuit."""
        found = self._events.get(circuit.slug)
        if found is None:
            found = self._events[circuit.slug] = {r["event"]: r for r in circuit.rankings if r["kind"] == "event"}
        return found

    def _shape(self, circuit: Circuit, ranking: dict[str, Any]) -> tuple[str, str | None, str, str, str]:
        """What every player's line of one ranking shares, once per ranking: its line's start
        (`ranking_line`), its main column's key and short label, its kind, its date."""
        found = self._shapes.get(id(ranking))
        if found is None:
            start, value = self.ranking_line(circuit, ranking)
            found = self._shapes[id(ranking)] = (start, value["key"] if value else None, main_label(value),
                                                 ranking["kind"], long_day(ranking["date"]))
        return found

    def ranking_line(self, circuit: Circuit, ranking: dict[str, Any]) -> tuple[str, dict[str, Any] | None]:
        """What every player's line of one ranking shares (its date, kind, title, link: the start of
        its HTML, site/lines.py) and the column of its main value: once per ranking, not once per
        player (a ranking of the season is on the page of each of its players)."""
        found = self._lines.get(id(ranking))
        if found is None:
            found = self._lines[id(ranking)] = (
                html_lines.head(record_day(ranking), KINDS.get(ranking["kind"], ""),
                                shown_title(ranking),
                                self.event_page(circuit, ranking) if ranking["kind"] == "event"
                                else root_of(circuit.bulletin(ranking["path"])), sort_key(record_start(ranking))),
                main_column(ranking))
        return found
