"""`tour-de-france`'s implementation: its workbooks parsed and scored (what it is: info.py)."""

from __future__ import annotations

import pandas as pd

from reportgen.circuits.base import Reading
from reportgen.circuits.tour_de_france import documents
from reportgen.circuits.tour_de_france.info import INFO
from reportgen.circuits.tour_de_france.parse import TourDeFranceEvent, archived_places
from reportgen.circuits.tour_de_france.parse import parse as parse_workbook
from reportgen.circuits.tour_de_france.scoring import score_seasons
from reportgen.circuits.tour_de_france.settings import TourDeFranceSettings
from reportgen.model import Report


class TourDeFrance:
    info = INFO
    Settings = TourDeFranceSettings

    parse = staticmethod(parse_workbook)  # the workbook, read by its parse.py
    # an archive's places typed, put in the ranking (the database's schema 6: delivery/database.py)
    archived_places = staticmethod(archived_places)

    def score(self, results: pd.DataFrame, events: list[TourDeFranceEvent], settings: TourDeFranceSettings,
              reading: Reading, upstream: dict[str, Report]) -> Report:
        scored, rankings = score_seasons(results, events, settings)
        by_id = {t.id: t for t in scored}
        report = Report()
        report.event_columns = documents.result_columns(scored)
        report.event_notes = documents.event_notes(scored, settings)
        for ranking in rankings:
            # One document per ranking: the season's bulletin once it is over; until then its latest
            # dated bulletin is the ranking « à date » (the season's CSV and annex stay, the CSV
            # named « provisoire » as the Grand Sud's: common.ranking_path).
            closed = reading.season_closed(ranking.season)
            if not ranking.final or closed:
                report.documents.append(documents.bulletin(ranking, by_id, settings, settings.publisher, closed))
            report.rankings.append(shown := documents.published(ranking, closed))
            if ranking.final:
                report.annexes.append(documents.annex(ranking.season, ranking, shown, scored, settings, closed))
        return report


CIRCUIT = TourDeFrance()
