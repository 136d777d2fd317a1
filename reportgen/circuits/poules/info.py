"""What the pool tournaments are, for the registry (light: no import of their implementation)."""

from reportgen.circuits.circuit_info import SCORED, CircuitInfo

INFO = CircuitInfo(
    "poules", "Tournoi en ligne par poules", "001_bd00e4ad95b2e633.txt", "Règlement du tournoi en ligne par poules",
    SCORED, package=__name__.rpartition(".")[0], templates=("poules/bulletin.html.j2",), commands=True,
    event_rankings=True, played_over_weeks=True, mail_figure="points")
