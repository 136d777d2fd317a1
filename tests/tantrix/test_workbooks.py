"""Tantrix workbooks as clubs type them, and every bad cell as a located French problem.

The builders here (`write_event`, `scored`, `problems`) serve the other tests of tests/tantrix/."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from reportgen.circuits.tantrix.scoring import score_events
from reportgen.circuits.tantrix.settings import TantrixSettings
from reportgen.pipeline import load
from tests.builders import write_workbook

TODAY = dt.date(2026, 11, 29)
HEADER = ["Ronde", "Joueur A", "Joueur B", "Tuiles A", "Tuiles B", "Temps A", "Temps B", "Forfait", "Déconnexion"]
REGISTRATION_HEADER = ["Joueur", "Elo", "Couleur 1", "Couleur 2"]


def write_event(inputs: Path, name: str, games: list[list[object]], day: object = "14/03/2026",
                kind: str = "toutes-rondes", registrations: list[list[object]] | None = None,
                file: str | None = None, header: list[str] = HEADER) -> Path:
    """A Tantrix workbook; each game row in HEADER order (trailing cells may be left out)."""
    sheets = {"Tournoi": [["Circuit", "tantrix"], ["Nom", name], ["Date", day], ["Type", kind]],
              "Parties": [header, *games]}
    if registrations is not None:
        sheets["Inscrits"] = [REGISTRATION_HEADER, *registrations]
    return write_workbook(inputs / f"{file or name.lower().replace(' ', '-')}.xlsx", sheets)


def scored(inputs: Path, settings: TantrixSettings | None = None):
    league = load(inputs, TODAY)
    assert league.all_problems() == []
    found = league.circuits["tantrix"]
    return score_events(found.results, found.events, settings or TantrixSettings())


def problems(inputs: Path) -> list[str]:
    return [str(problem) for problem in load(inputs, TODAY).all_problems()]


def round_robin(*results: tuple[str, str, int, int]) -> list[list[object]]:
    """Games (A, B, tiles A, tiles B), one per round."""
    return [[number, a, b, tiles_a, tiles_b] for number, (a, b, tiles_a, tiles_b) in enumerate(results, start=1)]


@pytest.fixture
def inputs(tmp_path):
    return tmp_path / "inputs"


def test_a_clean_workbook_reads_without_a_problem_and_needs_no_club_directory(inputs):
    write_event(inputs, "Open", round_robin(("MOREAU Lucie", "FAURE Stéphane", 27, 19)))
    league = load(inputs, TODAY)
    assert league.all_problems() == []
    event = league.circuits["tantrix"].events[0]
    assert event.content.kind == "toutes-rondes" and [row.entry.last_name for row in event.results] == ["MOREAU", "FAURE"]
    assert "clubs.xlsx : absent, aucun classeur présent n’en a besoin" in league.notices


def test_players_are_nom_prenom_from_a_single_joueur_column_in_any_order(inputs):
    write_event(inputs, "Open", [[1, "Lucie MOREAU", "faure, stéphane", 20, 10], [2, "MOREAU Lucie", "FAURE Stéphane", 10, 20]])
    result = scored(inputs)
    assert sorted(result.events[0].games.names.values()) == ["FAURE Stéphane", "MOREAU Lucie"]


@pytest.mark.parametrize("row, expected", [
    ([1, "MOREAU Lucie", "FAURE Stéphane", 20, 10, "", "", "C"],
     "open.xlsx, feuille « Parties », cellule H2 (colonne « Forfait ») : « C » ne désigne ni le joueur A ni le joueur B — écrivez A ou "
     "B : le côté du joueur qui a perdu par forfait (vide sinon)"),
    ([1, "MOREAU Lucie", "Moreau, lucie", 20, 10],
     "open.xlsx, feuille « Parties », cellule C2 (colonne « Joueur B ») : MOREAU Lucie joue contre lui-même — corrigez l’un des deux "
     "joueurs de la partie"),
    ([1, "MOREAU Lucie", "FAURE Stéphane", 20],
     "open.xlsx, feuille « Parties », cellule E2 (colonne « Tuiles B ») : les tuiles de la partie ne sont pas saisies — saisissez le score "
     "en tuiles des deux joueurs ; pour un forfait, indiquez A ou B dans « Forfait »"),
    ([1, "MOREAU Lucie", "FAURE Stéphane", 20, 10, "quinze", "12:00"],
     "open.xlsx, feuille « Parties », cellule F2 (colonne « Temps A ») : « quinze » n’est pas un temps lisible — écrivez le temps utilisé "
     "en minutes et secondes (14:35) ou en minutes entières (14)"),
    ([1, "MOREAU Lucie", "FAURE Stéphane", 20, 10, "14:75"],
     "open.xlsx, feuille « Parties », cellule F2 (colonne « Temps A ») : « 14:75 » : les secondes vont de 00 à 59 — écrivez le temps "
     "utilisé en minutes et secondes (14:35) ou en minutes entières (14)"),
    ([1, "MOREAU Lucie", "FAURE Stéphane", 20, 10, 14.5],
     "open.xlsx, feuille « Parties », cellule F2 (colonne « Temps A ») : « 14.5 » n’est pas un nombre entier de minutes — écrivez le "
     "temps utilisé en minutes et secondes (14:35) ou en minutes entières (14)"),
    ([1, "MOREAU Lucie", "FAURE Stéphane", 20, 10, "75:00"],
     "open.xlsx, feuille « Parties », cellule F2 (colonne « Temps A ») : « 75:00 » : une partie dure moins d’une heure — écrivez le temps "
     "utilisé en minutes et secondes (14:35) ou en minutes entières (14)"),
    ([1, "MOREAU Lucie", "FAURE Stéphane", 20, 10, dt.time(1, 15, 30)],
     "open.xlsx, feuille « Parties », cellule F2 (colonne « Temps A ») : « 1:15:30 » : une partie dure moins d’une heure — écrivez le temps "
     "utilisé en minutes et secondes (14:35) ou en minutes entières (14)"),
    ([1, "MOREAU Lucie", "FAURE Stéphane", 20, 70],
     "open.xlsx, feuille « Parties », cellule E2 (colonne « Tuiles B ») : 70 tuiles : un score va de 0 à 56 (les tuiles d’un jeu) — "
     "corrigez le score en tuiles"),
    ([1, "MOREAU Lucie", "FAURE Stéphane", "vingt", 10],
     "open.xlsx, feuille « Parties », cellule D2 (colonne « Tuiles A ») : « vingt » n’est pas un nombre entier — écrivez un nombre "
     "entier, sans décimales ni lettres, par exemple 12"),
    ([0, "MOREAU Lucie", "FAURE Stéphane", 20, 10],
     "open.xlsx, feuille « Parties », cellule A2 (colonne « Ronde ») : la ronde 0 n’existe pas — les rondes se numérotent à partir de 1"),
    ([1, "", "FAURE Stéphane", 20, 10],
     "open.xlsx, feuille « Parties », cellule B2 (colonne « Joueur A ») : la case « Joueur A » est vide — remplissez-la"),
    ([1, "MOREAU Lucie", "FAURE Stéphane", "", "", "", "", "B", "oui"],
     "open.xlsx, feuille « Parties », cellule H2 (colonne « Forfait ») : une partie disparue (Déconnexion = oui) ne peut pas être aussi "
     "perdue par forfait — gardez l’un des deux : Forfait ou Déconnexion"),
    ([1, "MOREAU Lucie", "FAURE Stéphane", "", "", "", "", "", "peut-être"],
     "open.xlsx, feuille « Parties », cellule I2 (colonne « Déconnexion ») : « peut-être » n’est ni « oui » ni « non » — écrivez oui, ou "
     "laissez vide"),
    ([1, "MOREAU Lucie", "FAURE Stéphane", 30, 10, "", "", "B"],
     "open.xlsx, feuille « Parties », cellule D2 (colonne « Tuiles A ») : des tuiles sont saisies, mais un forfait se compte 35-15 en "
     "tuiles (règle 7) — effacez les tuiles de cette ligne, ou corrigez Forfait / Déconnexion"),
    ([1, "MOREAU Lucie", "FAURE Stéphane", 20, 20, "", "", "", "oui"],
     "open.xlsx, feuille « Parties », cellule D2 (colonne « Tuiles A ») : des tuiles sont saisies, mais une partie disparue est un nul "
     "23-23 (règle 3) — effacez les tuiles de cette ligne, ou corrigez Forfait / Déconnexion"),
])
def test_every_bad_cell_of_parties_is_a_located_french_problem(inputs, row, expected):
    write_event(inputs, "Open", [row])
    assert problems(inputs) == [expected]


def test_a_default_names_its_side_or_its_player_and_needs_no_tiles(inputs):
    write_event(inputs, "Open", [[1, "MOREAU Lucie", "FAURE Stéphane", "", "", "", "", "b"],
                                 [2, "MOREAU Lucie", "FAURE Stéphane", "", "", "", "", "Lucie Moreau"],
                                 [3, "MOREAU Lucie", "FAURE Stéphane", 35, 15, "", "", "B"]])
    games = scored(inputs).events[0].games.games
    assert [g.row.defaulted for g in games] == [1, 0, 1]


def test_a_vanished_game_s_times_are_not_read(inputs):
    write_event(inputs, "Open", [[1, "MOREAU Lucie", "FAURE Stéphane", "", "", "n'importe quoi", 99, "", "oui"]])
    game = scored(inputs).events[0].games.games[0]
    assert game.row.times == (None, None) and game.scored.tiles == (23, 23)


def test_a_player_with_two_opponents_in_one_round_or_a_game_typed_twice_is_refused(inputs):
    write_event(inputs, "Open", [[1, "MOREAU Lucie", "FAURE Stéphane", 20, 10],
                                 [1, "MOREAU Lucie", "GARNIER Hélène", 20, 10],
                                 [2, "FAURE Stéphane", "MOREAU Lucie", 20, 10],
                                 [2, "MOREAU Lucie", "FAURE Stéphane", 20, 10]])
    assert problems(inputs) == [
        "open.xlsx, feuille « Parties », cellule A3 (colonne « Ronde ») : MOREAU Lucie a déjà un autre adversaire à la ronde 1 (en A2) "
        "— corrigez la ronde ou les joueurs de la partie",
        "open.xlsx, feuille « Parties », cellule A5 (colonne « Ronde ») : cette partie de la ronde 2 est déjà saisie en A4 — supprimez la "
        "ligne en double, ou corrigez la ronde"]


def test_a_knockout_round_holds_several_games_of_the_same_two_players(inputs):
    write_event(inputs, "Coupe", [[1, "MOREAU Lucie", "FAURE Stéphane", 20, 10], [1, "FAURE Stéphane", "MOREAU Lucie", 20, 10],
                                  [1, "MOREAU Lucie", "FAURE Stéphane", 20, 10]], kind="élimination")
    assert problems(inputs) == []


def test_the_tournoi_sheet_needs_a_known_type(inputs):
    write_event(inputs, "Open", round_robin(("MOREAU Lucie", "FAURE Stéphane", 27, 19)), kind="suisse")
    assert problems(inputs) == [
        "open.xlsx, feuille « Tournoi », cellule B4 (champ « Type ») : « suisse » n’est pas un type de tournoi Tantrix — écrivez "
        "« toutes-rondes » (chacun rencontre chacun) ou « élimination »"]


def test_missing_sheet_and_columns_are_said_with_the_header_to_add(inputs):
    write_workbook(inputs / "a.xlsx", {"Tournoi": [["Circuit", "tantrix"], ["Nom", "A"], ["Date", "14/03/2026"],
                                                   ["Type", "élimination"]]})
    write_event(inputs, "B", [[1, "MOREAU Lucie", "FAURE Stéphane"]], header=["Ronde", "Joueur A", "Joueur B"])
    assert problems(inputs) == [
        # the sheets it has said, as a missing Résultats is: the one meant is often there by another name
        "a.xlsx : la feuille « Parties » est introuvable (feuilles présentes : « Tournoi ») — ajoutez la feuille "
        "des parties : Ronde | Joueur A | "
        "Joueur B | Tuiles A | Tuiles B | Temps A | Temps B | Forfait | Déconnexion",
        "b.xlsx, feuille « Parties », cellule A1 : colonne introuvable : « Tuiles A », « Tuiles B » — ajoutez les colonnes « Tuiles A », "
        "« Tuiles B » à cette ligne d’en-têtes et remplissez-les"]


def test_a_future_date_is_refused(inputs):
    write_event(inputs, "Open", round_robin(("MOREAU Lucie", "FAURE Stéphane", 27, 19)), day="01/01/2027")
    assert problems(inputs) == ["open.xlsx, feuille « Tournoi », cellule B3 (champ « Date ») : la date du tournoi (1er janvier 2027) "
                                "est dans le futur — corrigez la date du tournoi"]


@pytest.mark.parametrize("row, expected", [
    (["MOREAU Lucie", 1800, "rose", "jaune"],
     "open.xlsx, feuille « Inscrits », cellule C2 (colonne « Couleur 1 ») : « rose » n’est pas une couleur de Tantrix — écrivez l’une "
     "de : rouge, jaune, bleu, vert"),
    (["MOREAU Lucie", "beaucoup", "rouge", "jaune"],
     "open.xlsx, feuille « Inscrits », cellule B2 (colonne « Elo ») : « beaucoup » n’est pas un classement Elo — écrivez un nombre, par "
     "exemple 1850, ou laissez vide"),
    (["MOREAU Lucie", dt.datetime(2026, 3, 1), "rouge", "jaune"],  # an Excel date cell: no traceback
     "open.xlsx, feuille « Inscrits », cellule B2 (colonne « Elo ») : « 01/03/2026 » n’est pas un classement Elo — écrivez un nombre, "
     "par exemple 1850, ou laissez vide"),
    (["MOREAU Lucie", True, "rouge", "jaune"],
     "open.xlsx, feuille « Inscrits », cellule B2 (colonne « Elo ») : « VRAI » n’est pas un classement Elo — écrivez un nombre, "
     "par exemple 1850, ou laissez vide"),
    (["MOREAU Lucie", 1800, "Rouge", "ROUGE"],
     "open.xlsx, feuille « Inscrits », cellule D2 (colonne « Couleur 2 ») : la deuxième couleur est la première (rouge) — choisissez "
     "une autre deuxième couleur, ou laissez vide"),
    (["MOREAU Lucie", 1800, "", "jaune"],
     "open.xlsx, feuille « Inscrits », cellule C2 (colonne « Couleur 1 ») : une deuxième couleur sans première — indiquez d’abord la "
     "couleur préférée"),
])
def test_every_bad_cell_of_inscrits_is_a_located_french_problem(inputs, row, expected):
    # Her row refused, MOREAU Lucie is still an entrant: said once, not again in each of her games.
    write_event(inputs, "Open", round_robin(("MOREAU Lucie", "FAURE Stéphane", 27, 19)),
                registrations=[row, ["FAURE Stéphane", "", ""]])
    assert problems(inputs) == [expected]


def test_a_player_registered_twice_is_refused(inputs):
    write_event(inputs, "Open", round_robin(("MOREAU Lucie", "FAURE Stéphane", 27, 19)),
                registrations=[["MOREAU Lucie", "", "rouge"], ["Moreau, lucie", "", "bleu"], ["FAURE Stéphane", "", ""]])
    assert problems(inputs) == ["open.xlsx, feuille « Inscrits », cellule A3 (colonne « Joueur ») : MOREAU Lucie est inscrit deux fois "
                                "(déjà en A2) — supprimez le doublon"]


def test_swapped_names_in_inscrits_are_two_entrants_and_games_name_each_as_typed(inputs):
    # INTERPRETATIONS.md, « who is who »: DANIEL Philippe is not PHILIPPE Daniel.
    write_event(inputs, "Open", round_robin(("PHILIPPE Daniel", "DANIEL Philippe", 27, 19)),
                registrations=[["PHILIPPE Daniel", "", "rouge"], ["DANIEL Philippe", "", "bleu"]])
    result = scored(inputs)
    assert sorted(result.events[0].games.names.values()) == ["DANIEL Philippe", "PHILIPPE Daniel"]


def test_a_game_naming_the_one_entrant_with_those_words_in_another_order_is_that_entrant(inputs):
    write_event(inputs, "Open", round_robin(("Lucie Moreau", "FAURE Stéphane", 27, 19)),
                registrations=[["MOREAU Lucie", "", "rouge"], ["FAURE Stéphane", "", "bleu"]])
    league = load(inputs, TODAY)
    assert league.all_problems() == [] and not [n for n in league.notices if "sans être dans la feuille" in n]
    assert set(league.circuits["tantrix"].results["player"]) == {"MOREAU Lucie", "FAURE Stéphane"}


def test_a_game_naming_a_player_missing_from_inscrits_is_refused_with_the_nearest_entrant(inputs):
    """docs/formats.md: with `Inscrits`, the games name its entrants (rule 13 seeds the entrants). A
    name none has is a misspelt entrant (a new player, rated apart) or a player never registered."""
    write_event(inputs, "Open", round_robin(("MOREAU Lucie", "FAURE Stéphane", 27, 19),
                                            ("MOREAU Lucie", "ROUSEAU Françoise", 30, 10),
                                            ("DUPONT Jean", "FAURE Stéphane", 20, 25)),
                registrations=[["MOREAU Lucie", "", "rouge"], ["FAURE Stéphane", "", "bleu"],
                               ["ROUSSEAU Françoise", "", ""]])
    found = load(inputs, TODAY).all_problems()
    assert [p.code for p in found] == ["unknown-player", "unknown-player"]
    assert [str(p) for p in found] == [
        "open.xlsx, feuille « Parties », cellule C3 (colonne « Joueur B ») : « ROUSEAU Françoise » n’est pas dans la feuille Inscrits, "
        "qui liste les joueurs du tournoi — vouliez-vous dire « ROUSSEAU Françoise » ? Sinon inscrivez le joueur "
        "dans la feuille Inscrits",
        "open.xlsx, feuille « Parties », cellule B4 (colonne « Joueur A ») : « DUPONT Jean » n’est pas dans la feuille Inscrits, qui "
        "liste les joueurs du tournoi — écrivez le nom tel qu’il figure dans la feuille Inscrits, ou inscrivez le "
        "joueur"]


def test_a_game_naming_two_entrants_with_the_same_words_is_refused_not_guessed(inputs):
    write_event(inputs, "Open", round_robin(("jean paul martin", "FAURE Stéphane", 27, 19)),
                registrations=[["MARTIN Jean Paul", "", ""], ["PAUL Jean Martin", "", ""], ["FAURE Stéphane", "", ""]])
    assert problems(inputs) == [
        "open.xlsx, feuille « Parties », cellule B2 (colonne « Joueur A ») : « jean paul martin » peut désigner « MARTIN Jean Paul » ou "
        "« PAUL Jean Martin » (feuille Inscrits) — écrivez le nom tel qu’il figure dans la feuille Inscrits"]


def test_a_knockout_loser_who_plays_a_later_round_is_refused(inputs):
    write_event(inputs, "Coupe", [[1, "MOREAU Lucie", "FAURE Stéphane", 20, 10], [1, "GARNIER Hélène", "PERRIN Julien", 20, 10],
                                  [2, "FAURE Stéphane", "GARNIER Hélène", 20, 10]], kind="élimination")
    result = scored(inputs)
    assert [str(p) for p in result.problems] == [
        "coupe.xlsx, feuille « Parties », cellule A4 (colonne « Ronde ») : FAURE Stéphane a perdu son match de la ronde 1 contre MOREAU "
        "Lucie (tableau à élimination) mais joue la ronde 2 — vérifiez les résultats de ce match, ou les joueurs de "
        "cette ronde"]
