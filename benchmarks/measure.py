"""One measured build, in a fresh process: `python -m benchmarks` starts one per run.

    python -m benchmarks.measure SPEC.json RESULT.json

The phases run one after the other in this process, as `reportgen build` runs them, each a
segment of one timeline:

- wall time: time.perf_counter;
- CPU time: os.times, this process plus the worker processes it has reaped (the reading workers are
  stopped at the end of the read, the PDF pool shuts down at the end of its phase);
- `rss_peak_mib`: this process's peak resident memory during the segment (Linux's VmHWM, reset at
  the start of every segment through /proc/self/clear_refs; where that is refused, the peak since
  the process started, which only grows);
- `workers_rss_peak_mib`: the largest peak (VmHWM) of a worker process during the segment, and
  `tree_rss_peak_mib` the largest sum of resident memory of this process and its workers, both
  sampled every 0.1 s by a process of its own (`Workers`); the harness adds each run's ru_maxrss (wait4).

Beside a phase, the plainest way of doing the same work, on the same files in the same process:
reading against python-calamine alone (`CalamineWorkbook.from_path(p)` and `to_python()` of every
sheet, one process), the PDF pool against one process, reportgen's `render_pdf` against WeasyPrint
alone (`weasyprint.HTML(string=..., base_url=templates).write_pdf()`: the same fonts, without the
URL fetcher and PDF/A-3u; the two alternate document by document), and at 10x/100x the scoring
against the 1x league's Grand Sud scoring.

Then `reportgen build` as a whole (pipeline.build), on a copy of the outputs a build left: with
nothing changed (in this process, then in a new process as `make` runs it: Python's start-up and the
command line's imports included), and with one more tournament (benchmarks/leagues.py keeps it
aside).

Only the pipeline's entry points are used (load, score, read_workbooks, html.render, render_pdf,
render_many, excel.render_annex, ranking.to_csv, publish, build); where one changed shape, the
phase falls back (the result says how) rather than fail.
"""

from __future__ import annotations

import argparse
import datetime as dt
import inspect
import json
import multiprocessing
import os
import re
import resource
import shutil
import statistics
import sys
import time
import traceback
import warnings
from pathlib import Path

from benchmarks.build_on_day import python_on

PAGE_KIB = os.sysconf("SC_PAGE_SIZE") // 1024


def _status_kib(field: str) -> int | None:
    try:
        with open("/proc/self/status") as status:
            for line in status:
                if line.startswith(field + ":"):
                    return int(line.split()[1])
    except OSError:
        pass
    return None


class _Sampler:
    """In a process of its own (`Workers`): samples the descendants of the process it measures
    (reading workers, PDF pool workers) every `interval` seconds: the largest peak among them (each
    one's VmHWM at its latest sample: its own peak, so a sample shortly before a worker ends catches
    all but its last instant), and the largest sum of current RSS over the whole tree, the measured
    process included, this one left out.

    A descendant counts from its second sample on: a process just forked, before it runs its
    program, reports the memory of its parent (shared pages), not its own."""

    def __init__(self, measured: int) -> None:
        self.measured = measured
        self.seen: dict[int, int] = {}  # pid -> samples
        self.latest_hwm: dict[int, int] = {}  # pid -> VmHWM at its latest sample, since the last take
        self.tree_peak = 0

    @staticmethod
    def _children(pid: int) -> list[int]:
        found = []
        try:
            for task in os.listdir(f"/proc/{pid}/task"):
                with open(f"/proc/{pid}/task/{task}/children") as handle:
                    found += [int(child) for child in handle.read().split()]
        except OSError:
            pass
        return found

    @staticmethod
    def _memory(pid: int) -> tuple[int, int]:
        rss = hwm = 0
        try:
            with open(f"/proc/{pid}/status") as status:
                for line in status:
                    if line.startswith("VmRSS:"):
                        rss = int(line.split()[1])
                    elif line.startswith("VmHWM:"):
                        hwm = int(line.split()[1])
        except OSError:
            pass
        return rss, hwm

    def sample(self) -> None:
        me = os.getpid()
        tree, waiting = [], [pid for pid in self._children(self.measured) if pid != me]
        while waiting:
            pid = waiting.pop()
            tree.append(pid)
            waiting += self._children(pid)
        total, _ = self._memory(self.measured)
        for pid in tree:
            self.seen[pid] = self.seen.get(pid, 0) + 1
            if self.seen[pid] < 2:
                continue
            rss, hwm = self._memory(pid)
            total += rss
            if hwm:
                self.latest_hwm[pid] = hwm
        self.tree_peak = max(self.tree_peak, total)

    def take(self) -> tuple[int, int]:
        self.sample()
        taken = (max(self.latest_hwm.values(), default=0), self.tree_peak)
        self.latest_hwm.clear()
        self.tree_peak = 0
        return taken


