"""The pool tournament workbook as the secretary keeps it: what `poules next` writes into it (real
.xlsx files, read back cell by cell), what it refuses, and every bad cell as a located French
problem."""

import datetime as dt

import openpyxl
import pytest

from reportgen.circuits.poules.next_round import propose
from reportgen.circuits.poules.settings import PoulesSettings
from reportgen.pipeline import load, score
from reportgen.render.inputs import apply
from tests.poules.test_builders import REGISTERED, TODAY, Tour, names

P = names(12)
DAY = dt.date(2026, 9, 5)


def event_of(inputs):
    league = load(inputs, TODAY)
    events = league.circuits["poules"].events
    return (events[0] if events else None), [str(p) for p in league.circuits["poules"].problems]


def run_next(inputs, day=DAY, barrages=False):
    """`poules next` as the command runs it: the proposal, applied; (proposal, problems of apply)."""
    event, problems = event_of(inputs)
    assert not problems, problems
    proposal = propose(event, PoulesSettings(), day, barrages)
    lost = apply(proposal.change, inputs) if proposal.change is not None else []
    return proposal, lost


def cells(path):
    book = openpyxl.load_workbook(path)
    return {sheet.title: [[c.value for c in row] for row in sheet.iter_rows()] for sheet in book.worksheets}


def first_registered_wins(white, black):
    return "1-0" if P.index(white) < P.index(black) else "0-1"


def type_results(path, decide=first_registered_wins):
    """Type a result in every empty `Résultat` cell, in the file, as the secretary does."""
    book = openpyxl.load_workbook(path)
    sheet = book["Parties"]
    for row in sheet.iter_rows(min_row=2):
        if row[4].value in (None, ""):
            row[4].value = decide(row[2].value, row[3].value)
    book.save(path)


def test_next_writes_round_one_on_a_workbook_with_only_its_registrants(tmp_path):
    path = Tour(12).write(tmp_path)
    before = cells(path)
    proposal, lost = run_next(tmp_path)
    assert lost == [] and proposal.said[0].startswith("tour 1 : 4 poules, 24 parties ajoutées")
    after = cells(path)
    assert list(after) == ["Tournoi", "Inscrits", "Parties"]
    assert after["Inscrits"] == before["Inscrits"]  # registration times keep their hour and minute
    assert after["Inscrits"][1][2] == REGISTERED
    games = after["Parties"]
    assert games[0] == ["Tour", "Poule", "Blancs", "Noirs", "Résultat", "Phase", "Lancement"]
    assert len(games) == 1 + 4 * 6 and all(row[4] is None and row[5] == "principale" for row in games[1:])
    assert games[1] == [1, "A", P[0], P[7], None, "principale", dt.datetime(2026, 9, 5)]
    pairs = {(row[2], row[3]) for row in games[1:] if row[1] == "A"}
    assert pairs == {(w, b) for w in (P[0], P[7], P[8]) for b in (P[0], P[7], P[8]) if w != b}  # each colour once
    validation = openpyxl.load_workbook(path)["Parties"].data_validations.dataValidation
    assert [(v.type, v.formula1, str(v.sqref)) for v in validation] == [("list", '"1-0,0-1,½-½"', "E2:E25")]
    assert [v.errorStyle for v in validation] == ["warning"]  # the reader also takes 1/2-1/2, 0,5-0,5


def with_cached_values(path, values):
    """The file as Excel saves it: each formula with its computed value (`values`, in order), and no
    request to recompute on load (openpyxl writes formulas without either)."""
    import re
    import zipfile
    with zipfile.ZipFile(path) as package:
        parts = {info.filename: package.read(info.filename) for info in package.infolist()}
    computed = iter(values)
    for name in parts:
        if name.startswith("xl/worksheets/"):
            parts[name] = re.sub(rb"(<f>[^<]*</f>)(?:<v\s*/>|<v></v>)?",
                                 lambda found: found[1] + b"<v>" + next(computed) + b"</v>", parts[name])
    parts["xl/workbook.xml"] = parts["xl/workbook.xml"].replace(b' fullCalcOnLoad="1"', b"")
    with zipfile.ZipFile(path, "w") as package:
        for name, data in parts.items():
            package.writestr(name, data)


