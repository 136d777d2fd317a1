"""A circuit's files rendered in memory (what did not change taken from disk, as its manifest proves)
and published all together through a journal."""

from __future__ import annotations

import dataclasses
import datetime as dt
import functools
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar, cast

from reportgen import circuits
from reportgen.model import SILENT, Annex, Document, Progress, Report
from reportgen.pipeline import state
from reportgen.site.public_copies import FOLDER as PUBLIC
from reportgen.site.public_copies import Masking

if TYPE_CHECKING:
    from reportgen.ingest.file_hashes import FileHashes
    from reportgen.render.staging import Staging
    from reportgen.site.data import EventRecord

STALE = (".html", ".pdf", ".csv", ".xlsx", ".eml")  # a circuit's outputs that a publication no longer having removes


class Later:
    """A circuit's large annexes that the annex worker (render/annex_worker.py) still writes once the
    circuit is laid out, taken back at its publication (`finish`), after the site's pages.

    Why: at 100x one new tournament's layout waited 4.5 s of its wall for the season annex (8 CPU-s
    of XlsxWriter on the other core), while the site's pages, made after it, need nothing of it but
    its hash, and that only to say whether it changes an annex already published for the same date
    (render/changes.py): a new edition of the annex (another date at the same path) cannot. So only
    those are left to the worker past the layout (with their public copies); an annex published
    for its date already is taken back as before, and so is a new one (a first build's, a new
    season's): left to the worker, the first build's season annexes at 100x were written on the
    other core while all of its 25,000 site pages were made, which then took longer than the
    target allows (0.25 of the rest of the build), and their messages kept raised its peak memory
    1,696 → 1,879 MiB (sixteenth round). The messages are kept (`Aside.give`'s `kept`) so that, if
    the worker fails, the annex is written here from them, the circuit's report being gone by then.
    Each file is staged as `render_report` stages any annex it makes, its record (`made_from`) and
    hash then given to the manifest."""

    def __init__(self, aside: Any, made_from: dict[str, dict[str, str] | None]) -> None:
        self.aside = aside  # annex_worker.Aside, its worker still writing
        self.made_from = made_from  # render_report's records, which each step completes
        self.steps: list[tuple[str, Callable[[], None]]] = []  # (file relative to the circuit's folder, its staging)

    @property
    def files(self) -> set[str]:
        return {relative for relative, _ in self.steps}

    def finish(self, made_from: dict[str, dict[str, str]]) -> None:
        """Each annex taken back and staged, its record added to the manifest's `made_from`."""
        try:
            for relative, stage in self.steps:
                stage()
                record = self.made_from.get(relative)
                if record is not None:
                    made_from[relative] = record
        finally:
            self.discard()

    def discard(self) -> None:
        """The worker stopped (the build stopped before the circuit's publication, or it is done)."""
        self.steps = []
        self.aside.close()


Whole = TypeVar("Whole")


def made_copy(mask: Callable[[Whole], Whole | None], whole: Whole) -> Whole:
    """The public copy of `whole` that the last build made from the same whole and the same names
    (`render_report`'s `copy_of`), made again to be written: masking is deterministic, so it
    names someone again."""
    copy = mask(whole)
    if copy is None:  # only if masking were not a function of the whole and the names
        raise RuntimeError(f"la copie publique de {getattr(whole, 'path', whole)} ne masque plus aucun nom")
    return copy


