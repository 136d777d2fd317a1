"""Tournament points (rule 9), the time used and its penalties (rules 2 and 9), defaults (rule 7)
and the vanished game (rule 3), read as INTERPRETATIONS.md says.

TPs are counted in tenths (whole numbers): the table of rule 9 is to the tenth, so sums never drift.
"""

from __future__ import annotations

import datetime as dt
import math
import re
from dataclasses import dataclass

from reportgen.ingest.values import BadValue, shown

TENTHS = 10  # a TP is 10 tenths
GAME = 20 * TENTHS  # the 20 TPs the two players share in a game
# Rule 7: a default wins 50 tiles to 14 (20 TPs to 0) in a knockout event, 35 to 15 (18 to 2)
# elsewhere « pour éviter une très grande distorsion du résultat du tournoi entier ».
KNOCKOUT_DEFAULT = (50, 14, 20 * TENTHS, 0)
ALL_PLAY_ALL_DEFAULT = (35, 15, 18 * TENTHS, 2 * TENTHS)
# Rule 3: both players disconnected and the game vanished: « un match nul 23-23 ».
VANISHED_TILES = 23

PLAYED, DEFAULT, VANISHED = "partie", "forfait", "disparue"


def winner_tenths(margin: int) -> int:
    """Rule 9: the winner's TPs in tenths for a margin in tiles: 10 + 2 + (4/3)·√margin rounded to
    0.1, at most 20; a margin of 0 is a draw, 10 each. (No margin falls on a half tenth: √m is
    irrational unless m is a square, and the squares give 13.33…, 14.66…, 16, 17.33…, 18.66…, 20.)"""
    if margin < 0:
        raise ValueError("a margin is never negative")
    if margin == 0:
        return 10 * TENTHS
    return min(GAME, round(12 * TENTHS + TENTHS * 4 / 3 * math.sqrt(margin)))


