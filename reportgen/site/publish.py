"""The site written with the rest of the build: outputs/site/ through the publication journal
(render/files.py: all its pages or none, only those whose bytes changed, the pages no longer made
removed), then the home page atomically. The corrections' history is kept there too
(`site/corrections.json`), so that a correction stays listed after the build that made it."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from reportgen.render.files import publish_folder, write_atomic
from reportgen.site.pages import FOLDER, HOME

HISTORY = "corrections.json"
STALE = (".html", ".js", ".css", ".json", ".png")  # .png: the Open Graph images (site/og.py)


def corrections(outputs: Path, republished: Sequence[Any], day: str) -> list[dict[str, Any]]:
    """The corrections already listed, and this build's (render/changes.py `Republished`, corrected
    on `day`), the latest first; each once."""
    try:
        known = json.loads((outputs / FOLDER / HISTORY).read_text(encoding="utf-8"))
        history = [dict(item) for item in known["corrections"]]
    except (OSError, ValueError, KeyError, TypeError):
        history = []
    history += [{"circuit": change.circuit, "path": change.path, "title": change.title,
                 "date": change.date.isoformat(), "day": day, "reasons": list(change.reasons)}
                for change in republished]
    unique = {json.dumps(item, ensure_ascii=False, sort_keys=True): item for item in history}
    return sorted(unique.values(), key=lambda c: (c["day"], c["date"], c["circuit"], c["path"]), reverse=True)


def history_file(history: list[dict[str, Any]]) -> bytes:
    return (json.dumps({"corrections": history}, ensure_ascii=False, indent=0, sort_keys=True) + "\n").encode("utf-8")


def publish(outputs: Path, pages: dict[str, bytes]) -> list[Path]:
    """Write the site: its folder all together, then the home page. Returns the files written."""
    folder = outputs / FOLDER
    files = {outputs / path: data for path, data in pages.items() if path != HOME}
    written = publish_folder(folder, files, last=folder / HISTORY, stale_suffixes=STALE)
    if HOME in pages and write_atomic(outputs / HOME, pages[HOME]):
        written.append(outputs / HOME)
    return written
