"""The pairs of players whose names share a variant (ingest/duplicates.py `_sharing_a_variant`),
kept from one build to the next by the group of names they were looked for in
(`outputs/.reportgen/pairs`).

Why: the duplicate checks look for names two letters apart within each club, every name's variants
with two letters left out (about 120 a name): at 100x, 1.0-1.3 CPU-s at each build, for the same
clubs with the same players (one new tournament changed none of the 100 clubs' members,
nineteenth round). A group's pairs depend on nothing but its players' ids and names as folded,
the letters and the crowding limit: their digest is the entry's key, with the code's fingerprint
for the whole file. Only candidates: the checks measure every pair again before asking about it,
so an entry edited by hand can hide a pair, never make one up. JSON, written through a temporary
file and a rename; lost or damaged, it costs one search of each group."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Collection, Iterable
from pathlib import Path

from reportgen.ingest.read_cache import FOLDER, FORMAT, load_json, write_file

PAIRS = "pairs"


def group_key(folded: dict[str, str], pids: Iterable[str], letters: int, crowded: int | None) -> str:
    """What a group's pairs are found from: each player's id and folded name, in order, the letters
    and the crowding limit."""
    members = sorted((pid, folded[pid]) for pid in pids)
    return hashlib.sha256(json.dumps([letters, crowded, members], ensure_ascii=False).encode("utf-8")).hexdigest()


class KnownPairs:
    """The last build's pairs by group key, and this build's as it finds or takes them."""

    def __init__(self, outputs: Path | None, code: str) -> None:
        self.path = outputs / FOLDER / PAIRS if outputs is not None else None
        self.code = code  # the code that finds them (its fingerprint): another one finds them again
        self.known: dict[str, object] = {}
        self.used: dict[str, list[list[str]]] = {}  # what the next build may take (the others are forgotten)
        data = load_json(self.path) if self.path is not None else None
        if isinstance(data, dict) and data.get("format") == FORMAT and data.get("code") == self.code \
                and isinstance(data.get("groups"), dict):
            self.known = data["groups"]

    def pairs(self, key: str, pids: Collection[str], find: Callable[[], set[tuple[str, str]]]) -> set[tuple[str, str]]:
        """The pairs of the group `key`: as kept when each names two of its `pids`, else `find()`'s."""
        kept = self.known.get(key)
        if isinstance(kept, list) and all(isinstance(pair, list) and len(pair) == 2
                                          and all(isinstance(pid, str) and pid in pids for pid in pair)
                                          for pair in kept):
            found = {(first, second) for first, second in kept}
        else:
            found = find()
        self.used[key] = sorted(sorted(pair) for pair in found)
        return found

    def save(self) -> None:
        """Keep this build's groups, unless they are what the file holds."""
        if self.path is None or self.used == self.known:
            return
        data = {"format": FORMAT, "code": self.code, "groups": dict(sorted(self.used.items()))}
        try:
            write_file(self.path, (json.dumps(data, ensure_ascii=False, separators=(",", ":")) + "\n").encode("utf-8"))
        except OSError:
            pass  # the next build finds them again, which is all a missing file costs
