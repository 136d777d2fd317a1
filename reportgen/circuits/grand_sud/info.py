"""What the Grand Sud circuit is, for the registry (light: no import of its implementation)."""

from reportgen.circuits.circuit_info import SCORED, CircuitInfo
from reportgen.model import ScopeKind

INFO = CircuitInfo(
    "grand-sud", "Classement régional Grand Sud", "000_33ab733906bdf5e8.txt", "Règlement Classement Masters", SCORED,
    package=__name__.rpartition(".")[0],
    fields=(("club", ("Club", "Club organisateur", "Organisateur")), ("serie", ("Série", "Serie")),
            ("formule", ("Formule",))),
    sheets=("Résultats",), templates=("grand-sud/bulletin.html.j2",), needs_clubs=True,
    previous_season=True,  # §1: a year-N edition replaces N−1's; N's seeds come from N−1's rankings
    final_when_closed=True,  # §1: the final ranking counts the tournaments of year N, all of them
    template=True, mail_ranking=ScopeKind.SEASON, mail_figure="points")
