"""The registry: the circuits reportgen knows, each as the `CircuitInfo` its folder declares.

A circuit is its folder, `reportgen/circuits/<package>/` (circuit_info.py says what it holds): its
`info.py` says what it is, and nothing outside the folder names it. The built-in circuits are
listed below; another package adds one with `register(info)` (the `reportgen` command registers
those its installed packages declare in the entry-point group `reportgen.circuits`:
`load_plugins`). Importing the registry loads no circuit implementation and no pandas (so
`reportgen --help` answers at once); `CIRCUITS` imports the scored circuits' implementations on
first use.
"""

from __future__ import annotations

import importlib
from functools import cache
from typing import TYPE_CHECKING

from reportgen.circuits.circuit_info import PLANNED, SCORED, CircuitInfo
from reportgen.circuits.grand_sud.info import INFO as GRAND_SUD
from reportgen.circuits.masters.info import INFO as MASTERS
from reportgen.circuits.poules.info import INFO as POULES
from reportgen.circuits.tantrix.info import INFO as TANTRIX
from reportgen.circuits.tour_de_france.info import INFO as TOUR_DE_FRANCE

if TYPE_CHECKING:
    from reportgen.circuits.base import Circuit

    CIRCUITS: dict[str, Circuit]  # provided on first use by __getattr__ below

__all__ = ["BUILT_IN", "PLANNED", "PLUGINS", "REGISTRY", "SCORED", "CircuitInfo", "load_plugins", "register",
           "tournament_fields", "unregister"]

# In registry order: a circuit after those it `requires`. The one place outside its folder that
# names a built-in circuit (tests/test_architecture.py).
BUILT_IN = (GRAND_SUD, MASTERS, TOUR_DE_FRANCE, POULES, TANTRIX)
PLUGINS = "reportgen.circuits"  # the entry-point group of circuits other packages provide (each a CircuitInfo)

REGISTRY: dict[str, CircuitInfo] = {}


def register(info: CircuitInfo) -> None:
    """Add a circuit, after those it requires. Refused (RuntimeError: a programming error, not the
    secretary's) when its name or package is taken, or its `Tournoi` fields clash with the common ones
    or with each other: a label read as two fields would silently be one of them."""
    from reportgen.ingest.common_fields import COMMON_FIELDS
    from reportgen.ingest.text import normalise_label

    if info.slug in REGISTRY or any(other.package == info.package for other in REGISTRY.values()):
        raise RuntimeError(f"a circuit named {info.slug} or in {info.package} is already registered")
    if any(required not in REGISTRY for required in info.requires):
        raise RuntimeError(f"{info.slug} needs {info.requires}: register them before it")
    owner = {normalise_label(label): key for key, labels in COMMON_FIELDS.items() for label in labels}
    clash = len(dict(info.fields)) < len(info.fields) or any(
        key in COMMON_FIELDS or owner.setdefault(normalise_label(label), key) != key
        for key, labels in info.fields for label in labels)
    if clash:
        raise RuntimeError(f"{info.slug}: a `Tournoi` field or label is given twice, or is a common one")
    REGISTRY[info.slug] = info
    _implementations.cache_clear()


def unregister(slug: str) -> None:
    """Remove a circuit that no other registered circuit requires (a plug-in's tests)."""
    if any(slug in other.requires for other in REGISTRY.values()):
        raise RuntimeError(f"{slug} is required by another circuit")
    del REGISTRY[slug]
    _implementations.cache_clear()


def load_plugins() -> None:
    """Register the circuits the installed packages declare (entry points of `PLUGINS`)."""
    from importlib.metadata import entry_points

    for point in entry_points(group=PLUGINS):
        info = point.load()
        if REGISTRY.get(info.slug) is not info:
            register(info)


def tournament_fields(slug: str) -> dict[str, tuple[str, ...]]:
    """The circuit's own `Tournoi` fields (the common ones are ingest's): key -> labels."""
    return dict(REGISTRY[slug].fields)


@cache
def _implementations() -> dict[str, Circuit]:
    found = {}
    for slug, info in REGISTRY.items():
        if info.status == SCORED:
            circuit = importlib.import_module(info.implementation).CIRCUIT
            if circuit.info is not info:
                raise RuntimeError(f"{info.implementation}.CIRCUIT is not the registered {slug}")
            found[slug] = circuit
    return found


def __getattr__(name: str) -> object:
    if name == "CIRCUITS":  # the scored circuits' implementations, in registry order
        return _implementations()
    raise AttributeError(name)


for _info in BUILT_IN:
    register(_info)