def test_round_one_added_to_her_registrants_leaves_her_sheets_as_they_are(tmp_path):
    """Issue 22: only the `Parties` sheet is the program's; a formula of hers in `Inscrits` stays a
    formula (it used to become its value)."""
    path = Tour(12).write(tmp_path)
    book = openpyxl.load_workbook(path)
    book["Inscrits"]["B2"] = "=1500+52.36"
    book.save(path)
    with_cached_values(path, [b"1552.36"])
    proposal, lost = run_next(tmp_path)
    assert lost == [] and proposal.said[0].startswith("tour 1 : 4 poules")
    assert openpyxl.load_workbook(path)["Inscrits"]["B2"].value == "=1500+52.36"


def test_next_leaves_every_typed_cell_untouched_and_appends_the_next_round(tmp_path):
    tour = Tour(6)
    tour.sheets["Notes"] = [["La secrétaire", "ses notes"], ["rappel", "ne rien effacer"]]
    path = tour.write(tmp_path)
    run_next(tmp_path)
    type_results(path, lambda white, black: "1-0" if P.index(white) < P.index(black) else "½-½")
    book = openpyxl.load_workbook(path)
    book["Parties"]["H1"] = "Commentaire"  # a column of her own, beside the table
    book["Parties"]["H3"] = "joué en retard"
    book.save(path)
    before = cells(path)
    proposal, lost = run_next(tmp_path, dt.date(2026, 9, 19))
    assert lost == [] and proposal.said[0].startswith("tour 2 (tour final) : 1 poule, 12 parties ajoutées")
    after = cells(path)
    assert list(after) == list(before)
    for sheet, rows in before.items():
        for index, row in enumerate(rows):
            assert after[sheet][index][:len(row)] == row, (sheet, index)
    added = after["Parties"][len(before["Parties"]):]
    assert len(added) == 12 and {row[0] for row in added} == {2} and all(row[4] is None for row in added)
    assert {row[6] for row in added} == {dt.datetime(2026, 9, 19)}


def test_next_appends_to_a_games_sheet_kept_in_its_own_layout(tmp_path):
    """Title rows above the header, columns in another order, no `Lancement` column: the new rows go
    under the last row, each value in its own column; the missing column is added beside."""
    tour = Tour(6)
    tour.next()
    rows = tour.sheets["Parties"]
    tour.sheets["Parties"] = [["Tournoi test — parties"], []] + [
        [row[4], row[2], row[3], row[0], row[1]] for row in rows]  # Résultat, Blancs, Noirs, Tour, Poule
    tour.sheets["Parties"][2] = ["Résultat", "Blancs", "Noirs", "Tour", "Poule"]
    for row in tour.sheets["Parties"][3:]:
        row[0] = "1-0" if P.index(row[1]) < P.index(row[2]) else "0-1"
    path = tour.write(tmp_path)
    before = cells(path)
    proposal, lost = run_next(tmp_path, dt.date(2026, 9, 19))
    assert lost == [] and proposal.change is not None
    after = cells(path)
    assert after["Parties"][2] == ["Résultat", "Blancs", "Noirs", "Tour", "Poule", "Phase", "Lancement"]
    for index, row in enumerate(before["Parties"]):
        if index != 2:
            assert after["Parties"][index][:len(row)] == row
    first = after["Parties"][len(before["Parties"])]
    assert first[0] is None and first[3:7] == [2, "A", "principale", dt.datetime(2026, 9, 19)]
    assert event_of(tmp_path)[1] == []  # and it reads back


