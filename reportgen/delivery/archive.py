"""`reportgen archive`: a season frozen under archive/<season>/, its manifest, and its data in the
league's database; `reportgen archive verify`: the files, their manifests and the database against each other.

    archive/league.sqlite                  the database (docs/archive.md)
    archive/2026/SHA256SUMS                every file of every copy of the season (`sha256sum -c`)
    archive/2026/v1/archive.json           when, why, by which reportgen
    archive/2026/v1/outputs/<circuit>/…    final bulletins (PDF, HTML), CSV files, annexes
    archive/2026/v1/inputs/…               the season's workbooks, clubs.xlsx, joueurs.xlsx, the *.toml settings
    archive/2026/v2/…                      a later copy, after a correction (--reason): v1 stays as it was

A copy is whole or absent, whatever stops the command (kill -9, a full disk, a locked database):
under the database's write lock, it is written and synced in `archive/.staging-<season>-vN-<random>/`
(the files, and the season's new SHA256SUMS), then its rows are inserted and the staged folder is
renamed to `<season>/vN` just before the commit; the new manifest is put in place after it. The
database is the proof: `recover()`, run first by `archive` and `verify`, finishes a staged copy
whose rows were committed and removes one whose rows were not (and its renamed folder). Archived
files are made read-only. `verify` checks the files, the manifests and the database against each
other.
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
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

from reportgen import __version__, pipeline
from reportgen.config import SETTINGS_FILE
from reportgen.delivery import database, published
from reportgen.ingest.directories import CLUBS_FILE, PLAYERS_FILE
from reportgen.ingest.text import escape_controls, name_key
from reportgen.model import ReportgenError
from reportgen.render.files import OutputError, fsync_folder

MANIFEST = "SHA256SUMS"
RECORD = "archive.json"
STAGING = ".staging-"
_VERSION = re.compile(r"^v(\d+)$")
_STAGED = re.compile(r"^\.staging-(\d+)-v(\d+)-")

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
    connection = database.connect(archive)
    assert connection is not None
    staging: Path | None = None
    try:
        try:
            # The write lock from the recovery to the commit: one archive at a time, and none takes
            # another's staging folder for a leftover.
            with database.transaction(connection):
                for line in recover(archive, connection):
                    say(line)
                version, unchanged = _next_version(connection, archive, season, files, reason)
                if unchanged:
                    say(f"la saison {season} est déjà archivée à l'identique ({season_folder / f'v{version}'}) : "
                        "rien de nouveau")
                    return Archived(season, version, season_folder / f"v{version}", len(files), notes, True)
                folder = season_folder / f"v{version}"
                moment = (now or dt.datetime.now(dt.timezone.utc)).astimezone(dt.timezone.utc).replace(microsecond=0)
                record = {"season": season, "version": version, "archived_at": moment.isoformat(),
                          "reason": reason.strip(), "reportgen": __version__, "files": len(files)}
                files.append(_File(RECORD, "record", "",
                                   (json.dumps(record, ensure_ascii=False, indent=1) + "\n").encode("utf-8")))
                staging = Path(tempfile.mkdtemp(prefix=f"{STAGING}{season}-v{version}-", dir=archive))
                _stage(staging, folder, files)
                _insert(files, connection, league, scored, events, season, version, folder, record)
                # Last before the commit: after a kill from here on, recover() finds the rows or not.
                season_folder.mkdir(exist_ok=True)
                os.replace(staging / folder.name, folder)
                fsync_folder(season_folder)
                fsync_folder(archive)
        except BaseException as error:
            if staging is not None:
                _undo(staging, season_folder)
            if isinstance(error, OSError):
                raise OutputError(archive, error, "rien n'a été archivé (ni copie ni ligne dans la base de données)",
                                  option="--archive") from error
            raise
        # Committed: the new manifest now (recover() puts it in place after a kill here).
        _finish(staging, season_folder)
    finally:
        connection.close()
    return Archived(season, version, folder, len(files), notes)


def _next_version(connection: sqlite3.Connection, archive: Path, season: int, files: list[_File],
                  reason: str) -> tuple[int, bool]:
    """The version to write, or (True) the latest one when it has the same files. Refused: a copy
    on disk without rows (it would be taken for an earlier copy), a change without a reason."""
    recorded = [row["version"] for row in connection.execute(
        "SELECT version FROM archive WHERE season = ? ORDER BY version", (season,))]
    orphans = sorted(set(versions(archive / str(season))) - set(recorded))
    if orphans:
        raise ReportgenError(_orphan(archive, archive / str(season) / f"v{orphans[0]}"))
    if not recorded:
        return 1, False
    before = {row["path"]: row["sha256"] for row in connection.execute(
        "SELECT f.path, f.sha256 FROM archived_file f JOIN archive a ON a.id = f.archive_id "
        "WHERE a.season = ? AND a.version = ? AND f.kind != 'record'", (season, recorded[-1]))}
    if before == {f.path: sha256(f.data) for f in files}:
        return recorded[-1], True
    if not reason.strip():
        raise ReportgenError(f"la saison {season} est déjà archivée (v{recorded[-1]}) et a changé depuis : dites "
                             "pourquoi l'archiver de nouveau avec --reason \"…\" (la copie précédente est gardée "
                             "telle quelle)")
    return recorded[-1] + 1, False


def _orphan(archive: Path, folder: Path) -> str:
    return (f"{folder} n'est pas dans la base de données {archive / database.DATABASE} (un archivage interrompu "
            "par une version précédente de reportgen, ou des lignes effacées) : remettez la base de données depuis "
            "votre sauvegarde, ou déplacez ce dossier hors de l'archive, puis relancez la commande")


def _stage(staging: Path, folder: Path, files: list[_File]) -> None:
    """The copy in `staging/vN/` and the season's manifest with its lines in `staging/SHA256SUMS`,
    every file and folder synced."""
    copy = staging / folder.name
    folders = {staging, copy}
    for file in files:
        target = copy / file.path
        target.parent.mkdir(parents=True, exist_ok=True)
        folders.update(parent for parent in target.parents if parent.is_relative_to(copy))
        _write_synced(target, file.data)
        target.chmod(0o444)
    manifest = folder.parent / MANIFEST
    before = manifest.read_bytes() if manifest.is_file() else b""
    lines = "".join(manifest_line(sha256(f.data), f"{folder.name}/{f.path}") for f in sorted(files, key=lambda f: f.path))
    _write_synced(staging / MANIFEST, before + lines.encode("utf-8"))
    for synced in sorted(folders, key=lambda f: -len(f.parts)):  # the deepest first: each entry, then its folder's
        fsync_folder(synced)


def _write_synced(path: Path, data: bytes) -> None:
    with open(path, "wb") as stream:
        stream.write(data)
        stream.flush()
        os.fsync(stream.fileno())


def _undo(staging: Path, season_folder: Path) -> None:
    """After a failure before the commit: the renamed copy (its rows were rolled back), the staging
    folder, and the season's folder if it is left empty."""
    found = _STAGED.match(staging.name)
    assert found
    folder = season_folder / f"v{found[2]}"
    if folder.is_dir() and not (staging / folder.name).exists():
        shutil.rmtree(folder, ignore_errors=True)
    shutil.rmtree(staging, ignore_errors=True)
    _remove_if_empty(season_folder)


