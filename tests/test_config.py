"""`inputs/reportgen.toml`: every setting is validated like a workbook cell (type, known key,
range), each problem located in the file with its fix, and a wrong setting never reaches scoring."""

from __future__ import annotations

import dataclasses
import re
import subprocess
import sys
import typing
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

import pytest

from reportgen import circuits, config
from reportgen.config import setting
from reportgen.config.values import _toml as toml_literal
from tests.builders import write_clubs, write_tournament

REPORTGEN = str(Path(sys.executable).parent / "reportgen")


def defaults() -> dict[str, typing.Any]:
    return {slug: circuit.Settings() for slug, circuit in circuits.CIRCUITS.items()}


def load(folder: Path, text: str, settings: dict[str, typing.Any] | None = None):
    """(league settings, problems as printed) for this reportgen.toml."""
    (folder / config.SETTINGS_FILE).write_text(text, encoding="utf-8")
    problems = []
    league = config.load(folder, settings or defaults(), problems)
    return league, [str(p) for p in sorted(problems)]


def only_problem(folder: Path, text: str) -> str:
    _, problems = load(folder, text)
    assert len(problems) == 1, problems
    return problems[0]


def toml(value) -> str:
    return toml_literal(value)


# -- what is accepted -----------------------------------------------------------------------------

def test_no_settings_file_keeps_the_defaults(tmp_path):
    problems = []
    league = config.load(tmp_path, defaults(), problems)
    assert problems == [] and league.circuits == defaults() and league.name == config.League().name


def test_valid_overrides_are_applied_and_arrays_become_tuples(tmp_path):
    league, problems = load(tmp_path, """
[league]
name = "Ligue test"

[circuits.grand-sud]
departements = ["13", "2A"]
min_counted_results = 2
played_counts_non_scoring = false

[circuits.tour-de-france]
value_anchors = [[5, 500], [10, 900]]
min_participants = 5
multipliers = [[1.0], [1.0, 0.75]]
""")
    assert problems == []
    assert league.name == "Ligue test"
    grand_sud = league.circuits["grand-sud"]
    assert grand_sud.departements == ("13", "2A") and grand_sud.min_counted_results == 2
    assert grand_sud.played_counts_non_scoring is False and grand_sud.seeds == 16
    tour = league.circuits["tour-de-france"]
    assert tour.value_anchors == ((5, 500), (10, 900)) and tour.multipliers == ((1.0,), (1.0, 0.75))
    assert league.circuits["masters"] == defaults()["masters"]


def test_a_whole_number_is_accepted_where_a_decimal_is_expected(tmp_path):
    league, problems = load(tmp_path, "[circuits.tour-de-france]\nratio = 1\nmultipliers = [[1], [1, 0]]\n")
    assert problems == []
    tour = league.circuits["tour-de-france"]
    assert tour.ratio == 1.0 and type(tour.ratio) is float
    assert tour.multipliers == ((1.0,), (1.0, 0.0)) and type(tour.multipliers[1][1]) is float


@pytest.mark.parametrize("slug", list(circuits.CIRCUITS))
def test_every_default_written_out_reads_back_unchanged(tmp_path, slug):
    """Every field's type is one the reader knows, and every default is within its own bounds."""
    default = circuits.CIRCUITS[slug].Settings()
    lines = [f"{f.name} = {toml(getattr(default, f.name))}" for f in dataclasses.fields(default)]
    league, problems = load(tmp_path, f"[circuits.{slug}]\n" + "\n".join(lines) + "\n")
    assert problems == []
    assert league.circuits[slug] == default


def test_a_byte_order_mark_is_no_problem(tmp_path):
    (tmp_path / config.SETTINGS_FILE).write_bytes('\ufeff[league]\nname = "Ligue à BOM"\n'.encode())
    problems = []
    assert config.load(tmp_path, defaults(), problems).name == "Ligue à BOM" and problems == []


# -- wrong types ----------------------------------------------------------------------------------

def test_a_text_where_a_whole_number_is_expected_is_located_with_its_fix(tmp_path):
    assert only_problem(tmp_path, '[circuits.grand-sud]\nmin_counted_results = "2"\n') == (
        "reportgen.toml, table [circuits.grand-sud], réglage « min_counted_results » : « \"2\" » n’est pas un nombre entier "
        "(ligne 2) — écrivez min_counted_results = 2")


