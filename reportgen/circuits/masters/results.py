"""Who plays the Masters, and which typed matches count.

Participants (INTERPRETATIONS.md): the first 16 of the final Grand Sud ranking who have not
withdrawn, the 17th, 18th... stepping in (§1), numbered 1..16 in ranking order for §2's schedule.
Players level across the 16th place: countback, else a play-off the secretary records in
`Désistements` (`qualify`).
"""

from __future__ import annotations

import datetime as dt
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TypeVar

from reportgen import french
from reportgen.circuits.masters.parse import PLAYOFF_LOST, MastersSheet, MatchRow, Recorded, Withdrawal
from reportgen.circuits.masters.schedule import PLAYERS, ROUNDS, SCHEDULE, TABLES
from reportgen.circuits.masters.settings import MastersSettings
from reportgen.circuits.masters.standings import Match, Participant
from reportgen.ingest.text import ClosedList, name_key
from reportgen.model import Problem, Ranking, RankingRow, Report, SourceRef
from reportgen.problems import (
    AMBIGUOUS_PLAYER,
    BAD_VALUE,
    DUPLICATE,
    NO_RANKING,
    PAIRING,
    QUALIFICATION_TIE,
    TOO_FEW,
    UNKNOWN_PLAYER,
)
from reportgen.scoring.in_force import ranking_in_force

T = TypeVar("T")
# Where a player stands for a Masters place (`qualify`): his rank, his countback key (empty when
# `qualification_countback` is off), the play-offs he lost.
Standing = tuple[int, tuple[int, ...], int]


def final_ranking(grand_sud: Report, season: int, where: SourceRef, day: dt.date | None = None, *,
                  problems: list[Problem]) -> Ranking | None:
    """The Grand Sud ranking that qualifies the Masters of `season` (§1: « classement annuel »), or
    None and why not added to `problems`.

    INTERPRETATIONS.md: « final » is the ranking in force on the Masters' date `day`: the season's
    final ranking when no tournament of the season is dated after the Masters (the usual case, and
    a Masters played the next year), else the season's ranking in force that day. A Grand Sud
    tournament dated after the Masters never changes who played it."""
    final = next((r for r in grand_sud.rankings if r.final and r.season == season), None)
    if final is None:
        problems.append(NO_RANKING(where, message=f"aucun classement final Grand Sud pour la saison {season}",
                                   fix="vérifiez la saison, ou ajoutez les tournois de cette saison"))
        return None
    if day is None or final.date <= day:
        return final
    # The final ranking holds from 1 January (in_force_from): on a day of the season itself, the
    # season's latest ranking dated by then is the one in force.
    season_rankings = [r for r in grand_sud.rankings if r.season == season and not r.final]
    in_force = ranking_in_force(season_rankings, day)
    if in_force is None:
        problems.append(NO_RANKING(where, message=f"aucun classement Grand Sud {season} n’existe au "
                                   f"{french.date_long(day)}, date du Masters",
                                   fix="vérifiez la date du Masters et la saison"))
    return in_force


@dataclass
class Qualified:
    """Who plays the Masters: the 16 (fewer when the ranking has too few), the problems (a
    withdrawal naming nobody, a tie across the 16th place nothing settles), the notices."""

    participants: list[Participant] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    notices: list[str] = field(default_factory=list)




def qualify(final: Ranking, withdrawals: list[Withdrawal], settings: MastersSettings = MastersSettings(),
            where: SourceRef | None = None) -> Qualified:
    """§1: « Les 16 premiers joueurs du classement annuel », the 17th, 18th… stepping in for those
    who withdrew. A tie across the 16th available place (INTERPRETATIONS.md, masters): the
    ranking's tie-breaks are already applied (a tie left in it is one they did not settle), then
    countback (`settings.qualification_countback`); players still level are not chosen: a problem
    at `where` (the `Désistements` sheet) asks for their play-off, whose losers are recorded there
    (`Motif`: « barrage perdu », a row per play-off lost): a loser did not withdraw, he comes after
    those level with him who won it (countback first, then play-offs lost), and before the next
    player of the ranking when a withdrawal opens a place. A withdrawal row wins over his play-off
    rows: he does not play."""
    result = Qualified()
    named = _named(final, withdrawals, result.problems)
    out = {player_id for player_id, withdrawal in _first_reasons(named).items() if not withdrawal.playoff}
    # INTERPRETATIONS.md (masters): a row « barrage perdu » per play-off lost. A play-off is between
    # players countback leaves level: losses order them after countback, never a player it put
    # behind. The losers of one play-off among three are ordered only if it ordered them, and the
    # secretary says so by a second row for the one it put last.
    lost = Counter(player_id for player_id, withdrawal in named if withdrawal.playoff and player_id not in out)
    longest = max((len(row.results) for row in final.rows), default=0)  # 0s padding alike compare alike

    def standing(row: RankingRow) -> Standing:
        countback = _countback(row, longest) if settings.qualification_countback else ()
        return row.rank, countback, lost[row.player_id]

    _level_with_nobody(final, named, out, lambda row: standing(row)[:2], result)
    available = sorted((row for row in final.rows if row.player_id not in out),
                       key=standing)  # stable: the ranking's order among equals
    chosen = available[:PLAYERS]
    if len(available) > PLAYERS and available[PLAYERS].rank == chosen[-1].rank:
        chosen = _across_the_cut(final, available, standing, settings, where or SourceRef("--season"), result)
    result.participants = [Participant(number, row.player_id, row.player, row.licence, row.club, row.rank)
                           for number, row in enumerate(chosen, start=1)]
    return result


