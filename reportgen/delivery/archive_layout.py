"""What an archive holds on disk, and how its parts are named, shared by archiving
(delivery/archive.py), its staging and recovery (delivery/archive_staging.py) and `verify`
(delivery/archive_verify.py):

    archive/league.sqlite                  the database (docs/archive.md)
    archive/2026/SHA256SUMS                every file of every copy of the season (`sha256sum -c`)
    archive/2026/v1/archive.json           when, why, by which reportgen
    archive/2026/v1/outputs/<circuit>/…    final bulletins (PDF, HTML), CSV files, annexes
    archive/2026/v1/outputs/index.html     the copy's contents, and site/<circuit>-2026.html, each circuit's
                                           (where the bulletins' navigation leads: delivery/archive_contents.py)
    archive/2026/v1/inputs/…               the season's workbooks, clubs.xlsx, joueurs.xlsx, the *.toml settings
    archive/2026/v2/…                      a later copy, after a correction (--reason): v1 stays as it was
    archive/.staging-2026-v1-<random>/     a copy being written (whole or absent: delivery/archive_staging.py)
    archive/.calendar-revisions.json       what calendrier.ics last published of each event (`CALENDAR_REVISIONS`)

The manifests are in the format of sha256sum, so that a secretary can check a season without reportgen.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from reportgen.delivery import database

MANIFEST = "SHA256SUMS"
RECORD = "archive.json"
STAGING = ".staging-"
_VERSION = re.compile(r"^v(\d+)$")
STAGED = re.compile(r"^\.staging-(\d+)-v(\d+)-")  # a staging folder's name: its season and version
# The revisions of calendrier.ics's events (pipeline/calendar.py `Revisions`: each one's SEQUENCE and
# the day of its revision), which `reportgen build` keeps here rather than in outputs/: `make clean`
# removes outputs/, and a subscriber's calendar program still holds each event's SEQUENCE (5, say);
# restarted at 0, every revision after it would be ignored until it went past. archive/ is the
# league's lasting store (its seasons, the send log), which nothing removes. Hidden, like the locks:
# the build writes it, no one edits it, and the build's key of archive/ (render/cache.py
# `origin_key`) leaves it out, so that a revision does not make the next build run again; nor do the
# archived seasons' records, which are not made from it (delivery/site_archive_kept.py).
CALENDAR_REVISIONS = ".calendar-revisions.json"

Say = Callable[[str], None]  # what a command tells the secretary as it goes, one French line at a time


@dataclass
class ArchivedFile:
    path: str  # relative to the version folder
    kind: str
    circuit: str
    data: bytes


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


# -- the copies of a season -------------------------------------------------------------------------

def versions(season_folder: Path) -> list[int]:
    """The numbers of the season's copies on disk (its `vN` folders), in order."""
    if not season_folder.is_dir():
        return []
    return sorted(int(found[1]) for child in season_folder.iterdir() if (found := _VERSION.match(child.name)))


def orphan(archive: Path, folder: Path) -> str:
    """What is wrong with a copy on disk that the database does not know, and what to do."""
    return (f"{folder} n’est pas dans la base de données {archive / database.DATABASE} (un archivage interrompu "
            "par une version précédente de reportgen, ou des lignes effacées) : remettez la base de données depuis "
            "votre sauvegarde, ou déplacez ce dossier hors de l’archive, puis relancez la commande")

