"""`masters`: the end-of-season 16-player round robin of the Grand Sud circuit.

Regulation 000_33ab733906bdf5e8.txt, « Règlement Tournoi Masters de fin de saison », read as
INTERPRETATIONS.md says. It needs the final Grand Sud ranking of its season.
"""
