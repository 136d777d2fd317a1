"""Bulletins to HTML through Jinja: autoescaped (names from workbooks are data), strict."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from jinja2 import Environment, FileSystemLoader, StrictUndefined

from reportgen import __version__
from reportgen.model import Document

TEMPLATES = Path(__file__).resolve().parents[2] / "templates"


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


def render(document: Document, templates: Path = TEMPLATES) -> str:
    template = environment(templates).get_template(document.template)
    return template.render(
        doc=document.context,
        meta={"title": document.title, "date": document.date.isoformat(), "generator": f"reportgen {__version__}"},
    )
