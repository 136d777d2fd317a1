"""A `Prénom` left empty (INTERPRETATIONS.md, « who is who »; docs/formats.md, « Players »): a `Nom`
that holds « DUPONT Jean » is a name in one cell, read as a `Joueur` cell is (the surname in capitals),
so the same player as DUPONT | Jean, printed so; a `Nom` holding a surname alone is kept, with a
located warning that two players of that name so typed would be one. Every sheet that reads `Nom` and
`Prénom` (grand-sud and tour-de-france `Résultats`, the Masters' `Désistements`, a pool tournament's
`Inscrits`, joueurs.xlsx) reads them through `Table.read_name`."""

from pathlib import Path

import openpyxl
from hypothesis import given
from hypothesis import strategies as st

from reportgen.french import of_person
from reportgen.ingest.tables import FIRST_NAME, LAST_NAME, LICENCE, PLACE, find_table
from reportgen.ingest.text import format_name, name_key
from reportgen.ingest.workbook import Sheet, Workbook
from reportgen.model import Entry
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


@given(st.lists(word, min_size=1, max_size=3), st.sampled_from([str.upper, str.title, str.lower]))
def test_a_nom_in_one_case_beside_an_empty_prenom_is_kept_as_typed_and_said(words, case):
    typed = " ".join(case(w) for w in words)
    names, problems = read(table_of([[1, typed, ""]]))
    assert names == [(typed, "")]
    shown = format_name(typed, "")
    assert problems == [f"t.xlsx, feuille « Résultats », cellule C2 (colonne « Prénom ») : le prénom {of_person(shown)} est vide : deux "
                        f"joueurs {shown} sans prénom seraient comptés comme un seul — tapez son prénom dans cette case"]


def test_a_licence_tells_players_without_a_first_name_apart_and_the_fix_names_it():
    table = table_of([[1, "DUPONT", "", "1001"], [2, "ALBERT", "", ""], [3, "DUPONT", " ", "1002"]],
                     header=("Place", "Nom", "Prénom", "Licence"))
    names, problems = read(table)
    assert names == [("DUPONT", ""), ("ALBERT", ""), ("DUPONT", "")]
    assert problems == ["t.xlsx, feuille « Résultats », cellule C3 (colonne « Prénom ») : le prénom d’ALBERT est vide : deux joueurs "
                        "ALBERT sans prénom ni licence seraient comptés comme un seul — tapez son prénom dans cette "
                        "case, ou sa licence"]


def test_a_sheet_with_nom_and_no_prenom_column_reads_each_nom_so_and_says_a_surname_alone_at_its_cell():
    # a sheet of `Nom` alone is a `Joueur` column under another header: « DUPONT Jean » is read so,
    # and a surname alone (no column to type the first name in) is said at its own cell
    names, problems = read(table_of([[1, "DUPONT Jean"], [2, "MARTIN"], [3, "Anne DURAND"]], header=("Place", "Nom")))
    assert names == [("DUPONT", "Jean"), ("MARTIN", ""), ("DURAND", "Anne")]
    assert problems == ["t.xlsx, feuille « Résultats », cellule B3 (colonne « Nom ») : le prénom de MARTIN manque (la feuille n’a pas "
                        "de colonne « Prénom ») : deux joueurs MARTIN sans prénom seraient comptés comme un seul — "
                        "tapez son prénom après son nom dans cette case (ou dans une colonne « Prénom » à ajouter)"]


def test_a_comma_in_nom_beside_an_empty_prenom_splits_it_as_in_a_joueur_cell():
    names, problems = read(table_of([[1, "Dupont, Jean", ""]]))
    assert names == [("Dupont", "Jean")] and problems == []


def test_a_prenom_of_control_characters_is_refused_once_not_also_said_empty():
    from reportgen.ingest.text import Unprintable

    names, problems = read(table_of([[1, "DUPONT", Unprintable()]]))
    assert names == [("DUPONT", "")]
    assert [p.split(" : ", 1)[1] for p in problems] == [
        "la case ne contient que des caractères invisibles (caractères de contrôle) — effacez-la et tapez la "
        "valeur, ou laissez-la vide"]


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


