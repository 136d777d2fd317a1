"""Where a build's memory goes, phase by phase: peak and current RSS of the build's process.

    .venv/bin/python -m benchmarks.memory --scale 10                 # the 10x league, stand-in PDFs
    .venv/bin/python -m benchmarks.memory --scale 10 --tracemalloc   # and the top allocators of each phase
    .venv/bin/python -m benchmarks.memory --scale 100 --json out.json
    .venv/bin/python -m benchmarks.memory --scale 100 --pdf-sample 2    # as the targets' run: 2 PDFs real

The league is copied to a temporary folder and built there in an empty outputs/, with stand-in
PDFs, or with `--pdf-sample N` N of them rendered for real by the PDF workers, spread from the
smallest HTML to the largest as benchmarks/targets.py chooses them (the tree then counts the
workers: the target's own measure). Each phase is a function of the build wrapped here; at its start and end the
process's peak (VmHWM, reset through /proc/self/clear_refs) and current RSS are read, the
largest RSS of the whole process tree (reading and PDF workers included, benchmarks/measure.py's
sampler) and the largest peak of one of its workers.
Phases: `read` (the workbooks' sheets, pipeline/loading.py), `load` (the rest of loading: parse,
normalise), `score` (circuit.score, outside the rendering), `render` (a circuit laid out:
pipeline/publishing.py render_report), `pdf` (the PDFs rendered, or their stand-ins:
render/pdf.py `Batch.results`), `publish` (a circuit's files written), `site pages` (made
and staged one by one: site/publish.py `stage`), `site publish` (their commit), `other` (between
them). With --tracemalloc the 10 lines that hold the most at each phase's end are listed (slow: use
10x).
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import shutil
import tempfile
import time
import tracemalloc
from pathlib import Path

from benchmarks import leagues, measure

STAND_IN = b"%PDF-1.4 stand-in\n"


def _status() -> tuple[int, int]:
    """(VmHWM, VmRSS) of this process in KiB."""
    return measure._status_kib("VmHWM") or 0, measure._status_kib("VmRSS") or 0


class Probe:
    def __init__(self, traced: bool) -> None:
        self.phases: dict[str, dict] = {}
        self.current = "other"
        self.traced = traced
        self.workers = measure.Workers()
        self.start = time.process_time()
        self._reset()

    @staticmethod
    def _reset() -> None:
        with open("/proc/self/clear_refs", "w") as handle:
            handle.write("5")

    def mark(self) -> None:
        """The segment since the last mark belongs to the current phase."""
        hwm, rss = _status()
        worker, tree = self.workers.take()
        phase = self.phases.setdefault(self.current, {"peak_mib": 0.0, "tree_peak_mib": 0.0, "worker_peak_mib": 0.0,
                                                      "end_rss_mib": 0.0, "cpu": 0.0})
        phase["worker_peak_mib"] = max(phase["worker_peak_mib"], round(worker / 1024, 1))
        phase["peak_mib"] = max(phase["peak_mib"], round(hwm / 1024, 1))
        phase["tree_peak_mib"] = max(phase["tree_peak_mib"], round(max(tree, hwm) / 1024, 1))
        phase["end_rss_mib"] = round(rss / 1024, 1)
        now = time.process_time()
        phase["cpu"] = round(phase["cpu"] + now - self.start, 2)
        self.start = now
        if self.traced:
            top = tracemalloc.take_snapshot().statistics("lineno")[:10]
            phase["top"] = [f"{stat.size / 2**20:8.1f} MiB {stat.traceback}" for stat in top]
        self._reset()

    def wrap(self, owner, name: str, phase: str) -> None:  # type: ignore[no-untyped-def]
        original = getattr(owner, name)

        def wrapped(*args, **kwargs):  # type: ignore[no-untyped-def]
            outer = self.current
            self.mark()
            self.current = phase
            try:
                return original(*args, **kwargs)
            finally:
                self.mark()
                self.current = outer

        setattr(owner, name, wrapped)


def _sampled(count: int):  # type: ignore[no-untyped-def]
    """`render_many` rendering `count` of its pages for real (benchmarks/targets.py's choice: spread
    from the smallest HTML to the largest), the others stand-ins."""
    from reportgen.render import pdf

    real = pdf.render_many

    def render_many(pages, *args, **kwargs):  # type: ignore[no-untyped-def]
        order = sorted(range(len(pages)), key=lambda i: (len(pages[i][0]), i))
        chosen = measure._sample(order, count)
        rendered = dict(zip(chosen, real([pages[i] for i in chosen], workers=2)))
        return [rendered.get(i, STAND_IN) for i in range(len(pages))]

    return render_many


def run(scale: int, traced: bool, day: dt.date, pdf_sample: int = 0) -> dict:
    import reportgen.site.publish as site_publish
    from reportgen import circuits
    from reportgen.pipeline import building, loading
    from reportgen.render import pdf

    work = Path(tempfile.mkdtemp(prefix=f"memory-{scale}x-"))
    try:
        inputs = work / "inputs"
        shutil.copytree(leagues.folder(scale), inputs)
        if traced:
            tracemalloc.start()
        probe = Probe(traced)
        pdf.render_many = _sampled(pdf_sample) if pdf_sample else lambda pages, *args, **kwargs: [
            STAND_IN for _ in pages]
        pdf.render_pdf = lambda page, *args, **kwargs: STAND_IN
        probe.wrap(loading, "read_workbooks", "read")
        probe.wrap(building, "load", "load")
        for circuit in circuits.CIRCUITS.values():
            probe.wrap(circuit, "score", "score")
        probe.wrap(building, "render_report", "render")
        probe.wrap(pdf.Batch, "results", "pdf")
        try:  # a circuit published from its files staged on disk (render/staging.py), or from memory
            from reportgen.render.staging import Staging

            probe.wrap(Staging, "publish", "publish")
        except ImportError:
            probe.wrap(building, "publish", "publish")
        # the site's pages made and staged one by one (`stage` consumes `Site.each_page`), then committed
        probe.wrap(site_publish, "stage", "site pages")
        probe.wrap(site_publish, "publish_staged", "site publish")
        facts = measure._build(building, inputs, work / "outputs", day, pdf_limit=10**9, warm=False)
        probe.mark()
        hwm = measure.resource.getrusage(measure.resource.RUSAGE_SELF).ru_maxrss
        return {"scale": scale, "day": day.isoformat(), "pdf_sample": pdf_sample, "phases": probe.phases, "ru_maxrss_mib": round(hwm / 1024, 1),
                **facts}
    finally:
        shutil.rmtree(work, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=int, default=10)
    parser.add_argument("--tracemalloc", action="store_true")
    parser.add_argument("--day", default="2027-01-15", help="the build's day (benchmarks/__main__.py's TODAY)")
    parser.add_argument("--pdf-sample", type=int, default=0, help="PDFs rendered for real (0: stand-ins only)")
    parser.add_argument("--json", type=Path)
    options = parser.parse_args()
    found = run(options.scale, options.tracemalloc, dt.date.fromisoformat(options.day), options.pdf_sample)
    print(f"{options.scale}x: process peak {found['ru_maxrss_mib']} MiB; "
          f"pdf {found.get('pdf_rendered')} stand-ins, {found.get('files_written')} files written")
    print(f"{'phase':14} {'peak MiB':>9} {'tree MiB':>9} {'worker MiB':>11} {'RSS at end':>11} {'CPU-s':>7}")
    for name, phase in found["phases"].items():
        print(f"{name:14} {phase['peak_mib']:9.1f} {phase['tree_peak_mib']:9.1f} {phase['worker_peak_mib']:11.1f} "
              f"{phase['end_rss_mib']:11.1f} {phase['cpu']:7.1f}")
        for line in phase.get("top", []):
            print("      " + line)
    if options.json:
        options.json.write_text(json.dumps(found, indent=1, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
