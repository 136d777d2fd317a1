"""The site's pages written as they are made (issue 27): a build stages each page of outputs/site/
as `Site.each_page` yields it (render/staging.py), instead of holding every page in a dict until
the end. Nothing shows before the commit: a build stopped while its pages are made leaves outputs/
as it was (the pages are made while the PDFs render, before any circuit is published:
tests/test_build_order.py), and its staged pages are removed; what a kill leaves is removed by the
next build."""

from __future__ import annotations

import html
import re

import pytest

from reportgen import circuits
from reportgen.pipeline import build
from reportgen.site.pages import FOLDER, HOME, Site
from tests.builders import TODAY
from tests.test_hostile_files import snapshot
from tests.test_hostile_publish import temporaries


def site(files: dict[str, bytes]) -> dict[str, bytes]:
    """The site: the home page and outputs/site/ (pages, images, search index, history)."""
    return {name: data for name, data in files.items() if name == HOME or name.startswith(f"{FOLDER}/")}


def test_each_page_yields_every_page_once_and_every_image_a_page_names(small_league_built):
    outputs = small_league_built.outputs
    found = list(Site(outputs, list(circuits.CIRCUITS), "Ligue").each_page())
    paths = [path for path, _ in found]
    assert len(paths) == len(set(paths)) and paths[0] == HOME
    pages = dict(found)
    assert pages == Site(outputs, list(circuits.CIRCUITS), "Ligue").pages()
    named = {f"{FOLDER}/{name.decode()}" for data in pages.values() if data.startswith(b"<!DOCTYPE")
             for name in re.findall(rb'og:image" content="(?:site/)?(og-[0-9a-f]+\.png)"', data)}
    images = {path for path in pages if path.endswith(".png")}
    assert named and named == images and all(pages[path].startswith(b"\x89PNG") for path in images)


def test_a_build_stopped_while_its_site_pages_are_made_leaves_outputs_as_they_were(new_tournament_league, monkeypatch):
    inputs, outputs = new_tournament_league
    before = snapshot(outputs)
    seen: list[str] = []
    real = Site.player
    count = [0]

    def stopping(self, player):  # type: ignore[no-untyped-def]
        count[0] += 1
        if count[0] == 3:  # a few pages already made: they are staged, not shown
            seen.extend(temporaries(outputs))
            raise KeyboardInterrupt
        return real(self, player)

    monkeypatch.setattr(Site, "player", stopping)
    with pytest.raises(KeyboardInterrupt):
        build(inputs, outputs, TODAY)
    assert any(name.startswith(f"{FOLDER}/.") for name in seen), seen  # the pages made so far were staged
    assert site(snapshot(outputs)) == site(before) and temporaries(outputs) == []
    monkeypatch.setattr(Site, "player", real)
    assert build(inputs, outputs, TODAY).ok  # and the next build publishes the whole site


def test_what_a_killed_build_staged_in_the_site_is_removed_by_the_next(new_tournament_league, tmp_path):
    inputs, outputs = new_tournament_league
    for name in (f"{FOLDER}/.joueur-0123456789ab.html.k2j3h4.tmp", f"{FOLDER}/.og-0123456789abcdef.png.x1.tmp"):
        (outputs / name).write_bytes(b"half")
    assert build(inputs, outputs, TODAY).ok
    assert temporaries(outputs) == []
    fresh = tmp_path / "fresh"
    assert build(inputs, fresh, TODAY).ok
    assert site(snapshot(fresh)) == site(snapshot(outputs))  # staged page by page: a full build's bytes



def test_the_staging_takes_each_pages_digest_from_its_record_and_reads_no_page_twice(small_league_built, tmp_path,
                                                                                    monkeypatch):
    """`stage` with the pages' records (site/reuse.py): a page taken from disk, read and checked once
    by its record, is neither read nor staged again, nor is an Open Graph card taken by its name
    (site/og.py `known`); every digest is the one a staging without the records computes from the
    bytes; a page rendered anew is staged with its record's digest."""
    from pathlib import Path
    from shutil import copytree

    from reportgen.render.staging import Staging
    from reportgen.site import publish
    from reportgen.site.reuse import Pages

    outputs = tmp_path / "outputs"
    copytree(small_league_built.outputs, outputs)
    name = html.unescape(re.search(r'og:site_name" content="([^"]*)"', (outputs / HOME).read_text(
        encoding="utf-8")).group(1))  # as the build named it: its pages' sources are this build's
    edited = next(path for path in sorted((outputs / FOLDER).glob("joueur-*.html")))
    edited.write_bytes(edited.read_bytes() + b"\n")  # edited by hand: rendered again
    reads: list[Path] = []
    real_read = Path.read_bytes

    def counted(path: Path) -> bytes:
        reads.append(path)
        return real_read(path)

    made = Pages(outputs)
    with_records = Staging(outputs / FOLDER)
    monkeypatch.setattr(Path, "read_bytes", counted)
    publish.stage(outputs, Site(outputs, list(circuits.CIRCUITS), name, reuse=made).each_page(), with_records, made)
    monkeypatch.undo()
    taken = {outputs / path for path in made.taken if path != HOME}  # the home page is written on its own
    assert len(taken) > 10 and made.rendered == [edited.relative_to(outputs).as_posix()]
    assert not [path for path in reads if path in taken and reads.count(path) > 1]  # each read once, by reuse
    assert all(with_records.staged[path] is None for path in taken)
    cards = set((outputs / FOLDER).glob("og-*.png"))
    assert cards and all(reads.count(path) == 1 and with_records.staged[path] is None for path in cards)
    assert with_records.staged[edited] is not None
    without = Staging(outputs / FOLDER)
    publish.stage(outputs, Site(outputs, list(circuits.CIRCUITS), name).each_page(), without)
    assert with_records.paths() == without.paths()
    assert {path: with_records.digest(path) for path in with_records.paths()} == {
        path: without.digest(path) for path in without.paths()}
    with_records.discard()
    without.discard()
