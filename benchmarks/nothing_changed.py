"""A build that finds nothing changed, on outputs a build left: its CPU in this process (imports
done), and the hashing of inputs/ alone, with and without the files' hashes known by their stat
(ingest/file_hashes.py). docs/performance.md, eighth round.

    .venv/bin/python -m benchmarks.nothing_changed INPUTS OUTPUTS [--day 2027-01-15] [--runs 3]

OUTPUTS must hold a build of INPUTS for that day by this code (or one with the same code
fingerprint): otherwise the first run builds in full, and the figures say so (`unchanged: False`).
A new process's cost (Python's start-up and the command line's imports besides) is what
`benchmarks/measure.py`'s « rebuild, nothing changed, new process » measures.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import tempfile
from pathlib import Path


def cpu() -> float:
    times = os.times()
    return times.user + times.system + times.children_user + times.children_system


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("inputs", type=Path)
    parser.add_argument("outputs", type=Path)
    parser.add_argument("--day", default="2027-01-15")
    parser.add_argument("--runs", type=int, default=3)
    options = parser.parse_args()

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
