"""What every Grand Sud bulletin says of the league's tournaments, put together once for all of them.

A bulletin lists each tournament of years N−1 and N up to its date with what its ranking does
with it (counted, hors circuit, replaced). Made per bulletin, that listing sorted the whole history
and wrote each tournament's row and each replacement's sentence again for every ranking date: at
100x, 81 bulletins times 4,000 tournaments (docs/performance.md, eighth round). Here the history is
sorted once, each tournament's row and each sentence written once, and each bulletin looks up the
tournaments of its two years only.
"""

from __future__ import annotations

import bisect
import datetime as dt
from typing import Any

from reportgen import french
from reportgen.circuits.grand_sud.scoring import Ranking, Tournament

FORMULA_LABELS = {"poules": "duplicate + poules", "duplicate": "tout en duplicate"}


def short_label(tournament: Tournament) -> str:
    return f"{tournament.event.content.club.code} {tournament.date.day:02d}/{tournament.date.month:02d}"


def replacement_line(first: Tournament, second: Tournament) -> str:
    """A series' second tournament of a year replaces its first (§1: the points of a club's
    tournament are replaced by those of « le tournoi organisé par le même club dans l'année N »,
    one a year), as the bulletin says it."""
    return (f"« {first.event.name} » ({first.event.content.club.name}, {french.date_short(first.date)}) est "
            f"remplacé par « {second.event.name} » du {french.date_short(second.date)} : deuxième tournoi "
            f"de la série {first.series} en {first.date.year}, seul le dernier compte (§1), points et participants.")


class Listing:
    """The league's tournaments in date order, and what a bulletin prints of each, made once."""

    def __init__(self, tournaments: dict[str, Tournament]) -> None:
        self.tournaments = tournaments
        self.ordered = sorted(tournaments.values(), key=lambda t: (t.date, t.id))
        self._dates = [t.date for t in self.ordered]
        self._rows: dict[str, dict[str, Any]] = {}
        self._listed_rows: dict[tuple[str, str, bool], dict[str, Any]] = {}  # (id, status, counted) -> its row
        self._replaced: dict[tuple[str, str], tuple[str, str | None]] = {}  # (replaced, by) -> status, line

    def statuses(self, ranking: Ranking) -> list[tuple[Tournament, str]]:
        """The tournaments a reader of the ranking asks about, with what the ranking does with each:
        years N−1 and N up to its date; for the final ranking, the whole year N (§1)."""
        until = dt.date(ranking.season, 12, 31) if ranking.final else ranking.date
        first_year = ranking.season if ranking.final else ranking.season - 1
        start = bisect.bisect_left(self._dates, dt.date(first_year, 1, 1))
        end = bisect.bisect_right(self._dates, until)
        counted = set(ranking.window)
        listed = []
        for tournament in self.ordered[start:end]:
            if tournament.id in counted:
                status = "compté"
            elif not tournament.eligible:
                status = "hors circuit"
            elif tournament.id in ranking.replaced:
                status = self._replacement(tournament, ranking.replaced[tournament.id])[0]
            else:
                continue
            listed.append((tournament, status))
        return listed

    def _replacement(self, tournament: Tournament, by_id: str) -> tuple[str, str | None]:
        """The status of a replaced tournament and, when the same year's edition replaced it, the
        bulletin's sentence saying so."""
        key = (tournament.id, by_id)
        if key not in self._replaced:
            by = self.tournaments[by_id]
            status = f"remplacé par l’édition du {french.date_short(by.date)}"
            line = None
            if by.date.year == tournament.date.year:
                status += " (même année, §1)"
                line = replacement_line(tournament, by)
            self._replaced[key] = (status, line)
        return self._replaced[key]

    def rows(self, ranking: Ranking) -> tuple[list[dict[str, Any]], list[str]]:
        """The bulletin's table of tournaments, and its sentences on the same-year replacements."""
        counted = set(ranking.window)
        table, replacements = [], []
        for tournament, status in self.statuses(ranking):
            by_id = ranking.replaced.get(tournament.id)
            line = self._replacement(tournament, by_id)[1] if by_id is not None else None
            if line is not None:
                replacements.append(line)
            table.append(self._listed(tournament, status, tournament.id in counted))
        return table, replacements

    def _listed(self, tournament: Tournament, status: str, counted: bool) -> dict[str, Any]:
        """A tournament's row of a bulletin's table with what the ranking does with it: read-only, as
        the bulletins' cells, so one dict for every bulletin that says the same of it (at 100x, a
        tournament is in about 40 bulletins' tables, mostly « compté » in each)."""
        key = (tournament.id, status, counted)
        found = self._listed_rows.get(key)
        if found is None:
            found = self._listed_rows[key] = {**self._row(tournament), "status": status, "counted": counted}
        return found

    def _row(self, tournament: Tournament) -> dict[str, Any]:
        """What a bulletin's table says of a tournament whatever the ranking."""
        if tournament.id not in self._rows:
            event = tournament.event
            self._rows[tournament.id] = {
                "label": short_label(tournament), "date": french.date_short(tournament.date), "name": event.name,
                "club": event.content.club.name, "departement": event.content.club.departement,
                "formula": FORMULA_LABELS[event.content.formula], "players": len(event.results),
                "seeds": tournament.seeds if tournament.eligible else "",
            }
        return self._rows[tournament.id]