def _level_with_nobody(final: Ranking, named: list[tuple[str, Withdrawal]], out: set[str],
                       level: Callable[[RankingRow], tuple[object, ...]], result: Qualified) -> None:
    """A note for each « barrage perdu » row of a player level with nobody (his place and countback
    his alone): no play-off was his to lose, so the row changes nothing, and is most likely typed
    on the wrong name (its player then playing in his place, the loser's place unrecorded)."""
    rows = {row.player_id: row for row in final.rows}
    count = Counter(level(row) for row in final.rows)
    said: set[str] = set()
    for player_id, withdrawal in named:
        row = rows[player_id]
        if withdrawal.playoff and player_id not in out | said and count[level(row)] == 1:
            said.add(player_id)
            result.notices.append(
                f"{withdrawal.where} : « barrage perdu » pour {row.player}, {french.ordinal(row.rank)} du classement "
                f"{'final ' if final.final else ''}Grand Sud {final.season}, qui n’est à égalité avec aucun autre joueur : "
                "cette ligne ne change rien — vérifiez le nom (ou la licence) du perdant du barrage, ou supprimez-la")


def withdrawn_ids(final: Ranking, withdrawals: list[Withdrawal], problems: list[Problem]) -> dict[str, Withdrawal]:
    """The players of the ranking that `Désistements` names (by licence, else by name), each with
    his entry (its `reason`: withdrawn, or lost the play-off); a located problem for an entry that
    names nobody."""
    return _first_reasons(_named(final, withdrawals, problems))


def _first_reasons(named: list[tuple[str, Withdrawal]]) -> dict[str, Withdrawal]:
    """Each player's entry: a withdrawal whatever his other rows (a play-off loser who withdraws
    later does not play, whoever else withdraws), else his first « barrage perdu » row."""
    reasons: dict[str, Withdrawal] = {}
    for player_id, withdrawal in named:
        if player_id not in reasons or (reasons[player_id].playoff and not withdrawal.playoff):
            reasons[player_id] = withdrawal
    return reasons


def _named(final: Ranking, withdrawals: list[Withdrawal], problems: list[Problem]) -> list[tuple[str, Withdrawal]]:
    """The `Désistements` rows in sheet order, each with the player of the ranking it names (by
    licence, else by name); a located problem for a row that names nobody, or names several."""
    named_rows: list[tuple[str, Withdrawal]] = []
    for withdrawal in withdrawals:
        entry = withdrawal.entry
        match = next((row for row in final.rows if entry.licence and row.licence == entry.licence), None)
        named = _designated(final.rows, name_key(entry.last_name, entry.first_name), lambda row: row.player) \
            if entry.last_name and match is None else []
        if len({name_key(row.player) for row in named}) > 1:
            problems.append(AMBIGUOUS_PLAYER(withdrawal.where, player=f"{entry.last_name} {entry.first_name}".strip(),
                                             candidates=" ou ".join(f"« {row.player} »" for row in named),
                                             among=f"classement final Grand Sud {final.season}",
                                             fix="écrivez le nom tel qu’il figure au classement, ou la licence"))
            continue
        match = match or next(iter(named), None)
        if match is None:
            problems.append(UNKNOWN_PLAYER(withdrawal.where, player=f"{entry.last_name} {entry.first_name}".strip(),
                                           among=f"dans le classement final Grand Sud {final.season}",
                                           fix="vérifiez l’orthographe ou la licence"))
        else:
            named_rows.append((match.player_id, withdrawal))
    return named_rows


