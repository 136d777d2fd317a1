"""Each circuit's rankings as the site reads them (`<circuit>/site.json`), published with the
circuit's files: a blocked circuit keeps its last one, as it keeps its manifest.

Values are written already formatted in French (the site's templates never compute); the player
id the pipeline gives is kept, so that merges and distinct decisions reach the site's pages."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path
from typing import Any

from reportgen import french
from reportgen.model import Column, Ranking, Report

DATA = "site.json"


def cell(value: Any, column: Column) -> str:
    """A ranking's value as a French page shows it."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "oui" if value else ""
    if isinstance(value, (int, float, Fraction)) and column.kind in ("int", "number"):
        return french.points(float(value) if isinstance(value, Fraction) else value)
    return str(value)


def counted(results: tuple[int, ...], points: Any) -> list[list[Any]]:
    """A player's results, best first, each with whether it counts in his points: a circuit that
    keeps only its best results (the best half, an edition replaced by the next) totals the best
    ones, so those that count are the first ones whose sum is the points; when no such prefix
    exists, each is marked None (not known)."""
    total, count = 0, None
    for index, result in enumerate(results, 1):
        total += result
        if total == points:
            count = index
            break
    return [[french.points(result), None if count is None else rank <= count] for rank, result in enumerate(results, 1)]


def ranking_record(ranking: Ranking, titles: dict[str, str]) -> dict[str, Any]:
    """A ranking as the site reads it (`titles`: its document's title by path)."""
    columns = [c for c in ranking.all_columns if c.key not in ("rank", "player", "licence")]
    return {
        "path": ranking.path, "kind": ranking.scope.kind, "season": ranking.season,
        "event": ranking.scope.event, "name": ranking.scope.name or titles.get(ranking.path, ""),
        "title": titles.get(ranking.path, ""), "date": ranking.date.isoformat(),
        "effective": ranking.effective.isoformat(), "status": ranking.status.value,
        "columns": [{"key": c.key, "header": c.header, "short": c.short or c.header} for c in columns],
        "rows": [{"rank": row.rank, "tied": row.tied, "id": row.player_id, "player": row.player,
                  "club": row.club, "values": {c.key: cell(row.value(c.key), c) for c in columns},
                  **({"results": counted(row.results, row.metrics.get("points"))} if row.results else {})}
                 for row in ranking.rows],
    }


def circuit_data(report: Report) -> bytes:
    """The bytes of a circuit's `site.json`: its rankings in the report's order (deterministic)."""
    titles = {document.path: document.title for document in report.documents}
    rankings = [ranking_record(ranking, titles) for ranking in report.rankings]
    return (json.dumps({"rankings": rankings}, ensure_ascii=False, indent=0, sort_keys=True) + "\n").encode("utf-8")


def read(folder: Path) -> list[dict[str, Any]]:
    """A circuit's rankings as last published; none when the file is missing or not ours."""
    try:
        data = json.loads((folder / DATA).read_text(encoding="utf-8"))
        return list(data["rankings"])
    except (OSError, ValueError, KeyError, TypeError):
        return []
