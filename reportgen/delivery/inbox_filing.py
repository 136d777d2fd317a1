"""What `reportgen inbox` does with a workbook a club sent: checked as `reportgen check` checks
inputs/, then filed under inputs/ or kept aside.

The check: a temporary copy of inputs/ (hard links, so nothing is copied) with the attachment added
under `courriel/`, read and scored by the pipeline as `check` does (the pre-check's hostile-file
rules included: a zip bomb in an e-mail is a located refusal); only the problems located in that
file count, so a broken file elsewhere never refuses a club's good one. The same tournament already
in inputs/ (the circuit's `edition`, else the same name and date) is the version it replaces: the
« two workbooks of one tournament » problem that pair gives is expected, not the club's fault; it
is then checked again without that version, as inputs/ will be once it is filed, so that what filing
it changes besides that version (`Verdict.notes`: the series' edition it replaces) is found.
The same bytes as that version (`unchanged`) replace nothing: the club is told so, nothing is
written or kept (`same`). The same bytes its club was refused, or held, before are checked again (the
league's settings, or the secretary's decision, may have changed since); refused or held again, they
share the copy kept the first time, and the club is told it is that workbook when what it was told is
still true: the same problems, the tournament of the same clubs (`again`).

A workbook whose circuit waits for one it depends on (the Masters while the Grand Sud has workbooks
to correct: the hold `upstream`, model.Level.HELD) is judged on its own problems, as `make check`
counts it: the hold is no problem of the club's (`Verdict.waits`, `decide`).

A warning located in the workbook (model.Level.WARNING: a player's empty Prénom, which only the club
can complete) refuses nothing, as in `make check`; it is kept with the decision and said to the club
whatever the workbook's fate, filed, refused or held (`Verdict.warnings`, `Filed.warnings`). The
league's own warnings (a club's Email in clubs.xlsx, joueurs.xlsx, another workbook of inputs/) are
not its.

A tournament is its organising club's: a workbook that would replace a version another club's
message filed, or (a circuit with `organiser`, the Grand Sud's `Club` field) whose earlier version
or its own sheet names another club than the sender; in a circuit whose sheets name no club, the
club calendrier.xlsx announces for it), is held: kept aside like a refused one, never filed, for the
league secretary to decide (a club never silently replaces another's results). Sent again while it
waits, it asks her nothing new: the club is told it still waits for her decision.

A new version of a workbook of the secretary's that loses what she typed is held the same way (`mine`,
`Replaced.hers`): one she edited after the inbox filed it, or found it there (its bytes no longer those
the database recorded; inbox_run.py `Inbox._edited`), and one she put in inputs/ herself whose club
nothing names (a circuit whose sheets name none, no calendar row). Filed, the club's version replaced
her edit, kept in the archive, her line saying only « remplace … » and a build publishing without her
change; held, nothing she typed leaves inputs/ without her deciding it, and she is told which cells
on her line and in her list. A version that keeps every value of hers (inbox_cells.py: a round her command
wrote with the club's results typed in, a workbook she prepared with the host's scores)
is filed as before: holding it held the league's normal flow at every round.

An accepted workbook sent in reply to a refusal (its thread) may be that refused one corrected under
another file name, or with its date or name corrected: it then names it (`corrects`, `Filed.corrects`),
which is no longer awaited.

Names from mail are data, never a path: the filed name is built from the workbook's circuit, season,
date, club and name, each reduced to [a-z0-9-]."""

from __future__ import annotations

import contextlib
import dataclasses
import datetime as dt
import hashlib
import json
import os
import re
import shutil
import unicodedata
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from reportgen import circuits, clock, french
from reportgen.delivery.inbox_cells import Lost
from reportgen.ingest import discover
from reportgen.ingest.calendar import CalendarEntry
from reportgen.ingest.directories import Club, ClubDirectory
from reportgen.ingest.read_cache import ReadCache
from reportgen.ingest.sheets import Sheet, Workbook
from reportgen.ingest.text import compared
from reportgen.ingest.tournament import read_name_and_date, read_tournament_sheet
from reportgen.model import FIELDS_SHEET, Event, Level, Problem, SourceRef, cells_said, in_sheet
from reportgen.problems import (
    DUPLICATE_TOURNAMENT,
    LAYOUT,
    MISSING_COLUMN,
    MISSING_FIELD,
    MISSING_SHEET,
    UPSTREAM,
    reopen,
)
from reportgen.render.files import one_writer, write_atomic
from reportgen.render.scratch import Scratch
from reportgen.temporaries import temporaries_of

if TYPE_CHECKING:
    from reportgen.pipeline.loading import League

# The attachments read as workbooks: what `make` reads in inputs/.
WORKBOOK_SUFFIXES = tuple(sorted(discover.WORKBOOK_SUFFIXES))
MAIL_FOLDER = "courriel"  # where the attachment goes in the temporary copy of inputs/
REFUSED = "inbox/refused"  # under the archive folder: refused workbooks, where `make` never reads
REPLACED = "inbox/replaced"  # under the archive folder: the earlier versions of tournaments filed again
HELD = "inbox/held"  # under the archive folder: another club's tournaments, for the secretary to decide
# Problems that say the layout itself is wrong: the answer attaches the circuit's blank workbook.
LAYOUT_CODES = {kind.code for kind in (MISSING_SHEET, MISSING_COLUMN, MISSING_FIELD, LAYOUT)}


def slug(text: str, limit: int = 60) -> str:
    """`text` as a file name part: ASCII letters and digits, words joined by « - »."""
    plain = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii").lower()
    words = re.findall(r"[a-z0-9]+", plain)
    return "-".join(words)[:limit].strip("-") or "classeur"


def safe_filename(name: str) -> str:
    """An attachment's name, kept readable but never a path: its last component, reduced to letters,
    digits, « - », « _ » and one extension."""
    base = re.split(r"[\\/]", name)[-1]
    stem, dot, suffix = base.rpartition(".")
    if not dot:
        stem, suffix = base, ""
    suffix = slug(suffix, 8) if suffix else ""
    return slug(stem) + (f".{suffix}" if suffix else "")


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