def test_two_grand_sud_duponts_without_first_names_are_a_located_warning_and_still_ranked(tmp_path):
    write_clubs(tmp_path)
    write_tournament(tmp_path, "a", day="10/01/2026", results=[
        [1, "DUPONT", "", "", "Carcassonne"], [2, "MARTIN", "Paul", "", "Albi"]])
    write_tournament(tmp_path, "b", day="07/02/2026", results=[
        [1, "MARTIN", "Paul", "", "Albi"], [2, "DUPONT", None, "", "Toulouse"], [3, "DURAND", "Anne", "1003", "Albi"],
        [4, "LEGER", "", "1004", "Albi"]])
    league = load(tmp_path, TODAY)
    assert league.all_problems() == []  # a warning: nothing is refused
    assert [(p.code, p.level, str(p)) for p in league.warnings] == [
        ("empty-first-name", "warning", f"{name}.xlsx, feuille « Résultats », cellule C{row} (colonne « Prénom ») : le prénom de DUPONT "
         "est vide : deux joueurs DUPONT sans prénom ni licence seraient comptés comme un seul — tapez son prénom "
         "dans cette case, ou sa licence") for name, row in (("a", 2), ("b", 3))]
    scored = score(league, ["grand-sud"])
    assert not scored.blocked.get("grand-sud")
    assert "DUPONT" in {row.player for row in scored.reports["grand-sud"].rankings[-1].rows}


