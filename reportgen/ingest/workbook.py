"""Workbooks to sheets of located cells, read safely.

Reading goes through calamine (the fastest sound reader: measured 8x openpyxl) inside
worker processes with an address-space limit, after the zip pre-check: a file that makes a reader
crash or balloon becomes one located problem instead of killing the build.
"""

from __future__ import annotations

import multiprocessing
import os
import resource
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from pathlib import Path

from reportgen.ingest import precheck
from reportgen.ingest.text import normalise_label
from reportgen.model import Problem, ReportgenError, SourceRef, cell_name

WORKER_MEMORY_LIMIT = 2 * 1024**3  # bytes of address space a reading worker may add


@dataclass
class Sheet:
    name: str
    rows: Sequence[Sequence[object]]  # 0-based; "" for an empty cell, as calamine gives it
    hidden: bool = False
    untrusted_formulas: set[str] = field(default_factory=set)

    def value(self, row: int, col: int) -> object:
        if row < len(self.rows) and col < len(self.rows[row]):
            return self.rows[row][col]
        return ""


@dataclass
class Workbook:
    path: Path
    label: str  # the path as the secretary sees it, relative to inputs/
    sheets: list[Sheet]

    def sheet(self, name: str) -> Sheet | None:
        """The sheet of that name, ignoring case, accents and punctuation; visible ones first."""
        wanted = normalise_label(name)
        matches = [sheet for sheet in self.sheets if normalise_label(sheet.name) == wanted]
        matches.sort(key=lambda sheet: sheet.hidden)
        return matches[0] if matches else None

    def ref(self, sheet: Sheet | None = None, row: int | None = None, col: int | None = None,
            column: str | None = None) -> SourceRef:
        cell = cell_name(row, col) if row is not None and col is not None else None
        return SourceRef(self.label, sheet.name if sheet else None, cell, column)


def _limit_memory() -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    with open("/proc/self/statm") as statm:
        current = int(statm.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    limit = current + WORKER_MEMORY_LIMIT
    if hard != resource.RLIM_INFINITY:
        limit = min(limit, hard)
    resource.setrlimit(resource.RLIMIT_AS, (limit, hard))


def _load(path: str) -> tuple:
    """Runs in a worker: ("ok", sheets) or ("error", message, fix)."""
    try:
        facts = precheck.inspect(Path(path))
    except precheck.UnreadableWorkbook as refused:
        return ("error", refused.message, refused.fix)
    except OSError as error:
        return ("error", f"le fichier ne peut pas être ouvert ({error.strerror})", "")
    from python_calamine import CalamineWorkbook

    try:
        book = CalamineWorkbook.from_path(path)
        sheets = []
        for meta in book.sheets_metadata:
            hidden = str(meta.visible).rsplit(".", 1)[-1] != "Visible"
            # skip_empty_area=False keeps A1 at [0][0], so cell names stay true.
            rows = book.get_sheet_by_name(meta.name).to_python(skip_empty_area=False)
            sheets.append(Sheet(meta.name, rows, hidden, facts.untrusted_formula_cells(meta.name)))
    except MemoryError:
        return ("error", "le fichier demande trop de mémoire pour être lu",
                "copiez les résultats dans un classeur neuf")
    except Exception as error:  # calamine raises plain exceptions on corrupt content
        return ("error", f"le fichier est abîmé et ne peut pas être lu ({error})",
                "ouvrez-le dans Excel ou LibreOffice et enregistrez-le à nouveau")
    return ("ok", sheets)


def _ready() -> bool:
    return True


def _pool(workers: int) -> ProcessPoolExecutor:
    # spawn, not fork: the parent may hold threads (BLAS) and a forked child could deadlock.
    context = multiprocessing.get_context("spawn")
    return ProcessPoolExecutor(max_workers=workers, mp_context=context, initializer=_limit_memory)


_readers: ProcessPoolExecutor | None = None


def _reading_pool() -> ProcessPoolExecutor:
    """The two reading workers, started once per process and kept for every later read: starting
    spawned workers costs about half a second, which a process reading many leagues (`masters
    prepare` then a build, the test suite) pays once."""
    global _readers
    if _readers is None:
        pool = _pool(2)
        try:
            pool.submit(_ready).result()
        except BrokenProcessPool:
            # Not a file's fault: the workers could not start at all.
            raise ReportgenError("les processus de lecture des classeurs n'ont pas pu démarrer "
                                 "(lancez reportgen depuis sa commande, pas depuis l'entrée standard)") from None
        _readers = pool
    return _readers


def _discard_reading_pool() -> None:
    global _readers
    if _readers is not None:
        _readers.shutdown(wait=False, cancel_futures=True)
        _readers = None


def read_workbooks(paths: list[Path], root: Path) -> tuple[list[Workbook], list[Problem]]:
    """Read every workbook; a file that cannot be read becomes a Problem, never an exception."""
    outcomes: dict[Path, tuple] = {}
    if paths:
        pool = _reading_pool()
        futures = {path: pool.submit(_load, str(path)) for path in paths}
        for path, future in futures.items():
            try:
                outcomes[path] = future.result()
            except BrokenProcessPool:
                _discard_reading_pool()  # a file killed a worker: the pool is unusable
                break
        for path in paths:  # a worker died: find which file did it, one process each
            if path not in outcomes:
                with _pool(1) as single:
                    try:
                        outcomes[path] = single.submit(_load, str(path)).result()
                    except BrokenProcessPool:
                        outcomes[path] = ("error", "le lecteur de classeurs s'est arrêté "
                                          "brutalement sur ce fichier",
                                          "copiez les résultats dans un classeur neuf")
    workbooks, problems = [], []
    for path in paths:
        label = path.relative_to(root).as_posix() if path.is_relative_to(root) else path.name
        outcome = outcomes[path]
        if outcome[0] == "ok":
            workbooks.append(Workbook(path, label, outcome[1]))
        else:
            problems.append(Problem(SourceRef(label), outcome[1], outcome[2], code="unreadable"))
    return workbooks, problems
