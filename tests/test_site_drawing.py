"""The Open Graph cards drawn by a worker process on the second core (site/drawing.py): the same
bytes as drawn in the build's process, a worker only when the build allows one and there are many
cards, and a worker that fails leaves its cards to the build's process, the site unchanged."""

from __future__ import annotations

import html
import os
import shutil
import signal
import time

import pytest

from reportgen import circuits
from reportgen.ingest import reading_pool
from reportgen.site import drawing, og
from reportgen.site.pages import Site
from tests.test_site_og import meta


def cards(count: int = 40) -> dict[str, og.Card]:
    names = ["DUPONT Jean", "ÉLOÏSE Çà ÿ gjpqy", "W" * 120, "a\u0301\u0301 Å", "😀 ﷺ", "—"]
    found = {}
    for index in range(count):
        rows = tuple((str(row + 1), names[(index + row) % len(names)], f"{100 - row} pts") for row in range(index % 5))
        found[f"site/og-{index}.png"] = og.Card("Ligue", names[index % len(names)], f"Saison {2020 + index % 3}", rows)
    return found


def drawn_by(drawer: drawing.Cards, given: dict[str, og.Card]) -> dict[str, bytes]:
    """Each card given to `drawer`, what it gave back as the pages are made, then at the end."""
    back: dict[str, bytes] = {}
    for path, card in given.items():
        drawer.draw(path, card)
        back.update(drawer.ready())
    back.update(drawer.finish())
    return back


@pytest.fixture
def few(monkeypatch):
    monkeypatch.setattr(drawing, "THRESHOLD", 4)  # a worker from the fifth card


def test_the_cards_a_worker_draws_are_those_drawn_here(few):
    given = cards()
    drawer = drawing.Cards(aside=True)
    back = drawn_by(drawer, given)
    assert drawer.made_here < len(given)  # the worker drew the others
    assert back == {path: og.draw(card) for path, card in given.items()}
    assert drawer.worker is None  # stopped once all were back


def test_cards_beyond_those_in_flight_wait_for_the_worker_rather_than_being_drawn_here(few, monkeypatch):
    """The pages name their cards early, and the players' pages after them none: the cards the worker
    has no room for yet are queued for it (given as it sends others back, between two pages, here
    `ready`), not drawn by the build's process at once, which then left the worker idle."""
    monkeypatch.setattr(drawing.Cards, "in_flight", 2)
    given = cards(20)
    drawer = drawing.Cards(aside=True)
    back: dict[str, bytes] = {}
    for path, card in given.items():
        drawer.draw(path, card)
    assert drawer.worker is not None and len(drawer.pending) == 2 and len(drawer.queued) == 14
    deadline = time.monotonic() + 60
    while (drawer.pending or drawer.queued) and time.monotonic() < deadline:  # the pages without cards
        back.update(drawer.ready())
        time.sleep(0.01)
    back.update(drawer.finish())
    assert drawer.made_here == drawing.THRESHOLD  # every card after those went to the worker
    assert back == {path: og.draw(card) for path, card in given.items()}


def test_a_forked_worker_ends_by_itself_once_its_pipe_is_closed(few, monkeypatch):
    """Forked, it holds a copy of the build's end of its pipe: unless it closes that copy, it never
    sees the pipe closed, and the build waits for it, then kills it, at every site. (Forked here
    whatever threads the test run has: the worker only draws.)"""
    monkeypatch.setattr(reading_pool, "_may_fork", lambda: True)
    drawer = drawing.Cards(aside=True)
    for path, card in cards(8).items():
        drawer.draw(path, card)
    worker = drawer.worker
    assert worker is not None
    list(drawer.finish())
    assert worker.process.exitcode == 0  # ended at the end of its pipe, not killed (-9)


def test_a_few_cards_are_drawn_at_once_without_a_worker(few, monkeypatch):
    """A rebuild's new tournament names a card or two: drawn by the pages at once, never waiting for
    a worker to start (the first `THRESHOLD` cards are drawn here)."""
    monkeypatch.setattr(drawing, "_start", lambda: pytest.fail("a worker was started"))
    given = cards(drawing.THRESHOLD)
    drawer = drawing.Cards(aside=True)
    assert drawn_by(drawer, given) == {path: og.draw(card) for path, card in given.items()}
    assert drawer.made_here == len(given)


