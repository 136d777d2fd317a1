"""The league's calendar: the optional `inputs/calendrier.xlsx` (docs/formats.md), which announces
the season's tournaments, and what the workbooks say of those already played.

An announced tournament is « à venir » until its workbook arrives: a workbook of the same circuit
and date whose club (its `Tournoi` sheet's `club` field, when its circuit has one) or name is the
announced one; failing that, one left over on that circuit and date, unless its sheet names another
club than the announced one's. A workbook whose sheet names no club (a circuit without one) is
matched by its sender's club when known (`inbox`'s, delivery/filers.py), else by its name, else as
the one left over, whatever club the calendar announces: nothing tells whose it is. What is
matched is printed from the workbook (date, name, place), the rest from the calendar.

This module knows no circuit: the pipeline gives it the circuits' names (`known`) and the played
tournaments (`Played`)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from reportgen import french
from reportgen.ingest import values as parse
from reportgen.ingest.directories import ClubDirectory
from reportgen.ingest.tables import Column, required_table
from reportgen.ingest.text import normalise_label
from reportgen.ingest.tournament import TournamentSheet
from reportgen.ingest.workbook import Workbook
from reportgen.model import (
    Annex,
    AnnexColumn,
    AnnexSheet,
    Event,
    InputRule,
    Problem,
    SourceRef,
    cell_position,
    in_sheet,
    shown_path,
)
from reportgen.problems import ANNOUNCED_TWICE, BAD_VALUE, MISSING_SHEET, UNKNOWN_CIRCUIT, UNKNOWN_CLUB

CALENDAR_FILE = "calendrier.xlsx"
SHEET = "Calendrier"

DATE = Column("date", "Date", ("Jour", "Date du tournoi"))
CIRCUIT = Column("circuit", "Circuit", ())
CLUB = Column("club", "Club", ("Club organisateur", "Organisateur"))
NAME = Column("name", "Nom", ("Nom du tournoi", "Tournoi"))
PLACE = Column("place", "Lieu", ("Ville",))
# Optional: the last day of a tournament played over several days (a pool tournament online: the day
# its final ends, as planned), when its results are due (`reportgen remind`).
LAST = Column("last", "Fin", ("Dernier jour", "Date de fin"))
COLUMNS = [DATE, CIRCUIT, CLUB, NAME, PLACE, LAST]

COMING = "à venir"  # announced, its workbook not arrived
PLAYED = "joué"  # its workbook is in inputs/
# What is said of its results on a day besides those (pipeline/calendar.py `state`, the one rule):
AWAITED = "attendu"  # announced, its day past, its workbook not arrived
RUNNING = "en cours"  # its workbook arrived, played over several days and not over yet
# Announced over several days, between its first day and its last (the calendar's Fin), its workbook
# not arrived. Said « en cours » as RUNNING, with nothing published yet.
STARTED = "en cours, sans résultats"
# Its workbook holds its registrations alone (a pool tournament whose round 1 is not written), its
# results not due (before its Fin, or without one): what the workbook says, neither « en cours » (no
# round is written) nor « à venir » past its first day; the build's note and its circuit's say « n’en
# contient que les inscriptions ».
REGISTERED = "inscriptions reçues"
# Its workbook shows it cancelled (a pool tournament with 2 players not forfeit, Art. XI: its
# circuit's `Report.cancelled`): it awaits nothing more, as its bulletin says « tournoi annulé ».
CANCELLED = "annulé"
# Announced, its day past, its workbook never arrived, and its season's ranking final (closed or over:
# pipeline/calendar.py `final_season`): it awaits nothing more, as the final bulletin says.
NOT_RECEIVED = "non reçu"
# Running (some of its results in), its Fin past and its final not played: the rest of its results
# awaited from its club (a pool tournament whose club stopped sending rounds said « en cours » forever).
UNFINISHED = "suite attendue"


@dataclass(frozen=True)
class Announced:
    """One row of calendrier.xlsx, validated."""

    date: dt.date
    circuit: str  # the circuit's slug
    name: str
    place: str
    club: str  # the organising club's code in clubs.xlsx, "" when the row names none
    where: SourceRef  # its Date cell
    last: dt.date | None = None  # its Fin, when after its Date: played over several days


@dataclass(frozen=True)
class Played:
    """A tournament whose workbook is in inputs/, as its `Tournoi` sheet says it."""

    date: dt.date
    circuit: str
    name: str
    place: str
    club: str  # the club's code when the sheet names a club of clubs.xlsx, else ""
    workbook: str  # its path relative to inputs/
    sender: str = ""  # the code of the club that sent it, when known (`inbox`'s attachment, or one it filed: delivery/filers.py)


@dataclass(frozen=True)
class CalendarEntry:
    """A tournament of the league's calendar, played or announced: what the site and the
    iCalendar file show, and what `reportgen remind` reminds."""

    date: dt.date
    circuit: str
    name: str
    place: str
    club: str  # the organising club's code, "" when unknown
    status: str  # PLAYED or COMING
    workbook: str = ""  # when played: its workbook, relative to inputs/
    where: SourceRef | None = None  # when announced: its row in calendrier.xlsx
    # What names it for good (the iCalendar UID): the announced name (or club), kept when its
    # workbook arrives under another name, so that a subscribed phone updates the event.
    known_as: str = ""
    # Its last day of play, when after `date`: a pool tournament's once over, the day its final
    # started (its ranking's: `model.played_days`, given by the build, pipeline/calendar.py `PlayedDays`);
    # announced, the calendar's Fin (the day its results are due after).
    last: dt.date | None = None
    # Played over several days and not over yet (a pool tournament between its rounds): its workbook
    # is there, its results published round by round (given by the build too, `PlayedDays`).
    running: bool = False
    # Its workbook is there but holds its registrations alone (a pool tournament whose round 1 is
    # not written): none of its results is in, as for one announced (given by the build, `PlayedDays`).
    registered: bool = False
    # Running, what it still awaits as its workbook shows it (« le tour 3 reste à jouer »: the
    # circuit's `Report.pending`, given by the build too, `PlayedDays`).
    pending: str = ""
    # Its workbook shows it cancelled (its circuit's `Report.cancelled`, given by the build too,
    # `PlayedDays`): neither running nor awaited, never reminded; restored, it is running again.
    cancelled: bool = False

    @property
    def coming(self) -> bool:
        return self.status == COMING

    @property
    def resultless(self) -> bool:
        """None of its results is in: announced without its workbook, or registrations alone."""
        return self.coming or self.registered

    @property
    def unfinished(self) -> bool:
        """Running, with what it awaits known (its circuit's `Report.pending`)."""
        return self.running and bool(self.pending)

    @property
    def awaits_the_rest(self) -> bool:
        """Running, with what it awaits known, and due on a known day (its calendar's Fin): past it,
        the rest of its results is late (pipeline/calendar.py `state`: UNFINISHED, `reportgen remind`)."""
        return self.unfinished and self.last is not None

    @property
    def last_day(self) -> dt.date:
        return self.last or self.date

    def remind_day(self, after_days: int) -> dt.date:
        """The day its results fall due from its club, `after_days` (`[calendar] remind_after_days`)
        full days after its last day: the day `reportgen remind` reminds it (never before) and dates
        its reminder, and the day the build's note says it will."""
        return self.last_day + dt.timedelta(days=after_days + 1)

    def fin_cell(self) -> str:
        """Where its Fin is typed, as every place is said (model.in_sheet): « calendrier.xlsx, feuille
        « Calendrier », ligne 9 (colonne « Fin ») », its row, not its Date's cell (the one to type is the
        Fin's); one the calendar does not announce (a workbook of registrations alone), on a row to add."""
        where = self.where
        if where is None or where.sheet is None or where.cell is None:
            return f"{CALENDAR_FILE}, sur une ligne à son nom (colonne « {LAST.header} »)"
        row = cell_position(where.cell)[0] + 1
        return f"{shown_path(where.path)}, {in_sheet(where.sheet, f'ligne {row}', LAST.header)}"

    def days(self) -> str:
        """Its days as the site's pages say them: « 14 mars 2026 », « du 5 septembre au 6 octobre 2026 »."""
        return french.date_span(self.date, self.last_day)

    def title(self, clubs: ClubDirectory) -> str:
        """What every list names it by (the site, calendrier.ics, a club's bulletin, `reportgen
        remind`), so that they cannot disagree: its name, else « Tournoi de Rodez » (`of_place`)."""
        return self.name or f"Tournoi {self.of_place(clubs)}"

    def of_event(self, clubs: ClubDirectory) -> str:
        """Its title in a sentence: « de l’Open de Rodez », « du Tournoi d’automne de Perpignan » (its name
        as typed, said once), « du tournoi de Rodez » when the calendar names only its place or club."""
        return french.de(self.name) if self.name else f"du tournoi {self.of_place(clubs)}"

    def of_place(self, clubs: ClubDirectory) -> str:
        """« de Rodez », « du Grau-du-Roi »: its place, else its organising club's name (a calendar
        row may name only its club)."""
        return french.de(self.place or self.organiser(clubs))

    @property
    def day_month(self) -> str:
        """« 13 juin »: its day without its year."""
        return french.date_long(self.date).rsplit(" ", 1)[0]

    def day_and_place(self, clubs: ClubDirectory) -> str:
        """« de Rodez du 13 juin »: the place (or the name, or the organising club's), the day
        without its year."""
        return f"{french.de(self.place or self.name or self.organiser(clubs))} du {self.day_month}"

    def organiser(self, clubs: ClubDirectory) -> str:
        """The organising club's name in clubs.xlsx (its code if the directory no longer has it)."""
        club = clubs.find(self.club) if self.club else None
        return club.name if club else self.club


def _circuit(known: Mapping[str, str]) -> Callable[[object], str]:
    """The slug of a circuit typed by its slug or its title (`known`)."""

    def parse_circuit(value: object) -> str:
        typed = parse.text(value)
        wanted = normalise_label(typed)
        for slug, title in known.items():
            if wanted in (normalise_label(slug), normalise_label(title)):
                return slug
        raise _UnknownCircuit(typed)
    return parse_circuit


class _UnknownCircuit(Exception):
    """Not a BadValue, which read_cell would say as a `bad-value`: an `unknown-circuit` problem."""

    def __init__(self, typed: str) -> None:
        super().__init__(typed)
        self.typed = typed


def read_calendar(workbook: Workbook, known: Mapping[str, str], clubs: ClubDirectory,
                  problems: list[Problem]) -> list[Announced]:
    """The tournaments calendrier.xlsx announces, by date; a located problem for each bad cell
    (`known`: each circuit's slug and title, either may be typed)."""
    sheet = workbook.sheet(SHEET) or (workbook.sheets[0] if len(workbook.sheets) == 1 else None)
    if sheet is None:
        problems.append(MISSING_SHEET(workbook.ref(), sheet=SHEET, present=workbook.present(),
                                      fix="nommez « Calendrier » la feuille des tournois annoncés "
                                      "(« reportgen template calendrier » en écrit une vierge)"))
        return []
    table = required_table(workbook, sheet, COLUMNS, [DATE, CIRCUIT], "écrivez sur la première ligne les en-têtes "
                           "Date, Circuit, Club, Nom, Lieu, Fin (« reportgen template calendrier » écrit un calendrier "
                           "vierge)", problems)
    if table is None:
        return []
    announced: list[Announced] = []
    seen: dict[tuple[str, dt.date, str, str], SourceRef] = {}
    circuit_of = _circuit(known)
    for row in table.rows:
        found: list[Problem] = []
        day = table.read(row, "date", parse.date, found)
        try:
            slug = table.read(row, "circuit", circuit_of, found)
        except _UnknownCircuit as unknown:
            slug = None
            found.append(UNKNOWN_CIRCUIT(table.ref(row, "circuit"), circuit=unknown.typed,
                                         known=", ".join(known)))
        organiser = ""
        typed_club = table.read(row, "club", parse.text, found, required=False) or ""
        if typed_club:
            club = clubs.find(typed_club)
            if club is not None:
                organiser = club.code
            elif clubs.unknown(typed_club):
                found.append(UNKNOWN_CLUB(table.ref(row, "club"), club=typed_club,
                                          fix="écrivez le code d’un club de clubs.xlsx, ajoutez-y le club, ou "
                                          "laissez la case vide"))
            else:  # on a row of clubs.xlsx with its own problem, said there: the row names its club
                organiser = typed_club
        name = table.read(row, "name", parse.text, found, required=not organiser) or ""
        place = table.read(row, "place", parse.text, found, required=False) or ""
        last = table.read(row, "last", parse.date, found, required=False)
        if last is not None and day is not None and last < day:
            found.append(BAD_VALUE(table.ref(row, "last"), message=f"la fin, le {french.date_long(last)}, est avant "
                                   f"le premier jour du tournoi, le {french.date_long(day)} (colonne « Date »)",
                                   fix="écrivez son dernier jour, le même ou après, ou laissez la case vide"))
        problems += found
        if found or day is None or slug is None:
            continue
        entry = Announced(day, slug, name, place, organiser, table.ref(row, "date"),
                          last if last is not None and last > day else None)
        keys = [((slug, day, "club", organiser), "même club"), ((slug, day, "name", normalise_label(name)), "même nom")]
        twice = next(((key, same) for key, same in keys if key[3] and key in seen), None)
        if twice is not None:
            problems.append(ANNOUNCED_TWICE(entry.where, first=seen[twice[0]].cell, same=twice[1]))
            continue
        seen.update({key: entry.where for key, _ in keys})
        announced.append(entry)
    return sorted(announced, key=lambda a: (a.date, a.circuit, a.name, a.club))


# How an announced tournament finds its workbook among those of its circuit and date, in turn: the
# same club (a club's name may differ from the tournament's; the club that sent one whose sheet names
# none), the same name, then one left over, never one whose sheet names another club (« reçu » said
# of another club's row: its own stays awaited). A workbook whose sheet names no club still takes a
# row left over of any club: its sender is no proof (`reportgen inbox` holds a club's workbook that
# the calendar gives to another club, as another club's).
_MATCHES = (
    lambda a, p: bool(a.club) and (p.club or p.sender) == a.club,
    lambda a, p: bool(a.name) and normalise_label(p.name) == normalise_label(a.name),
    lambda a, p: not (a.club and p.club and p.club != a.club),
)


def calendar(announced: list[Announced], played: list[Played]) -> list[CalendarEntry]:
    """Every tournament, played or announced, by date (`_MATCHES` says which workbook is which
    announced tournament's)."""
    left = sorted(played, key=lambda p: (p.date, p.circuit, p.name, p.workbook))
    matched: dict[int, Played] = {}
    for fits in _MATCHES:
        for index, entry in enumerate(announced):
            if index in matched:
                continue
            match = next((p for p in left if (p.circuit, p.date) == (entry.circuit, entry.date) and fits(entry, p)),
                         None)
            if match is not None:
                left.remove(match)
                matched[index] = match
    entries = [_played(matched[index], entry) if index in matched
               else CalendarEntry(entry.date, entry.circuit, entry.name, entry.place, entry.club, COMING,
                                  where=entry.where, known_as=entry.name or entry.club, last=entry.last)
               for index, entry in enumerate(announced)]
    entries += [_played(p, None) for p in left]
    return sorted(entries, key=lambda e: (e.date, e.circuit, e.name, e.workbook, e.club))


def _played(played: Played, announced: Announced | None) -> CalendarEntry:
    """A tournament whose workbook arrived, its announced Fin kept: its days until the build knows
    its own (`PlayedDays`: a pool tournament's once its final started)."""
    place = played.place or (announced.place if announced else "")
    club = played.club or (announced.club if announced else "")
    return CalendarEntry(played.date, played.circuit, played.name, place, club, PLAYED, played.workbook,
                         announced.where if announced else None,
                         (announced.name or announced.club) if announced else played.name,
                         last=announced.last if announced else None)


def league_calendar(workbook: Workbook | None, played: list[tuple[TournamentSheet, str, Event]],
                    known: Mapping[str, str], clubs: ClubDirectory, problems: list[Problem],
                    senders: Mapping[str, str] | None = None) -> list[CalendarEntry]:
    """The league's calendar: calendrier.xlsx's tournaments (when `workbook`) and the workbooks'
    (`played`: each one's `Tournoi` sheet, circuit and event; `senders`: the club that sent a
    workbook, by its path, when known); calendrier.xlsx's problems are added to `problems`. Without
    calendrier.xlsx, the played tournaments alone."""
    senders = senders or {}
    tournaments = []
    for sheet, slug, event in played:
        place = sheet.read("lieu", parse.text, [], required=False) or ""
        named = sheet.read("club", parse.text, [], required=False) if "club" in sheet.fields else None
        club = clubs.find(named) if named else None
        tournaments.append(Played(event.date, slug, event.name, place, club.code if club else "", event.id,
                                  senders.get(event.id, "")))
    announced = read_calendar(workbook, known, clubs, problems) if workbook is not None else []
    return calendar(announced, tournaments)


def awaited_note(entries: list[CalendarEntry], clubs: ClubDirectory, final: bool = False) -> str:
    """« provisoire : résultats de Rodez du 13 juin attendus », or "" when none is awaited (`clubs`:
    to name a tournament the calendar knows by its club alone). `final`: said under a closed
    season's final ranking, which is not provisional and awaits nothing: « résultats de Rodez du 13
    juin non reçus »."""
    if not entries:
        return ""
    results = f"résultats {french.joined([e.day_and_place(clubs) for e in entries])}"
    return f"{results} non reçus" if final else f"provisoire : {results} attendus"


# -- the blank calendar (`reportgen template calendrier`) ------------------------------------------

BLANK_ROWS = 200  # rows prepared for tournaments: validation and input help down to there


def blank_calendar(known: Mapping[str, str], clubs: ClubDirectory, day: dt.date) -> Annex:
    """The calendar to fill in: the `Calendrier` sheet with its lists and input help, a filled
    example on a sheet of its own (never read), and the league's clubs for the Club list."""
    columns = [AnnexColumn("Date", "date", 12), AnnexColumn("Circuit", "text", 16), AnnexColumn("Club", "text", 10),
               AnnexColumn("Nom", "text", 32), AnnexColumn("Lieu", "text", 18), AnnexColumn("Fin", "date", 12)]

    def rule(column: int, message: str, kind: str = "text", **options: Any) -> InputRule:
        return InputRule(1, column, BLANK_ROWS, column, message, kind, **options)

    club_rule = (rule(2, "Le club organisateur (son code dans clubs.xlsx) ; facultatif si le nom est donné.", "list",
                      source=f"=Clubs!$A$2:$A${len(clubs.clubs) + 1}") if clubs.clubs
                 else rule(2, "Le club organisateur (son code dans clubs.xlsx) ; facultatif si le nom est donné."))
    sheet = AnnexSheet(SHEET, columns, [], [
        rule(0, "Le premier jour de jeu (jj/mm/aaaa).", "date"),
        rule(1, "Le circuit du tournoi.", "list", choices=tuple(known)),
        club_rule,
        rule(3, "Le nom du tournoi, tel que le site et l’agenda l’afficheront.", "text"),
        rule(4, "Facultatif : la ville.", "text"),
        rule(5, "Facultatif : le dernier jour d’un tournoi joué sur plusieurs jours ou semaines (jj/mm/aaaa), "
                "celui de sa finale pour un tournoi en ligne : ses résultats sont attendus après.", "date"),
    ])
    first = next(iter(known), "")
    # Two of the league's clubs (their code, their town), when it has a directory.
    hosts = [(club.code, club.name) for club in clubs.clubs[:2]] or [("", "Carcassonne"), ("", "Rodez")]
    example = AnnexSheet("Exemple", columns, [
        [dt.date(day.year, 3, 14), first, hosts[0][0], "Tournoi de printemps", hosts[0][1], None],
        [dt.date(day.year, 6, 13), first, hosts[-1][0], "Open d'été", hosts[-1][1], None],
    ])
    directory = AnnexSheet("Clubs", [AnnexColumn("Code", "text", 8), AnnexColumn("Nom", "text", 24)],
                           [[club.code, club.name] for club in clubs.clubs])
    return Annex("modele-calendrier", "Calendrier de la ligue — classeur à remplir", day, [sheet, example, directory])
