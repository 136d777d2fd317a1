"""Workbooks to sheets of located cells, read safely.

Reading goes through calamine (the fastest sound reader: measured 8x openpyxl) after the zip
pre-check, inside worker processes: a file that makes a reader crash, balloon or run for too long
becomes one located problem instead of killing or stalling the build. A few small workbooks (a new
tournament, the example league: up to IN_PROCESS_BYTES on disk together) are read in the build's
own process, each if it inflates to little (what its pre-check costs is bounded) and once its
pre-check has bounded what the reader can decode from it: starting two workers costs more than
reading them (docs/performance.md). For more files, two workers read them, and this process reads
files too, under the same bounds, between their answers: each file's outcome is the same whoever
reads it. A process running a single thread forks its workers (milliseconds); one that runs threads
(pandas' BLAS, a progress bar) spawns them (a fresh interpreter, 0.1 CPU-s each), and reads
meanwhile: a build starts them before either (`start_readers`).

The workers are plain processes fed through pipes, so the parent knows which file each one reads
(each holds the next file too, READ_AHEAD, and answers in order): a worker past its file's time limit
is killed and replaced, a crash names its file at once, and the parent never takes in more than a
bounded answer per file and in all (it reads the answer's length before the answer). Each worker
has an address-space limit, ignores Ctrl-C (the parent stops it), and dies with the parent, even a
parent killed with SIGKILL.
"""

from __future__ import annotations

import errno
import gc
import multiprocessing
import os
import pickle
import resource
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from multiprocessing.connection import Connection, wait
from pathlib import Path

from reportgen.ingest import precheck, precheck_base
from reportgen.ingest.text import Unprintable, clean_text, escape_controls, normalise_label, only_controls
from reportgen.model import Problem, ReportgenError, SourceRef, cell_name
from reportgen.problems import UNREADABLE

WORKER_MEMORY_LIMIT = 2 * 1024**3  # bytes of address space a reading worker may add
FILE_TIME_LIMIT = 60.0  # seconds a worker may spend on one file (the 99,999-player file takes ~5 s)
MAX_ANSWER = 32 * 1024**2  # bytes of one file's sheets, as a worker sends them
MAX_ANSWERS = 128 * 1024**2  # bytes of every file's sheets together: what the parent holds
START_TIME_LIMIT = 60.0  # seconds for a worker to start (spawned: a fresh interpreter)
WORKERS = 2
READ_AHEAD = 2  # files a worker is given ahead: the next is there when it answers, whatever this process does
IN_PROCESS_BYTES = 1024**2  # new workbooks' bytes on disk, together, up to which this process reads them
IN_PROCESS_INFLATED = 2 * 1024**2  # bytes a workbook read here may inflate to (a result workbook: 10-300 KB)
IN_PROCESS_DECODED = 128 * 1024**2  # bytes the pre-check must bound the reader's answer within (a loose bound)


@dataclass
class Sheet:
    name: str
    rows: Sequence[Sequence[object]]  # 0-based, ragged (trailing empty cells dropped); "" for an empty cell
    hidden: bool = False
    untrusted_formulas: set[str] = field(default_factory=set)
    hidden_rows: tuple[int, ...] = ()  # 0-based, rows hidden in Excel (.xlsx; the pre-check finds them)

    def value(self, row: int, col: int) -> object:
        if row < len(self.rows) and col < len(self.rows[row]):
            return self.rows[row][col]
        return ""


@dataclass
class Workbook:
    path: Path
    label: str  # the path as the secretary sees it, relative to inputs/ (control characters escaped)
    sheets: list[Sheet]
    # The sheets looked up by name (read, their rows counted): what `hidden_notices` speaks of.
    consulted: list[Sheet] = field(default_factory=list, repr=False, compare=False)

    def sheet(self, name: str) -> Sheet | None:
        """The sheet of that name, ignoring case, accents and punctuation; visible ones first."""
        wanted = normalise_label(name)
        matches = [sheet for sheet in self.sheets if normalise_label(sheet.name) == wanted]
        matches.sort(key=lambda sheet: sheet.hidden)
        if matches and all(sheet is not matches[0] for sheet in self.consulted):
            self.consulted.append(matches[0])
        return matches[0] if matches else None

    def ref(self, sheet: Sheet | None = None, row: int | None = None, col: int | None = None,
            column: str | None = None) -> SourceRef:
        cell = cell_name(row, col) if row is not None and col is not None else None
        return SourceRef(self.label, sheet.name if sheet else None, cell, column)


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


