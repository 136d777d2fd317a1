"""A cheap look inside an .xlsx before any reader touches it.

Why (measured): calamine allocates the whole rectangle from A1 to the farthest cell (A1 + ALL40000
is 1.6 GB from a 5 KB file; A1:XFD1048576 aborts the process), no reader limits the zip
decompression ratio, and a formula written by a program (not by Excel or LibreOffice) has no
computed value, so readers silently return 0 or nothing. This pass reads the zip directory and
parses every XML part once, through defusedxml's parser (no DTD, no entity, whatever the encoding:
UTF-16 included), to refuse those files with a clear message and to list the formula cells, so the
reader can refuse a formula with no trustworthy value. A part whose bytes hold no "<!" (no DOCTYPE,
so no entity declaration: nothing defusedxml guards against) goes through expat alone, which is as
safe there and cheaper to create.

The bounds hold whatever the XML looks like: cells with or without `r=` (a cell without it follows
the previous one), references in lower case, the transitional or the strict OOXML namespace (tags
are matched on their local name), the same cell written many times. A damaged part (bad CRC, bad
deflate data, a bad header, XML cut in half) is one refusal of the file, never an exception.

Two passes give the same verdict at different costs. The exact pass calls Python for every element
(measured: 2.8 ms a workbook, 6x calamine's whole read). The quick pass serves the parts Excel,
LibreOffice and the usual libraries write (UTF-8, no comment, CDATA or processing instruction, each
cell written `<c r="B7"`, no formula): expat checks the part well-formed without calling Python per
element, then regular expressions count the tags over the whole part. Once the part is well-formed
and holds no comment or CDATA, every "<" opens a tag, so counting the tags anywhere gives bounds at
least as high as the exact pass's: the quick pass accepts only what the exact pass accepts. A part
outside that profile takes the exact pass; a workbook the quick pass would refuse is inspected again
by the exact pass alone, which says why (tests/test_precheck_passes.py checks both agree).
"""

from __future__ import annotations

import posixpath
import re
import zipfile
import zlib
from pathlib import Path

from reportgen.ingest import precheck_formats
from reportgen.ingest.precheck_base import (
    CELL_BYTES,
    MAX_AREA,
    MAX_CELLS,
    MAX_COLUMNS,
    MAX_ROWS,
    MAX_SHARED_STRINGS,
    OLE2_MAGIC,
    TOO_BIG_FIX,
    Larger,
    SheetFacts,
    UnreadableWorkbook,
    WorkbookFacts,
    _attribute,
    _Budget,
    _column_number,
    _Part,
    bounded_parts,
)
from reportgen.ingest.text import clean_text
from reportgen.model import cell_name

# The quick pass's patterns (module docstring).
_PREFIX_DECLARED = re.compile(rb"xmlns:([^\s=]+)\s*=")  # a namespace prefix declared (or text that looks so)
# A cell's tag written `<c r="B7"`: its column and row. In a well-formed plain part the closing quote is
# followed by a space, "/" or ">", and every "<c " opens a cell tag.
_CELL = re.compile(rb'<c r="([A-Z]{1,3})([0-9]{1,7})"')
_CELL_OTHERWISE = re.compile(rb"<c[\t\n\r/>]")  # a cell's tag without attributes, or not spaced so
_FORMULA = re.compile(rb"<f[\s/>]")


def _prefixed_tag(data: bytes) -> bool:
    """Whether a tag of this well-formed part has a namespace prefix (<x:c): the part's own
    declarations say which prefixes can be used (expat refuses an undeclared one), "xml" aside."""
    return any(b"<" + prefix + b":" in data for prefix in {b"xml", *_PREFIX_DECLARED.findall(data)})


class _WorkbookPart(_Part):
    def __init__(self, name: str):
        super().__init__(name)
        self.sheets: list[tuple[str, bool, str | None]] = []  # name, hidden, relationship id
        self.values_not_computed = False

    def start(self, tag: str, attributes: list[str]) -> None:
        if tag == "sheet" and self.stack[-1:] == ["sheets"]:
            self.sheets.append((clean_text(_attribute(attributes, "name") or ""),
                                (_attribute(attributes, "state") or "visible") != "visible",
                                _attribute(attributes, "id")))
        elif tag == "calcPr":
            self.values_not_computed = _attribute(attributes, "fullCalcOnLoad") in ("1", "true")


