"""Tie-break chains: a ranking is an ordered list of named criteria, each one applied only to the
players still level after the ones before it.

A criterion gives each player of a tied group a sort key (smaller first). Most keys ignore the
group (points, tops, registration order); head-to-head is computed inside it, and a regulation may
ask for it to be applied again to a smaller group that it left level (`reapply`). A criterion may
also not apply to some groups (`applies`): the Masters never lets the annual ranking decide first
place. What the chain leaves level shares a place, and the caller says what that means (a play-off
to play, or a shared place).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

T = TypeVar("T")


def _always(group: Sequence[Any], position: int) -> bool:
    return True


@dataclass(frozen=True)
class Criterion(Generic[T]):
    """One step of a chain. `key(item, group)` orders the group (smaller first); `applies(group,
    position)` says whether the step is used for a group whose first place is `position` (0-based)."""

    name: str
    key: Callable[[T, Sequence[T]], Any]
    reapply: bool = False  # applied again to each smaller group it leaves level
    applies: Callable[[Sequence[T], int], bool] = field(default=_always)


def by(name: str, key: Callable[[T], Any]) -> Criterion[T]:
    """A criterion that looks at each player alone (smaller key first)."""
    return Criterion(name, lambda item, group: key(item))


@dataclass(frozen=True)
class Placed(Generic[T]):
    item: T
    rank: int  # competition rank: 1, 1, 3
    tied: bool  # the chain left it level with others: they share the rank
    decided_by: tuple[str, ...]  # the criteria after the first that split a group it was in, in order


@dataclass(frozen=True)
class Ranked(Generic[T]):
    placed: list[Placed[T]]  # best first

    @property
    def unresolved(self) -> list[list[T]]:
        """The groups the chain left level, in ranking order."""
        groups: dict[int, list[T]] = {}
        for placed in self.placed:
            if placed.tied:
                groups.setdefault(placed.rank, []).append(placed.item)
        return list(groups.values())


def rank(items: Sequence[T], chain: Sequence[Criterion[T]],
         display: Callable[[T], Any] = lambda item: 0) -> Ranked[T]:
    """Order `items` by the chain; players left level are listed by `display` and share a place."""
    placed: list[Placed[T]] = []

    def resolve(group: list[T], start: int, decided: tuple[str, ...]) -> None:
        position = len(placed)
        if len(group) == 1:
            placed.append(Placed(group[0], position + 1, False, decided))
            return
        for index in range(start, len(chain)):
            criterion = chain[index]
            if not criterion.applies(group, position):
                continue
            keys = [criterion.key(item, group) for item in group]
            distinct = sorted(set(keys))
            if len(distinct) == 1:
                continue
            label = decided if index == 0 else (*decided, criterion.name)
            by_key: dict[Any, list[T]] = {}  # one pass: a group of n players with n keys stays linear
            for item, key in zip(group, keys):
                by_key.setdefault(key, []).append(item)
            for value in distinct:
                subgroup = by_key[value]
                again = criterion.reapply and len(subgroup) > 1
                resolve(subgroup, index if again else index + 1, label)
            return
        for item in sorted(group, key=display):
            placed.append(Placed(item, position + 1, True, decided))

    resolve(list(items), 0, ())
    return Ranked(placed)