@dataclass
class Verdict:
    """What the check found in one attachment."""

    problems: list[Problem] = field(default_factory=list)
    circuit: str = ""  # its circuit, when it could be read
    event: Event | None = None  # the tournament, when it was read
    same: list[str] = field(default_factory=list)  # the earlier versions of this tournament (relative to inputs/)
    dated: dict[str, str] = field(default_factory=dict)  # the date of each (ISO), as its sheet says it
    # The club organising it: the one its sheet names (a circuit with `organiser`), else the one
    # calendrier.xlsx announces for it (`_announced_by`).
    organiser: Club | None = None
    organisers: dict[str, Club] = field(default_factory=dict)  # the same, for each earlier version
    # Its circuit held back by one it depends on (the hold `upstream`, model.Level.HELD): said with
    # the workbook, never one of its problems. Its circuit is then not scored, so the checks that
    # need the circuit it depends on (a Masters' participants against the Grand Sud's ranking) wait.
    waits: list[Problem] = field(default_factory=list)
    # Not read whole (refused), the tournament its `Tournoi` sheet says it is: its name and date.
    named: tuple[str, dt.date] | None = None
    # Its sheets as the check read them (None: unread), which the comparison with a version of the
    # secretary's takes its cells from (inbox_run.py `Inbox._losing`) rather than reading it again.
    sheets: list[Sheet] | None = None
    # Its own warnings (model.Level.WARNING: a player's empty Prénom), located in its cells: they
    # refuse nothing, and are said to its club all the same (`Filed.warnings`).
    warnings: list[Problem] = field(default_factory=list)
    # What filing it changes besides an earlier version of its own, said to the secretary on its line
    # and to its club in the answer (`Filed.notes`): the tournament of its series it replaces (its
    # circuit's `Report.replaces`, as `check`'s note says it), a final ranking already published it
    # changes (render/changes.py `final_changes`: a year mistyped).
    notes: list[Said] = field(default_factory=list)
    # The tournaments the calendar announced on a day close by of its circuit, still without a
    # workbook, each with its organising club's code: said to its club if it is that club's (`decide`).
    announced: list[tuple[str, Said]] = field(default_factory=list)

    @property
    def accepted(self) -> bool:
        return not self.problems and self.event is not None

    @property
    def season(self) -> int:
        return self.event.date.year if self.event is not None else 0


def _link_tree(source: Path, target: Path) -> None:
    """inputs/ in `target`, hard-linked (copied where the file system cannot link)."""
    def link(src: str, dst: str) -> None:
        try:
            os.link(src, dst)
        except OSError:
            shutil.copy2(src, dst)

    if source.is_dir():
        shutil.copytree(source, target, copy_function=link, symlinks=False,
                        ignore=shutil.ignore_patterns(".*"))
    else:
        target.mkdir(parents=True)


def _edition(slug_: str, event: Event) -> object:
    """The circuit's edition of `event`, else its name and day: a key `check` does not use for those
    circuits (pipeline/loading.py `same_named` says why); here it finds the version a workbook
    replaces, whose club's tournament it is being then `owners`' question."""
    edition = getattr(circuits.CIRCUITS[slug_], "edition", None)
    if edition is not None:
        return edition(event)[0]
    return (compared(event.name), event.date)


def _versions(slug_: str, event: Event, other: Event) -> bool:
    """Whether two events are versions of one tournament: one edition of the circuit (the Grand Sud's
    club, date and series), or, of one organiser, the same name on the same day. A club answered « S’il
    s’agit de deux tournois distincts, donnez à l’un une « Série » à lui » sent its tournament again with
    one: another series, it was filed beside its first version, counted twice."""
    if _edition(slug_, event) == _edition(slug_, other):
        return True
    from reportgen.pipeline.loading import same_named

    named = same_named(slug_, event)  # `check`'s key of one tournament sent twice (pipeline/loading.py)
    return named is not None and named == same_named(slug_, other)


# How far apart a date typed by mistake and the right one may be: less than a week (29/11 typed for
# 28/11; a week apart is a weekly tournament's next one), or the same day of the year before or after
# (a year mistyped, 21/11/2025 for 2026).
SLIP = dt.timedelta(days=7)


def within_slip(day: dt.date, other: dt.date) -> bool:
    """Whether `day` and `other` are less than a week apart (`SLIP`)."""
    return abs(day - other) < SLIP


def close_by(day: dt.date, other: dt.date) -> bool:
    """Whether `day` may be a slip for `other`, or `other` for it (`SLIP`, or a year off)."""
    a_year_off = abs(day.year - other.year) == 1 and (day.month, day.day) == (other.month, other.day)
    return within_slip(day, other) or a_year_off


def _corrected(slug_: str, event: Event, other: Event) -> bool:
    """Whether `event`, sent in reply to the answer that filed `other` (the same club's thread), may be
    `other` with its date corrected: the same name, organiser (the Grand Sud's `Club` field, where the
    circuit has one) and circuit, on a day close by. The answers ask for exactly this (« si sa date est
    fausse, corrigez-la … et renvoyez le classeur en réponse à ce message »): it was filed beside the
    wrong one, both in inputs/ (the Grand Sud's later date, the wrong one, replacing the other, §1). Only in the thread:
    the same name on another day, sent afresh, is another tournament (two of one year, each counted).
    `_correction` says which thread file, if any, it is."""
    mine, theirs = _organiser(slug_, event), _organiser(slug_, other)
    return (compared(event.name) == compared(other.name) and close_by(event.date, other.date)
            and (mine.code if mine else None) == (theirs.code if theirs else None))


def _correction(slug_: str, event: Event, events: list[Event], thread: Mapping[str, dt.date],
                on_calendar: set[str]) -> list[Event]:
    """The one thread file (`thread`: each with the day its message was sent) that `event` corrects the
    date of (`_corrected`), if any: the nearest in date. Not a file sent before `event`'s day (a
    workbook is sent once its tournament is played: the one of that name sent earlier is another
    one, a weekly tournament's last week or an annual one's last year, whose season may be closed),
    nor one whose own date matched a row of the calendar (`on_calendar`: it had the right date, a
    weekly tournament's other week). A reply taking every such file removed each tournament its
    message had filed under one name (two, told to give one a « Série », replaced by one)."""
    fits = [e for e in events if e.id in thread and e.id not in on_calendar
            and thread[e.id] >= event.date and _corrected(slug_, event, e)]
    return sorted(fits, key=lambda e: (abs(e.date - event.date), e.id))[:1]


def _on_calendar(calendar: list[CalendarEntry]) -> set[str]:
    """The workbooks matched with a row of the calendar (their date that row's, ingest/calendar.py)."""
    return {entry.workbook for entry in calendar if entry.workbook and entry.where is not None}


def _organiser(slug_: str, event: Event) -> Club | None:
    organiser = getattr(circuits.CIRCUITS[slug_], "organiser", None)
    return organiser(event) if organiser is not None else None


def _announced_by(league: League, clubs: ClubDirectory) -> dict[str, Club]:
    """Each played tournament's organising club as the league's calendar knows it (by its workbook,
    relative to inputs/): the club calendrier.xlsx announces for it, matched as the site matches
    an announced tournament with its workbook (ingest/calendar.py). It is all a circuit whose
    sheets name no club (Tantrix, the Tour de France...) says of whose tournament it is."""
    return {entry.workbook: club for entry in league.calendar
            if entry.workbook and entry.club and (club := clubs.find(entry.club)) is not None}


