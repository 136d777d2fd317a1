"""`reportgen build --quiet` through the command line itself, as `make` starts it, on the
benchmark's day rather than today's: what the benchmarks' build processes run
(`measure.FRESH_PROCESS`, `rebuild_phases.CHILD`), written once."""

from __future__ import annotations

import datetime as dt
import sys
from typing import Any

import reportgen.cli
from reportgen import pipeline


def build_on_day(inputs: str, outputs: str, day: dt.date) -> Any:
    """The command run on `inputs` into `outputs` (no archive: `<outputs>-none`), its
    `pipeline.build` given `day` (the command takes today's; whatever wraps `pipeline.build`
    before this call is kept). The build's result; a command that fails raises SystemExit."""
    real = pipeline.build
    built = []

    def build(*args: Any, **kwargs: Any) -> Any:
        built.append(real(*args, today=day, **kwargs))
        return built[-1]

    pipeline.build = build
    sys.argv[1:] = ["build", "--quiet", "--inputs", inputs, "--outputs", outputs, "--archive", outputs + "-none"]
    try:
        reportgen.cli.main()
    except SystemExit as stop:
        if stop.code:
            raise
    finally:
        pipeline.build = real
    return built[-1]