def test_check_lists_the_empty_prenom_as_a_warning_and_exits_0(tmp_path):
    import subprocess
    import sys

    write_clubs(tmp_path / "inputs")
    write_tournament(tmp_path / "inputs", "a", day="10/01/2026", results=[
        [1, "DUPONT", "", "", "Carcassonne"], [2, "MARTIN", "Paul", "", "Albi"]])
    done = subprocess.run([str(Path(sys.executable).parent / "reportgen"), "check", "--inputs", str(tmp_path / "inputs"),
                           "--outputs", str(tmp_path / "outputs")], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "1 avertissement (rien n’est bloqué, mais à corriger)" in done.stderr
    assert "a.xlsx, feuille « Résultats », cellule C2 (colonne « Prénom ») : le prénom de DUPONT est vide" in done.stderr


def write_diplomacy(inputs, name, day, rows):
    return write_workbook(inputs / f"{name}.xlsx", {
        "Tournoi": [["Circuit", "tour-de-france"], ["Nom", name], ["Date", day]],
        "Résultats": [["Place", "Nom", "Prénom"], *rows]})


def test_tour_de_france_reads_an_empty_prenom_as_grand_sud_does(tmp_path):
    others = [[place, surname, "Un"] for place, surname in enumerate(["ALPHA", "BRAVO", "CHARLIE", "DELTA"], start=3)]
    write_diplomacy(tmp_path, "a", "19/03/2005", [[1, "Bernard MICHEL", ""], [2, "ROUX", ""], *others])
    write_diplomacy(tmp_path, "b", "16/04/2005", [[1, "MICHEL", "Bernard"], [2, "ROUX", None], *others])
    league = load(tmp_path, TODAY)
    assert league.all_problems() == []
    assert [str(p.where) for p in league.warnings] == ["a.xlsx, feuille « Résultats », cellule C3 (colonne « Prénom »)",
                                                       "b.xlsx, feuille « Résultats », cellule C3 (colonne « Prénom »)"]
    assert all("sans prénom seraient comptés comme un seul" in p.message for p in league.warnings)  # no licence
    results = league.circuits["tour-de-france"].results
    assert results[results["player"] == "MICHEL Bernard"]["player_id"].nunique() == 1
    assert len(results[results["player"] == "MICHEL Bernard"]) == 2 and "MICHEL BERNARD" not in set(results["player"])


def test_the_player_directory_reads_an_empty_prenom_as_the_workbooks_do(tmp_path):
    write_clubs(tmp_path)
    write_tournament(tmp_path, "a", day="10/01/2026", results=[
        [1, "DUPONT", "Jean", "", "Carcassonne"], [2, "MARTIN", "Paul", "", "Albi"]])
    write_workbook(tmp_path / "joueurs.xlsx", {"Joueurs": [
        ["Licence", "Nom", "Prénom", "Club", "Autres graphies"], ["", "DUPONT Jean", "", "", "Dupont J."],
        ["", "ROUX", "", "", ""], ["1003", "LEGER", "", "", ""]]})
    league = load(tmp_path, TODAY)
    assert league.all_problems() == []
    assert [str(p) for p in league.warnings] == [
        "joueurs.xlsx, feuille « Joueurs », cellule C3 (colonne « Prénom ») : le prénom de ROUX est vide : deux joueurs ROUX sans prénom "
        "ni licence seraient comptés comme un seul — tapez son prénom dans cette case, ou sa licence"]
    assert set(league.circuits["grand-sud"].results["player"]) == {"DUPONT Jean", "MARTIN Paul"}


def test_players_merge_finds_the_directory_row_whose_nom_holds_prenom_nom(tmp_path):
    from reportgen.render.directory import add_spelling

    path = write_workbook(tmp_path / "joueurs.xlsx", {"Joueurs": [
        ["Licence", "Nom", "Prénom", "Club", "Autres graphies"], ["", "Jean DUPONT", "", "", ""]]})
    add_spelling(path, "DUPONT Jean", "DUPOND Jean")
    assert [[c.value for c in row] for row in openpyxl.load_workbook(path)["Joueurs"].iter_rows()][1:] == [
        [None, "Jean DUPONT", None, None, "DUPOND Jean"]]


def test_a_masters_withdrawal_with_nom_and_prenom_in_nom_is_that_participant(tmp_path):
    from tests.masters.test_workbook import NAMES, add_withdrawal, masters_path, run_prepare

    inputs = tmp_path / "inputs"
    write_clubs(inputs)
    write_tournament(inputs, "2026-10-10-carc", day="10/10/2026",
                     results=[[place, *name.split(" "), "", ""] for place, name in enumerate(NAMES, start=1)])
    run_prepare(inputs)
    add_withdrawal(inputs, "JOUEURC Un", "")
    add_withdrawal(inputs, "JOUEURD", "")  # no such participant (refused when scored), and no first name
    league = load(inputs, TODAY)
    withdrawals = league.circuits["masters"].events[0].content.withdrawals
    assert [w.entry for w in withdrawals] == [Entry("", "JOUEURC", "Un"), Entry("", "JOUEURD", "")]
    assert [str(p.where) for p in league.warnings] == [
        f"{masters_path(inputs).relative_to(inputs).as_posix()}, feuille « Désistements », cellule B3 (colonne « Prénom »)"]


def test_a_pool_tournaments_registrant_without_a_first_name_is_said_and_still_registered():
    from tests.poules.test_builders import Tour

    tour = Tour(4)  # JOUEURA Un... JOUEURD Un, in `Joueur` cells: typed again in `Nom` and `Prénom`
    header, *rows = tour.sheets["Inscrits"]
    typed = [("JOUEURA", "Un"), ("JOUEURB Un", ""), ("JOUEURC", "Un"), ("JOUEURD", None)]
    tour.sheets["Inscrits"] = [["Nom", "Prénom", *header[1:]]] + [[*name, *row[1:]] for name, row in zip(typed, rows)]
    event, problems = tour.parsed()
    assert problems == ["poules/test.xlsx, feuille « Inscrits », cellule B5 (colonne « Prénom ») : le prénom de JOUEURD est vide : deux "
                        "joueurs JOUEURD sans prénom seraient comptés comme un seul — tapez son prénom dans cette case"]
    assert event is not None
    assert [r.name for r in event.content.registrants] == ["JOUEURA Un", "JOUEURB Un", "JOUEURC Un", "JOUEURD"]
