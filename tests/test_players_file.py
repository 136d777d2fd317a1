"""Issue 26, item 9: `reportgen players merge` edits inputs/joueurs.xlsx as the secretary keeps it:
formulas keep their values, an open or read-only file is refused, one writer at a time, its
permissions and its symbolic link are kept."""

import os
import stat
import subprocess
import sys
import zipfile
from pathlib import Path

import openpyxl
import xlsxwriter

from tests.builders import write_clubs, write_tournament

REPORTGEN = str(Path(sys.executable).parent / "reportgen")


def league(inputs: Path) -> Path:
    """Two tournaments with two spellings each to merge, and her joueurs.xlsx whose licence is a formula."""
    write_clubs(inputs)
    write_tournament(inputs, "a", day="10/01/2026", results=[[1, "ROUSSEAU", "Françoise", "", "Perpignan"],
                                                             [2, "LOPEZ", "Thierry", "", "Nîmes"]])
    write_tournament(inputs, "b", day="07/02/2026", results=[[1, "ROUSSAU", "Françoise", "", "Perpignan"],
                                                             [2, "LOPES", "Thierry", "", "Nîmes"]])
    written = inputs / "written.xlsx"
    book = xlsxwriter.Workbook(str(written))
    sheet = book.add_worksheet("Joueurs")
    sheet.write_row(0, 0, ["Licence", "Nom", "Prénom", "Club", "Autres graphies"])
    sheet.write_formula(1, 0, "=11000+463", None, 11463)
    sheet.write_row(1, 1, ["MARTIN", "Paul", "Albi"])
    book.close()
    # As Excel saves it: the formula, the value it computed, and no "recompute on opening" flag
    # (XlsxWriter's, which says the values are placeholders).
    path = inputs / "joueurs.xlsx"
    with zipfile.ZipFile(written) as source, zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as target:
        for info in source.infolist():
            target.writestr(info, source.read(info).replace(b' fullCalcOnLoad="1"', b""))
    written.unlink()
    return path


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([REPORTGEN, *args], capture_output=True, text=True)


def merge(inputs: Path, player: str = "ROUSSEAU Françoise", spelling: str = "ROUSSAU Françoise"):
    return run("players", "merge", player, spelling, "--inputs", str(inputs))


def test_a_formula_licence_keeps_its_formula_and_its_value_and_passes_check_after_a_merge(tmp_path):
    path = league(tmp_path)
    # check's page goes beside the inputs, not into the repository's outputs/ (the working directory)
    outputs = ("--outputs", str(tmp_path.parent / f"{tmp_path.name}-outputs"))
    before = run("check", "--inputs", str(tmp_path), *outputs)
    assert before.returncode == 0, before.stderr
    merged = merge(tmp_path)
    assert merged.returncode == 0, merged.stderr
    after = run("check", "--inputs", str(tmp_path), *outputs)
    assert after.returncode == 0, after.stderr
    assert openpyxl.load_workbook(path)["Joueurs"]["A2"].value == "=11000+463"
    assert openpyxl.load_workbook(path, data_only=True)["Joueurs"]["A2"].value == 11463
    assert openpyxl.load_workbook(path)["Joueurs"]["E3"].value == "ROUSSAU Françoise"


def test_a_workbook_open_in_excel_or_libreoffice_is_refused_and_left_as_it_is(tmp_path):
    path = league(tmp_path)
    before = path.read_bytes()
    for lock in ("~$joueurs.xlsx", ".~lock.joueurs.xlsx#"):
        (tmp_path / lock).write_bytes(b"")
        merged = merge(tmp_path)
        assert merged.returncode == 1
        assert f"joueurs.xlsx est ouvert dans Excel ou LibreOffice ({lock} est à côté) : fermez-le" in merged.stderr
        assert "Traceback" not in merged.stderr and path.read_bytes() == before
        (tmp_path / lock).unlink()


def test_a_read_only_workbook_is_refused_and_stays_read_only(tmp_path):
    path = league(tmp_path)
    path.chmod(0o444)
    before = path.read_bytes()
    merged = merge(tmp_path)
    assert merged.returncode == 1
    assert "joueurs.xlsx est en lecture seule : retirez sa protection en écriture" in merged.stderr
    assert path.read_bytes() == before and stat.S_IMODE(path.stat().st_mode) == 0o444


def test_a_symbolic_link_is_written_through_and_the_file_keeps_its_permissions(tmp_path):
    inputs, shared = tmp_path / "inputs", tmp_path / "partage"
    shared.mkdir()
    target = league(inputs).rename(shared / "annuaire.xlsx")
    target.chmod(0o600)
    (inputs / "joueurs.xlsx").symlink_to(target)
    merged = merge(inputs)
    assert merged.returncode == 0, merged.stderr
    assert (inputs / "joueurs.xlsx").is_symlink() and os.readlink(inputs / "joueurs.xlsx") == str(target)
    assert stat.S_IMODE(target.stat().st_mode) == 0o600
    assert openpyxl.load_workbook(target)["Joueurs"]["E3"].value == "ROUSSAU Françoise"


def test_two_merges_at_once_both_land(tmp_path):
    path = league(tmp_path)
    both = [subprocess.Popen([REPORTGEN, "players", "merge", player, spelling, "--inputs", str(tmp_path)],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            for player, spelling in (("ROUSSEAU Françoise", "ROUSSAU Françoise"), ("LOPEZ Thierry", "LOPES Thierry"))]
    for process in both:
        _, stderr = process.communicate(timeout=60)
        assert process.returncode == 0, stderr
    spellings = {row[4].value for row in openpyxl.load_workbook(path)["Joueurs"].iter_rows(min_row=2)}
    assert {"ROUSSAU Françoise", "LOPES Thierry"} <= spellings
