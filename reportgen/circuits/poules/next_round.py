"""`reportgen poules next`: the next round's pools and games (or the barrage games) appended to the
`Parties` sheet, as a proposed change to inputs/ (`reportgen.render.inputs.apply` writes it and
refuses to lose a typed value). The proposed workbook is every existing cell as read plus the new
rows, the `Résultat` column marked as typed, so that no result can be lost; into the file itself
only the new rows are written (a `SheetEdit`), in the sheet's own columns, pool names and formats.

Nothing is proposed while the round in play lacks results or a barrage is pending: the reasons are
said instead (the games still to play, with their cells; the barrage games to write or to play).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from reportgen import french
from reportgen.circuits.poules.domain import BARRAGE, MAIN, Layout, PoulesEvent
from reportgen.circuits.poules.parse import GAMES_SHEET, LAUNCHED, PHASE, RESULT, WRITTEN_COLUMNS
from reportgen.circuits.poules.settings import PoulesSettings
from reportgen.circuits.poules.standings import PLAYING, TO_PLAY
from reportgen.circuits.poules.tournament import (
    BETWEEN_ROUNDS,
    CANCELLED,
    FINISHED,
    NOT_STARTED,
    PLAYING_BARRAGE,
    PLAYING_MAIN,
    Tournament,
    barrage_games_to_write,
    main_games,
    replay,
)
from reportgen.ingest.values import shown
from reportgen.model import Annex, AnnexColumn, AnnexSheet, InputChange, InputRule, Problem, SheetEdit, in_sheet

LISTED = 20  # missing results listed one by one; beyond, their count
RESULT_HELP = "1-0, 0-1 ou ½-½ (nulle) ; laissez vide tant que la partie n’est pas jouée."


@dataclass
class Proposal:
    tournament: Tournament
    change: InputChange | None = None  # None: nothing to write (see `said`)
    problems: list[Problem] = field(default_factory=list)
    said: list[str] = field(default_factory=list)  # why nothing is written, or what is


def propose(event: PoulesEvent, settings: PoulesSettings, day: dt.date, barrages: bool = False) -> Proposal:
    tournament = replay(event.content, event.date, settings)
    proposal = Proposal(tournament)
    if tournament.problems:
        proposal.problems = tournament.problems
        return proposal
    current = tournament.current
    pool_names = event.content.pool_names  # the sheet's own pool names continue (1…8, or A…H)
    if tournament.status == NOT_STARTED and len(event.content.registrants) < 2:
        proposal.said.append("il faut au moins deux inscrits pour lancer le tournoi (feuille Inscrits)")
    elif tournament.status in (NOT_STARTED, BETWEEN_ROUNDS):
        assert tournament.upcoming is not None
        number = tournament.upcoming_number
        rows = [[number, pool_names.written(index), white.name, black.name, None, MAIN, day]
                for index, pool in enumerate(tournament.upcoming) for white, black in main_games(pool)]
        proposal.change = _change(event, rows)
        final = " (tour final)" if len(tournament.upcoming) == 1 else ""
        proposal.said.append(f"tour {number}{final} : {french.plural(len(tournament.upcoming), 'poule')}, "
                             f"{french.plural(len(rows), 'partie')} ajoutées à la feuille {GAMES_SHEET}, "
                             f"lancées le {french.date_long(day)}")
        proposal.said += [f"  poule {pool_names.label(index)} : " + ", ".join(p.name for p in pool)
                          for index, pool in enumerate(tournament.upcoming)]
    elif tournament.status == PLAYING_MAIN:
        assert current is not None
        missing = sorted((g for pool in current.pools for g in pool.missing), key=lambda g: g.row)
        names = event.content.by_key
        proposal.said.append(f"le tour {current.number} n’est pas terminé : "
                             f"{french.plural(len(missing), 'résultat manque', 'résultats manquent')}")
        proposal.said += [f"  {g.cells['result']} : poule {pool_names.label(g.pool)}, {names[g.white].name} – "
                          f"{names[g.black].name}" for g in missing[:LISTED]]
        if len(missing) > LISTED:
            proposal.said.append(f"  … {french.others(len(missing) - LISTED)}")
    elif tournament.status == PLAYING_BARRAGE:
        assert current is not None
        to_write = barrage_games_to_write(current)
        if to_write and barrages:
            rows = [[current.number, pool_names.written(pool.index), white.name, black.name, None, BARRAGE, day]
                    for pool, white, black in to_write]
            proposal.change = _change(event, rows)
            proposal.said.append(f"tour {current.number} : {french.plural(len(rows), 'partie')} de barrage "
                                 f"ajoutées à la feuille {GAMES_SHEET}, lancées le {french.date_long(day)} "
                                 f"(délai : {settings.barrage_days} jours, Art. VII)")
            proposal.said += [f"  poule {pool.label} : {white.name} (Blancs) – {black.name} (Noirs)"
                              for pool, white, black in to_write]
        else:
            proposal.said += _pending_barrages(tournament)
    elif tournament.status == FINISHED:
        proposal.said.append(f"le tournoi est terminé (tour final : tour {current.number if current else 1}) : "
                             "rien à ajouter")
    elif tournament.status == CANCELLED:
        assert current is not None
        left = len(current.participants) - len(current.forfeited)
        proposal.said.append(f"le tournoi est annulé (Art. XI) : il ne reste que {french.plural(left, 'joueur non forfait', 'joueurs non forfaits')} "
                             f"au tour {current.number} ; il sera rétabli si un joueur est réhabilité dans la "
                             f"{in_sheet('Forfaits', column='Réhabilité')}")
    return proposal


def _pending_barrages(tournament: Tournament) -> list[str]:
    current = tournament.current
    assert current is not None
    names = tournament.content.by_key
    lines = [f"le tour {current.number} attend ses barrages (Art. IX) :"]
    to_write = barrage_games_to_write(current)
    for pool in current.pools:
        barrage = pool.barrage
        if barrage is None or barrage.state not in (TO_PLAY, PLAYING):
            continue
        lines.append(f"  poule {pool.label} : barrage entre " + ", ".join(p.name for p in barrage.players))
        if barrage.state == TO_PLAY:
            lines += [f"    à jouer : {white.name} (Blancs) – {black.name} (Noirs)"
                      for table, white, black in to_write if table is pool]
        else:
            lines += [f"    résultat manquant en {g.cells['result']} : {names[g.white].name} (Blancs) – "
                      f"{names[g.black].name} (Noirs)" for g in barrage.to_type]
    if to_write:
        lines.append("relancez avec --barrages pour ajouter ces parties à la feuille Parties (Phase = barrage)")
    return lines


def _change(event: PoulesEvent, rows: Sequence[Sequence[Any]]) -> InputChange:
    """The workbook with the rows appended; in the existing file, only the appended rows, the
    headers of the columns it lacks (after its own) and the `Résultat` validation of the new rows
    are written: every other cell stays as the secretary made it."""
    layout = event.content.layout
    changed = workbook(event.name, event.date, layout, rows)
    if not layout.games_sheet:
        # Only the missing `Parties` sheet is added (whole): her `Tournoi` and `Inscrits` are not
        # the program's to rewrite (a formula of hers would become its value).
        return InputChange(event.id, changed, edits=())
    columns, added = _games_columns(layout)
    width = max(columns.values()) + 1
    appended = []
    for values in rows:
        row: list[Any] = [None] * width
        for column, value in zip(WRITTEN_COLUMNS, values):
            row[columns[column.key]] = value
        appended.append(tuple(row))
    result_col = columns[RESULT.key]
    start = layout.games_end
    rule = InputRule(start, result_col, start + len(rows) - 1, result_col, RESULT_HELP, "list",
                     choices=("1-0", "0-1", "½-½"))
    edit = SheetEdit(layout.games_sheet, tuple((layout.header_row, col, header) for col, header in added),
                     tuple(appended), start, layout.header_row, (rule,) if rows else ())
    return InputChange(event.id, changed, edits=(edit,))


def _games_columns(layout: Layout) -> tuple[dict[str, int], list[tuple[int, str]]]:
    """Column key -> 0-based column of `Parties`, and the headers to add: an optional column a
    round needs (Phase, Lancement) goes at the right end, after the sheet's own."""
    columns = dict(layout.columns)
    header = next((sheet.rows[layout.header_row] for sheet in layout.sheets if sheet.name == layout.games_sheet
                   and layout.header_row < len(sheet.rows)), ())
    used = max((i + 1 for i, v in enumerate(header) if v not in ("", None)), default=0)
    added = []
    for column in (PHASE, LAUNCHED):
        if column.key not in columns:
            columns[column.key] = max(used, *(c + 1 for c in columns.values()))
            added.append((columns[column.key], column.header))
    return columns, added


