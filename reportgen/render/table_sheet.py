"""XlsxWriter's worksheet with an annex's rows made the quick way: the same bytes.

Why (issue 27): the Grand Sud season's annex at 100x holds 1.4 million cells. XlsxWriter stores
each cell as a tuple in a dictionary per row, checks the sheet's dimensions for each, and on
`close` finds each row's cells column by column and writes each cell's XML from a list of
attributes, each checked for characters to escape (a cell's reference and style never hold one):
most of its 9-12 CPU-s (twenty-fifth round). An annex writes its rows one after the other, each
cell a number, a date (a number with a date format) or a text (an index in the shared strings),
each with a format. `TableSheet.add_row` makes each such cell's XML at once, in one f-string, as
XlsxWriter writes it, and keeps the row's cells as one text, which `close` writes (twenty-eighth
round; the twenty-seventh wrote each cell quickly but still stored it XlsxWriter's way). Each
cell's style is left as « {0} », « {1} »... until `close`: XlsxWriter numbers a format the first
time it writes a cell or a column in it (`_get_xf_index`), and that order is the styles' order in
the file, so each format is numbered when the row where it is first used is written, as XlsxWriter
would. A shared text is numbered as it is given, as XlsxWriter numbers it. What XlsxWriter's own
writers write (the header row, anything else) it still stores and writes itself; a row is made one
way or the other, never both (`close` refuses a row written both ways).

The annex's bytes stay XlsxWriter's: tests/test_table_sheet.py writes every example annex, the
blank workbooks and random cells both ways and compares the bytes. Subclassing the worksheet is
XlsxWriter's own way of changing how it writes (`Workbook.add_worksheet`'s `worksheet_class`, its
« inheritance » examples); `_write_rows` and `_calculate_spans` are its inner methods, so the test
pins the behaviour of the version in constraints.txt.
"""

from __future__ import annotations

import datetime as dt
import math

from xlsxwriter.format import Format
from xlsxwriter.utility import _utf16_len, _utf16_truncate, xl_col_to_name
from xlsxwriter.worksheet import Worksheet