def participants(final: Ranking, withdrawals: list[Withdrawal],
                 settings: MastersSettings = MastersSettings()) -> tuple[list[Participant], list[Problem]]:
    """`qualify` without its notices (a tie's problem located at `--season`)."""
    qualified = qualify(final, withdrawals, settings)
    return qualified.participants, qualified.problems


def _countback(row: RankingRow, length: int) -> tuple[int, ...]:
    """The player's results best first, padded with 0 (a result he lacks is none): the key that
    compares the second result, then the third… (the first, the ranking already compared)."""
    return tuple(-value for value in row.results) + (0,) * (length - len(row.results))


def _across_the_cut(final: Ranking, available: list[RankingRow], standing: Callable[[RankingRow], Standing],
                    settings: MastersSettings, where: SourceRef, result: Qualified) -> list[RankingRow]:
    """The 16 when players level in the ranking straddle the 16th available place (the caller
    checked they do), `available` in `standing` order: countback, then play-offs lost, order the
    tied group. A notice when countback puts the first one out behind the last one in; a problem
    for the places neither gives."""
    level = available[PLAYERS - 1].rank
    first = next(index for index, row in enumerate(available) if row.rank == level)
    group = [row for row in available if row.rank == level]  # in standing order
    ids = {row.player_id for row in group}
    tied = [row for row in final.rows if row.player_id in ids]  # as the ranking lists them
    places = PLAYERS - first  # the places of the Masters the group shares
    last_in, first_out = group[places - 1], group[places]
    _, countback, lost = standing(last_in)
    ranking = f"du classement {'final ' if final.final else ''}Grand Sud {final.season}"
    at_rank = f"{french.ordinal(level)} ex aequo {ranking}"
    if standing(first_out)[1] != countback:
        decided = [row for row in tied if standing(row)[1] in (countback, standing(first_out)[1])]
        shown = " ; ".join(f"{row.player} : {_results(row)}" for row in decided)
        result.notices.append(
            f"{french.joined([row.player for row in tied])}, {at_rank}, se disputent {_places(first, places)} : "
            f"le départage aux résultats suivants (2e meilleur résultat, puis 3e…, INTERPRETATIONS) qualifie "
            f"{french.joined([row.player for row in group[:places]])} ({shown})")
        return available[:PLAYERS]
    if standing(first_out) != standing(last_in):
        return available[:PLAYERS]  # a play-off recorded in `Désistements` put the first one out behind
    still = [row for row in group if standing(row) == standing(last_in)]  # as the ranking lists them
    open_places = sum(1 for row in group[:places] if standing(row) == standing(last_in))
    out = len(still) - open_places
    message = (f"égalité pour {_places(PLAYERS - open_places, open_places)} entre "
               f"{french.joined([row.player for row in still])}, {at_rank} : mêmes points, même nombre de tournois "
               f"et même meilleur résultat{', puis mêmes résultats un à un' if settings.qualification_countback else ''}")
    if lost:
        message += (f", et chacun compte {'un barrage perdu' if lost == 1 else f'{lost} barrages perdus'} "
                    "dans « Désistements »")
        fix = _losers_fix(out)
    else:
        fix = (f"faites jouer le barrage entre eux, puis inscrivez {'le perdant' if out == 1 else f'les {out} non qualifiés'} "
               f"dans la feuille « Désistements » du classeur du Masters (Nom et Prénom, ou Licence) avec « {PLAYOFF_LOST} » "
               "dans sa colonne « Motif » (à ajouter si la feuille ne l’a pas ; vide pour un joueur qui se désiste) et "
               "relancez « reportgen masters prepare »")
    message += " ; reportgen ne choisit pas (INTERPRETATIONS)"
    result.problems.append(QUALIFICATION_TIE(where, message=message, fix=fix))
    return available[:PLAYERS]


def _losers_fix(out: int) -> str:
    """What the secretary does for players who lost the same play-off and are level for a place that
    opened since (a withdrawal after the play-off), `out` of them to leave out.

    INTERPRETATIONS.md (masters), §1 being silent on ties: the losers of one play-off among three or
    more have an order only if the play-off gave one (a game of three ranks its players; a play-off
    where the first to win qualifies ranks only him). reportgen cannot know which kind was played:
    the secretary says the order, as she said the loss, by one more « barrage perdu » row for each
    player it put behind, after a new play-off between them if the first did not rank them."""
    behind = "du moins bien classé" if out == 1 else f"de chacun des {out} moins bien classés"
    losers = "de son perdant" if out == 1 else f"de chacun de ses {out} perdants"
    return (f"si leur barrage les a classés entre eux, ajoutez dans « Désistements » une ligne « {PLAYOFF_LOST} » "
            f"au nom {behind} ; sinon faites jouer un barrage entre eux, puis ajoutez-la au nom {losers} "
            f"(une ligne « {PLAYOFF_LOST} » de plus place un joueur après ceux qui en ont moins), et relancez "
            "« reportgen masters prepare »")