# -- in a worker --------------------------------------------------------------------------------

def _limit_memory() -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    with open("/proc/self/statm") as statm:
        current = int(statm.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    limit = current + WORKER_MEMORY_LIMIT
    if hard != resource.RLIM_INFINITY:
        limit = min(limit, hard)
    resource.setrlimit(resource.RLIMIT_AS, (limit, hard))


def die_with_parent(parent: int) -> None:
    """Make this worker process end when `parent` ends, however it ends (SIGKILL included), and
    leave Ctrl-C to the parent, which stops its workers itself: Linux's PR_SET_PDEATHSIG, else a
    thread watching the parent's pid."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    armed = False
    if sys.platform.startswith("linux"):
        try:
            import ctypes

            libc = ctypes.CDLL(None, use_errno=True)
            armed = libc.prctl(1, signal.SIGKILL, 0, 0, 0) == 0  # PR_SET_PDEATHSIG
        except (OSError, AttributeError):
            armed = False
    if os.getppid() != parent:  # the parent died before the line above
        os._exit(1)
    if not armed:
        def watch() -> None:
            while os.getppid() == parent:
                time.sleep(0.5)
            os._exit(1)

        threading.Thread(target=watch, daemon=True).start()


@contextmanager
def spawning() -> Iterator[None]:
    """Around the start of spawned workers: they do not run the main script again.

    A spawned process runs the parent's main script again, as a module, before its task (to find
    functions defined there): for `reportgen build`, the command line and everything it imports,
    0.2 s of CPU per worker, for nothing: our workers run functions of reportgen's own modules,
    which they import by name. (A main module run with `python -m` is imported by name instead:
    left as it is.)"""
    main = sys.modules.get("__main__")
    path = getattr(main, "__file__", None)
    if main is None or path is None or getattr(main, "__spec__", None) is not None:
        yield
        return
    del main.__file__
    try:
        yield
    finally:
        main.__file__ = path


def _cell(value: object) -> object:
    """A cell as the reader gives it, without control characters; a text made only of them
    becomes `Unprintable`, which the cell readers refuse."""
    if isinstance(value, str):
        if only_controls(value):
            return Unprintable()
        return clean_text(value)
    return value


def _rows(rows: Sequence[Sequence[object]]) -> list[list[object]]:
    """Cleaned rows, each without its trailing empty cells, without the trailing empty rows:
    what is sent to the parent is the data, not the rectangle calamine fills from A1."""
    trimmed: list[list[object]] = []
    for row in rows:
        end = len(row)
        while end and row[end - 1] == "":
            end -= 1
        # Most cells are numbers or printable texts, which _cell leaves as they are: every character
        # clean_text removes and every one only_controls looks for is unprintable (categories Cc, Cf,
        # Zl, Zp), so a printable text has none (measured at 10x: 0.05 s of cleaning down to 0.02).
        trimmed.append([value if type(value) is not str or value.isprintable() else _cell(value)
                        for value in row[:end]])
    while trimmed and not trimmed[-1]:
        trimmed.pop()
    return trimmed


def _opening_error(error: OSError) -> tuple[str, str, str]:
    if error.errno in (errno.EACCES, errno.EPERM):
        return ("error", "le fichier ne peut pas être lu : l'accès est refusé (droits du fichier)",
                "donnez le droit de lecture sur ce fichier (ou copiez-le dans inputs/ depuis votre session), "
                "puis relancez")
    name = errno.errorcode.get(error.errno or 0, "inconnue")
    return ("error", f"le fichier ne peut pas être ouvert (erreur système {name})",
            "vérifiez que le fichier est bien là et lisible, ou demandez au club de le renvoyer")


def _load(path: str, here: bool = False) -> tuple:
    """Runs in a worker: ("ok", sheets) or ("error", message, fix). `here`, in the build's process:
    raises precheck.Larger for a file larger than IN_PROCESS_INFLATED, or whose reader's answer its
    pre-check does not bound within IN_PROCESS_DECODED."""
    try:
        facts = (precheck.inspect(Path(path), IN_PROCESS_INFLATED, IN_PROCESS_DECODED) if here
                 else precheck.inspect(Path(path)))
    except precheck.Larger:
        raise
    except precheck.UnreadableWorkbook as refused:
        return ("error", refused.message, refused.fix)
    except OSError as error:
        return _opening_error(error)
    except MemoryError:
        return ("error", "le fichier demande trop de mémoire pour être lu", precheck.TOO_BIG_FIX)
    except Exception:  # the pre-check's own limits failed to foresee it: still the file's fault
        return ("error", precheck_base.damaged().message, precheck_base.DAMAGED_FIX)
    from python_calamine import CalamineWorkbook

    try:
        book = CalamineWorkbook.from_path(path)
        sheets = []
        for meta in book.sheets_metadata:
            hidden = str(meta.visible).rsplit(".", 1)[-1] != "Visible"
            # skip_empty_area=False keeps A1 at [0][0], so cell names stay true.
            rows = _rows(book.get_sheet_by_name(meta.name).to_python(skip_empty_area=False))
            name = clean_text(meta.name)  # as the pre-check names it
            sheets.append(Sheet(name, rows, hidden, facts.untrusted_formula_cells(name), facts.hidden_rows(name)))
    except MemoryError:
        return ("error", "le fichier demande trop de mémoire pour être lu", precheck.TOO_BIG_FIX)
    except OSError as error:
        return _opening_error(error)
    except Exception:  # calamine raises plain exceptions on corrupt content
        if Path(path).suffix.lower() != ".ods":
            return ("error", precheck_base.damaged().message, precheck_base.DAMAGED_FIX)
        # A well-formed .ods (the pre-check parsed its content.xml) that calamine cannot follow,
        # such as Gnumeric's: read by the second reader, under the same bounds (ingest/ods.py).
        return _load_ods(path, facts)
    return ("ok", sheets)


def _load_ods(path: str, facts: precheck.WorkbookFacts) -> tuple:
    from reportgen.ingest import ods

    try:
        read = ods.read(Path(path))
    except precheck.UnreadableWorkbook as refused:
        return ("error", refused.message, refused.fix)
    except MemoryError:
        return ("error", "le fichier demande trop de mémoire pour être lu", precheck.TOO_BIG_FIX)
    except OSError as error:
        return _opening_error(error)
    except Exception:  # beyond what either reader can follow: the file's damage
        return ("error", precheck_base.damaged().message, precheck_base.DAMAGED_FIX)
    sheets = []
    for raw_name, rows, hidden in read:
        name = clean_text(raw_name)  # as the pre-check names it
        sheets.append(Sheet(name, _rows(rows), hidden, facts.untrusted_formula_cells(name)))
    return ("ok", sheets)


def _answer(path: str, here: bool = False) -> tuple[tuple, bytes]:
    """One file's outcome and its answer: the outcome pickled, within MAX_ANSWER bytes (its size
    is what the parent holds), else a refusal of the file in both."""
    try:
        outcome = _load(path, here)
        data = pickle.dumps(outcome, protocol=pickle.HIGHEST_PROTOCOL)
    except MemoryError:
        data = b""
    if not data or len(data) > MAX_ANSWER:
        outcome = ("error", "le fichier contient bien plus de données qu'un tableau de résultats", precheck.TOO_BIG_FIX)
        data = pickle.dumps(outcome)
    return outcome, data


def _serve(connection: Connection, parent: int) -> None:
    """A reading worker: a path in, its answer out, until the parent closes the pipe."""
    die_with_parent(parent)
    # Forked: what the parent held is left out of the cycle collector's passes (they went through it
    # all, and copied every page they touched), and its ends of the other workers' pipes are closed.
    gc.freeze()
    for other in _parent_ends:
        other.close()
    _limit_memory()
    connection.send_bytes(b"ready")
    while True:
        try:
            path = connection.recv_bytes().decode("utf-8", "surrogateescape")
        except (EOFError, OSError):
            return
        connection.send_bytes(_answer(path)[1])


# -- in the parent ------------------------------------------------------------------------------

def _may_fork() -> bool:
    """Whether a worker may be forked from this process: it runs a single thread (Linux says so in
    /proc), so no lock can be held by a thread the child would not have. Forked, a worker starts in
    milliseconds with the reader already imported; spawned, it starts a fresh interpreter and
    imports it (0.1 CPU-s each). A process that has imported pandas (BLAS threads) or shows a
    progress bar (rich's refresh thread) spawns its workers."""
    try:
        return len(os.listdir("/proc/self/task")) == 1
    except OSError:
        return False


# This process's ends of its workers' pipes. A forked worker closes its copies: else a worker would
# hold the parent's end of its own pipe, and never see it closed.
_parent_ends: list[Connection] = []


class _Worker:
    def __init__(self) -> None:
        forked = _may_fork()
        if forked:
            import python_calamine  # noqa: F401  (imported once here, which every forked worker then has)
        context = multiprocessing.get_context("fork") if forked else multiprocessing.get_context("spawn")
        self.connection, child = context.Pipe()
        _parent_ends.append(self.connection)  # before the fork: a forked worker closes this end too
        # Started with Ctrl-C blocked, so that a worker can never print a KeyboardInterrupt while
        # it starts; it ignores SIGINT from then on (die_with_parent).
        blocked = _block_interrupts()
        try:
            self.process = context.Process(target=_serve, args=(child, os.getpid()), daemon=True)
            with spawning():
                self.process.start()
        finally:
            _restore_interrupts(blocked)
        child.close()
        self.queue: list[Path] = []  # the paths given, answered in this order: it reads the first
        self.since = 0.0  # when it began reading the first

    @property
    def path(self) -> Path | None:
        """The file it is reading."""
        return self.queue[0] if self.queue else None

    def ready(self, timeout: float) -> bool:
        try:
            return self.connection.poll(timeout) and self.connection.recv_bytes(16) == b"ready"
        except (EOFError, OSError):
            return False

    def give(self, path: Path) -> None:
        if not self.queue:
            self.since = time.monotonic()
        self.connection.send_bytes(str(path).encode("utf-8", "surrogateescape"))
        self.queue.append(path)

    def answered(self) -> Path:
        """The file it has just answered for; it reads the next one from now."""
        self.since = time.monotonic()
        return self.queue.pop(0)

    def kill(self) -> None:
        if self.process.is_alive():
            self.process.kill()
        self.process.join(5)
        self.connection.close()
        if self.connection in _parent_ends:
            _parent_ends.remove(self.connection)


def _block_interrupts() -> set[int | signal.Signals] | None:
    if threading.current_thread() is not threading.main_thread():
        return None
    return signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})


