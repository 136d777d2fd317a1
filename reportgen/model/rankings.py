"""Standings as every layer shares them: `Ranking`, its `Column`s, `RankingRow`s and `Status`; a
place's or a rating's `Move` since the previous ranking."""


from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum, StrEnum
from typing import Any, TypeVar

from reportgen.model.documents import MadeFrom


class Status(str, Enum):
    """How a ranking holds."""

    PROVISIONAL = "provisional"  # after some of the events of its scope
    FINAL = "final"  # its scope is over: the season's final ranking, an event's final standings
    RATING = "rating"  # a rating list, which never closes


class ScopeKind(StrEnum):
    """What a ranking ranks (the archive's `ranking.scope` holds the same words)."""

    SEASON = "season"  # a season of a circuit
    EVENT = "event"  # one event
    RATINGS = "ratings"  # a rating list


class Move(StrEnum):
    """How a player's place or rating changed since the previous ranking: the CSS class of an
    evolution cell, and what a screen reader says of it (templates/macros.html.j2)."""

    NEW = "new"
    UP = "up"
    DOWN = "down"
    SAME = "same"


def move(moved: float | None) -> Move:
    """A change's `Move`: places gained (+3: up), a rating's change (-4.2: down), none (same), or
    nothing known (None: a newcomer). One classification for the circuits' bulletins and the
    renderers' cells, which read theirs from its text first (french.moved)."""
    if moved is None:
        return Move.NEW
    return Move.UP if moved > 0 else Move.DOWN if moved < 0 else Move.SAME


@dataclass(frozen=True)
class Scope:
    """What a ranking ranks: a season of a circuit, one event, or a rating list."""

    kind: ScopeKind
    season: int
    event: str = ""  # the event's id when kind is EVENT
    name: str = ""  # the event's name as its `Tournoi` sheet gives it (`reportgen standings --event`)
    # The event's first day of play (its `Tournoi` Date), when its ranking's date may be a later day:
    # a pool tournament's ranking is dated as its last bulletin. The site names the event by its days
    # (site/data.py `ranking_record`'s `start`, site/days.py `record_days`).
    start: dt.date | None = None


Day = TypeVar("Day", dt.date, str)  # a date, or its ISO text (the site's records)


def played_days(start: Day | None, date: Day, over: bool) -> tuple[Day, Day]:
    """The first and last days an event ranking's tournament is named by, wherever it is named (the
    site's pages, lists, search and cards: site/days.py `record_days`; calendrier.ics). A tournament
    played over several days (`start`, its first day of play, before its ranking's `date`: a pool
    tournament's ranking is dated as its last bulletin, the day its final started once it is over)
    from its first day to that one once it is `over`; its first day alone while it runs (its last is
    not known yet). Any other, its date."""
    if not start or start >= date:
        return date, date
    return (start, date) if over else (start, start)


@dataclass(frozen=True)
class Column:
    """One column of a ranking: its key in CSV and JSON, its French header, how to show it."""

    key: str
    header: str  # in annexes and tables
    kind: str = "int"  # int | number | text | bool (« oui » or nothing) | evolution (+3, -2, 0, « nouveau »)
    width: float = 10  # in the annex, in characters
    short: str = ""  # in a bulletin's narrow table, when shorter than the header
    # A number's decimals wherever it is shown (french.column_value: bulletins, site, mails; the
    # annex, the published CSV): an Elo rating's one, a pool's average's three. None: shown as points
    # (« 1 086 », « 292,5 », « 2 323,75 »), in the annex too (render/excel.py `shown_decimals`).
    decimals: int | None = None
    # A score counted in halves (Tantrix games won, a draw ½), written as its bulletins write it:
    # « 2½ », « ½ » (french.column_value). The CSV and the annex keep the number (2.5).
    halves: bool = False
    # A difference shown with its sign, « +13 », « −4 », « 0 » (a Tantrix margin: french.column_value);
    # the published CSV writes it so in a number a spreadsheet reads (« -4 »: render/ranking.py). The
    # annex and the scripts' CSV and JSON keep the number.
    signed: bool = False
    # Words for some of its values, as its bulletins name them (a pool tournament's rounds: 2 is
    # « tour 2 », 3 « finale »): french.column_value writes the word; the CSV and the annex keep the
    # number, which sorts the site's column. Pairs (value, word); a JSON list of pairs read back
    # (the archive's columns) is made a tuple again.
    labels: tuple[tuple[Any, str], ...] = ()

    def __post_init__(self) -> None:
        if not isinstance(self.labels, tuple) or any(not isinstance(pair, tuple) for pair in self.labels):
            object.__setattr__(self, "labels", tuple(tuple(pair) for pair in self.labels))


