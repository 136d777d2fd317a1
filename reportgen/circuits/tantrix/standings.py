"""An event's standings lines, and the all-play-all order (rule 10, read as INTERPRETATIONS.md says).

Order: TPs after time penalties; then the TPs each tied player scored in the games among the tied
group, computed once over the whole group; a tie still standing for a place that matters (a
setting: first place by default) is a play-off to play, shown and not decided; lesser ties go to
games won (a draw ½), the sum of margins, then tiles scored.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from reportgen.circuits.tantrix import metrics
from reportgen.circuits.tantrix.games import Game
from reportgen.scoring.tiebreaks import rank

# The chain's steps are named by their metrics' keys: `Line.decided_by` lists them.
TPS, HEAD_TO_HEAD, WINS, MARGINS, TILES, PLAYOFF = (metric.key for metric in (
    metrics.TPS, metrics.HEAD_TO_HEAD, metrics.WINS, metrics.MARGIN, metrics.TILES, metrics.PLAYOFF))


@dataclass
class Line:
    """A player's totals over the games his standings count."""

    player: str  # id
    name: str
    tps: int = 0  # tenths, after time penalties
    games: int = 0  # defaults included
    wins: int = 0  # halves: a win on the board 2, a draw 1, a default won 2
    margin: int = 0  # tiles scored minus conceded
    tiles: int = 0
    rank: int = 0
    tied: bool = False
    decided_by: list[str] = field(default_factory=list)  # metric keys
    playoff: bool = False
    stage: str = ""  # knockout: the round he reached


def lines(players: Iterable[str], names: dict[str, str], games: Iterable[Game]) -> dict[str, Line]:
    found = {player: Line(player, names[player]) for player in players}
    for game in games:
        scored = game.scored
        for side, player in enumerate(game.players):
            line = found.get(player)
            if line is None:
                continue
            line.tps += scored.tps[side]
            line.games += 1
            line.wins += scored.wins[side]
            line.margin += scored.tiles[side] - scored.tiles[1 - side]
            line.tiles += scored.tiles[side]
    return found


def at_stake(group: Sequence[Line], position: int, places: tuple[int, ...]) -> bool:
    """Rule 10 c): the group shares places position+1 … position+len(group); does one of them matter?"""
    return any(position < place <= position + len(group) for place in places)


def all_play_all(players: Iterable[str], names: dict[str, str], games: list[Game],
                 playoff_places: tuple[int, ...]) -> list[Line]:
    found = lines(players, names, games)
    earned: dict[tuple[str, str], int] = {}  # (player, opponent) -> TPs (tenths) he scored against him
    for game in games:
        for side, player in enumerate(game.players):
            other = game.players[1 - side]
            earned[player, other] = earned.get((player, other), 0) + game.scored.tps[side]

    def head_to_head(line: Line, group: Sequence[Line]) -> int:
        # Rule 10 b): « les TPs marqués pendant la partie (ou les parties) entre les joueurs concernés »,
        # over the whole tied group at once (not applied again to a smaller group).
        return -sum(earned.get((line.player, other.player), 0) for other in group if other is not line)

    def lesser(group: Sequence[Line], position: int) -> bool:
        return not at_stake(group, position, playoff_places)

    chain = [
        metrics.TPS.by(lambda line: -line.tps),
        metrics.HEAD_TO_HEAD.criterion(head_to_head),
        # Rule 10 d): « les égalités moins importantes »: never for a place that matters.
        metrics.WINS.criterion(lambda line, group: -line.wins, applies=lesser),
        metrics.MARGIN.criterion(lambda line, group: -line.margin, applies=lesser),
        metrics.TILES.criterion(lambda line, group: -line.tiles, applies=lesser),
    ]
    ranked = rank(list(found.values()), chain, display=lambda line: (line.name, line.player))
    ordered = []
    groups: dict[int, list[Line]] = {}
    for placed in ranked.placed:
        line = placed.item
        line.rank, line.tied, line.decided_by = placed.rank, placed.tied, list(placed.decided_by)
        if placed.tied:
            groups.setdefault(placed.rank, []).append(line)
        ordered.append(line)
    for start, group in groups.items():
        if at_stake(group, start - 1, playoff_places):
            for line in group:
                line.playoff = True
                line.decided_by.append(PLAYOFF)
    return ordered
