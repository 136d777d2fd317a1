"""A second, deliberately naive Masters standings, written straight from regulation
000_33ab733906bdf5e8.txt (« Règlement Tournoi Masters de fin de saison ») and
docs/regulations/INTERPRETATIONS.md (section masters).

It reads the Masters workbook itself with openpyxl and imports nothing of reportgen. The
participants come from the reviewed final Grand Sud ranking (tests/golden/grand-sud/, itself
cross-checked by tests/grand_sud/reference.py) and the workbook's `Désistements` sheet.

The regulation, as this module reads it:

- §1 « Les 16 premiers joueurs du classement annuel ... En cas de désistement(s), le 17ème, puis
  le 18ème (etc.) »: the first 16 of the annual ranking who did not withdraw, numbered 1..16 in
  ranking order; §2's table pairs these numbers, match by match and table by table.
- §1 « Une victoire rapporte 2 points, un match nul 1 point et une défaite 0 point. En cas de match
  nul à "top-top", les 2 joueurs marquent chacun 2 points » (top-top: both made a top on each of
  the 12 coups, INTERPRETATIONS).
- §1 tie-breaks: points, then tops (more), then defense = the opponents' scores (less), then
  attack = own scores (more), then the head-to-head (INTERPRETATIONS: for three or more, the points
  each made against the others of the group, re-applied to any smaller group still level), then
  the annual ranking — except a tie for first place, which is a barrage to play.
"""

from __future__ import annotations

import datetime as dt
import re
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path

import openpyxl

COUPS = 12
WIN, DRAW, LOSS, TOP_TOP_DRAW = 2, 1, 0, 2

# §2 « Ordre des matchs », copied from the text: SCHEDULE[match - 1][table - 1] = the two numbers.
SCHEDULE = [
    [(1, 16), (2, 15), (3, 14), (4, 13), (5, 12), (6, 11), (7, 10), (8, 9)],
    [(1, 15), (2, 16), (3, 13), (4, 14), (5, 11), (6, 12), (7, 9), (8, 10)],
    [(1, 14), (2, 13), (3, 16), (4, 15), (5, 10), (6, 9), (7, 12), (8, 11)],
    [(1, 13), (2, 14), (3, 15), (4, 16), (5, 9), (6, 10), (7, 11), (8, 12)],
    [(1, 12), (2, 11), (3, 10), (4, 9), (5, 16), (6, 15), (7, 14), (8, 13)],
    [(1, 11), (2, 12), (3, 9), (4, 10), (5, 15), (6, 16), (7, 13), (8, 14)],
    [(1, 10), (2, 9), (3, 12), (4, 11), (5, 14), (6, 13), (7, 16), (8, 15)],
    [(1, 9), (2, 10), (3, 11), (4, 12), (5, 13), (6, 14), (7, 15), (8, 16)],
    [(1, 8), (2, 7), (3, 6), (4, 5), (9, 16), (10, 15), (11, 14), (12, 13)],
    [(1, 7), (2, 8), (3, 5), (4, 6), (9, 15), (10, 16), (11, 13), (12, 14)],
    [(1, 6), (2, 5), (3, 8), (4, 7), (9, 14), (10, 13), (11, 16), (12, 15)],
    [(1, 5), (2, 6), (3, 7), (4, 8), (9, 13), (10, 14), (11, 15), (12, 16)],
    [(1, 4), (2, 3), (5, 8), (6, 7), (9, 12), (10, 11), (13, 16), (14, 15)],
    [(1, 3), (2, 4), (5, 7), (6, 8), (9, 11), (10, 12), (13, 15), (14, 16)],
    [(1, 2), (3, 4), (5, 6), (7, 8), (9, 10), (11, 12), (13, 14), (15, 16)],
]

# docs/formats.md, "Aliases" (normalised).
MATCH_COLUMNS = {
    "match": {"match", "ronde", "tour", "n match"},
    "table": {"table"},
    "a": {"joueur a"}, "b": {"joueur b"},
    "score_a": {"score a"}, "score_b": {"score b"},
    "tops_a": {"tops a", "top a"}, "tops_b": {"tops b", "top b"},
}
WITHDRAWAL_COLUMNS = {"last": {"nom", "nom de famille"}, "first": {"prenom"},
                      "licence": {"licence", "n licence", "numero de licence", "no licence", "licence n"}}


def plain(text: object) -> str:
    decomposed = unicodedata.normalize("NFKD", str(text))
    letters = "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()
    return " ".join(re.sub(r"[^0-9a-z]+", " ", letters).split())


def name_key(*parts: str) -> tuple[str, ...]:
    """The same player whatever the accents, case, hyphens or word order."""
    return tuple(sorted(plain(" ".join(parts)).split()))


def is_empty(value: object) -> bool:
    return value is None or (isinstance(value, str) and not value.strip())


def sheet(book, name: str):
    found = [s for s in book.worksheets if plain(s.title) == plain(name)]
    found.sort(key=lambda s: s.sheet_state != "visible")
    return found[0] if found else None


def table(ws, columns: dict[str, set[str]]) -> list[dict[str, object]]:
    """Rows under the header row (among the first 30, the one with the most known names)."""
    rows = [list(r) for r in ws.iter_rows(values_only=True)]
    known = set().union(*columns.values())
    header_index = max(range(min(30, len(rows))),
                       key=lambda i: (sum(1 for c in rows[i] if not is_empty(c) and plain(c) in known), -i))
    header = [plain(c) if not is_empty(c) else "" for c in rows[header_index]]
    where = {key: next((i for i, h in enumerate(header) if h in names), None) for key, names in columns.items()}
    found = []
    for row in rows[header_index + 1:]:
        cells = {k: (row[i] if i is not None and i < len(row) else None) for k, i in where.items()}
        if all(is_empty(v) for v in cells.values()):
            continue
        found.append(cells)
    return found


