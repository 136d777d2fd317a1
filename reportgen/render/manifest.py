"""A circuit's manifest (`publications.json`), typed: what it publishes (documents, annexes), the
proofs the next build needs to take a file from disk (`made_from`, `pdfs`), and the sources of the
publication (render/changes.py). Written last with the circuit's files; `to_json` gives the bytes
the build has always written (and its `format` since the second), `from_json` reads them back."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from reportgen.model import Report

# What the files it hashes are for the same results: a ranking's CSV written otherwise for the same
# rows (the Tantrix évolution with its sign, since format 2) is a new format. The next build compares
# its rankings' CSV bytes with the previous publication's only when both are of one format
# (render/changes.py); a manifest that says none is the first format's (no `final`, no calendar).
FORMAT = 2


@dataclass
class DocumentEntry:
    season: int
    date: str  # ISO
    title: str
    path: str  # relative to the circuit's folder, without extension
    csv: bool  # a ranking CSV beside it
    events: list[str] = field(default_factory=list)  # the tournaments it reports on (Document.events)


@dataclass
class AnnexEntry:
    season: int
    date: str
    title: str
    path: str
    sha256: str | None = None  # the XLSX published, set once it is rendered


@dataclass
class Manifest:
    circuit: str
    title: str
    regulation: str
    documents: list[DocumentEntry] = field(default_factory=list)
    annexes: list[AnnexEntry] = field(default_factory=list)
    made_from: dict[str, dict[str, str]] = field(default_factory=dict)  # file -> source key and hash
    pdfs: dict[str, Any] = field(default_factory=dict)  # PDF -> its record (render/pdf.py `record`)
    sources: dict[str, Any] | None = None  # render/changes.py `sources`
    # A whole file naming a player who chose `initiales` or `non` -> its public copy, which the site
    # links and `reportgen publish` uploads instead (site/public_copies.py); paths with extension
    public: dict[str, str] = field(default_factory=dict)
    # The public copies' keys under which a whole file was found to name no such player: no copy,
    # known so by the next build without masking it again (pipeline/publishing.py `copy_of`)
    unmasked: list[str] = field(default_factory=list)
    # The documents it published before and no longer does, withdrawn (a season opened again, a
    # workbook removed), each as it was with the sources it was made from, until published again
    # (render/changes.py `withdrawn`): then compared with what was withdrawn
    withdrawn: list[dict[str, Any]] = field(default_factory=list)
    format: int = FORMAT

    @classmethod
    def of(cls, slug: str, title: str, regulation: str, report: Report) -> Manifest:
        csv_paths = {ranking.path for ranking in report.rankings}
        return cls(slug, title, regulation,
                   [DocumentEntry(d.season, d.date.isoformat(), d.title, d.path, d.path in csv_paths, list(d.events))
                    for d in report.documents],
                   [AnnexEntry(a.season, a.date.isoformat(), a.title, a.path) for a in report.annexes])

    def as_dict(self) -> dict[str, Any]:
        """As JSON holds it, keys in the order the build has always written them."""
        data: dict[str, Any] = {
            "circuit": self.circuit, "title": self.title, "regulation": self.regulation,
            "documents": [{"season": d.season, "date": d.date, "title": d.title, "path": d.path, "csv": d.csv,
                           **({"events": d.events} if d.events else {})} for d in self.documents],
            "annexes": [{"season": a.season, "date": a.date, "title": a.title, "path": a.path,
                         **({"sha256": a.sha256} if a.sha256 is not None else {})} for a in self.annexes],
            "made_from": dict(sorted(self.made_from.items())),
            "pdfs": self.pdfs,
            "format": self.format,
        }
        if self.sources is not None:
            data["sources"] = self.sources
        if self.public:  # absent when no player hides: the bytes of a league without such a choice
            data["public"] = dict(sorted(self.public.items()))
        if self.unmasked:
            data["unmasked"] = sorted(self.unmasked)
        if self.withdrawn:  # absent when none: the bytes of a publication that never withdrew one
            data["withdrawn"] = self.withdrawn
        return data

    def to_json(self) -> bytes:
        return (json.dumps(self.as_dict(), ensure_ascii=False, indent=1) + "\n").encode("utf-8")

    @classmethod
    def from_json(cls, data: bytes) -> Manifest:
        """Raises ValueError (KeyError, TypeError included) when it is not a manifest of ours."""
        try:
            raw = json.loads(data)
            return cls(raw["circuit"], raw["title"], raw["regulation"],
                       [DocumentEntry(d["season"], d["date"], d["title"], d["path"], d["csv"],
                                      list(d.get("events") or [])) for d in raw["documents"]],
                       [AnnexEntry(a["season"], a["date"], a["title"], a["path"], a.get("sha256"))
                        for a in raw["annexes"]],
                       dict(raw.get("made_from") or {}), dict(raw.get("pdfs") or {}), raw.get("sources"),
                       dict(raw.get("public") or {}), list(raw.get("unmasked") or []),
                       list(raw.get("withdrawn") or []), int(raw.get("format") or 1))
        except (KeyError, TypeError, AttributeError) as error:
            raise ValueError(f"not a manifest: {error}") from error
