"""The `reportgen` command as the secretary runs it: a real process, its output and exit code."""

import atexit
import csv
import datetime as dt
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from reportgen import clock
from reportgen.scoring.in_force import ranking_in_force
from tests.builders import small_league, write_clubs, write_tournament

REPORTGEN = str(Path(sys.executable).parent / "reportgen")


# Commands run from a scratch folder: their default outputs/ is never the repository's. Removed
# when the test process ends (each pytest-xdist worker imports this module: one folder each).
SCRATCH = Path(tempfile.mkdtemp(prefix="reportgen-cli-"))
atexit.register(shutil.rmtree, SCRATCH, ignore_errors=True)


def run(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([REPORTGEN, *args], capture_output=True, text=True, cwd=cwd or SCRATCH, timeout=300)


@pytest.fixture(scope="module")
def inputs(tmp_path_factory):
    return small_league(tmp_path_factory.mktemp("cli") / "inputs")


def test_help_lists_every_command():
    result = run("--help")
    assert result.returncode == 0
    for command in ("build", "check", "standings", "circuits"):
        assert command in result.stdout


@pytest.mark.parametrize("command", ["build", "check", "standings", "circuits"])
def test_every_command_has_help(command):
    assert run(command, "--help").returncode == 0


def test_ratings_of_a_circuit_without_any_says_so_in_french(inputs):
    """A circuit that has no rating list names none: a mistyped command (README: exit 2), said in one
    line with the circuits that have one, no workbook read."""
    refused = run("ratings", "grand-sud", "--inputs", str(inputs))
    assert (refused.returncode, refused.stdout) == (2, "")
    assert refused.stderr.splitlines() == ["le circuit grand-sud n’a pas de classement Elo ; circuits qui en ont "
                                           "un : tantrix"]
    assert "rating" not in run("--help").stdout.replace("ratings ", "")  # the command's name, not the word


def boxed(stderr: str) -> str:
    """A usage error's text, as the secretary reads it in its frame: the frame and the wrapping aside."""
    return " ".join(re.sub("[│╭╮╰╯─]", " ", stderr).split())


@pytest.mark.parametrize("command", [("standings", "grand-sd"), ("mail", "--circuit", "grand-sd")])
def test_a_mistyped_circuit_is_named_with_the_one_meant(command, inputs):
    """« grand-sd » was answered « circuit inconnu ; circuits : grand-sud, … »: neither what was
    typed nor the circuit meant, where a mistyped club or player gets « vouliez-vous dire … ? »."""
    refused = run(*command, "--inputs", str(inputs))
    assert refused.returncode == 2
    assert "circuit « grand-sd » inconnu ; circuits : grand-sud, masters, tour-de-france, poules, tantrix — " \
           "vouliez-vous dire « grand-sud » ?" in boxed(refused.stderr), refused.stderr


@pytest.mark.parametrize("width", [50, 80])
def test_an_error_s_frame_never_cuts_a_line_at_a_guillemet(width, inputs):
    """Rich wrapped an error's text at any space: « circuit « » ending a line of the frame and
    « grand-sd » inconnu » starting the next (at 50 columns; « … vouliez-vous dire « » then
    « grand-sud » ? » at 80). Its text is typeset as a page's (french.typography: no-break spaces
    inside « » and before « : ; ? »), and rich made to keep them (cli_french `_no_break_kept`)."""
    refused = subprocess.run([REPORTGEN, "standings", "grand-sd", "--inputs", str(inputs)], capture_output=True,
                             text=True, cwd=SCRATCH, timeout=300, env={**os.environ, "COLUMNS": str(width)})
    framed = [line.strip("│ \u00a0\u202f") for line in refused.stderr.splitlines() if line.startswith("│")]
    assert len(framed) > 1, refused.stderr  # the message does wrap at that width
    assert not [line for line in framed if line.endswith("«") or line.startswith(("»", ":", ";", "?"))], framed
    assert "circuit « grand-sd » inconnu" in boxed(refused.stderr)


@pytest.mark.parametrize(("command", "typed", "fix"), [
    (("standings", "grand-sud", "--at"), "31/02/2026", "corrigez le jour : février 2026 compte 28 jours (jj/mm/aaaa, du "
                                                      "01/02/2026 au 28/02/2026)"),
    (("season", "close", "2026", "--date"), "12/31/2026", "le mois (31) va de 1 à 12 : écrivez la date au format "
                                                         "jj/mm/aaaa (jour, puis mois), par exemple 14/03/2026")])
def test_a_date_typed_wrong_on_the_command_line_is_said_with_its_fix(command, typed, fix, inputs):
    """« valeur invalide pour --at : « 31/02/2026 » n’est pas une date qui existe », where the same date
    in a workbook says how to correct it."""
    refused = run(*command, typed, "--inputs", str(inputs))
    assert refused.returncode == 2
    assert f"« {typed} » n’est pas une date qui existe — {fix}" in boxed(refused.stderr), refused.stderr


def test_a_ranking_no_tournament_of_the_circuit_makes_yet_says_what_to_do(inputs, tmp_path):
    """`ratings tantrix` before any Tantrix workbook, `standings grand-sud --final` before any Grand
    Sud one (a new season's folder) exited 1, as if a workbook had a problem: none is at fault, the
    request cannot be answered (exit 2), one French line says what is missing and what to do; nothing
    on standard output, nothing written."""
    ratings = run("ratings", "tantrix", "--inputs", str(inputs))
    assert (ratings.returncode, ratings.stdout) == (2, "")
    assert ratings.stderr.splitlines() == [
        f"aucun classement Elo tantrix : aucun classeur de tournoi de ce circuit dans {inputs} — déposez-y ceux des "
        "tournois joués, ou indiquez le bon dossier avec --inputs"]
    new_season = tmp_path / "inputs"
    write_clubs(new_season)
    final = run("standings", "grand-sud", "--final", "--inputs", str(new_season), cwd=tmp_path)
    assert (final.returncode, final.stdout) == (2, "")
    assert final.stderr.splitlines() == [
        f"aucun classement final grand-sud : aucun classeur de tournoi de ce circuit dans {new_season} — déposez-y "
        "ceux des tournois joués, ou indiquez le bon dossier avec --inputs"]
    # a folder that does not exist is a mistyped --inputs, as `build` and `check` say it, not a ranking to come
    mistyped = run("standings", "grand-sud", "--final", "--inputs", str(tmp_path / "entrees"), cwd=tmp_path)
    assert (mistyped.returncode, mistyped.stdout) == (2, "")
    assert mistyped.stderr.splitlines() == [f"le dossier des classeurs {tmp_path / 'entrees'} n’existe pas — "
                                            "indiquez le bon dossier avec --inputs"]
    assert sorted(path.name for path in tmp_path.iterdir()) == ["inputs"]
    assert [path.name for path in new_season.iterdir()] == ["clubs.xlsx"]


def test_help_usage_and_usage_errors_speak_french():
    mistyped = run("buidl")
    assert mistyped.returncode == 2
    # the frame's text typeset (no-break spaces: cli_french `french_error`), read as words by `boxed`
    assert "Utilisation : reportgen" in mistyped.stderr and "commande inconnue : « buidl »" in boxed(mistyped.stderr)
    assert "Vouliez-vous dire « build » ?" in boxed(mistyped.stderr)
    missing = run("standings")
    assert missing.returncode == 2 and "argument manquant : circuit" in boxed(missing.stderr)
    helped = run("build", "--help")
    assert "Afficher cette aide et quitter." in helped.stdout and "[par défaut\u00a0: inputs]" in helped.stdout
    # the help typeset as the error panels are: « : » kept with its word, wherever the terminal wraps
    assert "pendant la construction\u00a0: seulement" in re.sub(r"[ │\n]+", " ", helped.stdout)
    assert "« make »" not in helped.stdout and "«\u00a0make\u00a0»" in run("--help").stdout
    # Typer 0.29 checks values with pydantic: its English is translated too.
    errors = {args: run(*args).stderr for args in [("check", "--format", "xml"), ("mail", "--season", "20x6"),
                                                   ("build", "--outptus", "x"), ("build", "extra")]}
    flat = {args: " ".join(text.replace("│", " ").split()) for args, text in errors.items()}
    assert "valeur invalide pour --format : « xml » n’est pas l’une des valeurs « text », « json »." in flat[
        ("check", "--format", "xml")]
    assert ("valeur invalide pour --season : un nombre entier est attendu ; tapez l’année de la saison en chiffres, "
            "par exemple --season 2026.") in flat[("mail", "--season", "20x6")]
    assert "option inconnue : --outptus. Vouliez-vous dire --outputs ?" in flat[("build", "--outptus", "x")]
    assert "argument(s) en trop : extra." in flat[("build", "extra")]
    english = ("Usage:", "Show this message", "No such command", "Missing argument", "Did you mean", "Error ",
               "Input should", "Value error", "Possible options", "unexpected")
    outs = [mistyped.stderr, missing.stderr, helped.stdout, *flat.values()]
    assert not [word for word in english for out in outs if word in out]
    assert not [out for out in [mistyped.stderr, missing.stderr, *flat.values()] if re.search(r"'[\w-]+'", out)]


@pytest.mark.parametrize("args, example", [(("standings", "grand-sud", "--season", "deux"), "--season 2026"),
                                           (("archive", "--season", "2O26"), "--season 2026"),
                                           (("masters", "prepare", "--season", "x"), "--season 2026"),
                                           (("season", "close", "l'an dernier"), "par exemple 2026"),
                                           (("season", "open", "l'an dernier"), "par exemple 2026")])
def test_a_season_that_is_not_a_number_is_said_in_french_with_what_to_type(args, example):
    said = run(*args)
    flat = " ".join(said.stderr.replace("│", " ").split())
    assert said.returncode == 2 and "un nombre entier est attendu ; tapez l’année de la saison en chiffres" in flat
    assert example in flat and "Input should" not in flat


def test_usage_errors_and_help_are_french_without_rich():
    """Typer takes rich for granted: without it (not installed), its plain output, in French."""
    no_rich = "import sys; sys.modules['rich'] = None; sys.argv[0] = 'reportgen'; from reportgen.cli import main; main()"

    def plain(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-c", no_rich, *args], capture_output=True, text=True, cwd=SCRATCH,
                              timeout=300)

    season = plain("standings", "grand-sud", "--season", "abc")
    assert season.returncode == 2, season.stderr
    assert season.stderr.splitlines()[:2] == ["Utilisation : reportgen standings [OPTIONS] {circuit}",
                                             "Aide : reportgen standings --help"]
    assert ("erreur : valeur invalide pour --season : un nombre entier est attendu ; tapez l’année de la saison en "
            "chiffres, par exemple --season 2026.") in season.stderr
    mistyped = plain("buidl")
    assert mistyped.returncode == 2 and "erreur : commande inconnue : « buidl ». Vouliez-vous dire « build » ?" in (
        mistyped.stderr)
    helped = plain("standings", "--help")
    assert helped.returncode == 0 and "[obligatoire]" in helped.stdout and "[par défaut : table]" in helped.stdout
    group = plain("players", "--help")
    assert "Commandes :" in group.stdout or "Commandes:" in group.stdout
    english = ("Usage:", "Try ", "Error:", "Input should", "Commands:", "[required]", "[default:", "Traceback")
    assert not [word for out in (season.stderr, mistyped.stderr, helped.stdout, group.stdout) for word in english
                if word in out]


def _command_paths():
    """Every command and subcommand of the real CLI, with its click object (its options' help)."""
    import typer

    from reportgen.cli import app

    def walk(command, path):
        yield path, command
        for name, sub in getattr(command, "commands", {}).items():
            yield from walk(sub, [*path, name])

    return list(walk(typer.main.get_command(app), []))


ENGLISH_IN_HELP = re.compile(r"Usage:|\bCOMMAND\b|\[ARGS\]|<(bool|str|int|float|path)>|Show this message|\bdefault\b")
FRENCH_ARGUMENTS = {"circuit", "joueur", "graphie", "autre", "saison"}  # a new argument's name: French, or add it


@pytest.mark.parametrize("path, command", _command_paths(), ids=lambda v: " ".join(["reportgen", *v]) if isinstance(v, list) else "")
def test_every_help_is_french_and_shows_its_whole_text(path, command):
    result = subprocess.run([REPORTGEN, *path, "--help"], capture_output=True, text=True, cwd=SCRATCH, timeout=60,
                            env={**os.environ, "COLUMNS": "200"})
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "Utilisation : reportgen" in out
    assert ENGLISH_IN_HELP.findall(out) == []
    assert not re.search(r"\(\s*\)", out), "empty parentheses: a [tag] swallowed by rich markup?"
    usage = next(line for line in out.splitlines() if "Utilisation" in line)
    assert set(re.findall(r"[{\[](\w+)[}\]]", usage)) - {"OPTIONS", "ARGUMENTS"} <= FRENCH_ARGUMENTS
    # Every help text reaches the screen whole: its brackets (« réglages [mail] ») and each word.
    flat = " ".join(out.replace("│", " ").split())
    texts = [command.help or ""] + [param.help or "" for param in command.params]
    for text in texts:
        for bracketed in re.findall(r"\[[^\]]*\]", text):
            assert bracketed in flat, bracketed
    for param in command.params:
        if getattr(param, "is_flag", False):  # a flag takes no value: no type beside it
            assert not re.search(re.escape(param.opts[0]) + r"\s+<", out), param.opts[0]


def test_mail_help_names_its_settings_table():
    out = " ".join(run("mail", "--help").stdout.replace("│", " ").split())
    assert "Envoyer les messages par SMTP (réglages [mail])." in out


def test_help_does_not_import_the_heavy_libraries():
    code = ("import sys; from typer.testing import CliRunner; from reportgen.cli import app; "
            "CliRunner().invoke(app, ['--help']); "
            "print(sorted(m for m in ('weasyprint', 'pandas', 'openpyxl') if m in sys.modules))")
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, text=True).stdout.strip() == "[]"


