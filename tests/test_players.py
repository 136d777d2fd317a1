"""Who is who: the build asks about newcomers and probable duplicates, and never merges silently."""

import datetime as dt

from reportgen.pipeline import load, score
from tests.builders import TODAY, write_clubs, write_tournament, write_workbook

# What a pair of names of one tournament is answered with, by its note and by `players merge`'s refusal.
ONE_TOURNAMENT = ("une seule personne : l’une des deux lignes est en double, à supprimer du classeur (puis « reportgen "
                  "players merge » si les deux noms restent dans d’autres tournois) ; deux personnes : « reportgen players "
                  "distinct {} »")


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
    assert found[0] == ("grand-sud : 3 nouveaux joueurs dans les derniers classeurs : ROUSSAU Françoise "
                        "(b.xlsx, feuille « Résultats », cellule B2), LOPES Thierry (b.xlsx, feuille « Résultats », cellule B3) et DURAND Anne "
                        "(b.xlsx, feuille « Résultats », cellule B4)")
    # The older name first: `players merge` keeps the first as the player's name.
    assert sorted(found[1:]) == [
        "LOPEZ Thierry (a.xlsx, feuille « Résultats », cellule B3) et LOPES Thierry (b.xlsx, feuille « Résultats », cellule B3) sont peut-être la même "
        "personne : les noms diffèrent de 1 lettre, même club — une seule personne : « reportgen players merge "
        "\"LOPEZ Thierry\" \"LOPES Thierry\" » ; deux personnes : « reportgen players distinct \"LOPEZ Thierry\" "
        "\"LOPES Thierry\" »",
        "ROUSSEAU Françoise (a.xlsx, feuille « Résultats », cellule B2) et ROUSSAU Françoise (b.xlsx, feuille « Résultats », cellule B2) sont peut-être la "
        "même personne : les noms diffèrent de 1 lettre, même club — une seule personne : « reportgen players merge "
        "\"ROUSSEAU Françoise\" \"ROUSSAU Françoise\" » ; deux personnes : « reportgen players distinct "
        "\"ROUSSEAU Françoise\" \"ROUSSAU Françoise\" »"]


def test_names_two_letters_apart_in_different_clubs_are_two_people(tmp_path):
    write_clubs(tmp_path)
    write_tournament(tmp_path, "a", day="10/01/2026", results=[
        [1, "MARTIN", "Paul", "", "Albi"], [2, "BERTIN", "Paul", "", "Nîmes"]])
    assert not [n for n in notices(tmp_path) if "même personne" in n]


def test_a_licence_typed_with_another_name_is_asked_about(tmp_path):
    write_clubs(tmp_path)
    write_tournament(tmp_path, "a", day="10/01/2026", results=[[1, "MARTIN", "Paul", "1002", "Albi"]])
    write_tournament(tmp_path, "b", day="07/02/2026", results=[[1, "GARCIA", "Luis", "1002", "Albi"]])
    assert notices(tmp_path)[-1] == ("la licence 1002 est donnée à MARTIN Paul (a.xlsx, feuille « Résultats », cellule B2) et à "
                                     "GARCIA Luis (b.xlsx, feuille « Résultats », cellule B2) : vérifiez la licence ou le nom")


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
    assert "  ROUSSEAU Françoise, Perpignan — 2 tournois : Tournoi a (10/01/2026) ; Tournoi b (07/02/2026)" in (
        listed.stdout), listed.stdout
    assert listed.stdout.startswith("grand-sud : 3 joueurs\n")


def test_a_circuit_of_one_player_lists_one_joueur(tmp_path):
    import subprocess
    import sys
    from pathlib import Path

    reportgen = str(Path(sys.executable).parent / "reportgen")
    write_clubs(tmp_path)
    write_tournament(tmp_path, "a", day="10/01/2026", results=[[1, "ROUSSEAU", "Françoise", "", "Perpignan"]])
    listed = subprocess.run([reportgen, "players", "list", "--inputs", str(tmp_path)], capture_output=True, text=True)
    assert listed.stdout.startswith("grand-sud : 1 joueur\n"), listed.stdout + listed.stderr


