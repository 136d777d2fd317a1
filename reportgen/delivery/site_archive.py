"""The archived seasons for the league's website (issue 24): each season's rankings as its latest
archive version recorded them in `archive/league.sqlite`, in the site's own form (site/data.py), so
that a player's page keeps the seasons that have left inputs/. Their bulletins stay in archive/,
outside the published site: the pages show their rankings without links to them.

A season's tournaments get their pages as the current season's do: the event rankings the database
keeps, and for the others the tournament and results rows it keeps (`data.event_records`). What the
database does not keep is each row's results, best first, that say which ones counted (the
countback's `RankingRow.results`, never published), what a circuit says of a tournament on its
page (`Report.event_notes`: a Grand Sud tournament « hors circuit ») and what each result earned
there (`Report.event_columns`: a Grand Sud tournament's points): they come from the season's
archived workbooks, scored again (`_scored`, through delivery/seasons.py like any archived season),
so that an archived season's pages say what they said while it was in inputs/, the same circuit's
code saying it. An archive written before the notes existed needs nothing more: its workbooks are
scored again as any other's.

A published archive never changes silently: a season is scored again only when every file of its
copy's inputs/ is the one archived (`archive_verify.changed_inputs`, against the SHA-256 the
database recorded), and so is every workbook of the season before that it reads
(delivery/seasons.py `ArchiveChanged`). Otherwise its pages show only what the database keeps (its
rankings, its tournaments' places: as when its workbooks cannot be scored), never a figure from a
workbook that is not the archived one, and the secretary is told once, in the build's notes, which
file and to run `reportgen archive verify`."""

from __future__ import annotations

import dataclasses
import datetime as dt
import json
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from reportgen import french
from reportgen.circuits import common
from reportgen.delivery import database
from reportgen.delivery.archive_layout import Say
from reportgen.delivery.archive_verify import changed_inputs
from reportgen.ingest.file_hashes import FileHashes
from reportgen.ingest.read_cache import ReadCache
from reportgen.model import (
    Column,
    Event,
    LeftOut,
    Ranking,
    RankingRow,
    ReportgenError,
    ResultColumn,
    Scope,
    ScopeKind,
    Status,
    provisional_title,
)
from reportgen.render.cache import code_fingerprint
from reportgen.site import data


def _title(scope: str, status: str, season: int, date: str, event_name: str, so_far: bool) -> str:
    """`so_far`: a season's final ranking archived while the season ran (`database.archived_so_far`)."""
    if scope == ScopeKind.EVENT:
        return event_name
    if scope == ScopeKind.RATINGS:
        return f"Classement Elo au {french.date_long(dt.date.fromisoformat(date))}"
    if status == Status.FINAL.value:
        return provisional_title(season) if so_far else common.final_title(season)
    return f"Classement {season} au {french.date_long(dt.date.fromisoformat(date))}"