def test_circuits_lists_the_circuits_and_their_regulation():
    result = run("circuits")
    assert result.returncode == 0
    assert "grand-sud" in result.stdout and "000_33ab733906bdf5e8.txt" in result.stdout


def test_standings_final_as_csv(inputs):
    result = run("standings", "grand-sud", "--season", "2026", "--final", "--format", "csv", "--inputs", str(inputs))
    assert result.returncode == 0, result.stderr
    rows = list(csv.DictReader(io.StringIO(result.stdout)))
    assert list(rows[0])[:6] == ["rank", "player", "licence", "club", "points", "played"]
    assert [(r["rank"], r["player"], r["points"]) for r in rows[:2]] == [
        ("1", "MARTIN Paul", "575"), ("2", "<SCRIPT>ALERT(1)</SCRIPT> Mallory", "550")]


def test_a_shared_place_is_a_number_and_tied_in_the_json_for_scripts_as_in_the_csv(tmp_path):
    # Two winners of tournaments of the same size: same points, played and best result, so the
    # tie-break chain leaves them level (INTERPRETATIONS.md) and they share the first place.
    inputs = tmp_path / "inputs"
    write_clubs(inputs)
    write_tournament(inputs, "a", day="10/01/2026", results=[[1, "PREMIER", "Un", "", "Albi"], [2, "AUTRE", "Un", "", "Albi"]])
    write_tournament(inputs, "b", day="07/02/2026", club="ALBI", results=[[1, "EGAL", "Un", "", "Albi"], [2, "DERNIER", "Un", "", "Albi"]])
    as_json = run("standings", "grand-sud", "--season", "2026", "--format", "json", "--inputs", str(inputs))
    assert as_json.returncode == 0, as_json.stderr
    rows = json.loads(as_json.stdout)["rows"]
    assert [(row["rank"], row["player"], row["tied"]) for row in rows] == [
        (1, "EGAL Un", True), (1, "PREMIER Un", True), (3, "AUTRE Un", True), (3, "DERNIER Un", True)]
    assert all(list(row)[-1] == "tied" for row in rows)  # the last field, as the CSV's last column
    as_csv = run("standings", "grand-sud", "--season", "2026", "--format", "csv", "--inputs", str(inputs))
    assert [(r["rank"], r["tied"]) for r in csv.DictReader(io.StringIO(as_csv.stdout))] == [
        (str(row["rank"]), str(row["tied"])) for row in rows]


