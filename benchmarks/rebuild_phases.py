"""One new tournament's rebuild, its CPU broken down by phase (issue 27, ninth round), and its wall
timeline (tenth round).

    .venv/bin/python -m benchmarks.rebuild_phases                  # 1x, 2 runs
    .venv/bin/python -m benchmarks.rebuild_phases --runs 3 --timeline
    .venv/bin/python -m benchmarks.rebuild_phases --scale 10 --runs 1 --stand-in

The league of the scale is built with stand-in PDFs in a scratch folder (as benchmarks/targets.py
builds it), the tournament of `benchmarks/leagues/<scale>x.extra` added, then `reportgen build` runs
in a new process as `make` starts it, on a fresh copy of those outputs for each run. In that process
each phase is wrapped with `time.process_time` (CPU of the build's process only): `load`, each
circuit's scoring (up to its report) and layout (`render_report`), the site's pages, and a few
functions inside the layout; the build's CPU up to its first PDF's submission and after its PDFs
are back; the PDF fork server's own CPU and that of the workers it reaped are read from /proc
before it stops, and the large annexes' worker's before the build stops it (twenty-fifth round);
`tree` is the CPU of the whole process tree (the build, the fork server, its workers,
multiprocessing's resource tracker). With `--stand-in` the rebuild renders no PDF (no fork
server): the build's process alone. `--timeline` prints, for each run, the wall moments from the
process's start: the command line imported, the fork server started and WeasyPrint imported in it
(`benchmarks/preloaded.py`, which the server preloads last), each circuit scored and laid out, the
PDF's HTML known, the PDF submitted (once the fork server is ready) and back, each publication, the
site's pages, the state, the end. Measure CPU, not wall, on a shared machine: the timeline says what
waits for what, its seconds only on a quiet one.
`--keep FOLDER` copies the base build and each run's outputs there, to compare two trees' outputs.
`--settled` runs, on each run's copy, a build that finds nothing changed before the measured one: a
copy has new inodes and ctimes, which the stat record of `outputs/.reportgen/hashes` rightly does not
trust, so without it the rebuild reads and hashes every output as no secretary's rebuild does
(`make` builds in place; benchmarks/targets.py measures the same way).
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks import leagues
from benchmarks.__main__ import compile_code
from benchmarks.build_on_day import python_on
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


def mark(label):  # the wall timeline (--timeline): this moment, in the marks' file
    if os.environ.get("REBUILD_MARKS"):
        with open(os.environ["REBUILD_MARKS"], "a", encoding="utf-8") as marks:
            marks.write(f"{time.monotonic()!r} {label}\n")


mark("Python started, the script begins")
import reportgen.cli
mark("command line imported")
from reportgen import pipeline
from reportgen.pipeline import building, scoring
from reportgen.render import cache, excel, html, pdf, ranking, staging
from reportgen.site import data, figures, pages, publish

phases = {}
collections = {"start": 0.0}


def cpu_of(pid):  # a process's own CPU and that of the children it reaped, from /proc, while it runs
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    tick = os.sysconf("SC_CLK_TCK")
    return (int(fields[11]) + int(fields[12])) / tick, (int(fields[13]) + int(fields[14])) / tick


def collected(phase, info):  # the cycle collector's passes in the build's process, their CPU
    if phase == "start":
        collections["start"] = time.process_time()
        return
    key = f"  cycle collector: generation {info['generation']} ({{}} passes)"
    collections[key] = collections.get(key, 0) + 1
    phases[key] = phases.get(key, 0.0) + time.process_time() - collections["start"]


import gc
gc.callbacks.append(collected)


def wrap(owner, name, label, wall=False):
    real = getattr(owner, name, None)
    if real is None:  # not in the code measured (another branch's)
        return

    def wrapper(*args, **kwargs):
        key = label(args) if callable(label) else label
        if wall:
            mark(f"{key}: start")
        start = time.process_time()
        try:
            return real(*args, **kwargs)
        finally:
            phases[key] = phases.get(key, 0.0) + time.process_time() - start
            if wall:
                mark(f"{key}: end")
    setattr(owner, name, wrapper)


wrap(building, "load", "load (pandas and the circuits imported, the league parsed)", wall=True)
wrap(building, "render_report", lambda args: f"layout {args[0]}", wall=True)
wrap(scoring, "_score_one", lambda args: f"score {args[1]}", wall=True)
for owner, name in [(excel, "render_annex"), (ranking, "to_spreadsheet_csv"), (html, "render"), (cache, "source_key"),
                    (cache, "reuse"), (cache, "proven"), (staging.Staging, "put"), (data, "ranking_record"),
                    (figures, "charted")]:
    wrap(owner, name, f"  in layouts: {name}")
try:  # the annexes' worker (twelfth round): what the build's process waits for it
    from reportgen.render import annex_worker
    wrap(annex_worker.Aside, "take", "  in layouts: the annex worker's bytes taken back (take)", wall=True)
    # Giving the annexes waits for a spawned worker's imports unless it was started before (thirteenth round).
    wrap(annex_worker.Aside, "give", "  in layouts: the annexes given to the worker (give)", wall=True)
    real_close = annex_worker.Aside.close

    def close(aside):  # the annex worker's CPU (XlsxWriter on the second core), read before it ends
        if aside.worker is not None:
            key = "annex worker (XlsxWriter, the second core)"
            phases[key] = phases.get(key, 0.0) + cpu_of(aside.worker.process.pid)[0]
        real_close(aside)

    annex_worker.Aside.close = close
except ImportError:  # the code measured has none
    pass
wrap(pages.Site, "__init__", "site's pages", wall=True)
wrap(publish, "stage", "site's pages", wall=True)
wrap(publish, "publish_staged", "site's pages", wall=True)
wrap(staging.Staging, "publish", lambda args: f"publication of {args[0].folder.name}", wall=True)
wrap(pdf, "warm_up", "fork server started (warm_up)", wall=True)
wrap(pdf, "cool_down", "fork server stopped (cool_down)", wall=True)
from reportgen.ingest import file_hashes, read_cache
from reportgen.pipeline import state
for owner, name in [(building, "write_calendar"), (building, "calendar_bytes"), (html, "publish_fonts"), (state, "record"),
                    (state, "learn_pages"), (read_cache.ReadCache, "save"), (file_hashes.FileHashes, "save"),
                    (cache, "inputs_digest")]:
    wrap(owner, name, f"{name}", wall=True)
wrap(pdf.Batch, "results", "waiting for the PDFs (Batch.results)", wall=True)
real_results = pdf.Batch.results


def results(*args, **kwargs):  # the build's own CPU once its PDFs are back
    try:
        return real_results(*args, **kwargs)
    finally:
        phases["pdfs back"] = time.process_time()


pdf.Batch.results = results
real_add = pdf.Batch.add


def add(batch, items):  # each PDF submitted; its future marks the moment its PDF is back
    # Its HTML known: the submission itself waits for the fork server to have WeasyPrint imported (the
    # pool starts a worker through it, and the server answers once its preloads are imported).
    mark(f"{len(items)} bulletin HTML known (laid out)")
    known = set(batch.futures)
    real_add(batch, items)
    phases.setdefault("before the first PDF is submitted (the build's process)", time.process_time())
    mark(f"{len(items)} bulletin HTML submitted to the PDF pool" + ("" if pdf._warm else " (no pool yet)"))
    for future in set(batch.futures) - known:
        future.add_done_callback(lambda done: mark("a PDF done (back in the build)"))


pdf.Batch.add = add


def server_cpu():  # the fork server's CPU and its workers', read before it ends
    server = getattr(sys.modules.get("multiprocessing.forkserver"), "_forkserver", None)
    pid = getattr(server, "_forkserver_pid", None)
    if pid:
        phases["PDF fork server (Python, WeasyPrint imported)"], phases["PDF workers"] = cpu_of(pid)


if hasattr(pdf, "_release_server"):  # the build ends the server itself once the PDFs are back
    real_release = pdf._release_server

    def release():
        server_cpu()
        mark("fork server asked to end (_release_server)")
        real_release()

    pdf._release_server = release
if os.environ.get("REBUILD_MARKS"):  # the fork server marks when it has imported WeasyPrint
    import multiprocessing.context
    real_preload = multiprocessing.context.ForkServerContext.set_forkserver_preload
    multiprocessing.context.ForkServerContext.set_forkserver_preload = (
        lambda context, names: real_preload(context, [*names, "benchmarks.preloaded"]))
if os.environ.get("REBUILD_STAND_IN"):
    pdf.warm_up = lambda *args, **kwargs: None
    pdf.render_many = lambda pages, *args, **kwargs: [b"%PDF-1.4 stand-in\n" for _ in pages]
real_build = pipeline.build


def build(*args, **kwargs):  # the command's build, timed
    start = time.process_time()
    mark("pipeline.build: start")
    try:
        return real_build(*args, **kwargs)
    finally:
        phases["build (all of it)"] = time.process_time() - start
        mark("pipeline.build: end")


pipeline.build = build
from benchmarks.build_on_day import build_on_day
build_on_day(sys.argv[1], sys.argv[2], dt.date.fromisoformat(sys.argv[3]))  # on the benchmark's day
mark("the command returned")
phases["the build's process"] = time.process_time()
if "pdfs back" in phases:
    phases["after the PDFs are back (the build's process)"] = phases["the build's process"] - phases.pop("pdfs back")
server_cpu()
server = getattr(sys.modules.get("multiprocessing.forkserver"), "_forkserver", None)
if getattr(server, "_forkserver_pid", None):
    server._stop()
for key in [key for key in phases if key.startswith("  cycle collector")]:
    phases[key.format(collections[key])] = phases.pop(key)
print(json.dumps(phases))
"""


