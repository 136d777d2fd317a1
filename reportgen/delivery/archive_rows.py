"""A copy's rows in the league's database (docs/archive.md): its archive row, its files, and the
season's normalised data (clubs, players, tournaments, every results row, every ranking), written
in the transaction that records the copy (delivery/archive.py)."""

from __future__ import annotations

import dataclasses
import datetime as dt
import json
import sqlite3
from fractions import Fraction
from pathlib import Path
from typing import Any

from reportgen import pipeline
from reportgen.delivery.archive_layout import ArchivedFile, sha256
from reportgen.ingest.text import name_key


def insert_rows(files: list[ArchivedFile], connection: sqlite3.Connection, league: pipeline.League,
                scored: pipeline.Scored, events: dict[str, list[Any]], season: int, version: int, folder: Path,
                record: dict[str, Any]) -> None:
    """The copy's rows: its archive row, its files, the season's data."""
    archive_id = connection.execute(
        "INSERT INTO archive (season, version, folder, archived_at, reason, reportgen) VALUES (?, ?, ?, ?, ?, ?)",
        (season, version, f"{season}/{folder.name}", record["archived_at"], record["reason"],
         record["reportgen"])).lastrowid
    assert archive_id is not None
    connection.executemany(
        "INSERT INTO archived_file (archive_id, path, kind, circuit, sha256, size) VALUES (?, ?, ?, ?, ?, ?)",
        [(archive_id, f.path, f.kind, f.circuit, sha256(f.data), len(f.data)) for f in files])
    write_season(connection, archive_id, league, scored, events, season)


def _plain(value: Any) -> Any:
    if isinstance(value, Fraction):
        return float(value)
    if isinstance(value, (dt.date, dt.datetime)):
        return value.isoformat()
    if isinstance(value, (set, frozenset)):
        return sorted(value)
    if hasattr(value, "item"):  # numpy scalars
        return value.item()
    return str(value)


def _json(value: Any) -> str:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        value = dataclasses.asdict(value)
    return json.dumps(value, ensure_ascii=False, default=_plain, sort_keys=True)


def _number(value: Any) -> float | None:
    if isinstance(value, bool) or value is None:
        return None
    try:
        return float(value)
    except (TypeError, ValueError):
        return None


def write_season(connection: sqlite3.Connection, archive_id: int, league: pipeline.League, scored: pipeline.Scored,
                 events: dict[str, list[Any]], season: int) -> None:
    """The season's normalised data: clubs, players, tournaments, every results row, every ranking
    with the players it leaves out."""
    clubs = league.reading.clubs.clubs
    connection.executemany(
        "INSERT INTO club (archive_id, code, name, departement, emails) VALUES (?, ?, ?, ?, ?)",
        [(archive_id, c.code, c.name, c.departement, "; ".join(c.emails)) for c in clubs])
    known_clubs = {c.code for c in clubs}

    players: dict[str, tuple[str, str, str]] = {}  # id -> name, licence, club
    ids: dict[tuple[str, str], str] = {}  # (file, cell) -> player id
    for slug, found in events.items():
        table = league.circuits[slug].results
        if table.empty:
            continue
        mine = table[table["event"].isin([e.id for e in found])]
        for line in mine.itertuples():
            ids[(str(line.source_file), str(line.source_cell))] = str(line.player_id)
            players[str(line.player_id)] = (str(line.player), str(line.licence), str(line.player_club))
    rankings = {slug: [r for r in report.rankings if r.season == season] for slug, report in scored.reports.items()}
    for found_rankings in rankings.values():
        for ranking in found_rankings:
            for row in ranking.rows:
                players.setdefault(row.player_id, (row.player, row.licence, row.club))
            for out in ranking.left_out:  # in its event's results rows: named there already
                players.setdefault(out.player_id, (out.player, "", ""))
    connection.executemany(
        "INSERT INTO player (archive_id, id, name, name_key, licence, club) VALUES (?, ?, ?, ?, ?, ?)",
        [(archive_id, pid, name, name_key(name), licence, club)
         for pid, (name, licence, club) in sorted(players.items())])

    for slug, found in events.items():
        for event in sorted(found, key=lambda e: (e.date, e.id)):
            club = getattr(getattr(event.content, "club", None), "code", None)
            tournament_id = connection.execute(
                "INSERT INTO tournament (archive_id, circuit, season, source, name, date, club_code, content) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (archive_id, slug, season, event.id, event.name, event.date.isoformat(),
                 club if club in known_clubs else None, _json(event.content))).lastrowid
            rows = []
            for number, result in enumerate(event.results, 1):
                fields = {f.name: getattr(result, f.name) for f in dataclasses.fields(result)
                          if f.name not in ("entry", "ref", "club") and not f.name.endswith("_ref")}
                place = fields.get("place")
                rows.append((tournament_id, number, archive_id, ids[(result.ref.path, result.ref.cell or "")],
                             result.entry.last_name, result.entry.first_name, result.entry.licence, result.club,
                             place if isinstance(place, int) and not isinstance(place, bool) else None,
                             _json(fields), result.ref.sheet or "", result.ref.cell or ""))
            connection.executemany(
                "INSERT INTO result (tournament_id, line, archive_id, player_id, last_name, first_name, licence, "
                "club, place, fields, sheet, cell) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", rows)

    for slug, found_rankings in rankings.items():
        for position, ranking in enumerate(found_rankings, 1):
            ranking_id = connection.execute(
                "INSERT INTO ranking (archive_id, circuit, season, path, scope, event, date, in_force_from, status, "
                "columns, position) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (archive_id, slug, season, ranking.path, ranking.scope.kind, ranking.scope.event,
                 ranking.date.isoformat(), ranking.effective.isoformat(), ranking.status.value,
                 _json([dataclasses.asdict(c) for c in ranking.all_columns]), position)).lastrowid
            connection.executemany(
                "INSERT INTO ranking_row (ranking_id, line, archive_id, rank, tied, player_id, player, licence, club, "
                "points, played, metrics, decided_by, playoff) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [(ranking_id, line, archive_id, row.rank, int(row.tied), row.player_id, row.player, row.licence,
                  row.club, _number(row.metrics.get("points")), _number(row.metrics.get("played")),
                  _json(row.metrics), ", ".join(row.decided_by), int(row.playoff))
                 for line, row in enumerate(ranking.rows, 1)])
            connection.executemany(
                "INSERT INTO ranking_left_out (ranking_id, line, archive_id, player_id, player, why) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                [(ranking_id, line, archive_id, out.player_id, out.player, out.why)
                 for line, out in enumerate(ranking.left_out, 1)])

