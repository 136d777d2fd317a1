"""The example league's pool tournaments (examples/league/poules/), played round by round through the
code path of `reportgen poules next`: the workbook is read by the circuit's parser, the next round
(or the barrage games) is proposed by `propose`, the results of the new games are drawn and typed
into the proposed workbook, and so on until the tournament ends.

- « Open d'automne en ligne »: 20 players, 3 rounds (4 pools of 5, 2 of 4, the final pool of 4),
  with a barrage at a qualifying place.
- « Coupe de la Toussaint en ligne »: 13 of them, 3 rounds; in round 1 two of the three players of a
  pool forfeit, which frees a qualifying place: the best third of the other pools is repêché. In
  round 2 a forfeit is lifted (rehabilitation).

Seeded and reproducible: the same run writes the same bytes.

    python -c "import sys; sys.path.insert(0, 'scripts'); import example_poules, pathlib; \
example_poules.write(pathlib.Path('examples/league'))"
"""

from __future__ import annotations

import datetime as dt
import random
from pathlib import Path

SEED = 20260905
FOLDER = "poules"

# NOM Prénom, RON points, registration time, e-mail ("" for none).
PLAYERS = [
    ("AUGER Anaïs", 1912.4, "2026-08-17 09:12"), ("BAZIN Bastien", 1876.05, "2026-08-17 10:40"),
    ("CHAMPION Coralie", 1850.0, "2026-08-18 21:03"), ("DELMAS Damien", 1850.0, "2026-08-18 08:55"),
    ("ESCOFFIER Élodie", 1799.6, "2026-08-19 12:30"), ("FERRAND Fabien", 1788.25, "2026-08-20 19:45"),
    ("GODARD Gaëlle", 1765.0, "2026-08-20 20:02"), ("HÉBRARD Hugo", 1740.8, "2026-08-21 07:15"),
    ("IMBERT Inès", 1722.1, "2026-08-22 18:20"), ("JOUBERT Jules", 1701.0, "2026-08-23 11:11"),
    ("KERVELLA Karine", 1688.3, "2026-08-24 16:48"), ("LABBÉ Loïc", 1650.0, "2026-08-25 09:30"),
    ("MANGIN Manon", 1650.0, "2026-08-24 22:05"), ("NAVARRO Nathan", 1621.7, "2026-08-26 13:37"),
    ("OUDIN Océane", 1600.2, "2026-08-27 17:00"), ("PONS Paul", 1588.9, "2026-08-28 08:08"),
    ("QUÉRÉ Quentin", 1560.0, "2026-08-29 10:10"), ("RIGAUD Rémi", 1541.35, "2026-08-30 19:19"),
    ("SALLES Solène", 1520.0, "2026-08-31 21:21"), ("TEYSSIER Théo", 1498.6, "2026-09-01 06:59"),
]
WITHOUT_ADDRESS = {"KERVELLA Karine", "QUÉRÉ Quentin"}  # their notices are drafts without recipient


def _address(name: str) -> str:
    from reportgen.circuits.poules.paths import slug

    if name in WITHOUT_ADDRESS:
        return ""
    last, first = name.split(" ", 1)
    return f"{slug(first)}.{slug(last)}@example.org"


def _in_memory(annex, label: str):
    """The proposed workbook as the reader would give it back (header row, then the rows)."""
    from reportgen.ingest.workbook import Sheet, Workbook

    sheets = []
    for spec in annex.sheets:
        rows = [[column.header for column in spec.columns]]
        rows += [["" if value is None else value for value in row] for row in spec.rows]
        sheets.append(Sheet(spec.name, rows))
    return Workbook(Path(label), label, sheets)


def _parse(annex, label: str, today: dt.date):
    from reportgen import circuits
    from reportgen.circuits.base import Reading
    from reportgen.circuits.poules.parse import parse
    from reportgen.ingest.directories import ClubDirectory
    from reportgen.ingest.tournament import read_tournament_sheet

    problems: list = []
    workbook = _in_memory(annex, label)
    sheet = read_tournament_sheet(workbook, problems, circuits.tournament_fields("poules"))
    event = parse(workbook, sheet, Reading(ClubDirectory(), today), problems)
    if problems or event is None:
        raise RuntimeError("\n".join(str(p) for p in problems))
    return event