def examine(inputs: Path, filename: str, data: bytes, today: dt.date | None = None,
            clubs: ClubDirectory | None = None, outputs: Path | None = None,
            thread: Mapping[str, dt.date] | None = None, sender: str = "") -> Verdict:
    """Check the attachment `filename` (`data`) as a workbook of inputs/; `clubs` (clubs.xlsx)
    names the club the calendar announces for a tournament whose sheet names none; `outputs`, where
    the league publishes (a final ranking it would change, `Verdict.notes`); `thread`, the workbooks of
    inputs/ the answers its message replies to filed, each with the day its message was sent (one a
    version of it if it is that one with its date corrected, `_correction`); `sender`, the code of the
    club whose message brought it: the calendar matches it with that club's row of its day first
    (ingest/calendar.py), not with another club's it would then be held as."""
    from reportgen.pipeline import load, score
    from reportgen.render.changes import final_changes

    thread = thread or {}
    with Scratch("inbox") as folder:  # render/scratch.py: a killed command's swept by the next build
        copy = Path(folder) / "inputs"
        _link_tree(inputs, copy)
        digest = sha256(data)
        label = f"{MAIL_FOLDER}/{digest[:12]}-{safe_filename(filename)}"
        attachment = copy / label
        attachment.parent.mkdir(parents=True, exist_ok=True)
        # never written through: the copy's files are hard links to those of inputs/
        attachment.unlink(missing_ok=True)
        attachment.write_bytes(data)
        # The attachment's sheets kept as the check reads them (it alone hashed: the other files are
        # read as `check` reads them), so that a refused one's tournament (`_named`) is found in them:
        # it was read a second time for two cells. Never saved (no folder): its code is no matter.
        reads = ReadCache(None, "inbox")
        senders = {label: sender} if sender else None
        league = load(copy, today, reads=reads, digests={label: digest}, senders=senders)
        found = [(slug_, e) for slug_, inputs_ in league.circuits.items() for e in inputs_.events if e.id == label]
        read = reads.get(digest)
        named = None if found else _named(read, attachment, label, today or clock.today())
        verdict = Verdict(named=named, sheets=read[1] if read is not None else None)
        if found:
            verdict.circuit, verdict.event = found[0]
            others = [e for e in league.circuits[verdict.circuit].events if e.id != label]
            earlier = [e for e in others if _versions(verdict.circuit, e, verdict.event)] \
                or _correction(verdict.circuit, verdict.event, others, thread, _on_calendar(league.calendar))
            verdict.same = sorted(e.id for e in earlier)
            verdict.dated = {e.id: e.date.isoformat() for e in earlier}
            announced = _announced_by(league, clubs) if clubs is not None else {}
            verdict.organiser = _organiser(verdict.circuit, verdict.event) or announced.get(label)
            verdict.organisers = {e.id: club for e in earlier
                                  if (club := _organiser(verdict.circuit, e) or announced.get(e.id)) is not None}
        if verdict.same and not unchanged(verdict, digest, copy):  # the same bytes again: nothing to file
            # Checked again as inputs/ will be once it is filed, without the versions it replaces
            # (`file_accepted`): the « two workbooks of one tournament » problem between them, set
            # aside below as no fault of the club's, still blocked its circuit's trial scoring, so that
            # what filing it changes besides them (`Report.replaces`: the series' edition it replaces)
            # went unsaid. Loaded and scored again (the attachment's sheets from the cache, the
            # league's other files read again): a new version of a tournament costs a second check.
            for path in verdict.same:
                (copy / path).unlink()
            league = load(copy, today, reads=reads, digests={label: digest}, senders=senders)
            found = [(slug_, e) for slug_, inputs_ in league.circuits.items() for e in inputs_.events if e.id == label]
        scored = score(league)
        # an earlier version's manifest read as the build reads it (`_upgraded`), as `check` does
        final = [slug_ for slug_, _ in found if circuits.REGISTRY[slug_].final_when_closed]
        changing = final_changes(outputs, copy, {slug_: [e] for slug_, e in found}, final) if found and outputs else {}
    report = scored.reports.get(verdict.circuit)
    verdict.notes = _notes(report.replaces.get(label) if report else None, changing.get(label), league.dates.get(label))
    if verdict.event is not None:
        verdict.announced = _announced_elsewhere(league.calendar, verdict.circuit, verdict.event, label,
                                                 league.dates.get(label))
    mine = {p for p in league.all_problems() if p.where.path == label}
    mine |= {p for blocked in scored.blocked.values() for p in blocked if p.where.path == label}
    verdict.problems = sorted(p for p in mine if p.code != DUPLICATE_TOURNAMENT.code and p.level is not Level.HELD)
    # pipeline/loading.py sets the warnings apart from every list, wherever found: this file's alone
    verdict.warnings = [p for p in league.warnings if p.where.path == label]
    # The hold is the circuit's, wherever pipeline/scoring.py put it (its first workbook: this one or
    # an earlier version of the same tournament, by the order of their paths).
    verdict.waits = [p for p in scored.blocked.get(verdict.circuit, []) if p.level is Level.HELD] \
        if verdict.circuit else []
    if not verdict.circuit:  # unread: the circuit whose problems it is (a folder or its sheets said so)
        owners = [slug_ for slug_, inputs_ in league.circuits.items()
                  if any(p.where.path == label for p in inputs_.problems)]
        verdict.circuit = owners[0] if len(owners) == 1 else ""
    return verdict


def _notes(replaces: str | None, changing: str | None, date: SourceRef | None) -> list[Said]:
    """`Verdict.notes`, as the answer and the database keep them (`Said`, level `NOTE`); `date`: the
    cell of its `Tournoi` sheet's date, which `check` names too (its place in the workbook alone: the
    club never sees the label inputs/ gives it)."""
    notes = []
    if replaces:
        notes.append(Said(None, None, None, f"il {replaces}", "", REPLACES, NOTE))
    if changing:
        notes.append(Said(None, None, None, changing, _date_fix(date), FINAL_CHANGED, NOTE))
    return notes


def _date_fix(date: SourceRef | None) -> str:
    """How a club corrects its workbook's date, at its cell, and sends it again (a reply: the new
    version of it, `_corrected`)."""
    from reportgen.render.changes import FINAL_FIX  # check's words too

    where = in_sheet(FIELDS_SHEET) if date is None else dataclasses.replace(date, column=None).said
    return f"{FINAL_FIX} ({where}) et renvoyez le classeur en réponse à ce message"


def _announced_elsewhere(calendar: list[CalendarEntry], circuit: str, event: Event, label: str,
                         date: SourceRef | None) -> list[tuple[str, Said]]:
    """The tournaments of `circuit` the calendar announced less than a week away (`within_slip`), still
    without a workbook (this one dated otherwise was not matched with it), each with its club's code
    and the note its club is told: a workbook dated 29/11 for the tournament announced 28/11 was
    « enregistré » alone, the 28/11 one staying awaited (« non reçus », reminded). Nothing when this
    workbook (`label`) matched a row on its own day: its date is right (a weekly tournament's 28/11
    one was told the 21/11 one was announced)."""
    if label in _on_calendar(calendar):
        return []
    return [(entry.club, Said(None, None, None, f"le calendrier annonçait ce tournoi le {french.date_long(entry.date)}",
                              _date_fix(date), ANNOUNCED_ELSEWHERE, NOTE))
            for entry in calendar if entry.coming and entry.club and entry.circuit == circuit
            and entry.date != event.date and within_slip(entry.date, event.date)]


