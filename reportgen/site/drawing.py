"""The site's Open Graph cards drawn in a worker process, on the second core, while this process
makes the pages (eleventh round).

Why: in a first build at 100x the cards (site/og.py, about 4,000, 12 ms each) were half of the
site's time, drawn one after the other by the process that also makes the pages. A card is plain
text in (`og.Card`) and PNG bytes out, the same bytes whoever draws it (og.draw depends on the card,
the font files and Pillow only), so one worker can draw them while the pages are made.

When: only with many cards to draw (a worker costs a fork, or a fresh interpreter and Pillow's
import when spawned: not worth it for the few cards of a new tournament) and when nothing else uses
the second core (the build says so: no PDF rendering then, pipeline/building.py). The first
`THRESHOLD` cards are drawn here; the next are queued for the worker and shared with it as
site/sharing.py does (at most `Shared.in_flight` given to it at a time, the next given as it sends
cards back). The pages name every card early (the seasons' and tournaments' pages come first), the
players' and clubs' pages name none: the queue lets the worker draw while this process makes those
(thirteenth round; before, this process drew each card the worker was behind on at once, a third of
them at 100x, and the worker then idled through the players' pages). Whatever is still queued when
the pages are done is shared: this process draws from the queue's end while the worker draws from
its start. A worker that fails (dies, stays silent, cannot start) is killed and its cards drawn
here: the site is the same, only slower. It runs at the build's own priority: the worker that drew
the tournaments' cards ahead (site/cards_ahead.py) ran at the lowest, and is stopped as the pages
begin (thirty-fifth round: handed the pages' cards, it drew next to none of them on a busy machine,
and the build's process drew 4,000 cards itself at 100x).

The worker leaves Ctrl-C to the build and dies with it (reading_worker.die_with_parent), as the
reading workers do."""

from __future__ import annotations

import gc
from multiprocessing.connection import Connection
from typing import TYPE_CHECKING

from reportgen.site import og
from reportgen.site.sharing import Shared, answer

if TYPE_CHECKING:
    from reportgen.ingest.reading_pool import SideWorker

THRESHOLD = 24  # cards drawn here before a worker is started


class Cards(Shared[og.Card]):
    """The cards the pages name and that no earlier build drew, drawn here or by the worker
    (site/sharing.py); `ready` gives those drawn so far, `finish` the rest once all are drawn."""

    def draw(self, path: str, card: og.Card) -> None:
        """`card` drawn for `path`, now (the first `THRESHOLD`) or by the worker."""
        if self.worker is None and self.made_here < THRESHOLD:
            self._make_here(path, card)
        else:
            self.queue(path, card)

    def _here(self, path: str, item: og.Card) -> bytes:
        return og.draw(item)

    def _start(self) -> SideWorker | None:
        return _start()


def _start() -> SideWorker | None:
    from reportgen.ingest.reading_pool import SideWorker

    return SideWorker.start(serve)


def serve(connection: Connection, parent: int) -> None:
    """The worker: (path, card) in, (path, PNG bytes or None if drawing failed) out, until the
    build closes the pipe."""
    from reportgen.ingest.reading_worker import close_parent_ends, die_with_parent

    die_with_parent(parent)
    gc.freeze()  # forked: what the build held is left out of the collector's passes
    close_parent_ends()  # forked: its copy of the build's end of its pipe, which it must see closed
    answer(connection, og.draw)
