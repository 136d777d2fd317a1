"""The whole build: discover → read → parse → normalise → score → render → publish.

One process, each workbook read once. A circuit with any problem publishes nothing new; the
others still build. What did not change is not done again (render/cache.py): a build whose inputs,
code, libraries and outputs are those of the last one writes nothing and reads nothing; a workbook
read before is not read again; a bulletin or annex whose source did not change is not rendered
again. Importing this module loads no pandas and no circuit: the build that has nothing to do
returns before they are needed.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import gc
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from reportgen import circuits, config, french
from reportgen.ingest.directories import CLUBS_FILE, PLAYERS_FILE, ClubDirectory, read_clubs, read_players
from reportgen.ingest.discover import discover
from reportgen.ingest.players import Identities, read_distinct
from reportgen.ingest.seasons import read_closed
from reportgen.ingest.text import clean_text, normalise_label
from reportgen.ingest.tournament import TournamentSheet, read_tournament_sheet
from reportgen.ingest.workbook import Sheet, Workbook, label_of, read_workbooks, start_readers
from reportgen.model import Event, Problem, Report, SourceRef
from reportgen.problems import DUPLICATE_TOURNAMENT, MISSING_CLUBS, MISSING_INPUTS, UNKNOWN_CLUB, UPSTREAM

if TYPE_CHECKING:
    import pandas as pd

    from reportgen.circuits.base import Reading
    from reportgen.render.cache import ReadCache

# What a build says as it goes: a message (« 2 PDF à produire »). The object may also have
# `phase(what, total)` and `advance(count)` (the command line's progress bar): both are optional.
Progress = Callable[[str], None]


def _phase(progress: Progress, what: str, total: int) -> None:
    start = getattr(progress, "phase", None)
    if start is not None:
        start(what, total)


def _advance(progress: Progress, count: int = 1) -> None:
    step = getattr(progress, "advance", None)
    if step is not None:
        step(count)


def _empty_results() -> pd.DataFrame:
    import pandas as pd

    return pd.DataFrame()


@dataclass
class CircuitInputs:
    events: list[Event] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    results: pd.DataFrame = field(default_factory=_empty_results)  # set once the events are read
    listed: pd.DataFrame = field(default_factory=_empty_results)  # people listed without a result (Event.listed)


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


def load(inputs: Path, today: dt.date | None = None, progress: Progress = lambda message: None,
         reads: ReadCache | None = None, digests: dict[str, str] | None = None) -> League:
    """Read and validate everything in `inputs`. `reads` (with `digests`, the content hash of each
    file by its path relative to inputs/) gives the sheets of the workbooks read before: only the
    others are read, and what is read is added to it."""
    today = today or dt.date.today()
    problems: list[Problem] = []
    notices: list[str] = []
    if not inputs.is_dir():
        from reportgen.circuits.base import Reading

        problem = MISSING_INPUTS(SourceRef(str(inputs)))
        defaults = {slug: circuit.Settings() for slug, circuit in circuits.CIRCUITS.items()}
        return League(config.League(circuits=defaults), Reading(ClubDirectory(), today),
                      {slug: CircuitInputs() for slug in circuits.CIRCUITS}, [problem], [])
    paths, skipped = discover(inputs)
    known: dict[Path, tuple[int, list[Sheet]]] = {}
    if reads is not None and digests is not None:
        for path in paths:
            digest = digests.get(path.relative_to(inputs).as_posix())
            entry = reads.get(digest) if digest is not None else None
            if entry is not None:
                known[path] = entry
    new = [path for path in paths if path not in known]
    # Read before the circuits (pandas) are imported and the progress bar shows, which both start
    # threads: the reading workers are forked, in milliseconds, rather than spawned.
    start_readers(new)
    if new:
        _phase(progress, "lecture des classeurs", len(new))
    fresh: dict[Path, tuple[int, list[Sheet]]] = {}
    with _no_cycle_collection():
        workbooks, unreadable = read_workbooks(paths, inputs, known, fresh, done=lambda: _advance(progress))
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
            reads.put(digests[path.relative_to(inputs).as_posix()], size, sheets)
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
        problems.append(MISSING_CLUBS(SourceRef(CLUBS_FILE), workbooks=", ".join(needs_clubs)))
    else:
        notices.append(f"{CLUBS_FILE} : absent, aucun classeur présent n'en a besoin")
    directory = read_players(by_name[PLAYERS_FILE], problems) if PLAYERS_FILE in by_name else []
    distinct = read_distinct(by_name[PLAYERS_FILE], problems) if PLAYERS_FILE in by_name else set()
    reading = Reading(clubs=clubs, today=today, league=settings.name, closed=read_closed(inputs, problems))
    parsed: list[tuple[Workbook, str, Event | None]] = []
    for workbook, sheet, slug in tournaments:
        event = circuits.CIRCUITS[slug].parse(workbook, sheet, reading, found[slug].problems)
        if event is not None:
            found[slug].events.append(event)
        parsed.append((workbook, slug, event))
    for slug, problem in same_tournaments(parsed):
        found[slug].problems.append(problem)

    if any(p.where.path.casefold() == CLUBS_FILE for p in problems):
        # A club directory that cannot be read (or is absent) makes every club « inconnu »: said once,
        # as the cause (build prints it first), not once per workbook. It blocks every circuit; the
        # clubs are checked again once it is fixed.
        for inputs_ in found.values():
            inputs_.problems[:] = [p for p in inputs_.problems if p.code != UNKNOWN_CLUB.code]
    entries = [entry for inputs_ in found.values() for event in inputs_.events for entry in event.entries]
    identities = Identities(directory, entries, problems)
    for inputs_ in found.values():
        if inputs_.events:
            inputs_.results = results_table(inputs_.events, identities, clubs, inputs_.problems)
            inputs_.listed = listed_table(inputs_.events, identities)
    notices += player_notices(found, distinct)
    return League(settings, reading, found, problems, notices)


def _cells_digest(workbook: Workbook) -> str:
    """What a workbook holds, cell by cell: the same for two copies of one file (renamed, or saved
    again), whatever their bytes."""
    import hashlib

    digest = hashlib.sha256()
    for sheet in workbook.sheets:
        digest.update(repr((sheet.name, sheet.hidden, [list(row) for row in sheet.rows])).encode("utf-8", "replace"))
    return digest.hexdigest()


def same_tournaments(parsed: list[tuple[Workbook, str, Event | None]]) -> list[tuple[str, Problem]]:
    """Two workbooks of one tournament (the same cells, or what their circuit calls the same
    edition: `edition`, circuits/base.py): one problem for each copy after the first, naming both
    files. Both scored, a tournament would count twice, or replace itself (Grand Sud §1)."""
    first: dict[tuple[str, object], str] = {}
    said: set[str] = set()
    problems: list[tuple[str, Problem]] = []
    for workbook, slug, event in sorted(parsed, key=lambda item: item[0].label):
        keys: list[tuple[object, str, str]] = [(("cells", _cells_digest(workbook)), "les mêmes cellules",
                                                ", c'est une copie")]
        edition = getattr(circuits.CIRCUITS[slug], "edition", None)
        if event is not None and edition is not None:
            key, words = edition(event)
            keys.append((("edition", key), words, " ; s'il s'agit de deux tournois, corrigez dans la feuille "
                         "« Tournoi » de l'un sa date, son club ou sa série"))
        for key, words, then in keys:
            other = first.setdefault((slug, key), workbook.label)
            if other != workbook.label and workbook.label not in said:
                said.add(workbook.label)
                problems.append((slug, DUPLICATE_TOURNAMENT(SourceRef(workbook.label, "Tournoi"), other=other,
                                                            same=words, label=workbook.label, then=then)))
    return problems


NEWCOMERS_LISTED = 12  # beyond, the count and the first ones


def player_notices(found: dict[str, CircuitInputs], distinct: set[frozenset[str]]) -> list[str]:
    """The newcomers of each circuit's latest workbooks, and the pairs that are probably one person."""
    from reportgen.ingest.duplicates import newcomers, probable_duplicates

    notices = []
    for slug, inputs_ in found.items():
        new = newcomers(inputs_.results)
        if new:
            shown = ", ".join(new[:NEWCOMERS_LISTED]) + (f" et {len(new) - NEWCOMERS_LISTED} autres"
                                                          if len(new) > NEWCOMERS_LISTED else "")
            notices.append(f"{slug} : {french.plural(len(new), 'nouveau joueur', 'nouveaux joueurs')} dans les derniers classeurs : {shown}")
        # Within a circuit: a Diplomacy player and a Des Chiffres et des Lettres player are two people.
        notices += probable_duplicates(inputs_.results, distinct, inputs_.listed)
    return notices


