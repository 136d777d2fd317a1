"""Points by place of a Tour de France tournament (regulation 004, « Comment sont marqués les
points ? »), read as INTERPRETATIONS.md says. Pure arithmetic on integers."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

from reportgen.circuits.tour_de_france.settings import TourDeFranceSettings


def _round(value: Fraction | float) -> int:
    """Half away from zero, as people round (Python's round() goes to even)."""
    value = Fraction(value)
    return int(value + Fraction(1, 2)) if value >= 0 else -int(-value + Fraction(1, 2))


def tournament_value(participants: int, settings: TourDeFranceSettings) -> int | None:
    """The winner's points from the physical participants; None under the minimum (no count).

    19 players -> 1143 (1000 + 200 x 5/7), 100 players -> 1816 (1800 + 16)."""
    if participants < settings.min_participants:
        return None
    anchors = settings.value_anchors
    last_size, last_value = anchors[-1]
    if participants >= last_size:
        return last_value + (participants - last_size) * settings.points_per_extra_player
    for (low, low_value), (high, high_value) in zip(anchors, anchors[1:]):
        if low <= participants <= high:
            return _round(low_value + Fraction(high_value - low_value) * (participants - low) / (high - low))
    raise ValueError(participants)  # unreachable: below the first anchor returned None


def gaps(total: int, steps: int) -> list[int]:
    """`total` split into `steps` whole gaps, the larger ones first: 300 over 11 -> 28, 28, 28, 27 x 8."""
    base, extra = divmod(total, steps)
    return [base + 1] * extra + [base] * (steps - extra)


def _line(start: int, steps: int, end: int) -> list[int]:
    """start, then `steps` values down to `end` (included), consecutive gaps rounded larger first."""
    values = [start]
    for gap in gaps(start - end, steps):
        values.append(values[-1] - gap)
    return values


def first_quarter_size(ranked: int) -> int:
    """The players after the third, in four quarters differing by at most one, the first among
    the smallest: its size is the integer part of a quarter."""
    return max(ranked - 3, 0) // 4


def place_points(value: int, ranked: int, settings: TourDeFranceSettings) -> list[int]:
    """Points of places 1..ranked (index 0 is the winner).

    17 players, value 1086: 1086, 869, 695, 556, 470, 385, 300, 272, ..., 27."""
    top = [value]
    while len(top) < min(3, ranked):
        top.append(_round(Fraction(top[-1]) * Fraction(settings.ratio).limit_denominator()))
    if ranked <= 3:
        return top
    quarter = first_quarter_size(ranked)
    second_quarter_place = 3 + quarter + 1
    rest = []
    if quarter:
        start = _round(Fraction(top[-1]) * Fraction(settings.ratio).limit_denominator())
        rest = _line(start, quarter, settings.second_quarter_points)[:-1]
    # From the first of the second quarter down to a virtual (ranked + 1)th with 0 points.
    steps = ranked + 1 - second_quarter_place
    rest += _line(settings.second_quarter_points, steps, 0)[:-1]
    return top + rest


def shared(points: list[int], places: list[int]) -> list[Fraction]:
    """Ex aequo share the points of the places they cover: places 3, 3 get (3rd + 4th) / 2 each.

    `places` are the players' places (1-based, ex aequo repeated, as 1, 2, 3, 3, 5). Linear in the
    number of players: counts and prefix sums, never a count or a sum per player."""
    tied = Counter(places)
    before = [0]  # before[i]: the points of places 1..i together
    for value in points:
        before.append(before[-1] + value)
    last = len(points)
    shares = {place: Fraction(before[min(place - 1 + count, last)] - before[min(place - 1, last)], count)
              for place, count in tied.items()}  # the points of places `place` to `place + count - 1`
    return [shares[place] for place in places]