def test_next_refuses_an_incomplete_round_and_leaves_the_file_byte_for_byte(tmp_path):
    path = Tour(6).write(tmp_path)
    run_next(tmp_path)
    type_results(path)
    book = openpyxl.load_workbook(path)
    book["Parties"]["E4"] = None
    book["Parties"]["E9"] = None
    book.save(path)
    before = path.read_bytes()
    proposal, lost = run_next(tmp_path, dt.date(2026, 9, 19))
    assert proposal.change is None and path.read_bytes() == before
    assert proposal.said[0] == "le tour 1 n’est pas terminé : 2 résultats manquent"
    assert proposal.said[1].startswith("  poules/test.xlsx, feuille « Parties », cellule E4 (colonne « Résultat ») : poule A, ")


def test_a_barrage_is_named_then_written_with_white_to_the_later_registrant(tmp_path):
    path = Tour(6).write(tmp_path)  # A: seeds 1, 4, 5
    run_next(tmp_path)
    # Seeds 4 and 5 each win with White against the other, both lose to 1: level for 2nd place.
    type_results(path, lambda white, black: "1-0" if {white, black} == {P[3], P[4]} else (
        "1-0" if P.index(white) < P.index(black) else "0-1"))
    before = path.read_bytes()
    proposal, _ = run_next(tmp_path)
    assert proposal.change is None and path.read_bytes() == before
    assert proposal.said == ["le tour 1 attend ses barrages (Art. IX) :",
                             f"  poule A : barrage entre {P[3]}, {P[4]}",
                             f"    à jouer : {P[4]} (Blancs) – {P[3]} (Noirs)",
                             "relancez avec --barrages pour ajouter ces parties à la feuille Parties (Phase = barrage)"]
    proposal, lost = run_next(tmp_path, dt.date(2026, 9, 19), barrages=True)
    assert lost == [] and proposal.change is not None
    assert cells(path)["Parties"][-1] == [1, "A", P[4], P[3], None, "barrage", dt.datetime(2026, 9, 19)]
    proposal, _ = run_next(tmp_path, dt.date(2026, 9, 20), barrages=True)  # nothing more to write
    assert proposal.change is None and proposal.said[2].startswith("    résultat manquant en poules/test.xlsx")


def test_apply_refuses_to_lose_a_result_typed_since_the_round_was_proposed(tmp_path):
    path = Tour(6).write(tmp_path)
    run_next(tmp_path)
    type_results(path)
    event, _ = event_of(tmp_path)
    proposal = propose(event, PoulesSettings(), DAY)  # round 2, computed from the file as it was
    book = openpyxl.load_workbook(path)
    book["Parties"]["E2"] = "0-1"  # corrected meanwhile
    book.save(path)
    before = path.read_bytes()
    lost = apply(proposal.change, tmp_path)
    assert [str(p) for p in lost] == ["poules/test.xlsx, feuille « Parties », cellule E2 : la valeur saisie « 0-1 » serait effacée — "
                                      "effacez-la d’abord vous-même si elle est fausse"]
    assert path.read_bytes() == before


def test_apply_refuses_to_append_over_a_row_typed_since_the_round_was_proposed(tmp_path):
    path = Tour(6).write(tmp_path)
    run_next(tmp_path)
    type_results(path)
    event, _ = event_of(tmp_path)
    proposal = propose(event, PoulesSettings(), DAY)  # round 2 goes in row 14, empty when read
    book = openpyxl.load_workbook(path)
    book["Parties"]["H14"] = "à rejouer ?"  # a note of hers, typed meanwhile
    book.save(path)
    before = path.read_bytes()
    assert [str(p) for p in apply(proposal.change, tmp_path)] == [
        "poules/test.xlsx, feuille « Parties », cellule A14 : la ligne 14 n’est plus vide : le classeur a changé depuis sa lecture — "
        "relancez la commande"]
    assert path.read_bytes() == before


