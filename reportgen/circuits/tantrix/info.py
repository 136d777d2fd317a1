"""What the Tantrix circuit is, for the registry (light: no import of its implementation)."""

from reportgen.circuits.circuit_info import SCORED, CircuitInfo

INFO = CircuitInfo(
    "tantrix", "Tantrix", "002_11ac65aff3900169.txt", "Tournois de Tantrix sur Internet — le règlement", SCORED,
    package=__name__.rpartition(".")[0], fields=(("type", ("Type", "Type de tournoi")),),
    templates=("tantrix/bulletin.html.j2", "tantrix/ratings.html.j2"), ratings=True, event_rankings=True)
