"""A second, deliberately naive Tour de France season ranking, written straight from regulation
004_6b38a01f19fef100.txt (« Le Tour de France ») and docs/regulations/INTERPRETATIONS.md.

It reads the workbooks itself with openpyxl and imports nothing of reportgen, so it can check the
golden standings whatever the production code's structure becomes. Everything is exact
(`Fraction`) until the comparison.

The regulation, as this module reads it:

- « Comment sont marqués les points ? » 1): the tournament value from the physical participants
  N (the `Participants` field, else every player listed, excluded ones included): under 7 the
  tournament does not count; straight lines between (7, 700), (14, 1000), (21, 1200), (35, 1400),
  (56, 1600), (84, 1800), rounded to the unit; from 84 on, 1 point a player beyond 84.
- 2): over the n ranked players (« Hors classement » dropped, the places below move up): 1st =
  value, 2nd = 80 % of the 1st, 3rd = 80 % of the 2nd (each rounded); the n − 3 others in four
  quarters, the first among the smallest; first of quarter 1 = 80 % of the 3rd, first of quarter 2
  = 300, a virtual (n+1)th = 0, straight lines in between whose whole gaps are larger first.
- « cas des exaequo »: ex aequo share the points of the places they cover.
- « Comment les points des différentes étapes s'additionnent-ils ? »: the multiplier table is
  missing; INTERPRETATIONS reads its two examples as: three results or more, the worst at 50 %.
- « les tournois en deçà de 12 joueurs »: INTERPRETATIONS: the standard scale applies.
"""

from __future__ import annotations

import datetime as dt
import re
import unicodedata
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path

import openpyxl

# « 1) le nombre de participants du tournoi »
ANCHORS = [(7, 700), (14, 1000), (21, 1200), (35, 1400), (56, 1600), (84, 1800)]
MIN_PARTICIPANTS = 7
EIGHTY_PERCENT = Fraction(4, 5)
SECOND_QUARTER_POINTS = 300

# docs/formats.md, "Aliases" (normalised: lower case, no accents, no punctuation).
PLACE = {"place", "rang", "classement", "clt", "pl", "position", "place finale"}
LAST_NAME = {"nom", "nom de famille"}
FIRST_NAME = {"prenom"}
PLAYER = {"joueur", "nom complet", "participant", "nom et prenom", "nom prenom"}
EXCLUDED = {"hors classement", "exclu", "non classe", "hc"}
YES = {"oui", "o", "x", "yes", "vrai", "1", "true"}
TOURNAMENT_FIELDS = {
    "circuit": {"circuit"},
    "name": {"nom", "nom du tournoi", "tournoi"},
    "date": {"date", "date du tournoi"},
    "location": {"lieu", "ville"},
    "participants": {"participants", "nombre de participants"},
}
MONTHS = ["janvier", "fevrier", "mars", "avril", "mai", "juin", "juillet", "aout", "septembre", "octobre",
          "novembre", "decembre"]


def plain(text: object) -> str:
    """Lower case, no accents, punctuation as spaces: 'Prénom :' -> 'prenom'."""
    decomposed = unicodedata.normalize("NFKD", str(text))
    letters = "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()
    return " ".join(re.sub(r"[^0-9a-z]+", " ", letters).split())


def name_key(last: str, first: str) -> tuple[str, ...]:
    """The same player whatever the accents, case or hyphens; Nom then Prénom, in that order
    (INTERPRETATIONS.md, « who is who »: MICHEL Bernard and BERNARD Michel are two players)."""
    return tuple(plain(f"{last} {first}").split())


def is_empty(value: object) -> bool:
    return value is None or (isinstance(value, str) and not value.strip())


def read_place(value: object) -> int | None:
    """1, 1.0, '1er', '2e', '=3', '3 ex aequo'."""
    if is_empty(value):
        return None
    if isinstance(value, (int, float)):
        return int(value)
    digits = re.search(r"\d+", str(value))
    assert digits, f"not a place: {value!r}"
    return int(digits[0])


def read_date(value: object) -> dt.date:
    if isinstance(value, dt.datetime):
        return value.date()
    if isinstance(value, dt.date):
        return value
    if isinstance(value, (int, float)):
        return dt.date(1899, 12, 30) + dt.timedelta(days=int(value))
    text = plain(value)
    if match := re.fullmatch(r"(\d{1,2}) (\d{1,2}) (\d{4})", text):
        return dt.date(int(match[3]), int(match[2]), int(match[1]))
    if match := re.match(r"(\d{4}) (\d{2}) (\d{2})", text):
        return dt.date(int(match[1]), int(match[2]), int(match[3]))
    if match := re.search(r"(\d{1,2})(?:er)? ([a-z]+) (\d{4})", text):
        month = next(i for i, m in enumerate(MONTHS, 1) if m.startswith(match[2]))
        return dt.date(int(match[3]), month, int(match[1]))
    raise AssertionError(f"not a date: {value!r}")