def _raw_sheet(name: str, rows: list[list[Any]], rules: list[InputRule]) -> AnnexSheet:
    """A sheet written back as read: its first row as the header row, every other cell in place."""
    width = max((len(row) for row in rows), default=0) or 1
    header = rows[0] if rows else []
    columns = []
    for col in range(width):
        cells = [shown(row[col]) for row in rows if col < len(row) and row[col] not in ("", None)]
        columns.append(AnnexColumn(shown(header[col]) if col < len(header) and header[col] not in ("", None) else "",
                                   "auto", min(40, max(8, *(len(c) + 2 for c in cells), 8))))
    return AnnexSheet(name, columns, [list(row) for row in rows[1:]], rules)


def workbook(name: str, day: dt.date, layout: Layout, appended: Sequence[Sequence[Any]]) -> Annex:
    """The workbook as read, with `appended` rows (Tour, Poule, Blancs, Noirs, Résultat, Phase,
    Lancement) below the last row of `Parties` (created in the canonical layout when absent)."""
    sheets = []
    raw: dict[str, list[list[Any]]] = {sheet.name: [list(row) for row in sheet.rows] for sheet in layout.sheets}
    rows: list[list[Any]]
    if not layout.games_sheet:
        rows = [[column.header for column in WRITTEN_COLUMNS], *(list(values) for values in appended)]
        columns = {column.key: index for index, column in enumerate(WRITTEN_COLUMNS)}
        header_row, end = 0, 1
    else:
        rows = raw[layout.games_sheet]
        header_row, end = layout.header_row, layout.games_end
        columns, added = _games_columns(layout)
        header = rows[header_row]
        for col, title in added:
            header.extend([""] * (col + 1 - len(header)))
            header[col] = title
        del rows[end:]
        rows.extend([] for _ in range(end - len(rows)))
        for values in appended:
            row: list[Any] = [""] * (max(columns.values()) + 1)
            for column, value in zip(WRITTEN_COLUMNS, values):
                row[columns[column.key]] = "" if value is None else value
            rows.append(row)
    result_col = columns[RESULT.key]
    rule = InputRule(header_row + 1, result_col, max(len(rows) - 1, header_row + 1), result_col, RESULT_HELP,
                     "list", choices=("1-0", "0-1", "½-½"))
    for sheet in layout.sheets:
        if sheet.name == layout.games_sheet:
            sheets.append(_raw_sheet(sheet.name, rows, [rule]))
        else:
            sheets.append(_raw_sheet(sheet.name, raw[sheet.name], []))
    if not layout.games_sheet:
        sheets.append(_raw_sheet(GAMES_SHEET, rows, [rule]))
    return Annex(path=name, title=name, date=day, sheets=sheets)
