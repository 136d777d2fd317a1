"""Colours (rule 5) from the `Inscrits` preferences, drawn at random with a seed printed in the
bulletin: the draw is reproduced from the printed seed alone."""

from __future__ import annotations

import random
import re

from reportgen.circuits.tantrix.documents import event_bulletin
from reportgen.circuits.tantrix.seeding import game_colours
from reportgen.circuits.tantrix.settings import TantrixSettings
from reportgen.render import html
from tests.tantrix.test_workbooks import scored, write_event

A, B, C, D = "ANDRÉ Anne", "BLANC Bruno", "COLIN Claire", "DUMAS Denis"
PALETTE = ("rouge", "jaune", "bleu", "vert")


class NoDraw(random.Random):
    def sample(self, *args, **kwargs):  # type: ignore[override]
        raise AssertionError("no draw expected")

    def choice(self, *args, **kwargs):  # type: ignore[override]
        raise AssertionError("no draw expected")


def test_rule_5_first_preferences_when_they_differ():
    pair = game_colours(("rouge", "jaune"), ("bleu", "jaune"), NoDraw(), PALETTE)
    assert (pair.a, pair.b, pair.drawn) == ("rouge", "bleu", False)


def test_rule_5_else_second_preferences():
    pair = game_colours(("rouge", "jaune"), ("rouge", "vert"), NoDraw(), PALETTE)
    assert (pair.a, pair.b, pair.drawn) == ("jaune", "vert", False)


def test_rule_5_same_first_and_second_preferences_one_of_the_two_remaining_colours_each_at_random():
    drawn = {(p.a, p.b) for p in (game_colours(("rouge", "jaune"), ("rouge", "jaune"), random.Random(seed), PALETTE)
                                  for seed in range(40))}
    assert drawn == {("bleu", "vert"), ("vert", "bleu")}


def test_a_player_without_preferences_lets_the_other_have_his_first():
    pair = game_colours(("rouge", "jaune"), (None, None), random.Random(1), PALETTE)
    assert pair.a == "rouge" and pair.b in ("jaune", "bleu", "vert") and pair.drawn


PREFERENCES = {A: ("rouge", "jaune"), B: ("rouge", "jaune"), C: ("bleu", "vert"), D: ("bleu", "vert")}
GAMES = [[1, A, B, 25, 20], [1, C, D, 20, 22], [2, A, C, 30, 20], [2, B, D, 20, 21], [3, A, D, 19, 20],
         [3, B, C, 25, 25]]


def bulletin(tmp_path):
    write_event(tmp_path, "Open", GAMES, registrations=[[name, "", *colours] for name, colours in PREFERENCES.items()])
    result = scored(tmp_path).events[0]
    return html.render(event_bulletin(result, TantrixSettings(), "Ligue")), result


def reproduce(seed: int) -> list[tuple[str, str]]:
    """The draw as docs/tantrix.md describes it (the bulletin points there), written again here: one
    random.Random(seed) for the games in the order of the sheet; first preferences if they differ,
    else second ones, else sample(the remaining colours in the order rouge, jaune, bleu, vert, 2)
    for A then B."""
    rng = random.Random(seed)
    found = []
    for _, a, b, *_ in GAMES:
        (a1, a2), (b1, b2) = PREFERENCES[a], PREFERENCES[b]
        if a1 != b1:
            found.append((a1, b1))
        elif a2 != b2:
            found.append((a2, b2))
        else:
            found.append(tuple(rng.sample([c for c in PALETTE if c not in (a1, a2)], 2)))
    return found


def test_rule_5_the_colours_are_reproduced_from_the_seed_printed_in_the_bulletin(tmp_path):
    page, result = bulletin(tmp_path)
    seed = int(re.search(r"Graine du tirage\u00a0: <strong>(\d+)</strong>", page)[1])
    assert seed == result.draw_seed
    assert [(pair.a, pair.b) for pair in result.colours] == reproduce(seed)
    assert sum(pair.drawn for pair in result.colours) == 2  # A-B and C-D share both preferences
    for a, b in reproduce(seed):
        assert f'class="chip {a}"' in page and f'class="chip {b}"' in page


def test_the_bulletin_tells_a_club_the_seed_in_french_and_who_replays_the_draw(tmp_path):
    page, result = bulletin(tmp_path)
    note = " ".join(re.search(r"Graine du tirage.*?</p>", page, re.S)[0].split())
    # the recipe is docs/tantrix.md's, the secretary's: a club was sent to a documentation it cannot reach
    assert "le secrétariat de la ligue refait le tirage à l’identique" in note and "documentation" not in note
    assert not re.search(r"Python|random|sample|choice", note)  # a club reading it is not a programmer


def test_the_seed_comes_from_the_event_so_the_same_inputs_give_the_same_bytes(tmp_path):
    first, result = bulletin(tmp_path / "one")
    again, _ = bulletin(tmp_path / "two")
    assert first == again
    write_event(tmp_path / "three", "Open d'été", GAMES,
                registrations=[[name, "", *colours] for name, colours in PREFERENCES.items()])
    assert scored(tmp_path / "three").events[0].draw_seed != result.draw_seed


def test_without_inscrits_no_colours_are_given(tmp_path):
    write_event(tmp_path, "Open", GAMES)
    result = scored(tmp_path).events[0]
    assert result.draw_seed is None and result.colours == []
    assert "Pas de feuille Inscrits" in html.render(event_bulletin(result, TantrixSettings(), "Ligue"))


def test_names_are_escaped_in_the_bulletin(tmp_path):
    write_event(tmp_path, "Open <b>", [[1, "<SCRIPT>alert(1)</SCRIPT> Eve", B, 25, 20]])
    page = html.render(event_bulletin(scored(tmp_path).events[0], TantrixSettings(), "Ligue"))
    assert "<SCRIPT>" not in page and "&lt;SCRIPT&gt;" in page and "Open &lt;b&gt;" in page