def _sample_memory(measured: int, interval: float, connection) -> None:  # type: ignore[no-untyped-def]
    sampler = _Sampler(measured)
    while True:
        try:
            if connection.poll(interval):
                connection.recv_bytes()
                connection.send(sampler.take())
            else:
                sampler.sample()
        except (EOFError, OSError):
            return


class Workers:
    """The memory of this process's workers (`_Sampler`), sampled by a process of its own: a thread
    here would make this process run two threads, and reportgen then spawns its reading workers
    where a build forks them (ingest/reading_pool.py)."""

    def __init__(self, interval: float = 0.1) -> None:
        context = multiprocessing.get_context("spawn")
        self.connection, child = context.Pipe()
        self.process = context.Process(target=_sample_memory, args=(os.getpid(), interval, child), daemon=True)
        self.process.start()
        child.close()

    def take(self) -> tuple[int, int]:
        """(largest worker peak, largest tree RSS) in KiB since the last take."""
        self.connection.send_bytes(b"take")
        return self.connection.recv()


class Timeline:
    """Consecutive segments of this process's life, each named by `mark` when it ends. Segments of
    the same name add up (wall, CPU) and keep their largest peaks; names starting with "_" are set-up
    work, left out of the results."""

    def __init__(self) -> None:
        self.segments: dict[str, dict] = {}
        self.resettable = self._reset_peak()
        self.workers = Workers()
        self._start()

    @staticmethod
    def _reset_peak() -> bool:
        try:
            with open("/proc/self/clear_refs", "w") as handle:
                handle.write("5")
            return True
        except OSError:
            return False

    def _start(self) -> None:
        self.workers.take()
        if self.resettable:
            self._reset_peak()
        self.wall = time.perf_counter()
        self.times = os.times()

    def mark(self, name: str, **facts) -> dict:
        wall = time.perf_counter() - self.wall
        now = os.times()
        own = (now.user - self.times.user) + (now.system - self.times.system)
        workers = (now.children_user - self.times.children_user) + (now.children_system - self.times.children_system)
        peak = _status_kib("VmHWM") or resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        worker_peak, tree_peak = self.workers.take()
        segment = self.segments.setdefault(name, {"wall": 0.0, "cpu": 0.0, "cpu_workers": 0.0, "rss_peak_mib": 0.0,
                                                  "workers_rss_peak_mib": 0.0, "tree_rss_peak_mib": 0.0})
        segment["wall"] += wall
        segment["cpu"] += own + workers
        segment["cpu_workers"] += workers
        for key, kib in (("rss_peak_mib", peak), ("workers_rss_peak_mib", worker_peak),
                         ("tree_rss_peak_mib", max(tree_peak, peak))):
            segment[key] = max(segment[key], round(kib / 1024, 1))
        segment.update(facts)
        self._start()
        return segment

    def results(self) -> dict[str, dict]:
        return {name: {key: round(value, 3) if isinstance(value, float) else value for key, value in segment.items()}
                for name, segment in self.segments.items() if not name.startswith("_")}


class Stop(Exception):
    """The phase asked with --until is done."""


class TooManyPdfs(Exception):
    pass


