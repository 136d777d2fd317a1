"""The league's calendar as an iCalendar file (`outputs/calendrier.ics`, RFC 5545), for a phone or
a calendar program to subscribe to.

Each tournament is an all-day event, over its days as the site names them (a pool tournament's
from its first day to its last once it is over: `CalendarEntry.last`). Its UID comes from its circuit, date and name (the announced
name, kept when its workbook arrives under another: `CalendarEntry.known_as`), so that a
subscription updates an event rather than adding a second one; DTSTAMP is the latest date of the
calendar, not the clock: the same inputs give the same bytes. No player is named."""

from __future__ import annotations

import datetime as dt
import hashlib
from collections.abc import Callable, Mapping, Sequence

from icalendar import Calendar, Event

from reportgen.ingest.calendar import AWAITED, COMING, NOT_RECEIVED, PLAYED, RUNNING, STARTED, CalendarEntry
from reportgen.ingest.directories import ClubDirectory

PRODID = "-//reportgen//calendrier de la ligue//FR"


def uid(entry: CalendarEntry) -> str:
    """Stable: the circuit, the date and the name it was first known by, whatever else changes."""
    key = f"{entry.circuit}\n{entry.date.isoformat()}\n{' '.join(entry.known_as.casefold().split())}"
    return f"{hashlib.sha256(key.encode()).hexdigest()[:32]}@reportgen.invalid"


# What an event's description says of its results, by what is known of them (`to_ics`'s `state`).
RESULTS = {PLAYED: "Résultats publiés.", RUNNING: "Tournoi en cours : résultats publiés tour par tour.",
           STARTED: "Tournoi en cours : aucun résultat reçu.",
           AWAITED: "Résultats attendus.", NOT_RECEIVED: "Résultats non reçus : la saison est terminée.",
           COMING: "Résultats à venir."}


def to_ics(entries: Sequence[CalendarEntry], league: str, titles: Mapping[str, str], clubs: ClubDirectory,
           state: Callable[[CalendarEntry], str]) -> bytes:
    """The calendar's bytes. `titles`: each circuit's title; `clubs`: the organisers' names (and
    the title of a tournament the calendar knows by its club alone: `CalendarEntry.title`); `state`:
    what is known of a tournament's results on the build's day (pipeline/calendar.py `state`)."""
    calendar = Calendar()
    calendar.add("prodid", PRODID)
    calendar.add("version", "2.0")
    calendar.add("calscale", "GREGORIAN")
    calendar.add("x-wr-calname", f"{league} — calendrier")
    calendar.add("x-wr-timezone", "Europe/Paris")
    stamp = max((entry.last_day for entry in entries), default=dt.date(2000, 1, 1))
    for entry in entries:
        event = Event()
        event.add("uid", uid(entry))
        event.add("dtstamp", dt.datetime.combine(stamp, dt.time(0), dt.timezone.utc))
        # all day, from its first day to its last (a pool tournament's once over): the end is exclusive
        event.add("dtstart", entry.date)
        event.add("dtend", entry.last_day + dt.timedelta(days=1))
        event.add("summary", entry.title(clubs))
        if entry.place:
            event.add("location", entry.place)
        event.add("description", _description(entry, titles, clubs, state(entry)))
        event.add("categories", [titles.get(entry.circuit, entry.circuit)])
        event.add("transp", "TRANSPARENT")  # a tournament does not make its subscribers busy
        calendar.add_component(event)
    return calendar.to_ical()


def _description(entry: CalendarEntry, titles: Mapping[str, str], clubs: ClubDirectory, state: str) -> str:
    words = [f"Circuit : {titles.get(entry.circuit, entry.circuit)}."]
    if entry.club:
        words.append(f"Organisé par {entry.organiser(clubs)}.")
    words.append(RESULTS[state])
    return " ".join(words)
