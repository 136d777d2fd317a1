"""A cheap look inside an .xlsx before any reader touches it.

Why (measured): calamine aborts the whole process on a well-formed file whose cells
span A1:XFD1048576, no reader limits the zip decompression ratio, and a formula written by a program
(not by Excel or LibreOffice) has no computed value, so readers silently return 0 or nothing. This
pass reads the zip directory and streams each sheet's XML once to refuse those files with a clear
message and to list the formula cells, so the reader can refuse a formula with no trustworthy value.
"""

from __future__ import annotations

import io
import posixpath
import re
import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from xml.etree import ElementTree

MAX_ENTRIES = 2_000
MAX_UNCOMPRESSED = 200 * 1024 * 1024
MAX_RATIO = 150  # a normal workbook compresses 5-20x; zip bombs compress 1000x
MAX_ROWS = 100_000
MAX_COLUMNS = 1_000

OLE2_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
NS_MAIN = "{http://schemas.openxmlformats.org/spreadsheetml/2006/main}"
NS_REL = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}"
CELL_REF = re.compile(r"([A-Z]{1,3})(\d+)$")


class UnreadableWorkbook(Exception):
    """The file is not a workbook the reader may open; the message says why, in French."""

    def __init__(self, message: str, fix: str = ""):
        super().__init__(message)
        self.message = message
        self.fix = fix


@dataclass
class SheetFacts:
    name: str
    hidden: bool
    # Formula cells ("B7") and whether a spreadsheet program saved their computed value.
    formulas: dict[str, bool] = field(default_factory=dict)


@dataclass
class WorkbookFacts:
    sheets: list[SheetFacts]
    # Set by programs that write formulas without computing them (XlsxWriter): the saved values
    # of formula cells are placeholders, not results.
    values_not_computed: bool = False

    def untrusted_formula_cells(self, sheet: str) -> set[str]:
        for facts in self.sheets:
            if facts.name == sheet:
                return {
                    ref for ref, has_value in facts.formulas.items()
                    if not has_value or self.values_not_computed
                }
        return set()


def _column_number(letters: str) -> int:
    number = 0
    for letter in letters:
        number = number * 26 + ord(letter) - 64
    return number


def _read_entry(archive: zipfile.ZipFile, name: str) -> bytes:
    with archive.open(name) as stream:
        data = stream.read(MAX_UNCOMPRESSED + 1)
    if len(data) > MAX_UNCOMPRESSED:
        raise UnreadableWorkbook("le fichier est anormalement volumineux une fois décompressé")
    if b"<!DOCTYPE" in data or b"<!ENTITY" in data:
        raise UnreadableWorkbook(
            "le fichier contient des déclarations XML interdites (DOCTYPE/ENTITY)",
            "réenregistrez-le depuis Excel ou LibreOffice",
        )
    return data


def inspect(path: Path) -> WorkbookFacts:
    """Refuse what no reader should open; list sheets, visibility and formula cells."""
    with open(path, "rb") as handle:
        head = handle.read(8)
    if head == OLE2_MAGIC:
        raise UnreadableWorkbook(
            "le fichier est protégé par un mot de passe (ou est un ancien classeur .xls renommé)",
            "enregistrez-le sans mot de passe au format .xlsx",
        )
    try:
        archive = zipfile.ZipFile(path)
    except zipfile.BadZipFile:
        raise UnreadableWorkbook(
            "le fichier n'est pas un classeur .xlsx lisible (fichier abîmé ou d'un autre format)",
            "ouvrez-le dans Excel ou LibreOffice et enregistrez-le au format .xlsx",
        ) from None
    with archive:
        entries = archive.infolist()
        if len(entries) > MAX_ENTRIES:
            raise UnreadableWorkbook(f"le classeur contient {len(entries)} éléments internes, bien trop")
        total = sum(entry.file_size for entry in entries)
        compressed = sum(entry.compress_size for entry in entries) or 1
        if total > MAX_UNCOMPRESSED or (total / compressed > MAX_RATIO and total > 10 * 1024 * 1024):
            raise UnreadableWorkbook("le fichier est anormalement volumineux une fois décompressé")
        names = {entry.filename for entry in entries}
        if "xl/workbook.xml" not in names:
            raise UnreadableWorkbook(
                "le fichier n'est pas un classeur Excel (.xlsx)",
                "enregistrez-le au format .xlsx",
            )
        workbook = ElementTree.fromstring(_read_entry(archive, "xl/workbook.xml"))
        targets = {}
        if "xl/_rels/workbook.xml.rels" in names:
            rels = ElementTree.fromstring(_read_entry(archive, "xl/_rels/workbook.xml.rels"))
            for rel in rels:
                target = rel.get("Target", "")
                target = target.lstrip("/") if target.startswith("/") else posixpath.normpath(
                    posixpath.join("xl", target))
                targets[rel.get("Id")] = target
        calc = workbook.find(f"{NS_MAIN}calcPr")
        facts = WorkbookFacts(
            sheets=[],
            values_not_computed=calc is not None and calc.get("fullCalcOnLoad") in ("1", "true"),
        )
        sheets = workbook.find(f"{NS_MAIN}sheets")
        for sheet in sheets if sheets is not None else ():
            sheet_facts = SheetFacts(
                name=sheet.get("name", ""),
                hidden=sheet.get("state", "visible") != "visible",
            )
            facts.sheets.append(sheet_facts)
            sheet_target = targets.get(sheet.get(f"{NS_REL}id"))
            if sheet_target in names:
                _scan_sheet(_read_entry(archive, sheet_target), sheet_facts)
        return facts


def _scan_sheet(xml: bytes, facts: SheetFacts) -> None:
    """Bounding box of the cells (calamine allocates it whole) and the formula cells."""
    for _, element in ElementTree.iterparse(io.BytesIO(xml), events=("end",)):
        if element.tag != f"{NS_MAIN}c":
            continue
        ref = element.get("r", "")
        match = CELL_REF.match(ref)
        if match and (int(match[2]) > MAX_ROWS or _column_number(match[1]) > MAX_COLUMNS):
            raise UnreadableWorkbook(
                f"la feuille '{facts.name}' déclare une cellule en {ref}, bien au-delà d'un "
                "tableau de résultats",
                "supprimez les lignes et colonnes inutilisées, ou copiez les résultats dans un "
                "classeur neuf",
            )
        formula = element.find(f"{NS_MAIN}f")
        if formula is not None:
            value = element.find(f"{NS_MAIN}v")
            facts.formulas[ref] = value is not None and bool(value.text)
        element.clear()
