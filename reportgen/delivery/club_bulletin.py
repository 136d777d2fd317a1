"""A club's own bulletin: a short PDF (`outputs/clubs/<season>/<CODE>.pdf`) made when `reportgen
mail` drafts the clubs' messages, never by a build (a new tournament moves every club's places, and
a build renders only the bulletins it adds).

It holds the club's players in each circuit (each circuit's part, `circuits/club_sections.py`: the
circuit's own when it gives one) and the tournaments the club organises in the season, received or
awaited (the league's calendar: inputs/calendrier.xlsx when present, the workbooks received
always). Its file is named from the club's code reduced to `[A-Za-z0-9_-]`, never from a workbook;
the names in it are data (escaped by the template). Same inputs, same bytes; written atomically,
only when its bytes change.

A PDF is rendered again only when its HTML or the day dating its fonts changed: each is recorded
in `outputs/.reportgen/club-pdfs` with the hashes of its HTML and bytes and the render fingerprint
(`pdf.record`), as a bulletin is in its circuit's manifest, so a second `reportgen mail` with the
same rankings lays out nothing. The record is written after the PDFs: a run stopped between them
renders those PDFs once more, and a PDF edited or deleted by hand no longer matches its record."""

from __future__ import annotations

import datetime as dt
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from reportgen import circuits, french, pipeline
from reportgen.circuits.club_sections import Member, club_sections
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
from reportgen.ingest.directories import Club
from reportgen.ingest.read_cache import FOLDER as STATE_FOLDER
from reportgen.ingest.read_cache import FORMAT, load_json, write_file
from reportgen.model import ClubSection, Document, Ranking
from reportgen.pipeline.calendar import final_season, over_their_days, state
from reportgen.render.files import remove_others, write_atomic

FOLDER = "clubs"  # under outputs/
RECORDS = "club-pdfs"  # under outputs/.reportgen/: the proof of each club PDF (JSON, never code)
TEMPLATE = "club.html.j2"


def safe(code: str) -> str:
    """A file name from a club's code: never a path."""
    return re.sub(r"[^A-Za-z0-9_-]+", "-", code).strip("-") or "club"


@dataclass(frozen=True)
class ClubBulletin:
    club: Club
    path: str  # relative to outputs/
    season: int
    sections: tuple[ClubSection, ...]
    tournaments: tuple[dict[str, str], ...]
    circuit: str | None = None  # the one circuit it covers (`mail --circuit`), or None for all
    # The day its tournaments' results are said as of (`prepare`): the day its message is written.
    as_of: dt.date | None = None

    @property
    def filename(self) -> str:
        """Its name as an attachment: the club's code and the season, not the bare code; one
        circuit's after that circuit, as its full bulletin is (mail.Bulletin.filename)."""
        return (f"{self.circuit}-" if self.circuit else "") + f"bulletin-{safe(self.club.code)}-{self.season}.pdf"


def folder(season: int, circuit: str | None) -> str:
    """The club bulletins' folder, relative to outputs/ (one circuit's: a folder of its own)."""
    return f"{FOLDER}/{season}" + (f"/{circuit}" if circuit else "")


# What the « Résultats » column says of a tournament (pipeline/calendar.py `state`), and its colour.
RESULTS = {PLAYED: ("reçu", "up"), RUNNING: ("en cours", "muted"), STARTED: ("en cours", "muted"),
           REGISTERED: ("inscriptions reçues", "muted"), AWAITED: ("attendu", "down"),
           UNFINISHED: ("suite attendue", "down"), CANCELLED: ("annulé", "muted"),
           NOT_RECEIVED: ("non reçu", "down"), COMING: ("à venir", "muted")}


def _tournaments(league: pipeline.League, entries: list[CalendarEntry], club: Club, season: int,
                 slugs: list[str], day: dt.date) -> tuple[dict[str, str], ...]:
    """The club's tournaments of the season (`entries`: the league's calendar, each over its days):
    received (its workbook is in inputs/), running (a pool tournament between its rounds, or one
    announced between its first day and its Fin, its workbook not arrived: « en cours » too), its
    registrations alone in (« inscriptions reçues »), cancelled (« annulé »), awaited
    (announced, its date past on `day`, no workbook yet) or to come, as of `day` (`state`; a season
    whose ranking is final, as of today, and one awaited « non reçu »: `final_season`), each by its
    `CalendarEntry.title` and its days as the site says them (a pool tournament over: « du 5
    septembre au 6 octobre 2026 »)."""
    found = []
    for entry in sorted(entries, key=lambda e: (e.date, e.circuit, e.name)):
        if entry.club != club.code or entry.date.year != season or entry.circuit not in slugs:
            continue
        # a closed season's ranking is final: as of today, not of its last tournament, and never « attendu »
        said = state(entry, day, league.reading.today, final_season(entry.circuit, season, league.reading))
        status, kind = RESULTS[said]
        found.append({"day": entry.days(), "circuit": circuits.REGISTRY[entry.circuit].title,
                      "name": entry.title(league.reading.clubs), "place": entry.place, "status": status, "kind": kind})
    return tuple(found)