def _places(before: int, count: int) -> str:
    """The Masters places after the first `before`, `count` of them: « la 16e place », « les 15e et 16e places »."""
    if count == 1:
        return f"la {french.place(before + 1)} du Masters"
    return ("les " + french.joined([french.ordinal(n, feminine=True) for n in range(before + 1, before + count + 1)])
            + " places du Masters")


def _results(row: RankingRow) -> str:
    return ", ".join(french.number(value) for value in row.results) or "aucun résultat"


def _player_id(final: Ranking, recorded: Recorded) -> str:
    """The recorded participant's identity in the Grand Sud ranking (licence, else name)."""
    key = name_key(recorded.name)
    named = _designated(final.rows, key, lambda r: r.player)
    row = next((r for r in final.rows if recorded.licence and r.licence == recorded.licence), None) or \
        (named[0] if len({name_key(r.player) for r in named}) == 1 else None)
    if row is not None:
        return row.player_id
    return f"L:{recorded.licence}" if recorded.licence else f"N:{key}"


def recorded_participants(final: Ranking, sheet: MastersSheet, settings: MastersSettings = MastersSettings()
                          ) -> tuple[list[Participant], list[Problem], list[str]]:
    """The participants the workbook records (INTERPRETATIONS.md: once `masters prepare` wrote them,
    they are the Masters' participants), the problems of that list, and a warning when the final
    Grand Sud ranking would qualify others today."""
    problems = []
    numbers = [r.number for r in sheet.participants]
    for recorded in sheet.participants:
        if not 1 <= recorded.number <= PLAYERS or numbers.count(recorded.number) > 1:
            problems.append(BAD_VALUE(recorded.where,
                                      message=f"le numéro {recorded.number} n’est pas un numéro de participant "
                                      f"(1 à {PLAYERS}, chacun une fois)",
                                      fix="produisez le classeur avec « reportgen masters prepare »"))
    if not problems and len(numbers) != PLAYERS:
        problems.append(TOO_FEW(sheet.participants[0].where,
                                message=f"le classeur enregistre {len(numbers)} participants, "
                                f"il en faut {PLAYERS}",
                                fix="produisez le classeur avec « reportgen masters prepare »"))
    players = [Participant(r.number, _player_id(final, r), r.name, r.licence, r.club, r.annual_rank)
               for r in sorted(sheet.participants, key=lambda r: r.number)]
    today, _ = participants(final, sheet.withdrawals, settings)
    warnings = []
    if [(p.player_id, p.annual_rank) for p in today] != [(p.player_id, p.annual_rank) for p in players]:
        ids, today_ids = {p.player_id for p in players}, {p.player_id for p in today}
        warning = (f"le classement final Grand Sud {final.season} a changé depuis la préparation du Masters : "
                   "les participants restent ceux du classeur.")
        entering = [p.name for p in today if p.player_id not in ids]
        if entering:
            leaving = [p.name for p in players if p.player_id not in today_ids]
            warning += f" Il qualifierait aujourd’hui {french.joined(entering)} à la place de {french.joined(leaving)}."
        warnings.append(warning)
    return players, problems, warnings


def _designated(listed: Sequence[T], key: str, name: Callable[[T], str]) -> list[T]:
    """The entries of a closed list (participants, the final ranking) that a name key designates:
    those of that key, else those of its words in another order (INTERPRETATIONS.md, « who is
    who »: word order is set aside only when one name of the list has those words)."""
    keys = ClosedList(name_key(name(item)) for item in listed).designated(key)
    return [item for item in listed if name_key(name(item)) in keys]


def designated(participants: list[Participant], name: str) -> list[Participant]:
    """The participants a typed name designates: one, none, or several when it could be any."""
    return _designated(participants, name_key(name), lambda p: p.name)


def find(participants: list[Participant], name: str) -> Participant | None:
    found = designated(participants, name)
    return found[0] if len(found) == 1 else None


