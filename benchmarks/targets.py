"""Issue 27's targets, each measured beside its baseline in one run: a markdown table.

    .venv/bin/python -m benchmarks.targets             # 1x, 10x and 100x
    .venv/bin/python -m benchmarks.targets --quick     # 1x only: the targets of 100x say « not measured »
    make bench BENCH="--targets"                       # the same as the first line

It first waits up to 3 minutes for the load average to fall below 0.5 (--quiet-wait SECONDS, 0 to
start at once: benchmarks/quiet.py) and says the load it started at. Before each build at 100x (the
first, with its site's 25,000 files, and the rebuild), it waits up to 3 minutes more for a file's
creation to cost what it costs on a settled filesystem (--settle-wait SECONDS: benchmarks/filesystem.py)
and says what it cost.

What it runs, reusing benchmarks/' own measurements (each in a fresh process):

- `builds` below, at 1x and 100x: the league built once with stand-in PDFs (as benchmarks/measure.py
  builds for its rebuilds; at 100x the PDFs of 2 bulletins spread by size rendered for real inside
  that build, as `make bench` samples them), the site's pages timed inside it; then `reportgen
  build` in a new process with nothing changed, and with the tournament of
  `benchmarks/leagues/<scale>x.extra` added (its PDFs rendered for real); then WeasyPrint alone on
  the HTML each PDF that rebuild rendered was rendered from (a long ranking's top rows only:
  `printed_pages`). At 1x those three are measured again twice, each time on a copy of the
  settled outputs (`PAIRS`), and the target's ratio is the median of the three pairs'. The day is
  the extra tournament's, or 29 November 2026
  if later (benchmarks/one_tournament.py's: the season runs, the 2026 Masters is played), so that a
  new tournament changes one dated bulletin;
- `python -m benchmarks --until "PDF, one process"` at 1x (benchmarks/measure.py), a sample of
  bulletins spread by size: the first build's PDF pool (wall against CPU) and `render_pdf` against
  WeasyPrint alone on the same HTML;
- `python -m benchmarks.standings` at 10x and 100x: the exponent of its CPU time in the results.

The table and the JSON of every measurement go to benchmarks/results/targets-<label>.{md,json}.
No test asserts a timing: the figures depend on the machine and on what else runs on it.
"""

from __future__ import annotations

import argparse
import dataclasses
import datetime as dt
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile
import time
import warnings
from pathlib import Path

from benchmarks import filesystem, leagues, measure, quiet, standings
from benchmarks.__main__ import RESULTS, ROOT, TODAY, _limit, git, machine, median_phases, ratios, run_once

DAY = dt.date(2026, 11, 29)  # benchmarks/one_tournament.py's
STAND_IN = b"%PDF-1.4 stand-in\n"
MIB_LIMIT = 2048
PDF_SAMPLE = {1: 0, 10: 0, 100: 2}  # PDFs rendered for real in the first build ("as today": 2 at 100x)
# Times the rebuild, nothing changed and WeasyPrint alone are measured, one after the other: the 1x
# ratio is their pairs' median; at 100x a pair takes minutes and a copy of 25,000 files
PAIRS = {1: 3, 10: 1, 100: 1}


def build_day(scale: int) -> dt.date:
    """The extra tournament's day, or DAY if later: a day of the running 2026 season."""
    days = [dt.date.fromisoformat(p.name[:10]) for p in leagues.extra_folder(scale).rglob("*.xlsx")]
    return max([DAY, *days])


# -- in a process of its own: the builds of one scale ----------------------------------------------

