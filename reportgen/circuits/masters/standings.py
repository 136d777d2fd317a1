"""The Masters standings (« Règlement Tournoi Masters de fin de saison », §1), read as
INTERPRETATIONS.md says.

Order: points, then tops (more), defense = the opponents' scores (less), attack = own scores
(more), then head-to-head within the tied group, then the annual ranking — except for first
place, where a tie that survives head-to-head is a barrage to play, not decided here.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from reportgen.circuits.masters.settings import MastersSettings

# Why a place was decided, as the bulletin prints it next to the place.
TOPS, DEFENSE, ATTACK, HEAD_TO_HEAD, ANNUAL, BARRAGE = (
    "tops", "défense", "attaque", "match particulier", "classement annuel", "barrage")
DECIDED_LABELS = {
    TOPS: "départagé aux tops", DEFENSE: "départagé à la défense", ATTACK: "départagé à l'attaque",
    HEAD_TO_HEAD: "départagé au match particulier", ANNUAL: "départagé au classement annuel",
    BARRAGE: "barrage à jouer",
}


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
    decided_by: list[str] = field(default_factory=list)  # criteria that set his place among equals
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

    def key(line: Line) -> tuple[int, int, int, int]:
        return (-line.points, -line.tops, line.defense, -line.attack)

    ordered: list[Line] = []
    for group in _groups(sorted(lines.values(), key=lambda l: (key(l), l.participant.number)), key):
        ordered.extend(_head_to_head(group, earned, settings, first=final and not ordered))
    _rank(ordered, key)
    return ordered


def _groups(lines: list[Line], key) -> list[list[Line]]:
    groups: list[list[Line]] = []
    for line in lines:
        if groups and key(groups[-1][0]) == key(line):
            groups[-1].append(line)
        else:
            groups.append([line])
    return groups


def _head_to_head(group: list[Line], earned, settings: MastersSettings, first: bool) -> list[Line]:
    """Order a group equal on points, tops, defense and attack."""
    if len(group) == 1:
        return group
    numbers = {line.participant.number for line in group}

    def mini(line: Line) -> int:
        me = line.participant.number
        return sum(earned.get((me, other), 0) for other in numbers - {me})

    subgroups = _groups(sorted(group, key=lambda l: (-mini(l), l.participant.number)), lambda l: -mini(l))
    if len(subgroups) > 1:
        ordered = []
        for index, subgroup in enumerate(subgroups):
            for line in subgroup:
                line.decided_by.append(HEAD_TO_HEAD)
            again = settings.head_to_head_again_on_smaller_groups and len(subgroup) > 1
            ordered.extend(_head_to_head(subgroup, earned, settings, first and index == 0) if again
                           else _by_annual_rank(subgroup, first and index == 0))
        return ordered
    return _by_annual_rank(group, first)


def _by_annual_rank(group: list[Line], first: bool) -> list[Line]:
    if len(group) == 1:
        return group
    if first:
        # §1: "sauf en cas d'égalité pour la victoire du tournoi Masters": prepared draws decide.
        for line in group:
            line.barrage = True
            line.decided_by.append(BARRAGE)
        return sorted(group, key=lambda l: l.participant.number)
    for line in group:
        line.decided_by.append(ANNUAL)
    return sorted(group, key=lambda l: (l.participant.annual_rank, l.participant.number))


def _rank(ordered: list[Line], key) -> None:
    """Places 1..16; the barrage group shares first place. Notes the criteria that decided a
    place between players equal on points."""
    for index, line in enumerate(ordered):
        line.rank = 1 if line.barrage else index + 1
        if line.barrage:
            continue
        for neighbour in (ordered[index - 1] if index else None,
                          ordered[index + 1] if index + 1 < len(ordered) else None):
            if neighbour is None or neighbour.points != line.points or neighbour.barrage:
                continue
            criterion = _first_difference(line, neighbour)
            if criterion and criterion not in line.decided_by:
                line.decided_by.insert(0, criterion)


def _first_difference(line: Line, other: Line) -> str | None:
    if line.tops != other.tops:
        return TOPS
    if line.defense != other.defense:
        return DEFENSE
    if line.attack != other.attack:
        return ATTACK
    return None
