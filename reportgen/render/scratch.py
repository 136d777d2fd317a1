"""A build's private temporary folders (the site's view, pipeline/site_view.py; the PDF spool,
render/pdf_spool.py; the annex worker's, render/annex_worker.py; WeasyPrint's copies of the fonts for
one PDF, render/pdf.py) in the system's temporary folder, which a killed build does not leave there.

Why: each is removed by its `discard` at the end of the build, whatever ends it, but a build killed
(kill -9, the machine's out-of-memory killer) used to leave them in /tmp for good: at 100x the
spool holds hundreds of megabytes of HTML.

A folder is `reportgen-build-<kind>-<random>`, locked (`flock` on the folder itself) by the process
that made it, for as long as that process lives: the kernel releases the lock when it ends, however
it ends. Each build first removes those whose lock can be taken (`sweep`, from pipeline/publishing.py
`_prepare`, with what else a stopped run left): whoever made them is gone. A lock rather than a pid in the name: pids are reused, and a container sharing /tmp sees
other pids. The folder is made under a hidden name and renamed once locked, so that no other build
ever finds it unlocked while it is in use. Only names with `build` are swept: the unlocked folders
of an older reportgen (`reportgen-pdf-…`), which may still be running, are left alone."""

from __future__ import annotations

import fcntl
import os
import shutil
import tempfile
from pathlib import Path

from reportgen.render.syncing import FOLDER  # how a folder is opened (to lock it here)

PREFIX = "reportgen-build-"


class Scratch:
    """A private temporary folder (`folder`), held by this process until `discard`."""

    def __init__(self, kind: str) -> None:
        draft = Path(tempfile.mkdtemp(prefix=f".{PREFIX}{kind}-"))
        self._lock: int | None = os.open(draft, FOLDER)
        fcntl.flock(self._lock, fcntl.LOCK_EX)
        self.folder = draft.with_name(draft.name.removeprefix("."))
        os.rename(draft, self.folder)

    def discard(self) -> None:
        """The folder and what it holds removed, then the lock let go (a sweep finds nothing)."""
        shutil.rmtree(self.folder, ignore_errors=True)
        if self._lock is not None:
            os.close(self._lock)
            self._lock = None


def sweep() -> list[Path]:
    """The folders whose maker is gone, removed: those whose lock can be taken."""
    removed = []
    for folder in Path(tempfile.gettempdir()).glob(f"{PREFIX}*"):
        try:
            descriptor = os.open(folder, FOLDER | os.O_NOFOLLOW)
        except OSError:  # gone meanwhile, not a folder, or another user's
            continue
        try:
            fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
            shutil.rmtree(folder, ignore_errors=True)
            removed.append(folder)
        except OSError:  # held (BlockingIOError): its build is running
            pass
        finally:
            os.close(descriptor)
    return removed
