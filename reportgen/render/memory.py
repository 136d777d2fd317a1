"""Memory given back to the system: by the build's process before its PDF workers start, by a
PDF worker after each PDF.

Why: the PDFs render once every circuit is laid out, and the issue's limit counts the whole process
tree (the build and its PDF workers at the same moment). By then the circuits' reports and inputs
are released, but two things keep their memory resident: the cyclic garbage of the scoring and of
the rendering (Jinja's, xlsxwriter's cycles), which waits for a collection the collector, paused
while the circuits are laid out (pipeline/scoring.py), has not run yet; and the memory that is
freed but that glibc's allocator keeps in its heap rather than give it back to the system (pandas'
tables, large strings: it gives back only the top of its heap by itself). `give_back` collects the
first and asks glibc to return the second (`malloc_trim`). Measured in docs/performance.md
(« Peak memory (tenth round) »).

A PDF worker stays alive between its PDFs, and WeasyPrint's layout of a long bulletin (1.1 GB at
100x) stays resident in it once freed: `trim` after each PDF gives it back, so that a worker that
is done does not count in the tree while the other lays out the largest bulletin. The trim alone:
a full collection there would cost CPU on every PDF.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import gc
import sys
from functools import cache


@cache
def _trim():  # type: ignore[no-untyped-def]
    """glibc's `malloc_trim`, or None on another C library (macOS, musl: nothing to ask there)."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        trim = libc.malloc_trim
    except (OSError, AttributeError):
        return None
    trim.argtypes = [ctypes.c_size_t]
    trim.restype = ctypes.c_int
    return trim


def trim() -> None:
    """The freed memory returned to the system, as far as the allocator can (pages of its heap no
    longer used, anywhere in it)."""
    function = _trim()
    if function is not None:
        function(0)


def give_back() -> None:
    """The cyclic garbage collected, then `trim`."""
    gc.collect()
    trim()