def test_standings_at_a_date_gives_the_ranking_in_force(inputs):
    result = run("standings", "grand-sud", "--at", "15/06/2025", "--format", "json", "--inputs", str(inputs))
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert (data["date"], data["final"]) == ("2025-06-01", False)
    assert [row["player"] for row in data["rows"]] == ["DUPONT Jean", "MARTIN Paul", "DURAND Anne", "LÉGER Zoé"]


@pytest.mark.parametrize("day, expected", [
    (dt.date(2026, 1, 5), ("2025-12-06", True)),  # the turn of the year: the 2025 final ranking holds
    (dt.date(2026, 1, 23), ("2025-12-06", True)),  # the day before the 2026 season's first tournament
    (dt.date(2026, 1, 24), ("2026-01-24", False)),  # that tournament's day
    (dt.date(2026, 3, 14), ("2026-03-14", False)),  # the day of two tournaments: the ranking after both
])
def test_the_ranking_in_force_across_seasons_of_the_example_league(example_scored, day, expected):
    found = ranking_in_force(example_scored.reports["grand-sud"].rankings, day)
    assert (found.date.isoformat(), found.final) == expected


def test_standings_at_the_turn_of_the_year_prints_the_final_ranking_of_the_year_before():
    example = Path(__file__).resolve().parents[1] / "examples" / "league"
    result = run("standings", "grand-sud", "--at", "05/01/2026", "--format", "json", "--inputs", str(example))
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert (data["season"], data["date"], data["final"]) == (2025, "2025-12-06", True)


