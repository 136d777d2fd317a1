"""An archived copy's contents pages: where its HTML bulletins' navigation leads.

A bulletin read on the site links back to it (templates/base.html.j2: « Accueil » to outputs/index.html,
« Saison 2026 » to the circuit's season page, outputs/site/<circuit>-<season>.html). A copy keeps the
bulletins' bytes as they were published, and no site: so the archive writes, at those very paths of
the copy, a small French page listing the copy's documents (title, date, a link to each of its files,
relative), staged, recorded and verified with the copy like every archived file (kind `contents`,
docs/archive.md). The index lists every circuit's documents, each season page its circuit's. Made
from the copy's files and the scored season alone, with the copy's version and moment: the same
copy gives the same bytes.
"""

from __future__ import annotations

import datetime as dt
import posixpath
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from urllib.parse import quote

from reportgen import french
from reportgen.circuits import REGISTRY
from reportgen.delivery.archive_layout import ArchivedFile
from reportgen.model import Report, published_title
from reportgen.render.html import environment
from reportgen.site.sources import shown_title

KIND = "contents"  # their kind in the database's `archived_file`
INDEX = "index.html"  # relative to the copy's outputs/, as a bulletin's « Accueil » names it
TEMPLATE = "archive.html.j2"
# A file's format as the page names it, in the order its links are given.
FORMATS = {".html": "HTML", ".pdf": "PDF", ".csv": "CSV", ".xlsx": "XLSX"}


@dataclass(frozen=True)
class Copy:
    """What the pages say of the copy they are part of."""

    league: str
    season: int
    version: int
    archived_at: dt.datetime  # UTC
    reason: str


@dataclass(frozen=True)
class Entry:
    """One document of the copy: its title, its date, and its files (format, path under outputs/)."""

    title: str
    date: dt.date | None
    files: tuple[tuple[str, str], ...]

    @property
    def bulletin(self) -> bool:
        return any(label == "HTML" for label, _ in self.files)


def contents_pages(files: Iterable[ArchivedFile], reports: Mapping[str, Report], season_pages: Mapping[str, str],
                   copy: Copy) -> list[ArchivedFile]:
    """The copy's index (outputs/index.html) and the season page its bulletins of each circuit link
    (`season_pages`: circuit -> page relative to outputs/, `published.Published.season_page`), as
    archived files."""
    circuits = _circuits(files, reports)
    pages = [ArchivedFile(f"outputs/{INDEX}", KIND, "", _render(INDEX, circuits, copy))]
    for slug, page in sorted(season_pages.items(), key=lambda item: item[1]):
        pages.append(ArchivedFile(f"outputs/{page}", KIND, slug, _render(page, {slug: circuits.get(slug, [])}, copy)))
    return pages


def _circuits(files: Iterable[ArchivedFile], reports: Mapping[str, Report]) -> dict[str, list[Entry]]:
    """Each circuit's documents in the copy, in registry order: its files under outputs/<circuit>/
    grouped by name without extension, named as the circuit published them."""
    stems: dict[str, dict[str, list[str]]] = {}  # circuit -> path without extension -> extensions
    for file in files:
        if file.circuit and file.path.startswith(f"outputs/{file.circuit}/"):
            stem, extension = posixpath.splitext(file.path.removeprefix(f"outputs/{file.circuit}/"))
            if extension in FORMATS:
                stems.setdefault(file.circuit, {}).setdefault(stem, []).append(extension)
    found = {}
    for slug, report in reports.items():
        if slug not in stems:
            continue
        names = _names(report)
        entries = []
        for stem, extensions in stems[slug].items():
            title, date = names.get(stem, (posixpath.basename(stem), None))
            links = tuple((label, f"{slug}/{stem}{extension}") for extension, label in FORMATS.items()
                          if extension in extensions)
            entries.append(Entry(title, date, links))
        found[slug] = sorted(entries, key=lambda e: (e.date or dt.date.min, e.title, e.files))
    return found


def _names(report: Report) -> dict[str, tuple[str, dt.date]]:
    """Path without extension -> the title and date the circuit published it under: a document's
    own, else its ranking's as the site names it (a tournament by its name), else its annex's."""
    titles = {d.path: d.title for d in report.documents}
    names: dict[str, tuple[str, dt.date]] = {a.path: (a.title, a.date) for a in report.annexes}
    for ranking in report.rankings:
        names[ranking.path] = (shown_title({"kind": ranking.scope.kind, "title": published_title(ranking, titles),
                                            "name": ranking.scope.name or titles.get(ranking.path, "")}),
                               ranking.date)
    names.update({d.path: (d.title, d.date) for d in report.documents})
    return names


def _render(page: str, circuits: Mapping[str, list[Entry]], copy: Copy) -> bytes:
    """A page at `page` (relative to outputs/), every link relative to it: the index, or (not at
    the top) one circuit's season page."""
    root = "../" * page.count("/")
    sections = [{"title": REGISTRY[found].title if found in REGISTRY else found,
                 "bulletins": [_shown(e, root) for e in entries if e.bulletin],
                 "others": [_shown(e, root) for e in entries if not e.bulletin]}
                for found, entries in circuits.items()]
    text = environment().get_template(TEMPLATE).render(
        root=root, league=copy.league, season=copy.season, version=copy.version,
        day=french.date_long(copy.archived_at.astimezone(dt.timezone.utc).date()), reason=copy.reason,
        circuit=sections[0]["title"] if root else "", sections=sections)
    return text.encode("utf-8")


def _shown(entry: Entry, root: str) -> dict[str, object]:
    return {"title": entry.title, "date": french.date_long(entry.date) if entry.date else "",
            "files": [(label, root + quote(path)) for label, path in entry.files]}