def test_pools_that_are_not_the_rules_are_refused_naming_the_cells(tmp_path):
    tour = Tour(6)
    tour.next()
    row = tour.games(1)[0]  # A: seed 1 v seed 4
    row[3] = P[1]  # seed 2 plays in pool B
    tour.games(1)[1][1] = "C"  # there is no pool C
    del tour.sheets["Parties"][-1]  # a game of pool B is missing
    tour.write(tmp_path)
    event, problems = event_of(tmp_path)
    proposal = propose(event, PoulesSettings(), DAY)
    assert proposal.change is None
    assert [str(p) for p in proposal.problems] == [
        "poules/test.xlsx, feuille « Parties », cellule D2 (colonne « Noirs ») : JOUEURB Un joue dans la poule B du tour 1, pas dans la "
        "poule A — les poules et les parties de chaque tour sont celles que donne le règlement (Art. III et IV) : "
        "corrigez la case, ou effacez les lignes de ce tour et relancez « reportgen poules next »",
        "poules/test.xlsx, feuille « Parties », cellule B3 (colonne « Poule ») : il n’y a pas de poule C au tour 1 (les poules A et B) — "
        "les poules et les parties de chaque tour sont celles que donne le règlement (Art. III et IV) : corrigez la "
        "case, ou effacez les lignes de ce tour et relancez « reportgen poules next »",
        "poules/test.xlsx, feuille « Parties », cellule B2 (colonne « Poule ») : il manque 2 parties à la poule A du tour 1 "
        "(Blancs – Noirs) : JOUEURA Un – JOUEURD Un et JOUEURA Un – JOUEURE Un — les poules et les parties de chaque "
        "tour sont celles que donne le règlement (Art. III et IV) : corrigez la case, ou effacez les lignes de ce "
        "tour et relancez « reportgen poules next »",
        "poules/test.xlsx, feuille « Parties », cellule B8 (colonne « Poule ») : il manque 1 partie à la poule B du tour 1 "
        "(Blancs – Noirs) : JOUEURF Un – JOUEURC Un — les poules et les parties de chaque tour sont celles que "
        "donne le règlement (Art. III et IV) : corrigez la case, ou effacez les lignes de ce tour et relancez "
        "« reportgen poules next »"]
    # The build is blocked by the same problems.
    assert score(load(tmp_path, TODAY)).blocked["poules"] == sorted(proposal.problems)


def test_a_sheet_that_numbers_its_pools_is_told_its_problems_in_numbers():
    """Issue 22: the problems name the pools as the sheet does (« poule 2 », not « poule B »)."""
    tour = Tour(6)
    tour.next()
    for row in tour.games(1):
        row[1] = " AB".index(row[1])
    tour.games(1)[0][3] = P[1]  # seed 2 plays in pool 2
    del tour.sheets["Parties"][-1]  # a game of pool 2 is missing
    messages = [p.message for p in tour.replay().problems]
    assert messages == [
        "JOUEURB Un joue dans la poule 2 du tour 1, pas dans la poule 1",
        "il manque 1 partie à la poule 1 du tour 1 (Blancs – Noirs) : JOUEURA Un – JOUEURD Un",
        "il manque 1 partie à la poule 2 du tour 1 (Blancs – Noirs) : JOUEURF Un – JOUEURC Un"]
    tour.games(1)[1][1] = "?"
    assert only(tour) == ["poules/test.xlsx, feuille « Parties », cellule B3 (colonne « Poule ») : « ? » n’est pas un nom de poule — "
                          "écrivez le nom de la poule : 1, 2, 3…"]


@pytest.mark.parametrize(("first", "fix"), [("A", "A, B, C"), ("Poule 1", "Poule 1, Poule 2, Poule 3"),
                                             ("?", "A, B, C")])
def test_a_pool_that_is_no_pool_is_told_how_the_sheet_names_them(first, fix):
    tour = Tour(4)
    tour.next()
    tour.games(1)[0][1] = first
    tour.games(1)[1][1] = "x1"
    assert only(tour)[-1] == (f"poules/test.xlsx, feuille « Parties », cellule B3 (colonne « Poule ») : « x1 » n’est pas un nom de "
                              f"poule — écrivez le nom de la poule : {fix}…")


