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
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from xml.parsers.expat import ExpatError, ParserCreate

from defusedxml import DefusedXmlException
from defusedxml.ElementTree import DefusedXMLParser, ParseError

from reportgen.ingest.text import clean_text
from reportgen.model import cell_name

MAX_ENTRIES = 2_000
MAX_UNCOMPRESSED = 200 * 1024 * 1024  # bytes, declared or really inflated, of the whole package
MAX_RATIO = 150  # a normal workbook compresses 5-20x; zip bombs compress 1000x
MAX_ROWS = 100_000
MAX_COLUMNS = 1_000
MAX_AREA = 2_000_000  # cells from A1 to the farthest one of a sheet: what the reader allocates
MAX_CELLS = 4_000_000  # cell and row elements of the whole workbook, repeated ones included
MAX_SHARED_STRINGS = 2_000_000
CHUNK = 64 * 1024
CELL_BYTES = 64  # what a reader's answer holds for one cell besides its text (a Python object and its slot)
QUICK_PART = 8 * 1024 * 1024  # bytes a part may inflate to and still be held whole by the quick pass

OLE2_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"

DAMAGED_FIX = ("demandez au club de le renvoyer, ou ouvrez-le dans Excel ou LibreOffice et enregistrez-le "
               "à nouveau")
TOO_BIG_FIX = "copiez les résultats dans un classeur neuf (Édition > Collage spécial > Valeurs)"


class Larger(Exception):
    """Within every bound, but larger than the caller asked (`inspect(path, inflated_at_most=...,
    decoded_at_most=...)`): a file for a reading worker, not an error."""


class UnreadableWorkbook(Exception):
    """The file is not a workbook the reader may open; the message says why, in French."""

    def __init__(self, message: str, fix: str = ""):
        super().__init__(message)
        self.message = message
        self.fix = fix


def damaged(part: str | None = None) -> UnreadableWorkbook:
    where = f" : la partie « {clean_text(part)} » est illisible" if part else ""
    return UnreadableWorkbook(f"le fichier est endommagé{where}", DAMAGED_FIX)


@dataclass
class SheetFacts:
    name: str
    hidden: bool
    # Formula cells ("B7") and whether a spreadsheet program saved their computed value.
    formulas: dict[str, bool] = field(default_factory=dict)
    hidden_rows: tuple[int, ...] = ()  # 0-based, rows hidden in Excel (`<row hidden="1">`)


@dataclass
class WorkbookFacts:
    sheets: list[SheetFacts]
    # Set by programs that write formulas without computing them (XlsxWriter): the saved values
    # of formula cells are placeholders, not results.
    values_not_computed: bool = False
    # At least what a reader's answer can reach, in bytes: every cell (counted as the pre-check
    # counts them: at least once) a copy of all the shared strings, and a value for each cell of
    # each sheet's rectangle from A1.
    decoded_at_most: int = 0

    def untrusted_formula_cells(self, sheet: str) -> set[str]:
        for facts in self.sheets:
            if facts.name == sheet:
                return {
                    ref for ref, has_value in facts.formulas.items()
                    if not has_value or self.values_not_computed
                }
        return set()

    def hidden_rows(self, sheet: str) -> tuple[int, ...]:
        return next((facts.hidden_rows for facts in self.sheets if facts.name == sheet), ())


def _column_number(letters: str) -> int:
    number = 0
    for letter in letters.upper():
        number = number * 26 + ord(letter) - 64
    return number


def _local(name: str) -> str:
    """A tag or attribute name without its namespace ("ns}c" -> "c"): transitional and strict
    OOXML alike."""
    return name.rpartition("}")[2]


class _Budget:
    """Bytes really inflated from the package, whatever its directory declares."""

    def __init__(self) -> None:
        self.left = MAX_UNCOMPRESSED

    def take(self, size: int) -> None:
        self.left -= size
        if self.left < 0:
            raise UnreadableWorkbook("le fichier est anormalement volumineux une fois décompressé", TOO_BIG_FIX)


