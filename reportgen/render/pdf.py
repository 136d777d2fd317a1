"""HTML bulletins to PDF with WeasyPrint: only the templates folder may be read, no network.

The templates folder is the installed package data `reportgen.templates` (`html.TEMPLATES`,
resolved through importlib.resources): the stylesheet's fonts are read from there, relative to it.
Fontconfig sees those and the fallback fonts alone (render/fonts.py), in this process and in the
workers: no font installed on the machine changes a PDF.

The same HTML gives the same bytes: the PDF dates come from `<meta name="dcterms.created">` (the
date the bulletin speaks of), never from the clock.
"""

from __future__ import annotations

import calendar
import datetime as dt
import hashlib
import os
import sys
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager, nullcontext
from pathlib import Path
from typing import cast

from reportgen.collector import seldom
from reportgen.model import SILENT, Progress
from reportgen.render.fonts import FONTS, use_project_fonts
from reportgen.render.html import TEMPLATES
from reportgen.render.libraries import import_weasyprint
from reportgen.render.memory import trim
from reportgen.render.pdf_spool import Spool
from reportgen.render.scratch import (
    Scratch,
    environment,
    of_this_process,
    programs_temporary_folder,
    temporary_folder,
)

EPOCH_DAY = dt.date(2000, 1, 1)


def _fetcher_class():
    from weasyprint.urls import URLFetcher

    class TemplatesOnlyFetcher(URLFetcher):
        """WeasyPrint's default fetcher reads any file and any URL (CVE-2025-68616): refuse all but
        `data:` and files inside the templates folder. A page names the fonts where the build
        publishes them, outputs/fonts/, relative to itself (`../../fonts/Inter-Regular.otf`,
        render/html.py's `root`): read from the templates folder, that URL climbs out of it; a
        `fonts/<name>` the templates' fonts folder holds is that shipped font, whatever the climb
        (read from `PAGE`, below the templates folder, its climb ends inside it)."""

        def __init__(self, root: Path):
            super().__init__(allowed_protocols=("data", "file"), timeout=1)
            self._root = root.resolve()

        def fetch(self, url, headers=None):
            if url.startswith("file:"):
                from urllib.request import url2pathname

                path = Path(url2pathname(url.split("?")[0].split("#")[0].removeprefix("file:"))).resolve()
                shipped = self._root / FONTS / path.name
                if path != shipped and path.parent.name == FONTS and shipped.is_file():
                    path, url = shipped, shipped.as_uri()
                if not path.is_relative_to(self._root):
                    raise ValueError(f"refused: {url} is outside the templates folder")
            elif not url.startswith("data:"):
                raise ValueError(f"refused: {url}")
            return super().fetch(url, headers)

    return TemplatesOnlyFetcher


def render_pdf(html: str, day: dt.date = EPOCH_DAY, templates: Path = TEMPLATES) -> bytes:
    """The PDF of a bulletin; `day` dates the embedded font subsets.

    fontTools stamps every font it subsets with the current time unless SOURCE_DATE_EPOCH is
    set: without it, the same HTML gives different bytes from one second to the next.

    The cycle collector looks less often meanwhile (reportgen/collector.py `seldom`: a fifth of
    the CPU). WeasyPrint copies the document's fonts (about 1 MB) to a folder it makes with `mkdtemp`
    (weasyprint/text/fonts.py) and removes only when that document's FontConfiguration is
    collected, which a PDF worker's end never waits for: every worker left one in the temporary
    folder. Its temporary files go to a folder of ours for the time of this PDF, removed after it
    (render/scratch.py: swept by the next build when a worker is killed mid-PDF).
    """
    use_project_fonts(templates / "fonts")
    weasyprint = _weasyprint()
    fetcher = _fetcher_class()(templates)
    epoch = calendar.timegm(day.timetuple())
    own = Scratch("fonts")  # a worker killed mid-PDF leaves it to the next build's sweep
    try:
        # the layout's objects live until it is written: `seldom`
        with environment("SOURCE_DATE_EPOCH", str(epoch)), temporary_folder(own.folder), seldom():
            document = weasyprint.HTML(string=html, base_url=str(templates / PAGE) + "/", url_fetcher=fetcher)
            laid_out = document.render(pdf_variant=VARIANT)
            for page in laid_out.pages:
                page.links[:] = [_relative(link, templates / PAGE) for link in page.links]
            return laid_out.write_pdf(pdf_variant=VARIANT)
    finally:
        own.discard()


