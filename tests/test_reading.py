"""Reading workbooks: docs/formats.md's tolerance is accepted, and every kind of bad input gets a
located message (file, sheet, cell) that says what is wrong and how to fix it."""

import datetime as dt
import re
import shutil
import sys
import zipfile
from pathlib import Path

import openpyxl
import pytest
import xlsxwriter
from hypothesis import given
from hypothesis import strategies as st

from reportgen.model import place_number
from reportgen.pipeline import load
from tests.builders import write_clubs, write_tournament, write_workbook

TODAY = dt.date(2026, 11, 29)
EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "league"


@pytest.fixture
def inputs(tmp_path):
    folder = tmp_path / "inputs"
    write_clubs(folder)
    return folder


def problems(inputs):
    return [str(problem) for problem in load(inputs, TODAY).all_problems()]


def only_problem(inputs) -> str:
    found = problems(inputs)
    assert len(found) == 1, found
    return found[0]


def results_of(inputs, circuit="grand-sud"):
    league = load(inputs, TODAY)
    assert not league.all_problems(), league.all_problems()
    return league.circuits[circuit].results


# -- tolerance ----------------------------------------------------------------------------------

def test_title_rows_aliases_ordinal_places_and_a_totals_row_are_accepted(inputs):
    rows = [["Tournoi de Carcassonne"], [], ["Clt", "Nom de famille", "Prenom", "N° licence", "Club", "Rang duplicate"],
            ["1er", "DUPONT", "Jean", 1001, "CARC", "2e"], ["2e", "MARTIN", "Paul", "1002", "Albi", "3"],
            ["3ème", "DURAND", "Anne", "", "Toulouse", "1"], [], ["Total", 3]]
    write_workbook(inputs / "t.xlsx", {
        "Tournoi": [["Champ", "Valeur"], ["Formule :", "poules"], ["Date :", "14/03/2026"], ["Circuit :", "grand-sud"],
                    ["Club :", "Carcassonne"], ["Nom :", "Open"]],
        "Résultats": rows})
    table = results_of(inputs)
    assert table[["player", "place", "place_duplicate", "licence", "club"]].values.tolist() == [
        ["DUPONT Jean", 1, 2, "1001", "Carcassonne"], ["MARTIN Paul", 2, 3, "1002", "Albi"],
        ["DURAND Anne", 3, 1, "", "Toulouse"]]


def test_a_single_player_column_in_any_name_order(inputs):
    write_tournament(inputs, "t", header=["Place", "Joueur"],
                     results=[[1, "DUPONT Jean"], [2, "Paul MARTIN"], [3, "Le Gall, Jean-François"]])
    assert results_of(inputs)["player"].tolist() == ["DUPONT Jean", "MARTIN Paul", "LE GALL Jean-François"]


def test_a_date_typed_as_text_or_as_an_excel_date(inputs):
    write_tournament(inputs, "a", day="2026-03-14")
    write_tournament(inputs, "b", day=dt.datetime(2026, 3, 21), club="ALBI")
    write_tournament(inputs, "c", day="28 mars 2026", club="TLSE")
    assert sorted(set(results_of(inputs)["date"].dt.date)) == [
        dt.date(2026, 3, 14), dt.date(2026, 3, 21), dt.date(2026, 3, 28)]


def test_the_same_player_with_and_without_licence_or_accents_is_one_player(inputs):
    write_tournament(inputs, "a", results=[[1, "LÉGER", "Zoé", "777", ""], [2, "MARTIN", "Paul", "", ""]])
    write_tournament(inputs, "b", club="ALBI", day="21/03/2026",
                     results=[[1, "Leger", "ZOE", "", ""], [2, "martin", "paul", "", ""]])
    table = results_of(inputs)
    assert table.groupby("player_id").size().to_dict() == {"L:777": 2, "N:martin paul": 2}
    assert set(table["player"]) == {"LÉGER Zoé", "MARTIN Paul"}


def test_the_player_directory_joins_other_spellings(inputs):
    write_workbook(inputs / "joueurs.xlsx", {"Joueurs": [
        ["Licence", "Nom", "Prénom", "Club", "Autres graphies"],
        ["4242", "DUPONT", "Jean-Pierre", "CARC", "Dupont J.-P.; Dupont, JP"]]})
    write_tournament(inputs, "a", results=[[1, "Dupont", "J.-P.", "", ""]])
    write_tournament(inputs, "b", club="ALBI", day="21/03/2026", results=[[1, "DUPONT", "JP", "", ""]])
    table = results_of(inputs)
    assert set(table["player_id"]) == {"L:4242"} and set(table["player"]) == {"DUPONT Jean-Pierre"}


