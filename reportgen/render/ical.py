"""The league's calendar as an iCalendar file (`outputs/calendrier.ics`, RFC 5545), for a phone or
a calendar program to subscribe to.

Each tournament is an all-day event, over its days as the site names them (a pool tournament's
from its first day to its last once it is over: `CalendarEntry.last`). Its UID comes from its circuit, date and name (the announced
name, kept when its workbook arrives under another: `CalendarEntry.known_as`), so that a
subscription updates an event rather than adding a second one. DTSTAMP, when the file was made
(RFC 5545), is the build's day, not the clock, and SEQUENCE counts the steps an event has gone
through (`SEQUENCE`: à venir, en cours, attendus, publiés), so that a calendar program takes an
event whose results went from « à venir » to « attendus » to « publiés » as updated: DTSTAMP was the
calendar's latest date, in the future, and no SEQUENCE, the same for every state. The same inputs
on the same day (both in the build's key) give the same bytes. No player is named."""

from __future__ import annotations

import datetime as dt
import hashlib
from collections.abc import Callable, Mapping, Sequence

from icalendar import Calendar, Event

from reportgen.ingest.calendar import AWAITED, COMING, NOT_RECEIVED, PLAYED, RUNNING, STARTED, CalendarEntry
from reportgen.ingest.directories import ClubDirectory
from reportgen.ingest.text import compared

PRODID = "-//reportgen//calendrier de la ligue//FR"


def uid(entry: CalendarEntry) -> str:
    """Stable: the circuit, the date and the name it was first known by, whatever else changes."""
    key = f"{entry.circuit}\n{entry.date.isoformat()}\n{' '.join(compared(entry.known_as).split())}"
    return f"{hashlib.sha256(key.encode()).hexdigest()[:32]}@reportgen.invalid"


# Each event's SEQUENCE, by what is known of its results (`to_ics`'s `state`): it grows as a
# tournament goes its way, announced, begun, its results awaited, published round by round, never
# received once its season is over, published (a late workbook after « non reçus » too). A season
# opened again (« non reçus » back to « attendus ») or a workbook taken out of inputs/ (« publiés »
# back to « attendus ») lowers it: rare, and its DTSTAMP is later. An edit that leaves the state
# alone (a new Lieu while « à venir ») does not raise it: the UID holds the date and name only.
SEQUENCE = {COMING: 0, STARTED: 1, AWAITED: 2, RUNNING: 3, NOT_RECEIVED: 4, PLAYED: 5}

# What an event's description says of its results, by what is known of them (`to_ics`'s `state`).
RESULTS = {PLAYED: "Résultats publiés.", RUNNING: "Tournoi en cours : résultats publiés tour par tour.",
           STARTED: "Tournoi en cours : aucun résultat reçu.",
           AWAITED: "Résultats attendus.", NOT_RECEIVED: "Résultats non reçus : la saison est terminée.",
           COMING: "Résultats à venir."}


def to_ics(entries: Sequence[CalendarEntry], league: str, titles: Mapping[str, str], clubs: ClubDirectory,
           state: Callable[[CalendarEntry], str], today: dt.date) -> bytes:
    """The calendar's bytes. `titles`: each circuit's title; `clubs`: the organisers' names (and
    the title of a tournament the calendar knows by its club alone: `CalendarEntry.title`); `state`:
    what is known of a tournament's results on the build's day, `today` (pipeline/calendar.py
    `state`)."""
    calendar = Calendar()
    calendar.add("prodid", PRODID)
    calendar.add("version", "2.0")
    calendar.add("calscale", "GREGORIAN")
    calendar.add("x-wr-calname", f"{league} — calendrier")
    calendar.add("x-wr-timezone", "Europe/Paris")
    stamp = dt.datetime.combine(today, dt.time(0), dt.timezone.utc)  # the build's day: no clock
    for entry in entries:
        said = state(entry)
        event = Event()
        event.add("uid", uid(entry))
        event.add("dtstamp", stamp)
        event.add("sequence", SEQUENCE[said])
        # all day, from its first day to its last (a pool tournament's once over): the end is exclusive
        event.add("dtstart", entry.date)
        event.add("dtend", entry.last_day + dt.timedelta(days=1))
        event.add("summary", entry.title(clubs))
        if entry.place:
            event.add("location", entry.place)
        event.add("description", _description(entry, titles, clubs, said))
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
