"""The example league's Tantrix events (examples/league/tantrix/): a weekend all-play-all in March
and a knockout with 3-game matches in October, among the same eight players.

Between them they show what the circuit must handle (docs/tantrix.md): a default in each event; a
player with three defaults, left out of the weekend's standings; time penalties, typed as `mm:ss`
text, as whole minutes and as Excel time cells (a typed 15:42 that Excel keeps as 15 h 42); a
vanished game (23-23); a tie on TPs decided by the tied players' own game; a knockout match level on
TPs but won on games. The knockout is paired from its seeding list (the ratings after the weekend).

Seeded and reproducible: the same run writes the same bytes.

    python scripts/example_tantrix.py examples/league
"""

from __future__ import annotations

import datetime as dt
import random
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

import xlsxwriter

SEED = 20260315
CREATED = dt.datetime(2026, 11, 1, 12, 0)
WEEKEND = ("Week-end Tantrix de printemps", dt.date(2026, 3, 14), "Toulouse")
CUP = ("Coupe Tantrix d'automne", dt.date(2026, 10, 10), "en ligne")
# Name, typed Elo (blank: none), first and second colour preferences, strength.
PLAYERS = [
    ("MOREAU Lucie", 1910, "rouge", "jaune", 0.9),
    ("FAURE Stéphane", 1880, "rouge", "jaune", 0.7),
    ("ROUSSEAU Françoise", None, "bleu", "vert", 0.5),
    ("GARNIER Hélène", 1790, "vert", "rouge", 0.45),
    ("LECLERC Thierry", 1850, "jaune", "bleu", 0.3),
    ("BOUVIER Agnès", None, "bleu", "vert", 0.2),
    ("PERRIN Julien", 1700, "rouge", "bleu", 0.1),
    ("DUPUY Frédéric", None, "vert", "jaune", 0.0),
]
LEFT_OUT = "DUPUY Frédéric"  # loses three games by default at the weekend (rule 7)


@dataclass
class Row:
    round: int
    a: str
    b: str
    tiles: tuple[int, int] | None = None
    times: tuple[object, object] = (None, None)  # as typed: "mm:ss" text, whole minutes, dt.time
    default: str = ""
    vanished: bool = False


