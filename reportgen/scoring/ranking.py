"""Competition ranks: equal precedence keys share a place and the next place is skipped (1, 1, 3)."""

from __future__ import annotations

from collections.abc import Hashable, Sequence


def competition_ranks(keys: Sequence[Hashable]) -> list[int]:
    """Ranks of items already sorted by their precedence keys, best first."""
    ranks: list[int] = []
    for index, key in enumerate(keys):
        ranks.append(ranks[-1] if index and key == keys[index - 1] else index + 1)
    return ranks


def shared(ranks: Sequence[int]) -> list[bool]:
    """Which ranks are shared by several items (printed `5=`)."""
    counts: dict[int, int] = {}
    for rank in ranks:
        counts[rank] = counts.get(rank, 0) + 1
    return [counts[rank] > 1 for rank in ranks]
