"""One workbook file to its sheets, or the French refusal of it: the zip pre-check, calamine, the
second `.ods` reader (ingest/ods.py), text cleaned of control characters, and the outcome pickled
within MAX_ANSWER bytes. The same function (`answer`) runs in a reading worker and in the build's
own process, so that each file's outcome is the same whoever reads it (ingest/reading_pool.py)."""

from __future__ import annotations

import errno
import os
import pickle
from collections.abc import Sequence
from pathlib import Path

from reportgen.ingest import precheck, precheck_base
from reportgen.ingest.sheets import Sheet
from reportgen.ingest.text import Unprintable, clean_text, escape_controls, only_controls

MAX_ANSWER = 32 * 1024**2  # bytes of one file's sheets, as a worker sends them
IN_PROCESS_INFLATED = 2 * 1024**2  # bytes a workbook read here may inflate to (a result workbook: 10-300 KB)
IN_PROCESS_DECODED = 128 * 1024**2  # bytes the pre-check must bound the reader's answer within (a loose bound)

# The refusals a reader's failure gives, whichever of the two readers or the pre-check failed.
_TOO_MUCH_MEMORY = ("error", "le fichier demande trop de mémoire pour être lu", precheck.TOO_BIG_FIX)
_DAMAGED = ("error", precheck_base.damaged().message, precheck_base.DAMAGED_FIX)


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


def _opening_error(error: OSError, path: str) -> tuple[str, str, str]:
    try:  # inputs/ lists a link whose file is gone (ingest/discover.py): said with where it points
        target = os.readlink(path) if not os.path.exists(path) else None
    except OSError:  # no link (or no longer one): the error as it came
        target = None
    if target is not None:
        return ("error", f"ce fichier est un lien vers « {escape_controls(target)} », qui n’existe pas (ou plus)",
                "copiez le classeur lui-même dans inputs/ à la place du lien, ou supprimez le lien, puis relancez")
    if error.errno in (errno.EACCES, errno.EPERM):
        return ("error", "le fichier ne peut pas être lu : l’accès est refusé (droits du fichier)",
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
        return _opening_error(error, path)
    except MemoryError:
        return _TOO_MUCH_MEMORY
    except Exception:  # the pre-check's own limits failed to foresee it: still the file's fault
        return _DAMAGED
    from python_calamine import CalamineWorkbook

    try:
        book = _calamine(CalamineWorkbook, path)
        sheets = []
        for meta in book.sheets_metadata:
            hidden = str(meta.visible).rsplit(".", 1)[-1] != "Visible"
            # skip_empty_area=False keeps A1 at [0][0], so cell names stay true.
            rows = _rows(book.get_sheet_by_name(meta.name).to_python(skip_empty_area=False))
            name = clean_text(meta.name)  # as the pre-check names it
            sheets.append(Sheet(name, rows, hidden, facts.untrusted_formula_cells(name), facts.hidden_rows(name)))
    except MemoryError:
        return _TOO_MUCH_MEMORY
    except OSError as error:
        return _opening_error(error, path)
    except Exception:  # calamine raises plain exceptions on corrupt content
        if Path(path).suffix.lower() != ".ods":
            return _DAMAGED
        # A well-formed .ods (the pre-check parsed its content.xml) that calamine cannot follow,
        # such as Gnumeric's: read by the second reader, under the same bounds (ingest/ods.py).
        return _load_ods(path, facts)
    return ("ok", sheets)


def utf8_named(path: Path | str) -> bool:
    """Whether the file's name is UTF-8 (a Windows zip's may not be: ingest/workbook.py `misnamed`)."""
    try:
        str(path).encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _calamine(reader, path: str):
    """calamine's workbook of `path`. A name in no UTF-8 (a Windows zip's: its caller refuses it, in
    its circuit, once read) reaches calamine as another name (« No such file »): given its bytes."""
    if not utf8_named(path):
        with open(path, "rb") as file:
            return reader.from_filelike(file)
    return reader.from_path(path)


def _load_ods(path: str, facts: precheck.WorkbookFacts) -> tuple:
    from reportgen.ingest import ods

    try:
        read = ods.read(Path(path))
    except precheck.UnreadableWorkbook as refused:
        return ("error", refused.message, refused.fix)
    except MemoryError:
        return _TOO_MUCH_MEMORY
    except OSError as error:
        return _opening_error(error, path)
    except Exception:  # beyond what either reader can follow: the file's damage
        return _DAMAGED
    sheets = []
    for raw_name, rows, hidden in read:
        name = clean_text(raw_name)  # as the pre-check names it
        sheets.append(Sheet(name, _rows(rows), hidden, facts.untrusted_formula_cells(name)))
    return ("ok", sheets)


def answer(path: str, here: bool = False) -> tuple[tuple, bytes]:
    """One file's outcome and its answer: the outcome pickled, within MAX_ANSWER bytes (its size
    is what the parent holds), else a refusal of the file in both."""
    try:
        outcome = _load(path, here)
        data = pickle.dumps(outcome, protocol=pickle.HIGHEST_PROTOCOL)
    except MemoryError:
        data = b""
    if not data or len(data) > MAX_ANSWER:
        outcome = ("error", "le fichier contient bien plus de données qu’un tableau de résultats", precheck.TOO_BIG_FIX)
        data = pickle.dumps(outcome)
    return outcome, data

