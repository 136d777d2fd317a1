"""A circuit whose season N needs season N−1 (`CircuitInfo.previous_season`; the Grand Sud's: a
year-N edition replaces the N−1 one, §1, and N's seeds come from the rankings before): the league
is read from inputs/, and when a season before one of that circuit's seasons is not there but
archived, its archived workbooks (the latest archive of that season) are read with inputs/ as if
they were still in it, at their original place. Both sources give the same ranking: the same
workbooks, the same event ids."""

from __future__ import annotations

import datetime as dt
import os
import shutil
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from reportgen import circuits, pipeline
from reportgen.delivery import database
from reportgen.delivery.filers import filed_senders
from reportgen.ingest.file_hashes import FileHashes
from reportgen.ingest.read_cache import ReadCache
from reportgen.model import Event, ReportgenError, put_back
from reportgen.render.cache import code_fingerprint, inputs_digest
from reportgen.render.scratch import Scratch

Say = Callable[[str], None]


@dataclass
class Archived:
    """A season's workbooks of one circuit in the archive."""

    season: int
    folder: str  # the archive version, relative to archive/: 2025/v1
    files: dict[str, str] = field(default_factory=dict)  # path relative to inputs/ -> sha256


class ArchiveChanged(ReportgenError):
    """An archived workbook a season needs is missing or no longer the one archived (`path`)."""

    def __init__(self, path: Path) -> None:
        super().__init__(f"{path} manque ou a été modifié depuis son archivage : lancez « reportgen archive verify »")
        self.path = path


def archived_seasons(archive: Path, slug: str) -> dict[int, Archived]:
    """Every archived season that has workbooks of the circuit (its latest archive)."""
    connection = database.connect(archive, create=False)
    if connection is None:
        return {}
    try:
        with database.guarded(connection.path):
            rows = connection.execute(
                "SELECT a.season, a.folder, t.source, f.sha256 FROM current_archive a "
                "JOIN tournament t ON t.archive_id = a.id AND t.circuit = ? "
                "JOIN archived_file f ON f.archive_id = a.id AND f.path = 'inputs/' || t.source "
                "ORDER BY a.season, t.source", (slug,)).fetchall()
    finally:
        connection.close()
    found: dict[int, Archived] = {}
    for row in rows:
        found.setdefault(row["season"], Archived(row["season"], row["folder"])).files[row["source"]] = row["sha256"]
    return found


def archived_years(archive: Path) -> set[int]:
    """Every season the archive holds (none without a database)."""
    connection = database.connect(archive, create=False)
    if connection is None:
        return set()
    try:
        with database.guarded(connection.path):
            return {row["season"] for row in connection.execute("SELECT DISTINCT season FROM current_archive")}
    finally:
        connection.close()


def _years(events: list[Event]) -> set[int]:
    return {event.date.year for event in events}


def needed(in_inputs: set[int], archived: set[int]) -> list[int]:
    """The archived seasons to read: for each season of inputs/, the seasons before it that inputs/
    lacks, back to the first one neither has (each needs the one before, for its seeds)."""
    wanted: set[int] = set()
    for season in sorted(in_inputs):
        previous = season - 1
        while previous not in in_inputs and previous in archived and previous not in wanted:
            wanted.add(previous)
            previous -= 1
    return sorted(wanted)


@contextmanager
def league_folder(inputs: Path, archive: Path, today: dt.date | None = None,
                  say: Say = lambda text: None, missing: bool = False) -> Iterator[Path]:
    """The folder to read the league from: inputs/ itself, or (while the context lasts) a copy of it
    with the archived seasons its circuits need put back at their original places; says each season
    N−1 read from the archive. `missing`: also says a season N−1 found nowhere, so that season N's
    ranking starts without it — only `build` and `check`, the commands that compute the rankings to
    publish, ask for it (mail, history, archive read what they published: the note once, there)."""
    with put_together(inputs, archive, today=today, say=say, missing=missing) as (folder, _, _):
        yield folder


