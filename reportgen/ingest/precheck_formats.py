"""The pre-check of the other spreadsheet formats calamine reads: OpenDocument (`.ods`), Excel
binary (`.xlsb`) and Excel 97-2003 (`.xls`).

Same purpose as precheck.py for .xlsx: refuse what no reader should open, with one located French
message, before calamine touches the file.

- `.ods` is a zip of XML parts: the package is bounded like an .xlsx (parts, declared and really
  inflated sizes, compression ratio) and `content.xml` is streamed once through defusedxml's parser
  (no DTD, no entity). A sheet's rows and cells may be repeated (`number-rows-repeated`,
  `number-columns-repeated`): LibreOffice writes the empty rest of a sheet that way, so only cells
  with content count for the sheet's extent, and a repetition of content counts in full. A formula
  saved without a value (written by a program, not by LibreOffice or Excel) is untrusted, as in an
  .xlsx.
- `.xlsb` is a zip of binary parts: the package is bounded and every part inflated once (damage,
  bombs); the cells themselves are binary records this pass does not decode, so a sheet that asks
  for too much is stopped by the reading worker's own limits (memory, time, answer size), as one
  located refusal too. Excel always saves a formula's value in an .xlsb.
- `.xls` is an OLE2 compound file that only the reader decodes: its size is bounded here, the rest
  is left to the worker's limits. Excel always saves a formula's value in an .xls.
"""

from __future__ import annotations

import zipfile
import zlib
from pathlib import Path

from reportgen.ingest import precheck_base
from reportgen.ingest.precheck_base import (
    CHUNK,
    MAX_AREA,
    MAX_COLUMNS,
    MAX_ROWS,
    OLE2_MAGIC,
    TOO_BIG_FIX,
    SheetFacts,
    UnreadableWorkbook,
    WorkbookFacts,
    damaged,
)
from reportgen.ingest.text import clean_text
from reportgen.model import cell_name

MAX_XLS_BYTES = 50 * 1024 * 1024  # an .xls of results is a few hundred kilobytes

NOT_A = {
    ".ods": "le fichier n’est pas un classeur OpenDocument (.ods) lisible (fichier abîmé ou d’un autre format)",
    ".xlsb": "le fichier n’est pas un classeur Excel binaire (.xlsb) lisible (fichier abîmé ou d’un autre format)",
    ".xls": "le fichier n’est pas un classeur Excel 97-2003 (.xls) lisible (fichier abîmé ou d’un autre format)",
}
RESAVE_FIX = "ouvrez-le dans Excel ou LibreOffice et enregistrez-le au format .xlsx"


def inspect(path: Path) -> WorkbookFacts:
    """Refuse what no reader should open (UnreadableWorkbook); the formula cells without a value."""
    suffix = path.suffix.lower()
    if suffix == ".xls":
        return _inspect_xls(path)
    try:
        archive = zipfile.ZipFile(path)
    except (zipfile.BadZipFile, EOFError, ValueError, NotImplementedError, zlib.error):
        raise UnreadableWorkbook(NOT_A[suffix], RESAVE_FIX) from None
    with archive:
        entries = precheck_base.bounded_parts(archive)
        if suffix == ".ods":
            if "content.xml" not in entries:
                raise UnreadableWorkbook(NOT_A[suffix], RESAVE_FIX)
            return _inspect_ods(archive, entries)
        if "xl/workbook.bin" not in entries:
            raise UnreadableWorkbook(NOT_A[suffix], RESAVE_FIX)
        budget = precheck_base._Budget()
        for info in entries.values():  # inflate every part once: damage and bombs show here
            try:
                with archive.open(info) as stream:
                    while chunk := stream.read(CHUNK):
                        budget.take(len(chunk))
            except (zipfile.BadZipFile, zlib.error, EOFError, ValueError, NotImplementedError, RuntimeError):
                raise damaged(info.filename) from None
        return WorkbookFacts([])


def _inspect_xls(path: Path) -> WorkbookFacts:
    if path.stat().st_size > MAX_XLS_BYTES:
        raise UnreadableWorkbook("le fichier est anormalement volumineux pour un tableau de résultats", TOO_BIG_FIX)
    with open(path, "rb") as handle:
        if handle.read(8) != OLE2_MAGIC:
            raise UnreadableWorkbook(NOT_A[".xls"], RESAVE_FIX)
    return WorkbookFacts([])