def test_standings_as_a_table_prints_french_numbers(inputs):
    import re

    result = run("standings", "grand-sud", "--season", "2026", "--final", "--inputs", str(inputs))
    assert result.returncode == 0
    # « provisoire »: the 2026 season still runs on the tests' day (tests/conftest.py), its final ranking has no bulletin yet
    assert result.stdout.splitlines()[0] == "Classement final 2026 provisoire (tournois de 2026 seulement)"
    assert re.search(r"^ *1 +MARTIN Paul +(\d+ +)?Albi +575 +1 ", result.stdout, re.MULTILINE)
    # Totals above a thousand, and a date, from the example league's Tour de France (golden file
    # standings-season-2005.json: 6910 and 3743.5). The table groups thousands with a plain space
    # (reportgen/cli.py swaps french.py's narrow no-break space for one) and writes a decimal comma.
    example = Path(__file__).resolve().parents[1] / "examples" / "league"
    result = run("standings", "tour-de-france", "--at", "03/12/2005", "--inputs", str(example))
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == "Classement au 3 décembre 2005"
    assert re.fullmatch(r" *1 +MARTIN Aurélie +6 910 +8\b.*", lines[3])
    assert re.fullmatch(r" *2 +BOULANGER Philippe +3 743,5 +6\b.*", lines[4])


