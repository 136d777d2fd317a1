"""Pool tournament documents, as plain data (reportgen.render draws them): a bulletin after each
round (each pool's cross table and standings with qualifiers, barragistes, repêchés and forfeits
marked; the barrages; the next round's pools; at the end the final ranking), the annex with every
game, and the published ranking (`reportgen standings poules --event`)."""

from __future__ import annotations

import datetime as dt
from fractions import Fraction

from reportgen import french
from reportgen.circuits import common
from reportgen.circuits.poules.domain import RESULTS, Game, PoulesEvent, Registrant
from reportgen.circuits.poules.metrics import (
    AVERAGE,
    AVERAGE_DECIMALS,
    COLUMNS,
    METRICS,
    ROUND_REACHED,
    average,
    columns,
)
from reportgen.circuits.poules.ranking import Standing
from reportgen.circuits.poules.settings import PoulesSettings
from reportgen.circuits.poules.standings import (
    DECIDED,
    ELIMINATED,
    FORFEIT,
    NO_BARRAGE,
    PENDING,
    PLAYING,
    QUALIFIED,
    REPECHE,
    TO_PLAY,
    Line,
)
from reportgen.circuits.poules.structure import rounds_for
from reportgen.circuits.poules.tournament import (
    BETWEEN_ROUNDS,
    CANCELLED,
    FINISHED,
    PLAYING_BARRAGE,
    Pool,
    Round,
    Tournament,
)
from reportgen.model import (
    RANK_AND_PLAYER,
    Annex,
    AnnexColumn,
    AnnexSheet,
    Column,
    Document,
    Ranking,
    RankingRow,
    Scope,
    ScopeKind,
    Status,
    headings,
)

TITLE = "Tournoi en ligne par poules"
# A player's state in his pool, as the « Statut » column of the bulletin (PDF and site) and of the
# annex's « Poules » sheet says it: what happens to him, in nouns that agree with nobody (« qualifié »
# said Anaïs or Inès was a man; the league knows no one's gender, as the notices' words).
STATUS = {QUALIFIED: "qualification", REPECHE: "repêchage", ELIMINATED: "élimination", FORFEIT: "forfait",
          PENDING: "barragiste", "": ""}
BARRAGE_STATE = {DECIDED: "joué", TO_PLAY: "à lancer", PLAYING: "en cours",
                 NO_BARRAGE: "pas de nouveau barrage : ordre d’inscription (Art. IX)"}
HALF = {0: "0", 1: "½", 2: "1"}
SIDE_BY_SIDE_UP_TO = 5  # players per pool for two pools side by side; larger pools, one per line


def _french_average(value: Fraction) -> str:
    """« 0,500 »: the average as its column writes it everywhere (french.column_value, the site's too)."""
    return french.column_value(average(value), AVERAGE.column)


def as_of(tournament: Tournament, index: int) -> dt.date:
    """The day a round's bulletin speaks of: the next round's start, else its last known date."""
    played = tournament.rounds[index]
    if index + 1 < len(tournament.rounds):
        return tournament.rounds[index + 1].launched
    days = [played.launched] + [d for d in (played.barrage_launched,) if d] + [f.day for f in played.forfeits if f.day]
    return max(days)


def status(tournament: Tournament) -> Status:
    return Status.FINAL if tournament.status == FINISHED else Status.PROVISIONAL


def published_columns(tournament: Tournament) -> tuple[Column, ...]:
    """Its ranking's columns, its rounds named (« tour 2 », « finale »: metrics.columns)."""
    last = tournament.rounds[-1] if tournament.rounds else None
    return columns(last.number if last else 0, bool(last and last.final))