def test_merge_writes_into_the_secretarys_players_file_as_she_made_it(tmp_path):
    """Issue 22: her joueurs.xlsx keeps every cell's value and format, her widths, colours, comments
    and validations; the new row takes the formats of the row above, and her own column (after the
    program's) keeps its header."""
    import subprocess
    import sys
    from pathlib import Path

    import openpyxl
    from openpyxl.styles import Font

    from tests.builders import assert_kept, snapshot, style_like_a_secretary

    reportgen = str(Path(sys.executable).parent / "reportgen")
    write_clubs(tmp_path)
    write_tournament(tmp_path, "a", day="10/01/2026", results=[[1, "ROUSSEAU", "Françoise", "", "Perpignan"]])
    write_tournament(tmp_path, "b", day="07/02/2026", results=[[1, "ROUSSAU", "Françoise", "", "Perpignan"]])
    path = write_workbook(tmp_path / "joueurs.xlsx", {"Joueurs": [
        ["Licence", "Nom", "Prénom", "Club", "Autres graphies", "Né le"],
        ["001234", "MARTIN", "Paul", "Albi", None, dt.datetime(1961, 5, 4)],
        ["004321", "LOPEZ", "Thierry", "Nîmes", "LOPES Thierry", dt.datetime(1970, 1, 2)]]})
    style_like_a_secretary(path, "Joueurs", {1: "@", 6: "dd/mm/yyyy"})
    book = openpyxl.load_workbook(path)
    for row in book["Joueurs"].iter_rows(min_row=2):
        row[1].font = Font(bold=True)
    for row in range(4, 40):  # rows she formatted ahead of typing them: not rows written
        book["Joueurs"].cell(row, 6).number_format = "dd/mm/yyyy"
    book.save(path)
    before = snapshot(path)
    merged = subprocess.run([reportgen, "players", "merge", "ROUSSEAU Françoise", "ROUSSAU Françoise",
                             "--inputs", str(tmp_path)], capture_output=True, text=True)
    assert merged.returncode == 0, merged.stderr
    assert_kept(before, path, "Joueurs")
    sheet = openpyxl.load_workbook(path)["Joueurs"]
    assert [c.value for c in sheet[1]] == ["Licence", "Nom", "Prénom", "Club", "Autres graphies", "Né le"]
    new = [sheet.cell(4, col) for col in range(1, 6)]
    assert [c.value for c in new] == [None, "ROUSSEAU", "Françoise", "Perpignan", "ROUSSAU Françoise"]
    assert new[1].font.b and not new[3].font.b  # as the row above
    assert sheet["F4"].number_format == "dd/mm/yyyy"  # her format ahead, kept
    assert not [c.coordinate for r in sheet.iter_rows(min_row=5) for c in r if c.value is not None]


# -- INTERPRETATIONS.md, « who is who »: Nom and Prénom are ordered facts ----------------------------

def write_diplomacy(inputs, name, day, rows):
    return write_workbook(inputs / f"{name}.xlsx", {
        "Tournoi": [["Circuit", "tour-de-france"], ["Nom", name], ["Date", day]],
        "Résultats": [["Place", "Nom", "Prénom"], *rows]})


OTHERS = [["ALPHA", "Un"], ["BRAVO", "Un"], ["CHARLIE", "Un"], ["DELTA", "Un"], ["ECHO", "Un"], ["FOXTROT", "Un"],
          ["GOLF", "Un"]]