def _finish(staging: Path, season_folder: Path) -> None:
    """After the commit: the new manifest in place, the staging folder removed."""
    if (staging / MANIFEST).is_file():
        os.replace(staging / MANIFEST, season_folder / MANIFEST)
        fsync_folder(season_folder)
    shutil.rmtree(staging, ignore_errors=True)


def _remove_if_empty(folder: Path) -> None:
    try:
        folder.rmdir()
    except OSError:
        pass  # not empty (or already gone): kept


def recover(archive: Path, connection: database.Connection | None) -> list[str]:
    """What an `archive` stopped halfway left (its staging folders), finished when its rows were
    committed, removed when they were not; one French line each. Run under the write lock."""
    said = []
    for staging in sorted(archive.glob(f"{STAGING}*")):
        found = _STAGED.match(staging.name)
        if not found or not staging.is_dir():
            continue
        season, version = int(found[1]), int(found[2])
        season_folder = archive / str(season)
        folder = season_folder / f"v{version}"
        committed = connection is not None and connection.execute(
            "SELECT 1 FROM archive WHERE season = ? AND version = ?", (season, version)).fetchone() is not None
        if committed:
            if (staging / folder.name).is_dir() and not folder.exists():
                season_folder.mkdir(exist_ok=True)
                os.replace(staging / folder.name, folder)
            _finish(staging, season_folder)
            said.append(f"la saison {season} (v{version}) avait été enregistrée par un archivage interrompu avant "
                        f"sa fin : {folder} et {season_folder / MANIFEST} sont complétés")
            continue
        if connection is not None:
            _undo(staging, season_folder)
        else:  # no database at all: a renamed copy is left for `verify` to report, never removed blindly
            shutil.rmtree(staging, ignore_errors=True)
        said.append(f"un archivage de la saison {season} (v{version}) a été interrompu avant d'être enregistré : "
                    "ses fichiers provisoires sont retirés (rien n'en avait été enregistré)")
    return said


def _insert(files: list[_File], connection: sqlite3.Connection, league: pipeline.League, scored: pipeline.Scored,
            events: dict[str, list[Any]], season: int, version: int, folder: Path, record: dict[str, Any]) -> None:
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

