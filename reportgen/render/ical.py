"""The league's calendar as an iCalendar file (`outputs/calendrier.ics`, RFC 5545), for a phone or
a calendar program to subscribe to.

Each tournament is an all-day event, over its days as the site names them (a pool tournament's
from its first day to its last once it is over: `CalendarEntry.last`). Its UID comes from its circuit, date and name (the announced
name, kept when its workbook arrives under another: `CalendarEntry.known_as`), so that a
subscription updates an event rather than adding a second one. Each event is a revision of the one
last published (`Revision`, kept between builds by pipeline/calendar.py): its SEQUENCE grows by one
each time what it says changes (its summary, place, days, description, category) and never goes
down, and its DTSTAMP is the day of that revision (RFC 5545 3.8.7.4: a calendar program ignores a
revision whose SEQUENCE is not higher). SEQUENCE was derived from what is known of its results (à
venir 0 … publiés 5): a season opened again or a workbook taken out lowered it, a new Lieu did not
raise it; DTSTAMP was the build's day for every event, so that the file changed every day and each
subscriber downloaded events that all looked revised. No clock: a revision is dated by the build's
day; the same inputs and revisions give the same bytes whatever the day. No player is named."""

from __future__ import annotations

import datetime as dt
import hashlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from icalendar import Calendar, Component, Event

from reportgen.ingest.calendar import (
    AWAITED,
    CANCELLED,
    COMING,
    NOT_RECEIVED,
    PLAYED,
    REGISTERED,
    RUNNING,
    STARTED,
    UNFINISHED,
    CalendarEntry,
)
from reportgen.ingest.directories import ClubDirectory
from reportgen.ingest.text import compared

PRODID = "-//reportgen//calendrier de la ligue//FR"


def uid(entry: CalendarEntry) -> str:
    """Stable: the circuit, the date and the name it was first known by, whatever else changes."""
    key = f"{entry.circuit}\n{entry.date.isoformat()}\n{' '.join(compared(entry.known_as).split())}"
    return f"{hashlib.sha256(key.encode()).hexdigest()[:32]}@reportgen.invalid"


# What an event says, whose change is a revision: not its DTSTAMP and SEQUENCE, which say the revision.
SAID = ("summary", "location", "dtstart", "dtend", "description", "categories", "transp", "status")


@dataclass(frozen=True)
class Revision:
    """An event as last published: a digest of what it said (`SAID`), its SEQUENCE and the day of
    that revision, its DTSTAMP."""

    digest: str
    sequence: int
    day: dt.date

    def next(self, digest: str, today: dt.date) -> Revision:
        """This one when the event says the same; else one more, dated `today`."""
        return self if digest == self.digest else Revision(digest, self.sequence + 1, today)


# What an event's description says of its results, by what is known of them (`to_ics`'s `state`).
RESULTS = {PLAYED: "Résultats publiés.", RUNNING: "Tournoi en cours : résultats publiés tour par tour.",
           STARTED: "Tournoi en cours : aucun résultat reçu.", REGISTERED: "Inscriptions reçues : résultats à venir.",
           CANCELLED: "Tournoi annulé : résultats publiés jusqu’à son annulation.",
           UNFINISHED: "Tournoi inachevé à sa date de fin : résultats publiés tour par tour, suite attendue.",
           AWAITED: "Résultats attendus.", NOT_RECEIVED: "Résultats non reçus : la saison est terminée.",
           COMING: "Résultats à venir."}


def to_ics(entries: Sequence[CalendarEntry], league: str, titles: Mapping[str, str], clubs: ClubDirectory,
           state: Callable[[CalendarEntry], str], today: dt.date,
           revisions: Mapping[str, Revision]) -> tuple[bytes, dict[str, Revision]]:
    """The calendar's bytes, and the revisions they publish: those given (`revisions`: each event as
    last published, by UID; an event no longer listed kept, so that one listed again goes on from
    its SEQUENCE), each event's revised (`Revision.next`). `titles`: each circuit's title; `clubs`:
    the organisers' names (and the title of a tournament the calendar knows by its club alone:
    `CalendarEntry.title`); `state`: what is known of a tournament's results on the build's day,
    `today` (pipeline/calendar.py `state`)."""
    calendar = Calendar()
    calendar.add("prodid", PRODID)
    calendar.add("version", "2.0")
    calendar.add("calscale", "GREGORIAN")
    calendar.add("x-wr-calname", f"{league} — calendrier")
    calendar.add("x-wr-timezone", "Europe/Paris")
    published = dict(revisions)
    for entry in entries:
        said = state(entry)
        event = Event()
        event.add("uid", uid(entry))
        # all day, from its first day to its last (a pool tournament's once over): the end is exclusive
        event.add("dtstart", entry.date)
        event.add("dtend", entry.last_day + dt.timedelta(days=1))
        event.add("summary", entry.title(clubs))
        if entry.place:
            event.add("location", entry.place)
        event.add("description", _description(entry, titles, clubs, said))
        event.add("categories", [titles.get(entry.circuit, entry.circuit)])
        event.add("transp", "TRANSPARENT")  # a tournament does not make its subscribers busy
        if said == CANCELLED:  # RFC 5545 3.8.1.11: a calendar program shows it cancelled (struck through)
            event.add("status", "CANCELLED")
        key, digest = str(event["uid"]), said_digest(event)
        last = published.get(key)
        revision = published[key] = last.next(digest, today) if last else Revision(digest, 0, today)
        event.add("dtstamp", dt.datetime.combine(revision.day, dt.time(0), dt.timezone.utc))  # no clock
        event.add("sequence", revision.sequence)
        calendar.add_component(event)  # its properties written in icalendar's order, whatever the order added
    return calendar.to_ical(), published


def said_digest(event: Component) -> str:
    """What the event says (`SAID`), as its file writes it: the same for an event made and for the
    one parsed back from the file (`revisions_in`)."""
    found = hashlib.sha256()
    for name in SAID:
        if name in event:
            value = event[name].to_ical()
            found.update(b"%s:%s\n" % (name.encode(), value if isinstance(value, bytes) else value.encode()))
    return found.hexdigest()


def revisions_in(data: bytes) -> dict[str, Revision]:
    """The revisions a calendar file published, by UID (an event without SEQUENCE: 0, the RFC's
    default); none when it cannot be parsed."""
    try:
        events = Calendar.from_ical(data).walk("VEVENT")
        return {str(event["uid"]): Revision(said_digest(event), int(event.get("sequence", 0)),
                                            event.decoded("dtstamp").date()) for event in events}
    except (ValueError, KeyError, TypeError, AttributeError):
        return {}


def _description(entry: CalendarEntry, titles: Mapping[str, str], clubs: ClubDirectory, state: str) -> str:
    words = [f"Circuit : {titles.get(entry.circuit, entry.circuit)}."]
    if entry.club:
        words.append(f"Organisé par {entry.organiser(clubs)}.")
    words.append(RESULTS[state])
    return " ".join(words)
