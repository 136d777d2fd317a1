"""Bulletins to HTML through Jinja: autoescaped (names from workbooks are data), strict.

The templates, the stylesheet and the fonts are package data: the repository's top-level
`templates/` folder is installed as the package `reportgen.templates` (pyproject.toml), found here
through importlib.resources, the same way in the editable install of `make` and in a wheel.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from functools import cache, lru_cache
from importlib import metadata, resources
from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, StrictUndefined, pass_context
from jinja2.ext import Extension
from jinja2.lexer import Token, TokenStream
from jinja2.runtime import Context
from markupsafe import Markup

from reportgen import __version__, french
from reportgen.model import Document
from reportgen.render import evolution
from reportgen.render.fonts import FONTS, fallback_digest

# What shapes a PDF besides its HTML: the libraries that lay it out, subset its fonts and write it.
RENDER_LIBRARIES = ("weasyprint", "pydyf", "fonttools", "tinycss2", "cssselect2", "pyphen")


def _installed_templates() -> Path:
    folder = resources.files("reportgen.templates")
    if not isinstance(folder, Path):  # e.g. imported from a zip: Jinja and WeasyPrint read real files
        raise RuntimeError(f"reportgen's templates must be installed as files, not in {folder}")
    return folder.resolve()


TEMPLATES = _installed_templates()
# Folders searched after the templates folder: a circuit's own, when it ships outside reportgen (a
# plug-in's `CircuitInfo.template_folder`), added by the pipeline. A renderer knows no circuit.
_MORE_TEMPLATES: list[Path] = []


def add_templates(folder: Path) -> None:
    """Search `folder` too for the templates a document names (after the templates folder)."""
    if folder not in _MORE_TEMPLATES:
        _MORE_TEMPLATES.append(folder)
        environment.cache_clear()


# Where a template's text is code, not French: a stylesheet's or a script's own file, a <style> or
# <script> element of a page (« td { color: red !important } », « a ? b : c »), and a block a child
# template fills inside one (base.html.j2's `extra_style`).
_CODE_TEMPLATES = (".css", ".css.j2", ".js", ".js.j2")
_CODE_ELEMENT = re.compile(r"(<(?:style|script)\b|</(?:style|script)\s*>)", re.IGNORECASE)
_CODE_BLOCK = re.compile(r"style|script")


class Typography(Extension):
    """French typography (french.typography) on a template's own text (its `data` tokens, as the
    lexer reads them), once, when the template is compiled, never in code: the bulletins' (and so
    their PDFs'), the site's and the mails' words (render/mail.py)."""

    def filter_stream(self, stream: TokenStream) -> Iterator[Token]:
        if (stream.name or "").endswith(_CODE_TEMPLATES):
            yield from stream
            return
        in_code = False  # within a <style> or <script> element of this template's text
        blocks: list[bool] = []  # each {% block %} open, whether it is code (its name says so)
        tag: list[str] = []  # the names of the statement being read ({% block extra_style %})
        for token in stream:
            if token.type == "block_begin":
                tag = []
            elif token.type == "name":
                tag.append(token.value)
            elif token.type == "block_end" and tag[:1] == ["block"]:
                blocks.append(len(tag) > 1 and bool(_CODE_BLOCK.search(tag[1])))
            elif token.type == "block_end" and tag[:1] == ["endblock"] and blocks:
                blocks.pop()
            if token.type != "data":
                yield token
                continue
            parts = []
            for part in _CODE_ELEMENT.split(token.value):
                if _CODE_ELEMENT.fullmatch(part):
                    in_code = not part.startswith("</")
                    parts.append(part)
                else:
                    parts.append(part if in_code or any(blocks) else french.typography(part))
            yield Token(token.lineno, token.type, "".join(parts))


# A text that French typography may change (french.typography): a sign a space comes before or after.
# Not a digit: a round's number (« ronde 2 ») is kept with it where a template says so (`typography`
# filter), not on each of the thousands of numbers a page prints.
_SIGNS = frozenset(":;!?«»—%")


