"""The whole build: discover → read → parse → normalise → score → render → publish.

One process, each workbook read once. A circuit with any problem publishes nothing new; the
others still build. What did not change is not done again (render/cache.py): a build whose inputs,
code, libraries and outputs are those of the last one writes nothing and reads nothing; a workbook
read before is not read again; a bulletin or annex whose source did not change is not rendered
again. Importing this module loads no pandas and no circuit: the build that has nothing to do
returns before they are needed.
"""

from __future__ import annotations

import datetime as dt
import functools
import gc
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from reportgen import circuits, clock, config, french
from reportgen.collector import uncollected
from reportgen.ingest.file_hashes import FileHashes
from reportgen.ingest.known_pairs import KnownPairs
from reportgen.ingest.read_cache import ReadCache
from reportgen.model import SILENT, Messages, Problem, Progress, Report
from reportgen.pipeline import state
from reportgen.pipeline.calendar import (
    PlayedDays,
    Revisions,
    calendar_blocked,
    calendar_bytes,
    for_site,
    season_notes,
    with_results_awaited,
    write_calendar,
)
from reportgen.pipeline.loading import CircuitInputs, League, load, player_notices
from reportgen.pipeline.publishing import STALE, Later, _prepare, pdf_proofs, render_report
from reportgen.pipeline.scoring import score
from reportgen.render.memory import give_back
from reportgen.render.staging import Staging
from reportgen.site import cards_ahead
from reportgen.site.public_copies import Masking

if TYPE_CHECKING:
    import pandas as pd

    from reportgen.render.files import MachineError
    from reportgen.render.manifest import Manifest
    from reportgen.render.pdf import Batch
    from reportgen.site.data import Result

EVENT_COLUMNS = ("event", "place", "club", "player_id", "player")  # a site/data.py `Result`, from a results table
# What gives the archived seasons' records for the site (delivery/site_archive.py), called when the
# site's pages are made: given the build's file hashes (archive/ hashed for the build's key, its
# files known by their stat) and where its notes go (the build's notices).
Archived = Callable[[FileHashes, Callable[[str], None]], dict[str, list[dict]]]


@dataclass
class BuildResult:
    published: dict[str, list[Path]] = field(default_factory=dict)  # slug -> files written
    blocked: list[str] = field(default_factory=list)  # circuits that published nothing new
    problems: list[Problem] = field(default_factory=list)  # every blocking problem of the inputs
    warnings: list[Problem] = field(default_factory=list)  # what is to fix but blocks nothing (model.Level)
    notices: list[str] = field(default_factory=list)
    # slug -> the HTML, XLSX and PDF files rendered by this build (the others were unchanged: taken
    # from outputs/, as the manifest proves them)
    rendered: dict[str, list[Path]] = field(default_factory=dict)
    # True when nothing had changed since the last build: nothing was read, scored or written
    unchanged: bool = False
    # render.changes.Republished: the documents already published for a date that this build changed
    republished: list = field(default_factory=list)
    # the site's pages this build rendered, relative to outputs/ (the others were unchanged: taken
    # from outputs/, as site/reuse.py's records prove them)
    site_rendered: list[str] = field(default_factory=list)
    # the machine's refusal of a write once the rest was published (archive/ read-only, a circuit's
    # folder protected): raised by `build` unless its caller says the build's summary first
    refused: MachineError | None = None

    @property
    def ok(self) -> bool:
        return not self.problems


def _replay(outputs: Path, keys: list[str | None], progress: Progress, hashes: FileHashes) -> BuildResult | None:

    last = state.replay(outputs, keys, circuits.REGISTRY, hashes)
    if last is None:
        return None
    # The files hashed again (the outputs the last build had just written, too recent to be known
    # by their stat then): known by it from now on. The only file such a build may write.
    hashes.save()
    if any(key not in last.keys for key in keys if key is not None):
        # Known by one key (the league's content), not yet by the other (the folders it was put
        # together from): remembered, so that the next build knows from the folders alone.
        state.remember(outputs, last, [key for key in keys if key is not None])
    progress("rien n’a changé depuis la dernière construction (classeurs, réglages, programme et sorties) : "
             + ("seule la page de vérification, réécrite par « reportgen check », est remise comme la "
                "construction l’avait laissée" if last.page_restored else "aucun fichier réécrit"))
    return BuildResult(published={slug: [] for slug in last.published}, notices=list(last.notices), unchanged=True)


