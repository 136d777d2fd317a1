"""Whether a club's new version of a workbook keeps what the secretary typed in it: a three-way
comparison of cell values (inbox_filing.py `mine`, inbox_run.py `Inbox._losing`).

base: the version the inbox last filed or found at that path (the attachment of its message, kept in
archive/inbox/messages/), or no cell at all for a workbook she put in inputs/ herself (`PLACED`: no
base, every non-empty cell she has is hers); hers: the file in inputs/ now; the club's: its new
version. Her edit is every cell whose value in hers differs from base; the club's version keeps it
when each of those cells has her value in it. That is the league's normal flow: a circuit's command of hers writes the next round into the
workbook, or prepares the workbook of a tournament its host plays, and
the club sends back a version built on hers, its results typed: filed as before. A version that
loses or changes one of her cells is held for her (`Lost`: which cells, said on her line).

Values are compared as the build reads them (ingest/workbook.py `read_workbooks`, the reader of every
build: in this process a small workbook its pre-check bounds, any other in a reading worker under its
memory and time limits; a value as `values.text` cleans it), so that Excel, LibreOffice and openpyxl saves of one value are
equal: 1 and 1.0, a date and the same day at midnight, trailing or doubled spaces. Formats, widths,
colours and comments are not her edit here: the build reads none of them, and a club's spreadsheet
program rewrites them on every save."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from reportgen.ingest.sheets import Sheet
from reportgen.ingest.text import clean_spaces
from reportgen.ingest.values import is_empty, shown
from reportgen.ingest.workbook import read_workbooks
from reportgen.model import cell_name
from reportgen.render.scratch import Scratch

# Each non-empty cell's value as the build reads it, by (sheet, 0-based row, 0-based column).
Cells = dict[tuple[str, int, int], str]

NO_CELLS: Cells = {}  # the base of a workbook she put in inputs/ herself: every cell she has is hers

# Characters of a value a `Lost` keeps, « … » ending a longer one: values are data of any length, said on
# one line of hers and kept in the database's JSON (compared whole).
SHOWN_VALUE = 40


@dataclass(frozen=True)
class Lost:
    """A cell the secretary typed that a club's version loses or changes: « Parties!D14 », her value,
    the club's ('' for an empty cell), each cut past SHOWN_VALUE characters."""

    cell: str
    hers: str
    club: str


def read_cells(path: Path) -> Cells | None:
    """The cells of the workbook at `path` as the build reads them, and where it reads them: a
    workbook larger than a result workbook (millions of cells in an extra sheet) is read by a reading
    worker, under its memory and time limits, never in the inbox's own process (it read one for 11 s
    and 600 MB, and an out-of-memory kill would stop every run at that message). None when it cannot
    be read (the comparison cannot be made: the club's version is held, as any doubt about her edit
    holds it)."""
    read, _ = read_workbooks([path], path.parent)
    return cells(read[0].sheets) if read else None


def cells(sheets: list[Sheet]) -> Cells:
    """The non-empty cells of a workbook's sheets as the reader gave them (`read_cells`, or the
    attachment's sheets its check read: inbox_filing.py `Verdict.sheets`)."""
    return {(sheet.name, row, col): value for sheet in sheets for row, typed_row in enumerate(sheet.rows)
            for col, typed in enumerate(typed_row) if (value := _value(typed))}


def cells_of(data: bytes, filename: str) -> Cells | None:
    """`read_cells` of a workbook's bytes (an attachment), read under its own suffix."""
    with Scratch("inbox") as folder:  # render/scratch.py: a killed command's swept by the next one
        path = folder / f"workbook{Path(filename).suffix.lower()}"
        path.write_bytes(data)
        return read_cells(path)


def _value(typed: object) -> str:
    """A cell's value as the build's text reader cleans it (ingest/values.py `text`): 1 and 1.0, a
    date and its midnight, « 1-0 » and « 1-0  » said alike; '' for an empty cell."""
    return "" if is_empty(typed) else clean_spaces(shown(typed))


def lost(base: Cells, hers: Cells, club: Cells) -> list[Lost]:
    """The cells of her edit (her value differs from `base`'s) whose value the club's version does not
    have: none, it keeps everything she typed."""
    edited = sorted(key for key in base.keys() | hers.keys() if base.get(key, "") != hers.get(key, ""))
    return [Lost(_named(key), _shown(hers.get(key, "")), _shown(club.get(key, ""))) for key in edited
            if club.get(key, "") != hers.get(key, "")]


def _shown(value: str) -> str:
    """A value as a `Lost` keeps it: past SHOWN_VALUE characters, cut with « … »."""
    return value if len(value) <= SHOWN_VALUE else value[:SHOWN_VALUE - 1].rstrip() + "…"


def _named(key: tuple[str, int, int]) -> str:
    """A cell as the secretary finds it in her spreadsheet program: « Parties!E14 »."""
    sheet, row, col = key
    return f"{sheet}!{cell_name(row, col)}"