class _OdsContent(precheck_base._Part):
    """content.xml: each sheet's extent (cells with content only), the cells counted, the formula
    cells and whether a value was saved with them."""

    def __init__(self) -> None:
        super().__init__("content.xml")
        self.sheets: list[SheetFacts] = []
        self.cells = 0
        self._sheet: SheetFacts | None = None
        self._row = 0  # 0-based index of the current row
        self._rows_repeated = 1
        self._col = 0  # 0-based index of the next cell
        self._max_row = self._max_col = 0  # 1-based extent of the cells with content
        self._cell: tuple[int, int, bool, bool] | None = None  # col, repeated, formula, value saved
        self._cell_has_text = False

    def start(self, tag: str, attributes: list[str]) -> None:
        if tag == "table" and self._sheet is None:
            self._sheet = SheetFacts(clean_text(precheck_base._attribute(attributes, "name") or ""), False)
            self._row, self._max_row, self._max_col = 0, 0, 0
        elif self._sheet is None:
            return
        elif tag == "table-row":
            self._count(1)
            self._rows_repeated = repetition(precheck_base._attribute(attributes, "number-rows-repeated"))
            self._col = 0
        elif tag in ("table-cell", "covered-table-cell") and self.stack[-1:] == ["table-row"]:
            self._count(1)
            repeated = repetition(precheck_base._attribute(attributes, "number-columns-repeated"))
            formula = precheck_base._attribute(attributes, "formula") is not None
            valued = precheck_base._attribute(attributes, "value-type") is not None
            self._cell = (self._col, repeated, formula, valued)
            self._cell_has_text = False
        elif self._cell is not None and tag == "p":
            self._cell_has_text = True

    def end(self, tag: str) -> None:
        if self._sheet is None:
            return
        if tag in ("table-cell", "covered-table-cell") and self._cell is not None and self.stack[-1:] == ["table-row"]:
            col, repeated, formula, valued = self._cell
            if valued or formula or self._cell_has_text:
                # content repeated over rows and columns is content in every one of them
                self._count(repeated * self._rows_repeated)
                self._extend(self._row + self._rows_repeated, col + repeated)
                if formula and not valued:
                    for row in range(self._row, min(self._row + self._rows_repeated, MAX_ROWS)):
                        for column in range(col, min(col + repeated, MAX_COLUMNS)):
                            self._sheet.formulas[cell_name(row, column)] = False
            self._col += repeated
            self._cell = None
        elif tag == "table-row":
            self._row += self._rows_repeated
            self._rows_repeated = 1
        elif tag == "table":
            self.sheets.append(self._sheet)
            self._sheet = None

    def _count(self, count: int) -> None:
        self.cells += count
        if self.cells > precheck_base.MAX_CELLS:
            raise UnreadableWorkbook(f"le classeur contient plus de {precheck_base.MAX_CELLS:,} cellules".replace(",", " "),
                                     TOO_BIG_FIX)

    def _extend(self, rows: int, cols: int) -> None:
        assert self._sheet is not None
        self._max_row, self._max_col = max(self._max_row, rows), max(self._max_col, cols)
        if self._max_row > MAX_ROWS or self._max_col > MAX_COLUMNS or self._max_row * self._max_col > MAX_AREA:
            raise UnreadableWorkbook(
                f"la feuille « {self._sheet.name} » s’étend de A1 à {cell_name(self._max_row - 1, self._max_col - 1)}, "
                "bien au-delà d’un tableau de résultats",
                "supprimez les lignes et colonnes inutilisées, ou copiez les résultats dans un classeur neuf")


def repetition(value: str | None) -> int:
    """A repetition count as written (absent: 1); an unreadable one is the file's damage."""
    if value is None:
        return 1
    if not value.isdigit() or int(value) < 1:
        raise damaged("content.xml")
    return int(value)


def _inspect_ods(archive: zipfile.ZipFile, entries: dict[str, zipfile.ZipInfo]) -> WorkbookFacts:
    budget = precheck_base._Budget()
    content = _OdsContent()
    content.parse(archive, entries["content.xml"], budget)
    for name, info in entries.items():  # the other XML parts a reader may read, through the same parser
        if name != "content.xml" and name.lower().endswith(".xml") and name.lower() in ("styles.xml", "settings.xml"):
            precheck_base._Part(name).parse(archive, info, budget)
    return WorkbookFacts(content.sheets)
