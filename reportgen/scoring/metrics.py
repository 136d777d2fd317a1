"""A ranking's metrics, each declared once: its key (CSV, JSON, the tie-break chain), its French
heading and short label, how it is computed from a player's record, and the words `decided_by`
uses when it decides a tie.

The model is Tabbycat's `standings/metrics.py`, one annotator per metric holding its key, name and
abbreviation: a circuit declares its metrics in `reportgen/circuits/<circuit>/metrics.py`, and its
published columns, bulletin headings, annex, `reportgen standings` table and « Départage » texts
are all read from them, so that a metric renamed is renamed everywhere.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Generic, TypeVar

from reportgen.model import Column
from reportgen.scoring.tiebreaks import Criterion

R = TypeVar("R")


class ColumnKind(StrEnum):
    """How a column shows its values (`Column.kind`: its serialized values are these strings)."""

    INT = "int"
    NUMBER = "number"
    TEXT = "text"
    BOOL = "bool"  # « oui » or nothing
    EVOLUTION = "evolution"  # +3, -2, 0, « nouveau » (a rating's change: 52.6, None); shown « +3 », « = »


def _unpublished(record: Any) -> Any:
    raise TypeError("a metric computed within a tied group has no value of its own")


@dataclass(frozen=True)
class Metric(Generic[R]):
    """One metric of a circuit's rankings.

    `value` computes it from a player's record (as published: TPs in tenths are shown as TPs); a
    metric only computed within a tied group (head-to-head) has none and is no column. `decided`
    is how `decided_by` says that this metric set a place; `said` is how a bulletin says it, when
    it says more (default: the same words)."""

    key: str
    heading: str
    value: Callable[[R], Any] = field(default=_unpublished)
    kind: ColumnKind = ColumnKind.INT
    width: float = 10  # in the annex, in characters
    short: str = ""  # in a bulletin's narrow table, when shorter than the heading
    decimals: int | None = None  # its decimals wherever it is shown (`Column.decimals`)
    halves: bool = False  # a score counted in halves, shown « 2½ » (`Column.halves`)
    signed: bool = False  # a difference, shown « +13 » (`Column.signed`)
    decided: str = ""
    said: str = ""

    @property
    def column(self) -> Column:
        return Column(self.key, self.heading, self.kind, self.width, self.short, self.decimals, self.halves,
                      signed=self.signed)

    @property
    def label(self) -> str:
        """The heading as a bulletin prints it: the short label when there is one."""
        return self.short or self.heading

    @property
    def explained(self) -> str:
        return self.said or self.decided

    def criterion(self, key: Callable[[Any, Sequence[Any]], Any], *, reapply: bool = False,
                  applies: Callable[[Sequence[Any], int], bool] | None = None) -> Criterion[Any]:
        """A tie-break step on this metric, named by its key (`decided_by` then says its words);
        `key(item, group)` orders a tied group, smaller first."""
        if applies is None:
            return Criterion(self.key, key, reapply=reapply)
        return Criterion(self.key, key, reapply=reapply, applies=applies)

    def by(self, key: Callable[[Any], Any]) -> Criterion[Any]:
        """A tie-break step that looks at each player alone (smaller key first)."""
        return self.criterion(lambda item, group: key(item))


M = TypeVar("M", bound=Metric[Any])


class Metrics(Generic[M]):
    """A circuit's metrics, each key once."""

    def __init__(self, *metrics: M) -> None:
        self._by_key: dict[str, M] = {}
        for metric in metrics:
            if metric.key in self._by_key:
                raise ValueError(f"metric {metric.key!r} declared twice")
            self._by_key[metric.key] = metric

    def __iter__(self) -> Iterator[M]:
        return iter(self._by_key.values())

    def __getitem__(self, key: str) -> M:
        return self._by_key[key]

    def __contains__(self, key: object) -> bool:
        return key in self._by_key

    def columns(self, *metrics: M) -> tuple[Column, ...]:
        """The published columns of these metrics, in this order (each must be declared here)."""
        return tuple(self._by_key[metric.key].column for metric in metrics)

    def values(self, record: Any, columns: Iterable[Column]) -> dict[str, Any]:
        """A ranking row's metrics: each column's value computed from the player's record."""
        return self.values_of(columns)(record)

    def values_of(self, columns: Iterable[Column]) -> Callable[[Any], dict[str, Any]]:
        """`values` for these columns, their metrics looked up once: for every row of a ranking."""
        computed = [(column.key, self._by_key[column.key].value) for column in columns]
        return lambda record: {key: value(record) for key, value in computed}

    def decided(self, keys: Iterable[str]) -> tuple[str, ...]:
        """`decided_by` in words: what each metric that set a place says."""
        return tuple(self._by_key[key].decided for key in keys)

    def explained(self, keys: Iterable[str]) -> list[str]:
        """The same, as a bulletin says it."""
        return [self._by_key[key].explained for key in keys]