def typeset(value: Any) -> Any:
    """The bulletins' and the site's `finalize`: each text a template prints given French
    typography, reportgen's sentences handed over as data (a method's notes, a summary, a legend:
    1,300 plain spaces before « : » or inside « » in the example league's bulletins) and names
    alike, only spaces changed; Markup (a cell template's, a chart's, a macro's) as it is. Most
    values hold none of the signs: a set's test, not a regex, on each of them."""
    if type(value) is str and not _SIGNS.isdisjoint(value):
        return french.typography(value)
    return value


@cache
def environment(templates: Path = TEMPLATES) -> Environment:
    from reportgen.site import figures  # the charts a template draws from plain numbers (no circuit)

    found = Environment(
        loader=FileSystemLoader([templates, *_MORE_TEMPLATES]),
        autoescape=True,
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        extensions=[Typography],
        finalize=typeset,
    )
    found.globals["scale_chart"] = figures.scale
    found.globals["evolution_cell"] = evolution.cell
    found.filters["printed"] = printed_rows
    found.filters["typography"] = french.typography
    found.filters["dates"] = unbroken_dates
    found.filters["rendered_each"] = _rendered_each(found)
    return found


def _rendered_each(found: Environment) -> Callable[[Sequence[Mapping[str, Any]], str], Markup]:
    """`{{ items | rendered_each("template") }}`: each item (a dict) as `template` writes it (as its
    variable `item`), that template rendered once per distinct item and the results joined. For a
    grid of many cells of few kinds: a Grand Sud bulletin's results at 100x, 260,000 cells of 91
    kinds and values, took 2.1-2.6 CPU-s a cell at a time, 0.3-0.5 this way (twentieth
    round), the same bytes, the markup still in a template."""

    @lru_cache(maxsize=1 << 12)
    def one(template: str, item: tuple[tuple[str, Any], ...]) -> str:
        return found.get_template(template).render(item=dict(item))

    def each(items: Sequence[Mapping[str, Any]], template: str) -> Markup:
        # each item escaped by its template (autoescape): the whole is markup made of markup
        return Markup("".join([one(template, tuple(item.items())) for item in items]))

    return each


def unbroken_dates(value: str) -> str:
    """`{{ doc.title | dates }}`: a text that may hold a long date, its day and month kept on one
    line (french.day_month_kept says why not the year). Wherever a template prints a date, or a
    title, a summary or a note that may hold one, it says so with this filter, as the mails'
    bodies do (render/mail.py `dates`, the whole date there); tests/test_dates_unbroken.py finds
    any date printed without it.
    Not Jinja's `finalize` on every value printed, which would need no template to say it: a regex
    on each of a build's hundreds of thousands of cells cost 1.2 µs each (a table of a million cells
    rendered in 2.6 s instead of 1.3), and the site's long tables are not printed by Jinja anyway
    (site/lines.py keeps their dates itself); `typeset`, the finalize, tests a set of signs only.
    Markup (a macro's output) stays markup."""
    if isinstance(value, Markup):  # a no-break space is no markup: the text's tags are untouched
        return Markup(french.day_month_kept(str(value)))
    return french.day_month_kept(value) if isinstance(value, str) else value


@pass_context
def printed_rows(context: Context, rows: list) -> list:
    """`{% for row in doc.rows | printed %}`: the rows of a long ranking the PDF prints. In the HTML
    rendered to PDF (`render_print`) of a document whose ranking is longer than its circuit's
    `bulletin_rows` (`print_top`, circuits/common.py), the top rows only: WeasyPrint never parses nor
    styles the others (at 100x, thousands: a PDF worker of 4 GB). Everywhere else, every row."""
    top = context.get("doc", {}).get("print_top") if context.get("printing") else None
    return rows[:top["rows"]] if top else rows


def _digest(folder: Path, names: list[str]) -> str:
    """A short SHA-256 of these files of the folder, names and bytes."""
    digest = hashlib.sha256()
    for name in names:
        data = (folder / name).read_bytes()
        digest.update(f"{name}\0{len(data)}\0".encode())
        digest.update(data)
    return digest.hexdigest()[:12]