VARIANT = "pdf/a-3u"
# Where a page is read from, as far as its relative URLs go: a folder (none on disk) this many
# folders below the templates folder, so that a link climbing up to that many folders keeps each
# « ../ » whatever the templates folder's own depth (`_relative`; reportgen installed near /).
PAGE = "/".join(["page"] * 8)
# The version of what reportgen does to a PDF WeasyPrint laid out (`_relative`), in the render
# fingerprint (render/html.py): bumped when it changes, so that every PDF made before is rendered
# again (a PDF is reused while its HTML and that fingerprint are the same). 2: links kept relative.
POST_PROCESSING = 2


def _relative(link: tuple, base: Path) -> tuple:  # type: ignore[type-arg]
    """A link to another published file as its page writes it, relative (`../../<circuit>/2026/
    <ranking>.csv`, the Masters' « Classement annuel »): WeasyPrint joins it to the base URL
    the fonts are read from, `base` (`PAGE` in the templates folder), which put the machine's path
    of that folder into the PDF (`file:///work/<circuit>/…`: other bytes wherever reportgen is
    installed, a link to nothing). Taken back relative to `base`, it is what the page says, and a
    reader opening the PDF in outputs/ finds the file beside it as the HTML bulletin does. Exact
    while `base` is deeper than the link climbs: `PAGE`'s folders are there so that it is, wherever
    the templates folder is (a page climbs two folders; joined to a templates folder at /x, the
    second « ../ » was lost)."""
    kind, target, rectangle, box = link
    if kind != "external" or not target.startswith("file:"):
        return link
    from urllib.parse import urlsplit
    from urllib.request import url2pathname

    parts = urlsplit(target)
    relative = Path(os.path.relpath(url2pathname(parts.path), base)).as_posix()
    return kind, relative + (f"#{parts.fragment}" if parts.fragment else ""), rectangle, box


def _weasyprint():  # type: ignore[no-untyped-def]
    """WeasyPrint, its libraries opened by their Linux file names (render/libraries.py), imported in
    this process's own folder (`of_this_process`): elsewhere, find_library may run gcc and ld, which
    make temporary files of their own; a process killed meanwhile leaves them to the next build's
    sweep, not in /tmp for good. A PDF worker has it already, imported by its fork server (`_pool`,
    render/pdf_server.py)."""
    if "weasyprint" not in sys.modules:
        folder = of_this_process()
        with temporary_folder(folder), programs_temporary_folder(folder):
            import_weasyprint()
    return sys.modules["weasyprint"]


_in_worker: list[bool] = []  # set in a PDF worker (`_worker_started`)


def _given_back(pdf: bytes) -> bytes:
    """In a PDF worker, the memory its layout freed returned to the system (render/memory.py)."""
    if _in_worker:
        trim()
    return pdf


def _render_pair(pair: tuple[str, dt.date]) -> bytes:
    return _given_back(render_pdf(*pair))


def _render_file(pair: tuple[Path, dt.date]) -> bytes:
    """A worker's task for a PDF whose HTML is in a file (render/pdf_spool.py): the build and its
    pool hold the path, not the HTML."""
    path, day = pair
    return _given_back(render_pdf(path.read_text(encoding="utf-8"), day))


def _task(pages: Sequence[tuple[str, dt.date]], index: int):  # type: ignore[no-untyped-def]
    """The function and argument a worker is given for `pages[index]`, and its size: its file's
    path when `pages` is a Spool, else the HTML itself."""
    if isinstance(pages, Spool):
        return _render_file, pages.file(index), pages.size(index)
    return _render_pair, pages[index], len(pages[index][0])


