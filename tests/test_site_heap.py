"""The site's pages made with the league's data out of Python's cycle collections (site/heap.py):
the collector given back as it was, after loading, after the pages, after a stop or an error; and
the pages the same bytes whatever the collector did."""

from __future__ import annotations

import gc

import pytest

from reportgen import circuits
from reportgen.site import heap
from reportgen.site.pages import Site


@pytest.fixture
def collector():
    """The collector as the test found it, whatever the test did."""
    enabled = gc.isenabled()
    yield
    gc.unfreeze()
    (gc.enable if enabled else gc.disable)()


def test_loading_leaves_the_collector_as_it_was(small_league_built, collector):
    gc.enable()
    Site(small_league_built.outputs, list(circuits.CIRCUITS), "Ligue")
    assert gc.isenabled()
    gc.disable()  # a caller that turned it off keeps it off
    Site(small_league_built.outputs, list(circuits.CIRCUITS), "Ligue")
    assert not gc.isenabled()


def test_the_data_is_frozen_from_its_load_and_while_pages_are_made_and_thawed_after(small_league_built, collector):
    gc.unfreeze()
    gc.enable()
    site = Site(small_league_built.outputs, list(circuits.CIRCUITS), "Ligue")
    assert gc.get_freeze_count() > 0  # parsed, out of the collections at once (heap.parsed)
    pages = site.each_page()
    next(pages)
    assert gc.get_freeze_count() > 0  # the league's data out of the collections
    pages.close()  # a build stopped between two pages
    assert gc.get_freeze_count() == 0
    everything = dict(site.each_page())
    assert gc.get_freeze_count() == 0 and "index.html" in everything
    with pytest.raises(RuntimeError), heap.parsed():
        raise RuntimeError("an error while the data is parsed: nothing frozen")
    assert gc.get_freeze_count() == 0 and gc.isenabled()
    with pytest.raises(RuntimeError), heap.frozen():
        raise RuntimeError("an error while the pages are made")
    assert gc.get_freeze_count() == 0


def test_the_pages_are_the_same_bytes_with_the_collector_on_or_off(small_league_built, collector):
    made = Site(small_league_built.outputs, list(circuits.CIRCUITS), "Ligue").pages()
    gc.disable()
    assert Site(small_league_built.outputs, list(circuits.CIRCUITS), "Ligue").pages() == made
