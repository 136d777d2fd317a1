"""The tournament replayed round by round from its workbook: the pools each round must have (Art.
III), what each pool gives (Art. IV, V, IX), the repêchages (Art. X), forfeits and cancellation
(Art. XI), and the pools of the round to write next.

Each round's pools come from the round before (or the registrants), so the workbook's pools are
checked against them: a game in the wrong pool, a player who does not play that round, a game typed
twice or missing is a located problem, and the replay stops there.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from dataclasses import dataclass, field

from reportgen import french
from reportgen.circuits.poules import seeding
from reportgen.circuits.poules.domain import BARRAGE, MAIN, Forfeit, Game, PoulesTournament, Registrant
from reportgen.circuits.poules.seeding import REPECHED, SECOND, WINNER, Qualified, serpentine
from reportgen.circuits.poules.settings import PoulesSettings
from reportgen.circuits.poules.standings import (
    ELIMINATED,
    FIRST_PLACE,
    PENDING,
    PLAYING,
    QUALIFICATION,
    QUALIFIED,
    REPECHE,
    TO_PLAY,
    Barrage,
    Line,
    pool_standings,
)
from reportgen.circuits.poules.structure import PoolNames, pools_for
from reportgen.model import Problem
from reportgen.problems import (
    BARRAGE_COLOUR,
    DUPLICATE,
    MISPLACED_BARRAGE,
    MISSING_GAME,
    ROUND_ORDER,
    WRONG_POOL,
    WRONG_ROUND,
)
from reportgen.scoring.tiebreaks import Criterion, by, rank

# Art. XI: « S'il ne reste plus que 2 joueurs non forfait le tournoi est annulé » ; « S'il y a à
# nouveau 3 joueurs non forfaits le tournoi est rétabli ».
CANCELLED_AT = 2

NOT_STARTED, PLAYING_MAIN, PLAYING_BARRAGE, BETWEEN_ROUNDS, FINISHED, CANCELLED = (
    "not-started", "main", "barrage", "between-rounds", "finished", "cancelled")

POOLS_FIX = ("les poules et les parties de chaque tour sont celles que donne le règlement (Art. III et IV) : "
             "corrigez la case, ou effacez les lignes de ce tour et relancez « reportgen poules next »")


def main_games(pool: list[Registrant]) -> list[tuple[Registrant, Registrant]]:
    """(White, Black) of every game of a pool: each pair twice, once with each colour (Art. IV);
    first every pair with the better seed White, then the return games."""
    first = [(pool[i], pool[j]) for i in range(len(pool)) for j in range(i + 1, len(pool))]
    return first + [(black, white) for white, black in first]


@dataclass
class Pool:
    round: int
    index: int
    players: list[Registrant]  # in seeding order
    games: list[Game]  # main phase
    barrage_games: list[Game]
    names: PoolNames  # the workbook's pool names (`PoulesTournament.pool_names`)
    lines: list[Line] = field(default_factory=list)  # standings, pool order
    barrage: Barrage | None = None
    missing: list[Game] = field(default_factory=list)  # main games still to play that count

    @property
    def label(self) -> str:
        """Its name as the workbook writes it: `A`, or `3` in a sheet that numbers its pools."""
        return self.names.label(self.index)

    @property
    def active(self) -> list[Line]:
        return [line for line in self.lines if not line.forfeit]

    def line(self, key: str) -> Line:
        return next(line for line in self.lines if line.player.key == key)


@dataclass
class Round:
    number: int
    pools: list[Pool]
    final: bool  # one pool: its order is the tournament's (Art. VI)
    forfeits: list[Forfeit]  # every `Forfaits` row of the round, rehabilitated ones too
    launched: dt.date  # the day its main games started
    barrage_launched: dt.date | None = None  # the day its barrage games started
    cancelled: bool = False  # only 2 players left who have not forfeited (Art. XI)
    restored: bool = False  # cancelled but for the rehabilitations
    qualified: list[Qualified] = field(default_factory=list)  # for the next round (a round not final, decided)
    repeched: list[int] = field(default_factory=list)  # the pools whose third is repêché, in their order
    free_places: int = 0  # places left by pools with fewer than 2 players who have not forfeited

    @property
    def participants(self) -> list[Registrant]:
        return [p for pool in self.pools for p in pool.players]

    @property
    def forfeited(self) -> set[str]:
        """The players whose forfeit stands: a `Réhabilité` = oui row for the round lifts it, on the
        forfeit's own row or on a row of its own (Art. XI)."""
        lifted = {f.player for f in self.forfeits if f.rehabilitated}
        return {f.player for f in self.forfeits if not f.rehabilitated} - lifted

    @property
    def complete(self) -> bool:
        """Every main game that counts has its result."""
        return not any(pool.missing for pool in self.pools)

    @property
    def barrages(self) -> list[Barrage]:
        return [pool.barrage for pool in self.pools if pool.barrage is not None]

    @property
    def barrage_pending(self) -> bool:
        return any(b.state in (TO_PLAY, PLAYING) for b in self.barrages)

    @property
    def decided(self) -> bool:
        return self.complete and not self.barrage_pending and not self.cancelled

    def pool_of(self, key: str) -> Pool | None:
        return next((pool for pool in self.pools if any(p.key == key for p in pool.players)), None)