def test_no_worker_while_the_second_core_renders_pdfs(few, monkeypatch):
    monkeypatch.setattr(drawing, "_start", lambda: pytest.fail("a worker was started"))
    given = cards(10)
    drawer = drawing.Cards(aside=False)
    assert drawn_by(drawer, given) == {path: og.draw(card) for path, card in given.items()}
    assert drawer.made_here == len(given)


def test_a_worker_killed_midway_leaves_its_cards_to_the_build(few):
    given = cards()
    drawer = drawing.Cards(aside=True)
    items = list(given.items())
    for path, card in items[:10]:
        drawer.draw(path, card)
    assert drawer.worker is not None and drawer.pending
    drawer.worker.process.kill()
    drawer.worker.process.join(5)
    back = dict(drawer.ready())
    for path, card in items[10:]:
        drawer.draw(path, card)
        back.update(drawer.ready())
    back.update(drawer.finish())
    assert back == {path: og.draw(card) for path, card in given.items()}
    assert not drawer.aside and drawer.worker is None  # no second worker


def test_a_worker_that_cannot_start_leaves_every_card_to_the_build(few, monkeypatch):
    monkeypatch.setattr(drawing, "_start", lambda: None)
    given = cards(10)
    drawer = drawing.Cards(aside=True)
    assert drawn_by(drawer, given) == {path: og.draw(card) for path, card in given.items()}
    assert drawer.made_here == len(given) and not drawer.aside


def test_a_card_the_worker_fails_to_draw_is_drawn_here_and_its_error_said(few, monkeypatch):
    """The worker answers None for a card it could not draw: drawn again here, where its error is
    raised as it was before the worker (here, a card that is no card)."""
    drawer = drawing.Cards(aside=True)
    for path, card in list(cards(6).items()):
        drawer.draw(path, card)
    drawer.draw("site/og-broken.png", "not a card")  # type: ignore[arg-type]
    with pytest.raises(AttributeError):
        dict(drawer.finish())
    drawer.close()


def test_a_site_whose_cards_a_worker_draws_is_the_same_site(small_league_copy, monkeypatch):
    monkeypatch.setattr(drawing, "THRESHOLD", 1)
    outputs = small_league_copy.outputs
    league = html.unescape(meta((outputs / "index.html").read_bytes(), "og:site_name"))
    shutil.rmtree(outputs / "site")  # every card to draw
    started = []
    real = drawing._start
    monkeypatch.setattr(drawing, "_start", lambda: started.append(1) or real())
    aside = Site(outputs, list(circuits.CIRCUITS), league, draw_aside=True).pages()
    assert started
    here = Site(outputs, list(circuits.CIRCUITS), league).pages()
    assert aside == here and any(path.endswith(".png") for path in here)


def test_the_worker_ignores_ctrl_c(few):
    """Ctrl-C reaches every process of a terminal's job: the build stops its worker itself."""
    drawer = drawing.Cards(aside=True)
    for path, card in list(cards(8).items()):
        drawer.draw(path, card)
    assert drawer.worker is not None
    # whenever it comes: a worker still starting has Ctrl-C blocked, then ignored (a pending one dropped)
    os.kill(drawer.worker.process.pid, signal.SIGINT)
    assert len(dict(drawer.finish())) == 8  # all back: it went on drawing
    assert drawer.worker is None


def test_a_site_stopped_while_the_worker_draws_stops_it_without_a_word(few, capfd):
    """The pages stopped (an error, Ctrl-C) with cards still in the worker: it is stopped, and says
    nothing (no traceback of a broken pipe)."""
    drawer = drawing.Cards(aside=True)
    for path, card in list(cards(30).items()):
        drawer.draw(path, card)
    worker = drawer.worker
    assert worker is not None and drawer.pending
    drawer.close()
    assert not worker.process.is_alive() and worker.process.exitcode == 0
    assert capfd.readouterr().err == ""
