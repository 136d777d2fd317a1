"""A second reader of OpenDocument spreadsheets (`.ods`), for the well-formed files calamine refuses.

calamine reads the `.ods` LibreOffice writes, but stops on valid files other programs write: the
`.ods` Gnumeric saves (`ssconvert`, Gnumeric 1.12) puts whitespace between a row's cells, and
calamine 0.x answers « Expecting 'table-cell', found 'Text(BytesText { content: "\\n  " })' ».
Such a file passed the pre-check (precheck_formats.py: its package bounded, `content.xml` parsed
whole through defusedxml, its cells counted and its extent bounded), so it is well-formed XML, not
damaged: this reader takes its cells from `content.xml` through the same parser and the same
budget, and gives what calamine gives for the files it reads (numbers as floats, dates, times,
booleans, the paragraphs of a text joined by a line break, comments left out). Only cells with
content are materialised (the empty rest of a sheet, written as repeated rows and cells, is never
expanded): what it builds is what the pre-check counted. A file it cannot make sense of either
(a value that is no number, no date) is damaged.
"""

from __future__ import annotations

import datetime as dt
import re
import zipfile
from pathlib import Path

from reportgen.ingest import precheck_base
from reportgen.ingest.precheck_base import UnreadableWorkbook, damaged
from reportgen.ingest.precheck_formats import repetition as _repeat

_DURATION = re.compile(r"^-?P(?:(\d+)D)?T?(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d+)?)S)?$")


class _Content(precheck_base._Part):
    """content.xml: each sheet's name, whether it is hidden, and its cells with content."""

    def __init__(self) -> None:
        super().__init__("content.xml")
        self.sheets: list[tuple[str, list[list[object]], bool]] = []
        self._hidden_styles: set[str] = set()
        self._style: str | None = None  # the table style being read (automatic styles)
        self._name: str | None = None  # the sheet being read
        self._hidden = False
        self._rows: dict[int, list[object]] = {}
        self._row = 0
        self._rows_repeated = 1
        self._cells: list[tuple[int, int, object]] = []  # the row's cells with content: col, repeated, value
        self._col = 0
        self._cell: tuple[int, list[str]] | None = None  # repeated, attributes
        self._paragraphs: list[list[str]] = []
        self._in_text = 0  # depth inside a text:p of the cell (not of a comment)

    def start(self, tag: str, attributes: list[str]) -> None:
        if tag == "style" and precheck_base._attribute(attributes, "family") == "table":
            self._style = precheck_base._attribute(attributes, "name")
        elif tag == "table-properties" and self._style is not None:
            if precheck_base._attribute(attributes, "display") == "false":
                self._hidden_styles.add(self._style)
        elif tag == "table" and self._name is None:
            self._name = precheck_base._attribute(attributes, "name") or ""
            self._hidden = precheck_base._attribute(attributes, "style-name") in self._hidden_styles
            self._rows, self._row = {}, 0
        elif self._name is None:
            return
        elif tag == "table-row":
            self._rows_repeated = _repeat(precheck_base._attribute(attributes, "number-rows-repeated"))
            self._cells, self._col = [], 0
        elif tag in ("table-cell", "covered-table-cell") and self.stack[-1:] == ["table-row"]:
            self._cell = (_repeat(precheck_base._attribute(attributes, "number-columns-repeated")), attributes)
            self._paragraphs, self._in_text = [], 0
        elif self._cell is not None:
            if tag == "annotation":
                self._in_text = -10**9  # a comment's text is not the cell's
            elif tag == "p" and self._in_text == 0:
                self._paragraphs.append([])
                self._in_text = 1
            elif self._in_text > 0:
                self._in_text += 1
                if tag == "s":
                    self._paragraphs[-1].append(" " * _repeat(precheck_base._attribute(attributes, "c")))
                elif tag == "tab":
                    self._paragraphs[-1].append("\t")
                elif tag == "line-break":
                    self._paragraphs[-1].append("\n")

    def text(self, data: str) -> None:
        if self._cell is not None and self._in_text > 0:
            self._paragraphs[-1].append(data)

    def end(self, tag: str) -> None:
        if tag == "style":
            self._style = None
        if self._name is None:
            return
        if tag in ("table-cell", "covered-table-cell") and self._cell is not None and self.stack[-1:] == ["table-row"]:
            repeated, attributes = self._cell
            value = "" if tag == "covered-table-cell" else _value(attributes, self._paragraphs)
            if value != "":
                self._cells.append((self._col, repeated, value))
            self._col += repeated
            self._cell = None
        elif self._cell is not None:
            if tag == "annotation":
                self._in_text = 0
            elif self._in_text > 0:
                self._in_text -= 1
        elif tag == "table-row":
            if self._cells:
                row: list[object] = []
                for col, repeated, value in self._cells:
                    row.extend([""] * (col - len(row)))
                    row.extend([value] * repeated)
                for index in range(self._row, self._row + self._rows_repeated):
                    self._rows[index] = list(row)
            self._row += self._rows_repeated
            self._rows_repeated = 1
        elif tag == "table":
            last = max(self._rows, default=-1)
            self.sheets.append((self._name, [self._rows.get(index, []) for index in range(last + 1)], self._hidden))
            self._name = None


def _value(attributes: list[str], paragraphs: list[list[str]]) -> object:
    """A cell's value, as calamine gives it."""
    kind = precheck_base._attribute(attributes, "value-type")
    try:
        if kind in ("float", "percentage", "currency"):
            return float(precheck_base._attribute(attributes, "value") or "")
        if kind == "date":
            written = precheck_base._attribute(attributes, "date-value") or ""
            moment = dt.datetime.fromisoformat(written)
            return moment.date() if "T" not in written else moment
        if kind == "time":
            match = _DURATION.match(precheck_base._attribute(attributes, "time-value") or "")
            if match is None:
                raise ValueError
            days, hours, minutes, seconds = (float(part or 0) for part in match.groups())
            duration = dt.timedelta(days=days, hours=hours, minutes=minutes, seconds=seconds)
            if duration < dt.timedelta(days=1):
                return (dt.datetime.min + duration).time()
            return duration
        if kind == "boolean":
            written = (precheck_base._attribute(attributes, "boolean-value") or "").strip().lower()
            if written not in ("true", "false", "1", "0"):
                raise ValueError
            return written in ("true", "1")
    except (ValueError, OverflowError):
        raise damaged("content.xml") from None
    if paragraphs:
        return "\n".join("".join(parts) for parts in paragraphs)
    return precheck_base._attribute(attributes, "string-value") or ""


def read(path: Path) -> list[tuple[str, list[list[object]], bool]]:
    """The sheets of an .ods (name, rows from A1, hidden) that the pre-check let through."""
    try:
        archive = zipfile.ZipFile(path)
    except (zipfile.BadZipFile, EOFError, ValueError, NotImplementedError):
        raise damaged() from None
    with archive:
        entries = precheck_base.bounded_parts(archive)
        if "content.xml" not in entries:
            raise damaged()
        content = _Content()
        content.parse(archive, entries["content.xml"], precheck_base._Budget())
    if not content.sheets:
        raise UnreadableWorkbook("le fichier n’est pas un classeur OpenDocument (.ods) lisible (aucune feuille)",
                                 "ouvrez-le dans Excel ou LibreOffice et enregistrez-le au format .xlsx")
    return content.sheets
