"""The pairs of names found in each group (the league, each club) kept for the next build
(ingest/known_pairs.py): the same warnings with or without them, a group taken only as it was,
and a file edited by hand never making a warning up."""

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reportgen.ingest import duplicates
from reportgen.ingest.duplicates import probable_duplicates
from reportgen.ingest.known_pairs import PAIRS, KnownPairs
from reportgen.ingest.read_cache import FOLDER
from tests.test_duplicates_index import ROW, league_table

LEAGUE = [("MARTIN", "Jean", "Nîmes", 0, ""), ("MARTIN", "Jeanne", "Nîmes", 1, ""),
          ("MATIN", "Paul", "Alès", 0, ""), ("MARTIN", "Paul", "Alès", 1, ""),
          ("DURAND", "Léa", "Uzès", 0, ""), ("DURANT", "Lea", "Uzès", 2, "")]


def searched(monkeypatch) -> list[int]:
    """The size of each group `_sharing_a_variant` searches from now on."""
    sizes: list[int] = []
    search = duplicates._sharing_a_variant
    monkeypatch.setattr(duplicates, "_sharing_a_variant", lambda folded, pids, *rest: (
        sizes.append(len(list(pids))), search(folded, pids, *rest))[1])
    return sizes


def test_a_build_takes_the_pairs_of_the_groups_it_finds_as_they_were(tmp_path, monkeypatch):
    table = league_table(LEAGUE)
    expected = probable_duplicates(table)
    assert len(expected) == 3
    first = KnownPairs(tmp_path, "code")
    assert probable_duplicates(table, known=first) == expected
    first.save()
    sizes = searched(monkeypatch)
    again = KnownPairs(tmp_path, "code")
    assert probable_duplicates(table, known=again) == expected and sizes == []
    # One club's players changed (a new one in Alès): that club alone, and the league's group, searched again
    table = league_table(LEAGUE + [("MARTEL", "Paul", "Alès", 3, "")])
    found = probable_duplicates(table, known=again)
    assert sizes == [7, 3]
    assert found == probable_duplicates(table)
    # another code finds them all again
    sizes.clear()
    probable_duplicates(table, known=KnownPairs(tmp_path, "other code"))
    assert len(sizes) == 4  # the league's group and three clubs


def test_the_file_keeps_only_the_groups_of_the_last_build(tmp_path):
    known = KnownPairs(tmp_path, "code")
    probable_duplicates(league_table(LEAGUE), known=known)
    known.save()
    groups = json.loads((tmp_path / FOLDER / PAIRS).read_text(encoding="utf-8"))["groups"]
    assert len(groups) == 4  # the league, Nîmes, Alès, Uzès
    known = KnownPairs(tmp_path, "code")
    probable_duplicates(league_table(LEAGUE[:4]), known=known)  # Uzès's players gone
    known.save()
    assert len(json.loads((tmp_path / FOLDER / PAIRS).read_text(encoding="utf-8"))["groups"]) == 3


@pytest.mark.parametrize("edit", ["drop", "invent", "foreign", "garbage"])
def test_a_file_edited_by_hand_hides_a_pair_at_most_and_never_makes_one_up(tmp_path, edit):
    table = league_table(LEAGUE)
    expected = probable_duplicates(table)
    known = KnownPairs(tmp_path, "code")
    probable_duplicates(table, known=known)
    known.save()
    path = tmp_path / FOLDER / PAIRS
    data = json.loads(path.read_text(encoding="utf-8"))
    everyone = sorted(set(table["player_id"]))
    # "invent": every two players, kept for the league's group (a club's names none of the pairs of
    # other clubs' players): each candidate is measured before it is said
    edited = {"drop": [], "invent": [[a, b] for i, a in enumerate(everyone) for b in everyone[i + 1:]],
              "foreign": [["nobody", "at all"]], "garbage": [[1, 2], "x"]}[edit]
    data["groups"] = {key: edited for key in data["groups"]}
    path.write_text(json.dumps(data), encoding="utf-8")
    found = probable_duplicates(table, known=KnownPairs(tmp_path, "code"))
    if edit == "drop":
        assert set(found) < set(expected)
    else:
        assert found == expected


def test_a_damaged_file_is_searched_again(tmp_path):
    (tmp_path / FOLDER).mkdir()
    (tmp_path / FOLDER / PAIRS).write_bytes(b"{not json")
    table = league_table(LEAGUE)
    assert probable_duplicates(table, known=KnownPairs(tmp_path, "code")) == probable_duplicates(table)


@settings(max_examples=40, deadline=None)
@given(st.lists(ROW, max_size=30), st.lists(ROW, max_size=30))
def test_the_warnings_with_the_pairs_of_an_earlier_league_are_those_found_anew(tmp_path_factory, earlier, rows):
    folder = tmp_path_factory.mktemp("pairs")
    known = KnownPairs(folder, "code")
    probable_duplicates(league_table(earlier), known=known)
    known.save()
    table = league_table(earlier + rows)
    assert probable_duplicates(table, known=KnownPairs(folder, "code")) == probable_duplicates(table)
