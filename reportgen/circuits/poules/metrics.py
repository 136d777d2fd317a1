"""A pool tournament's published metrics, each declared once: their keys are the CSV and JSON keys
(`reportgen standings poules --event`). Records: `ranking.Standing`.

The tie-break words (`inscription`, `barrage`, `moyenne`...) are still the chain's names in
`standings.py` and `ranking.py`, which `notices.py` reads.
"""

from __future__ import annotations

import dataclasses
import math
from fractions import Fraction
from typing import Any

from reportgen.circuits import common
from reportgen.model import Column
from reportgen.scoring.metrics import ColumnKind, Metric, Metrics

# « Moyenne », points per game: three decimals in the bulletin, the annex and the CSV alike (two
# would show 0,67 for 2/3 and for 0,665; docs/poules.md).
AVERAGE_DECIMALS = 3


def average(value: Fraction) -> float:
    """An average (Art. III: « moyenne de points ») as every output shows it: three decimals,
    rounded half up from the exact fraction (0.5 in 8 games, 0,0625: 0,063, as 1.5 in 8 gives
    0,188; `round` on its float rounded half to even, 0,062), on the fraction: no float before the
    rounding. Only what is shown: the seeding, the repêchages and the ranking compare the fractions
    themselves (`Line.average`)."""
    scale = 10 ** AVERAGE_DECIMALS
    return math.floor(value * scale + Fraction(1, 2)) / scale


ROUND_REACHED = Metric[Any]("round_reached", "Tour atteint", lambda standing: standing.round, width=8, short="Tour")
POINTS = Metric[Any]("points", "Points", lambda standing: common.from_halves(standing.line.half), ColumnKind.NUMBER, 8)
GAMES = Metric[Any]("games", "Parties", lambda standing: standing.line.games, width=8)
AVERAGE = Metric[Any]("average", "Moyenne", lambda standing: average(standing.line.average), ColumnKind.NUMBER, 9,
                      short="Moy.", decimals=AVERAGE_DECIMALS)
POOL = Metric[Any]("pool", "Poule", lambda standing: standing.pool.label, ColumnKind.TEXT, 7)
POOL_PLACE = Metric[Any]("pool_place", "Place dans la poule", lambda standing: standing.line.place, width=10,
                         short="Pl. poule")
FORFEIT = Metric[Any]("forfeit", "Forfait", lambda standing: standing.line.forfeit, ColumnKind.BOOL, 8)

METRICS = Metrics(ROUND_REACHED, POINTS, GAMES, AVERAGE, POOL, POOL_PLACE, FORFEIT)
COLUMNS = METRICS.columns(ROUND_REACHED, POINTS, GAMES, AVERAGE, POOL, POOL_PLACE, FORFEIT)


def columns(rounds: int, final: bool) -> tuple[Column, ...]:
    """A tournament's published columns, its round reached named as its bulletin names it:
    « tour 2 », and « finale » for its last round (`rounds`) when that is the final pool (`final`)."""
    labels = tuple((number, "finale" if final and number == rounds else f"tour\u00a0{number}")
                   for number in range(1, rounds + 1))
    return tuple(dataclasses.replace(column, labels=labels) if column.key == ROUND_REACHED.key else column
                 for column in COLUMNS)
