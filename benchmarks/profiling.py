"""Where a build's time goes: cProfile of each phase, in one process, summed by package.

    .venv/bin/python -m benchmarks.profiling             # the 1x league
    .venv/bin/python -m benchmarks.profiling --scale 10 --top 20

The reading happens in worker processes, which the profiler of this process does not see: the
read is profiled as a worker does it (`_load` of reportgen/ingest/file_reader.py, in this process).
The PDF phase is `render_pdf` of the largest bulletin, in this process (what each pool worker does).
cProfile slows Python code down more than C code (Pango, HarfBuzz, calamine): read the shares as
an outline, and the benchmark's timings as the numbers.
"""

from __future__ import annotations

import argparse
import cProfile
import datetime as dt
import pstats
import re
import sys
import time
import warnings
from collections import defaultdict
from pathlib import Path

from benchmarks import leagues

TODAY = dt.date(2027, 1, 15)


def package(filename: str, function: str) -> str:
    """reportgen.circuits.grand_sud, weasyprint.layout, pandas... for a profiled function's file."""
    if filename == "~" or filename.startswith("<"):
        return "C built-ins (" + (function.split(" of ")[-1].strip("'>{}") if " of " in function else "builtins") + ")"
    found = re.search(r"site-packages/([^/]+)/(?:([^/]+)/)?", filename)
    if found:
        top, sub = found.group(1), found.group(2)
        if top == "weasyprint" and sub:  # WeasyPrint's stages: css, layout, text, draw, pdf...
            return f"weasyprint.{sub}"
        return top.removesuffix(".py")
    found = re.search(r"/reportgen/(.+)\.py$", filename)
    if found:
        parts = found.group(1).split("/")
        return "reportgen." + ".".join(parts[:2] if parts[0] == "circuits" else parts[:1])
    if "/lib/python" in filename:
        return "python stdlib"
    return filename


def summary(profile: cProfile.Profile, title: str, wall: float, top: int) -> str:
    stats = pstats.Stats(profile)
    by_package: dict[str, float] = defaultdict(float)
    rows = []
    for (filename, line, function), (_, calls, own, cumulative, _) in stats.stats.items():  # type: ignore[attr-defined]
        by_package[package(filename, function)] += own
        rows.append((own, cumulative, calls, f"{Path(filename).name}:{line} {function}" if filename != "~" else function))
    total = sum(by_package.values()) or 1.0
    lines = [f"== {title}: {wall:.2f} s wall (profiled), {total:.2f} s in functions", "  by package (own time):"]
    for name, seconds in sorted(by_package.items(), key=lambda item: -item[1])[:top]:
        lines.append(f"    {seconds:8.2f} s {100 * seconds / total:5.1f} %  {name}")
    lines.append("  functions (own time, cumulative, calls):")
    for own, cumulative, calls, name in sorted(rows, reverse=True)[:top]:
        lines.append(f"    {own:8.2f} {cumulative:8.2f} {calls:>9}  {name[:90]}")
    return "\n".join(lines)


def profiled(title: str, top: int, function):
    profile = cProfile.Profile()
    start = time.perf_counter()
    profile.enable()
    try:
        value = function()
    finally:
        profile.disable()
    print(summary(profile, title, time.perf_counter() - start, top), flush=True)
    print()
    return value


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.profiling", description=__doc__.split("\n\n")[0])
    parser.add_argument("--scale", type=int, default=1, choices=leagues.SCALES)
    parser.add_argument("--top", type=int, default=12)
    parser.add_argument("--no-pdf", action="store_true")
    options = parser.parse_args()
    warnings.simplefilter("ignore")
    inputs = leagues.ensure(options.scale, lambda message: print(message, file=sys.stderr))

    from reportgen import pipeline
    from reportgen.ingest import file_reader, workbook
    from reportgen.ingest.discover import discover

    paths, _ = discover(inputs)
    load_one = getattr(file_reader, "_load", None)
    if load_one is not None:
        profiled(f"read, as a worker does it ({len(paths)} files, one process)", options.top,
                 lambda: [load_one(str(path)) for path in paths])
    league = profiled("load (the read in workers: waiting, then parse + normalise)", options.top,
                      lambda: pipeline.load(inputs, TODAY))
    workbook.stop_workers()
    scored = profiled("score + documents", options.top, lambda: pipeline.score(league))

    from reportgen.render import excel, html

    documents = [document for report in scored.reports.values() for document in report.documents]
    pages = profiled(f"HTML ({len(documents)} documents)", options.top, lambda: [html.render(d) for d in documents])
    profiled("XLSX", options.top,
             lambda: [excel.render_annex(a) for report in scored.reports.values() for a in report.annexes])
    if not options.no_pdf:
        from reportgen.render import pdf

        largest = max(range(len(pages)), key=lambda i: len(pages[i]))
        import weasyprint  # noqa: F401  (imported before: the import is not the PDF's time)

        profiled(f"PDF of the largest bulletin ({documents[largest].path}, "
                 f"{len(documents[largest].context.get('rows', []))} rows)", options.top,
                 lambda: pdf.render_pdf(pages[largest], documents[largest].date))


if __name__ == "__main__":
    main()