def test_true_is_not_a_whole_number(tmp_path):
    assert only_problem(tmp_path, "[circuits.masters]\ncoups = true\n") == (
        "reportgen.toml, table [circuits.masters], réglage « coups » : « true » n’est pas un nombre entier (ligne 2) — "
        "écrivez un nombre entier, par exemple coups = 12")


def test_a_whole_number_is_not_true_or_false(tmp_path):
    problem = only_problem(tmp_path, "[circuits.grand-sud]\nplayed_counts_non_scoring = 1\n")
    assert "« 1 » n’est pas true ou false" in problem
    assert problem.endswith("par exemple played_counts_non_scoring = true")


@pytest.mark.parametrize("written, fix", [
    ("2.0", "écrivez win = 2"),
    ("2.5", "écrivez un nombre entier, par exemple win = 2"),
])
def test_a_decimal_is_not_a_whole_number(tmp_path, written, fix):
    problem = only_problem(tmp_path, f"[circuits.masters]\nwin = {written}\n")
    assert problem == f"reportgen.toml, table [circuits.masters], réglage « win » : « {written} » n’est pas un nombre entier (ligne 2) — {fix}"


def test_a_list_item_of_the_wrong_type_is_named_with_its_list(tmp_path):
    problem = only_problem(tmp_path, "[circuits.grand-sud]\ndepartements = [9, 11]\n")
    assert problem.startswith("reportgen.toml, table [circuits.grand-sud], réglage « departements » : « 9 » (élément 1 de [9, 11]) "
                              "n’est pas un texte entre guillemets (ligne 2) — écrivez une liste [ … ] de textes "
                              'entre guillemets, par exemple departements = ["09", "11", ')


def test_an_item_of_a_nested_list_is_named_with_its_own_list_and_repaired(tmp_path):
    problem = only_problem(tmp_path, '[circuits.tour-de-france]\nvalue_anchors = [[7, 700], [14, "1000"]]\n')
    assert problem == ("reportgen.toml, table [circuits.tour-de-france], réglage « value_anchors » : « \"1000\" » (élément 2 de "
                       "[14, \"1000\"]) n’est pas un nombre entier (ligne 2) — "
                       "écrivez value_anchors = [[7, 700], [14, 1000]]")


def test_a_single_value_where_a_list_is_expected(tmp_path):
    problem = only_problem(tmp_path, '[circuits.grand-sud]\ndepartements = "13"\n')
    assert "« \"13\" » n’est pas une liste [ … ] de textes entre guillemets" in problem
    assert problem.endswith('écrivez departements = ["13"]')


def test_a_pair_of_the_wrong_length(tmp_path):
    problem = only_problem(tmp_path, "[circuits.tour-de-france]\nvalue_anchors = [[7, 700, 3]]\n")
    assert "« [7, 700, 3] » (élément 1 de [[7, 700, 3]]) n’est pas une liste de 2 éléments" in problem


def test_a_table_where_a_value_is_expected_and_a_value_where_a_table_is_expected(tmp_path):
    _, problems = load(tmp_path, 'league = "Ligue"\n[circuits.masters.coups]\nvalue = 3\n')
    assert problems == [
        "reportgen.toml, table [circuits.masters], réglage « coups » : « { value = 3 } » n’est pas un nombre entier (ligne 2) — "
        "écrivez un nombre entier, par exemple coups = 12",
        "reportgen.toml, table [league] : « league » doit être une table, pas « \"Ligue\" » (ligne 1) — écrivez [league] "
        "seul sur sa ligne, puis ses réglages en dessous, un par ligne",
    ]


# -- unknown keys and tables ----------------------------------------------------------------------

def test_an_unknown_key_in_league_lists_the_known_ones(tmp_path):
    assert only_problem(tmp_path, '[league]\nname = "Ligue"\nnom = "Ligue"\n') == (
        "reportgen.toml, table [league], réglage « nom » : le réglage « nom » n’existe pas pour la ligue (ligne 3) — "
        "réglages possibles : name")


def test_an_unknown_key_in_a_circuit_table_suggests_the_close_one(tmp_path):
    assert only_problem(tmp_path, "[circuits.grand-sud]\nmin_counted_result = 3\n") == (
        "reportgen.toml, table [circuits.grand-sud], réglage « min_counted_result » : le réglage « min_counted_result » n’existe pas "
        "pour le circuit grand-sud (ligne 2) — vouliez-vous dire min_counted_results ? Réglages possibles : "
        "departements, seeds, min_counted_results, played_counts_non_scoring, min_listed_points, bulletin_rows, "
        "bulletin_columns, bulletin_tournaments")