def _restore_interrupts(previous: set[int | signal.Signals] | None) -> None:
    if previous is not None:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


_workers: list[_Worker] = []


def _start_workers(count: int, meanwhile: Callable[[], bool] = lambda: False) -> list[_Worker]:
    """`count` more workers, started side by side (each takes a fresh interpreter's start-up).
    While none is ready, `meanwhile` is called again and again, until it returns False."""
    started = [_Worker() for _ in range(count)]
    while started and not any(worker.connection.poll() for worker in started) and meanwhile():
        pass
    for worker in started:
        if not worker.ready(START_TIME_LIMIT):
            for other in started:
                other.kill()
            # Not a file's fault: the workers could not start at all.
            raise ReportgenError("les processus de lecture des classeurs n'ont pas pu démarrer "
                                 "(lancez reportgen depuis sa commande, pas depuis l'entrée standard)")
    return started


def _ensure_workers(count: int, meanwhile: Callable[[], bool] = lambda: False) -> None:
    """`count` live workers (those killed from outside while idle are replaced)."""
    for worker in [w for w in _workers if not w.process.is_alive()]:
        _replace(worker)
    _workers.extend(_start_workers(count - len(_workers), meanwhile))


def start_readers(paths: list[Path]) -> None:
    """Start now the workers that reading `paths` will take, if this process may fork them
    (`_may_fork`): called before a build shows its progress bar or imports pandas."""
    if paths and _may_fork() and not _few_and_small(paths):
        _ensure_workers(min(WORKERS, len(paths)))


