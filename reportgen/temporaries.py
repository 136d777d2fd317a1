"""The one naming of our temporary files: `.<name>.<random>.tmp`, next to the file they will
replace, hidden and recognisable, so that whoever finds one a stopped write left (a killed build,
a full disk) can clean it. Below every layer that writes files (render/files.py's publications,
ingest/read_cache.py's and pipeline/state.py's cache files), so that each uses this naming rather
than spelling it again. A writer alone in its folders (the site's staging) names its own from a
token and a count (`Temporaries`), in the same shape."""

from __future__ import annotations

import glob
import itertools
import os
import secrets
import tempfile
from collections.abc import Iterator
from pathlib import Path

TEMPORARY = ".tmp"  # the ending of a temporary file of ours: `new_temporary`


def new_temporary(path: Path) -> tuple[int, Path]:
    """A new temporary file next to `path`, `.<name>.<random>.tmp` (the one naming `is_temporary`
    and `temporaries_of` know): its descriptor, open for writing, and its path, named as `path` is
    (mkstemp makes it absolute; a journal names it relative to its folder, which may be a relative
    path: `--outputs outputs`, what `make` runs)."""
    handle, name = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=TEMPORARY)
    return handle, path.parent / Path(name).name


class Temporaries:
    """The temporary files of one writer whose folders no one else writes in at the same time
    (render/staging.py's `Staging`: a build's, which first swept what a stopped build left there,
    `recover`), named `.<name>.<token><count>.tmp` (as `new_temporary`'s: `is_temporary`), the
    token drawn once for the writer and the count its own, rather than a random name drawn and
    tried for each file as `mkstemp` does (its Python cost, at the site's 25,000 files at 100x,
    thirteenth round). Still created as `mkstemp` creates: exclusively (never an existing file nor
    through a link planted there), readable by its owner only until render/files.py `_stage` sets its mode; a name
    taken all the same goes to `new_temporary`."""

    FLAGS = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC

    def __init__(self) -> None:
        self.token = secrets.token_hex(4)
        self.count = itertools.count()

    def new(self, path: Path) -> tuple[int, Path]:
        """A new temporary file next to `path`: its descriptor, open for writing, and its path."""
        temporary = path.with_name(f".{path.name}.{self.token}{next(self.count):x}{TEMPORARY}")
        try:
            return os.open(temporary, self.FLAGS, 0o600), temporary
        except FileExistsError:
            return new_temporary(path)


def temporaries_of(path: Path) -> Iterator[Path]:
    """The temporary files `new_temporary(path)` made that are still there."""
    return path.parent.glob(f".{glob.escape(path.name)}.*{TEMPORARY}")


def is_temporary(path: Path) -> bool:
    """A temporary file of ours (`.<name>.<random>.tmp`: `new_temporary`)."""
    return path.name.startswith(".") and path.name.endswith(TEMPORARY)


def clean_temporaries(folder: Path, recursive: bool = True) -> list[Path]:
    """Remove the temporary files a stopped write left in `folder`."""
    if not folder.is_dir():
        return []
    found = folder.rglob(f".*{TEMPORARY}") if recursive else folder.glob(f".*{TEMPORARY}")
    removed = []
    for path in sorted(found):
        if path.is_file() and is_temporary(path):
            path.unlink(missing_ok=True)
            removed.append(path)
    return removed