def _named(read: tuple[int, list[Sheet]] | None, path: Path, label: str,
           today: dt.date) -> tuple[str, dt.date] | None:
    """The tournament a workbook that could not be read whole says it is, its `Tournoi` sheet's
    name and date: a refused workbook known by its tournament too, so that its corrected version
    under another file name answers it (inbox_run.py `_marks`) and no reminder asks for a workbook
    that came (remind.py). `read`: its sheets as the check read them (`examine`), None when the file
    could not be read. None when that sheet does not say (reading never raises: a problem)."""
    if read is None:
        return None
    problems: list[Problem] = []
    sheet = read_tournament_sheet(Workbook(path, label, read[1]), problems, {})
    if sheet is None:
        return None
    name, day = read_name_and_date(sheet, today, problems)
    return (name, day) if isinstance(name, str) and name and isinstance(day, dt.date) else None


# Why an earlier version is the secretary's (`Replaced.hers`): she changed the version the inbox
# filed, or found there, after it did (`EDITED`); she put it in inputs/ herself and nothing says whose
# tournament it is (`PLACED`: a circuit whose sheets name no club, no calendar row giving it to one).
EDITED, PLACED = "edited", "placed"


@dataclass(frozen=True)
class Replaced:
    """An earlier version of a tournament: where it was under inputs/, where it is kept, its date, and
    whether it is the secretary's (`hers`: `EDITED` or `PLACED`; held, the club's version waits for her)."""

    path: str  # relative to inputs/
    kept: str  # relative to the archive folder
    date: str = ""  # ISO: another than its new version's when the club corrected it ('' in a row kept before)
    hers: str = ""  # '' in a row kept before
    # accepted: the sha256 of its bytes when the inbox decided ('' in a row kept before): changed by the
    # time it is filed, the secretary edited it meanwhile (`file_accepted`)
    found: str = ""
    # hers, held: the first cells of hers the club's version loses or changes (`SAID_CELLS`, inbox_cells.py
    # `Lost`: cell, her value, the club's), and how many there are (0: none could be compared, the club's
    # version or hers unreadable, or a row kept before)
    lost: tuple[Lost, ...] = ()
    losses: int = 0

    @classmethod
    def of(cls, kept: list[Any]) -> Replaced:
        """One earlier version as `Filed.row` wrote it (fewer fields in a row kept before)."""
        fields = [*kept[:5], tuple(Lost(*cell) for cell in kept[5]), *kept[6:]] if len(kept) > 5 else kept
        return cls(*fields)


# The cells of hers a held version's line names (`Replaced.lost`); the others are counted.
SAID_CELLS = 3


@dataclass(frozen=True)
class Corrected:
    """A refused workbook an accepted one corrects (`corrects`): where its copy is kept (relative to
    the archive folder), its file name and the day (ISO) the message that first brought its bytes
    refused arrived, as the secretary's line names it."""

    path: str
    filename: str
    arrived: str

    @property
    def said(self) -> str:
        """« version corrigée de casse.xlsx, refusé le 14 mars 2026 », on the line of the one that corrects it."""
        return f"version corrigée de {self.filename}, refusé le {french.date_long(dt.date.fromisoformat(self.arrived))}"


@dataclass(frozen=True)
class Owner:
    """The club a held workbook's tournament belongs to, as the answer names it (its name kept with
    the decision: an answer composed again later says the same, whatever clubs.xlsx became)."""

    code: str
    name: str


# What `check` tells the secretary to do with her club directory, as a club's answer says it: a club
# was told « ajoutez le club à clubs.xlsx », a file on her machine (ingest/normalise.py `unknown_club`,
# the Grand Sud's `Club` field, problems.py `UNKNOWN_CLUB`); and with her seasons file, for a
# tournament sent once its season is closed (problems.py `SEASON_CLOSED`): only the league opens it again.
_CLUBS_LIST = "la liste des clubs de la ligue"
_TELL_US = "dites-le-nous en répondant à ce message"
_FOR_CLUBS = (
    ("n’est pas dans l’annuaire clubs.xlsx", f"n’est pas dans {_CLUBS_LIST}"),
    (" Sinon ajoutez le club à clubs.xlsx", f" Sinon, si votre club n’est pas dans {_CLUBS_LIST}, {_TELL_US}"),
    (", ou ajoutez le club à clubs.xlsx", f" ; si votre club n’y figure pas, {_TELL_US}"),
    ("d’un club de l’annuaire", f"d’un club de {_CLUBS_LIST}"),
)
# the secretary's command, of any season (problems.py `reopen`)
_REOPEN = re.compile(re.escape(reopen("SEASON")).replace("SEASON", r"\d+"))
_REOPEN_FOR_CLUBS = f"{_TELL_US} : la ligue peut rouvrir la saison"


# A note kept with a decision (`Filed.notes`): no problem, what filing the workbook changes besides
# its own earlier version (its level word beside model.Level's, in the same JSON: no schema change).
NOTE = "note"
REPLACES, FINAL_CHANGED, ANNOUNCED_ELSEWHERE = "replaces", "final-changed", "announced-elsewhere"  # their codes


@dataclass(frozen=True)
class Said:
    """A problem of a workbook as the club is told it (and the database keeps it): where in its own
    file, what is wrong, the fix, its kind's code and its level (model.Level's word, kept so that an
    answer composed again later says the same whatever the kind's level became; a row written before
    it was kept says none: blocking, as a refused row's problems were, an accepted row's hold being
    known by its code, `upstream`)."""

    sheet: str | None
    cell: str | None
    column: str | None
    message: str
    fix: str
    code: str
    level: str = Level.BLOCKING.value

    @classmethod
    def of(cls, problem: Problem) -> Said:
        """The problem in the club's words: the league's own files (its club directory) are the
        secretary's, never the club's to edit."""
        ref = problem.where
        message, fix = problem.message, problem.fix
        for secretary, club in _FOR_CLUBS:
            message, fix = message.replace(secretary, club), fix.replace(secretary, club)
        fix = _REOPEN.sub(_REOPEN_FOR_CLUBS, fix)
        return cls(ref.sheet, ref.cell, ref.column, message, fix, problem.code, problem.level.value)

    @property
    def where(self) -> str:
        """Its place in the club's own file, in French."""
        return self.located(cells_said(self.cell) if self.cell else "")

    def located(self, cells: str) -> str:
        """Its sheet, then `cells` (« cellule B2 », « cellules A2 à A41 »), then its column or field,
        as the secretary is told it (model.in_sheet)."""
        return "le classeur" if self.sheet is None else in_sheet(self.sheet, cells, self.column)


