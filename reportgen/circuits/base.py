"""What a circuit is: one module that parses its workbooks and scores them into plain data.

Circuits never import a renderer (openpyxl, jinja2, weasyprint): they describe documents and
annex sheets as plain data, and reportgen.render turns those into files.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any, Protocol

import pandas as pd

from reportgen.errors import Problem
from reportgen.ingest.directories import ClubDirectory
from reportgen.ingest.players import Entry
from reportgen.ingest.tournament import TournamentSheet
from reportgen.ingest.workbook import Workbook


@dataclass(frozen=True)
class Reading:
    """What a circuit may consult besides its own workbooks."""

    clubs: ClubDirectory
    today: dt.date  # dates after it are refused; never printed (outputs come from the inputs)
    league: str = ""  # the league's name, printed on bulletins


@dataclass
class Event:
    """One tournament workbook, validated. `entries[i]` names the player of `rows[i]`."""

    id: str  # the workbook's path relative to inputs/
    name: str
    date: dt.date
    entries: list[Entry]
    rows: list[dict[str, Any]]  # circuit fields of each results row, plus "ref" (SourceRef)
    info: dict[str, Any] = field(default_factory=dict)  # circuit fields of the Tournoi sheet


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


class Circuit(Protocol):
    slug: str  # CLI name, template folder, output folder
    title: str  # printed on bulletins
    regulation: str  # file and title of the regulation
    Settings: type  # frozen dataclass; defaults follow INTERPRETATIONS.md
    requires: tuple[str, ...]  # circuits whose reports this one reads (listed before it)
    needs_clubs: bool  # its workbooks name clubs: inputs/clubs.xlsx is then required

    def parse(self, workbook: Workbook, sheet: TournamentSheet, reading: Reading,
              problems: list[Problem]) -> Event | None: ...

    def score(self, results: pd.DataFrame, events: list[Event], settings: Any,
              reading: Reading, upstream: dict[str, Report]) -> Report: ...