def circle(players: list[str]) -> list[list[tuple[str, str]]]:
    """The all-play-all rounds by the circle method."""
    fixed, rest = players[0], players[1:]
    rounds = []
    for turn in range(len(players) - 1):
        ring = [fixed] + rest[turn:] + rest[:turn]
        rounds.append([(ring[i], ring[-1 - i]) if turn % 2 == 0 else (ring[-1 - i], ring[i])
                       for i in range(len(players) // 2)])
    return rounds


def play(rng: random.Random, strong: float, weak: float) -> tuple[int, int]:
    """Tiles of a game: the stronger player is a little more likely to win; margins 0 to 20."""
    first = rng.random() < 0.5 + (strong - weak) / 2
    best = rng.randint(18, 38)
    margin = rng.choice((0, 1, 2, 3, 4, 5, 6, 8, 10, 12, 15, 20)) if rng.random() > 0.04 else 0
    return (best, best - margin) if first else (best - margin, best)


def clock(rng: random.Random, index: int) -> object:
    """A time under the limit, typed in one of the three forms."""
    minutes, seconds = rng.randint(7, 13), rng.randint(0, 59)
    form = index % 3
    if form == 0:
        return f"{minutes}:{seconds:02d}"
    if form == 1:
        return minutes
    return dt.time(minutes, seconds)  # typed 9:41 in Excel: kept as 9 h 41


def weekend(rng: random.Random) -> list[Row]:
    names = [p[0] for p in PLAYERS]
    strength = {p[0]: p[4] for p in PLAYERS}
    rows = []
    for number, pairs in enumerate(circle(names), start=1):
        for a, b in pairs:
            row = Row(number, a, b)
            if LEFT_OUT in (a, b) and number in (2, 4, 6):  # he did not show up: three defaults
                row.default = "A" if a == LEFT_OUT else "B"
            else:
                row.tiles = play(rng, strength[a], strength[b])
                row.times = (clock(rng, len(rows)), clock(rng, len(rows) + 1))
            rows.append(row)
    # Both players disconnected and the game vanished (rule 3): 23-23, its times are not read.
    vanished = next(r for r in rows if r.round == 5 and LEFT_OUT not in (r.a, r.b))
    vanished.tiles, vanished.vanished, vanished.times = None, True, ("12:10", "11:58")
    # Time penalties: 15:42 typed in an Excel time cell (kept as 15 h 42), and 16 whole minutes.
    late = next(r for r in rows if r.round == 3 and r.tiles and LEFT_OUT not in (r.a, r.b))
    late.times = (dt.time(15, 42), late.times[1])
    later = next(r for r in rows if r.round == 7 and r.tiles and LEFT_OUT not in (r.a, r.b))
    later.times = (later.times[0], 16)
    return rows


def _scored(rows: list[Row], knockout: bool):
    """The rows as the circuit scores them (names as player ids)."""
    from reportgen.circuits.tantrix.games import Game
    from reportgen.circuits.tantrix.parse import GameRow
    from reportgen.circuits.tantrix.points import DEFAULT, PLAYED, VANISHED, read_time, score_game
    from reportgen.model import SourceRef

    games = []
    for line, row in enumerate(rows):
        kind = VANISHED if row.vanished else DEFAULT if row.default else PLAYED
        defaulted = {"A": 0, "B": 1}.get(row.default)
        times = tuple(None if t is None else read_time(t) for t in row.times) if kind == PLAYED else (None, None)
        typed = GameRow(line, row.round, row.a, row.b, row.a, row.b, kind, row.tiles, times,  # type: ignore[arg-type]
                        defaulted, SourceRef("generator"))
        games.append(Game(typed, row.a, row.b, score_game(kind, row.tiles, typed.times, defaulted, knockout)))
    return games


def weekend_shows_a_tie_decided_by_the_game_between_them(rows: list[Row]) -> bool:
    from reportgen.circuits.tantrix.standings import HEAD_TO_HEAD, all_play_all

    games = [g for g in _scored(rows, False) if LEFT_OUT not in g.players]
    players = [p[0] for p in PLAYERS if p[0] != LEFT_OUT]
    lines = all_play_all(players, {p: p for p in players}, games, (1,))
    return any(line.decided_by == [HEAD_TO_HEAD] for line in lines) and not any(line.playoff for line in lines) \
        and len({line.tps for line in lines}) >= len(lines) - 2


def seeding_after(weekend_rows: list[Row]) -> list[str]:
    """The knockout's seeding list: the weekend workbook scored by reportgen itself."""
    from reportgen.circuits.tantrix.scoring import score_events
    from reportgen.circuits.tantrix.settings import TantrixSettings
    from reportgen.pipeline import load

    with tempfile.TemporaryDirectory() as folder:
        write_event(Path(folder) / "weekend.xlsx", WEEKEND, "toutes-rondes", weekend_rows, 0)
        # The knockout's own seeding list: the weekend's ratings, at the knockout's date.
        cup = [Row(1, PLAYERS[0][0], PLAYERS[1][0], (20, 10))]
        write_event(Path(folder) / "cup.xlsx", CUP, "élimination", cup, 1)
        league = load(Path(folder), dt.date(2026, 11, 29))
        assert not league.all_problems(), league.all_problems()
        inputs = league.circuits["tantrix"]
        scored = score_events(inputs.results, inputs.events, TantrixSettings())
    return [seed.name for seed in scored.events[-1].seeds]


def match(rng: random.Random, a: str, b: str, number: int, strength: dict[str, float]) -> list[Row]:
    """Three games of a knockout match with a winner (rule 10 a)."""
    from reportgen.circuits.tantrix.knockout import matches

    while True:
        rows = [Row(number, a, b, play(rng, strength[a], strength[b]), (clock(rng, i), clock(rng, i + 1)))
                for i in range(3)]
        if matches(_scored(rows, True))[0].winner is not None:
            return rows


def cup(rng: random.Random, seeds: list[str]) -> list[Row]:
    strength = {p[0]: p[4] for p in PLAYERS}
    quarters = [(seeds[0], seeds[7]), (seeds[3], seeds[4]), (seeds[1], seeds[6]), (seeds[2], seeds[5])]
    rows: list[Row] = []
    winners = []
    from reportgen.circuits.tantrix.knockout import matches

    for index, (a, b) in enumerate(quarters):
        if index == 1:
            # Level on TPs (30,0 each) but won on games, 2 to 1 (rule 10 a): 20-19, 20-19, then 12 tiles down.
            played = [Row(1, a, b, (20, 19), ("11:02", "10:47")), Row(1, a, b, (24, 23), (13, 12)),
                      Row(1, a, b, (14, 26), (dt.time(9, 30), dt.time(12, 5)))]
        elif index == 3:
            # A default in a knockout: 50 tiles to 14, 20 TPs to 0 (rule 7).
            played = match(rng, a, b, 1, strength)[:2] + [Row(1, a, b, default="B")]
        else:
            played = match(rng, a, b, 1, strength)
        rows += played
        winners.append(matches(_scored(played, True))[0].winner)
    finalists = []
    for a, b in ((winners[0], winners[1]), (winners[2], winners[3])):
        played = match(rng, a, b, 2, strength)
        rows += played
        finalists.append(matches(_scored(played, True))[0].winner)
    rows += match(rng, finalists[0], finalists[1], 3, strength)
    return rows


def shown_name(name: str, index: int) -> str:
    """Most rows write NOM Prénom; a few Prénom NOM (the reader understands both)."""
    if index % 9 == 4:
        last, first = name.split(" ", 1)
        return f"{first} {last}"
    return name


def write_event(path: Path, fields: tuple[str, dt.date, str], kind: str, rows: list[Row], variant: int) -> None:
    name, day, town = fields
    book = xlsxwriter.Workbook(path, {"strings_to_numbers": False, "strings_to_formulas": False})
    book.set_properties({"created": CREATED, "author": "Club Tantrix"})
    bold = book.add_format({"bold": True})
    date_format = book.add_format({"num_format": "dd/mm/yyyy"})
    time_format = book.add_format({"num_format": "h:mm"})
    info = book.add_worksheet("Tournoi")
    for row, (label, value) in enumerate([("Circuit", "tantrix"), ("Nom", name), ("Date", day), ("Type", kind),
                                          ("Lieu", town)]):
        info.write_string(row, 0, label + (" :" if variant else ""))
        if isinstance(value, dt.date):
            info.write_datetime(row, 1, dt.datetime.combine(value, dt.time()), date_format)
        else:
            info.write_string(row, 1, value)
    info.set_column(0, 1, 30)

    sheet = book.add_worksheet("Parties")
    top = 0
    if variant == 0:  # a title and a blank row above the header
        sheet.write_string(0, 0, f"{name} — parties", bold)
        top = 2
    headers = ["Ronde", "Joueur A", "Joueur B", "Tuiles A", "Tuiles B", "Temps A", "Temps B", "Forfait", "Déconnexion"]
    for col, header in enumerate(headers):
        sheet.write_string(top, col, header, bold)
    for index, row in enumerate(rows, start=top + 1):
        sheet.write_number(index, 0, row.round)
        sheet.write_string(index, 1, shown_name(row.a, index))
        sheet.write_string(index, 2, shown_name(row.b, index + 1))
        if row.tiles:
            sheet.write_number(index, 3, row.tiles[0])
            sheet.write_number(index, 4, row.tiles[1])
        for col, typed in ((5, row.times[0]), (6, row.times[1])):
            if isinstance(typed, dt.time):
                sheet.write_datetime(index, col, typed, time_format)
            elif isinstance(typed, int):
                sheet.write_number(index, col, typed)
            elif typed:
                sheet.write_string(index, col, typed)
        if row.default:
            sheet.write_string(index, 7, row.default)
        if row.vanished:
            sheet.write_string(index, 8, "oui")
    sheet.set_column(1, 2, 22)
    sheet.set_column(3, 8, 11)

    entrants = book.add_worksheet("Inscrits")
    for col, header in enumerate(["Joueur", "Elo", "Couleur 1", "Couleur 2"]):
        entrants.write_string(0, col, header, bold)
    for index, (player, elo, first, second, _) in enumerate(PLAYERS, start=1):
        entrants.write_string(index, 0, player)
        if elo is not None:
            entrants.write_number(index, 1, elo)
        entrants.write_string(index, 2, first)
        entrants.write_string(index, 3, second)
    entrants.set_column(0, 0, 22)
    book.close()


def write(folder: Path) -> None:
    """Write examples/league/tantrix/ (the two events) under `folder`."""
    target = folder / "tantrix"
    target.mkdir(parents=True, exist_ok=True)
    for seed in range(SEED, SEED + 10_000):
        rng = random.Random(seed)
        rows = weekend(rng)
        if weekend_shows_a_tie_decided_by_the_game_between_them(rows):
            break
    write_event(target / f"{WEEKEND[1].isoformat()}-week-end-de-printemps.xlsx", WEEKEND, "toutes-rondes", rows, 0)
    seeds = [name for name in seeding_after(rows)]
    write_event(target / f"{CUP[1].isoformat()}-coupe-d-automne.xlsx", CUP, "élimination", cup(rng, seeds), 1)


if __name__ == "__main__":
    write(Path(sys.argv[1] if len(sys.argv) > 1 else "examples/league"))
