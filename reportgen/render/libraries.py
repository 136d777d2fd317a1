"""WeasyPrint imported with its native libraries found in the system's library cache alone.

WeasyPrint asks cffi for each native library under several names, Windows' and macOS' before
Linux's (`libpango-1.0-0`, `pango-1.0-0`, then `pango-1.0`), and cffi asks
`ctypes.util.find_library` for each name it cannot open. On Linux, a name missing from the cache
(`ldconfig -p`) sends find_library on to gcc, then ld: measured, 22 lookups and 70 programs, 0.19 s
of the 0.6 s the import takes, paid by the PDF fork server before any worker can start. Answered
from the cache alone, a missing name costs one `ldconfig -p`; a library the cache does not list
is still found under the file name WeasyPrint tries last (`libpango-1.0.so.0`), which dlopen opens
itself wherever the system's loader looks (LD_LIBRARY_PATH included), as it will when the PDF is
laid out.
"""

from __future__ import annotations

import ctypes.util
import importlib
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from types import ModuleType


def import_weasyprint() -> ModuleType:
    """WeasyPrint, imported with `found_in_the_cache`."""
    with found_in_the_cache():
        return importlib.import_module("weasyprint")


@contextmanager
def found_in_the_cache() -> Iterator[None]:
    """`ctypes.util.find_library` answers from the library cache alone during the block, where
    CPython has that lookup (Linux with glibc's ldconfig); elsewhere it is left as it is."""
    cache_only = getattr(ctypes.util, "_findSoname_ldconfig", None)
    if cache_only is None or not sys.platform.startswith("linux"):
        yield
        return
    real = ctypes.util.find_library
    ctypes.util.find_library = cache_only
    try:
        yield
    finally:
        ctypes.util.find_library = real
