"""How many rounds and pools (Art. I and III), and the pools' names (as the workbook writes them).

Art. I: up to 5 registered, one round; beyond, n rounds for 6·2^(n−2) ≤ N ≤ 6·2^(n−1) − 1. The rounds
left after a round are given by the same formula on the players qualified for the next one.
Art. III: round 1 has 2^(n−1) pools; each later round halves it, which is the same formula on the
players qualified (2 per pool: 2p players give 2^(rounds(2p)−1) = p/2 pools); the last has one pool.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from reportgen.model import column_letter

ONE_ROUND_UP_TO = 5  # Art. I: « Jusqu'à 5 inscrits : un seul tour. »


def rounds_for(players: int) -> int:
    """The number of rounds to play with `players` players (Art. I)."""
    if players <= ONE_ROUND_UP_TO:
        return 1
    rounds = 2
    while not 6 * 2 ** (rounds - 2) <= players <= 6 * 2 ** (rounds - 1) - 1:
        rounds += 1
    return rounds


def pools_for(players: int) -> int:
    """The number of pools of the round these players start (Art. III): 2^(n−1), n the rounds left."""
    return 2 ** (rounds_for(players) - 1)


def _letters(index: int) -> str:
    """0-based pool index -> A, B… Z, AA, AB…"""
    return column_letter(index)


@dataclass(frozen=True)
class PoolNames:
    """How a workbook names its pools in the `Poule` column of `Parties` (issue 22: the sheet's own
    conventions continue): letters A, B… (the default, and what a sheet without pools yet gets),
    numbers 1, 2… typed as numbers or as text, `Poule A` / `Poule 3`, lower-case `a`, `b`.

    `written` is what `poules next` types into the sheet, in its convention; `label` is the pool's
    name wherever reportgen prints it (« poule 3 », the annex's and the CSV's `Poule` column): the
    `Poule` prefix is dropped (« poule A », not « poule Poule A ») and letters are shown upper-case
    (« poule B » for a sheet typing `b`), so that every bulletin spells a pool's letter alike."""

    numbers: bool = False  # 1, 2, 3… rather than A, B, C…
    numeric_cells: bool = False  # typed as numbers (not text): written as numbers
    prefix: str = ""  # typed before the letter or number (`Poule `): written, not shown
    lower: bool = False  # letters typed lower-case: written so, shown upper-case

    def label(self, index: int) -> str:
        """The 0-based pool `index`'s name as printed: `A`, `3`."""
        return str(index + 1) if self.numbers else _letters(index)

    def written(self, index: int) -> object:
        """The 0-based pool `index`'s name as the sheet types it: `A`, 3, `"3"`, `Poule C`, `c`."""
        if self.numeric_cells:
            return index + 1
        label = self.label(index)
        return self.prefix + (label.lower() if self.lower else label)


LETTERS = PoolNames()
_NAMED = re.compile(r"^(.*?)(\d+|[A-Za-z]+)$")  # `Poule ` + `A` or `3`


def pool_names(typed: Iterable[object]) -> PoolNames:
    """How the sheet names its pools, from the first pool name typed in it (that names a pool): the
    later rounds continue it, and every output names the pools so; letters when there is none."""
    for value in typed:
        if isinstance(value, bool) or value in ("", None):
            continue
        if isinstance(value, (int, float)):
            if value >= 1 and float(value).is_integer():
                return PoolNames(numbers=True, numeric_cells=True)
            continue
        text = str(value).strip()
        match = _NAMED.match(text)
        if match is None or pool_index(text) is None:
            continue
        prefix, token = match.groups()
        return PoolNames(numbers=token.isdigit(), prefix=prefix, lower=token.islower())
    return LETTERS


def pool_index(label: str) -> int | None:
    """A pool's name as typed (`A`, `b`, `Poule C`, `3`) -> its 0-based index; None if it is none."""
    text = label.strip().upper()
    if text.startswith("POULE"):
        text = text[len("POULE"):].strip()
    if text.isdigit():
        return int(text) - 1 if int(text) >= 1 else None
    if not text or not text.isascii() or not text.isalpha():
        return None
    index = 0
    for char in text:
        index = index * 26 + ord(char) - 64
    return index - 1