@dataclass(frozen=True)
class Filed:
    """What was decided for one attachment, as the database keeps it (table inbox_file): the
    answer and a run that finishes a stopped one work from this, never from a second check."""

    filename: str  # as the message names it (data)
    sha256: str
    status: str  # accepted | refused | held | same
    circuit: str
    event: str  # the tournament's name
    date: str  # its date, ISO
    # accepted: relative to inputs/; same: the workbook of inputs/ it is a copy of; refused, held:
    # relative to the archive folder (refused or held again, the same bytes: the copy kept the first time)
    path: str
    # accepted: the earlier versions, kept in the archive; held: those it would replace (`kept` empty)
    replaced: tuple[Replaced, ...] = ()
    # refused: its problems; accepted: the hold its circuit waits under (`upstream`), if any; accepted,
    # refused, held and same: its warnings too, after them (`warnings`: what its club may still complete);
    # accepted and held: then its notes (`notes`: the tournament of its series it replaces, a final ranking it
    # changes; held, were it filed)
    problems: tuple[Said, ...] = ()
    owners: tuple[Owner, ...] = ()  # held: the club(s) whose tournament it is
    # same: the day (ISO) the message that filed those bytes arrived, '' when no message did (the
    # secretary put the file in inputs/); refused, held: these bytes refused to the club before for
    # these very problems, or held for these very owners, the day the message that first brought them
    # so arrived ('' the first time, or when the problems or owners changed). Kept with the
    # decision, as `owners`, so that an answer composed again later says the same
    known_since: str = ""
    # accepted, same: the refused workbooks of its club it corrects (`corrects`), no longer awaited
    corrects: tuple[Corrected, ...] = ()

    @property
    def since(self) -> str:
        """`known_since` as the answer and the secretary's line say it (« 14 mars 2026 »), '' if none."""
        return french.date_long(dt.date.fromisoformat(self.known_since)) if self.known_since else ""

    @property
    def blocking(self) -> tuple[Said, ...]:
        """A refused workbook's problems: what refused it."""
        return tuple(p for p in self.problems if p.level == Level.BLOCKING)

    @property
    def warnings(self) -> tuple[Said, ...]:
        """What it holds that refuses nothing and only its club can complete (an empty Prénom)."""
        return tuple(p for p in self.problems if p.level == Level.WARNING)

    @property
    def notes(self) -> tuple[Said, ...]:
        """What filing it changes besides its own earlier version (`Verdict.notes`)."""
        return tuple(p for p in self.problems if p.level == NOTE)

    @property
    def hers(self) -> tuple[Replaced, ...]:
        """Held: the earlier versions that are the secretary's (`Replaced.hers`), which no club replaces
        without her."""
        return tuple(r for r in self.replaced if r.hers)

    @property
    def layout(self) -> bool:
        return any(p.code in LAYOUT_CODES for p in self.problems)

    @property
    def waits(self) -> bool:
        """Filed while its circuit waits for one it depends on: checked in full and published once
        that one's workbooks are corrected."""
        return self.status == "accepted" and any(p.code == UPSTREAM.code for p in self.problems)

    def row(self) -> tuple[object, ...]:
        """(filename, sha256, status, circuit, event, date, path, replaced, problems, owners, known_since,
        corrects) for inbox_file."""
        replaced = json.dumps([[r.path, r.kept, r.date, r.hers, r.found, [[c.cell, c.hers, c.club] for c in r.lost],
                                r.losses] for r in self.replaced], ensure_ascii=False)
        problems = json.dumps([dataclasses.asdict(p) for p in self.problems], ensure_ascii=False, sort_keys=True)
        owners = json.dumps([[o.code, o.name] for o in self.owners], ensure_ascii=False)
        corrects = json.dumps([[c.path, c.filename, c.arrived] for c in self.corrects], ensure_ascii=False)
        return (self.filename, self.sha256, self.status, self.circuit, self.event, self.date, self.path, replaced,
                problems, owners, self.known_since, corrects)

    @classmethod
    def from_row(cls, row: Any) -> Filed:
        replaced = tuple(Replaced.of(kept) for kept in json.loads(row["replaced"]))  # no date before it was kept
        problems = tuple(Said(**p) for p in json.loads(row["problems"]))
        owners = tuple(Owner(code, name) for code, name in json.loads(row["owners"]))
        corrects = tuple(Corrected(*one) for one in json.loads(row["corrects"]))
        return cls(row["filename"], row["sha256"], row["status"], row["circuit"], row["event"], row["date"],
                   row["path"], replaced, problems, owners, row["known_since"], corrects)


# the decisions of a workbook that may correct a refused one (`corrects`): filed, or the version inputs/ holds
CORRECTING = ("accepted", "same")


def corrects(filed: Filed, refusals: list[tuple[Filed, dt.date]], accepted: int) -> tuple[Corrected, ...]:
    """The refused workbooks `filed`, accepted (or the version inputs/ holds, `same`), corrects: its
    message replies to theirs, or to their answer, which asked for it (« Corrigez le classeur et
    renvoyez-le en réponse à ce message »). `refusals`: those of its club in that thread, each with
    the day its message arrived (inbox_run.py `_refusals`); `accepted`: how many workbooks of its
    message were accepted or `same` (`CORRECTING`), `filed` among them. The same file name or
    tournament already answers a refusal wherever it comes from (inbox_run.py `_marks`); one
    corrected under another name, or with its date corrected, stayed « en attente d’une version
    corrigée » for ever.

    A thread alone proves nothing: a club answers the last message it got with its next tournament
    (a weekly one of the same name). So a refused workbook is corrected by one of its circuit (when
    its sheets said which), of a tournament played by the day it came (a workbook comes once its
    tournament is played: `_correction`'s rule), and, its tournament known, of its name on a day
    close by (its date corrected, `close_by`) or of its day (its name corrected); else, its tournament
    unknown (a `Tournoi` sheet that could not be read), when it is the only such one of the thread and
    `filed` the only workbook its message accepted: of two, nothing tells which is its correction (a
    reply carrying another tournament too took that one for it). Each refused copy named once (the
    same bytes refused again share it), with the day its bytes were first refused."""
    if filed.status not in CORRECTING or not filed.date:
        return ()
    day = dt.date.fromisoformat(filed.date)
    fits = [(refused, arrived) for refused, arrived in refusals
            if refused.circuit in ("", filed.circuit) and day <= arrived]
    known = [(refused, arrived) for refused, arrived in fits if refused.date and (refused.date == filed.date or (
        compared(refused.event) == compared(filed.event) and close_by(dt.date.fromisoformat(refused.date), day)))]
    unknown = {refused.path: (refused, arrived) for refused, arrived in fits if not refused.date}
    found = known or (list(unknown.values()) if len(unknown) == 1 and accepted == 1 else [])
    # Each copy once (the same bytes refused twice in the thread share it: it was named twice), from
    # the day its bytes were first refused (`known_since`, kept by `again`), else its message's.
    named = sorted((refused.known_since or arrived.isoformat(), refused.path, refused.filename)
                   for refused, arrived in found)
    first: dict[str, Corrected] = {}
    for refused_on, path, filename in named:
        first.setdefault(path, Corrected(path, filename, refused_on))
    return tuple(first.values())


