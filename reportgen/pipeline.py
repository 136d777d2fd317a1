"""The whole build: discover → read → parse → normalise → score → render → publish.

One process, each workbook read once. A circuit with any problem publishes nothing new; the
others still build.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from reportgen import circuits, config
from reportgen.circuits.base import Reading
from reportgen.ingest.directories import CLUBS_FILE, PLAYERS_FILE, ClubDirectory, read_clubs, read_players
from reportgen.ingest.discover import discover
from reportgen.ingest.duplicates import newcomers, probable_duplicates
from reportgen.ingest.normalise import results_table
from reportgen.ingest.players import Identities, read_distinct
from reportgen.ingest.seasons import read_closed
from reportgen.ingest.text import normalise_label
from reportgen.ingest.tournament import TournamentSheet, read_tournament_sheet
from reportgen.ingest.workbook import Workbook, read_workbooks
from reportgen.model import Event, Problem, Report, SourceRef

Progress = Callable[[str], None]


@dataclass
class CircuitInputs:
    events: list[Event] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    results: pd.DataFrame = field(default_factory=pd.DataFrame)  # set once the events are read


@dataclass
class League:
    """Everything read from inputs/, validated, before scoring."""

    settings: config.League
    reading: Reading
    circuits: dict[str, CircuitInputs]
    problems: list[Problem]  # problems no circuit owns: they block every circuit
    notices: list[str]

    def problems_of(self, slug: str) -> list[Problem]:
        return sorted(self.problems + self.circuits[slug].problems)

    def all_problems(self) -> list[Problem]:
        return sorted({p for inputs in self.circuits.values() for p in inputs.problems} | set(self.problems))


def _circuit_slug(value: object) -> str:
    from reportgen.ingest.values import BadValue, text

    wanted = normalise_label(text(value))
    for slug in circuits.REGISTRY:
        if normalise_label(slug) == wanted:
            return slug
    raise BadValue(f"le circuit « {text(value)} » n'existe pas",
                   "écrivez l'un de : " + ", ".join(circuits.REGISTRY))


# The sheets only one kind of workbook has (docs/formats.md).
_SHEETS_OF = {"matchs": ("masters",), "desistements": ("masters",), "participants": ("masters",),
              "resultats": ("grand-sud", "tour-de-france")}


def _circuits_it_points_to(workbook: Workbook) -> list[str]:
    """The scored circuits a workbook without a readable `Circuit` concerns: a folder named after a
    circuit (inputs/masters/…), else its sheets; none when nothing points anywhere."""
    folders = {normalise_label(part) for part in Path(workbook.label).parts[:-1]}
    named = [slug for slug in circuits.CIRCUITS if normalise_label(slug) in folders]
    if named:
        return named
    sheets = {normalise_label(sheet.name) for sheet in workbook.sheets}
    return sorted({slug for name in sheets for slug in _SHEETS_OF.get(name, ()) if slug in circuits.CIRCUITS})


def load(inputs: Path, today: dt.date | None = None) -> League:
    today = today or dt.date.today()
    problems: list[Problem] = []
    notices: list[str] = []
    defaults = {slug: circuit.Settings() for slug, circuit in circuits.CIRCUITS.items()}
    found = {slug: CircuitInputs() for slug in circuits.CIRCUITS}
    if not inputs.is_dir():
        problem = Problem(SourceRef(str(inputs)), "le dossier des classeurs n'existe pas",
                          "indiquez le bon dossier avec --inputs")
        return League(config.League(circuits=defaults), Reading(ClubDirectory(), today), found, [problem], [])
    paths, skipped = discover(inputs)
    for path in skipped:
        notices.append(f"{path.relative_to(inputs).as_posix()} : ignoré, seuls les classeurs .xlsx "
                       "et .xlsm sont lus (enregistrez-le au format .xlsx)")
    settings = config.load(inputs, defaults, problems)
    workbooks, unreadable = read_workbooks(paths, inputs)
    problems.extend(unreadable)  # a file we cannot open may belong to any circuit
    by_name = {wb.label.casefold(): wb for wb in workbooks}

    tournaments: list[tuple[Workbook, TournamentSheet, str]] = []  # a workbook, its Tournoi sheet, its circuit
    for workbook in workbooks:
        if workbook.label.casefold() in (CLUBS_FILE, PLAYERS_FILE):
            continue
        unknown: list[Problem] = []  # its circuit cannot be read: whom does it concern?
        sheet = read_tournament_sheet(workbook, unknown, circuits.tournament_fields())
        slug = sheet.read("circuit", _circuit_slug, unknown) if sheet is not None else None
        if sheet is None or slug is None:
            suspects = _circuits_it_points_to(workbook)
            for suspect in suspects:
                found[suspect].problems.extend(unknown)
            if not suspects:
                problems.extend(unknown)  # it could be any circuit's
            continue
        if circuits.REGISTRY[slug].status != circuits.SCORED:
            # Recognised but not scored yet: set aside and said, it does not block the others.
            notices.append(f"{workbook.label} : le circuit {slug} n'est pas encore pris en charge, "
                           "ce classeur est mis de côté")
            continue
        tournaments.append((workbook, sheet, slug))

    needs_clubs = sorted({slug for _, _, slug in tournaments if circuits.REGISTRY[slug].needs_clubs})
    clubs = ClubDirectory()
    if CLUBS_FILE in by_name:
        clubs = read_clubs(by_name[CLUBS_FILE], problems)
    elif any(p.where.path.casefold() == CLUBS_FILE for p in unreadable):
        pass  # already said: the file is there but cannot be read
    elif needs_clubs:
        problems.append(Problem(SourceRef(CLUBS_FILE), "l'annuaire des clubs est absent (les classeurs "
                                f"{', '.join(needs_clubs)} nomment des clubs)",
                                "ajoutez inputs/clubs.xlsx (feuille Clubs : Code, Nom, Département, Email)"))
    else:
        notices.append(f"{CLUBS_FILE} : absent, aucun classeur présent n'en a besoin")
    directory = read_players(by_name[PLAYERS_FILE], problems) if PLAYERS_FILE in by_name else []
    distinct = read_distinct(by_name[PLAYERS_FILE], problems) if PLAYERS_FILE in by_name else set()
    reading = Reading(clubs=clubs, today=today, league=settings.name, closed=read_closed(inputs, problems))
    for workbook, sheet, slug in tournaments:
        event = circuits.CIRCUITS[slug].parse(workbook, sheet, reading, found[slug].problems)
        if event is not None:
            found[slug].events.append(event)

    entries = [entry for inputs_ in found.values() for event in inputs_.events for entry in event.entries]
    identities = Identities(directory, entries, problems)
    for inputs_ in found.values():
        if inputs_.events:
            inputs_.results = results_table(inputs_.events, identities, clubs, inputs_.problems)
    notices += player_notices(found, distinct)
    return League(settings, reading, found, problems, notices)


NEWCOMERS_LISTED = 12  # beyond, the count and the first ones


def player_notices(found: dict[str, CircuitInputs], distinct: set[frozenset[str]]) -> list[str]:
    """The newcomers of each circuit's latest workbooks, and the pairs that are probably one person."""
    notices = []
    for slug, inputs_ in found.items():
        new = newcomers(inputs_.results)
        if new:
            shown = ", ".join(new[:NEWCOMERS_LISTED]) + (f" et {len(new) - NEWCOMERS_LISTED} autres"
                                                          if len(new) > NEWCOMERS_LISTED else "")
            notices.append(f"{slug} : {len(new)} nouveau(x) joueur(s) dans les derniers classeurs : {shown}")
        # Within a circuit: a Diplomacy player and a Des Chiffres et des Lettres player are two people.
        notices += probable_duplicates(inputs_.results, distinct)
    return notices


