"""A build that finds nothing changed, on outputs a build left: its CPU in this process (imports
done), and the hashing of inputs/ alone, with and without the files' hashes known by their stat
(ingest/file_hashes.py). docs/performance.md, eighth and ninth rounds.

    .venv/bin/python -m benchmarks.nothing_changed INPUTS OUTPUTS [--day 2027-01-15] [--runs 3]
    .venv/bin/python -m benchmarks.nothing_changed INPUTS OUTPUTS --full [--fresh 3]

OUTPUTS must hold a build of INPUTS for that day by this code (or one with the same code
fingerprint): otherwise the first run builds in full, and the figures say so (`unchanged: False`).
`--full`: OUTPUTS (empty or absent) is built first, in a process of its own, with stand-in PDFs
as benchmarks/targets.py builds; the runs then start with the first build after it, the one that
meets the outputs that build had just written. `--fresh N`: N times `reportgen build --quiet` in a
new process as the targets measure it (benchmarks/measure.py's « rebuild, nothing changed, new
process »: Python's start-up and the command line's imports besides), before the runs in this one.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import resource
import subprocess
import tempfile
from pathlib import Path

from benchmarks.build_on_day import python_on

FULL_BUILD = """
import datetime as dt, sys
from pathlib import Path
from reportgen import pipeline
from reportgen.render import pdf
stand_in = b"%PDF-1.4 stand-in\\n"  # benchmarks/targets.py's
pdf.render_many = lambda pages, *args, **kwargs: [stand_in for _ in pages]
pdf.render_pdf = lambda page, *args, **kwargs: stand_in
result = pipeline.build(Path(sys.argv[1]), Path(sys.argv[2]), dt.date.fromisoformat(sys.argv[3]))
print(sum(len(files) for files in result.published.values()))
"""


def cpu() -> float:
    times = os.times()
    return times.user + times.system + times.children_user + times.children_system


def in_new_process(code: str, inputs: str, outputs: str, day: str) -> tuple[float, str]:
    """The CPU of a child Python on `day` (build_on_day.py `python_on`; user + sys, from its rusage)
    and what it printed."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run([*python_on(dt.date.fromisoformat(day)), "-c", code, inputs, outputs, day],
                          capture_output=True, text=True,
                          cwd=Path(__file__).resolve().parent.parent)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(done.stderr[-2000:])
    return after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime, done.stdout


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("inputs", type=Path)
    parser.add_argument("outputs", type=Path)
    parser.add_argument("--day", default="2027-01-15")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--full", action="store_true", help="build OUTPUTS first (stand-in PDFs)")
    parser.add_argument("--fresh", type=int, default=0, help="builds in a new process, before the runs")
    options = parser.parse_args()

    from benchmarks.measure import FRESH_PROCESS

    if options.full:
        if options.outputs.exists() and any(options.outputs.iterdir()):
            raise SystemExit(f"{options.outputs}: not empty (--full builds in an empty folder)")
        spent, written = in_new_process(FULL_BUILD, str(options.inputs), str(options.outputs), options.day)
        print(f"full build (stand-in PDFs, new process): {written.split()[-1]} files, {spent:.2f} CPU-s")
    for run in range(options.fresh):
        spent, written = in_new_process(FRESH_PROCESS, str(options.inputs), str(options.outputs), options.day)
        print(f"reportgen build --quiet, new process {run + 1}: {written.split()[-1]} files written, {spent:.3f} CPU-s")

    from reportgen import pipeline
    from reportgen.ingest.file_hashes import FileHashes
    from reportgen.render import cache

    start = cpu()
    cache.code_fingerprint()
    print(f"code fingerprint: {cpu() - start:.3f} CPU-s")
    day = dt.date.fromisoformat(options.day)
    for run in range(options.runs):
        start = cpu()
        result = pipeline.build(options.inputs, options.outputs, day)
        print(f"build {run + 1}: unchanged: {result.unchanged}, {cpu() - start:.3f} CPU-s")
    with tempfile.TemporaryDirectory() as folder:
        for label, store in (("without a cache", None), ("cache empty", Path(folder)), ("cache known", Path(folder))):
            hashes = FileHashes(store)
            start = cpu()
            found = cache.inputs_digest(options.inputs, hashes)
            spent = cpu() - start
            hashes.save()
            print(f"inputs' hashes, {label}: {len(found or {})} files, {spent:.3f} CPU-s")


if __name__ == "__main__":
    main()