def owners(verdict: Verdict, club: str, filed_by: dict[str, Owner]) -> tuple[Owner, ...]:
    """The clubs other than `club` (the sender's code) whose tournament this is: the one its sheet
    names, and for each earlier version the club whose message filed it (`filed_by`, from the
    database), else the one its sheet names (a file the secretary put in inputs/)."""
    claims = [Owner(verdict.organiser.code, verdict.organiser.name)] if verdict.organiser else []
    for path in verdict.same:
        named = verdict.organisers.get(path)
        claim = filed_by.get(path) or (Owner(named.code, named.name) if named else None)
        if claim is not None:
            claims.append(claim)
    found: dict[str, Owner] = {}
    for claim in claims:
        if claim.code.casefold() != club.casefold():
            found.setdefault(claim.code.casefold(), claim)
    return tuple(found.values())


# What a club's new version loses of an earlier version of the secretary's (`EDITED` or `PLACED`):
# inbox_run.py `Inbox._losing`, a three-way comparison of cell values (inbox_cells.py); None when one of
# the workbooks cannot be read for it.
Losing = Callable[[str, str], list[Lost] | None]


@dataclass(frozen=True)
class Earlier:
    """The earlier versions of a tournament in inputs/ as the inbox found them when it decided
    (inbox_run.py `Inbox._decide`): the sha256 of each (`found`, kept as `Replaced.found`: hashed once,
    the bytes `edited` was judged from), those the secretary `edited` since the inbox filed or found
    them, and what the club's version loses of one of hers (`losing`)."""

    found: Mapping[str, str]
    edited: frozenset[str]
    losing: Losing


def mine(verdict: Verdict, filed_by: dict[str, Owner], earlier: Earlier) -> dict[str, tuple[str, list[Lost] | None]]:
    """The earlier versions of `verdict`'s tournament that are the secretary's and that the club's
    version does not keep, which it never replaces without her (`Replaced.hers`), each with the cells
    of hers it loses (`Earlier.losing`; None: they could not be compared, held as any doubt holds it).
    Hers: one she `edited` after the
    inbox filed it or found it there (`EDITED`), and one she put in inputs/ herself that no club's
    message filed and nothing names a club of (`PLACED`: its circuit's sheets name none, nor does the
    calendar, for it or for the new version). A club replaces a version known to be its own, as
    `owners` knows one (its message filed it, or its sheet, the Grand Sud's `Club`, or the calendar
    names it); a file she placed with nothing saying whose it is was any club's to replace, told
    « enregistré ». But her own commands edit a workbook the club then completes: a circuit's command
    writes a round the club types the results of, or prepares the workbook the host fills in.
    A version built on hers, keeping every cell she typed (`losing` finds none), is filed as before;
    one that loses or changes one of them waits for her."""
    candidates = {path: EDITED for path in verdict.same if path in earlier.edited}
    for path in verdict.same:
        if path not in candidates and path not in filed_by and path not in verdict.organisers \
                and verdict.organiser is None:
            candidates[path] = PLACED
    return {path: (kind, cells) for path, kind in candidates.items() if (cells := earlier.losing(path, kind)) != []}


def aside(folder: str, message: str, filename: str) -> str:
    """Where a workbook kept out of inputs/ goes (`REFUSED`, `HELD`), relative to the archive folder:
    its message's day, club and uid, then its own name."""
    return f"{folder}/{message}-{safe_filename(filename)}"


def unchanged(verdict: Verdict, digest: str, inputs: Path) -> bool:
    """Whether inputs/ already holds this tournament as these very bytes (`digest`), and nothing else
    of it: filing would change nothing.

    Bytes, not cells: a workbook saved again (the same cells in other bytes) is a new version, told
    « il remplace la version précédente », its earlier file kept in the archive. The bytes are what
    this code knows for certain: the inbox knows a workbook by their sha256 (`Filed.sha256`,
    `held_waiting`). The cells' digest is the pipeline's own (pipeline/loading.py `_cells_digest`),
    which `examine` could read only from the words of the « two workbooks of one tournament » problem
    it sets aside (« les mêmes cellules »), and it reads the values only: a
    copy whose formula, comment or format the club changed would be told « rien ne change ». A
    re-save taken for a new version costs one copy in the archive and one rebuild; « the same » said
    wrongly would tell a club its change was ignored."""
    return bool(verdict.same) and all(
        (path := inputs / earlier).is_file() and sha256(path.read_bytes()) == digest for earlier in verdict.same)


def again(filed: Filed, before: Filed | None) -> Filed:
    """A workbook kept aside (refused or held) whose bytes were kept aside so for its club before
    (`before`: the latest such decision, its `known_since` the day its club was first told so): kept
    in that decision's copy, never a second one (a second copy was listed twice for the secretary),
    and dated from it when its club is told the same again: the same problems, the tournament of the
    same clubs. The league's settings, or the secretary, may have changed either since (a club added
    to clubs.xlsx, the calendar giving the tournament to another club): it is then told as the first
    time."""
    if before is None:
        return filed
    told = (_told(filed), filed.owners, _hers(filed)) == (_told(before), before.owners, _hers(before))
    return dataclasses.replace(filed, path=before.path, known_since=before.known_since if told else "")


def _hers(filed: Filed) -> tuple[tuple[str, str], ...]:
    """The versions of the secretary's a held workbook waits for her on (`Filed.hers`), as `again`
    compares them."""
    return tuple((r.path, r.hers) for r in filed.hers)


def _told(filed: Filed) -> tuple[Said, ...]:
    """What refused a workbook, as `again` compares it: its blocking problems. Its warnings aside:
    they refuse and hold nothing, and are said again as they are now (a held row kept before a
    held workbook's warnings were has none: the same bytes are still the same hold). And the other
    version a « lequel compte ? » names (`one_version_each`) aside: the same two versions sent
    again, one saved as « version2 (1).xlsx », ask the same question."""
    return tuple(dataclasses.replace(said, message="") if said.code == DUPLICATE_TOURNAMENT.code else said
                 for said in filed.blocking)