def stop_workers() -> None:
    """Kill the reading workers at once (Ctrl-C, or the end of a process that wants them gone)."""
    while _workers:
        _workers.pop().kill()


def _refusal(message: str, fix: str) -> tuple[str, str, str]:
    return ("error", message, fix)


def _read_all(paths: list[Path], held: dict[Path, tuple[int, list[Sheet]]] | None = None,
              done: Callable[[], None] = lambda: None) -> tuple[dict[Path, tuple], dict[Path, int]]:
    """Every file's outcome, and the size of each answer kept. A few small files are read here; the
    others by the workers and here, from both ends of the list. The workers are started once per
    process and kept for every later read (starting two spawned workers costs about 0.2 CPU-s, which
    a process reading many leagues, such as the test suite, pays once). `held` are the sheets of
    files read before (and the size of their answer then): they count in what the parent holds."""
    outcomes: dict[Path, tuple] = {path: ("ok", sheets) for path, (_, sheets) in (held or {}).items()}
    waiting = list(reversed(paths))
    kept: dict[Path, int] = {path: size for path, (size, _) in (held or {}).items()}  # bytes of each answer held
    if not paths:
        _within_budget(kept, outcomes)
        return outcomes, kept
    front = 0  # waiting[:front]: files tried here that are for a worker (precheck.Larger)

    def read_here() -> bool:
        """One more file read here, if its pre-check allows it: from the front of `waiting`, whose
        end the workers take. False when none is left to try."""
        nonlocal front
        if front >= len(waiting):
            return False
        try:
            outcome, data = _answer(str(waiting[front]), here=True)
        except precheck.Larger:
            front += 1  # for a worker
            return True
        path = waiting.pop(front)
        _take(path, outcome, len(data), outcomes, kept)
        done()
        return True

    if _few_and_small(paths):  # all those allowed here are read here, without workers
        while read_here():
            pass
        if not waiting:
            return outcomes, kept
    # While spawned workers start (0.1-0.2 s: a fresh interpreter and its imports), this process would
    # wait: it reads files itself meanwhile, and goes on once they read. Each file's outcome is the
    # same whoever reads it.
    _ensure_workers(min(WORKERS, len(waiting)), read_here)
    while True:
        for index in range(len(_workers)):  # each worker holds up to READ_AHEAD files, taken from the end
            while waiting and len(_workers[index].queue) < READ_AHEAD:
                try:
                    _workers[index].give(waiting[-1])
                except OSError:  # gone since: a new one takes its files
                    _replace(_workers[index], waiting)
                    continue
                waiting.pop()
        busy = {worker.connection: worker for worker in _workers if worker.queue}
        if not busy:
            return outcomes, kept
        # This process reads files too, from the front, while the workers read theirs: it only checks
        # for their answers in between.
        if read_here():
            timeout = 0.0
        else:
            timeout = max(min(worker.since for worker in busy.values()) + FILE_TIME_LIMIT - time.monotonic(), 0)
        for connection in wait(list(busy), timeout=timeout):
            worker = busy[connection]  # type: ignore[index]
            try:
                data = worker.connection.recv_bytes(MAX_ANSWER + 4096)
            except (EOFError, OSError):  # the worker died on this file (crash, memory limit)
                path = worker.answered()
                _replace(worker, waiting)
                outcomes[path] = _refusal("le lecteur de classeurs s'est arrêté brutalement sur ce fichier",
                                          precheck.TOO_BIG_FIX)
                done()
                continue
            _take(worker.answered(), pickle.loads(data), len(data), outcomes, kept)
            done()
        now = time.monotonic()
        for worker in list(_workers):
            if worker.queue and now - worker.since >= FILE_TIME_LIMIT:
                path = worker.answered()
                _replace(worker, waiting)
                seconds = f"{FILE_TIME_LIMIT:g}".replace(".", ",")
                outcomes[path] = _refusal(
                    f"la lecture du fichier dépasse {seconds} secondes, bien plus que pour un tableau de résultats",
                    precheck.TOO_BIG_FIX)
                done()
    return outcomes, kept


