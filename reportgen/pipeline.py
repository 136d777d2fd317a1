"""The whole build: discover → read → parse → normalise → score → render → publish.

One process, each workbook read once. A circuit with any problem publishes nothing new; the
others still build.
"""

from __future__ import annotations

import dataclasses
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
from reportgen.ingest.text import clean_text, normalise_label
from reportgen.ingest.tournament import TournamentSheet, read_tournament_sheet
from reportgen.ingest.workbook import Workbook, label_of, read_workbooks
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
        notices.append(f"{label_of(path, inputs)} : ignoré, seuls les classeurs .xlsx "
                       "et .xlsm sont lus (enregistrez-le au format .xlsx)")
    settings = config.load(inputs, defaults, problems)
    # The league's name is printed everywhere: no control character reaches an output.
    settings = dataclasses.replace(settings, name=clean_text(settings.name))
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

    if any(p.where.path.casefold() == CLUBS_FILE for p in problems):
        # A club directory that cannot be read (or is absent) makes every club « inconnu »: said once,
        # as the cause (build prints it first), not once per workbook. It blocks every circuit; the
        # clubs are checked again once it is fixed.
        for inputs_ in found.values():
            inputs_.problems[:] = [p for p in inputs_.problems if p.code != "unknown-club"]
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
    is written until all of it is rendered.

    A PDF already on disk is reused only when the circuit's manifest, written after its PDFs,
    records it as rendered from this very HTML with today's render fingerprint (libraries,
    subsetting path, stylesheet, fonts): a PDF left by an interrupted run, or made by other
    libraries, is rendered again."""
    import json

    from reportgen.render import excel, html, index, mail, pdf
    from reportgen.render import ranking as ranking_render

    info = circuits.REGISTRY[slug]
    manifest = folder / index.MANIFEST
    files: dict[Path, bytes] = {manifest: index.manifest(slug, info.title, f"« {info.regulation_title} »", report)}
    try:
        recorded = json.loads(manifest.read_text(encoding="utf-8")).get("pdfs", {}) if manifest.is_file() else {}
    except (OSError, ValueError, AttributeError):
        recorded = {}
    if not isinstance(recorded, dict):  # not a manifest of ours: nothing is proven
        recorded = {}
    pending: list[tuple[Path, str, dt.date]] = []
    for document in report.documents:
        page = html.render(document)
        html_path = folder / f"{document.path}.html"
        pdf_path = html_path.with_suffix(".pdf")
        files[html_path] = page.encode("utf-8")
        try:
            existing = pdf_path.read_bytes() if pdf_path.is_file() else None
        except OSError:
            existing = None
        if existing is not None and pdf.reusable(recorded.get(pdf_path.relative_to(folder).as_posix()),
                                                 files[html_path], existing):
            files[pdf_path] = existing
        else:
            pending.append((pdf_path, page, document.date))
    for ranking in report.rankings:
        files[folder / f"{ranking.path}.csv"] = ranking_render.to_spreadsheet_csv(ranking)
    for annex in report.annexes:
        files[folder / f"{annex.path}.xlsx"] = excel.render_annex(annex)
    for message in report.messages:
        files[folder / f"{message.path}.eml"] = mail.to_eml(message)
    return files, pending


def publish(files: dict[Path, bytes], folder: Path) -> list[Path]:
    """Publish a circuit's files all together, on disk too: what changed replaces the old files and
    the circuit's outputs that no longer exist are removed, through a journal (render/files.py), so
    that a kill, a Ctrl-C or a full disk leaves the previous publication or the new one, never a mix.
    The manifest goes last. An OSError is an OutputError naming the folder."""
    from reportgen.render.files import publish_folder
    from reportgen.render.index import MANIFEST

    return publish_folder(folder, files, last=folder / MANIFEST,
                          stale_suffixes=(".html", ".pdf", ".csv", ".xlsx", ".eml"))


def build(inputs: Path, outputs: Path, today: dt.date | None = None,
          progress: Progress = lambda message: None) -> BuildResult:
    import json

    from reportgen.model import ReportgenError
    from reportgen.render import pdf
    from reportgen.render.files import OutputError, clean_temporaries, recover, write_atomic
    from reportgen.render.index import MANIFEST, render_index

    # A publication a stopped run left halfway is finished (or its temporary files removed) before
    # anything reads outputs/: the PDFs' records in the manifests must be those of the files there.
    for slug in circuits.REGISTRY:
        recover(outputs / slug)
    clean_temporaries(outputs, recursive=False)
    league = load(inputs, today)
    scored = score(league)
    problems = set(league.all_problems())
    for slug, blocking in scored.blocked.items():
        problems |= set(blocking)
        progress(f"{slug} : des classeurs sont à corriger, rien de nouveau n'est publié")
    notices = league.notices + [notice for report in scored.reports.values() for notice in report.notices]
    # A broken club directory first: it is the cause of what a circuit says about its clubs.
    result = BuildResult(blocked=list(scored.blocked), notices=notices,
                         problems=sorted(problems, key=lambda p: (p.where.path.casefold() != CLUBS_FILE, p)))
    rendered = {slug: render_report(slug, report, outputs / slug) for slug, report in scored.reports.items()}
    # All the PDFs of the build in one pool of workers: WeasyPrint is imported once per worker.
    pending = [item for _, waiting in rendered.values() for item in waiting]
    pdfs: dict[Path, bytes] = {}
    if pending:
        progress(f"{len(pending)} PDF à produire")
        pdfs = dict(zip((path for path, _, _ in pending),
                        pdf.render_many([(page, day) for _, page, day in pending], progress=progress)))
    failures: list[OutputError] = []
    for slug, (files, waiting) in rendered.items():
        folder = outputs / slug
        files.update({path: pdfs[path] for path, _, _ in waiting})
        # The manifest records each PDF with the HTML and fingerprint it was made from: the proof
        # the next build needs to reuse it.
        manifest = json.loads(files[folder / MANIFEST])
        manifest["pdfs"] = {path.relative_to(folder).as_posix(): pdf.record(files[path.with_suffix(".html")], data)
                            for path, data in sorted(files.items()) if path.suffix == ".pdf"}
        files[folder / MANIFEST] = (json.dumps(manifest, ensure_ascii=False, indent=1) + "\n").encode("utf-8")
        try:
            result.published[slug] = publish(files, folder)
        except OutputError as failure:  # nothing of this circuit published; the others still try
            failures.append(failure)
            continue
        report = scored.reports[slug]
        progress(f"{slug} : {len(report.documents)} bulletins et {len(report.annexes)} annexe(s) à jour, "
                 f"{len(result.published[slug])} fichier(s) modifié(s)")
    try:
        if any((outputs / slug / MANIFEST).exists() for slug in circuits.CIRCUITS):
            # From the manifests on disk: it links what each circuit really holds, even when one failed.
            page = render_index(outputs, list(circuits.CIRCUITS), league.settings.name, result.blocked,
                                result.notices, result.problems)
            write_atomic(outputs / "index.html", page.encode("utf-8"))
    except OutputError as failure:
        failures.append(failure)
    if failures:
        raise failures[0] if len(failures) == 1 else ReportgenError("\n".join(str(f) for f in failures))
    return result