"""`reportgen poules next` and `reportgen standings poules` as the secretary runs them: a real
process, its output and exit code, the workbook read back."""

import csv
import datetime as dt
import io
import json

import openpyxl

from tests.poules.test_builders import Tour, names
from tests.test_cli import run

P = names(6)
NAME = "Open de printemps en ligne"
DAY = dt.date(2025, 3, 1)  # well in the past: the commands read the inputs with today's clock


def workbook(inputs):
    return inputs / "poules" / "test.xlsx"


def type_all(path) -> None:
    """Every empty result typed, the first registered winning."""
    book = openpyxl.load_workbook(path)
    for row in book["Parties"].iter_rows(min_row=2):
        if row[4].value is None:
            row[4].value = "1-0" if P.index(row[2].value) < P.index(row[3].value) else "0-1"
    book.save(path)


def test_poules_next_then_standings_from_the_registrants_to_the_final_ranking(tmp_path):
    inputs = tmp_path / "inputs"
    Tour(6, name=NAME, day=DAY).write(inputs)
    started = run("poules", "next", "--event", "open de PRINTEMPS en ligne", "--date", "01/03/2025",
                  "--inputs", str(inputs))
    assert started.returncode == 0, started.stderr
    assert started.stdout.splitlines() == [
        "tour 1 : 2 poules, 12 parties ajoutées à la feuille Parties, lancées le 1er mars 2025",
        f"  poule A : {P[0]}, {P[3]}, {P[4]}", f"  poule B : {P[1]}, {P[2]}, {P[5]}"]
    assert "classeur écrit : " in started.stderr
    before = workbook(inputs).read_bytes()
    refused = run("poules", "next", "--event", NAME, "--inputs", str(inputs))
    assert refused.returncode == 1 and workbook(inputs).read_bytes() == before
    assert refused.stderr.splitlines()[0] == "le tour 1 n’est pas terminé : 12 résultats manquent"
    assert refused.stderr.splitlines()[1].startswith("  poules/test.xlsx, feuille « Parties », cellule E2 (colonne « Résultat ») : poule A")
    current = run("standings", "poules", "--event", NAME, "--format", "csv", "--inputs", str(inputs))
    assert current.returncode == 0, current.stderr
    rows = list(csv.reader(io.StringIO(current.stdout)))
    assert rows[0][:5] == ["rank", "player", "round_reached", "points", "games"]
    assert rows[0] == ["rank", "player", "round_reached", "points", "games", "average", "pool", "pool_place", "forfeit",
                       "tied"]
    assert len(rows) == 7 and {row[2] for row in rows[1:]} == {"1"}
    type_all(workbook(inputs))
    final = run("poules", "next", "--event", NAME, "--date", "15/03/2025", "--inputs", str(inputs))
    assert final.returncode == 0 and final.stdout.startswith("tour 2 (tour final) : 1 poule, 12 parties ajoutées")
    type_all(workbook(inputs))
    standings = run("standings", "poules", "--event", NAME, "--format", "csv", "--inputs", str(inputs))
    assert standings.stdout.splitlines()[1:] == [
        f"1,{P[0]},2,6,6,1.0,A,1,False,False", f"2,{P[1]},2,4,6,0.667,A,2,False,False",
        f"3,{P[2]},2,2,6,0.333,A,3,False,False", f"4,{P[3]},2,0,6,0.0,A,4,False,False",
        f"5,{P[4]},1,0,4,0.0,A,3,False,False", f"6,{P[5]},1,0,4,0.0,B,3,False,False"]
    table = run("standings", "poules", "--event", NAME, "--inputs", str(inputs)).stdout
    line = next(line for line in table.splitlines() if P[1] in line)
    assert " 0,667 " in line and " 1,000 " in next(l for l in table.splitlines() if P[0] in l)  # as the bulletin
    document = json.loads(run("standings", "poules", "--event", NAME, "--format", "json", "--inputs",
                              str(inputs)).stdout)
    assert document["final"] is True and document["date"] == "2025-03-15"


def test_poules_next_names_the_barrage_then_writes_it(tmp_path):
    inputs = tmp_path / "inputs"
    tour = Tour(6, name=NAME, day=DAY)
    tour.next(DAY)
    tour.play(lambda white, black: "1-0" if {white, black} == {P[3], P[4]} else None)  # 4 and 5 level in A
    tour.write(inputs)
    refused = run("poules", "next", "--event", NAME, "--inputs", str(inputs))
    assert refused.returncode == 1
    assert f"    à jouer : {P[4]} (Blancs) – {P[3]} (Noirs)" in refused.stderr.splitlines()
    written = run("poules", "next", "--event", NAME, "--barrages", "--date", "15/03/2025", "--inputs", str(inputs))
    assert written.returncode == 0, written.stderr
    last = [c.value for c in list(openpyxl.load_workbook(workbook(inputs))["Parties"].iter_rows())[-1]]
    assert last == [1, "A", P[4], P[3], None, "barrage", dt.datetime(2025, 3, 15)]


def test_poules_next_for_an_unknown_tournament_names_the_known_ones(tmp_path):
    inputs = tmp_path / "inputs"
    Tour(4, name=NAME, day=DAY).write(inputs)
    result = run("poules", "next", "--event", "Autre tournoi", "--inputs", str(inputs))
    assert result.returncode == 2  # a mistyped command (README: exit codes)
    assert f"aucun tournoi poules ne s’appelle « Autre tournoi » dans {inputs} ; tournois : {NAME}" in result.stderr