def published(event: PoulesEvent, tournament: Tournament, ranking: list[Standing], folder: str,
              ids: dict[str, str]) -> Ranking:
    rows = tuple(RankingRow(
        standing.rank, ids.get(standing.player.key, standing.player.key), standing.player.name, "", "",
        METRICS.values(standing, COLUMNS),
        tied=standing.tied, decided_by=standing.decided_by, playoff=standing.tied) for standing in ranking)
    # dated as its last bulletin (`as_of`: once over, the day the final started); its first day of play beside it
    return Ranking(f"{folder}/classement", Scope(ScopeKind.EVENT, event.date.year, event.id, event.name, event.date),
                   as_of(tournament, len(tournament.rounds) - 1), status(tournament), published_columns(tournament), rows,
                   identity=RANK_AND_PLAYER)


def _cell(pool_games: dict[tuple[str, str], Game], me: Line, other: Line) -> dict[str, str]:
    if me is other:
        return {"text": "", "kind": "self"}
    halves = []
    for white, black in ((me.player.key, other.player.key), (other.player.key, me.player.key)):
        game = pool_games.get((white, black))
        halves.append(None if game is None or game.result is None else game.half_points(me.player.key))
    text = " ".join("·" if half is None else HALF[half] for half in halves)
    if me.forfeit or other.forfeit:
        return {"text": text, "kind": "void"}
    if None in halves:
        return {"text": text, "kind": "none"}
    total = sum(h for h in halves if h is not None)
    return {"text": text, "kind": "win" if total > 2 else "loss" if total < 2 else "draw"}


def _pool(pool: Pool) -> dict:
    pool_games = {(g.white, g.black): g for g in pool.games}
    rows = []
    for number, line in enumerate(pool.lines, start=1):
        rows.append({
            "number": number, "place": french.shared_place(line.place, line.pending), "player": line.player.name,
            "points": french.points(line.half / 2), "games": line.games, "average": _french_average(line.average),
            "barrage": french.points(line.barrage_half / 2) if line.barrage_half is not None else "",
            "status": line.status, "status_label": STATUS[line.status],
            "cells": [_cell(pool_games, line, other) for other in pool.lines]})
    return {"label": pool.label, "numbers": list(range(1, len(pool.lines) + 1)), "rows": rows,
            "missing": len(pool.missing)}


def _barrages(pool: Pool, names: dict[str, Registrant]) -> dict | None:
    barrage = pool.barrage
    if barrage is None and not pool.barrage_games:
        return None
    games = [{"white": names[g.white].name, "black": names[g.black].name,
              "result": g.result or "à jouer"} for g in pool.barrage_games]
    if barrage is not None and barrage.state == TO_PLAY:
        games += [{"white": white.name, "black": black.name, "result": "à lancer"} for white, black in barrage.to_add]
    players = barrage.players if barrage is not None else sorted(
        {names[k] for g in pool.barrage_games for k in (g.white, g.black)}, key=lambda p: p.order)
    state = BARRAGE_STATE[barrage.state] if barrage is not None else "sans effet (plus d’égalité après les forfaits)"
    return {"pool": pool.label, "players": ", ".join(p.name for p in players), "state": state, "games": games}


def _repechage(played: Round) -> str:
    if not played.free_places:
        return ""
    chosen = []
    for index in played.repeched:
        third = next(line for line in played.pools[index].lines if line.status == REPECHE)
        chosen.append(f"poule {played.pools[index].label} ({third.player.name}, moyenne {_french_average(third.average)})")
    text = (f"Repêchage (Art. X) : {french.plural(played.free_places, 'place libérée', 'places libérées')} par les "
            "forfaits ; ")
    if chosen:
        # « repêchage : poule D (…) », never « repêché : », which says the player is a man
        return text + ("repêchages, dans cet ordre : " if len(chosen) > 1 else "repêchage : ") + ", ".join(chosen) + "."
    return text + "aucun troisième non forfait à repêcher."


