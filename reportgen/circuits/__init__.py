"""The registry: the one place that knows each circuit.

For each circuit it says its name, regulation and status, the `Tournoi` fields its workbooks carry
beyond the common ones, the templates it renders, the circuits whose rankings it reads, and the
module of its extra commands. Importing it loads no circuit code (so `reportgen --help` answers at
once); `CIRCUITS` imports the implementations of the scored circuits on first use.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from reportgen.circuits.base import Circuit

    CIRCUITS: dict[str, Circuit]  # provided on first use by __getattr__ below

SCORED = "scored"  # reportgen reads, scores and publishes its workbooks
PLANNED = "planned"  # its workbooks are recognised and set aside with a notice


@dataclass(frozen=True)
class CircuitInfo:
    slug: str  # CLI name, template folder, output folder
    title: str  # printed on bulletins
    regulation: str  # its file in docs/regulations/
    regulation_title: str  # as printed for the secretary
    status: str
    module: str = ""  # the implementation: a module with a `CIRCUIT` object (scored circuits)
    fields: tuple[tuple[str, tuple[str, ...]], ...] = ()  # its `Tournoi` fields: key, the labels a club may write
    templates: tuple[str, ...] = ()  # the templates its documents use
    requires: tuple[str, ...] = ()  # circuits whose rankings it reads (registered before it)
    needs_clubs: bool = False  # its workbooks name clubs: inputs/clubs.xlsx is then required
    commands: str = ""  # module of its extra commands: a typer app `app`, named after the circuit
    template: str = ""  # module whose `blank_workbook(clubs, club, day)` a club fills in (`reportgen template`)


REGISTRY: dict[str, CircuitInfo] = {}

for _info in (
    CircuitInfo(
        "grand-sud", "Classement régional Grand Sud", "000_33ab733906bdf5e8.txt", "Règlement Classement Masters",
        SCORED, "reportgen.circuits.grand_sud",
        fields=(("club", ("Club", "Club organisateur", "Organisateur")), ("serie", ("Série", "Serie")),
                ("formule", ("Formule",))),
        templates=("grand-sud/bulletin.html.j2",), needs_clubs=True, template="reportgen.circuits.grand_sud.template"),
    CircuitInfo(
        "masters", "Masters Grand Sud",
        "000_33ab733906bdf5e8.txt", "Règlement Tournoi Masters de fin de saison", SCORED,
        "reportgen.circuits.masters", fields=(("saison", ("Saison",)),),
        templates=("masters/bulletin.html.j2", "masters/match_sheets.html.j2"), requires=("grand-sud",),
        needs_clubs=True, commands="reportgen.commands.masters"),
    CircuitInfo(
        "tour-de-france", "Tour de France de Diplomatie", "004_6b38a01f19fef100.txt", "Le Tour de France",
        SCORED, "reportgen.circuits.tour_de_france",
        fields=(("participants", ("Participants", "Nombre de participants")),),
        templates=("tour-de-france/bulletin.html.j2",), template="reportgen.circuits.tour_de_france.template"),
    CircuitInfo("poules", "Tournoi en ligne par poules", "001_bd00e4ad95b2e633.txt",
                "Règlement du tournoi en ligne par poules", SCORED, "reportgen.circuits.poules",
                templates=("poules/bulletin.html.j2",), commands="reportgen.commands.poules"),
    CircuitInfo("tantrix", "Tantrix", "002_11ac65aff3900169.txt", "Tournois de Tantrix sur Internet — le règlement",
                SCORED, "reportgen.circuits.tantrix", fields=(("type", ("Type", "Type de tournoi")),),
                templates=("tantrix/bulletin.html.j2", "tantrix/ratings.html.j2")),
):
    if _info.slug in REGISTRY:
        raise RuntimeError(f"two circuits are named {_info.slug}")
    if any(required not in REGISTRY for required in _info.requires):
        raise RuntimeError(f"{_info.slug} needs {_info.requires}: register them before it")
    REGISTRY[_info.slug] = _info


def tournament_fields() -> dict[str, tuple[str, ...]]:
    """Every circuit's own `Tournoi` fields (the common ones are ingest's)."""
    return {key: labels for info in REGISTRY.values() for key, labels in info.fields}


@cache
def _implementations() -> dict[str, Circuit]:
    found = {}
    for slug, info in REGISTRY.items():
        if info.status == SCORED:
            circuit = importlib.import_module(info.module).CIRCUIT
            if circuit.info is not info:
                raise RuntimeError(f"{info.module}.CIRCUIT is not the registered {slug}")
            found[slug] = circuit
    return found


def __getattr__(name: str) -> object:
    if name == "CIRCUITS":  # the scored circuits' implementations, in registry order
        return _implementations()
    raise AttributeError(name)