class _Part:
    """One XML part streamed through defusedxml's parser; subclasses look at its elements."""

    def __init__(self, name: str):
        self.name = name
        self.stack: list[str] = []  # local names of the open elements
        self._locals: dict[str, str] = {}

    def start(self, tag: str, attributes: list[str]) -> None:
        """An element opens (`tag` is its local name; `self.stack` its ancestors)."""

    def end(self, tag: str) -> None:
        """An element closes (`self.stack` its ancestors)."""

    def text(self, data: str) -> None:
        pass

    def _start(self, tag: str, attributes: list[str]) -> None:
        local = self._locals.get(tag)
        if local is None:
            local = self._locals[tag] = _local(tag)
        self.start(local, attributes)
        self.stack.append(local)

    def _end(self, tag: str) -> None:
        local = self.stack.pop()
        self.end(local)

    # Whether `quick` can take the part's facts; the other parts take the exact pass alone.
    QUICK = False

    def quick(self, data: bytes) -> bool:
        """The part's facts from its well-formed, plain bytes (`_plain`), when they can be had
        without looking at each element: True if taken, False to leave the part to the exact pass."""
        return False

    def _expat(self, plain: bool, per_element: bool):
        if plain:
            # A plain part has no "<!": no DOCTYPE, hence no entity declaration and no external entity,
            # which are all defusedxml adds to expat (an entity reference no DTD declares is an error of
            # expat itself). So expat alone is as safe there, and costs nothing to create, where
            # defusedxml's parser builds an ElementTree parser and its tree builder (0.04 s at 10x).
            # Namespaces are processed as ElementTree does: an unbound prefix is refused alike.
            expat = ParserCreate(None, "}")
            expat.buffer_text = expat.ordered_attributes = True
        else:
            parser = DefusedXMLParser(forbid_dtd=True, forbid_entities=True, forbid_external=True)
            expat = parser.parser  # defusedxml's handlers stay; ours replace the tree builder's
        if per_element:  # else well-formedness alone: no call to Python per element
            expat.StartElementHandler = self._start
            expat.EndElementHandler = self._end
            expat.CharacterDataHandler = self.text
        return expat

    def parse(self, archive: zipfile.ZipFile, info: zipfile.ZipInfo, budget: _Budget, quick: bool = False) -> None:
        try:
            if quick and info.file_size <= QUICK_PART:
                self._parse_whole(archive, info, budget)
                return
            expat = self._expat(plain=False, per_element=True)
            for chunk in _inflated(archive, info, budget):
                expat.Parse(chunk, False)
            expat.Parse(b"", True)
        except DefusedXmlException:
            raise UnreadableWorkbook("le fichier contient des déclarations XML interdites (DOCTYPE/ENTITY)",
                                     "réenregistrez-le depuis Excel ou LibreOffice, ou demandez au club de le "
                                     "renvoyer") from None
        except (ExpatError, ParseError, zipfile.BadZipFile, zlib.error, EOFError, ValueError, NotImplementedError,
                RuntimeError, UnicodeError) as error:
            # XML not well-formed or cut short, and the zip's own damage: CRC, deflate data, header
            raise damaged(self.name) from error

    def _parse_whole(self, archive: zipfile.ZipFile, info: zipfile.ZipInfo, budget: _Budget) -> None:
        """The part held whole (it declares at most QUICK_PART bytes): its facts from `quick` when it
        is plain, else element by element."""
        with archive.open(info) as stream:
            # Never more than its declared size (zipfile stops there, and inflates no more than asked
            # at once), and all of it: its CRC is checked once the declared size is read.
            data = stream.read(info.file_size)
        budget.take(len(data))
        plain = _plain(data)
        if plain and self.QUICK:
            self._expat(plain=True, per_element=False).Parse(data, True)
            if self.quick(data):
                return
        self._expat(plain, per_element=True).Parse(data, True)


def _inflated(archive: zipfile.ZipFile, info: zipfile.ZipInfo, budget: _Budget) -> Iterator[bytes]:
    """A part's bytes, CHUNK by CHUNK (never more inflated at once, whatever the compression ratio),
    counted in the budget."""
    with archive.open(info) as stream:
        while chunk := stream.read(CHUNK):
            budget.take(len(chunk))
            yield chunk