@dataclass
class Scored:
    reports: dict[str, Report] = field(default_factory=dict)  # the circuits that may publish
    blocked: dict[str, list[Problem]] = field(default_factory=dict)  # the others, and why


def score(league: League, wanted: list[str] | None = None, progress: Progress = lambda message: None,
          then: Callable[[str, Report], None] = lambda slug, report: None) -> Scored:
    """Score the circuits (those `wanted` and what they need), dependencies first; `then` is given
    each report as soon as it is made (the build lays it out and starts its PDFs).

    A circuit is blocked by any problem of its own inputs, by problems its scoring finds (those
    that need the whole league to be seen, such as a Masters pairing that is not the schedule's),
    or by a blocked circuit it needs.
    """
    needed = set(circuits.CIRCUITS if wanted is None else wanted)
    for slug in circuits.CIRCUITS:  # the registry lists dependencies first
        if slug in needed:
            needed |= set(circuits.REGISTRY[slug].requires)
    scored = Scored()
    chosen = [slug for slug in circuits.CIRCUITS if slug in needed
              and (league.circuits[slug].events or league.circuits[slug].problems)]
    _phase(progress, "calcul des classements", len(chosen))
    with _no_cycle_collection():
        for slug in chosen:
            _score_one(league, slug, scored, then)
            _advance(progress)
    return scored


