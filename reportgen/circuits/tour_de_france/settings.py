"""Tour de France settings: every reading of a gap in the regulation is one, defaults from
INTERPRETATIONS.md (regulation 004_6b38a01f19fef100.txt)."""

from __future__ import annotations

from dataclasses import dataclass

from reportgen import french
from reportgen.config import setting


def _increasing_sizes(anchors: tuple[tuple[int, int], ...]) -> str | None:
    sizes = [size for size, _ in anchors]
    if any(later <= earlier for earlier, later in zip(sizes, sizes[1:])):
        return "les nombres de participants [participants, valeur] doivent aller en croissant, sans doublon"
    return None


def _row_k_has_k_factors(rows: tuple[tuple[float, ...], ...]) -> str | None:
    for count, row in enumerate(rows, 1):
        if len(row) != count:
            return f"la ligne {count} (pour {french.plural(count, 'résultat')}) doit avoir {french.plural(count, 'coefficient')}, elle en a {len(row)}"
    return None


@dataclass(frozen=True)
class TourDeFranceSettings:
    # Printed at the top of the bulletins: the circuit is not the league's own.
    publisher: str = setting("Circuit francophone de Diplomatie", min_length=1)
    # « Comment sont marqués les points ? » 1): the tournament value by physical participants,
    # linear between these anchors (no threshold effect), rounded to the unit. (participants, value)
    # pairs, participants increasing; neither can be negative.
    value_anchors: tuple[tuple[int, int], ...] = setting(((7, 700), (14, 1000), (21, 1200), (35, 1400), (56, 1600),
                                                          (84, 1800)), minimum=0, min_length=1,
                                                         check=_increasing_sizes)
    # "moins de 7 participants : le tournoi ne comptera pas". At least the first anchor's
    # participants (conflicts()): below it the value is not defined.
    min_participants: int = setting(7, minimum=1)
    # "1 pt est ajouté par joueur en excès de 84"
    points_per_extra_player: int = setting(1, minimum=0)
    # 2): second = 80 % of first, third = 80 % of second, first of the first quarter = 80 % of third.
    # A share: from 0 to 100 %, a place never earns more than the one before.
    ratio: float = setting(0.8, minimum=0, maximum=1)
    # "Le premier joueur du deuxième quart marque 300 points."
    second_quarter_points: int = setting(300, minimum=0)
    # "les tournois en deçà de 12 joueurs sont traités de manière particulière": the text says not
    # how; INTERPRETATIONS: the standard scale applies and the bulletin marks them.
    small_tournament_below: int = setting(12, minimum=0)  # 0: no tournament is marked
    # « Comment les points des différentes étapes s'additionnent-ils ? »: the table is missing from
    # the text. Row k is the factors of a player's k results, best first; INTERPRETATIONS reads the two
    # examples (360, 140, 30 -> 515; 360, 190, 140, 30 -> 705) as "with three results or more, the
    # worst counts 50 %". Beyond the table's last row: 100 % for all but the worst, which takes the
    # last row's last factor. Factors are shares, 0 to 100 %; row k has k factors.
    multipliers: tuple[tuple[float, ...], ...] = setting(((1.0,), (1.0, 1.0), (1.0, 1.0, 0.5), (1.0, 1.0, 1.0, 0.5)),
                                                         minimum=0, maximum=1, min_length=1,
                                                         check=_row_k_has_k_factors)

    # issue 27: a PDF bulletin prints at most this many rows of its ranking, then one line saying
    # where the whole ranking is (CSV, the HTML page, the annex): a federation's ranking of thousands
    # of players is hundreds of pages. 300 prints any regional league whole.
    bulletin_rows: int = setting(300, minimum=1)

    def conflicts(self) -> list[tuple[tuple[str, ...], str, str]]:
        """Settings right one by one but not together, for reportgen.toml: (keys, message, fix)."""
        first = self.value_anchors[0][0]
        if self.min_participants < first:
            return [(("min_participants", "value_anchors"),
                     f"un tournoi compte dès {self.min_participants} participants (min_participants) mais le "
                     f"barème (value_anchors) ne commence qu’à {first} participants",
                     f"écrivez min_participants = {first} ou plus, ou commencez value_anchors à "
                     f"{self.min_participants} participants")]
        return []

    def factors(self, count: int) -> tuple[float, ...]:
        if count == 0:
            return ()
        if count <= len(self.multipliers):
            return self.multipliers[count - 1]
        return (1.0,) * (count - 1) + (self.multipliers[-1][-1],)
