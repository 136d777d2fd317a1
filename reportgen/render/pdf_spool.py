"""The HTML of the PDFs a build still has to render, kept in files until they are rendered.

Why: a bulletin's PDF is rendered once every circuit is laid out (or, with the workers warmed, as
soon as its HTML is known, but queued behind the others). Each HTML used to be held as a `str` by
the build until its PDF came back, and a pool's executor holds the arguments of every task it was
given until that task ends: at 100x, hundreds of megabytes. Each HTML now goes to a file of a
private temporary folder as soon as it is known; the build holds its path, size and date, and a
PDF worker is given the path (`render/pdf.py` `_render_file`) and reads it itself.

A `Spool` is a sequence of (html, date) like the list `render_many` takes, each read from its file
when asked for: what reads them one by one (a stand-in renderer, a benchmark's sample) needs no
change. The folder is removed by `discard` (the build's end, whatever it is); one a killed build
leaves is in the system's temporary folder, never in outputs/, and the next build removes it
(render/scratch.py).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from pathlib import Path
from typing import overload

from reportgen.render.scratch import Scratch


class Spool(Sequence[tuple[str, dt.date]]):
    """(html, date) of PDFs to render, each HTML in a file of its own."""

    def __init__(self) -> None:
        self.scratch: Scratch | None = None  # its folder, made by the first `add`
        self.files: list[tuple[Path, int, dt.date]] = []  # the HTML's file, its size in bytes, the date

    def add(self, html: str, day: dt.date) -> int:
        """`html` written to a file of the spool; its index."""
        if self.scratch is None:
            self.scratch = Scratch("pdf")
        data = html.encode("utf-8")
        path = self.scratch.folder / f"{len(self.files)}.html"
        path.write_bytes(data)
        self.files.append((path, len(data), day))
        return len(self.files) - 1

    @property
    def folder(self) -> Path | None:
        """Where the HTML files are, once the first is added."""
        return None if self.scratch is None else self.scratch.folder

    def file(self, index: int) -> tuple[Path, dt.date]:
        path, _, day = self.files[index]
        return path, day

    def size(self, index: int) -> int:
        return self.files[index][1]

    @overload
    def __getitem__(self, index: int) -> tuple[str, dt.date]: ...

    @overload
    def __getitem__(self, index: slice) -> list[tuple[str, dt.date]]: ...

    def __getitem__(self, index: int | slice) -> tuple[str, dt.date] | list[tuple[str, dt.date]]:
        if isinstance(index, slice):
            return [self[i] for i in range(len(self))[index]]
        path, _, day = self.files[index]
        return path.read_text(encoding="utf-8"), day

    def __len__(self) -> int:
        return len(self.files)

    def discard(self) -> None:
        """The files removed; the spool is empty."""
        if self.scratch is not None:
            self.scratch.discard()
        self.scratch = None
        self.files = []
