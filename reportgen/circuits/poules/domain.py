"""What a pool tournament workbook holds, once read: registrants, games, forfeits, and the raw
sheets `poules next` copies back when it appends a round."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from functools import cached_property

from reportgen.circuits.poules.structure import PoolNames
from reportgen.model import Event, SourceRef

MAIN, BARRAGE = "principale", "barrage"  # the two phases of a round (Art. IV, Art. IX)

# A result as half points (White, Black): a win 1, a draw ½, a loss 0 (Art. IV), kept whole.
RESULTS = {"1-0": (2, 0), "0-1": (0, 2), "½-½": (1, 1)}


@dataclass(frozen=True)
class Registrant:
    key: str  # name key: accents, case and word order aside
    name: str  # NOM Prénom, as printed
    ron: float  # RON points when the tournament starts (Art. III, round 1 seeding)
    registered: dt.datetime  # registration time (« horodate »)
    order: int  # 0-based registration order: time, then row
    email: str
    ref: SourceRef  # his `Joueur` cell in `Inscrits`


@dataclass(frozen=True)
class Game:
    """One row of `Parties`."""

    round: int
    pool: int  # 0-based pool index (A = 1 = 0)
    white: str  # registrant keys
    black: str
    result: str | None  # "1-0", "0-1", "½-½"; None: not played yet
    phase: str  # MAIN or BARRAGE
    launched: dt.date | None  # `Lancement`: the day the game was started
    row: int  # 0-based row of the sheet
    cells: dict[str, SourceRef] = field(compare=False, hash=False)  # column key -> cell

    def half_points(self, player: str) -> int:
        """His points in this game, in halves (None result: 0)."""
        if self.result is None:
            return 0
        white, black = RESULTS[self.result]
        return white if player == self.white else black

    def has(self, player: str) -> bool:
        return player in (self.white, self.black)


@dataclass(frozen=True)
class Forfeit:
    """One row of `Forfaits`."""

    player: str  # registrant key
    round: int
    sanction: bool  # for fraud or anti-game (Art. XI: RON points only; shown, nothing else)
    rehabilitated: bool  # `Réhabilité` = oui: he gets his results back (Art. XI)
    day: dt.date | None  # when it was pronounced (optional `Date` column)
    ref: SourceRef  # his `Joueur` cell
    round_ref: SourceRef


@dataclass(frozen=True)
class RawSheet:
    name: str
    rows: tuple[tuple[object, ...], ...]  # as read, "" for an empty cell


@dataclass(frozen=True)
class Layout:
    """The workbook as read, so that `poules next` can propose it with rows appended (and check
    that no typed value is lost), and append them in the sheet's own columns."""

    sheets: tuple[RawSheet, ...]
    games_sheet: str  # the name of the `Parties` sheet ("" when absent)
    header_row: int  # of `Parties`
    columns: dict[str, int]  # column key -> 0-based column of `Parties`
    games_end: int  # the first row after everything written in `Parties`


@dataclass(frozen=True)
class PoulesTournament:
    """A pool tournament workbook, validated cell by cell (the rounds are checked when replayed)."""

    location: str
    registrants: tuple[Registrant, ...]  # in registration order
    games: tuple[Game, ...]
    forfeits: tuple[Forfeit, ...]
    layout: Layout
    pool_names: PoolNames  # how `Parties` names its pools: every output names them so (issue 22)

    @cached_property
    def by_key(self) -> dict[str, Registrant]:
        return {r.key: r for r in self.registrants}


PoulesEvent = Event[PoulesTournament]
