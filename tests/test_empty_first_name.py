"""A `Prénom` left empty (INTERPRETATIONS.md, « who is who »; docs/formats.md, « Names »): a `Nom`
that holds « DUPONT Jean » is a name in one cell, read as a `Joueur` cell is (the surname in capitals),
so the same player as DUPONT | Jean, printed so. Every sheet that reads `Nom` and `Prénom` (grand-sud
and tour-de-france `Résultats`, the Masters' `Désistements`, a pool tournament's `Inscrits`,
joueurs.xlsx) reads them through `Table.read_name`."""

from pathlib import Path

import openpyxl
from hypothesis import given
from hypothesis import strategies as st

from reportgen.ingest.tables import FIRST_NAME, LAST_NAME, LICENCE, PLACE, find_table
from reportgen.ingest.text import format_name, name_key
from reportgen.ingest.workbook import Sheet, Workbook
from reportgen.pipeline import load, score
from tests.builders import TODAY, write_clubs, write_tournament, write_workbook
from tests.test_names import word

SURNAME = st.lists(word, min_size=1, max_size=2).map(lambda words: " ".join(w.upper() for w in words))
FIRST_NAME_TYPED = st.lists(word, min_size=1, max_size=2).map(lambda words: " ".join(w.title() for w in words))


def table_of(rows: list[list[object]], header=("Place", "Nom", "Prénom")):
    sheet = Sheet("Résultats", [list(header), *rows])
    table = find_table(Workbook(Path("t.xlsx"), "t.xlsx", [sheet]), sheet, [PLACE, LAST_NAME, FIRST_NAME, LICENCE])
    assert table is not None
    return table


def read(table) -> tuple[list[tuple[str | None, str]], list[str]]:
    problems: list = []
    names = [table.read_name(row, problems)[:2] for row in table.rows]
    return names, [str(p) for p in problems]


@given(SURNAME, FIRST_NAME_TYPED)
def test_a_nom_holding_nom_and_prenom_beside_an_empty_prenom_is_the_player_of_nom_and_prenom(last, first):
    names, problems = read(table_of([[1, f"{last} {first}", ""], [2, f"{first} {last}", None], [3, last, first]]))
    assert problems == []
    assert names == [(last, first)] * 3
    # the same player, printed the same: « DUPONT Jean », never « DUPONT JEAN »
    assert {name_key(*name) for name in names} == {name_key(last, first)}
    assert {format_name(*name) for name in names} == {format_name(last, first)}


def test_a_comma_in_nom_beside_an_empty_prenom_splits_it_as_in_a_joueur_cell():
    names, problems = read(table_of([[1, "Dupont, Jean", ""]]))
    assert names == [("Dupont", "Jean")] and problems == []


# -- through the real reading of real workbooks ----------------------------------------------------

def test_grand_sud_nom_dupont_jean_with_an_empty_prenom_is_dupont_jean_everywhere(tmp_path):
    write_clubs(tmp_path)
    write_tournament(tmp_path, "a", day="10/01/2026", results=[
        [1, "DUPONT Jean", "", "", "Carcassonne"], [2, "Anne DURAND", None, "", "Toulouse"]])
    write_tournament(tmp_path, "b", day="07/02/2026", results=[
        [1, "MARTIN", "Paul", "", "Albi"], [2, "DUPONT", "Jean", "", "Carcassonne"], [3, "DURAND", "Anne", "", "Toulouse"]])
    league = load(tmp_path, TODAY)
    assert league.all_problems() == [] and league.warnings == []
    results = league.circuits["grand-sud"].results
    assert sorted(set(results["player"])) == ["DUPONT Jean", "DURAND Anne", "MARTIN Paul"]
    assert results.groupby("player")["player_id"].nunique().to_dict() == {
        "DUPONT Jean": 1, "DURAND Anne": 1, "MARTIN Paul": 1}
    assert set(results[results["source_file"] == "a.xlsx"]["typed"]) == {"DUPONT Jean", "DURAND Anne"}
    ranking = score(league, ["grand-sud"]).reports["grand-sud"].rankings[-1]
    assert {row.player for row in ranking.rows} == {"DUPONT Jean", "DURAND Anne", "MARTIN Paul"}


def test_the_player_directory_reads_an_empty_prenom_as_the_workbooks_do(tmp_path):
    write_clubs(tmp_path)
    write_tournament(tmp_path, "a", day="10/01/2026", results=[
        [1, "DUPONT", "Jean", "", "Carcassonne"], [2, "MARTIN", "Paul", "", "Albi"]])
    write_workbook(tmp_path / "joueurs.xlsx", {"Joueurs": [
        ["Licence", "Nom", "Prénom", "Club", "Autres graphies"], ["", "DUPONT Jean", "", "", "Dupont J."]]})
    league = load(tmp_path, TODAY)
    assert league.all_problems() == []
    assert set(league.circuits["grand-sud"].results["player"]) == {"DUPONT Jean", "MARTIN Paul"}


def test_players_merge_finds_the_directory_row_whose_nom_holds_prenom_nom(tmp_path):
    from reportgen.render.directory import add_spelling

    path = write_workbook(tmp_path / "joueurs.xlsx", {"Joueurs": [
        ["Licence", "Nom", "Prénom", "Club", "Autres graphies"], ["", "Jean DUPONT", "", "", ""]]})
    add_spelling(path, "DUPONT Jean", "DUPOND Jean")
    assert [[c.value for c in row] for row in openpyxl.load_workbook(path)["Joueurs"].iter_rows()][1:] == [
        [None, "Jean DUPONT", None, None, "DUPOND Jean"]]