def identify(participants: list[Participant], row: MatchRow, side: str, problems: list[Problem]) -> Participant | None:
    """The participant a match row's `side` (`player_a`, `player_b`) names, as `check` and `masters
    prepare` both read it: the participant of that name, or the one with its words in another
    order when he is the only one (INTERPRETATIONS.md, « who is who »); else None, with the
    problem (two participants it could be, or none) added to `problems`."""
    name = getattr(row, side)
    could = designated(participants, name)
    if len(could) == 1:
        return could[0]
    if could:  # two participants with those words: never one picked (INTERPRETATIONS.md)
        problems.append(AMBIGUOUS_PLAYER(row.cells[side], player=f"« {name} »",
                                         candidates=" ou ".join(f"« {p.name} »" for p in could),
                                         among="participants du Masters",
                                         fix="écrivez le nom comme dans la liste des participants"))
    else:
        problems.append(UNKNOWN_PLAYER(row.cells[side], player=f"« {name} »", among="un participant du Masters",
                                       fix="écrivez le nom comme dans la liste des participants"))
    return None


def check(rows: list[MatchRow], players: list[Participant], settings: MastersSettings) -> tuple[list[Match], list[Problem]]:
    """The played matches, or located problems: a player who is not a participant, a pairing that
    is not §2's, a match typed twice, a score or tops count above the coups of a match."""
    problems: list[Problem] = []
    matches: list[Match] = []
    seen_boards: dict[tuple[int, int], str | None] = {}  # (round, table) -> cell of its first row
    seen_pairs: dict[frozenset[int], str | None] = {}  # the two participant numbers -> cell of its first row
    for row in rows:
        local: list[Problem] = []
        a, b = (identify(players, row, side, local) for side in ("player_a", "player_b"))
        if not (1 <= row.round <= ROUNDS):
            local.append(BAD_VALUE(row.cells["round"], message=f"il n’y a pas de match {row.round} (1 à {ROUNDS})",
                                   fix=f"écrivez un numéro de match de 1 à {ROUNDS}"))
        if not (1 <= row.table <= TABLES):
            local.append(BAD_VALUE(row.cells["table"], message=f"il n’y a pas de table {row.table} (1 à {TABLES})",
                                   fix=f"écrivez un numéro de table de 1 à {TABLES}"))
        if a and b and not local:
            expected = SCHEDULE[row.round - 1][row.table - 1]
            if {a.number, b.number} != set(expected):
                names = [p.name for p in players if p.number in expected]
                local.append(PAIRING(row.where,
                                     message=f"le match {row.round}, table {row.table} oppose {names[0]} (n° "
                                     f"{expected[0]}) à {names[1]} (n° {expected[1]}) selon le §2, pas {a.name} "
                                     f"à {b.name}", fix="corrigez les joueurs de la ligne"))
            board = (row.round, row.table)
            pair = frozenset((a.number, b.number))
            if board in seen_boards:
                local.append(_typed_twice(row, "ce match", seen_boards[board]))
            seen_boards.setdefault(board, row.where.cell)
            if pair in seen_pairs:
                local.append(_typed_twice(row, "ce match entre eux", seen_pairs[pair]))
            seen_pairs.setdefault(pair, row.where.cell)
        for key in ("score_a", "score_b", "tops_a", "tops_b"):
            value = getattr(row, key)
            if value is not None and value > settings.coups:
                what = f"{value} tops" if key.startswith("tops") else f"un score de {value}"
                local.append(BAD_VALUE(row.cells[key],
                                       message=f"{what} : c’est plus que les {settings.coups} coups d’un match",
                                       fix="corrigez la valeur"))
        problems.extend(local)
        if local or not row.played:
            continue
        # An unknown player put a problem in local; parse refuses a row with only one of the two scores.
        assert a is not None and b is not None and row.score_a is not None and row.score_b is not None
        if a.number == SCHEDULE[row.round - 1][row.table - 1][0]:
            matches.append(Match(row.round, row.table, a.number, b.number, row.score_a, row.score_b, row.tops_a, row.tops_b))
        else:  # typed B-A: keep the schedule's order, scores follow the players
            matches.append(Match(row.round, row.table, b.number, a.number, row.score_b, row.score_a, row.tops_b, row.tops_a))
    return matches, problems


def _typed_twice(row: MatchRow, what: str, first: str | None) -> Problem:
    return DUPLICATE(row.where, message=f"{what} est déjà saisi en {first}", fix="supprimez la ligne en double")


def complete_rounds(matches: list[Match]) -> int:
    """How many rounds, from the first, have all their tables played (the standings count them)."""
    tables: dict[int, set[int]] = {}  # round -> its tables played
    for match in matches:
        tables.setdefault(match.round, set()).add(match.table)
    done = 0
    while len(tables.get(done + 1, ())) == TABLES:
        done += 1
    return done
