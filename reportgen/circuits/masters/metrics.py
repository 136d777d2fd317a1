"""The Masters standings' metrics (§1), each declared once: their keys are the CSV and JSON keys
and the names of the tie-break chain's steps; `decided` is what a published row's `decided_by`
says (« tops »), `said` what the bulletin prints (« départage aux tops »: the tie-break, said of
no one's gender, which the league does not know; « départagé » agreed with the player).

Records: `standings.Line`.
"""

from __future__ import annotations

from typing import Any

from reportgen.scoring.metrics import ColumnKind, Metric, Metrics

POINTS = Metric[Any]("points", "Points", lambda line: line.points, width=7, decided="points")
PLAYED = Metric[Any]("played", "Matchs", lambda line: line.played, width=7)
TOPS = Metric[Any]("tops", "Tops", lambda line: line.tops, width=7, decided="tops", said="départage aux tops")
DEFENSE = Metric[Any]("defense", "Défense", lambda line: line.defense, width=8, decided="défense",
                      said="départage à la défense")
ATTACK = Metric[Any]("attack", "Attaque", lambda line: line.attack, width=8, decided="attaque",
                     said="départage à l’attaque")
BARRAGE = Metric[Any]("barrage", "Barrage", lambda line: line.barrage, ColumnKind.BOOL, 8, decided="barrage",
                      said="barrage à jouer")
NUMBER = Metric[Any]("number", "N°", lambda line: line.participant.number, width=5)
ANNUAL_RANK = Metric[Any]("annual_rank", "Classement annuel", lambda line: line.participant.annual_rank,
                          short="Class. annuel", decided="classement annuel", said="départage au classement annuel")
# The points each made against the others of the tied group: computed within it, never a column.
HEAD_TO_HEAD = Metric[Any]("head_to_head", "Match particulier", decided="match particulier",
                           said="départage au match particulier")

METRICS = Metrics(POINTS, PLAYED, TOPS, DEFENSE, ATTACK, BARRAGE, NUMBER, ANNUAL_RANK, HEAD_TO_HEAD)
COLUMNS = METRICS.columns(POINTS, PLAYED, TOPS, DEFENSE, ATTACK, BARRAGE, NUMBER, ANNUAL_RANK)
