"""What creating a file costs on the benchmarks' filesystem at the moment they measure (twenty-third round).

On an ext4 filesystem without a journal (this project's machines: /proc/fs/jbd2 lists none), Linux
gives a new file an inode only after looking, one by one, at the free inodes of its group that were
freed in the last minutes, and passing over them (fs/ext4/ialloc.c: `find_inode_bit` calls
`recently_deleted` when the superblock has no journal; an inode stays « recent » for a minute, or
for six while its block of the inode table is dirty). After a removal of many files (a benchmark's
work folder of 25,000 pages, a test suite's temporary folders), each creation in the same groups
costs that many looks: the site's 25,112 files of a first build at 100x took 5.6 s of `open` after
the previous run's removal, and 0.66 s four minutes later (cProfile, `benchmarks.site_share`). A
filesystem with a journal (any desktop's ext4) never looks. So each figure of the site's pages, or
of any step that writes many files, is printed beside what a creation costs when it starts, and
`benchmarks.targets` waits, a bounded time, for it to fall back (`settle`), as it waits for a quiet
load average (benchmarks/quiet.py): a secretary's filesystem has a journal."""

from __future__ import annotations

import os
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

PROBE = 500  # empty files created to measure a creation: a few tens of milliseconds at the worst
SETTLED = 60.0  # µs a creation, below which the filesystem counts as settled (20-30 on this machine's)
POLL = 15.0  # seconds between two probes


def creation_cost(folder: Path, count: int = PROBE) -> float:
    """Microseconds of wall time per empty file created in a new subfolder of `folder`. The files are
    left there (the caller removes its work folder at its end): removing them now would add to
    what the next creations pay."""
    probe = Path(tempfile.mkdtemp(prefix="creation-probe-", dir=folder))
    start = time.perf_counter()
    for index in range(count):
        os.close(os.open(probe / str(index), os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
    return (time.perf_counter() - start) / count * 1e6


def describe(path: Path, mountinfo: str | None = None, journals: list[str] | None = None,
             device_name: dict[str, str] | None = None) -> str:
    """The filesystem holding `path`: its type, and for ext4 whether it has a journal (« ext4 without
    a journal »). `mountinfo`, `journals` (the names in /proc/fs/jbd2) and `device_name` (a
    device's name by its major:minor) are read from the machine when not given."""
    if mountinfo is None:
        try:
            mountinfo = Path("/proc/self/mountinfo").read_text()
        except OSError:
            return "unknown filesystem"
    target, found = str(Path(path).resolve()), None
    for line in mountinfo.splitlines():
        before, _, after = line.partition(" - ")
        fields, tail = before.split(), after.split()
        if len(fields) < 5 or not tail:
            continue
        point = fields[4].replace("\\040", " ")
        inside = target == point or target.startswith(point.rstrip("/") + "/")
        if inside and (found is None or len(point) >= len(found[0])):  # the deepest mount, the last one mounted
            found = (point, tail[0], fields[2])
    if found is None:
        return "unknown filesystem"
    _, kind, device = found
    if kind != "ext4":
        return kind
    if journals is None:
        try:
            journals = os.listdir("/proc/fs/jbd2")
        except OSError:
            journals = []
    name = (device_name or {}).get(device)
    if name is None:
        try:
            name = os.path.basename(os.readlink(f"/sys/dev/block/{device}"))
        except OSError:
            return "ext4"
    # a journal is listed as <device>-<its inode>, « vda-8 »
    return "ext4 with a journal" if any(entry.startswith(f"{name}-") for entry in journals) else "ext4 without a journal"


def sentence(folder: Path, microseconds: float) -> str:
    return f"a file created in {microseconds:.0f} µs ({describe(folder)}, {PROBE} probed)"


@dataclass(frozen=True)
class Settled:
    microseconds: float  # what a creation cost at the last probe
    waited: float  # seconds spent waiting for it to fall
    settled: bool  # below SETTLED, or the wait ran out first (or was skipped)


def settle(folder: Path, seconds: float, probe: Callable[[Path], float] = creation_cost,
           sleep: Callable[[float], None] = time.sleep, clock: Callable[[], float] = time.monotonic) -> Settled:
    """Wait up to `seconds` (0: probe once) for a creation in `folder` to cost less than SETTLED µs.
    The probes remove nothing, so they add nothing to what they wait for."""
    began = clock()
    cost = probe(folder)
    while cost >= SETTLED and clock() - began < seconds:
        sleep(min(POLL, max(0.0, seconds - (clock() - began))))
        cost = probe(folder)
    return Settled(round(cost, 1), round(clock() - began, 1), cost < SETTLED)