@dataclass
class Scored:
    reports: dict[str, Report] = field(default_factory=dict)  # the circuits that may publish
    blocked: dict[str, list[Problem]] = field(default_factory=dict)  # the others, and why


def score(league: League, wanted: list[str] | None = None) -> Scored:
    """Score the circuits (those `wanted` and what they need), dependencies first.

    A circuit is blocked by any problem of its own inputs, by problems its scoring finds (those
    that need the whole league to be seen, such as a Masters pairing that is not the schedule's),
    or by a blocked circuit it needs.
    """
    needed = set(circuits.CIRCUITS if wanted is None else wanted)
    for slug in circuits.CIRCUITS:  # the registry lists dependencies first
        if slug in needed:
            needed |= set(circuits.REGISTRY[slug].requires)
    scored = Scored()
    for slug, circuit in circuits.CIRCUITS.items():
        inputs = league.circuits[slug]
        if slug not in needed or (not inputs.events and not inputs.problems):
            continue
        problems = league.problems_of(slug)
        missing = [r for r in circuit.info.requires if r not in scored.reports]
        if not problems and missing:
            problems = [Problem(SourceRef(inputs.events[0].id), f"le circuit {', '.join(missing)}, dont dépend "
                                f"{slug}, a des classeurs à corriger : rien ne peut être établi", code="upstream")]
        if not problems:
            report = circuit.score(inputs.results, inputs.events, league.settings.circuits[slug], league.reading,
                                   {r: scored.reports[r] for r in circuit.info.requires})
            problems = sorted(report.problems)
        if problems:
            scored.blocked[slug] = problems
        else:
            scored.reports[slug] = report
    return scored


