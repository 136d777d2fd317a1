"""Dates as the site's pages show them, from the ISO dates of the site's data: each formatted once
a process (a league has a few hundred dates, shown on tens of thousands of lines)."""

from __future__ import annotations

import datetime as dt
import functools

from reportgen import french


@functools.cache
def long_day(iso: str) -> str:
    """« 14 mars 2026 »: a ranking's, a publication's, a tournament's date."""
    return french.date_long(dt.date.fromisoformat(iso))


def sort_key(iso: str) -> str:
    """« 20260314 »: what a sortable table's date cell sorts by (its `data-sort`). site.js reads a
    cell starting with a digit as a number: « 14 mars 2026 » would sort by its day, « 2026-03-14 »
    by its year alone."""
    return iso.replace("-", "")
