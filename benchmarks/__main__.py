"""Time each phase of a build at 1x, 10x or 100x the example league (`make bench`).

    .venv/bin/python -m benchmarks                     # 1x, 3 runs, every PDF
    .venv/bin/python -m benchmarks --scale 10          # 10x, 3 runs, PDFs of 4 bulletins (spread by size)
    .venv/bin/python -m benchmarks --scale 100 --until HTML
    make bench BENCH="--scale 10 --runs 5 --label before-cache"
    make bench BENCH="--targets"                       # issue 27's targets: benchmarks/targets.py

Each run is a fresh process (benchmarks/measure.py says what is measured, and how); the table shows
the median of the runs, and beside a phase the plainest way of doing the same work, measured in the
same run, as a ratio (ours / plainest, per run, then the median). The runs and the medians go to
benchmarks/results/<scale>x-<label>.json. The leagues are generated once under benchmarks/leagues/
(benchmarks/leagues.py). Timings vary from machine to machine and from run to run (other processes,
caches): compare ratios, and runs of the same machine.
"""

from __future__ import annotations

import argparse
import compileall
import datetime as dt
import json
import math
import os
import platform
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from importlib import metadata
from pathlib import Path

from benchmarks import leagues

ROOT = leagues.ROOT
RESULTS = ROOT / "benchmarks" / "results"
TODAY = "2027-01-15"  # both seasons over: every ranking is final, the same work whatever the date
DEFAULTS = {1: {"runs": 3, "pdf_sample": 0}, 10: {"runs": 3, "pdf_sample": 4}, 100: {"runs": 1, "pdf_sample": 2}}
LIBRARIES = ("weasyprint", "pydyf", "fonttools", "python-calamine", "pandas", "numpy", "jinja2", "xlsxwriter")

# (phase, shown as), in the order of a build; "  " marks a part shown under its phase.
ROWS = [
    ("import", "start-up (imports)"),
    ("discover", "discover"),
    ("read", "read (2 workers)"),
    ("pre-check", "  pre-check, 1 process"),
    ("normalise", "parse + normalise"),
    ("score", "score + documents"),
    ("HTML", "HTML"),
    ("CSV", "CSV"),
    ("XLSX", "XLSX"),
    ("PDF, pool of 2", "PDF, pool of 2"),
    ("PDF, one process", "  render_pdf, 1 process"),
    ("publish", "publish"),
]
BUILD_PHASES = ["import", "discover", "read", "normalise", "score", "HTML", "CSV", "XLSX", "PDF, pool of 2",
                "publish"]
INCREMENTAL = [
    ("build, PDF rendering left out", "build, PDFs left out"),
    ("rebuild, nothing changed", "rebuild, nothing new"),
    ("rebuild, nothing changed, new process", "  in a new process"),
    ("rebuild, one new tournament", "rebuild, +1 tournament"),
    ("rebuild, one new tournament, new process", "  in a new process"),
]
PHASES = ["import", "discover", "read", "normalise", "read: raw calamine", "pre-check", "score",
          "score: 1x grand-sud", "HTML", "CSV", "XLSX", "PDF, pool of 2", "PDF, one process", "publish",
          "build, PDF rendering left out", "rebuild, nothing changed", "rebuild, nothing changed, new process",
          "rebuild, one new tournament", "rebuild, one new tournament, new process"]
# phase -> (its baselines, whose walls add up; shown as)
BASELINES = {
    "read": (["read: raw calamine"], "python-calamine alone"),
    "score": (["score: 1x grand-sud"], "Grand Sud scoring, 1x"),
    "PDF, pool of 2": (["PDF: import WeasyPrint", "PDF, one process"], "1 process (+ import)"),
    "PDF, one process": (["PDF, WeasyPrint alone"], "WeasyPrint alone"),
}


def compile_code() -> None:
    """reportgen's modules compiled to bytecode before anything is timed, as on the secretary's
    machine once reportgen has run there: Python writes `__pycache__` at the first import, unless
    PYTHONDONTWRITEBYTECODE is set (some shells and sandboxes set it: every build process would then
    compile reportgen's modules again, about 0.4 CPU-s, which no secretary's build pays). Up-to-date
    files are left as they are; a changed module is compiled again."""
    compileall.compile_dir(ROOT / "reportgen", quiet=1)


