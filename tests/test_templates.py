"""Blank workbooks for the clubs (`reportgen template`): lists, input help, the club list, an
example; filled in as a club would, they pass `reportgen check` with no problem."""

import datetime as dt
import subprocess
import sys
from pathlib import Path

import openpyxl
import pytest

from tests.builders import write_clubs

REPORTGEN = str(Path(sys.executable).parent / "reportgen")


def template(tmp_path, circuit, *options) -> Path:
    inputs = tmp_path / "inputs"
    write_clubs(inputs)
    done = subprocess.run([REPORTGEN, "template", circuit, *options, "--inputs", str(inputs),
                           "--outputs", str(tmp_path / "out")], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return next((tmp_path / "out" / "modeles").iterdir())


def test_the_grand_sud_workbook_has_lists_help_the_clubs_and_an_example(tmp_path):
    path = template(tmp_path, "grand-sud", "--club", "CARC")
    assert path.name == "modele-grand-sud-carc.xlsx"
    book = openpyxl.load_workbook(path)
    assert book.sheetnames == ["Tournoi", "Résultats", "Exemple", "Clubs"]
    fields = {row[0]: row[1] for row in book["Tournoi"].iter_rows(min_row=2, values_only=True)}
    assert fields["Circuit"] == "grand-sud" and fields["Club"] == "CARC" and fields["Lieu"] == "Carcassonne"
    checks = {str(v.sqref): (v.type, v.formula1, v.prompt) for v in book["Résultats"].data_validations.dataValidation}
    assert checks["A2:A301"][:2] == ("whole", "1") and checks["E2:E301"] == (
        "list", "Clubs!$B$2:$B$8", "Le club du joueur, tel que l'annuaire le nomme.")
    formule = next(v for v in book["Tournoi"].data_validations.dataValidation if str(v.sqref) == "B7")
    assert formule.type == "list" and formule.formula1 == '"poules,duplicate"'
    assert [c.value for c in book["Exemple"][2]] == [1, "DUPONT", "Jean", "12345", "Carcassonne", 3]
    assert book["Clubs"].max_row == 8  # the header and the league's 7 clubs


@pytest.mark.parametrize("circuit", ["grand-sud", "tour-de-france"])
def test_a_filled_template_passes_check(tmp_path, circuit):
    path = template(tmp_path, circuit)
    book = openpyxl.load_workbook(path)
    fields = {row[0].value: row[1] for row in book["Tournoi"].iter_rows(min_row=2)}
    fields["Nom"].value, fields["Date"].value = "Tournoi d'essai", dt.datetime(2026, 3, 14)
    if circuit == "grand-sud":
        fields["Club"].value, fields["Formule"].value = "ALBI", "duplicate"
        rows = [[1, "DUPONT", "Jean", "1001", "Albi"], [2, "MARTIN", "Paul", "", "Nîmes"]]
    else:
        rows = [[1, "DUPONT", "Jean", ""], [2, "MARTIN", "Paul", "oui"], [2, "DURAND", "Anne", ""]]
    for row in rows:
        book["Résultats"].append(row)
    book.save(tmp_path / "inputs" / "essai.xlsx")
    done = subprocess.run([REPORTGEN, "check", "--inputs", str(tmp_path / "inputs"), "--outputs", str(tmp_path / "out")],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert "1 tournoi(s) lu(s), aucun problème." in done.stdout


def test_a_circuit_without_a_blank_workbook_says_which_have_one(tmp_path):
    done = subprocess.run([REPORTGEN, "template", "masters", "--inputs", str(tmp_path)], capture_output=True, text=True)
    assert done.returncode == 2 and "grand-sud, tour-de-france" in done.stderr
