"""What the circuits parse: a tournament's `Event`, its `Entry`s and `ResultRow`s."""


from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from reportgen.model.cells import SourceRef


@dataclass(frozen=True)
class Entry:
    """A player as a results row names him."""

    licence: str
    last_name: str
    first_name: str


@dataclass(frozen=True, kw_only=True)
class ResultRow:
    """One results row of a tournament workbook: the player it names and where it was typed.

    Each circuit subclasses it with its own typed fields (place, excluded...), which become the
    columns of its results table; fields named `*_ref` locate a value and stay out of the table.
    """

    entry: Entry
    ref: SourceRef  # the row's name cell
    club: str = ""  # the player's club as typed ("" when the sheet has no club column)
    club_ref: SourceRef | None = None  # its cell
    # The row's licence cell; None when the sheet has no licence column (then no message asks to
    # correct a licence).
    licence_ref: SourceRef | None = None


Content = TypeVar("Content")


@dataclass
class Event(Generic[Content]):
    """One tournament workbook, validated: its common fields, the circuit's own typed content
    (`Tournoi` fields, matches...), and the results rows that name players (none for a circuit
    whose players come from elsewhere, such as the Masters)."""

    id: str  # the workbook's path relative to inputs/
    name: str
    date: dt.date
    content: Content
    results: Sequence[ResultRow] = ()
    # People the workbook lists beside its results, with no result of their own (a Tantrix entrant
    # of `Inscrits` who played no game): in no results table, but asked about as probable
    # duplicates like every player (INTERPRETATIONS.md, « who is who »).
    listed: Sequence[ResultRow] = ()

    @property
    def entries(self) -> list[Entry]:
        return [row.entry for row in self.results]


def place_number(value: object) -> int | None:
    """A results table's place as a number, None for a row without one. A column where a row has no
    place (a Tour de France player out of the ranking) holds pandas' missing value (NaN) there and
    the other places as floats (4.0): a place is read the same either way."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return None
