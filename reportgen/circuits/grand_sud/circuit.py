"""`grand-sud`'s implementation: its workbooks parsed and scored (what it is: info.py)."""

from __future__ import annotations

import pandas as pd

from reportgen.circuits.base import Reading
from reportgen.circuits.grand_sud import documents
from reportgen.circuits.grand_sud.info import INFO
from reportgen.circuits.grand_sud.listing import Listing
from reportgen.circuits.grand_sud.parse import GrandSudEvent
from reportgen.circuits.grand_sud.parse import parse as parse_workbook
from reportgen.circuits.grand_sud.scoring import Tournament, same_year_editions, score_league
from reportgen.circuits.grand_sud.settings import GrandSudSettings
from reportgen.ingest.directories import Club
from reportgen.model import Report


class GrandSud:
    info = INFO
    Settings = GrandSudSettings

    parse = staticmethod(parse_workbook)  # the workbook, read by its parse.py

    def edition(self, event: GrandSudEvent) -> tuple[tuple[str, object, str], str]:
        """Two workbooks of one club's series on one date are one tournament sent twice: scored
        both, the second would replace the first (§1) and the bulletin would call it its own
        replacement."""
        return (event.content.club.code, event.date, event.content.series), "même club, même date, même série"

    def organiser(self, event: GrandSudEvent) -> Club:
        """The club its `Tournoi` sheet names (`Club`): whose tournament it is, so that a workbook
        another club sends by e-mail is held for the secretary (delivery/inbox_filing.py)."""
        return event.content.club

    def score(self, results: pd.DataFrame, events: list[GrandSudEvent], settings: GrandSudSettings,
              reading: Reading, upstream: dict[str, Report]) -> Report:
        eligible = {e.id: e.content.club.departement in settings.departements for e in events}
        tournaments, points, rankings = score_league(results, events, eligible, settings)
        report = Report()
        for first, second, gone in replacements(results, list(tournaments.values())):
            report.notices.append(documents.replacement_notice(first, second, gone))
            report.replaces[second.id] = documents.replacement_note(first, gone)
        report.event_notes = {event.id: documents.OUTSIDE for event in events if not eligible[event.id]}
        report.event_columns = documents.result_columns(points, tournaments)
        earned = documents.earned_rows(points)
        listing = Listing(tournaments)
        finals = {}  # each season's final ranking as published (its CSV), the first sheet of its annex
        for ranking in rankings:
            # One document per ranking: while the season runs, its ranking « à date » is the latest
            # dated bulletin; the final bulletin (HTML, PDF) waits for the season's end. Its CSV and
            # the annex say the final ranking meanwhile, the CSV named « provisoire » until the end
            # (common.ranking_path): a club read `classement-final-2026.csv` in March as final.
            closed = reading.season_closed(ranking.season)
            if not ranking.final or closed:
                report.documents.append(documents.bulletin(ranking, listing, earned, settings, reading.league,
                                                           closed))
            report.rankings.append(shown := documents.published(ranking, closed))
            if ranking.final:
                finals[ranking.season] = shown
        for season in sorted({r.season for r in rankings}):
            report.annexes.append(documents.annex(season, [r for r in rankings if r.season == season],
                                                  tournaments, points, reading.season_closed(season),
                                                  finals.get(season)))
        return report


def replacements(results: pd.DataFrame,
                 tournaments: list[Tournament]) -> list[tuple[Tournament, Tournament, list[str]]]:
    """A series' second tournament of a year replaces its first (§1): each (first, second), with the
    players of the first who did not play the second and so leave the ranking's count of it."""
    pairs = same_year_editions(tournaments)
    if not pairs:
        return []
    # Each tournament's players found once: filtering the whole table per pair grew as the square
    # of the league (docs/performance.md, seventh round); one pass over its columns as lists, not
    # a pandas group per tournament (eighth round).
    played: dict[str, list[tuple[str, str]]] = {}
    if len(results):
        for event, player_id, player in zip(*(results[name].tolist() for name in ("event", "player_id", "player"))):
            played.setdefault(event, []).append((player_id, player))
    found = []
    for first, second in pairs:
        after = {pid for pid, _ in played.get(second.id, [])}
        gone = sorted({player for pid, player in played.get(first.id, []) if pid not in after})
        found.append((first, second, gone))
    return found


CIRCUIT = GrandSud()
