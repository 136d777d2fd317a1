"""What every pre-check shares (precheck.py for .xlsx, precheck_formats.py for the other formats):
the bounds, the verdicts (`UnreadableWorkbook`, `Larger`), the facts a reader is given, the budget of
bytes inflated, an XML part streamed through defusedxml's parser (or expat alone when plain), and the
package's bounds. Its own module so that neither pre-check imports the other for it."""

from __future__ import annotations

import re
import zipfile
import zlib
from collections.abc import Iterator
from dataclasses import dataclass, field
from xml.parsers.expat import ExpatError, ParserCreate

from defusedxml import DefusedXmlException
from defusedxml.ElementTree import DefusedXMLParser, ParseError

from reportgen.ingest.text import clean_text

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


def _attribute(attributes: list[str], name: str) -> str | None:
    """expat's ordered attributes [name, value, ...], matched on the local name."""
    for index in range(0, len(attributes) - 1, 2):
        if _local(attributes[index]) == name:
            return attributes[index + 1]
    return None


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

