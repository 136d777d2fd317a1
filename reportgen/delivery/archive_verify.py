"""`reportgen archive verify`: the files, their manifests and the database against each other, after
`recover()` (delivery/archive_staging.py) has finished or removed what a stopped archive left. A
manifest line naming a path outside its season's folder is refused, that path never read."""

from __future__ import annotations

from pathlib import Path

from reportgen.delivery import database
from reportgen.delivery.archive_layout import MANIFEST, STAGING, Say, orphan, read_manifest, sha256, versions
from reportgen.delivery.archive_staging import recover
from reportgen.ingest.file_hashes import FileHashes
from reportgen.ingest.text import escape_controls
from reportgen.model import ReportgenError


def verify(archive: Path, say: Say = lambda text: None) -> tuple[list[str], int]:
    """The files, the manifests and the database against each other (after `recover()`, whose
    lines are said): (what is wrong, one line each naming the file; how many files were checked).
    A manifest line naming a path outside its season's folder is refused, that path never read."""
    if not archive.is_dir():
        raise ReportgenError(f"il n’y a pas d’archive dans {archive}")
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
    wrong += [orphan(archive, season_folder / v) for v in sorted(orphans)]
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
            wrong.append(f"{shown} : la ligne de « {escape_controls(path)} » désigne un fichier hors de l’archive : "
                         "refusée (ce fichier n’est pas lu)")
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
            wrong.append(f"{name} : modifié (son contenu n’est plus celui qui a été archivé)")
        elif recorded is None:
            continue
        elif inner not in recorded.get(f"{season}/{version}", {}):
            wrong.append(f"{name} : absent de la base de données (ajouté au manifeste après l’archivage)")
        elif recorded[f"{season}/{version}"][inner] != digest:
            wrong.append(f"{name} : le manifeste a été modifié (il ne correspond plus à la base de données)")
    for version in on_disk:
        if version in orphans:
            continue
        for found in sorted((season_folder / version).rglob("*")):
            if found.is_file() and found not in listed:
                wrong.append(f"{found.relative_to(archive).as_posix()} : ajouté après l’archivage (absent du "
                             "manifeste)")
    for folder, files in sorted((recorded or {}).items()):
        if folder.split("/", 1)[0] != season or not (archive / folder).is_dir():
            continue
        for path in sorted(files):
            name = f"{folder}/{path}"
            if season_folder / folder.split("/", 1)[1] / path not in listed:
                state = "retiré du manifeste" if (archive / name).is_file() else "manquant, et retiré du manifeste"
                wrong.append(f"{name} : {state} (la base de données l’a archivé)")
    return wrong, checked


def changed_inputs(archive: Path, folder: str, recorded: dict[str, str], hashes: FileHashes | None = None) -> list[str]:
    """What a copy's inputs/ (`folder`: 2025/v1) holds that is not what was archived: `recorded`
    (path in the copy, `inputs/…` -> SHA-256, the database's `archived_file` rows) against the files
    there, hidden ones aside as the pipeline reads none. Each file's SHA-256 through `hashes` (the
    build's, which hashed archive/ for its key: a file whose stat it recorded is not read again).
    One French phrase a file, naming it, in path order; none when the copy is intact."""
    hashes = hashes or FileHashes(None)
    version = archive / folder
    try:
        found = hashes.folder(version / "inputs", skip_hidden=True, prefix="inputs/") \
            if (version / "inputs").is_dir() else {}
        for path in sorted(recorded.keys() - found.keys()):  # a hidden name archived all the same
            if (version / path).is_file():
                found[path] = hashes.digest(version / path)
    except OSError as error:
        return [f"{version / 'inputs'} ne peut pas être lu ({error.strerror or error})"]
    wrong = []
    for path in sorted(recorded.keys() | found.keys()):
        if path not in found:
            wrong.append(f"{version / path} manque")
        elif path not in recorded:
            wrong.append(f"{version / path} a été ajouté depuis son archivage")
        elif found[path] != recorded[path]:
            wrong.append(f"{version / path} a été modifié depuis son archivage")
    return wrong
