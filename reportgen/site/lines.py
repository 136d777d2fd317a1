"""A player's page's table of the rankings he is in, as HTML made here rather than line by line in
Jinja (issue 27): a player has one line per dated ranking he is in (73,087 lines at 10x), and
Jinja's per-line cost (the `loop`, an attribute lookup and an escape per cell) was most of what a
player's page cost. The bytes are those the template's loop gave (tests/test_site_lines.py renders
both and compares): each value escaped as autoescape does (markupsafe), the same markup, the same
indentation and newlines.

What every player's line of one ranking shares (its date, kind, title and link) is made once per
ranking (`head`), then each player's line adds his place, value and club (`line`), each escaped
once per build whatever the number of lines it is on (`_escaped`: places, clubs and values repeat)."""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache
from typing import Any

from markupsafe import Markup, escape


def head(day: str, kind: str, title: str, url: str | None) -> str:
    """The start of a line, up to the opening of its place's cell: the same for every player."""
    shown = f'<a href="{escape(url)}">{escape(title)}</a>' if url else escape(title)
    return f'    <tr><td>{escape(day)}</td><th scope="row">{escape(kind)} : {shown}</th><td>'


@lru_cache(maxsize=1 << 16)  # bounded: a long-lived process builds many leagues
def _escaped(value: Any) -> str:
    return str(escape(value))


def line(start: str, rank: Any, value: Any, club: Any) -> str:
    """One line: its ranking's `head`, then the player's place, value and club, each escaped."""
    return f'{start}{_escaped(rank)}</td><td>{_escaped(value)}</td><td class="secondary">{_escaped(club)}</td></tr>\n'


def table_body(lines: Iterable[str]) -> Markup:
    """The lines as the template inserts them between `<tbody>` and `</tbody>` (already escaped)."""
    return Markup("".join(lines))
