"""The league's calendar in the build: the note of a ranking that awaits an announced tournament's
results, and `outputs/calendrier.ics` (render/ical.py) when inputs/ holds a calendrier.xlsx, with
the revisions it published kept between builds (`Revisions`).

No circuit is named: a ranking is a season's (or a rating list) by its `Scope`, whatever its circuit."""

from __future__ import annotations

import dataclasses
import datetime as dt
import json
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from reportgen import circuits, french
from reportgen.ingest.calendar import (
    AWAITED,
    CALENDAR_FILE,
    CANCELLED,
    COMING,
    NOT_RECEIVED,
    PLAYED,
    REGISTERED,
    RUNNING,
    STARTED,
    UNFINISHED,
    CalendarEntry,
    awaited_note,
)
from reportgen.model import Document, Problem, Ranking, Report, ScopeKind

if TYPE_CHECKING:
    from reportgen.circuits.base import Reading
    from reportgen.render.ical import Revision

ICS_FILE = "calendrier.ics"  # in outputs/
# What a ranking ranks when a later tournament of its circuit may still change it.
_RANKS_A_SEASON = (ScopeKind.SEASON, ScopeKind.RATINGS)


def mark_awaited(slug: str, report: Report, entries: list[CalendarEntry], reading: Reading) -> Report:
    """The report with « provisoire : résultats de Rodez du 13 juin attendus » in the context
    (`awaited`, printed under the title by base.html.j2) of each season ranking (or rating list)
    that an announced tournament of its circuit and season, whose workbook has not arrived, should
    be in: one dated before the ranking, or, for the season's final ranking, before today (until the
    season is over it is the ranking « à date »). A closed season's final ranking is not provisional
    and awaits nothing (`closed_final`): « résultats de Rodez du 13 juin non reçus »."""
    rankings = {ranking.path: ranking for ranking in report.rankings}
    documents = []
    for document in report.documents:
        ranking = rankings.get(document.path)
        note = ""
        if ranking is not None:
            day = reading.today if ranking.final else document.date
            note = awaited_note(awaited_by(slug, ranking, document, entries, day), reading.clubs,
                                closed_final(slug, ranking, reading))
        documents.append(dataclasses.replace(document, context={**document.context, "awaited": note})
                         if note else document)
    return dataclasses.replace(report, documents=documents)


def awaited_by(slug: str, ranking: Ranking, document: Document, entries: list[CalendarEntry],
               day: dt.date) -> list[CalendarEntry]:
    """The announced tournaments whose results a season ranking awaits on `day` (or, a closed
    season's final ranking, `closed_final`, says were not received): its document's (`mark_awaited`:
    its own date, the build's day for the season's final ranking, the ranking « à date »), or a
    club's mail reporting it (delivery/mail.py: the day the mail is written, as the site's season
    page says it beside that ranking, `season_notes`; the mail of the 14 November ranking drafted on
    7 December said nothing of Cahors's results of 28 November, awaited on the site)."""
    if ranking.scope.kind not in _RANKS_A_SEASON:
        return []
    return awaited(entries, slug, document.season, day)


def awaited(entries: list[CalendarEntry], slug: str, season: int, day: dt.date) -> list[CalendarEntry]:
    """The circuit's announced tournaments of that season whose workbook has not arrived and whose
    results are awaited on `day` (`state`: their last day before it): a ranking of that day is
    provisional until they do. By `state`, the rule a club's bulletin says its tournaments by: the
    message reporting a ranking and the club's PDF sent with it, on one day, cannot disagree."""
    return [entry for entry in entries if entry.coming and entry.circuit == slug and entry.date.year == season
            and state(entry, day, day) == AWAITED]


def closed_final(slug: str, ranking: Ranking, reading: Reading) -> bool:
    """The ranking is its season's final one, and final indeed: its circuit's closing makes it so
    (`CircuitInfo.final_when_closed`) and the season is closed or over (`Reading.season_closed`).
    Its bulletin, the site's season page and a club's message then say the tournaments announced and
    never received « non reçus », never « provisoire » nor « attendus »: after `season close` the
    final bulletin said « Classement final de la saison 2026 » over « provisoire : résultats de
    Montpellier du 3 octobre attendus »."""
    return ranking.final and final_season(slug, ranking.scope.season, reading)


def final_season(slug: str, season: int, reading: Reading) -> bool:
    """The circuit's season's ranking is final: its closing makes it so and the season is closed or
    over. What it announced and never received is « non reçu » (a club's bulletin too), never awaited."""
    info = circuits.REGISTRY.get(slug)
    return info is not None and info.final_when_closed and reading.season_closed(season)