def test_an_unknown_top_level_table_lists_the_known_tables(tmp_path):
    assert only_problem(tmp_path, '[league]\nname = "L"\n\n[smtp]\nto = "x@example.org"\n') == (
        "reportgen.toml, table [smtp] : la table [smtp] n’existe pas (ligne 4) — tables possibles : [league], "
        "[mail], [site], [calendar], [inbox], [circuits.grand-sud], [circuits.masters], [circuits.tour-de-france], "
        "[circuits.poules], "
        "[circuits.tantrix]")


def test_a_key_outside_any_table_says_where_it_belongs(tmp_path):
    # said as a key of its own, not as a table it is not
    assert only_problem(tmp_path, 'name = "Ligue"\n') == (
        "reportgen.toml, réglage « name » : le réglage « name » est en dehors de toute table (ligne 1) — "
        "placez-le sous [league]")
    # a key in a table: its table, then the key
    assert only_problem(tmp_path, '[league]\nnom = "Ligue"\n').startswith(
        "reportgen.toml, table [league], réglage « nom » : le réglage « nom » n’existe pas pour la ligue (ligne 2)")


def test_an_unknown_circuit_is_a_problem(tmp_path):
    assert only_problem(tmp_path, "[circuits.grand_sud]\nseeds = 3\n") == (
        "reportgen.toml, table [circuits.grand_sud] : le circuit « grand_sud » n’existe pas (ligne 1) — "
        "vouliez-vous dire grand-sud ? Circuits connus : grand-sud, masters, tour-de-france, poules, tantrix")


# -- ranges ---------------------------------------------------------------------------------------

def test_a_negative_number_of_results_is_out_of_range(tmp_path):
    assert only_problem(tmp_path, "[circuits.grand-sud]\nmin_counted_results = -1\n") == (
        "reportgen.toml, table [circuits.grand-sud], réglage « min_counted_results » : « -1 » est trop petit (minimum 1) (ligne 2) — "
        "écrivez une valeur de 1 ou plus, par exemple min_counted_results = 1")


def test_more_seeds_than_the_tables_have_is_out_of_range(tmp_path):
    assert only_problem(tmp_path, "[circuits.grand-sud]\nseeds = 17\n") == (
        "reportgen.toml, table [circuits.grand-sud], réglage « seeds » : « 17 » est trop grand (de 0 à 16) (ligne 2) — "
        "écrivez une valeur de 0 à 16, par exemple seeds = 16")


def test_a_factor_above_100_percent_is_out_of_range(tmp_path):
    problem = only_problem(tmp_path, "[circuits.tour-de-france]\nmultipliers = [[1.0], [1.0, 1.5]]\n")
    assert problem.startswith("reportgen.toml, table [circuits.tour-de-france], réglage « multipliers » : « 1.5 » (élément 2 de "
                              "[1.0, 1.5]) est trop grand (de 0 à 1) (ligne 2) — écrivez des valeurs de 0 à 1, ")


def _bounded_settings():
    for slug, circuit in circuits.CIRCUITS.items():
        hints = typing.get_type_hints(circuit.Settings)
        for f in dataclasses.fields(circuit.Settings):
            if hints[f.name] in (int, float):
                for bound, step in (("min", -1), ("max", 1)):
                    if bound in f.metadata:
                        yield slug, f.name, f.metadata[bound] + step


@pytest.mark.parametrize("slug, key, value", list(_bounded_settings()))
def test_every_bound_is_enforced(tmp_path, slug, key, value):
    league, problems = load(tmp_path, f"[circuits.{slug}]\n{key} = {value}\n")
    assert len(problems) == 1 and "est trop" in problems[0], problems
    assert league.circuits[slug] == defaults()[slug]


def test_every_count_and_share_has_a_bound():
    """The settings of the three circuits whose meaning gives a bound: counts, points, shares."""
    unbounded = [f"{slug}.{f.name}" for slug, circuit in circuits.CIRCUITS.items()
                 for f in dataclasses.fields(circuit.Settings)
                 if typing.get_type_hints(circuit.Settings)[f.name] is not bool and not f.metadata]
    assert unbounded == []