def _worker_started() -> None:
    """In each PDF worker: Ctrl-C is the build's to handle, and the worker ends as soon as the build
    does, however it ends (SIGKILL included: no worker goes on rendering for nobody). A worker is
    forked by the fork server (`_pool`), not by the build, so the build's death is watched through
    the sentinel multiprocessing gives the worker: a pipe the build holds the other end of."""
    import multiprocessing
    import signal
    import threading
    from multiprocessing.connection import wait

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _in_worker.append(True)
    build = multiprocessing.parent_process()
    if build is None:  # not a worker: nothing to watch
        return

    def watch() -> None:
        wait([build.sentinel])
        os._exit(1)

    threading.Thread(target=watch, daemon=True).start()


_warm: list = []  # the pool warm_up started and render_many has not used yet (at most one)


def _pool(workers: int):  # type: ignore[no-untyped-def]
    """A pool of up to `workers` processes, each started by the first task it takes, forked by
    multiprocessing's fork server: a process that imports WeasyPrint once for every worker (and this
    module: no pandas, no circuit, not the command line). A spawned worker imported it itself,
    0.6-0.7 CPU-s each, twice per build while the build was still reading and scoring on the same
    two cores. The server is started now, with Ctrl-C blocked, which it and every worker it forks
    keep (none can print a KeyboardInterrupt; the workers ignore it from then on), and imports
    WeasyPrint while the build goes on. None when the server cannot be started: its socket is a file
    of the temporary folder, and a TMPDIR deep in the tree makes its path longer than AF_UNIX allows
    (107 bytes); the PDFs are then rendered one after the other in this process, the same bytes.
    The server's TMPDIR is this process's own folder: what WeasyPrint's import makes there
    (`_weasyprint`) and what the workers make is swept with it when the build is killed."""
    import multiprocessing
    import signal
    import threading
    from concurrent.futures import ProcessPoolExecutor
    from multiprocessing import forkserver

    use_project_fonts(TEMPLATES / "fonts")  # before the server imports WeasyPrint: it inherits it
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(["reportgen.render.pdf_server"])  # WeasyPrint and this module
    pool = ProcessPoolExecutor(max_workers=workers, mp_context=context, initializer=_worker_started)
    main = threading.current_thread() is threading.main_thread()
    blocked = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT}) if main else None
    try:
        with _server_folder(), programs_temporary_folder(of_this_process()):
            forkserver.ensure_running()
    except OSError:
        pool.shutdown(wait=False)
        return None
    finally:
        if blocked is not None:
            signal.pthread_sigmask(signal.SIG_SETMASK, blocked)
    return pool


# What multiprocessing's names take of an AF_UNIX socket's path (107 bytes) under the folder it is
# given: /pymp-<8>/listener-<8> in Python 3.11 (31 bytes), /pymp-<8>/sock-<12> later; with margin.
SOCKET_NAMES = 40


def _server_folder() -> AbstractContextManager[None]:
    """Where multiprocessing makes its temporary folder (`pymp-…`: the fork server's socket), which it
    makes with tempfile at the server's start and removes only at this process's exit, never after a
    kill: in this process's own folder, which the next build's sweep takes once this process is gone
    (render/scratch.py `of_this_process`). In the system's, as before, when the socket's path would
    be too long there (a deep TMPDIR): a server rather than the PDFs one after the other."""
    folder = of_this_process()
    if len(os.fsencode(folder)) + SOCKET_NAMES > 107:
        return nullcontext()
    return temporary_folder(folder)


def _submit(pool, task, *arguments):  # type: ignore[no-untyped-def]
    """A task for the pool, which starts a worker for it when the pool has fewer than it may: a
    worker that does not run the command's main script again (ingest.reading_worker.spawning)."""
    from reportgen.ingest.reading_worker import spawning

    with spawning():
        return pool.submit(task, *arguments)


