"""The TOML settings files a secretary types (inputs/reportgen.toml, inputs/saisons.toml) as she
reads them: where a key is written, and a syntax error said in French, located at its line and
column, with its fix (tomllib says it in English, « Expected '=' after a key in a key/value pair (at
line 3, column 5) »). Every reader of a .toml file says its errors through `syntax_problem`."""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass

# -- a syntax error, in French ----------------------------------------------------------------------

_SYNTAX = re.compile(r"^(?P<what>.*?)\s*\(at (?:line (?P<line>\d+), column (?P<column>\d+)|end of document)\)$",
                     re.S)
# A date as a secretary may type it: 2026-12-32, 15/12/2026, 2026-1-5 (TOML reads 2026-12-15 only).
_DATE_LIKE = re.compile(r"\d{1,4}[-/.]\d{1,2}[-/.]\d{1,4}")
_TYPOGRAPHIC_QUOTES = "«»“”„‘’"
# tomllib's messages of a string left open: a line's end, or the document's.
_UNCLOSED_STRING = {"Illegal character '\\n'", "Unterminated string", "Expected \"'\"", "Expected '\"'",
                    "Expected '\"\"\"'", "Expected \"'''\""}
_TWICE = re.compile(r"Cannot overwrite a value|Cannot declare \(.+\) twice|Cannot mutate immutable namespace .+"
                    r"|Cannot redefine namespace .+")


@dataclass(frozen=True)
class SettingsFile:
    """How a settings file is named to the secretary and what its right lines look like."""

    subject: str  # « le fichier de réglages »
    example: str  # a right line: « name = "Ligue Grand Sud" »
    table: str  # a table's line: « [league] »
    form: str  # what its lines are, the fix of an error said in no other words


@dataclass(frozen=True)
class _Place:
    """Where an error is: its line (1-based; None: nowhere known) and column (None: the line's)."""

    line: int | None
    column: int | None = None


def syntax_problem(error: tomllib.TOMLDecodeError, text: str, file: SettingsFile) -> tuple[str, str]:
    """The message and the fix of a syntax error of `text`, a settings file: its place and that
    line, what is wrong in French words, how to write it right. tomllib's English is said only for
    a message no case below knows (« erreur de syntaxe (…) »)."""
    found = _SYNTAX.match(str(error))
    what = found["what"] if found else str(error)
    place = _Place(int(found["line"]), int(found["column"])) if found and found["line"] else _Place(None)
    lines = text.splitlines()
    wrong, fix, place = _said(what, place, lines, file)
    if place.line is None:  # « at end of document »: its last line
        place = _Place(next((number for number in range(len(lines), 0, -1) if lines[number - 1].strip()), None))
    return f"{file.subject} est illisible{_where(place, lines)} : {wrong}", fix


def not_utf8(file: SettingsFile) -> tuple[str, str]:
    """The message and the fix of a settings file saved in another encoding (Notepad's ANSI)."""
    return (f"{file.subject} n’est pas enregistré en UTF-8",
            "enregistrez-le en UTF-8 (« Unicode (UTF-8) » dans la liste des encodages)")


def _where(place: _Place, lines: list[str]) -> str:
    """« à la ligne 3, colonne 6, « 2026 2026-12-15 » », or nothing when the place is not known."""
    if place.line is None or place.line > len(lines):
        return ""
    text = lines[place.line - 1].strip()
    shown = text if len(text) <= 60 else text[:59] + "…"
    return (f" à la ligne {place.line}" + (f", colonne {place.column}" if place.column else "")
            + (f", « {shown} »" if shown else ""))


