"""Where a value comes from and what is wrong with it: cell names, `SourceRef`, `Problem`,
`ReportgenError`."""


from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from enum import StrEnum


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


# The workbooks put back from the archive into a copy of inputs/ (delivery/seasons.py): by their
# label (their path in inputs/, their tournament's id, unchanged), where the secretary finds each
# (archive/2025/v1/inputs/…). Only what is said to her names it; ids and outputs keep the label.
# A context variable, as decimal's context: set by the command that put the league together, for
# what it says while the copy is open, and by nobody else.
_PUT_BACK: ContextVar[Mapping[str, str]] = ContextVar("put_back", default={})


@contextmanager
def put_back(places: Mapping[str, str]) -> Iterator[None]:
    """While it lasts, a source whose label `places` has is shown at its place there."""
    token = _PUT_BACK.set(places)
    try:
        yield
    finally:
        _PUT_BACK.reset(token)


def shown_path(path: str) -> str:
    """Where the file of that label is, as the secretary is told."""
    return _PUT_BACK.get().get(path, path)


# The sheet whose labels head its rows, not its columns: each label names a field (« champ « Date » »).
FIELDS_SHEET = "Tournoi"


def in_sheet(sheet: str, cells: str = "", column: str | None = None) -> str:
    """A place in a workbook as the secretary and the clubs are told it, never in Excel's syntax
    (« 'Résultats'!B35 »): « feuille « Résultats », cellule B35 (colonne « Nom ») », a field of the
    `Tournoi` sheet « (champ « Date ») ». `cells` as said: « cellule B35 » (`cells_said`), « cellules A2
    à A41 ». The one wording of the terminal, verification.html and the answers to the clubs."""
    text = f"feuille « {sheet} »"
    if cells:
        text += f", {cells}"
    if column:
        text += f" ({'champ' if sheet == FIELDS_SHEET else 'colonne'} « {column} »)"
    return text


def cells_said(cell: str) -> str:
    """« cellule B35 », a range « cellules A2 à B9 »."""
    first, _, last = cell.partition(":")
    return f"cellules {first} à {last}" if last else f"cellule {cell}"


@dataclass(frozen=True)
class SourceRef:
    """Where a value comes from: file (relative to inputs/), sheet, cell, column header; in a
    settings file (.toml), its table and key. Shown (`str`) in French, « 2026/a.xlsx, feuille
    « Résultats », cellule B35 (colonne « Nom ») », at its place in the archive when put back from
    there (`put_back`)."""

    path: str
    sheet: str | None = None
    cell: str | None = None
    column: str | None = None

    @property
    def said(self) -> str:
        """Its place in its file, in French (`in_sheet`; « table [mail], réglage « port » » in a
        settings file, « réglage « nom » » for a key outside any table); empty for the file itself."""
        if self.path.endswith(".toml"):  # reportgen.toml, saisons.toml: tables and keys, not sheets and cells
            table = f"table [{self.sheet}]" if self.sheet else ""
            key = f"réglage « {self.cell} »" if self.cell else ""
            return ", ".join(part for part in (table, key) if part)
        if self.sheet is None:
            return f"colonne « {self.column} »" if self.column else ""
        return in_sheet(self.sheet, cells_said(self.cell) if self.cell else "", self.column)

    def __str__(self) -> str:
        said = self.said
        return f"{shown_path(self.path)}, {said}" if said else shown_path(self.path)

    def _key(self) -> tuple[str, str, int, int, str, str]:
        # A file's own problems (no sheet) first; cells in row then column order (A2 before A10,
        # Z9 before AA9 before AB9: columns by index, not by their letters as text). A cell that is
        # not an Excel name (a settings key) sorts by its text, before the cells.
        match = _CELL.match(self.cell or "")  # a range (A2:B9) sorts by its first cell
        row, col = (int(match[2]), column_index(match[1])) if match else (0, -1)
        return (self.path, self.sheet or "", row, col, self.cell or "", self.column or "")

    def __lt__(self, other: SourceRef) -> bool:
        return self._key() < other._key()


class Level(StrEnum):
    """How much a problem weighs (declared with its kind, reportgen/problems.py). A blocking problem
    stops its circuit (a league-wide one, every circuit): a ranking made despite it could be wrong.
    A warning cannot make a ranking wrong (an e-mail address, a publication choice), or is a cell
    the ranking reads as typed and only the club can complete (an empty Prénom): it is listed by
    `check`, on verification.html and by `build` (one located in a workbook received by e-mail, in
    `inbox`'s answer to its club), and the build publishes. A hold is no problem to correct: its
    circuit waits for one it depends on whose workbooks have problems (the Masters for the Grand
    Sud), and publishes nothing new until they are corrected; said after them, it is counted with
    none (they are what `check` exits 1 for)."""

    BLOCKING = "blocking"
    WARNING = "warning"
    HELD = "held"


@dataclass(frozen=True, order=True)
class Problem:
    """One thing wrong with the inputs, in words a secretary understands."""

    where: SourceRef
    message: str
    fix: str = ""
    code: str = field(default="invalid", compare=False)
    level: Level = field(default=Level.BLOCKING, compare=False)

    @property
    def blocking(self) -> bool:
        return self.level is Level.BLOCKING

    def __str__(self) -> str:
        text = f"{self.where} : {self.message}"
        if self.fix:
            text += f" — {self.fix}"
        return text


class ReportgenError(Exception):
    """An error the user can act on; the CLI prints it without a traceback."""


class Mistyped(ReportgenError):
    """The command was mistyped (exit 2, README), found past its options' parsing: an option the
    case needs is missing (`archive` of a season archived before and changed since, without
    `--reason`). Said in one line, with what to type."""


class MistypedName(Mistyped):
    """A value typed on the command line that names nothing of the league (a season, a tournament)
    or more than one thing: the command was mistyped, not the workbooks (exit 2, README: cli.main
    says it as any ReportgenError, with that code). The message says what exists."""


def cell_position(name: str) -> tuple[int, int]:
    """An Excel cell name -> 0-based row and column (B1 -> 0, 1); the inverse of `cell_name`."""
    match = _CELL.fullmatch(name)
    if match is None:
        raise ValueError(f"not a cell name: {name!r}")
    return int(match[2]) - 1, column_index(match[1])

