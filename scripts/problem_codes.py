"""Rewrite the table of problem codes in docs/formats.md from reportgen/problems.py, where each
kind of problem is declared once (tests/test_problems.py fails when the two disagree).

    python scripts/problem_codes.py
"""

from __future__ import annotations

import sys
from pathlib import Path

from reportgen.problems import KINDS, Kind

DOC = Path(__file__).resolve().parents[1] / "docs" / "formats.md"
BEGIN = "<!-- problem codes: written by scripts/problem_codes.py from reportgen/problems.py, do not edit -->"
END = "<!-- end of problem codes -->"
OWN = "*(its own words)*"  # a template that is the call site's text whole


def _cell(template: str, whole: str) -> str:
    if template == whole:
        return OWN
    return "`" + template.replace("|", "\\|") + "`"


def _row(kind: Kind) -> str:
    return (f"| `{kind.code}` | {kind.level.value} | {kind.meaning} | {_cell(kind.message, '{message}')} "
            f"| {_cell(kind.fix, '{fix}')} |")


def table() -> str:
    """The table, between its markers."""
    lines = [BEGIN, "| code | level | what it means | message | fix |", "|---|---|---|---|---|"]
    lines += [_row(kind) for kind in KINDS.values()]
    return "\n".join([*lines, END])


def documented(text: str) -> str:
    """The table as docs/formats.md has it, markers included ("" when absent)."""
    start, end = text.find(BEGIN), text.find(END)
    return text[start:end + len(END)] if 0 <= start < end else ""


def main() -> int:
    text = DOC.read_text(encoding="utf-8")
    current = documented(text)
    if not current:
        print(f"{DOC}: the markers of the table are missing ({BEGIN})", file=sys.stderr)
        return 1
    DOC.write_text(text.replace(current, table()), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
