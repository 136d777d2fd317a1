"""An event's seeding list (rule 13) and the colours of its games (rule 5).

Seeding: the ratings at the event's date, from the events strictly before that date only, so that a
published draw does not change when a later workbook arrives; a provisional rating is reduced
(INTERPRETATIONS.md). A player with no rated game yet is seeded by the `Elo` the organiser typed in
`Inscrits` (rule 13: « si un joueur n'en a pas… »), else by the starting rating, reduced.

Colours (rule 5): each player's first preference if the two differ, else the second preferences,
else one of the two remaining colours each, drawn at random. A player without preferences (none
typed in `Inscrits`) is drawn a colour the other did not ask for first. The draw is
reproducible: its seed is derived from the event (its name and date) and printed in the bulletin;
one generator `random.Random(seed)` serves the games in the order of the `Parties` sheet, each draw
being `sample(remaining, 2)` (A, B), or `choice(others)` for a player without preferences, the
colours in the order rouge, jaune, bleu, vert (docs/tantrix.md gives this recipe to a reader
redoing the draw; the bulletin gives the seed and points there).
"""

from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass

from reportgen.circuits.tantrix.parse import COLOURS, GameRow, Registration, TantrixEvent
from reportgen.circuits.tantrix.ratings import Rating
from reportgen.circuits.tantrix.settings import TantrixSettings
from reportgen.ingest.text import normalise_label

RATING, INSCRITS, START = "classement", "Inscrits", "départ"


@dataclass(frozen=True)
class Seed:
    number: int
    player: str
    name: str
    value: float  # what the seeding orders by
    rating: Rating | None  # the league rating at the event's date, None without a rated game
    source: str  # RATING, INSCRITS or START


def seeding(players: list[str], names: dict[str, str], ratings: dict[str, Rating],
            registrations: dict[str, Registration], settings: TantrixSettings) -> list[Seed]:
    """The seeding list: highest value first, then by name, alphabetically as a French reader sorts
    (case and accents aside: « ÉMERY » before « FAVRE »). `registrations` by player id."""
    entries: list[tuple[float, str, Rating | None, str]] = []
    for player in players:
        rating = ratings.get(player)
        typed = registrations.get(player)
        if rating is not None and rating.games > 0:
            entries.append((rating.seeding(settings), player, rating, RATING))
        elif settings.seed_unrated_from_inscrits and typed is not None and typed.elo is not None:
            entries.append((typed.elo, player, None, INSCRITS))
        else:
            entries.append((Rating(settings.rating_start, 0).seeding(settings), player, None, START))
    entries.sort(key=lambda entry: (-entry[0], normalise_label(names[entry[1]]), names[entry[1]], entry[1]))
    return [Seed(number, player, names[player], value, rating, source)
            for number, (value, player, rating, source) in enumerate(entries, start=1)]


def draw_seed(event: TantrixEvent) -> int:
    """The random seed of an event's colour draw: from its name and date, so the same workbook
    always gives the same colours (and the same bytes)."""
    digest = hashlib.sha256(f"tantrix|{event.name}|{event.date.isoformat()}".encode()).hexdigest()
    return int(digest[:8], 16)


@dataclass(frozen=True)
class Colours:
    a: str
    b: str
    drawn: bool  # at random (rule 5: same first and second preferences)


def game_colours(first: tuple[str | None, str | None], second: tuple[str | None, str | None],
                 rng: random.Random, palette: tuple[str, ...] = COLOURS) -> Colours:
    """Rule 5 for one game: A's and B's (first, second) preferences."""
    if first[0] and second[0] and first[0] != second[0]:
        return Colours(first[0], second[0], False)
    if first[0] and second[0] and first[1] and second[1] and first[1] != second[1]:
        return Colours(first[1], second[1], False)
    if bool(first[0]) != bool(second[0]):  # one player gave no preference: the other has his first
        known = first[0] or second[0]
        other = rng.choice([colour for colour in palette if colour != known])
        return Colours(known, other, True) if first[0] else Colours(other, known, True)  # type: ignore[arg-type]
    wanted = {colour for colour in (*first, *second) if colour}
    remaining = [colour for colour in palette if colour not in wanted]
    if len(remaining) < 2:
        remaining = list(palette)
    a, b = rng.sample(remaining, 2)
    return Colours(a, b, True)


def colours(games: list[GameRow], preferences: dict[str, tuple[str | None, str | None]], seed: int) -> list[Colours]:
    """The colours of every game, in the order of the sheet; `preferences` by name key (a player
    without any, or missing from them, is drawn a colour)."""
    rng = random.Random(seed)
    return [game_colours(preferences.get(game.key_a, (None, None)), preferences.get(game.key_b, (None, None)),
                         rng, COLOURS)
            for game in sorted(games, key=lambda game: game.line)]
