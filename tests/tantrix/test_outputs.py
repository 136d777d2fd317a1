"""Issue 26, item 10: two Tantrix events of one day whose names share their first 60 characters
each get their own files, and the index links each to its own."""

import subprocess
import sys
from pathlib import Path

from reportgen.circuits.common import distinct_paths
from tests.tantrix.test_workbooks import round_robin, write_event

REPORTGEN = str(Path(sys.executable).parent / "reportgen")
COMMON = "Championnat régional de Tantrix en ligne des clubs d'Occitanie, "  # 66 characters


def test_two_events_whose_names_share_60_characters_get_their_own_files_and_links(tmp_path):
    inputs, outputs = tmp_path / "inputs", tmp_path / "outputs"
    write_event(inputs, COMMON + "poule A", round_robin(("MOREAU Lucie", "FAURE Stéphane", 27, 19)), file="a")
    write_event(inputs, COMMON + "poule B", round_robin(("GARCIA Luis", "ROUX Anne", 25, 30)), file="b")
    built = subprocess.run([REPORTGEN, "build", "--inputs", str(inputs), "--outputs", str(outputs)],
                           capture_output=True, text=True)
    assert built.returncode == 0, built.stderr
    pages = sorted((outputs / "tantrix" / "2026").glob("2026-03-14-*.html"))
    assert len(pages) == 2, pages
    texts = {page.name: page.read_text(encoding="utf-8") for page in pages}
    assert sorted("MOREAU" in text for text in texts.values()) == [False, True]
    assert sorted("GARCIA" in text for text in texts.values()) == [False, True]
    index = (outputs / "site" / "tantrix-2026.html").read_text(encoding="utf-8")
    for name, text in texts.items():
        poule = "poule A" if "MOREAU" in text else "poule B"
        row = index[index.index(f"{poule}</td>"):].split("</tr>", 1)[0]
        assert f'href="../tantrix/2026/{name}"' in row, (poule, row)


def test_distinct_paths_adds_a_stable_suffix_only_to_paths_that_meet():
    paths = distinct_paths([("2026/x", "X long A"), ("2026/x", "X long B"), ("2026/y", "Y"), ("2026/x", "X long B")])
    assert paths[2] == "2026/y" and len(set(paths)) == 4
    assert paths[:2] == distinct_paths([("2026/x", "X long A"), ("2026/x", "X long B")])
    assert paths[0].startswith("2026/x-") and len(paths[0]) == len("2026/x-") + 6