@contextmanager
def _no_cycle_collection() -> Iterator[None]:
    """Python's cycle collector paused: scoring makes millions of small containers and few cycles,
    and the collector's passes over the whole league were a third of the Grand Sud's scoring at
    10x and 6 s of its 18 at 100x (measured, for 6 % more memory); reading, a few percent. It runs
    again afterwards."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _score_one(league: League, slug: str, scored: Scored, then: Callable[[str, Report], None]) -> None:
    """One circuit's report, or the problems that block it (its own, or a circuit it needs blocked)."""
    circuit, inputs = circuits.CIRCUITS[slug], league.circuits[slug]
    problems = league.problems_of(slug)
    missing = [r for r in circuit.info.requires if r not in scored.reports]
    if not problems and missing:
        problems = [UPSTREAM(SourceRef(inputs.events[0].id), circuits=", ".join(missing), slug=slug,
                             joined=french.joined(missing))]
    if not problems:
        report = circuit.score(inputs.results, inputs.events, league.settings.circuits[slug], league.reading,
                               {r: scored.reports[r] for r in circuit.info.requires})
        problems = sorted(report.problems)
    if problems:
        scored.blocked[slug] = problems
    else:
        scored.reports[slug] = report
        then(slug, report)


@dataclass
class BuildResult:
    published: dict[str, list[Path]] = field(default_factory=dict)  # slug -> files written
    blocked: list[str] = field(default_factory=list)  # circuits that published nothing new
    problems: list[Problem] = field(default_factory=list)  # every problem of the inputs
    notices: list[str] = field(default_factory=list)
    # slug -> the HTML, XLSX and PDF files rendered by this build (the others were unchanged: taken
    # from outputs/, as the manifest proves them)
    rendered: dict[str, list[Path]] = field(default_factory=dict)
    # True when nothing had changed since the last build: nothing was read, scored or written
    unchanged: bool = False
    # render.changes.Republished: the documents already published for a date that this build changed
    republished: list = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


