"""Tour de France settings: every reading of a gap in the regulation is one, defaults from
INTERPRETATIONS.md (regulation 004_6b38a01f19fef100.txt)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class TourDeFranceSettings:
    # Printed at the top of the bulletins: the circuit is not the league's own.
    publisher: str = "Circuit francophone de Diplomatie"
    # « Comment sont marqués les points ? » 1): the tournament value by physical participants,
    # linear between these anchors (no threshold effect), rounded to the unit.
    value_anchors: tuple[tuple[int, int], ...] = ((7, 700), (14, 1000), (21, 1200), (35, 1400), (56, 1600),
                                                  (84, 1800))
    # "moins de 7 participants : le tournoi ne comptera pas"
    min_participants: int = 7
    # "1 pt est ajouté par joueur en excès de 84"
    points_per_extra_player: int = 1
    # 2): second = 80 % of first, third = 80 % of second, first of the first quarter = 80 % of third.
    ratio: float = 0.8
    # "Le premier joueur du deuxième quart marque 300 points."
    second_quarter_points: int = 300
    # "les tournois en deçà de 12 joueurs sont traités de manière particulière": the text says not
    # how; INTERPRETATIONS: the standard scale applies and the bulletin marks them.
    small_tournament_below: int = 12
    # « Comment les points des différentes étapes s'additionnent-ils ? »: the table is missing from
    # the text. Row k is the factors of a player's k results, best first; INTERPRETATIONS reads the two
    # examples (360, 140, 30 -> 515; 360, 190, 140, 30 -> 705) as "with three results or more, the
    # worst counts 50 %". Beyond the table's last row: 100 % for all but the worst, which takes the
    # last row's last factor.
    multipliers: tuple[tuple[float, ...], ...] = ((1.0,), (1.0, 1.0), (1.0, 1.0, 0.5), (1.0, 1.0, 1.0, 0.5))

    def factors(self, count: int) -> tuple[float, ...]:
        if count == 0:
            return ()
        if count <= len(self.multipliers):
            return self.multipliers[count - 1]
        return (1.0,) * (count - 1) + (self.multipliers[-1][-1],)