def decide(verdict: Verdict, filename: str, data: bytes, club: str, message: str, inputs: Path, earlier: Earlier,
           filed_by: dict[str, Owner] | None = None, known_since: str = "", refused: Filed | None = None,
           held: Filed | None = None) -> Filed:
    """Where the attachment goes: accepted, under inputs/<circuit>/<season>/<date>-<club>-<name>,
    each earlier version kept under archive/inbox/replaced/<message>/; the same bytes as the version
    in inputs/, `same`: nothing done (`known_since`: the day the message that filed them
    arrived, if one did); another club's tournament (`owners`; `filed_by`: the club whose message
    filed each earlier version), held under archive/inbox/held/<message>-<name>, as is a new version of
    one of the secretary's that loses what she typed (`mine`, from `earlier`: one she edited since the
    inbox filed or found it there, or one she placed whose club nothing names); refused, under
    archive/inbox/refused/<message>-<name> (`message`: the received message's day, club and uid).
    These bytes refused or held to the club before (`refused`, `held`: the latest such decision)
    are kept where that decision kept them (`again`). Its warnings are kept with the decision, said
    to its club (`Filed.warnings`); held too: its bytes are the sender's, those the secretary files
    if she decides so, and the sender the one that can complete them. But not for the same bytes as
    the version in inputs/ sent by a club whose tournament it is not: that file is its organiser's
    to complete."""
    digest = sha256(data)
    warnings = tuple(Said.of(warning) for warning in verdict.warnings)
    if verdict.accepted and verdict.event is not None:
        event = verdict.event
        others = owners(verdict, club, filed_by or {})
        # Before whose tournament it is: the same bytes change nothing, whoever sends them, so there is
        # nothing for the secretary to decide (a held copy of what inputs/ holds is listed nowhere,
        # `held_waiting`, while its answer said she would decide). Filing them again wrote nothing new
        # but told the club « il remplace la version précédente », recorded a new version (the club
        # that sent them became the file's, `_filed_by`), and moved a file the secretary had put in
        # inputs/ under a name of the inbox's (a tournament renamed for the build). Its warnings are
        # said again: a club told to complete it that sends the same bytes most likely sent the file
        # saved before its change, and « rien ne change » alone would let it believe it arrived.
        if unchanged(verdict, digest, inputs):
            return Filed(filename, digest, "same", verdict.circuit, event.name, event.date.isoformat(),
                         verdict.same[0], problems=() if others else warnings, known_since=known_since)
        hers = mine(verdict, filed_by or {}, earlier)  # after `unchanged`: it reads workbooks
        if others or hers:
            # its notes too: what filing it would change besides its own earlier version (a series'
            # edition it replaces, a final ranking), which the secretary weighs and its sender is told
            return again(Filed(filename, digest, "held", verdict.circuit, event.name, event.date.isoformat(),
                               aside(HELD, message, filename), _replaced(verdict, "", hers),
                               (*warnings, *verdict.notes), others), held)
        # A circuit waiting for one it depends on (`verdict.waits`) files its workbook all the same:
        # in inputs/, `make check` says it waits, nothing of its own to correct, and the build holds
        # it until the other circuit's workbooks are corrected, then checks it in full (its
        # participants against that ranking) before anything is published; a problem found then is
        # listed located in it, as for any workbook of inputs/. Filed as a workbook whose circuit other
        # files block is (a broken file elsewhere refuses nothing); held for the secretary would ask
        # her a decision that is not hers to make (a hold is for another club's tournament, a question
        # of trust) and leave the Masters out of inputs/ until she moves it by hand. The club is told
        # it is recorded, and that its full check and publication wait (`Filed.waits`).
        suffix = Path(safe_filename(filename)).suffix
        stem = f"{verdict.circuit}/{verdict.season}/{event.date.isoformat()}-{slug(club, 20)}-{slug(event.name)}"
        target, number = f"{stem}{suffix}", 1
        while (inputs / target).exists() and target not in verdict.same:  # another tournament's name
            number += 1
            target = f"{stem}-{number}{suffix}"
        replaced = _replaced(verdict, f"{REPLACED}/{message}/", found=earlier.found)
        # the calendar's tournament of its organiser (the sender, where its sheets name none) on a day close by
        organiser = (verdict.organiser.code if verdict.organiser else club).casefold()
        announced = [note for code, note in verdict.announced if code.casefold() == organiser]
        return Filed(filename, digest, "accepted", verdict.circuit, event.name, event.date.isoformat(), target,
                     replaced, (*(Said.of(hold) for hold in verdict.waits[:1]), *warnings, *verdict.notes, *announced))
    name, day = (verdict.event.name, verdict.event.date) if verdict.event is not None else verdict.named or ("", None)
    return again(Filed(filename, digest, "refused", verdict.circuit, name, day.isoformat() if day else "",
                       aside(REFUSED, message, filename), problems=(*map(Said.of, verdict.problems), *warnings)),
                 refused)


def _replaced(verdict: Verdict, folder: str, hers: Mapping[str, tuple[str, list[Lost] | None]] | None = None,
              found: Mapping[str, str] | None = None) -> tuple[Replaced, ...]:
    """The earlier versions of `verdict`'s tournament, each to be kept under `folder` (none: held,
    nothing kept), with its date, whether it is the secretary's and what of hers the club's version
    loses (`hers`, held: `mine`) and the sha256 of its bytes as the decision found them (`found`,
    accepted)."""
    return tuple(_hers_in(Replaced(path, f"{folder}{path}" if folder else "", verdict.dated.get(path, ""),
                                   found=(found or {}).get(path, "")), *(hers or {}).get(path, ("", None)))
                 for path in verdict.same)


def _hers_in(version: Replaced, kind: str, cells: list[Lost] | None) -> Replaced:
    """`version` said to be the secretary's (`kind`: '' if not), the club's version losing `cells` of it
    (the first `SAID_CELLS` kept, all counted; None: not compared)."""
    return dataclasses.replace(version, hers=kind, lost=tuple((cells or [])[:SAID_CELLS]), losses=len(cells or []))


def one_version_each(decided: list[tuple[Verdict, Filed]], message: str,
                     refused: Mapping[str, Filed | None] | None = None) -> list[Filed]:
    """The decisions of one message's workbooks, two different ones of the same tournament refused:
    which of them counts is the club's to say. Both were accepted to one place, the second written
    over the first (never kept as a replaced version), and the answer said each « enregistré ». The
    same bytes twice are one workbook. Refused or held workbooks kept aside share a file only when
    they are the same bytes (`message`, as `decide`'s: two attachments of one name were kept in one;
    bytes refused or held before are kept where that decision kept them, whatever their name now).
    Versions refused so before (`refused`: the latest such decision of the club for each sha256, as
    `decide` is given it) are refused again as a single workbook is (`again`): sent again together,
    they were kept and listed a second time, and answered as a first refusal."""
    # One group per tournament, by the rule of an earlier version (`_versions`: the edition, or one
    # organiser's name and day): two series of one club's tournament on one day, grouped by edition
    # alone, were both « enregistré » to one path, the second written over the first.
    by_tournament: list[tuple[Verdict, list[Filed]]] = []
    for verdict, filed in decided:
        # a copy of the version in inputs/ beside another version still asks which counts: « rien ne
        # change » for the one and « remplace » for the other would contradict each other
        if filed.status in ("accepted", "same") and verdict.event is not None:
            group = next((files for first, files in by_tournament if first.circuit == verdict.circuit
                          and first.event is not None and _versions(verdict.circuit, first.event, verdict.event)),
                         None)
            if group is None:
                by_tournament.append((verdict, [filed]))
            else:
                group.append(filed)
    versions = {id(filed): files for _, files in by_tournament if len({f.sha256 for f in files}) > 1
                for filed in files}
    found = []
    for _, filed in decided:
        if id(filed) in versions:
            others = french.joined([f"« {other.filename} »" for other in versions[id(filed)] if other is not filed])
            day = french.date_long(dt.date.fromisoformat(filed.date))
            said = Said(None, None, None, f"ce classeur et {others} sont deux versions du tournoi « {filed.event} » "
                        f"du {day} : lequel compte ?", "renvoyez le bon seul, en réponse à ce message",
                        DUPLICATE_TOURNAMENT.code)
            filed = again(dataclasses.replace(filed, status="refused", path=aside(REFUSED, message, filed.filename),
                                              replaced=(), problems=(said, *filed.warnings), known_since=""),
                          (refused or {}).get(filed.sha256))
        found.append(filed)
    kept: dict[str, str] = {}  # a path kept aside -> the sha256 of the bytes kept there
    for n, filed in enumerate(found):
        if filed.status in ("refused", "held"):
            path, number = filed.path, 1
            while kept.get(path, filed.sha256) != filed.sha256:  # « m-r.xlsx », then « m-r-2.xlsx »
                number += 1
                path = f"{Path(filed.path).with_suffix('')}-{number}{Path(filed.path).suffix}"
            kept[path] = filed.sha256
            found[n] = dataclasses.replace(filed, path=path)
    return found


