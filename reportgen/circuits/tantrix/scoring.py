"""The league's Tantrix events scored in date order (same date: by event name): each event's
standings, bracket, seeding list and colours, and the ratings carried from event to event, with a
rating list after each event date."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from itertools import groupby

import pandas as pd

from reportgen.circuits.tantrix import knockout as bracket
from reportgen.circuits.tantrix.games import EventGames, event_games
from reportgen.circuits.tantrix.parse import TantrixEvent
from reportgen.circuits.tantrix.ratings import Change, Rating, rate_event
from reportgen.circuits.tantrix.seeding import Colours, Seed, colours, draw_seed, seeding
from reportgen.circuits.tantrix.settings import TantrixSettings
from reportgen.circuits.tantrix.standings import Line, all_play_all
from reportgen.ingest.text import normalise_label
from reportgen.model import Problem


@dataclass
class EventResult:
    games: EventGames
    lines: list[Line]  # the standings, best first (players left out are not in them)
    matches: list[bracket.Match]  # knockout only
    seeds: list[Seed]
    draw_seed: int | None  # None without `Inscrits`: no colours are assigned
    colours: list[Colours]  # by game, in the order of the sheet
    changes: dict[str, Change]  # rating changes through this event
    ratings_date: dt.date | None  # the rating list the seeding used (None: no earlier event)

    @property
    def event(self) -> TantrixEvent:
        return self.games.event


@dataclass(frozen=True)
class ListRow:
    player: str
    name: str
    rating: Rating
    previous: Rating | None  # in the previous list; None for a player new to the list
    rank: int
    tied: bool


@dataclass
class RatingList:
    date: dt.date
    events: list[EventResult]  # the events of that date
    rows: list[ListRow]
    previous: dt.date | None  # the date of the previous list


@dataclass
class Scored:
    events: list[EventResult] = field(default_factory=list)
    lists: list[RatingList] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)


def order(events: list[TantrixEvent]) -> list[TantrixEvent]:
    """INTERPRETATIONS.md: date order, same date by event name (then its file, for two of a name).
    By name is alphabetical as a French reader sorts: case and accents aside (« coupe » before
    « Étoile » before « Open »), not by character codes, which put every capital before every small
    letter and « É » after « Z »."""
    return sorted(events, key=lambda event: (event.date, normalise_label(event.name), event.name, event.id))


def score_events(results: pd.DataFrame, events: list[TantrixEvent], settings: TantrixSettings) -> Scored:
    scored = Scored()
    played = [event_games(event, results, settings) for event in order(events)]
    for games in played:
        if games.knockout:
            scored.problems += bracket.check(bracket.matches(games.games), games.names)
    if scored.problems:
        return scored
    ratings: dict[str, Rating] = {}
    names: dict[str, str] = {}
    known: dict[str, str] = {}  # name key -> player id, from the events before
    previous: RatingList | None = None
    for day, same_day in groupby(played, key=lambda games: games.event.date):
        at_date = dict(ratings)  # the seeding uses the events strictly before this date only
        done = []
        for games in same_day:
            names.update(games.names)
            done.append(_event(games, at_date, previous.date if previous else None, known, settings))
            known.update(games.keys)
            changes = rate_event(ratings, games.games, settings)
            done[-1].changes = changes
            ratings.update({player: change.after for player, change in changes.items()})
        scored.events += done
        previous = _list(day, done, ratings, names, previous)
        scored.lists.append(previous)
    return scored


def _event(games: EventGames, ratings: dict[str, Rating], ratings_date: dt.date | None, known: dict[str, str],
           settings: TantrixSettings) -> EventResult:
    event = games.event
    players = [player for player in games.players if player not in set(games.left_out)]
    counted = games.counted()
    matches: list[bracket.Match] = []
    if games.knockout:
        matches = bracket.matches(games.games)
        lines = bracket.knockout(players, games.names, counted, matches)
    else:
        lines = all_play_all(players, games.names, counted, settings.playoff_places)
    registered = {games.keys[r.key]: r for r in event.content.registrations if r.key in games.keys}
    names = dict(games.names)
    # Registered, but no game typed yet: known by his name from earlier events, or new.
    absent = {known.get(r.key, f"inscrit:{r.key}"): r for r in event.content.registrations if r.key not in games.keys}
    names.update({player: r.name for player, r in absent.items()})  # registered, but no game typed
    registered.update(absent)
    listed = games.players + sorted(absent, key=lambda player: names[player])
    seeds = seeding(listed, names, ratings, registered, settings)
    seed = None
    drawn: list[Colours] = []
    if event.content.has_registrations:
        seed = draw_seed(event)
        preferences = {r.key: r.colours for r in event.content.registrations}
        drawn = colours(event.content.games, preferences, seed)
    return EventResult(games, lines, matches, seeds, seed, drawn, {}, ratings_date)


def _list(day: dt.date, events: list[EventResult], ratings: dict[str, Rating], names: dict[str, str],
          previous: RatingList | None) -> RatingList:
    before = {row.player: row.rating for row in previous.rows} if previous else {}
    rated = sorted((player for player, rating in ratings.items() if rating.games > 0),
                   key=lambda player: (-round(ratings[player].value, 1), names[player], player))
    rows: list[ListRow] = []
    for index, player in enumerate(rated):
        shown = round(ratings[player].value, 1)
        level = bool(rows) and round(rows[-1].rating.value, 1) == shown
        if level:  # ratings equal to the tenth shown share the place
            rows[-1] = ListRow(rows[-1].player, rows[-1].name, rows[-1].rating, rows[-1].previous, rows[-1].rank, True)
        rows.append(ListRow(player, names[player], ratings[player], before.get(player),
                            rows[-1].rank if level else index + 1, level))
    return RatingList(day, events, rows, previous.date if previous else None)
