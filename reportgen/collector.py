"""Python's cycle collector kept from walking what it cannot free (issue 27): paused while the
league is loaded and scored, the league's data frozen out of its passes while the site's pages are
made, and told to look less often while WeasyPrint lays a bulletin out.

Why the site's pages: a `Site` holds every circuit's `site.json` parsed (118 MiB of dicts and lists
at 10x, about ten times that at 100x), and making the pages allocates millions of small objects
(lines, contexts, keys). Each time enough of them survive, the collector traverses every container
of the process, the league's data included, though that data holds no cycle (parsed JSON: a tree)
and is freed by reference counting with the `Site`. Measured at 10x on built outputs
(docs/performance.md, « The site's pages (tenth round) »): loading `site.json` 1.1 to 1.7 CPU-s with
the collector, 0.3 to 0.5 without; 0.7 to 1.1 CPU-s of collections while the pages are made, 0.01
with the data frozen.

A `Site` parses its data under `parsed` (twelfth round): frozen as soon as it is parsed, before the
collector is enabled again, whose first young collection otherwise walked all of it (0.11 CPU-s at
10x, about 1 at 100x), until its pages are made (`frozen`'s end gives it back).

`uncollected` also serves the build's loading and scoring (pipeline/loading.py, scoring.py) and
the decoding of outputs/.reportgen's JSON (ingest/read_cache.py, file_hashes.py), for the same
reason; `seldom`, the PDFs (render/pdf.py).

The collector is process-wide: these helpers give it back as they found it, even on an error."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def uncollected() -> Iterator[None]:
    """No cyclic collection inside (what is parsed there makes no cycle); the collector enabled
    again after, if it was."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


@contextmanager
def frozen() -> Iterator[None]:
    """Every object the process holds now left out of the collections made inside (`gc.freeze`):
    still freed by reference counting when no longer used; in the oldest generation again after
    (a cycle among them is then collected as before)."""
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()


@contextmanager
def parsed() -> Iterator[None]:
    """`uncollected`, then every object the process holds frozen (`gc.freeze`) before the collector
    is enabled again: what was parsed inside is not walked by the collections that follow. The end of
    `frozen` puts them back in the oldest generation; until then they are still freed by reference
    counting (a tree from JSON holds no cycle)."""
    with uncollected():
        yield
        gc.freeze()


# A bulletin's layout allocates millions of small objects that live until its PDF is written: at
# the collector's default (a young collection every 700 allocations), about 430 collections per
# bulletin that free little, a fifth of the PDF's CPU. 16 bulletins of the 1x league in a fresh
# process, as in a PDF worker: 27.0 CPU-s, 20.7 with 100,000 (fifteenth round, docs/performance.md);
# the worker's peak grew from 138 to 148 MiB.
LAYOUT_THRESHOLD = 100_000


@contextmanager
def seldom() -> Iterator[None]:
    """A young collection once `LAYOUT_THRESHOLD` allocations are pending, not 700
    (`gc.set_threshold`'s first value; the older generations' as they were): fewer passes over
    objects that live anyway. Cycles are still collected, later."""
    previous = gc.get_threshold()
    gc.set_threshold(LAYOUT_THRESHOLD, *previous[1:])
    try:
        yield
    finally:
        gc.set_threshold(*previous)
