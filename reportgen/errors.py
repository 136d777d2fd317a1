"""Located problems: every message about the inputs says where it comes from.

Readers append ``Problem`` objects and carry on; the pipeline reports all of them together, so the
secretary sees every problem of every file in one run.
"""

from __future__ import annotations

from dataclasses import dataclass, field


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
