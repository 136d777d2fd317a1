"""What a build may skip, and the proof that skipping it gives the same bytes (issue « Performance »).

Three things are kept, each by its owner: the last build's state (pipeline/state.py), the sheets read (ingest/read_cache.py) and, here, the keys, each keyed on everything its result depends on (the content hashes they are made of are known by each file's stat when it did not change: ingest/file_hashes.py):

- **The last build** (`outputs/.reportgen/state`): the key of a build that published without a
  problem (the content hash of every file of inputs/ and its path, the day it ran for, reportgen's
  code and templates, every installed library and Python, the render fingerprint), its notices, and
  the content hash of every file it left in the circuits' folders and of the index. The next build
  with the same key, finding exactly those files, has nothing to do: it writes nothing, reads no
  workbook and scores nothing (`replay`). A file edited, added or deleted in outputs/, a changed
  workbook or setting, another day, another version of a library or of reportgen: the build runs.
- **The sheets of every workbook read** (`outputs/.reportgen/reads`): ingest/read_cache.py, the
  reader's own cache, keyed on the code fingerprint this module computes.
- **Each document's and annex's source** (in the circuit's manifest, with the PDFs' records): a
  hash of what the renderer is given (template, context, title, date; the annex's tables) with the
  code fingerprint (`source_key`; a bulletin's heavy part by what it is made from, `document_key`).
  A bulletin whose source is unchanged, and whose HTML on disk is the one recorded, is not rendered
  again (pipeline.render_report); the file is known to be the one recorded by its stat when the file
  hashes know it (`proven`, not read), by its bytes otherwise (`reuse`).

The state is written only by a build without any problem, after its circuits are published and
before the index (which it records): a build with problems, or one stopped halfway, leaves the
previous state. A state is always the true record of an earlier build, and it is used only when the
key and every output match it again: then a full build would write nothing either (the build is
deterministic, and a second one on its own outputs changes nothing). A league put together from
inputs/ and archive/ (`reportgen build` with an archive) is also known by the key of those two
folders (`origin_key`), so that the next build need not put it together to know it is unchanged.
The files are JSON (no code is ever loaded from outputs/), written through a temporary file and a
rename, without the `.json` suffix of the outputs.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import hashlib
import io
import json
import os
import pickle
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import cache
from operator import attrgetter
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeGuard

from reportgen.ingest.file_hashes import FileHashes, content_digest, folder_files
from reportgen.ingest.read_cache import FORMAT

if TYPE_CHECKING:
    from reportgen.model.documents import Annex, Document
    from reportgen.model.rankings import Ranking

# -- fingerprints ---------------------------------------------------------------------------------

def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


file_digest = content_digest  # one file's SHA-256, read whole (ingest/file_hashes.py)


def _libraries() -> list[str]:
    """Every distribution installed in the environment's site-packages (name and version, as its
    metadata folder is named): a library upgraded or added changes the fingerprint. Not every
    folder of sys.path: it changes with the current folder and the way Python was started."""
    import site
    import sysconfig

    folders = {sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"], *site.getsitepackages()}
    names: set[str] = set()
    for folder in sorted(folders):
        try:
            listing = os.listdir(folder)
        except OSError:
            continue
        names.update(f"{folder}/{name}" for name in listing if name.endswith((".dist-info", ".egg-info")))
    return sorted(names)


def folders_digest(roots: Iterable[Path]) -> str:
    """Every file under these folders (compiled Python aside), names and bytes."""
    hasher = hashlib.sha256()
    for number, root in enumerate(roots):
        for relative, path, _ in folder_files(root, skip_hidden=False):
            with open(path, "rb") as stream:
                data = stream.read()
            hasher.update(f"{number}\0{relative}\0{len(data)}\0".encode())
            hasher.update(data)
    return hasher.hexdigest()


@cache
def code_fingerprint() -> str:
    """reportgen's own code and templates (every file, by content), every installed library and
    Python itself: whatever may change an output besides the inputs."""
    import reportgen
    from reportgen.render.html import TEMPLATES

    code = folders_digest([Path(reportgen.__file__).resolve().parent, TEMPLATES])
    environment = "\0".join([sys.version, sys.platform, *_libraries()])
    return digest(f"{code}\0{environment}".encode())


def inputs_digest(inputs: Path, hashes: FileHashes | None = None) -> dict[str, str] | None:
    """Every file of inputs/ a build may read (hidden and lock files aside, as discover skips them):
    its path relative to inputs/ -> the SHA-256 of its bytes (`hashes`: those of the files whose
    stat is the one recorded, ingest/file_hashes.py). None when one cannot be read: then nothing is
    skipped (the build says what is wrong with it)."""
    if not inputs.is_dir():
        return None
    try:
        return (hashes or FileHashes(None)).folder(inputs, skip_hidden=True)
    except OSError:
        return None


def build_key(inputs: Mapping[str, str], today: dt.date, kind: str = "inputs", said: Sequence[str] = (),
              senders: Mapping[str, str] | None = None, archive: Mapping[str, str] | None = None) -> str:
    """Everything a build's outputs depend on besides what outputs/ already holds; `said`: the notes
    on where its inputs were read (delivery/seasons.py), which the same workbooks taken from inputs/
    would not give, and which a build that changes nothing says again; `senders`: the club that
    sent each workbook `inbox` filed (the calendar's rows it matches: pipeline/building.py `build`);
    `archive`: what it reads of archive/ besides the seasons put back (delivery/archive_key.py: the
    site's archived seasons, the database by the rows it reads)."""
    from reportgen.render.html import render_fingerprint

    data = {"format": FORMAT, "kind": kind, "today": today.isoformat(), "code": code_fingerprint(),
            "render": render_fingerprint(), "inputs": dict(sorted(inputs.items()))}
    if said:  # none the usual case: the keys already recorded stay what they were
        data["said"] = list(said)
    if senders:  # none without `inbox`: the same
        data["senders"] = dict(sorted(senders.items()))
    if archive is not None:  # none without an archive: the same
        data["archive"] = dict(sorted(archive.items()))
    return hashlib.sha256(json.dumps(data, sort_keys=True).encode("utf-8")).hexdigest()


def origin_key(folders: Iterable[Path], today: dt.date, hashes: FileHashes | None = None) -> str | None:
    """A build's key from the folders its inputs are made of (inputs/ and archive/, from which
    `reportgen build` puts back the seasons inputs/ no longer has): every file of each, by content.
    The same folders give the same league to build, without reading it."""
    found: dict[str, str] = {}
    for number, folder in enumerate(folders):
        if not folder.exists():
            continue
        digests = inputs_digest(folder, hashes)
        if digests is None:
            return None
        found.update({f"{number}/{path}": value for path, value in digests.items()})
    return build_key(found, today, kind="origin")


def source_key(*parts: object) -> str | None:
    """A hash of what a renderer is given (a document's template, context, title and date; an
    annex), with the code fingerprint; None when it cannot be serialised (then it is rendered).

    Pickled without memo: equal bytes mean equal data, whatever objects the data shares."""
    buffer = io.BytesIO()
    pickler = pickle.Pickler(buffer, protocol=5)
    pickler.fast = True  # no memo: the same data gives the same bytes however it is shared
    try:
        pickler.dump(parts)
    except (pickle.PicklingError, TypeError, AttributeError, ValueError, RecursionError):
        return None
    from reportgen.render.html import render_fingerprint

    # The render fingerprint too: each page prints it (and it names native libraries the code
    # fingerprint does not see).
    return digest(f"{code_fingerprint()}\0{render_fingerprint()}\0".encode() + buffer.getvalue())


def ranking_key(ranking: Ranking) -> str | None:
    """A published ranking's `source_key` (what its CSV and site record are made from), its rows as
    tuples of their fields: pickled as dataclasses, the 230,000 rows of the Grand Sud's 82 rankings
    at 100x took 0.7-1.1 CPU-s, as tuples about half (nineteenth round). Every field of the ranking
    and of each row is in it, by the dataclasses' own lists, so a field added later is too; or, when
    its `made_from` describes its rows, what they were made from in their place (thirty-seventh
    round)."""
    rest = {field.name: getattr(ranking, field.name) for field in dataclasses.fields(ranking)
            if field.name not in ("rows", "made_from")}
    made_from = ranking.made_from
    if made_from is not None and made_from.value is ranking.rows:
        # its rows hashed as the source they were made from (a Grand Sud ranking's scoring digest:
        # 81 of 82 unchanged by a new tournament at 100x); two more parts, never a key of rows
        return source_key("ranking", rest, made_from.part, made_from.source)
    rows = [(type(row).__qualname__, _fields_of(type(row))(row)) for row in ranking.rows]
    return source_key("ranking", rest, rows)


def annex_key(annex: Annex) -> str | None:
    """An annex's `source_key`; its `Deferred` sheets' rows hashed as the source its `made_from`
    names, when it describes its sheets (a Grand Sud season's annex: its rankings' digests and its
    points table, scoring/digests.py `frame_digest`), so that an annex a new tournament leaves
    unchanged (the season before) is known without making its 100,000 rows at 100x. Every other
    field and sheet (names, columns, rows not deferred) is in it as itself."""
    rest = {field.name: getattr(annex, field.name) for field in dataclasses.fields(annex)
            if field.name not in ("sheets", "made_from")}
    made_from = annex.made_from
    if made_from is None or made_from.value is not annex.sheets:
        return source_key("xlsx", rest, annex.sheets)
    from reportgen.model import Deferred

    sheets = [(sheet.name, sheet.columns, sheet.rules, None if isinstance(sheet.rows, Deferred) else sheet.rows)
              for sheet in annex.sheets]
    # two more parts than an annex keyed whole: the two kinds of key never meet
    return source_key("xlsx", rest, sheets, made_from.part, made_from.source)


_GETTERS: dict[type, Callable[[Any], Any]] = {}


def _fields_of(kind: type) -> Callable[[Any], Any]:
    """What gives a dataclass instance's fields (a tuple of them, or the value of a class's only
    one: `attrgetter`), made once per class."""
    getter = _GETTERS.get(kind)
    if getter is None:
        getter = _GETTERS[kind] = attrgetter(*(field.name for field in dataclasses.fields(kind)))
    return getter


def document_key(document: Document) -> str | None:
    """A bulletin's source key: `source_key` of its template, context, title and date, with the
    part of its context its `made_from` describes hashed as the source it was made from, not as
    itself (a Grand Sud bulletin's grid: one cell per player and tournament of its window, pickled
    and hashed for each of the 81 bulletins at 100x was most of their keys' cost, docs/performance.md
    eleventh round). The same source gives the same part (the code that makes it is in the code
    fingerprint), so an equal key still means an equal context. A `made_from` that does not
    describe the context it is given (a public copy's masked grid) is not used."""
    context, made_from = document.context, document.made_from
    if made_from is None or not made_from.describes(context):
        return source_key("html", document.template, context, document.title, document.date)
    rest = {name: value for name, value in context.items() if name != made_from.part}
    # Two more parts than the whole context's key: the two kinds of key never meet.
    return source_key("html", document.template, rest, document.title, document.date,
                      made_from.part, made_from.source)


def made_from_key(recorded: object, key: str | None) -> TypeGuard[dict[str, Any]]:
    """Whether a manifest record says its file was rendered from a source with this key."""
    return key is not None and isinstance(recorded, dict) and recorded.get("key") == key


def reuse(path: Path, recorded: object, key: str | None) -> bytes | None:
    """The bytes of `path` when its manifest record says they were rendered from a source with
    this key and they are still those bytes; None otherwise (render it)."""
    if not made_from_key(recorded, key):
        return None
    try:
        data = path.read_bytes()
    except OSError:
        return None
    return data if digest(data) == recorded.get("sha256") else None


def proven(path: Path, recorded: object, key: str | None, hashes: FileHashes | None) -> str | None:
    """The SHA-256 of `path` when its manifest record says it was rendered from a source with this
    key and `hashes` knows the file, by its stat, as those very bytes: proven without reading it
    (`reuse` reads it). None otherwise: read it, or render it.

    Safe as far as the build already trusts the stat: a build that finds nothing changed takes every
    output by it (pipeline/state.py), and this is the same record under the same rule
    (`FileHashes.recorded`, git's index): size, mtime, inode and ctime as recorded, the mtime older
    than the hashes file. A file edited by hand has another mtime, or another ctime when its mtime is
    forged back (no program can set the ctime), and a file replaced another inode: then it is read."""
    if hashes is None or not made_from_key(recorded, key):
        return None
    known = hashes.recorded(path)
    return known if known is not None and known == recorded.get("sha256") else None


def source_record(key: str | None, data: bytes) -> dict[str, str] | None:
    return None if key is None else {"key": key, "sha256": digest(data)}
