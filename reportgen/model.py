"""The types every layer shares: where a value comes from, what is wrong with it, the events the
circuits parse, the documents, annexes and standings they describe.

This module imports nothing of reportgen's: `ingest`, `scoring`, `circuits` and `render` all
build on it (docs/architecture.md, "Layers").
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Generic, Protocol, TypeVar


def column_letter(index: int) -> str:
    """0-based column index -> Excel letters (0 -> A, 27 -> AB)."""
    letters = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        letters = chr(65 + rest) + letters
    return letters


def column_index(letters: str) -> int:
    """Excel letters -> 0-based column index (A -> 0, AB -> 27); the inverse of `column_letter`."""
    index = 0
    for letter in letters.upper():
        index = index * 26 + ord(letter) - 64
    return index - 1


_CELL = re.compile(r"\$?([A-Za-z]{1,3})\$?([0-9]+)")


def cell_name(row: int, col: int) -> str:
    """0-based row and column -> an Excel cell name (0, 1 -> B1)."""
    return f"{column_letter(col)}{row + 1}"


@dataclass(frozen=True)
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
            text += f" (colonne « {self.column} »)"
        return text

    def _key(self) -> tuple[str, str, int, int, str, str]:
        # A file's own problems (no sheet) first; cells in row then column order (A2 before A10,
        # Z9 before AA9 before AB9: columns by index, not by their letters as text). A cell that is
        # not an Excel name (a settings key) sorts by its text, before the cells.
        match = _CELL.match(self.cell or "")  # a range (A2:B9) sorts by its first cell
        row, col = (int(match[2]), column_index(match[1])) if match else (0, -1)
        return (self.path, self.sheet or "", row, col, self.cell or "", self.column or "")

    def __lt__(self, other: SourceRef) -> bool:
        return self._key() < other._key()


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
    decimals: int | None = None  # a `number` column's decimals shown (default: one)


INPUT_KINDS = ("text", "whole", "list", "date")


@dataclass(frozen=True)
class InputRule:
    """Cells someone types (a block, 0-based, inclusive), with Excel's validation and input help:
    any text (input help only), a whole number in a range, a choice from a list (or a sheet range:
    `source`), a date. These cells are what a proposed change must never erase (`render/inputs.py`).

    The defaults never stand in anyone's way: a rule that says no kind is input help only, and a
    value outside the rule is a warning the typist can pass (Excel's « Avertissement »), because
    the readers accept more than any list or range says (a club's name for its code, « 1er » for a
    place, a date typed as text, « 1/2-1/2 »), and `check` says what is wrong with the cell and how
    to fix it. `blocking` (Excel's « Arrêt ») only where the reader accepts nothing else."""

    first_row: int
    first_col: int
    last_row: int
    last_col: int
    message: str
    kind: str = "text"  # text | whole | list | date (INPUT_KINDS)
    minimum: int = 0
    maximum: int = 0
    choices: tuple[str, ...] = ()
    source: str = ""  # a range of the workbook that lists the choices, e.g. =Clubs!$A$2:$A$20
    blocking: bool = False

    # A date cell takes a date of these years (a typo like 14/03/0226 is caught as it is typed).
    FIRST_DATE = dt.date(2000, 1, 1)
    LAST_DATE = dt.date(2100, 12, 31)

    @property
    def alert(self) -> tuple[str, str]:
        """Excel's alert for a value outside the rule: its style (« Arrêt » or « Avertissement ») and title."""
        return ("stop", "Valeur refusée") if self.blocking else ("warning", "Valeur inattendue")

    def __post_init__(self) -> None:
        # A rule that would refuse everything typed (a whole number "between 0 and 0", an empty
        # list) is a programming error: said where the rule is written, not by Excel to a club.
        if self.kind not in INPUT_KINDS:
            raise ValueError(f"InputRule kind {self.kind!r}: one of {INPUT_KINDS}")
        if self.kind == "whole" and not self.minimum < self.maximum:
            raise ValueError(f"InputRule whole numbers {self.minimum}..{self.maximum}: an empty or one-value range")
        if self.kind == "list" and not (self.choices or self.source):
            raise ValueError("InputRule list: no choices and no source")


@dataclass(frozen=True)
class AnnexSheet:
    name: str
    columns: list[AnnexColumn]
    rows: list[list[Any]]
    rules: list[InputRule] = field(default_factory=list)


@dataclass(frozen=True)
class Annex:
    """An Excel workbook of tables."""

    path: str  # relative to the circuit's output folder, without extension
    title: str
    date: dt.date
    sheets: list[AnnexSheet]
    season: int = 0


class Status(str, Enum):
    """How a ranking holds."""

    PROVISIONAL = "provisional"  # after some of the events of its scope
    FINAL = "final"  # its scope is over: the season's final ranking, an event's final standings
    RATING = "rating"  # a rating list, which never closes


@dataclass(frozen=True)
class Scope:
    """What a ranking ranks: a season of a circuit, one event, or a rating list."""

    kind: str  # "season" | "event" | "ratings"
    season: int
    event: str = ""  # the event's id when kind is "event"
    name: str = ""  # the event's name as its `Tournoi` sheet gives it (`reportgen standings --event`)


@dataclass(frozen=True)
class Column:
    """One column of a ranking: its key in CSV and JSON, its French header, how to show it."""

    key: str
    header: str  # in annexes and tables
    kind: str = "int"  # int | number | text | bool (« oui » or nothing) | evolution (+3, -2, 0, « nouveau »)
    width: float = 10  # in the annex, in characters
    short: str = ""  # in a bulletin's narrow table, when shorter than the header
    decimals: int | None = None  # a `number` column's decimals in the annex (default: one)


# A season ranking starts with these; a circuit's columns follow (`points` and `played` first).
IDENTITY_COLUMNS = (Column("rank", "Place", width=7, short="Pl."), Column("player", "Joueur", "text", 28),
                    Column("licence", "Licence", "text"), Column("club", "Club", "text", 20))
# An event's standings or a rating list whose CSV form starts `rank, player` and then its own columns
# (Tantrix, pool tournaments: scripts read those exact forms); licence and club, if any, come after.
RANK_AND_PLAYER = IDENTITY_COLUMNS[:2]
LICENCE, CLUB = IDENTITY_COLUMNS[2:]
DECIDED_HEADER = "Départage"  # the tie-breaks that set a place (`RankingRow.decided_by`)


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

    def value(self, key: str) -> Any:
        return getattr(self, key) if key in ("rank", "player", "licence", "club") else self.metrics[key]


@dataclass(frozen=True)
class Ranking:
    """One published ranking: what it ranks, as of which date, how it holds, and its rows.

    Its columns feed the CSV, the JSON, the annex ranking sheet and `reportgen standings`."""

    path: str  # relative to the circuit's output folder, without extension
    scope: Scope
    date: dt.date  # as of: the last event it includes
    status: Status
    columns: tuple[Column, ...]  # after the identity columns
    rows: tuple[RankingRow, ...]
    in_force_from: dt.date | None = None  # when it starts to hold (default: its date)
    identity: tuple[Column, ...] = IDENTITY_COLUMNS  # the first columns (RANK_AND_PLAYER: then the circuit's)

    @property
    def season(self) -> int:
        return self.scope.season

    @property
    def final(self) -> bool:
        return self.status is Status.FINAL

    @property
    def effective(self) -> dt.date:
        return self.in_force_from or self.date

    @property
    def all_columns(self) -> tuple[Column, ...]:
        return self.identity + self.columns

    def records(self) -> list[dict[str, Any]]:
        """The rows as plain records, one key per column (CSV and JSON)."""
        return [{column.key: row.value(column.key) for column in self.all_columns} for row in self.rows]


Cell = tuple[str, int, int]  # sheet name, 0-based row (0: the header row), 0-based column


@dataclass(frozen=True)
class SheetEdit:
    """What a change writes into one sheet of a workbook that already exists, so that everything
    else the secretary made (styles, number formats, widths, comments, validations) stays as it is.

    `cells` are the program's own cells, rewritten (None empties one), each keeping its style;
    `appended` rows go from row `start` on and must land on empty cells (what was read is still
    there). A written cell that was empty takes the style of the cell above (not the header row's):
    the sheet's own formats continue. `rules` extend the sheet's validations to new cells."""

    sheet: str
    cells: tuple[tuple[int, int, Any], ...] = ()  # (0-based row, 0-based column, value)
    appended: tuple[tuple[Any, ...], ...] = ()  # rows, from column A; None leaves a cell as it is
    start: int = 0  # the 0-based row of the first appended row
    header_row: int = 0
    rules: tuple[InputRule, ...] = ()


@dataclass(frozen=True)
class InputChange:
    """A workbook reportgen proposes to write into inputs/ (the Masters workbook, the next round of
    a pool tournament). Only an explicit command applies it, through `reportgen.render.inputs.apply`,
    which refuses to lose a value typed in a cell meant for typing (the cells under a sheet's
    rules), comparing the file with `workbook`, the whole workbook as the change leaves it.

    A new file is `workbook`, written whole; an existing one is edited in place: only `edits` are
    written into it (None: every cell of `workbook`, each keeping its style), and the sheets of
    `workbook` it lacks are added."""

    path: str  # relative to inputs/, with its extension
    workbook: Annex
    moved: tuple[tuple[Cell, Cell], ...] = ()  # typed values the change carries to another cell
    edits: tuple[SheetEdit, ...] | None = None


def cell_position(name: str) -> tuple[int, int]:
    """An Excel cell name -> 0-based row and column (B1 -> 0, 1); the inverse of `cell_name`."""
    match = _CELL.fullmatch(name)
    if match is None:
        raise ValueError(f"not a cell name: {name!r}")
    return int(match[2]) - 1, column_index(match[1])


@dataclass(frozen=True)
class Attachment:
    """A file joined to a message (a bulletin's PDF), with the name the reader sees."""

    filename: str
    data: bytes
    content_type: str = "application/pdf"


@dataclass(frozen=True)
class Message:
    """An e-mail draft: the notices a circuit writes (a pool tournament's), published as a `.eml`
    file the secretary opens in her mail program; the bulletins `reportgen mail` prepares for each
    club, which it may also send."""

    path: str  # relative to the circuit's output folder, without extension
    to: tuple[str, ...]
    subject: str
    text: str  # the plain-text body, in French
    date: dt.date  # the date it speaks of (its Date header: no clock in outputs)
    html: str = ""  # the same body as HTML (an alternative part), when not empty
    attachments: tuple[Attachment, ...] = ()


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


class Progress(Protocol):
    """What a long task (a build, a batch of PDFs) tells as it goes: messages (« 2 PDF à produire »),
    the step under way with its number of items (`phase`), and each item done (`advance`). The
    command line's is a progress bar (commands/progress.py); `Messages` only says the messages."""

    def __call__(self, message: str) -> None: ...

    def phase(self, what: str, total: int) -> None: ...

    def advance(self, count: int = 1) -> None: ...


@dataclass(frozen=True)
class Messages:
    """A `Progress` without a bar: each message given to `say` (a log, a test's list.append), if any."""

    say: Callable[[str], None] = lambda message: None

    def __call__(self, message: str) -> None:
        self.say(message)

    def phase(self, what: str, total: int) -> None:
        pass

    def advance(self, count: int = 1) -> None:
        pass


SILENT: Progress = Messages()
