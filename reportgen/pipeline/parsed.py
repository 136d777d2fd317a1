"""A workbook's parse handed from a first reading to the load that follows (pipeline/loading.py).

`reportgen build` with season N−1 in the archive reads inputs/ for its seasons alone
(`loading.circuit_events`: delivery/seasons.py `put_together`), then loads the copy of inputs/ with
N−1 put back. The first reading keeps each parse in the read cache both are given (`ReadCache.parsed`,
this process only); the load takes it instead of parsing the workbook again, when what the parse
consulted is the same: the workbook (its file's SHA-256 and label), its circuit and the `Reading`,
every field of it. The load's own steps then run on it as on a parse of their own: nothing touched
the event or the workbook since (the first reading stops at the events), each is taken once.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from reportgen.ingest.read_cache import ReadCache
from reportgen.ingest.workbook import Sheet, Workbook
from reportgen.model import Event, Problem

if TYPE_CHECKING:
    from reportgen.circuits.base import Reading


@dataclass(frozen=True)
class Parsed:
    """A workbook as a first reading parsed it."""

    label: str
    slug: str
    reading: Reading
    size: int  # of its reader's answer (`ReadCache.get`'s): what the parent holds counts it
    sheets: list[Sheet]
    consulted: list[Sheet]  # the sheets its reading looked up, the parse's too (`hidden_notices`)
    event: Event | None
    problems: list[Problem]  # what the parse added to its circuit's

    def replay(self, workbook: Workbook, problems: list[Problem]) -> Event | None:
        """The parse, on the workbook the load made of these very sheets: its event, its problems
        added to `problems`, and the sheets it looked up marked so in the workbook."""
        workbook.consulted[:] = self.consulted
        problems.extend(self.problems)
        return self.event


def keep(reads: ReadCache, digest: str, parsed: Parsed) -> None:
    reads.parsed[(digest, parsed.label)] = parsed


def take(reads: ReadCache, digest: str, label: str) -> Parsed | None:
    """The parse kept for this file at this label, once."""
    found = reads.parsed.pop((digest, label), None)
    return found if isinstance(found, Parsed) else None


def same(first: Any, second: Any) -> bool:
    """Equal in every field, those `==` leaves out too (`ClubDirectory.broken` and `left_out`, a
    club's `bad_address`): a parse may consult any of them. Derived fields (not given to `__init__`:
    `ClubDirectory._index`) follow from the others."""
    if type(first) is not type(second):
        return False
    if dataclasses.is_dataclass(first) and not isinstance(first, type):
        return all(same(getattr(first, f.name), getattr(second, f.name)) for f in dataclasses.fields(first) if f.init)
    if isinstance(first, (tuple, list)):
        return len(first) == len(second) and all(map(same, first, second))
    if isinstance(first, dict):
        return first.keys() == second.keys() and all(same(value, second[key]) for key, value in first.items())
    return first == second