def _few_and_small(paths: list[Path]) -> bool:
    """Whether these files are few and small enough (IN_PROCESS_BYTES on disk together) to be read
    here without starting workers, those whose pre-check allows it."""
    return sum(_size(path) for path in paths) <= IN_PROCESS_BYTES


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0  # said when it is read


def _take(path: Path, outcome: tuple, size: int, outcomes: dict[Path, tuple], kept: dict[Path, int]) -> None:
    """A file's outcome, and the size of its answer (pickled), which counts in what the parent holds."""
    outcomes[path] = outcome
    if outcome[0] == "ok":
        kept[path] = size
        _within_budget(kept, outcomes)


def _within_budget(kept: dict[Path, int], outcomes: dict[Path, tuple]) -> None:
    """Hold at most MAX_ANSWERS bytes of sheets: past it, the largest answers are dropped (the last
    path first among equals, so that the files refused do not depend on which worker was quicker)."""
    while sum(kept.values()) > MAX_ANSWERS:
        largest = max(kept, key=lambda path: (kept[path], str(path)))
        del kept[largest]
        outcomes[largest] = _refusal(
            f"ce classeur dépasse, avec les autres classeurs, le volume de données permis "
            f"({MAX_ANSWERS / 1024**2:g} Mo en tout)".replace(".", ","),
            "retirez de inputs/ ce qui n'est pas un résultat de tournoi, ou copiez les résultats dans un classeur neuf")