def render_report(slug: str, report: Report, folder: Path, progress: Progress = lambda message: None,
                  rendered: list[Path] | None = None, previous: dict | None = None,
                  pdfs_known: Callable[[list[tuple[Path, str, dt.date]]], None] = lambda pending: None,
                  ) -> tuple[dict[Path, bytes], list[tuple[Path, str, dt.date]]]:
    """Every file of a circuit in memory, and the PDFs still to render (path, HTML, date): nothing
    is written until all of it is rendered.

    A PDF already on disk is reused only when the circuit's manifest, written after its PDFs,
    records it as rendered from this very HTML with today's render fingerprint (libraries,
    subsetting path, stylesheet, fonts): a PDF left by an interrupted run, or made by other
    libraries, is rendered again. Likewise a bulletin's HTML, an annex or a notice (.eml) is taken
    from disk when the manifest records it as made from a source (template, context, title, date;
    the annex's tables; the message) with the same hash, code included (render/cache.py), and the
    file is still the one recorded: the same bytes a render would give, without rendering. The
    HTML, XLSX and EML files rendered, not taken from disk, are added to `rendered`. `previous`:
    the manifest on disk, when already read. `pdfs_known` is given the PDFs still to render as
    soon as the bulletins' HTML is known, before the CSV, annexes and notices: the build starts
    them at once (one new tournament: 0.1-0.2 s sooner)."""
    from reportgen.render import cache, excel, html, index, mail, pdf
    from reportgen.render import ranking as ranking_render

    info = circuits.REGISTRY[slug]
    manifest = folder / index.MANIFEST
    if previous is None:
        previous = index.read_manifest(manifest) or {}  # not a manifest of ours: nothing is proven
    recorded: dict[str, Any] = previous["pdfs"] if isinstance(previous.get("pdfs"), dict) else {}
    known: dict[str, Any] = previous["made_from"] if isinstance(previous.get("made_from"), dict) else {}
    made_from: dict[str, dict[str, str] | None] = {}
    rendered = rendered if rendered is not None else []

    def made(path: Path, key: str | None, render: Callable[[], bytes]) -> bytes:
        relative = path.relative_to(folder).as_posix()
        data = cache.reuse(path, known.get(relative), key)
        if data is None:
            data = render()
            rendered.append(path)
        made_from[relative] = cache.source_record(key, data)
        _advance(progress)
        return data

    pending: list[tuple[Path, str, dt.date]] = []
    files: dict[Path, bytes] = {}
    for document in report.documents:
        html_path = folder / f"{document.path}.html"
        pdf_path = html_path.with_suffix(".pdf")
        key = cache.source_key("html", document.template, document.context, document.title, document.date)
        files[html_path] = made(html_path, key, lambda: html.render(document).encode("utf-8"))
        try:
            existing = pdf_path.read_bytes() if pdf_path.is_file() else None
        except OSError:
            existing = None
        if existing is not None and pdf.reusable(recorded.get(pdf_path.relative_to(folder).as_posix()),
                                                 files[html_path], existing):
            files[pdf_path] = existing
        else:
            pending.append((pdf_path, files[html_path].decode("utf-8"), document.date))
    pdfs_known(pending)
    for ranking in report.rankings:
        files[folder / f"{ranking.path}.csv"] = ranking_render.to_spreadsheet_csv(ranking)
    for annex in report.annexes:
        path = folder / f"{annex.path}.xlsx"
        files[path] = made(path, cache.source_key("xlsx", annex), lambda: excel.render_annex(annex))
    for message in report.messages:  # a tournament of pools writes hundreds: 2 ms each with `email`
        path = folder / f"{message.path}.eml"
        files[path] = made(path, cache.source_key("eml", message), lambda: mail.to_eml(message))
    data = index.manifest(slug, info.title, f"« {info.regulation_title} »", report)
    # What each bulletin and annex was made from: the proof the next build needs to take it from disk.
    data["made_from"] = {path: record for path, record in sorted(made_from.items()) if record is not None}
    files = {manifest: _manifest_bytes(data), **files}
    return files, pending


def _manifest_bytes(data: dict[str, Any]) -> bytes:
    import json

    return (json.dumps(data, ensure_ascii=False, indent=1) + "\n").encode("utf-8")


def publish(files: dict[Path, bytes], folder: Path) -> list[Path]:
    """Publish a circuit's files all together, on disk too: what changed replaces the old files and
    the circuit's outputs that no longer exist are removed, through a journal (render/files.py), so
    that a kill, a Ctrl-C or a full disk leaves the previous publication or the new one, never a mix.
    The manifest goes last. An OSError is an OutputError naming the folder."""
    from reportgen.render.files import publish_folder
    from reportgen.render.index import MANIFEST

    return publish_folder(folder, files, last=folder / MANIFEST,
                          stale_suffixes=(".html", ".pdf", ".csv", ".xlsx", ".eml"))


def _prepare(outputs: Path) -> None:
    """A publication a stopped run left halfway is finished (or its temporary files removed) before
    anything reads outputs/: the PDFs' records in the manifests must be those of the files there."""
    from reportgen.render import cache
    from reportgen.render.files import clean_temporaries, recover

    for slug in circuits.REGISTRY:
        recover(outputs / slug)
    clean_temporaries(outputs, recursive=False)
    cache.clean(outputs)