class _RelationshipsPart(_Part):
    def __init__(self, name: str):
        super().__init__(name)
        self.targets: dict[str, str] = {}

    def start(self, tag: str, attributes: list[str]) -> None:
        if tag == "Relationship":
            target = (_attribute(attributes, "Target") or "").replace("\\", "/")
            target = target.lstrip("/") if target.startswith("/") else posixpath.normpath(posixpath.join("xl", target))
            self.targets[_attribute(attributes, "Id") or ""] = target


class _SharedStringsPart(_Part):
    QUICK = True

    def __init__(self, name: str):
        super().__init__(name)
        self.count = 0

    def quick(self, data: bytes) -> bool:
        return data.count(b"<") <= MAX_SHARED_STRINGS  # every text opens a tag

    def start(self, tag: str, attributes: list[str]) -> None:
        if tag == "si":
            self.count += 1
            if self.count > MAX_SHARED_STRINGS:
                raise UnreadableWorkbook(f"le classeur contient plus de {MAX_SHARED_STRINGS:,} textes".replace(",", " "),
                                         TOO_BIG_FIX)


class _Cells:
    """The cells of every sheet of the workbook, counted together."""

    def __init__(self) -> None:
        self.count = 0


class _SheetPart(_Part):
    """Where each cell lands (its `r`, or after the previous one), the farthest row and column,
    and the formula cells."""

    QUICK = True

    def __init__(self, name: str, sheet: str, cells: _Cells):
        super().__init__(name)
        self.sheet = sheet
        self.cells = cells
        self.row = 0  # 1-based, of the current or last row
        self.col = 0  # 1-based, of the last cell of the current row
        self.max_row = 0
        self.max_col = 0
        self.formulas: dict[str, bool] = {}
        self.hidden_rows: list[int] = []  # 0-based
        self._columns: dict[str, int] = {}  # "AB" -> 28, as met
        self._data = 0  # depth inside sheetData
        self._in_cell = False
        self._formula = False
        self._value = False
        self._in_value = False

    def quick(self, data: bytes) -> bool:
        """No sheetData, or cells all written `<c r="B7"` without a namespace prefix and no formula:
        the farthest cell is the largest row and column written; the cells and rows the exact pass
        counts are fewer than the tags, fewer than the "<"."""
        if b"sheetData" not in data:  # nothing the exact pass would count
            return True
        if (b"<f" in data and _FORMULA.search(data)) or _prefixed_tag(data) or b"hidden=" in data:
            return False  # formulas, hidden rows: the exact pass finds them
        tags = data.count(b"<")
        if self.cells.count + tags > MAX_CELLS:
            return False
        found = _CELL.findall(data)
        if len(found) != data.count(b"<c ") or _CELL_OTHERWISE.search(data):
            return False  # a cell written otherwise: its place is the exact pass's to find
        if found:
            # Cells of one row share its number: each number once (set) before int(), a fifth of the calls
            max_row = max(max(map(int, {row for _, row in found})), 1)
            max_col = max(_column_number(letters.decode()) for letters in {column for column, _ in found})
            if max_row > MAX_ROWS or max_col > MAX_COLUMNS or max_row * max_col > MAX_AREA:
                return False
            # As the exact pass finds them, for decoded_at_most
            self.max_row, self.max_col = max_row, max_col
        self.cells.count += tags
        return True

    def _refuse(self, row: int, col: int) -> UnreadableWorkbook:
        return UnreadableWorkbook(
            f"la feuille « {self.sheet} » déclare une cellule en {cell_name(row - 1, col - 1)}, bien au-delà d’un "
            "tableau de résultats",
            "supprimez les lignes et colonnes inutilisées, ou copiez les résultats dans un classeur neuf")

    def start(self, tag: str, attributes: list[str]) -> None:
        if tag == "sheetData":
            self.row = self.col = 0
            self._data = len(self.stack) + 1
        elif not self._data:
            return
        elif tag == "c" and len(self.stack) == self._data + 1:
            self._cell_start(_attribute(attributes, "r"))
        elif tag == "row" and len(self.stack) == self._data:
            # A row's cells are refused where they land; an empty row costs a reader nothing, but
            # counts, so that millions of them cannot keep this pass busy either.
            self._count()
            number = _attribute(attributes, "r")
            self.row = int(number) if number and number.isdigit() else self.row + 1
            self.col = 0
            if _attribute(attributes, "hidden") in ("1", "true"):
                self.hidden_rows.append(self.row - 1)
        elif self._in_cell:
            if tag == "f":
                self._formula = True
            elif tag == "v":
                self._in_value = True

    def _position(self, ref: str | None) -> tuple[int, int]:
        """(row, column), 1-based, of a cell: its reference in any case, else after the previous
        cell of its row."""
        if ref:
            letters = ref.rstrip("0123456789")
            digits = ref[len(letters):]
            if digits and 1 <= len(letters) <= 3:
                col = self._columns.get(letters)
                if col is None and letters.isascii() and letters.isalpha():
                    col = self._columns[letters] = _column_number(letters)
                if col is not None:
                    return max(int(digits), 1), col
        return max(self.row, 1), self.col + 1

    def _count(self) -> None:
        self.cells.count += 1
        if self.cells.count > MAX_CELLS:
            raise UnreadableWorkbook(f"le classeur contient plus de {MAX_CELLS:,} cellules".replace(",", " "),
                                     TOO_BIG_FIX)

    def _cell_start(self, ref: str | None) -> None:
        self._count()
        row, col = self._position(ref)
        self.row, self.col = row, col
        if row > MAX_ROWS or col > MAX_COLUMNS:
            raise self._refuse(row, col)
        if row > self.max_row or col > self.max_col:
            self.max_row, self.max_col = max(self.max_row, row), max(self.max_col, col)
            if self.max_row * self.max_col > MAX_AREA:
                raise UnreadableWorkbook(
                    f"la feuille « {self.sheet} » s’étend de A1 à {cell_name(self.max_row - 1, self.max_col - 1)}, "
                    "bien au-delà d’un tableau de résultats",
                    "supprimez les lignes et colonnes inutilisées, ou copiez les résultats dans un classeur neuf")
        self._in_cell = True
        self._formula = self._value = False

    def text(self, data: str) -> None:
        if self._in_value and data.strip():
            self._value = True

    def end(self, tag: str) -> None:
        if tag == "v":
            self._in_value = False
        elif tag == "c" and self._in_cell and len(self.stack) == self._data + 1:
            if self._formula:
                self.formulas[cell_name(self.row - 1, self.col - 1)] = self._value
            self._in_cell = False
        elif tag == "sheetData":
            self._data = 0


