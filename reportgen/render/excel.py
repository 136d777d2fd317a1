"""Annexes to .xlsx with XlsxWriter (4x faster than openpyxl, byte-reproducible).

Text is always written as text: a name from a workbook that starts with "=" must never become a
formula in the secretary's annex (measured: every writer's default does that).
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import functools
import io
import re
import textwrap
import unicodedata
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

import xlsxwriter
from xlsxwriter.utility import xl_range

from reportgen.model import Annex, AnnexColumn, AnnexSheet, InputRule
from reportgen.render.table_sheet import TableSheet

INVALID_SHEET_CHARS = str.maketrans({c: " " for c in "[]:*?/\\"})
LINE_HEIGHT = 15  # points: a line of the default 11-point font, as Excel and LibreOffice lay it out
ROWS = 1_048_576  # a worksheet's rows, as Excel counts them
PAD = "_)"  # a number format's room on the right: the width of « ) », left blank
# A percentage as French writes it and the bulletins print it, « 62,2 % »: a narrow no-break space
# before the sign (as french.typography writes it), quoted in the number format as a literal
PERCENT = '"\u202f"%'
# A duration's number format: minutes and seconds, « 12:19 », minutes past 59 kept as minutes; its
# cell holds the duration as Excel counts time, in days (`SECONDS_A_DAY`)
DURATION = "[m]:ss"
SECONDS_A_DAY = 86_400
# A column's width counts digits of the default font, Calibri 11 (LibreOffice's Carlito has its
# metrics). Its letters' widths, in hundredths of a digit (Carlito's own): a plain text's lines are
# counted with them (`text_lines`). « départagé aux TPs marqués entre eux » is 30.3 digits wide:
# counted as 35 letters of 0.87 digit each (30.4), it was taken to wrap in a column 30 wide.
LETTER_WIDTHS = {
    44: "'", 45: " il", 47: "j", 49: ",’", 50: ".I", 53: ":;", 57: "`", 60: "()-f", 61: "[]", 62: "{}",
    63: "J", 64: "!", 66: "t", 67: "°", 69: "r", 76: "/\\", 77: "s", 78: "z", 79: '"', 83: "Lc", 85: "x",
    89: "vy", 90: "k", 91: "?FS|", 92: "Z", 93: "g", 95: "a", 96: "ETY", 98: "#*+<=>^_e~–",
    100: "$0123456789€", 101: "«»", 102: "PX", 103: "K", 104: "bdhnopqu", 105: "C", 107: "BR", 112: "V",
    114: "A", 121: "D", 123: "H", 124: "G", 127: "NU", 131: "O", 132: "½", 133: "Q", 135: "&", 136: "…",
    141: "%w", 158: "m", 169: "M", 176: "@W", 179: "—",
}
WIDEST_LETTER = 200  # a Chinese or Japanese character: two digits
# A column `width` wide holds a line of text this much wider (hundredths of a digit): XlsxWriter
# gives it 5 pixels more than its digits, the cell keeps a margin. LibreOffice prints a text up to
# 0.42 digit wider on one line and wraps one 0.46 wider, whatever the width (measured from 6 to 40,
# where it drew Calibri with DejaVu Sans: tests/test_annexes_in_a_spreadsheet.py prints texts there).
PAST_WIDTH = 40


def render_annex(annex: Annex) -> bytes:
    return write_annex(annex.title, annex.date, annex_parts(annex))


# What `write_annex` is given: each sheet without its rows, then its rows in one or more lists.
Part = AnnexSheet | Sequence[list[Any]]


def annex_parts(annex: Annex, rows_per_part: int | None = None) -> Iterator[Part]:
    """The annex as `write_annex` takes it: each sheet without its rows, then its rows, all at once
    or `rows_per_part` at a time (what a worker is sent: render/annex_worker.py)."""
    for spec in annex.sheets:
        yield dataclasses.replace(spec, rows=[])
        rows = spec.rows  # a list, or a Deferred (made now), read as one: not copied
        step = rows_per_part or max(len(rows), 1)
        for start in range(0, len(rows), step):
            yield rows[start:start + step] if rows_per_part else rows


def write_annex(title: str, date: dt.date, parts: Iterable[Part]) -> bytes:
    """The XLSX of an annex given as `annex_parts` gives it: the same bytes however its rows are cut."""
    buffer = io.BytesIO()
    book = xlsxwriter.Workbook(buffer, {
        "in_memory": True, "strings_to_formulas": False, "strings_to_urls": False,
        "strings_to_numbers": False,
    })
    moment = dt.datetime.combine(date, dt.time(12, 0))
    book.set_properties({"title": title, "author": "reportgen", "created": moment})
    header = book.add_format({"bold": True, "text_wrap": True, "valign": "top", "bg_color": "#1F3A5F",
                              "font_color": "#FFFFFF", "border": 1, "border_color": "#B8C4D6"})
    # A text longer than its column wraps, its row as high as its lines (`write_rows`; LibreOffice
    # does not grow a row as it opens a file): cut by the next cell, a Tour de France status or a
    # long tournament name lost its end in print. A number keeps a space's width on its right (`_)`),
    # so that it does not touch the text beginning the next column (« 0.667A »).
    formats = {
        "text": book.add_format({"valign": "top", "text_wrap": True}),
        "date": book.add_format({"num_format": "dd/mm/yyyy", "valign": "top", "align": "left"}),
        "datetime": book.add_format({"num_format": "dd/mm/yyyy hh:mm", "valign": "top", "align": "left"}),
    }
    number_formats: dict[str, Any] = {}  # by their code, each made once

    def column_format(column: AnnexColumn, kind: str, decimals: int | None = None) -> Any:
        """A cell's format from its column: a text's, a date's, a number's (`number_code`) or a
        duration's (`DURATION`); each number format made once."""
        if kind == "duration":
            code = DURATION + PAD
        elif kind in ("int", "number"):
            code = number_code(column, kind, decimals)
        else:
            return formats.get(kind, formats["text"])
        if code not in number_formats:
            number_formats[code] = book.add_format({"num_format": code, "valign": "top"})
        return number_formats[code]

    def start(spec: AnnexSheet) -> Any:
        sheet = book.add_worksheet(spec.name.translate(INVALID_SHEET_CHARS)[:31], TableSheet)
        for col, column in enumerate(spec.columns):
            sheet.set_column(col, col, column.width, column_format(column, column.kind))
            if column.header:  # an empty one stays a blank cell (a workbook written back as it was read)
                sheet.write_string(0, col, column.header, header)
        # the header row as high as its longest header wraps (two lines at least): at two lines always,
        # Tantrix's « Pour les têtes de série » (now « Elo pour les têtes de série ») lost its last word
        sheet.set_row(0, LINE_HEIGHT * max([2, *(wrapped_lines(c.header, c.width) for c in spec.columns)]))
        return sheet

    def write_rows(sheet: TableSheet, spec: AnnexSheet, rows: Sequence[list[Any]], first: int) -> None:
        # what each column writes, chosen once per column rather than once per cell (1.4 million
        # cells in the Grand Sud season's annex at 100x): whether it takes numbers and dates, its
        # numbers' format (an « auto » column's is chosen per number, and made at its first use, as
        # `start` made the others: the styles' order is the annex's bytes), the letters any text holds
        # on one line (a longer one is measured), whether its numbers are seconds, written as Excel
        # counts time (a duration)
        plans = [(column, column.kind in ("int", "number", "auto", "duration"), column.kind in ("date", "auto"),
                  None if column.kind == "auto" else column_format(column, column.kind),
                  line_room(column.width) // WIDEST_LETTER, column.kind == "duration") for column in spec.columns]
        text_format, date_format, moment_format = formats["text"], formats["date"], formats["datetime"]
        for row_index, values in enumerate(rows, start=first):
            lines = 1
            cells: list[tuple[int, Any, Any]] = []  # (column, number, moment or text, format)
            for col, value in enumerate(values):
                if value is None or value == "":
                    continue
                column, numeric, dated, number_format, sure, seconds = plans[col]
                if numeric and isinstance(value, (int, float)) and not isinstance(value, bool):
                    if number_format is None:  # « auto »: a number shown as its bulletin shows it
                        number_format = column_format(column, "number", shown_decimals(value, column.decimals))
                    cells.append((col, value / SECONDS_A_DAY if seconds else value, number_format))
                elif dated and isinstance(value, dt.datetime) and value.time() != dt.time():
                    cells.append((col, value, moment_format))  # a time of day is kept
                elif dated and isinstance(value, dt.date):
                    cells.append((col, dt.datetime.combine(value, dt.time()), date_format))
                else:
                    text = str(value)
                    cells.append((col, text, text_format))
                    if len(text) > sure:
                        lines = max(lines, text_lines(text, column.width))
            sheet.add_row(row_index, cells)
            if lines > 1:
                sheet.set_row(row_index, LINE_HEIGHT * lines)

    def finish(sheet: Any, spec: AnnexSheet, rows: int) -> None:
        for rule in spec.rules:
            validation = _validation(rule)
            if validation["validate"] != "any":  # input help only has no alert
                style, title_of_alert = rule.alert
                validation |= {"error_type": style, "error_title": title_of_alert, "error_message": rule.message}
            sheet.data_validation(rule.first_row, rule.first_col, rule.last_row, rule.last_col,
                                  {**validation, "input_title": "Saisie", "input_message": rule.message})
        sheet.freeze_panes(1, 0)
        sheet.autofilter(0, 0, max(rows, 1), len(spec.columns) - 1)
        sheet.set_landscape()
        sheet.set_paper(9)  # A4
        sheet.fit_to_pages(1, 0)  # fit to width, as many pages as needed
        sheet.repeat_rows(0)
        sheet.set_margins(left=0.4, right=0.4, top=0.6, bottom=0.6)
        sheet.set_header(f"&L&8{_escape(title)} — {_escape(spec.name)}")
        sheet.set_footer("&R&8page &P sur &N")  # as the bulletins' PDFs number their pages
        texts = text_ranges(spec.columns)
        if texts:  # a licence « 0123 », a département « 09 »: text on purpose, never flagged as a number
            sheet.ignore_errors({"number_stored_as_text": texts})

    current: tuple[Any, AnnexSheet] | None = None
    written = 0  # rows of the current sheet written so far
    for part in parts:
        if isinstance(part, AnnexSheet):
            if current is not None:
                finish(*current, written)
            current, written = (start(part), part), 0
        else:
            assert current is not None, "rows come after their sheet"
            write_rows(*current, part, written + 1)
            written += len(part)
    if current is not None:
        finish(*current, written)
    book.close()
    return buffer.getvalue()


def number_code(column: AnnexColumn, kind: str, decimals: int | None) -> str:
    """A number's format from its column: its decimals (none for an `int`, one for a `number`
    unless it says how many: a pool's « Moyenne », three; `decimals`, an « auto » number's own,
    `shown_decimals`), a thousands separator unless it says none (a field's year), a percent sign
    for a `number` column of fractions (a Tantrix score, 0.622 shown « 62,2 % » as its bulletin
    prints it, `PERCENT`: the cell keeps the fraction), the sign of an evolution's numbers (3 shown
    « +3 », 0 « = », as the bulletins and the site write it: `evolution_code`)."""
    if decimals is None:
        decimals = 0 if kind == "int" else 1 if column.decimals is None else column.decimals
    percent = PERCENT if kind == "number" and column.percent else ""
    body = ("#,##0" if column.grouped else "0") + ("." + "0" * decimals if decimals else "") + percent
    return evolution_code(body) if column.evolution else body + PAD


def shown_decimals(value: float, declared: int | None) -> int:
    """An « auto » column's number's decimals: its column's when it declares them, else those
    french.points writes (none for a whole number, one or two: a Tour de France total of 2 323,75
    was shown « 2 323,8 » in its annex, « 2 323,75 » in its bulletin and CSV)."""
    if float(value).is_integer():
        return 0
    if declared is not None:
        return declared
    return 1 if round(value, 1) == round(value, 2) else 2


def evolution_code(body: str) -> str:
    """A number format showing the sign of `body`'s numbers: « +3 », « -2 » and « = » for none
    (Excel's sections: positive; negative; zero), each with the room on the right (`PAD`). The cell
    keeps its number: the secretary sorts and sums it. A number that rounds to none with `body`'s
    decimals (a rating's change of 0.04) shows « +0,0 »: a ranking's changes are rounded as shown."""
    return f'+{body}{PAD};-{body}{PAD};"="{PAD}'


def text_ranges(columns: list[AnnexColumn]) -> str:
    """The whole columns of kind « text », each run of neighbours one range (« C1:D1048576
    F1:F1048576 »), where Excel must not flag a « nombre stocké sous forme de texte »."""
    runs: list[list[int]] = []
    for col, column in enumerate(columns):
        if column.kind != "text":
            continue
        if runs and runs[-1][1] == col - 1:
            runs[-1][1] = col
        else:
            runs.append([col, col])
    return " ".join(xl_range(0, first, ROWS - 1, last) for first, last in runs)


class _Widths(dict[str, int]):
    """A letter's width in hundredths of a digit (`LETTER_WIDTHS`), an accented letter its letter's,
    a wide one (Chinese, Japanese) `WIDEST_LETTER`, any other a digit's; each found once, then kept."""

    def __missing__(self, letter: str) -> int:
        base = unicodedata.normalize("NFD", letter)[0]
        if base != letter:
            width = self[base]
        else:
            width = WIDEST_LETTER if unicodedata.east_asian_width(letter) in "WF" else 100
        self[letter] = width
        return width


# a word's pieces a line may end after: « FONTAINE- », « MONTMORENCY »
_PIECES = re.compile(r"[^-]*-+|[^-]+")
_WIDTHS = _Widths({letter: width for width, letters in LETTER_WIDTHS.items() for letter in letters})


def line_room(width: float) -> int:
    """How wide a line of text a column `width` digits wide holds, in hundredths of a digit."""
    return round(100 * width) + PAST_WIDTH


# Remembered: a sheet's names, clubs and tournaments repeat down its rows (108,000 rows of Grand Sud
# points at 100x measured 1.47 CPU-s, 0.88 with the cache).
@functools.lru_cache(maxsize=1 << 16)
def text_lines(text: str, width: float) -> int:
    """The lines a plain text wraps into in a column `width` digits wide, as LibreOffice lays it
    out: each line ended where it ends, its words on a line while their letters' widths fit
    (`LETTER_WIDTHS`), a line may end after a hyphen (« Jean- » « Baptiste »), a piece longer than
    a line is cut where the line is full."""
    room, measure = line_room(width), _WIDTHS.__getitem__
    lines = 0
    for paragraph in text.split("\n"):
        lines += 1
        if sum(map(measure, paragraph)) <= room:
            continue
        used = 0  # the current line's width
        for word in paragraph.split():
            gap = _WIDTHS[" "] if used else 0
            for piece in _PIECES.findall(word):
                size = sum(map(measure, piece))
                if used + gap + size <= room:
                    used += gap + size
                elif size <= room:
                    lines, used = lines + 1, size
                else:  # on lines of its own, cut where each line is full
                    if used:
                        lines, used = lines + 1, 0
                    for letter in piece:
                        if used + measure(letter) > room and used:
                            lines, used = lines + 1, 0
                        used += measure(letter)
                gap = 0
    return lines


def wrapped_lines(text: str, width: float) -> int:
    """The lines a header wraps into in a column `width` characters wide: its words on a line while
    they fit, a word longer than a line cut, as a spreadsheet wraps them (a bold letter about as
    wide as the digit the width counts)."""
    return max(len(textwrap.wrap(text, max(int(width), 1), break_on_hyphens=False)), 1)


def _validation(rule: InputRule) -> dict[str, object]:
    """Excel's check of the rule's cells; `text` checks nothing (input help only)."""
    if rule.kind == "whole":
        return {"validate": "integer", "criteria": "between", "minimum": rule.minimum, "maximum": rule.maximum}
    if rule.kind == "list":
        return {"validate": "list", "source": rule.source or list(rule.choices)}
    if rule.kind == "date":
        return {"validate": "date", "criteria": "between", "minimum": rule.FIRST_DATE, "maximum": rule.LAST_DATE}
    return {"validate": "any"}  # input help only


def _escape(text: str) -> str:
    return text.replace("&", "&&")
