"""`reportgen archive`: a season frozen under archive/<season>/, its manifest, and its data in the
league's database; `reportgen archive verify`: every archived file against its manifest.

    archive/league.sqlite                  the database (docs/archive.md)
    archive/2026/SHA256SUMS                every file of every copy of the season (`sha256sum -c`)
    archive/2026/v1/archive.json           when, why, by which reportgen
    archive/2026/v1/outputs/<circuit>/…    final bulletins (PDF, HTML), CSV files, annexes
    archive/2026/v1/inputs/…               the season's workbooks, clubs.xlsx, joueurs.xlsx, the *.toml settings
    archive/2026/v2/…                      a later copy, after a correction (--reason): v1 stays as it was

A copy is written into a hidden folder, then the database in one transaction, then the folder
is renamed and the manifest extended; the transaction is committed last, so a failure leaves
neither a half copy nor half the data. Archived files are made read-only.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import hashlib
import json
import os
import re
import shutil
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

from reportgen import __version__, pipeline
from reportgen.config import SETTINGS_FILE
from reportgen.delivery import database, published
from reportgen.ingest.directories import CLUBS_FILE, PLAYERS_FILE
from reportgen.ingest.text import name_key
from reportgen.model import ReportgenError
from reportgen.render.files import write_atomic

MANIFEST = "SHA256SUMS"
RECORD = "archive.json"
_VERSION = re.compile(r"^v(\d+)$")

Say = Callable[[str], None]


# -- the manifest, in the format of sha256sum ------------------------------------------------------

def manifest_line(digest: str, path: str) -> str:
    """One line as `sha256sum` writes it (a name with a backslash or a newline is escaped and the
    line starts with a backslash, as GNU coreutils does)."""
    if "\\" in path or "\n" in path:
        return f"\\{digest}  {path.replace(chr(92), chr(92) * 2).replace(chr(10), chr(92) + 'n')}\n"
    return f"{digest}  {path}\n"


def read_manifest(text: str) -> tuple[dict[str, str], list[int]]:
    """path -> sha256 of a manifest, and the numbers of the lines that are not in its format."""
    entries: dict[str, str] = {}
    wrong = []
    for number, line in enumerate(text.split("\n"), 1):
        if not line:
            continue
        escaped = line.startswith("\\")
        found = re.fullmatch(r"([0-9a-fA-F]{64}) [ *](.+)", line[1:] if escaped else line)
        if not found:
            wrong.append(number)
            continue
        path = found[2]
        if escaped:
            path = re.sub(r"\\(.)", lambda m: "\n" if m[1] == "n" else m[1], path)
        entries[path] = found[1].lower()
    return entries, wrong


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


# -- archiving a season -----------------------------------------------------------------------------

@dataclass
class Archived:
    season: int
    version: int
    folder: Path
    files: int
    notes: list[str] = field(default_factory=list)
    unchanged: bool = False  # the same files as the latest copy: nothing new was written


@dataclass
class _File:
    path: str  # relative to the version folder
    kind: str
    circuit: str
    data: bytes


def versions(season_folder: Path) -> list[int]:
    if not season_folder.is_dir():
        return []
    return sorted(int(found[1]) for child in season_folder.iterdir() if (found := _VERSION.match(child.name)))


def archive_season(inputs: Path, outputs: Path, archive: Path, season: int, reason: str = "",
                   today: dt.date | None = None, now: dt.datetime | None = None,
                   say: Say = lambda text: None) -> Archived:
    """Freeze `season`: raises ReportgenError (in French, with what to do) when it cannot."""
    from reportgen.delivery import seasons

    league = seasons.load(inputs, archive, today, say)
    scored = pipeline.score(league)
    # The problems that concern the season: those of every circuit that has workbooks of it (a
    # circuit whose other seasons have problems blocks it all the same) and those of no circuit.
    concerned = [slug for slug, found in league.circuits.items()
                 if any(published.event_season(e) == season for e in found.events) or found.problems]
    problems = sorted(set(league.problems).union(*(league.problems_of(slug) for slug in concerned),
                                                 *(scored.blocked.get(slug, []) for slug in concerned)))
    if problems:
        raise ReportgenError("les classeurs ont des problèmes, la saison n'est pas archivée :\n"
                             + "\n".join(f"  - {problem}" for problem in problems))
    events = {slug: [e for e in league.circuits[slug].events if published.event_season(e) == season]
              for slug in scored.reports}
    missing = sorted(e.id for found in events.values() for e in found if not (inputs / e.id).is_file())
    if missing:
        raise ReportgenError(f"les classeurs de la saison {season} doivent être dans {inputs} pour l'archiver "
                             f"(absents : {', '.join(missing)})")
    outputs_files, notes = published.season_files(scored, season)
    if not league.reading.season_closed(season):
        notes.append(f"la saison {season} n'est pas close : ses classements finaux sont « à date » (archivez-la "
                     "de nouveau avec --reason une fois close, ou clôturez-la d'abord : reportgen season close)")
    if not outputs_files and not any(events.values()):
        raise ReportgenError(f"aucun tournoi ni classement de la saison {season} dans {inputs}")
    wrong = published.stale(outputs_files, outputs)
    if wrong:
        raise ReportgenError(f"{outputs} n'est pas à jour pour la saison {season} — lancez « make » (reportgen "
                             "build) puis archivez ; fichiers absents ou différents de ce que donnent les "
                             "classeurs :\n" + "\n".join(f"  - {path}" for path in wrong))

    files = [_File(f"outputs/{f.path}", f.kind, f.circuit, (outputs / f.path).read_bytes()) for f in outputs_files]
    sources = sorted({e.id for found in events.values() for e in found})
    # The directories and the settings (reportgen.toml, and any other settings file beside it).
    settings = sorted(path.name for path in inputs.glob("*.toml") if path.is_file() and path.name != SETTINGS_FILE)
    sources += [name for name in (CLUBS_FILE, PLAYERS_FILE, SETTINGS_FILE, *settings) if (inputs / name).is_file()]
    circuit_of = {e.id: slug for slug, found in events.items() for e in found}
    files += [_File(f"inputs/{source}", "input", circuit_of.get(source, ""), (inputs / source).read_bytes())
              for source in sources]

    season_folder = archive / str(season)
    earlier = versions(season_folder)
    connection = database.connect(archive)
    assert connection is not None
    try:
        if earlier:
            latest = connection.execute("SELECT id, folder, archived_at FROM archive WHERE season = ? "
                                        "ORDER BY version DESC LIMIT 1", (season,)).fetchone()
            before = {row["path"]: row["sha256"] for row in connection.execute(
                "SELECT path, sha256 FROM archived_file WHERE archive_id = ? AND kind != 'record'",
                (latest["id"],))} if latest else {}
            if before == {f.path: sha256(f.data) for f in files}:
                say(f"la saison {season} est déjà archivée à l'identique ({archive / (latest['folder'])}) : "
                    "rien de nouveau")
                return Archived(season, earlier[-1], season_folder / f"v{earlier[-1]}", len(files), notes, True)
            if not reason.strip():
                raise ReportgenError(f"la saison {season} est déjà archivée (v{earlier[-1]}) et a changé depuis : "
                                     "dites pourquoi l'archiver de nouveau avec --reason \"…\" (la copie "
                                     "précédente est gardée telle quelle)")
        version = (earlier[-1] if earlier else 0) + 1
        folder = season_folder / f"v{version}"
        moment = (now or dt.datetime.now(dt.timezone.utc)).astimezone(dt.timezone.utc).replace(microsecond=0)
        record = {"season": season, "version": version, "archived_at": moment.isoformat(),
                  "reason": reason.strip(), "reportgen": __version__, "files": len(files)}
        files.append(_File(RECORD, "record", "",
                           (json.dumps(record, ensure_ascii=False, indent=1) + "\n").encode("utf-8")))
        _write(files, connection, league, scored, events, season, version, folder, record)
    finally:
        connection.close()
    return Archived(season, version, folder, len(files), notes)


def _write(files: list[_File], connection: sqlite3.Connection, league: pipeline.League, scored: pipeline.Scored,
           events: dict[str, list[Any]], season: int, version: int, folder: Path, record: dict[str, Any]) -> None:
    """The copy, the manifest and the database rows: all of it, or nothing."""
    season_folder = folder.parent
    season_folder.mkdir(parents=True, exist_ok=True)
    temporary = season_folder / f".{folder.name}.tmp"
    shutil.rmtree(temporary, ignore_errors=True)
    manifest = season_folder / MANIFEST
    before = manifest.read_bytes() if manifest.exists() else b""
    renamed = False
    try:
        for file in files:
            target = temporary / file.path
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(file.data)
            target.chmod(0o444)
        with database.transaction(connection):
            archive_id = connection.execute(
                "INSERT INTO archive (season, version, folder, archived_at, reason, reportgen) VALUES (?, ?, ?, ?, ?, ?)",
                (season, version, f"{season}/{folder.name}", record["archived_at"], record["reason"],
                 record["reportgen"])).lastrowid
            assert archive_id is not None
            connection.executemany(
                "INSERT INTO archived_file (archive_id, path, kind, circuit, sha256, size) VALUES (?, ?, ?, ?, ?, ?)",
                [(archive_id, f.path, f.kind, f.circuit, sha256(f.data), len(f.data)) for f in files])
            write_season(connection, archive_id, league, scored, events, season)
            os.replace(temporary, folder)
            renamed = True
            lines = "".join(manifest_line(sha256(f.data), f"{folder.name}/{f.path}")
                            for f in sorted(files, key=lambda f: f.path))
            write_atomic(manifest, before + lines.encode("utf-8"))
    except BaseException:
        if renamed:
            shutil.rmtree(folder, ignore_errors=True)
            if before:
                write_atomic(manifest, before)
            else:
                manifest.unlink(missing_ok=True)
        shutil.rmtree(temporary, ignore_errors=True)
        raise


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
    """The season's normalised data: clubs, players, tournaments, every results row, every ranking."""
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


