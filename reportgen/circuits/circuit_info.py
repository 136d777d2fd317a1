"""What a circuit declares about itself (its `info.py`), read by the registry and every layer above.

Plain data only, no import of the circuit's code: importing the registry loads no implementation.
A circuit's folder is a Python package (`package`) holding, by convention, `info.py` (its
`CircuitInfo`, `INFO`), `circuit.py` (its implementation, `CIRCUIT`, scored circuits), and when its
info says so `commands.py` (a typer `app`: `reportgen <slug> …`) and `template.py`
(`blank_workbook(clubs, club, day)`: `reportgen template <slug>`).
"""

from __future__ import annotations

from dataclasses import dataclass

SCORED = "scored"  # reportgen reads, scores and publishes its workbooks
PLANNED = "planned"  # its workbooks are recognised and set aside with a notice


@dataclass(frozen=True)
class CircuitInfo:
    slug: str  # CLI name, template folder, output folder, `Circuit` value of its workbooks
    title: str  # printed on bulletins
    regulation: str  # its file in docs/regulations/
    regulation_title: str  # as printed for the secretary
    status: str
    package: str  # its folder as a package: `__name__.rpartition(".")[0]` in its info.py
    fields: tuple[tuple[str, tuple[str, ...]], ...] = ()  # its `Tournoi` fields: key, the labels a club may write
    sheets: tuple[str, ...] = ()  # sheets only its workbooks have: a workbook without a readable `Circuit` is its
    templates: tuple[str, ...] = ()  # the templates its documents use, relative to the templates folder
    template_folder: str = ""  # a folder of its own templates, searched after templates/ (a plug-in's)
    requires: tuple[str, ...] = ()  # circuits whose rankings it reads (registered before it)
    needs_clubs: bool = False  # its workbooks name clubs: inputs/clubs.xlsx is then required
    previous_season: bool = False  # a season reads the one before: from the archive once it left inputs/
    # Its season's ranking is final once the season is closed (`Reading.season_closed`): a tournament
    # dated after the closing day is refused, and no season is closed before one (pipeline.closed_before).
    final_when_closed: bool = False
    commands: bool = False  # `commands.py` holds its extra commands: a typer app `app`, named after the circuit
    template: bool = False  # `template.py` writes the blank workbook a club fills in (`reportgen template`)
    ratings: bool = False  # it publishes rating lists (`reportgen ratings`; another circuit's is refused unread)
    # each of its events has standings of its own (`reportgen standings --event`; another circuit's events count
    # in its season's ranking: refused unread)
    event_rankings: bool = False
    # Its tournaments are played over weeks (a pool tournament online, round after round): one the
    # calendar announces is due once over, on the last day the calendar gives (its Fin column), not
    # on its first day (`reportgen remind`, delivery/remind.py).
    played_over_weeks: bool = False
    mail_ranking: str = ""  # the ScopeKind of the ranking a club's mail reports ("": its latest of any kind)
    mail_figure: str = ""  # the column a club's mail gives after each place ("": the ranking's first number)

    @property
    def implementation(self) -> str:
        """The module whose `CIRCUIT` implements it (a scored circuit)."""
        return f"{self.package}.circuit"

    @property
    def commands_module(self) -> str:
        return f"{self.package}.commands"

    @property
    def template_module(self) -> str:
        return f"{self.package}.template"