@pytest.mark.parametrize("args", [
    ("standings", "nulle-part"), ("standings", "grand-sud", "--at", "32/13/2026"),
    ("standings", "grand-sud", "--format", "pdf"), ("build", "--nope"),
])
def test_usage_errors_exit_2_without_traceback(args, inputs):
    result = run(*args, "--inputs", str(inputs)) if args[0] == "standings" else run(*args)
    assert result.returncode == 2
    assert "Traceback" not in result.stderr


def test_check_reports_every_problem_and_exits_1(tmp_path):
    inputs = small_league(tmp_path / "inputs")
    write_tournament(inputs, "casse", day="le 8", club="Lunel")
    result = run("check", "--inputs", str(inputs))
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert "2 problèmes" in result.stderr
    assert "casse.xlsx, feuille « Tournoi », cellule B3 (champ « Date ») : « le 8 » n’est pas une date" in result.stderr
    assert "casse.xlsx, feuille « Tournoi », cellule B4 (champ « Club ») : le club « Lunel »" in result.stderr


def test_check_writes_a_page_to_forward_to_the_club_and_prints_json_for_scripts(tmp_path):
    inputs = small_league(tmp_path / "inputs")
    write_tournament(inputs, "casse", day="le 8", club="Lunel")
    result = run("check", "--inputs", str(inputs), "--outputs", str(tmp_path / "out"), "--format", "json")
    assert result.returncode == 1
    data = json.loads(result.stdout)
    assert [(p["file"], p["sheet"], p["cell"], p["code"]) for p in data["problems"]] == [
        ("casse.xlsx", "Tournoi", "B3", "bad-value"), ("casse.xlsx", "Tournoi", "B4", "unknown-club")]
    page = (tmp_path / "out" / "verification.html").read_text()
    assert "<h2>casse.xlsx</h2>" in page and "feuille «\u00a0Tournoi\u00a0», cellule B3 (champ «\u00a0Date\u00a0»)" in page
    assert "2 problèmes à corriger" in page and "écrivez la date au format jj/mm/aaaa" in page


def test_check_on_a_clean_league_exits_0(inputs):
    result = run("check", "--inputs", str(inputs))
    assert result.returncode == 0 and "4 tournois lus, aucun problème." in result.stdout


# Every command taking --inputs, run with a folder that does not exist (its other arguments right).
WITH_INPUTS = [
    ("check",), ("build",), ("standings", "grand-sud"), ("ratings", "tantrix"), ("history", "DUPONT Jean"),
    ("players", "list"), ("players", "merge", "DUPONT Jean", "DUPOND Jean"),
    ("players", "distinct", "DUPONT Jean", "DUPOND Jean"), ("mail",), ("remind",), ("inbox",), ("publish",),
    ("archive", "--season", "2026"), ("season", "close", "2026"), ("season", "open", "2026"),
    ("template", "grand-sud"), ("template", "calendrier"),
    ("masters", "prepare", "--season", "2026", "--date", "12/12/2026", "--lieu", "Carcassonne"),
    ("poules", "next", "--event", "Open d'automne"),
]


