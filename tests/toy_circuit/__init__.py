"""`quilles`: a toy sixth circuit, the proof that a circuit is its folder (issue 23).

Everything it is lives here: `info.py` (what it is), `parse.py` (its workbook: `Tournoi` and
`Quilles`), `circuit.py` (points by place, 10-8-6-5-4-3-2-1, summed over the season), `documents.py`
(bulletin, ranking, annex) and `templates/quilles/`. test_toy_circuit.py, here, registers it, writes
a small league of it and runs the real commands on it; nothing outside this folder names it.
"""
