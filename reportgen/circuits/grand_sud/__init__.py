"""`grand-sud`: the « Classement régional Grand Sud » of Des Chiffres et des Lettres players.

Regulation 000_33ab733906bdf5e8.txt, « Règlement Classement Masters », part 1, read as
INTERPRETATIONS.md says.
"""