def render_report(slug: str, report: Report, folder: Path, progress: Progress = SILENT,
                  rendered: list[Path] | None = None, previous: dict | None = None,
                  pdfs_known: Callable[[list[tuple[Path, str, dt.date]]], None] = lambda pending: None,
                  events: Sequence[EventRecord] | None = None, masking: Masking | None = None,
                  staging: Staging | None = None, hashes: FileHashes | None = None,
                  later: list[Later] | None = None,
                  site_data_made: Callable[[Path], None] = lambda staged: None,
                  public_made: Callable[[dict[str, str]], None] = lambda public: None) -> tuple[dict[Path, bytes], list[Path]]:
    """Every file of a circuit in memory, and the PDFs still to render (their paths): nothing
    is published until all of it is rendered. With `staging` (the build), each file but the
    manifest goes to its temporary file on disk as soon as it is made (render/staging.py), and the
    dict returned holds the manifest alone: a circuit's files are not all held in memory at once.

    A PDF is rendered from the bulletin's page, or from its top rows only when its ranking is longer
    than it prints (render/html.py `render_print`). A PDF already on disk is reused only when the
    circuit's manifest, written after its PDFs, records it as rendered from this very HTML with
    today's render fingerprint (libraries, subsetting path, stylesheet, fonts): a PDF left by an
    interrupted run, or made by other libraries, is rendered again; the manifest returned holds
    the record of each PDF reused (`pdf_proofs` adds those rendered). Likewise a bulletin's HTML,
    an annex or a notice (.eml) is taken from disk when the manifest records it as made from a
    source (template, context, title, date; the annex's tables; the message) with the same hash,
    code included (render/cache.py), and the file is still the one recorded: the same bytes a
    render would give, without rendering. The
    HTML, XLSX and EML files rendered, not taken from disk, are added to `rendered`. `previous`:
    the manifest on disk, when already read. `pdfs_known` is given each PDF still to render (path,
    HTML, date) as soon as its bulletin's HTML is known, before the next bulletin, the CSV, annexes
    and notices: the build starts them at once (one new tournament: 0.1-0.2 s sooner), and the HTML
    is not held here until the circuit is laid out (the build's `pdf.Batch` keeps it in a file).
    `events`: the circuit's tournaments for the website (site/data.py `EventRecord`). `masking`:
    the names of the players who chose `initiales` or `non`; each document, CSV and annex that names
    one also gets its public copy (site/public_copies.py), made and reused like the rest, listed in
    the manifest's `public`; a copy is keyed by its whole file's key and the masking's fingerprint
    (`public_key`), so that one the last build made from both is taken without masking the whole
    again (`copy_of`: masking reads every row, made for the occasion when deferred). `hashes`
    (the build's, ingest/file_hashes.py): with `staging`, a file
    taken from disk that they know by its stat as the bytes its record names is not read at all
    (render/cache.py `proven`): only its bytes would be staged, and they are already there; nor is
    a file made again (a CSV, the site's data) read to find it holds the same bytes. `later` (the
    build, with `staging`): the new editions of large annexes that the worker still writes are not
    waited for; their `Later` is added to it, and the manifest returned lacks their records until
    its `finish`. `site_data_made` (the build, with `staging`) is given the staged file of the
    circuit's `site.json` as soon as it is written, when it is not the one published (its
    tournaments' cards are drawn ahead from it: site/cards_ahead.py). `public_made` is given the
    manifest's `public` (each whole file -> its public copy, relative to `folder`) once known: the
    build links those copies from the circuits that require this one (site/public_copies.py
    `Masking.linking`)."""
    # XlsxWriter and the e-mail package are imported once the bulletins are laid out (`annexed`, the
    # notices): not on the way to the first PDF's submission.
    from reportgen.render import annex_worker, cache, html, index, pdf
    from reportgen.render import ranking as ranking_render
    from reportgen.render.manifest import Manifest
    from reportgen.site import data as site_data
    from reportgen.site import figures

    info = circuits.REGISTRY[slug]
    manifest = folder / index.MANIFEST
    if previous is None:
        previous = index.read_manifest(manifest) or {}  # not a manifest of ours: nothing is proven
    recorded: dict[str, Any] = previous["pdfs"] if isinstance(previous.get("pdfs"), dict) else {}
    known: dict[str, Any] = previous["made_from"] if isinstance(previous.get("made_from"), dict) else {}
    made_from: dict[str, dict[str, str] | None] = {}
    rendered = rendered if rendered is not None else []

    # A file taken from disk -> the SHA-256 it was just checked against: not read nor hashed again.
    on_disk: dict[Path, str] = {}

    def made(path: Path, key: str | None, render: Callable[[], bytes], listed: bool = True) -> bytes:
        """`render()`, or the file on disk when its record says it was made from this key; made, it is
        added to `rendered` if `listed` (not a CSV: the documents, annexes and notices are)."""
        relative = path.relative_to(folder).as_posix()
        data = cache.reuse(path, known.get(relative), key)
        if data is None:
            data = render()
            if listed:
                rendered.append(path)
            made_from[relative] = cache.source_record(key, data)
            progress.advance()
        else:
            on_disk[path] = from_disk(relative, key, known[relative]["sha256"])
        return data

    def from_disk(relative: str, key: str | None, sha256: str) -> str:  # a file taken from disk: its record
        made_from[relative] = {"key": cast(str, key), "sha256": sha256}
        progress.advance()
        return sha256

    def taken(path: Path, key: str | None) -> str | None:
        """The SHA-256 of a file taken from disk without reading it, proven by its record and its
        stat; None when it must be read (or rendered), or its bytes are wanted (no staging)."""
        relative = path.relative_to(folder).as_posix()
        sha256 = cache.proven(path, known.get(relative), key, hashes) if staging is not None else None
        return from_disk(relative, key, sha256) if sha256 is not None else None

    pending: list[Path] = []
    files: dict[Path, bytes] = {}

    def keep(path: Path, data: bytes) -> None:
        if staging is None:
            files[path] = data
            return
        sha256 = on_disk.pop(path, None)
        if sha256 is None and hashes is not None:  # bytes made now (a CSV): the file not read to compare
            made_now = cache.digest(data)
            if hashes.recorded(path) == made_now:
                staging.keep(path, made_now)
            else:
                staging.put(path, data, digest=made_now)
            return
        staging.put(path, data, sha256)

    def kept(path: Path, key: str | None, render: Callable[[], bytes], listed: bool = True) -> None:
        """`keep` of what `made` gives, or of the file its record and stat prove (`taken`)."""
        sha256 = taken(path, key)
        if sha256 is not None:
            cast("Staging", staging).keep(path, sha256)
        else:
            keep(path, made(path, key, render, listed))

    def site_file(events: Sequence[EventRecord], keys: dict[str, str | None]) -> None:
        """The circuit's `site.json`, written part by part to its staged file: the site's records of
        every ranking (every row: 16 MB of JSON at 10x) are never all held, nor the whole JSON as a
        string and bytes beside them (at 100x, the Grand Sud layout's peak). A ranking or a tournament
        whose record the last one holds under the same key (its index in the manifest, the file proven
        by its stat) gives those bytes (site/data.py `Earlier`)."""
        path = folder / site_data.DATA
        recorded, on_disk = known.get(site_data.DATA), hashes.recorded(path) if hashes is not None else None
        earlier = None
        if isinstance(recorded, dict) and isinstance(recorded.get("records"), dict) and on_disk is not None \
                and recorded.get("sha256") == on_disk:
            earlier = site_data.Earlier(path, recorded["records"])
        index: dict[str, list[Any]] = {}
        try:
            cast("Staging", staging).put_parts(path, site_data.circuit_data_parts(report, events, keys, earlier, index),
                                               on_disk)
        finally:
            if earlier is not None:
                earlier.close()
        made_from[site_data.DATA] = cast(dict[str, str], {"sha256": cast("Staging", staging).digest(path), "records": index})

    public: dict[str, str] = {}  # a whole file -> its public copy (relative to the folder)
    # Each PDF taken from disk -> its record; each to render -> what its record awaits (`pdf_proofs`).
    proofs: dict[str, dict[str, str]] = {}

    def copied(whole: str, copy: str, suffixes: tuple[str, ...]) -> None:
        public.update({f"{whole}{suffix}": f"{copy}{suffix}" for suffix in suffixes})

    def public_key(whole_key: str | None) -> str | None:
        """A public copy's key: what it is made from, the whole file's source (its key, the code
        included) and the names and licences the masking hides; None when the whole has no key."""
        return cache.source_key("public", whole_key, cast(Masking, masking).fingerprint) if whole_key else None

    # The copies' keys under which the last build found a whole file naming no one to hide (the
    # manifest's `unmasked`: data from outputs/, whatever in it is not a key ignored), and this build's
    listed = previous.get("unmasked")
    unmasked_before = {key for key in listed if isinstance(key, str)} if isinstance(listed, list) else set()
    unmasked: set[str] = set()

    def copy_of(whole: str, key: str | None, mask: Callable[[], Whole | None]) -> tuple[str | None, bool, Whole | None]:
        """The public copy of a whole file (`whole`: its path relative to the folder, with its
        suffix; `key`: its source key), as (the copy's key, known, the copy): known when the last
        build made it from this very key (the copy's record has it: taken from disk, or masked only
        if it must be written, `made_copy`); else the copy `mask` gives now, or None when the whole
        names no one to hide, which the next build knows by the same key (the manifest's
        `unmasked`). The same whole and names give the same copy, or none."""
        copy_key = public_key(key)
        if copy_key is not None:
            if cache.made_from_key(known.get(f"{PUBLIC}/{whole}"), copy_key):
                return copy_key, True, None
            if copy_key in unmasked_before:
                unmasked.add(copy_key)
                return copy_key, False, None
        copy = mask()
        if copy is None and copy_key is not None:
            unmasked.add(copy_key)
        return copy_key, False, copy

    def unread(html_path: Path, pdf_path: Path, key: str | None, top: bool) -> bool:
        """An unchanged bulletin whose page and PDF are both proven by their records and their stat
        (`taken`, `hashes`): staged as they are, neither read (at 100x, 81 pages of megabytes each)."""
        if staging is None or hashes is None:
            return False
        relative, page_relative = pdf_path.relative_to(folder).as_posix(), html_path.relative_to(folder).as_posix()
        page = cache.proven(html_path, known.get(page_relative), key, hashes)
        existing = hashes.recorded(pdf_path) if page is not None else None
        if page is None or existing is None or not (pdf.proven_by_source(recorded.get(relative), key, existing) if top
                                    else pdf.reusable_by_digests(recorded.get(relative), page, existing)):
            return False
        # Its PDF's record as a build that reads them writes it: the one on disk for a top-rows PDF,
        # `pdf.record` of the page and PDF otherwise (page and printed HTML the same: no `page`, no `source`).
        proofs[relative] = recorded[relative] if top else pdf.completed({"html": page}, existing)
        staging.keep(html_path, from_disk(page_relative, key, page))
        staging.keep(pdf_path, existing)
        return True

    def bulletin(document: Document, key: str | None, make: Callable[[], Document] | None = None) -> None:
        """A bulletin's page and PDF. `make`, for a public copy known by its key (`copy_of`): the
        copy, masked only if its files must be made or read; `document` (the whole one) then gives
        only the copy's path and whether it prints its top rows (the same in both)."""
        path = f"{PUBLIC}/{document.path}" if make is not None else document.path
        html_path = folder / f"{path}.html"
        pdf_path = html_path.with_suffix(".pdf")
        relative, top = pdf_path.relative_to(folder).as_posix(), html.prints_differently(document)
        if unread(html_path, pdf_path, key, top):
            return
        if make is not None:
            document = make()
        page = made(html_path, key, lambda: html.render(document).encode("utf-8"))
        keep(html_path, page)
        try:
            existing = pdf_path.read_bytes() if pdf_path.is_file() else None
        except OSError:
            existing = None
        if top and existing is not None and pdf.proven_by_source(recorded.get(relative), key,
                                                                 cache.digest(existing)):
            proofs[relative] = recorded[relative]
            on_disk[pdf_path] = proofs[relative]["pdf"]
            keep(pdf_path, existing)  # its top rows' HTML is the one recorded: not rendered again
            return
        printed = html.render_print(document, page)  # the page, unless it prints its top rows only
        if existing is not None and pdf.reusable(recorded.get(relative), printed, existing):
            proofs[relative] = pdf.record(printed, existing, page=page, source=key)
            on_disk[pdf_path] = proofs[relative]["pdf"]
            keep(pdf_path, existing)
        else:
            pending.append(pdf_path)
            pdfs_known([(pdf_path, printed.decode("utf-8"), document.date)])
            proofs[relative] = pdf.awaiting(printed, page, key)  # completed by `pdf_proofs` once rendered

    def written_again(annex: Annex, key: str | None) -> bool:  # its record has another key (or none)
        return key is not None and not cache.made_from_key(known.get(f"{annex.path}.xlsx"), key)

    # The annexes' worker (render/annex_worker.py) started first when a large annex is written again:
    # it starts on the other core while this process makes the site's records below, and is ready
    # when the annexes are given to it.
    keys = {annex.path: cache.annex_key(annex) for annex in report.annexes}
    aside = annex_worker.Aside()
    aside.start([annex for annex in report.annexes if written_again(annex, keys[annex.path])])
    deferred = Later(aside, made_from)
    # The annexes already published for their date: the site's pages wait for their hashes (`Later`).
    dated = {entry.get("path"): entry.get("date") for entry in previous.get("annexes") or [] if isinstance(entry, dict)}
    try:  # the worker stopped if this fails; once done, unless it still writes annexes for `later`
        annexes = []  # each annex and its public copy (or None), with their keys
        copies: dict[str, Annex] = {}  # a public copy known by its key (`copy_of`) -> its whole annex
        for annex in report.annexes:
            annex_copy = None
            if masking:
                copy_key, known_copy, masked_annex = copy_of(f"{annex.path}.xlsx", keys[annex.path],
                                                             functools.partial(masking.annex, annex))
                if known_copy:
                    # its path alone, no sheet: masked from the whole annex only if written (`annexed`);
                    # never given to the worker (its record has this key: not written again)
                    path_only = dataclasses.replace(annex, path=f"{PUBLIC}/{annex.path}", sheets=[], made_from=None)
                    copies[path_only.path] = annex
                    annex_copy = (path_only, copy_key)
                elif masked_annex is not None:
                    annex_copy = (masked_annex, copy_key or cache.annex_key(masked_annex))
            annexes.append(((annex, keys[annex.path]), annex_copy))
        # Those written again and large enough, handed to the worker first: written on the other core
        # while this process makes the site's records, the bulletins and the CSVs, and taken back in
        # their turn. Given after the site's records, the worker's annex was what the layout waited for
        # (at 100x, 10 s of its wall; fifteenth round). A new edition of an annex already published
        # (another date than the one published at its path), and its public copy, are left to the
        # worker past the layout (`Later`).
        unwaited: set[str] = set()
        for (whole, _), public_copy in annexes if later is not None and staging is not None else ():
            if dated.get(whole.path) not in (None, whole.date.isoformat()):
                unwaited.add(whole.path)
                if public_copy is not None:
                    unwaited.add(public_copy[0].path)
        given = aside.give([one for pair in annexes for one, key in filter(None, pair) if written_again(one, key)],
                           kept=unwaited)
        # each bulletin with its charts (site/figures.py)
        charted = figures.charted(report.documents, site_data.chart_records(report))
        # Each ranking's key: its CSV and its site record taken from disk when it is the one recorded
        # (one new tournament changes two of the Grand Sud's 82 rankings).
        ranking_keys = {ranking.path: cache.ranking_key(ranking) for ranking in report.rankings}
        if staging is not None:
            site_file(events or [], ranking_keys)
            if (made_again := staging.staged.get(folder / site_data.DATA)) is not None:
                site_data_made(made_again)
        else:
            keep(folder / site_data.DATA, b"".join(site_data.circuit_data_parts(report, events or [])))
        del events

        def annexed(annex: Annex, key: str | None) -> None:
            path = folder / f"{annex.path}.xlsx"
            if (whole := copies.get(annex.path)) is not None:
                from reportgen.render import excel

                kept(path, key, lambda: excel.render_annex(made_copy(cast(Masking, masking).annex, whole)))
                return
            if annex.path in aside.kept:  # taken back at the circuit's publication (`Later`)
                name = annex.path  # not the annex: it is not held until then
                deferred.steps.append((path.relative_to(folder).as_posix(),
                                       lambda: kept(path, key, lambda: aside.take(name))))
                return

            def write() -> bytes:
                from reportgen.render import excel

                if annex.path in given:  # the worker's bytes, or written here if it failed
                    return aside.take(annex.path, lambda: excel.render_annex(annex))
                return excel.render_annex(annex)

            kept(path, key, write)

        # The bulletins whose page changed first (one new tournament: its bulletin), so that their PDFs
        # go to the workers before the others are checked against their records (thirteenth round).
        keyed = [(document, cache.document_key(document)) for document in charted]
        keyed.sort(key=lambda pair: cache.made_from_key(known.get(f"{pair[0].path}.html"), pair[1]))

        # Each bulletin, then its public copy: the charts' names masked too. A copy the last build
        # made from the same whole document and the same names is known by its key, not masked
        # (masking reads every row: those of the bulletins a rebuild takes from disk, model.Deferred).
        for document, key in keyed:
            bulletin(document, key)
            if not masking:
                continue
            copy_key, known_copy, copy = copy_of(f"{document.path}.html", key,
                                                 functools.partial(masking.document, document))
            if known_copy:
                bulletin(document, copy_key, functools.partial(made_copy, masking.document, document))
                copied(document.path, f"{PUBLIC}/{document.path}", (".html", ".pdf"))
            elif copy is not None:
                bulletin(copy, copy_key or cache.document_key(copy))
                copied(document.path, copy.path, (".html", ".pdf"))
        for ranking in report.rankings:
            kept(folder / f"{ranking.path}.csv", ranking_keys[ranking.path],
                 lambda: ranking_render.to_spreadsheet_csv(ranking), listed=False)
            if not masking:
                continue
            copy_key, known_copy, masked = copy_of(f"{ranking.path}.csv", ranking_keys[ranking.path],
                                                   functools.partial(masking.ranking, ranking))
            if known_copy:
                kept(folder / f"{PUBLIC}/{ranking.path}.csv", copy_key, lambda: ranking_render.to_spreadsheet_csv(
                    made_copy(masking.ranking, ranking)), listed=False)
                copied(ranking.path, f"{PUBLIC}/{ranking.path}", (".csv",))
            elif masked is not None:
                kept(folder / f"{masked.path}.csv", copy_key or cache.ranking_key(masked),
                     lambda: ranking_render.to_spreadsheet_csv(masked), listed=False)
                copied(ranking.path, masked.path, (".csv",))
        for (annex, key), masked_copy in annexes:
            annexed(annex, key)
            if masked_copy is not None:
                annexed(*masked_copy)
                copied(annex.path, masked_copy[0].path, (".xlsx",))
    except BaseException:
        aside.close()
        raise
    if deferred.steps and later is not None:
        later.append(deferred)
    else:
        aside.close()
    if report.messages:
        from reportgen.render import mail
    for message in report.messages:  # a tournament of pools writes hundreds: 2 ms each with `email`
        path = folder / f"{message.path}.eml"
        kept(path, cache.source_key("eml", message), lambda: mail.to_eml(message))
    # the regulation's title as it is: the site's page sets it as a title (templates/site/season.html.j2)
    published = Manifest.of(slug, info.title, info.regulation_title, report)
    # What each bulletin and annex was made from: the proof the next build needs to take it from disk.
    published.made_from = {path: record for path, record in made_from.items() if record is not None}
    published.public = dict(sorted(public.items()))
    public_made(published.public)
    published.unmasked = sorted(unmasked)
    published.pdfs = proofs
    files = {manifest: published.to_json(), **files}
    return files, pending


