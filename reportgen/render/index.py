"""outputs/index.html: every publication of every circuit on one page, the secretary's entry point.

Each circuit's folder holds a manifest of what it published (written with its files, so a
blocked circuit keeps its last one); the index is drawn from the manifests, never from a clock.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Sequence
from pathlib import Path

from reportgen import french
from reportgen.render.html import TEMPLATES, environment

MANIFEST = "publications.json"


def read_manifest(path: Path) -> dict | None:
    """A circuit's manifest as last published; None when there is none (or not one of ours)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def render_index(outputs: Path, order: list[str], league: str, blocked: list[str],
                 notices: Sequence[str] = (), problems: Sequence[object] = (), republished: Sequence[str] = (),
                 templates: Path = TEMPLATES) -> str:
    """The index, with what the last build said in the terminal: the problems to fix (each located)
    and the notices (files set aside, new players, probable duplicates…), and the documents already
    published that it changed (render/changes.py), so the secretary sees them where she opens the
    bulletins."""
    circuits = []
    for slug in order:
        path = outputs / slug / MANIFEST
        if not path.exists():
            continue
        data = json.loads(path.read_text(encoding="utf-8"))
        seasons = sorted({d["season"] for d in data["documents"]} | {a["season"] for a in data["annexes"]},
                         reverse=True)
        circuits.append({
            "slug": slug, "title": data["title"], "regulation": data["regulation"], "blocked": slug in blocked,
            "seasons": [{
                "season": season,
                "documents": [{**d, "day": french.date_long(dt.date.fromisoformat(d["date"]))}
                              for d in data["documents"] if d["season"] == season],
                "annexes": [a for a in data["annexes"] if a["season"] == season],
            } for season in seasons],
        })
    return environment(templates).get_template("index.html.j2").render(
        league=league, circuits=circuits, notices=list(notices), problems=[str(problem) for problem in problems],
        republished=list(republished))