def _notes(event: PoulesEvent, settings: PoulesSettings) -> list[str]:
    registered = len(event.content.registrants)
    rounds = rounds_for(registered)
    return [
        f"Tours et poules (Art. I et III) : {french.plural(registered, 'inscrit')}, donc "
        f"{french.plural(rounds, 'tour')} et {french.plural(2 ** (rounds - 1), 'poule')} au premier tour (moitié "
        "moins à chaque tour suivant, une seule au dernier), moins en cas de défections. Tour 1 : classement par "
        "points RON puis ordre d’inscription ; tours suivants : premiers, puis deuxièmes (par moyenne de points, "
        "puis inscription), puis repêchés ; répartition en serpentin (1 à p dans les poules 1 à p, p+1 à 2p dans "
        "les poules p à 1…).",
        "Poules (Art. IV) : chacun rencontre chacun des autres deux fois, une fois avec chaque couleur ; victoire "
        "1 point, nulle ½, défaite 0. Seules comptent les parties contre des joueurs non forfaits ; un joueur forfait "
        "(Art. XI) perd toutes ses parties du tour et se classe après les autres.",
        "Départage : une égalité de points à la limite des qualifiés (2e/3e) ou pour la première place de la poule "
        "finale se règle par un barrage (Art. IX : une partie contre chaque autre ex aequo, les Blancs au dernier "
        "inscrit) ; les autres égalités, et celles qui restent après le barrage, par l’ordre d’inscription.",
        "Qualification (Art. V et X) : les deux premiers de chaque poule ; les places libérées par des forfaits vont "
        "aux troisièmes des autres poules, par moyenne de points du troisième, puis date d’inscription affectée à la "
        "poule (la plus ancienne des joueurs à égalité de points avec le troisième).",
        "Classement du tournoi (Art. VI) : la poule finale donne les premières places ; suivent les éliminés de "
        "chaque tour, du dernier au premier, par place dans leur poule, puis moyenne de points par partie, puis "
        "ordre d’inscription ; les forfaits d’un tour après tous les autres joueurs de ce tour, "
        "par ordre d’inscription.",
        f"Délais (Art. VII) : {settings.main_phase_days} jours pour les parties principales, "
        f"{settings.barrage_days} jours pour les barrages, à compter de leur lancement.",
    ]


def round_title(tournament: Tournament, played: Round) -> str:
    latest = played is tournament.current
    if latest and tournament.status == CANCELLED:
        return f"Tour\u00a0{played.number}{french.SEPARATOR}tournoi annulé"
    if played.final and tournament.status == FINISHED:
        return "Tour final et classement final"
    # « tour » and its number never apart on a line (« Résultats du tour » over « 1 » on a phone)
    stage = _stage(played.final, played.number)
    if played.decided:
        return f"Résultats du {stage}"
    if played.complete:
        return f"{stage[0].upper()}{stage[1:]}\u00a0: barrages"
    return f"{stage[0].upper()}{stage[1:]} en cours"


def pending(tournament: Tournament) -> str:
    """What a tournament not over still awaits, as its workbook shows it (`Report.pending`: the
    build's note and its club's reminder once its Fin is past): « le tour 3 reste à jouer », « le tour
    2 n’est pas terminé (3 parties restent à jouer) », « les barrages du tour 2 restent à jouer »; ""
    once over, or cancelled (Art. XI: it awaits no result)."""
    played = tournament.current
    if played is None or tournament.status in (FINISHED, CANCELLED):
        return ""
    if tournament.status == BETWEEN_ROUNDS:
        final = tournament.upcoming is not None and len(tournament.upcoming) == 1
        return f"le {_stage(final, tournament.upcoming_number)} reste à jouer"
    stage = _stage(played.final, played.number)
    if tournament.status == PLAYING_BARRAGE:
        return f"les barrages du {stage} restent à jouer"
    missing = sum(len(pool.missing) for pool in played.pools)
    return f"le {stage} n’est pas terminé ({french.plural(missing, 'partie reste', 'parties restent')} à jouer)"


def _stage(final: bool, number: int) -> str:
    """« tour final », « tour 2 » (« tour » and its number never apart on a line, as `round_title`)."""
    return "tour final" if final else f"tour\u00a0{number}"


