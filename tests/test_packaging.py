"""What is installed is what runs: the wheel carries the templates, stylesheet and fonts and renders
bulletins on its own; the dependencies are the imports; every installed package is pinned; a
bulletin's HTML names everything its PDF depends on."""

import ast
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import tomllib
import zipfile
from importlib import metadata
from pathlib import Path

from reportgen.render import html

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "reportgen"
TEMPLATES = ROOT / "templates"
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())

# Declared ahead of its first import: reportgen/ingest/precheck.py moves to defusedxml.
DECLARED_AHEAD: set[str] = set()  # declared before the code imports it (none today)


def canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def requirement_names(requirements: list[str]) -> set[str]:
    return {canonical(re.match(r"[A-Za-z0-9._-]+", requirement).group()) for requirement in requirements}


def files_under(folder: Path) -> set[str]:
    return {path.relative_to(folder).as_posix() for path in folder.rglob("*")
            if path.is_file() and "__pycache__" not in path.parts}


def third_party_imports(*folders: Path) -> dict[str, set[str]]:
    """distribution -> the files importing it, for every absolute import of these folders' modules
    that is neither the standard library nor the project's own code (imports inside functions too:
    a lazy import is still needed at run time)."""
    distributions = metadata.packages_distributions()
    found: dict[str, set[str]] = {}
    for folder in folders:
        local = {path.stem for path in folder.glob("*.py")} | {"reportgen", "tests", "benchmarks"}  # the project's own
        for path in sorted(folder.rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Import):
                    names = [alias.name for alias in node.names]
                elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                    names = [node.module]
                else:
                    continue
                for name in (name.split(".")[0] for name in names):
                    if name in sys.stdlib_module_names or name in local:
                        continue
                    owners = distributions.get(name)
                    assert owners, f"{path.relative_to(ROOT)} imports {name}, which no installed distribution provides"
                    for owner in owners:
                        found.setdefault(canonical(owner), set()).add(path.relative_to(ROOT).as_posix())
    return found


# -- dependencies and pins -------------------------------------------------------------------------


def test_the_dependencies_are_exactly_what_reportgen_imports():
    imported = third_party_imports(PACKAGE)
    declared = requirement_names(PYPROJECT["project"]["dependencies"])
    assert {name: sorted(files) for name, files in imported.items() if name not in declared} == {}, "undeclared"
    assert declared - set(imported) - DECLARED_AHEAD == set(), "declared, never imported"


def test_the_tests_and_scripts_import_only_declared_packages():
    imported = third_party_imports(ROOT / "tests", ROOT / "scripts")
    declared = requirement_names(PYPROJECT["project"]["dependencies"])
    declared |= requirement_names(PYPROJECT["project"]["optional-dependencies"]["test"])
    assert {name: sorted(files) for name, files in imported.items() if name not in declared} == {}


def test_every_package_of_the_environment_is_pinned_at_its_installed_version():
    """constraints.txt is the whole environment `make` builds: a package installed by hand, or one a
    new release pulls in, shows here until it is pinned."""
    pins = {}
    for line in (ROOT / "constraints.txt").read_text().splitlines():
        line = line.split("#")[0].strip()
        if line:
            name, _, version = line.partition("==")
            assert version, f"pin an exact version: {line}"
            pins[canonical(name)] = version
    installed = {canonical(dist.metadata["Name"]): dist.version for dist in metadata.distributions()}
    installed = {name: version for name, version in installed.items() if name not in ("reportgen", "pip")}
    assert {name: version for name, version in installed.items() if pins.get(name) != version} == {}, \
        "installed, not pinned at this version"
    assert set(pins) - set(installed) == set(), "pinned, not installed"


# -- the wheel -------------------------------------------------------------------------------------

RENDER_FROM_THE_WHEEL = """
import datetime as dt, sys
from pathlib import Path

site, root, inputs, outputs = (Path(arg).resolve() for arg in sys.argv[1:])
import reportgen
from reportgen.pipeline import build
from reportgen.render import html

assert Path(reportgen.__file__).resolve().is_relative_to(site), reportgen.__file__
assert html.TEMPLATES.is_relative_to(site), html.TEMPLATES
result = build(inputs, outputs, dt.date(2026, 11, 29))
assert result.ok and not result.blocked, (result.problems, result.blocked)
from_the_repository = sorted(str(module.__file__) for module in list(sys.modules.values())
                             if Path(str(getattr(module, "__file__", None))).resolve().is_relative_to(root / "reportgen")
                             or Path(str(getattr(module, "__file__", None))).resolve().is_relative_to(root / "templates"))
assert not from_the_repository, from_the_repository
print(html.render_fingerprint())
"""


def build_wheel(destination: Path) -> Path:
    """The wheel of a copy of the sources (setuptools' build/ folder in the working tree could
    leak files that no longer exist into the wheel), built offline with the pinned setuptools."""
    source = destination / "source"
    for name in ("pyproject.toml", "setup.py", "README.md"):
        source.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / name, source / name)
    for name in ("reportgen", "templates"):
        shutil.copytree(ROOT / name, source / name, ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation",
                    "--no-index", "--wheel-dir", destination / "dist", source],
                   check=True, capture_output=True, timeout=120)
    (wheel,) = (destination / "dist").glob("reportgen-*.whl")
    return wheel


