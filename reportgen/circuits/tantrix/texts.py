"""How Tantrix values are written in its bulletins and annex: TPs, games won,
places, « Départage » texts, round names, and the paths of its documents."""

from __future__ import annotations

from reportgen import french
from reportgen.circuits import common
from reportgen.circuits.tantrix import metrics
from reportgen.circuits.tantrix.parse import ALL_PLAY_ALL, KNOCKOUT
from reportgen.circuits.tantrix.scoring import EventResult, RatingList
from reportgen.circuits.tantrix.standings import PLAYOFF, Line

CIRCUIT = "Tantrix"
KIND_LABELS = {KNOCKOUT: "élimination directe", ALL_PLAY_ALL: "toutes rondes"}


def defaults_lost(count: int) -> str:
    """« 3 parties perdues par forfait »: why a player is left out (rule 7), as the bulletin lists
    him, its method says the rule and his page's line for the event says it (documents.py
    `event_ranking`'s `left_out`)."""
    return f"{french.plural(count, 'partie perdue', 'parties perdues')} par forfait"


def tps_text(tenths: int) -> str:
    """TPs as every output writes them (the standings' column: « 18,0 », « 17,3 »)."""
    return french.column_value(metrics.tps_value(tenths), metrics.TPS.column)


def wins_text(halves: int) -> str:
    """Games won as every output writes them (the standings' column: « 2½ », « ½ », « 3 »)."""
    return french.column_value(common.from_halves(halves), metrics.WINS.column)


def margin_text(margin: int) -> str:
    """A margin as every output writes it (the standings' column: « +13 », « −4 », « 0 »)."""
    return french.column_value(margin, metrics.MARGIN.column)


def event_path(result: EventResult) -> str:
    event = result.event
    return f"{event.date.year}/{event.date.isoformat()}-{common.slug(event.name)}"


def list_path(ratings: RatingList) -> str:
    return f"{ratings.date.year}/classement-elo-{ratings.date.isoformat()}"


# Rule 10: a tie that no criterion splits and that no play-off decides shares the place; the
# bulletin says so, so that no row of a tie is left without its « Départage ».
SHARED = "place partagée (TPs entre eux, parties gagnées, marges et tuiles à égalité)"


def decided_text(line: Line, result: EventResult) -> str:
    """The « Départage » of a standings row in words: what set its place among equal TPs (rule 10),
    or, in a knockout, how the match of the last round he played was decided when it was not on
    TPs (rule 10 a), the winner's row saying « gagnée » and the loser's « perdue »."""
    if result.event.content.kind != KNOCKOUT:
        texts = metrics.EVENT.explained(line.decided_by)
        if line.tied and not line.playoff:
            texts.append(SHARED)
        return ", ".join(texts)
    last = max(m.round for m in result.matches)
    finals = [m for m in result.matches if m.round == last]
    texts = []
    for criterion in line.decided_by:
        mine = [m for m in result.matches if line.player in (m.a, m.b)]
        if criterion == PLAYOFF or not mine:
            texts.append(metrics.EVENT[criterion].in_match)
            continue
        match = max(mine, key=lambda m: m.round)
        what = "finale" if len(finals) == 1 and match is finals[0] else f"ronde {match.round}"
        texts.append(f"{what} {'gagnée' if match.winner == line.player else 'perdue'} "
                     f"{metrics.EVENT[criterion].in_match}")
    return ", ".join(texts)


def round_label(number: int, count: int, last: int) -> str:
    """Ronde 3 — finale; the names of the last rounds when their match counts fit."""
    names = {0: (1, "finale"), 1: (2, "demi-finales"), 2: (4, "quarts de finale"), 3: (8, "huitièmes de finale")}
    expected = names.get(last - number)
    return f"Ronde {number}" + (f"{french.SEPARATOR}{expected[1]}" if expected and expected[0] == count else "")


def complete(result: EventResult) -> bool:
    """A knockout is over once its last round is one match with a winner; an all-play-all's sheet
    holds its games as played (nothing tells a round still to come)."""
    if result.event.content.kind != KNOCKOUT:
        return True
    last = max(match.round for match in result.matches)
    finals = [match for match in result.matches if match.round == last]
    return len(finals) == 1 and finals[0].winner is not None