@dataclass
class Tournament:
    content: PoulesTournament
    start: dt.date  # the `Date` of the `Tournoi` sheet
    rounds: list[Round] = field(default_factory=list)
    status: str = NOT_STARTED
    upcoming: list[list[Registrant]] | None = None  # the pools `poules next` writes, when it may
    problems: list[Problem] = field(default_factory=list)

    @property
    def current(self) -> Round | None:
        return self.rounds[-1] if self.rounds else None

    @property
    def upcoming_number(self) -> int:
        return len(self.rounds) + 1

    @property
    def over(self) -> bool:
        return self.status == FINISHED


def replay(content: PoulesTournament, start: dt.date, settings: PoulesSettings) -> Tournament:
    tournament = Tournament(content, start)
    by_round: dict[int, list[Game]] = defaultdict(list)
    for game in content.games:
        by_round[game.round].append(game)
    forfeits: dict[int, list[Forfeit]] = defaultdict(list)
    for forfeit in content.forfeits:
        forfeits[forfeit.round].append(forfeit)
    players = seeding.first_round(content.registrants)
    number = 1
    while True:
        pools = serpentine(players, pools_for(len(players)))
        rows = by_round.get(number, [])
        if not rows:
            tournament.upcoming = pools
            tournament.status = NOT_STARTED if number == 1 else BETWEEN_ROUNDS
            break
        problems = _check_round(number, pools, rows, content)
        if problems:
            tournament.problems += problems
            tournament.status = PLAYING_MAIN
            break
        current = _play(number, pools, rows, forfeits.get(number, []), start, settings, content.pool_names)
        tournament.rounds.append(current)
        problems = _check_barrages(current, content)
        if problems:
            tournament.problems += problems
            tournament.status = PLAYING_BARRAGE
            break
        if current.cancelled:
            tournament.status = CANCELLED
        elif not current.complete:
            tournament.status = PLAYING_MAIN
        elif current.barrage_pending:
            tournament.status = PLAYING_BARRAGE
        elif current.final:
            tournament.status = FINISHED
        else:
            players = seeding.later_round(current.qualified)
            number += 1
            continue
        break
    if not tournament.problems:
        tournament.problems += _leftovers(tournament, by_round, forfeits)
    return tournament


