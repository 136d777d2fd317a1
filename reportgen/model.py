"""The types every layer shares: where a value comes from, what is wrong with it, the events the
circuits parse, the documents, annexes and standings they describe.

This module imports nothing of reportgen's: `ingest`, `scoring`, `circuits` and `render` all
build on it (docs/architecture.md, "Layers").
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar


def column_letter(index: int) -> str:
    """0-based column index -> Excel letters (0 -> A, 27 -> AB)."""
    letters = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        letters = chr(65 + rest) + letters
    return letters


def cell_name(row: int, col: int) -> str:
    """0-based row and column -> an Excel cell name (0, 1 -> B1)."""
    return f"{column_letter(col)}{row + 1}"


@dataclass(frozen=True, order=True)
class SourceRef:
    """Where a value comes from: file (relative to inputs/), sheet, cell, column header."""

    path: str
    sheet: str | None = None
    cell: str | None = None
    column: str | None = None

    def __str__(self) -> str:
        text = self.path
        if self.sheet is not None:
            text += f":'{self.sheet}'"
            if self.cell:
                text += f"!{self.cell}"
        if self.column:
            text += f' (colonne "{self.column}")'
        return text


@dataclass(frozen=True, order=True)
class Problem:
    """One thing wrong with the inputs, in words a secretary understands."""

    where: SourceRef
    message: str
    fix: str = ""
    code: str = field(default="invalid", compare=False)

    def __str__(self) -> str:
        text = f"{self.where} : {self.message}"
        if self.fix:
            text += f" — {self.fix}"
        return text


class ReportgenError(Exception):
    """An error the user can act on; the CLI prints it without a traceback."""


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

    @property
    def entries(self) -> list[Entry]:
        return [row.entry for row in self.results]


@dataclass(frozen=True)
class Document:
    """A bulletin: rendered to HTML and PDF from one template."""

    path: str  # relative to the circuit's output folder, without extension
    template: str  # relative to templates/
    title: str
    date: dt.date  # the date the document speaks of (PDF metadata; no clock in outputs)
    context: dict[str, Any]
    season: int = 0  # groups documents in the outputs index


@dataclass(frozen=True)
class AnnexColumn:
    header: str
    kind: str = "text"  # text | int | number | date | auto (each value as its type; text stays text)
    width: float = 12


@dataclass(frozen=True)
class WholeNumberRule:
    """Data validation on a block of cells (0-based, inclusive): a whole number in a range."""

    first_row: int
    first_col: int
    last_row: int
    last_col: int
    minimum: int
    maximum: int
    message: str


@dataclass(frozen=True)
class AnnexSheet:
    name: str
    columns: list[AnnexColumn]
    rows: list[list[Any]]
    rules: list[WholeNumberRule] = field(default_factory=list)


@dataclass(frozen=True)
class Annex:
    """An Excel workbook of tables."""

    path: str  # relative to the circuit's output folder, without extension
    title: str
    date: dt.date
    sheets: list[AnnexSheet]
    season: int = 0


@dataclass(frozen=True)
class Standings:
    """One ranking, as `reportgen standings` prints it (and the build writes as CSV)."""

    path: str  # relative to the circuit's output folder, without extension
    season: int
    date: dt.date  # the last tournament date it includes
    final: bool
    columns: list[str]  # rank, player, licence, club, points, played, then the circuit's own
    rows: list[dict[str, Any]]  # may hold more keys than the columns (player_id)


@dataclass
class Report:
    documents: list[Document] = field(default_factory=list)
    annexes: list[Annex] = field(default_factory=list)
    standings: list[Standings] = field(default_factory=list)
    # Problems only the whole league shows (a Masters pairing against the final ranking...):
    # any of them blocks the circuit like a problem of its inputs.
    problems: list[Problem] = field(default_factory=list)
