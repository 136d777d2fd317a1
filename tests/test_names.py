"""Who a name is (INTERPRETATIONS.md, « who is who »): Nom and Prénom are ordered facts, a name in one
cell is read as typed, and word order is set aside only to match a closed list when one entry has
those words."""

from hypothesis import given
from hypothesis import strategies as st

from reportgen.circuits.masters.parse import MatchRow
from reportgen.circuits.masters.results import check, find
from reportgen.circuits.masters.settings import MastersSettings
from reportgen.circuits.masters.standings import Participant
from reportgen.ingest.text import (
    ClosedList,
    format_name,
    name_key,
    split_full_name,
    strip_accents,
    surname_and_first,
    words_key,
)
from reportgen.model import SourceRef

LETTERS = "abcdefghijklmnopqrstuvwxyzàâçéèêëîïôùûüÿ"  # letters whose capital is one letter
word = st.text(alphabet=LETTERS, min_size=2, max_size=8)
words = st.lists(word, min_size=1, max_size=3).map(" ".join)


def test_swapped_nom_and_prenom_are_two_keys():
    assert name_key("PHILIPPE", "Daniel") != name_key("DANIEL", "Philippe")
    assert name_key("MICHEL Bernard") != name_key("BERNARD Michel")


def test_a_name_in_one_cell_is_read_as_typed_with_the_surname_in_capitals():
    assert name_key("Jean DUPONT") == name_key("DUPONT Jean") == name_key("Dupont, Jean") == name_key("DUPONT", "Jean")
    assert name_key("Jean-François LE GALL") == name_key("LE GALL", "Jean-François")
    assert name_key("Jean Dupont") == name_key("JEAN", "Dupont")  # no capitals: the first word is the surname
    assert split_full_name("Dupont J.-P.") == ("Dupont", "J.-P.")  # initials are no surname in capitals
    assert split_full_name("DUPONT Marc JEAN") == ("DUPONT", "Marc JEAN")  # NOM Prénom reads back as printed


@given(word, word)
def test_two_words_give_one_key_in_either_order_only_when_they_are_one_word(a, b):
    assert (name_key(a, b) == name_key(b, a)) == (name_key(a) == name_key(b))
    assert words_key(name_key(a, b)) == words_key(name_key(b, a))


@given(words, words, st.lists(st.sampled_from(["upper", "lower", "title", "plain", "spaces"]), min_size=1))
def test_a_key_ignores_case_accents_and_extra_spaces(last, first, changes):
    def changed(text: str) -> str:
        for change in changes:
            text = {"upper": str.upper, "lower": str.lower, "title": str.title, "plain": strip_accents,
                    "spaces": lambda t: f"  {t.replace(' ', '   ')} "}[change](text)
        return text

    assert name_key(changed(last), changed(first)) == name_key(last, first)


@given(words, words)
def test_a_printed_name_reads_back_as_its_nom_and_prenom(last, first):
    assert name_key(format_name(last, first)) == name_key(last, first)
    assert name_key(f"{first.title()} {last.upper()}") == name_key(last, first)  # Prénom NOM


def test_a_closed_list_matches_another_word_order_only_when_one_entry_has_those_words():
    listed = ClosedList([name_key("MOREAU", "Lucie"), name_key("MARTIN", "Jean Paul"), name_key("PAUL", "Jean Martin")])
    assert listed.find(name_key("lucie moreau")) == name_key("MOREAU", "Lucie")
    assert listed.find(name_key("MARTIN Jean Paul")) == name_key("MARTIN", "Jean Paul")  # its own key first
    assert listed.find(name_key("jean paul martin")) is None  # two entries with those words: neither
    assert sorted(listed.designated(name_key("jean paul martin"))) == sorted(
        [name_key("MARTIN", "Jean Paul"), name_key("PAUL", "Jean Martin")])
    assert listed.designated(name_key("DURAND Anne")) == []


def test_two_participants_with_swapped_names_are_each_found_and_a_third_order_is_refused():
    participants = [Participant(1, "N:a", "PHILIPPE Daniel", "", "", 1), Participant(2, "N:b", "DANIEL Philippe", "", "", 2),
                    Participant(3, "N:c", "MOREAU Lucie", "", "", 3)]
    assert find(participants, "Daniel PHILIPPE").number == 1 and find(participants, "DANIEL Philippe").number == 2
    assert find(participants, "Lucie Moreau").number == 3  # the only participant with those words
    cells = {key: SourceRef("m.xlsx", "Matchs", cell) for key, cell in (("round", "A2"), ("table", "B2"),
                                                                        ("player_a", "C2"), ("player_b", "D2"))}
    row = MatchRow(1, 1, "daniel philippe x", "MOREAU Lucie", None, None, 0, 0, cells["round"], cells)
    participants.append(Participant(4, "N:d", "PHILIPPE Daniel X", "", "", 4))
    participants.append(Participant(5, "N:e", "X Daniel Philippe", "", "", 5))
    _, problems = check([row], participants, MastersSettings())
    assert [str(p) for p in problems] == [
        "m.xlsx, feuille « Matchs », cellule C2 : « daniel philippe x » peut désigner « PHILIPPE Daniel X » ou « X Daniel Philippe » "
        "(participants du Masters) — écrivez le nom comme dans la liste des participants"]


def test_a_printed_name_is_cut_where_its_first_name_starts_its_words_as_they_are():
    assert surname_and_first("VAN DEN BERGHE Jean-Baptiste") == ("VAN DEN BERGHE", "Jean-Baptiste")
    assert surname_and_first("DUPONT  Jean Marc") == ("DUPONT", " Jean Marc")  # two spaces: kept
    # nothing tells where a first name would start: the name whole
    assert surname_and_first("DA SILVA") == ("DA SILVA", "")
    assert surname_and_first("Jean DUPONT") == ("Jean DUPONT", "")
    assert surname_and_first("J.-P. DUPONT") == ("J.-P. DUPONT", "")