def warm_up(workers: int = 2) -> None:
    """Start the fork server now, while the build still reads and scores: it imports WeasyPrint
    (about 0.7 s) on the core the build leaves idle, so that the bulletins render as soon as they are
    known. The next `render_many` or `Batch` uses the pool; `cool_down` stops it if none is needed."""
    if not _warm and (pool := _pool(workers)) is not None:
        _warm.append(pool)
    _one_build.append(True)  # the command line's build: its fork server ends with its PDFs


def cool_down() -> None:
    """Stop the workers `warm_up` started, if `render_many` did not use them; and wait for the fork
    server `_release_server` ended (it has had the build's last steps to end in)."""
    while _warm:
        _kill(_warm.pop())
    _one_build.clear()
    while _ending:
        _ending.pop().join(5)


_ending: list = []  # the threads waiting for a fork server to end (`_release_server`)
# Set by `warm_up`, which the command line's build calls (a process of one build): only then does the
# fork server end with the PDFs. A process that renders again (a test session, a library caller)
# keeps it, and WeasyPrint imported in it, for its next PDFs (0.7 CPU-s each time otherwise).
_one_build: list = []


def _release_server() -> None:
    """The fork server ended as soon as a pool's workers are (every PDF back), no longer when the
    process exits: its interpreter, WeasyPrint imported, is torn down (0.1-0.3 s) on the core the PDFs
    leave while the build publishes, not after the build's end, where what waits for the whole
    process tree (a benchmark, `make`'s caller counting CPU) would wait for it. Waited for in a thread,
    so that it is reaped: its CPU and its workers' reach this process's children times. A later pool
    starts another server (multiprocessing starts one when there is none). Only after `warm_up`
    (`_one_build`): the command line's build."""
    import threading
    from multiprocessing import forkserver

    if not _one_build:
        return
    _one_build.clear()
    server = getattr(forkserver, "_forkserver", None)
    stop = getattr(server, "_stop", None)  # what multiprocessing's own tests stop it with
    if stop is None or getattr(server, "_forkserver_pid", None) is None:
        return
    thread = threading.Thread(target=stop, name="reportgen-pdf-server-end", daemon=True)
    thread.start()
    _ending.append(thread)


def render_many(pages: Sequence[tuple[str, dt.date]], workers: int = 2, progress: Progress = SILENT) -> list[bytes]:
    """Render several (html, date) bulletins; in parallel processes as soon as there are two, or
    when `warm_up` started them (measured: 1.7-2x the speed of one process, the same bytes). `pages`
    a Spool (render/pdf_spool.py): each worker reads its HTML from its file.

    The largest bulletins go first, so that the workers finish together; the results come back in
    the order of `pages`. Each worker imports WeasyPrint and reportgen's renderer only: no pandas,
    no circuit, nor the command line that started the build (render/pdf.py imports none of them,
    and the workers do not run the main script again: ingest.reading_worker.spawning). `progress` is
    told every 5 PDFs, and advanced by each PDF.

    Interrupted (Ctrl-C) or failing, the workers are killed at once: nobody waits for them to
    finish their queue."""
    if not pages:
        return []
    if _warm:
        pool = _warm.pop()
    elif len(pages) >= 2 and workers >= 2:
        pool = _pool(min(workers, len(pages)))  # None when the machine cannot start one
    else:
        pool = None
    if pool is None:
        results = []
        for index in range(len(pages)):
            task, argument, _ = _task(pages, index)
            results.append(task(argument))
            progress.advance()
        return results

    def gather() -> list[bytes]:
        tasks = [_task(pages, index) for index in range(len(pages))]
        futures = {_submit(pool, tasks[index][0], tasks[index][1]): index
                   for index in sorted(range(len(pages)), key=lambda index: (-tasks[index][2], index))}
        return _gathered(futures, progress)

    return _from_pool(pool, gather)


def _from_pool(pool, gather: Callable[[], list[bytes]]) -> list[bytes]:  # type: ignore[no-untyped-def]
    """What `gather` gets from `pool`'s workers (`_gathered`): failing or interrupted, the workers
    killed at once (`_kill`); every PDF back, the pool shut down and its fork server released."""
    try:
        found = gather()
    except BaseException:
        _kill(pool)
        raise
    pool.shutdown()
    _release_server()
    return found


