"""A Grand Sud `Résultats` sheet without a `Club` column passed `check` in silence: each `Club` cell may
be left empty (docs/formats.md), but a whole column missing is more likely forgotten than meant, and its
players were ranked without their clubs. It is a warning (the ranking is right, only the club can fill
the column), located where the column goes, with its fix; the workbook is read and its results count."""

from __future__ import annotations

import json

from tests.builders import write_clubs, write_tournament
from tests.test_cell_places import check


def test_a_results_sheet_without_a_club_column_is_a_located_warning_with_its_fix(tmp_path):
    inputs = tmp_path / "inputs"
    write_clubs(inputs)
    write_tournament(inputs, "2026-03-14-carcassonne", header=["Place", "Nom", "Prénom", "Licence", "Remarque"],
                     results=[[1, "DUPONT", "Jean", "1001", ""], [2, "MARTIN", "Paul", "1002", "arrivé en retard"]])
    said = check(inputs, "--format", "json")
    assert said.returncode == 0, said.stderr  # a warning blocks nothing
    problems = json.loads(said.stdout)["problems"]
    assert [(p["code"], p["level"], p["sheet"], p["cell"]) for p in problems] == [
        ("missing-club-column", "warning", "Résultats", "F1")]  # right of the last header, « Remarque »
    assert problems[0]["fix"].startswith("ajoutez une colonne « Club » à la ligne d’en-têtes")


def test_a_club_column_with_empty_cells_says_nothing(tmp_path):
    inputs = tmp_path / "inputs"
    write_clubs(inputs)
    write_tournament(inputs, "2026-03-14-carcassonne", results=[[1, "DUPONT", "Jean", "1001", ""],
                                                                [2, "MARTIN", "Paul", "1002", "Albi"]])
    said = check(inputs, "--format", "json")
    assert said.returncode == 0 and json.loads(said.stdout)["problems"] == []