def start(name: str, day: dt.date, players: list[tuple[str, float, str]], forfeits: bool = False):
    """The workbook a secretary starts from: `Tournoi`, `Inscrits` (and an empty `Forfaits`)."""
    from reportgen.model import Annex, AnnexColumn, AnnexSheet

    sheets = [
        AnnexSheet("Tournoi", [AnnexColumn("Champ", "text", 14), AnnexColumn("Valeur", "auto", 34, grouped=False)],
                   [["Circuit", "poules"], ["Nom", name], ["Date", day], ["Lieu", "en ligne"]]),
        AnnexSheet("Inscrits", [AnnexColumn("Joueur", "text", 26), AnnexColumn("Points RON", "auto", 12),
                                AnnexColumn("Inscription", "auto", 18), AnnexColumn("Email", "text", 34)],
                   [[player, ron, dt.datetime.fromisoformat(moment), _address(player)]
                    for player, ron, moment in players]),
    ]
    if forfeits:
        sheets.append(AnnexSheet("Forfaits", [AnnexColumn("Joueur", "text", 26), AnnexColumn("Tour", "auto", 6),
                                              AnnexColumn("Sanction", "text", 10), AnnexColumn("Réhabilité", "text", 10),
                                              AnnexColumn("Date", "auto", 12)], []))
    return Annex(path=name, title=name, date=day, sheets=sheets)


def _strength(ron: dict[str, float], white: str, black: str, rng: random.Random) -> str:
    """A result drawn from the players' RON points: the stronger wins more often, draws are common."""
    edge = (ron[white] - ron[black]) / 400 + 0.05  # White's small advantage
    draw = 0.28
    win = max(0.05, min(0.9, 0.5 + edge - draw / 2))
    roll = rng.random()
    return "1-0" if roll < win else "½-½" if roll < win + draw else "0-1"


class Play:
    """One tournament played through `propose`, results typed as the rounds come."""

    def __init__(self, label: str, annex, today: dt.date, rng: random.Random):
        self.label, self.annex, self.today, self.rng = label, annex, today, rng
        self.ron = {}
        for row in next(s for s in annex.sheets if s.name == "Inscrits").rows:
            self.ron[row[0]] = row[1]

    def event(self):
        return _parse(self.annex, self.label, self.today)

    def next(self, day: dt.date, barrages: bool = False):
        from reportgen.circuits.poules.next_round import propose
        from reportgen.circuits.poules.settings import PoulesSettings

        proposal = propose(self.event(), PoulesSettings(), day, barrages)
        if proposal.problems or proposal.change is None:
            raise RuntimeError("\n".join([str(p) for p in proposal.problems] + proposal.said))
        self.annex = proposal.change.workbook
        return proposal

    def games(self):
        sheet = next(s for s in self.annex.sheets if s.name == "Parties")
        return sheet.rows

    def type_results(self, decide=None, skip=frozenset()) -> None:
        """Type a result in every empty `Résultat` cell of the round in play (`decide(white, black)`
        may choose it; players in `skip` keep their games empty: they forfeited)."""
        latest = max(row[0] for row in self.games())
        for row in self.games():
            if row[0] == latest and row[4] in ("", None) and row[2] not in skip and row[3] not in skip:
                row[4] = (decide(row[2], row[3]) if decide else None) or _strength(self.ron, row[2], row[3], self.rng)

    def forfeit(self, player: str, number: int, day: dt.date, rehabilitated: bool = False) -> None:
        sheet = next(s for s in self.annex.sheets if s.name == "Forfaits")
        sheet.rows.append([player, number, "non", "oui" if rehabilitated else "non", day])

    def status(self):
        from reportgen.circuits.poules.settings import PoulesSettings
        from reportgen.circuits.poules.tournament import replay

        event = self.event()
        return replay(event.content, event.date, PoulesSettings())


