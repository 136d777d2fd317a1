"""Which files of inputs/ are read (docs/formats.md, "Files the reader skips")."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path

from reportgen.model import MistypedName

# Every spreadsheet format calamine reads, with the same tolerance and messages.
WORKBOOK_SUFFIXES = {".xlsx", ".xlsm", ".xlsb", ".xls", ".ods"}
# Files that look like results but are no workbook: said to the secretary rather than dropped silently.
OTHER_SPREADSHEETS = {".csv", ".numbers"}


def discover(inputs: Path) -> tuple[list[Path], list[Path]]:
    """(workbooks to read, spreadsheets skipped), sorted so that builds are reproducible."""
    workbooks: list[Path] = []
    skipped: list[Path] = []
    for path, workbook in _spreadsheets(inputs, sorted(inputs.rglob("*"))):
        (workbooks if workbook else skipped).append(path)
    return workbooks, skipped


def holds_workbook(inputs: Path) -> bool:
    """Whether `discover` would find a workbook to read in `inputs`, a folder that exists
    (`folder_named`): the first one found answers, the folder is not listed whole."""
    folder_named(inputs)
    return any(workbook for _, workbook in _spreadsheets(inputs, inputs.rglob("*")))


def folder_named(inputs: Path) -> None:
    """A folder of workbooks that does not exist is a mistyped --inputs (README: exit 2), not a
    problem in a workbook: said in one line by every command that reads the league."""
    if not inputs.is_dir():
        raise MistypedName(f"le dossier des classeurs {inputs} n’existe pas — indiquez le bon dossier avec --inputs")


def _spreadsheets(inputs: Path, paths: Iterable[Path]) -> Iterator[tuple[Path, bool]]:
    """Each of `paths` (under `inputs`) that is a spreadsheet, and whether it is a workbook to read
    (else one skipped)."""
    for path in paths:
        relative = path.relative_to(inputs)
        # A link to a file that is gone is kept, as the workbook it was meant to be: its reading
        # then says the file cannot be opened, rather than the results disappearing without a word.
        if any(part.startswith((".", "~$")) for part in relative.parts) or not (
                path.is_file() or path.is_symlink() and not path.exists()):
            continue
        suffix = path.suffix.lower()
        if suffix in WORKBOOK_SUFFIXES or suffix in OTHER_SPREADSHEETS:
            yield path, suffix in WORKBOOK_SUFFIXES
