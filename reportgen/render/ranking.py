"""A ranking as CSV (published next to each bulletin) and as JSON (`reportgen standings`, the
reviewed golden files), both from the ranking's own columns."""

from __future__ import annotations

import csv
import io
import json

from reportgen.model import Ranking


def to_csv(ranking: Ranking) -> bytes:
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=[c.key for c in ranking.all_columns], lineterminator="\n")
    writer.writeheader()
    writer.writerows(ranking.records())
    return buffer.getvalue().encode("utf-8")


def to_json(ranking: Ranking) -> bytes:
    data = {"season": ranking.season, "date": ranking.date.isoformat(), "final": ranking.final,
            "rows": ranking.records()}
    return (json.dumps(data, ensure_ascii=False, indent=1) + "\n").encode("utf-8")