def season_notes(entries: list[CalendarEntry], reading: Reading) -> dict[tuple[str, int], str]:
    """Each circuit's season's « provisoire : résultats de Perpignan du 21 novembre attendus » on the
    build's day (`reading.today`), by (circuit, season): its ranking in force awaits those tournaments
    (their day past, their workbook missing), even when its latest bulletin, dated before them, says
    nothing; a closed season's, its final ranking, « résultats … non reçus » (`closed_final`). The
    site's season page says it beside that ranking (site/pages.py `season`)."""
    found = {}
    for slug, season in sorted({(entry.circuit, entry.date.year) for entry in entries}):
        note = awaited_note(awaited(entries, slug, season, reading.today), reading.clubs,
                            final_season(slug, season, reading))
        if note:
            found[(slug, season)] = note
    return found


def state(entry: CalendarEntry, day: dt.date, today: dt.date, final: bool = False) -> str:
    """What is known of a tournament's results in a document of `day` made on `today` (the site's
    pages and calendrier.ics: the build's day for both; a club's bulletin: the day its message is
    written, delivery/club_bulletin.py `prepare`), the one rule of every list that says it: CANCELLED
    once its workbook shows it cancelled (`CalendarEntry.cancelled`: a pool tournament, Art. XI, was
    « en cours » for ever), PLAYED once its workbook
    arrived, RUNNING while a tournament played over several days is not over (`CalendarEntry.running`),
    UNFINISHED once its calendar's Fin is past on both days as AWAITED is and it is still not over
    (`CalendarEntry.awaits_the_rest`: a pool tournament whose club sent rounds 1 and 2 and no more was
    « en cours » for ever). None of its results in (announced without its workbook, or a workbook of
    registrations alone: `CalendarEntry.resultless`): AWAITED once its last day is past on both days
    (its first, or the calendar's Fin for one played over several days: a pool tournament's results
    are due after its final); until then REGISTERED (« inscriptions reçues ») for a workbook of
    registrations alone, whatever the day (its round 1 not written: it said « en cours » while the
    build's note said it had not begun), STARTED (« en cours ») from the first day of one announced
    over several days (a Fin), else COMING (« à venir »: a tournament of 7 November was still « à
    venir » on the home page of 7 December; a pool tournament was « à venir » between its first day
    and its Fin). In a season whose ranking is `final` (`final_season`), as of today whatever the
    document's day: NOT_RECEIVED once its last day is past, as the final bulletin says it, never
    awaited."""
    if entry.cancelled:
        return CANCELLED
    if not entry.resultless:
        if entry.awaits_the_rest and entry.last_day < today and entry.last_day <= day:
            return UNFINISHED
        return RUNNING if entry.running else PLAYED
    begun = entry.last is not None and entry.date <= min(day, today)
    waiting = REGISTERED if entry.registered else STARTED if begun else COMING
    if final:
        return NOT_RECEIVED if entry.last_day < today else waiting
    # registrations without a Fin: its last day is not known, its results not due on a known day
    due = entry.last is not None or not entry.registered
    return AWAITED if due and entry.last_day < today and entry.last_day <= day else waiting


def with_results_awaited(notices: Iterable[str], entries: list[CalendarEntry], reading: Reading,
                         after_days: int, announced: bool = True) -> list[str]:
    """The circuits' `notices` with the note of each tournament whose results are awaited past its
    Fin: one whose workbook holds its registrations alone (`registrations_awaited`) in place of its
    workbook's own (its circuit's note said it had not begun and to write its round 1, next to one
    saying its results awaited from its club, advice at odds past its Fin: a round 1 written then is
    dated that day, its games asked of the club that played them; its Fin put off, it is no longer
    awaited, and its circuit's note is said again; a note of a workbook begins with its path, « <path>
    : »); then one for each that is not over (`unfinished_awaited`), its circuit's notes kept;
    then, when inputs/ holds a calendar (`announced`), one for each not over that it gives no Fin
    (`unfinished_without_fin`). One of registrations alone that it gives no Fin is never reminded
    either: its circuit's note says so too (`registered_without_fin`), one note for the workbook."""
    awaited = registrations_awaited(entries, reading, after_days)
    without_fin = registered_without_fin(entries, reading) if announced else {}
    found: list[str] = []
    for notice in notices:
        workbook = _of_workbook(notice, awaited)
        if workbook is not None:
            if awaited[workbook] not in found:
                found.append(awaited[workbook])
        elif (workbook := _of_workbook(notice, without_fin)) is not None:
            found.append(f"{notice}, et {without_fin.pop(workbook)}")  # its first note, the others kept
        else:
            found.append(notice)
    alone = [f"{_registrations_alone(entry, reading)}, et {without_fin[entry.workbook]}"
             for entry in entries if entry.workbook in without_fin]
    return found + [note for note in awaited.values() if note not in found] + alone + unfinished_awaited(
        entries, reading, after_days) + (unfinished_without_fin(entries, reading) if announced else [])