def sheet(book, name: str):
    """The sheet of that name (loosely compared), a visible one first."""
    found = [s for s in book.worksheets if plain(s.title) == plain(name)]
    found.sort(key=lambda s: s.sheet_state != "visible")
    return found[0] if found else None


def tournament_fields(ws) -> dict[str, object]:
    """Field name, then the next filled cell of its row; the first occurrence counts."""
    fields: dict[str, object] = {}
    for row in ws.iter_rows(values_only=True):
        filled = [c for c in row if not is_empty(c)]
        if len(filled) < 2:
            continue
        label = plain(filled[0])
        for key, names in TOURNAMENT_FIELDS.items():
            if label in names and key not in fields:
                fields[key] = filled[1]
    return fields


@dataclass
class Result:
    key: tuple[str, ...]
    name: str  # NOM Prénom
    place: int | None
    excluded: bool


@dataclass
class Tournament:
    path: Path
    name: str
    date: dt.date
    participants: int
    results: list[Result]
    points: dict[tuple[str, ...], Fraction] = field(default_factory=dict)  # ranked players only

    @property
    def counts(self) -> bool:
        return self.participants >= MIN_PARTICIPANTS


def split_player(text: str) -> tuple[str, str]:
    """A single `Joueur` cell: 'Dupont, Jean'; else the words in capitals are the surname; else the
    first word (docs/formats.md, "Names")."""
    if "," in text:
        last, first = text.split(",", 1)
        return last.strip(), first.strip()
    words = text.split()
    capitals = [w for w in words if w.isupper()]
    if capitals:
        return " ".join(capitals), " ".join(w for w in words if not w.isupper())
    return words[0], " ".join(words[1:])


def read_results(ws) -> list[Result]:
    rows = [list(r) for r in ws.iter_rows(values_only=True)]
    known = PLACE | LAST_NAME | FIRST_NAME | PLAYER | EXCLUDED

    def score(row):
        return sum(1 for cell in row if not is_empty(cell) and plain(cell) in known)

    header_index = max(range(min(30, len(rows))), key=lambda i: (score(rows[i]), -i))
    header = [plain(c) if not is_empty(c) else "" for c in rows[header_index]]

    def column(names):
        return next((i for i, h in enumerate(header) if h in names), None)

    columns = {"place": column(PLACE), "last": column(LAST_NAME), "first": column(FIRST_NAME),
               "player": column(PLAYER), "excluded": column(EXCLUDED)}
    assert columns["place"] is not None and (columns["last"] is not None or columns["player"] is not None), header
    results = []
    for row in rows[header_index + 1:]:
        cells = {k: (row[i] if i is not None and i < len(row) else None) for k, i in columns.items()}
        if all(is_empty(v) for v in cells.values()):
            continue  # blank row, or a note beside the table
        first_filled = next(c for c in row if not is_empty(c))
        if isinstance(first_filled, str) and plain(first_filled).startswith("total"):
            continue
        if columns["last"] is not None and not is_empty(cells["last"]):
            last, first = str(cells["last"]).strip(), str(cells["first"] or "").strip()
        else:
            last, first = split_player(str(cells["player"]).strip())
        excluded = not is_empty(cells["excluded"]) and plain(cells["excluded"]) in YES
        results.append(Result(name_key(last, first), f"{last.upper()} {first}", read_place(cells["place"]),
                              excluded))
    return results


def read_tournaments(folder: Path) -> list[Tournament]:
    """Every Tour de France workbook under `folder`, in date order."""
    tournaments = []
    for path in sorted(folder.rglob("*.xls[xm]")):
        if path.name.startswith(("~$", ".")):
            continue
        book = openpyxl.load_workbook(path, data_only=True, read_only=False)
        fields = tournament_fields(sheet(book, "Tournoi"))
        if plain(fields.get("circuit", "")).replace(" ", "") != "tourdefrance":
            continue
        results = read_results(sheet(book, "Résultats"))
        participants = int(fields["participants"]) if not is_empty(fields.get("participants")) else len(results)
        tournaments.append(Tournament(path, str(fields["name"]), read_date(fields["date"]), participants, results))
    tournaments.sort(key=lambda t: (t.date, t.path.name))
    for tournament in tournaments:
        tournament.points = tournament_points(tournament)
    return tournaments


