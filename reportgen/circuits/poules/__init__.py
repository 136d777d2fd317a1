"""`poules`: online chess tournaments played in rounds of pools (regulation 001_bd00e4ad95b2e633.txt,
read as INTERPRETATIONS.md says). The program runs the tournament: from the registrants and the
results typed so far it replays every round, checks the pools, and publishes a bulletin after each
round, the ranking, an annex and the notices to the players; `reportgen poules next` writes the next
round (commands.py).

Modules, one job each: `domain` (what a workbook holds), `parse` (its cells), `structure` (rounds
and pools for N), `seeding` (seeding and serpentine), `standings` (a pool's standings and barrage),
`tournament` (the rounds replayed: the pools checked, forfeits, cancellation, qualification,
repêchages), `ranking` (the tournament's ranking), `next_round` (the next round as an InputChange),
`notices` (the e-mails of Art. XII), `documents` (bulletins, annex, published ranking), `paths`
(where a tournament's files go), `settings`.
"""