def unchanged(origin: list[Path], outputs: Path, today: dt.date | None = None,
              progress: Progress = SILENT, hashes: FileHashes | None = None) -> BuildResult | None:
    """The last build's result, when the folders the league is made from (`origin`: inputs/ and
    archive/) and outputs/ are as it left them, and so are the day, the code and the libraries: a
    build would change nothing. None otherwise (build). `hashes`: the file hashes of outputs/ the
    build that follows is given too (what this one hashed is not hashed again)."""
    from reportgen.render import cache

    _prepare(outputs)
    hashes = hashes if hashes is not None else FileHashes(outputs)
    key = cache.origin_key(origin, today or clock.today(), hashes)
    return _replay(outputs, [key], progress, hashes) if key is not None else None


def build(inputs: Path, outputs: Path, today: dt.date | None = None,
          progress: Progress = SILENT, warm_pdf_workers: bool = False,
          origin: list[Path] | None = None,
          archived: dict[str, list[dict]] | Archived | None = None,
          hashes: FileHashes | None = None, reads: ReadCache | None = None,
          digests: dict[str, str] | None = None, said: Sequence[str] = (),
          calendar_revisions: Path | None = None, refusal_returned: bool = False,
          senders: Mapping[str, str] | None = None, archive_read: Mapping[str, str] | None = None) -> BuildResult:
    """Build and publish every circuit that has no problem. `warm_pdf_workers` (the command line):
    when a workbook is new, the PDF workers start at once, while the league is read and scored.
    `origin`: the folders `inputs` was made from, when it is a copy (inputs/ and archive/): the
    state of the build records them too, for `unchanged`. `archived`: the archived seasons' rankings
    for the website (delivery/site_archive.py), by circuit, or what gives them (`Archived`): called
    when the site's pages are made, while the PDFs render (the command line's reads the archive's
    seasons and scores them again: not before the first PDF), its notes among the build's.
    `hashes`: the file hashes of `outputs` (ingest/file_hashes.py) when the caller already has them
    (`unchanged`'s, those `inputs` was put together with); `reads` the read cache of `outputs` it
    already read with, and `digests` those of `inputs` when it knows them (delivery/seasons.py
    `put_together`: a copy it need not hash), and `said` what putting it together said (a season
    read from the archive): the first of the build's notices, on verification.html too.
    `calendar_revisions`: the file where the revisions of calendrier.ics's events are kept between
    builds (`reportgen build`: in archive/), else with the build's state in outputs/.reportgen
    (pipeline/calendar.py `Revisions`). `refusal_returned`: a write the machine refused (exit 4) is
    returned in the result (`BuildResult.refused`) instead of raised, for the command line to say
    what was published and the problems found before it, as at a normal end. `senders`: the club
    whose message filed each workbook, by its path, when the caller knows it (delivery/inbox_run.py
    `filed_senders`): the calendar matches a workbook whose sheet names no club with its sender's row
    first, as `reportgen inbox` did (`load`); in the build's key. `archive_read`: what the build reads
    of archive/ besides the seasons put back in `inputs` (delivery/archive_key.py `read_by_build`:
    the site's archived seasons), in its key too; with an `origin`, None means it could not be
    known: no key of the league then, the build runs."""
    from reportgen.render import cache

    today = today or clock.today()
    _prepare(outputs)
    # Nothing changed since the last build (same inputs, day, code, libraries; outputs as it left
    # them): it would write nothing, so nothing is read, scored or rendered.
    # the files' content hashes, known by their stat (ingest/file_hashes.py)
    hashes = hashes if hashes is not None else FileHashes(outputs)
    digests = digests if digests is not None else cache.inputs_digest(inputs, hashes)
    # With an archive, the league's key names what the site reads of it: without it, a change there
    # alone (a season's rows corrected) found the league's key unchanged (delivery/archive_key.py).
    keys = [cache.build_key(digests, today, said=said, senders=senders, archive=archive_read)
            if digests is not None and (archive_read is not None or not origin) else None]
    if origin:
        keys.append(cache.origin_key(origin, today, hashes))
    last = _replay(outputs, keys, progress, hashes) if any(keys) else None
    if last is not None:
        return last

    from reportgen.render import pdf

    reads = reads if reads is not None else ReadCache(outputs, cache.code_fingerprint())
    if warm_pdf_workers and digests is not None and any(
            digest not in reads.known for name, digest in digests.items() if name.lower().endswith((".xlsx", ".xlsm"))):
        pdf.warm_up()  # a new workbook: bulletins will change
    # Each circuit's files staged on disk until published (render/staging.py), and its annexes the
    # annex worker still writes (publishing.py `Later`): discarded if the build stops before.
    staged: list[Staging | Later | cards_ahead.CardsAhead] = []
    # All the PDFs of the build in one pool of workers (WeasyPrint imported once, by their fork
    # server), each started as soon as its bulletin's HTML is known when the pool started early;
    # each HTML in a file until its PDF is rendered (render/pdf_spool.py).
    pdfs = pdf.Batch()
    try:
        revisions = Revisions.kept(outputs, calendar_revisions)
        result = _build(inputs, outputs, today, progress, digests, keys, origin, reads, archived, hashes, staged,
                        pdfs, said, revisions, senders)
    finally:
        gc.unfreeze()  # what `load` froze (if the site's pages have not already), back in the collections
        pdf.cool_down()
        pdfs.discard()
        for staging in staged:  # what a failure or an interruption left staged shows nowhere
            staging.discard()
    if result.refused is not None and not refusal_returned:
        raise result.refused
    return result