def autumn_open(rng: random.Random) -> bytes:
    """20 players, 3 rounds, a barrage for a qualifying place."""
    from reportgen.circuits.poules.tournament import PLAYING_BARRAGE
    from reportgen.render.excel import render_annex

    name = "Open d'automne en ligne"
    play = Play(f"{FOLDER}/2026-09-05-open-automne.xlsx", start(name, dt.date(2026, 9, 5), PLAYERS), dt.date(2026, 11, 29),
                rng)
    play.next(dt.date(2026, 9, 5))
    # Pool A's two strongest players draw everything against the others: its 2nd and 3rd end level.
    play.type_results(decide=_barrage_in_pool_a(play))
    assert play.status().status == PLAYING_BARRAGE, "the example needs a barrage in round 1"
    play.next(dt.date(2026, 9, 19), barrages=True)
    play.type_results()
    for number, day in ((2, dt.date(2026, 9, 22)), (3, dt.date(2026, 10, 6))):
        play.next(day)
        play.type_results()
        if play.status().status == PLAYING_BARRAGE:
            play.next(day + dt.timedelta(days=14), barrages=True)
            play.type_results()
    assert play.status().over
    return render_annex(play.annex)


def _barrage_in_pool_a(play: Play):
    """Results for pool A of round 1 that leave its 2nd and 3rd level on points (a barrage)."""
    from reportgen.circuits.poules.settings import PoulesSettings
    from reportgen.circuits.poules.tournament import replay

    event = play.event()
    pool = replay(event.content, event.date, PoulesSettings()).rounds[0].pools[0]
    seeds = [p.name for p in pool.players]  # 5 players: the 1st wins all; 2nd and 3rd seeds share the rest
    fixed = {}
    for white in seeds:
        for black in seeds:
            if white == black:
                continue
            if seeds[0] in (white, black):
                fixed[white, black] = "1-0" if white == seeds[0] else "0-1"
            elif {white, black} == {seeds[1], seeds[2]}:
                fixed[white, black] = "1-0"  # each wins with White
            elif white in seeds[1:3] or black in seeds[1:3]:
                fixed[white, black] = "1-0" if white in seeds[1:3] else "½-½"
    return lambda white, black: fixed.get((white, black))


def toussaint_cup(rng: random.Random) -> bytes:
    """13 players; round 1: two of a pool of three forfeit, a third is repêché; round 2: a forfeit
    is lifted."""
    from reportgen.render.excel import render_annex

    name = "Coupe de la Toussaint en ligne"
    players = [PLAYERS[i] for i in (0, 1, 2, 3, 4, 5, 6, 8, 9, 11, 13, 15, 18)]
    play = Play(f"{FOLDER}/2026-10-24-coupe-toussaint.xlsx", start(name, dt.date(2026, 10, 24), players, forfeits=True),
                dt.date(2026, 11, 29), rng)
    play.next(dt.date(2026, 10, 24))
    round_one = play.status().rounds[0]
    emptied = next(pool for pool in round_one.pools if len(pool.players) == 3)
    leaving = [p.name for p in emptied.players[1:]]  # both behind its top seed
    # One game was played before the forfeits; the rest of their games stay empty.
    next(row for row in play.games() if {row[2], row[3]} == set(leaving))[4] = "1-0"
    for player in leaving:
        play.forfeit(player, 1, dt.date(2026, 10, 30))
    play.type_results(skip=set(leaving))
    play.next(dt.date(2026, 11, 7))
    second = play.status().rounds[1]
    lifted = second.pools[1].players[-1].name
    play.forfeit(lifted, 2, dt.date(2026, 11, 10), rehabilitated=True)
    play.type_results()
    if play.status().status != "between-rounds":
        play.next(dt.date(2026, 11, 21), barrages=True)
        play.type_results()
    play.next(dt.date(2026, 11, 22))
    play.type_results()
    if not play.status().over:
        play.next(dt.date(2026, 11, 28), barrages=True)
        play.type_results()
    assert play.status().over
    return render_annex(play.annex)


def write(folder: Path) -> None:
    """Write the two pool tournaments under folder/poules/."""
    rng = random.Random(SEED)
    target = folder / FOLDER
    target.mkdir(parents=True, exist_ok=True)
    (target / "2026-09-05-open-automne.xlsx").write_bytes(autumn_open(rng))
    (target / "2026-10-24-coupe-toussaint.xlsx").write_bytes(toussaint_cup(rng))


if __name__ == "__main__":
    import sys

    write(Path(sys.argv[1] if len(sys.argv) > 1 else "examples/league"))
