"""The one PDF a new tournament renders: the Grand Sud bulletin of the day of `benchmarks/leagues/<scale>x.extra`,
its print HTML (render/html.py `render_print`: the top `bulletin_rows` rows, one column of results in
place of a grid wider than `bulletin_columns`) to PDF in a process of its own: CPU-s (user + sys),
peak resident memory, pages. `--ranking` also times the same HTML without its table of tournaments
(the part of the bulletin the rows and columns settings shape).

    .venv/bin/python -m benchmarks.new_bulletin --scale 100 --runs 2 --ranking

The league and its extra tournament are copied to --work (a league is never built in place), read
and scored as a build on the day of benchmarks/targets.py, the bulletin charted as a build charts it;
its page and print HTML are kept in --work.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
from pathlib import Path

from benchmarks import leagues
from benchmarks.print_rows import ONE_PDF
from benchmarks.targets import build_day

PAGES = "from pypdf import PdfReader; print(len(PdfReader(sys.argv[1]).pages))"


def pages(scale: int, work: Path) -> dict:
    from reportgen.pipeline import load, score
    from reportgen.render import html
    from reportgen.site import data as site_data
    from reportgen.site import figures

    grown = work / "inputs"
    if not grown.exists():
        shutil.copytree(leagues.ensure(scale, print), grown)
        shutil.copytree(leagues.extra_folder(scale), grown, dirs_exist_ok=True)
    extra_day = max(path.name[:10] for path in leagues.extra_folder(scale).rglob("*.xlsx"))
    report = score(load(grown, build_day(scale)), ["grand-sud"]).reports["grand-sud"]
    documents = figures.charted(report.documents, site_data.chart_records(report))
    document = next(d for d in documents if d.path.endswith(f"classement-{extra_day}"))
    page = html.render(document).encode("utf-8")
    printed = html.render_print(document, page)
    (work / "page.html").write_bytes(page)
    (work / "print.html").write_bytes(printed)
    text = printed.decode("utf-8")  # the bulletin without its table of tournaments (and their sentences)
    start = text.index('<section class="section">\n<h2>Tournois</h2>')
    (work / "ranking.html").write_text(text[:start] + text[text.index("</section>", start) + 10:], encoding="utf-8")
    return {"document": document.path, "date": document.date.isoformat(), "rows": len(document.context["rows"]),
            "columns": len(document.context["columns"]), "page_bytes": len(page), "print_bytes": len(printed)}


def one_pdf(html_path: Path, date: str) -> dict:
    done = subprocess.run([sys.executable, "-c", ONE_PDF.replace(
        "print(json.dumps(", "Path(sys.argv[1]).with_suffix('.pdf').write_bytes(data); print(json.dumps("),
        str(html_path), date], capture_output=True, text=True, check=True)
    found = json.loads(done.stdout)
    counted = subprocess.run([sys.executable, "-c", "import sys; " + PAGES, str(html_path.with_suffix(".pdf"))],
                             capture_output=True, text=True, check=True)
    return {**found, "pages": int(counted.stdout)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=int, default=10)
    parser.add_argument("--work", type=Path, default=Path("/tmp/new-bulletin"))
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--ranking", action="store_true", help="time it without its table of tournaments too")
    options = parser.parse_args()
    work = options.work / f"{options.scale}x"
    work.mkdir(parents=True, exist_ok=True)
    found = pages(options.scale, work)
    names = ("print", "ranking") if options.ranking else ("print",)
    for name in names:
        found[name] = [one_pdf(work / f"{name}.html", found["date"]) for _ in range(options.runs)]
    print(json.dumps(found, indent=1))


if __name__ == "__main__":
    main()
