"""What `reportgen standings grand-sud --final` costs at a scale: read, check and score the league,
in a process of its own (median of the runs; CPU of the process and of its reading workers; peak
resident memory of each).

    .venv/bin/python -m benchmarks.standings --scale 100 --runs 1

The command itself takes today's date, and the generated leagues hold tournaments up to the end of
2026: this runs what it runs (pipeline.load, then pipeline.score of the Grand Sud) on 15 January
2027, as `make bench` does.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys

from benchmarks import leagues
from benchmarks.__main__ import TODAY

ONE_RUN = """
import datetime as dt, json, resource, sys, time
from pathlib import Path
start_wall, start_cpu = time.perf_counter(), time.process_time()
from reportgen.ingest import workbook
from reportgen.pipeline import load, score
league = load(Path(sys.argv[1]), dt.date.fromisoformat(sys.argv[2]))
loaded = time.process_time()
final = [r for r in score(league, ["grand-sud"]).reports["grand-sud"].rankings if r.final][-1]
scored = time.process_time()
workbook.stop_workers()
workers = resource.getrusage(resource.RUSAGE_CHILDREN)
print(json.dumps({"wall": time.perf_counter() - start_wall, "cpu": scored - start_cpu, "cpu_load": loaded - start_cpu,
                  "cpu_score": scored - loaded, "cpu_workers": workers.ru_utime + workers.ru_stime,
                  "rss_peak_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
                  "workers_rss_peak_mib": workers.ru_maxrss / 1024, "final_rows": len(final.rows)}))
"""


def run(scale: int, runs: int) -> dict:
    """`runs` runs at `scale`, each in a process of its own; their median (benchmarks/targets.py too)."""
    inputs = leagues.ensure(scale, lambda message: print(message, file=sys.stderr))
    found = []
    for number in range(runs):
        print(f"{scale}x, run {number + 1}/{runs}...", file=sys.stderr)
        done = subprocess.run([sys.executable, "-c", ONE_RUN, str(inputs), TODAY], capture_output=True, text=True,
                              check=True, cwd=leagues.ROOT)
        found.append(json.loads(done.stdout))
    median = {key: round(statistics.median(one[key] for one in found), 2) for key in found[0]}
    return {"scale": scale, "runs": len(found), "median": median}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=int, default=10, choices=[1, *sorted(leagues.SHAPES)])
    parser.add_argument("--runs", type=int, default=3)
    options = parser.parse_args()
    print(json.dumps(run(options.scale, options.runs), indent=1))


if __name__ == "__main__":
    main()
