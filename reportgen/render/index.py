"""Each circuit's manifest of what it published (`publications.json`), as the site reads it.

It is written with the circuit's files, so a blocked circuit keeps its last one; outputs/index.html,
the site's home page (reportgen/site/), is drawn from the manifests, never from a clock.
"""

from __future__ import annotations

import json
from pathlib import Path

MANIFEST = "publications.json"


def read_manifest(path: Path) -> dict | None:
    """A circuit's manifest as last published; None when there is none (or not one of ours)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None
