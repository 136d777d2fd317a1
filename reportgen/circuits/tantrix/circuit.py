"""`tantrix`'s implementation: its workbooks parsed and scored (what it is: info.py)."""

from __future__ import annotations

from collections import defaultdict

import pandas as pd

from reportgen.circuits import common
from reportgen.circuits.base import Reading
from reportgen.circuits.tantrix import documents
from reportgen.circuits.tantrix.info import INFO
from reportgen.circuits.tantrix.parse import TantrixEvent
from reportgen.circuits.tantrix.parse import parse as parse_workbook
from reportgen.circuits.tantrix.scoring import EventResult, score_events
from reportgen.circuits.tantrix.settings import TantrixSettings
from reportgen.model import Report


class Tantrix:
    info = INFO
    Settings = TantrixSettings

    parse = staticmethod(parse_workbook)  # the workbook, read by its parse.py

    def score(self, results: pd.DataFrame, events: list[TantrixEvent], settings: TantrixSettings,
              reading: Reading, upstream: dict[str, Report]) -> Report:
        report = Report()
        scored = score_events(results, events, settings)
        if scored.problems:
            report.problems = scored.problems
            return report
        by_year: dict[int, list[EventResult]] = defaultdict(list)
        # Two events of one day whose names share their first 60 characters: each its own files.
        paths = common.distinct_paths([(documents.event_path(r), r.event.name) for r in scored.events])
        for result, path in zip(scored.events, paths):
            by_year[result.event.date.year].append(result)
            report.documents.append(documents.event_bulletin(result, settings, reading.league, path))
            report.rankings.append(documents.event_ranking(result, path))
        for ratings in scored.lists:
            report.documents.append(documents.list_bulletin(ratings, settings, reading.league))
            report.rankings.append(documents.list_ranking(ratings, settings))
        for year, year_results in sorted(by_year.items()):
            latest = [r for r in scored.lists if r.date.year == year][-1]
            report.annexes.append(documents.annex(year, year_results, latest, settings))
        return report


CIRCUIT = Tantrix()
