"""What the site's pages are drawn from: each circuit as it published itself in outputs/ (its
manifest and `site.json`), with the archived seasons it no longer publishes, and each player's
lines in its rankings."""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from reportgen.render.index import MANIFEST, read_manifest
from reportgen.site import data


def shown_title(record: Mapping[str, Any]) -> str:
    """What the site calls a ranking record wherever it names it (lists, pages, search, cards): a
    tournament by its name (« Masters Grand Sud 2026 », its final ranking titled « Classement
    final »), any other ranking by its document's title. One rule, so that a tournament has one name
    on its page, in the search and in every list linking it."""
    if record["kind"] == "event":
        return record["name"] or record["title"]
    return record["title"] or record["name"]


def note_mark(record: Mapping[str, Any]) -> str:
    """A tournament that counts for nothing as the site's lists and its share card mark it: its note
    (Report.event_notes, what its page says of it) says it before its colon, « Hors circuit : ce
    tournoi ne compte pas … » marks it « hors circuit », « Moins de 8 participants : … » « moins de 8
    participants »; nothing for a tournament without a note."""
    head = record.get("note", "").split(":", 1)[0].strip()  # the note's « : » follows a no-break space
    return head[:1].lower() + head[1:]


@dataclass
class Circuit:
    slug: str
    title: str
    regulation: str
    blocked: bool
    documents: list[dict[str, Any]]
    annexes: list[dict[str, Any]]
    rankings: list[dict[str, Any]]
    # a whole file naming a player who chose `initiales` or `non` -> its public copy (manifest's `public`)
    public: dict[str, str] = field(default_factory=dict)

    def link(self, path: str) -> str:
        """The file the site links for one the circuit published (with its extension), relative to
        outputs/: its public copy when it has one, the file itself otherwise (site/public_copies.py)."""
        return f"{self.slug}/{self.public.get(path, path)}"
    scales: list[dict[str, Any]] = field(default_factory=list)  # its bulletins' points-by-place scales
    # id() of a ranking record read from site.json -> the SHA-256 of its text there (site/data.py
    # `read_records`); the records are held by `rankings` for the site's life
    digests: dict[int, str] = field(default_factory=dict, repr=False)

    def digest(self, ranking: dict[str, Any]) -> str | None:
        """What says all a ranking record holds, when it was read from site.json; None for an
        archived season's record (delivery/site_archive.py), or a file laid out otherwise."""
        return self.digests.get(id(ranking))

    @functools.cached_property
    def _paths(self) -> frozenset[str]:
        return frozenset(d["path"] for d in self.documents)

    def shown(self) -> dict[str, Any]:
        """What a page's template reads of the circuit (and so, with the rest of its context, what
        says whether the page changed: site/reuse.py)."""
        return {"title": self.title, "regulation": self.regulation, "blocked": self.blocked}

    def seasons(self) -> list[int]:
        return sorted({d["season"] for d in self.documents} | {r["season"] for r in self.rankings}, reverse=True)

    def headline(self, season: int) -> dict[str, Any] | None:
        """The ranking in force of a season: its latest season ranking, else its latest rating list,
        else its latest event. On a date with a dated and a final ranking, the final one once its
        season is over (`in_force`)."""
        mine = [r for r in self.rankings if r["season"] == season]
        for kind in ("season", "ratings", "event"):
            found = [r for r in mine if r["kind"] == kind]
            if found:
                return max(found, key=lambda r: (r["date"], r["status"] == "final" and self.in_force(r)))
        return None

    def in_force(self, ranking: dict[str, Any]) -> bool:
        """Whether a ranking stands for its season on its date: a dated one always, a final one once
        its season is over. While the season runs, its final ranking so far (the Grand Sud's: the
        season's tournaments alone, in force from 1 January) has no bulletin, only its CSV and annex;
        the ranking « à date » is the latest dated bulletin, the one the clubs' mails and PDFs show
        (issue 27, « one document per ranking »: each circuit's `score`). The final bulletin
        is published once the season is over or closed; an archived season's documents are in the
        archive, not in this manifest."""
        if ranking["kind"] != "season" or ranking["path"] in self._paths:
            return True
        return ranking["season"] not in self._document_seasons

    @functools.cached_property
    def _document_seasons(self) -> frozenset[int]:
        return frozenset(d["season"] for d in self.documents)

    def bulletin(self, path: str) -> str | None:
        """The HTML bulletin published under this path, relative to outputs/."""
        return self.link(f"{path}.html") if path in self._paths else None

    def reporting(self, event: str) -> list[dict[str, Any]]:
        """The documents published on tournament `event` (its id), in the manifest's order: the
        ranking after it, its own bulletin, its rounds (each document's `events`, which its circuit
        gives: model Document.events)."""
        return self._reporting.get(event, [])

    @functools.cached_property
    def _reporting(self) -> dict[str, list[dict[str, Any]]]:
        found: dict[str, list[dict[str, Any]]] = {}
        for document in self.documents:
            for event in document.get("events") or ():
                found.setdefault(event, []).append(document)
        return found


def load(outputs: Path, order: Sequence[str], blocked: Sequence[str],
         archived: Mapping[str, list[dict[str, Any]]] | None = None) -> list[Circuit]:
    """Each circuit as published in outputs/, with the archived rankings (delivery/site_archive.py)
    of the seasons it no longer publishes."""
    found = []
    for slug in order:
        manifest = read_manifest(outputs / slug / MANIFEST)
        if manifest is None:
            continue
        rankings, scales, digests = data.read_records(outputs / slug)  # one parse: site.json grows with the league
        # An annex's hash is no page's business, and the build gives the pages its manifest before
        # the annex worker's last annexes are back (pipeline/publishing.py `Later`): left out.
        annexes = [{key: value for key, value in annex.items() if key != "sha256"}
                   for annex in manifest.get("annexes") or []]
        # a manifest written before the thirty-second round quoted the title (« … »): the page sets it
        # as a title of its own (templates/site/season.html.j2), quoted once
        regulation = manifest["regulation"].removeprefix("« ").removesuffix(" »")
        circuit = Circuit(slug, manifest["title"], regulation, slug in blocked,
                          list(manifest.get("documents") or []), annexes,
                          rankings, dict(manifest.get("public") or {}), scales,
                          {id(r): d for r, d in zip(rankings, digests) if d is not None})
        current = set(circuit.seasons())
        circuit.rankings = [r for r in (archived or {}).get(slug, []) if r["season"] not in current] + circuit.rankings
        found.append(circuit)
    return found


@dataclass
class Entry:
    """One line of a player's page: his place in one published ranking."""

    circuit: Circuit
    ranking: dict[str, Any]
    row: dict[str, Any]
    index: int  # the row's among the ranking's rows


@dataclass
class Player:
    id: str
    name: str = ""
    entries: list[Entry] = field(default_factory=list)
