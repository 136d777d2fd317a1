"""The design's rules that code review alone would let slip: layers, the registry, the renderers."""

import ast
import dataclasses
import importlib
import re
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
    {"circuits": ["reportgen.circuits"], "render": ["reportgen.render", "reportgen.site"]},
    {"pipeline": ["reportgen.pipeline", "reportgen.queries"]},
    {"delivery": ["reportgen.delivery"]},
    {"cli": ["reportgen.cli", "reportgen.cli_support", "reportgen.commands", "reportgen.__main__"]},
]
# A circuit's own commands live in its folder (`circuits/<package>/commands.py`) but are part of the
# command line: they run the pipeline, like `reportgen build`, and nothing of the circuit imports them.
CIRCUIT_COMMANDS = re.compile(r"reportgen\.circuits\.\w+\.commands")
RENDERERS = {"openpyxl", "jinja2", "weasyprint", "xlsxwriter"}


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def part_of(name: str) -> tuple[int, str]:
    """(layer, part) of a module: the longest prefix listed (a circuit's commands: the cli's)."""
    if CIRCUIT_COMMANDS.fullmatch(name):
        return len(LAYERS) - 1, "cli"
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


def test_the_pre_checks_do_not_import_each_other():
    """What both need is precheck_base.py: precheck.py hands the other formats to precheck_formats.py."""
    ingest = PACKAGE / "ingest"
    assert "reportgen.ingest.precheck" not in imports(ingest / "precheck_formats.py")
    assert "reportgen.ingest.precheck" not in imports(ingest / "precheck_base.py")
    assert "reportgen.ingest.precheck_formats" not in imports(ingest / "precheck_base.py")


def test_the_model_imports_nothing_of_reportgen():
    """reportgen/model/ imports nothing of reportgen's but its own modules."""
    for path in (PACKAGE / "model").glob("*.py"):
        found = {name for name in imports(path) if name.startswith("reportgen")}
        assert all(name.startswith("reportgen.model") for name in found), (path.name, found)


@pytest.mark.parametrize("path", [p for p in MODULES if part_of(module_name(p))[1] in ("scoring", "circuits", "ingest")],
                         ids=lambda p: str(p.relative_to(PACKAGE)))
def test_scoring_circuits_and_ingest_never_import_a_renderer(path):
    assert not {name.split(".")[0] for name in imports(path)} & RENDERERS


def loaded_after(statement: str) -> set[str]:
    code = f"import sys; {statement}; print(' '.join(sorted(sys.modules)))"
    return set(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split())


def test_the_renderers_and_the_registry_load_no_circuit_and_no_pandas():
    for statement in ("import reportgen.render.excel", "import reportgen.render.html"):
        loaded = loaded_after(statement)
        assert "pandas" not in loaded, statement
        assert not {name for name in loaded if name.startswith("reportgen.circuits.")}, statement
    # The registry reads each circuit's info.py (its folder's package too), nothing else of it.
    loaded = loaded_after("import reportgen.circuits")
    packages = {info.package for info in circuits.BUILT_IN}
    assert "pandas" not in loaded
    assert {name for name in loaded if name.startswith("reportgen.circuits.")} == {
        "reportgen.circuits.circuit_info", *packages, *(f"{package}.info" for package in packages)}


# Besides the circuits' folders, the one module that names a built-in circuit: the registry's list.
MAY_NAME_CIRCUITS = {"reportgen.circuits"}


def names_in(path: Path) -> set[str]:
    """Every string constant (docstrings included) and every identifier of a module (comments aside)."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            found.add(node.value)
        elif isinstance(node, ast.Name):
            found.add(node.id)
        elif isinstance(node, ast.Attribute):
            found.add(node.attr)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            found.add(node.name)
        elif isinstance(node, ast.arg):
            found.add(node.arg)
        elif isinstance(node, ast.alias):
            found.add(node.asname or node.name)
    return found


def circuit_words() -> dict[str, re.Pattern[str]]:
    """Each registered circuit's slug and package name, as a word of a string or of an identifier
    (`grand_sud_seasons`, `GRAND_SUD`, « grand-sud 2026 : »); not the capitalised prose of a
    comment or docstring (« the Masters »), which names a kind of thing, not a circuit the code knows."""
    words = {}
    for info in circuits.REGISTRY.values():
        package = info.package.rpartition(".")[2]
        for word in {info.slug, package}:
            words[word] = re.compile(rf"(?<![A-Za-z0-9]){re.escape(word)}(?![A-Za-z0-9])")
    return words


def circuit_folder(path: Path) -> bool:
    folders = {PACKAGE.parent.joinpath(*info.package.split(".")) for info in circuits.REGISTRY.values()}
    return any(path.is_relative_to(folder) for folder in folders)


@pytest.mark.parametrize("path", [p for p in MODULES if not circuit_folder(p) and module_name(p) not in MAY_NAME_CIRCUITS],
                         ids=lambda p: str(p.relative_to(PACKAGE)))
def test_no_module_outside_a_circuit_folder_names_a_circuit(path):
    """A circuit is its folder: what the rest of reportgen needs to know of it, it asks the registry
    (its `CircuitInfo`), so that adding a circuit touches nothing outside its folder."""
    named = sorted({f"{word} in {text!r}"[:120] for text in names_in(path) for word, pattern in circuit_words().items()
                    if pattern.search(text.lower() if text.isidentifier() else text)})
    assert named == [], f"{module_name(path)} names a circuit: {named}"


@pytest.mark.parametrize("slug", list(circuits.REGISTRY))
def test_every_registered_circuit_says_what_it_is(slug):
    info = circuits.REGISTRY[slug]
    assert info.slug == slug and info.title and info.status in (circuits.SCORED, circuits.PLANNED)
    assert (ROOT / "docs" / "regulations" / info.regulation).exists() and info.regulation_title
    assert all((ROOT / "templates" / template).is_file() for template in info.templates)
    assert all(required in list(circuits.REGISTRY)[:list(circuits.REGISTRY).index(slug)] for required in info.requires)
    # Its folder holds what its info says: info.py, and commands.py / template.py when it has them.
    folder = ROOT.joinpath(*info.package.split("."))
    assert importlib.import_module(f"{info.package}.info").INFO is info
    assert (folder / "commands.py").is_file() == info.commands and (folder / "template.py").is_file() == info.template


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
