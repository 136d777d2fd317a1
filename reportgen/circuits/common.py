"""Presentation shared by the circuits' documents."""

from __future__ import annotations

import datetime as dt
import functools
import hashlib
import re
import unicodedata
from collections import Counter
from dataclasses import replace
from typing import Protocol

from reportgen import french
from reportgen.ingest.directories import ClubDirectory
from reportgen.model import (
    DECIDED_HEADER,
    DECIDED_WIDTH,
    AnnexColumn,
    AnnexSheet,
    Column,
    InputRule,
    Move,
    Ranking,
    move,
)


def slug(text: str) -> str:
    """A file name from a name: lower-case ASCII words joined by hyphens (« Coupe d’été » ->
    coupe-d-ete); a digest for a name without any such letter (« 王伟杯 »), so that two never meet."""
    plain = unicodedata.normalize("NFKD", text)
    plain = "".join(char for char in plain if not unicodedata.combining(char)).lower()
    return re.sub(r"[^a-z0-9]+", "-", plain)[:60].strip("-") or hashlib.sha256(text.encode()).hexdigest()[:10]


def suffixed(path: str, name: str) -> str:
    """`path` with six hex digits of `name`'s digest: another file for another name, always the same."""
    return f"{path}-{hashlib.sha256(name.encode()).hexdigest()[:6]}"


def distinct_paths(wanted: list[tuple[str, str]]) -> list[str]:
    """Each (path, full name)'s path, with a short suffix from its full name (six hex digits of its
    digest: the same name, the same suffix, build after build) on the paths two of them share, as
    slugs cut at 60 characters do; a number after it for names alike to the letter (in the given
    order). No two outputs are ever written to one file."""
    counts = Counter(path for path, _ in wanted)
    paths = [path if counts[path] == 1 else suffixed(path, name) for path, name in wanted]
    seen: Counter[str] = Counter()
    distinct = []
    for path in paths:
        seen[path] += 1
        distinct.append(path if seen[path] == 1 else f"{path}-{seen[path]}")
    return distinct


class SeasonRanking(Protocol):
    """A ranking of a season's tournaments after a date, or the season's own (`final`, the year's
    tournaments): the Grand Sud's and the Tour de France's (their scoring's `Ranking`)."""

    season: int
    date: dt.date
    final: bool


def ranking_path(ranking: SeasonRanking, closed: bool) -> str:
    """Where a ranking's files go (CSV, bulletin, their public copies, the site's links). `closed`:
    its season is over or closed (`Reading.season_closed`). The season's ranking is named
    « provisoire » while the season runs: a club opening `classement-final-2026.csv` in March read
    it as the final ranking."""
    if ranking.final:
        return f"{ranking.season}/classement-{'final' if closed else 'provisoire'}-{ranking.season}"
    return f"{ranking.season}/classement-{ranking.date.isoformat()}"


def final_sheet(closed: bool) -> str:
    """The name of an annex's sheet of the season's ranking: « provisoire » while the season runs,
    as its CSV (`ranking_path`)."""
    return "Classement final" if closed else "Classement final provisoire"


def final_title(season: int) -> str:
    """The title of the season's ranking's bulletin, made once the season is over or closed (while
    it runs, the site titles its CSV « provisoire »: model `provisional_title`)."""
    return f"Classement final de la saison {season}"


def from_halves(halves: int) -> int | float:
    """A score kept in halves, as published: a whole one as int (3), a half as float (2.5)."""
    return halves // 2 if halves % 2 == 0 else halves / 2


_ANNEX_KINDS = {"int": "int", "number": "number", "text": "text", "bool": "text"}


_NEW = {"kind": Move.NEW, "value": "nouveau"}


def evolution(previous_rank: int | None, rank: int) -> dict[str, str]:
    """Places gained: the previous place minus the place now (5th then 2nd: +3), as CSV writes it
    (`value`: +3, -2, 0, nouveau) with its CSS class (`kind`); bulletins draw it ▲ 3, ▼ 2, =,
    nouveau, as the site does (render/evolution.py); INTERPRETATIONS, « Evolution ».

    Read-only, as a bulletin's cells of results are: one dict per move, shared by
    every row that made it, not one per row of every ranking and bulletin (223,000 rows at 100x)."""
    return _NEW if previous_rank is None else _moved(previous_rank - rank)


@functools.lru_cache(maxsize=1 << 13)
def _moved(moved: int) -> dict[str, str]:
    return {"kind": move(moved), "value": f"+{moved}" if moved > 0 else str(moved)}


# What a ranking's « Évolution » compares with, where its bulletin names no ranking (the regulations'
# « classement précédent »; the Grand Sud's names it: grand_sud/documents.py `evolution_since`).
SINCE_PREVIOUS = "depuis le classement précédent"