# -- verifying --------------------------------------------------------------------------------------

def verify(archive: Path) -> tuple[list[str], int]:
    """Each archived file against its season's manifest (and the manifest against the database):
    (what is wrong, one line each naming the file; how many files were checked)."""
    if not archive.is_dir():
        raise ReportgenError(f"il n'y a pas d'archive dans {archive}")
    wrong: list[str] = []
    checked = 0
    recorded: dict[str, str] = {}
    connection = database.connect(archive, create=False)
    if connection is not None:
        try:
            recorded = {f"{row['folder']}/{row['path']}": row["sha256"] for row in connection.execute(
                "SELECT a.folder, f.path, f.sha256 FROM archived_file f JOIN archive a ON a.id = f.archive_id")}
        finally:
            connection.close()
    seasons = sorted((child for child in archive.iterdir() if child.is_dir() and child.name.isdigit()),
                     key=lambda child: int(child.name))
    for season_folder in seasons:
        manifest = season_folder / MANIFEST
        shown = manifest.relative_to(archive).as_posix()
        if not manifest.is_file():
            wrong.append(f"{shown} : manquant — le manifeste de la saison a disparu")
            continue
        entries, bad_lines = read_manifest(manifest.read_text(encoding="utf-8", errors="replace"))
        wrong += [f"{shown} : ligne {number} illisible" for number in bad_lines]
        for path, digest in sorted(entries.items()):
            target = season_folder / path
            name = f"{season_folder.name}/{path}"
            checked += 1
            if not target.is_file():
                wrong.append(f"{name} : manquant")
            elif sha256(target.read_bytes()) != digest:
                wrong.append(f"{name} : modifié (son contenu n'est plus celui qui a été archivé)")
            elif name in recorded and recorded[name] != digest:
                wrong.append(f"{name} : le manifeste a été modifié (il ne correspond plus à la base de données)")
        listed = {season_folder / path for path in entries}
        for version in versions(season_folder):
            for found in sorted((season_folder / f"v{version}").rglob("*")):
                if found.is_file() and found not in listed:
                    wrong.append(f"{found.relative_to(archive).as_posix()} : ajouté après l'archivage (absent du "
                                 "manifeste)")
        season_recorded = {name for name in recorded if name.split("/", 1)[0] == season_folder.name}
        for name in sorted(season_recorded - {f"{season_folder.name}/{path}" for path in entries}):
            wrong.append(f"{name} : retiré du manifeste (la base de données l'a archivé)")
    return wrong, checked
