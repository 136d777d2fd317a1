"""Issue 26, item 12: what Excel hides and reportgen reads all the same (hidden rows, a hidden or
veryHidden sheet) is counted, and said: a notice naming the file, the sheet and the rows."""

import subprocess
import sys
from pathlib import Path

import openpyxl

from reportgen.pipeline import load
from tests.builders import TODAY, write_clubs, write_tournament

REPORTGEN = str(Path(sys.executable).parent / "reportgen")
PLAYERS = [[place, f"JOUEUR{place}", "Jean", "", "Carcassonne"] for place in range(1, 9)]


def hide(path: Path, rows: tuple[int, ...] = (), state: str = "visible") -> None:
    book = openpyxl.load_workbook(path)
    sheet = book["Résultats"]
    for row in rows:
        sheet.row_dimensions[row].hidden = True
    sheet.sheet_state = state
    book.save(path)


def test_hidden_rows_are_counted_and_said_with_their_numbers(tmp_path):
    write_clubs(tmp_path)
    hide(write_tournament(tmp_path, "a", results=PLAYERS), rows=(5, 6, 7, 9, 20))  # row 20 is empty
    league = load(tmp_path, TODAY)
    assert league.all_problems() == []
    assert len(league.circuits["grand-sud"].results) == 8  # counted, as before
    assert ("a.xlsx : les lignes 5 à 7 et 9 de la feuille « Résultats » sont masquées dans Excel et comptées "
            "(affichez-les pour les vérifier, ou supprimez-les si elles ne doivent pas compter)") in league.notices


def test_one_hidden_row_is_said_in_the_singular(tmp_path):
    write_clubs(tmp_path)
    hide(write_tournament(tmp_path, "a", results=PLAYERS), rows=(4,))
    assert [n for n in load(tmp_path, TODAY).notices if "masquée" in n] == [
        "a.xlsx : la ligne 4 de la feuille « Résultats » est masquée dans Excel et comptée (affichez-les pour les "
        "vérifier, ou supprimez-les si elles ne doivent pas compter)"]


def test_a_very_hidden_results_sheet_is_counted_and_said_by_check_and_build(tmp_path):
    inputs = tmp_path / "inputs"
    write_clubs(inputs)
    hide(write_tournament(inputs, "a", results=PLAYERS), state="veryHidden")
    said = "a.xlsx : la feuille « Résultats » est masquée dans Excel ; ses 9 lignes remplies sont comptées"
    checked = subprocess.run([REPORTGEN, "check", "--inputs", str(inputs), "--outputs", str(tmp_path / "check")],
                             capture_output=True, text=True)
    assert checked.returncode == 0, checked.stderr
    assert said in checked.stderr
    built = subprocess.run([REPORTGEN, "build", "--inputs", str(inputs), "--outputs", str(tmp_path / "outputs")],
                           capture_output=True, text=True)
    assert built.returncode == 0, built.stderr
    assert said in built.stderr


def test_nothing_is_said_of_a_workbook_with_nothing_hidden_or_a_hidden_sheet_not_read(tmp_path):
    write_clubs(tmp_path)
    path = write_tournament(tmp_path, "a", results=PLAYERS)
    book = openpyxl.load_workbook(path)
    book.create_sheet("Brouillon").append(["rien", "à", "lire"])
    book["Brouillon"].sheet_state = "hidden"
    book.save(path)
    assert not [n for n in load(tmp_path, TODAY).notices if "masqué" in n]