def _said(what: str, place: _Place, lines: list[str], file: SettingsFile) -> tuple[str, str, _Place]:
    """(what is wrong, its fix, its place) for tomllib's message `what`, found at `place`."""
    line = lines[place.line - 1] if place.line is not None and place.line <= len(lines) else ""
    if what == "Expected '=' after a key in a key/value pair":
        key = (line[:place.column - 1] if place.column else lines[-1] if lines else "").strip()
        return (f"il manque « = » après « {key} »" if key else "il manque « = » après le nom du réglage",
                f"mettez « = » entre le nom et la valeur, comme {file.example}", place)
    if what in _UNCLOSED_STRING:
        return ("un texte entre guillemets n’est pas fermé",
                _quoted(file, "fermez-le sur sa ligne par le guillemet droit qui l’ouvre"),
                _unclosed_quote(lines) or place)
    opened = _opened(lines, place)
    # a list or an inline table left open: tomllib stops where it finds what no value is (« Invalid
    # value » at the document's end), said where it was opened
    if what in ("Unclosed array", "Unclosed inline table") or (opened and place.line is None):
        opening = opened[1] if opened else "[" if what == "Unclosed array" else "{"
        closing = "]" if opening == "[" else "}"
        return (f"« {opening} » n’est jamais refermé par « {closing} »",
                f"ajoutez « {closing} » après la dernière valeur" + (', comme counted = ["09", "11"]'
                                                                    if opening == "[" else ""),
                opened[0] if opened else place)
    if what in ("Expected ']' at the end of a table declaration", "Expected ']]' at the end of an array declaration"):
        closing = what.split("'")[1]
        return (f"il manque « {closing} » à la fin du nom de la table",
                f"écrivez le nom de la table entre crochets, seul sur sa ligne, comme {file.table}", place)
    if _TWICE.fullmatch(what):
        return _twice(lines, place)
    if found := re.fullmatch(r"Duplicate inline table key '(.+)'", what):
        return f"« {found[1]} » est écrit deux fois entre les mêmes accolades", "gardez-en un seul", place
    value = _value(line)
    if what == "Invalid date or datetime" or (what in ("Invalid value", "Expected newline or end of document after "
                                                       "a statement") and _DATE_LIKE.match(value)):
        return (f"date impossible ou mal écrite : « {value} »",
                "écrivez la date en chiffres, année-mois-jour, comme 2026-12-15", _Place(place.line))
    if what == "Invalid value":
        if value and value[0] in _TYPOGRAPHIC_QUOTES:
            return ("ce texte est entre des guillemets que TOML ne lit pas (« », “ ”)",
                    _quoted(file, "entourez-le de guillemets droits (\")"), place)
        if not value:
            return "il manque la valeur après « = »", f"écrivez la valeur après « = », comme {file.example}", place
        return (f"valeur incompréhensible : « {value} »",
                "un texte s’écrit entre guillemets droits (name = \"Ligue\"), une date en chiffres année-mois-jour "
                "(2026-12-15), un nombre en chiffres, oui ou non par true ou false", place)
    if what == "Expected newline or end of document after a statement":
        return ("un seul réglage par ligne : du texte suit la valeur",
                "retirez ce qui suit la valeur, ou mettez-le en commentaire après un #", place)
    for english, french in _OTHERS:
        if english.fullmatch(what):
            return english.sub(french, what), file.form, place
    return f"erreur de syntaxe ({what})", file.form, place


# tomllib's other messages (Python 3.11-3.13, tomllib/_parser.py), each as the secretary reads it.
_OTHERS = [(re.compile(english), french) for english, french in (
    (r"(?:Illegal|Found invalid) character (.+)", r"caractère interdit ici : \1"),
    (r"Invalid initial character for a key part", "un nom de réglage commence par une lettre, un chiffre, « _ » ou « - »"),
    (r"Invalid statement", "ligne incompréhensible"),
    (r"Unescaped '\\' in a string", "une barre oblique inverse « \\ » se double dans un texte entre guillemets"),
    (r"Escaped character is not a Unicode scalar value|Invalid hex value", "code de caractère \\u… invalide"),
)]


def _quoted(file: SettingsFile, fix: str) -> str:
    """The fix of a text's quotes, with the file's own example of a right line. A file whose values
    are never texts (saisons.toml: dates) wants none: told to quote as reportgen.toml does, the
    secretary wrote 2026 = "2026-12-15", which is no date."""
    if '"' in file.example:
        return f"{fix}, comme {file.example}"
    return f"retirez les guillemets : une valeur de ce fichier s’écrit sans, comme {file.example}"


def _value(line: str) -> str:
    """The value written after the first « = » of `line`, its comment left out."""
    _, equals, value = line.partition("=")
    return value.split("#")[0].strip() if equals else ""


def _twice(lines: list[str], place: _Place) -> tuple[str, str, _Place]:
    """A key or a table written twice: tomllib stops just after the second (its line's end, or the
    document's end when it is the last line), where this finds the last one written."""
    statements = _statements(lines)
    at = place.line if place.line is not None else len(lines)
    before = [statement for statement in statements if statement[1] <= at]
    if not before:
        return "ce réglage a déjà une valeur plus haut", "gardez une seule de ces valeurs", place
    path, number, table = before[-1]
    first = next(line for found, line, _ in statements if found == path)
    if table:
        name = "[" + ".".join(path) + "]"
        if first == number:  # a table whose name a dotted key above wrote already
            return (f"la table {name} reprend des réglages écrits plus haut", "gardez-les à un seul endroit",
                    _Place(number))
        return (f"la table {name} est écrite deux fois (lignes {first} et {number})",
                f"réunissez ses réglages sous un seul {name}", _Place(number))
    key, inside = path[-1], ".".join(path[:-1])
    where = f" dans [{inside}]" if inside else ""
    if first == number:
        return f"« {key} » a déjà une valeur plus haut{where}", "gardez une seule de ces valeurs", _Place(number)
    return (f"« {key} » est écrit deux fois{where} (lignes {first} et {number})",
            "gardez une seule de ces deux lignes", _Place(number))


