"""One run at a time: an OS lock (`flock`) on a file, which the kernel releases with the process,
even after kill -9, so that a killed run never leaves the next one locked out. `mail --send` (and
`remind --send`, `inbox --send` through its send log), `inbox` and `publish` each hold their own."""

from __future__ import annotations

import fcntl
from pathlib import Path
from typing import IO

from reportgen.model import ReportgenError
from reportgen.render.files import OutputError


def hold(path: Path, busy: str, nothing: str, option: str = "--archive",
         refused: type[ReportgenError] = ReportgenError) -> IO[str]:
    """The lock on `path`, held while the returned file stays open. Another process holding it:
    `refused(busy)` (French: who holds it, what to do). The folder cannot be written: OutputError
    naming it, `nothing` saying what was not done, `option` the command's option for that folder."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle = open(path, "a", encoding="utf-8")
    except OSError as error:
        raise OutputError(path.parent, error, nothing, option=option) from None
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        handle.close()
        raise refused(busy) from None
    return handle