def bulletin(event: PoulesEvent, tournament: Tournament, index: int, ranking: list[Standing], folder: str,
             league: str, settings: PoulesSettings) -> Document:
    played = tournament.rounds[index]
    names = event.content.by_key
    following = tournament.rounds[index + 1] if index + 1 < len(tournament.rounds) else None
    day = as_of(tournament, index)
    title = f"{event.name}{french.SEPARATOR}{round_title(tournament, played)}"
    alerts = []
    latest = following is None
    if latest and played.cancelled:
        left = len(played.participants) - len(played.forfeited)
        alerts.append(f"Tournoi annulé (Art. XI) : il ne reste que {french.plural(left, 'joueur non forfait', 'joueurs non forfaits')} "
                      f"au tour {played.number}. Il sera rétabli si un joueur forfait est "
                      "réhabilité et que trois joueurs non forfaits sont de nouveau en jeu.")
    if played.restored:
        alerts.append("Tournoi rétabli (Art. XI) : après réhabilitation, au moins trois joueurs non forfaits sont "
                      "de nouveau en jeu ; les parties annulées sont rétablies.")
    missing = sum(len(pool.missing) for pool in played.pools)
    deadline = played.launched + dt.timedelta(days=settings.main_phase_days)
    if latest and missing and not played.cancelled:
        alerts.append(f"Tour en cours : {french.plural(missing, 'partie reste', 'parties restent')} à jouer "
                      f"(délai : {french.date_long(deadline)}).")
    if latest and played.barrage_pending and not played.cancelled:
        alerts.append("Barrages à jouer avant la suite du tournoi (Art. IX) : voir ci-dessous.")
    forfeits = [{"player": names[f.player].name, "pool": (played.pool_of(f.player) or played.pools[0]).label,
                 "sanction": f.sanction, "rehabilitated": f.rehabilitated,
                 "day": french.date_long(f.day) if f.day else ""} for f in played.forfeits]
    next_pools = None
    if following is not None:
        next_pools = {"number": following.number, "final": following.final, "written": True,
                      "pools": [{"label": pool.label, "players": [p.name for p in pool.players]}
                                for pool in following.pools]}
    elif played.decided and not played.final and tournament.upcoming is not None:
        next_pools = {"number": tournament.upcoming_number, "final": len(tournament.upcoming) == 1, "written": False,
                      "pools": [{"label": event.content.pool_names.label(i), "players": [p.name for p in pool]}
                                for i, pool in enumerate(tournament.upcoming)]}
    final_rows = []
    reached = next(c for c in published_columns(tournament) if c.key == ROUND_REACHED.key)
    if played.final and tournament.status == FINISHED:
        final_rows = [{"rank": french.shared_place(s.rank, s.tied), "player": s.player.name,
                       "round": french.column_value(s.round, reached), "pool": s.pool.label,
                       "pool_place": s.line.place, "points": french.points(s.line.half / 2), "games": s.line.games,
                       "average": _french_average(s.line.average), "forfeit": s.line.forfeit} for s in ranking]
    participants = len(played.participants)
    summary = [french.date_long(day)] + ([event.content.location] if event.content.location else []) + [
        f"{french.plural(len(event.content.registrants), 'inscrit')}",
        f"tour {played.number}" + (" (final)" if played.final else "") + f" : {french.plural(participants, 'joueur')}"
        f" en {french.plural(len(played.pools), 'poule')}",
        f"lancé le {french.date_long(played.launched)}"]
    return Document(
        path=f"{folder}/tour-{played.number}", template="poules/bulletin.html.j2", title=title, date=day,
        season=event.date.year, events=(event.id,),
        context={"league": league, "circuit": TITLE, "season": event.date.year, "title": title, "event": event.name,
                 "summary": " · ".join(summary), "alerts": alerts,
                 "pools": (pools := [_pool(pool) for pool in played.pools]),
                 # Pools of 6 (round 1 holds up to 6 players, Art. III): one pool per line, or their
                 # cross tables are too narrow to read.
                 "wide": max(len(pool.players) for pool in played.pools) > SIDE_BY_SIDE_UP_TO,
                 "barrages": [b for b in (_barrages(pool, names) for pool in played.pools) if b],
                 "forfeits": forfeits, "repechage": _repechage(played) if played.decided else "",
                 "next": next_pools, "final": final_rows, "headings": headings(COLUMNS),
                 # the final ranking is everyone registered: a PDF prints its top (its CSV, the
                 # published ranking's `classement`, and the event's annex keep everyone)
                 "print_top": common.print_top(len(final_rows), settings.bulletin_rows, "classement.csv",
                                               annex="du tournoi"),
                 "legend": _legend(pools),
                 "notes": _notes(event, settings)})


