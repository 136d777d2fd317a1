"""`tantrix`: online Tantrix tournaments, all-play-all weekends and knockouts (regulation
002_11ac65aff3900169.txt, « Tournois de Tantrix sur Internet — le règlement », read as
INTERPRETATIONS.md says), with ratings carried across all the league's Tantrix events.

Modules: `parse` (the workbook), `points` (rule 9, time, defaults, the vanished game), `games`
(an event's games scored, players left out for defaults), `standings` (all-play-all order, rule 10),
`knockout` (matches, bracket, placing, rule 10 a), `ratings` (rule 12), `seeding` (seeding list,
rule 13, and colours, rule 5), `scoring` (events in date order), `documents` (bulletins, annex,
rankings), `settings`.
"""
