"""The Tour de France bulletins' texts: points printed as the regulation's examples write them,
whatever kind of number holds them (documents.py keeps each value's text once it is written)."""

from __future__ import annotations

from fractions import Fraction

from reportgen.circuits.tour_de_france.documents import points_text


def test_points_print_the_same_whatever_number_holds_them_and_in_any_order():
    values = [Fraction(585, 2), 292.5, Fraction(550, 3), 360, Fraction(360), 360.0, Fraction(9293, 4), Fraction(0)]
    expected = ["292,5", "292,5", "183,33", "360", "360", "360", "2\u202f323,25", "0"]
    assert [points_text(value) for value in values] == expected
    assert [points_text(value) for value in reversed(values)] == list(reversed(expected))