@dataclass(frozen=True)
class _Laid:
    """What a circuit's publication needs of its report and inputs once laid out: how many bulletins
    and annexes it has, the closed seasons its documents are of, the events they are made from
    (id, date: render/changes.py `sources`) and its annexes still being written (`Later`)."""

    documents: int
    annexes: int
    closed: list[int]
    events: list[tuple[str, dt.date]]
    later: Later | None = None

    def annex_hashes(self, manifest: Manifest, staging: Staging) -> None:
        """The hash of each of the manifest's annexes staged (not one the worker still writes)."""
        waiting = self.later.files if self.later is not None else set()
        for annex in manifest.annexes:
            if annex.sha256 is None and f"{annex.path}.xlsx" not in waiting:
                annex.sha256 = staging.digest(staging.folder / f"{annex.path}.xlsx")


def _to_correct(blocking: list[Problem]) -> str:
    """What holds a circuit, in the build's line for it: its workbooks, a settings file (reportgen.toml,
    saisons.toml: a .toml, as cli_support's `_where` tells them apart; each holds every circuit, and
    « des classeurs » sent the secretary looking for a workbook), or both."""
    files = {problem.where.path for problem in blocking if problem.blocking}
    settings = sorted(path for path in files if path.endswith(".toml"))
    if not settings:
        return "des classeurs sont à corriger"
    named = french.joined(settings)
    if len(settings) == len(files):
        return f"{named} {'sont' if len(settings) > 1 else 'est'} à corriger"
    return f"{named} et des classeurs sont à corriger"


def _event_results(results: pd.DataFrame) -> list[Result]:
    """The columns of a circuit's results that its tournaments' site records read (site/data.py
    `EventRecord`), a tuple per row: not the 13 columns of the Grand Sud's layout for each of its
    rows (200,000 at 100x) while the circuit is laid out, nor a dict per row. The columns as lists
    zipped: what pandas' `to_dict("records")` gives, a fifth of its CPU (eighteenth round)."""
    missing = [None] * len(results)
    return list(zip(*(results[column].tolist() if column in results.columns else missing
                      for column in EVENT_COLUMNS)))


def _release_inputs(league: League) -> None:
    """Each circuit's results tables and events, once every circuit is scored and laid out: what the
    rest of the build reads of them was kept (`_Laid`), and they are not held while the PDFs render
    and the site's pages are made (at 100x, hundreds of megabytes). Their problems stay."""
    for slug, found in league.circuits.items():
        league.circuits[slug] = CircuitInputs(problems=found.problems)


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