def _replay(outputs: Path, keys: list[str | None], progress: Progress) -> BuildResult | None:
    from reportgen.render import cache

    last = cache.replay(outputs, keys, circuits.REGISTRY)
    if last is None:
        return None
    if any(key not in last.keys for key in keys if key is not None):
        # Known by one key (the league's content), not yet by the other (the folders it was put
        # together from): remembered, so that the next build knows from the folders alone.
        cache.remember(outputs, last, [key for key in keys if key is not None])
    progress("rien n'a changé depuis la dernière construction (classeurs, réglages, programme et sorties) : "
             "aucun fichier réécrit")
    return BuildResult(published={slug: [] for slug in last.published}, notices=list(last.notices), unchanged=True)


def unchanged(origin: list[Path], outputs: Path, today: dt.date | None = None,
              progress: Progress = lambda message: None) -> BuildResult | None:
    """The last build's result, when the folders the league is made from (`origin`: inputs/ and
    archive/) and outputs/ are as it left them, and so are the day, the code and the libraries: a
    build would change nothing. None otherwise (build)."""
    from reportgen.render import cache

    _prepare(outputs)
    key = cache.origin_key(origin, today or dt.date.today())
    return _replay(outputs, [key], progress) if key is not None else None


def build(inputs: Path, outputs: Path, today: dt.date | None = None,
          progress: Progress = lambda message: None, warm_pdf_workers: bool = False,
          origin: list[Path] | None = None) -> BuildResult:
    """Build and publish every circuit that has no problem. `warm_pdf_workers` (the command line):
    when a workbook is new, the PDF workers start at once, while the league is read and scored.
    `origin`: the folders `inputs` was made from, when it is a copy (inputs/ and archive/): the
    state of the build records them too, for `unchanged`."""
    from reportgen.render import cache

    today = today or dt.date.today()
    _prepare(outputs)
    # Nothing changed since the last build (same inputs, day, code, libraries; outputs as it left
    # them): it would write nothing, so nothing is read, scored or rendered.
    digests = cache.inputs_digest(inputs)
    keys = [cache.build_key(digests, today) if digests is not None else None]
    if origin:
        keys.append(cache.origin_key(origin, today))
    last = _replay(outputs, keys, progress) if any(keys) else None
    if last is not None:
        return last

    from reportgen.render import pdf

    reads = cache.ReadCache(outputs)
    if warm_pdf_workers and digests is not None and any(
            digest not in reads.known for name, digest in digests.items() if name.lower().endswith((".xlsx", ".xlsm"))):
        pdf.warm_up()  # a new workbook: bulletins will change
    try:
        return _build(inputs, outputs, today, progress, digests, keys, reads)
    finally:
        pdf.cool_down()


def _events_behind(league: League, slug: str) -> list:
    """The events a circuit's documents are made from: its own, and those of the circuits whose
    rankings it reads (a Grand Sud tournament changes the Masters' qualified players)."""
    slugs, stack = [], [slug]
    while stack:
        current = stack.pop()
        if current not in slugs:
            slugs.append(current)
            stack.extend(circuits.REGISTRY[current].requires)
    return [event for current in slugs for event in league.circuits[current].events]


