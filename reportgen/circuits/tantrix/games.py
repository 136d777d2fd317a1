"""An event's games with the players' league identities, scored (rules 3, 7, 9), and who is left
out of the standings for his defaults (rule 7)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

import pandas as pd

from reportgen.circuits.tantrix.parse import KNOCKOUT, GameRow, TantrixEvent
from reportgen.circuits.tantrix.points import DEFAULT, Scored, score_game
from reportgen.circuits.tantrix.settings import TantrixSettings


@dataclass(frozen=True)
class Game:
    row: GameRow
    a: str  # player ids
    b: str
    scored: Scored

    @property
    def players(self) -> tuple[str, str]:
        return self.a, self.b

    def side(self, player: str) -> int:
        return 0 if player == self.a else 1

    def involves(self, players: set[str]) -> bool:
        return self.a in players or self.b in players


@dataclass
class EventGames:
    event: TantrixEvent
    games: list[Game]
    names: dict[str, str]  # player id -> NOM Prénom as the league prints it
    keys: dict[str, str]  # name key in this event -> player id
    defaults_lost: dict[str, int] = field(default_factory=dict)
    left_out: list[str] = field(default_factory=list)  # rule 7: more defaults lost than allowed

    @property
    def knockout(self) -> bool:
        return self.event.content.kind == KNOCKOUT

    @property
    def players(self) -> list[str]:
        """Every player of the event, by name."""
        return sorted(self.names, key=lambda player: (self.names[player], player))

    def counted(self) -> list[Game]:
        """The games the standings count: none of a player left out, on either side (rule 7)."""
        out = set(self.left_out)
        return [game for game in self.games if not game.involves(out)]


def event_games(event: TantrixEvent, results: pd.DataFrame, settings: TantrixSettings) -> EventGames:
    mine = results[results["event"] == event.id]
    keys = dict(zip(mine["key"], mine["player_id"]))
    names = dict(zip(mine["player_id"], mine["player"]))
    knockout = event.content.kind == KNOCKOUT
    games = [Game(row, keys[row.key_a], keys[row.key_b],
                  score_game(row.kind, row.tiles, row.times, row.defaulted, knockout, settings.time_limit_minutes))
             for row in event.content.games]
    lost = Counter(game.players[game.row.defaulted] for game in games
                   if game.row.kind == DEFAULT and game.row.defaulted is not None)
    left_out = sorted((player for player, count in lost.items() if count > settings.max_defaults),
                      key=lambda player: names[player])
    return EventGames(event, games, names, keys, dict(lost), left_out)
