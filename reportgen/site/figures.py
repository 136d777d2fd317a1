"""What each chart shows, from the site's ranking records (`site/data.py`): the bulletins take theirs
from the report's rankings in that form (`chart_records`: what a chart reads of them), the site's
pages from `site.json`, so that a season page and the bulletin of the same ranking carry the same
SVG bytes (unless the site shows a player by his initials or not at all: the bulletins stay whole).

A figure is plain data for the template `templates/chart.html.j2`: the SVG (escaped here, so a
`Markup`: a bulletin's public copy finds the names in it as HTML writes them, site/public_copies.py),
its caption, and the same numbers as a table for screen readers."""

from __future__ import annotations

import dataclasses
import datetime as dt
from collections.abc import Callable, Sequence
from typing import Any

from markupsafe import Markup

from reportgen import french
from reportgen.model import Document
from reportgen.site.chart import NARROW, NARROW_DAYS, bump_svg, scale_narrow, scale_svg, values_svg

TOP = 10  # the bump chart follows the current top ten
SEASON_KINDS = ("season", "ratings")  # a season's dated rankings (a rating list is dated too)
# The colon of a figure's captions, after the no-break space French typing wants (a phone's line
# never starts with it), on the site's pages and in the bulletins alike.
COLON = "\u00a0:"


def day(iso: str) -> str:
    """« 14/03 »: the rankings of a season are of one year."""
    date = dt.date.fromisoformat(iso)
    return f"{date.day:02d}/{date.month:02d}"


def dated_rankings(records: Sequence[dict[str, Any]], current: dict[str, Any]) -> list[dict[str, Any]]:
    """The rankings of `current`'s kind and season up to its date, one per date (the final one of
    a date rather than the dated one, as the site's headline), `current` itself on its date."""
    by_date: dict[str, dict[str, Any]] = {}
    for record in records:
        if (record["kind"] == current["kind"] and record["season"] == current["season"]
                and record["date"] < current["date"]):
            kept = by_date.get(record["date"])
            if kept is None or (record["status"] == "final", record["path"]) > (kept["status"] == "final", kept["path"]):
                by_date[record["date"]] = record
    by_date[current["date"]] = current
    return [by_date[date] for date in sorted(by_date)]


def places(ranking: dict[str, Any]) -> dict[str, Any]:
    """Each player's place in a ranking record, by his id."""
    return {row["id"]: row["rank"] for row in ranking["rows"]}


def bump(records: Sequence[dict[str, Any]], current: dict[str, Any],
         name: Callable[[dict[str, Any]], str] = lambda row: row["player"], most: int = TOP,
         places_of: Callable[[dict[str, Any]], dict[str, Any]] = places) -> dict[str, Any] | None:
    """The places of `current`'s top ten (`most`) in each dated ranking of its season, when it has
    at least two; `name` gives a row's name as the page shows it (the site's privacy choices);
    `places_of`: `places`, or the same remembered (`charted`)."""
    if current["kind"] not in SEASON_KINDS:
        return None
    rankings = dated_rankings(records, current)
    top = [row for row in current["rows"] if row["rank"] is not None][:most]
    if len(rankings) < 2 or not top:
        return None
    found_places = [places_of(ranking) for ranking in rankings]
    days = [day(ranking["date"]) for ranking in rankings]
    lines = [(name(row), [found.get(row["id"]) for found in found_places]) for row in top]
    what = "classement Elo" if current["kind"] == "ratings" else "classement"
    label = f"Place des {len(top)} premiers du {what} au fil de la saison {current['season']}"
    return {"svg": Markup(bump_svg(days, lines, label)), "caption": label, "narrow": narrow(days, lines, label),
            "table": {"caption": f"{label}{COLON} les mêmes places", "corner": "Joueur", "columns": days,
                      "rows": [{"head": player, "cells": ["—" if p is None else str(p) for p in ranks]}
                               for player, ranks in lines]}}