def only(tour: Tour) -> list[str]:
    _, problems = tour.parsed()
    return problems


RESULT_FIX = ("écrivez 1-0 (les Blancs gagnent), 0-1 (les Noirs gagnent) ou ½-½ (nulle), ou laissez la case vide "
              "tant que la partie n’est pas jouée")


@pytest.mark.parametrize("typed", ["2-0", "1", "gagné", "1-1"])
def test_a_result_that_is_not_a_result(typed):
    tour = Tour(4)
    tour.next()
    tour.games(1)[1][4] = typed
    assert only(tour) == [f"poules/test.xlsx, feuille « Parties », cellule E3 (colonne « Résultat ») : « {typed} » n’est pas un "
                          f"résultat — {RESULT_FIX}"]


@pytest.mark.parametrize("typed", ["1/2-1/2", "½ - ½", "0,5-0,5", "1–0", " 0-1 "])
def test_results_are_read_in_every_usual_writing(typed):
    tour = Tour(4)
    tour.next()
    tour.games(1)[1][4] = typed
    assert only(tour) == []


def test_an_unknown_player_is_located_with_the_nearest_name():
    tour = Tour(4)
    tour.next()
    tour.games(1)[0][2] = "JOUEURA Une"
    tour.games(1)[1][3] = "INCONNU Pierre"
    assert only(tour) == [
        "poules/test.xlsx, feuille « Parties », cellule C2 (colonne « Blancs ») : « JOUEURA Une » n’est pas dans la feuille Inscrits — "
        "vouliez-vous dire « JOUEURA Un » ?",
        "poules/test.xlsx, feuille « Parties », cellule D3 (colonne « Noirs ») : « INCONNU Pierre » n’est pas dans la feuille Inscrits — "
        "écrivez le nom tel qu’il figure dans la feuille Inscrits, ou inscrivez le joueur"]


def test_a_forfeit_of_a_misspelt_player_suggests_the_registered_name():
    tour = Tour(4)
    tour.next()
    tour.forfeit("JOUEURA Une", 1)
    assert only(tour) == [
        "poules/test.xlsx, feuille « Forfaits », cellule A2 (colonne « Joueur ») : « JOUEURA Une » n’est pas dans la feuille Inscrits — "
        "vouliez-vous dire « JOUEURA Un » ?"]


def test_names_match_whatever_their_accents_case_and_order():
    tour = Tour(4)
    tour.next()
    tour.games(1)[0][2] = "Un joueura"
    assert only(tour) == []


def test_swapped_names_in_inscrits_are_two_registrants_asked_about_not_refused(tmp_path):
    # INTERPRETATIONS.md, « who is who »: PHILIPPE Daniel and DANIEL Philippe are two people.
    entrants = [(player, 2000.0 - index, REGISTERED + dt.timedelta(hours=index))
                for index, player in enumerate([*P[:4], "PHILIPPE Daniel", "DANIEL Philippe"])]
    tour = Tour(entrants=entrants)
    tour.next()
    assert {row[2] for row in tour.games(1)} | {row[3] for row in tour.games(1)} >= {"PHILIPPE Daniel",
                                                                                     "DANIEL Philippe"}
    tour.write(tmp_path)
    league = load(tmp_path, TODAY)
    assert league.all_problems() == []
    assert [n for n in league.notices if "mêmes mots" in n] == [
        "PHILIPPE Daniel (poules/test.xlsx, feuille « Inscrits », cellule A6) et DANIEL Philippe (poules/test.xlsx, feuille « Inscrits », cellule A7) sont "
        "peut-être la même personne : les mêmes mots dans un autre ordre, tous deux dans le même tournoi — une seule "
        "personne : l’une des deux lignes est en double, à supprimer du classeur (puis « reportgen players merge » si "
        "les deux noms restent dans d’autres tournois) ; deux personnes : « reportgen players distinct \"PHILIPPE "
        "Daniel\" \"DANIEL Philippe\" »"]


