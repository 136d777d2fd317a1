"""The Grand Sud ranking's metrics (§1 to §3), each declared once: their keys are the CSV and JSON
keys and the names of the tie-break chain's steps (§1: fewer tournaments played, then the best
result); `decided` is what a published row's `decided_by` says.

Records: `scoring.Row` (the chain orders the summary lines the ranking is computed from, which
hold the same totals).
"""

from __future__ import annotations

from typing import Any

from reportgen.circuits import common
from reportgen.scoring.metrics import ColumnKind, Metric, Metrics

POINTS = Metric[Any]("points", "Total", lambda row: row.total, width=9, decided="points")
PLAYED = Metric[Any]("played", "Tournois joués", lambda row: row.played, width=9, short="Tournois",
                     decided="tournois joués")
BEST = Metric[Any]("best", "Meilleur résultat", lambda row: row.best, decided="meilleur résultat")
# INTERPRETATIONS: places gained, the previous place minus the place now (+3: up three); « nouveau ».
EVOLUTION = Metric[Any]("evolution", "Évolution", lambda row: common.evolution(row.previous_rank, row.rank)["value"],
                        ColumnKind.EVOLUTION, short="Évol.")
SEED = Metric[Any]("seed", "Tête de série", lambda row: row.seed, ColumnKind.BOOL, 8)

METRICS = Metrics(POINTS, PLAYED, BEST, EVOLUTION, SEED)
COLUMNS = METRICS.columns(POINTS, PLAYED, BEST, EVOLUTION, SEED)
