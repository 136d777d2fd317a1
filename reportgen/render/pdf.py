"""HTML bulletins to PDF with WeasyPrint: only the templates folder may be read, no network.

The templates folder is the installed package data `reportgen.templates` (`html.TEMPLATES`,
resolved through importlib.resources): the stylesheet's fonts are read from there, relative to it.

The same HTML gives the same bytes: the PDF dates come from `<meta name="dcterms.created">` (the
date the bulletin speaks of), never from the clock.
"""

from __future__ import annotations

import calendar
import datetime as dt
import hashlib
import os
from pathlib import Path

from reportgen.render.html import TEMPLATES

EPOCH_DAY = dt.date(2000, 1, 1)


def _fetcher_class():
    from weasyprint.urls import URLFetcher

    class TemplatesOnlyFetcher(URLFetcher):
        """WeasyPrint's default fetcher reads any file and any URL (CVE-2025-68616): refuse all but
        `data:` and files inside the templates folder."""

        def __init__(self, root: Path):
            super().__init__(allowed_protocols=("data", "file"), timeout=1)
            self._root = root.resolve()

        def fetch(self, url, headers=None):
            if url.startswith("file:"):
                from urllib.request import url2pathname

                path = Path(url2pathname(url.split("?")[0].split("#")[0].removeprefix("file:"))).resolve()
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
    """
    import weasyprint

    fetcher = _fetcher_class()(templates)
    document = weasyprint.HTML(string=html, base_url=str(templates) + "/", url_fetcher=fetcher)
    epoch = calendar.timegm(day.timetuple())
    previous = os.environ.get("SOURCE_DATE_EPOCH")
    os.environ["SOURCE_DATE_EPOCH"] = str(epoch)
    try:
        return document.write_pdf(pdf_variant="pdf/a-3u")
    finally:
        if previous is None:
            del os.environ["SOURCE_DATE_EPOCH"]
        else:
            os.environ["SOURCE_DATE_EPOCH"] = previous


def _render_pair(pair: tuple[str, dt.date]) -> bytes:
    return render_pdf(*pair)


def _worker_started(parent: int) -> None:
    """In each PDF worker: Ctrl-C is the parent's to handle, and the worker dies with the parent
    (even a parent killed with SIGKILL: no worker goes on rendering for nobody)."""
    from reportgen.ingest.workbook import die_with_parent

    die_with_parent(parent)


def render_many(pages: list[tuple[str, dt.date]], workers: int = 2, progress=lambda message: None) -> list[bytes]:
    """Render several (html, date) bulletins; in parallel processes when it pays (measured: 1.8-2x).

    Interrupted (Ctrl-C) or failing, the workers are killed at once: nobody waits for them to
    finish their queue."""
    if len(pages) < 4 or workers < 2:
        return [_render_pair(page) for page in pages]
    import multiprocessing
    import signal
    import threading
    from concurrent.futures import ProcessPoolExecutor

    results = []
    pool = ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("spawn"),
                               initializer=_worker_started, initargs=(os.getpid(),))
    main = threading.current_thread() is threading.main_thread()
    try:
        # The workers start while submitting: with Ctrl-C blocked, so that none can print a
        # KeyboardInterrupt while it starts (they ignore it from then on).
        blocked = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT}) if main else None
        try:
            rendered = pool.map(_render_pair, pages)
        finally:
            if blocked is not None:
                signal.pthread_sigmask(signal.SIG_SETMASK, blocked)
        for done, data in enumerate(rendered, start=1):
            results.append(data)
            if done % 5 == 0 or done == len(pages):
                progress(f"  PDF {done}/{len(pages)}")
    except BaseException:
        _kill(pool)
        raise
    pool.shutdown()
    return results


def _kill(pool) -> None:  # type: ignore[no-untyped-def]
    """Stop a pool's workers now, whatever they are rendering."""
    for process in list(getattr(pool, "_processes", {}).values()):
        if process.is_alive():
            process.kill()
    pool.shutdown(wait=False, cancel_futures=True)


# -- proof that a PDF on disk is the one its HTML gives ---------------------------------------------

def record(html: bytes, pdf: bytes, templates: Path = TEMPLATES) -> dict[str, str]:
    """What the manifest keeps of a PDF, written after the PDF itself: the hashes of the HTML it
    was rendered from and of its own bytes, and the render fingerprint of the libraries, stylesheet
    and fonts that made it."""
    from reportgen.render.html import render_fingerprint

    return {"html": hashlib.sha256(html).hexdigest(), "render": render_fingerprint(templates),
            "pdf": hashlib.sha256(pdf).hexdigest()}


def reusable(recorded: object, html: bytes, pdf: bytes, templates: Path = TEMPLATES) -> bool:
    """True when the manifest's record proves that `pdf` (the file on disk) is what `html` gives
    today: same HTML, same render fingerprint, and the PDF is the very one recorded (not a file an
    interrupted run left behind)."""
    return isinstance(recorded, dict) and recorded == record(html, pdf, templates)