def prepare(league: pipeline.League, scored: pipeline.Scored, season: int, circuit: str | None,
            rankings: Mapping[str, Ranking], day: dt.date) -> dict[str, ClubBulletin]:
    """Each club with players in the season's rankings (by code): its part of each circuit
    (`rankings`: the ranking each circuit's message reports), in registry order; its tournaments as
    of `day`: `reportgen mail` gives the day the message is written, the day its lines on the
    results awaited are true on (delivery/mail.py `awaited_line`), not the bulletin's date, which is
    its latest circuit's (the Masters' of 28 November beside the Grand Sud's of 14 November): as of
    that date the PDF said « à venir » a tournament of 5 December that the message of 7 December
    said « attendu »."""
    # Every circuit, not only those with workbooks: the Masters' part is the race to it all season.
    slugs = [slug for slug in circuits.CIRCUITS if circuit is None or slug == circuit]
    directory = league.reading.clubs
    codes: dict[str, str | None] = {}  # a ranking row's club -> its code

    def code_of(name: str) -> str | None:
        if name not in codes:
            found = directory.find(name) if name else None
            codes[name] = found.code if found else None
        return codes[name]

    def member(code: str) -> Member:
        return lambda row: code_of(row.club) == code

    entries = over_their_days(league.calendar, scored.reports)
    made = {}
    for club in directory.clubs:
        sections = tuple(section for slug in slugs for section in club_sections(
            circuits.CIRCUITS[slug], season, rankings, scored.reports, member(club.code)))
        if sections:
            made[club.code] = ClubBulletin(club, f"{folder(season, circuit)}/{safe(club.code)}.pdf", season, sections,
                                           _tournaments(league, entries, club, season, slugs, day), circuit, day)
    return made


def document(bulletin: ClubBulletin, league: str, day: dt.date, announced: bool) -> Document:
    club = bulletin.club
    return Document(
        path=bulletin.path.removeprefix(f"{FOLDER}/").removesuffix(".pdf"), template=TEMPLATE,
        title=f"Bulletin {french.of_club(club.name)}", date=day, season=bulletin.season,
        context={"league": league, "circuit": french.club_title(club.name), "season": bulletin.season,  # as the site heads it
                 "title": f"Bulletin {french.of_club(club.name)} au {french.date_long(day)}",
                 "summary": "Les joueurs du club dans chaque classement de la saison, et les tournois qu’il organise.",
                 "of_club": french.of_club(club.name), "announced": announced,
                 "sections": [{"circuit": s.circuit, "title": s.title, "headers": s.headers, "rows": s.rows,
                               "note": s.note} for s in bulletin.sections],
                 "tournaments": list(bulletin.tournaments),
                 # the day they are said as of, when it is not the bulletin's (`prepare`)
                 "tournaments_day": french.date_long(bulletin.as_of) if bulletin.as_of not in (None, day) else "",
                 # under the players' tables (each says its « Évolution » under it: `ClubSection.note`)
                 "legend": "Les bulletins complets de chaque circuit donnent tous les joueurs et la méthode."})


def _previous(outputs: Path) -> dict[str, object]:
    found = load_json(outputs / STATE_FOLDER / RECORDS)
    valid = isinstance(found, dict) and found.get("format") == FORMAT and isinstance(found.get("pdfs"), dict)
    return found["pdfs"] if valid else {}


def _taken(path: Path, recorded: object, html: bytes, day: dt.date) -> bool:
    """True when the PDF at `path` is the one `html` gives today (pdf.reusable), for the same day."""
    from reportgen.render import pdf

    if not (isinstance(recorded, dict) and recorded.get("day") == day.isoformat() and path.is_file()):
        return False
    return pdf.reusable(recorded.get("proof"), html, path.read_bytes())


def write(bulletins: Mapping[str, ClubBulletin], outputs: Path, league: str, day: dt.date, announced: bool,
          season_folder: str) -> list[Path]:
    """Every club's PDF, the changed ones rendered in parallel, each written only when its bytes
    change; the PDFs of clubs no longer concerned removed from the folder. The paths of the PDFs
    (written or not)."""
    from reportgen.render import html, pdf

    previous = _previous(outputs)
    made = [(b.path, html.render(document(b, league, day, announced)).encode()) for b in bulletins.values()]
    to_render = [(path, page) for path, page in made if not _taken(outputs / path, previous.get(path), page, day)]
    rendered = pdf.render_many([(page.decode(), day) for _, page in to_render])
    records = dict(previous)
    for (path, page), data in zip(to_render, rendered):
        write_atomic(outputs / path, data)
        records[path] = {"day": day.isoformat(), "proof": pdf.record(page, data)}
    paths = [outputs / path for path, _ in made]
    remove_others(outputs / season_folder, "*.pdf", paths)
    kept = {path: record for path, record in sorted(records.items()) if (outputs / path).is_file()}
    if kept != previous:
        write_file(outputs / STATE_FOLDER / RECORDS,
                   (json.dumps({"format": FORMAT, "pdfs": kept}, separators=(",", ":")) + "\n").encode())
    return paths
