"""One new tournament's rebuild, its CPU broken down by phase (issue 27, ninth round).

    .venv/bin/python -m benchmarks.rebuild_phases                  # 1x, 2 runs
    .venv/bin/python -m benchmarks.rebuild_phases --scale 10 --runs 1 --stand-in
    .venv/bin/python -m benchmarks.rebuild_phases --scale 100 --runs 1 --stand-in --keep /tmp/rebuild-100x

The league of the scale is built with stand-in PDFs in a scratch folder (as benchmarks/targets.py
builds it), the tournament of `benchmarks/leagues/<scale>x.extra` added, then `reportgen build` runs
in a new process as `make` starts it, on a fresh copy of those outputs for each run. In that process
each phase is wrapped with `time.process_time` (CPU of the build's process only): `load`, each
circuit's scoring (up to its report) and layout (`render_report`), the site's pages, and a few
functions inside the layout; the PDF fork server's own CPU and that of the workers it reaped are
read from /proc before it stops; `tree` is the CPU of the whole process tree (the build, the fork
server, its workers, multiprocessing's resource tracker). With `--stand-in` the rebuild renders no
PDF (no fork server): the build's process alone. Measure CPU, not wall: the machine may be shared.
With `--keep FOLDER` the league's first build is kept in FOLDER and used again by the next runs
(a first build at 100x is several CPU-minutes): build it again after a change of the code, whose
fingerprint keys the read cache and every rendered file.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from benchmarks import leagues
from benchmarks.targets import build_day

BASE = """
import datetime as dt, sys
from pathlib import Path
from reportgen import pipeline
from reportgen.render import pdf
STAND_IN = b"%PDF-1.4 stand-in\\n"
pdf.render_many = lambda pages, *args, **kwargs: [STAND_IN for _ in pages]
pdf.render_pdf = lambda page, *args, **kwargs: STAND_IN
assert pipeline.build(Path(sys.argv[1]), Path(sys.argv[2]), dt.date.fromisoformat(sys.argv[3])).ok
"""

CHILD = r"""
import datetime as dt, json, os, sys, time
from pathlib import Path
import reportgen.cli
from reportgen import pipeline
from reportgen.pipeline import building, scoring
from reportgen.render import cache, excel, html, pdf, ranking, staging
from reportgen.site import data, figures, pages, publish

phases = {}


def wrap(owner, name, label):
    real = getattr(owner, name)

    def wrapper(*args, **kwargs):
        start = time.process_time()
        try:
            return real(*args, **kwargs)
        finally:
            key = label(args) if callable(label) else label
            phases[key] = phases.get(key, 0.0) + time.process_time() - start
    setattr(owner, name, wrapper)


wrap(building, "load", "load (pandas and the circuits imported, the league parsed)")
wrap(building, "render_report", lambda args: f"layout {args[0]}")
for owner, name in [(excel, "render_annex"), (ranking, "to_spreadsheet_csv"), (html, "render"), (cache, "source_key"),
                    (cache, "reuse"), (staging.Staging, "put"), (data, "circuit_data"), (data, "ranking_records"),
                    (figures, "charted")]:
    wrap(owner, name, f"  in layouts: {name}")
# Inside `load` and the Grand Sud's scoring (tenth round): the circuits' parse, the tidy tables, the
# newcomers and probable duplicates; the rankings, and the documents made of them.
from reportgen import circuits
from reportgen.ingest import normalise
from reportgen.pipeline import loading
for slug, circuit in circuits.CIRCUITS.items():
    wrap(circuit, "parse", "  in load: the circuits' parse")
wrap(normalise, "results_table", "  in load: results_table")
wrap(loading, "player_notices", "  in load: newcomers, probable duplicates")
grand_sud = sys.modules[type(circuits.CIRCUITS["grand-sud"]).__module__]
from reportgen.circuits.grand_sud import documents as gs_documents
wrap(grand_sud, "score_league", "  in score grand-sud: score_league (the rankings)")
for name in ("bulletin", "published", "annex", "earned_rows"):
    wrap(gs_documents, name, f"  in score grand-sud: documents.{name}")