def whole(value: object) -> int | None:
    if is_empty(value):
        return None
    return int(float(str(value).replace(",", ".")))


@dataclass
class Player:
    number: int
    name: str
    licence: str
    club: str
    annual_rank: int
    played: int = 0
    points: int = 0
    tops: int = 0
    defense: int = 0
    attack: int = 0
    earned: dict[int, int] = field(default_factory=dict)  # opponent number -> points made against him


@dataclass
class Masters:
    season: int
    date: dt.date
    players: dict[int, Player]
    matches_complete: int  # matches (rounds) whose 8 tables all have scores


def read_masters(workbook: Path, annual: list[dict]) -> Masters:
    """`annual`: the rows of the final Grand Sud ranking of the Masters' season, best first."""
    book = openpyxl.load_workbook(workbook, data_only=True)
    fields = {}
    for row in sheet(book, "Tournoi").iter_rows(values_only=True):
        filled = [c for c in row if not is_empty(c)]
        if len(filled) >= 2:
            fields.setdefault(plain(filled[0]), filled[1])
    assert plain(fields["circuit"]) == "masters"
    day = fields["date"]
    day = day.date() if isinstance(day, dt.datetime) else day

    withdrawn = sheet(book, "Désistements")
    gone = table(withdrawn, WITHDRAWAL_COLUMNS) if withdrawn is not None else []

    def has_withdrawn(row) -> bool:
        for w in gone:
            if not is_empty(w["licence"]):
                if str(w["licence"]).strip() == row["licence"]:
                    return True
            elif name_key(str(w["last"]), str(w["first"] or "")) == name_key(row["player"]):
                return True
        return False

    qualified = [row for row in annual if not has_withdrawn(row)][:16]
    players = {number: Player(number, row["player"], row["licence"], row["club"], row["rank"])
               for number, row in enumerate(qualified, start=1)}
    by_key = {name_key(p.name): p.number for p in players.values()}

    typed: dict[int, int] = {}
    for row in table(sheet(book, "Matchs"), MATCH_COLUMNS):
        match, table_number = whole(row["match"]), whole(row["table"])
        a, b = by_key[name_key(str(row["a"]))], by_key[name_key(str(row["b"]))]
        assert {a, b} == set(SCHEDULE[match - 1][table_number - 1]), (match, table_number, row)
        score_a, score_b = whole(row["score_a"]), whole(row["score_b"])
        if score_a is None and score_b is None:
            continue  # not played yet
        tops_a, tops_b = whole(row["tops_a"]) or 0, whole(row["tops_b"]) or 0
        typed[match] = typed.get(match, 0) + 1
        if score_a > score_b:
            points_a, points_b = WIN, LOSS
        elif score_a < score_b:
            points_a, points_b = LOSS, WIN
        elif tops_a == tops_b == COUPS:
            points_a = points_b = TOP_TOP_DRAW
        else:
            points_a = points_b = DRAW
        for me, other, points, mine, theirs, tops in ((a, b, points_a, score_a, score_b, tops_a),
                                                      (b, a, points_b, score_b, score_a, tops_b)):
            player = players[me]
            player.played += 1
            player.points += points
            player.tops += tops
            player.attack += mine
            player.defense += theirs
            player.earned[other] = player.earned.get(other, 0) + points
    complete = 0
    while typed.get(complete + 1) == 8:
        complete += 1
    return Masters(int(fields["saison"]), day, players, complete)


def head_to_head(group: list[Player]) -> list[list[Player]]:
    """The tied group split by the points each made against the others of the group, re-applied to
    every smaller group still level; blocks the head-to-head cannot split stay together."""
    if len(group) == 1:
        return [group]
    numbers = {p.number for p in group}
    against = {p.number: sum(p.earned.get(n, 0) for n in numbers - {p.number}) for p in group}
    levels = sorted({against[p.number] for p in group}, reverse=True)
    if len(levels) == 1:
        return [group]
    blocks = []
    for level in levels:
        blocks += head_to_head([p for p in group if against[p.number] == level])
    return blocks


def standings(masters: Masters, final: bool = True) -> list[dict]:
    """Rows as the golden file has them, best first."""
    players = list(masters.players.values())

    def metrics(p: Player):
        return (-p.points, -p.tops, p.defense, -p.attack)

    blocks: list[list[Player]] = []
    for key in sorted({metrics(p) for p in players}):
        blocks += head_to_head([p for p in players if metrics(p) == key])
    rows = []
    for block in blocks:
        barrage = final and not rows and len(block) > 1  # a tie for the Masters' victory
        for player in sorted(block, key=lambda p: (p.annual_rank, p.number)):
            rows.append({
                "rank": 1 if barrage else len(rows) + 1, "player": player.name, "licence": player.licence,
                "club": player.club, "points": player.points, "played": player.played, "tops": player.tops,
                "defense": player.defense, "attack": player.attack, "barrage": barrage,
                "number": player.number, "annual_rank": player.annual_rank,
                "tied": barrage})  # a shared rank: only the play-off for the victory shares one
    return rows