@pytest.mark.parametrize("command", WITH_INPUTS)
def test_a_missing_inputs_folder_is_a_mistyped_inputs_said_in_one_line(tmp_path, command):
    """A folder that does not exist was « 1 problème à corriger dans les classeurs » (exit 1): no
    workbook is at fault, --inputs names nothing (README: exit 2), one line says what to do; nothing
    written, whatever the command. `history` said « aucun joueur « DUPONT Jean » dans l'archive ni
    dans … », `inbox` and `publish` asked for a table in a reportgen.toml of that folder, `template`
    wrote a workbook without the league's clubs, to be put in that folder."""
    absent = tmp_path / "absent"
    options = {opt for param in _command_named(command).params for opt in getattr(param, "opts", ())}
    folders = [arg for name in ("outputs", "archive") if f"--{name}" in options
               for arg in (f"--{name}", str(tmp_path / name))]
    result = run(*command, "--inputs", str(absent), *folders, cwd=tmp_path)
    assert (result.returncode, result.stdout) == (2, "")
    assert result.stderr.splitlines() == [
        f"le dossier des classeurs {absent} n’existe pas — indiquez le bon dossier avec --inputs"]
    assert list(tmp_path.iterdir()) == []


def _command_path(words: tuple[str, ...]) -> tuple[str, ...]:
    """The command that a command line's words run (its arguments after its name)."""
    paths = {tuple(path) for path, _ in _command_paths()}
    return max((words[:n] for n in range(len(words) + 1) if words[:n] in paths), key=len)


def _command_named(words: tuple[str, ...]):
    return dict((tuple(path), command) for path, command in _command_paths())[_command_path(words)]


def test_every_command_taking_inputs_is_tried_with_a_missing_folder():
    """The list above holds every command of the CLI with an --inputs option: a new one goes in it."""
    taking = {tuple(path) for path, command in _command_paths()
              if any("--inputs" in getattr(param, "opts", ()) for param in command.params)}
    assert len(taking) > 10 and taking - {_command_path(command) for command in WITH_INPUTS} == set()


@pytest.mark.parametrize("command", ["check", "build"])
def test_check_and_build_of_a_folder_without_a_workbook_say_so_and_write_nothing(tmp_path, command):
    """An empty inputs/ (a fresh clone's holds its README alone; a spreadsheet saved as CSV is no
    workbook) read « 0 tournoi lu, aucun problème. » or built nothing, exit 0: a wrong --inputs looked
    like a league without a problem. No workbook is at fault: one line names the folder and what to
    do, exit 2 as for a circuit of which `standings` finds none; nothing written."""
    inputs = tmp_path / "inputs"
    (inputs / "2026").mkdir(parents=True)
    (inputs / "README.md").write_text("Déposez ici les classeurs des clubs.\n")
    (inputs / "2026" / "albi.csv").write_text("Place;Nom\n")
    (inputs / "~$albi.xlsx").write_bytes(b"")  # Excel's lock file
    result = run(command, "--inputs", str(inputs), "--outputs", str(tmp_path / "out"), "--archive",
                 str(tmp_path / "archive"), cwd=tmp_path)
    assert (result.returncode, result.stdout) == (2, "")
    assert result.stderr.splitlines() == [
        f"aucun classeur dans {inputs} — déposez-y ceux des clubs, ou indiquez le bon dossier avec --inputs"]
    assert [path.name for path in tmp_path.iterdir()] == ["inputs"]


def test_build_writes_the_outputs_and_says_where(inputs, tmp_path):
    # relative to the working folder, as `make` gives it (`--outputs outputs`)
    result = run("build", "--inputs", str(inputs), "--outputs", "out", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "out" / "grand-sud" / "2026" / "classement-2026-01-10.pdf").exists()
    assert "grand-sud : publié dans" in result.stderr
    # again, nothing changed: nothing is published, the outputs are up to date
    again = run("build", "--inputs", str(inputs), "--outputs", "out", cwd=tmp_path)
    assert "aucun fichier réécrit" in again.stderr and "grand-sud : à jour dans" in again.stderr
    assert "publié dans" not in again.stderr


def test_masters_prepare_then_standings_as_csv(tmp_path):
    from tests.builders import write_clubs as clubs
    from tests.masters.test_workbook import NAMES

    inputs = tmp_path / "inputs"
    clubs(inputs)
    write_tournament(inputs, "gs", day="10/10/2026",
                     results=[[place, *name.split(" "), "", ""] for place, name in enumerate(NAMES, start=1)])
    result = run("masters", "prepare", "--season", "2026", "--date", "10/10/2026", "--lieu", "Albi",
                 "--inputs", str(inputs))
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[1].strip() == "1  JOUEURA Un  (1re place du classement annuel)"
    assert (inputs / "masters" / "masters-2026.xlsx").exists()
    standings = run("standings", "masters", "--season", "2026", "--format", "csv", "--inputs", str(inputs))
    assert standings.returncode == 0, standings.stderr
    header = standings.stdout.splitlines()[0].split(",")
    assert header[:6] == ["rank", "player", "licence", "club", "points", "played"]
    assert {"tops", "defense", "attack", "barrage"} <= set(header)
    # No match played yet: no final standings, no workbook at fault (it exited 1): exit 2, what to do.
    final = run("standings", "masters", "--final", "--inputs", str(inputs))
    assert (final.returncode, final.stdout) == (2, "")
    assert final.stderr.splitlines() == [
        "aucun classement final masters : aucun tournoi n’est encore fini (son classement final vient une fois tous "
        "ses matchs saisis) ; sans --final, « reportgen standings masters » donne le classement à date"]


