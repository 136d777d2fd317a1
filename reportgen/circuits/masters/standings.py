"""The Masters standings (« Règlement Tournoi Masters de fin de saison », §1), read as
INTERPRETATIONS.md says.

Order: points, then tops (more), defense = the opponents' scores (less), attack = own scores
(more), then head-to-head within the tied group, then the annual ranking — except for first
place, where a tie that survives head-to-head is a barrage to play, not decided here.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from reportgen.circuits.masters import metrics
from reportgen.circuits.masters.settings import MastersSettings
from reportgen.scoring.tiebreaks import rank

# The chain's steps are named by their metrics' keys: `Line.decided_by` lists them.
POINTS, TOPS, DEFENSE, ATTACK, HEAD_TO_HEAD, ANNUAL, BARRAGE = (metric.key for metric in (
    metrics.POINTS, metrics.TOPS, metrics.DEFENSE, metrics.ATTACK, metrics.HEAD_TO_HEAD, metrics.ANNUAL_RANK,
    metrics.BARRAGE))


@dataclass(frozen=True)
class Participant:
    number: int  # 1..16, the order of §2's schedule
    player_id: str
    name: str
    licence: str
    club: str
    annual_rank: int  # place in the final Grand Sud ranking


@dataclass(frozen=True)
class Match:
    round: int
    table: int
    a: int  # participant numbers
    b: int
    score_a: int
    score_b: int
    tops_a: int
    tops_b: int


@dataclass
class Line:
    participant: Participant
    played: int = 0
    points: int = 0
    tops: int = 0
    defense: int = 0
    attack: int = 0
    rank: int = 0
    decided_by: list[str] = field(default_factory=list)  # the metrics (keys) that set his place among equals
    barrage: bool = False


def match_points(match: Match, settings: MastersSettings) -> tuple[int, int]:
    """§1: win 2, draw 1, loss 0; a draw where both made a top on every coup: 2 each."""
    if match.score_a > match.score_b:
        return settings.win, 0
    if match.score_a < match.score_b:
        return 0, settings.win
    if match.tops_a == match.tops_b == settings.coups:
        return settings.top_top_draw, settings.top_top_draw
    return settings.draw, settings.draw


def standings(participants: list[Participant], matches: list[Match], settings: MastersSettings,
              final: bool = True) -> list[Line]:
    """The order of the participants. A barrage is only for the final standings: in a provisional
    one (before the 15th match), a tie for first goes to the annual ranking like any other."""
    lines = {p.number: Line(p) for p in participants}
    earned: dict[tuple[int, int], int] = {}  # (player, opponent) -> points he made against him
    for match in matches:
        points_a, points_b = match_points(match, settings)
        for me, other, points, score, conceded, tops in (
                (match.a, match.b, points_a, match.score_a, match.score_b, match.tops_a),
                (match.b, match.a, points_b, match.score_b, match.score_a, match.tops_b)):
            line = lines[me]
            line.played += 1
            line.points += points
            line.tops += tops
            line.attack += score
            line.defense += conceded
            earned[me, other] = earned.get((me, other), 0) + points

    numbers = {line.participant.number: line for line in lines.values()}

    def head_to_head(line: Line, group: Sequence[Line]) -> int:
        # INTERPRETATIONS.md: the points each made against the others of the tied group.
        me = line.participant.number
        return -sum(earned.get((me, other.participant.number), 0) for other in group if other is not line)

    chain = [
        metrics.POINTS.by(lambda line: -line.points),
        metrics.TOPS.by(lambda line: -line.tops),
        metrics.DEFENSE.by(lambda line: line.defense),  # fewer coups conceded
        metrics.ATTACK.by(lambda line: -line.attack),
        metrics.HEAD_TO_HEAD.criterion(head_to_head, reapply=settings.head_to_head_again_on_smaller_groups),
        # §1 « sauf en cas d'égalité pour la victoire du tournoi Masters »: in the final standings a
        # tie for first is left to the prepared play-off draws, never to the annual ranking.
        # Participants share an annual rank only if the ranking did; their numbers keep its order.
        metrics.ANNUAL_RANK.criterion(lambda line, group: (line.participant.annual_rank, line.participant.number),
                                      applies=lambda group, position: not (final and position == 0)),
    ]
    ranked = rank(list(numbers.values()), chain, display=lambda line: line.participant.number)
    ordered = []
    for placed in ranked.placed:
        line = placed.item
        line.rank = placed.rank
        line.decided_by = list(placed.decided_by)
        if placed.tied:  # only a tie for first survives the annual ranking: a barrage to play
            line.barrage = True
            line.decided_by.append(BARRAGE)
        ordered.append(line)
    return ordered