def file_accepted(inputs: Path, archive: Path, target: str, data: bytes, replaced: list[Replaced],
                  losing: Losing) -> dict[str, tuple[str, list[Lost] | None]]:
    """Put the workbook at inputs/`target`: each earlier version first kept in the archive, then the
    new file written, then the earlier files removed from inputs/ (the tournament is never missing
    from inputs/). Every step may be done again: a run stopped halfway is finished by the next one
    from the same decisions (the database has them before the first step). Nothing is done when the
    secretary changed an earlier version since the decision (`edited_meanwhile`) and the club's
    version loses what she typed (`losing`, the decision's rule: `mine`): those versions are
    returned, with the cells lost, for the workbook to be held instead (`carry_out`)."""
    digest = sha256(data)
    # Each workbook written or removed held as the secretary's commands hold it (`one_writer`): a
    # circuit's command of hers editing one finishes first, then its bytes are the earlier
    # version kept below. Held in one order (by the files they name, each once: a lock taken twice
    # by one process waits for itself), as her commands hold one workbook at a time.
    names = {os.path.realpath(inputs / name): name for name in (target, *(old.path for old in replaced))}
    with contextlib.ExitStack() as held:
        for real in sorted(names):
            held.enter_context(one_writer(inputs / names[real]))
        written = Path(os.path.realpath(inputs / target))  # through a symbolic link, as her commands write
        # compared again under the lock, as the decision compared (`mine`): her write meanwhile, built
        # on (her command writing the round the club's version has results of) or not
        edited = {old.path: (EDITED, cells) for old in replaced
                  if edited_meanwhile(inputs / old.path, old.found, digest) and (cells := losing(old.path, EDITED)) != []}
        if edited:
            _unwritten(written, replaced, inputs, digest)
            return edited
        for old in replaced:
            path, kept = inputs / old.path, archive / old.kept
            if path.is_file() and not kept.exists() and sha256(path.read_bytes()) != digest:
                write_atomic(kept, path.read_bytes())
        # A run killed as it wrote this file left its temporary beside it (`.<name>.<random>.tmp`):
        # hidden from `make`, but in the secretary's inputs/ for ever, where `Inbox.run` cleans nothing
        # (its folders are hers). Nobody else writes this file while the lock is ours.
        for stopped in temporaries_of(written):
            if stopped.is_file():
                stopped.unlink(missing_ok=True)
        write_atomic(written, data)
        for old in replaced:
            if os.path.realpath(inputs / old.path) != str(written):
                (inputs / old.path).unlink(missing_ok=True)
    return {}


def _unwritten(written: Path, replaced: list[Replaced], inputs: Path, digest: str) -> None:
    """The club's version taken back out of inputs/ when it is held instead of filed: a run killed
    after writing it under its new name (`written`), before removing the earlier version it replaces,
    left both there, and her edit of that earlier one before the rerun held the club's version (two
    versions of one tournament in inputs/, the row saying held). Only a file of its bytes that is no
    earlier version: the write of this filing's own, the lock held."""
    if str(written) not in {os.path.realpath(inputs / old.path) for old in replaced} and written.is_file() \
            and sha256(written.read_bytes()) == digest:
        written.unlink()


def edited_meanwhile(path: Path, found: str, written: str) -> bool:
    """Whether the earlier version at `path` changed since the decision found it (`found`: its sha256;
    '' in a row kept before), into other bytes than this filing's own (`written`: a stopped run's
    write, finished by the next). The decision held a version she had edited before (`mine`); a
    circuit's command of hers writing it as the inbox came to file it (`one_writer` made the inbox
    wait) is her edit too."""
    return bool(found) and path.is_file() and sha256(path.read_bytes()) not in (found, written)


def held_instead(filed: Filed, edited: Mapping[str, tuple[str, list[Lost] | None]], message: str) -> Filed:
    """An accepted workbook whose earlier versions `edited` the secretary changed between the decision
    and its filing, the club's version losing what she typed (each with the cells lost): held for her
    as one she had edited before is (`decide`), kept under
    archive/inbox/held/<message>-<name>, with its warnings and what filing it would change; no hold of
    its circuit, no calendar note, no correction of a refused one (it is not filed)."""
    notes = tuple(said for said in filed.problems if said.code not in (UPSTREAM.code, ANNOUNCED_ELSEWHERE))
    replaced = tuple(_hers_in(dataclasses.replace(r, kept=""), *edited[r.path]) if r.path in edited
                     else dataclasses.replace(r, kept="") for r in filed.replaced)
    return dataclasses.replace(filed, status="held", path=aside(HELD, message, filed.filename), replaced=replaced,
                               problems=notes, corrects=())


def carry_out(filed: Filed, data: bytes, inputs: Path, archive: Path, message: str,
              losing: Losing) -> Filed:
    """Do what was decided (again, after a stopped run: each step may be done twice); the decision as
    carried out: held instead of filed when the secretary edited an earlier version meanwhile and the
    club's version loses some of it (`losing`: `file_accepted`; `held_instead`, `message` as
    `decide`'s), which the caller records."""
    if filed.status == "accepted":
        edited = file_accepted(inputs, archive, filed.path, data, list(filed.replaced), losing)
        if not edited:
            return filed
        filed = held_instead(filed, edited, message)
    if filed.status == "same":  # inputs/ has it: nothing written, so nothing for a build to redo
        return filed
    # refused or held: kept aside, inputs/ untouched. Bytes refused or held again are where the first
    # time kept them: that copy stays as it is (a copy she had deleted made a new decision,
    # `Inbox._before`; written again only if she deleted it after the decision, while a stopped run
    # waited to carry it out).
    kept = archive / filed.path
    if not (kept.is_file() and sha256(kept.read_bytes()) == filed.sha256):
        write_atomic(kept, data)
    return filed
