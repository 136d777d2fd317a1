"""A pool's standings (Art. IV), with its barrage (Art. IX) and forfeits (Art. XI).

Points: a win 1, a draw ½, a loss 0, counted only in games between two players who have not
forfeited. A forfeited player has lost every game of the round: he comes after all the others, by
registration. The others are ranked by a tie-break chain (reportgen.scoring.tiebreaks): points, then
— for the tie INTERPRETATIONS.md sends to a barrage (the 2nd/3rd boundary of a pool that qualifies,
first place of the final pool) — the barrage points among the tied players, then registration order.
A tie whose barrage is still to play is left level: its players share their place.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import combinations

from reportgen.circuits.poules.domain import Game, Registrant
from reportgen.scoring.tiebreaks import Criterion, by, rank

POINTS, BARRAGE, REGISTRATION = "points", "barrage", "inscription"

# Where a tie is settled by barrage games (INTERPRETATIONS.md, « cas I » of Art. IX).
QUALIFICATION, FIRST_PLACE = "qualification", "first-place"

# What a barrage needs (Barrage.state).
DECIDED = "decided"  # every game of the tied players is played: its points decide
TO_PLAY = "to-play"  # games to add (`poules next --barrages`)
PLAYING = "playing"  # every game is written, results missing
NO_BARRAGE = "registration"  # a new tie once the round's barrage phase has begun: registration decides (Art. IX)

# A player's state at the end of a round, as bulletins and notices show it.
QUALIFIED, REPECHE, ELIMINATED, FORFEIT, PENDING = "qualified", "repeche", "eliminated", "forfeit", "pending"


@dataclass
class Line:
    player: Registrant
    half: int = 0  # main-phase points that count, in halves
    games: int = 0  # main-phase games that count (played, against players who did not forfeit)
    forfeit: bool = False
    place: int = 0  # in the pool; players level share it (a barrage to play)
    pending: bool = False  # level with others until their barrage is played
    barrage_half: int | None = None  # his barrage points (halves), when a barrage set his place
    decided_by: tuple[str, ...] = ()
    status: str = ""  # QUALIFIED, REPECHE, ELIMINATED, FORFEIT, PENDING ("" in the final pool)

    @property
    def points(self) -> Fraction:
        return Fraction(self.half, 2)

    @property
    def average(self) -> Fraction:
        """Points per game that counts; 0 without any (INTERPRETATIONS.md)."""
        return Fraction(self.half, 2 * self.games) if self.games else Fraction(0)


@dataclass
class Barrage:
    """The barrage a pool's tie calls for: its players (registration order) and its games."""

    players: list[Registrant]
    games: list[Game]  # the typed barrage games among them
    to_add: list[tuple[Registrant, Registrant]] = field(default_factory=list)  # (White, Black) still to write
    state: str = DECIDED

    @property
    def to_type(self) -> list[Game]:
        return [game for game in self.games if game.result is None]

    def half_points(self, player: str, group: Sequence[str]) -> int:
        return sum(game.half_points(player) for game in self.games
                   if game.has(player) and {game.white, game.black} <= set(group))


def barrage_pairs(players: Sequence[Registrant]) -> list[tuple[Registrant, Registrant]]:
    """Each tied player meets each other once; White goes to the later registrant (Art. IX)."""
    ordered = sorted(players, key=lambda p: p.order)
    return [(later, earlier) for earlier, later in combinations(ordered, 2)]


def _tied_group(lines: list[Line], where: str) -> list[Line]:
    """The players level on points across the place a barrage settles; [] when there is none."""
    ordered = sorted(lines, key=lambda line: -line.half)
    first, second = (1, 2) if where == QUALIFICATION else (0, 1)
    if len(ordered) <= second or ordered[first].half != ordered[second].half:
        return []
    return [line for line in ordered if line.half == ordered[first].half]


def pool_standings(players: Sequence[Registrant], games: Sequence[Game], barrage_games: Sequence[Game],
                   forfeited: set[str], where: str | None, barrage_phase_begun: bool,
                   forfeit_games_count: bool = True) -> tuple[list[Line], Barrage | None, list[Game]]:
    """(the lines in pool order, the barrage its tie calls for, the games still to play).

    `where`: the place a barrage settles in this pool (QUALIFICATION, FIRST_PLACE), None for none.
    `barrage_phase_begun`: barrage games are written for this round (one barrage phase per round:
    a tie that appears afterwards, through a forfeit, goes to registration order, Art. IX)."""
    lines = {p.key: Line(p, forfeit=p.key in forfeited) for p in players}
    active = [line for line in lines.values() if not line.forfeit]
    counted = [g for g in games if g.white not in forfeited and g.black not in forfeited]
    missing = [g for g in counted if g.result is None]
    for game in counted:
        if game.result is None:
            continue
        for player in (game.white, game.black):
            lines[player].half += game.half_points(player)
            lines[player].games += 1
    barrage = None
    group = _tied_group(active, where) if where and not missing else []
    if group:
        keys = {line.player.key for line in group}
        typed = [g for g in barrage_games if {g.white, g.black} <= keys]
        written = {frozenset((g.white, g.black)) for g in typed}
        pairs = barrage_pairs([line.player for line in group])
        barrage = Barrage(sorted((line.player for line in group), key=lambda p: p.order), typed,
                          [pair for pair in pairs if frozenset((pair[0].key, pair[1].key)) not in written])
        if barrage.to_add:
            barrage.state = NO_BARRAGE if barrage_phase_begun else TO_PLAY
        elif barrage.to_type:
            barrage.state = PLAYING
    tied = {line.player.key for line in group}

    def in_barrage(items: Sequence[Line], *states: str) -> bool:
        """The group is the barrage's tied players, and the barrage is in one of these states."""
        return barrage is not None and barrage.state in states and {line.player.key for line in items} == tied

    def barrage_points(line: Line, items: Sequence[Line]) -> int:
        return -barrage.half_points(line.player.key, [item.player.key for item in items]) if barrage else 0

    chain: list[Criterion[Line]] = [
        by(POINTS, lambda line: -line.half),
        Criterion(BARRAGE, barrage_points, applies=lambda items, position: in_barrage(items, DECIDED)),
        Criterion(REGISTRATION, lambda line, items: line.player.order,
                  applies=lambda items, position: not in_barrage(items, TO_PLAY, PLAYING)),
    ]
    ordered = []
    for placed in rank(active, chain, display=lambda line: line.player.order).placed:
        line = placed.item
        line.place, line.pending, line.decided_by = placed.rank, placed.tied, placed.decided_by
        if barrage is not None and barrage.state == DECIDED and line.player.key in tied:
            line.barrage_half = barrage.half_points(line.player.key, list(tied))
        ordered.append(line)
    for line in sorted((line for line in lines.values() if line.forfeit), key=lambda line: line.player.order):
        line.place = len(ordered) + 1
        line.games = 2 * len(active) if forfeit_games_count else 0  # all lost: no point
        line.status = FORFEIT
        ordered.append(line)
    return ordered, barrage, missing