def archived_rankings(archive: Path, say: Say = lambda text: None, hashes: FileHashes | None = None,
                      reads: ReadCache | None = None) -> dict[str, list[dict[str, Any]]]:
    """Each circuit's archived rankings (circuit slug -> the site's records), from each season's
    latest version; none without a database. `say`: a note for each season shown without what its
    workbooks would give, one of them not the archived one; `hashes`: the build's file hashes
    (archive/'s files known by their stat); `reads`: the archived workbooks' sheets read before
    (`build`'s, outputs/.reportgen/archive-reads). Each archived file is then hashed once (by its
    check; its season's reading finds the same hash) and read only when neither knows it. Raises
    database.DatabaseUnusable."""
    connection = database.connect(archive, create=False)
    if connection is None:
        return {}
    hashes = hashes if hashes is not None else FileHashes(None)
    reads = reads if reads is not None else ReadCache(None, code_fingerprint())
    try:
        latest = {row["season"]: (row["id"], row["folder"], row["archived_at"]) for row in connection.execute(
            "SELECT season, id, folder, archived_at FROM archive a WHERE version = (SELECT MAX(version) "
            "FROM archive b WHERE b.season = a.season) ORDER BY season")}
        found: dict[str, list[dict[str, Any]]] = {}
        for season, (archive_id, folder, archived_at) in latest.items():
            recorded = {row["path"]: row["sha256"] for row in connection.execute(
                "SELECT path, sha256 FROM archived_file WHERE archive_id = ? AND kind = 'input'", (archive_id,))}
            changed = changed_inputs(archive, folder, recorded, hashes)
            if changed:
                say(_places_only(season, french.joined(changed)))
                scored = _Scored({}, {}, {})
            else:
                scored = _scored(archive, folder, dt.date.fromisoformat(archived_at[:10]), season, say, hashes, reads)
            # each tournament's name and first day of play (a pool tournament's ranking is dated later)
            tournaments = {row["source"]: (row["name"], dt.date.fromisoformat(row["date"])) for row in connection.execute(
                "SELECT source, name, date FROM tournament WHERE archive_id = ?", (archive_id,))}
            so_far = database.archived_so_far(connection, archive_id)
            for ranking in connection.execute(
                    "SELECT * FROM ranking WHERE archive_id = ? ORDER BY circuit, position", (archive_id,)).fetchall():
                columns = tuple(Column(**{f.name: c[f.name] for f in dataclasses.fields(Column) if f.name in c})
                                for c in json.loads(ranking["columns"]))
                results = scored.results.get((ranking["circuit"], ranking["path"]), {})
                rows = tuple(RankingRow(row["rank"], row["player_id"], row["player"], row["licence"], row["club"],
                                        json.loads(row["metrics"]), bool(row["tied"]),
                                        results=(played := results.get(row["player_id"], ((), (), ())))[0],
                                        events=played[1], counts=played[2])
                             for row in connection.execute("SELECT * FROM ranking_row WHERE ranking_id = ? ORDER BY line",
                                                           (ranking["id"],)))
                identity = tuple(c for c in columns if c.key in ("rank", "player", "licence", "club"))
                name, start = tournaments.get(ranking["event"], ("", None))
                # its players left out, as kept (a copy made before schema 9 kept none: as scored again)
                left_out = tuple(LeftOut(row["player_id"], row["player"], row["why"]) for row in connection.execute(
                    "SELECT * FROM ranking_left_out WHERE ranking_id = ? ORDER BY line", (ranking["id"],))) \
                    or scored.left_out.get((ranking["circuit"], ranking["path"]), ())
                model = Ranking(ranking["path"], Scope(ranking["scope"], ranking["season"], ranking["event"], name, start),
                                dt.date.fromisoformat(ranking["date"]), Status(ranking["status"]),
                                tuple(c for c in columns if c not in identity), rows,
                                dt.date.fromisoformat(ranking["in_force_from"]), identity, left_out=left_out)
                title = _title(ranking["scope"], ranking["status"], season, ranking["date"], name,
                               (ranking["circuit"], ranking["path"]) in so_far)
                record = data.ranking_record(model, {ranking["path"]: title})
                found.setdefault(ranking["circuit"], []).append({**record, "no_csv": True})  # its CSV is in archive/
            for circuit, events in _tournaments(connection, archive_id, scored).items():
                covered = {r["event"] for r in found.get(circuit, []) if r["season"] == season and r["kind"] == "event"}
                found.setdefault(circuit, []).extend(e for e in events if e["event"] not in covered)
        return found
    finally:
        connection.close()


