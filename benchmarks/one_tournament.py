"""One new tournament at 1x while the season runs: which PDFs the rebuild renders, their pages, and
its time, for this tree and a baseline commit, in the same run (issue 27).

    .venv/bin/python -m benchmarks.one_tournament                 # this tree against where it left main
    .venv/bin/python -m benchmarks.one_tournament --baseline 7f7f970 --runs 3

For each tree, in a process of its own (the baseline's code from `git archive`, beside its own
templates): the example league is built with stand-in PDFs (as `benchmarks/measure.py` does for its
rebuilds: the outputs a build leaves, without rendering every PDF), then the tournament of
`benchmarks/leagues/1x.extra` is added and the league built again in the same process, PDFs
rendered for real. The day is 29 November 2026 (the tests' day): the 2026 season runs, and its
Masters, played on 28 November, has all its matches typed. The benchmark's own day (15 January
2027, both seasons over) would make 2026's final bulletin change too, rightly.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

from benchmarks import leagues

ROOT = leagues.ROOT
DAY = "2026-11-29"

CHILD = r"""
import datetime as dt, json, re, shutil, sys, time
from pathlib import Path

source, inputs, extra, work, day = sys.argv[1:6]
import reportgen
assert Path(reportgen.__file__).resolve().is_relative_to(Path(source).resolve()), reportgen.__file__
from pypdf import PdfReader
from reportgen import pipeline
from reportgen.model import Messages
from reportgen.render import pdf

STAND_IN = b"%PDF-1.4 stand-in\n"
real = pdf.render_many, pdf.render_pdf
pdf.render_many = lambda pages, *args, **kwargs: [STAND_IN for _ in pages]
pdf.render_pdf = lambda page, *args, **kwargs: STAND_IN
today = dt.date.fromisoformat(day)
work = Path(work)
outputs, grown = work / "outputs", work / "inputs"
assert pipeline.build(Path(inputs), outputs, today).ok
pdf.render_many, pdf.render_pdf = real
shutil.copytree(inputs, grown)
shutil.copytree(extra, grown, dirs_exist_ok=True)
said = []
start = time.perf_counter()
result = pipeline.build(grown, outputs, today, progress=Messages(said.append))
wall = time.perf_counter() - start
rendered = {p.relative_to(outputs).as_posix(): len(PdfReader(p).pages) for p in sorted(outputs.rglob("*.pdf"))
            if p.read_bytes() != STAND_IN}
print(json.dumps({"ok": result.ok, "wall": round(wall, 2), "announced": sum(int(m.group(1)) for m in
                  (re.match(r"(\d+) PDF", message) for message in said) if m), "rendered": rendered}))
"""


def baseline_tree(revision: str, folder: Path) -> Path:
    """The baseline's files as committed (`git archive`), its templates where the package finds them."""
    archive = folder / "baseline.tar"
    with open(archive, "wb") as file:
        subprocess.run(["git", "archive", revision], cwd=ROOT, stdout=file, check=True)
    tree = folder / "baseline"
    with tarfile.open(archive) as tar:
        tar.extractall(tree, filter="data")
    (tree / "reportgen" / "templates").symlink_to(tree / "templates")  # as pyproject.toml maps it
    return tree


def measure(tree: Path, work: Path) -> dict:
    work.mkdir(parents=True)
    env = {**os.environ, "PYTHONPATH": str(tree), "PYTHONDONTWRITEBYTECODE": "1"}
    done = subprocess.run([sys.executable, "-c", CHILD, str(tree), str(leagues.ensure(1)),
                           str(leagues.extra_folder(1)), str(work), DAY],
                          cwd=work, env=env, capture_output=True, text=True, timeout=1800)
    if done.returncode != 0:
        raise SystemExit(f"{tree}: {done.stderr[-3000:]}")
    return json.loads(done.stdout.splitlines()[-1])


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.one_tournament", description=__doc__.split("\n\n")[0])
    parser.add_argument("--baseline", help="the commit to compare with (default: where this branch left main, "
                        "whose dependencies the environment has)")
    parser.add_argument("--runs", type=int, default=1, help="rebuilds of each tree, alternating (default 1)")
    options = parser.parse_args(argv)
    options.baseline = options.baseline or subprocess.run(["git", "merge-base", "HEAD", "main"], cwd=ROOT,
                                                           capture_output=True, text=True, check=True).stdout.strip()
    commit = subprocess.run(["git", "rev-parse", "--short", options.baseline], cwd=ROOT, capture_output=True,
                            text=True, check=True).stdout.strip()
    with tempfile.TemporaryDirectory(prefix="reportgen-one-tournament-") as scratch:
        folder = Path(scratch)
        trees = {f"baseline ({commit})": baseline_tree(options.baseline, folder),
                 "this tree": ROOT}
        runs: dict[str, list[dict]] = {name: [] for name in trees}
        for number in range(options.runs):
            for name, tree in trees.items():
                runs[name].append(measure(tree, folder / f"run-{number}-{len(runs[name])}-{tree.name}"))
    print(f"one new tournament at 1x on {DAY} (rebuild in the process that built the league; "
          f"median of {options.runs} run(s), the trees alternating; load average before: {os.getloadavg()[0]:.1f})")
    for name, results in runs.items():
        last = results[-1]
        pages = sum(last["rendered"].values())
        print(f"  {name:34} {len(last['rendered'])} PDF rendered ({pages} pages), "
              f"{statistics.median(r['wall'] for r in results):.2f} s wall (runs: "
              + ", ".join(f"{r['wall']:.2f}" for r in results) + ")")
        for path, count in last["rendered"].items():
            print(f"      {path} ({count} pages)")


if __name__ == "__main__":
    main()