def _masking(league: League) -> Masking:
    """Each spelling of each player who chose `initiales` or `non` (joueurs.xlsx's `Publication`) ->
    the form the site shows, for the public copies of the documents (site/public_copies.py): empty,
    and no copy made, when every player is shown."""
    names: dict[str, str] = {}
    licences: set[str] = set()
    if league.public.choices:
        for found in league.circuits.values():
            for table in (found.results, found.listed):
                if table.empty:
                    continue
                mine = table[table["player_id"].isin(list(league.public.choices))]
                for column in ("player", "typed"):
                    for player_id, name in zip(mine["player_id"], mine[column]):
                        names[name] = league.public.name(player_id, name)
                licences.update(mine["licence"])
    return Masking(names, licences)


def _unchanged_since(inputs: Path, origin: list[Path] | None, today: dt.date, hashes: FileHashes,
                     digests: dict[str, str] | None, keys: list[str | None]) -> bool:
    """The league's files as the build found them: the folders `inputs` was put together from when
    it is a copy (a copy nobody edits; hashed again, every file of it would be read, its inodes new),
    else inputs/ itself."""
    from reportgen.render import cache

    if origin:
        return cache.origin_key(origin, today, hashes) == keys[1]
    return cache.inputs_digest(inputs, hashes) == digests


