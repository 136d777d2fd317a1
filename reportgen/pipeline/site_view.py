"""outputs/ as the site's pages will find it once this build's circuits are published, before they are.

Why: the site's pages are drawn from what each circuit published, its manifest and `site.json` in
outputs/<circuit>/ (site/sources.py), so they were made once every circuit was published, after the
last PDF: one new tournament at 1x made its site pages (0.6 CPU-s) after its only PDF, when the PDF
no longer kept the other core busy, and before nothing else. Nothing a page shows waits for a PDF:
the manifest's title, regulation, documents, annexes and public copies, and `site.json`, are known
once the circuit is laid out. The build now makes the pages from a `View` while the PDFs render,
stages them, and publishes them after the circuits as before (pipeline/building.py).

A `View` is a private temporary folder laid out as outputs/ is for the site: for each circuit this
build laid out, the manifest it will publish (all but its PDFs' hashes, which no page reads) and a
link to its `site.json` as staged (or to outputs/' when unchanged); for every other circuit a link
to outputs/<circuit> (a blocked circuit keeps its last publication there); `site` a link to
outputs/site (the Open Graph images already drawn, site/og.py). `discard` removes it; one a killed
build leaves is in the system's temporary folder, never in outputs/, and the next build removes it
(render/scratch.py).
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from reportgen.render.index import MANIFEST
from reportgen.render.scratch import Scratch
from reportgen.site.data import DATA
from reportgen.site.pages import FOLDER


class View:
    """A folder to give the site (`Site(view.folder, ...)`) in place of outputs/."""

    def __init__(self, outputs: Path) -> None:
        self.outputs = outputs.absolute()
        self.scratch = Scratch("site-view")
        self.folder = self.scratch.folder
        self.laid: set[str] = set()

    def circuit(self, slug: str, manifest: bytes, data: Path) -> None:
        """The circuit `slug` as it will be published: its manifest's bytes, and the file that holds
        its `site.json` until then."""
        folder = self.folder / slug
        folder.mkdir()
        (folder / MANIFEST).write_bytes(manifest)
        (folder / DATA).symlink_to(data.absolute())
        self.laid.add(slug)

    def complete(self, slugs: Iterable[str]) -> bool:
        """Every other circuit of `slugs` as outputs/ holds it, and the site's folder; True when the
        site has a circuit to show (a manifest, this build's or one already published)."""
        for slug in slugs:
            if slug not in self.laid and (self.outputs / slug).is_dir():
                (self.folder / slug).symlink_to(self.outputs / slug, target_is_directory=True)
        (self.folder / FOLDER).symlink_to(self.outputs / FOLDER, target_is_directory=True)
        return any((self.folder / slug / MANIFEST).is_file() for slug in slugs)

    def discard(self) -> None:
        self.scratch.discard()
