"""The archived seasons for the league's website (issue 24): each season's rankings as its latest
archive version recorded them in `archive/league.sqlite`, in the site's own form (site/data.py), so
that a player's page keeps the seasons that have left inputs/. Their bulletins stay in archive/,
outside the published site: the pages show their rankings without links to them."""

from __future__ import annotations

import dataclasses
import datetime as dt
import json
from pathlib import Path
from typing import Any

from reportgen import french
from reportgen.delivery import database
from reportgen.model import Column, Ranking, RankingRow, Scope, ScopeKind, Status
from reportgen.site import data


def _title(scope: str, status: str, season: int, date: str, event_name: str) -> str:
    if scope == ScopeKind.EVENT:
        return event_name
    if scope == ScopeKind.RATINGS:
        return f"Classement Elo du {french.date_long(dt.date.fromisoformat(date))}"
    if status == Status.FINAL.value:
        return f"Classement final {season}"
    return f"Classement {season} au {french.date_long(dt.date.fromisoformat(date))}"


def archived_rankings(archive: Path) -> dict[str, list[dict[str, Any]]]:
    """Each circuit's archived rankings (circuit slug -> the site's records), from each season's
    latest version; none without a database. Raises database.DatabaseUnusable."""
    connection = database.connect(archive, create=False)
    if connection is None:
        return {}
    try:
        latest = {row["season"]: row["id"] for row in connection.execute(
            "SELECT season, id FROM archive a WHERE version = (SELECT MAX(version) FROM archive b "
            "WHERE b.season = a.season) ORDER BY season")}
        found: dict[str, list[dict[str, Any]]] = {}
        for season, archive_id in latest.items():
            names = {row["source"]: row["name"] for row in connection.execute(
                "SELECT source, name FROM tournament WHERE archive_id = ?", (archive_id,))}
            for ranking in connection.execute(
                    "SELECT * FROM ranking WHERE archive_id = ? ORDER BY circuit, position", (archive_id,)).fetchall():
                columns = tuple(Column(**{f.name: c[f.name] for f in dataclasses.fields(Column) if f.name in c})
                                for c in json.loads(ranking["columns"]))
                rows = tuple(RankingRow(row["rank"], row["player_id"], row["player"], row["licence"], row["club"],
                                        json.loads(row["metrics"]), bool(row["tied"]))
                             for row in connection.execute("SELECT * FROM ranking_row WHERE ranking_id = ? ORDER BY line",
                                                           (ranking["id"],)))
                identity = tuple(c for c in columns if c.key in ("rank", "player", "licence", "club"))
                model = Ranking(ranking["path"], Scope(ranking["scope"], ranking["season"], ranking["event"],
                                                       names.get(ranking["event"], "")),
                                dt.date.fromisoformat(ranking["date"]), Status(ranking["status"]),
                                tuple(c for c in columns if c not in identity), rows,
                                dt.date.fromisoformat(ranking["in_force_from"]), identity)
                title = _title(ranking["scope"], ranking["status"], season, ranking["date"],
                               names.get(ranking["event"], ""))
                record = data.ranking_record(model, {ranking["path"]: title})
                found.setdefault(ranking["circuit"], []).append({**record, "no_csv": True})  # its CSV is in archive/
        return found
    finally:
        connection.close()
