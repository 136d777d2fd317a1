"""The check report (`reportgen check`): every problem with its cell and fix, grouped by file, as
a page the secretary can forward to the club concerned, and as JSON for scripts. Warnings (they
block nothing, model.Level) and holds (a circuit waiting for one it depends on) are listed with
the problems, each marked with its level."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

from reportgen import french
from reportgen.model import Level, Problem, shown_path
from reportgen.render.html import TEMPLATES, environment

VERIFICATION_PAGE = "verification.html"


def as_records(problems: Sequence[Problem]) -> list[dict[str, str]]:
    return [_record(p) for p in sorted(problems)]


def _record(p: Problem) -> dict[str, str]:
    return {"file": shown_path(p.where.path), "sheet": p.where.sheet or "", "cell": p.where.cell or "",
            "column": p.where.column or "", "message": p.message, "fix": p.fix, "code": p.code, "level": p.level.value}


def to_json(problems: Sequence[Problem], notices: Sequence[str]) -> str:
    return json.dumps({"problems": as_records(problems), "notices": list(notices)}, ensure_ascii=False, indent=1)


def render_page(problems: Sequence[Problem], notices: Sequence[str], league: str, day: str,
                templates: Path = TEMPLATES, republished: Sequence[object] = (), relaid: str = "",
                held: Sequence[str] = (), withdrawn: Sequence[object] = (), restored: Sequence[object] = (),
                changing: str = "") -> str:
    """The page `check` writes, and `build` too, with the documents already published whose content
    it changed (`republished`, render/changes.py), withdrew (`withdrawn`) or published again as they
    were before their withdrawal (`restored`), each said by its line, and those only laid out anew (`relaid`, one
    sentence), and the circuits its problems hold back (`held`, their titles: `make` publishes nothing
    new of theirs, the others' documents go out), and, `check`'s, what would change a final ranking
    already published (`changing`, « 1 classeur change un classement final déjà publié », beside the
    count of problems: its note alone went unseen): the secretary's page, never linked from the site."""
    files: dict[str, list[dict[str, str]]] = {}
    # each problem's place in its file as the terminal and the clubs' answers say it (model.in_sheet)
    for problem in sorted(problems):
        record = _record(problem)
        files.setdefault(record["file"], []).append({**record, "where": problem.where.said or "le fichier"})
    return environment(templates).get_template("verification.html.j2").render(
        # a hold (model.Level.HELD) is listed with its file, counted neither as a problem nor a warning
        league=league, day=day, files=files, notices=notices, count=sum(p.blocking for p in problems),
        warnings=sum(p.level is Level.WARNING for p in problems),
        republished=[str(line) for line in republished], withdrawn=[str(line) for line in withdrawn],
        restored=[str(line) for line in restored], relaid=relaid, held=french.joined([f"« {title} »" for title in held]),
        changing=changing)
