"""The largest annex a build writes (the Grand Sud season's), written alone in a process of its own
per run: what XlsxWriter and render/table_sheet.py cost for it, in CPU-s or in instructions.

    .venv/bin/python -m benchmarks.annex --scale 100 --runs 3
    .venv/bin/python -m benchmarks.annex --scale 100 --tree /tmp/main      # alternated with another tree
    .venv/bin/python -m benchmarks.annex --scale 10 --instructions          # callgrind: the machine's hour aside

The league is loaded and scored once, on the targets' day (benchmarks/targets.py `build_day`), and
its largest annex pickled into a temporary folder. Each run then takes it back in a new process and
times `render_annex` alone; with `--tree`, that tree's reportgen runs alternately with this one's
(another commit's worktree). Each run prints its CPU, the annex's size and its bytes' SHA-256: the
same for both trees unless a change means to change an annex. `--instructions` counts what each run
executes under valgrind's callgrind, less a run that takes the annex back and writes nothing:
repeatable whatever else the machine does, where the CPU of this project's machines moved by
40 % within minutes (docs/performance.md, twenty-seventh round); about a minute a run at 10x.
"""

from __future__ import annotations

import argparse
import json
import os
import pickle
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from benchmarks import leagues
from benchmarks.targets import build_day

ONE_RUN = """
import gc, hashlib, json, pickle, sys, time
from reportgen.render.excel import render_annex
with open(sys.argv[1], "rb") as stream:
    annex = pickle.load(stream)
gc.collect()
gc.freeze()
start = time.process_time()
data = render_annex(annex) if sys.argv[2] == "write" else b""
print(json.dumps({"cpu": time.process_time() - start, "bytes": len(data), "sha256": hashlib.sha256(data).hexdigest()}))
"""
COLLECTED = re.compile(r"Collected : (\d+)")


def largest_annex(scale: int, folder: Path) -> tuple[Path, str, int]:
    """The league's largest annex pickled into `folder`: its file, its path and its filled cells."""
    import warnings

    from reportgen.model import Annex
    from reportgen.pipeline import load, score

    warnings.simplefilter("ignore")
    league = load(leagues.ensure(scale, lambda message: print(message, file=sys.stderr)), build_day(scale))
    annexes = [annex for report in score(league, ["grand-sud"]).reports.values() for annex in report.annexes]

    def cells(annex: Annex) -> int:
        return sum(1 for sheet in annex.sheets for row in sheet.rows for value in row if value not in (None, ""))

    largest = max(annexes, key=cells)
    target = folder / "annex.pickle"
    target.write_bytes(pickle.dumps(largest))
    return target, largest.path, cells(largest)


def one_run(tree: Path, annex: Path, instructions: bool, mode: str = "write") -> dict:
    """One process writing the annex with `tree`'s reportgen: its CPU-s (or instructions), size, hash."""
    command = [sys.executable, "-c", ONE_RUN, str(annex), mode]
    if instructions:
        command = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", *command]
    done = subprocess.run(command, capture_output=True, text=True, check=True, cwd=tree,
                          env={**os.environ, "PYTHONPATH": str(tree), "PYTHONHASHSEED": "0"})
    found = json.loads(done.stdout.strip().splitlines()[-1])
    if instructions:
        found["instructions"] = int(COLLECTED.findall(done.stderr)[-1])
    return found


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.annex", description=__doc__.split("\n\n")[0])
    parser.add_argument("--scale", type=int, default=10, choices=leagues.SCALES)
    parser.add_argument("--runs", type=int, default=3, help="runs of each tree, alternated")
    parser.add_argument("--tree", type=Path, help="another tree of reportgen (a worktree) run alternately with this one")
    parser.add_argument("--instructions", action="store_true", help="count instructions under callgrind")
    options = parser.parse_args()
    if options.instructions and shutil.which("valgrind") is None:
        parser.error("--instructions needs valgrind")
    trees = {"this tree": leagues.ROOT, **({str(options.tree): options.tree.resolve()} if options.tree else {})}
    with tempfile.TemporaryDirectory(prefix="reportgen-annex-") as folder:
        annex, path, cells = largest_annex(options.scale, Path(folder))
        print(f"{options.scale}x, {path}: {cells:,} filled cells", file=sys.stderr)
        # what a run costs besides the writing (Python, the imports, the annex taken back): counted once
        floor = one_run(leagues.ROOT, annex, True, "none")["instructions"] if options.instructions else 0
        found: dict[str, list[dict]] = {name: [] for name in trees}

        def cost(run: dict) -> float:
            """What the writing alone cost: its instructions less the floor's, or its CPU-s."""
            return run["instructions"] - floor if options.instructions else run["cpu"]

        def shown(value: float) -> str:
            return f"{value / 1e6:,.0f} million instructions" if options.instructions else f"{value:.2f} CPU-s"

        for number in range(options.runs):
            for name, tree in trees.items():
                run = one_run(tree, annex, options.instructions)
                found[name].append(run)
                print(f"run {number + 1}, {name}: {shown(cost(run))}, {run['bytes']:,} bytes, {run['sha256'][:16]}")
    for name, runs in found.items():
        print(f"{name}: median {shown(statistics.median(cost(run) for run in runs))}")
    if len({run["sha256"] for runs in found.values() for run in runs}) > 1:
        print("the trees write different bytes", file=sys.stderr)


if __name__ == "__main__":
    main()
