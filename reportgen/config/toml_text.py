"""Where things are in the text of reportgen.toml: the line of a key, the place of a syntax error
(tomllib says neither in a form a secretary reads)."""

from __future__ import annotations

import re
import tomllib

# -- where things are in the text -------------------------------------------------------------------

_SYNTAX = re.compile(r"^(?P<what>.*?)\s*\(at (?:line (?P<line>\d+), column (?P<column>\d+)|end of document)\)$")
_KEY_PART = re.compile(r'\s*(?:"((?:[^"\\]|\\.)*)"|\'([^\']*)\'|([A-Za-z0-9_-]+))\s*')


def _syntax_message(error: tomllib.TOMLDecodeError) -> str:
    """tomllib's message (English, « Invalid value (at line 2, column 5) ») with the place in French."""
    found = _SYNTAX.match(str(error))
    if not found:
        return f"le fichier de réglages est illisible ({error})"
    if found["line"] is None:
        return f"le fichier de réglages est illisible : il s’arrête en cours de route ({found['what']})"
    return (f"le fichier de réglages est illisible à la ligne {found['line']}, colonne {found['column']} "
            f"({found['what']})")


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