def _replace(worker: _Worker, waiting: list[Path] | None = None) -> None:
    """A new worker in its place; the files it still held go back to `waiting`, to be given first."""
    if waiting is not None:
        waiting.extend(reversed(worker.queue))
    worker.kill()
    _workers[_workers.index(worker)] = _start_workers(1)[0]


def label_of(path: Path, root: Path) -> str:
    """A file as messages name it: relative to inputs/, control characters shown as escapes (a
    newline in a file name would forge a line of the problem list)."""
    return escape_controls(path.relative_to(root).as_posix() if path.is_relative_to(root) else path.name)


def read_workbooks(paths: list[Path], root: Path, known: Mapping[Path, tuple[int, list[Sheet]]] | None = None,
                   fresh: dict[Path, tuple[int, list[Sheet]]] | None = None,
                   done: Callable[[], None] = lambda: None) -> tuple[list[Workbook], list[Problem]]:
    """Read every workbook; a file that cannot be read becomes a Problem, never an exception.

    `known` gives the sheets of files read before (their content unchanged), with the size of the
    answer their reader sent: they are not read again, and count in what the parent may hold.
    `fresh`, when given, receives the sheets (and answer size) of each file read now. `done` is
    called after each file read."""
    held = {path: entry for path, entry in (known or {}).items() if path in set(paths)}
    outcomes: dict[Path, tuple] = {}
    kept: dict[Path, int] = {}
    if paths:
        try:
            outcomes, kept = _read_all([path for path in paths if path not in held], held, done)
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
        if outcome[0] == "ok":
            workbooks.append(Workbook(path, label, outcome[1]))
        else:
            problems.append(UNREADABLE(SourceRef(label), message=outcome[1], fix=outcome[2]))
    return workbooks, problems
