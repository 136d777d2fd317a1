"""`check` on a workbook sent back as it was written (`reportgen template`) or half filled: everything
a club must fill said in one answer, each field with what to type."""

from __future__ import annotations

import shutil

import pytest

from reportgen.pipeline import load
from tests.builders import TODAY, write_clubs, write_workbook
from tests.test_delivery_mail import cli
from tests.test_templates import template


def said(inputs) -> list[str]:
    """Each problem of inputs/ as « sheet cell : message — fix »."""
    return sorted(f"{p.where.sheet} {p.where.cell or ''} : {p.message} — {p.fix}" for p in load(inputs, TODAY).all_problems())


@pytest.mark.parametrize("circuit", ["grand-sud", "tour-de-france"])
def test_a_blank_workbook_sent_back_untouched_is_told_its_empty_fields_and_its_empty_results_at_once(tmp_path,
                                                                                                    circuit):
    """A club sent back its blank workbook untouched: told its `Tournoi` sheet's empty fields only,
    it filled them and sent it again, to be told then that its `Résultats` sheet was empty: two
    rounds of mail for what one answer could say."""
    blank = template(tmp_path, circuit, "--club", "ALBI")
    shutil.copy(blank, tmp_path / "inputs" / "renvoye.xlsx")
    problems = said(tmp_path / "inputs")
    assert [p for p in problems if p.startswith("Tournoi B3 : le champ « Nom » est vide")], problems
    assert [p for p in problems if p.startswith("Résultats  : aucun résultat dans la feuille")], problems
    # each empty field with what to type, where its values are few or have a form
    assert "Tournoi B4 : le champ « Date » est vide — écrivez la date au format jj/mm/aaaa, par exemple 14/03/2026" \
        in problems, problems
    done = cli("check", "--inputs", str(tmp_path / "inputs"), "--outputs", str(tmp_path / "out"))
    assert "feuille « Résultats » : aucun résultat dans la feuille" in done.stderr + done.stdout, done


def test_a_results_sheet_with_a_wrong_row_is_not_called_empty(tmp_path):
    """The sheet's own problems still say it all: a row whose place is not one is no « aucun résultat »."""
    inputs = write_clubs(tmp_path / "inputs").parent
    write_workbook(inputs / "t.xlsx", {"Tournoi": [["Circuit", "grand-sud"], ["Nom", ""], ["Date", "14/03/2026"],
                                                   ["Club", "ALBI"], ["Formule", "duplicate"]],
                                       "Résultats": [["Place", "Nom", "Prénom", "Licence", "Club"],
                                                     ["premier", "DUPONT", "Jean", "", "Albi"]]})
    problems = said(inputs)
    assert not [p for p in problems if "aucun résultat" in p], problems
    assert [p for p in problems if p.startswith("Résultats A2 ")], problems


def test_an_empty_formula_or_type_field_says_what_to_type(tmp_path):
    """« le champ « Formule » est vide — remplissez-le »: with what? The values its circuit accepts,
    as a value it refuses says them."""
    inputs = write_clubs(tmp_path / "inputs").parent
    results = [["Place", "Nom", "Prénom", "Licence", "Club"], [1, "DUPONT", "Jean", "", "Albi"]]
    write_workbook(inputs / "gs.xlsx", {"Tournoi": [["Circuit", "grand-sud"], ["Nom", "Printemps"],
                                                    ["Date", "14/03/2026"], ["Club", "ALBI"], ["Formule", ""]],
                                        "Résultats": results})
    write_workbook(inputs / "tx.xlsx", {"Tournoi": [["Circuit", "tantrix"], ["Nom", "Open"], ["Date", "14/03/2026"],
                                                    ["Type", ""]],
                                        "Parties": [["Ronde", "Joueur A", "Joueur B", "Tuiles A", "Tuiles B"],
                                                    [1, "DUPONT Jean", "MARTIN Paul", 30, 20]]})
    problems = said(inputs)
    assert "Tournoi B5 : le champ « Formule » est vide — écrivez « poules » ou « duplicate »" in problems, problems
    assert ("Tournoi B4 : le champ « Type » est vide — écrivez « toutes-rondes » (chacun rencontre chacun) ou "
            "« élimination »") in problems, problems


@pytest.mark.parametrize("circuit", ["poules", "masters"])
def test_an_empty_date_says_its_format_in_every_circuit(tmp_path, circuit):
    """The shared `Tournoi` reader says how to write a date left empty, whichever circuit reads it (each
    circuit's parse passed it by hand, one forgetting it would say « remplissez-le »)."""
    inputs = write_clubs(tmp_path / "inputs").parent
    write_workbook(inputs / "t.xlsx", {"Tournoi": [["Circuit", circuit], ["Nom", "Coupe"], ["Date", ""]]})
    assert [p for p in said(inputs) if p.startswith("Tournoi B3 : le champ « Date » est vide — écrivez la date au "
                                                     "format jj/mm/aaaa")], said(inputs)
