"""Time each phase of a build of the example league (or of another inputs folder).

    .venv/bin/python scripts/benchmark.py [inputs] [--repeat 3]

Prints the median of each phase: reading (workers included), validation and normalisation,
scoring, HTML, XLSX, and one PDF per size class. No timing is asserted anywhere in the tests.
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

from reportgen.ingest.discover import discover
from reportgen.ingest.workbook import read_workbooks
from reportgen.pipeline import load, score
from reportgen.render import excel, html, pdf


def timed(function, repeat: int) -> tuple[float, object]:
    times, result = [], None
    for _ in range(repeat):
        start = time.perf_counter()
        result = function()
        times.append(time.perf_counter() - start)
    return statistics.median(times), result


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("inputs", nargs="?", default="examples/league", type=Path)
    parser.add_argument("--repeat", type=int, default=3)
    options = parser.parse_args()
    paths, _ = discover(options.inputs)
    seconds, _ = timed(lambda: read_workbooks(paths, options.inputs), options.repeat)
    print(f"read {len(paths)} workbooks: {seconds:.3f} s")
    seconds, league = timed(lambda: load(options.inputs), options.repeat)
    print(f"load (read + validate + normalise): {seconds:.3f} s")
    seconds, report = timed(lambda: score(league, ["grand-sud"]).reports["grand-sud"], options.repeat)
    print(f"score grand-sud ({len(report.documents)} rankings): {seconds:.3f} s")
    seconds, pages = timed(lambda: [html.render(d) for d in report.documents], options.repeat)
    print(f"HTML, all bulletins: {seconds:.3f} s")
    seconds, _ = timed(lambda: [excel.render_annex(a) for a in report.annexes], options.repeat)
    print(f"XLSX, all annexes: {seconds:.3f} s")
    by_rows = sorted(zip(report.documents, pages), key=lambda pair: len(pair[0].context["rows"]))
    for document, page in (by_rows[0], by_rows[-1]):
        seconds, _ = timed(lambda: pdf.render_pdf(page, document.date), options.repeat)
        print(f"PDF, {len(document.context['rows'])} rows: {seconds:.3f} s")


if __name__ == "__main__":
    main()
