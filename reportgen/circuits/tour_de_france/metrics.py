"""The Tour de France ranking's metrics, each declared once: their keys are the CSV and JSON keys.
The regulations name no tie-break: equal totals share the place, so no metric decides a tie.

Records: `scoring.Row`.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from reportgen.circuits import common
from reportgen.scoring.metrics import ColumnKind, Metric, Metrics


def points_number(value: Fraction) -> int | float:
    """Points as published: whole points as int, shares to the hundredth."""
    value = Fraction(value).limit_denominator(1000)
    return value.numerator if value.denominator == 1 else round(float(value), 2)


POINTS = Metric[Any]("points", "Total", lambda row: points_number(row.total), ColumnKind.NUMBER)
PLAYED = Metric[Any]("played", "Tournois", lambda row: row.played, width=9)
# INTERPRETATIONS: places gained, the previous place minus the place now (+3: up three); « nouveau ».
EVOLUTION = Metric[Any]("evolution", "Évolution", lambda row: common.evolution(row.previous_rank, row.rank)["value"],
                        ColumnKind.EVOLUTION, short="Évol.")

METRICS = Metrics(POINTS, PLAYED, EVOLUTION)
COLUMNS = METRICS.columns(POINTS, PLAYED, EVOLUTION)