# The quick pass's profile and patterns (module docstring).
_DECLARATION = re.compile(rb'(?:\xef\xbb\xbf)?<\?xml[^>]*?\?>')
_UTF8 = re.compile(rb'encoding\s*=\s*["\'](?:utf-?8|us-ascii)["\']', re.IGNORECASE)
_PREFIX_DECLARED = re.compile(rb"xmlns:([^\s=]+)\s*=")  # a namespace prefix declared (or text that looks so)
# A cell's tag written `<c r="B7"`: its column and row. In a well-formed plain part the closing quote is
# followed by a space, "/" or ">", and every "<c " opens a cell tag.
_CELL = re.compile(rb'<c r="([A-Z]{1,3})([0-9]{1,7})"')
_CELL_OTHERWISE = re.compile(rb"<c[\t\n\r/>]")  # a cell's tag without attributes, or not spaced so
_FORMULA = re.compile(rb"<f[\s/>]")


def _plain(data: bytes) -> bool:
    """UTF-8 (or ASCII), without comment, CDATA, DOCTYPE or processing instruction but the XML
    declaration: in such a well-formed part, every "<" opens a tag. (Each two-byte search is preceded
    by a search of its rarer byte alone, which is much faster.)"""
    if b"\x00" in data or (b"!" in data and b"<!" in data):  # UTF-16 or UTF-32; comment, CDATA, DOCTYPE
        return False
    declaration = _DECLARATION.match(data)
    after = declaration.start() + 2 if declaration else 0  # after the declaration's own "<?"
    if data.find(b"?", after) != -1 and data.find(b"<?", after) != -1:  # a processing instruction
        return False
    return declaration is None or b"encoding" not in declaration.group() or _UTF8.search(declaration.group()) is not None


def _prefixed_tag(data: bytes) -> bool:
    """Whether a tag of this well-formed part has a namespace prefix (<x:c): the part's own
    declarations say which prefixes can be used (expat refuses an undeclared one), "xml" aside."""
    return any(b"<" + prefix + b":" in data for prefix in {b"xml", *_PREFIX_DECLARED.findall(data)})


def _attribute(attributes: list[str], name: str) -> str | None:
    """expat's ordered attributes [name, value, ...], matched on the local name."""
    for index in range(0, len(attributes) - 1, 2):
        if _local(attributes[index]) == name:
            return attributes[index + 1]
    return None


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
            f"la feuille « {self.sheet} » déclare une cellule en {cell_name(row - 1, col - 1)}, bien au-delà d'un "
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
                    f"la feuille « {self.sheet} » s'étend de A1 à {cell_name(self.max_row - 1, self.max_col - 1)}, "
                    "bien au-delà d'un tableau de résultats",
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
        from reportgen.ingest import precheck_formats

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
            "le fichier n'est pas un classeur .xlsx lisible (fichier abîmé ou d'un autre format)",
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


def bounded_parts(archive: zipfile.ZipFile) -> dict[str, zipfile.ZipInfo]:
    """A package's parts by name, once their number and declared sizes are within bounds (any zip
    format: .xlsx, .xlsb, .ods)."""
    entries = archive.infolist()
    if len(entries) > MAX_ENTRIES:
        raise UnreadableWorkbook(f"le classeur contient {len(entries)} éléments internes, bien trop", TOO_BIG_FIX)
    total = sum(entry.file_size for entry in entries)
    compressed = sum(entry.compress_size for entry in entries) or 1
    if total > MAX_UNCOMPRESSED or (total / compressed > MAX_RATIO and total > 10 * 1024 * 1024):
        raise UnreadableWorkbook("le fichier est anormalement volumineux une fois décompressé", TOO_BIG_FIX)
    by_name: dict[str, zipfile.ZipInfo] = {}
    for entry in entries:
        if entry.filename in by_name:  # two parts of one name: readers disagree on which one counts
            raise damaged(entry.filename)
        by_name[entry.filename] = entry
    return by_name


def _inspect(archive: zipfile.ZipFile, quick: bool, inflated_at_most: int | None) -> WorkbookFacts:
    by_name = bounded_parts(archive)
    if inflated_at_most is not None and sum(entry.file_size for entry in by_name.values()) > inflated_at_most:
        raise Larger()
    if "xl/workbook.xml" not in by_name:
        raise UnreadableWorkbook(
            "le fichier n'est pas un classeur Excel (.xlsx)",
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