def ranking_sheet(ranking: Ranking, name: str) -> AnnexSheet:
    """A ranking as an annex sheet, from its columns (a column no row fills is left out: the Tour
    de France has no licences), then the tie-breaks that set each place."""
    columns = [c for c in ranking.all_columns if any(row.value(c.key) not in ("", None) for row in ranking.rows)]
    decided = any(row.decided_by for row in ranking.rows)

    def cell(value: object, kind: str) -> object:
        if kind == "bool":
            return "oui" if value else ""
        if kind == "evolution":  # places gained (+3 → 3), lost (-2), the same (0), or "nouveau"
            return int(value) if isinstance(value, str) and value.lstrip("+-").isdigit() else value
        return value

    def header(column: Column) -> AnnexColumn:
        """An evolution is a number a secretary sorts, shown signed (« +3 », « = »: its number
        format); places are whole, a rating's change has its decimals."""
        if column.kind == "evolution":
            return AnnexColumn(column.header, "auto" if column.decimals is None else "number", column.width,
                               column.decimals, evolution=True)
        if column.kind == "number" and column.decimals is None:  # shown as points (french.column_value)
            return AnnexColumn(column.header, "auto", column.width)
        return AnnexColumn(column.header, _ANNEX_KINDS[column.kind], column.width, column.decimals)

    rows = [[cell(row.value(c.key), c.kind) for c in columns] + ([", ".join(row.decided_by)] if decided else [])
            for row in ranking.rows]
    headers = [header(c) for c in columns]
    return AnnexSheet(name, headers + ([AnnexColumn(DECIDED_HEADER, "text", DECIDED_WIDTH)] if decided else []), rows)


# -- blank workbooks for the clubs (`reportgen template`) -----------------------------------------

TEMPLATE_ROWS = 300  # rows prepared for results: validation and input help down to there


def fields_sheet(fields: list[tuple[str, object, InputRule | None]]) -> AnnexSheet:
    """The `Tournoi` sheet: one row per field (label, value, how it is typed)."""
    rules = [replace(rule, first_row=row, last_row=row, first_col=1, last_col=1)
             for row, (_, _, rule) in enumerate(fields, start=1) if rule is not None]
    return AnnexSheet("Tournoi", [AnnexColumn("Champ", "text", 16), AnnexColumn("Valeur", "auto", 36, grouped=False)],
                      [[label, value] for label, value, _ in fields], rules)


def clubs_sheet(clubs: ClubDirectory) -> AnnexSheet:
    """The league's clubs, for the lists of a blank workbook."""
    return AnnexSheet("Clubs", [AnnexColumn("Code", "text", 8), AnnexColumn("Nom", "text", 24),
                                AnnexColumn("Département", "text", 12)],
                      [[club.code, club.name, club.departement] for club in clubs.clubs])


def column_rule(column: int, message: str, kind: str, **options: object) -> InputRule:
    """Validation and help for a whole results column, below its header."""
    return InputRule(1, column, TEMPLATE_ROWS, column, message, kind, **options)  # type: ignore[arg-type]


def print_top(ranked: int, limit: int, csv_name: str, annex: str = "de la saison") -> dict[str, object] | None:
    """What a PDF bulletin of `ranked` rows prints when they are more than `limit` (the circuit's
    `bulletin_rows`): the top rows, and where the whole ranking is. A federation's ranking of
    thousands of players would be hundreds of pages to render and nobody prints; the HTML page keeps
    every row (templates/print_top.*.j2 hide the rest in print only), as do the CSV and the annex
    (`annex`: whose it is, « de la saison » or, for an event's own annex, « du tournoi »)."""
    if ranked <= limit:
        return None
    return {"rows": limit,
            "line": (f"Ce bulletin imprimé donne les {french.number(limit)} premiers des "
                     f"{french.number(ranked)} joueurs classés. Le classement complet est dans le fichier "
                     f"{csv_name}, sur la page HTML de ce bulletin et dans l’annexe Excel {annex}.")}


def print_columns(labels: list[str], limit: int, annex: str = "de chaque saison") -> dict[str, object] | None:
    """What a PDF bulletin whose grid has a column per tournament (`labels`, in the grid's order)
    prints when they are more than `limit` (the circuit's `bulletin_columns`): one column of each
    player's results, each named by its label, and where the grid is. A federation's window of 100
    tournaments is 100 columns no reader follows on A4, 4-5x the ranking table's layout; the HTML page
    keeps the grid (the HTML the PDF is rendered from only, render/html.py `render_print`), the annex
    every result (`annex`: whose annex)."""
    if len(labels) <= limit:
        return None
    return {"labels": labels,
            "line": (f"Ce bulletin imprimé donne pour chaque joueur ses résultats (repère du club et points) "
                     f"au lieu de la grille des {french.number(len(labels))} tournois comptés. La grille est "
                     f"sur la page HTML de ce bulletin, et chaque résultat dans la feuille « Points » de "
                     f"l’annexe Excel {annex}.")}


def print_tournaments(listed: int, counted: int, limit: int, annex: str = "de chaque saison") -> dict[str, object] | None:
    """What a PDF bulletin prints of a table of `listed` tournaments, `counted` of them in the
    ranking, when they are more than `limit` (the circuit's `bulletin_tournaments`): the counted ones
    only, and where the others are. The HTML page keeps the whole table (the HTML the PDF is rendered
    from only, render/html.py `render_print`), the annex every tournament (`annex`: whose annex)."""
    others = listed - counted
    if listed <= limit or not others:
        return None
    return {"line": (f"Ce bulletin imprimé liste les {french.number(counted)} tournois comptés. "
                     f"{'Les' if others > 1 else 'Le'} {french.plural(others, 'autre tournoi', 'autres tournois')} "
                     f"de la période "
                     f"(éditions remplacées par une plus récente, tournois hors circuit) "
                     f"{'sont' if others > 1 else 'est'} sur la page HTML de ce bulletin et dans la feuille "
                     f"« Tournois » de l’annexe Excel {annex}.")}
