"""The bump chart drawn by hand (reportgen/site/chart.py) and by matplotlib, measured as
docs/performance.md reports: time per chart, bytes, and whether two runs (two processes) give the
same bytes. matplotlib is not a dependency: install it in a scratch venv to compare
(`.venv/bin/pip install matplotlib`, then uninstall it), and run
`.venv/bin/python -m benchmarks.charts outputs/grand-sud/site.json`."""

from __future__ import annotations

import hashlib
import io
import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from reportgen.site import figures


def latest_season(path: Path) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    records = json.loads(path.read_text(encoding="utf-8"))["rankings"]
    season = [r for r in records if r["kind"] == "season"]
    return records, max(season, key=lambda r: (r["date"], r["status"] == "final"))


def by_hand(records: list[dict[str, Any]], current: dict[str, Any]) -> bytes:
    figure = figures.bump(records, current)
    assert figure is not None
    return str(figure["svg"]).encode("utf-8")


def by_matplotlib(records: list[dict[str, Any]], current: dict[str, Any], settled: bool) -> bytes:
    """The same chart with matplotlib's SVG backend; `settled`: told to be deterministic (no date,
    a fixed hash salt, text as text rather than paths)."""
    import matplotlib

    matplotlib.use("svg")
    from matplotlib import pyplot

    figure = figures.bump(records, current)
    assert figure is not None
    days, rows = figure["table"]["columns"], figure["table"]["rows"]
    if settled:
        matplotlib.rcParams["svg.hashsalt"] = "reportgen"
        matplotlib.rcParams["svg.fonttype"] = "none"
    fig, axes = pyplot.subplots(figsize=(5.6, 4.4))
    for number, row in enumerate(rows):
        points = [(index, int(cell)) for index, cell in enumerate(row["cells"]) if cell != "—"]
        axes.plot([x for x, _ in points], [min(y, 21) for _, y in points], marker="osv^D"[number % 5])
        axes.annotate(f"{points[-1][1]}. {row['head']}", (len(days) - 1, points[-1][1]), xytext=(8, 0),
                      textcoords="offset points", va="center")
    axes.invert_yaxis()
    axes.set_xticks(range(len(days)), days)
    out = io.BytesIO()
    fig.savefig(out, format="svg", metadata={"Date": None} if settled else None)
    pyplot.close(fig)
    return out.getvalue()


def measure(path: Path, how: str, runs: int = 20) -> dict[str, Any]:
    records, current = latest_season(path)
    draw = {"hand": lambda: by_hand(records, current),
            "matplotlib": lambda: by_matplotlib(records, current, False),
            "matplotlib-settled": lambda: by_matplotlib(records, current, True)}[how]
    data = draw()  # the first one imports and warms up
    start = time.perf_counter()
    for _ in range(runs):
        draw()
    return {"ms": round((time.perf_counter() - start) / runs * 1000, 3), "bytes": len(data),
            "sha": hashlib.sha256(data).hexdigest()[:16]}


def main() -> None:
    path = Path(sys.argv[1])
    if len(sys.argv) > 2:  # a child: one measure, as JSON
        print(json.dumps(measure(path, sys.argv[2])))
        return
    for how in ("hand", "matplotlib", "matplotlib-settled"):
        runs = [json.loads(subprocess.run([sys.executable, "-m", "benchmarks.charts", str(path), how],
                                          capture_output=True, text=True, check=True).stdout) for _ in range(2)]
        print(f"{how:20} {runs[0]['ms']:8} ms/chart {runs[0]['bytes']:7} bytes  "
              f"same bytes in two processes: {runs[0]['sha'] == runs[1]['sha']}")


if __name__ == "__main__":
    main()
