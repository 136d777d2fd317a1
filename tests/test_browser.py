"""The HTML bulletins in a real browser (headless Chromium), as a club member opens them.

`make` installs Chromium (system-packages.txt): without it these tests fail and say so, since
`make test` would have installed it."""

import re
import shutil
import subprocess
from pathlib import Path

import pytest

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
PROBE = ('<script>document.body.setAttribute("data-probe", JSON.stringify({width: '
         'document.documentElement.scrollWidth, window: window.innerWidth, title: document.title, '
         'rows: document.querySelectorAll("tbody tr").length, links: document.querySelectorAll("a").length}))'
         '</script></body>')


def in_browser(page: Path, tmp_path: Path, width: int = 1280) -> dict:
    """Load a copy of the page with a probe script; Chromium runs it and we read its findings."""
    import json

    if CHROMIUM is None:
        pytest.fail("Chromium is not installed: run make (it installs system-packages.txt)")

    probe = page.with_name(f".probe-{page.name}")
    probe.write_text(page.read_text().replace("</body>", PROBE))
    result = subprocess.run(
        [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         f"--user-data-dir={tmp_path / 'profile'}", f"--window-size={width},900", "--dump-dom", probe.as_uri()],
        capture_output=True, text=True, timeout=120)
    probe.unlink()
    found = re.search(r'data-probe="([^"]*)"', result.stdout)
    assert found, result.stderr[-2000:]
    return json.loads(found[1].replace("&quot;", '"'))


@pytest.fixture
def outputs(small_league_built):
    return small_league_built.outputs


def test_a_bulletin_fits_a_laptop_screen_without_horizontal_scrolling(outputs, tmp_path):
    seen = in_browser(outputs / "grand-sud" / "2026" / "classement-2026-01-10.html", tmp_path)
    assert seen["width"] <= seen["window"]
    assert seen["title"].startswith("Classement après les tournois de Carcassonne et de Toulouse")
    assert seen["rows"] > 6  # the ranking, the latest points and the tournaments


def test_the_index_opens_with_a_link_to_every_publication(outputs, tmp_path):
    seen = in_browser(outputs / "index.html", tmp_path)
    # The CSV of a ranking without a bulletin (2026's final ranking while the season runs, issue 27)
    # is not linked: the index lists bulletins, each with its CSV.
    published = [p for p in outputs.rglob("*") if p.suffix in (".html", ".pdf", ".csv", ".xlsx")
                 and p.name != "index.html" and p.name != "classement-final-2026.csv"]
    assert seen["links"] == len(published) and seen["width"] <= seen["window"]