def builds(spec: dict) -> dict:
    """See the module's docstring; each step a segment of measure.Timeline (wall, CPU of this process
    and the processes it reaped, peak memory of the tree)."""
    import reportgen.site.publish as site_publish
    from reportgen import pipeline
    from reportgen.render import html, pdf
    from reportgen.site.pages import Site

    inputs, work, day = Path(spec["inputs"]), Path(spec["work"]), dt.date.fromisoformat(spec["day"])
    timeline = measure.Timeline()
    site_wall = [0.0]
    sampled = {"wall": 0.0, "count": 0}

    def timed(function):  # type: ignore[no-untyped-def]
        def wrapper(*args, **kwargs):  # type: ignore[no-untyped-def]
            start = time.perf_counter()
            try:
                return function(*args, **kwargs)
            finally:
                site_wall[0] += time.perf_counter() - start
        return wrapper

    real = pdf.render_many, pdf.render_pdf

    def render_many(pages, *args, **kwargs):  # type: ignore[no-untyped-def]
        order = sorted(range(len(pages)), key=lambda i: (len(pages[i][0]), i))
        chosen = measure._sample(order, spec["pdf_sample"]) if spec["pdf_sample"] else []
        start = time.perf_counter()
        rendered = dict(zip(chosen, real[0]([pages[i] for i in chosen], workers=2)))
        sampled["wall"] += time.perf_counter() - start
        sampled["count"] += len(chosen)
        return [rendered.get(i, STAND_IN) for i in range(len(pages))]

    # the site's pages: made and staged one by one (`stage` consumes `Site.each_page`), then committed
    patched = [(Site, "__init__"), (site_publish, "stage"), (site_publish, "publish_staged")]
    saved = [getattr(owner, name) for owner, name in patched]
    for owner, name in patched:
        setattr(owner, name, timed(getattr(owner, name)))
    pdf.render_many, pdf.render_pdf = render_many, lambda page, *args, **kwargs: STAND_IN
    # what the site's 25,000 files may pay (benchmarks/filesystem.py): waited for to fall, as a settled
    # filesystem (one with a journal: a secretary's) has them cost
    creation = filesystem.settle(work, spec["settle"])
    timeline.mark("_start")
    built = work / "outputs"
    try:
        facts = measure._build(pipeline, inputs, built, day, pdf_limit=10**9, warm=False)
    finally:
        pdf.render_many, pdf.render_pdf = real
        for (owner, name), function in zip(patched, saved):
            setattr(owner, name, function)
    timeline.mark("first build", site_pages_wall=round(site_wall[0], 3), pdf_sample_wall=round(sampled["wall"], 3),
                  pdf_sampled=sampled["count"], creation=dataclasses.asdict(creation), **facts)
    # On the first build's own outputs, as `make` runs again: a copy has new inodes and ctimes, which
    # the stat cache (ingest/file_hashes.py) rightly does not trust, so every file would be hashed
    # again (the ninth round's full run measured that). A build that finds nothing changed writes
    # nothing, so the next step starts from the same outputs.
    timeline.mark("nothing changed, new process", **measure._fresh_process_build(inputs, built, day))
    grown = work / "inputs-grown"
    shutil.copytree(inputs, grown)
    shutil.copytree(spec["extra"], grown, dirs_exist_ok=True)
    settled = work / "outputs-settled"  # the outputs as `make` leaves them, for the pairs measured again
    if spec["pairs"] > 1:
        shutil.copytree(built, settled, symlinks=True)
    # the PDFs the rebuild rendered: new or changed (a stand-in, or one of the sample rendered for real)
    before = {path: path.read_bytes() for path in built.rglob("*.pdf")}
    creation = filesystem.settle(work, spec["settle"])  # after the first build removed its cards' folder
    timeline.mark("_copy")
    timeline.mark("one new tournament, new process", creation=dataclasses.asdict(creation),
                  **measure._fresh_process_build(grown, built, day))
    rendered = sorted(path for path in built.rglob("*.pdf") if path.read_bytes() != before.get(path))
    pages = printed_pages(grown, built, day, rendered)
    import weasyprint

    timeline.mark("_import WeasyPrint")
    for page in pages:
        weasyprint.HTML(string=page, base_url=str(html.TEMPLATES) + "/").write_pdf()
    timeline.mark("WeasyPrint alone, the new PDFs", pdfs=[p.relative_to(built).as_posix() for p in rendered])
    # The same three measured again, each time close together, on a copy of the settled outputs: one
    # run of each moved the 1x ratio by 0.2 from one minute to the next (1.17 and 1.37 in the
    # twenty-fourth round, the same code), which its median over the pairs does not
    for pair in range(2, spec["pairs"] + 1):
        again = work / f"outputs-{pair}"
        shutil.copytree(settled, again, symlinks=True)
        measure._fresh_process_build(inputs, again, day)  # the copy's files known by their stat, as in place
        timeline.mark("_settle")
        timeline.mark(paired("nothing changed, new process", pair), **measure._fresh_process_build(inputs, again, day))
        timeline.mark(paired("one new tournament, new process", pair), **measure._fresh_process_build(grown, again, day))
        for page in pages:
            weasyprint.HTML(string=page, base_url=str(html.TEMPLATES) + "/").write_pdf()
        timeline.mark(paired("WeasyPrint alone, the new PDFs", pair), pdfs=[p.relative_to(built).as_posix() for p in rendered])
        shutil.rmtree(again)
    return {"day": day.isoformat(), "phases": timeline.results()}


