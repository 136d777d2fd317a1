"""How many rounds and pools (Art. I and III), and the pools' names.

Art. I: up to 5 registered, one round; beyond, n rounds for 6·2^(n−2) ≤ N ≤ 6·2^(n−1) − 1. The rounds
left after a round are given by the same formula on the players qualified for the next one.
Art. III: round 1 has 2^(n−1) pools; each later round halves it, which is the same formula on the
players qualified (2 per pool: 2p players give 2^(rounds(2p)−1) = p/2 pools); the last has one pool.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

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


def pool_label(index: int) -> str:
    """0-based pool index -> its name: A, B… Z, AA, AB…"""
    return column_letter(index)


_NAMED = re.compile(r"^(.*?)(\d+|[A-Za-z]+)$")


def pool_namer(typed: Iterable[object]) -> Callable[[int], object]:
    """How the sheet names its pools, from the first pool name typed in it (earlier rounds): the
    later rounds continue it. `1`…`8` (a number, or as text), `Poule A`, `b`; letters A, B… when
    the sheet has none yet (`pool_label`)."""
    first = next((value for value in typed if value not in ("", None)), None)
    if isinstance(first, (int, float)) and not isinstance(first, bool):
        return lambda index: index + 1
    match = _NAMED.match(str(first).strip()) if first is not None else None
    if match is None or pool_index(str(first)) is None:
        return pool_label
    prefix, token = match.groups()
    if token.isdigit():
        return lambda index: f"{prefix}{index + 1}"
    lower = token.islower()
    return lambda index: prefix + (pool_label(index).lower() if lower else pool_label(index))


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
