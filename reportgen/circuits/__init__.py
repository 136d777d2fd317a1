"""The registry of circuits: listed explicitly, checked at import."""

from __future__ import annotations

from reportgen.circuits.base import Circuit
from reportgen.circuits.grand_sud import GrandSud
from reportgen.circuits.masters import Masters
from reportgen.circuits.tour_de_france import TourDeFrance

CIRCUITS: dict[str, Circuit] = {}

for _circuit in (GrandSud(), Masters(), TourDeFrance()):
    if _circuit.slug in CIRCUITS:
        raise RuntimeError(f"two circuits are named {_circuit.slug}")
    if any(required not in CIRCUITS for required in _circuit.requires):
        raise RuntimeError(f"{_circuit.slug} needs {_circuit.requires}: list them before it")
    CIRCUITS[_circuit.slug] = _circuit


def get(slug: str) -> Circuit | None:
    return CIRCUITS.get(slug)