def test_masters_prepare_without_a_date_says_what_to_do(inputs):
    result = run("masters", "prepare", "--season", "2026", "--inputs", str(inputs))
    assert result.returncode == 1 and "indiquez-la avec --date jj/mm/aaaa" in result.stderr


def test_masters_prepare_for_a_season_without_a_grand_sud_ranking_is_a_mistyped_command(inputs):
    """It said « 1 problème à corriger dans les classeurs : --season : … », exit 1: a season of no
    Grand Sud ranking (and no Masters workbook) is a mistyped command, that line alone (exit 2)."""
    result = run("masters", "prepare", "--season", "2031", "--date", "12/12/2031", "--inputs", str(inputs))
    assert (result.returncode, result.stdout) == (2, "")
    assert result.stderr.splitlines() == ["aucun classement final Grand Sud pour la saison 2031 ; saisons : 2025, 2026"]
    assert not (inputs / "masters").exists()


def test_standings_tour_de_france_as_csv_on_the_example_league():
    result = run("standings", "tour-de-france", "--season", "2005", "--format", "csv",
                 "--inputs", str(Path(__file__).resolve().parents[1] / "examples" / "league"))
    assert result.returncode == 0, result.stderr
    rows = list(csv.DictReader(io.StringIO(result.stdout)))
    # No licence nor club columns: the Tour de France has none (they would be empty on every row).
    assert list(rows[0]) == ["rank", "player", "points", "played", "evolution", "tied"]
    assert rows[0]["rank"] == "1" and float(rows[0]["points"]) >= float(rows[1]["points"])


def test_standings_table_keeps_half_points():
    result = run("standings", "tour-de-france", "--season", "2005",
                 "--inputs", str(Path(__file__).resolve().parents[1] / "examples" / "league"))
    as_csv = run("standings", "tour-de-france", "--season", "2005", "--format", "csv",
                 "--inputs", str(Path(__file__).resolve().parents[1] / "examples" / "league"))
    halves = [row for row in csv.DictReader(io.StringIO(as_csv.stdout)) if row["points"].endswith(".5")]
    assert halves, "the example league has half points"
    assert f"{halves[0]['player']}" in result.stdout
    line = next(l for l in result.stdout.splitlines() if halves[0]["player"] in l)
    assert re.match(r" +\d{1,3}(?: \d{3})*,5 ", line.split(halves[0]["player"])[1])  # the column after the name


def test_check_also_reports_what_only_scoring_finds(tmp_path):
    from tests.masters.test_workbook import NAMES, run_prepare

    inputs = tmp_path / "inputs"
    write_clubs(inputs)
    write_tournament(inputs, "gs", day="10/10/2026",
                     results=[[place, *name.split(" "), "", ""] for place, name in enumerate(NAMES, start=1)])
    run_prepare(inputs, day=__import__("datetime").date(2026, 10, 20))
    import openpyxl

    path = inputs / "masters" / "masters-2026.xlsx"
    book = openpyxl.load_workbook(path)
    book["Matchs"]["D2"] = NAMES[14]  # not the pairing of §2
    book.save(path)
    result = run("check", "--inputs", str(inputs))
    assert result.returncode == 1 and "selon le §2" in result.stderr


def test_the_json_of_a_final_ranking_says_whether_its_season_still_runs(tmp_path):
    # the table's title says « provisoire » while the season runs; a script reads it in `so_far`
    inputs = tmp_path / "inputs"
    write_clubs(inputs)
    year = clock.today().year
    players = [[1, "PREMIER", "Un", "", "Albi"], [2, "AUTRE", "Un", "", "Albi"]]
    write_tournament(inputs, "a", day=f"10/01/{year - 1}", results=players)
    write_tournament(inputs, "b", day=f"01/01/{year}", club="ALBI", results=players)
    found = {}
    for season in (year - 1, year):
        result = run("standings", "grand-sud", "--season", str(season), "--final", "--format", "json", "--inputs", str(inputs))
        assert result.returncode == 0, result.stderr
        data = json.loads(result.stdout)
        found[season] = (data["final"], data["so_far"])
        table = run("standings", "grand-sud", "--season", str(season), "--final", "--inputs", str(inputs))
        assert table.stdout.splitlines()[0].endswith("provisoire (tournois de 2026 seulement)") == data["so_far"]
    assert found == {year - 1: (True, False), year: (True, True)}