@pytest.mark.parametrize("text, message", [
    ('[circuits.grand-sud]\ndepartements = ["9"]\n', "« [\"9\"] » ne convient pas : « 9 » n’est pas un numéro de "
     "département tel que l’annuaire des clubs l’écrit (deux chiffres comme « 09 », trois pour l’outre-mer, « 2A » "
     "ou « 2B »)"),
    ("[circuits.grand-sud]\ndepartements = []\n", "« [] » est vide"),
    ('[league]\nname = "  "\n', "« \"  \" » est vide"),
    ("[circuits.tour-de-france]\nvalue_anchors = [[14, 1000], [7, 700]]\n",
     "doivent aller en croissant, sans doublon"),
    ("[circuits.tour-de-france]\nmultipliers = [[1.0], [1.0, 1.0, 0.5]]\n",
     "la ligne 2 (pour 2 résultats) doit avoir 2 coefficients, elle en a 3"),
])
def test_a_whole_value_that_does_not_make_sense_is_out_of_range(tmp_path, text, message):
    assert message in only_problem(tmp_path, text)


def test_settings_that_contradict_each_other_are_a_problem(tmp_path):
    league, problems = load(tmp_path, "[circuits.tour-de-france]\nmin_participants = 5\n")
    assert problems == [
        "reportgen.toml, table [circuits.tour-de-france], réglage « min_participants » : un tournoi compte dès 5 participants "
        "(min_participants) mais le barème (value_anchors) ne commence qu’à 7 participants (ligne 2) — "
        "écrivez min_participants = 7 ou plus, ou commencez value_anchors à 5 participants"]
    assert league.circuits["tour-de-france"].min_participants == 7


# -- several problems, broken files ---------------------------------------------------------------

def test_every_problem_is_reported_and_a_wrong_circuit_keeps_all_its_defaults(tmp_path):
    league, problems = load(tmp_path, """
[league]
name = "Ligue test"
nom = "x"

[circuits.grand-sud]
seeds = 8
min_counted_results = "2"
min_listed_points = -1

[circuits.masters]
coups = 10

[smtp]
to = "x"
""")
    assert [p.split(" : ")[0] for p in problems] == [
        "reportgen.toml, table [circuits.grand-sud], réglage « min_counted_results »",
        "reportgen.toml, table [circuits.grand-sud], réglage « min_listed_points »",
        "reportgen.toml, table [league], réglage « nom »",
        "reportgen.toml, table [smtp]",
    ]
    assert league.circuits["grand-sud"] == defaults()["grand-sud"]  # seeds = 8, right, is not applied either
    assert league.circuits["masters"].coups == 10
    assert league.name == "Ligue test"


def test_a_syntax_error_says_its_line(tmp_path):
    problem = only_problem(tmp_path, '[league]\nname = "Ligue\n')
    assert problem.startswith("reportgen.toml : le fichier de réglages est illisible à la ligne 2, colonne 8, "
                              "« name = \"Ligue » : ")
    assert "fermez-le sur sa ligne par le guillemet droit qui l’ouvre" in problem


@pytest.mark.parametrize(("text", "said"), [
    ('[league]\nname = "Ligue\n', "un texte entre guillemets n’est pas fermé"),
    ('[league]\nname = Ligue\n', "valeur incompréhensible : « Ligue » — un texte s’écrit entre guillemets droits"),
    ("[league]\nname\n", "il manque « = » après « name »"),
    ("[circuits.grand-sud]\n[circuits.grand-sud]\n", "la table [circuits.grand-sud] est écrite deux fois (lignes 1 et 2)"),
    ("[league]\nname = 1\nname = 2\n", "« name » est écrit deux fois dans [league] (lignes 2 et 3)"),
    ('[league]\nname = "a" "b"\n', "un seul réglage par ligne"),
    ("[league\n", "il manque « ] » à la fin du nom de la table"),
    ("[league]\nname = [1,\n", "à la ligne 2, colonne 8, « name = [1, » : « [ » n’est jamais refermé par « ] »"),
    ("[league]\nname = 1\nname", "il manque « = » après « name »"),
    ("[league]\nname = 1\n[league.x]\ny = 1\n[league]\n", "la table [league] est écrite deux fois (lignes 1 et 5)"),
])
def test_a_syntax_error_is_said_in_french(tmp_path, text, said):
    # tomllib's words were given as they are: « (Illegal character '\n') », « (Invalid value) »
    problem = only_problem(tmp_path, text)
    assert said in problem, problem
    assert not re.search(r"\b(?:Invalid|Illegal|character|Cannot|Expected|Unclosed|Unterminated)\b", problem), problem