def paired(name: str, pair: int) -> str:
    """A phase's name in the pair `pair` of `builds` (the first pair's is the name alone)."""
    return name if pair == 1 else f"{name} ({pair})"


def printed_pages(inputs: Path, built: Path, day: dt.date, rendered: list[Path]) -> list[str]:
    """The HTML each PDF of `rendered` (in `built`) was rendered from: not its page when its ranking
    is longer than the PDF prints (render/html.py `render_print`: the top rows only). The league is
    scored again as the build scored it, each bulletin charted as the build charts it, and each HTML
    checked against the hash its circuit's manifest records for the PDF."""
    import hashlib

    from reportgen import pipeline
    from reportgen.render import html
    from reportgen.render.index import MANIFEST
    from reportgen.site import data as site_data
    from reportgen.site import figures

    scored = pipeline.score(pipeline.load(inputs, day))
    pages = []
    for path in rendered:
        slug, *rest = path.relative_to(built).parts
        name = "/".join(rest)
        report = scored.reports[slug]
        document = next(d for d in figures.charted(report.documents, site_data.chart_records(report))
                        if f"{d.path}.pdf" == name)  # a public copy's would need the build's masking
        page = html.render_print(document, html.render(document).encode("utf-8"))
        proof = json.loads((built / slug / MANIFEST).read_bytes())["pdfs"][name]
        if hashlib.sha256(page).hexdigest() != proof["html"]:
            raise SystemExit(f"{path}: not the HTML its manifest says the PDF was rendered from")
        pages.append(page.decode("utf-8"))
    return pages


def run_builds(scale: int, work: Path, memory_gib: float, settle: float) -> dict:
    spec = {"inputs": str(leagues.ensure(scale, say)), "extra": str(leagues.extra_folder(scale)),
            "work": str(work / f"builds-{scale}x"), "day": build_day(scale).isoformat(),
            "pdf_sample": PDF_SAMPLE[scale], "settle": settle, "pairs": PAIRS[scale]}
    Path(spec["work"]).mkdir(parents=True)
    spec_path, out = work / f"builds-{scale}x.json", work / f"builds-{scale}x-result.json"
    spec_path.write_text(json.dumps(spec))
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "benchmarks.targets", "--child", str(spec_path), str(out)],
                          cwd=ROOT, capture_output=True, text=True, preexec_fn=_limit(memory_gib))
    if done.returncode != 0:
        raise SystemExit(f"the {scale}x builds failed:\n{done.stderr[-3000:]}")
    result = json.loads(out.read_text())
    result["process_wall"] = round(time.perf_counter() - start, 1)
    shutil.rmtree(spec["work"], ignore_errors=True)
    return result


def first_build_pdfs(sample: int, work: Path, memory_gib: float) -> dict:
    """`make bench`'s own run at 1x up to the PDF comparisons (benchmarks/measure.py)."""
    spec = {"inputs": str(leagues.ensure(1, say)), "work": str(work / "bench-1x"), "today": TODAY,
            "pdf_sample": sample, "until": "PDF, one process", "rebuild": False, "pdf_baselines": True,
            "baseline_1x": None, "extra": None}
    Path(spec["work"]).mkdir(parents=True)
    run = run_once(spec, Path(spec["work"]), memory_gib)
    if run.get("error"):
        raise SystemExit(f"the 1x PDF measurement failed:\n{run['error']}")
    return {"median": median_phases([run]), "ratios": ratios([run]), "facts": run["facts"]}