def test_publish_s_help_names_everything_that_never_leaves_the_machine():
    """The help listed verification.html, outputs/mail/ and hidden files only: not the reminders, the
    clubs' bulletins, the pages' data, the .eml notices, nor the documents replaced by a public copy."""
    from reportgen.delivery.publish import DRAFTS, INTERNAL, PRIVATE

    helped = " ".join(run("publish", "--help").stdout.replace("│", " ").split())
    for name in PRIVATE:
        assert name in helped, name
    for name in (*INTERNAL, *DRAFTS, "cachés", "copie publique"):
        assert name in helped, name


def test_inbox_s_help_says_how_long_a_refused_workbook_is_listed_and_how_to_set_it_aside():
    helped = " ".join(run("inbox", "--help").stdout.replace("│", " ").split())
    assert "listé à chaque relève et par « make check » jusqu’à ce que sa version corrigée soit enregistrée " \
           "(supprimez-le pour l’écarter)" in helped


# A value that names nothing of the league is a mistyped command (README: exit 2): one line that says
# what exists, no league note before it (the example league has some: two players who may be one).

def test_standings_of_an_unknown_event_or_season_says_only_what_exists():
    from tests.conftest import EXAMPLE_INPUTS

    event = run("standings", "tantrix", "--event", "Nulle part", "--inputs", str(EXAMPLE_INPUTS))
    assert (event.returncode, event.stdout) == (2, "")
    assert event.stderr.splitlines() == ["aucun tournoi tantrix ne s’appelle « Nulle part » ; tournois : Coupe Tantrix "
                                         "d'automne, Week-end Tantrix de printemps"]
    season = run("standings", "grand-sud", "--season", "2031", "--inputs", str(EXAMPLE_INPUTS))
    assert (season.returncode, season.stdout) == (2, "")
    assert season.stderr.splitlines() == ["aucun classement grand-sud pour la saison 2031 ; saisons : 2025, 2026"]
    final = run("standings", "masters", "--season", "2025", "--final", "--inputs", str(EXAMPLE_INPUTS))
    assert final.returncode == 2 and final.stderr.splitlines() == [
        "aucun classement final masters pour la saison 2025 ; saisons : 2026"]
    # A day before the first ranking names none (no workbook has a problem): the day it takes effect.
    day = run("standings", "tantrix", "--at", "01/01/2020", "--inputs", str(EXAMPLE_INPUTS))
    assert (day.returncode, day.stdout) == (2, "")
    assert day.stderr.splitlines() == ["aucun classement tantrix en vigueur le 1er janvier 2020 ; le premier entre en "
                                       "vigueur le 14 mars 2026"]


def test_standings_of_a_finished_masters_says_final_as_its_bulletin():
    from tests.conftest import EXAMPLE_INPUTS

    for args in ((), ("--final",)):
        shown = run("standings", "masters", *args, "--inputs", str(EXAMPLE_INPUTS))
        assert shown.returncode == 0, shown.stderr
        assert shown.stdout.splitlines()[0] == "Masters Grand Sud 2026 — classement final"


@pytest.mark.parametrize("circuit", ["grand-sud", "tour-de-france"])
def test_event_of_a_circuit_whose_events_have_no_standings_says_so_and_what_to_type(circuit):
    """`standings grand-sud --event "Tournoi d'Albi"` said « aucun tournoi grand-sud ne s'appelle
    « Tournoi d'Albi » ; il n'y en a aucun » of two tournaments of that name: --event is for the
    circuits whose events have standings of their own (their info's `event_rankings`, which the help
    lists); another's tournaments count in the season's ranking, of which --at gives the one after each."""
    from reportgen import circuits
    from tests.conftest import EXAMPLE_INPUTS

    ranked = [slug for slug, info in circuits.REGISTRY.items() if info.event_rankings]
    assert ranked == ["masters", "poules", "tantrix"]
    done = run("standings", circuit, "--event", "Tournoi d'Albi", "--inputs", str(EXAMPLE_INPUTS))
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr.splitlines() == [
        f"le circuit {circuit} n’a pas de classement par tournoi (chacun compte dans celui de la saison) : "
        f"« reportgen standings {circuit} --at jj/mm/aaaa » donne celui d’après le tournoi de ce jour ; "
        "circuits qui en ont un : masters, poules, tantrix"]
    helped = " ".join(run("standings", "--help").stdout.replace("│", " ").split())
    assert "(champ Nom de la feuille Tournoi) : circuits masters, poules, tantrix (les tournois des autres" in helped
