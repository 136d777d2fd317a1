"""Bulletins to HTML through Jinja: autoescaped (names from workbooks are data), strict.

The templates, the stylesheet and the fonts are package data: the repository's top-level
`templates/` folder is installed as the package `reportgen.templates` (pyproject.toml), found here
through importlib.resources, the same way in the editable install of `make` and in a wheel.
"""

from __future__ import annotations

import hashlib
from functools import cache
from importlib import metadata, resources
from pathlib import Path

from jinja2 import Environment, FileSystemLoader, StrictUndefined

from reportgen import __version__
from reportgen.model import Document

# What shapes a PDF besides its HTML: the libraries that lay it out, subset its fonts and write it.
RENDER_LIBRARIES = ("weasyprint", "pydyf", "fonttools")


def _installed_templates() -> Path:
    folder = resources.files("reportgen.templates")
    if not isinstance(folder, Path):  # e.g. imported from a zip: Jinja and WeasyPrint read real files
        raise RuntimeError(f"reportgen's templates must be installed as files, not in {folder}")
    return folder.resolve()


TEMPLATES = _installed_templates()


@cache
def environment(templates: Path = TEMPLATES) -> Environment:
    return Environment(
        loader=FileSystemLoader(templates),
        autoescape=True,
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )


def _digest(folder: Path, names: list[str]) -> str:
    """A short SHA-256 of these files of the folder, names and bytes."""
    digest = hashlib.sha256()
    for name in names:
        data = (folder / name).read_bytes()
        digest.update(f"{name}\0{len(data)}\0".encode())
        digest.update(data)
    return digest.hexdigest()[:12]


@cache
def render_fingerprint(templates: Path = TEMPLATES) -> str:
    """Everything besides the HTML that a PDF's bytes depend on: the versions of WeasyPrint and of
    the libraries it writes with, and the stylesheet and font files. Printed in every bulletin's
    head, so that an unchanged HTML next to its PDF (which the pipeline then reuses) really means
    an unchanged PDF. Versions are read from the installed metadata: importing WeasyPrint is slow."""
    versions = " ".join(f"{name} {metadata.version(name)}" for name in RENDER_LIBRARIES)
    fonts = sorted(path.relative_to(templates).as_posix() for path in (templates / "fonts").rglob("*")
                   if path.is_file())
    return f"{versions}; bulletin.css {_digest(templates, ['bulletin.css'])}; fonts {_digest(templates, fonts)}"


def render(document: Document, templates: Path = TEMPLATES) -> str:
    template = environment(templates).get_template(document.template)
    return template.render(
        doc=document.context,
        meta={"title": document.title, "date": document.date.isoformat(), "generator": f"reportgen {__version__}",
              "render": render_fingerprint(templates)},
    )