def test_swapped_nom_and_prenom_in_a_tour_de_france_season_are_two_players_asked_about(tmp_path):
    write_diplomacy(tmp_path, "a", "19/03/2005", [[1, "MICHEL", "Bernard"]] + [[i + 2, *p] for i, p in enumerate(OTHERS)])
    write_diplomacy(tmp_path, "b", "16/04/2005", [[1, "BERNARD", "Michel"]] + [[i + 2, *p] for i, p in enumerate(OTHERS)])
    league = load(tmp_path, TODAY)
    assert league.all_problems() == []
    final = [r for r in score(league).reports["tour-de-france"].rankings if r.final][-1]
    ranked = {row.player: (row.rank, row.tied, row.metrics["points"]) for row in final.rows}
    # Each won an 8-player tournament (743 points, regulation 004), behind ALPHA, BRAVO and CHARLIE.
    assert ranked["MICHEL Bernard"] == ranked["BERNARD Michel"] == (4, True, 743)
    assert [n for n in league.notices if "même personne" in n] == [
        "MICHEL Bernard (a.xlsx, feuille « Résultats », cellule B2) et BERNARD Michel (b.xlsx, feuille « Résultats », cellule B2) sont peut-être la même "
        "personne : les mêmes mots dans un autre ordre — une seule personne : « reportgen players merge \"MICHEL "
        "Bernard\" \"BERNARD Michel\" » ; deux personnes : « reportgen players distinct \"MICHEL Bernard\" \"BERNARD "
        "Michel\" »"]


def test_swapped_names_in_one_diplomacy_tournament_are_two_players_not_a_refusal(tmp_path):
    rows = [[i + 1, *p] for i, p in enumerate(OTHERS)]
    rows += [[8, "PHILIPPE", "Daniel"], [9, "DANIEL", "Philippe"]]
    write_diplomacy(tmp_path, "a", "19/03/2005", rows)
    league = load(tmp_path, TODAY)
    assert league.all_problems() == []
    assert {"PHILIPPE Daniel", "DANIEL Philippe"} <= set(league.circuits["tour-de-france"].results["player"])
    # Both in one tournament: two people, or a row typed twice; never « players merge », which refuses them.
    assert [n for n in league.notices if "même personne" in n] == [
        "PHILIPPE Daniel (a.xlsx, feuille « Résultats », cellule B9) et DANIEL Philippe (a.xlsx, feuille « Résultats », cellule B10) sont peut-être la "
        "même personne : les mêmes mots dans un autre ordre, tous deux dans le même tournoi — "
        + ONE_TOURNAMENT.format('"PHILIPPE Daniel" "DANIEL Philippe"')]