def _gathered(futures: dict, progress: Progress,
              deliver: Callable[[int, bytes], None] | None = None) -> list[bytes]:
    """The PDFs of `futures` (future -> index), in the order of their indexes, as they finish; or,
    with `deliver`, each given to it (index, PDF) as it finishes and not kept (the list holds None)."""
    from concurrent.futures import FIRST_COMPLETED, wait

    total = len(futures)
    rendered: list[bytes | None] = [None] * total
    waiting, done = set(futures), 0
    while waiting:
        finished, waiting = wait(waiting, return_when=FIRST_COMPLETED)
        for future in finished:
            index = futures.pop(future)  # a finished future holds its PDF: not kept once taken
            if deliver is None:
                rendered[index] = future.result()
            else:
                deliver(index, future.result())
            done += 1
            progress.advance()
            if done % 5 == 0 or done == total:
                progress(f"  PDF {done}/{total}")
        del finished
    return cast(list[bytes], rendered)


class Batch:
    """A build's PDFs, given circuit by circuit as soon as their HTML is known.

    With the pool started early (`warm_up`: a new workbook), each PDF starts at once, while the
    build scores and lays out the next circuits (one new tournament: its bulletin and the season's
    ranking render while the Masters and the other circuits are scored); otherwise they wait for
    `results`, which renders them as `render_many` does. The pool stays in `_warm` until `results`
    has them all, so that `cool_down` stops its workers whatever happens in between. Each HTML is
    written to a file at once (render/pdf_spool.py): what the Batch and the pool hold until the
    PDFs are rendered is its path; `discard` removes the files."""

    def __init__(self) -> None:
        self.paths: list[Path] = []  # each PDF's target, in the order of the spool
        self.spool = Spool()
        self.futures: dict = {}  # future -> index in `paths`

    def add(self, items: list[tuple[Path, str, dt.date]]) -> None:
        """(path, html, date) of PDFs to render: the largest first."""
        for path, page, day in sorted(items, key=lambda item: -len(item[1])):
            index = self.spool.add(page, day)
            if _warm:
                self.futures[_submit(_warm[0], _render_file, self.spool.file(index))] = index
            self.paths.append(path)

    def __len__(self) -> int:
        return len(self.paths)

    def starts_at_once(self) -> bool:
        """Whether a PDF given now starts rendering at once (the pool started early: `warm_up`),
        taking the second core while the build lays out the next circuits."""
        return bool(_warm)

    def rendering(self) -> bool:
        """Whether a PDF is being rendered now (the pool started early, one not back yet): the
        second core is taken (site/drawing.py then draws no card beside it)."""
        return any(not future.done() for future in self.futures)

    def results(self, progress: Progress = SILENT,
                deliver: Callable[[Path, bytes], None] | None = None) -> dict[Path, bytes]:
        """Each PDF by its path, once all are rendered; the HTML files removed, whatever happens.
        With `deliver` (the build: its staging), each PDF is given to it (path, PDF) as soon as it
        is rendered, with the workers started early, and not held until the last one (at 100x, a
        first build's hundreds of megabytes of PDFs); the dict returned is then empty."""
        try:
            if not self.futures:
                rendered = render_many(self.spool, progress=progress)
                if deliver is None:
                    return dict(zip(self.paths, rendered))
                for index, path in enumerate(self.paths):
                    deliver(path, rendered[index])
                    rendered[index] = b""
                return {}
            given = None if deliver is None else lambda index, data: deliver(self.paths[index], data)
            found = _from_pool(_warm.pop(), lambda: _gathered(self.futures, progress, given))
            return {} if deliver is not None else dict(zip(self.paths, found))
        finally:
            self.discard()

    def discard(self) -> None:
        """The HTML files removed (the PDFs rendered, or the build stopped)."""
        self.spool.discard()


