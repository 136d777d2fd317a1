"""What reading now works out once instead of once per cell or per pair gives the answers that
working it out each time gave: header labels (ASCII ones skip the Unicode pass), spaces, dashes and
apostrophes cleaned (translated only when there is one), a club looked up in the directory (an
index of normalised codes and names), the edit distance between two names (only the cells near the
diagonal), the pairs of names a typo or two apart (through the names with letters left out, not by
comparing every pair)."""

import dataclasses
import re
import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from reportgen.ingest.directories import Club, ClubDirectory
from reportgen.ingest.duplicates import MAX_TYPOS, _sharing_a_variant, distance
from reportgen.ingest.text import _APOSTROPHES, _DASHES, clean_spaces, normalise_label, strip_accents


def unicode_label(text: str) -> str:
    """normalise_label through the Unicode path, whatever the text."""
    plain = strip_accents(unicodedata.normalize("NFKC", text)).casefold()
    return " ".join(re.sub(r"[^0-9a-z]+", " ", plain).split())


def test_labels_match_whatever_accents_case_and_punctuation():
    for typed in ("Prénom :", "PRENOM", " prenom", "Pré\u0301nom"):
        assert normalise_label(typed) == "prenom"
    assert normalise_label("N° licence") == normalise_label("N°  LICENCE.") == "n licence"
    assert normalise_label("Clt.") == "clt"
    assert normalise_label("Place\tDUPLICATE") == "place duplicate"
    assert normalise_label(3) == "3"


@given(st.text(alphabet=st.characters(max_codepoint=127)))
def test_an_ascii_label_is_the_one_the_unicode_path_gives(text):
    assert normalise_label(text) == unicode_label(text)


@given(st.text())
def test_any_label_is_the_one_the_unicode_path_gives(text):
    assert normalise_label(text) == unicode_label(text)


def test_dashes_become_plain_and_the_typographic_apostrophe_stays_as_typed():
    assert clean_spaces("  Jean\u2011François  d’Arc\u00a0") == "Jean-François d’Arc"
    assert clean_spaces("LE GALL — ‘Yann`") == "LE GALL - 'Yann'"


@given(st.text(alphabet=st.sampled_from("aé’‘ʼ`´‐‑‒–—− \t\u00a0\u202f-'ﬁＡ½")) | st.text())
def test_spaces_are_cleaned_as_by_translating_every_text(text):
    kept = {ord("’"): "’"}  # the typographic apostrophe, shown as typed
    plain = unicodedata.normalize("NFKC", text).translate({**_APOSTROPHES, **kept}).translate(_DASHES)
    assert clean_spaces(text) == " ".join(plain.split())


def test_a_club_is_found_by_code_or_name_whatever_accents_and_case():
    directory = ClubDirectory([Club("BEZ", "Béziers", "34"), Club("CAR", "Carcassonne", "11")])
    assert directory.find("bez") == directory.find(" BEZIERS ") == directory.find("béziers.") == directory.clubs[0]
    assert directory.find("Carcassonne") == directory.clubs[1]
    assert directory.find("Albi") is None
    assert ClubDirectory().find("Albi") is None


def test_the_first_club_that_has_a_code_or_name_is_the_one_found():
    directory = ClubDirectory([Club("ALB", "Albi", "81"), Club("ALBI", "Albi Échecs", "81")])
    assert directory.find("Albi").code == "ALB"  # the first club's name, before the second one's code


def test_a_directory_cannot_change_under_its_index():
    clubs = [Club("CAR", "Carcassonne", "11")]
    directory = ClubDirectory(clubs)
    clubs.append(Club("ALB", "Albi", "81"))  # the list given is not the directory's
    assert directory.clubs == (Club("CAR", "Carcassonne", "11"),) and directory.find("Albi") is None
    with pytest.raises(dataclasses.FrozenInstanceError):
        directory.clubs = (Club("TLS", "Toulouse", "31"),)  # type: ignore[misc]
    assert ClubDirectory(directory.clubs + (Club("ALB", "Albi", "81"),)).find("ALBI").code == "ALB"


def levenshtein(a: str, b: str) -> int:
    previous = list(range(len(b) + 1))
    for i, char_a in enumerate(a, start=1):
        current = [i]
        for j, char_b in enumerate(b, start=1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (char_a != char_b)))
        previous = current
    return previous[-1]


def test_distance_of_names_a_letter_or_two_apart():
    assert distance("martin", "martin") == 0
    assert distance("dupont", "dupond") == 1
    assert distance("martin", "bertin") == 2
    assert distance("lefevre", "lefebvre") == 1
    assert distance("abc", "xyz") == MAX_TYPOS + 1
    assert distance("", "ab") == 2 and distance("", "abc") == MAX_TYPOS + 1


# Few letters, so that most pairs are close: the cells near the diagonal are the ones that count.
NAMES = st.text(alphabet="abcé ", max_size=9)


@given(NAMES, NAMES, st.integers(min_value=1, max_value=3))
def test_distance_is_exact_up_to_the_limit_and_past_it_says_so(a, b, limit):
    assert distance(a, b, limit) == min(levenshtein(a, b), limit + 1)


@given(st.lists(NAMES, max_size=12), st.integers(min_value=1, max_value=2))
def test_names_a_few_edits_apart_share_a_variant(names, letters):
    """Every pair the duplicate checks would find by comparing each pair is among the candidates."""
    folded = {f"p{n}": name for n, name in enumerate(names)}
    candidates = {frozenset(pair) for pair in _sharing_a_variant(folded, folded, letters)}
    close = {frozenset((a, b)) for a in folded for b in folded
             if a < b and levenshtein(folded[a], folded[b]) <= letters}
    assert close <= candidates
