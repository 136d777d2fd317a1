"""What the public site may show of a player (`Publication` column of joueurs.xlsx, EU data
protection): `oui` the name, `initiales` the initials (« D. M. »), `non` nothing (no page, not in
the search, « joueur non publié » in the rankings). The bulletins sent to clubs stay whole: the site's
own pages go through here, and the documents it links through their public copies
(site/public_copies.py), made with these same forms."""

from __future__ import annotations

import functools
import hashlib
import json
from collections.abc import Mapping

from reportgen.ingest.directories import Publication

HIDDEN_NAME = "joueur non publié"


class Public:
    """The public form of each player, from the directory's choices (player id -> (choice, initials))."""

    def __init__(self, choices: Mapping[str, tuple[str, str]] | None = None):
        self.choices = dict(choices or {})

    @functools.cached_property
    def digest(self) -> str:
        """A hash of every choice, made once: what a page that shows many players' public forms (a
        tournament's ranking) depends on besides their ids and names, so that its source key need not
        hold each row's public form (site/pages.py `event`); any choice changed changes it."""
        choices = sorted((player, str(choice), letters) for player, (choice, letters) in self.choices.items())
        return hashlib.sha256(json.dumps(choices, ensure_ascii=False).encode("utf-8")).hexdigest()

    def choice(self, player_id: str) -> str:
        return self.choices.get(player_id, (Publication.SHOWN, ""))[0]

    # `shown` and `name` are asked of every row of every table (500,000 times at 100x): a player who
    # chose nothing (most) answered by one lookup, without an enum's comparisons
    def shown(self, player_id: str) -> bool:
        """Whether the player has a page and a place in the search index."""
        found = self.choices.get(player_id)
        return found is None or found[0] != Publication.HIDDEN

    def name(self, player_id: str, name: str) -> str:
        found = self.choices.get(player_id)
        if found is None:
            return name
        choice, letters = found
        if choice == Publication.HIDDEN:
            return HIDDEN_NAME
        return letters if choice == Publication.INITIALS else name
