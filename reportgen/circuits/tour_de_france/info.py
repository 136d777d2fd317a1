"""What the Tour de France is, for the registry (light: no import of its implementation)."""

from reportgen.circuits.circuit_info import SCORED, CircuitInfo

INFO = CircuitInfo(
    "tour-de-france", "Tour de France de Diplomatie", "004_6b38a01f19fef100.txt", "Le Tour de France", SCORED,
    package=__name__.rpartition(".")[0], fields=(("participants", ("Participants", "Nombre de participants")),),
    sheets=("Résultats",), templates=("tour-de-france/bulletin.html.j2",), template=True, mail_figure="points",
    final_when_closed=True)  # « le meilleur total à la fin de l’année »: every tournament of the year counts
