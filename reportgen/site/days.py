"""Dates as the site's pages show them, from the ISO dates of the site's data: each formatted once
a process (a league has a few hundred dates, shown on tens of thousands of lines)."""

from __future__ import annotations

import datetime as dt
import functools
from collections.abc import Mapping
from typing import Any

from reportgen import french
from reportgen.model import played_days


@functools.cache
def long_day(iso: str) -> str:
    """« 14 mars 2026 »: a ranking's, a publication's, a tournament's date."""
    return french.date_long(dt.date.fromisoformat(iso))


@functools.cache
def _span(first: str, last: str) -> str:
    return french.date_span(dt.date.fromisoformat(first), dt.date.fromisoformat(last))


def record_days(record: Mapping[str, Any]) -> tuple[str, str]:
    """The first and last days (ISO) the site gives a ranking record wherever it names it
    (`model.played_days`: a pool tournament's from its first day to the day its final started once
    it is over, its first day alone while it runs; any other, its date)."""
    return played_days(record.get("start"), record["date"], record.get("status") == "final")


def record_start(record: Mapping[str, Any]) -> str:
    """The day (ISO) a ranking record sorts by wherever the site lists it: the first of `record_days`,
    as a calendar sorts what lasts several days. A pool tournament under way shows its first day:
    sorted by its latest round's date, it sat among tournaments weeks after the day it showed."""
    return record_days(record)[0]


def record_day(record: Mapping[str, Any]) -> str:
    """`record_days` as its pages, lists, search and cards say them: « 14 mars 2026 », « du 5
    septembre au 6 octobre 2026 »."""
    return _span(*record_days(record))


def sort_key(iso: str) -> str:
    """« 20260314 »: what a sortable table's date cell sorts by (its `data-sort`). site.js reads a
    cell starting with a digit as a number: « 14 mars 2026 » would sort by its day, « 2026-03-14 »
    by its year alone."""
    return iso.replace("-", "")