def _check_round(number: int, pools: list[list[Registrant]], rows: list[Game],
                 content: PoulesTournament) -> list[Problem]:
    """The workbook's games of a round against the pools the rules give for it."""
    problems: list[Problem] = []
    names = content.by_key
    pool_of = {p.key: index for index, pool in enumerate(pools) for p in pool}
    label = content.pool_names.label
    known = {1: f"la poule {label(0)}", 2: f"les poules {label(0)} et {label(1)}"}.get(
        len(pools), f"les poules {label(0)} à {label(len(pools) - 1)}")
    seen: dict[frozenset[str] | tuple[str, str], int] = {}
    first_row: dict[int, Game] = {}
    for game in sorted(rows, key=lambda g: g.row):
        if game.pool >= len(pools):
            problems.append(WRONG_POOL(game.cells["pool"],
                                       message=f"il n’y a pas de poule {label(game.pool)} au tour {number} "
                                       f"({known})", fix=POOLS_FIX))
            continue
        first_row.setdefault(game.pool, game)
        wrong = False
        for side, key in (("white", game.white), ("black", game.black)):
            where = pool_of.get(key)
            if where is None:
                problems.append(WRONG_POOL(game.cells[side],
                                           message=f"{names[key].name} ne joue pas le tour {number}", fix=POOLS_FIX))
                wrong = True
            elif where != game.pool:
                problems.append(WRONG_POOL(game.cells[side],
                                           message=f"{names[key].name} joue dans la poule {label(where)} "
                                           f"du tour {number}, pas dans la poule {label(game.pool)}", fix=POOLS_FIX))
                wrong = True
        if wrong:
            continue
        pair: frozenset[str] | tuple[str, str] = (
            (game.white, game.black) if game.phase == MAIN else frozenset((game.white, game.black)))
        if pair in seen:
            what = "cette partie" if game.phase == MAIN else "ce barrage"
            problems.append(DUPLICATE(game.cells["white"],
                                      message=f"{what} ({names[game.white].name} – {names[game.black].name}, "
                                      f"tour {number}) est déjà en ligne {seen[pair] + 1}",
                                      fix="supprimez le doublon"))
            continue
        seen[pair] = game.row
        if game.phase == BARRAGE and names[game.white].order < names[game.black].order:
            problems.append(BARRAGE_COLOUR(game.cells["white"], expected=names[game.black].name,
                                           typed=names[game.white].name))
    for index, pool in enumerate(pools):
        absent = [f"{white.name} – {black.name}" for white, black in main_games(pool)
                  if (white.key, black.key) not in seen]
        if not absent:
            continue
        cell = first_row[index].cells["pool"] if index in first_row else min(rows, key=lambda g: g.row).cells["round"]
        problems.append(MISSING_GAME(cell, games=french.plural(len(absent), "partie"), pool=label(index), round=number,
                                     shown=french.listed(absent, 6), fix=POOLS_FIX))
    return problems


def _check_barrages(current: Round, content: PoulesTournament) -> list[Problem]:
    """Barrage games where no barrage is called for. Only checked in a round without forfeits: a
    forfeit may dissolve a tie after its barrage was written (Art. IX), and a rehabilitation reopen
    main games after it."""
    if current.forfeits:
        return []
    problems = []
    names = content.by_key
    for pool in current.pools:
        for game in pool.barrage_games:
            if pool.missing:
                problems.append(MISPLACED_BARRAGE(game.cells["phase"] if "phase" in game.cells else game.cells["round"],
                                                  message=f"barrage saisi alors que des parties de la poule {pool.label} du tour "
                                                  f"{current.number} restent à jouer", fix="saisissez d’abord les résultats de "
                                                  "la phase principale, ou effacez cette ligne"))
            elif pool.barrage is None or not {game.white, game.black} <= {p.key for p in pool.barrage.players}:
                problems.append(MISPLACED_BARRAGE(game.cells["white"],
                                                  message=f"{names[game.white].name} et {names[game.black].name} "
                                                  "ne sont pas à égalité de points à une place que départage un barrage "
                                                  "(Art. IX)", fix="effacez cette ligne de barrage, ou corrigez les résultats"))
    return problems


def _play(number: int, seeded: list[list[Registrant]], rows: list[Game], forfeits: list[Forfeit],
          start: dt.date, settings: PoulesSettings, names: PoolNames) -> Round:
    main = [g for g in rows if g.phase == MAIN]
    barrage = [g for g in rows if g.phase == BARRAGE]
    launched = min((g.launched for g in main if g.launched), default=None)
    barrage_launched = min((g.launched for g in barrage if g.launched), default=None)
    final = len(seeded) == 1
    current = Round(number, [], final, forfeits, launched or start,
                    barrage_launched or (launched or start if barrage else None))
    forfeited = current.forfeited
    where = (FIRST_PLACE if settings.barrage_for_first_place else None) if final else (
        QUALIFICATION if settings.barrage_for_qualification else None)
    for index, players in enumerate(seeded):
        pool = Pool(number, index, players, [g for g in main if g.pool == index],
                    [g for g in barrage if g.pool == index], names)
        pool.lines, pool.barrage, pool.missing = pool_standings(
            players, pool.games, pool.barrage_games, forfeited, where, bool(barrage), settings.forfeit_games_count)
        current.pools.append(pool)
    everyone = {p.key for p in current.participants}
    ever = {f.player for f in forfeits}
    if forfeited and len(everyone - forfeited) <= CANCELLED_AT:
        current.cancelled = True
    elif ever - forfeited and len(everyone - ever) <= CANCELLED_AT:
        current.restored = True
    for pool in current.pools:
        for line in pool.active:
            line.status = PENDING if line.pending else ""
    if current.decided and not final:
        _qualify(current)
    return current