def round_half_up(value: Fraction) -> int:
    return int(value + Fraction(1, 2)) if value >= 0 else -round_half_up(-value)


def tournament_value(participants: int) -> int | None:
    """« 19 participants ... 1143 », « un tournoi à 100 joueurs aura une valeur de 1816 »."""
    if participants < MIN_PARTICIPANTS:
        return None
    if participants >= 84:
        return 1800 + (participants - 84)
    for (n0, v0), (n1, v1) in zip(ANCHORS, ANCHORS[1:]):
        if n0 <= participants <= n1:
            return round_half_up(v0 + Fraction(v1 - v0, n1 - n0) * (participants - n0))
    raise AssertionError(participants)


def straight_line(start: int, end: int, steps: int) -> list[int]:
    """`steps` + 1 values from start to end; the whole gaps between consecutive ones differ by at
    most one, the larger ones first (« les écarts les plus importants ... entre les joueurs les
    mieux classés »)."""
    total = start - end
    gaps = [total // steps] * steps
    for index in range(total % steps):
        gaps[index] += 1
    values = [start]
    for gap in gaps:
        values.append(values[-1] - gap)
    assert values[-1] == end
    return values


def points_by_place(value: int, ranked: int) -> list[int]:
    """Points of places 1..ranked."""
    scale = [value]
    for _ in range(2):
        scale.append(round_half_up(scale[-1] * EIGHTY_PERCENT))
    if ranked <= 3:
        return scale[:ranked]
    others = ranked - 3
    quarters = [others // 4 + (1 if i >= 4 - others % 4 else 0) for i in range(4)]  # the smallest first
    assert sum(quarters) == others and quarters[0] == min(quarters)
    first_quarter = quarters[0]
    if first_quarter:
        start = round_half_up(scale[2] * EIGHTY_PERCENT)
        scale += straight_line(start, SECOND_QUARTER_POINTS, first_quarter)[:-1]
    # From the first of the second quarter (place 4 + first_quarter) to a virtual (ranked+1)th at 0.
    scale += straight_line(SECOND_QUARTER_POINTS, 0, ranked + 1 - (4 + first_quarter))[:-1]
    assert len(scale) == ranked
    return scale


def tournament_points(tournament: Tournament) -> dict[tuple[str, ...], Fraction]:
    value = tournament_value(tournament.participants)
    if value is None:
        return {}
    ranked = [r for r in tournament.results if not r.excluded]
    # « les places below move up »: a place is 1 + the ranked players placed strictly before.
    places = {id(r): 1 + sum(1 for o in ranked if o.place < r.place) for r in ranked}
    scale = points_by_place(value, len(ranked))
    points = {}
    for result in ranked:
        place = places[id(result)]
        tied = sum(1 for o in ranked if places[id(o)] == place)
        covered = scale[place - 1:place - 1 + tied]
        points[result.key] = Fraction(sum(covered), tied)
    return points


def season_total(results: list[Fraction]) -> Fraction:
    """360, 140, 30 -> 515; 360, 190, 140, 30 -> 705 (the regulation's two examples)."""
    ordered = sorted(results, reverse=True)
    if len(ordered) >= 3:
        return sum(ordered[:-1], Fraction(0)) + ordered[-1] / 2
    return sum(ordered, Fraction(0))


@dataclass
class Line:
    rank: int
    player: str
    points: Fraction
    played: int


def season_ranking(tournaments: list[Tournament], season: int, until: dt.date) -> dict[tuple[str, ...], Line]:
    """The ranking after the tournaments of `season` up to `until`: competition ranks on the total
    (equal totals share a place; the regulation orders nobody within it)."""
    names: dict[tuple[str, ...], str] = {}
    results: dict[tuple[str, ...], list[Fraction]] = {}
    for tournament in tournaments:
        if tournament.date.year != season or tournament.date > until:
            continue
        for result in tournament.results:
            names.setdefault(result.key, result.name)
            if result.key in tournament.points:
                results.setdefault(result.key, []).append(tournament.points[result.key])
    totals = {key: season_total(mine) for key, mine in results.items()}
    return {key: Line(1 + sum(1 for other in totals.values() if other > total), names[key], total, len(results[key]))
            for key, total in totals.items()}
