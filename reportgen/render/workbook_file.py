"""A workbook of inputs/ edited in place by the secretary's commands (players merge and distinct,
and the circuits' own commands that add to a workbook), safely for the file she keeps:

- refused while it is open in Excel or LibreOffice (their lock file `~$name.xlsx` or
  `.~lock.name.xlsx#` lies beside it) or when it is read-only: her protection is hers to lift;
- one writer at a time: `fcntl.flock` on `.~reportgen.<name>.lock` beside it (render/files.one_writer,
  which `inbox` takes too), held across the whole read-modify-write, so that two commands at once
  each see the other's change;
- a symbolic link is written through: its target is replaced atomically, the link stays;
- the file keeps its permissions;
- a formula keeps its formula and the value Excel computed (openpyxl writes a formula with no value,
  which every reader but Excel takes as empty, and flags every value as to be recomputed): the
  workbook is loaded a second time for values (`data_only=True`), each formula the edit did not
  touch gets its value back in the saved sheet's XML, and the file's own "recompute on opening"
  flag is kept."""

from __future__ import annotations

import io
import re
import stat
import zipfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from xml.sax.saxutils import escape

import openpyxl
from openpyxl.utils.datetime import to_excel

from reportgen.ingest import precheck
from reportgen.model import ReportgenError
from reportgen.render.files import one_writer, write_atomic


class WorkbookBusy(ReportgenError):
    """The workbook cannot be edited now (open in a spreadsheet, read-only): a French sentence."""


def _spreadsheet_locks(path: Path) -> list[Path]:
    """The lock files Excel and LibreOffice leave beside a workbook they have open."""
    return [path.parent / f"~${path.name}", path.parent / f".~lock.{path.name}#"]


def _refuse_busy(path: Path, target: Path) -> None:
    for lock in [*_spreadsheet_locks(path), *_spreadsheet_locks(target)]:
        if lock.exists():
            raise WorkbookBusy(f"{path} est ouvert dans Excel ou LibreOffice ({lock.name} est à côté) : fermez-le "
                               f"puis relancez la commande ; si aucun tableur ne l’a ouvert, supprimez {lock}")
    if target.exists() and not stat.S_IMODE(target.stat().st_mode) & stat.S_IWUSR:
        raise WorkbookBusy(f"{path} est en lecture seule : retirez sa protection en écriture (propriétés du "
                           f"fichier, ou chmod u+w {path}) puis relancez la commande")


@contextmanager
def editing(path: Path) -> Iterator[Path]:
    """Hold the workbook `path` for one read-modify-write; yields the file to read and write (the
    target of a symbolic link). Waits while another reportgen command edits it."""
    with one_writer(path) as target:
        _refuse_busy(path, target)  # checked once the lock is ours: the file as we will read it
        yield target


class EditedWorkbook:
    """A workbook loaded for editing (`book`, formulas as formulas; a new empty one if there is no
    file), saved with the computed values of the formulas the edit left alone."""

    def __init__(self, path: Path):
        self.book = openpyxl.load_workbook(path) if path.exists() else openpyxl.Workbook()
        self._formulas: dict[tuple[str, str], tuple[object, object, str]] = {}
        if path.exists():
            # openpyxl asks every spreadsheet to recompute on opening (a flag saying the saved values
            # are placeholders, as reportgen reads it) unless told otherwise: the file's own flag kept.
            self.book.calculation.fullCalcOnLoad = precheck.inspect(path).values_not_computed
        values = None
        for sheet in self.book.worksheets:
            for row in sheet.iter_rows():
                for cell in row:
                    if cell.data_type != "f":
                        continue
                    values = values or openpyxl.load_workbook(path, data_only=True)
                    computed = values[sheet.title][cell.coordinate]
                    if computed.value is not None:
                        self._formulas[sheet.title, cell.coordinate] = (cell.value, computed.value,
                                                                        computed.data_type)

    def save(self, target: Path) -> None:
        """Write the workbook to `target` atomically, keeping its permissions."""
        buffer = io.BytesIO()
        self.book.save(buffer)
        mode = stat.S_IMODE(target.stat().st_mode) if target.exists() else None
        write_atomic(target, self._with_values(buffer.getvalue()), mode)

    def _with_values(self, data: bytes) -> bytes:
        parts: dict[str, dict[str, tuple[object, str]]] = {}
        for (title, coordinate), (formula, value, kind) in self._formulas.items():
            if title in self.book.sheetnames and self.book[title][coordinate].value is formula:  # untouched
                parts.setdefault(self.book[title].path.lstrip("/"), {})[coordinate] = (value, kind)
        if not parts:
            return data
        source = zipfile.ZipFile(io.BytesIO(data))
        output = io.BytesIO()
        with zipfile.ZipFile(output, "w", zipfile.ZIP_DEFLATED) as written:
            for info in source.infolist():
                content = source.read(info)
                if info.filename in parts:
                    content = _patch(content.decode("utf-8"), parts[info.filename]).encode("utf-8")
                written.writestr(info, content)
        return output.getvalue()


# A formula cell as openpyxl writes it: `<c r="A2" s="1"><f>11000+463</f><v /></c>` (the formula's
# text is escaped, so it holds no "<").
_FORMULA_CELL = re.compile(r'<c r="(?P<ref>[A-Z]+[0-9]+)"(?P<attrs>[^>]*)>(?P<f><f[^>]*>[^<]*</f>)<v />')


def _patch(xml: str, values: dict[str, tuple[object, str]]) -> str:
    def computed(match: re.Match[str]) -> str:
        if match["ref"] not in values:
            return match[0]
        value, kind = values[match["ref"]]
        if kind == "b":
            kind, text = ' t="b"', "1" if value else "0"
        elif kind == "e":
            kind, text = ' t="e"', escape(str(value))
        elif isinstance(value, str):
            kind, text = ' t="str"', escape(value)
        else:  # a number (a date: its serial number, as Excel keeps it)
            number = value if isinstance(value, (int, float)) else to_excel(value)  # type: ignore[arg-type]
            kind, text = "", repr(number)
        return f'<c r="{match["ref"]}"{match["attrs"]}{kind}>{match["f"]}<v>{text}</v>'

    return _FORMULA_CELL.sub(computed, xml)