def _sample(items: list, count: int) -> list:
    """`count` items spread from the first to the last (all of them when count is 0 or more)."""
    if count <= 0 or count >= len(items):
        return list(items)
    if count == 1:
        return [items[0]]
    return [items[round(i * (len(items) - 1) / (count - 1))] for i in range(count)]


def _stop_readers() -> None:
    from reportgen.ingest import workbook

    stop = getattr(workbook, "stop_workers", None)
    if stop is not None:
        stop()


def _stop_pdf_server() -> None:
    """The PDF workers are forked by multiprocessing's fork server, which reaps them: their CPU
    reaches this process's children times only once the server has ended and been waited for."""
    forkserver = sys.modules.get("multiprocessing.forkserver")
    stop = getattr(getattr(forkserver, "_forkserver", None), "_stop", None)
    if stop is not None:
        stop()


def _fit(points: list[tuple[float, float]]) -> tuple[float, float]:
    """Least squares line y = a + b·x (b alone through the mean when x does not vary)."""
    xs, ys = [x for x, _ in points], [y for _, y in points]
    mean_x, mean_y = statistics.fmean(xs), statistics.fmean(ys)
    spread = sum((x - mean_x) ** 2 for x in xs)
    if spread == 0:
        return 0.0, mean_y / mean_x if mean_x else 0.0
    slope = sum((x - mean_x) * (y - mean_y) for x, y in points) / spread
    return mean_y - slope * mean_x, slope


def _render_pool(pdf, pages: list[tuple[str, dt.date]]) -> tuple[list[bytes], str]:
    """The build's pool: render_many(pages, workers=2), else a pool of 2 spawned processes."""
    try:
        parameters = inspect.signature(pdf.render_many).parameters
    except (AttributeError, TypeError, ValueError):
        parameters = {}
    if "workers" in parameters:
        how = "reportgen.render.pdf.render_many(workers=2)" + (" (fewer than 4 pages: in process)"
                                                               if len(pages) < 4 else "")
        rendered = pdf.render_many(pages, workers=2)
        _stop_pdf_server()
        return rendered, how
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    with ProcessPoolExecutor(max_workers=2, mp_context=multiprocessing.get_context("spawn")) as pool:
        return list(pool.map(pdf.render_pdf, *zip(*pages))), "2 spawned processes running render_pdf"


def _publish(pipeline, files: dict[Path, bytes], folder: Path, manifest: Path) -> tuple[list[Path], str]:
    """Write a circuit's files the way the build does: pipeline.publish(files, folder), else the
    folder publisher of render/files.py, else one atomic write per file."""
    try:
        parameters = list(inspect.signature(pipeline.publish).parameters)
    except (AttributeError, TypeError, ValueError):
        parameters = []
    if parameters[:2] == ["files", "folder"]:
        return pipeline.publish(files, folder), "reportgen.pipeline.publish"
    from reportgen.render import files as files_module

    if hasattr(files_module, "publish_folder"):
        written = files_module.publish_folder(folder, files, last=manifest,
                                              stale_suffixes=(".html", ".pdf", ".csv", ".xlsx", ".eml"))
        return written, "reportgen.render.files.publish_folder"
    return [path for path, data in sorted(files.items()) if files_module.write_atomic(path, data)], "write_atomic"