def _qualify(current: Round) -> None:
    """Art. V: the first two of each pool; Art. X: the places of pools left with fewer than two
    players who have not forfeited go to the thirds of the other pools, best first by the third's
    average points, then the date assigned to the pool (the earliest registration among the players
    level on points with its third)."""
    winners: list[Qualified] = []
    seconds: list[Qualified] = []
    candidates: list[tuple[Pool, Line, int]] = []
    for pool in current.pools:
        active = pool.active
        current.free_places += max(0, 2 - len(active))
        for line, group in zip(active[:2], (WINNER, SECOND)):
            line.status = QUALIFIED
            (winners if group == WINNER else seconds).append(Qualified(line.player, group, line.average))
        if len(active) >= 3:
            third = active[2]
            assigned = min(line.player.order for line in active if line.half == third.half)
            candidates.append((pool, third, assigned))
    chain: list[Criterion[tuple[Pool, Line, int]]] = [by(seeding.AVERAGE, lambda c: -c[1].average),
                                                      by("date affectée à la poule", lambda c: c[2])]
    chosen = [placed.item for placed in rank(candidates, chain).placed][:current.free_places]
    repeched = []
    for order, (pool, third, _) in enumerate(chosen):
        third.status = REPECHE
        current.repeched.append(pool.index)
        repeched.append(Qualified(third.player, REPECHED, third.average, order))
    for pool in current.pools:
        for line in pool.active:
            line.status = line.status or ELIMINATED
    current.qualified = winners + seconds + repeched


def _leftovers(tournament: Tournament, by_round: dict[int, list[Game]],
               forfeits: dict[int, list[Forfeit]]) -> list[Problem]:
    """Games of rounds that cannot have started yet, and forfeits for players not in their round."""
    problems = []
    played = len(tournament.rounds)
    waiting = played + (1 if tournament.upcoming is not None else 0)  # the round `next` would write
    for number, rows in sorted(by_round.items()):
        if number <= played:
            continue
        first = min(rows, key=lambda g: g.row)
        if tournament.status == FINISHED:
            why = f"le tournoi s’est terminé au tour {played}"
        elif tournament.status == CANCELLED:
            why = f"le tournoi est annulé depuis le tour {played}"
        elif number > played + 1:
            why = f"le tour {number - 1} n’a pas commencé"
        else:
            why = f"le tour {played} n’est pas terminé"
        problems.append(ROUND_ORDER(first.cells["round"],
                                    message=f"des parties du tour {number} sont saisies mais {why}",
                                    fix="effacez les lignes de ce tour, ou complétez d’abord le tour précédent"))
    names = tournament.content.by_key
    for number, typed in sorted(forfeits.items()):
        if number <= played:
            players = {p.key for p in tournament.rounds[number - 1].participants}
        elif number == waiting and tournament.upcoming is not None:
            players = {p.key for pool in tournament.upcoming for p in pool}
        else:
            for forfeit in typed:
                problems.append(ROUND_ORDER(forfeit.round_ref, message=f"le tour {number} n’a pas commencé",
                                            fix="indiquez le tour que le joueur jouait lors de son forfait"))
            continue
        for forfeit in typed:
            if forfeit.player not in players:
                problems.append(WRONG_ROUND(forfeit.ref, player=names[forfeit.player].name, round=number))
    return problems


def barrage_games_to_write(current: Round) -> list[tuple[Pool, Registrant, Registrant]]:
    """The barrage games `poules next --barrages` appends: (pool, White, Black)."""
    return [(pool, white, black) for pool in current.pools if pool.barrage is not None
            and pool.barrage.state == TO_PLAY for white, black in pool.barrage.to_add]