class TableSheet(Worksheet):
    """A worksheet whose rows given to `add_row` (in order, each cell with a format) are made as
    XML at once; the rest is XlsxWriter's."""

    # XlsxWriter's dimensions of the sheet's cells (its `_check_dimensions`), which the made rows grow
    dim_rowmin: int | None
    dim_rowmax: int | None
    dim_colmin: int | None
    dim_colmax: int | None

    def __init__(self) -> None:
        super().__init__()
        self._letters: dict[int, str] = {}  # a column's letters, « A », « AB »: made once per column
        # each made row: its cells' XML (styles as « {k} »), its first and last columns
        self._made: dict[int, tuple[str, int, int]] = {}
        self._last_row = -1  # rows are made in order
        self._styles: dict[Format, int] = {}  # the formats of the made cells, in the order of first use
        self._new_styles: dict[int, list[Format]] = {}  # a made row -> the formats first used there

    def add_row(self, row: int, cells: list[tuple[int, float | dt.datetime | str, Format]]) -> None:
        """A row's cells, left to right, each (column, value, format): a number (`int` or `float`),
        a moment (`datetime`) or a text, as XlsxWriter's `write_number`, `write_datetime` and
        `write_string` write them. A row XlsxWriter must write itself (outside the sheet, a cell
        without a format, a row it already holds or one before the last made, its constant_memory
        mode or its errors for NaN) is given to those writers, cell by cell."""
        if not cells:
            return
        first, last = cells[0][0], cells[-1][0]
        if (row <= self._last_row or row >= self.xls_rowmax or last >= self.xls_colmax or self.constant_memory
                or self.nan_inf_to_errors or row in self.table or any(f is None for _, _, f in cells)):
            self._write_each(row, cells)
            return
        styles, letters_of, at = self._styles, self._letters, row + 1
        made = []
        previous = first - 1
        for col, value, cell_format in cells:
            if col <= previous:
                raise ValueError(f"row {at}: cells are given left to right")
            previous = col
            style = styles.get(cell_format)
            if style is None:
                style = styles[cell_format] = len(styles)
                self._new_styles.setdefault(row, []).append(cell_format)
            letters = letters_of.get(col)
            if letters is None:
                letters = letters_of[col] = xl_col_to_name(col)
            if isinstance(value, str):
                if len(value) > self.xls_strmax // 2 and _utf16_len(value) > self.xls_strmax:
                    value = _utf16_truncate(value, self.xls_strmax)  # as XlsxWriter cuts it
                index = self.str_table._get_shared_string_index(value)
                made.append(f'<c r="{letters}{at}" s="{{{style}}}" t="s"><v>{index}</v></c>')
                continue
            if isinstance(value, dt.datetime):
                value = self._convert_date_time(value)
            elif math.isnan(value) or math.isinf(value):
                self._write_number(row, col, value, cell_format)  # raises XlsxWriter's TypeError
            made.append(f'<c r="{letters}{at}" s="{{{style}}}"><v>{value:.16G}</v></c>')
        self._made[row] = ("".join(made), first, last)
        self._last_row = row
        if self.dim_rowmin is None or row < self.dim_rowmin:
            self.dim_rowmin = row
        if self.dim_rowmax is None or row > self.dim_rowmax:
            self.dim_rowmax = row
        if self.dim_colmin is None or first < self.dim_colmin:
            self.dim_colmin = first
        if self.dim_colmax is None or last > self.dim_colmax:
            self.dim_colmax = last

    def _write_each(self, row: int, cells: list[tuple[int, float | dt.datetime | str, Format]]) -> None:
        """The cells given to XlsxWriter's own writers (without their decorator that reads « A1 »)."""
        for col, value, cell_format in cells:
            if isinstance(value, str):
                self._write_string(row, col, value, cell_format)
            elif isinstance(value, dt.datetime):
                self._write_datetime(row, col, value, cell_format)
            else:
                self._write_number(row, col, value, cell_format)

    def _calculate_spans(self) -> None:
        """XlsxWriter's spans (each block of 16 rows: its first and last columns), the made rows'
        columns added."""
        super()._calculate_spans()
        blocks: dict[int, tuple[int, int]] = {}
        for row, (_, first, last) in self._made.items():
            block = row // 16
            low, high = blocks.get(block, (first, last))
            blocks[block] = (min(low, first), max(high, last))
        for block, (first, last) in blocks.items():
            if block in self.row_spans:
                low, high = (int(end) - 1 for end in self.row_spans[block].split(":"))
                first, last = min(first, low), max(last, high)
            self.row_spans[block] = f"{first + 1}:{last + 1}"

    def _write_rows(self) -> None:
        """XlsxWriter's `_write_rows`, each made row written from its text."""
        if not self._made:
            super()._write_rows()
            return
        self._calculate_spans()
        styles: list[int] = []  # each made format's number in the file, numbered at its first cell
        plain = self.excel_version != 2010 and self.default_row_height == self.original_row_height
        assert self.dim_rowmin is not None and self.dim_rowmax is not None  # a made row is a cell
        for row in range(self.dim_rowmin, self.dim_rowmax + 1):
            span = self.row_spans.get(row // 16)
            made = self._made.get(row)
            if made is not None:
                if self.table.get(row):
                    raise ValueError(f"row {row + 1}: made here and stored by XlsxWriter's writers")
                styles += [cell_format._get_xf_index() for cell_format in self._new_styles.get(row, ())]
                info = self.row_info.get(row)
                if info is None and plain:
                    self.fh.write(f'<row r="{row + 1}" spans="{span}">' if span else f'<row r="{row + 1}">')
                else:
                    self._write_row(row, span, info)
                self.fh.write(made[0].format(*styles))
                self._xml_end_tag("row")
            elif row in self.row_info or row in self.comments or self.table.get(row):
                self._write_table_row(row, span)

    def _write_table_row(self, row: int, span: str | None) -> None:
        """A row XlsxWriter stored: written as its `_write_rows` writes it."""
        info = self.row_info.get(row)
        cells = self.table.get(row)
        if cells:
            assert self.dim_colmin is not None and self.dim_colmax is not None  # a cell is there
            self._write_row(row, span, info)
            for col in range(self.dim_colmin, self.dim_colmax + 1):
                if col in cells:
                    self._write_cell(row, col, cells[col])
            self._xml_end_tag("row")
        else:
            self._write_empty_row(row, span, info)