def narrow(days: Sequence[str], lines: Sequence[tuple[str, Sequence[int | None]]], label: str) -> dict[str, Any]:
    """A season's places as a phone shows them, in place of the chart wider than it (chart.html.j2),
    drawn to its width (chart.NARROW): its place scale, its latest dates and the names at its lines'
    ends whole. The wide one opened there scrolled to its end, for its names: the scale was out of
    view and a date cut at the box's edge (« 0/06 »), a season of two dates showed one. Its latest
    `NARROW_DAYS` dates, all of them for most seasons; `since`, said in the caption, when it leaves
    earlier ones to the data table."""
    shown = slice(-NARROW_DAYS, None)
    since = days[-NARROW_DAYS] if len(days) > NARROW_DAYS else ""
    drawn = bump_svg(days[shown], [(name, places[shown]) for name, places in lines],
                     f"{label}, depuis le {since}" if since else label, NARROW)
    return {"svg": Markup(drawn),
            "since": f" (ici depuis le {since}{COLON} les données du graphique donnent toutes les dates)" if since else ""}


def number(shown: str) -> float | None:
    """A number the site's records keep as a French reader sees it (« 1 512,3 », « −4 »)."""
    try:
        return float(shown.replace(french.THOUSANDS_SEPARATOR, "").replace("−", "-").replace(",", "."))
    except ValueError:
        return None


def values(points: Sequence[tuple[str, float, str]], label: str, header: str,
           laid: Markup | None = None) -> dict[str, Any] | None:
    """A value over time (a player's rating), from (iso date, value, the value in French). `laid`:
    the label as the page lays out its caption, when markup there keeps words on one line (a
    player's hyphenated name, site/lines.py `player_name`); the chart's and its region's names stay `label`."""
    if len(points) < 2:
        return None
    shown = [(day(iso), value, text) for iso, value, text in points]
    table: dict[str, Any] = {"caption": f"{label}{COLON} les mêmes valeurs", "corner": "Date", "columns": [header],
                             "rows": [{"head": when, "cells": [text]} for when, _, text in shown]}
    found = {"svg": Markup(values_svg(shown, label)), "caption": label, "table": table}
    if laid is not None:  # chart.html.j2 prints these in place of the captions
        found["laid"], table["laid"] = laid, laid + COLON + " les mêmes valeurs"
    return found


def scale(values: Sequence[float], title: str) -> dict[str, Any]:
    """Points by place (a tournament's scale, `values` from the first place on): the template of a
    bulletin calls it (`scale_chart`, render/html.py), the site's season page too, from the same
    numbers, so both draw the same bytes. With its `narrow` one, drawn to a phone's width, which a
    phone shows in its place (chart.html.j2; the bulletin's template alike): the wide one, 580 units,
    scrolled sideways there."""
    shown = [french.points(value) for value in values]
    label = f"Points selon la place{COLON} {title}"
    top = french.points(max(values, default=0))
    narrow = scale_narrow(top, french.ordinal(max(len(values), 1)))
    return {"svg": Markup(scale_svg(values, top, label)), "caption": label,
            "narrow": {"svg": Markup(scale_svg(values, top, label, narrow)), "since": ""},
            "table": {"caption": f"{label}{COLON} les mêmes points", "corner": "Place", "columns": ["Points"],
                      "rows": [{"head": french.ordinal(place), "cells": [text]} for place, text in enumerate(shown, 1)]}}


def charted(documents: Sequence[Document], records: Sequence[dict[str, Any]]) -> list[Document]:
    """The bulletins, each with its chart in its context (`bump`: the one its season page shows)
    when its ranking is one of several dated ones of a season. In the context, so that the render
    cache compares it too: it moves with the earlier rankings. `records`: the report's rankings
    as `data.chart_records` gives them (or the site's, `ranking_record`: the same charts)."""
    by_path = {record["path"]: record for record in records}
    # Each ranking's places made once, not once per later bulletin of its season (at 100x, 40
    # bulletins a season each going through the 2,800 rows of every earlier ranking: 1.7 CPU-s).
    # By the record itself (its id: `records` holds every one while this runs), not by its path.
    known: dict[int, dict[str, Any]] = {}

    def places_of(ranking: dict[str, Any]) -> dict[str, Any]:
        if id(ranking) not in known:
            known[id(ranking)] = places(ranking)
        return known[id(ranking)]

    found = []
    for document in documents:
        # A printed bulletin names no more players than it prints (`print_top`: its bulletin_rows).
        printed = (document.context.get("print_top") or {}).get("rows", TOP)
        chart = (bump(records, by_path[document.path], most=min(TOP, printed), places_of=places_of)
                 if document.path in by_path else None)
        found.append(dataclasses.replace(document, context={**document.context, "bump": chart}) if chart else document)
    return found