def _opened(lines: list[str], place: _Place) -> tuple[_Place, str] | None:
    """Where a « [ » or « { » still open at `place` was opened (the line its value starts on), and
    which; None when none is."""
    depth, quote, start = 0, None, None
    end = place.line if place.line is not None else len(lines)
    for number, line in enumerate(lines[:end], 1):
        if depth == 0 and quote is None:
            start = number
        depth, quote, _ = _scan(line, depth, quote)
    if start is None or depth == 0:
        return None
    text = lines[start - 1]
    found = re.compile(r"[\[{]").search(text, text.find("=") + 1)
    return (_Place(start, found.start() + 1), found[0]) if found else None


def _unclosed_quote(lines: list[str]) -> _Place | None:
    """The first quote opened and not closed on its line, or the line of a multi-line string (three
    quotes) never closed."""
    depth, quote, opened = 0, None, None
    for number, line in enumerate(lines, 1):
        if quote is None:
            opened = number
        depth, quote, unclosed = _scan(line, depth, quote)
        if unclosed is not None:
            return _Place(number, unclosed + 1)
    return _Place(opened) if quote is not None else None


# -- where things are in the text -------------------------------------------------------------------

_KEY_PART = re.compile(r'\s*(?:"((?:[^"\\]|\\.)*)"|\'([^\']*)\'|([A-Za-z0-9_-]+))\s*')


def _key_path(text: str) -> tuple[tuple[str, ...], int] | None:
    """A dotted key at the start of `text` (bare or quoted parts) and where it ends, or None."""
    parts: list[str] = []
    position = 0
    while True:
        found = _KEY_PART.match(text, position)
        if not found:
            return None
        parts.append(next(group for group in found.groups() if group is not None))
        position = found.end()
        if not text.startswith(".", position):
            return tuple(parts), position
        position += 1


def _key_lines(text: str) -> dict[tuple[str, ...], int]:
    """The line (1-based) where each table header and each key is first written: (table..., key) -> line."""
    lines: dict[tuple[str, ...], int] = {}
    for path, number, _ in _statements(text.splitlines()):
        lines.setdefault(path, number)
    return lines


def _statements(lines: list[str]) -> list[tuple[tuple[str, ...], int, bool]]:
    """Each table header and each key written, in order: (its path, its line, whether a table).

    A plain scan, not a parser: tables `[a.b]` and `[[a.b]]`, keys `k = …` (bare, quoted or dotted)
    at the start of a line outside multi-line strings and arrays. What it cannot place (keys inside
    an inline table) has no line: the problem is still located by its table and key."""
    found: list[tuple[tuple[str, ...], int, bool]] = []
    table: tuple[str, ...] = ()
    depth = 0  # open brackets and braces of a value spanning lines
    quote = None  # the delimiter of an open multi-line string
    for number, line in enumerate(lines, 1):
        start = depth == 0 and quote is None
        if start:
            stripped = line.lstrip()
            if stripped.startswith("["):
                inner = stripped[2:] if stripped.startswith("[[") else stripped[1:]
                path = _key_path(inner)
                if path and inner.startswith("]", path[1]):
                    table = path[0]
                    found.append((table, number, True))
                    continue
            else:
                path = _key_path(line)
                if path and line.startswith("=", path[1]):
                    found.append((table + path[0], number, False))
        depth, quote, _ = _scan(line, depth, quote)
    return found


def _scan(line: str, depth: int, quote: str | None) -> tuple[int, str | None, int | None]:
    """Bracket depth and open multi-line string after `line`, strings and comments skipped; and
    where a string left open at the line's end starts (None if none)."""
    index = 0
    while index < len(line):
        if quote is not None:  # inside a multi-line string
            if line.startswith(quote, index) and not (quote == '"""' and _escaped(line, index)):
                index += 3
                quote = None
            else:
                index += 1
            continue
        char = line[index]
        if line.startswith(('"""', "'''"), index):
            quote = line[index:index + 3]
            index += 3
        elif char in "\"'":
            end = index + 1
            while end < len(line) and not (line[end] == char and not (char == '"' and _escaped(line, end))):
                end += 1
            if end >= len(line):
                return max(depth, 0), quote, index
            index = end + 1
        elif char == "#":
            break
        else:
            depth += (char in "[{") - (char in "]}")
            index += 1
    return max(depth, 0), quote, None


def _escaped(line: str, index: int) -> bool:
    backslashes = 0
    while index - backslashes - 1 >= 0 and line[index - backslashes - 1] == "\\":
        backslashes += 1
    return backslashes % 2 == 1