def run(code: str, inputs: str, outputs: str, day: str, env: dict | None = None) -> tuple[str, float]:
    """A child process on `day` (build_on_day.py `python_on`); its output and the CPU of its whole
    tree (user + sys, reaped)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run([*python_on(dt.date.fromisoformat(day)), "-c", code, inputs, outputs, day],
                          capture_output=True, text=True,
                          env={**os.environ, **(env or {})}, cwd=leagues.ROOT, timeout=7200)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(done.stderr[-3000:])
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    return done.stdout, cpu


def timeline(marks: Path, started: float, ended: float) -> list[tuple[float, str]]:
    """The marks of one run (the build's and its fork server's), in seconds from the moment the
    process was started, with its end."""
    found = [(0.0, "process started")]
    for line in marks.read_text(encoding="utf-8").splitlines():
        moment, label = line.split(" ", 1)
        found.append((float(moment) - started, label))
    return sorted(found + [(ended - started, "process ended")])


def main(argv: list[str] | None = None) -> None:
    compile_code()  # as a secretary's machine has it (benchmarks/__main__.py)
    parser = argparse.ArgumentParser(prog="python -m benchmarks.rebuild_phases", description=__doc__.split("\n\n")[0])
    parser.add_argument("--scale", type=int, default=1, choices=leagues.SCALES)
    parser.add_argument("--runs", type=int, default=2)
    parser.add_argument("--stand-in", action="store_true", help="the rebuild renders no PDF (stand-ins)")
    parser.add_argument("--timeline", action="store_true", help="print each run's wall timeline too")
    parser.add_argument("--keep", type=Path, help="copy the base build and each run's outputs there (to compare)")
    parser.add_argument("--settled", action="store_true",
                        help="a build that finds nothing changed first, on each copy: its files known by their stat")
    options = parser.parse_args(argv)
    inputs = leagues.ensure(options.scale, lambda message: print(message, file=sys.stderr))
    day = build_day(options.scale).isoformat()  # once the league is there: its extra tournament's day
    with tempfile.TemporaryDirectory(prefix="reportgen-rebuild-phases-") as scratch:
        work = Path(scratch)
        built, grown = work / "built", work / "inputs"
        run(BASE, str(inputs), str(built), day)
        shutil.copytree(inputs, grown)
        shutil.copytree(leagues.extra_folder(options.scale), grown, dirs_exist_ok=True)
        results, timelines = [], []
        for number in range(options.runs):
            outputs, marks = work / f"run-{number}", work / f"marks-{number}"
            shutil.copytree(built, outputs)
            if options.settled:  # the copy's files recorded by their stat, as a build in place leaves them
                run(BASE, str(inputs), str(outputs), day)
            marks.touch()
            started = time.monotonic()
            out, tree = run(CHILD, str(grown), str(outputs), day,
                            env={"REBUILD_MARKS": str(marks), **({"REBUILD_STAND_IN": "1"} if options.stand_in else {})})
            timelines.append(timeline(marks, started, time.monotonic()))
            results.append({**json.loads(out.splitlines()[-1]), "tree (every process)": tree})
        if options.keep:
            for folder in [built, *(work / f"run-{number}" for number in range(options.runs))]:
                shutil.copytree(folder, options.keep / folder.name, symlinks=True)
    print(f"one new tournament at {options.scale}x on {day}, `reportgen build` in a new process, CPU-s "
          f"({options.runs} run(s); load average now {os.getloadavg()[0]:.1f})")
    for name in results[0]:
        print(f"  {name:58}" + "".join(f"{result.get(name, 0.0):8.2f}" for result in results))
    if options.timeline:
        for number, marks_of_run in enumerate(timelines):
            print(f"run {number + 1}, wall seconds from the process's start:")
            for moment, label in marks_of_run:
                print(f"  {moment:7.3f}  {label}")


if __name__ == "__main__":
    main()