def test_a_game_naming_two_registrants_with_the_same_words_is_refused_not_guessed():
    entrants = [(player, 2000.0 - index, REGISTERED + dt.timedelta(hours=index))
                for index, player in enumerate([*P[:4], "MARTIN Jean Paul", "PAUL Jean Martin"])]
    tour = Tour(entrants=entrants)
    tour.next()
    row = next(row for row in tour.games(1) if row[2] == "MARTIN Jean Paul")
    row[2] = "Jean Paul MARTIN"  # the surname in capitals: MARTIN Jean Paul, as typed
    assert only(tour) == []
    row[2] = "jean paul martin"  # no capitals: either of them
    assert [p.split(" : ", 1)[1] for p in only(tour)] == [
        "« jean paul martin » peut désigner « MARTIN Jean Paul » ou « PAUL Jean Martin » (feuille Inscrits) — écrivez "
        "le nom tel qu’il figure dans la feuille Inscrits"]


def test_bad_cells_of_the_registrants_forfeits_and_games():
    tour = Tour(4)
    tour.next()
    inscrits = tour.sheets["Inscrits"]
    inscrits[1][1] = "beaucoup"
    inscrits[2][2] = "hier soir"
    inscrits[3][3] = "pas une adresse"
    inscrits.append([P[0], 1500, REGISTERED, ""])
    games = tour.games(1)
    games[0][0] = "premier"
    games[2][5] = "finale"
    games[3][3] = games[3][2]
    tour.forfeit("PERSONNE Jean", 1)
    assert only(tour) == [
        "poules/test.xlsx, feuille « Forfaits », cellule A2 (colonne « Joueur ») : « PERSONNE Jean » n’est pas dans la feuille Inscrits "
        "— écrivez le nom tel qu’il figure dans la feuille Inscrits, ou inscrivez le joueur",
        "poules/test.xlsx, feuille « Inscrits », cellule B2 (colonne « Points RON ») : « beaucoup » n’est pas un nombre — écrivez les "
        "points RON, par exemple 1850,5",
        "poules/test.xlsx, feuille « Inscrits », cellule C3 (colonne « Inscription ») : « hier soir » n’est pas une date et heure "
        "d’inscription — écrivez jj/mm/aaaa hh:mm, par exemple 02/09/2026 18:42",
        "poules/test.xlsx, feuille « Inscrits », cellule D4 (colonne « Email ») : « pas une adresse » n’est pas une adresse électronique "
        "— écrivez une seule adresse, par exemple prenom.nom@exemple.fr, ou laissez vide",
        "poules/test.xlsx, feuille « Inscrits », cellule A6 (colonne « Joueur ») : JOUEURA Un est inscrit deux fois (déjà en A2) — "
        "supprimez le doublon",
        "poules/test.xlsx, feuille « Parties », cellule A2 (colonne « Tour ») : « premier » n’est pas un nombre entier — écrivez le "
        "numéro du tour : 1, 2, 3…",
        "poules/test.xlsx, feuille « Parties », cellule F4 (colonne « Phase ») : « finale » n’est pas une phase — écrivez principale (ou "
        "laissez vide) ou barrage",
        "poules/test.xlsx, feuille « Parties », cellule D5 (colonne « Noirs ») : JOUEURB Un joue contre lui-même — corrigez les joueurs "
        "de la partie"]


def test_registration_times_are_read_as_typed():
    from reportgen.circuits.poules.parse import moment

    assert moment("02/09/2026 18:42") == dt.datetime(2026, 9, 2, 18, 42)
    assert moment("2026-09-02 18:42:05") == dt.datetime(2026, 9, 2, 18, 42, 5)
    assert moment("2/9/2026 à 18h42") == dt.datetime(2026, 9, 2, 18, 42)
    assert moment(dt.date(2026, 9, 2)) == dt.datetime(2026, 9, 2)
    assert moment(46267.5) == dt.datetime(2026, 9, 2, 12)  # an Excel day number with its fraction