def test_swapped_nom_and_prenom_in_the_player_directory_are_two_players(inputs):
    # INTERPRETATIONS.md, « who is who »: a spelling is one cell, read as typed; Nom then Prénom.
    write_workbook(inputs / "joueurs.xlsx", {"Joueurs": [
        ["Licence", "Nom", "Prénom", "Club", "Autres graphies"],
        ["", "PHILIPPE", "Daniel", "", "Philippe, Dany"], ["", "DANIEL", "Philippe", "", "Phil DANIEL"]]})
    write_tournament(inputs, "a", results=[[1, "Philippe", "Dany", "", ""], [2, "DANIEL", "Phil", "", ""]])
    write_tournament(inputs, "b", club="ALBI", day="21/03/2026", results=[[1, "DANIEL", "Philippe", "", ""],
                                                                         [2, "PHILIPPE", "Daniel", "", ""]])
    table = results_of(inputs)  # no « désigne déjà un autre joueur », no « listé deux fois »
    assert table["player"].tolist() == ["PHILIPPE Daniel", "DANIEL Philippe", "DANIEL Philippe", "PHILIPPE Daniel"]
    assert table["player_id"].nunique() == 2


def test_lock_files_hidden_files_and_other_formats_are_skipped_and_said(inputs):
    write_tournament(inputs, "a")
    (inputs / "~$a.xlsx").write_bytes(b"lock")
    (inputs / ".cache").mkdir()
    (inputs / ".cache" / "x.xlsx").write_bytes(b"junk")
    (inputs / "old.csv").write_bytes(b"Place;Nom")
    league = load(inputs, TODAY)
    assert not league.all_problems()
    assert league.notices == ["old.csv : ignoré, seuls les classeurs (.xlsx, .xlsm, .xlsb, .xls, .ods) sont lus "
                              "(ouvrez-le dans Excel ou LibreOffice et enregistrez-le au format .xlsx)"]


# -- bad input: one located message each --------------------------------------------------------

def test_a_file_that_is_not_a_workbook(inputs):
    (inputs / "abime.xlsx").write_bytes(b"PK\x03\x04 not really a zip")
    assert only_problem(inputs).startswith("abime.xlsx : le fichier n’est pas un classeur .xlsx lisible")


def test_a_file_protected_by_a_password(inputs):
    (inputs / "secret.xlsx").write_bytes(bytes.fromhex("d0cf11e0a1b11ae1") + b"\0" * 512)
    assert "secret.xlsx : le fichier est protégé par un mot de passe" in only_problem(inputs)


def test_a_sheet_spanning_to_xfd1048576_is_refused_before_any_reader_opens_it(inputs):
    book = openpyxl.Workbook()
    book.active.title = "Tournoi"
    book.active["A1"] = "Circuit"
    book.active["XFD1048576"] = "x"
    book.save(inputs / "immense.xlsx")
    message = only_problem(inputs)
    assert message.startswith("immense.xlsx : la feuille « Tournoi » déclare une cellule en XFD1048576")


