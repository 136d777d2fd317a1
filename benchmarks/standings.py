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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=int, default=10, choices=[1, *sorted(leagues.SHAPES)])
    parser.add_argument("--runs", type=int, default=3)
    options = parser.parse_args()
    inputs = leagues.ensure(options.scale, lambda message: print(message, file=sys.stderr))
    runs = []
    for number in range(options.runs):
        print(f"{options.scale}x, run {number + 1}/{options.runs}...", file=sys.stderr)
        done = subprocess.run([sys.executable, "-c", ONE_RUN, str(inputs), TODAY], capture_output=True, text=True,
                              check=True, cwd=leagues.ROOT)
        runs.append(json.loads(done.stdout))
    median = {key: round(statistics.median(run[key] for run in runs), 2) for key in runs[0]}
    print(json.dumps({"scale": options.scale, "runs": len(runs), "median": median}, indent=1))


if __name__ == "__main__":
    main()