def _build(pipeline, inputs: Path, outputs: Path, today: dt.date, pdf_limit: int, warm: bool = True) -> dict:
    """`reportgen build` as a whole; stopped before rendering if it would render more than
    `pdf_limit` PDFs (the reuse of unchanged PDFs failed: said, not waited for). `warm`: start the
    PDF workers early as the command does (not for a build whose PDFs are stand-ins)."""
    from reportgen.model import Messages

    messages: list[str] = []

    def progress(message: str) -> None:
        messages.append(message)
        pending = re.match(r"(\d+) PDF", message)
        if pending and int(pending.group(1)) > pdf_limit:
            raise TooManyPdfs(f"{pending.group(1)} PDF to render, more than the {pdf_limit} expected")

    try:
        parameters = inspect.signature(pipeline.build).parameters
    except (TypeError, ValueError):
        parameters = {}
    # As `reportgen build` calls it (the PDF workers started early when a workbook is new).
    options = {"warm_pdf_workers": warm} if "warm_pdf_workers" in parameters else {}
    try:
        result = pipeline.build(inputs, outputs, today, progress=Messages(progress), **options)
    except TooManyPdfs as refused:
        return {"aborted": str(refused)}
    finally:
        _stop_readers()
        _stop_pdf_server()
    pending = [int(m.group(1)) for m in (re.match(r"(\d+) PDF", message) for message in messages) if m]
    rendered = getattr(result, "rendered", None)
    return {"pdf_rendered": sum(pending), "files_written": sum(len(v) for v in result.published.values()),
            "blocked": list(result.blocked),
            # HTML and XLSX rendered again (the others were taken from outputs/, unchanged)
            "html_xlsx_rendered": None if rendered is None else sum(1 for files in rendered.values() for path in files
                                                                    if path.suffix in (".html", ".xlsx"))}


FRESH_PROCESS = """
import datetime as dt, sys
from benchmarks.build_on_day import build_on_day
from reportgen import pipeline

built, real_build = [], pipeline.build
pipeline.build = lambda *args, **kwargs: built.append(real_build(*args, **kwargs)) or built[-1]  # its files counted
build_on_day(sys.argv[1], sys.argv[2], dt.date.fromisoformat(sys.argv[3]))
from benchmarks.measure import _stop_pdf_server  # the PDF workers' CPU counted (after the build: not timed in it)
_stop_pdf_server()
print(sum(len(files) for files in built[-1].published.values()))
"""


def _fresh_process_build(inputs: Path, outputs: Path, today: dt.date) -> dict:
    """`reportgen build --quiet` in a process of its own, as `make` starts it (the command line
    itself, as of the benchmark's day: benchmarks/build_on_day.py)."""
    import subprocess

    done = subprocess.run([*python_on(today), "-c", FRESH_PROCESS, str(inputs), str(outputs), today.isoformat()],
                          capture_output=True, text=True, timeout=3600)
    if done.returncode != 0:
        return {"aborted": done.stderr[-2000:]}
    return {"files_written": int(done.stdout.split()[-1])}