def _of_workbook(notice: str, workbooks: Iterable[str]) -> str | None:
    """The workbook a note is of (it begins with its path, « <path> : »), among `workbooks`."""
    return next((path for path in workbooks if notice.startswith(f"{path} : ")), None)


def registrations_awaited(entries: list[CalendarEntry], reading: Reading, after_days: int) -> dict[str, str]:
    """The build's note of each tournament whose workbook holds its registrations alone and whose
    results are awaited (`state_on` on the build's day: its Fin past), by workbook, as the home page
    and calendrier.ics say them (`_asked`)."""
    return {entry.workbook: (f"{_registrations_alone(entry, reading)}, et sa fin, le {french.date_long(entry.last_day)}, "
                             f"est passée : résultats attendus, « reportgen remind » {_asked(entry, reading, after_days, 'les')}")
            for entry in entries if entry.registered and state_on(entry, reading.today, reading) == AWAITED}


def _registrations_alone(entry: CalendarEntry, reading: Reading) -> str:
    """The opening of a note of a tournament whose workbook holds its registrations alone."""
    return f"{entry.workbook} : le classeur {entry.of_event(reading.clubs)} n’en contient que les inscriptions"


def unfinished_awaited(entries: list[CalendarEntry], reading: Reading, after_days: int) -> list[str]:
    """The build's note of each tournament not over whose Fin is past (`state_on`: UNFINISHED), saying
    what its workbook still awaits (`CalendarEntry.pending`), as the home page and calendrier.ics say
    « suite des résultats attendue » (`_asked`)."""
    return [f"{_not_over(entry, reading)}, et sa fin, le {french.date_long(entry.last_day)}, est passée : suite des "
            f"résultats attendue, « reportgen remind » {_asked(entry, reading, after_days, 'la')}"
            for entry in entries if state_on(entry, reading.today, reading) == UNFINISHED]


def unfinished_without_fin(entries: list[CalendarEntry], reading: Reading) -> list[str]:
    """The build's note of each tournament not over whose calendar row gives no Fin (or that the
    calendar does not announce): due on no known day, it is never awaited nor reminded, and stayed
    « en cours » without a word. The regulation gives no day of its own (Art. VII's delays run from
    each round's launch): the secretary is told where to type it (`_without_fin`)."""
    return [f"{_not_over(entry, reading)}, et {_without_fin(entry, 'la suite')}"
            for entry in entries if entry.unfinished and entry.last is None]


def _not_over(entry: CalendarEntry, reading: Reading) -> str:
    """The opening of a note of a tournament its workbook shows not over, with what it still awaits."""
    return (f"{entry.workbook} : le tournoi n’est pas terminé dans le classeur {entry.of_event(reading.clubs)} "
            f"({entry.pending})")


def registered_without_fin(entries: list[CalendarEntry], reading: Reading) -> dict[str, str]:
    """By workbook, what to add to the note of each whose workbook holds its registrations alone and
    whose calendar row gives no Fin (or that the calendar does not announce): its results due on no
    known day, `reportgen remind` says it cannot remind it, and the build and `check` said only its
    circuit's note (the command that writes its round 1)."""
    return {entry.workbook: _without_fin(entry, "les résultats")
            for entry in entries if entry.registered and entry.last is None and not entry.cancelled}


def _without_fin(entry: CalendarEntry, them: str) -> str:
    """Why `reportgen remind` cannot ask its club for `them` (« la suite », « les résultats ») of a
    tournament its calendar gives no Fin, and where to type it (`fin_cell`). A row of calendrier.xlsx
    with a problem is never the cause of « le calendrier ne l’annonce pas »: that problem blocks
    every circuit (a league file's), so no circuit's report says the tournament running or
    registered, and no note is said beside it."""
    calendar = "le calendrier ne donne pas sa fin" if entry.where else "le calendrier ne l’annonce pas"
    return (f"{calendar} : « reportgen remind » ne pourra pas en demander {them} à son club — écrivez sa fin, le jour "
            f"prévu de sa finale, dans {entry.fin_cell()}")


