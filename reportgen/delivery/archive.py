"""`reportgen archive`: a season frozen under archive/<season>/vN/ (delivery/archive_layout.py), with
its line in the season's manifest, and its data in the league's database (delivery/archive_rows.py).
A copy is whole or absent, whatever stops the command (delivery/archive_staging.py); archived files
are made read-only. `reportgen archive verify` is delivery/archive_verify.py.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import sqlite3
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from reportgen import __version__, clock, french, pipeline
from reportgen.config import SETTINGS_FILE
from reportgen.delivery import archive_contents, database, published
from reportgen.delivery.archive_layout import RECORD, STAGING, ArchivedFile, Say, orphan, sha256, versions
from reportgen.delivery.archive_rows import insert_rows
from reportgen.delivery.archive_staging import finish, recover, stage, undo
from reportgen.ingest.directories import CLUBS_FILE, PLAYERS_FILE
from reportgen.model import Mistyped, MistypedName, ReportgenError, put_back
from reportgen.render.files import OutputError
from reportgen.render.fonts import FONTS
from reportgen.render.html import shipped_fonts
from reportgen.render.syncing import fsync_folder

# The kinds of archived files that are not the season's content: the copy's record, the fonts its
# pages name, its contents pages.
NOT_CONTENT = ("record", "font", archive_contents.KIND)


@dataclass
class Archived:
    season: int
    version: int
    folder: Path
    files: int
    notes: list[str] = field(default_factory=list)
    unchanged: bool = False  # the same files as the latest copy: nothing new was written


def archive_season(inputs: Path, outputs: Path, archive: Path, season: int, reason: str = "",
                   today: dt.date | None = None, now: dt.datetime | None = None,
                   say: Say = lambda text: None) -> Archived:
    """Freeze `season`: raises ReportgenError (in French, with what to do) when it cannot;
    MistypedName when the season has neither tournament nor ranking."""
    from reportgen.delivery import seasons

    # Where each season is read from, said once the season is known to name something: a mistyped
    # --season is said alone (cli_support.names_nothing).
    heard: list[str] = []
    league, places = seasons.load_placed(inputs, archive, today, heard.append)
    scored = pipeline.score(league)
    # The problems that concern the season: those of every circuit that has workbooks of it (a
    # circuit whose other seasons have problems blocks it all the same) and those of no circuit.
    concerned = [slug for slug, found in league.circuits.items()
                 if any(published.event_season(e) == season for e in found.events) or found.problems]
    problems = sorted(set(league.problems).union(*(league.problems_of(slug) for slug in concerned),
                                                 *(scored.blocked.get(slug, []) for slug in concerned)))
    if problems:
        for line in heard:
            say(line)
        with put_back(places):  # a workbook put back from the archive named there
            listed = "\n".join(f"  - {problem}" for problem in problems)
        raise ReportgenError(f"les classeurs ont des problèmes, la saison n’est pas archivée :\n{listed}")
    events = {slug: [e for e in league.circuits[slug].events if published.event_season(e) == season]
              for slug in scored.reports}
    outputs_files, notes = published.season_files(scored, season)
    if not outputs_files and not any(events.values()):
        there = sorted({published.event_season(e) for found in league.circuits.values() for e in found.events})
        raise MistypedName(f"aucun tournoi ni classement de la saison {season} dans {inputs}"
                           + french.existing("saisons", there))
    for line in heard:
        say(line)
    # A season archived already may have left inputs/ (README): its workbooks are then those of its
    # latest copy, which seasons.load put back and checked (`places`), and which a correction of the
    # directories or settings is archived again with.
    where: dict[str, Path | None] = {e.id: inputs / e.id for found in events.values() for e in found}
    for source, path in where.items():
        if path is not None and not path.is_file():
            where[source] = Path(places[source]) if source in places else None
    missing = sorted(source for source, path in where.items() if path is None)
    if missing:
        raise ReportgenError(f"les classeurs de la saison {season} doivent être dans {inputs} pour l’archiver "
                             f"(absents : {', '.join(missing)})")
    if not league.reading.season_closed(season):
        notes.append(f"la saison {season} n’est pas close : ses classements finaux sont « à date » (archivez-la "
                     "de nouveau avec --reason une fois close, ou clôturez-la d’abord : reportgen season close)")
    wrong = published.stale(outputs_files, outputs)
    if wrong:
        raise ReportgenError(f"{outputs} n’est pas à jour pour la saison {season} — lancez « make » (reportgen "
                             "build) puis archivez ; fichiers absents ou différents de ce que donnent les "
                             "classeurs :\n" + "\n".join(f"  - {path}" for path in wrong))

    files = [ArchivedFile(f"outputs/{f.path}", f.kind, f.circuit, (outputs / f.path).read_bytes())
             for f in outputs_files]
    sources = sorted({e.id for found in events.values() for e in found})
    # The directories and the settings (reportgen.toml, and any other settings file beside it).
    settings = sorted(path.name for path in inputs.glob("*.toml") if path.is_file() and path.name != SETTINGS_FILE)
    sources += [name for name in (CLUBS_FILE, PLAYERS_FILE, SETTINGS_FILE, *settings) if (inputs / name).is_file()]
    circuit_of = {e.id: slug for slug, found in events.items() for e in found}
    files += [ArchivedFile(f"inputs/{source}", "input", circuit_of.get(source, ""),
                           (where.get(source) or inputs / source).read_bytes()) for source in sources]
    # The fonts the HTML bulletins name relative to themselves (`render/html.py` `root`): without
    # them a copy's page would be drawn in whatever font the reader's machine has.
    files += [ArchivedFile(f"outputs/{FONTS}/{font.name}", "font", "", font.read_bytes()) for font in shipped_fonts()]

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
                    say(f"la saison {season} est déjà archivée à l’identique ({season_folder / f'v{version}'}) : "
                        "rien de nouveau")
                    return Archived(season, version, season_folder / f"v{version}", len(files), notes, True)
                folder = season_folder / f"v{version}"
                moment = (now or clock.moment()).astimezone(dt.timezone.utc).replace(microsecond=0)
                # Where the bulletins' « Accueil » and « Saison » links lead in a copy, which has no site.
                files += archive_contents.contents_pages(
                    files, scored.reports, {f.circuit: f.season_page for f in outputs_files if f.season_page},
                    archive_contents.Copy(league.reading.league, season, version, moment, reason.strip()))
                record = {"season": season, "version": version, "archived_at": moment.isoformat(),
                          "reason": reason.strip(), "reportgen": __version__, "files": len(files)}
                files.append(ArchivedFile(RECORD, "record", "",
                                   (json.dumps(record, ensure_ascii=False, indent=1) + "\n").encode("utf-8")))
                staging = Path(tempfile.mkdtemp(prefix=f"{STAGING}{season}-v{version}-", dir=archive))
                stage(staging, folder, files)
                insert_rows(files, connection, league, scored, events, season, version, folder, record)
                # Last before the commit: after a kill from here on, recover() finds the rows or not.
                season_folder.mkdir(exist_ok=True)
                os.replace(staging / folder.name, folder)
                fsync_folder(season_folder)
                fsync_folder(archive)
        except BaseException as error:
            if staging is not None:
                undo(staging, season_folder)
            if isinstance(error, OSError):
                raise OutputError(archive, error, "rien n’a été archivé (ni copie ni ligne dans la base de données)",
                                  option="--archive") from error
            raise
        # Committed: the new manifest now (recover() puts it in place after a kill here).
        finish(staging, season_folder)
    finally:
        connection.close()
    return Archived(season, version, folder, len(files), notes)


def _next_version(connection: sqlite3.Connection, archive: Path, season: int, files: list[ArchivedFile],
                  reason: str) -> tuple[int, bool]:
    """The version to write, or (True) the latest one when it has the same files. Refused: a copy
    on disk without rows (it would be taken for an earlier copy), a change without a reason."""
    recorded = [row["version"] for row in connection.execute(
        "SELECT version FROM archive WHERE season = ? ORDER BY version", (season,))]
    orphans = sorted(set(versions(archive / str(season))) - set(recorded))
    if orphans:
        raise ReportgenError(orphan(archive, archive / str(season) / f"v{orphans[0]}"))
    if not recorded:
        return 1, False
    # The season's content: neither the copy's record nor its fonts nor its contents pages, which
    # say its version and moment (a copy made before reportgen archived them, or with an earlier
    # version of them, has the same season).
    before = {row["path"]: row["sha256"] for row in connection.execute(
        "SELECT f.path, f.sha256 FROM archived_file f JOIN archive a ON a.id = f.archive_id "
        "WHERE a.season = ? AND a.version = ? AND f.kind NOT IN (?, ?, ?)",
        (season, recorded[-1], *NOT_CONTENT))}
    if before == {f.path: sha256(f.data) for f in files if f.kind not in NOT_CONTENT}:
        return recorded[-1], True
    if not reason.strip():
        raise Mistyped(f"la saison {season} est déjà archivée (v{recorded[-1]}) et a changé depuis : dites "
                             "pourquoi l’archiver de nouveau avec --reason \"…\" (la copie précédente est gardée "
                             "telle quelle)")
    return recorded[-1] + 1, False