wrap(grand_sud, "replacement_notices", "  in score grand-sud: replacement_notices")
wrap(pages.Site, "__init__", "site's pages")
wrap(publish, "stage", "site's pages")
wrap(publish, "publish_staged", "site's pages")
# Outside `load`: the read cache's file decoded, its sheets encoded again and written; the files
# staged and published (each synced), the state and the hashes.
from reportgen.ingest import read_cache, file_hashes
from reportgen.pipeline import state
wrap(read_cache.ReadCache, "__init__", "read cache: decoded")
wrap(read_cache.ReadCache, "seal", "read cache: encoded")
wrap(read_cache.ReadCache, "save", "read cache: written")
wrap(staging.Staging, "publish", "circuits' files published")
wrap(state, "record", "state and hashes")
wrap(file_hashes.FileHashes, "save", "state and hashes")
real_score_one = scoring._score_one


def score_one(league, slug, scored):  # the circuit's scoring, up to its report (its layout follows)
    start = time.process_time()
    try:
        return real_score_one(league, slug, scored)
    finally:
        phases[f"score {slug}"] = time.process_time() - start


scoring._score_one = score_one
if os.environ.get("REBUILD_STAND_IN"):
    pdf.warm_up = lambda *args, **kwargs: None
    pdf.render_many = lambda pages, *args, **kwargs: [b"%PDF-1.4 stand-in\n" for _ in pages]
real_build, day = pipeline.build, dt.date.fromisoformat(sys.argv[3])


def build(*args, **kwargs):  # the command's build, on the benchmark's day
    start = time.process_time()
    try:
        return real_build(*args, today=day, **kwargs)
    finally:
        phases["build (all of it)"] = time.process_time() - start


pipeline.build = build
sys.argv[1:] = ["build", "--quiet", "--inputs", sys.argv[1], "--outputs", sys.argv[2], "--archive", sys.argv[2] + "-none"]
try:
    reportgen.cli.main()
except SystemExit as stop:
    if stop.code:
        raise
phases["the build's process"] = time.process_time()
server = getattr(sys.modules.get("multiprocessing.forkserver"), "_forkserver", None)
pid = getattr(server, "_forkserver_pid", None)
if pid:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    tick = os.sysconf("SC_CLK_TCK")
    phases["PDF fork server (Python, WeasyPrint imported)"] = (int(fields[11]) + int(fields[12])) / tick
    phases["PDF workers"] = (int(fields[13]) + int(fields[14])) / tick
    server._stop()
print(json.dumps(phases))
"""


def run(code: str, *arguments: str, env: dict | None = None) -> tuple[str, float]:
    """A child process; its output and the CPU of its whole tree (user + sys, reaped)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run([sys.executable, "-c", code, *arguments], capture_output=True, text=True,
                          env={**os.environ, **(env or {})}, cwd=leagues.ROOT, timeout=7200)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(done.stderr[-3000:])
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    return done.stdout, cpu


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.rebuild_phases", description=__doc__.split("\n\n")[0])
    parser.add_argument("--scale", type=int, default=1, choices=leagues.SCALES)
    parser.add_argument("--runs", type=int, default=2)
    parser.add_argument("--stand-in", action="store_true", help="the rebuild renders no PDF (stand-ins)")
    parser.add_argument("--keep", type=Path, help="the first build kept in this folder, and used again if there")
    options = parser.parse_args(argv)
    day = build_day(options.scale).isoformat()
    inputs = leagues.ensure(options.scale, lambda message: print(message, file=sys.stderr))
    with tempfile.TemporaryDirectory(prefix="reportgen-rebuild-phases-") as scratch:
        work = Path(scratch)
        built, grown = (options.keep or work) / "built", work / "inputs"
        if not (built / ".reportgen" / "state").is_file():
            shutil.rmtree(built, ignore_errors=True)
            run(BASE, str(inputs), str(built), day)
        shutil.copytree(inputs, grown)
        shutil.copytree(leagues.extra_folder(options.scale), grown, dirs_exist_ok=True)
        results = []
        for number in range(options.runs):
            outputs = work / f"run-{number}"
            shutil.copytree(built, outputs)
            out, tree = run(CHILD, str(grown), str(outputs), day,
                            env={"REBUILD_STAND_IN": "1"} if options.stand_in else None)
            results.append({**json.loads(out.splitlines()[-1]), "tree (every process)": tree})
    print(f"one new tournament at {options.scale}x on {day}, `reportgen build` in a new process, CPU-s "
          f"({options.runs} run(s); load average now {os.getloadavg()[0]:.1f})")
    for name in results[0]:
        print(f"  {name:58}" + "".join(f"{result.get(name, 0.0):8.2f}" for result in results))


if __name__ == "__main__":
    main()