# A season ranking starts with these; a circuit's columns follow (`points` and `played` first).
IDENTITY_COLUMNS = (Column("rank", "Place", width=7, short="Pl."), Column("player", "Joueur", "text", 28),
                    Column("licence", "Licence", "text"), Column("club", "Club", "text", 20))
# An event's standings or a rating list whose CSV form starts `rank, player` and then its own columns
# (Tantrix, pool tournaments: scripts read those exact forms); licence and club, if any, come after.
RANK_AND_PLAYER = IDENTITY_COLUMNS[:2]
LICENCE, CLUB = IDENTITY_COLUMNS[2:]
DECIDED_HEADER = "Départage"  # the tie-breaks that set a place (`RankingRow.decided_by`)
# Its annex column: « départagé aux TPs marqués entre eux » on one line in Excel too (232 px by
# XlsxWriter's table of Excel's widths: 30 characters, 215 px, wrapped it under a one-line row).
DECIDED_WIDTH = 34


def headings(columns: tuple[Column, ...]) -> dict[str, str]:
    """A ranking's column headings as a bulletin prints them (key -> short heading)."""
    return {column.key: column.short or column.header for column in IDENTITY_COLUMNS + columns}


@dataclass(frozen=True)
class RankingRow:
    rank: int
    player_id: str
    player: str
    licence: str
    club: str
    metrics: dict[str, Any]  # by column key: points, played, then the circuit's own
    tied: bool = False  # shares its rank: the tie-break chain left it level
    decided_by: tuple[str, ...] = ()  # the tie-breaks that set its place among equal points
    playoff: bool = False  # a tie the rules leave to a play-off (barrage) between the players
    # The player's results, best first, for a later countback (the Masters' qualification reads the
    # Grand Sud ranking's): never published (CSV, JSON and annexes show the columns only).
    results: tuple[int, ...] = ()
    # The tournament of each of `results` (its id), in the same order: the site's page of the player
    # names them (site/data.py `ranking_record`). Never published either.
    events: tuple[str, ...] = ()
    # Whether each of `results` counts in his points, as his circuit's scoring counted it (a Grand
    # Sud player's best ⌊T/2⌋: a 0 among them counts too), in the same order: what the site's pages
    # and a club's bulletin say counted. Empty when not known (never worked out again from the
    # points: a prefix of `results` adding up to them stops before a 0 that counts). Never published.
    counts: tuple[bool, ...] = ()

    def value(self, key: str) -> Any:
        return getattr(self, key) if key in ("rank", "player", "licence", "club") else self.metrics[key]


@dataclass(frozen=True)
class LeftOut:
    """A player of an event its ranking leaves out, and why, as its bulletin says it (a Tantrix
    player who lost more games by default than rule 7 allows): his page's line for the event says
    it (site/player_page.py), where a place would be."""

    player_id: str
    player: str
    why: str  # « hors classement : 3 parties perdues par forfait (règle 7) »