def _asked(entry: CalendarEntry, reading: Reading, after_days: int, them: str) -> str:
    """The end of a note of results awaited: when `reportgen remind` asks its club for them
    (`remind_day`, after `remind_after_days`), and where its Fin is typed (`fin_cell`), to put off one
    postponed (`them`: « les » results, « la » rest)."""
    due = entry.remind_day(after_days)
    asked = (f"{them} demande à son club" if due <= reading.today
             else f"{them} demandera à son club le {french.date_long(due)}")
    return f"{asked} — un tournoi reporté : écrivez sa nouvelle fin dans {entry.fin_cell()}"


def state_on(entry: CalendarEntry, today: dt.date, reading: Reading) -> str:
    """`state` on the build's day `today` (the home page, calendrier.ics), « non reçu » in a season
    whose ranking is final (`final_season`): both said « résultats attendus » of a closed season's
    tournament never received while its final bulletin said « non reçus »."""
    return state(entry, today, today, final_season(entry.circuit, entry.date.year, reading))


def last_days(report: Report) -> dict[str, dt.date]:
    """The last day of each of the report's tournaments played over several days that is over, by
    event id: the day its final started (`Ranking.days`, as the site names it), for the calendar
    (`PlayedDays`). A tournament of one day, or one that runs, is not there."""
    found: dict[str, dt.date] = {}
    for ranking in report.rankings:
        if ranking.scope.kind == ScopeKind.EVENT and ranking.scope.start and ranking.final:
            last = ranking.days()[1]
            found[ranking.scope.event] = max(last, found.get(ranking.scope.event, last))
    return found


def running_days(report: Report) -> set[str]:
    """The report's tournaments played over several days that are not over (a pool tournament
    between its rounds: its event ranking has a first day and is not final), by event id."""
    return {ranking.scope.event for ranking in report.rankings
            if ranking.scope.kind == ScopeKind.EVENT and ranking.scope.start and not ranking.final}


def ranked(report: Report) -> set[str]:
    """The report's tournaments with a ranking of their own, by event id."""
    return {ranking.scope.event for ranking in report.rankings if ranking.scope.kind == ScopeKind.EVENT}


@dataclasses.dataclass
class PlayedDays:
    """The days of the tournaments played over several days, by event id, gathered from each
    circuit's report (`add`): their last day once over (`last_days`), those still running
    (`running_days`), and those whose workbook holds their registrations alone (a circuit whose
    tournaments are played over weeks, `CircuitInfo.played_over_weeks`, with no ranking of the
    tournament: no round played; it said « joué »). The build adds each circuit's report as it lays it
    out (it releases it then), a club's bulletin every report."""

    last: dict[str, dt.date] = dataclasses.field(default_factory=dict)
    running: set[str] = dataclasses.field(default_factory=set)
    ranked: set[str] = dataclasses.field(default_factory=set)
    pending: dict[str, str] = dataclasses.field(default_factory=dict)  # what a running one awaits (`Report.pending`)
    cancelled: set[str] = dataclasses.field(default_factory=set)  # those their workbook shows cancelled
    over_weeks: set[str] = dataclasses.field(default_factory=set)  # the circuits added played over weeks

    def add(self, slug: str, report: Report) -> None:
        self.last.update(last_days(report))
        self.running |= running_days(report)
        self.ranked |= ranked(report)
        self.pending.update(report.pending)
        self.cancelled |= report.cancelled
        if circuits.REGISTRY[slug].played_over_weeks:
            self.over_weeks.add(slug)

    def over(self, entries: list[CalendarEntry]) -> list[CalendarEntry]:
        """The calendar's played tournaments given their days: over, from their first day to their
        last (calendrier.ics and the home page's calendar said a pool tournament played over weeks on
        its first day alone); running, said so, over the days announced (its Fin: once its workbook
        arrived, its announced span was lost); cancelled, said so (neither running nor awaited: it was
        « en cours » for ever); registrations alone, not played."""
        return [self._of(entry) if entry.workbook else entry for entry in entries]

    def _of(self, entry: CalendarEntry) -> CalendarEntry:
        if entry.workbook in self.cancelled:
            return dataclasses.replace(entry, cancelled=True)
        if entry.workbook in self.last:
            return dataclasses.replace(entry, last=self.last[entry.workbook])
        if entry.workbook in self.running:
            return dataclasses.replace(entry, running=True, pending=self.pending.get(entry.workbook, ""))
        if entry.circuit in self.over_weeks and entry.workbook not in self.ranked:
            return dataclasses.replace(entry, registered=True)
        return entry


