"""The design's rules that code review alone would let slip: layers, the registry, the renderers."""

import ast
import dataclasses
import subprocess
import sys
from pathlib import Path

import pytest

from reportgen import circuits

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "reportgen"
MODULES = sorted(p for p in PACKAGE.rglob("*.py"))

# docs/architecture.md, "Layers": a module imports from its own part or from a lower layer, never
# from a sibling part of its layer nor from above.
LAYERS = [
    {"model": ["reportgen", "reportgen.model", "reportgen.problems", "reportgen.french"]},
    {"ingest": ["reportgen.ingest"], "scoring": ["reportgen.scoring"], "config": ["reportgen.config"]},
    {"circuits": ["reportgen.circuits"], "render": ["reportgen.render"]},
    {"pipeline": ["reportgen.pipeline"]},
    {"delivery": ["reportgen.delivery"]},
    {"cli": ["reportgen.cli", "reportgen.cli_support", "reportgen.commands", "reportgen.__main__"]},
]
RENDERERS = {"openpyxl", "jinja2", "weasyprint", "xlsxwriter"}


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def part_of(name: str) -> tuple[int, str]:
    """(layer, part) of a module: the longest prefix listed."""
    best = (-1, "", "")
    for level, parts in enumerate(LAYERS):
        for part, prefixes in parts.items():
            for prefix in prefixes:
                if (name == prefix or name.startswith(prefix + ".")) and len(prefix) > len(best[2]):
                    best = (level, part, prefix)
    assert best[0] >= 0, f"{name} belongs to no layer: add it to LAYERS and docs/architecture.md"
    return best[0], best[1]


def imports(path: Path) -> set[str]:
    """Every module a file imports (at module level or inside functions: both are dependencies)."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
            names |= {f"{node.module}.{alias.name}" for alias in node.names}
    return names


def is_module(name: str) -> bool:
    return (ROOT / Path(*name.split("."))).with_suffix(".py").exists() or (ROOT / Path(*name.split("."))).is_dir()


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_every_module_imports_only_its_own_part_or_lower_layers(path):
    mine = part_of(module_name(path))
    wrong = []
    for name in sorted(imports(path)):
        if not name.startswith("reportgen") or not is_module(name):
            continue
        theirs = part_of(name)
        if theirs[0] > mine[0] or (theirs[0] == mine[0] and theirs[1] != mine[1]):
            wrong.append(name)
    assert wrong == [], f"{module_name(path)} ({mine[1]}) must not import {wrong}"


def test_the_model_imports_nothing_of_reportgen():
    assert {name for name in imports(PACKAGE / "model.py") if name.startswith("reportgen")} == set()


@pytest.mark.parametrize("path", [p for p in MODULES if part_of(module_name(p))[1] in ("scoring", "circuits", "ingest")],
                         ids=lambda p: str(p.relative_to(PACKAGE)))
def test_scoring_circuits_and_ingest_never_import_a_renderer(path):
    assert not {name.split(".")[0] for name in imports(path)} & RENDERERS


def loaded_after(statement: str) -> set[str]:
    code = f"import sys; {statement}; print(' '.join(sorted(sys.modules)))"
    return set(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split())


def test_the_renderers_and_the_registry_load_no_circuit_and_no_pandas():
    for statement in ("import reportgen.render.excel", "import reportgen.render.html", "import reportgen.circuits"):
        loaded = loaded_after(statement)
        assert "pandas" not in loaded, statement
        assert not {name for name in loaded if name.startswith("reportgen.circuits.")}, statement


@pytest.mark.parametrize("slug", list(circuits.REGISTRY))
def test_every_registered_circuit_says_what_it_is(slug):
    info = circuits.REGISTRY[slug]
    assert info.slug == slug and info.title and info.status in (circuits.SCORED, circuits.PLANNED)
    assert (ROOT / "docs" / "regulations" / info.regulation).exists() and info.regulation_title
    assert all((ROOT / "templates" / template).is_file() for template in info.templates)
    assert all(required in list(circuits.REGISTRY)[:list(circuits.REGISTRY).index(slug)] for required in info.requires)


@pytest.mark.parametrize("slug", list(circuits.CIRCUITS))
def test_every_scored_circuit_has_frozen_settings_and_is_its_registry_entry(slug):
    circuit = circuits.CIRCUITS[slug]
    assert circuit.info is circuits.REGISTRY[slug]
    settings = circuit.Settings()
    field = dataclasses.fields(settings)[0].name
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(settings, field, None)  # a league changes settings through reportgen.toml only


def test_the_scored_circuits_are_those_the_registry_marks_scored():
    assert list(circuits.CIRCUITS) == [s for s, i in circuits.REGISTRY.items() if i.status == circuits.SCORED]
