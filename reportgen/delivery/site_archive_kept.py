"""The archived seasons' records for the site as a build last made them (delivery/site_archive.py
`archived_rankings`), kept in `outputs/.reportgen/archive-site` by the key of all they are made
from, so that a build with nothing changed in archive/ (a tournament added to inputs/) neither reads
the archive's database nor loads and scores its seasons again: 2.5-3 CPU-s at 10x, each build, in
the thirty-third round, for records that could not have changed.

The key names everything that work reads: every file of the seasons' copies by content (each
version's workbooks, hidden files too: `changed_inputs` checks a hidden one that was archived), the
database by the rows it reads (delivery/archive_key.py `seasons_and_rows`: not its bytes, which a mail
sent changes, nor archive/inbox/, which each `inbox` run adds to: a build after either, for a new
tournament, scored every archived season again for records that could not have changed), the
archive's path as it was given (its notes name files by it) and the code's fingerprint (reportgen,
its templates, the libraries, Python). Records come back with the notes they were made with, said
again. Kept only when the archive was the same after they were made as before (not changed while
read) and the records come back from JSON exactly as they were (no code is ever loaded from
outputs/: JSON, through a temporary file and a rename)."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from reportgen.delivery.archive_key import seasons_and_rows
from reportgen.delivery.archive_layout import Say
from reportgen.ingest.file_hashes import FileHashes
from reportgen.ingest.read_cache import FOLDER, load_json, write_file
from reportgen.render.cache import code_fingerprint

KEPT = "archive-site"
FORMAT = 2  # 2: keyed by the seasons' copies and the database's rows

Records = dict[str, list[dict[str, Any]]]  # circuit slug -> the site's records (`archived_rankings`)


class KeptRankings:
    """What `archived_rankings` made for this archive, when nothing it is made from changed since."""

    def __init__(self, outputs: Path, archive: Path, hashes: FileHashes) -> None:
        self.path, self.outputs = outputs / FOLDER / KEPT, outputs
        self.archive, self.hashes = archive, hashes
        self.key = self._key()  # before anything is read: what the records made now are made from
        self.notes: list[str] = []

    def _key(self) -> str | None:
        """None when a file of archive/ cannot be read (then nothing is kept nor taken)."""
        try:
            files = seasons_and_rows(self.archive, self.hashes.folder(self.archive, skip_hidden=False), self.outputs)
        except OSError:
            return None
        data = {"format": FORMAT, "code": code_fingerprint(), "archive": str(self.archive), "files": files}
        return hashlib.sha256(json.dumps(data, sort_keys=True).encode("utf-8")).hexdigest()

    def replayed(self, say: Say) -> Records | None:
        """The records kept for this very key, their notes said again; None when there are none."""
        if self.key is None:
            return None
        data = load_json(self.path)
        if not (isinstance(data, dict) and data.get("format") == FORMAT and data.get("key") == self.key):
            return None
        notes, records = data.get("notes"), data.get("records")
        if not (isinstance(notes, list) and all(isinstance(note, str) for note in notes)
                and isinstance(records, dict) and all(isinstance(found, list) for found in records.values())):
            return None
        for note in notes:
            say(note)
        return records

    def noting(self, say: Say) -> Say:
        """`say`, each note also kept with the records."""
        def noted(text: str) -> None:
            self.notes.append(text)
            say(text)
        return noted

    def save(self, records: Records) -> bool:
        """Keep the records made now and the notes said (`noting`), unless the archive changed while
        they were made or JSON would not give them back exactly (a tuple, a key not text)."""
        if self.key is None or self._key() != self.key:
            return False
        data = {"format": FORMAT, "key": self.key, "notes": self.notes, "records": records}
        try:
            encoded = json.dumps(data, ensure_ascii=True, separators=(",", ":"))
        except (TypeError, ValueError):
            return False
        if json.loads(encoded) != data:
            return False
        try:
            write_file(self.path, (encoded + "\n").encode("ascii"))
        except (OSError, ValueError):
            return False
        return True
