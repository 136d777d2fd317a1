"""Knockout events (`Type` = `élimination`, rule 10 a, read as INTERPRETATIONS.md says).

Each `Ronde` is one round of the bracket; all the games of the same two players in one round make
their match, won on TPs, then games won, then tiles; level on all three, a play-off is to play.
The event's standings: the winner of the last round's match 1st, its loser 2nd; every other player
by the last round he played (a later round first); players knocked out in the same round share the
place, as competition ranks: 1, 2, 3, 3, 5, 5, 5, 5.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from reportgen.circuits.tantrix.games import Game
from reportgen.circuits.tantrix.standings import PLAYOFF, TILES, TPS, WINS, Line, lines
from reportgen.model import Problem
from reportgen.problems import BRACKET
from reportgen.scoring.tiebreaks import Criterion, by, rank

WON, UNDECIDED, LOST = 2, 1, 0


@dataclass(frozen=True)
class Match:
    round: int
    a: str  # player ids, A as the first game of the match names him
    b: str
    games: tuple[Game, ...]
    tps: tuple[int, int]  # tenths, after time penalties
    wins: tuple[int, int]  # halves
    tiles: tuple[int, int]
    winner: str | None  # None: level on TPs, games won and tiles: a play-off to play
    decided_by: str  # TPS, WINS, TILES or PLAYOFF

    @property
    def loser(self) -> str | None:
        return None if self.winner is None else self.b if self.winner == self.a else self.a

    def outcome(self, player: str) -> int:
        return UNDECIDED if self.winner is None else WON if self.winner == player else LOST

    def side(self, player: str) -> int:
        return 0 if player == self.a else 1


def matches(games: Iterable[Game]) -> list[Match]:
    """The matches of the bracket, by round, in the order their first game is typed."""
    grouped: dict[tuple[int, frozenset[str]], list[Game]] = {}
    for game in games:
        grouped.setdefault((game.row.round, frozenset(game.players)), []).append(game)
    found = []
    for (round_number, _), played in sorted(grouped.items(), key=lambda item: (item[0][0], item[1][0].row.line)):
        a, b = played[0].a, played[0].b
        totals = {}
        for name, part in (("tps", "tps"), ("wins", "wins"), ("tiles", "tiles")):
            totals[name] = tuple(sum(getattr(g.scored, part)[g.side(player)] for g in played) for player in (a, b))
        winner, decided = None, PLAYOFF
        for criterion in (TPS, WINS, TILES):  # rule 10 a)
            mine, theirs = totals[{TPS: "tps", WINS: "wins", TILES: "tiles"}[criterion]]
            if mine != theirs:
                winner, decided = (a if mine > theirs else b), criterion
                break
        found.append(Match(round_number, a, b, tuple(played), totals["tps"], totals["wins"], totals["tiles"],
                           winner, decided))
    return found


def check(found: list[Match], names: dict[str, str]) -> list[Problem]:
    """A player who lost his match cannot play a later round."""
    problems = []
    for match in found:
        loser = match.loser
        if loser is None:
            continue
        later = [m for m in found if m.round > match.round and loser in (m.a, m.b)]
        if later:
            winner = names[match.winner] if match.winner else ""
            problems.append(BRACKET(later[0].games[0].row.where, loser=names[loser], round=match.round,
                                    winner=winner, later=later[0].round))
    return problems


def knockout(players: Iterable[str], names: dict[str, str], counted: list[Game], found: list[Match]) -> list[Line]:
    """The standings: TPs, games and games won over the counted games; the place from the bracket."""
    totals = lines(players, names, counted)
    last: dict[str, tuple[int, int, Match]] = {}  # player -> (his last round, its outcome, its match)
    for match in found:
        for player in (match.a, match.b):
            if player in totals and (player not in last or match.round > last[player][0]):
                last[player] = (match.round, match.outcome(player), match)
    placed = [line for line in totals.values() if line.player in last]
    chain: list[Criterion[Line]] = [by("ronde", lambda line: -last[line.player][0]),
                                    by("issue", lambda line: -last[line.player][1])]
    ranked = rank(placed, chain, display=lambda line: (-line.tps, line.name, line.player))
    final_round = max((m.round for m in found), default=0)
    finals = [m for m in found if m.round == final_round]
    ordered = []
    for item in ranked.placed:
        line = item.item
        round_number, outcome, match = last[line.player]
        line.rank, line.tied = item.rank, item.tied
        line.stage = stage(round_number, outcome, final_round, len(finals))
        if outcome == UNDECIDED:
            line.playoff = True
            line.decided_by = [PLAYOFF]
        elif match.decided_by != TPS and (round_number == final_round):
            line.decided_by = [match.decided_by]
        ordered.append(line)
    return ordered


def stage(round_number: int, outcome: int, final_round: int, last_matches: int) -> str:
    """What the player reached, as the bulletin says it."""
    if round_number == final_round and last_matches == 1:
        return {WON: "vainqueur", LOST: "finaliste", UNDECIDED: "finale : barrage à jouer"}[outcome]
    if outcome == LOST:
        return f"élimination à la ronde {round_number}"
    if outcome == UNDECIDED:
        return f"ronde {round_number} : barrage à jouer"
    return f"en lice après la ronde {round_number}"