def say(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


# -- the table -------------------------------------------------------------------------------------

def _s(value: float) -> str:
    return f"{value:.2f} s"


def _t(*phases: dict) -> str:
    """Wall time, and CPU (of the process and its workers) beside it: on a machine other processes
    share, the wall grows with their load and the CPU does not."""
    return f"{_s(sum(p['wall'] for p in phases))} ({sum(p.get('cpu', 0) for p in phases):.2f} CPU-s)"


def rows(found: dict) -> list[dict]:
    """One row a target: what, measured, baseline, ratio, limit, met (None: not measured)."""
    table: list[dict] = []

    def add(target: str, measured: str, baseline: str, ratio: float | None, limit: str, met: bool | None,
            cpu: float | None = None) -> None:
        table.append({"target": target, "measured": measured, "baseline": baseline,
                      "ratio": "" if ratio is None else f"{ratio:.2f}", "cpu_ratio": "" if cpu is None else f"{cpu:.2f}",
                      "limit": limit, "met": met})

    def cpu(ours: dict, *baselines: dict) -> float | None:
        base = sum(p.get("cpu", 0) for p in baselines)
        return ours["cpu"] / base if base and "cpu" in ours else None

    def phase(scale: int, name: str) -> dict | None:
        return found.get("builds", {}).get(str(scale), {}).get("phases", {}).get(name)

    def pairs(scale: int, *names: str) -> list[tuple[dict, ...]]:
        """The phases `names` of each pair `builds` measured, in order (results written before the
        twenty-fifth round have one)."""
        measured_pairs: list[tuple[dict, ...]] = []
        while True:
            pair = len(measured_pairs) + 1
            measured = [measured_phase for name in names if (measured_phase := phase(scale, paired(name, pair)))]
            if len(measured) < len(names):
                return measured_pairs
            measured_pairs.append(tuple(measured))

    def median_of(scale: int, name: str) -> dict | None:
        """The phase `name` of the pair with the median wall time (the upper one of an even count)."""
        measured = sorted((p for (p,) in pairs(scale, name)), key=lambda p: p["wall"])
        return measured[len(measured) // 2] if measured else None

    in_time = pairs(1, "one new tournament, new process", "nothing changed, new process", "WeasyPrint alone, the new PDFs")
    if in_time:
        alone = in_time[0][2]
        add("one new tournament at 1x renders exactly one PDF, its bulletin", f"{len(alone['pdfs'])} PDF: "
            + ", ".join(alone["pdfs"]), "", None, "1 PDF", len(alone["pdfs"]) == 1)
        # each pair's ratio, its three measured one after the other; the pair of the median ratio shown
        ratio_of = [one["wall"] / (alone["wall"] + nothing["wall"]) for one, nothing, alone in in_time]
        middle = sorted(range(len(in_time)), key=ratio_of.__getitem__)[len(in_time) // 2]
        one, nothing, alone = in_time[middle]
        each = "" if len(in_time) == 1 else (f"; the median of {len(in_time)} pairs: "
                                             + ", ".join(f"{ratio:.2f}" for ratio in ratio_of))
        add("one new tournament at 1x (`reportgen build`, new process)", _t(one),
            f"{_t(alone, nothing)}: that PDF alone in WeasyPrint {_t(alone)} + nothing changed {_t(nothing)}{each}",
            ratio_of[middle], "≤ 1.3", ratio_of[middle] <= 1.3, cpu(one, alone, nothing))
    for name, shown, limit in (("one new tournament, new process", "one new tournament", 2.0),
                               ("nothing changed, new process", "nothing changed", 3.0)):
        big, small = median_of(100, name), median_of(1, name)
        if big and small:
            add(f"{shown} at 100x against 1x", _t(big), _t(small) + " at 1x",
                big["wall"] / small["wall"], f"≤ {limit:g}", big["wall"] / small["wall"] <= limit, cpu(big, small))
        else:
            add(f"{shown} at 100x against 1x", "not measured (--quick)", "", None, f"≤ {limit:g}", None)
    scored = found.get("standings", {})
    if "10" in scored and "100" in scored:
        (cpu10, rows10), (cpu100, rows100) = [(scored[s]["cpu_total"], scored[s]["rows"]) for s in ("10", "100")]
        exponent = math.log(cpu100 / cpu10) / math.log(rows100 / rows10)
        add("`standings` linear in the results (CPU, 10x to 100x)", f"{cpu100:.1f} CPU-s for {rows100:,} rows",
            f"{cpu10:.1f} CPU-s for {rows10:,} rows", exponent, "exponent ≤ 1.05", exponent <= 1.05)
    else:
        add("`standings` linear in the results (CPU, 10x to 100x)", "not measured (--quick)", "", None,
            "exponent ≤ 1.05", None)
    bench = found.get("pdf_1x")
    if bench:
        median, compared = bench["median"], bench["ratios"]
        ours, engine = median["PDF, one process"], median["PDF, WeasyPrint alone"]
        ratio = compared["PDF, one process"]["ratio"]
        count = bench["facts"]["pdf_documents"]
        add(f"first build's PDF against WeasyPrint alone, same HTML (1x, {count} bulletins)", _t(ours),
            _t(engine) + " WeasyPrint alone", ratio, "≤ 1.1", ratio <= 1.1, cpu(ours, engine))
        pool = median["PDF, pool of 2"]
        add(f"PDF pool's wall against its CPU, {found['machine']['nproc']} cores (1x, {count} bulletins)",
            _s(pool["wall"]), f"{pool['cpu']:.2f} CPU-s", pool["wall"] / pool["cpu"], "≤ 0.55",
            pool["wall"] / pool["cpu"] <= 0.55)
    first = phase(100, "first build")
    if first:
        peak = max(first["tree_rss_peak_mib"], first["rss_peak_mib"])
        add(f"peak memory at 100x (PDFs of {first['pdf_sampled']} bulletins, the site whole)", f"{peak:,.0f} MiB",
            f"{MIB_LIMIT:,} MiB", peak / MIB_LIMIT, "< 1 (2 GB)", peak < MIB_LIMIT)
    else:
        add("peak memory at 100x (PDFs sampled, the site whole)", "not measured (--quick)", "", None, "< 2 GB", None)
    largest = max((int(s) for s in found.get("builds", {})), default=0)
    first = phase(largest, "first build")
    if first:
        without = first["wall"] - first["pdf_sample_wall"] - first["site_pages_wall"]
        add(f"the site's pages in a build without PDFs ({largest}x)", _s(first["site_pages_wall"]),
            _s(without) + " the rest of that build", first["site_pages_wall"] / without, "≤ 0.25",
            first["site_pages_wall"] / without <= 0.25)
    return table


def step_starts(found: dict, work: Path) -> None:
    """What a step starts with: the load average, and what a file's creation costs (benchmarks/filesystem.py)."""
    found["loadavg"].append(os.getloadavg()[0])
    found["creation_us"].append(filesystem.creation_cost(work))


def markdown(found: dict) -> str:
    about = found["machine"]
    load = ", ".join(f"{value:.1f}" for value in found["loadavg"])
    if found.get("creation_us"):  # results written before the twenty-third round have no such record
        load += ("; a file's creation at the start of each step: "
                 + ", ".join(f"{value:.0f}" for value in found["creation_us"]) + f" µs ({found['filesystem']})")
    for name, shown in (("first build", "before the first build"), ("one new tournament, new process",
                                                                   "before the rebuild")):
        settled = found.get("builds", {}).get("100", {}).get("phases", {}).get(name, {}).get("creation")
        if settled:  # results written before the twenty-third round have no such record
            load += (f"; at 100x {shown}, a file created in {settled['microseconds']:.0f} µs "
                     f"(after {settled['waited']:.0f} s of waiting)")
    if "started" in found:  # results written before --quiet-wait have no such record
        load += "; " + quiet.Start(**found["started"]).sentence()
    lines = [f"Measured {found['created']} on {about['model'] or 'an unnamed CPU'} ({about['nproc']} cores, "
             f"{about['memory_gib']} GiB), commit {found['git']['commit'][:7]}; load average at the start of each "
             f"step: {load}. `python -m benchmarks.targets{' --quick' if found['quick'] else ''}`, "
             f"{found['wall_minutes']:.1f} minutes.", "",
             "| target | measured | baseline | ratio | limit | met | ratio of CPU |", "|---|---|---|---|---|---|---|"]
    for row in rows(found):
        met = {True: "met", False: "**not met**", None: "—"}[row["met"]]
        lines.append(f"| {row['target']} | {row['measured']} | {row['baseline']} | {row['ratio']} | {row['limit']} "
                     f"| {met} | {row['cpu_ratio']} |")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.targets", description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="1x only: leave out 10x and 100x (the targets "
                        "measured there say so)")
    parser.add_argument("--pdf-sample", type=int, default=8,
                        help="bulletins of the 1x first build whose PDFs are compared (0: all 55; default 8)")
    parser.add_argument("--label", help="names the results (default: the date and the commit)")
    parser.add_argument("--quiet-wait", type=float, default=180, metavar="SECONDS",
                        help="wait up to this long for the load average to fall below 0.5 before the first "
                        "step (default 180; 0: start at once)")
    parser.add_argument("--settle-wait", type=float, default=180, metavar="SECONDS",
                        help="wait up to this long, before each build at 100x, for a file's creation to cost less "
                        f"than {filesystem.SETTLED:g} µs (default 180; 0: at once): benchmarks/filesystem.py")
    parser.add_argument("--child", nargs=2, help=argparse.SUPPRESS)
    options = parser.parse_args(argv)
    if options.child:
        warnings.simplefilter("ignore")  # WeasyPrint's deprecation notices
        spec, out = options.child
        Path(out).write_text(json.dumps(builds(json.loads(Path(spec).read_text())), default=str))
        return
    started = quiet.wait(options.quiet_wait)  # a shared machine: the other engineers' load first
    say(started.sentence())
    start, about, repository = time.perf_counter(), machine(), git()
    memory = min(16.0, round(about["memory_gib"] * 0.6, 1) or 16.0)
    label = options.label or f"{dt.date.today().isoformat()}-{repository['commit'][:7] or 'nogit'}"
    # --quick: the 1x builds and PDFs; the standings' exponent needs 10x and 100x
    built, scored = ((1,), ()) if options.quick else ((1, 100), (10, 100))
    found: dict = {"created": dt.datetime.now().isoformat(timespec="minutes"), "machine": about, "git": repository,
                   "quick": options.quick, "loadavg": [], "creation_us": [], "builds": {}, "standings": {},
                   "started": dataclasses.asdict(started)}
    with tempfile.TemporaryDirectory(prefix="reportgen-targets-") as scratch:
        work = Path(scratch)
        for scale in built:
            say(f"{scale}x: first build, nothing changed, one new tournament...")
            step_starts(found, work)
            # the filesystem waited for where builds write tens of thousands of files (the site at 100x)
            found["builds"][str(scale)] = run_builds(scale, work, memory, options.settle_wait if scale >= 100 else 0.0)
        for scale in scored:
            say(f"{scale}x: standings...")
            step_starts(found, work)
            median = standings.run(scale, 1)["median"]
            found["standings"][str(scale)] = {**median, "cpu_total": median["cpu"] + median["cpu_workers"],
                                              "rows": (leagues.stamp(scale) or {}).get("rows", 0)}
        say(f"1x: the first build's PDFs ({options.pdf_sample or 'all'})...")
        step_starts(found, work)
        found["pdf_1x"] = first_build_pdfs(options.pdf_sample, work, memory)
    found["filesystem"] = filesystem.describe(Path(tempfile.gettempdir()))
    found["wall_minutes"] = (time.perf_counter() - start) / 60
    text = markdown(found)
    print(text)
    RESULTS.mkdir(parents=True, exist_ok=True)
    (RESULTS / f"targets-{label}.json").write_text(json.dumps(found, indent=1, default=str) + "\n")
    (RESULTS / f"targets-{label}.md").write_text(text)
    print(f"written: benchmarks/results/targets-{label}.md and .json")


if __name__ == "__main__":
    main()
