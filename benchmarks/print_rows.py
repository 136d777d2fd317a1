"""One long Grand Sud bulletin to PDF: the HTML its PDF is rendered from (the top `bulletin_rows` rows,
render/html.py `render_print`) against its whole page (what was rendered to PDF before the eighth
round), each in a process of its own: CPU-s (user + sys) and peak resident memory of `render_pdf`.

    .venv/bin/python -m benchmarks.print_rows --scale 10            # the print HTML only
    .venv/bin/python -m benchmarks.print_rows --scale 10 --page     # and the whole page, for comparison

The league is read and scored once (pipeline.load, then pipeline.score of the Grand Sud, on the day
of benchmarks/targets.py), the bulletin with the most rows charted as a build charts it; the two HTML
files are kept in --work. At 100x, the whole page is thousands of rows (a PDF worker of 4 GB in
the seventh round): render it with --page only on a machine free for it.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

from benchmarks import leagues
from benchmarks.targets import build_day

ONE_PDF = """
import datetime as dt, hashlib, json, resource, sys
from pathlib import Path
from reportgen.render import pdf
page = Path(sys.argv[1]).read_text(encoding="utf-8")
before = resource.getrusage(resource.RUSAGE_SELF)
data = pdf.render_pdf(page, dt.date.fromisoformat(sys.argv[2]))
after = resource.getrusage(resource.RUSAGE_SELF)
print(json.dumps({"cpu": round(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime, 2),
                  "rss_peak_mib": round(after.ru_maxrss / 1024), "pdf_bytes": len(data),
                  "pdf_sha256": hashlib.sha256(data).hexdigest()}))
"""


def pages(scale: int, work: Path) -> dict:
    """The longest Grand Sud bulletin's page and print HTML, written to `work`."""
    from reportgen.pipeline import load, score
    from reportgen.render import html
    from reportgen.site import data as site_data
    from reportgen.site import figures

    report = score(load(leagues.ensure(scale, print), build_day(scale)), ["grand-sud"]).reports["grand-sud"]
    documents = figures.charted(report.documents, site_data.chart_records(report))
    document = max(documents, key=lambda d: (len(d.context.get("rows", [])), d.path))
    start = time.process_time()
    page = html.render(document).encode("utf-8")
    rendered = time.process_time()
    printed = html.render_print(document, page)  # what each build that runs redoes for such a bulletin
    done = time.process_time()
    work.mkdir(parents=True, exist_ok=True)
    (work / "page.html").write_bytes(page)
    (work / "print.html").write_bytes(printed)
    return {"document": document.path, "rows": len(document.context["rows"]), "date": document.date.isoformat(),
            "page_bytes": len(page), "print_bytes": len(printed),
            "page_html_cpu": round(rendered - start, 3), "print_html_cpu": round(done - rendered, 3)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=int, default=10)
    parser.add_argument("--work", type=Path, default=Path("/tmp/print-rows"))
    parser.add_argument("--page", action="store_true", help="render the whole page too")
    options = parser.parse_args()
    found = pages(options.scale, options.work)
    for name in ("print", "page") if options.page else ("print",):
        done = subprocess.run([sys.executable, "-c", ONE_PDF, str(options.work / f"{name}.html"), found["date"]],
                              capture_output=True, text=True, check=True)
        found[name] = json.loads(done.stdout)
    print(json.dumps(found, indent=1))


if __name__ == "__main__":
    main()