def verify(archive: Path, say: Say = lambda text: None) -> tuple[list[str], int]:
    """The files, the manifests and the database against each other (after `recover()`, whose
    lines are said): (what is wrong, one line each naming the file; how many files were checked).
    A manifest line naming a path outside its season's folder is refused, that path never read."""
    if not archive.is_dir():
        raise ReportgenError(f"il n'y a pas d'archive dans {archive}")
    recorded: dict[str, dict[str, str]] = {}  # 2026/v1 -> path in it -> sha256
    connection = database.connect(archive, create=False)
    try:
        if connection is None:
            for line in recover(archive, None):
                say(line)
        else:
            if any(archive.glob(f"{STAGING}*")):
                with database.transaction(connection):
                    for line in recover(archive, connection):
                        say(line)
            with database.guarded(connection.path):
                for row in connection.execute("SELECT folder FROM archive"):
                    recorded[row["folder"]] = {}
                for row in connection.execute(
                        "SELECT a.folder, f.path, f.sha256 FROM archived_file f JOIN archive a ON a.id = f.archive_id"):
                    recorded[row["folder"]][row["path"]] = row["sha256"]
    finally:
        if connection is not None:
            connection.close()
    seasons = sorted((child for child in archive.iterdir() if child.is_dir() and child.name.isdigit()),
                     key=lambda child: int(child.name))
    wrong: list[str] = []
    if connection is None and seasons:
        wrong.append(f"{database.DATABASE} : manquant — sans la base de données, rien ne garantit les copies : "
                     "remettez-la depuis votre sauvegarde")
    for folder in sorted(set(recorded) - {f"{s.name}/v{n}" for s in seasons for n in versions(s)}):
        wrong.append(f"{folder} : manquant — tout le dossier de cette copie, que la base de données a archivée")
    checked = 0
    for season_folder in seasons:
        found, count = _verify_season(archive, season_folder, recorded if connection is not None else None)
        wrong += found
        checked += count
    return wrong, checked


def _verify_season(archive: Path, season_folder: Path,
                   recorded: dict[str, dict[str, str]] | None) -> tuple[list[str], int]:
    """One season's copies: its manifest against the files, both against the database's rows
    (`recorded`, None without a database)."""
    wrong: list[str] = []
    season = season_folder.name
    on_disk = [f"v{n}" for n in versions(season_folder)]
    # A copy without rows (an archive interrupted by an older reportgen, rows deleted): one line,
    # and none of its files is called intact.
    orphans = set() if recorded is None else {v for v in on_disk if f"{season}/{v}" not in recorded}
    wrong += [_orphan(archive, season_folder / v) for v in sorted(orphans)]
    manifest = season_folder / MANIFEST
    shown = manifest.relative_to(archive).as_posix()
    if not manifest.is_file():
        return wrong + [f"{shown} : manquant — le manifeste de la saison a disparu"], 0
    entries, bad_lines = read_manifest(manifest.read_text(encoding="utf-8", errors="replace"))
    wrong += [f"{shown} : ligne {number} illisible" for number in bad_lines]
    inside = season_folder.resolve()
    listed: set[Path] = set()
    checked = 0
    for path, digest in sorted(entries.items()):
        target = season_folder / path
        if Path(path).is_absolute() or not target.resolve().is_relative_to(inside):
            wrong.append(f"{shown} : la ligne de « {escape_controls(path)} » désigne un fichier hors de l'archive : "
                         "refusée (ce fichier n'est pas lu)")
            continue
        listed.add(target)
        version, _, inner = path.partition("/")
        if version in orphans:
            continue
        name = f"{season}/{path}"
        if not target.is_file():
            wrong.append(f"{name} : manquant")
            continue
        checked += 1
        if sha256(target.read_bytes()) != digest:
            wrong.append(f"{name} : modifié (son contenu n'est plus celui qui a été archivé)")
        elif recorded is None:
            continue
        elif inner not in recorded.get(f"{season}/{version}", {}):
            wrong.append(f"{name} : absent de la base de données (ajouté au manifeste après l'archivage)")
        elif recorded[f"{season}/{version}"][inner] != digest:
            wrong.append(f"{name} : le manifeste a été modifié (il ne correspond plus à la base de données)")
    for version in on_disk:
        if version in orphans:
            continue
        for found in sorted((season_folder / version).rglob("*")):
            if found.is_file() and found not in listed:
                wrong.append(f"{found.relative_to(archive).as_posix()} : ajouté après l'archivage (absent du "
                             "manifeste)")
    for folder, files in sorted((recorded or {}).items()):
        if folder.split("/", 1)[0] != season or not (archive / folder).is_dir():
            continue
        for path in sorted(files):
            name = f"{folder}/{path}"
            if season_folder / folder.split("/", 1)[1] / path not in listed:
                state = "retiré du manifeste" if (archive / name).is_file() else "manquant, et retiré du manifeste"
                wrong.append(f"{name} : {state} (la base de données l'a archivé)")
    return wrong, checked
