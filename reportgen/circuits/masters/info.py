"""What the Masters is, for the registry (light: no import of its implementation)."""

from reportgen.circuits.circuit_info import SCORED, CircuitInfo
from reportgen.model import ScopeKind

INFO = CircuitInfo(
    "masters", "Masters Grand Sud", "000_33ab733906bdf5e8.txt", "Règlement Tournoi Masters de fin de saison", SCORED,
    package=__name__.rpartition(".")[0], fields=(("saison", ("Saison",)),),
    sheets=("Matchs", "Désistements", "Participants"),
    templates=("masters/bulletin.html.j2", "masters/match_sheets.html.j2"), requires=("grand-sud",),
    needs_clubs=True, commands=True, event_rankings=True, mail_ranking=ScopeKind.EVENT, mail_figure="points")
