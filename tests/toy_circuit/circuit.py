"""The toy circuit's implementation: a season's points by place, summed (10-8-6-5-4-3-2-1)."""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from reportgen.circuits.base import Reading
from reportgen.model import Event, Report
from tests.toy_circuit import documents
from tests.toy_circuit.info import INFO
from tests.toy_circuit.parse import parse as parse_workbook


@dataclass(frozen=True)
class SkittlesSettings:
    points: tuple[int, ...] = (10, 8, 6, 5, 4, 3, 2, 1)  # by place; 0 below


class Skittles:
    info = INFO
    Settings = SkittlesSettings

    parse = staticmethod(parse_workbook)  # the workbook, read by its parse.py

    def score(self, results: pd.DataFrame, events: list[Event], settings: SkittlesSettings, reading: Reading,
              upstream: dict[str, Report]) -> Report:
        report = Report()
        results = results.assign(season=results["date"].dt.year, points=[
            settings.points[place - 1] if place <= len(settings.points) else 0 for place in results["place"]])
        for season, played in results.groupby("season"):
            ranking = documents.ranking(int(season), played, reading.season_closed(int(season)))
            report.rankings.append(ranking)
            report.documents.append(documents.bulletin(ranking, reading.league))
            report.annexes.append(documents.annex(ranking))
        return report


CIRCUIT = Skittles()
