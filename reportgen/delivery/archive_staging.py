"""A copy written whole or not at all, whatever stops the command (kill -9, a full disk, a locked
database): under the database's write lock, it is written and synced in
`archive/.staging-<season>-vN-<random>/` (the files, and the season's new SHA256SUMS: `stage`),
then its rows are inserted and the staged folder renamed to `<season>/vN` just before the commit
(delivery/archive.py); the new manifest is put in place after it (`finish`). The database is the
proof: `recover()`, run first by `archive` and `verify`, finishes a staged copy whose rows were
committed and removes one whose rows were not (and its renamed folder: `undo`)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from reportgen.delivery import database
from reportgen.delivery.archive_layout import MANIFEST, STAGED, STAGING, ArchivedFile, manifest_line, sha256
from reportgen.render.syncing import fsync_folder


def stage(staging: Path, folder: Path, files: list[ArchivedFile]) -> None:
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


def undo(staging: Path, season_folder: Path) -> None:
    """After a failure before the commit: the renamed copy (its rows were rolled back), the staging
    folder, and the season's folder if it is left empty."""
    found = STAGED.match(staging.name)
    assert found
    folder = season_folder / f"v{found[2]}"
    if folder.is_dir() and not (staging / folder.name).exists():
        shutil.rmtree(folder, ignore_errors=True)
    shutil.rmtree(staging, ignore_errors=True)
    _remove_if_empty(season_folder)


def finish(staging: Path, season_folder: Path) -> None:
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
        found = STAGED.match(staging.name)
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
            finish(staging, season_folder)
            said.append(f"la saison {season} (v{version}) avait été enregistrée par un archivage interrompu avant "
                        f"sa fin : {folder} et {season_folder / MANIFEST} sont complétés")
            continue
        if connection is not None:
            undo(staging, season_folder)
        else:  # no database at all: a renamed copy is left for `verify` to report, never removed blindly
            shutil.rmtree(staging, ignore_errors=True)
        said.append(f"un archivage de la saison {season} (v{version}) a été interrompu avant d’être enregistré : "
                    "ses fichiers provisoires sont retirés (rien n’en avait été enregistré)")
    return said