def machine() -> dict:
    model = ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
        memory = next(int(line.split()[1]) for line in Path("/proc/meminfo").read_text().splitlines()
                      if line.startswith("MemTotal:"))
    except (OSError, StopIteration):
        memory = 0
    return {"nproc": len(os.sched_getaffinity(0)), "cpu_count": os.cpu_count(), "model": model,
            "memory_gib": round(memory / 1024**2, 1), "system": platform.platform(),
            "python": platform.python_version()}


def versions() -> dict:
    found = {}
    for name in LIBRARIES:
        try:
            found[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            found[name] = None
    return found


def git() -> dict:
    """The commit and whether the tree differs from it (read-only commands)."""
    def ask(*arguments: str) -> str:
        try:
            return subprocess.run(["git", "--no-optional-locks", *arguments], cwd=ROOT, capture_output=True,
                                  text=True, timeout=30).stdout.strip()
        except (OSError, subprocess.SubprocessError):
            return ""

    return {"commit": ask("rev-parse", "HEAD"), "changed_files": len(ask("status", "--porcelain").splitlines())}


def _limit(gib: float):
    def apply() -> None:
        limit = int(gib * 1024**3)
        _, hard = resource.getrlimit(resource.RLIMIT_AS)
        resource.setrlimit(resource.RLIMIT_AS, (limit if hard == resource.RLIM_INFINITY else min(limit, hard), hard))
    return apply


def run_once(spec: dict, work: Path, memory_gib: float) -> dict:
    """One measured build in a fresh process; its own ru_maxrss (and its reaped workers') from wait4."""
    spec_path, out_path, log_path = work / "spec.json", work / "result.json", work / "stderr.log"
    spec_path.write_text(json.dumps(spec))
    out_path.unlink(missing_ok=True)
    load_before = os.getloadavg()
    start = time.perf_counter()
    with open(log_path, "w") as log:
        process = subprocess.Popen([sys.executable, "-m", "benchmarks.measure", str(spec_path), str(out_path)],
                                   cwd=ROOT, stdout=log, stderr=subprocess.STDOUT, preexec_fn=_limit(memory_gib))
        _, status, usage = os.wait4(process.pid, 0)
        process.returncode = os.waitstatus_to_exitcode(status)
    result = json.loads(out_path.read_text()) if out_path.is_file() else {"phases": {}, "facts": {}}
    if process.returncode != 0 and "error" not in result:
        result["error"] = f"the measuring process ended with {process.returncode}:\n" + log_path.read_text()[-3000:]
    result["process"] = {"wall": round(time.perf_counter() - start, 2), "exit": process.returncode,
                         "ru_maxrss_mib": round(usage.ru_maxrss / 1024, 1), "loadavg_before": load_before}
    return result


def median_phases(runs: list[dict]) -> dict:
    names: list[str] = []
    for run in runs:
        names += [name for name in run["phases"] if name not in names]
    medians = {}
    for name in names:
        present = [run["phases"][name] for run in runs if name in run["phases"]]
        entry = {}
        for key in ("wall", "cpu", "cpu_workers", "rss_peak_mib", "workers_rss_peak_mib", "tree_rss_peak_mib"):
            values = [phase[key] for phase in present if isinstance(phase.get(key), (int, float))]
            if values:
                entry[key] = round(statistics.median(values), 3)
        entry.update({key: value for key, value in present[-1].items() if key not in entry})
        entry["runs"] = len(present)
        medians[name] = entry
    return medians


def ratios(runs: list[dict]) -> dict:
    """Per run, the phase's wall time over its baseline's; the median over the runs."""
    found = {}
    for phase, (baselines, shown) in BASELINES.items():
        values = []
        for run in runs:
            phases = run["phases"]
            if phase in phases and all(name in phases for name in baselines):
                base = sum(phases[name]["wall"] for name in baselines)
                if base > 0:
                    values.append(phases[phase]["wall"] / base)
        if values:
            found[phase] = {"compared_with": shown, "baselines": baselines, "ratio": round(statistics.median(values), 3),
                            "per_run": [round(v, 3) for v in values]}
    return found


def _mib(value) -> str:
    return f"{value:,.0f}" if value else ""


def table(result: dict) -> str:
    medians, compared, facts = result["median"], result["ratios"], result["league"]
    lines = [f"reportgen benchmark, {result['scale']}x: {facts.get('workbooks', '?')} workbooks, "
             f"{sum(facts.get('results_rows', {}).values()):,} result rows, {facts.get('documents', '?')} documents "
             f"(PDF of {facts.get('pdf_documents', '?')}); median of {len(result['runs'])} run(s), "
             f"{result['machine']['nproc']} cores ({result['machine']['model']})",
             "",
             f"{'phase':26} {'wall s':>8} {'CPU s':>8} {'RSS MiB':>8} {'workers':>8}   "
             f"{'compared with':24} {'wall s':>8} {'ratio':>6}",
             "-" * 106]

    def line(name: str, shown: str) -> None:
        if name not in medians:
            return
        phase = medians[name]
        text = (f"{shown:26} {phase['wall']:8.2f} {phase.get('cpu', 0):8.2f} {_mib(phase.get('rss_peak_mib')):>8} "
                f"{_mib(phase.get('workers_rss_peak_mib')) if phase.get('cpu_workers') else '':>8}")
        if name in compared:
            base = sum(medians[b]["wall"] for b in compared[name]["baselines"] if b in medians)
            text += f"   {compared[name]['compared_with']:24} {base:8.2f} {compared[name]['ratio']:6.2f}"
        lines.append(text)

    for name, shown in ROWS:
        line(name, shown)
    if all(name in medians for name in BUILD_PHASES):
        total = sum(medians[name]["wall"] for name in BUILD_PHASES)
        cpu = sum(medians[name].get("cpu", 0) for name in BUILD_PHASES)
        lines.append(f"{'= cold build (sum)':26} {total:8.2f} {cpu:8.2f}"
                     + ("   PDFs of a sample only" if facts.get("pdf_sampled") else ""))
    rows, rows_1x = facts.get("results_rows", {}), facts.get("results_rows_1x", {})
    if "score" in compared and rows.get("grand-sud") and rows_1x.get("grand-sud"):
        growth = rows["grand-sud"] / rows_1x["grand-sud"]
        lines.append(f"{'':26} scoring: {compared['score']['ratio']:.1f}x the time of 1x for {growth:.1f}x the "
                     f"Grand Sud rows (exponent {math.log(compared['score']['ratio']) / math.log(growth):.2f})")
    estimate = facts.get("pdf_estimate")
    if estimate:
        lines.append(f"{'  PDF, all (estimate)':26} {estimate['pool_wall_s']:8.0f} {estimate['serial_cpu_s']:8.0f}"
                     f"   {estimate['cpu_s_per_html_mb']} CPU s per MB of HTML (sample), 2 cores busy")
    if any(name in medians for name, _ in INCREMENTAL):
        lines += ["", "reportgen build as a whole (in the same process: add the start-up for a fresh one):"]
    for name, shown in INCREMENTAL:
        if name in medians:
            phase = medians[name]
            rendered = (f"{phase.get('pdf_rendered', '?')} PDF stand-ins" if name.startswith("build,")
                        else f"{phase.get('pdf_rendered', '?')} PDF rendered")
            if phase.get("html_xlsx_rendered") is not None:
                rendered += f", {phase['html_xlsx_rendered']} HTML/XLSX rendered"
            if "pdf_rendered" not in phase:
                rendered = "Python start-up and imports included"
            what = (f"{rendered}, {phase.get('files_written', '?')} files written"
                    if "aborted" not in phase else phase["aborted"])
            lines.append(f"{shown:26} {phase['wall']:8.2f} {phase.get('cpu', 0):8.2f} "
                         f"{_mib(phase.get('rss_peak_mib')):>8} {_mib(phase.get('workers_rss_peak_mib')):>8}   {what}")
    peaks = [run["process"]["ru_maxrss_mib"] for run in result["runs"]]
    lines += ["", "RSS MiB: the measuring process's peak during the phase (VmHWM, reset per phase); workers: the "
              "largest worker's peak (sampled).", f"ru_maxrss of each run (wait4): {', '.join(map(_mib, peaks))} MiB."
              f" Ratio: ours / plainest, same run. Load average at the start of each run: "
              + ", ".join(f"{run['process']['loadavg_before'][0]:.1f}" for run in result["runs"]) + "."]
    errors = [run["error"] for run in result["runs"] if run.get("error")]
    if errors:
        lines += ["", "ERROR in a run:", errors[0]]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    argv = sys.argv[1:] if argv is None else argv
    compile_code()
    if "--targets" in argv:  # its own options (--quick, --pdf-sample, --label, --quiet-wait)
        from benchmarks import targets

        targets.main([argument for argument in argv if argument != "--targets"])
        return
    parser = argparse.ArgumentParser(prog="python -m benchmarks", description=__doc__.split("\n\n")[0])
    parser.add_argument("--scale", type=int, nargs="+", default=[1], choices=leagues.SCALES,
                        help="1 (the example league), 10 or 100; several run one after the other")
    parser.add_argument("--runs", type=int, help="measured builds, each in a fresh process (default 3; 1 at 100x)")
    parser.add_argument("--label", help="names the results file (default: the date and the commit)")
    parser.add_argument("--pdf-sample", type=int, help="PDFs of this many bulletins, spread by size; 0: all "
                        "(default: all at 1x, 4 at 10x, 2 at 100x)")
    parser.add_argument("--until", choices=PHASES, metavar="PHASE",
                        help="stop each run after this phase: " + "; ".join(PHASES))
    parser.add_argument("--no-rebuild", action="store_true", help="leave out the incremental rebuilds")
    parser.add_argument("--no-pdf-baselines", action="store_true",
                        help="leave out the PDF comparisons (one process, WeasyPrint alone)")
    parser.add_argument("--memory-limit-gb", type=float,
                        help="address-space limit of each run (default: 60%% of the memory, at most 16)")
    parser.add_argument("--no-save", action="store_true", help="print the table only")
    options = parser.parse_args(argv)
    about = machine()
    memory = options.memory_limit_gb or min(16.0, round(about["memory_gib"] * 0.6, 1) or 16.0)
    repository = git()
    label = options.label or f"{dt.date.today().isoformat()}-{repository['commit'][:7] or 'nogit'}"
    for scale in options.scale:
        defaults = DEFAULTS[scale]
        runs = options.runs or defaults["runs"]
        sample = defaults["pdf_sample"] if options.pdf_sample is None else options.pdf_sample
        say = lambda message: print(message, file=sys.stderr, flush=True)  # noqa: E731
        inputs = leagues.ensure(scale, say)
        baseline = str(leagues.ensure(1, say)) if scale > 1 else None
        work = Path(tempfile.mkdtemp(prefix=f"reportgen-bench-{scale}x-"))
        spec = {"inputs": str(inputs), "work": str(work), "today": TODAY, "pdf_sample": sample,
                "until": options.until, "rebuild": not options.no_rebuild,
                "pdf_baselines": not options.no_pdf_baselines, "baseline_1x": baseline,
                "extra": str(leagues.extra_folder(scale))}
        results = []
        try:
            for number in range(1, runs + 1):
                say(f"{scale}x, run {number}/{runs}...")
                results.append(run_once(spec, work, memory))
                say(f"  {results[-1]['process']['wall']:.0f} s" + ("  (error: see the table)"
                                                                  if results[-1].get("error") else ""))
        finally:
            shutil.rmtree(work, ignore_errors=True)
        facts = dict(leagues.stamp(scale) or {})
        facts.update(results[-1]["facts"])
        result = {"scale": scale, "label": label, "created": dt.datetime.now().isoformat(timespec="seconds"),
                  "machine": about, "versions": versions(), "git": repository,
                  "options": {"runs": runs, "pdf_sample": sample, "until": options.until, "today": TODAY,
                              "rebuild": not options.no_rebuild, "memory_limit_gib": memory},
                  "league": facts, "median": median_phases(results), "ratios": ratios(results), "runs": results}
        print(table(result))
        print()
        if not options.no_save:
            RESULTS.mkdir(parents=True, exist_ok=True)
            path = RESULTS / f"{scale}x-{label}.json"
            path.write_text(json.dumps(result, indent=1, ensure_ascii=False, default=str) + "\n")
            print(f"written: {path.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
