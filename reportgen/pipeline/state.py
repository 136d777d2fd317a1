"""The last build (`outputs/.reportgen/state`): the key of a build that published without a
problem, its notices, and the content hash of every file it left in the circuits' folders, the
pages' fonts (outputs/fonts), the site's icon and the index. The next build with the same key, finding exactly those
files, has nothing to do (`replay`).
Written only by a build without any problem, after its circuits are published and before the index
(render/cache.py says what the keys hold)."""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from reportgen.ingest.file_hashes import FileHashes
from reportgen.ingest.read_cache import FOLDER, FORMAT
from reportgen.ingest.read_cache import load_json as _load_json
from reportgen.ingest.read_cache import write_file as _write
from reportgen.render.cache import file_digest
from reportgen.render.fonts import FONTS
from reportgen.temporaries import clean_temporaries

STATE = "state"
INDEX = "index.html"
VERIFICATION = "verification.html"  # the secretary's page (render/verification.py), written before the state
# The build's own copy of that page, next to the state: `reportgen check` rewrites the page with what
# it found (dated the day it ran), and a build that changes nothing puts the build's page back rather
# than running in full.
VERIFICATION_COPY = "verification.html.copy"
SITE = "site"  # the site's pages (reportgen/site/), written after the circuits
ICON = "favicon.ico"  # the site's icon at the root, written with the fonts (site/publish.py `ICON`)


@dataclass
class State:
    keys: list[str]  # the build's key, and the key of the folders it was made from, if any
    published: list[str]  # the circuits it published (none was blocked)
    notices: list[str]
    outputs: dict[str, str] = field(default_factory=dict)  # path relative to outputs/ -> SHA-256
    page_restored: bool = False  # `replay` put the build's secretary's page back (not stored)


def outputs_digest(outputs: Path, slugs: Iterable[str], hashes: FileHashes | None = None,
                   site: bool = True) -> dict[str, str]:
    """Every file of the circuits' folders, of the site, of the pages' fonts, the index and the
    secretary's page: what a build may write or remove (`hashes`: the content hashes known by the
    files' stat, ingest/file_hashes.py). Without `site`, neither the site's folder nor the index."""
    hashes = hashes or FileHashes(None)
    found = {}
    for slug in [*slugs, *([SITE] if site else []), FONTS]:
        folder = outputs / slug
        if folder.is_dir():  # the keys made with their folder's name by the walk: no string made twice
            found.update(hashes.folder(folder, False, prefix=f"{slug}/"))
    for name in (INDEX, VERIFICATION, ICON) if site else (VERIFICATION, ICON):
        if (outputs / name).is_file():
            found[name] = hashes.digest(outputs / name)
    return found


def replay(outputs: Path, keys: Iterable[str | None], slugs: Iterable[str],
           hashes: FileHashes | None = None) -> State | None:
    """The last build, when it had one of these keys and outputs/ holds exactly what it left."""
    data = _load_json(outputs / FOLDER / STATE)
    if not isinstance(data, dict) or data.get("format") != FORMAT or not isinstance(data.get("keys"), list):
        return None
    if not set(data["keys"]) & {key for key in keys if key is not None}:
        return None
    try:
        state = State(list(data["keys"]), list(data["published"]), list(data["notices"]), dict(data["outputs"]))
    except (KeyError, TypeError, ValueError):
        return None
    if not all(isinstance(text, str) for text in [*state.published, *state.notices]):
        return None
    try:
        found = outputs_digest(outputs, slugs, hashes)
        if not _same_but_page(found, state.outputs):
            return None
        if found.get(VERIFICATION) != state.outputs.get(VERIFICATION) and not _restore_page(outputs, state):
            return None
    except OSError:
        return None
    return state


def _same_but_page(found: dict[str, str], recorded: dict[str, str]) -> bool:
    """The same files and hashes, the secretary's page aside: compared in place, its entries put
    back (~25,000 at 100x: no copy of either)."""
    page, wanted = found.pop(VERIFICATION, None), recorded.pop(VERIFICATION, None)
    try:
        return found == recorded
    finally:
        for digests, value in ((found, page), (recorded, wanted)):
            if value is not None:
                digests[VERIFICATION] = value


def _restore_page(outputs: Path, state: State) -> bool:
    """Put the build's secretary's page back (a `check` rewrote it since), if its copy is the one
    the state recorded. False: the build runs in full and writes it."""
    wanted = state.outputs.get(VERIFICATION)
    copy = outputs / FOLDER / VERIFICATION_COPY
    if wanted is None or not copy.is_file() or file_digest(copy) != wanted:
        return False
    _write(outputs / VERIFICATION, copy.read_bytes())
    state.page_restored = True
    return True


def clean(outputs: Path) -> None:
    """Temporary files a stopped build left in the cache folder."""
    try:
        clean_temporaries(outputs / FOLDER, recursive=False)
    except OSError:
        pass  # a folder made read-only: the build says so when it writes


def record(outputs: Path, state: State, slugs: Iterable[str], pages: dict[str, str] | None = None,
           hashes: FileHashes | None = None) -> bool:
    """Write the state, with the files the circuits' folders hold now and the site about to be
    written (`pages`: each one's SHA-256 by path relative to outputs/, the home page and
    outputs/site/, as site/publish.py `digests` gives them; None: those
    there, if any). False if it could not be written (a full disk...): the next build runs in full,
    which is all a missing state costs."""
    try:
        # The site's pages given: its folder not walked (a stat per page, 25,000 at 100x, for what
        # `pages` says of the files about to replace them; twenty-first round).
        state.outputs = outputs_digest(outputs, slugs, hashes, site=not pages)
        state.outputs.update(pages or {})
        if (outputs / VERIFICATION).is_file():
            _write(outputs / FOLDER / VERIFICATION_COPY, (outputs / VERIFICATION).read_bytes())
    except OSError:
        return False
    return remember(outputs, state, [])


def learn_pages(outputs: Path, state: State, pages: Iterable[str], hashes: FileHashes,
                written: Iterable[Path]) -> None:
    """The pages `record` listed, now published: their hashes (of the bytes written, which the state
    holds) known by their stat, so that the next build need not read back the ~25,000 pages of a
    100x league (ingest/file_hashes.py: trusted once the hashes are written after them). A page this
    build found by its stat with that hash and did not write again (`written`: the files the site's
    publication wrote) is known already: not looked at again (a stat per page of the site, 25,000 at
    100x, at each build, for the few thousand pages one new tournament writes; twenty-first round)."""
    base = os.path.abspath(outputs)
    rewritten = {os.path.abspath(path) for path in written}
    for path in pages:
        value = state.outputs.get(path)
        if value is None:
            continue
        name = os.path.join(base, path)
        if name in rewritten or not hashes.knows(name, value):
            try:
                hashes.learn(name, value)
            except OSError:
                continue  # gone already: the next build hashes what is there


def remember(outputs: Path, state: State, keys: Iterable[str]) -> bool:
    """Write the state, under `keys` when given (a state `replay` found by one of them, its outputs
    unchanged as it checked: now known by all of this build's keys), else under its own."""
    state.keys = sorted(set(keys) or set(state.keys))
    data = {"format": FORMAT, "keys": state.keys, "published": state.published, "notices": state.notices,
            "outputs": dict(sorted(state.outputs.items()))}
    try:
        _write(outputs / FOLDER / STATE, (json.dumps(data, sort_keys=True, separators=(",", ":")) + "\n").encode("ascii"))
    except OSError:
        return False
    return True