@dataclass(frozen=True)
class Legend:
    """What the pages showing a ranking say under its table, naming another ranking of the league
    that a column of it gives places in: `before`, that ranking's `title` (linked), `after`; `file`
    is its CSV, relative to outputs/, which the page links (the site, its public copy) and which
    `after` names for print. The Masters' « Classement annuel »: places in the Grand Sud ranking
    that qualifies its players, which the Grand Sud's latest dated bulletin is not."""

    before: str
    title: str
    after: str
    file: str

    @property
    def text(self) -> str:
        """As printed where nothing links (the terminal, a script's JSON): its file named by `after`,
        the title in « » as the pages quote it (templates/macros.html.j2 `cited`)."""
        return f"{self.before}« {self.title} »{self.after}"


def linked_legend(legend: Mapping[str, Any], link: str) -> dict[str, Any]:
    """A `Legend` as a dict (a document's context, a site record) linking `link` in place of its
    `file`, the public copy of that file, and naming it so in its text for print: the site's tables
    (site/pages.py `legend`) and a bulletin's public copy (site/public_copies.py `Masking`)."""
    whole = legend["file"]
    return {name: link if name == "file" else item.replace(whole, link) if isinstance(item, str) else item
            for name, item in legend.items()}


@dataclass(frozen=True)
class Ranking:
    """One published ranking: what it ranks, as of which date, how it holds, and its rows.

    Its columns feed the CSV, the JSON, the annex ranking sheet and `reportgen standings`."""

    path: str  # relative to the circuit's output folder, without extension
    scope: Scope
    date: dt.date  # as of: the last event it includes
    status: Status
    columns: tuple[Column, ...]  # after the identity columns
    rows: Sequence[RankingRow]  # a tuple, or a Deferred one (made when first read)
    in_force_from: dt.date | None = None  # when it starts to hold (default: its date)
    identity: tuple[Column, ...] = IDENTITY_COLUMNS  # the first columns (RANK_AND_PLAYER: then the circuit's)
    legend: Legend | None = None  # said under its table wherever it is shown
    left_out: tuple[LeftOut, ...] = ()  # an event's players it does not rank, and why (never in its CSV)
    # Where `rows` come from, when the circuit knows it (a Grand Sud ranking: its scoring's digest):
    # render/cache.py `ranking_key` then hashes that source, not every row. Checked by identity, as
    # a bulletin's: a copy with other rows (a public copy, names masked) is keyed by its rows.
    made_from: MadeFrom | None = field(default=None, compare=False, repr=False)

    @property
    def season(self) -> int:
        return self.scope.season

    @property
    def final(self) -> bool:
        return self.status is Status.FINAL

    @property
    def effective(self) -> dt.date:
        return self.in_force_from or self.date

    def days(self) -> tuple[dt.date, dt.date]:
        """The first and last days its event is named by (`played_days`); its date for any other."""
        return played_days(self.scope.start, self.date, self.final)

    @property
    def all_columns(self) -> tuple[Column, ...]:
        return self.identity + self.columns

    def records(self) -> list[dict[str, Any]]:
        """The rows as plain records, one key per column (CSV and JSON)."""
        return [{column.key: row.value(column.key) for column in self.all_columns} for row in self.rows]


def provisional_title(season: int) -> str:
    """A season's ranking while the season runs, published without a bulletin (its CSV and annex,
    `classement-provisoire-2026.csv`), on the site's pages and lines: a title that says why a
    player's place in it is not his place in the latest dated bulletin of the same day: it counts
    the year's tournaments only (Grand Sud §1), the dated ones a sliding window. An archived season's
    too, archived while it ran (delivery/site_archive.py)."""
    return f"Classement final provisoire de la saison {season} (tournois de {season} seulement)"


def published_title(ranking: Ranking, titles: Mapping[str, str]) -> str:
    """A ranking's title as its circuit lists it: its document's (`titles`: by path); a season's
    ranking published without one, `provisional_title` (the site; the Masters naming the Grand
    Sud ranking its places are in)."""
    found = titles.get(ranking.path, "")
    if found or ranking.scope.kind != ScopeKind.SEASON:
        return found
    return provisional_title(ranking.season)
