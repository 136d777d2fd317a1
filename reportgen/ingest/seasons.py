"""Closed seasons: `inputs/saisons.toml`, written by `reportgen season close` and `season open`.

Until its season is closed, a final ranking is only the ranking « à date » (a CSV; no bulletin of
its own, its latest dated bulletin says it): later tournaments of the season may still arrive.
A season is closed once its year is over, or earlier when the secretary closes it; closing records
the date.
"""

from __future__ import annotations

import datetime as dt
import tomllib
from pathlib import Path

from reportgen.model import Problem, SourceRef
from reportgen.problems import BAD_VALUE, UNREADABLE
from reportgen.toml_text import SettingsFile, not_utf8, syntax_problem

SEASONS_FILE = "saisons.toml"
# The secretary reads the file: its comment is French, and says how to open a season again
# (`reportgen season open`). Comments only: the file reads the same (`read_closed`).
HEADER = ("# Écrit par « reportgen season close » : les saisons que vous avez closes, et à quelle date.\n"
          "# Une saison est aussi close une fois son année finie.\n"
          "# Pour rouvrir une saison : « reportgen season open 2026 » ; « reportgen season close 2026 » la clôt "
          "de nouveau.\n"
          "[closed]\n")
SEASONS = SettingsFile("le fichier des saisons closes", "2026 = 2026-12-15", "[closed]",
                       "sous [closed], chaque saison close s’écrit sur sa ligne année = date, comme 2026 = 2026-12-15 "
                       "(supprimer une ligne rouvre sa saison)")


def read_closed(inputs: Path, problems: list[Problem]) -> dict[int, dt.date]:
    path = inputs / SEASONS_FILE
    if not path.is_file():
        return {}
    try:
        text = path.read_text(encoding="utf-8-sig")
        data = tomllib.loads(text)
    except UnicodeDecodeError:
        message, fix = not_utf8(SEASONS)
        problems.append(UNREADABLE(SourceRef(SEASONS_FILE), message=message, fix=fix))
        return {}
    except tomllib.TOMLDecodeError as error:
        message, fix = syntax_problem(error, text, SEASONS)
        problems.append(UNREADABLE(SourceRef(SEASONS_FILE), message=message, fix=fix))
        return {}
    table = data.get("closed", {})
    for key, value in data.items():
        if key != "closed" or not isinstance(table, dict):  # read nowhere: the season she meant stays open
            problems.append(_outside_closed(key, value))
    closed: dict[int, dt.date] = {}
    for key, day in (table.items() if isinstance(table, dict) else ()):
        if not (key.isdigit() and isinstance(day, dt.date) and not isinstance(day, dt.datetime)):
            problems.append(BAD_VALUE(SourceRef(SEASONS_FILE, "closed", key),
                                      message=f"« {key} = {_typed(day)} » n’est pas une saison close (année = date)",
                                      fix="écrivez par exemple 2026 = 2026-12-15"))
            continue
        closed[int(key)] = day
    return closed


def _outside_closed(key: str, value: object) -> Problem:
    """A line or table of saisons.toml other than [closed]: a line written above the header, or a
    table of another name, was read as nothing, and the season she meant to close stayed open."""
    if isinstance(value, dict):
        return BAD_VALUE(SourceRef(SEASONS_FILE, key), message=f"la table [{key}] n’est pas lue : seule [closed] l’est",
                         fix=SEASONS.form)
    if key == "closed":  # « closed = 5 »: the table's name written as a line
        return BAD_VALUE(SourceRef(SEASONS_FILE, None, key), message=f"« closed = {_typed(value)} » n’est pas la "
                         "table [closed] des saisons closes", fix=SEASONS.form)
    return BAD_VALUE(SourceRef(SEASONS_FILE, None, key),
                     message=f"« {key} = {_typed(value)} » est écrit hors de la table [closed] : il n’est pas lu",
                     fix="écrivez-le sous la ligne [closed]")


def _typed(value: object) -> str:
    """A value as typed: a date in quotes is a text, shown with them."""
    return f'"{value}"' if isinstance(value, str) else str(value)


def seasons_toml(closed: dict[int, dt.date]) -> bytes:
    """The file's text for these closed seasons (`reportgen season close` and `open` write it)."""
    lines = "".join(f"{year} = {day.isoformat()}\n" for year, day in sorted(closed.items()))
    return (HEADER + lines).encode("utf-8")
