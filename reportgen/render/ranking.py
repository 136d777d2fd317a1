"""A ranking as CSV (published next to each bulletin) and as JSON (`reportgen standings`, the
reviewed golden files), both from the ranking's own columns.

The CSV is opened in a spreadsheet, which runs a cell that starts with `=`, `+`, `-` or `@` (or a
tab or carriage return) as a formula: a player named `=HYPERLINK(...)` would be a link, or worse.
Following OWASP's advice on CSV injection, such a text is written with a `'` in front, which a
spreadsheet shows as text; a plain number (`-3`, `+2` in the evolution column) is data and stays as
it is. `reportgen standings --format csv` writes the same protection: its output is as often saved
and opened in a spreadsheet as read by a script.

Two conventions. The CSV files published next to the bulletins are opened by the secretary and the
clubs in a French Excel, which reads a CSV with its regional settings: fields separated by `;`, a
decimal comma, and UTF-8 only when the file starts with a byte order mark (without it, accents come
out as "Ã©"). `standings --format csv` stays plain comma CSV with decimal points, for scripts: its
rank is a number and a last column `tied` says whether it is shared (`history --format csv` too);
`standings --format json` (and `ratings`) follows the same convention: a number `rank` and a boolean
`tied` on every row.
"""

from __future__ import annotations

import csv
import io
import json
import re
from typing import Any

from reportgen import french
from reportgen.model import Column, Ranking

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
_PLAIN_NUMBER = re.compile(r"[+-]?\d+(?:[.,]\d+)?")


def spreadsheet_safe(value: Any) -> Any:
    """A CSV cell a spreadsheet cannot run: text starting like a formula gets a leading `'`;
    numbers, and texts that are plain numbers (`-3`, `+2`), are left as they are."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS) and not _PLAIN_NUMBER.fullmatch(value):
        return "'" + value
    return value


TIED = "tied"  # the last column of every CSV for scripts: `True` when the rank is shared


def to_csv(ranking: Ranking) -> bytes:
    """Plain CSV for scripts: `,`, decimal points, UTF-8 without BOM. `rank` is always a number; a
    shared rank says so in the last column, `tied` (`True`/`False`), as `history --format csv` does."""
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=[c.key for c in ranking.all_columns] + [TIED], lineterminator="\n")
    writer.writeheader()
    writer.writerows({**{key: spreadsheet_safe(value) for key, value in record.items()}, TIED: row.tied}
                     for record, row in zip(ranking.records(), ranking.rows))
    return buffer.getvalue().encode("utf-8")


def _french_cell(value: Any, column: Column) -> Any:
    """A value of `column` in the published CSV: as its bulletin and annex show it, in the numbers
    a spreadsheet reads (a decimal comma, no thousands separator, a plain minus)."""
    if isinstance(value, bool):  # a `bool` column: « oui » or nothing, as in the bulletin and the annex
        return "oui" if value else ""
    decimals = column.decimals
    if column.kind == "evolution":
        return _evolution_cell(value, decimals or 0)
    if column.signed and isinstance(value, (int, float)):  # a Tantrix margin « +13 », as its bulletin says it
        return _signed_cell(value, decimals or 0)
    if decimals is not None and isinstance(value, (int, float)):  # as the bulletin and the annex show it
        return f"{value:.{decimals}f}".replace(".", ",")
    if isinstance(value, float):
        return repr(value).replace(".", ",") if not value.is_integer() else str(int(value))
    return spreadsheet_safe(value)


def _evolution_cell(value: Any, decimals: int) -> Any:
    """An evolution as the bulletin says it: a rating's change « +52,6 », « -69,0 » (a Tantrix
    number, written with its sign as the places gained a ranking holds as text, « +3 »), « 0,0 » when
    it rounds to none (« 0 » for places: « = » would start a formula), « nouveau » for a player the
    previous ranking did not have (None)."""
    if value is None:
        return french.NEW
    if isinstance(value, (int, float)):
        return _signed_cell(value, decimals)
    return spreadsheet_safe(value)


def _signed_cell(value: float, decimals: int) -> str:
    """A difference with its sign, in a number a spreadsheet reads: « +52,6 », « -4 » (a plain minus),
    « 0 » when it rounds to none (french.signed, the bulletin's, writes « −4 »)."""
    text = f"{value:+.{decimals}f}" if round(value, decimals) else f"{0:.{decimals}f}"
    return text.replace(".", ",")


def to_spreadsheet_csv(ranking: Ranking) -> bytes:
    """The published CSV, as a French Excel opens it: French headings (those of the annex), `;`,
    decimal commas, UTF-8 with a BOM, CRLF; an evolution as its bulletin says it (`_evolution_cell`),
    and a `signed` column's number with its sign (a Tantrix margin « +13 »: `_signed_cell`).

    Written at every build for every ranking (82 at 10x, 53,689 rows): each row's cells are taken
    from the row as `records()` takes them, without a dict per row, and a plain `int` in a column
    without decimals (most cells: points, played, results) is written as it is, which is what
    `_french_cell` gives it (thirteenth round: a third less CPU)."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, delimiter=";", lineterminator="\r\n")
    writer.writerow([c.header for c in ranking.all_columns])
    columns = ranking.all_columns
    keys = [c.key for c in columns]
    plain = [c.decimals is None and c.kind != "evolution" and not c.signed for c in columns]  # an `int` there: as it is
    writer.writerows([value if as_it_is and type(value) is int else _french_cell(value, column)
                      for value, column, as_it_is in zip(map(row.value, keys), columns, plain)]
                     for row in ranking.rows)
    return ("\ufeff" + buffer.getvalue()).encode("utf-8")


def to_json(ranking: Ranking, so_far: bool = False) -> bytes:
    """JSON for scripts, in the CSV's convention: `rank` a number and, last on every row, `tied`
    (`true` when the rank is shared), never a `3=` text. `so_far`: a final ranking while its season
    runs (« provisoire », as the table's title says), not the season's last word. `legend`: what a
    column gives places in (the Masters' « Classement annuel »), as the table prints it below."""
    data = {"season": ranking.season, "date": ranking.date.isoformat(), "final": ranking.final, "so_far": so_far,
            **({"legend": ranking.legend.text} if ranking.legend else {}),
            "rows": [{**record, TIED: row.tied} for record, row in zip(ranking.records(), ranking.rows)]}
    return (json.dumps(data, ensure_ascii=False, indent=1) + "\n").encode("utf-8")
