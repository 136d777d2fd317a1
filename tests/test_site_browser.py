"""The site in headless Chromium (issue 24): a ranking page on a 390 px phone shows place, player,
points and evolution without sideways scrolling; the search box and the sortable tables work from
the file system, with no server."""

import json
import re
import subprocess
from pathlib import Path

import pytest

from tests.test_browser import CHROMIUM


def run_in_chromium(page: Path, tmp_path: Path, script: str, width: int = 1280) -> dict:
    """Load a copy of the page (beside it, so that its relative links hold) with `script` appended;
    the script leaves its findings as JSON in the body's data-probe attribute."""
    if CHROMIUM is None:
        pytest.fail("Chromium is not installed: run make (it installs system-packages.txt)")
    probe = page.with_name(f".probe-{page.name}")
    probe.write_text(page.read_text(encoding="utf-8").replace("</body>", f"<script>{script}</script></body>"),
                     encoding="utf-8")
    try:
        result = subprocess.run(
            [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
             "--disable-background-networking", "--disable-component-update", "--disable-sync",
             f"--user-data-dir={tmp_path / 'profile'}", f"--window-size={width},900", "--dump-dom", probe.as_uri()],
            capture_output=True, text=True, timeout=120)
    finally:
        probe.unlink()
    found = re.search(r'data-probe="([^"]*)"', result.stdout)
    assert found, result.stderr[-2000:]
    return json.loads(found[1].replace("&quot;", '"').replace("&amp;", "&"))


def in_a_frame(page: Path, tmp_path: Path, width: int) -> dict:
    """The page in a frame `width` pixels wide (headless Chromium's window is never narrower than
    500 px): its scrolling width, its own width, the headers of its ranking that show."""
    frame = page.with_name(f".frame-{page.name}")
    frame.write_text(f"""<!DOCTYPE html><html><body style="margin:0">
<iframe id="f" src="{page.name}" style="width:{width}px;height:800px;border:0"></iframe><script>
document.getElementById("f").addEventListener("load", function () {{
  var d = this.contentDocument;
  var shown = Array.prototype.filter.call(d.querySelectorAll("table.ranking thead th"),
    function (th) {{ return th.offsetWidth > 0; }}).map(function (th) {{ return th.textContent; }});
  document.body.setAttribute("data-probe", JSON.stringify({{width: d.documentElement.scrollWidth,
    window: this.contentWindow.innerWidth, shown: shown}}));
}});
</script></body></html>""", encoding="utf-8")
    try:
        result = subprocess.run(
            [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--allow-file-access-from-files",
             "--disable-background-networking", "--disable-component-update", "--disable-sync",
             f"--user-data-dir={tmp_path / 'profile'}", "--window-size=1000,900", "--virtual-time-budget=5000",
             "--dump-dom", frame.as_uri()], capture_output=True, text=True, timeout=120)
    finally:
        frame.unlink()
    found = re.search(r'data-probe="([^"]*)"', result.stdout)
    assert found, result.stderr[-2000:]
    return json.loads(found[1].replace("&quot;", '"'))


def test_a_ranking_page_fits_a_phone_with_place_player_points_and_evolution(small_league_built, tmp_path):
    page = small_league_built.outputs / "site" / "grand-sud-2026.html"
    seen = in_a_frame(page, tmp_path, 390)
    assert seen["width"] <= seen["window"] == 390
    assert seen["shown"] == ["Place", "Joueur", "Total", "Évol."]
    assert "Club" in in_a_frame(page, tmp_path, 900)["shown"]  # the other columns on a wider screen


SEARCH_AND_SORT = """
var input = document.getElementById("recherche");
input.value = "leger zoe";
input.dispatchEvent(new Event("input"));
var found = Array.prototype.map.call(document.querySelectorAll("#resultats a"),
  function (a) { return [a.textContent, a.getAttribute("href")]; });
var table = document.querySelector("table.ranking");
var header = table.querySelectorAll("thead th")[1];
header.click();
var names = Array.prototype.map.call(table.querySelectorAll("tbody th"), function (th) { return th.textContent; });
document.body.setAttribute("data-probe", JSON.stringify({found: found, hidden: input.form.hidden, names: names,
  sort: header.getAttribute("aria-sort")}));
"""


def test_the_search_finds_a_player_by_part_of_his_name_and_a_header_sorts_its_table(small_league_built, tmp_path):
    outputs = small_league_built.outputs
    seen = run_in_chromium(outputs / "site" / "grand-sud-2025.html", tmp_path, SEARCH_AND_SORT)
    assert not seen["hidden"]
    assert [name for name, _ in seen["found"]] == ["LÉGER Zoé (joueur)"]
    assert (outputs / "site" / seen["found"][0][1]).is_file()
    assert seen["sort"] == "ascending" and seen["names"] == sorted(seen["names"], key=str.casefold)
