"""Pool tournaments for the tests: a workbook kept as rows (the sheets `Tournoi`, `Inscrits`,
`Parties`, `Forfaits`), read by the circuit's own parser, advanced by `poules next`'s own `propose`,
and written as a real .xlsx (openpyxl) when a test needs the file.

Also the tests of these helpers themselves."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from reportgen import circuits
from reportgen.circuits.base import Reading
from reportgen.circuits.poules.next_round import propose
from reportgen.circuits.poules.parse import parse
from reportgen.circuits.poules.settings import PoulesSettings
from reportgen.circuits.poules.tournament import replay
from reportgen.ingest.directories import ClubDirectory
from reportgen.ingest.tournament import read_tournament_sheet
from reportgen.ingest.workbook import Sheet, Workbook
from tests.builders import players, write_workbook

TODAY = dt.date(2026, 11, 29)
START = dt.date(2026, 9, 5)
REGISTERED = dt.datetime(2026, 8, 1, 12, 0)
PATH = "poules/test.xlsx"


def names(count: int) -> list[str]:
    """JOUEURA Un, JOUEURB Un…: seeded in this order (RON points decrease), registered in this order."""
    return players(count)


class Tour:
    """A pool tournament being played, as its workbook's rows."""

    def __init__(self, count: int | None = None, *, entrants: list[tuple[str, float, dt.datetime]] | None = None,
                 name: str = "Tournoi test", day: dt.date = START, emails: bool = True,
                 settings: PoulesSettings = PoulesSettings()):
        if entrants is None:
            entrants = [(player, 2000.0 - 10 * index, REGISTERED + dt.timedelta(hours=index))
                        for index, player in enumerate(names(count or 0))]
        self.name, self.settings = name, settings
        self.sheets: dict[str, list[list[object]]] = {
            "Tournoi": [["Circuit", "poules"], ["Nom", name], ["Date", day]],
            "Inscrits": [["Joueur", "Points RON", "Inscription", "Email"]] + [
                [player, ron, moment, f"{player.split()[0].lower()}@example.org" if emails else ""]
                for player, ron, moment in entrants],
        }

    # -- reading ------------------------------------------------------------------------------------

    def workbook(self) -> Workbook:
        return Workbook(Path(PATH), PATH, [Sheet(name, [list(row) for row in rows]) for name, rows in self.sheets.items()])

    def parsed(self):
        """(event or None, problems as printed)."""
        problems: list = []
        workbook = self.workbook()
        sheet = read_tournament_sheet(workbook, problems, circuits.tournament_fields("poules"))
        event = parse(workbook, sheet, Reading(ClubDirectory(), TODAY), problems)
        return event, [str(p) for p in sorted(problems)]

    def event(self):
        event, problems = self.parsed()
        assert not problems, problems
        return event

    def replay(self):
        event = self.event()
        return replay(event.content, event.date, self.settings)

    # -- playing ------------------------------------------------------------------------------------

    def next(self, day: dt.date | None = None, barrages: bool = False):
        """`poules next`: the proposal, applied to the rows when there is one."""
        proposal = propose(self.event(), self.settings, day or START, barrages)
        if proposal.change is not None:
            self.sheets = {sheet.name: [[c.header for c in sheet.columns]] + [
                ["" if v is None else v for v in row] for row in sheet.rows]
                for sheet in proposal.change.workbook.sheets}
        return proposal

    def games(self, number: int | None = None, phase: str | None = None) -> list[list[object]]:
        """The rows of `Parties` (Tour, Poule, Blancs, Noirs, Résultat, Phase, Lancement)."""
        rows = self.sheets.get("Parties", [[]])[1:]
        return [row for row in rows if (number is None or row[0] == number) and (phase is None or row[5] == phase)]

    def play(self, decide=None, number: int | None = None, skip: set[str] = frozenset()) -> None:
        """Type every empty result: `decide(white, black)` gives it (None: the first registered wins)."""
        order = {row[0]: index for index, row in enumerate(self.sheets["Inscrits"][1:])}
        for row in self.games(number):
            if row[4] in ("", None) and row[2] not in skip and row[3] not in skip:
                result = decide(row[2], row[3]) if decide else None
                row[4] = result or ("1-0" if order[row[2]] < order[row[3]] else "0-1")

    def result(self, white: str, black: str, value: str, phase: str = "principale") -> None:
        row = next(row for row in reversed(self.games(phase=phase)) if row[2] == white and row[3] == black)
        row[4] = value

    def forfeit(self, player: str, number: int, rehabilitated: bool = False, sanction: bool = False,
                day: dt.date | None = None) -> None:
        rows = self.sheets.setdefault("Forfaits", [["Joueur", "Tour", "Sanction", "Réhabilité", "Date"]])
        rows.append([player, number, "oui" if sanction else "non", "oui" if rehabilitated else "non", day or ""])

    def write(self, folder: Path, file: str = "test.xlsx") -> Path:
        """The workbook as a real .xlsx under folder/poules/."""
        sheets = {name: [[None if v == "" else v for v in row] for row in rows] for name, rows in self.sheets.items()}
        return write_workbook(folder / "poules" / file, sheets)


def ranking_names(tournament) -> list[str]:
    from reportgen.circuits.poules.ranking import tournament_ranking

    return [standing.player.name for standing in tournament_ranking(tournament)]


# -- the helpers themselves ---------------------------------------------------------------------------

def test_a_tour_starts_from_its_registrants_only():
    tour = Tour(6)
    assert tour.replay().status == "not-started"
    proposal = tour.next()
    assert proposal.change is not None and len(tour.games(1)) == 2 * (3 * 2)  # two pools of 3: 6 games each


def test_a_tour_writes_a_real_workbook(tmp_path):
    import openpyxl

    tour = Tour(4)
    tour.next()
    path = tour.write(tmp_path)
    book = openpyxl.load_workbook(path)
    assert book.sheetnames == ["Tournoi", "Inscrits", "Parties"]
    assert [c.value for c in book["Parties"][1]] == ["Tour", "Poule", "Blancs", "Noirs", "Résultat", "Phase", "Lancement"]