def test_poules_next_for_an_unknown_tournament_says_only_that(tmp_path):
    """The example league has notes (two players who may be one): a mistyped --event printed every
    one of them before saying the tournament is unknown; now that line alone, and nothing written."""
    from tests.conftest import EXAMPLE_INPUTS

    result = run("poules", "next", "--event", "Nulle part", "--inputs", str(EXAMPLE_INPUTS))
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.splitlines() == [
        f"aucun tournoi poules ne s’appelle « Nulle part » dans {EXAMPLE_INPUTS} ; tournois : Coupe de la Toussaint "
        "en ligne, Open d'automne en ligne"]


def test_poules_next_for_a_tournament_whose_workbook_is_unreadable_shows_its_problems(tmp_path):
    """No tournament of that name, and a poules workbook that could not be read (it may be the
    one meant): its problems are shown, and the exit code is the workbooks' (1)."""
    inputs = tmp_path / "inputs"
    Tour(4, name=NAME, day=DAY).write(inputs)
    book = openpyxl.load_workbook(workbook(inputs))
    del book["Inscrits"]
    book.save(workbook(inputs))
    result = run("poules", "next", "--event", NAME, "--inputs", str(inputs))
    assert result.returncode == 1 and "poules/test.xlsx" in result.stderr
    assert result.stderr.rstrip().endswith("(ou son classeur est à corriger, voir ci-dessus)")


def test_poules_next_has_french_help():
    result = run("poules", "next", "--help")
    assert result.returncode == 0 and "--barrages" in result.stdout and "Écrire le tour suivant" in result.stdout


def test_poules_next_writes_into_the_secretarys_workbook_as_she_made_it(tmp_path):
    """Issue 22: RON points with two decimals, registration times to the second (a tie-break),
    pools numbered 1–8: every existing cell keeps its value and format, her widths, colours,
    comments and validations stay, round 2 numbers its pools and dates its games as round 1 did."""
    from openpyxl.styles import Font

    from tests.builders import assert_kept, snapshot, style_like_a_secretary

    players = names(24)  # 8 pools of 3 in round 1 (Art. III)
    entrants = [(player, 1552.36 - 10.01 * index, dt.datetime(2025, 2, 1, 18, 42, 5) + dt.timedelta(seconds=index))
                for index, player in enumerate(players)]
    tour = Tour(entrants=entrants, name=NAME, day=DAY)
    tour.next(DAY)
    for row in tour.games(1):
        row[1] = " ABCDEFGH".index(row[1])  # she numbers her pools
    tour.play()
    inputs = tmp_path / "inputs"
    path = tour.write(inputs)
    style_like_a_secretary(path, "Inscrits", {2: "0.00", 3: "dd/mm/yyyy hh:mm:ss"})
    style_like_a_secretary(path, "Parties", {7: "d mmm yyyy"})
    book = openpyxl.load_workbook(path)
    for row in book["Parties"].iter_rows(min_row=2):
        row[2].font = Font(italic=True)
    book.save(path)
    before = snapshot(path)
    written = run("poules", "next", "--event", NAME, "--date", "15/03/2025", "--inputs", str(inputs))
    assert written.returncode == 0, written.stderr
    assert written.stdout.splitlines()[0] == "tour 2 : 4 poules, 48 parties ajoutées à la feuille Parties, lancées le " \
                                             "15 mars 2025"
    assert written.stdout.splitlines()[1].startswith("  poule 1 : ")
    assert_kept(before, path, "Inscrits")
    assert_kept(before, path, "Parties")
    sheet = openpyxl.load_workbook(path)["Parties"]
    assert [c.value for c in sheet[1]] == ["Tour", "Poule", "Blancs", "Noirs", "Résultat", "Phase", "Lancement"]
    added = list(sheet.iter_rows(min_row=2 + 48))  # below round 1's 48 games
    assert len(added) == 48 and {row[1].value for row in added} == {1, 2, 3, 4}
    assert {row[6].value for row in added} == {dt.datetime(2025, 3, 15)}
    assert {row[6].number_format for row in added} == {"d mmm yyyy"} and all(row[2].font.i for row in added)
    assert [str(v.sqref) for v in sheet.data_validations.dataValidation if v.type == "list"] == ["E50:E97"]
    again = openpyxl.load_workbook(path)["Inscrits"]
    assert again["B2"].value == 1552.36 and again["B2"].number_format == "0.00"
    assert again["C3"].value == dt.datetime(2025, 2, 1, 18, 42, 6)
    standings = run("standings", "poules", "--event", NAME, "--format", "csv", "--inputs", str(inputs))
    assert standings.returncode == 0, standings.stderr  # and it reads back


def test_poules_next_into_a_workbook_it_may_not_write_says_why_and_writes_nothing(tmp_path):
    """The round proposed, but the workbook an .xlsm (reportgen writes .xlsx only): its problem said,
    exit 1, the file as it was (cli_support.write_change, as `masters prepare` writes its own)."""
    inputs = tmp_path / "inputs"
    Tour(6, name=NAME, day=DAY).write(inputs)
    kept = workbook(inputs).rename(workbook(inputs).with_suffix(".xlsm"))
    before = kept.read_bytes()
    refused = run("poules", "next", "--event", NAME, "--date", "01/03/2025", "--inputs", str(inputs))
    assert refused.returncode == 1 and refused.stdout == "" and kept.read_bytes() == before
    assert refused.stderr.splitlines() == [
        "1 problème à corriger dans les classeurs :",
        "  - poules/test.xlsm : reportgen n’écrit que des classeurs .xlsx, pas des .xlsm — ouvrez-le dans Excel ou "
        "LibreOffice, enregistrez-le au format .xlsx, retirez l’ancien fichier de inputs/, puis relancez la commande"]
