"""What a circuit's scoring returns (`Report`) and what a long task tells as it goes (`Progress`)."""


from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from reportgen.model.cells import Problem
from reportgen.model.documents import Annex, Document, Message
from reportgen.model.rankings import Column, Ranking


@dataclass(frozen=True)
class ResultColumn:
    """A column a circuit adds to a tournament's results table on the site's page of it (site/data.py
    `EventRecord`): what each result earned there (a Grand Sud tournament's points). Its `column`
    says its key, French header and how its values are written (french.column_value); `values`
    are by player id, a player it lacks shows nothing."""

    column: Column
    values: Mapping[str, Any]


@dataclass
class Report:
    documents: list[Document] = field(default_factory=list)
    annexes: list[Annex] = field(default_factory=list)
    rankings: list[Ranking] = field(default_factory=list)
    messages: list[Message] = field(default_factory=list)
    # What the secretary should know without it blocking anything (said in the terminal).
    notices: list[str] = field(default_factory=list)
    # Problems only the whole league shows (a Masters pairing against the final ranking...):
    # any of them blocks the circuit like a problem of its inputs.
    problems: list[Problem] = field(default_factory=list)
    # Why a tournament counts for no ranking, by its event id: a sentence in French, said on its
    # site page (a Grand Sud tournament of a club outside its départements, a Tour de France one under
    # its minimum of participants); its players' lines say « ne compte pas » (site/player_page.py).
    # The site reads it from the circuit's `site.json` (site/data.py `EventRecord`).
    event_notes: dict[str, str] = field(default_factory=dict)
    # The columns the site's page of a tournament adds to its results (Place, Joueur, Club), by its
    # event id, in their order (the first is the one a phone shows): what each player earned there,
    # the Grand Sud's points. A tournament absent has none (every tournament of a circuit that gives
    # none: its pages as they were).
    event_columns: dict[str, tuple[ResultColumn, ...]] = field(default_factory=dict)
    # What a tournament replaces besides an earlier version of its own workbook, by its event id: a
    # sentence in French, to the club that sent it (the Grand Sud: « remplace le tournoi « … » du 14
    # mars 2026, deuxième tournoi de la série … (§1) … », as its notice says it to the secretary).
    # `reportgen inbox` says it on its line and in its answer (delivery/inbox_filing.py `Verdict.notes`).
    replaces: dict[str, str] = field(default_factory=dict)
    # What a tournament played over weeks and not over still awaits, by its event id: a clause in
    # French (a pool tournament: « le tour 3 reste à jouer »), said once its calendar's Fin is past
    # by the build's note and its club's reminder (pipeline/calendar.py `PlayedDays`). A tournament
    # absent awaits nothing it can say (over, or cancelled).
    pending: dict[str, str] = field(default_factory=dict)
    # The tournaments its workbook shows cancelled, by event id (a pool tournament left with 2
    # players not forfeit, Art. XI, until one is rehabilitated): the calendar says them « annulé »,
    # awaiting nothing (pipeline/calendar.py `PlayedDays`).
    cancelled: set[str] = field(default_factory=set)


class Progress(Protocol):
    """What a long task (a build, a batch of PDFs) tells as it goes: messages (« 2 PDF à produire »),
    the step under way with its number of items (`phase`; None: a step that cannot count them ahead,
    the site's pages), and each item done (`advance`). The command line's is a progress bar
    (commands/progress.py); `Messages` only says the messages."""

    def __call__(self, message: str) -> None: ...

    def phase(self, what: str, total: int | None) -> None: ...

    def advance(self, count: int = 1) -> None: ...


@dataclass(frozen=True)
class Messages:
    """A `Progress` without a bar: each message given to `say` (a log, a test's list.append), if any."""

    say: Callable[[str], None] = lambda message: None

    def __call__(self, message: str) -> None:
        self.say(message)

    def phase(self, what: str, total: int | None) -> None:
        pass

    def advance(self, count: int = 1) -> None:
        pass


SILENT: Progress = Messages()

