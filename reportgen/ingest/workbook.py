"""Workbooks to sheets of located cells, read safely: what the pipeline calls (`read_workbooks`,
`start_readers`, `stop_workers`), the `Sheet` and `Workbook` it gets (ingest/sheets.py), how a file
is named in messages (`label_of`) and the notices of what Excel hides (`hidden_notices`).

Reading goes through calamine (the fastest sound reader: measured 8x openpyxl) after the zip
pre-check, one file at a time (ingest/file_reader.py), inside worker processes
(ingest/reading_worker.py) that the build's process feeds and watches (ingest/reading_pool.py): a
file that makes a reader crash, balloon or run for too long becomes one located problem instead of
killing or stalling the build.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

from reportgen.ingest import reading_pool
from reportgen.ingest.file_reader import utf8_named
from reportgen.ingest.reading_pool import start_readers, stop_workers
from reportgen.ingest.sheets import Sheet, Workbook
from reportgen.ingest.text import escape_controls
from reportgen.model import Problem, SourceRef
from reportgen.problems import UNREADABLE

__all__ = ["Sheet", "Workbook", "hidden_notices", "label_of", "misnamed", "read_workbooks", "start_readers", "stop_workers",
           "utf8_named"]


def _filled(row: Sequence[object]) -> bool:
    return any(value not in ("", None) for value in row)


def _row_ranges(rows: list[int]) -> str:
    """1-based rows as the secretary reads them: « la ligne 5 », « les lignes 5 à 7 et 10 »."""
    ranges: list[list[int]] = []
    for row in rows:
        if ranges and row == ranges[-1][1] + 1:
            ranges[-1][1] = row
        else:
            ranges.append([row, row])
    shown = [f"{first + 1}" if first == last else f"{first + 1} à {last + 1}" for first, last in ranges]
    listed = shown[0] if len(shown) == 1 else ", ".join(shown[:-1]) + " et " + shown[-1]
    return f"la ligne {listed}" if len(rows) == 1 else f"les lignes {listed}"


def hidden_notices(workbook: Workbook) -> list[str]:
    """What Excel hides and reportgen reads all the same, said (a notice, not a refusal): a hidden
    sheet it read, and the hidden rows that hold something in a sheet it read."""
    notices = []
    for sheet in workbook.consulted:
        filled = [index for index, row in enumerate(sheet.rows) if _filled(row)]
        if sheet.hidden and filled:
            notices.append(f"{workbook.label} : la feuille « {sheet.name} » est masquée dans Excel ; ses "
                           f"{len(filled)} lignes remplies sont comptées (affichez-la pour la vérifier, ou "
                           "supprimez-la si elle ne doit pas compter)")
        hidden = [row for row in sheet.hidden_rows if row < len(sheet.rows) and _filled(sheet.rows[row])]
        if hidden:
            verb = "est masquée" if len(hidden) == 1 else "sont masquées"
            notices.append(f"{workbook.label} : {_row_ranges(hidden)} de la feuille « {sheet.name} » {verb} dans "
                           "Excel et comptée" + ("s" if len(hidden) > 1 else "")
                           + " (affichez-les pour les vérifier, ou supprimez-les si elles ne doivent pas compter)")
    return notices



def label_of(path: Path, root: Path) -> str:
    """A file as messages name it: relative to inputs/, control characters shown as escapes (a
    newline in a file name would forge a line of the problem list)."""
    return escape_controls(path.relative_to(root).as_posix() if path.is_relative_to(root) else path.name)


# A file whose name is no UTF-8 (a zip made on Windows, unpacked here): the programs the secretary
# opens it with, and every output that would name it, cannot be trusted with that name, and only
# she can give it one. Read all the same, so that its `Circuit` says whom it holds back (`misnamed`).
NOT_UTF8 = ("error", "le nom de ce fichier n’est pas écrit en UTF-8 (souvent un fichier sorti d’une archive zip "
            "faite sous Windows) : aucun programme ne l’ouvre sûrement sous ce nom",
            "renommez le fichier (sans accent, ou dans votre explorateur de fichiers)")


def misnamed(workbook: Workbook) -> Problem:
    """The refusal of a workbook read though its name is no UTF-8 (`utf8_named`): the caller says it
    in the workbook's circuit, which it reads first, and parses nothing else of it."""
    return UNREADABLE(SourceRef(workbook.label), message=NOT_UTF8[1], fix=NOT_UTF8[2])


def read_workbooks(paths: list[Path], root: Path, known: Mapping[Path, tuple[int, list[Sheet]]] | None = None,
                   fresh: dict[Path, tuple[int, list[Sheet]]] | None = None,
                   done: Callable[[], None] = lambda: None) -> tuple[list[Workbook], list[Problem]]:
    """Read every workbook; a file that cannot be read becomes a Problem, never an exception.

    `known` gives the sheets of files read before (their content unchanged), with the size of the
    answer their reader sent: they are not read again, and count in what the parent may hold.
    `fresh`, when given, receives the sheets (and answer size) of each file read now. `done` is
    called after each file read. A file whose name is no UTF-8 is read as any other (its caller
    refuses it: `misnamed`); unreadable, its name is said as what to correct first."""
    outcomes: dict[Path, tuple] = {}
    wanted = set(paths)  # once: made for each known file, it cost 3 CPU-s at 100x (4,000 x 4,000)
    held = {path: entry for path, entry in (known or {}).items() if path in wanted}
    kept: dict[Path, int] = {}
    if paths:
        try:
            found, kept = reading_pool.read_all([path for path in paths if path not in held], held, done)
            outcomes |= found
        except BaseException:  # Ctrl-C, or anything unforeseen: no worker left reading behind us
            stop_workers()
            raise
    if fresh is not None:
        fresh.update({path: (kept[path], outcomes[path][1]) for path in paths
                      if path not in held and path in kept and outcomes[path][0] == "ok"})
    workbooks, problems = [], []
    for path in paths:
        label = label_of(path, root)
        outcome = outcomes[path]
        if outcome[0] != "ok" and not utf8_named(path):
            outcome = NOT_UTF8
        if outcome[0] == "ok":
            workbooks.append(Workbook(path, label, outcome[1]))
        else:
            problems.append(UNREADABLE(SourceRef(label), message=outcome[1], fix=outcome[2]))
    return workbooks, problems