def penalty(seconds: int | None, limit_minutes: int = 15) -> int:
    """Rules 2 and 9: the TPs a player gives his opponent for his time used: whole minutes
    (15:59 → 15), one TP at the limit and one more per whole minute beyond (15 → 1, 16 → 2)."""
    if seconds is None:
        return 0
    return max(0, seconds // 60 - limit_minutes + 1)


# -- the time as typed ---------------------------------------------------------------------------

HOUR = 3600
_MINUTES_SECONDS = re.compile(r"^(?:0?0\s*:\s*)?(\d{1,2})\s*(?::|'|’|min|mn|m)\s*(\d{2})\s*(?:''|\"|”|s|sec)?$")
_MINUTES = re.compile(r"^(\d{1,2})\s*(?:'|’|min|mn|m|minutes?)?$")
TIME_FIX = "écrivez le temps utilisé en minutes et secondes (14:35) ou en minutes entières (14)"


def _clock(hours: int, minutes: int, seconds: int, typed: object) -> int:
    """An Excel time cell (h, m, s) to the seconds used. A game lasts less than an hour, and Excel
    reads a typed `15:30` as 15 h 30: hours then mean minutes and minutes seconds. A real duration
    under an hour (`0:15:30`, an [mm]:ss cell) is read as it is."""
    if hours == 0:
        return minutes * 60 + seconds
    if seconds == 0 and hours < 60:
        return hours * 60 + minutes
    raise BadValue(f"« {shown_time(typed)} » : une partie dure moins d’une heure", TIME_FIX)


def shown_time(value: object) -> str:
    if isinstance(value, dt.time):
        if value.hour == 0:
            return f"0:{value.minute:02d}:{value.second:02d}"
        return f"{value.hour}:{value.minute:02d}" + (f":{value.second:02d}" if value.second else "")
    if isinstance(value, dt.timedelta):
        total = round(value.total_seconds())
        return f"{total // 3600}:{total % 3600 // 60:02d}:{total % 60:02d}"
    return shown(value)


def read_time(value: object) -> int:
    """The seconds a player used, as typed: `mm:ss` text, whole minutes, or an Excel time cell
    (docs/formats.md). Refused: negative, non-whole minutes, an hour or more."""
    if isinstance(value, bool):
        raise BadValue(f"« {value} » n’est pas un temps", TIME_FIX)
    if isinstance(value, dt.datetime):
        if value.date() not in (dt.date(1899, 12, 30), dt.date(1899, 12, 31), dt.date(1900, 1, 1)):
            raise BadValue(f"« {shown(value)} » est une date, pas un temps", TIME_FIX)
        value = value.time()
    if isinstance(value, dt.time):
        total = round(value.hour * HOUR + value.minute * 60 + value.second + value.microsecond / 1e6)
        seconds = _clock(total // HOUR, total % HOUR // 60, total % 60, value)
    elif isinstance(value, dt.timedelta):
        total = round(value.total_seconds())
        if total < 0:
            raise BadValue(f"« {shown_time(value)} » est négatif", TIME_FIX)
        seconds = _clock(total // HOUR, total % HOUR // 60, total % 60, value)
    elif isinstance(value, (int, float)):
        if value < 0:
            raise BadValue(f"« {shown(value)} » est négatif", TIME_FIX)
        if 0 < value < 1:  # a time cell shown as a number: a fraction of a day
            total = round(value * 24 * HOUR)
            seconds = _clock(total // HOUR, total % HOUR // 60, total % 60, value)
        elif float(value).is_integer():
            seconds = int(value) * 60
        else:
            raise BadValue(f"« {shown(value)} » n’est pas un nombre entier de minutes", TIME_FIX)
    else:
        text = shown(value).strip().casefold()
        if match := _MINUTES_SECONDS.match(text):
            minutes, secs = int(match[1]), int(match[2])
            if secs >= 60:
                raise BadValue(f"« {shown(value)} » : les secondes vont de 00 à 59", TIME_FIX)
            seconds = minutes * 60 + secs
        elif match := _MINUTES.match(text):
            seconds = int(match[1]) * 60
        else:
            raise BadValue(f"« {shown(value)} » n’est pas un temps lisible", TIME_FIX)
    if seconds >= HOUR:
        raise BadValue(f"« {shown_time(value)} » : une partie dure moins d’une heure", TIME_FIX)
    return seconds


def time_text(seconds: int | None) -> str:
    """14:35 as the bulletin prints a time used; nothing when none was typed."""
    return "" if seconds is None else f"{seconds // 60}:{seconds % 60:02d}"


# -- a game scored ---------------------------------------------------------------------------------

@dataclass(frozen=True)
class Scored:
    """One game's outcome for both sides: tiles, TPs before and after the time penalties, wins."""

    kind: str  # PLAYED, DEFAULT or VANISHED
    tiles: tuple[int, int]
    base: tuple[int, int]  # TPs in tenths from the tiles (rule 9), or the default's
    penalties: tuple[int, int]  # TPs each player gives away for his time (rules 2 and 9)
    tps: tuple[int, int]  # in tenths, after the penalties, within 0..20 TPs
    wins: tuple[int, int]  # in halves: 2 a win on the board (or by the opponent's default), 1 a draw

    @property
    def rated(self) -> bool:
        """Rule 7: « un défaut ne compte pas pour la classification Elo »."""
        return self.kind != DEFAULT


def score_game(kind: str, tiles: tuple[int, int] | None, times: tuple[int | None, int | None],
               defaulted: int | None, knockout: bool, limit_minutes: int = 15) -> Scored:
    """A game's TPs. `defaulted` is the side (0 for A, 1 for B) that defaulted. Time penalties move
    TPs, never the winner: the game is won on the board (INTERPRETATIONS.md)."""
    if kind == DEFAULT:
        assert defaulted in (0, 1)
        win_tiles, lose_tiles, win_tps, lose_tps = KNOCKOUT_DEFAULT if knockout else ALL_PLAY_ALL_DEFAULT
        if defaulted == 1:
            return Scored(kind, (win_tiles, lose_tiles), (win_tps, lose_tps), (0, 0), (win_tps, lose_tps), (2, 0))
        return Scored(kind, (lose_tiles, win_tiles), (lose_tps, win_tps), (0, 0), (lose_tps, win_tps), (0, 2))
    if kind == VANISHED:  # a 23-23 draw in every respect; its times are not read
        half = 10 * TENTHS
        return Scored(kind, (VANISHED_TILES, VANISHED_TILES), (half, half), (0, 0), (half, half), (1, 1))
    assert tiles is not None
    margin = abs(tiles[0] - tiles[1])
    best = winner_tenths(margin)
    base = (best, GAME - best) if tiles[0] >= tiles[1] else (GAME - best, best)
    penalties = (penalty(times[0], limit_minutes), penalty(times[1], limit_minutes))
    a = min(GAME, max(0, base[0] - TENTHS * penalties[0] + TENTHS * penalties[1]))
    wins = (1, 1) if tiles[0] == tiles[1] else (2, 0) if tiles[0] > tiles[1] else (0, 2)
    return Scored(kind, tiles, base, penalties, (a, GAME - a), wins)
