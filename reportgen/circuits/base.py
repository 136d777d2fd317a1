"""What a circuit is: one module that parses its workbooks and scores them into plain data.

Circuits never import a renderer (openpyxl, jinja2, weasyprint): they describe documents and
annex sheets as plain data (`reportgen.model`), and reportgen.render turns those into files.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any, Protocol

import pandas as pd

from reportgen.circuits import CircuitInfo
from reportgen.ingest.directories import ClubDirectory
from reportgen.ingest.tournament import TournamentSheet
from reportgen.ingest.workbook import Workbook
from reportgen.model import Event, Problem, Report


@dataclass(frozen=True)
class Reading:
    """What a circuit may consult besides its own workbooks."""

    clubs: ClubDirectory
    today: dt.date  # dates after it are refused; never printed (outputs come from the inputs)
    league: str = ""  # the league's name, printed on bulletins
    closed: dict[int, dt.date] = field(default_factory=dict)  # seasons the secretary closed early

    def season_closed(self, season: int) -> bool:
        """Over: its year is, or the secretary closed it (`reportgen season close`)."""
        return season in self.closed or self.today.year > season


class Circuit(Protocol):
    """A scored circuit's implementation; what it is (name, regulation, fields...) is its
    registry entry, `info`."""

    info: CircuitInfo
    Settings: type  # frozen dataclass; defaults follow INTERPRETATIONS.md

    # The workbook's event, or None when what it adds to `problems` blocks (problems.py `blocking`):
    # a warning alone (`Table.read_name`'s empty Prénom) is said and the workbook read all the same.
    def parse(self, workbook: Workbook, sheet: TournamentSheet, reading: Reading,
              problems: list[Problem]) -> Event | None: ...

    def score(self, results: pd.DataFrame, events: list[Event], settings: Any,
              reading: Reading, upstream: dict[str, Report]) -> Report: ...


# A circuit may also say when two events are the same tournament whatever their cells (the Grand
# Sud: the same club, date and series), as `edition(event) -> (key, words)`: two workbooks with
# the same key are one problem (pipeline.load). Workbooks with the same cells always are.
# It may say whose tournament an event is, as `organiser(event) -> Club` (the Grand Sud: its `Club`
# field): `reportgen inbox` holds for the secretary a workbook that another club sends.
# It may also give its part of a club's own bulletin, as `club_sections(season, rankings, reports,
# member) -> tuple[ClubSection, ...]` (the Masters: the race to its 16th place); without it, the
# club's players in the ranking its message reports (circuits/club_sections.py, `default_sections`).
# It may say the places of a tournament the league's database archived with other places than its
# parse now gives, as `archived_places(fields) -> places` (each results row's `fields` in line
# order: the Tour de France, whose archives before the database's schema 6 hold the places typed,
# a player « hors classement » included): opening such a database puts them right (delivery/database.py).
