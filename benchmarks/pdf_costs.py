"""What each PDF of the 1x first build costs, against what its HTML tells before it is rendered: the
measures behind the PDF pool's order (render/pdf.py `render_many`, largest HTML first).

    .venv/bin/python -m benchmarks.pdf_costs --runs 3              # the targets' sample of eight
    .venv/bin/python -m benchmarks.pdf_costs --all --runs 2        # the 55 bulletins

The 1x league is loaded, scored and laid out once (benchmarks/measure.py up to its HTML), its
bulletins sampled as the targets sample them (`--pdf-sample`, spread by size). Each is then rendered by
WeasyPrint alone (its `write_pdf`, as measure.py's baseline), in rounds over the documents so that a
change of the machine's speed falls on all of them; each run's CPU is this thread's
(`time.thread_time`: the machine is shared, its wall says little). Beside each median, what the
HTML says: its bytes, table rows and cells, tables, sections, and the pages WeasyPrint lays out. It
prints each predictor's rank agreement with the CPU (Kendall's tau) and the relative error of a
straight line on it; then the pool's two workers as list scheduling gives them the sample, in the
order of its bytes, of its measured CPU and the best of every order (the least the order can do).
"""

from __future__ import annotations

import argparse
import itertools
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from benchmarks import leagues, measure
from benchmarks.targets import TODAY

PREDICTORS = ("bytes", "cells", "rows", "tables", "sections", "pages")


def laid_out(sample: int) -> list[tuple[str, str]]:
    """(name, HTML) of the 1x first build's bulletins, the `sample` the targets render (0: all)."""
    with tempfile.TemporaryDirectory(prefix="pdf-costs-") as work:
        run = measure.Run({"inputs": str(leagues.ensure(1, print)), "work": work, "today": TODAY, "until": "HTML"})
        run()
    pages, documents = run.pages, run.documents
    order = sorted(range(len(pages)), key=lambda i: (len(pages[i]), i))
    chosen = sorted(measure._sample(order, sample)) if sample else list(range(len(pages)))
    return [(f"{documents[i][0]}/{documents[i][1].path}", pages[i]) for i in chosen]


def predictors(page: str, weasyprint, base: str) -> dict[str, int]:  # type: ignore[no-untyped-def]
    return {"bytes": len(page.encode("utf-8")), "cells": page.count("<td") + page.count("<th"),
            "rows": page.count("<tr"), "tables": page.count("<table"), "sections": page.count("<section"),
            "pages": len(weasyprint.HTML(string=page, base_url=base).render().pages)}


def measured(documents: list[tuple[str, str]], runs: int) -> list[dict]:
    """Each document's predictors and the CPU-s of its runs, in rounds over the documents."""
    from reportgen.render.html import TEMPLATES
    from reportgen.render.pdf import _weasyprint

    weasyprint = _weasyprint()
    base = str(TEMPLATES) + "/"
    cpu: list[list[float]] = [[] for _ in documents]
    for _ in range(runs):
        for runs_of, (_, page) in zip(cpu, documents):
            start = time.thread_time()
            weasyprint.HTML(string=page, base_url=base).write_pdf()
            runs_of.append(round(time.thread_time() - start, 3))
    return [{"document": name, **predictors(page, weasyprint, base), "cpu": runs_of,
             "cpu_median": statistics.median(runs_of)} for (name, page), runs_of in zip(documents, cpu)]


def kendall(xs: list[float], ys: list[float]) -> float:
    pairs = list(itertools.combinations(range(len(xs)), 2))
    return sum(np.sign(xs[i] - xs[j]) * np.sign(ys[i] - ys[j]) for i, j in pairs) / len(pairs)


def line_error(xs: list[float], ys: list[float]) -> float:
    """The root mean square of the relative error of the least squares line y = a + b·x."""
    slope, intercept = np.polyfit(xs, ys, 1)
    return float(np.sqrt(np.mean([((y - (intercept + slope * x)) / y) ** 2 for x, y in zip(xs, ys)])))


def pool_end(costs: list[float], order: list[int], workers: int = 2) -> float:
    """When the last of `workers` ends, each taking the next task of `order` as soon as it is free."""
    ends = [0.0] * workers
    for index in order:
        ends[ends.index(min(ends))] += costs[index]
    return max(ends)


def report(found: list[dict]) -> None:
    cpu = [entry["cpu_median"] for entry in found]
    for entry in sorted(found, key=lambda e: -e["cpu_median"]):
        print(f"{entry['document']:<58} " + " ".join(f"{name} {entry[name]}" for name in PREDICTORS)
              + f"  CPU-s {entry['cpu_median']:.2f} {entry['cpu']}  µs/byte {entry['cpu_median'] / entry['bytes'] * 1e6:.1f}")
    for name in PREDICTORS:
        values = [float(entry[name]) for entry in found]
        print(f"{name}: Kendall's tau {kendall(values, cpu):.3f}, a line's relative error {line_error(values, cpu):.3f}")
    by = lambda key: sorted(range(len(found)), key=lambda i: -key(i))  # noqa: E731
    print(f"CPU-s in all {sum(cpu):.2f}, half {sum(cpu) / 2:.2f}; the last worker's end in the order of the bytes "
          f"{pool_end(cpu, by(lambda i: found[i]['bytes'])):.2f}, of the CPU {pool_end(cpu, by(lambda i: cpu[i])):.2f}",
          end="")
    if len(found) <= 9:
        print(f", the best order {min(pool_end(cpu, list(o)) for o in itertools.permutations(range(len(found)))):.2f}")
    else:
        print()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--pdf-sample", type=int, default=8, help="the targets' sample (default 8)")
    parser.add_argument("--all", action="store_true", help="every bulletin, not the sample")
    parser.add_argument("--json", type=Path, help="writes each document's measures there")
    options = parser.parse_args(argv)
    with open("/proc/loadavg") as load:
        print("load average:", load.read().strip(), file=sys.stderr)
    found = measured(laid_out(0 if options.all else options.pdf_sample), options.runs)
    if options.json:
        options.json.write_text(json.dumps(found, indent=1))
    report(found)


if __name__ == "__main__":
    main()