def test_a_settings_file_not_in_utf8_is_a_problem(tmp_path):
    (tmp_path / config.SETTINGS_FILE).write_bytes('[league]\nname = "Ligue de Nîmes"\n'.encode("latin-1"))
    problems = []
    config.load(tmp_path, defaults(), problems)
    assert [str(p) for p in problems] == [
        "reportgen.toml : le fichier de réglages n’est pas enregistré en UTF-8 — enregistrez-le en UTF-8 "
        "(« Unicode (UTF-8) » dans la liste des encodages)"]


def test_a_folder_named_like_the_settings_file_is_a_problem(tmp_path):
    (tmp_path / config.SETTINGS_FILE).mkdir()
    problems = []
    assert config.load(tmp_path, defaults(), problems).circuits == defaults()
    assert len(problems) == 1 and "ne peut pas être lu" in problems[0].message


def test_a_line_is_found_under_dotted_and_quoted_keys_and_after_a_multiline_list(tmp_path):
    _, problems = load(tmp_path, '[circuits]\n"grand-sud".seeds = 3\n[circuits.masters]\nwin = [\n  2,\n]\n'
                                 "draw = -1\n")
    assert problems[0].startswith("reportgen.toml, table [circuits.masters], réglage « draw » : « -1 » est trop petit (minimum 0) (ligne 7)")
    assert problems[1].startswith("reportgen.toml, table [circuits.masters], réglage « win » : « [2] » n’est pas un nombre entier (ligne 4)")


# -- any settings class ---------------------------------------------------------------------------

@dataclass(frozen=True)
class Example:
    share: Fraction = setting(Fraction(1, 2), minimum=0, maximum=1)
    colour: str = setting("bleu", choices=("bleu", "rouge"))
    flags: tuple[bool, ...] = (True,)
    names: dict[str, int] = dataclasses.field(default_factory=dict)


def test_fractions_choices_tables_and_lists_of_booleans_are_read_from_the_annotations(tmp_path):
    settings = {"exemple": Example()}
    league, problems = load(tmp_path, '[circuits.exemple]\nshare = "3/4"\ncolour = "rouge"\nflags = [false, true]\n'
                                      "names = { a = 1 }\n", settings)
    assert problems == []
    assert league.circuits["exemple"] == Example(Fraction(3, 4), "rouge", (False, True), {"a": 1})
    _, problems = load(tmp_path, '[circuits.exemple]\nshare = "3/2"\ncolour = "vert"\nflags = [1]\n'
                                 'names = { a = "1" }\n', settings)
    assert problems == [
        "reportgen.toml, table [circuits.exemple], réglage « colour » : « \"vert\" » n’est pas une valeur possible (ligne 3) — "
        "écrivez une valeur parmi \"bleu\", \"rouge\", par exemple colour = \"bleu\"",
        "reportgen.toml, table [circuits.exemple], réglage « flags » : « 1 » (élément 1 de [1]) n’est pas true ou false (ligne 4) — "
        "écrivez une liste [ … ] de valeurs true ou false, par exemple flags = [true]",
        "reportgen.toml, table [circuits.exemple], réglage « names » : « \"1\" » (clé a de { a = \"1\" }) n’est pas un nombre entier "
        "(ligne 5) — écrivez une table { … }, par exemple names = {}",
        "reportgen.toml, table [circuits.exemple], réglage « share » : « \"3/2\" » est trop grand (de 0 à 1) (ligne 2) — "
        "écrivez une valeur de 0 à 1, par exemple share = \"1/2\"",
    ]


# -- the command ----------------------------------------------------------------------------------

def test_check_reports_a_wrong_setting_with_its_place_and_exits_1(tmp_path):
    inputs = tmp_path / "inputs"
    inputs.mkdir()
    write_clubs(inputs)
    write_tournament(inputs, "2026-03-14-carcassonne")
    (inputs / config.SETTINGS_FILE).write_text('[circuits.grand-sud]\nmin_counted_results = "2"\n', encoding="utf-8")
    result = subprocess.run([REPORTGEN, "check", "--inputs", str(inputs), "--outputs", str(inputs.parent / "out")],
                            capture_output=True, text=True,
                            timeout=300)
    assert result.returncode == 1, result.stderr
    assert "Traceback" not in result.stderr and "erreur interne" not in result.stderr
    assert "1 problème à corriger" in result.stderr
    assert ("reportgen.toml, table [circuits.grand-sud], réglage « min_counted_results » : « \"2\" » n’est pas un nombre entier "
            "(ligne 2) — écrivez min_counted_results = 2") in result.stderr
