"""The site written with the rest of the build: outputs/site/ through the publication journal
(render/files.py: all its pages or none, only those whose bytes changed, the pages no longer made
removed), then the home page atomically. A build stages each page as it is made (`stage`,
render/staging.py) and commits them once it is done (`publish_staged`): nothing shows before. The corrections' history is kept there too
(`site/corrections.json`), so that a correction stays listed after the build that made it."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

from reportgen.render.files import write_atomic
from reportgen.render.html import TEMPLATES
from reportgen.render.staging import Staging
from reportgen.site.pages import FOLDER, HOME
from reportgen.site.reuse import Pages

HISTORY = "corrections.json"
# The site's icon at the root of outputs/, for a browser that asks the server for it: one visiting a
# bulletin's page (which links no icon: its HTML is also its PDF's) or drawing no SVG icon. Made from
# the pages' SVG icon by scripts/make_favicon.py; written with the fonts, before the state that lists it.
ICON = "favicon.ico"
STALE = (".html", ".js", ".css", ".json", ".png")  # .png: the Open Graph images (site/og.py)


def corrections(outputs: Path, republished: Sequence[Any], day: str) -> list[dict[str, Any]]:
    """The corrections already listed, and this build's (render/changes.py `Republished`, corrected
    on `day`), the latest first; each once. Each build's are numbered after those before (`order`):
    two builds of one day (a season closed, then opened again) are listed in the order they ran, not
    by their documents' paths, which put the closing above the reopening. A history written before
    `order` keeps its entries' order below the later ones."""
    try:
        known = json.loads((outputs / FOLDER / HISTORY).read_text(encoding="utf-8"))
        history = [dict(item) for item in known["corrections"]]
    except (OSError, ValueError, KeyError, TypeError):
        history = []
    # a new layout of the same content (render/changes.py `same_content`) marked as such: the site
    # lists it apart, in one line a day, not as a correction
    order = 1 + max((_order(item) for item in history), default=0)
    history += [{"circuit": change.circuit, "path": change.path, "title": change.title,
                 "date": change.date.isoformat(), "day": day, "reasons": list(change.reasons), "order": order,
                 **({"layout": True} if change.same_content else {}),
                 # withdrawn, or back as it was: its row says so (site/corrections.py)
                 **({"kind": change.kind} if change.kind != "changed" else {}),
                 # withdrawn: the document in force in its place, which its row links
                 **({"in_its_place": change.in_its_place} if change.in_its_place else {})}
                for change in republished]
    # each once, whatever build listed it (the latest's number: a change said again the same day)
    unique = {json.dumps({k: v for k, v in item.items() if k != "order"}, ensure_ascii=False, sort_keys=True): item
              for item in history}
    return sorted(unique.values(), key=lambda c: (c["day"], _order(c), c["date"], c["circuit"], c["path"]),
                  reverse=True)


def _order(correction: dict[str, Any]) -> int:
    """The number of the build that listed a correction (0: one listed before builds were numbered)."""
    order = correction.get("order", 0)
    return order if isinstance(order, int) else 0


def history_file(history: list[dict[str, Any]]) -> bytes:
    return (json.dumps({"corrections": history}, ensure_ascii=False, indent=0, sort_keys=True) + "\n").encode("utf-8")


def publish(outputs: Path, pages: dict[str, bytes]) -> list[Path]:
    """Write the site: its folder all together, then the home page. Returns the files written."""
    staging = Staging(outputs / FOLDER)
    return publish_staged(outputs, staging, stage(outputs, sorted(pages.items()), staging))


def stage(outputs: Path, pages: Iterable[tuple[str, bytes | None]], staging: Staging, made: Pages | None = None,
          done: Callable[[], object] = lambda: None) -> bytes | None:
    """Each page of outputs/site/ staged as it comes (`Site.each_page`): only its hash stays in
    memory. Returns the home page's bytes (written on its own, after the folder), None without.

    `made`: the pages' records (site/reuse.py), whose SHA-256 of each page the staging takes rather
    than hashing it again, and whose pages taken from disk (their bytes given, or None: not even
    read) it neither reads nor compares again. `done`: called after each page (the build's progress bar)."""
    home = None
    for path, data in pages:
        if path == HOME:
            home = data
        else:
            digest, taken = made.digest(path) if made is not None else (None, False)
            if data is None:  # taken from disk unread (site/reuse.py): its record's SHA-256 is the file's
                assert digest is not None and taken
                staging.keep(outputs / path, digest)
            else:
                staging.put(outputs / path, data, on_disk=digest if taken else None, digest=digest)
        done()
    return home


def digests(outputs: Path, staging: Staging, home: bytes | None) -> dict[str, str]:
    """The SHA-256 of every page staged and of the home page, by path relative to outputs/ (what
    the build's state records of the site: pipeline/state.py)."""
    # relative by their parts, the staging's folder being under outputs/ (25,000 `relative_to`: 0.2 CPU-s)
    depth = len(outputs.parts)
    found = {"/".join(path.parts[depth:]): staging.digest(path) for path in staging.paths()}
    if home is not None:
        found[HOME] = hashlib.sha256(home).hexdigest()
    return found


def publish_staged(outputs: Path, staging: Staging, home: bytes | None) -> list[Path]:
    """Commit the staged folder (the corrections' history last), then write the home page."""
    written = staging.publish(last=staging.folder / HISTORY, stale_suffixes=STALE)
    if home is not None and write_atomic(outputs / HOME, home):
        written.append(outputs / HOME)
    return written


def publish_icon(outputs: Path, templates: Path = TEMPLATES) -> bool:
    """outputs/favicon.ico, written atomically when its bytes changed; whether it was written."""
    return write_atomic(outputs / ICON, (templates / "site" / ICON).read_bytes())  # beside the pages' templates
