"""Wait for a quiet machine before measuring (benchmarks/targets.py's --quiet-wait).

The machine is shared: a measurement started while another build or test suite runs says more
about that load than about reportgen. So the targets wait, a bounded time, for the load average of
the last minute to fall below a threshold, and say at which load they started either way."""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import dataclass

QUIET = 0.5  # the load average (1 minute) below which the machine counts as quiet
POLL = 5.0  # seconds between two looks at the load


@dataclass(frozen=True)
class Start:
    load: float  # the load average (1 minute) when the measurement started
    waited: float  # seconds spent waiting for it to fall
    quiet: bool  # below QUIET, or the wait ran out first (or was skipped)

    def sentence(self) -> str:
        state = "quiet" if self.quiet else f"not below {QUIET}"
        return f"load average at the start: {self.load:.2f} ({state}, after {self.waited:.0f} s of waiting)"


def wait(seconds: float, load: Callable[[], float] = lambda: os.getloadavg()[0],
         sleep: Callable[[float], None] = time.sleep, clock: Callable[[], float] = time.monotonic) -> Start:
    """Wait up to `seconds` (0: not at all) for the load to fall below QUIET; the load it starts at."""
    began = clock()
    current = load()
    while current >= QUIET and clock() - began < seconds:
        sleep(min(POLL, max(0.0, seconds - (clock() - began))))
        current = load()
    return Start(current, clock() - began, current < QUIET)
