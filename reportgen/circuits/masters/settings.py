"""Masters settings: every reading of a gap in the regulation is one, defaults from INTERPRETATIONS.md."""

from __future__ import annotations

from dataclasses import dataclass

from reportgen.config import setting


@dataclass(frozen=True)
class MastersSettings:
    # §1: "Chaque match se déroule en 12 coups": no score or tops count can exceed it, and a draw
    # "à top-top" is one where both players made a top on every coup.
    coups: int = setting(12, minimum=1)
    # §1: a win 2 points, a draw 1, a loss 0; a top-top draw 2 each. No result takes points away.
    win: int = setting(2, minimum=0)
    draw: int = setting(1, minimum=0)
    top_top_draw: int = setting(2, minimum=0)
    # §1, "résultat du match particulier": INTERPRETATIONS reads it for three or more tied players as
    # the points each made against the others of the group. When that splits the group without
    # deciding everyone, the head-to-head is applied again to each smaller group still tied.
    head_to_head_again_on_smaller_groups: bool = True
    # §1 (« Les 16 premiers joueurs du classement annuel ») is silent on a tie across the 16th place.
    # INTERPRETATIONS.md, masters, « Qualification with a tie at the 16th place »: after the ranking's
    # own tie-breaks (« Règlement Classement Masters » §1: fewer tournaments, then the best result),
    # countback: the better second result, then third… False sends any such tie straight to the
    # play-off the secretary records in `Désistements`.
    qualification_countback: bool = True