def _native_libraries() -> str:
    """The native libraries WeasyPrint lays out and subsets fonts with, found the way it finds them
    (without importing it): Pango's and HarfBuzz's versions, and the subsetting path. WeasyPrint
    subsets with HarfBuzz-Subset when the library loads and HarfBuzz is 4.1 or later, else with
    fontTools; the two paths give different font streams for the same text."""
    import ctypes
    import ctypes.util

    def load(*names: str) -> ctypes.CDLL | None:
        for name in names:
            for candidate in (name, ctypes.util.find_library(name.removeprefix("lib").split(".so")[0])):
                if candidate:
                    try:
                        return ctypes.CDLL(candidate)
                    except OSError:
                        continue
        return None

    def version(library: ctypes.CDLL | None, function: str) -> str:
        if library is None:
            return "absent"
        getter = getattr(library, function)
        getter.restype = ctypes.c_char_p
        return getter().decode("ascii", "replace")

    harfbuzz = version(load("libharfbuzz.so.0", "libharfbuzz.0.dylib", "libharfbuzz-0.dll"), "hb_version_string")
    pango = version(load("libpango-1.0.so.0", "libpango-1.0.dylib", "libpango-1.0-0.dll"), "pango_version_string")
    subset = load("libharfbuzz-subset.so.0", "libharfbuzz-subset.0.dylib", "libharfbuzz-subset-0.dll")
    numbers = tuple(int(part) if part.isdigit() else 0 for part in harfbuzz.split(".")[:3])
    path = "harfbuzz-subset" if subset is not None and numbers >= (4, 1, 0) else "fonttools"
    return f"pango {pango} harfbuzz {harfbuzz} subset {path}"


@cache
def render_fingerprint(templates: Path = TEMPLATES) -> str:
    """Everything besides the HTML that a PDF's bytes depend on: the versions of WeasyPrint and of
    the libraries it lays out, subsets fonts and writes with (Python and native: Pango, HarfBuzz,
    and which of HarfBuzz-Subset or fontTools subsets the fonts), the stylesheet and font files,
    and the bytes of the fallback fonts names in other scripts are drawn with (render/fonts.py: no
    other font of the machine is seen, so none other counts), and the version of what reportgen
    itself does to a laid-out PDF (render/pdf.py `POST_PROCESSING`: a PDF made before its links
    were kept relative is made again).
    Printed in every bulletin's head and recorded with each PDF in the circuit's manifest, so that a
    PDF is reused only when its HTML and this fingerprint are unchanged: after a library changes,
    every PDF is rendered again, never mixed with older ones. Versions are read from the installed
    metadata and the native libraries through ctypes: importing WeasyPrint is slow."""
    from reportgen.render.pdf import POST_PROCESSING  # its own module: it imports this one

    versions = " ".join(f"{name} {metadata.version(name)}" for name in RENDER_LIBRARIES)
    fonts = sorted(path.relative_to(templates).as_posix() for path in (templates / "fonts").rglob("*")
                   if path.is_file())
    return (f"{versions} post-processing {POST_PROCESSING} fallback-fonts {fallback_digest()} {_native_libraries()}; "
            f"bulletin.css {_digest(templates, ['bulletin.css'])}; fonts {_digest(templates, fonts)}")


def root(document: Document) -> str:
    """The relative URL of outputs/ from the document's page: a circuit publishes its documents in
    outputs/<slug>/ (`Document.path` is relative to it), so "2026/classement" gives "../../"."""
    return "../" * (1 + document.path.count("/"))


def shipped_fonts(templates: Path = TEMPLATES) -> list[Path]:
    """The fonts (and their licence) the pages name, as reportgen ships them."""
    return sorted(path for path in (templates / FONTS).iterdir() if path.is_file())


