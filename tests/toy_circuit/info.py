"""What the toy circuit is, for the registry."""

from pathlib import Path

from reportgen.circuits.circuit_info import SCORED, CircuitInfo

INFO = CircuitInfo(
    "quilles", "Challenge de quilles", "", "Règlement du challenge de quilles (jeu d'essai)", SCORED,
    package=__name__.rpartition(".")[0], fields=(("allees", ("Allées", "Nombre d'allées")),), sheets=("Quilles",),
    templates=("quilles/bulletin.html.j2",), template_folder=str(Path(__file__).parent / "templates"),
    needs_clubs=True, mail_ranking="season", mail_figure="points")
