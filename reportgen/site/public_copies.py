"""The public copies of the documents the site links (issue 24, personal data): a bulletin, its CSV
or an annex that names a player who chose `initiales` or `non` in joueurs.xlsx gets a copy in which
that player is shown as the site shows him (« D. M. », « joueur non publié »), everything else
identical: the ranking is not changed by hiding a name. The whole documents stay for the clubs
(`reportgen mail` attaches them); the site links the copies and `reportgen publish` uploads them
instead.

The seam is the plain data a circuit gives the renderers (`Document.context`, `Ranking` rows,
`AnnexSheet` rows): each text is passed through one name mapping before the same renderer runs, so
no file is edited after it is made and a document naming no such player is not rendered twice.
A name is replaced wherever it stands as whole words (a cell, or a sentence such as « forfait de
DUPONT Marie »); a player shown under a name another player also bears hides both, the safe side.
Such a player's licence number, which would name him again through the federation's lists, is
left blank where the data says it is a licence (a `licence` field or key, an annex's « Licence »
column): the site's own pages show no licence at all.

A bulletin's link to another circuit's file that has a public copy (its legend's, `model.Legend`
in its context: the Masters' « Classement annuel » and its Grand Sud CSV) is a link to that copy in
the bulletin's public copy, made for it when it names no one to hide: that whole file is never
uploaded, and the link, in the whole bulletin uploaded or in its copy, was dead online
(`Masking.linking`: the copies of the circuits it requires, laid out before it). The rankings' own
legends are the site's (site/pages.py `legend`)."""

from __future__ import annotations

import copy
import dataclasses
import datetime as dt
import functools
import hashlib
import html
import json
import re
from collections.abc import Iterable, Mapping
from fractions import Fraction
from typing import Any

from markupsafe import Markup, escape

from reportgen import french
from reportgen.model import Annex, AnnexSheet, Deferred, Document, Ranking, linked_legend

FOLDER = "public"  # in a circuit's folder: outputs/<circuit>/public/<the document's own path>
LICENCE = "licence"  # the field, or key, of a licence number
LICENCE_HEADER = "Licence"  # an annex's licence column
FILE = "file"  # the key of a file a document's legend links, relative to outputs/ (model.Legend's `file`)
SCALARS = (int, float, Fraction, dt.date)  # bool is an int; a datetime a date


def _cuts(name: str) -> str:
    """A pattern of every cut of `name` from its second letter on (« LA », « LAM »… the whole name),
    as nested optional groups: as long as the name, not one alternative per length."""
    tail = ""
    for letter in reversed(name[2:]):
        tail = f"(?:{re.escape(letter)}{tail})?"
    return re.escape(name[:2]) + tail