def test_missing_sheets_and_columns_say_what_to_add():
    tour = Tour(4)
    del tour.sheets["Inscrits"]
    assert only(tour) == ["poules/test.xlsx : la feuille « Inscrits » est introuvable (feuilles présentes : « Tournoi ») — "
                          "ajoutez la feuille des inscrits (Joueur, Points RON, Inscription, Email)"]
    tour = Tour(4)
    tour.sheets["Parties"] = [["Tour", "Blancs", "Noirs"]]
    assert only(tour) == ["poules/test.xlsx, feuille « Parties », cellule A1 : colonne introuvable : « Poule », « Résultat » — "
                          "écrivez les poules avec « reportgen poules next » (colonnes Tour, Poule, Blancs, Noirs, "
                          "Résultat, Phase)"]


def test_forfeits_and_games_of_rounds_that_cannot_be_there_are_located():
    tour = Tour(6)
    tour.next()
    tour.forfeit(P[0], 2)  # round 2 has not started
    tour.sheets["Parties"].append([2, "A", P[0], P[1], "", "principale", ""])
    event, problems = tour.parsed()
    assert problems == []
    from reportgen.circuits.poules.tournament import replay

    found = [str(p) for p in replay(event.content, event.date, PoulesSettings()).problems]
    assert found == [
        "poules/test.xlsx, feuille « Parties », cellule A14 (colonne « Tour ») : des parties du tour 2 sont saisies mais le tour 1 n’est "
        "pas terminé — effacez les lignes de ce tour, ou complétez d’abord le tour précédent",
        "poules/test.xlsx, feuille « Forfaits », cellule B2 (colonne « Tour ») : le tour 2 n’a pas commencé — indiquez le tour que le "
        "joueur jouait lors de son forfait"]


def test_a_barrage_with_the_colours_the_wrong_way_round_is_refused():
    tour = Tour(6)
    tour.next()
    tour.play(lambda white, black: "1-0" if {white, black} == {P[3], P[4]} else (
        "1-0" if P.index(white) < P.index(black) else "0-1"))
    tour.sheets["Parties"].append([1, "A", P[3], P[4], "", "barrage", ""])
    from reportgen.circuits.poules.tournament import replay

    event = tour.event()
    assert [str(p) for p in replay(event.content, event.date, PoulesSettings()).problems] == [
        "poules/test.xlsx, feuille « Parties », cellule C14 (colonne « Blancs ») : au barrage, les Blancs reviennent au dernier inscrit "
        "(Art. IX) : ici JOUEURE Un, pas JOUEURD Un — échangez les Blancs et les Noirs de cette partie"]


def test_barrage_games_where_no_barrage_is_called_for_are_refused():
    tour = Tour(6)
    tour.next()
    tour.play(first_registered_wins)  # no tie anywhere
    tour.sheets["Parties"].append([1, "B", P[5], P[2], "", "barrage", ""])
    from reportgen.circuits.poules.tournament import replay

    event = tour.event()
    assert [str(p) for p in replay(event.content, event.date, PoulesSettings()).problems] == [
        "poules/test.xlsx, feuille « Parties », cellule C14 (colonne « Blancs ») : JOUEURF Un et JOUEURC Un ne sont pas à égalité de "
        "points à une place que départage un barrage (Art. IX) — effacez cette ligne de barrage, ou corrigez les "
        "résultats"]
    tour.games(1)[7][4] = ""  # a barrage before the main games of its pool are all played
    event = tour.event()
    assert [str(p) for p in replay(event.content, event.date, PoulesSettings()).problems] == [
        "poules/test.xlsx, feuille « Parties », cellule F14 (colonne « Phase ») : barrage saisi alors que des parties de la poule B du "
        "tour 1 restent à jouer — saisissez d’abord les résultats de la phase principale, ou effacez cette ligne"]