def _is_xml(name: str) -> bool:
    return name.lower().endswith((".xml", ".rels", ".vml"))


# Parts no workbook reader reads (document properties, the theme, drawings and charts, the package's
# list of content types: calamine finds parts by name): not parsed, so that damage there refuses
# nothing a reader could read.
_UNREAD = ("docprops/", "xl/theme/", "xl/drawings/", "xl/charts/", "xl/diagrams/", "xl/media/", "customxml/",
           "[content_types].xml")


def inspect(path: Path, inflated_at_most: int | None = None, decoded_at_most: int | None = None) -> WorkbookFacts:
    """Refuse what no reader should open; list sheets, visibility, hidden rows and formula cells.

    Raises UnreadableWorkbook, and only that, for anything wrong with the file's content; an
    OSError says the file itself could not be read. The other formats calamine reads (.ods, .xlsb,
    .xls) have their own checks (precheck_formats.py). With those bounds, raises Larger for a
    package declared to inflate to more bytes than `inflated_at_most` (before parsing anything:
    what a parse costs is bounded too), for one whose reader's answer the facts do not bound within
    `decoded_at_most`, and for every other format."""
    if path.suffix.lower() in (".ods", ".xlsb", ".xls"):
        if inflated_at_most is not None or decoded_at_most is not None:
            raise Larger()
        return precheck_formats.inspect(path)
    with open(path, "rb") as handle:
        head = handle.read(8)
    if head == OLE2_MAGIC:
        raise UnreadableWorkbook(
            "le fichier est protégé par un mot de passe (ou est un ancien classeur .xls renommé)",
            "enregistrez-le sans mot de passe au format .xlsx",
        )
    try:
        archive = zipfile.ZipFile(path)
    except (zipfile.BadZipFile, EOFError, ValueError, NotImplementedError, zlib.error):
        raise UnreadableWorkbook(
            "le fichier n’est pas un classeur .xlsx lisible (fichier abîmé ou d’un autre format)",
            "ouvrez-le dans Excel ou LibreOffice et enregistrez-le au format .xlsx",
        ) from None
    with archive:
        try:
            facts = _inspect(archive, quick=True, inflated_at_most=inflated_at_most)
        except UnreadableWorkbook:
            # The quick pass's counts are bounds: the exact pass says whether the file is refused, and why.
            facts = _inspect(archive, quick=False, inflated_at_most=inflated_at_most)
    if decoded_at_most is not None and facts.decoded_at_most > decoded_at_most:
        raise Larger()
    return facts