def _build(inputs: Path, outputs: Path, today: dt.date, progress: Progress, digests: dict[str, str] | None,
           keys: list[str | None], reads: ReadCache) -> BuildResult:
    """The build itself, when something changed: what build() does after the check."""
    import json

    from reportgen.render import cache, changes, pdf
    from reportgen.render.files import MachineError, OutputError, write_atomic
    from reportgen.render.index import MANIFEST, read_manifest, render_index

    league = load(inputs, today, progress, reads, digests)
    rendered: dict[str, tuple[dict[Path, bytes], list[tuple[Path, str, dt.date]]]] = {}
    # Each circuit's manifest as last published: the proofs of what may be reused, and what the
    # documents already sent were made from (render/changes.py).
    previous: dict[str, dict | None] = {}
    # All the PDFs of the build in one pool of workers (WeasyPrint imported once, by their fork
    # server), each started as soon as its bulletin's HTML is known when the pool started early.
    pdfs = pdf.Batch()
    result = BuildResult()

    def lay_out(slug: str, report: Report) -> None:
        previous[slug] = read_manifest(outputs / slug / MANIFEST)
        result.rendered[slug] = []
        # messages only: the bar counts the circuits scored and laid out
        rendered[slug] = render_report(slug, report, outputs / slug, lambda message: progress(message),
                                       result.rendered[slug], previous[slug] or {}, pdfs_known=pdfs.add)

    scored = score(league, progress=progress, then=lay_out)
    problems = set(league.all_problems())
    for slug, blocking in scored.blocked.items():
        problems |= set(blocking)
        progress(f"{slug} : des classeurs sont à corriger, rien de nouveau n'est publié")
    result.notices = league.notices + [notice for report in scored.reports.values() for notice in report.notices]
    # A broken club directory first: it is the cause of what a circuit says about its clubs.
    result.blocked = list(scored.blocked)
    result.problems = sorted(problems, key=lambda p: (p.where.path.casefold() != CLUBS_FILE, p))
    pdf_files: dict[Path, bytes] = {}
    if len(pdfs):
        progress(f"{len(pdfs)} PDF à produire")
        _phase(progress, "PDF", len(pdfs))
        pdf_files = pdfs.results(progress)
    failures: list[OutputError] = []
    _phase(progress, "publication", len(rendered))
    for slug, (files, waiting) in rendered.items():
        folder = outputs / slug
        files.update({path: pdf_files[path] for path, _, _ in waiting})
        result.rendered[slug] += [path for path, _, _ in waiting]
        # The manifest records each PDF with the HTML and fingerprint it was made from: the proof
        # the next build needs to reuse it.
        manifest = json.loads(files[folder / MANIFEST])
        manifest["pdfs"] = {path.relative_to(folder).as_posix(): pdf.record(files[path.with_suffix(".html")], data)
                            for path, data in sorted(files.items()) if path.suffix == ".pdf"}
        # What it is made from, and each annex's hash: what the next build compares to name the
        # documents already sent that it changes (render/changes.py).
        for annex in manifest["annexes"]:
            annex["sha256"] = cache.digest(files[folder / f"{annex['path']}.xlsx"])
        report = scored.reports[slug]
        closed = {d.season for d in report.documents if league.reading.season_closed(d.season)}
        manifest["sources"] = changes.sources(inputs, [(e.id, e.date) for e in _events_behind(league, slug)],
                                              digests, closed)
        files[folder / MANIFEST] = _manifest_bytes(manifest)
        try:
            result.published[slug] = publish(files, folder)
        except OutputError as failure:  # nothing of this circuit published; the others still try
            failures.append(failure)
            continue
        finally:
            _advance(progress)
        result.republished += changes.republished(slug, previous[slug], manifest)
        changed = len(result.published[slug])
        progress(f"{slug} : {french.plural(len(report.documents), 'bulletin')} et "
                 f"{french.plural(len(report.annexes), 'annexe')} à jour, "
                 f"{french.plural(changed, 'fichier modifié', 'fichiers modifiés')}")
    try:
        page = None
        if any((outputs / slug / MANIFEST).exists() for slug in circuits.CIRCUITS):
            # From the manifests on disk: it links what each circuit really holds, even when one failed.
            page = render_index(outputs, list(circuits.CIRCUITS), league.settings.name, result.blocked,
                                result.notices, result.problems,
                                [str(change) for change in result.republished]).encode("utf-8")
        # The state of a build without problems (its inputs unchanged while it ran), written before
        # the index it records: a stop between the two leaves a state that the outputs contradict,
        # so the next build runs. Not when what it says depends on the outputs it found (documents
        # already published that it changed: the next build, finding none, says something else).
        if keys[0] is not None and result.ok and not failures and not result.republished \
                and cache.inputs_digest(inputs) == digests:
            reads.save()
            cache.record(outputs, cache.State([key for key in keys if key is not None], list(result.published),
                                              result.notices), circuits.REGISTRY, page)
        if page is not None and not failures:  # a circuit that could not publish leaves outputs/ as it was
            write_atomic(outputs / "index.html", page)
    except OutputError as failure:
        failures.append(failure)
    if failures:
        raise failures[0] if len(failures) == 1 else MachineError("\n".join(str(f) for f in failures))
    return result
