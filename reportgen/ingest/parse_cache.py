"""What a circuit's parse made of each workbook (`outputs/.reportgen/parses/<key>`): the event, the
problems it found and the sheets it consulted, so that a build with one new tournament parses that
workbook alone, the others coming back as they were parsed (seventeenth round, docs/performance.md).

An entry is found by its key, which `pipeline/loading.py` makes of everything a parse reads: the
code's fingerprint, the workbook's content hash, its name (events and problems name it), its
circuit and what the circuit is given besides the workbook (`Reading`: the day, the club directory,
the league's name, the closed seasons, `fingerprint`). A key that misses an input would give a stale
ranking: the tests change each input and see the workbook parsed again.

The value is pickled: taking 4,000 events back costs a quarter of parsing them, where a JSON codec
of our own cost three quarters (twelfth round). Pickle runs whatever code a file names, so an entry
is loaded only under this machine's signature (`signing.py`, its key outside outputs/), and only
classes of reportgen and of the standard types an event holds (`_Unpickler`). One file per
workbook, held until `save` (a build that fails writes nothing to outputs/), which writes each
through a temporary file and a rename and removes the entries the build did not use. A file that
cannot be read, is not signed here or holds what today's classes are not is ignored: the workbook
is parsed again and its entry written anew.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import enum
import hashlib
import io
import json
import os
import pickle
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

from reportgen.ingest.read_cache import FOLDER, write_file
from reportgen.ingest.sheets import Sheet, Workbook
from reportgen.model import Problem
from reportgen.signing import Signer

PARSES = "parses"
FORMAT = 1
PROTOCOL = 5  # fixed: the bytes of an entry do not depend on Python's default

# What an entry may name besides reportgen's own classes: the standard types events hold.
_STANDARD = {("datetime", "date"), ("datetime", "datetime"), ("datetime", "time"), ("datetime", "timedelta"),
             ("fractions", "Fraction")}


class _Unpickler(pickle.Unpickler):
    def find_class(self, module: str, name: str) -> Any:
        if (module.startswith("reportgen.") or (module, name) in _STANDARD) and "." not in name:
            found = super().find_class(module, name)
            if isinstance(found, type):
                return found
        raise pickle.UnpicklingError(f"{module}.{name}")


@dataclass
class Parsed:
    """A workbook's parse: its event (None when refused), the problems it added and the sheets it
    had consulted by its end (their indexes in the workbook, in the order consulted: the notices of
    hidden sheets and rows read them)."""

    event: Any
    problems: list[Problem]
    consulted: list[int]

    @classmethod
    def of(cls, event: Any, problems: list[Problem], workbook: Workbook) -> Parsed:
        return cls(event, problems, [_index(workbook.sheets, sheet) for sheet in workbook.consulted])

    def consulted_in(self, workbook: Workbook) -> list[Sheet]:
        return [workbook.sheets[index] for index in self.consulted]


def _index(sheets: list[Sheet], sheet: Sheet) -> int:
    return next(index for index, candidate in enumerate(sheets) if candidate is sheet)


class Unkeyable(TypeError):
    """A value `fingerprint` cannot write so that equal values give the same text."""


def _plain(value: Any) -> Any:
    """`value` as JSON that is the same for equal values: every field of a dataclass (those left out
    of `==` too), dicts sorted, each value's type named."""
    if value is None or type(value) in (bool, int, str):
        return value
    if type(value) is float:
        return ["float", value.hex()]
    if type(value) in (dt.date, dt.datetime, dt.time):
        return [type(value).__name__, value.isoformat()]
    if type(value) is Fraction:
        return ["Fraction", value.numerator, value.denominator]
    if isinstance(value, enum.Enum):
        return [type(value).__qualname__, _plain(value.value)]
    if type(value) in (list, tuple):
        return [type(value).__name__, [_plain(item) for item in value]]
    if type(value) is dict:
        items = [[_plain(key), _plain(item)] for key, item in value.items()]
        return ["dict", sorted(items, key=lambda pair: json.dumps(pair[0]))]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        kind = type(value)
        return [f"{kind.__module__}.{kind.__qualname__}",
                [[field.name, _plain(getattr(value, field.name))] for field in dataclasses.fields(value)]]
    raise Unkeyable(type(value).__qualname__)


def fingerprint(value: Any) -> str:
    """A value as text that is the same for equal values, every field counted: what a key takes of
    the parse's `Reading`. `Unkeyable` for a type it does not know (then nothing is kept)."""
    return json.dumps(_plain(value), ensure_ascii=True, separators=(",", ":"))


class ParseCache:
    """The parses kept under `outputs` (none kept when it is None, or when this machine has no
    signing key: `get` finds nothing)."""

    def __init__(self, outputs: Path | None, code: str, signer: Signer | None = None) -> None:
        self.signer = signer if signer is not None else Signer.local() if outputs is not None else None
        self.folder = outputs / FOLDER / PARSES if outputs is not None and self.signer is not None else None
        self.code = code  # the fingerprint of the code that parses (render/cache.py): part of every key
        self.used: set[str] = set()  # the entries this build found or wrote: what `save` keeps
        self.pending: dict[str, bytes] = {}  # parsed by this build, written by `save`

    def key(self, digest: str, label: str, circuit: str, given: str) -> str:
        """The key of a workbook's entry: the code, the workbook's content hash and name, its
        circuit and what the circuit is given besides it (`fingerprint` of its `Reading`)."""
        parts = json.dumps([FORMAT, self.code, digest, label, circuit, given], ensure_ascii=True)
        return hashlib.sha256(parts.encode("ascii")).hexdigest()

    def get(self, entry: str, workbook: Workbook) -> Parsed | None:
        """The parse kept for that key, or None (absent, unreadable, not signed here, damaged)."""
        if self.folder is None or self.signer is None:
            return None
        try:
            data = self.signer.open(entry, (self.folder / entry).read_bytes())
            if data is None:
                return None
            parsed = _Unpickler(io.BytesIO(data)).load()
        except Exception:  # noqa: BLE001 (whatever a damaged entry raises, the workbook is parsed again)
            return None
        if not (type(parsed) is Parsed and isinstance(parsed.problems, list)
                and all(isinstance(problem, Problem) for problem in parsed.problems)
                and isinstance(parsed.consulted, list)
                and all(type(index) is int and 0 <= index < len(workbook.sheets) for index in parsed.consulted)):
            return None
        self.used.add(entry)
        return parsed

    def put(self, entry: str, parsed: Parsed) -> None:
        """Keep a parse, held until `save`: a build that fails writes nothing to outputs/, and a
        workbook changed after its content was hashed is never kept under the old content's key.
        One pickle cannot take (a plug-in's objects) is not kept: parsed again next time."""
        if self.folder is None or self.signer is None:
            return
        try:
            data = pickle.dumps(parsed, protocol=PROTOCOL)
        except Exception:  # noqa: BLE001 (pickle raises many kinds for what it cannot take)
            return
        self.pending[entry] = self.signer.sign(entry, data)

    def save(self) -> None:
        """Once the build found its inputs unchanged since they were hashed: the parses of this
        build written (each through a temporary file and a rename), and the entries it did not use
        removed (workbooks gone or changed, another day, other code)."""
        if self.folder is None:
            return
        for entry, data in self.pending.items():
            try:
                write_file(self.folder / entry, data)
            except (OSError, ValueError):
                continue
            self.used.add(entry)
        self.pending = {}
        try:
            names = os.listdir(self.folder)
        except OSError:
            return
        for name in names:
            if name not in self.used:
                try:
                    (self.folder / name).unlink()
                except OSError:
                    pass
