"""The site's pages made with the league's data out of Python's cycle collections (reportgen/collector.py):
the collector given back as it was, after loading, after the pages, after a stop or an error; and
the pages the same bytes whatever the collector did."""

from __future__ import annotations

import gc
import os
import weakref

import pytest

from reportgen import circuits, collector
from reportgen.site.pages import Site


@pytest.fixture
def as_found():
    """The collector as the test found it, whatever the test did."""
    enabled = gc.isenabled()
    yield
    gc.unfreeze()
    (gc.enable if enabled else gc.disable)()


def test_loading_leaves_the_collector_as_it_was(small_league_built, as_found):
    gc.enable()
    Site(small_league_built.outputs, list(circuits.CIRCUITS), "Ligue")
    assert gc.isenabled()
    gc.disable()  # a caller that turned it off keeps it off
    Site(small_league_built.outputs, list(circuits.CIRCUITS), "Ligue")
    assert not gc.isenabled()


def test_the_data_is_frozen_from_its_load_and_while_pages_are_made_and_thawed_after(small_league_built, as_found):
    gc.unfreeze()
    gc.enable()
    site = Site(small_league_built.outputs, list(circuits.CIRCUITS), "Ligue")
    assert gc.get_freeze_count() > 0  # parsed, out of the collections at once (collector.parsed)
    pages = site.each_page()
    next(pages)
    assert gc.get_freeze_count() > 0  # the league's data out of the collections
    pages.close()  # a build stopped between two pages
    assert gc.get_freeze_count() == 0
    everything = dict(site.each_page())
    assert gc.get_freeze_count() == 0 and "index.html" in everything
    with pytest.raises(RuntimeError), collector.parsed():
        raise RuntimeError("an error while the data is parsed: nothing frozen")
    assert gc.get_freeze_count() == 0 and gc.isenabled()
    with pytest.raises(RuntimeError), collector.frozen():
        raise RuntimeError("an error while the pages are made")
    assert gc.get_freeze_count() == 0


def test_the_pages_are_the_same_bytes_with_the_collector_on_or_off(small_league_built, as_found):
    made = Site(small_league_built.outputs, list(circuits.CIRCUITS), "Ligue").pages()
    gc.disable()
    assert Site(small_league_built.outputs, list(circuits.CIRCUITS), "Ligue").pages() == made


def test_a_pdf_is_laid_out_with_seldom_young_collections_and_the_collector_given_back(monkeypatch):
    """`render_pdf` under `seldom`: WeasyPrint's layout seen with the higher threshold, the
    threshold as it was after the PDF and after an error in it; the same bytes as with the
    collector's default (its passes change when cycles are freed, never what is written)."""
    from reportgen.render import pdf

    page = "<h1>Classement</h1>" + "".join(f"<p>JOUEUR{n} — {n} points</p>" for n in range(200))
    before = gc.get_threshold()
    seen = []
    lay_out = pdf._weasyprint().HTML.render
    monkeypatch.delenv("SOURCE_DATE_EPOCH", raising=False)

    def watched(document, *args, **kwargs):
        seen.append(gc.get_threshold()[0])
        assert os.environ["SOURCE_DATE_EPOCH"] == "946684800"  # the PDF's day: 1 January 2000
        return lay_out(document, *args, **kwargs)

    monkeypatch.setattr(pdf._weasyprint().HTML, "render", watched)
    seldom = pdf.render_pdf(page)
    assert seen == [collector.LAYOUT_THRESHOLD] and gc.get_threshold() == before
    assert "SOURCE_DATE_EPOCH" not in os.environ  # unset again, as it was
    monkeypatch.setattr(collector, "LAYOUT_THRESHOLD", before[0])
    assert pdf.render_pdf(page) == seldom and seen[-1] == before[0]

    def failing(document, *args, **kwargs):
        raise RuntimeError("a layout that fails")

    monkeypatch.setattr(pdf._weasyprint().HTML, "render", failing)
    with pytest.raises(RuntimeError):
        pdf.render_pdf(page)
    assert gc.get_threshold() == before and "SOURCE_DATE_EPOCH" not in os.environ


def test_a_site_is_freed_when_dropped_without_waiting_for_a_collection(small_league_built, as_found):
    """No cycle holds a `Site`: its data (1.4 million objects at 100x) goes with it by reference
    counting. A method of it given to the players' and clubs' pages made one, and the whole of it
    waited for the next full collection (1.8 CPU-s in a 100x rebuild, fifteenth round)."""
    gc.disable()
    site = Site(small_league_built.outputs, list(circuits.CIRCUITS), "Ligue")
    assert "index.html" in dict(site.each_page())
    gone = weakref.ref(site)
    del site
    assert gone() is None


@pytest.mark.parametrize("failing", [False, True])
def test_a_build_gives_the_collector_back_as_it_found_it(tmp_path, monkeypatch, as_found, failing):
    """`build` freezes the league once loaded and, once scored, what the scoring and the layouts
    made (pipeline/building.py: more is frozen when the site's pages start than when the players'
    notices, the last step before, did), and gives everything back at its end, whether it ends well
    or on an error after the freeze (here in the players' notices)."""
    from reportgen.pipeline import build, building
    from reportgen.site import pages
    from tests.builders import TODAY, small_league

    frozen: dict[str, int] = {}
    real_notices, real_site = building.player_notices, pages.Site.__init__

    def notices(*args, **kwargs):
        frozen["notices"] = gc.get_freeze_count()
        if failing:
            raise RuntimeError("a fault in the players' notices")
        return real_notices(*args, **kwargs)

    def site(self, *args, **kwargs):
        frozen.setdefault("pages", gc.get_freeze_count())
        real_site(self, *args, **kwargs)

    monkeypatch.setattr(building, "player_notices", notices)
    monkeypatch.setattr(pages.Site, "__init__", site)
    gc.unfreeze()
    gc.enable()
    inputs = small_league(tmp_path / "inputs")
    if failing:
        with pytest.raises(RuntimeError):
            build(inputs, tmp_path / "outputs", TODAY)
        assert "pages" not in frozen
    else:
        assert build(inputs, tmp_path / "outputs", TODAY).ok
        assert frozen["pages"] > frozen["notices"] > 0
    assert gc.isenabled() and gc.get_freeze_count() == 0