class Run:
    """The phases of one build, in order; `until` stops after the named one."""

    def __init__(self, spec: dict) -> None:
        self.spec = spec
        self.inputs, self.work = Path(spec["inputs"]), Path(spec["work"])
        self.today = dt.date.fromisoformat(spec["today"])
        self.timeline = Timeline()
        self.facts: dict = {"peak_reset": self.timeline.resettable}
        self.out: dict = {"facts": self.facts}

    def done(self, name: str, **more) -> None:
        self.timeline.mark(name, **more)
        if name == self.spec.get("until"):
            raise Stop

    def __call__(self) -> dict:
        try:
            self.load()
            self.read_baselines()
            self.score()
            self.render()
            self.pdf()
            self.publish()
            if self.spec.get("rebuild", True):
                self.rebuilds()
        except Stop:
            self.out["stopped_after"] = self.spec.get("until")
        except Exception:
            self.out["error"] = traceback.format_exc()
        self.out["phases"] = self.timeline.results()
        return self.out

    def load(self) -> None:
        """discover, read, then parse + normalise: timed inside pipeline.load itself."""
        from reportgen import pipeline

        self.pipeline = pipeline
        self.done("import")
        timeline, patched = self.timeline, {}
        # Each call ends what load did before it (normalise) and is timed as its segment; the read
        # begins with the start of the reading workers, where load starts them before reading.
        for name, segment in (("discover", "discover"), ("start_readers", "read"), ("read_workbooks", "read")):
            original = getattr(pipeline.loading, name, None)
            if original is None:
                continue

            def timed(*args, _original=original, _name=name, _segment=segment, **kwargs):
                if not (_name == "read_workbooks" and "start_readers" in patched):
                    timeline.mark("normalise")  # what load did before the call
                value = _original(*args, **kwargs)
                if _name == "start_readers":
                    return value  # the read goes on
                if _segment == "read":
                    _stop_readers()  # reaped: their CPU and memory are counted here
                timeline.mark(_segment)
                return value

            patched[name] = original
            setattr(pipeline.loading, name, timed)
        self.facts["read_timed_inside_load"] = "read_workbooks" in patched
        try:
            league = pipeline.load(self.inputs, self.today)
        finally:
            for name, original in patched.items():
                setattr(pipeline.loading, name, original)
        timeline.mark("normalise")
        if "read_workbooks" not in patched:  # load reads another way now: time a read apart
            from reportgen.ingest.discover import discover
            from reportgen.ingest.workbook import read_workbooks

            paths, _ = discover(self.inputs)
            timeline.mark("discover")
            read_workbooks(paths, self.inputs)
            _stop_readers()
            timeline.mark("read")
        self.league = league
        self.facts["results_rows"] = {slug: len(c.results) for slug, c in league.circuits.items() if c.events}
        self.facts["events"] = {slug: len(c.events) for slug, c in league.circuits.items() if c.events}
        self.facts["problems"] = len(league.all_problems())
        if self.spec.get("until") in ("import", "discover", "read", "normalise"):
            raise Stop

    def read_baselines(self) -> None:
        from python_calamine import CalamineWorkbook

        from reportgen.ingest import precheck
        from reportgen.ingest.discover import discover

        paths, _ = discover(self.inputs)
        self.facts["workbooks"] = len(paths)
        self.facts["workbook_bytes"] = sum(p.stat().st_size for p in paths)
        self.timeline.mark("_paths")
        for path in paths:
            book = CalamineWorkbook.from_path(str(path))
            for name in book.sheet_names:
                book.get_sheet_by_name(name).to_python()
        self.done("read: raw calamine")
        for path in paths:
            precheck.inspect(path)
        self.done("pre-check")

    def score(self) -> None:
        self.scored = self.pipeline.score(self.league)
        self.documents = [(slug, document) for slug, report in self.scored.reports.items()
                          for document in report.documents]
        self.facts["blocked"] = sorted(self.scored.blocked)
        self.facts["documents"] = len(self.documents)
        self.facts["bulletin_rows"] = [len(d.context.get("rows", [])) for _, d in self.documents]
        self.facts["annexes"] = sum(len(r.annexes) for r in self.scored.reports.values())
        self.league_name = self.league.settings.name
        self.done("score")
        baseline = self.spec.get("baseline_1x")
        if baseline:
            del self.league
            league = self.pipeline.load(Path(baseline), self.today)
            _stop_readers()
            self.facts["results_rows_1x"] = {slug: len(c.results) for slug, c in league.circuits.items() if c.events}
            self.timeline.mark("_load 1x")
            self.pipeline.score(league, ["grand-sud"])
            self.done("score: 1x grand-sud")

    def render(self) -> None:
        from reportgen.render import excel, html
        from reportgen.render import ranking as ranking_render

        self.pages = [html.render(document) for _, document in self.documents]
        self.facts["html_bytes"] = sum(len(page.encode("utf-8")) for page in self.pages)
        self.done("HTML")
        reports = self.scored.reports.items()
        self.csvs = {(slug, r.path): ranking_render.to_csv(r) for slug, report in reports for r in report.rankings}
        self.done("CSV")
        self.annexes = {(slug, a.path): excel.render_annex(a) for slug, report in reports for a in report.annexes}
        self.facts["xlsx_bytes"] = sum(len(data) for data in self.annexes.values())
        self.done("XLSX")

    def pdf(self) -> None:
        from reportgen.render import html, pdf

        pages, documents = self.pages, self.documents
        order = sorted(range(len(pages)), key=lambda i: (len(pages[i]), i))
        self.chosen = chosen = sorted(_sample(order, self.spec.get("pdf_sample", 0)))
        self.facts["pdf_documents"] = len(chosen)
        self.facts["pdf_sampled"] = len(chosen) < len(pages)
        work = [(pages[i], documents[i][1].date) for i in chosen]
        pdfs, how = _render_pool(pdf, work)
        self.rendered = dict(zip(chosen, pdfs))
        self.facts["pdf_bytes"] = sum(len(data) for data in pdfs)
        self.done("PDF, pool of 2", how=how, documents=len(chosen))
        if not self.spec.get("pdf_baselines", True):
            return
        import weasyprint

        self.done("PDF: import WeasyPrint")
        # One document after the other, reportgen's render_pdf and WeasyPrint alone in turn, the
        # first of the two alternating: both see the same state of this process (its heap grows).
        per_document = []
        templates = str(html.TEMPLATES) + "/"
        for k, (i, (page, day)) in enumerate(zip(chosen, work)):
            entry = {"document": documents[i][1].path, "circuit": documents[i][0],
                     "html_bytes": len(page.encode("utf-8")), "rows": len(documents[i][1].context.get("rows", []))}
            for which in (("render_pdf", "weasyprint") if k % 2 == 0 else ("weasyprint", "render_pdf")):
                start, cpu = time.perf_counter(), time.process_time()
                if which == "render_pdf":
                    pdf.render_pdf(page, day)
                else:
                    weasyprint.HTML(string=page, base_url=templates).write_pdf()
                entry[f"{which}_wall"] = round(time.perf_counter() - start, 3)
                entry[f"{which}_cpu"] = round(time.process_time() - cpu, 3)
                self.timeline.mark("PDF, one process" if which == "render_pdf" else "PDF, WeasyPrint alone")
            per_document.append(entry)
        self.out["pdf_documents"] = per_document
        if self.spec.get("until") in ("PDF, one process", "PDF, WeasyPrint alone"):
            raise Stop
        if self.facts["pdf_sampled"]:
            # Every bulletin's PDF from the sample: CPU seconds against HTML bytes, a straight line.
            intercept, slope = _fit([(e["html_bytes"], e["render_pdf_cpu"]) for e in per_document])
            serial = sum(max(intercept + slope * len(page.encode("utf-8")), 0.0) for page in pages)
            self.facts["pdf_estimate"] = {"documents": len(pages), "serial_cpu_s": round(serial, 1),
                                          "pool_wall_s": round(serial / 2, 1),  # both cores busy
                                          "cpu_s_per_html_mb": round(slope * 1e6, 2),
                                          "intercept_s": round(intercept, 3)}

    def publish(self) -> None:
        """Every file into an empty folder, as the build lays them out."""
        from reportgen import circuits
        from reportgen.render import index, mail

        self.outputs = outputs = self.work / "outputs"
        shutil.rmtree(outputs, ignore_errors=True)
        pages, rendered = self.pages, self.rendered
        by_size = sorted(rendered, key=lambda i: len(pages[i]))
        written, how = 0, ""
        for slug, report in self.scored.reports.items():
            folder = outputs / slug
            files: dict[Path, bytes] = {}
            info = circuits.REGISTRY[slug]
            manifest = folder / index.MANIFEST
            try:
                from reportgen.render.manifest import Manifest

                files[manifest] = Manifest.of(slug, info.title, f"« {info.regulation_title} »", report).to_json()
            except (AttributeError, TypeError, ImportError):
                pass  # the rebuild writes it
            for i, (owner, document) in enumerate(self.documents):
                if owner != slug:
                    continue
                files[folder / f"{document.path}.html"] = pages[i].encode("utf-8")
                # A PDF not rendered (a sample at 10x/100x): the real PDF of the nearest size stands in.
                nearest = i if i in rendered else min(by_size, key=lambda j: abs(len(pages[j]) - len(pages[i])))
                files[folder / f"{document.path}.pdf"] = rendered[nearest]
            for ranking in report.rankings:
                files[folder / f"{ranking.path}.csv"] = self.csvs[(slug, ranking.path)]
            for annex in report.annexes:
                files[folder / f"{annex.path}.xlsx"] = self.annexes[(slug, annex.path)]
            for message in report.messages:
                files[folder / f"{message.path}.eml"] = mail.to_eml(message)
            changed, how = _publish(self.pipeline, files, folder, manifest)
            written += len(changed)
        try:
            page = index.render_index(outputs, list(circuits.CIRCUITS), self.league_name, sorted(self.scored.blocked))
            (outputs / "index.html").write_bytes(page.encode("utf-8"))
        except (AttributeError, TypeError):
            pass  # the rebuild writes it
        self.done("publish", how=how, files=written)
        self.stand_ins = sorted((len(pages[i]), data) for i, data in rendered.items())
        shutil.rmtree(outputs)
        del self.pages, self.rendered, self.annexes, self.csvs, self.scored, self.documents
        self.timeline.mark("_free")

    def rebuilds(self) -> None:
        """`reportgen build` as a whole on a copy of the outputs a build left: with nothing changed,
        then with one more tournament. Those outputs come from a build whose PDF rendering is
        replaced by stand-ins (the real PDF of the nearest size rendered above), so that they are
        exactly what the build writes (its manifests record the PDFs it made) without rendering
        every PDF again."""
        from reportgen.render import pdf

        work, stand_ins = self.work, self.stand_ins

        def stand_in(item) -> bytes:
            page = item[0] if isinstance(item, tuple) else item
            return min(stand_ins, key=lambda known: abs(known[0] - len(page)))[1]

        built = work / "outputs-built"
        shutil.rmtree(built, ignore_errors=True)
        saved = {name: getattr(pdf, name) for name in ("render_many", "render_pdf") if hasattr(pdf, name)}
        pdf.render_many = lambda pages, *args, **kwargs: [stand_in(item) for item in pages]
        pdf.render_pdf = lambda page, *args, **kwargs: stand_in(page)
        try:
            facts = _build(self.pipeline, self.inputs, built, self.today, pdf_limit=10**9, warm=False)
        finally:
            for name, function in saved.items():
                setattr(pdf, name, function)
        self.done("build, PDF rendering left out", **facts)
        copy = work / "outputs-again"
        shutil.rmtree(copy, ignore_errors=True)
        shutil.copytree(built, copy)
        self.timeline.mark("_copy")
        self.done("rebuild, nothing changed", **_build(self.pipeline, self.inputs, copy, self.today, pdf_limit=0))
        self.done("rebuild, nothing changed, new process", **_fresh_process_build(self.inputs, copy, self.today))
        shutil.rmtree(copy)
        extra = self.spec.get("extra")
        if extra:
            grown = work / "inputs-grown"
            shutil.rmtree(grown, ignore_errors=True)
            shutil.copytree(self.inputs, grown)
            shutil.copytree(extra, grown, dirs_exist_ok=True)
            shutil.copytree(built, copy)
            self.timeline.mark("_copy")
            self.done("rebuild, one new tournament", **_build(self.pipeline, grown, copy, self.today, pdf_limit=8))
            shutil.rmtree(copy)
            shutil.copytree(built, copy)
            self.timeline.mark("_copy")
            self.done("rebuild, one new tournament, new process", **_fresh_process_build(grown, copy, self.today))
            shutil.rmtree(copy)
            shutil.rmtree(grown)
        shutil.rmtree(built)
        self.timeline.mark("_clean")


def main() -> None:
    warnings.simplefilter("ignore")  # WeasyPrint's deprecation notices: nothing to measure
    parser = argparse.ArgumentParser(prog="python -m benchmarks.measure", description=__doc__.split("\n\n")[0])
    parser.add_argument("spec", type=Path, help="the run's specification (JSON), as `python -m benchmarks` writes it")
    parser.add_argument("result", type=Path, help="where the run's result (JSON) is written")
    options = parser.parse_args()
    spec = json.loads(options.spec.read_text())
    result = Run(spec)()
    result["facts"]["loadavg_after"] = os.getloadavg()
    options.result.write_text(json.dumps(result, indent=1, default=str))


if __name__ == "__main__":
    main()
