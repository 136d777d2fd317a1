"""The sheets of a workbook as a reader gives them: `Sheet` (its rows of cells, hidden or not, its
hidden rows and the formula cells saved without a value) and `Workbook` (its sheets, looked up by a
label, and the `SourceRef` of a cell). Apart from the readers, so that a reading worker builds them
and every parser takes them without importing the machinery that reads (ingest/workbook.py)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from reportgen.ingest.text import normalise_label
from reportgen.model import SourceRef, cell_name, column_letter


@dataclass
class Sheet:
    name: str
    rows: Sequence[Sequence[object]]  # 0-based, ragged (trailing empty cells dropped); "" for an empty cell
    hidden: bool = False
    untrusted_formulas: set[str] = field(default_factory=set)
    hidden_rows: tuple[int, ...] = ()  # 0-based, rows hidden in Excel (.xlsx; the pre-check finds them)

    def value(self, row: int, col: int) -> object:
        if row < len(self.rows) and col < len(self.rows[row]):
            return self.rows[row][col]
        return ""


@dataclass
class Workbook:
    path: Path
    label: str  # the path as the secretary sees it, relative to inputs/ (control characters escaped)
    sheets: list[Sheet]
    # The sheets looked up by name (read, their rows counted): what `hidden_notices` speaks of.
    consulted: list[Sheet] = field(default_factory=list, repr=False, compare=False)

    def sheet(self, name: str) -> Sheet | None:
        """The sheet of that name, ignoring case, accents and punctuation; visible ones first."""
        wanted = normalise_label(name)
        matches = [sheet for sheet in self.sheets if normalise_label(sheet.name) == wanted]
        matches.sort(key=lambda sheet: sheet.hidden)
        if matches and all(sheet is not matches[0] for sheet in self.consulted):
            self.consulted.append(matches[0])
        return matches[0] if matches else None

    def present(self) -> str:
        """« (feuilles présentes : « Feuil1 », « Clubs ») », what a missing sheet's problem says after
        it: the sheet meant is often there under another name."""
        return f" (feuilles présentes : {', '.join(f'« {sheet.name} »' for sheet in self.sheets)})"

    def ref(self, sheet: Sheet | None = None, row: int | None = None, col: int | None = None,
            column: str | None = None) -> SourceRef:
        if row is None or col is None:
            cell = None
        elif col < len(_LETTERS):  # most cells: the letters of their column made once
            cell = f"{_LETTERS[col]}{row + 1}"
        else:
            cell = cell_name(row, col)
        return SourceRef(self.label, sheet.name if sheet else None, cell, column)


# A results table's cells are located by the thousand, in its first few columns.
_LETTERS = [column_letter(col) for col in range(64)]