@dataclass
class BuildResult:
    published: dict[str, list[Path]] = field(default_factory=dict)  # slug -> files written
    blocked: list[str] = field(default_factory=list)  # circuits that published nothing new
    problems: list[Problem] = field(default_factory=list)  # every problem of the inputs
    notices: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


def render_report(slug: str, report: Report, folder: Path) -> tuple[dict[Path, bytes], list[tuple[Path, str, dt.date]]]:
    """Every file of a circuit in memory, and the PDFs still to render (path, HTML, date): nothing
    is written until all of it is rendered."""
    from reportgen.render import excel, html, index, mail
    from reportgen.render import ranking as ranking_render

    info = circuits.REGISTRY[slug]
    files: dict[Path, bytes] = {folder / index.MANIFEST: index.manifest(slug, info.title, f"« {info.regulation_title} »", report)}
    pending: list[tuple[Path, str, dt.date]] = []
    for document in report.documents:
        page = html.render(document)
        html_path = folder / f"{document.path}.html"
        pdf_path = html_path.with_suffix(".pdf")
        files[html_path] = page.encode("utf-8")
        # Incremental: the PDF is a function of the HTML (which inlines the CSS and names the
        # generator); unchanged HTML and an existing PDF mean nothing to render.
        if pdf_path.exists() and html_path.exists() and html_path.read_bytes() == files[html_path]:
            files[pdf_path] = pdf_path.read_bytes()
        else:
            pending.append((pdf_path, page, document.date))
    for ranking in report.rankings:
        files[folder / f"{ranking.path}.csv"] = ranking_render.to_csv(ranking)
    for annex in report.annexes:
        files[folder / f"{annex.path}.xlsx"] = excel.render_annex(annex)
    for message in report.messages:
        files[folder / f"{message.path}.eml"] = mail.to_eml(message)
    return files, pending


def publish(files: dict[Path, bytes], folder: Path) -> list[Path]:
    """Write what changed, atomically, and remove the circuit's outputs that no longer exist."""
    from reportgen.render.files import write_atomic

    written = [path for path, data in sorted(files.items()) if write_atomic(path, data)]
    if folder.exists():
        for stale in folder.rglob("*"):
            if stale.is_file() and stale not in files and stale.suffix in (".html", ".pdf", ".csv", ".xlsx", ".eml"):
                stale.unlink()
    return written


def build(inputs: Path, outputs: Path, today: dt.date | None = None,
          progress: Progress = lambda message: None) -> BuildResult:
    league = load(inputs, today)
    scored = score(league)
    problems = set(league.all_problems())
    for slug, blocking in scored.blocked.items():
        problems |= set(blocking)
        progress(f"{slug} : des classeurs sont à corriger, rien de nouveau n'est publié")
    notices = league.notices + [notice for report in scored.reports.values() for notice in report.notices]
    result = BuildResult(blocked=list(scored.blocked), problems=sorted(problems), notices=notices)
    rendered = {slug: render_report(slug, report, outputs / slug) for slug, report in scored.reports.items()}
    # All the PDFs of the build in one pool of workers: WeasyPrint is imported once per worker.
    pending = [item for _, waiting in rendered.values() for item in waiting]
    pdfs: dict[Path, bytes] = {}
    if pending:
        from reportgen.render import pdf

        progress(f"{len(pending)} PDF à produire")
        pdfs = dict(zip((path for path, _, _ in pending),
                        pdf.render_many([(page, day) for _, page, day in pending], progress=progress)))
    for slug, (files, waiting) in rendered.items():
        files.update({path: pdfs[path] for path, _, _ in waiting})
        result.published[slug] = publish(files, outputs / slug)
        report = scored.reports[slug]
        progress(f"{slug} : {len(report.documents)} bulletins et {len(report.annexes)} annexe(s) à jour, "
                 f"{len(result.published[slug])} fichier(s) modifié(s)")
    from reportgen.render.files import write_atomic
    from reportgen.render.index import MANIFEST, render_index

    if any((outputs / slug / MANIFEST).exists() for slug in circuits.CIRCUITS):
        page = render_index(outputs, list(circuits.CIRCUITS), league.settings.name, result.blocked)
        write_atomic(outputs / "index.html", page.encode("utf-8"))
    return result
