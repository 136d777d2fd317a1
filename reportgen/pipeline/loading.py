"""The build's first steps: discover → read → parse → normalise (pipeline/building.py does the rest).

`load()` reads and validates everything in inputs/ once, into a `League`: the settings, the
clubs and players, the calendar and each circuit's events and results, with their problems. A
workbook read before is not read again (ingest/read_cache.py). Importing this module loads no
pandas: a build that has nothing to do returns before it is needed.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import gc
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from reportgen import circuits, clock, config, french
from reportgen.collector import uncollected
from reportgen.ingest.calendar import CALENDAR_FILE, CalendarEntry, league_calendar
from reportgen.ingest.directories import CLUBS_FILE, PLAYERS_FILE, ClubDirectory, read_clubs, read_players
from reportgen.ingest.discover import discover, folder_named
from reportgen.ingest.known_pairs import KnownPairs
from reportgen.ingest.players import Identities, read_distinct
from reportgen.ingest.read_cache import ReadCache
from reportgen.ingest.seasons import read_closed
from reportgen.ingest.text import clean_text, compared, normalise_label
from reportgen.ingest.tournament import TournamentSheet, read_tournament_sheet
from reportgen.ingest.values import date as parse_date
from reportgen.ingest.workbook import (
    Sheet,
    Workbook,
    hidden_notices,
    label_of,
    misnamed,
    read_workbooks,
    start_readers,
    utf8_named,
)
from reportgen.model import SILENT, Event, Problem, Progress, SourceRef
from reportgen.pipeline import parsed as handed_over
from reportgen.problems import DUPLICATE_TOURNAMENT, MISSING_CLUBS, SEASON_CLOSED, reopen
from reportgen.site.privacy import Public

if TYPE_CHECKING:
    import pandas as pd

    from reportgen.circuits.base import Reading


def _empty_results() -> pd.DataFrame:
    import pandas as pd

    return pd.DataFrame()


@dataclass
class CircuitInputs:
    events: list[Event] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    results: pd.DataFrame = field(default_factory=_empty_results)  # set once the events are read
    listed: pd.DataFrame = field(default_factory=_empty_results)  # people listed without a result (Event.listed)


# The league's own workbooks: no tournament's.
LEAGUE_FILES = (CLUBS_FILE, PLAYERS_FILE, CALENDAR_FILE)


@dataclass(frozen=True)
class Unread:
    """A tournament workbook of inputs/ that arrived but that no circuit could read (its problems
    are to be corrected), and what it says of itself: `reportgen remind` asks no club for a
    workbook this one may be (delivery/remind.py)."""

    label: str  # its path relative to inputs/
    # Its circuit when its `Tournoi` sheet says it; else the circuits it points to (its folder, its
    # sheets: `_circuits_it_points_to`); else every scored circuit: it may be any one's.
    circuits: tuple[str, ...]
    date: dt.date | None = None  # its `Tournoi` sheet's Date, when that cell reads


@dataclass
class League:
    """Everything read from inputs/, validated, before scoring."""

    settings: config.League
    reading: Reading
    circuits: dict[str, CircuitInputs]
    problems: list[Problem]  # problems no circuit owns: they block every circuit
    notices: list[str]
    # Problems that block nothing (model.Level.WARNING: a club's e-mail address...), wherever found:
    # listed by check, build and verification.html; never in `problems` nor a circuit's.
    warnings: list[Problem] = field(default_factory=list)
    # The season's tournaments, played or announced (inputs/calendrier.xlsx), by date: for the
    # site, the iCalendar file, the provisional rankings and `reportgen remind`.
    calendar: list[CalendarEntry] = field(default_factory=list)
    announced: bool = False  # inputs/ holds a calendrier.xlsx
    # What the public site may show of each player (joueurs.xlsx's `Publication`, site/privacy.py)
    public: Public = field(default_factory=Public)
    # The pairs of names joueurs.xlsx says are two people: what `player_notices` leaves unsaid.
    distinct: set[frozenset[str]] = field(default_factory=set)
    # The player joueurs.xlsx makes of each of its spellings (name key -> id): one licence typed
    # with two of one player's spellings is no question for `player_notices`.
    spelled: dict[str, str] = field(default_factory=dict)
    # The tournament workbooks that arrived and could not be read (`Unread`), by label.
    unread: list[Unread] = field(default_factory=list)
    # Where each tournament's date is typed (its `Tournoi` sheet's Date field), by its workbook's label:
    # what `check` names of one that changes a final ranking already published (cli.py).
    dates: dict[str, SourceRef] = field(default_factory=dict)

    def problems_of(self, slug: str) -> list[Problem]:
        return sorted(self.problems + self.circuits[slug].problems)

    def all_problems(self) -> list[Problem]:
        return sorted({p for inputs in self.circuits.values() for p in inputs.problems} | set(self.problems))

    def settings_held(self) -> bool:
        """reportgen.toml has a blocking problem. What it says may be wrong anywhere (the league's
        name, the site's address): as every circuit, the site and calendrier.ics publish nothing new
        (pipeline/building.py), rather than the file's half that reads right."""
        return any(p.blocking and p.where.path == config.SETTINGS_FILE for p in self.problems)

    def club_problems(self) -> list[Problem]:
        """clubs.xlsx's blocking problems. The circuits that name clubs own them (the others build);
        a command that works from the directory itself (`mail`, `players`) stops for them too."""
        return [p for p in self.all_problems() if p.where.path.casefold() == CLUBS_FILE]


def _circuit_slug(value: object) -> str:
    from reportgen.ingest.values import BadValue, text

    wanted = normalise_label(text(value))
    for slug in circuits.REGISTRY:
        if normalise_label(slug) == wanted:
            return slug
    raise BadValue(f"le circuit « {text(value)} » n’existe pas",
                   "écrivez l’un de : " + ", ".join(circuits.REGISTRY))


def _circuits_of_folders(label: str) -> list[str]:
    """The scored circuits a folder of a workbook's path is named after (inputs/<circuit>/…)."""
    folders = {normalise_label(part) for part in Path(label).parts[:-1]}
    return [slug for slug in circuits.CIRCUITS if normalise_label(slug) in folders]


def _unread(label: str, suspects: Collection[str], sheet: TournamentSheet | None) -> Unread:
    """What a workbook no circuit read says of itself (`Unread`): it may be any circuit's that
    nothing points to, and its date is read as typed, its problems said where its circuit reads it."""
    day = sheet.read("date", parse_date, [], required=False) if sheet is not None else None
    return Unread(label, tuple(suspects or circuits.CIRCUITS), day if isinstance(day, dt.date) else None)


def _circuits_it_points_to(workbook: Workbook) -> list[str]:
    """The scored circuits a workbook without a readable `Circuit` concerns: a folder named after a
    circuit (inputs/<circuit>/…), else the sheets only its workbooks have (`CircuitInfo.sheets`);
    none when nothing points anywhere."""
    named = _circuits_of_folders(workbook.label)
    if named:
        return named
    sheets = {normalise_label(sheet.name) for sheet in workbook.sheets}
    return sorted(slug for slug in circuits.CIRCUITS
                  if sheets & {normalise_label(name) for name in circuits.REGISTRY[slug].sheets})


def load(inputs: Path, today: dt.date | None = None, progress: Progress = SILENT,
         reads: ReadCache | None = None, digests: dict[str, str] | None = None,
         players_noticed: bool = True, frozen: bool = False, senders: Mapping[str, str] | None = None) -> League:
    """Read and validate everything in `inputs`. `reads` (with `digests`, the content hash of each
    file by its path relative to inputs/) gives the sheets of the workbooks read before: only the
    others are read, and what is read is added to it (a file `digests` leaves out is read, not
    added). Without `players_noticed`, the notices on the players (newcomers, names probably of one
    person), which come last, are left to the caller (`player_notices(league.circuits,
    league.distinct, spelled=league.spelled)`): the build says them once its first PDFs are on their
    way, not before (thirteenth round). With `frozen`, every object the process holds
    is frozen (`gc.freeze`) before the collector is enabled again: the caller, which keeps the league
    to its end, calls `gc.unfreeze()` then (`pipeline.build`). `senders`: the club that sent a
    workbook, by its path, when the caller knows it (`inbox`'s attachment; the ones `inbox` filed, delivery/filers.py `filed_senders`): the calendar
    matches it with its sender's row first (ingest/calendar.py)."""
    # The cycle collector paused for the whole of it, not for the reading alone: parsing every
    # workbook and putting the tables together make millions of small containers and few cycles,
    # and the collector's passes were a fifth of a new tournament's load() at 10x, more at 100x
    # (docs/performance.md, tenth round).
    with uncollected():
        league = _load(inputs, today or clock.today(), progress, reads, digests, players_noticed, senders=senders)
        if frozen:
            # Enabled again, the collector's first pass would walk every object load made (all of
            # them young), and the next ones again, to find no cycle: the league holds none (checked
            # with gc.collect: 0 freed once it is dropped). Frozen, they are still freed by
            # reference counting (fourteenth round).
            gc.freeze()
        return league


def circuit_events(inputs: Path, slugs: Collection[str], today: dt.date | None = None,
                   reads: ReadCache | None = None, digests: dict[str, str] | None = None) -> dict[str, list[Event]]:
    """The events of these circuits in `inputs`, as `load` parses them, and nothing more: no other
    circuit's workbook parsed, no results table, no player read (delivery/seasons.py: the seasons
    inputs/ holds). With `reads` and `digests`, each parse is kept there for the `load` that follows
    (pipeline/parsed.py): a workbook it parsed is not parsed again."""
    with uncollected():
        league = _load(inputs, today or clock.today(), SILENT, reads, digests, False, events_only=slugs)
    return {slug: found.events for slug, found in league.circuits.items() if slug in slugs}


def _load(inputs: Path, today: dt.date, progress: Progress, reads: ReadCache | None,
          digests: dict[str, str] | None, players_noticed: bool,
          events_only: Collection[str] | None = None, senders: Mapping[str, str] | None = None) -> League:
    problems: list[Problem] = []
    notices: list[str] = []
    folder_named(inputs)  # a mistyped --inputs: no league to read
    paths, skipped = discover(inputs)
    known: dict[Path, tuple[int, list[Sheet]]] = {}
    handed: dict[str, handed_over.Parsed] = {}  # by label: the parses a first reading left (circuit_events)
    if reads is not None and digests is not None:
        taking = bool(reads.parsed) and events_only is None
        for path in paths:
            digest = digests.get(path.relative_to(inputs).as_posix())
            taken = handed_over.take(reads, digest, label_of(path, inputs)) if taking and digest is not None else None
            if taken is not None:  # its sheets as that reading had them, not decoded again
                known[path] = taken.size, taken.sheets
                handed[taken.label] = taken
                continue
            entry = reads.get(digest) if digest is not None else None
            if entry is not None:
                known[path] = entry
    new = [path for path in paths if path not in known]
    # Read before the circuits (pandas) are imported and the progress bar shows, which both start
    # threads: the reading workers are forked, in milliseconds, rather than spawned.
    start_readers(new)
    if new:
        progress.phase("lecture des classeurs", len(new))
    fresh: dict[Path, tuple[int, list[Sheet]]] = {}
    workbooks, unreadable = read_workbooks(paths, inputs, known, fresh, done=progress.advance)
    from reportgen.circuits.base import Reading
    from reportgen.ingest.normalise import listed_table, results_table

    defaults = {slug: circuit.Settings() for slug, circuit in circuits.CIRCUITS.items()}
    found = {slug: CircuitInputs() for slug in circuits.CIRCUITS}
    for path in skipped:
        notices.append(f"{label_of(path, inputs)} : ignoré, seuls les classeurs (.xlsx, .xlsm, .xlsb, .xls, .ods) "
                       "sont lus (ouvrez-le dans Excel ou LibreOffice et enregistrez-le au format .xlsx)")
    settings = config.load(inputs, defaults, problems)
    # The league's name is printed everywhere: no control character reaches an output.
    settings = dataclasses.replace(settings, name=clean_text(settings.name))
    if reads is not None and digests is not None:
        for path, (size, sheets) in fresh.items():
            # a file without a digest is read and not kept: a caller that wants one file's sheets back
            # hashes that file alone (delivery/inbox_filing.py `examine`: the attachment)
            if (digest := digests.get(path.relative_to(inputs).as_posix())) is not None:
                reads.put(digest, size, sheets)
    # A file we cannot open may belong to any circuit; clubs.xlsx is the directory's (below).
    problems.extend(p for p in unreadable if p.where.path.casefold() != CLUBS_FILE)
    by_name = {wb.label.casefold(): wb for wb in workbooks}

    tournaments: list[tuple[Workbook, TournamentSheet, str]] = []  # a workbook, its Tournoi sheet, its circuit
    # Those that arrived and could not be read: a file no reader opens may be any tournament's.
    unread = [_unread(label, _circuits_of_folders(label), None)
              for label in sorted({p.where.path for p in unreadable}) if label.casefold() not in LEAGUE_FILES]
    for workbook in workbooks:
        if workbook.label.casefold() in LEAGUE_FILES:
            continue
        unknown: list[Problem] = []  # its circuit cannot be read: whom does it concern?
        sheet = read_tournament_sheet(workbook, unknown, {})
        slug = sheet.read("circuit", _circuit_slug, unknown) if sheet is not None else None
        # A name in no UTF-8 is refused in its circuit alone: read for its `Circuit`, never parsed
        # (its name reaches no output), the other circuits publish.
        refused = [] if utf8_named(workbook.path) else [misnamed(workbook)]
        unknown += refused
        if sheet is None or slug is None:
            suspects = _circuits_it_points_to(workbook)
            for suspect in suspects:
                found[suspect].problems.extend(unknown)
            if not suspects:
                problems.extend(unknown)  # it could be any circuit's
            unread.append(_unread(workbook.label, suspects, sheet))
            continue
        if circuits.REGISTRY[slug].status != circuits.SCORED:
            # Recognised but not scored yet: set aside and said, it does not block the others.
            notices.append(f"{workbook.label} : le circuit {slug} n’est pas encore pris en charge, "
                           "ce classeur est mis de côté")
            continue
        if refused:
            found[slug].problems.extend(refused)
            unread.append(_unread(workbook.label, [slug], sheet))
            continue
        # Read again with its circuit's own fields only: another circuit's labels mean nothing here.
        own = read_tournament_sheet(workbook, [], circuits.tournament_fields(slug))
        tournaments.append((workbook, own or sheet, slug))

    needs_clubs = sorted({slug for _, _, slug in tournaments if circuits.REGISTRY[slug].needs_clubs})
    clubs, of_clubs = _club_directory(by_name.get(CLUBS_FILE), unreadable, needs_clubs, notices)
    # A blocking problem of the directory holds back the circuits whose workbooks name clubs, and
    # those only: the others' rankings owe it nothing (README, « A circuit with any problem publishes
    # nothing new... the other circuits still build »). A warning (an Email cell) blocks nothing.
    naming = [slug for slug in circuits.CIRCUITS if circuits.REGISTRY[slug].needs_clubs]
    for problem in of_clubs:
        if problem.blocking and naming:
            for slug in naming:
                found[slug].problems.append(problem)
        else:
            problems.append(problem)  # a warning, set apart below
    players = PLAYERS_FILE in by_name and events_only is None
    directory = read_players(by_name[PLAYERS_FILE], problems) if players else []
    distinct = read_distinct(by_name[PLAYERS_FILE], problems) if players else set()
    reading = Reading(clubs=clubs, today=today, league=settings.name, closed=read_closed(inputs, problems))
    parsed: list[tuple[Workbook, str, Event | None]] = []
    fits: dict[int, bool] = {}  # by the first reading's Reading: the same as this one, every field
    for workbook, sheet, slug in tournaments:
        taken = handed.get(workbook.label)
        if taken is not None and taken.slug == slug and fits.setdefault(
                id(taken.reading), handed_over.same(taken.reading, reading)):
            event = taken.replay(workbook, found[slug].problems)
        elif events_only is not None and slug not in events_only:
            continue  # the load that follows parses it
        else:
            before = len(found[slug].problems)
            event = circuits.CIRCUITS[slug].parse(workbook, sheet, reading, found[slug].problems)
            if events_only is not None and reads is not None and digests is not None:
                _keep(reads, digests.get(workbook.path.relative_to(inputs).as_posix()),
                      known.get(workbook.path) or fresh.get(workbook.path), workbook, slug, reading, event,
                      found[slug].problems[before:])
        if event is not None:
            found[slug].events.append(event)
        elif events_only is None:
            unread.append(_unread(workbook.label, [slug], sheet))
        parsed.append((workbook, slug, event))
    if events_only is not None:  # what circuit_events wants: nothing after the parse touches them
        return League(settings, reading, found, problems, notices)
    for slug, problem in same_tournaments(parsed):
        found[slug].problems.append(problem)
    played = [(sheet, slug, event) for (_, sheet, slug), (_, _, event) in zip(tournaments, parsed) if event]
    for sheet, slug, event in played:  # a workbook a club sent late, its season closed meanwhile
        if (closing := closed_before(slug, event, reading.closed)) is not None:
            found[slug].problems.append(SEASON_CLOSED(sheet.ref("date"), season=event.date.year,
                                                      closed=french.date_long(closing),
                                                      day=french.date_long(event.date),
                                                      reopen=reopen(event.date.year)))

    entries = [entry for inputs_ in found.values() for event in inputs_.events for entry in event.entries]
    identities = Identities(directory, entries, problems)
    for inputs_ in found.values():
        if inputs_.events:
            inputs_.results = results_table(inputs_.events, identities, clubs, inputs_.problems)
            inputs_.listed = listed_table(inputs_.events, identities)
    notices += [notice for workbook in workbooks for notice in hidden_notices(workbook)]
    if players_noticed:
        notices += player_notices(found, distinct, spelled=identities.directory_ids)
    titles = {slug: info.title for slug, info in circuits.REGISTRY.items()}
    season_calendar = league_calendar(by_name.get(CALENDAR_FILE), played, titles, clubs, problems, senders)
    announced = CALENDAR_FILE in by_name or any(p.where.path.casefold() == CALENDAR_FILE for p in unreadable)
    warnings = _set_apart_warnings([problems, *(inputs_.problems for inputs_ in found.values())])
    return League(settings, reading, found, problems, notices, warnings, calendar=season_calendar,
                  announced=announced, public=Public(identities.publication), distinct=distinct,
                  spelled=identities.directory_ids, unread=unread,
                  dates={event.id: sheet.ref("date") for sheet, _, event in played})


def closed_before(slug: str, event: Event, closed: Mapping[int, dt.date]) -> dt.date | None:
    """The day `event`'s season was closed (`closed`: inputs/saisons.toml's), when the event comes
    after it in a circuit whose season's ranking the closing made final (`CircuitInfo.final_when_closed`):
    that ranking would count it all the same, and change once called final. The season is the year
    of the tournament's date, whatever the closing day: the Grand Sud regulation's §1, « Le classement
    final ne prend en compte que les points obtenus dans les tournois de l’année N »
    (docs/regulations/INTERPRETATIONS.md: « Final ranking of year N: only year-N tournaments »), the
    Tour de France's winner having « le meilleur total à la fin de l’année ». So a later tournament
    is never left out: the build refuses it (`SEASON_CLOSED`, at its date) until its date is
    corrected or the season opened again (`reportgen season open`), and `reportgen season close`
    refuses a day before one. On the closing day itself it is the season's last, and counts, as does
    one of an earlier day that comes late: the build names the final ranking it changes
    (render/changes.py `_final_changed`)."""
    closing = closed.get(event.date.year) if circuits.REGISTRY[slug].final_when_closed else None
    return closing if closing is not None and closing < event.date else None


def _keep(reads: ReadCache, digest: str | None, entry: tuple[int, list[Sheet]] | None, workbook: Workbook,
          slug: str, reading: Reading, event: Event | None, problems: list[Problem]) -> None:
    """A workbook's parse kept in `reads` for the load that follows, by its file's `digest`, with
    the sheets that load is to take and its reader's answer size (`entry`: known before, or read now)."""
    if digest is not None and entry is not None and entry[1] is workbook.sheets:
        handed_over.keep(reads, digest, handed_over.Parsed(workbook.label, slug, reading, entry[0], workbook.sheets,
                                                           list(workbook.consulted), event, problems))


def _club_directory(workbook: Workbook | None, unreadable: list[Problem], needed: list[str],
                    notices: list[str]) -> tuple[ClubDirectory, list[Problem]]:
    """clubs.xlsx and its problems: unreadable, absent while workbooks of a circuit that names clubs
    (`needed`) are present, or its own columns, rows and cells. With a blocking one, the directory
    is `broken`: a directory that cannot be read (or is absent) would make every club « inconnu »,
    said once per workbook and per calendar row; its problem is the cause, said once (build prints
    it first), and the clubs are checked again once it is fixed."""
    problems = [p for p in unreadable if p.where.path.casefold() == CLUBS_FILE]
    clubs = ClubDirectory()
    if workbook is not None:
        clubs = read_clubs(workbook, problems)
    elif problems:
        pass  # the file is there but cannot be read: said
    elif needed:
        problems.append(MISSING_CLUBS(SourceRef(CLUBS_FILE), workbooks=", ".join(needed)))
    else:
        notices.append(f"{CLUBS_FILE} : absent, aucun classeur présent n’en a besoin")
    if any(problem.blocking for problem in problems):
        clubs = dataclasses.replace(clubs, broken=True)
    return clubs, problems


def _set_apart_warnings(lists: list[list[Problem]]) -> list[Problem]:
    """The warnings taken out of each list (in place), so that what blocks is what is left."""
    warnings = []
    for problems in lists:
        warnings += [p for p in problems if not p.blocking]
        problems[:] = [p for p in problems if p.blocking]
    return sorted(set(warnings))


def _cells_digest(workbook: Workbook) -> str:
    """What a workbook holds, cell by cell: the same for two copies of one file (renamed, or saved
    again), whatever their bytes."""
    import hashlib

    digest = hashlib.sha256()
    for sheet in workbook.sheets:
        digest.update(repr((sheet.name, sheet.hidden, [list(row) for row in sheet.rows])).encode("utf-8", "replace"))
    return digest.hexdigest()


def same_tournaments(parsed: list[tuple[Workbook, str, Event | None]]) -> list[tuple[str, Problem]]:
    """Two workbooks of one tournament (the same cells, what their circuit calls the same
    edition: `edition`, circuits/base.py, or one club's of the same name and day: `same_named`): one problem for each copy after the first, naming both
    files. Both scored, a tournament would count twice, or replace itself (Grand Sud §1)."""
    first: dict[tuple[str, object], str] = {}
    said: set[str] = set()
    problems: list[tuple[str, Problem]] = []
    for workbook, slug, event in sorted(parsed, key=lambda item: item[0].label):
        keys: list[tuple[object, str, str]] = [(("cells", _cells_digest(workbook)), "les mêmes cellules",
                                                ", c’est une copie")]
        edition = getattr(circuits.CIRCUITS[slug], "edition", None)
        if event is not None and edition is not None:
            key, words = edition(event)
            keys.append((("edition", key), words, " ; s’il s’agit de deux tournois, corrigez dans la feuille "
                         "« Tournoi » de l’un sa date, son club ou sa série"))
        if event is not None and (named := same_named(slug, event)) is not None:
            keys.append((named, "même club, même nom, même date", " ; s’il s’agit de deux tournois, donnez à l’un "
                         "un autre nom dans sa feuille « Tournoi »"))
        for key, words, then in keys:
            other = first.setdefault((slug, key), workbook.label)
            if other != workbook.label and workbook.label not in said:
                said.add(workbook.label)
                problems.append((slug, DUPLICATE_TOURNAMENT(SourceRef(workbook.label, "Tournoi"), other=other,
                                                            same=words, label=workbook.label, then=then)))
    return problems


def same_named(slug: str, event: Event) -> tuple[object, ...] | None:
    """One tournament whatever else its `Tournoi` sheet says, for a circuit that knows its organiser:
    one club's workbooks of the same name on the same day. A club told « donnez à l’un une « Série »
    à lui » sent its tournament again with one, and both were scored (an edition is club, date and
    series); `inbox` takes it for a new version by the same key (delivery/inbox_filing.py). None for
    the other circuits: their sheets name no club, and the name and day alone would make one of two
    clubs' tournaments of a common name on one day (« Tournoi de printemps »), refusing one; `check`
    compares their cells only, while `inbox` (`_edition`) takes a workbook of a name and day already
    filed for a new version of it (whose club's it is then decided by `owners`)."""
    organiser = getattr(circuits.CIRCUITS[slug], "organiser", None)
    if organiser is None:
        return None
    return ("named", organiser(event).code, compared(event.name), event.date)


NEWCOMERS_LISTED = 12  # beyond, the count and the first ones


def player_notices(found: dict[str, CircuitInputs], distinct: set[frozenset[str]],
                   known: KnownPairs | None = None, spelled: dict[str, str] | None = None) -> list[str]:
    """The newcomers of each circuit's latest workbooks, and the pairs that are probably one person
    (`known`: the pairs an earlier build found in each group of names, ingest/known_pairs.py;
    `spelled`: `League.spelled`)."""
    from reportgen.ingest.duplicates import newcomers, probable_duplicates

    notices = []
    for slug, inputs_ in found.items():
        new = newcomers(inputs_.results)
        if new:
            notices.append(f"{slug} : {french.plural(len(new), 'nouveau joueur', 'nouveaux joueurs')} dans les derniers "
                           f"classeurs : {french.listed(new, NEWCOMERS_LISTED)}")
        # Within a circuit: a Diplomacy player and a Des Chiffres et des Lettres player are two people.
        notices += probable_duplicates(inputs_.results, distinct, inputs_.listed, known, spelled)
    return notices





