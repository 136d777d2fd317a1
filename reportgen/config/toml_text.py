"""Where things are in the text of reportgen.toml: the line of a key, the place of a syntax error
(tomllib says neither in a form a secretary reads)."""

from __future__ import annotations

import re
import tomllib

# -- where things are in the text -------------------------------------------------------------------

_SYNTAX = re.compile(r"^(?P<what>.*?)\s*\(at (?:line (?P<line>\d+), column (?P<column>\d+)|end of document)\)$")
_KEY_PART = re.compile(r'\s*(?:"((?:[^"\\]|\\.)*)"|\'([^\']*)\'|([A-Za-z0-9_-]+))\s*')


_QUOTED = re.compile(r"'([^']*)'")
# tomllib's messages (Python 3.11-3.13, tomllib/_parser.py), each as the secretary reads it.
_IN_FRENCH = [(re.compile(english), french) for english, french in (
    (r"Illegal character '\\n'", "un texte entre guillemets s’arrête à la fin de la ligne sans être fermé"),
    (r"(?:Illegal|Found invalid) character (.+)", r"caractère interdit ici : \1"),
    (r"Unterminated string", "un texte entre guillemets n’est pas fermé"),
    (r"Invalid value", "valeur incompréhensible : un texte s’écrit entre guillemets, name = \"Ligue\""),
    (r"Expected '=' after a key in a key/value pair", "il manque « = » après le nom du réglage"),
    (r"Expected newline or end of document after a statement", "un seul réglage par ligne : du texte suit la valeur"),
    (r"Expected '\]' at the end of a table declaration", "il manque « ] » à la fin du nom de la table"),
    (r"Expected '\]\]' at the end of an array declaration", "il manque « ]] » à la fin du nom de la liste de tables"),
    (r"Cannot declare \((.+?),?\) twice",  # a key as a tuple's repr: ('circuits', 'grand-sud')
     lambda found: f"la table [{'.'.join(re.findall(_QUOTED, found[1]))}] est déclarée deux fois"),
    (r"Cannot overwrite a value", "ce réglage a déjà une valeur plus haut"),
    (r"Cannot (?:mutate immutable|redefine) namespace (.+)", r"la table \1 est déjà écrite plus haut"),
    (r"Duplicate inline table key (.+)", r"la clé \1 est écrite deux fois"),
    (r"Invalid initial character for a key part", "un nom de réglage commence par une lettre, un chiffre, « _ » ou « - »"),
    (r"Invalid statement", "ligne incompréhensible"),
    (r"Invalid date or datetime", "date incompréhensible (écrivez-la 2026-03-14)"),
    (r"Unclosed array", "une liste [ … ] n’est pas fermée"),
    (r"Unclosed inline table", "une table { … } n’est pas fermée"),
    (r"Unescaped '\\' in a string", "une barre oblique inverse « \\ » se double dans un texte entre guillemets"),
    (r"Escaped character is not a Unicode scalar value|Invalid hex value", "code de caractère \\u… invalide"),
)]


def _in_french(what: str) -> str:
    """tomllib's English words for what is wrong, in French (« Invalid value » said to a French
    secretary); one it does not know becomes « erreur de syntaxe »."""
    for english, french in _IN_FRENCH:
        if english.fullmatch(what):
            return english.sub(french, what)
    return "erreur de syntaxe"


def _syntax_message(error: tomllib.TOMLDecodeError) -> str:
    """tomllib's message (English, « Invalid value (at line 2, column 5) ») in French, its place
    first."""
    found = _SYNTAX.match(str(error))
    if not found:
        return f"le fichier de réglages est illisible ({_in_french(str(error))})"
    if found["line"] is None:
        return f"le fichier de réglages est illisible : il s’arrête en cours de route ({_in_french(found['what'])})"
    return (f"le fichier de réglages est illisible à la ligne {found['line']}, colonne {found['column']} "
            f"({_in_french(found['what'])})")


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
    """The line (1-based) where each table header and each key is written: (table..., key) -> line.

    A plain scan, not a parser: tables `[a.b]` and `[[a.b]]`, keys `k = …` (bare, quoted or dotted)
    at the start of a line outside multi-line strings and arrays. What it cannot place (keys inside
    an inline table) has no line: the problem is still located by its table and key."""
    lines: dict[tuple[str, ...], int] = {}
    table: tuple[str, ...] = ()
    depth = 0  # open brackets and braces of a value spanning lines
    quote = None  # the delimiter of an open multi-line string
    for number, line in enumerate(text.splitlines(), 1):
        start = depth == 0 and quote is None
        if start:
            stripped = line.lstrip()
            if stripped.startswith("["):
                inner = stripped[2:] if stripped.startswith("[[") else stripped[1:]
                found = _key_path(inner)
                if found and inner.startswith("]", found[1]):
                    table = found[0]
                    lines.setdefault(table, number)
                    continue
            else:
                found = _key_path(line)
                if found and line.startswith("=", found[1]):
                    lines.setdefault(table + found[0], number)
        depth, quote = _scan(line, depth, quote)
    return lines


def _scan(line: str, depth: int, quote: str | None) -> tuple[int, str | None]:
    """Bracket depth and open multi-line string after `line`; strings and comments skipped."""
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
            index = end + 1
        elif char == "#":
            break
        else:
            depth += (char in "[{") - (char in "]}")
            index += 1
    return max(depth, 0), quote


def _escaped(line: str, index: int) -> bool:
    backslashes = 0
    while index - backslashes - 1 >= 0 and line[index - backslashes - 1] == "\\":
        backslashes += 1
    return backslashes % 2 == 1

