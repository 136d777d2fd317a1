"""The design's rules that code review alone would let slip."""

import ast
from pathlib import Path

import pytest

from reportgen import circuits
from reportgen.model import Report

PACKAGE = Path(__file__).resolve().parents[1] / "reportgen"
RENDERERS = {"openpyxl", "jinja2", "weasyprint", "xlsxwriter"}


def imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text())
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module.split(".")[0])
    return names


@pytest.mark.parametrize("path", sorted((PACKAGE / "scoring").rglob("*.py")) + sorted((PACKAGE / "circuits").rglob("*.py")),
                         ids=lambda p: str(p.relative_to(PACKAGE)))
def test_scoring_and_circuits_never_import_a_renderer(path):
    assert not imported_modules(path) & RENDERERS


@pytest.mark.parametrize("slug", list(circuits.CIRCUITS))
def test_every_circuit_keeps_the_contract(slug):
    circuit = circuits.CIRCUITS[slug]
    assert circuit.slug == slug and circuit.title and circuit.regulation
    assert (PACKAGE.parent / "docs" / "regulations" / circuit.regulation.split(",")[0]).exists()
    settings = circuit.Settings()
    with pytest.raises(Exception):
        settings.__setattr__("x", 1)  # frozen: a league changes settings through reportgen.toml
    assert (PACKAGE.parent / "templates" / slug).is_dir()
    assert callable(circuit.parse) and callable(circuit.score)
    assert circuit.score.__annotations__.get("return") in (Report, "Report")
