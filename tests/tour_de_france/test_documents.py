"""The Tour de France bulletins' texts: points printed as the regulation's examples write them,
whatever kind of number holds them (documents.py keeps each value's text once it is written), and
titles naming their tournaments as French sentences do."""

from __future__ import annotations

import re
from fractions import Fraction

from reportgen.circuits.tour_de_france.documents import points_text


def test_points_print_the_same_whatever_number_holds_them_and_in_any_order():
    values = [Fraction(585, 2), 292.5, Fraction(550, 3), 360, Fraction(360), 360.0, Fraction(9293, 4), Fraction(0)]
    expected = ["292,5", "292,5", "183,33", "360", "360", "360", "2\u202f323,25", "0"]
    assert [points_text(value) for value in values] == expected
    assert [points_text(value) for value in reversed(values)] == list(reversed(expected))


def test_a_bulletin_s_title_names_its_tournaments_after_their_article(example_scored):
    """« Classement après Ier tournoi du Dauphiné » is French with its article (french.the), as the
    Grand Sud's « Classement après le tournoi d'Albi du … »."""
    titles = {d.title for d in example_scored.reports["tour-de-france"].documents}
    assert {"Classement après le Ier tournoi du Dauphiné (19 mars 2005)",
            "Classement après le Championnat d'Europe (10 juin 2005)"} <= titles
    assert any(title.startswith("Classement après le tournoi de Reims (") for title in titles)
    assert not [title for title in titles if re.match(r"Classement après [A-Z]", title)
                and not title.startswith(("Classement après DipLyon", "Classement après DiploNam", "Classement après Anjou",
                                          "Classement après Joutes"))]
