"""A settings file with a TOML syntax error, inputs/reportgen.toml or inputs/saisons.toml, said by
the command the secretary runs: the file, its line and column and that line, what is wrong in French
words, and how to write it right. tomllib says it in English (« Expected '=' after a key in a
key/value pair (at line 2, column 6) »), which saisons.toml's problem gave as it was."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.builders import small_league

REPORTGEN = str(Path(sys.executable).parent / "reportgen")
ENGLISH = re.compile(r"\b(?:Invalid|Illegal|character|Cannot|Expected|Unclosed|Unterminated|line|column|at end)\b")


@pytest.fixture(scope="module")
def league(tmp_path_factory) -> Path:
    return small_league(tmp_path_factory.mktemp("settings-syntax") / "inputs")


def said(league: Path, tmp_path: Path, name: str, text: str, command: str = "check") -> tuple[int, list[str]]:
    """The exit code and the problem lines of `command` run on the league with `name` holding `text`."""
    inputs = tmp_path / "inputs"
    shutil.copytree(league, inputs)
    (inputs / name).write_text(text, encoding="utf-8")
    done = subprocess.run([REPORTGEN, command, "--inputs", str(inputs), "--outputs", str(tmp_path / "outputs"),
                           "--archive", str(tmp_path / "archive")], capture_output=True, text=True, timeout=300,
                          cwd=tmp_path)
    return done.returncode, [line for line in (done.stdout + done.stderr).splitlines() if line.startswith("  - ")]


SEASONS = "  - saisons.toml : le fichier des saisons closes est illisible"
SETTINGS = "  - reportgen.toml : le fichier de réglages est illisible"


@pytest.mark.parametrize(("name", "text", "line"), [
    # « = » forgotten
    ("saisons.toml", "[closed]\n2026 2026-12-15\n",
     f"{SEASONS} à la ligne 2, colonne 6, « 2026 2026-12-15 » : il manque « = » après « 2026 » — mettez « = » "
     "entre le nom et la valeur, comme 2026 = 2026-12-15"),
    ("reportgen.toml", "[league]\nname \"Ligue des Causses\"\n",
     f"{SETTINGS} à la ligne 2, colonne 6, « name \"Ligue des Causses\" » : il manque « = » après « name » — mettez "
     "« = » entre le nom et la valeur, comme name = \"Ligue Grand Sud\""),
    # a quote left open, on its line or to the document's end (tomllib said « at end of document »)
    ("reportgen.toml", "[league]\nname = \"Ligue des Causses\n",
     f"{SETTINGS} à la ligne 2, colonne 8, « name = \"Ligue des Causses » : un texte entre guillemets n’est pas "
     "fermé — fermez-le sur sa ligne par le guillemet droit qui l’ouvre, comme name = \"Ligue Grand Sud\""),
    ("reportgen.toml", "[league]\nname = 'Ligue des Causses\n\n[calendar]\nremind_after_days = 7\n",
     f"{SETTINGS} à la ligne 2, colonne 8, « name = 'Ligue des Causses » : un texte entre guillemets n’est pas "
     "fermé — fermez-le sur sa ligne par le guillemet droit qui l’ouvre, comme name = \"Ligue Grand Sud\""),
    # a bracket left open: said where it opens (tomllib: where the next line could not be read)
    ("reportgen.toml", "[calendar]\nremind_after_days = [7\n\n[league]\nname = \"Ligue\"\n",
     f"{SETTINGS} à la ligne 2, colonne 21, « remind_after_days = [7 » : « [ » n’est jamais refermé par « ] » — "
     "ajoutez « ] » après la dernière valeur, comme counted = [\"09\", \"11\"]"),
    ("reportgen.toml", "[league\nname = \"Ligue\"\n",
     f"{SETTINGS} à la ligne 1, colonne 8, « [league » : il manque « ] » à la fin du nom de la table — écrivez le "
     "nom de la table entre crochets, seul sur sa ligne, comme [league]"),
    # a key or a table twice: both lines named (tomllib: « at end of document » for the last line)
    ("saisons.toml", "[closed]\n2025 = 2025-12-31\n2025 = 2025-12-20",
     f"{SEASONS} à la ligne 3, « 2025 = 2025-12-20 » : « 2025 » est écrit deux fois dans [closed] (lignes 2 et 3) "
     "— gardez une seule de ces deux lignes"),
    ("reportgen.toml", "[league]\nname = \"A\"\n\n[calendar]\nremind_after_days = 7\n\n[league]\nname = \"B\"\n",
     f"{SETTINGS} à la ligne 7, « [league] » : la table [league] est écrite deux fois (lignes 1 et 7) — réunissez "
     "ses réglages sous un seul [league]"),
    # a date TOML cannot read, impossible or written the French way
    ("saisons.toml", "[closed]\n2026 = 2026-02-30\n",
     f"{SEASONS} à la ligne 2, « 2026 = 2026-02-30 » : date impossible ou mal écrite : « 2026-02-30 » — écrivez la "
     "date en chiffres, année-mois-jour, comme 2026-12-15"),
    ("saisons.toml", "[closed]\n2026 = 15/12/2026\n",
     f"{SEASONS} à la ligne 2, « 2026 = 15/12/2026 » : date impossible ou mal écrite : « 15/12/2026 » — écrivez la "
     "date en chiffres, année-mois-jour, comme 2026-12-15"),
    # a value TOML cannot read: a text without quotes, or in typographic ones
    ("reportgen.toml", "[league]\nname = Ligue des Causses\n",
     f"{SETTINGS} à la ligne 2, colonne 8, « name = Ligue des Causses » : valeur incompréhensible : « Ligue des "
     "Causses » — un texte s’écrit entre guillemets droits (name = \"Ligue\"), une date en chiffres année-mois-jour "
     "(2026-12-15), un nombre en chiffres, oui ou non par true ou false"),
    ("reportgen.toml", "[league]\nname = « Ligue des Causses »\n",
     f"{SETTINGS} à la ligne 2, colonne 8, « name = « Ligue des Causses » » : ce texte est entre des guillemets que "
     "TOML ne lit pas (« », “ ”) — entourez-le de guillemets droits (\"), comme name = \"Ligue Grand Sud\""),
    # saisons.toml holds dates, never texts: quotes are what to take away (it said to quote as name = "…")
    ("saisons.toml", "[closed]\n2026 = «2026-12-15»\n",
     f"{SEASONS} à la ligne 2, colonne 8, « 2026 = «2026-12-15» » : ce texte est entre des guillemets que TOML ne lit "
     "pas (« », “ ”) — retirez les guillemets : une valeur de ce fichier s’écrit sans, comme 2026 = 2026-12-15"),
])
def test_check_says_a_syntax_error_in_french_at_its_line_with_its_fix(league, tmp_path, name, text, line):
    code, problems = said(league, tmp_path, name, text)
    assert (code, problems) == (1, [line])
    assert not ENGLISH.search(line), line


def test_build_says_it_the_same_and_publishes_nothing(league, tmp_path):
    code, problems = said(league, tmp_path, "saisons.toml", "[closed]\n2026 2026-12-15\n", "build")
    assert code == 1 and problems == [
        f"{SEASONS} à la ligne 2, colonne 6, « 2026 2026-12-15 » : il manque « = » après « 2026 » — mettez « = » "
        "entre le nom et la valeur, comme 2026 = 2026-12-15"]
    assert not (tmp_path / "outputs" / "index.html").exists()


def test_a_seasons_file_not_in_utf8_is_said_as_the_settings_file_is(league, tmp_path):
    """It read « (…) ('utf-8' codec can't decode byte 0xe9 in position 12: invalid continuation byte) »."""
    inputs = tmp_path / "inputs"
    shutil.copytree(league, inputs)
    (inputs / "saisons.toml").write_bytes("# clôture\n[closed]\n2025 = 2025-12-31\n".encode("latin-1"))
    done = subprocess.run([REPORTGEN, "check", "--inputs", str(inputs), "--outputs", str(tmp_path / "outputs")],
                          capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert done.returncode == 1
    assert "  - saisons.toml : le fichier des saisons closes n’est pas enregistré en UTF-8 — enregistrez-le en " \
           "UTF-8 (« Unicode (UTF-8) » dans la liste des encodages)" in done.stdout + done.stderr