def over_their_days(entries: list[CalendarEntry], reports: Mapping[str, Report]) -> list[CalendarEntry]:
    """The calendar with each played tournament over its days, from every report's event rankings
    (`PlayedDays`): a club's own bulletin lists them as calendrier.ics and the site say them (« du 5
    septembre au 6 octobre 2026 »), where the build gives them as it lays each circuit out."""
    days = PlayedDays()
    for slug, report in reports.items():
        days.add(slug, report)
    return days.over(entries)


# The revisions calendrier.ics published, when a build is given no other place to keep them (a
# library's build: tests, benchmarks): with the build's state, in outputs/.reportgen. `reportgen
# build` keeps them in archive/ (delivery/archive_layout.py `CALENDAR_REVISIONS`), which `make clean` keeps.
REVISIONS = "calendar-revisions.json"
_REVISIONS_FORMAT = 1


@dataclasses.dataclass(frozen=True)
class Revisions:
    """Where the revisions of calendrier.ics's events are kept between builds (render/ical.py
    `Revision`: each event's SEQUENCE, the day of its revision, a digest of what it said), so that an
    event unchanged keeps its SEQUENCE and DTSTAMP and one revised goes one higher, never lower.

    Read back from `path` and from the calendrier.ics `outputs` holds, the higher SEQUENCE of the two
    for each event: a file published before they were kept (its SEQUENCE from the state of its
    results, up to 5) is gone on from, never restarted at 0, which a calendar program would ignore.
    Kept in `path` before calendrier.ics is written: a build stopped between the two writes the same
    file again."""

    path: Path
    outputs: Path
    option: str  # the command line's option that names the folder of `path`, said when it cannot be written

    @classmethod
    def kept(cls, outputs: Path, path: Path | None = None) -> Revisions:
        """Those of the calendar published in `outputs`, kept in `path` (`reportgen build`'s archive/),
        else in outputs/.reportgen."""
        from reportgen.ingest.read_cache import FOLDER

        return cls(path, outputs, "--archive") if path else cls(outputs / FOLDER / REVISIONS, outputs, "--outputs")

    def read(self) -> dict[str, Revision]:
        from reportgen.ingest.read_cache import load_json
        from reportgen.render.ical import revisions_in

        published = self.outputs / ICS_FILE
        try:
            found = revisions_in(published.read_bytes()) if published.is_file() else {}
        except OSError:
            found = {}
        for key, revision in _decoded(load_json(self.path)).items():
            if key not in found or revision.sequence >= found[key].sequence:
                found[key] = revision
        return found

    def write(self, revisions: Mapping[str, Revision]) -> None:
        """Kept (atomically, only when changed). A folder the machine does not let us write is the
        build's OutputError, named with its option (archive/: `--archive`): calendrier.ics is then
        not written, the file its subscribers have stays; the build publishes the rest and says it
        after (pipeline/building.py: its state not recorded, the next build writes the calendar)."""
        from reportgen.render.files import OutputError, write_atomic

        events = {key: {"digest": revision.digest, "sequence": revision.sequence, "day": revision.day.isoformat()}
                  for key, revision in sorted(revisions.items())}
        data = json.dumps({"format": _REVISIONS_FORMAT, "events": events}, indent=1).encode() + b"\n"
        try:
            write_atomic(self.path, data)
        except OutputError as failure:
            raise OutputError(failure.folder, failure.error, f"{ICS_FILE} n’a pas été mis à jour", self.option) from None


def _decoded(data: Any) -> dict[str, Revision]:
    """The revisions of a kept file; none of a file missing, damaged or of another format."""
    from reportgen.render.ical import Revision

    if not (isinstance(data, dict) and data.get("format") == _REVISIONS_FORMAT and isinstance(data.get("events"), dict)):
        return {}
    found = {}
    for key, event in data["events"].items():
        try:
            found[key] = Revision(str(event["digest"]), int(event["sequence"]), dt.date.fromisoformat(event["day"]))
        except (TypeError, KeyError, ValueError):
            continue
    return found


@dataclasses.dataclass(frozen=True)
class MadeCalendar:
    """calendrier.ics's bytes and the revisions they publish (`calendar_bytes`)."""

    data: bytes
    revisions: dict[str, Revision]


