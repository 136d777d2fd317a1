"""Who is who: the build asks about newcomers and probable duplicates, and never merges silently."""

from reportgen.pipeline import load
from tests.builders import TODAY, write_clubs, write_tournament


def notices(inputs) -> list[str]:
    league = load(inputs, TODAY)
    assert league.all_problems() == []
    return league.notices


def test_a_name_one_letter_off_in_the_same_club_is_asked_about_with_its_cells(tmp_path):
    write_clubs(tmp_path)
    write_tournament(tmp_path, "a", day="10/01/2026", results=[
        [1, "ROUSSEAU", "Françoise", "", "Perpignan"], [2, "LOPEZ", "Thierry", "", "Nîmes"]])
    write_tournament(tmp_path, "b", day="07/02/2026", results=[
        [1, "ROUSSAU", "Françoise", "", "Perpignan"], [2, "LOPES", "Thierry", "", "Nîmes"],
        [3, "DURAND", "Anne", "", "Albi"]])
    found = notices(tmp_path)
    assert found[0] == ("grand-sud : 3 nouveau(x) joueur(s) dans les derniers classeurs : ROUSSAU Françoise "
                        "(b.xlsx:'Résultats'!B2), LOPES Thierry (b.xlsx:'Résultats'!B3), DURAND Anne "
                        "(b.xlsx:'Résultats'!B4)")
    assert sorted(found[1:]) == [
        "LOPES Thierry (b.xlsx:'Résultats'!B3) et LOPEZ Thierry (a.xlsx:'Résultats'!B3) sont peut-être la même "
        "personne : les noms diffèrent de 1 lettre, même club",
        "ROUSSAU Françoise (b.xlsx:'Résultats'!B2) et ROUSSEAU Françoise (a.xlsx:'Résultats'!B2) sont peut-être la "
        "même personne : les noms diffèrent de 1 lettre, même club"]


def test_names_two_letters_apart_in_different_clubs_are_two_people(tmp_path):
    write_clubs(tmp_path)
    write_tournament(tmp_path, "a", day="10/01/2026", results=[
        [1, "MARTIN", "Paul", "", "Albi"], [2, "BERTIN", "Paul", "", "Nîmes"]])
    assert not [n for n in notices(tmp_path) if "même personne" in n]


def test_a_licence_typed_with_another_name_is_asked_about(tmp_path):
    write_clubs(tmp_path)
    write_tournament(tmp_path, "a", day="10/01/2026", results=[[1, "MARTIN", "Paul", "1002", "Albi"]])
    write_tournament(tmp_path, "b", day="07/02/2026", results=[[1, "GARCIA", "Luis", "1002", "Albi"]])
    assert notices(tmp_path)[-1] == ("la licence 1002 est donnée à MARTIN Paul (a.xlsx:'Résultats'!B2) et à "
                                     "GARCIA Luis (b.xlsx:'Résultats'!B2) : vérifiez la licence ou le nom")


def test_merge_records_the_other_spelling_in_the_directory_and_the_question_never_comes_back(tmp_path):
    import subprocess
    import sys
    from pathlib import Path

    reportgen = str(Path(sys.executable).parent / "reportgen")
    write_clubs(tmp_path)
    write_tournament(tmp_path, "a", day="10/01/2026", results=[[1, "ROUSSEAU", "Françoise", "", "Perpignan"],
                                                               [2, "LOPEZ", "Thierry", "", "Nîmes"]])
    write_tournament(tmp_path, "b", day="07/02/2026", results=[[1, "ROUSSAU", "Françoise", "", "Perpignan"],
                                                               [2, "LOPES", "Thierry", "", "Nîmes"]])
    merged = subprocess.run([reportgen, "players", "merge", "ROUSSEAU Françoise", "ROUSSAU Françoise",
                             "--inputs", str(tmp_path)], capture_output=True, text=True)
    assert merged.returncode == 0, merged.stderr
    apart = subprocess.run([reportgen, "players", "distinct", "LOPEZ Thierry", "LOPES Thierry",
                            "--inputs", str(tmp_path)], capture_output=True, text=True)
    assert apart.returncode == 0, apart.stderr
    league = load(tmp_path, TODAY)
    assert league.all_problems() == [] and not [n for n in league.notices if "même personne" in n]
    players = set(league.circuits["grand-sud"].results["player"])
    assert players == {"ROUSSEAU Françoise", "LOPEZ Thierry", "LOPES Thierry"}  # one Françoise now
    listed = subprocess.run([reportgen, "players", "list", "--inputs", str(tmp_path)], capture_output=True, text=True)
    assert "  ROUSSEAU Françoise, Perpignan — 2 tournois : Tournoi a (10/01/2026); Tournoi b (07/02/2026)" in (
        listed.stdout), listed.stdout