def pdf_proofs(proofs: dict[str, Any], folder: Path, rendered: list[Path],
               digest: Callable[[Path], str]) -> dict[str, Any]:
    """The manifest's record of each PDF of a circuit (render/pdf.py `record`), by path: `proofs` as
    `render_report` left them (the records of the PDFs taken from disk, and of those it left to
    render what they await), those `rendered` completed with the hash of their bytes (`digest`)."""
    from reportgen.render import pdf

    done = {path.relative_to(folder).as_posix(): path for path in rendered}
    return {relative: pdf.completed(proof, digest(done[relative])) if relative in done else proof
            for relative, proof in sorted(proofs.items())}


def publish(files: dict[Path, bytes], folder: Path) -> list[Path]:
    """Publish a circuit's files all together, on disk too: what changed replaces the old files and
    the circuit's outputs that no longer exist are removed, through a journal (render/files.py), so
    that a kill, a Ctrl-C or a full disk leaves the previous publication or the new one, never a mix.
    The manifest goes last. An OSError is an OutputError naming the folder."""
    from reportgen.render.files import publish_folder
    from reportgen.render.index import MANIFEST

    return publish_folder(folder, files, last=folder / MANIFEST, stale_suffixes=STALE)


def _prepare(outputs: Path) -> None:
    """A publication a stopped run left halfway is finished (or its temporary files removed) before
    anything reads outputs/: the PDFs' records in the manifests must be those of the files there. And
    the private folders a killed build left in the system's temporary folder are removed."""
    from reportgen.render import scratch
    from reportgen.render.files import recover
    from reportgen.temporaries import clean_temporaries

    for slug in [*circuits.REGISTRY, state.SITE]:  # the circuits' folders and the site's (reportgen/site/)
        recover(outputs / slug)
    clean_temporaries(outputs, recursive=False)
    state.clean(outputs)
    scratch.sweep()