def _tournaments(connection: Any, archive_id: int,
                 scored: _Scored) -> dict[str, list[dict[str, Any]]]:
    """Each circuit's archived tournaments as the site's records (`data.event_records`): places as the
    database keeps them (as the circuit's parse gave them: a Tour de France tournament's, those of its
    ranking), the player's archived name, his club, what the circuit says of it and what each result
    earned there (`scored`: its season scored again; nothing when it could not be)."""
    events: dict[str, list[Event[Any]]] = {}
    for row in connection.execute("SELECT * FROM tournament WHERE archive_id = ? ORDER BY circuit, date, source",
                                  (archive_id,)):
        content = json.loads(row["content"])
        place = content.get("location", "") if isinstance(content, dict) else ""
        events.setdefault(row["circuit"], []).append(Event(row["source"], row["name"], dt.date.fromisoformat(
            row["date"]), SimpleNamespace(location=place if isinstance(place, str) else "")))
    lines: dict[str, list[dict[str, Any]]] = {}
    for row in connection.execute(
            "SELECT t.circuit, t.source, r.player_id, p.name, r.club, r.place FROM result r "
            "JOIN tournament t ON t.id = r.tournament_id "
            "JOIN player p ON p.archive_id = r.archive_id AND p.id = r.player_id "
            "WHERE r.archive_id = ? ORDER BY t.id, r.line", (archive_id,)):
        lines.setdefault(row["circuit"], []).append({"event": row["source"], "player_id": row["player_id"],
                                                     "player": row["name"], "club": row["club"],
                                                     "place": row["place"]})
    return {circuit: data.event_records(found, lines.get(circuit, []), scored.notes.get(circuit),
                                        scored.columns.get(circuit))
            for circuit, found in events.items()}


@dataclasses.dataclass(frozen=True)
class _Scored:
    """What the database does not keep of an archived season, from its workbooks scored again."""

    # each archived ranking's rows' results, best first, with their tournaments' ids and whether
    # each counted (`RankingRow.counts`): (circuit, path) -> player id -> (results, ids, counts)
    results: dict[tuple[str, str], dict[str, tuple[tuple[int, ...], tuple[str, ...], tuple[bool, ...]]]]
    # what each circuit says of a tournament on its page: circuit -> event id -> its Report.event_notes
    notes: dict[str, dict[str, str]]
    # what each result earned in its tournament: circuit -> event id -> its Report.event_columns
    columns: dict[str, dict[str, tuple[ResultColumn, ...]]]
    # the players each event's ranking leaves out (`Ranking.left_out`), for a copy whose database
    # kept none (archived before schema 9): (circuit, path) -> them
    left_out: dict[tuple[str, str], tuple[LeftOut, ...]] = dataclasses.field(default_factory=dict)


def _places_only(season: int, what: str) -> str:
    """The note of a season shown without what its workbooks would give (`what`: which of them is
    not the archived one)."""
    return (f"saison {season} archivée : {what} — le site n’en montre que ce que garde la base de données (ses "
            "classements et les places de ses tournois, sans les points de chaque résultat ni les résultats "
            "retenus) : lancez « reportgen archive verify »")


def _scored(archive: Path, folder: str, day: dt.date, season: int, say: Say, hashes: FileHashes,
            reads: ReadCache) -> _Scored:
    """The season's archived workbooks (with the season before when its circuit reads it) scored
    again, on the day it was archived: its copy's own files are the archived ones (checked before),
    and the season before's are checked as they are read back (`seasons.ArchiveChanged`, said).
    Nothing for a season that cannot be scored (a workbook damaged, one of the season before no
    longer the archived one): its pages then mark nothing, note nothing and show the tournaments'
    places alone."""
    from reportgen import pipeline
    from reportgen.delivery import seasons

    try:
        scored = pipeline.score(seasons.load(archive / folder / "inputs", archive, day, hashes=hashes, reads=reads))
    except seasons.ArchiveChanged as changed:
        say(_places_only(season, f"{changed.path}, qu’elle lit, manque ou a été modifié depuis son archivage"))
        return _Scored({}, {}, {})
    except (ReportgenError, database.DatabaseUnusable, OSError):
        return _Scored({}, {}, {})
    return _Scored({(slug, ranking.path): {row.player_id: (row.results, row.events, row.counts)
                                           for row in ranking.rows if row.results}
                    for slug, report in scored.reports.items() for ranking in report.rankings},
                   {slug: report.event_notes for slug, report in scored.reports.items() if report.event_notes},
                   {slug: report.event_columns for slug, report in scored.reports.items() if report.event_columns},
                   {(slug, ranking.path): ranking.left_out for slug, report in scored.reports.items()
                    for ranking in report.rankings if ranking.left_out})
