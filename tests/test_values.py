"""The cell readers of reportgen/ingest/values.py."""

import pytest

from reportgen.ingest.values import WHOLE_NUMBER_FIX, BadValue, whole_number_between

MESSAGE, FIX = "« {typed} » : {number} hors de {low}..{high}", "entre {low} et {high}"


@pytest.mark.parametrize("value, number", [(0, 0), ("0", 0), (56, 56), (" 56 ", 56), ("12,0", 12), (12.0, 12)])
def test_a_whole_number_on_or_within_its_bounds_is_read(value, number):
    assert whole_number_between(value, 0, 56, MESSAGE, FIX) == number


@pytest.mark.parametrize("value, message, fix", [
    (-1, "« -1 » : -1 hors de 0..56", "entre 0 et 56"),
    ("57", "« 57 » : 57 hors de 0..56", "entre 0 et 56"),
    ("1 000", "« 1 000 » : 1000 hors de 0..56", "entre 0 et 56"),  # {typed} as typed, {number} as read
])
def test_a_whole_number_out_of_its_bounds_says_the_callers_message_and_fix(value, message, fix):
    with pytest.raises(BadValue) as refused:
        whole_number_between(value, 0, 56, MESSAGE, FIX)
    assert (refused.value.message, refused.value.fix) == (message, fix)


def test_a_missing_bound_leaves_that_side_open():
    assert whole_number_between(10**9, 0, None, MESSAGE, FIX) == 10**9
    assert whole_number_between(-(10**9), None, 0, MESSAGE, FIX) == -(10**9)
    with pytest.raises(BadValue, match="hors de 1..None"):
        whole_number_between(0, 1, None, MESSAGE, FIX)


@pytest.mark.parametrize("value", ["douze", "1,5", 1.5, True])
def test_what_is_no_whole_number_is_refused_with_the_fix_given_or_the_common_one(value):
    with pytest.raises(BadValue) as refused:
        whole_number_between(value, 0, 56, MESSAGE, FIX)
    assert refused.value.message.endswith("n’est pas un nombre entier") and refused.value.fix == WHOLE_NUMBER_FIX
    with pytest.raises(BadValue) as refused:
        whole_number_between(value, 0, 56, MESSAGE, FIX, not_whole="écrivez le numéro du tour")
    assert refused.value.fix == "écrivez le numéro du tour"