def publish_fonts(outputs: Path, templates: Path = TEMPLATES) -> list[Path]:
    """Publish the shipped fonts (and their licence) in outputs/fonts/, which the stylesheet inlined
    in every page names relative to the page (`root`): a page opened from outputs/ draws the same
    font as its PDF. Each file written atomically and only when its bytes changed; the files written."""
    from reportgen.render.files import write_atomic

    return [outputs / FONTS / path.name for path in shipped_fonts(templates)
            if write_atomic(outputs / FONTS / path.name, path.read_bytes())]


# The longest running title printed whole (`running_title`): at 7.5 pt, with « page 12 sur 16 » beside
# it, one line on A4 portrait (186 mm between the margins: the Masters' match sheets), wide letters too.
RUNNING_TITLE_LENGTH = 110


def running_title(document: Document) -> str:
    """What each printed page's footer says the document is, beside its page number (bulletin.css
    `@bottom-left`): its circuit, its title and its date, so that a page parted from the first one
    still says which bulletin and of when it is. « Classement régional Grand Sud · Classement après
    le tournoi d'Auch du 14 novembre 2026 »; the date added when the title does not say it
    (« Masters Grand Sud · Classement final · 28 novembre 2026 »), the circuit when the title does
    not name it (a club's bulletin). Cut at a word, with « … », past RUNNING_TITLE_LENGTH characters:
    a tournament's name from a workbook may be any length, and a footer never wraps."""
    context = document.context
    title = str(context.get("title") or document.title)
    circuit = str(context.get("circuit") or "")
    day = french.date_long(document.date)
    parts = [circuit] if circuit and circuit not in title else []
    parts += [title] if day in title else [title, day]
    text = " · ".join(parts)
    if len(text) <= RUNNING_TITLE_LENGTH:
        return text
    cut = text[:RUNNING_TITLE_LENGTH - 1]
    return (cut.rsplit(" ", 1)[0] if " " in cut else cut).rstrip(" ·—,;:") + "…"


def season_page(document: Document, templates: Path = TEMPLATES) -> str | None:
    """The site's page of the document's circuit and season, relative to outputs/, which a bulletin
    read on the site links back to (base.html.j2, on screen only). A circuit's templates are shipped
    in the folder named by its slug, as its season page is named (site/pages.py
    `season_page_name`); None for a document of no circuit's season (a club's bulletin, its
    template at the top) or from a plug-in's own template folder, whose name says nothing."""
    from reportgen.site.pages import season_page_name

    slug, _, name = document.template.partition("/")
    if not (name and document.season and (templates / document.template).is_file()):
        return None
    return f"site/{season_page_name(slug, document.season)}"


def render(document: Document, templates: Path = TEMPLATES, printing: bool = False) -> str:
    """The document's HTML page; `printing`: the HTML its PDF is rendered from (`render_print`)."""
    template = environment(templates).get_template(document.template)
    return template.render(
        doc=document.context,
        root=root(document),
        printing=printing,
        meta={"title": document.title, "date": document.date.isoformat(), "generator": f"reportgen {__version__}",
              "render": render_fingerprint(templates), "running": running_title(document),
              "season_page": season_page(document, templates)},
    )


def prints_differently(document: Document) -> bool:
    """Whether the document's PDF is rendered from an HTML of its own: fewer rows than its ranking
    (`print_top`), one column of results for a wide grid (`print_columns`), the counted tournaments
    only (`print_tournaments`), each from circuits/common.py."""
    context = document.context
    return bool(context.get("print_top") or context.get("print_columns") or context.get("print_tournaments"))


def render_print(document: Document, page: bytes, templates: Path = TEMPLATES) -> bytes:
    """The HTML the document's PDF is rendered from, `page` being its HTML page: the page itself,
    unless its ranking is longer than it prints (`print_top`): then the page without the rows beyond
    the top (`printed_rows`), which the page's print stylesheet hides anyway; or unless its grid has
    more columns than it prints (`print_columns`, circuits/common.py): then the same template prints
    one column of each row's results in its place; or unless its table of tournaments is longer
    than it prints (`print_tournaments`): then the counted ones only. One document per template: the
    page and its PDF differ by these rows and columns only."""
    if not prints_differently(document):
        return page
    return render(document, templates, printing=True).encode("utf-8")
