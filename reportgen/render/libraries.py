"""WeasyPrint imported without looking its native libraries up by their other systems' names.

WeasyPrint asks cffi for each native library under several names, Windows' and macOS' before
Linux's (`libpango-1.0-0`, `pango-1.0-0`, `pango-1.0`, then `libpango-1.0.so.0`: its
weasyprint/text/ffi.py), and cffi asks `ctypes.util.find_library` for each name it cannot open
itself. On Linux find_library runs `ldconfig -p`, then, for a name the cache does not list, gcc and
ld: measured, 22 lookups and 70 programs, 0.19 s of the 0.6 s the import takes, paid by the PDF fork
server before any worker could start. Every library WeasyPrint loads is also named by its Linux file
name, which dlopen opens itself wherever the system's loader looks (LD_LIBRARY_PATH included), as it
will when a PDF is laid out: during the import, find_library answers that it knows none, and the
names before it are passed over at once.
"""

from __future__ import annotations

import ctypes.util
import importlib
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from types import ModuleType


def import_weasyprint() -> ModuleType:
    """WeasyPrint, imported with `no_lookup`."""
    with no_lookup():
        return importlib.import_module("weasyprint")


@contextmanager
def no_lookup() -> Iterator[None]:
    """`ctypes.util.find_library` finds nothing during the block, on Linux (elsewhere it is left as
    it is: WeasyPrint's names there are not this module's concern)."""
    if not sys.platform.startswith("linux"):
        yield
        return
    real = ctypes.util.find_library
    ctypes.util.find_library = lambda name: None
    try:
        yield
    finally:
        ctypes.util.find_library = real