def _kill(pool) -> None:  # type: ignore[no-untyped-def]
    """Stop a pool's workers now, whatever they are rendering, and let the pool's own thread see
    them gone before going on (or it may still be closing its pipes when the process exits, and
    print an error of its own after ours)."""
    processes = list(getattr(pool, "_processes", {}).values())
    for process in processes:
        if process.is_alive():
            process.kill()
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        process.join(2)
    manager = getattr(pool, "_executor_manager_thread", None)
    if manager is not None and manager.is_alive():
        manager.join(2)


# -- proof that a PDF on disk is the one its HTML gives ---------------------------------------------

def record(html: bytes, pdf: bytes, templates: Path = TEMPLATES, page: bytes | None = None,
           source: str | None = None) -> dict[str, str]:
    """What the manifest keeps of a PDF, written after the PDF itself: the hashes of the HTML it
    was rendered from and of its own bytes, and the render fingerprint of the libraries, stylesheet
    and fonts that made it. `page`: the document's HTML page, when it is not the HTML rendered to PDF
    (a long ranking prints its top rows only, render/html.py `render_print`): its hash too, as
    `page`, which render/changes.py compares to tell a document already sent has changed; and the
    key of the document's source (render/cache.py `source_key`), for `proven_by_source`."""
    return completed(awaiting(html, page if page is not None else html, source), hashlib.sha256(pdf).hexdigest(),
                     templates)


def awaiting(html: bytes, page: bytes, source: str | None) -> dict[str, str]:
    """The record of a PDF still to render from `html` (its page's `page`): all but the hash of its
    bytes and the render fingerprint, which `completed` adds. The build keeps this, not the HTML,
    until its PDFs are rendered."""
    proof = {"html": hashlib.sha256(html).hexdigest()}
    if page != html:
        proof["page"] = hashlib.sha256(page).hexdigest()
        if source is not None:
            proof["source"] = source
    return proof


def completed(proof: dict[str, str], pdf_sha256: str, templates: Path = TEMPLATES) -> dict[str, str]:
    """`awaiting`'s record once the PDF is made: with its hash and the render fingerprint."""
    from reportgen.render.html import render_fingerprint

    return {"html": proof["html"], "render": render_fingerprint(templates), "pdf": pdf_sha256,
            **{key: proof[key] for key in ("page", "source") if key in proof}}


def reusable(recorded: object, html: bytes, pdf: bytes, templates: Path = TEMPLATES) -> bool:
    """True when the manifest's record proves that `pdf` (the file on disk) is what `html` (the HTML
    rendered to PDF) gives today: same HTML, same render fingerprint, and the PDF is the very one
    recorded (not a file an interrupted run left behind). A page changed beyond the rows its PDF
    prints does not make the PDF render again."""
    return reusable_by_digests(recorded, hashlib.sha256(html).hexdigest(), hashlib.sha256(pdf).hexdigest(), templates)


def reusable_by_digests(recorded: object, html_sha256: str, pdf_sha256: str, templates: Path = TEMPLATES) -> bool:
    """`reusable` from the SHA-256 of the HTML and of the PDF (known by their stat without reading
    them: render/cache.py `proven`)."""
    if not isinstance(recorded, dict):
        return False
    proof = {key: value for key, value in recorded.items() if key not in ("page", "source")}
    return proof == completed({"html": html_sha256}, pdf_sha256, templates)


def proven_by_source(recorded: object, source: str | None, pdf_sha256: str, templates: Path = TEMPLATES) -> bool:
    """True when the record of a PDF rendered from a long ranking's top rows names this very source
    key, today's render fingerprint and the SHA-256 of the PDF's bytes: the HTML that source gives is the one
    recorded (the key covers the template, context, title, date, code and render fingerprint, as
    for the page taken from disk, render/cache.py), so it need not be rendered to be compared."""
    from reportgen.render.html import render_fingerprint

    return (source is not None and isinstance(recorded, dict) and recorded.get("source") == source
            and recorded.get("render") == render_fingerprint(templates)
            and recorded.get("pdf") == pdf_sha256)