def calendar_bytes(entries: list[CalendarEntry], announced: bool, blocked: bool, league: str,
                   reading: Reading, today: dt.date, revisions: Revisions) -> MadeCalendar | None:
    """outputs/calendrier.ics's bytes when the build writes it: inputs/ holds a calendrier.xlsx without
    problems (`blocked`: it has some, the previous file stays). Made while the PDFs render, written
    once the circuits are published (`write_calendar`). Each tournament's results said as the home
    page says them on the build's day (`state`); each event a revision of the one last published
    (`revisions`)."""
    if not announced or blocked:
        return None
    from reportgen.render.ical import to_ics

    data, published = to_ics(entries, league, {slug: info.title for slug, info in circuits.REGISTRY.items()},
                             reading.clubs, lambda entry: state_on(entry, today, reading), today, revisions.read())
    return MadeCalendar(data, published)


def write_calendar(outputs: Path, announced: bool, made: MadeCalendar | None, revisions: Revisions) -> Path | None:
    """outputs/calendrier.ics written (atomically, only when its bytes change) as `calendar_bytes`
    made it, its revisions kept first (`Revisions`); removed when calendrier.xlsx is no longer there
    (`announced`: its revisions kept, for a calendar announced again); left as it is when `made` is
    None. The path written, or None (unchanged, or not written)."""
    from reportgen.render.files import OutputError, write_atomic

    target = outputs / ICS_FILE
    if not announced:
        if not target.exists():  # the usual case: no calendar, and nothing to touch (a read-only outputs/ too)
            return None
        try:
            target.unlink()
        except OSError as error:
            raise OutputError(outputs, error, "l’ancien calendrier n’a pas pu être retiré") from None
        return None
    if made is None:
        return None
    revisions.write(made.revisions)
    return target if write_atomic(target, made.data) else None


def calendar_blocked(problems: list[Problem]) -> bool:
    """calendrier.xlsx has problems of its own."""
    return any(problem.where.path.casefold() == CALENDAR_FILE for problem in problems)


def for_site(entries: list[CalendarEntry], announced: bool, reading: Reading,
             today: dt.date) -> tuple[list[dict[str, Any]], str]:
    """The home page's calendar when inputs/ announces one (calendrier.xlsx): the tournaments of the
    build's season and of every later one announced, played or to come, in date order (December's
    build lists next January's beside this month's; from the inputs and the build's day, which the
    build's key holds: the same inputs the same day give the same page), each by its
    `CalendarEntry.title` (its clubs: a row may name only its club), with its place when the title
    does not already say it, whether it is `past` (its results in, never received in a season whose
    ranking is final, or cancelled), and the iCalendar file to subscribe to (`write_calendar` writes it).
    Before the build's season has a tournament, the latest season's. Without calendrier.xlsx,
    nothing: the played tournaments are on the season pages."""
    if not announced or not entries:
        return [], ""
    first = min(today.year, max(entry.date.year for entry in entries))
    titles = {slug: info.title for slug, info in circuits.REGISTRY.items()}
    shown = []
    for entry in sorted(entries, key=lambda e: (e.date, e.circuit, e.name)):
        if entry.date.year < first:
            continue
        # A title made of its place (« Tournoi du Grau-du-Roi ») or naming it (« Open de Perpignan »),
        # or its circuit's (« Tournoi en ligne par poules »), says it already: as a word, as its
        # card says it (« Lyon » of « DipLyon » is not said).
        circuit = titles.get(entry.circuit, entry.circuit)
        said = not entry.name or french.said_in(entry.place, entry.name, circuit)
        known = state_on(entry, today, reading)
        shown.append({"day": entry.days(),
                      "title": f"{entry.title(reading.clubs)} ({circuit})",
                      "place": "" if said else entry.place,
                      "status": HOME_WORDS[known],
                      # over: nothing more to come of it (`Site.home` lists it apart, after those to come)
                      "past": known in (PLAYED, NOT_RECEIVED, CANCELLED)})
    return shown, ICS_FILE


# What the home page's calendar says after a tournament (`state`): nothing once its results are in.
HOME_WORDS = {PLAYED: "", RUNNING: RUNNING, STARTED: RUNNING, REGISTERED: REGISTERED, AWAITED: "résultats attendus",
              NOT_RECEIVED: "résultats non reçus", UNFINISHED: "suite des résultats attendue", CANCELLED: CANCELLED,
              COMING: COMING}