@contextmanager
def put_together(inputs: Path, archive: Path, *, today: dt.date | None = None, say: Say = lambda text: None,
                 missing: bool = False, reads: ReadCache | None = None, hashes: FileHashes | None = None,
                 link: bool = False) -> Iterator[tuple[Path, dict[str, str] | None, dict[str, str]]]:
    """`league_folder`'s folder, with the SHA-256 of each of its files by its path in it when `reads`
    is given (None otherwise, or when inputs/ cannot be listed): those of inputs/ through `hashes`,
    those put back the ones the database recorded (each checked), so that the copy is never hashed;
    and the files put back, their path in the archive by their label (their path in the folder, their
    tournament's id): while the context lasts, what is said of them names them there
    (model.put_back), not in inputs/ where the secretary would not find them.
    `reportgen build` gives its own read cache and hashes, and then its build the folder's digests
    and that cache: inputs/ is read to know its seasons from the sheets kept (the workbooks of
    those circuits parsed, and nothing more), the copy is neither hashed nor read again (it was
    parsed whole and the copy hashed whole at every build), and the load of the copy takes those
    parses from the cache (pipeline/parsed.py; inputs/ was loaded twice in the thirty-third round).
    `link`: the copy made of links to the files rather than of their bytes, for a caller that only
    reads it and finds their sheets in `reads` (then no file is opened)."""
    hashes = hashes if hashes is not None else FileHashes(None)
    wanting = [slug for slug, info in circuits.REGISTRY.items() if info.previous_season]
    digests = _digests(inputs, reads, hashes)
    try:
        archived = {slug: found for slug in wanting if (found := archived_seasons(archive, slug))}
    except database.DatabaseUnusable as unusable:
        _without_database(unusable, wanting, inputs, archive, today, say)
        yield inputs, digests, {}
        return
    if not archived:  # no archive yet (the usual case): nothing to put back, nothing read twice
        yield inputs, digests, {}
        return
    # Its seasons from its events alone, each parse handed to the load of the folder put together
    # (pipeline/parsed.py): `reportgen build` parses each workbook once.
    events = pipeline.circuit_events(inputs, wanting, today, reads=reads, digests=digests)
    restore: list[Archived] = []
    for slug, found in archived.items():
        seasons = _years(events.get(slug, []))
        wanted = needed(seasons, set(found))
        restore += [found[season] for season in wanted]
        for season in sorted(seasons):
            previous = season - 1
            if previous in seasons:
                continue  # the usual case: nothing to say
            if previous in wanted:
                say(f"{slug} {season} : la saison {previous} n’est pas dans {inputs}, elle est lue dans "
                    f"l’archive ({archive / found[previous].folder})")
            elif missing:
                say(f"{slug} {season} : la saison {previous} n’est ni dans {inputs} ni dans l’archive, "
                    f"le classement {season} commence sans elle")
    if not restore:
        yield inputs, digests, {}
        return
    put = _link if link else shutil.copyfile
    with Scratch("inputs") as folder:  # render/scratch.py: a killed build's swept by the next
        merged = Path(folder) / "inputs"
        shutil.copytree(inputs, merged, copy_function=_link if link else shutil.copy2)
        merged_digests = dict(digests) if digests is not None else None
        places: dict[str, str] = {}
        for past in restore:
            version = archive / past.folder
            for source, digest in past.files.items():
                target = merged / source
                if target.exists():  # a file of inputs/ at that place wins (it is not this season's)
                    continue
                original = version / "inputs" / source
                try:
                    found_digest = hashes.digest(original)
                except OSError:
                    found_digest = None
                if found_digest != digest:
                    raise ArchiveChanged(original)
                target.parent.mkdir(parents=True, exist_ok=True)
                put(original, target)
                places[source] = str(original)
                if merged_digests is not None:
                    merged_digests[source] = digest
        with put_back(places):
            yield merged, merged_digests, places


def _link(source: str | Path, target: str | Path) -> None:
    os.symlink(os.path.abspath(source), target)


def _without_database(unusable: database.DatabaseUnusable, wanting: list[str], inputs: Path, archive: Path,
                      today: dt.date | None, say: Say) -> None:
    """The database cannot be read: fine when no season must be read back from the archive (no
    season N−1 of a circuit that needs it, missing from inputs/, has a folder in the archive), said
    in a note; raised otherwise, with the season that needs it."""
    events = pipeline.circuit_events(inputs, wanting, today)
    for slug in wanting:
        seasons = _years(events.get(slug, []))
        wanted = sorted(season for season in seasons
                        if season - 1 not in seasons and (archive / str(season - 1)).is_dir())
        if wanted:
            raise unusable.needed_by(f"{slug} {wanted[0]} a besoin de la saison {wanted[0] - 1}, archivée")
    say(f"{unusable} (aucune saison n’a besoin de l’archive : la commande continue sans elle)")


def _digests(folder: Path, reads: ReadCache | None, hashes: FileHashes) -> dict[str, str] | None:
    return inputs_digest(folder, hashes) if reads is not None else None


def load(inputs: Path, archive: Path, today: dt.date | None = None, say: Say = lambda text: None,
         hashes: FileHashes | None = None, reads: ReadCache | None = None) -> pipeline.League:
    """The league of inputs/, with the archived seasons its circuits need: each workbook read once
    (the copy's workbooks of inputs/ come back from the sheets read first, by their content), each
    file hashed once. `hashes`: the build's file hashes (a file whose stat they know is not read to
    be hashed); `reads`: sheets read before (a workbook found there is not opened: the copy put
    together is then of links, never read)."""
    return load_placed(inputs, archive, today, say, hashes, reads)[0]


def load_placed(inputs: Path, archive: Path, today: dt.date | None = None, say: Say = lambda text: None,
                hashes: FileHashes | None = None,
                reads: ReadCache | None = None) -> tuple[pipeline.League, dict[str, str]]:
    """`load`'s league, and where the files put back from the archive are (`put_together`), for
    what a command says of them once the copy is gone (model.put_back)."""
    reads = reads if reads is not None else ReadCache(None, code_fingerprint())
    with put_together(inputs, archive, today=today, say=say, reads=reads, hashes=hashes,
                      link=True) as (folder, digests, places):
        # each workbook `inbox` filed matched with its sender's calendar row, as the build matches it
        senders = filed_senders(archive, folder, digests, hashes)
        return pipeline.load(folder, today, reads=reads, digests=digests, senders=senders), places
