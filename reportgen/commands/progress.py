"""What `reportgen build` shows while it works.

In a terminal: a progress bar (rich) naming the step under way (« lecture des classeurs »,
« calcul des classements » (each circuit laid out as soon as it is scored), « pages du site »
(while the PDFs render beside them), « PDF », « publication ») with how many of its items are done
out of how many, the time spent, how many are left and the time left (rich's estimate; the site's
pages, which cannot be counted ahead, show only how many are done); the build's messages print
above it, and it
disappears when the build ends. Elsewhere (a pipe, a CI log: standard error is not a terminal) the
messages only, one line each, no bar and no control characters. With `--quiet`, nothing but the
problems, the notices and the errors (the command prints those itself).
"""

from __future__ import annotations

import sys
from types import TracebackType
from typing import TYPE_CHECKING, TextIO

import typer

if TYPE_CHECKING:
    from rich.progress import Progress, Task, TaskID


class BuildProgress:
    """The `Progress` (reportgen/model/report.py) given to pipeline.build: called with each message; `phase` and
    `advance` drive the bar."""

    def __init__(self, quiet: bool = False, stream: TextIO | None = None) -> None:
        self.quiet = quiet
        self.stream = stream if stream is not None else sys.stderr
        try:
            terminal = self.stream.isatty()
        except (AttributeError, ValueError):
            terminal = False
        self.bar_wanted = not quiet and terminal
        self._progress: Progress | None = None  # once a step starts
        self._task: TaskID | None = None

    def __enter__(self) -> BuildProgress:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.close()

    def close(self) -> None:
        if self._progress is not None:
            self._progress.stop()
            self._progress = None

    def __call__(self, message: str) -> None:
        if self.quiet:
            return
        if self._progress is not None:
            self._progress.console.print(message, markup=False, highlight=False, soft_wrap=True)
        else:
            typer.echo(message, err=True)

    def phase(self, what: str, total: int | None) -> None:
        if not self.bar_wanted or (total is not None and total <= 0):
            return
        if self._progress is None:
            self._progress = _bar(self.stream)
            self._progress.start()
        progress = self._progress
        if self._task is not None:
            progress.remove_task(self._task)
        self._task = progress.add_task(what, total=total)

    def advance(self, count: int = 1) -> None:
        if self._progress is not None and self._task is not None:
            self._progress.advance(self._task, count)


def _bar(stream: TextIO) -> Progress:
    """The bar: the step, its items done out of how many, the time spent, and what is left, in
    items (« 51 à faire ») and in time (rich's estimate from the pace so far): a first build of a
    large league spends minutes on its PDFs (issue 27). Rich imported only when a bar is shown."""
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        ProgressColumn,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )
    from rich.table import Column
    from rich.text import Text

    class Left(ProgressColumn):
        """« 51 à faire, reste » (rich's estimate follows it); nothing for a step not counted ahead."""

        def render(self, task: Task) -> Text:
            return Text("" if task.remaining is None else f"{task.remaining:.0f} à faire, reste")

    class Done(MofNCompleteColumn):
        """« 12/54 » for a step counted ahead, « 427 faites » for one that is not (the site's pages)."""

        def render(self, task: Task) -> Text:
            return super().render(task) if task.total is not None else Text(f"{task.completed:.0f} faites")

    return Progress(TextColumn("{task.description:<24}"), BarColumn(), Done(), TimeElapsedColumn(),
                    Left(table_column=Column(no_wrap=True)), TimeRemainingColumn(), console=Console(file=stream), transient=True)
