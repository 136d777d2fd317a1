"""XlsxWriter's worksheet with an annex's cells written the quick way: the same bytes.

Why (issue 27, twenty-seventh round): the Grand Sud season's annex at 100x holds 1.4 million
cells, and XlsxWriter spent most of its 9-12 CPU-s on each cell's general path. Going in, its
public writers' decorator reads a cell named « A1 » (never here: rows and columns are numbers);
on `close`, each cell's XML was built from a list of attributes, each attribute checked against a
regular expression for characters to escape, which a cell's reference and style number never hold.
A number, a date (a number with a date format) and a text (an index in the shared strings) with a
format are the annexes' cells. `TableSheet` writes those the way XlsxWriter writes them, in one
f-string, and leaves any other cell to XlsxWriter. The annex's bytes stay XlsxWriter's:
tests/test_table_sheet.py writes every example annex, the blank workbooks and random cells both
ways and compares the bytes. Subclassing the worksheet is XlsxWriter's own way of changing how it
writes (`Workbook.add_worksheet`'s `worksheet_class`, its « inheritance » examples); `_write_cell`
is its inner method, so the test pins the behaviour of the version in constraints.txt.
"""

from __future__ import annotations

from typing import Any

from xlsxwriter.utility import xl_col_to_name
from xlsxwriter.worksheet import CellDatetimeTuple, CellNumberTuple, CellStringTuple, Worksheet

_NUMBERS = (CellNumberTuple, CellDatetimeTuple)


class TableSheet(Worksheet):
    """A worksheet whose numbers, dates and shared texts with a format are written without
    XlsxWriter's per-cell generality; `number`, `text` and `moment` are its writers without the
    decorator that reads « A1 » references (the same checks and storage as `write_number`...)."""

    number = Worksheet._write_number
    text = Worksheet._write_string
    moment = Worksheet._write_datetime

    def __init__(self) -> None:
        super().__init__()
        self._letters: dict[int, str] = {}  # a column's letters, « A », « AB »: made once per column

    def _write_cell(self, row: int, col: int, cell: Any) -> None:
        kind, cell_format = cell.__class__, cell.format
        # XlsxWriter's own path for anything else: a cell without a format takes its row's or
        # column's, and an in-line string (its constant_memory mode) is escaped there
        if cell_format is None or not (kind in _NUMBERS or (kind is CellStringTuple and not self.constant_memory)):
            super()._write_cell(row, col, cell)
            return
        letters = self._letters.get(col)
        if letters is None:
            letters = self._letters[col] = xl_col_to_name(col)
        style = cell_format._get_xf_index()
        if kind is CellStringTuple:
            self.fh.write(f'<c r="{letters}{row + 1}" s="{style}" t="s"><v>{cell.string}</v></c>')
        else:
            self.fh.write(f'<c r="{letters}{row + 1}" s="{style}"><v>{cell.number:.16G}</v></c>')
