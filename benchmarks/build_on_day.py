"""`reportgen build --quiet` through the command line itself, as `make` starts it, as of the
benchmark's day: what the benchmarks' build processes run (`measure.FRESH_PROCESS`,
`rebuild_phases.CHILD`), and the Python that runs them (`python_on`), written once.

The day is the command's own, REPORTGEN_TODAY, as a developer tries a league on another day
(reportgen/clock.py): the whole command works as of it, not only `pipeline.build`. The variable
refuses a day after the machine's (left set, it would publish a season's final ranking before its
end), and the benchmarks' days are such days for a while yet (`benchmarks.__main__.TODAY`, 15 January
2027: both seasons over; the 10x and 100x extra tournament's, 19 December 2026): until it comes, the
process runs with the machine's clock moved to that day by libfaketime (Debian's `faketime`,
system-packages.txt, `make system-test`). The wall clock only: the monotonic clocks (durations,
rebuild_phases' timeline) and the CPU clocks stay the machine's, as do the files' times. It costs
such a process about 0.02 CPU-s (a 1x rebuild that finds nothing changed in a new process, 0.46
CPU-s: 0.476 under faketime against 0.459, medians of 6, 8 December 2026); gone once the day is past."""

from __future__ import annotations

import datetime as dt
import os
import shutil
import sys

# libfaketime leaves CLOCK_MONOTONIC alone with this: what the benchmarks time durations with.
REAL_DURATIONS = "FAKETIME_DONT_FAKE_MONOTONIC=1"


def python_on(day: dt.date) -> list[str]:
    """The command starting a Python (this one) whose machine's day is not before `day`, so that
    REPORTGEN_TODAY may name it: under `faketime`, at noon of `day`, while `day` is still to come."""
    if day <= dt.date.today():
        return [sys.executable]
    if shutil.which("faketime") is None:
        raise SystemExit(f"the benchmark's day, {day}, is after the machine's: it needs faketime (make system-test)")
    return ["env", REAL_DURATIONS, "faketime", f"{day.isoformat()} 12:00:00", sys.executable]


def build_on_day(inputs: str, outputs: str, day: dt.date) -> None:
    """The command run on `inputs` into `outputs` (no archive: `<outputs>-none`) as of `day`, in a
    process `python_on(day)` started; a command that fails raises SystemExit."""
    import reportgen.cli  # here: the process that starts it (python_on) imports no reportgen
    from reportgen import clock

    os.environ[clock.VARIABLE] = day.isoformat()
    sys.argv[1:] = ["build", "--quiet", "--inputs", inputs, "--outputs", outputs, "--archive", outputs + "-none"]
    try:
        reportgen.cli.main()
    except SystemExit as stop:
        if stop.code:
            raise
