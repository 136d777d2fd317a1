"""A ranking as CSV (published next to each bulletin) and as JSON (`reportgen standings`, the
reviewed golden files), both from the ranking's own columns.

The CSV is opened in a spreadsheet, which runs a cell that starts with `=`, `+`, `-` or `@` (or a
tab or carriage return) as a formula: a player named `=HYPERLINK(...)` would be a link, or worse.
Following OWASP's advice on CSV injection, such a text is written with a `'` in front, which a
spreadsheet shows as text; a plain number (`-3`, `+2` in the evolution column) is data and stays as
it is. `reportgen standings --format csv` writes the same CSV: its output is as often saved and
opened in a spreadsheet as read by a script.
"""

from __future__ import annotations

import csv
import io
import json
import re
from typing import Any

from reportgen.model import Ranking

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
_PLAIN_NUMBER = re.compile(r"[+-]?\d+(?:[.,]\d+)?")


def spreadsheet_safe(value: Any) -> Any:
    """A CSV cell a spreadsheet cannot run: text starting like a formula gets a leading `'`;
    numbers, and texts that are plain numbers (`-3`, `+2`), are left as they are."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS) and not _PLAIN_NUMBER.fullmatch(value):
        return "'" + value
    return value


def to_csv(ranking: Ranking) -> bytes:
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=[c.key for c in ranking.all_columns], lineterminator="\n")
    writer.writeheader()
    writer.writerows({key: spreadsheet_safe(value) for key, value in record.items()} for record in ranking.records())
    return buffer.getvalue().encode("utf-8")


def to_json(ranking: Ranking) -> bytes:
    data = {"season": ranking.season, "date": ranking.date.isoformat(), "final": ranking.final,
            "rows": ranking.records()}
    return (json.dumps(data, ensure_ascii=False, indent=1) + "\n").encode("utf-8")