def _inspect(archive: zipfile.ZipFile, quick: bool, inflated_at_most: int | None) -> WorkbookFacts:
    by_name = bounded_parts(archive)
    if inflated_at_most is not None and sum(entry.file_size for entry in by_name.values()) > inflated_at_most:
        raise Larger()
    if "xl/workbook.xml" not in by_name:
        raise UnreadableWorkbook(
            "le fichier n’est pas un classeur Excel (.xlsx)",
            "enregistrez-le au format .xlsx",
        )
    budget = _Budget()
    workbook = _WorkbookPart("xl/workbook.xml")
    workbook.parse(archive, by_name["xl/workbook.xml"], budget, quick)
    rels = _RelationshipsPart("xl/_rels/workbook.xml.rels")
    if rels.name in by_name:
        rels.parse(archive, by_name[rels.name], budget, quick)
    facts = WorkbookFacts(sheets=[], values_not_computed=workbook.values_not_computed)
    cells = _Cells()
    scanned: dict[str, _Part] = {workbook.name: workbook, rels.name: rels}
    shared_strings = 0
    for name, hidden, rel_id in workbook.sheets:
        sheet_facts = SheetFacts(name=name, hidden=hidden)
        facts.sheets.append(sheet_facts)
        target = rels.targets.get(rel_id or "")
        if target is None or target not in by_name:
            continue
        if target not in scanned:
            scanned[target] = _SheetPart(target, name, cells)
            scanned[target].parse(archive, by_name[target], budget, quick)
        part = scanned[target]
        if isinstance(part, _SheetPart):
            sheet_facts.formulas = part.formulas
            sheet_facts.hidden_rows = tuple(part.hidden_rows)
    # The other XML parts a reader may read (shared strings, styles, a sheet no relationship names):
    # well-formed, no DTD, and cells bounded wherever a sheetData appears. Binary parts (images,
    # macros) and the parts of _UNREAD are read by no reader, nor here.
    for name, entry in by_name.items():
        if name in scanned or entry.is_dir() or not _is_xml(name) or name.lower().startswith(_UNREAD):
            continue
        if posixpath.basename(name).lower() == "sharedstrings.xml":
            _SharedStringsPart(name).parse(archive, entry, budget, quick)
            shared_strings += entry.file_size  # a zip entry inflates to its declared size at most
        else:
            scanned[name] = _SheetPart(name, clean_text(posixpath.basename(name)), cells)
            scanned[name].parse(archive, entry, budget, quick)
    area = sum(part.max_row * part.max_col for part in scanned.values() if isinstance(part, _SheetPart))
    facts.decoded_at_most = cells.count * (shared_strings + CELL_BYTES) + area * CELL_BYTES
    return facts
