"""Which files of inputs/ are read (docs/formats.md, "Files the reader skips")."""

from __future__ import annotations

from pathlib import Path

from reportgen.model import MistypedName

# Every spreadsheet format calamine reads, with the same tolerance and messages.
WORKBOOK_SUFFIXES = {".xlsx", ".xlsm", ".xlsb", ".xls", ".ods"}
# Files that look like results but are no workbook: said to the secretary rather than dropped silently.
OTHER_SPREADSHEETS = {".csv", ".numbers"}


def discover(inputs: Path) -> tuple[list[Path], list[Path]]:
    """(workbooks to read, spreadsheets skipped), sorted so that builds are reproducible."""
    workbooks, skipped = [], []
    for path in sorted(inputs.rglob("*")):
        relative = path.relative_to(inputs)
        # A link to a file that is gone is kept, as the workbook it was meant to be: its reading
        # then says the file cannot be opened, rather than the results disappearing without a word.
        if any(part.startswith((".", "~$")) for part in relative.parts) or not (
                path.is_file() or path.is_symlink() and not path.exists()):
            continue
        suffix = path.suffix.lower()
        if suffix in WORKBOOK_SUFFIXES:
            workbooks.append(path)
        elif suffix in OTHER_SPREADSHEETS:
            skipped.append(path)
    return workbooks, skipped


def folder_named(inputs: Path) -> None:
    """A folder of workbooks that does not exist is a mistyped --inputs (README: exit 2), not a
    problem in a workbook: said in one line by every command that reads the league."""
    if not inputs.is_dir():
        raise MistypedName(f"le dossier des classeurs {inputs} n’existe pas — indiquez le bon dossier avec --inputs")