def _legend(pools: list[dict]) -> str:
    """The pools' legend: what a cell says, and its greys (the diagonal, a player against himself,
    dark; a game of a player declared forfeit, in italics on a light grey), the second said only
    when a pool has one (it read « grisé : partie contre un joueur forfait » beside the diagonal alone)."""
    void = any(cell["kind"] == "void" for pool in pools for row in pool["rows"] for cell in row["cells"])
    return ("Chaque case donne, pour le joueur de la ligne contre celui de la colonne, le résultat avec les Blancs "
            "puis avec les Noirs (1 victoire, ½ nulle, 0 défaite, · à jouer) ; la diagonale grise sépare chaque "
            "joueur de lui-même" + (" ; en italique sur fond gris clair : partie d’un joueur forfait, qui ne "
                                    "compte pas" if void else "") + ".")


def annex(event: PoulesEvent, tournament: Tournament, ranking: Ranking, folder: str) -> Annex:
    names = event.content.by_key
    lines = []
    for played in tournament.rounds:
        for pool in played.pools:
            for line in pool.lines:
                lines.append([played.number, pool.label, line.place, line.player.name,
                              common.from_halves(line.half), line.games, average(line.average),
                              common.from_halves(line.barrage_half) if line.barrage_half is not None else None,
                              STATUS[line.status]])
    games = []
    for played in tournament.rounds:
        forfeited = played.forfeited
        for pool in played.pools:
            for game in pool.games + pool.barrage_games:
                white, black = RESULTS[game.result] if game.result else (None, None)
                counts = game.white not in forfeited and game.black not in forfeited
                games.append([played.number, pool.label, game.phase,
                              names[game.white].name, names[game.black].name, game.result or "",
                              common.from_halves(white) if white is not None else None,
                              common.from_halves(black) if black is not None else None,
                              "oui" if counts and game.result else "non"])
    return Annex(
        path=f"{folder}/annexe", title=f"{event.name}{french.SEPARATOR}parties et classements", date=ranking.date,
        season=event.date.year,
        sheets=[
            common.ranking_sheet(ranking, "Classement"),
            AnnexSheet("Poules", [AnnexColumn("Tour", "int", 6), AnnexColumn("Poule", "text", 7),
                                  AnnexColumn("Place", "int", 7), AnnexColumn("Joueur", "text", 28),
                                  AnnexColumn("Points", "number", 8), AnnexColumn("Parties", "int", 8),
                                  AnnexColumn("Moyenne", "number", 9, AVERAGE_DECIMALS),
                                  AnnexColumn("Barrage", "number", 9),
                                  AnnexColumn("Statut", "text", 16)], lines),
            AnnexSheet("Parties", [AnnexColumn("Tour", "int", 6), AnnexColumn("Poule", "text", 7),
                                   AnnexColumn("Phase", "text", 11), AnnexColumn("Blancs", "text", 28),
                                   AnnexColumn("Noirs", "text", 28), AnnexColumn("Résultat", "text", 9),
                                   AnnexColumn("Points Blancs", "number", 9), AnnexColumn("Points Noirs", "number", 9),
                                   AnnexColumn("Compte", "text", 8)], games),
        ])
