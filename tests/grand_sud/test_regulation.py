"""Regulation 000 (« Règlement Classement Masters »), §2: the points tables and their examples."""

from pathlib import Path

import pytest

from reportgen.circuits.grand_sud import tables

REGULATION = Path(__file__).resolve().parents[2] / "docs" / "regulations" / "000_33ab733906bdf5e8.txt"


def table_from_text(start: str, end: str) -> list[list[int]]:
    """The table as the regulation prints it: the place on a line, then 17 lines `| value |`."""
    text = REGULATION.read_text(encoding="utf-8")
    lines = [line.strip() for line in text[text.index(start):text.index(end)].splitlines()]
    cursor = lines.index("16 |") + 1  # the last seed-count header
    rows = []
    while len(rows) < 32:
        assert int(lines[cursor]) == len(rows) + 1
        rows.append([int(lines[cursor + 1 + k].strip("| ")) for k in range(17)])
        cursor += 18
    return rows


def test_section_2_1_example_duplicate_9_seeds_14th_gets_65():
    assert tables.duplicate_points(14, 9) == 65


def test_section_2_1_example_final_9_seeds_14th_gets_290():
    assert tables.final_points(14, 9) == 290


def test_section_2_1_duplicate_table_every_cell_matches_the_text():
    expected = table_from_text("Place Duplicate |", "Exemple : Avec 9 tête de série, le joueur classé 14ème au duplicate")
    assert [list(row) for row in tables.DUPLICATE] == expected


def test_section_2_1_final_table_every_cell_matches_the_text():
    expected = table_from_text("Place Finale |", "Exemple : Avec 9 tête de série, le joueur classé 14ème au final")
    assert [list(row) for row in tables.FINAL] == expected


def final_formula(place: int) -> int:
    bases = {1: 480, 2: 400, 3: 320, 4: 300, 5: 240, 6: 225, 7: 210, 8: 195, 9: 160}
    if place in bases:
        return bases[place]
    return 150 - 10 * (place - 10) if place <= 17 else 75 - 5 * (place - 18)


@pytest.mark.parametrize("place", range(1, 33))
@pytest.mark.parametrize("seeds", range(17))
def test_section_2_1_tables_follow_their_formula(place, seeds):
    # INTERPRETATIONS: duplicate = max(0, 45 + 10·s − 5·p), final = base(p) + 20·s — a cross-check.
    assert tables.duplicate_points(place, seeds) == max(0, 45 + 10 * seeds - 5 * place)
    assert tables.final_points(place, seeds) == final_formula(place) + 20 * seeds


@pytest.mark.parametrize("place", [33, 40, 70])
def test_section_2_only_the_first_32_score(place):
    assert tables.duplicate_points(place, 16) == 0
    assert tables.final_points(place, 16) == 0