def test_the_commands_a_swapped_pair_notice_names_settle_it(tmp_path):
    import subprocess
    import sys
    from pathlib import Path

    reportgen = str(Path(sys.executable).parent / "reportgen")
    write_diplomacy(tmp_path, "a", "19/03/2005", [[1, "MICHEL", "Bernard"]] + [[i + 2, *p] for i, p in enumerate(OTHERS)])
    write_diplomacy(tmp_path, "b", "16/04/2005", [[1, "BERNARD", "Michel"], [2, "DANIEL", "Philippe"]]
                    + [[i + 3, *p] for i, p in enumerate(OTHERS)])
    write_diplomacy(tmp_path, "c", "14/05/2005", [[1, "PHILIPPE", "Daniel"]] + [[i + 2, *p] for i, p in enumerate(OTHERS)])
    for command in (["merge", "MICHEL Bernard", "BERNARD Michel"], ["distinct", "DANIEL Philippe", "PHILIPPE Daniel"]):
        done = subprocess.run([reportgen, "players", *command, "--inputs", str(tmp_path)], capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
    league = load(tmp_path, TODAY)
    assert league.all_problems() == [] and not [n for n in league.notices if "même personne" in n]
    results = league.circuits["tour-de-france"].results
    assert set(results[results["place"] == 1]["player"]) == {"MICHEL Bernard", "PHILIPPE Daniel"}  # one Bernard
    assert {"DANIEL Philippe", "PHILIPPE Daniel"} <= set(results["player"])


def test_swapped_names_of_tantrix_entrants_who_played_no_game_are_asked_about(tmp_path):
    """INTERPRETATIONS.md, « who is who »: the people of `Inscrits` are players, games or not; two
    of them with the same words in another order are asked about like any swapped pair."""
    from tests.tantrix.test_workbooks import TODAY as TANTRIX_DAY
    from tests.tantrix.test_workbooks import round_robin, write_event

    write_event(tmp_path, "Open", round_robin(("MOREAU Lucie", "FAURE Stéphane", 27, 19)),
                registrations=[["MOREAU Lucie", "", ""], ["FAURE Stéphane", "", ""], ["MICHEL Bernard", "", ""],
                               ["BERNARD Michel", "", ""]])
    league = load(tmp_path, TANTRIX_DAY)
    assert league.all_problems() == []
    assert set(league.circuits["tantrix"].results["player"]) == {"MOREAU Lucie", "FAURE Stéphane"}  # no game, no result
    assert [n for n in league.notices if "même personne" in n] == [
        "MICHEL Bernard (open.xlsx, feuille « Inscrits », cellule A4) et BERNARD Michel (open.xlsx, feuille « Inscrits », cellule A5) sont peut-être la même "
        "personne : les mêmes mots dans un autre ordre, tous deux dans le même tournoi — "
        + ONE_TOURNAMENT.format('"MICHEL Bernard" "BERNARD Michel"')]


def test_a_tantrix_entrant_without_games_is_asked_about_beside_a_player_with_the_words_swapped(tmp_path):
    from tests.tantrix.test_workbooks import TODAY as TANTRIX_DAY
    from tests.tantrix.test_workbooks import round_robin, write_event

    write_event(tmp_path, "Open", round_robin(("MICHEL Bernard", "FAURE Stéphane", 27, 19)), day="14/03/2026")
    write_event(tmp_path, "Coupe", round_robin(("MOREAU Lucie", "FAURE Stéphane", 27, 19)), day="11/04/2026",
                registrations=[["MOREAU Lucie", "", ""], ["FAURE Stéphane", "", ""], ["BERNARD Michel", "", ""]])
    league = load(tmp_path, TANTRIX_DAY)
    assert league.all_problems() == []
    assert [n for n in league.notices if "même personne" in n] == [
        "MICHEL Bernard (open.xlsx, feuille « Parties », cellule B2) et BERNARD Michel (coupe.xlsx, feuille « Inscrits », cellule A4) sont peut-être la même "
        "personne : les mêmes mots dans un autre ordre — une seule personne : « reportgen players merge \"MICHEL "
        "Bernard\" \"BERNARD Michel\" » ; deux personnes : « reportgen players distinct \"MICHEL Bernard\" \"BERNARD "
        "Michel\" »"]
    # Answered once, not asked again.
    from tests.test_cli import run
    assert run("players", "distinct", "MICHEL Bernard", "BERNARD Michel", "--inputs", str(tmp_path)).returncode == 0
    assert not [n for n in load(tmp_path, TANTRIX_DAY).notices if "même personne" in n]


def test_swapped_names_among_a_pool_tournaments_registrants_are_asked_about_games_or_not(tmp_path):
    """The same closed list in a pool tournament: its registrants are its results rows, asked
    about before any game is typed."""
    from tests.poules.test_builders import REGISTERED, Tour
    from tests.poules.test_builders import TODAY as POULES_DAY

    entrants = [(name, 2000.0 - index, REGISTERED) for index, name in
                enumerate(["MICHEL Bernard", "BERNARD Michel", "MOREAU Lucie", "FAURE Stéphane"])]
    Tour(entrants=entrants).write(tmp_path)
    league = load(tmp_path, POULES_DAY)
    assert league.all_problems() == []
    assert [n for n in league.notices if "même personne" in n] == [
        "MICHEL Bernard (poules/test.xlsx, feuille « Inscrits », cellule A2) et BERNARD Michel (poules/test.xlsx, feuille « Inscrits », cellule A3) sont "
        "peut-être la même personne : les mêmes mots dans un autre ordre, tous deux dans le même tournoi — "
        + ONE_TOURNAMENT.format('"MICHEL Bernard" "BERNARD Michel"')]


def test_a_name_of_no_player_is_a_mistyped_command_and_nothing_is_recorded(tmp_path):
    """`players merge` with two names of nobody exited 1, as for workbooks to correct, and `players
    distinct` recorded a mistyped name without a word (the question it settles then came back): a
    name that appears in no workbook is a mistyped command (README: exit 2), that line alone, which
    says how to list the players; joueurs.xlsx is left as it was."""
    from tests.test_cli import run

    write_clubs(tmp_path)
    write_tournament(tmp_path, "a", day="10/01/2026", results=[[1, "LOPEZ", "Thierry", "", "Nîmes"]])
    write_tournament(tmp_path, "b", day="07/02/2026", results=[[1, "LOPES", "Thierry", "", "Nîmes"]])
    merged = run("players", "merge", "PERSONNE Une", "PERSONNE Deux", "--inputs", str(tmp_path))
    assert (merged.returncode, merged.stdout) == (2, "")
    assert merged.stderr.splitlines() == [f"ni « PERSONNE Une » ni « PERSONNE Deux » n’apparaissent dans les classeurs de "
                                          f"{tmp_path} (« reportgen players list » les liste)"]
    apart = run("players", "distinct", "LOPEZ Thierry", "LOPES Thiery", "--inputs", str(tmp_path))
    assert (apart.returncode, apart.stdout) == (2, "")
    assert apart.stderr.splitlines() == [f"« LOPES Thiery » n’apparaît dans aucun classeur de {tmp_path} (« reportgen "
                                         "players list » liste les joueurs)"]
    assert not (tmp_path / "joueurs.xlsx").exists()
    # A name as the results or the players' directory give it, whatever its case and accents.
    assert run("players", "distinct", "lopez thierry", "LOPES Thierry", "--inputs", str(tmp_path)).returncode == 0


def test_a_name_of_no_player_while_a_workbook_is_to_correct_shows_its_problems(tmp_path):
    """He may be in the workbook to correct: its problems first, exit 1."""
    from tests.test_cli import run

    write_clubs(tmp_path)
    write_tournament(tmp_path, "a", day="10/01/2026", results=[[1, "LOPEZ", "Thierry", "", "Nîmes"]])
    write_tournament(tmp_path, "b", day="le 8", results=[[1, "LOPES", "Thierry", "", "Nîmes"]])
    apart = run("players", "distinct", "LOPEZ Thierry", "LOPES Thierry", "--inputs", str(tmp_path))
    assert apart.returncode == 1 and "b.xlsx, feuille « Tournoi », cellule B3" in apart.stderr
    assert apart.stderr.rstrip().endswith("(ou son classeur est à corriger, voir ci-dessus)")
    assert not (tmp_path / "joueurs.xlsx").exists()


def test_merge_keeps_the_licence_of_the_spelling_that_has_one(tmp_path):
    """The build asks about CARRÉ Gaëtan (no licence, the older name: kept) and BARRÉ Gaëtan
    (licence 11776); `players merge` wrote CARRÉ's row without a licence, so BARRÉ's results stayed
    his licence's, two players still, the merge said done and the question came back (the example
    league's 2025 pair)."""
    from tests.test_cli import run

    write_clubs(tmp_path)
    write_tournament(tmp_path, "a", day="10/01/2026", results=[[1, "CARRÉ", "Gaëtan", "", "Nîmes"]])
    write_tournament(tmp_path, "b", day="07/02/2026", results=[[1, "BARRÉ", "Gaëtan", "11776", "Nîmes"]])
    merged = run("players", "merge", "CARRÉ Gaëtan", "BARRÉ Gaëtan", "--inputs", str(tmp_path))
    assert merged.returncode == 0, merged.stderr
    league = load(tmp_path, TODAY)
    # Nothing asked any more: neither the pair nor « la licence 11776 est donnée à CARRÉ Gaëtan et à
    # BARRÉ Gaëtan », two spellings the directory now says are one player's.
    assert league.all_problems() == [] and league.notices == []
    results = league.circuits["grand-sud"].results
    assert set(results["player"]) == {"CARRÉ Gaëtan"} and set(results["licence"]) == {"11776"}


def test_merge_fills_the_licence_of_a_row_written_without_it(tmp_path):
    """A row an earlier merge wrote without the licence (above) gets it: the merge then holds."""
    from tests.test_cli import run

    write_clubs(tmp_path)
    write_tournament(tmp_path, "a", day="10/01/2026", results=[[1, "CARRÉ", "Gaëtan", "", "Nîmes"]])
    write_tournament(tmp_path, "b", day="07/02/2026", results=[[1, "BARRÉ", "Gaëtan", "11776", "Nîmes"]])
    write_workbook(tmp_path / "joueurs.xlsx", {"Joueurs": [["Licence", "Nom", "Prénom", "Club", "Autres graphies"],
                                                          [None, "CARRÉ", "Gaëtan", "Nîmes", "BARRÉ Gaëtan"]]})
    assert run("players", "merge", "CARRÉ Gaëtan", "BARRÉ Gaëtan", "--inputs", str(tmp_path)).returncode == 0
    assert set(load(tmp_path, TODAY).circuits["grand-sud"].results["player"]) == {"CARRÉ Gaëtan"}


def test_merge_of_two_licences_is_refused_and_says_what_to_correct(tmp_path):
    """A licence is a player whatever joueurs.xlsx says (ingest/players.py): two names with two
    licences cannot be merged there; the merge said done and changed nothing."""
    from tests.test_cli import run

    write_clubs(tmp_path)
    write_tournament(tmp_path, "a", day="10/01/2026", results=[[1, "CARRÉ", "Gaëtan", "11775", "Nîmes"]])
    write_tournament(tmp_path, "b", day="07/02/2026", results=[[1, "BARRÉ", "Gaëtan", "11776", "Nîmes"]])
    merged = run("players", "merge", "CARRÉ Gaëtan", "BARRÉ Gaëtan", "--inputs", str(tmp_path))
    assert (merged.returncode, merged.stdout) == (1, "")
    assert merged.stderr.splitlines() == [
        "« CARRÉ Gaëtan » (licence 11775, a.xlsx, feuille « Résultats », cellule B2) et « BARRÉ Gaëtan » (licence 11776, "
        "b.xlsx, feuille « Résultats », cellule B2) ont deux licences différentes : ce sont deux joueurs quoi que dise joueurs.xlsx — une "
        "seule personne : corrigez la licence fausse dans ses classeurs ; deux personnes : « reportgen players "
        "distinct \"CARRÉ Gaëtan\" \"BARRÉ Gaëtan\" »"]
    assert not (tmp_path / "joueurs.xlsx").exists()


def test_the_note_on_two_near_names_with_two_licences_offers_what_merge_accepts(tmp_path):
    """The note offered « reportgen players merge », which then refused them for their two licences:
    it now says the licences make two players, and that one person is a licence to correct."""
    write_clubs(tmp_path)
    write_tournament(tmp_path, "a", day="10/01/2026", results=[[1, "CARRÉ", "Gaëtan", "11775", "Nîmes"]])
    write_tournament(tmp_path, "b", day="07/02/2026", results=[[1, "BARRÉ", "Gaëtan", "11776", "Nîmes"]])
    [note] = [n for n in load(tmp_path, TODAY).notices if "peut-être la même personne" in n]
    assert note == ("CARRÉ Gaëtan (a.xlsx, feuille « Résultats », cellule B2) et BARRÉ Gaëtan (b.xlsx, feuille « Résultats », cellule B2) sont peut-être la "
                    "même personne : les noms diffèrent de 1 lettre, même club, deux licences différentes (11775, "
                    "11776) — une seule personne : corrigez la licence fausse dans ses classeurs ; deux personnes : "
                    "« reportgen players distinct \"CARRÉ Gaëtan\" \"BARRÉ Gaëtan\" »")


def test_merge_of_two_names_of_one_tournament_is_refused(tmp_path):
    """Two rows of one tournament are two people, or a row typed twice: merged, the build refused
    the workbook (« listé deux fois »), an archived one included, which nobody may correct (the
    example league's CARRÉ and BARRÉ Gaëtan, both in the 2025 Nîmes tournament)."""
    from tests.test_cli import run

    write_clubs(tmp_path)
    write_tournament(tmp_path, "a", day="10/01/2026", results=[[1, "CARRÉ", "Gaëtan", "", "Nîmes"],
                                                               [2, "BARRÉ", "Gaëtan", "11776", "Nîmes"]])
    write_tournament(tmp_path, "b", day="07/02/2026", results=[[1, "BARRÉ", "Gaëtan", "11776", "Nîmes"]])
    merged = run("players", "merge", "CARRÉ Gaëtan", "BARRÉ Gaëtan", "--inputs", str(tmp_path))
    assert (merged.returncode, merged.stdout) == (1, "")
    assert merged.stderr.splitlines() == [
        "« CARRÉ Gaëtan » (a.xlsx, feuille « Résultats », cellule B2) et « BARRÉ Gaëtan » (a.xlsx, feuille « Résultats », cellule B3) sont dans le même "
        "tournoi : ce sont deux joueurs tant que les deux lignes y sont — "
        + ONE_TOURNAMENT.format('"CARRÉ Gaëtan" "BARRÉ Gaëtan"')]
    assert not (tmp_path / "joueurs.xlsx").exists()


def test_names_of_one_tournament_are_asked_about_with_what_settles_them_not_a_merge_refused(tmp_path):
    """The example league's CARRÉ and BARRÉ Gaëtan: the note offered « players merge », which refuses
    two names of one tournament. It names that tournament's two cells and says what works, the very
    words of the refusal: `players distinct`, or the row typed twice to delete, merged then."""
    import shutil

    from tests.test_cli import run

    inputs = tmp_path / "inputs"
    write_clubs(inputs)
    write_tournament(inputs, "a", day="10/01/2026", results=[[1, "CARRÉ", "Gaëtan", "", "Nîmes"],
                                                             [2, "LOPEZ", "Thierry", "", "Albi"]])
    write_tournament(inputs, "b", day="07/02/2026", results=[[1, "LOPEZ", "Thierry", "", "Albi"],
                                                             [2, "CARRÉ", "Gaëtan", "", "Nîmes"],
                                                             [3, "BARRÉ", "Gaëtan", "", "Nîmes"]])
    write_tournament(inputs, "c", day="07/03/2026", results=[[1, "BARRÉ", "Gaëtan", "", "Nîmes"],
                                                             [2, "LOPEZ", "Thierry", "", "Albi"]])
    answered = ONE_TOURNAMENT.format('"CARRÉ Gaëtan" "BARRÉ Gaëtan"')
    assert [n for n in notices(inputs) if "même personne" in n] == [
        "CARRÉ Gaëtan (b.xlsx, feuille « Résultats », cellule B3) et BARRÉ Gaëtan (b.xlsx, feuille « Résultats », cellule B4) sont peut-être la même "
        "personne : les noms diffèrent de 1 lettre, même club, tous deux dans le même tournoi — " + answered]
    merged = run("players", "merge", "CARRÉ Gaëtan", "BARRÉ Gaëtan", "--inputs", str(inputs))
    assert merged.returncode == 1 and merged.stderr.rstrip().endswith(" — " + answered), merged.stderr
    # Two people: settled.
    apart = shutil.copytree(inputs, tmp_path / "apart")
    assert run("players", "distinct", "CARRÉ Gaëtan", "BARRÉ Gaëtan", "--inputs", str(apart)).returncode == 0
    assert not [n for n in notices(apart) if "même personne" in n]
    # One person: the row typed twice deleted, the question is the usual one, and its merge is done.
    write_tournament(inputs, "b", day="07/02/2026", results=[[1, "LOPEZ", "Thierry", "", "Albi"],
                                                             [2, "CARRÉ", "Gaëtan", "", "Nîmes"]])
    assert [n for n in notices(inputs) if "même personne" in n] == [
        "CARRÉ Gaëtan (a.xlsx, feuille « Résultats », cellule B2) et BARRÉ Gaëtan (c.xlsx, feuille « Résultats », cellule B2) sont peut-être la même "
        "personne : les noms diffèrent de 1 lettre, même club — une seule personne : « reportgen players merge "
        "\"CARRÉ Gaëtan\" \"BARRÉ Gaëtan\" » ; deux personnes : « reportgen players distinct \"CARRÉ Gaëtan\" "
        "\"BARRÉ Gaëtan\" »"]
    merged = run("players", "merge", "CARRÉ Gaëtan", "BARRÉ Gaëtan", "--inputs", str(inputs))
    assert merged.returncode == 0, merged.stderr
    assert not [n for n in notices(inputs) if "même personne" in n]
