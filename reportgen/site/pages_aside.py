"""The players' pages made by a worker process on the second core while this process makes them too
(issue 27, thirty-sixth round: the site's share of a first build).

Why: in a first build at 100x the players' 17,000 pages are about half of the site's part, made one
after the other by the build's process while the second core idles (the tournaments' cards were
drawn ahead, site/cards_ahead.py; the annexes are written). A player's page is made from the site's
data alone (each circuit's `site.json` and manifest, the archived seasons, the league's name, the
players' public forms: site/pages.py `Site`), so a second process that reads the same data makes the
same bytes.

When: only when nothing else uses the second core (no PDF renders: the build says so, as for the
cards) and when at least `PAGES` players' pages are to be made (a worker costs an interpreter, the
site's modules and the site's data read again, about 2.5 s at 100x: a rebuild's few pages are made
here). It is spawned, never forked (the build runs threads), right after the home page, every
player's page it is to make queued for it at once: it reads the data, then makes them while this
process makes the seasons' and tournaments' pages. Its memory is the site's data (650 MiB at 100x),
at a moment the build's process holds far less than at its peak (the Grand Sud's layout): the
tree's peak is unchanged (docs/performance.md, thirty-sixth round).

The build's process decides which pages are made (site/reuse.py: a page taken from the last build
never goes to the worker) and records them; the worker only makes what it is asked, from its start
of the queue while this process makes its end (site/sharing.py). The worker leaves Ctrl-C to the
build and dies with it (reading_worker.die_with_parent)."""

from __future__ import annotations

import gc
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from multiprocessing.connection import Connection
from pathlib import Path
from typing import TYPE_CHECKING, Any

from reportgen.site.sharing import Shared, answer

if TYPE_CHECKING:
    from reportgen.ingest.reading_pool import SideWorker
    from reportgen.site import og
    from reportgen.site.pages import Site

PAGES = 3000  # players' pages to make from which a worker makes some


@dataclass(frozen=True)
class Data:
    """What the worker's `Site` is made from: the same as the build's, for the same pages."""

    folder: str  # the site's data, as the build's Site reads it (pipeline/site_view.py)
    order: Sequence[str]
    league: str
    blocked: Sequence[str]
    choices: Mapping[str, tuple[str, str]]  # the players' public forms (site/privacy.py)
    archived: Mapping[str, list[dict[str, Any]]]
    url: str
    templates: str
    home: og.Card  # the card every player's page names (the home page's)


class PlayersPages(Shared[str]):
    """The players' pages to make, by path: the player's id, each made here (`make`) or by the worker;
    after a worker's failure, made here one at a time as they are given (`finish`)."""

    at_once = False

    def __init__(self, data: Data, make: Callable[[str], bytes]) -> None:
        super().__init__(aside=True)
        self.data = data
        self.make = make

    def _here(self, path: str, item: str) -> bytes:
        return self.make(item)

    def _start(self) -> SideWorker | None:
        return _start(self.data)

    def close(self) -> None:
        """The worker killed: it has nothing left to say (its pages all back, or the site stopped),
        and its interpreter would take a while to free the site's data on its way out."""
        if self.worker is not None:
            self.worker.process.kill()
        super().close()


def _start(data: Data) -> SideWorker | None:
    from reportgen.ingest.reading_pool import SideWorker

    worker = SideWorker.start(serve, spawned=True)
    if worker is None:
        return None
    try:
        worker.connection.send(data)
    except (OSError, ValueError):
        worker.stop()
        return None
    return worker


def serve(connection: Connection, parent: int) -> None:
    """The worker: the site's data, then (path, player id) in, (path, page or None if making it
    failed) out, until the build closes the pipe."""
    from reportgen.ingest.reading_worker import die_with_parent

    die_with_parent(parent)
    try:
        data: Data = connection.recv()
    except (EOFError, OSError):
        return
    site = _site(data)
    gc.freeze()  # the site's data, never garbage, out of the collector's passes
    if site is None:  # every page answered None: made by the build, which says the error
        answer(connection, _unmade)
    else:
        players, page = site.players, site.player_bytes
        answer(connection, lambda player: page(players[player]))


def _site(data: Data) -> Site | None:
    """The worker's `Site`, as the build's; None when the data cannot be read."""
    from reportgen.site.pages import FOLDER, Site
    from reportgen.site.privacy import Public

    try:
        site = Site(Path(data.folder), data.order, data.league, data.blocked, public=Public(data.choices),
                    archived=data.archived, url=data.url, templates=Path(data.templates))
    except Exception:  # noqa: BLE001
        return None
    site.home_card = data.home
    site.images.add(f"{FOLDER}/{data.home.file_name()}")  # the build gives the card: only its tags here
    return site


def _unmade(player: str) -> bytes:
    raise LookupError(f"the worker could not read the site's data: {player}'s page not made")