def test_a_zip_bomb_is_refused(inputs):
    with zipfile.ZipFile(inputs / "bombe.xlsx", "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("xl/workbook.xml", "<workbook/>")
        archive.writestr("xl/worksheets/sheet1.xml", b"<" + b" " * (250 * 1024 * 1024) + b"/>")
    assert "anormalement volumineux" in only_problem(inputs)


def test_a_missing_tournoi_sheet(inputs):
    write_workbook(inputs / "t.xlsx", {"Feuil1": [["Place", "Nom"]]})
    assert only_problem(inputs) == ("t.xlsx : la feuille « Tournoi » est introuvable (feuilles présentes : "
                                    "« Feuil1 ») — ajoutez une feuille « Tournoi » avec les champs Circuit, Nom, Date…")


def test_a_missing_field(inputs):
    write_workbook(inputs / "t.xlsx", {"Tournoi": [["Circuit", "grand-sud"], ["Nom", "X"], ["Club", "CARC"],
                                                   ["Formule", "duplicate"]],
                                       "Résultats": [["Place", "Nom"], [1, "A"]]})
    assert only_problem(inputs) == ("t.xlsx, feuille « Tournoi » : le champ « Date » est absent — "
                                    "ajoutez une ligne « Date » avec sa valeur")


def test_an_unknown_circuit(inputs):
    write_tournament(inputs, "t", circuit="grand sud-ouest")
    assert only_problem(inputs).startswith("t.xlsx, feuille « Tournoi », cellule B1 (champ « Circuit ») : le circuit "
                                           "« grand sud-ouest » n’existe pas — écrivez l’un de : grand-sud")


def test_a_date_that_is_not_a_date(inputs):
    write_tournament(inputs, "t", day="le 14")
    assert only_problem(inputs) == ("t.xlsx, feuille « Tournoi », cellule B3 (champ « Date ») : « le 14 » n’est pas une date — "
                                    "écrivez la date au format jj/mm/aaaa, par exemple 14/03/2026")


def test_a_date_that_does_not_exist(inputs):
    write_tournament(inputs, "t", day="31/02/2026")
    assert "« 31/02/2026 » n’est pas une date qui existe" in only_problem(inputs)


def test_a_date_in_the_future(inputs):
    write_tournament(inputs, "t", day="14/03/2027")
    assert only_problem(inputs).startswith("t.xlsx, feuille « Tournoi », cellule B3 (champ « Date ») : la date du tournoi "
                                           "(14 mars 2027) est dans le futur")


def test_an_unknown_club(inputs):
    write_tournament(inputs, "t", club="Lunel")
    message = only_problem(inputs)
    assert message.startswith("t.xlsx, feuille « Tournoi », cellule B4 (champ « Club ») : le club « Lunel » n’est pas dans "
                              "l’annuaire clubs.xlsx")
    assert "CARC, TLSE" in message


def test_another_formula_needs_a_vote(inputs):
    write_tournament(inputs, "t", formula="ronde suisse")
    assert "la formule « ronde suisse » n’est pas prévue par le règlement (§2.3)" in only_problem(inputs)


def test_a_results_sheet_under_another_name_is_said_with_the_sheets_there(inputs):
    """A club's results on « Feuil1 » were « la feuille « Résultats » est introuvable — ajoutez la
    feuille des résultats », the sheets there unsaid (the Tournoi sheet's problem says them), the
    renaming that would do it not offered."""
    write_workbook(inputs / "t.xlsx", {"Tournoi": [["Circuit", "grand-sud"], ["Nom", "X"], ["Date", "14/03/2026"],
                                                   ["Club", "CARC"], ["Formule", "duplicate"]],
                                       "Feuil1": [["Place", "Nom", "Prénom", "Licence", "Club"], [1, "DUPONT", "Jean", "", ""]]})
    assert only_problem(inputs) == ("t.xlsx : la feuille « Résultats » est introuvable (feuilles présentes : « Tournoi », "
                                    "« Feuil1 ») — nommez « Résultats » la feuille des résultats, ou ajoutez-la (Place, "
                                    "Nom, Prénom, Licence, Club)")


def test_a_missing_results_sheet(inputs):
    write_workbook(inputs / "t.xlsx", {"Tournoi": [["Circuit", "grand-sud"], ["Nom", "X"], ["Date", "14/03/2026"],
                                                   ["Club", "CARC"], ["Formule", "duplicate"]]})
    assert only_problem(inputs).startswith("t.xlsx : la feuille « Résultats » est introuvable")


def test_a_missing_column(inputs):
    """The sheet has its header row: the fix says to add the column to it, not a header row."""
    write_tournament(inputs, "t", formula="poules")  # pools need the duplicate place too
    assert only_problem(inputs) == ("t.xlsx, feuille « Résultats », cellule A1 : colonne introuvable : « Place duplicate » — "
                                    "ajoutez la colonne « Place duplicate » à cette ligne d’en-têtes et remplissez-la")


def test_a_missing_column_is_said_at_the_header_row_wherever_it_is(inputs):
    write_workbook(inputs / "t.xlsx", {
        "Tournoi": [["Circuit", "grand-sud"], ["Nom", "X"], ["Date", "14/03/2026"], ["Club", "CARC"],
                    ["Formule", "duplicate"]],
        "Résultats": [["Tournoi X — résultats"], [], ["Place", "Licence", "Club"], [1, "1001", "Carcassonne"]]})
    assert only_problem(inputs) == ("t.xlsx, feuille « Résultats », cellule A3 : colonne introuvable : « Nom » et « Prénom » (ou "
                                    "« Joueur ») — ajoutez les colonnes « Nom » et « Prénom » (ou « Joueur ») à cette "
                                    "ligne d’en-têtes et remplissez-les")


def test_missing_names_and_columns_are_said_together(inputs):
    write_tournament(inputs, "t", formula="poules", header=["Place", "Licence", "Club"],
                     results=[[1, "1001", "Carcassonne"]])
    assert only_problem(inputs) == ("t.xlsx, feuille « Résultats », cellule A1 : colonne introuvable : « Place duplicate », « Nom » et "
                                    "« Prénom » (ou « Joueur ») — ajoutez les colonnes « Place duplicate », « Nom » "
                                    "et « Prénom » (ou « Joueur ») à cette ligne d’en-têtes et remplissez-les")


def test_a_sheet_without_a_header_row_is_asked_for_one(inputs):
    write_tournament(inputs, "t", header=["1", "2", "3"], results=[[1, "DUPONT", "Jean"]])
    assert only_problem(inputs).endswith("— ajoutez une ligne d’en-têtes avec ces colonnes au-dessus des résultats")


def test_a_place_that_is_not_a_place(inputs):
    # The Grand Sud has no ex aequo: the fix does not suggest « 3 ex », which it would refuse next.
    write_tournament(inputs, "t", results=[[1, "A", "Un", "", ""], ["deuxième", "B", "Un", "", ""]])
    assert only_problem(inputs) == ("t.xlsx, feuille « Résultats », cellule A3 (colonne « Place ») : « deuxième » n’est pas une "
                                    "place — écrivez un nombre : 1, 2, 3… (ou 1er, 2e)")


def test_a_place_given_twice(inputs):
    write_tournament(inputs, "t", results=[[1, "A", "Un", "", ""], [1, "B", "Un", "", ""], [3, "C", "Un", "", ""]])
    found = problems(inputs)
    assert found[0] == ("t.xlsx, feuille « Résultats », cellule A3 (colonne « Place ») : la place 1 est donnée deux fois (déjà en A2) ; "
                        "le règlement Grand Sud ne prévoit pas d’ex aequo — donnez à chaque joueur une place différente")


def test_a_place_beyond_the_number_of_players(inputs):
    write_tournament(inputs, "t", results=[[1, "A", "Un", "", ""], [5, "B", "Un", "", ""]])
    assert only_problem(inputs) == ("t.xlsx, feuille « Résultats », cellule A3 (colonne « Place ») : la place 5 dépasse le nombre de "
                                    "joueurs classés (2) — chaque place de 1 au nombre de joueurs doit être donnée une "
                                    "fois : la place 2 n’est donnée à personne")


def test_a_row_deleted_is_said_by_the_place_nobody_has(inputs):
    # The 3rd's row deleted: the last place is beyond the count, and the fix names the one to look for.
    write_tournament(inputs, "t", results=[[place, f"J{place}", "Un", "", ""] for place in (1, 2, 4, 5)])
    assert only_problem(inputs).endswith("(colonne « Place ») : la place 5 dépasse le nombre de joueurs classés (4) — "
                                         "chaque place de 1 au nombre de joueurs doit être donnée une fois : la place 3 "
                                         "n’est donnée à personne")


def test_many_places_nobody_has_are_counted_past_the_first_five(inputs):
    write_tournament(inputs, "t", results=[[place, f"J{place}", "Un", "", ""] for place in (1, *range(12, 20))])
    assert problems(inputs)[0].endswith("la place 12 dépasse le nombre de joueurs classés (9) — chaque place de 1 au "
                                        "nombre de joueurs doit être donnée une fois : les places 2, 3, 4, 5, 6 et "
                                        "3 autres ne sont données à personne")


def test_a_player_listed_twice(inputs):
    write_tournament(inputs, "t", results=[[1, "DUPONT", "Jean", "", ""], [2, "Dupont", "JEAN", "", ""]])
    assert only_problem(inputs) == ("t.xlsx, feuille « Résultats », cellule B3 (colonne « Nom ») : DUPONT Jean est listé deux fois "
                                    "(déjà en B2) — supprimez le doublon, ou corrigez le nom ou la licence")


def test_a_player_listed_twice_under_two_spellings_names_both(inputs):
    """« ANDRE Helene est listé deux fois (déjà en B2) »: B2 holds « ANDRÉ Hélène », which the club
    did not see as the same row; the spelling there is said."""
    write_tournament(inputs, "t", results=[[1, "ANDRÉ", "Hélène", "", ""], [2, "ANDRE", "Helene", "", ""]])
    assert only_problem(inputs) == ("t.xlsx, feuille « Résultats », cellule B3 (colonne « Nom ») : ANDRE Helene est listé deux fois "
                                    "(déjà en B2, écrit « ANDRÉ Hélène ») — supprimez le doublon, ou corrigez le nom ou "
                                    "la licence")


def test_two_names_with_one_licence_are_said_so_not_as_one_player_listed_twice(inputs):
    """MARTIN Paul typed with DUPONT Jean's licence was « MARTIN Paul est listé deux fois (déjà en B2) »,
    B2 being DUPONT Jean's row: the licence is what to look at."""
    write_tournament(inputs, "t", results=[[1, "DUPONT", "Jean", "1001", ""], [2, "MARTIN", "Paul", "1001", ""],
                                           [3, "Dupont", "JEAN", "1001", ""]])
    assert problems(inputs) == [
        "t.xlsx, feuille « Résultats », cellule D3 (colonne « Licence ») : MARTIN Paul a la licence 1001, déjà donnée à DUPONT Jean en B2 "
        "— corrigez la licence de l’une des deux lignes, ou le nom si c’est le même joueur",
        "t.xlsx, feuille « Résultats », cellule B4 (colonne « Nom ») : DUPONT Jean est listé deux fois (déjà en B2) — supprimez le "
        "doublon, ou corrigez le nom ou la licence"]


def test_a_player_listed_twice_in_a_sheet_without_licences_is_not_asked_to_correct_a_licence(inputs):
    write_tournament(inputs, "t", header=["Place", "Nom", "Prénom", "Club"],
                     results=[[1, "DUPONT", "Jean", ""], [2, "Dupont", "JEAN", ""]])
    assert only_problem(inputs) == ("t.xlsx, feuille « Résultats », cellule B3 (colonne « Nom ») : DUPONT Jean est listé deux fois "
                                    "(déjà en B2) — supprimez le doublon, ou corrigez le nom")


def test_a_row_without_a_place_or_without_a_name(inputs):
    write_tournament(inputs, "t", results=[[1, "A", "Un", "", ""], [None, "B", "Un", "", ""], [3, None, None, "9", ""]])
    found = problems(inputs)
    assert "t.xlsx, feuille « Résultats », cellule A3 (colonne « Place ») : la case « Place » est vide — remplissez-la" in found
    assert "t.xlsx, feuille « Résultats », cellule B4 (colonne « Nom ») : la case « Nom » est vide — remplissez-la" in found


def test_a_formula_without_a_computed_value(inputs):
    write_tournament(inputs, "t", results=[[1, "A", "Un", "", ""], ["=A2+1", "B", "Un", "", ""]])
    assert only_problem(inputs) == ("t.xlsx, feuille « Résultats », cellule A3 (colonne « Place ») : la cellule contient une formule "
                                    "dont la valeur n’a jamais été calculée — ouvrez le fichier dans Excel ou "
                                    "LibreOffice et enregistrez-le, ou tapez la valeur elle-même")


def test_a_formula_written_by_a_program_reads_0_everywhere_and_is_refused(inputs):
    book = xlsxwriter.Workbook(inputs / "t.xlsx")
    info = book.add_worksheet("Tournoi")
    for row, (field, value) in enumerate([("Circuit", "grand-sud"), ("Nom", "X"), ("Date", "14/03/2026"),
                                          ("Club", "CARC"), ("Formule", "duplicate")]):
        info.write_string(row, 0, field)
        info.write_string(row, 1, value)
    sheet = book.add_worksheet("Résultats")
    sheet.write_row(0, 0, ["Place", "Nom"])
    sheet.write_row(1, 0, [1, "A"])
    sheet.write_formula(2, 0, "=A2+1")
    sheet.write_string(2, 1, "B")
    book.close()
    assert "feuille « Résultats », cellule A3" in only_problem(inputs) and "formule" in only_problem(inputs)


def test_the_club_directory_missing_when_a_circuit_names_clubs(tmp_path):
    write_tournament(tmp_path, "t")
    found = [str(p) for p in load(tmp_path, TODAY).all_problems()]
    assert found[0] == ("clubs.xlsx : l’annuaire des clubs est absent (les classeurs grand-sud nomment des clubs) — "
                        "ajoutez inputs/clubs.xlsx (feuille Clubs : Code, Nom, Département, Email)")


def test_no_club_directory_is_needed_when_no_circuit_names_clubs(tmp_path):
    shutil.copy(EXAMPLE / "tour-de-france" / "2005" / "2005-03-19-sassenage.xlsx", tmp_path)
    league = load(tmp_path, TODAY)
    assert league.all_problems() == []
    assert league.notices == ["clubs.xlsx : absent, aucun classeur présent n’en a besoin"]
    assert len(league.circuits["tour-de-france"].events) == 1


def test_a_players_club_missing_from_the_directory_is_located_with_the_nearest_club(inputs):
    write_tournament(inputs, "t", results=[[1, "DUPONT", "Jean", "1001", "Montpelier"],
                                           [2, "MARTIN", "Paul", "1002", "Lunel"]])
    assert problems(inputs) == [
        "t.xlsx, feuille « Résultats », cellule E2 (colonne « Club ») : le club « Montpelier » n’est pas dans l’annuaire clubs.xlsx — "
        "vouliez-vous dire « Montpellier » ? Sinon ajoutez le club à clubs.xlsx",
        "t.xlsx, feuille « Résultats », cellule E3 (colonne « Club ») : le club « Lunel » n’est pas dans l’annuaire clubs.xlsx — "
        "écrivez le code ou le nom d’un club de l’annuaire, ou ajoutez le club à clubs.xlsx"]


def test_a_players_club_may_be_written_by_its_code(inputs):
    write_tournament(inputs, "t", results=[[1, "DUPONT", "Jean", "1001", "mtpl"], [2, "MARTIN", "Paul", "1002", ""]])
    assert problems(inputs) == []


def test_a_departement_that_is_not_one(tmp_path):
    write_workbook(tmp_path / "clubs.xlsx", {"Clubs": [["Code", "Nom", "Département"], ["CARC", "Carcassonne", 11],
                                                       ["FOIX", "Foix", 9], ["XX", "Nulle part", "Ariège"]]})
    league = load(tmp_path, TODAY)
    assert [str(p) for p in league.all_problems()] == [
        "clubs.xlsx, feuille « Clubs », cellule C4 (colonne « Département ») : « ARIÈGE » n’est pas un numéro de département — "
        "écrivez par exemple 09, 31 ou 2A"]
    assert [c.departement for c in league.reading.clubs.clubs] == ["11", "09"]


def test_a_directory_s_missing_column_is_located_at_its_header_row(tmp_path):
    """clubs.xlsx and joueurs.xlsx are typed by the secretary: a header mistyped is named at its
    header row, with the column to add (it said only « l'annuaire … doit avoir une feuille … », with
    no cell), and a sheet without any header row is told which to write."""
    write_workbook(tmp_path / "clubs.xlsx", {"Clubs": [["Cod", "Nom", "Département"], ["CARC", "Carcassonne", 11]]})
    write_workbook(tmp_path / "joueurs.xlsx", {"Joueurs": [["Licence", "Nom", "Prenon"], ["1001", "DUPONT", "Jean"]]})
    assert [str(p) for p in load(tmp_path, TODAY).all_problems()] == [
        "clubs.xlsx, feuille « Clubs », cellule A1 : colonne introuvable : « Code » — ajoutez la colonne « Code » à cette ligne "
        "d’en-têtes et remplissez-la",
        "joueurs.xlsx, feuille « Joueurs », cellule A1 : colonne introuvable : « Prénom » — ajoutez la colonne « Prénom » à cette ligne "
        "d’en-têtes et remplissez-la"]
    write_workbook(tmp_path / "clubs.xlsx", {"Clubs": [["CARC", "Carcassonne", 11]]})
    (tmp_path / "joueurs.xlsx").unlink()
    assert [str(p) for p in load(tmp_path, TODAY).all_problems()] == [
        "clubs.xlsx, feuille « Clubs », cellule A1 : colonne introuvable : « Code », « Nom », « Département » — écrivez les en-têtes "
        "Code, Nom, Département, Email sur la première ligne de la feuille"]


def test_every_problem_of_every_file_is_reported_together(inputs):
    write_tournament(inputs, "a", day="le 14")
    write_tournament(inputs, "b", club="Lunel", results=[[1, "A", "Un", "", ""], [1, "B", "Un", "", ""]])
    (inputs / "c.xlsx").write_bytes(b"garbage")
    found = problems(inputs)
    assert [p.split(" ")[0].rstrip(",") for p in found] == ["a.xlsx", "b.xlsx", "b.xlsx", "c.xlsx"]


def test_a_hidden_sheet_gives_way_to_the_visible_one(inputs):
    path = write_tournament(inputs, "t")
    book = openpyxl.load_workbook(path)
    old = book.create_sheet("résultats ")  # same name once normalised, hidden: an old draft
    old.append(["Place", "Nom"])
    old.append([1, "BROUILLON"])
    old.sheet_state = "hidden"
    book.move_sheet(old, offset=-2)
    book.save(path)
    assert "BROUILLON" not in results_of(inputs)["player"].tolist()


def test_league_settings_override_a_circuit_reading(inputs):
    write_tournament(inputs, "t", club="MARS")
    (inputs / "reportgen.toml").write_text('[league]\nname = "Ligue test"\n\n[circuits.grand-sud]\n'
                                           'departements = ["13"]\n', encoding="utf-8")
    league = load(inputs, TODAY)
    assert league.settings.name == "Ligue test"
    assert league.settings.circuits["grand-sud"].departements == ("13",)


def test_an_unknown_setting_is_a_located_problem(inputs):
    write_tournament(inputs, "t")
    (inputs / "reportgen.toml").write_text("[circuits.grand-sud]\nmeilleurs = 3\n", encoding="utf-8")
    assert only_problem(inputs).startswith("reportgen.toml, table [circuits.grand-sud], réglage « meilleurs » : le réglage « meilleurs » "
                                           "n’existe pas pour le circuit grand-sud")


# -- tour-de-france -------------------------------------------------------------------------------

def write_diplomacy(inputs, name, rows, fields=()):
    return write_workbook(inputs / f"{name}.xlsx", {
        "Tournoi": [["Circuit", "tour-de-france"], ["Nom", name], ["Date", "19/03/2005"], *fields],
        "Résultats": [["Place", "Nom", "Prénom", "Hors classement"], *rows]})


def test_diplomacy_ex_aequo_and_excluded_players_are_read(inputs):
    write_diplomacy(inputs, "t", [[1, "A", "Un", ""], ["2 ex", "B", "Un", ""], ["2 ex", "C", "Un", ""],
                                  [4, "ORGA", "Nisateur", "oui"], [5, "D", "Un", ""]])
    table = results_of(inputs, "tour-de-france")
    # the places of the ranking (« cas particuliers »): the organiser has none, D moves up to 4th
    assert [[player, place_number(place), excluded]
            for player, place, excluded in table[["player", "place", "excluded"]].values.tolist()] == [
        ["A Un", 1, False], ["B Un", 2, False], ["C Un", 2, False], ["ORGA Nisateur", None, True], ["D Un", 4, False]]


def test_a_diplomacy_player_listed_twice_is_asked_to_correct_the_name_only(inputs):
    """A Diplomacy results sheet has no licence column: the fix names only what it has."""
    write_diplomacy(inputs, "t", [[1, "DUPONT", "Jean", ""], [2, "Dupont", "JEAN", ""]])
    assert only_problem(inputs) == ("t.xlsx, feuille « Résultats », cellule B3 (colonne « Nom ») : DUPONT Jean est listé deux fois "
                                    "(déjà en B2) — supprimez le doublon, ou corrigez le nom")


def test_diplomacy_places_that_do_not_follow_ex_aequo_are_located(inputs):
    write_diplomacy(inputs, "t", [[1, "A", "Un", ""], [2, "B", "Un", ""], [2, "C", "Un", ""], [3, "D", "Un", ""]])
    assert only_problem(inputs) == (
        "t.xlsx, feuille « Résultats », cellule A5 (colonne « Place ») : la place 3 ne suit pas les précédentes : ici on attend la "
        "place 4 (des ex aequo partagent un numéro et le suivant le saute : 3, 3, 5) — corrigez la numérotation des places")


def test_a_diplomacy_place_or_name_that_cannot_be_read_is_one_problem_not_one_per_row_below(inputs):
    """The row left out would put every place below it out of sequence: those are checked once it reads."""
    write_diplomacy(inputs, "t", [[1, "A", "Un", ""], ["x", "B", "Un", ""], [3, "C", "Un", ""], [4, "D", "Un", ""],
                                  [5, "E", "Un", ""]])
    assert only_problem(inputs).startswith("t.xlsx, feuille « Résultats », cellule A3 (colonne « Place ») : « x » n’est pas une place")
    write_diplomacy(inputs, "t", [[1, "A", "Un", ""], [2, "", "", ""], [3, "C", "Un", ""], [4, "D", "Un", ""]])
    assert only_problem(inputs).startswith("t.xlsx, feuille « Résultats », cellule B3 (colonne « Nom ») : la case « Nom » est vide")


def test_diplomacy_fewer_participants_than_listed_players_is_located(inputs):
    write_diplomacy(inputs, "t", [[1, "A", "Un", ""], [2, "B", "Un", ""]], fields=[["Participants", 1]])
    assert only_problem(inputs).startswith("t.xlsx, feuille « Tournoi », cellule B4 (champ « Participants ») : 1 participants, "
                                           "mais 2 joueurs sont listés")


def test_diplomacy_hors_classement_must_be_yes_or_no(inputs):
    write_diplomacy(inputs, "t", [[1, "A", "Un", "peut-être"]])
    assert only_problem(inputs) == ("t.xlsx, feuille « Résultats », cellule D2 (colonne « Hors classement ») : « peut-être » n’est ni "
                                    "« oui » ni « non » — écrivez oui, ou laissez vide")


def test_a_workbook_of_a_circuit_not_supported_yet_is_set_aside_and_said(inputs, monkeypatch):
    from reportgen import circuits

    # Every circuit of the regulations is scored today: a circuit registered for later stands in.
    planned = circuits.CircuitInfo("belote", "Belote", "", "", circuits.PLANNED, "tests.belote")
    monkeypatch.setitem(circuits.REGISTRY, "belote", planned)
    write_tournament(inputs, "a")
    write_workbook(inputs / "belote.xlsx", {"Tournoi": [["Circuit", "belote"], ["Nom", "Open"]]})
    league = load(inputs, TODAY)
    assert not league.all_problems()
    assert league.notices == ["belote.xlsx : le circuit belote n’est pas encore pris en charge, "
                              "ce classeur est mis de côté"]


def test_a_workbook_whose_circuit_cannot_be_read_blocks_only_the_circuit_its_folder_names(inputs):
    shutil.copy(EXAMPLE / "tour-de-france" / "2005" / "2005-03-19-sassenage.xlsx", inputs)
    write_tournament(inputs, "gs")
    write_workbook(inputs / "tour-de-france" / "sans-tournoi.xlsx", {"Résultats": [["Place", "Nom"], [1, "A"]]})
    league = load(inputs, TODAY)
    assert league.problems == [] and league.circuits["grand-sud"].problems == []
    assert [p.code for p in league.circuits["tour-de-france"].problems] == ["missing-sheet"]


def test_a_workbook_whose_circuit_cannot_be_read_blocks_the_circuits_its_sheets_point_to(inputs):
    write_tournament(inputs, "gs")
    write_workbook(inputs / "m.xlsx", {"Matchs": [["Match", "Table"]]})
    league = load(inputs, TODAY)
    assert league.problems == [] and [p.code for p in league.circuits["masters"].problems] == ["missing-sheet"]
    write_workbook(inputs / "x.xlsx", {"Feuil1": [["?"]]})  # nothing says whose it is: it blocks every circuit
    assert [p.code for p in load(inputs, TODAY).problems] == ["missing-sheet"]


@given(st.lists(st.text() | st.sampled_from(["", "\u200d", "\x1b", "a\u202eb", "\u00a0", "Zoé"]) | st.integers(),
                max_size=6))
def test_printable_texts_skip_the_cleaning_and_keep_what_it_gives(row):
    """_rows leaves printable texts as they are without cleaning them: what cleaning each cell gives."""
    from reportgen.ingest.file_reader import _cell, _rows

    end = len(row)
    while end and row[end - 1] == "":  # trailing empty cells as read (a cleaned "\x1b" is not one)
        end -= 1
    expected = [_cell(value) for value in row[:end]]
    got = _rows([row])
    assert got == ([expected] if expected else [])
    assert [type(value) for value in (got[0] if got else [])] == [type(value) for value in expected]


def test_every_character_the_cleaning_acts_on_is_unprintable():
    """Why _rows may skip the cleaning of a printable text: no printable character is one that
    clean_text removes or replaces, nor one that only_controls looks for (all of Unicode)."""
    from reportgen.ingest import text

    acted_on = text._CONTROL.pattern[1:-1] + text._HIDDEN.pattern[1:-1]  # the two character classes
    assert not [hex(code) for code in range(sys.maxunicode + 1)
                if chr(code).isprintable() and re.match(f"[{acted_on}]", chr(code))]


@pytest.mark.parametrize(("row", "said"), [
    (["CARC", "Carcassonne", "Aude", ""], "clubs.xlsx, feuille « Clubs », cellule C3 (colonne « Département ») : « AUDE » n’est pas un "
                                          "numéro de département"),
    (["CARC", "Carcassonne", None, ""], "clubs.xlsx, feuille « Clubs », cellule C3 (colonne « Département ») : la case « Département » "
                                        "est vide"),
    (["ALBI", "Carcassonne", "11", ""], "clubs.xlsx, feuille « Clubs », cellule A3 (colonne « Code ») : le code « ALBI » est déjà utilisé"),
])
def test_a_club_row_with_its_own_problem_is_one_problem_not_one_per_player_of_that_club(tmp_path, row, said):
    """Carcassonne's département mistyped in clubs.xlsx once made every result row naming Carcassonne
    (and its tournament's `Club`) « n'est pas dans l'annuaire »: forty problems for one cell."""
    inputs = tmp_path / "inputs"
    write_workbook(inputs / "clubs.xlsx", {"Clubs": [["Code", "Nom", "Département", "Email"],
                                                     ["ALBI", "Albi", "81", ""], row]})
    write_tournament(inputs, "t", club="Carcassonne", results=[[1, "DUPONT", "Jean", "", "Carcassonne"],
                                                        [2, "MARTIN", "Paul", "", "Albi"], [3, "DURAND", "Anne", "", "Carcassonne"]])
    write_tournament(inputs, "u", club="ALBI", day="21/03/2026", results=[[1, "DUPONT", "Jean", "", "Carcassonne"]])
    write_workbook(inputs / "calendrier.xlsx", {"Calendrier": [["Date", "Circuit", "Club", "Nom", "Lieu"],
                                                               ["14/03/2026", "grand-sud", "Carcassonne", "", ""]]})
    found = problems(inputs)
    assert len(found) == 1 and found[0].startswith(said), found
