"""What the circuits describe for the renderers: `Document`s, `Annex`es and their sheets (with the
cells a person types, `InputRule`), the changes proposed to an input workbook (`InputChange`), and
e-mail drafts (`Message`)."""


from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, overload


class MadeFrom:
    """The proof of where one heavy part of a bulletin, a published ranking or an annex comes from:
    `part` (a context's key, `rows`, `sheets`) is `value` (this very object) and was made by the
    circuit's code from `source` alone (small, picklable plain data: a Grand Sud ranking's scoring
    digest; a bulletin's grid when the digest is not known; a season annex's rankings' digests and
    points table). render/cache.py `document_key`, `ranking_key` and `annex_key` hash `source` in
    place of that part: the same source gives the same part.

    Not a dataclass, and checked by identity: a copy holding another object there (a public copy,
    whose names are masked into new lists and dicts: site/public_copies.py) is hashed whole, never
    by a source that no longer describes it."""

    __slots__ = ("part", "value", "source")

    def __init__(self, part: str, value: object, source: object) -> None:
        self.part, self.value, self.source = part, value, source

    def describes(self, context: dict[str, Any]) -> bool:
        return context.get(self.part) is self.value


class Deferred(Sequence[Any]):
    """A list or tuple made when it is first read, not when what holds it is made: a Grand Sud
    bulletin's rows (one dict per player, a cell per tournament of the window: 2,800 players at
    100x), a published ranking's rows and a season annex's points and place history, which a
    rebuild needs only where it writes them again. One new tournament changes 2 of the 82 rankings
    at 100x and one season's annex; the others are known unchanged by their keys (render/cache.py
    `document_key`, `ranking_key` and `annex_key` hash the `MadeFrom` source in place of this part
    and never read it).

    Its length is known beforehand (the summary and the print settings count the rows) and checked
    once it is made, or, given as None, known once made (an annex's place history, counted only
    when the annex is written). Made once, then kept: the HTML and the PDF's HTML both read it.
    `outline`, when given: what is known of each item beforehand, item by item (a Grand Sud
    ranking's scoring rows, whose `rank`, `player_id` and `player` are those of its published rows:
    site/data.py `chart_records` reads them there). It reads and compares as the sequence it stands
    for, and pickles as it (`__reduce__`: a key of something that holds one, where its `MadeFrom`
    no longer describes it, is a key of its items); the public copies look into it as into a list
    (site/public_copies.py), so no name it holds escapes them."""

    __slots__ = ("_make", "_length", "_made", "outline")

    def __init__(self, make: Callable[[], Sequence[Any]], length: int | None,
                 outline: Sequence[Any] | None = None) -> None:
        self._make: Callable[[], Sequence[Any]] | None = make
        self._length = length  # None: known once made
        self._made: Sequence[Any] | None = None
        self.outline = outline

    def made(self) -> Sequence[Any]:
        """The list or tuple itself, made now if it was not yet."""
        if self._made is None:
            assert self._make is not None
            made = self._make()
            if self._length is not None and len(made) != self._length:  # what the summary printed
                raise ValueError(f"deferred list of {len(made)} items, {self._length} announced")
            self._made, self._make = made, None  # what it was made from released with the closure
        return self._made

    def __len__(self) -> int:
        return len(self.made()) if self._length is None else self._length

    @overload
    def __getitem__(self, index: int) -> Any: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[Any]: ...
    def __getitem__(self, index: int | slice) -> Any:
        return self.made()[index]

    def __iter__(self) -> Iterator[Any]:
        return iter(self.made())

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Deferred):
            other = other.made()
        made = self.made()
        return made == other if isinstance(other, type(made)) else NotImplemented

    __hash__ = None  # type: ignore[assignment]  # as a list's (a tuple of rows is never a key)

    def __repr__(self) -> str:
        return f"Deferred({'made' if self._made is not None else 'not made'}, {self._length} items announced)"

    def __reduce__(self) -> tuple[type, tuple[Sequence[Any]]]:
        made = self.made()
        return type(made), (made,)


@dataclass(frozen=True)
class Document:
    """A bulletin: rendered to HTML and PDF from one template."""

    path: str  # relative to the circuit's output folder, without extension
    template: str  # relative to templates/
    title: str
    date: dt.date  # the date the document speaks of (PDF metadata; no clock in outputs)
    context: dict[str, Any]
    season: int = 0  # groups documents in the outputs index
    # The ids of the tournaments it reports on (the ranking after them, their bulletin, a round of
    # theirs): the site's page of each links it (site/pages.py `event`).
    events: tuple[str, ...] = ()
    # What a part of the context is made from (render/cache.py): derived from the context, so not
    # compared (two scorings of one league give equal documents).
    made_from: MadeFrom | None = field(default=None, compare=False)


@dataclass(frozen=True)
class AnnexColumn:
    header: str
    # text | int | number | date | auto (each value as its type; text stays text) | duration (seconds,
    # a duration the secretary sorts and sums, shown as minutes and seconds: a Tantrix time « 12:19 »)
    kind: str = "text"
    width: float = 12
    decimals: int | None = None  # a `number` column's decimals shown (default: one)
    # an evolution, shown with its sign and « = » for none (+3, -2, =; unlike a ranking column's
    # `signed`, a margin's « 0 »): the cell stays a number the secretary sorts, its number format
    # shows the sign (render/excel.py `evolution_code`)
    evolution: bool = False
    grouped: bool = True  # False: a number without a thousands separator (a year: « 2026 », not « 2 026 »)
    percent: bool = False  # a `number` column's fractions shown as percentages: 0.622 as « 62,2 % » (its decimals)


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
    rows: Sequence[list[Any]]  # a list, or a Deferred one (made only if the annex is written)
    rules: list[InputRule] = field(default_factory=list)


@dataclass(frozen=True)
class Annex:
    """An Excel workbook of tables."""

    path: str  # relative to the circuit's output folder, without extension
    title: str
    date: dt.date
    sheets: list[AnnexSheet]
    season: int = 0
    # What the rows of its `Deferred` sheets are made from (render/cache.py `annex_key` hashes it in
    # their place) when `value` is this very list of sheets: a public copy's are other sheets.
    made_from: MadeFrom | None = field(default=None, compare=False, repr=False)


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



@dataclass(frozen=True)
class ClubSection:
    """A circuit's part of a club's own bulletin (`reportgen mail`): the club's players, already
    formatted in French, as a table the renderer draws without knowing the circuit."""

    circuit: str  # the circuit's title
    title: str  # what the table is: « Classement au 14 mars 2026 »
    headers: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    note: str = ""  # under the table