def _build(inputs: Path, outputs: Path, today: dt.date, progress: Progress, digests: dict[str, str] | None,
           keys: list[str | None], origin: list[Path] | None, reads: ReadCache,
           archived: dict[str, list[dict]] | Archived | None,
           hashes: FileHashes, staged: list[Staging | Later | cards_ahead.CardsAhead], pdfs: Batch,
           said: Sequence[str], revisions: Revisions, senders: Mapping[str, str] | None) -> BuildResult:
    """The build itself, when something changed: what build() does after the check."""

    from reportgen import queries
    from reportgen.render import cache, changes, verification
    from reportgen.render.files import MachineError, OutputError, write_atomic
    from reportgen.render.html import publish_fonts
    from reportgen.render.index import MANIFEST, read_manifest
    from reportgen.render.manifest import Manifest
    from reportgen.site.data import DATA, event_sources

    # The notices on the players made once every circuit is laid out (below): not on the way to the
    # first PDF's submission.
    league = load(inputs, today, progress, reads, digests, players_noticed=False, frozen=True,  # until `build` ends
                  senders=senders)
    reads.seal()  # what the next build may reuse, encoded: not every workbook's cells held while scoring
    # Each circuit's files staged on disk as they are made (render/staging.py), its manifest still
    # to complete with its PDFs, the PDFs it waits for, and what its publication says of its report
    # (the report itself is released once laid out: `score`'s `release`); published once its PDFs
    # are rendered.
    rendered: dict[str, tuple[Staging, dict[Path, bytes], list[Path], _Laid]] = {}
    failures: list[OutputError] = []
    # Each circuit's manifest as last published: the proofs of what may be reused, and what the
    # documents already sent were made from (render/changes.py).
    previous: dict[str, dict | None] = {}
    result = BuildResult()
    masking = _masking(league)
    # The tournaments' Open Graph cards drawn on the second core while the circuits are laid out,
    # when no PDF renders there (site/cards_ahead.py): the site's pages then draw few of them.
    ahead = cards_ahead.CardsAhead(league.settings.name, league.public, outputs)
    staged.append(ahead)

    def site_data_made(data: Path, slug: str) -> None:
        if not pdfs.starts_at_once() and len(league.circuits[slug].events) >= cards_ahead.TOURNAMENTS:
            ahead.give(data, circuits.REGISTRY[slug].title)

    # the days of each tournament played over several days, by event id: the calendar's
    over_days = PlayedDays()
    # each circuit's whole files -> their public copies, relative to outputs/, as each is laid out: a
    # circuit that requires it links them (the Masters' « Classement annuel », its Grand Sud CSV)
    copies: dict[str, dict[str, str]] = {}

    def lay_out(slug: str, report: Report) -> None:
        over_days.add(slug, report)
        previous[slug] = read_manifest(outputs / slug / MANIFEST)
        result.rendered[slug] = []
        linked = {whole: public for required in circuits.REGISTRY[slug].requires
                  for whole, public in copies.get(required, {}).items()}

        def public_made(public: dict[str, str]) -> None:
            copies[slug] = {f"{slug}/{whole}": f"{slug}/{copy}" for whole, copy in public.items()}
        found = league.circuits[slug]
        staging = None
        later: list[Later] = []
        try:
            staging = Staging(outputs / slug)
            staged.append(staging)
            # messages only: the bar counts the circuits scored and laid out
            files, waiting = render_report(slug, report, outputs / slug, Messages(progress),
                                           result.rendered[slug], previous[slug] or {}, pdfs_known=pdfs.add,
                                           events=event_sources(found.events, _event_results(found.results),
                                                                  report.event_notes, report.event_columns),
                                           masking=masking.linking(linked), staging=staging, hashes=hashes,
                                           later=later, site_data_made=functools.partial(site_data_made, slug=slug),
                                           public_made=public_made)
            staged.extend(later)
        except BaseException as failure:
            if staging is not None:
                staging.discard()
            if not isinstance(failure, OutputError):
                raise
            failures.append(failure)  # nothing of this circuit published; the others still try
            return
        closed = sorted({d.season for d in report.documents if league.reading.season_closed(d.season)})
        behind = [(event.id, event.date) for event in _events_behind(league, slug)]
        rendered[slug] = staging, files, waiting, _Laid(len(report.documents), len(report.annexes), closed, behind,
                                                        later[0] if later else None)

    def _before_pdfs(manifest: Manifest, staging: Staging, laid: _Laid) -> Manifest:
        """The circuit's manifest with what is known before its PDFs are: each annex's hash and what
        the circuit is made from (what the next build compares to name the documents already sent
        that it changes: render/changes.py). Its PDFs' records are completed once they are
        (`pdf_proofs`): the hash of their bytes, the proof the next build needs to reuse them."""
        laid.annex_hashes(manifest, staging)
        # a circuit whose closing makes its season's ranking final: a late tournament that changes it is said
        final = laid.closed if circuits.REGISTRY[manifest.circuit].final_when_closed else ()
        manifest.sources = changes.sources(inputs, laid.events, digests, laid.closed, final)
        return manifest

    with uncollected():  # as in `load`, where they were made: the collector's passes find no cycle there
        scored = score(league, progress=progress, then=lay_out, release=True)
        # the last of load's, as it orders them; the pairs of names found in each club kept for the
        # next build by a build that records its state, as the read cache (one that stops, fails or
        # refuses a file leaves outputs/ as it was)
        known = KnownPairs(outputs, cache.code_fingerprint())
        league.notices += player_notices(league.circuits, league.distinct, known, league.spelled)
        # Frozen as `load`'s league is, until the build's end: enabled again, the collector's first
        # young pass walked all that the scoring and the layouts made and still hold, to free about a
        # hundred objects (0.69 CPU-s at 100x, twentieth round). Still freed by reference counting.
        gc.freeze()
    # The site's modules (its pages, their cards: Pillow) imported once every circuit is laid out: not
    # on the way to the first PDF's submission (thirteenth round).
    from reportgen.pipeline.site_view import View
    from reportgen.site import publish as site
    from reportgen.site.pages import FOLDER, Site
    from reportgen.site.reuse import Pages

    _release_inputs(league)
    problems = set(league.all_problems())
    for slug, blocking in scored.blocked.items():
        problems |= set(blocking)
        if any(problem.blocking for problem in blocking):
            progress(f"{slug} : {_to_correct(blocking)}, rien de nouveau n’est publié")
        else:  # held (model.Level.HELD): the problems to correct are the circuit's it depends on
            waited = ", ".join(r for r in circuits.REGISTRY[slug].requires if r in scored.blocked)
            progress(f"{slug} : en attente d’un circuit dont il dépend ({waited}), rien de nouveau n’est publié")
    # A settings file with a blocking problem holds the site as it holds every circuit: its pages would
    # otherwise take the league's name and address from the very file that is to correct.
    held = league.settings_held()
    if held:
        progress(f"site : {config.SETTINGS_FILE} est à corriger, rien de nouveau n’est publié")
    entries = over_days.over(league.calendar)  # the calendar, each tournament over its days
    result.notices = [*said, *league.notices, *with_results_awaited(
        (notice for report in scored.reports.values() for notice in report.notices), entries, league.reading,
        league.settings.calendar.remind_after_days, league.announced)]
    # A broken club directory first: it is the cause of what a circuit says about its clubs.
    result.blocked = list(scored.blocked)
    result.problems = queries.sorted_problems(problems)
    result.warnings = queries.sorted_problems(league.warnings)
    # Each circuit's manifest and the documents already sent that it changes, known before its PDFs
    # (the records of the PDFs still to render already hold the hashes of their HTML and page).
    manifests = {slug: _before_pdfs(Manifest.from_json(files[outputs / slug / MANIFEST]), staging, laid)
                 for slug, (staging, files, waiting, laid) in rendered.items()}
    changed: dict[str, list[changes.Republished]] = {}
    for slug, manifest in manifests.items():  # and what it withdrew, kept until published again
        changed[slug], manifest.withdrawn = changes.compare(slug, previous[slug], manifest.as_dict(),
                                                            circuits.REGISTRY[slug].final_when_closed)
    republished = [change for slug in rendered for change in changed[slug]]  # all of them, once published
    # Each PDF staged in its circuit's folder as soon as it is rendered, not held until the last one;
    # a circuit whose staging the machine refuses publishes nothing (its error said below).
    staging_of = {path: (slug, staging) for slug, (staging, _, waiting, _) in rendered.items() for path in waiting}
    refused: dict[str, OutputError] = {}

    def staged_pdf(path: Path, data: bytes) -> None:
        if path not in staging_of:  # of a circuit whose layout the machine refused: not published
            return
        slug, staging = staging_of[path]
        if slug not in refused:
            try:
                staging.put(path, data)
            except OutputError as failure:  # `put` dropped what the circuit had staged
                refused[slug] = failure

    if len(pdfs):
        give_back()  # the PDF workers render on top of the build's process: it holds the least now
        progress(f"{len(pdfs)} PDF à produire")
    # The site's pages, calendrier.ics and the secretary's page made now, while the PDFs render (the
    # pool started early): none waits for a PDF (pipeline/site_view.py). Staged or kept, written
    # after the circuits are published, as before.
    site_staging, home, made, pages, site_failure = None, None, Pages(outputs, hashes), {}, None
    history = site.corrections(outputs, republished, today.isoformat())
    view = View(outputs)
    try:
        for slug, (staging, _, _, _) in rendered.items():
            data = outputs / slug / DATA  # staged, or already in outputs/ with these very bytes
            view.circuit(slug, manifests[slug].to_json(), staging.staged.get(data) or data)
        if not held and view.complete(circuits.CIRCUITS):
            progress.phase("pages du site", None)  # how many is known only once made
            calendar, calendar_file = for_site(entries, league.announced, league.reading, today)
            site_staging = Staging(outputs / FOLDER)
            staged.append(site_staging)
            home = site.stage(outputs, Site(
                view.folder, list(circuits.CIRCUITS), league.settings.name, result.blocked, public=league.public,
                calendar=calendar, calendar_file=calendar_file, corrections=history,
                awaited=season_notes(league.calendar, league.reading),
                archived=archived(hashes, result.notices.append) if callable(archived) else archived or {},
                url=league.settings.site.url if league.settings.site else "", reuse=made,
                draw_aside=not pdfs.rendering(), ahead=ahead).each_page(), site_staging, made, progress.advance)
            result.site_rendered = made.rendered
            site_staging.put(outputs / FOLDER / site.HISTORY, site.history_file(history))
            pages = site.digests(outputs, site_staging, home)
            site_staging.sync()  # while the PDFs render: the site's commit after them is then the journal's
    except OutputError as failure:  # said once the circuits are published, as when it came after them
        site_failure = failure
    finally:
        view.discard()
        ahead.discard()  # its cards taken by the pages (or drawn there), its worker stopped by them
        # The pages' end gave back to the collections what `load` froze (collector.frozen): frozen
        # again until the build's end, the league is not walked by its last steps' full passes
        # (0.5 CPU-s at 100x, fifteenth round).
        gc.freeze()
    ics = None if held else calendar_bytes(entries, league.announced, calendar_blocked(league.problems),
                                           league.settings.name, league.reading, today, revisions)
    secretary = verification.render_page(
        result.problems + result.warnings, result.notices, league.settings.name, french.date_long(today),
        republished=changes.listed(republished, changes.CHANGED), withdrawn=changes.listed(republished, changes.WITHDRAWN),
        restored=changes.listed(republished, changes.RESTORED), relaid=changes.relaid(republished),
        held=[circuits.REGISTRY[slug].title for slug in scored.blocked]).encode("utf-8")
    if len(pdfs):
        progress.phase("PDF", len(pdfs))  # those rendered while the pages were made counted at once
        pdfs.results(progress, staged_pdf)  # the bulletins' HTML files removed
    progress.phase("publication", len(rendered))
    for slug, (staging, files, waiting, laid) in rendered.items():
        folder, manifest = outputs / slug, manifests[slug]
        result.rendered[slug] += waiting
        try:
            if slug in refused:
                raise refused[slug]
            if laid.later is not None:  # the annexes the worker wrote while the site's pages were made
                laid.later.finish(manifest.made_from)
                laid.annex_hashes(manifest, staging)
            manifest.pdfs = pdf_proofs(manifest.pdfs, folder, waiting, staging.digest)
            staging.put(folder / MANIFEST, manifest.to_json())
            result.published[slug] = staging.publish(last=folder / MANIFEST, stale_suffixes=STALE)
        except OutputError as failure:  # nothing of this circuit published; the others still try
            failures.append(failure)
            continue
        finally:
            progress.advance()
        result.republished += changed[slug]
        count = len(result.published[slug])
        progress(f"{slug} : {french.plural(laid.documents, 'bulletin')} et "
                 f"{french.plural(laid.annexes, 'annexe')} à jour, "
                 f"{french.plural(count, 'fichier modifié', 'fichiers modifiés')}")
    # calendrier.ics alone when its revisions cannot be kept (archive/ read-only: `Revisions.write`):
    # the rest is published, the refusal said after it, and the state not recorded, so that the next
    # build writes the calendar (a state recorded would make it « à jour » with the file not written).
    calendar_failure = None
    try:
        if not held and write_calendar(outputs, league.announced, ics, revisions):  # held: not even removed
            progress("calendrier.ics à jour")
    except OutputError as failure:
        calendar_failure = failure
    try:
        if site_staging is not None and not failures:  # the pages' fonts and icon, before the state that lists them
            publish_fonts(outputs)
            site.publish_icon(outputs)
        if site_failure is not None:
            raise site_failure
        # The secretary's page: what the build found to fix, its notices and the documents already
        # sent that it changed; never linked from the public pages. Not when the machine refused a
        # write: outputs/ then stays as it was.
        if not failures:
            write_atomic(outputs / verification.VERIFICATION_PAGE, secretary)
        # The state of a build without problems (its inputs unchanged while it ran), written before
        # the site it records: a stop between the two leaves a state that the outputs contradict,
        # so the next build runs. Not when what it says depends on the outputs it found (documents
        # already published that it changed: the next build, finding none, says something else),
        # nor with warnings: the next build says them again.
        recorded = None
        if keys[0] is not None and result.ok and not result.warnings and not failures and calendar_failure is None \
                and not result.republished and _unchanged_since(inputs, origin, today, hashes, digests, keys):
            reads.save()
            recorded = state.State([key for key in keys if key is not None], list(result.published), result.notices)
            if not state.record(outputs, recorded, circuits.REGISTRY, pages, hashes):
                recorded = None
        if site_staging is not None and not failures:  # a circuit that could not publish leaves outputs/ as it was
            written = site.publish_staged(outputs, site_staging, home)
            made.save()
            if recorded is not None:
                state.learn_pages(outputs, recorded, pages, hashes, written)
        if recorded is not None:  # after the site's pages: older than it, they are trusted next time
            hashes.save()
            known.save()
    except OutputError as failure:
        failures.append(failure)
    if calendar_failure is not None:
        failures.append(calendar_failure)
    if failures:
        result.refused = failures[0] if len(failures) == 1 else MachineError("\n".join(str(f) for f in failures))
    return result