def test_the_wheel_ships_templates_and_fonts_and_renders_bulletins_away_from_the_repository(tmp_path):
    from tests.builders import small_league

    wheel = build_wheel(tmp_path / "wheel")
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        archive.extractall(tmp_path / "site")
    shipped = {name.removeprefix("reportgen/templates/") for name in names if name.startswith("reportgen/templates/")}
    assert files_under(TEMPLATES) == shipped  # every template, the stylesheet, the fonts and their licence
    assert {"bulletin.css", "base.html.j2", "fonts/Inter-Regular.otf"} <= shipped
    modules = {name.removeprefix("reportgen/") for name in names
               if name.startswith("reportgen/") and not name.startswith("reportgen/templates/")}
    assert files_under(PACKAGE) == modules  # every module: setup.py finds every subpackage
    assert all(name.startswith(("reportgen/", "reportgen-")) for name in names), names

    inputs = small_league(tmp_path / "inputs")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    # -S: no site-packages processing, so not the editable install's finder either (it would find a
    # module missing from the wheel in the repository); the wheel first, then the dependencies.
    libraries = dict.fromkeys([sysconfig.get_path("purelib"), sysconfig.get_path("platlib")])
    env = {key: value for key, value in os.environ.items() if not key.startswith("PYTHON")}
    env["PYTHONPATH"] = os.pathsep.join([str(tmp_path / "site"), *libraries])
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    done = subprocess.run([sys.executable, "-S", "-c", RENDER_FROM_THE_WHEEL, tmp_path / "site", ROOT, inputs,
                           tmp_path / "outputs"], cwd=elsewhere, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == html.render_fingerprint()  # the same stylesheet and fonts as the repository's

    from pypdf import PdfReader

    pdfs = sorted((tmp_path / "outputs" / "grand-sud").rglob("*.pdf"))
    assert len(pdfs) == 3  # 2025: two; 2026, still running: its dated bulletin, no final one (issue 27)
    for pdf in pdfs:
        assert pdf.read_bytes().startswith(b"%PDF-")
        reader = PdfReader(pdf)
        fonts = {font.get_object()["/BaseFont"].split("+")[-1] for page in reader.pages
                 for font in page["/Resources"]["/Font"].values()}
        assert fonts and all(name.startswith("Inter") for name in fonts), (pdf.name, fonts)  # the shipped fonts
        page = pdf.with_suffix(".html").read_text(encoding="utf-8")
        assert f'<meta name="reportgen-render" content="{html.render_fingerprint()}">' in page


# -- the render fingerprint ------------------------------------------------------------------------


def test_every_bulletin_template_extends_the_base_that_prints_the_render_fingerprint():
    assert '<meta name="reportgen-render" content="{{ meta.render }}">' in (TEMPLATES / "base.html.j2").read_text()
    bulletins = sorted(t for t in TEMPLATES.glob("*/*.html.j2") if t.parent.name != "site")
    assert bulletins
    for template in bulletins:
        assert template.read_text().startswith('{% extends "base.html.j2" %}'), template
    # The website's pages (reportgen/site/) are no bulletins: they extend the site's own base.
    pages = sorted(t for t in (TEMPLATES / "site").glob("*.html.j2") if t.name not in ("base.html.j2", "macros.html.j2"))
    assert pages and all(t.read_text().startswith('{% extends "site/base.html.j2" %}') for t in pages)


def test_the_render_fingerprint_changes_with_the_stylesheet_the_fonts_and_weasyprint(tmp_path):
    def copy(name: str) -> Path:
        return Path(shutil.copytree(TEMPLATES, tmp_path / name, ignore=shutil.ignore_patterns("__pycache__")))

    same, css, font, added = copy("same"), copy("css"), copy("font"), copy("added")
    (css / "bulletin.css").write_bytes((css / "bulletin.css").read_bytes() + b"\n")
    data = bytearray((font / "fonts" / "Inter-Bold.otf").read_bytes())
    data[len(data) // 2] ^= 1
    (font / "fonts" / "Inter-Bold.otf").write_bytes(bytes(data))
    (added / "fonts" / "Other.otf").write_bytes(b"\0")

    fingerprint = html.render_fingerprint(same)
    assert fingerprint == html.render_fingerprint(html.TEMPLATES)
    assert f"weasyprint {metadata.version('weasyprint')}" in fingerprint
    assert len({fingerprint, *(html.render_fingerprint(folder) for folder in (css, font, added))}) == 4
    stylesheet, fonts = (part for part in fingerprint.split("; ")[1:])
    assert stylesheet not in html.render_fingerprint(css) and fonts in html.render_fingerprint(css)
    assert stylesheet in html.render_fingerprint(font) and fonts not in html.render_fingerprint(font)


def test_the_render_fingerprint_does_not_import_weasyprint():
    """Reading its version from the metadata: importing WeasyPrint costs about a second."""
    code = ("import sys; from reportgen.render import html; html.render_fingerprint(); "
            "assert 'weasyprint' not in sys.modules, 'imported'")
    subprocess.run([sys.executable, "-c", code], check=True, timeout=60)