class Masking:
    """Every text of a document with each full name of `names` (full name -> public form) replaced."""

    def __init__(self, names: Mapping[str, str], licences: Iterable[str] = ()):
        self.names = {name: public for name, public in names.items() if name and name != public}
        self.licences = frozenset(licence for licence in licences if licence)
        self._plain = self._pattern(self.names)
        # A Markup value (an SVG drawn by the circuit or site/chart.py) holds the names HTML-escaped,
        # by markupsafe (' as &#39;) or by the standard library (' as &#x27;).
        self._escaped = {written: str(escape(public)) for name, public in self.names.items()
                         for written in {str(escape(name)), html.escape(name, quote=True)}}
        self._markup = self._pattern(self._escaped)
        # A chart's label cut to its room (site/chart.py `fitted`: « LAMBERT Anne-Sop… ») is no whole
        # name: any cut of a hidden name, from its second letter on, is masked too.
        self._cut = re.compile("(?<![\\w-])(?:" + "|".join(
            _cuts(written) for written in sorted(self._escaped, key=lambda n: (-len(n), n))) + ")…") \
            if self._escaped else None
        # while a whole is masked (`_whole`): a dict's id -> (the dict, its masked value)
        self._seen: dict[int, tuple[dict[Any, Any], Any]] | None = None
        # another circuit's whole file -> its public copy, relative to outputs/ (`linking`)
        self.copies: dict[str, str] = {}
        self._linking = False  # while a document is masked: its legends' files made their copies (`_relinked`)

    def linking(self, copies: Mapping[str, str]) -> Masking:
        """This masking, and a link to one of `copies` (another circuit's whole file -> its public
        copy, relative to outputs/) made a link to the copy: the masking a circuit's documents are
        given, with the copies of the circuits it requires. Itself when there are none."""
        if not copies:
            return self
        linked = copy.copy(self)  # the same names and patterns, compiled once
        linked.copies = dict(copies)
        linked.__dict__.pop("fingerprint", None)
        return linked

    @staticmethod
    def _pattern(names: Mapping[str, str]) -> re.Pattern[str] | None:
        if not names:
            return None
        # The longest first: « MARTIN Paul-Henri » before « MARTIN Paul »; whole names only (a
        # hyphen joins words: « MARTIN Paul » is not in « MARTIN Paul-Henri »).
        # A name after « d’ » (french.of_person: « forfait d’IMBERT Inès ») is taken with it, so that
        # its public form takes the « de » it needs (« forfait de joueur non publié », `_public`).
        alternatives = "|".join(re.escape(name) for name in sorted(names, key=lambda n: (-len(n), n)))
        return re.compile(rf"(?<![\w-])(?P<elided>d{french.APOSTROPHE})?(?P<name>{alternatives})(?![\w-])")

    def _public_of_cut(self, found: re.Match[str]) -> str:
        cut = found[0][:-1].rstrip()
        return next(public for written, public in self._escaped.items() if written.startswith(cut))

    @staticmethod
    def _public(found: re.Match[str], forms: Mapping[str, str]) -> str:
        public = forms[found["name"]]
        return french.of_person(public) if found["elided"] else public

    def __bool__(self) -> bool:
        return bool(self.names)

    @functools.cached_property
    def fingerprint(self) -> str:
        """All that decides what it does to any value: each name it hides with its public form, and
        each licence it blanks (a public copy's key, with its whole file's: pipeline/publishing.py)."""
        decides: list[Any] = [sorted(self.names.items()), sorted(self.licences)]
        if self.copies:  # a link made a link to a copy (`linking`); none: the same fingerprint as before
            decides.append(sorted(self.copies.items()))
        return hashlib.sha256(json.dumps(decides, ensure_ascii=False).encode("utf-8")).hexdigest()

    def text(self, value: str) -> str:
        if isinstance(value, Markup):
            if self._markup is None:
                return value
            masked = self._markup.sub(lambda found: self._public(found, self._escaped), value)
            if "…" in masked and self._cut is not None:
                masked = self._cut.sub(self._public_of_cut, masked)
            return value if masked == value else Markup(masked)
        if self._plain is None or not self._plain.search(value):
            return value
        return self._plain.sub(lambda found: self._public(found, self.names), value)

    def value(self, value: Any, key: object = None) -> Any:
        """`value` with every text masked: the very same object when nothing in it changed. `key`:
        the field or dict key it is found under (a licence's)."""
        if isinstance(value, str):
            return "" if key == LICENCE and value in self.licences else self.text(value)
        if value is None or isinstance(value, SCALARS):  # most cells of a bulletin: nothing to look into
            return value
        if isinstance(value, AnnexSheet):
            return self._sheet(value)
        if isinstance(value, dict):
            # A dict met again (a bulletin's cells: a few hundred read-only dicts fill 2,800 rows of
            # 94 at 100x, circuits/grand_sud/documents.py `_cell`) is masked once per document: by its
            # identity, the dict itself held beside its result, so no other object can take its id.
            seen = self._seen.get(id(value)) if self._seen is not None else None
            if seen is not None and seen[0] is value:
                return seen[1]
            items = {name: self.value(item, name) for name, item in value.items()}
            if self._linking and FILE in items:
                items = self._relinked(items)
            masked_dict = value if all(items[name] is item for name, item in value.items()) else items
            if self._seen is not None:
                self._seen[id(value)] = (value, masked_dict)
            return masked_dict
        if isinstance(value, Deferred):  # rows not made yet (a bulletin's, a ranking's, an annex's): made now
            made = value.made()
            masked_rows = self.value(made)
            return value if masked_rows is made else masked_rows
        if isinstance(value, (list, tuple)):
            masked = [self.value(item) for item in value]
            if all(new is old for new, old in zip(masked, value)):
                return value
            return masked if isinstance(value, list) else type(value)(masked)
        if dataclasses.is_dataclass(value) and not isinstance(value, type):
            changes = {}
            for field in dataclasses.fields(value):
                if field.init:
                    old = getattr(value, field.name)
                    new = self.value(old, field.name)
                    if new is not old:
                        changes[field.name] = new
            return dataclasses.replace(value, **changes) if changes else value
        return value  # numbers, dates, None

    def _relinked(self, items: dict[Any, Any]) -> dict[Any, Any]:
        """A document's legend (`model.Legend` as its context holds it) linking a file of another
        circuit that has a public copy (`copies`): that copy linked, and named in its text for print."""
        whole = items.get(FILE)
        if not isinstance(whole, str) or whole not in self.copies:
            return items
        return linked_legend(items, self.copies[whole])

    def _sheet(self, sheet: AnnexSheet) -> AnnexSheet:
        """An annex sheet's cells masked, those of its « Licence » columns blanked for these players."""
        licences = {index for index, column in enumerate(sheet.columns) if column.header == LICENCE_HEADER}
        rows = [self._row(row, licences) for row in sheet.rows]
        return sheet if all(new is old for new, old in zip(rows, sheet.rows)) else dataclasses.replace(sheet, rows=rows)

    def _row(self, row: list[Any], licences: set[int]) -> list[Any]:
        cells = [self.value(cell, LICENCE if index in licences else None) for index, cell in enumerate(row)]
        return row if all(new is old for new, old in zip(cells, row)) else cells

    def _whole(self, whole: Any, linking: bool = False) -> Any:
        """`value` of a whole document, ranking or annex, each dict in it masked once: `_seen`, kept
        while it is masked (nothing in it changes meanwhile), then dropped with the dicts it holds.
        `linking`: a document's, whose legends link the copies (`_relinked`)."""
        self._seen, self._linking = {}, linking and bool(self.copies)
        try:
            return self.value(whole)
        finally:
            self._seen, self._linking = None, False

    def document(self, document: Document) -> Document | None:
        """The public copy of a bulletin, or None when it names no player to mask nor links a file
        that has a copy (`linking`)."""
        masked = self._whole(document, linking=True)
        return dataclasses.replace(masked, path=f"{FOLDER}/{document.path}") if masked is not document else None

    def ranking(self, ranking: Ranking) -> Ranking | None:
        masked = self._whole(ranking)
        return dataclasses.replace(masked, path=f"{FOLDER}/{ranking.path}") if masked is not ranking else None

    def annex(self, annex: Annex) -> Annex | None:
        masked = self._whole(annex)
        return dataclasses.replace(masked, path=f"{FOLDER}/{annex.path}") if masked is not annex else None
