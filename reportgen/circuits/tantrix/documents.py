"""Tantrix results to documents: a bulletin per event, a rating list after each event date, a
yearly annex and the published rankings (plain data; reportgen.render draws them)."""

from __future__ import annotations

from reportgen import french
from reportgen.circuits import common
from reportgen.circuits.tantrix.knockout import Match
from reportgen.circuits.tantrix.parse import ALL_PLAY_ALL, KNOCKOUT
from reportgen.circuits.tantrix.points import DEFAULT, VANISHED, time_text
from reportgen.circuits.tantrix.scoring import EventResult, RatingList
from reportgen.circuits.tantrix.seeding import INSCRITS, RATING
from reportgen.circuits.tantrix.settings import TantrixSettings
from reportgen.circuits.tantrix.standings import DECIDED_LABELS, PLAYOFF, TILES, TPS, WINS, Line
from reportgen.model import (
    DECIDED_HEADER,
    RANK_AND_PLAYER,
    Annex,
    AnnexColumn,
    AnnexSheet,
    Column,
    Document,
    Ranking,
    RankingRow,
    Scope,
    Status,
    headings,
)

CIRCUIT = "Tantrix"
KIND_LABELS = {KNOCKOUT: "élimination directe", ALL_PLAY_ALL: "toutes rondes"}
# `reportgen standings tantrix --event NAME`: rank, player, then exactly these first (scripts read them).
EVENT_COLUMNS = (Column("tps", "TPs", "number", 8), Column("games", "Parties", width=8),
                 Column("wins", "Gagnées", "number", 8), Column("margin", "Marges", width=8),
                 Column("tiles", "Tuiles", width=8), Column("playoff", "Barrage", "bool", 8))
KNOCKOUT_COLUMNS = EVENT_COLUMNS[:3] + (Column("stage", "Parcours", "text", 26),) + EVENT_COLUMNS[3:]
# `reportgen ratings tantrix`: rank, player, then exactly these first.
RATING_COLUMNS = (Column("rating", "Classement Elo", "number", 10, short="Elo"),
                  Column("games", "Parties classées", width=9, short="Parties"),
                  Column("provisional", "Provisoire", "text", 9),
                  Column("change", "Évolution", "number", 9, short="Évol."),
                  Column("seeding", "Pour les têtes de série", "number", 11, short="Têtes de série"))
MATCH_DECIDED = {TPS: "aux TPs", WINS: "aux parties gagnées (TPs à égalité)",
                 TILES: "aux tuiles (TPs et parties gagnées à égalité)", PLAYOFF: "barrage à jouer (règle 10 a)"}


# -- formatting ------------------------------------------------------------------------------------

def tps_value(tenths: int) -> float:
    return round(tenths / 10, 1)


def tps_text(tenths: int) -> str:
    return french.number(tenths / 10, 1)


def wins_text(halves: int) -> str:
    whole = str(halves // 2) if halves >= 2 or halves % 2 == 0 else ""
    return whole + ("½" if halves % 2 else "")


def signed(value: float, decimals: int = 0) -> str:
    return ("+" if value > 0 else "") + french.number(value, decimals) if round(value, decimals) else \
        french.number(0, decimals)


def event_path(result: EventResult) -> str:
    event = result.event
    return f"{event.date.year}/{event.date.isoformat()}-{common.slug(event.name)}"


def list_path(ratings: RatingList) -> str:
    return f"{ratings.date.year}/classement-elo-{ratings.date.isoformat()}"


def rank_text(line: Line) -> str:
    return f"{line.rank}=" if line.tied else str(line.rank)


# Rule 10: a tie that no criterion splits and that no play-off decides shares the place; the
# bulletin says so, so that no row of a tie is left without its « Départage ».
SHARED = "place partagée (TPs entre eux, parties gagnées, marges et tuiles à égalité)"


def decided_text(line: Line, result: EventResult) -> str:
    """The « Départage » of a standings row in words: what set its place among equal TPs (rule 10),
    or, in a knockout, how the match of the last round he played was decided when it was not on
    TPs (rule 10 a), the winner's row saying « gagnée » and the loser's « perdue »."""
    if result.event.content.kind != KNOCKOUT:
        texts = [DECIDED_LABELS.get(c, c) for c in line.decided_by]
        if line.tied and not line.playoff:
            texts.append(SHARED)
        return ", ".join(texts)
    last = max(m.round for m in result.matches)
    finals = [m for m in result.matches if m.round == last]
    texts = []
    for criterion in line.decided_by:
        mine = [m for m in result.matches if line.player in (m.a, m.b)]
        if criterion == PLAYOFF or not mine:
            texts.append(MATCH_DECIDED.get(criterion, criterion))
            continue
        match = max(mine, key=lambda m: m.round)
        what = "finale" if len(finals) == 1 and match is finals[0] else f"ronde {match.round}"
        texts.append(f"{what} {'gagnée' if match.winner == line.player else 'perdue'} {MATCH_DECIDED[criterion]}")
    return ", ".join(texts)


def round_label(number: int, count: int, last: int) -> str:
    """Ronde 3 — finale; the names of the last rounds when their match counts fit."""
    names = {0: (1, "finale"), 1: (2, "demi-finales"), 2: (4, "quarts de finale"), 3: (8, "huitièmes de finale")}
    expected = names.get(last - number)
    return f"Ronde {number}" + (f" — {expected[1]}" if expected and expected[0] == count else "")


# -- the event ---------------------------------------------------------------------------------------

def event_ranking(result: EventResult, path: str | None = None) -> Ranking:
    """`path`: the event's files (`event_path` unless two events' paths meet, see __init__.py)."""
    event = result.event
    knockout = event.content.kind == KNOCKOUT
    rows = []
    for line in result.lines:
        metrics: dict[str, object] = {"tps": tps_value(line.tps), "games": line.games, "wins": common.from_halves(line.wins),
                   "margin": line.margin, "tiles": line.tiles, "playoff": line.playoff}
        if knockout:
            metrics["stage"] = line.stage
        rows.append(RankingRow(line.rank, line.player, line.name, "", "", metrics, tied=line.tied,
                               decided_by=tuple(DECIDED_LABELS.get(c, MATCH_DECIDED.get(c, c)) for c in line.decided_by),
                               playoff=line.playoff))
    return Ranking(path or event_path(result), Scope("event", event.date.year, event.id, event.name), event.date,
                   Status.FINAL if complete(result) else Status.PROVISIONAL,
                   KNOCKOUT_COLUMNS if knockout else EVENT_COLUMNS, tuple(rows), identity=RANK_AND_PLAYER)


def complete(result: EventResult) -> bool:
    """A knockout is over once its last round is one match with a winner; an all-play-all's sheet
    holds its games as played (nothing tells a round still to come)."""
    if result.event.content.kind != KNOCKOUT:
        return True
    last = max(match.round for match in result.matches)
    finals = [match for match in result.matches if match.round == last]
    return len(finals) == 1 and finals[0].winner is not None


def _game_rows(result: EventResult) -> list[dict]:
    names = result.games.names
    colours = {game.line: pair for game, pair in zip(sorted(result.event.content.games, key=lambda g: g.line),
                                                     result.colours)}
    left_out = set(result.games.left_out)
    rows = []
    for game in result.games.games:
        row, scored = game.row, game.scored
        penalties = [f"{names[p]} −{n}" for p, n in zip(game.players, scored.penalties) if n]
        note = ""
        if row.kind == DEFAULT:
            note = f"forfait de {names[game.players[row.defaulted or 0]]}"
        elif row.kind == VANISHED:
            note = "partie disparue : nul 23-23 (règle 3)"
        pair = colours.get(row.line)
        rows.append({
            "round": row.round, "a": names[game.a], "b": names[game.b],
            "colour_a": pair.a if pair else "", "colour_b": pair.b if pair else "",
            "drawn": bool(pair and pair.drawn),
            "tiles": f"{scored.tiles[0]}–{scored.tiles[1]}",
            "times": " / ".join(time_text(t) or "—" for t in row.times) if any(t is not None for t in row.times) else "",
            "penalties": ", ".join(penalties), "base": f"{tps_text(scored.base[0])}–{tps_text(scored.base[1])}",
            "tps": f"{tps_text(scored.tps[0])}–{tps_text(scored.tps[1])}", "note": note, "kind": row.kind,
            "winner": 0 if scored.wins[0] > scored.wins[1] else 1 if scored.wins[1] > scored.wins[0] else None,
            "left_out": game.involves(left_out),
        })
    return rows


def _cross(result: EventResult) -> dict:
    order = [line.player for line in result.lines]
    cells: dict[tuple[str, str], list] = {}
    for game in result.games.counted():
        for side, player in enumerate(game.players):
            cells.setdefault((player, game.players[1 - side]), []).append((game.scored, side))
    rows = []
    for number, player in enumerate(order, start=1):
        row = []
        for other in order:
            found = cells.get((player, other), [])
            if other == player:
                row.append({"text": "", "kind": "self"})
            elif not found:
                row.append({"text": "", "kind": "none"})
            else:
                mine = sum(scored.tps[side] for scored, side in found)
                wins = sum(scored.wins[side] - scored.wins[1 - side] for scored, side in found)
                kind = "win" if wins > 0 else "loss" if wins < 0 else "draw"
                if any(scored.kind == DEFAULT for scored, _ in found):
                    kind += " default"
                row.append({"text": tps_text(mine), "kind": kind})
        rows.append({"number": number, "player": result.games.names[player], "cells": row})
    return {"numbers": list(range(1, len(order) + 1)), "rows": rows}


def _side(match: Match, side: int, names: dict[str, str]) -> dict:
    player = (match.a, match.b)[side]
    return {"player": names[player], "tps": tps_text(match.tps[side]), "wins": wins_text(match.wins[side]),
            "tiles": match.tiles[side], "winner": match.winner == player}


def _bracket(result: EventResult) -> list[dict]:
    names = result.games.names
    last = max((m.round for m in result.matches), default=0)
    rounds = []
    for number in sorted({m.round for m in result.matches}):
        mine = [m for m in result.matches if m.round == number]
        rounds.append({"label": round_label(number, len(mine), last), "matches": [{
            "a": _side(m, 0, names), "b": _side(m, 1, names), "decided": MATCH_DECIDED[m.decided_by],
            "playoff": m.winner is None, "close": m.decided_by != TPS,
            "games": ", ".join(f"{g.scored.tiles[g.side(m.a)]}–{g.scored.tiles[g.side(m.b)]}"
                               + (" (forfait)" if g.row.kind == DEFAULT else "") for g in m.games),
        } for m in mine]})
    return rounds


def _playoffs(result: EventResult) -> list[str]:
    knockout = result.event.content.kind == KNOCKOUT
    texts = []
    if knockout:
        for match in result.matches:
            if match.winner is None:
                texts.append(f"Ronde {match.round} : {result.games.names[match.a]} et {result.games.names[match.b]} "
                             "sont à égalité de TPs, de parties gagnées et de tuiles : ils se rencontrent encore une "
                             "fois, 5 minutes par joueur (5:01 ou plus perd le match, règle 10 a).")
        return texts
    groups: dict[int, list[str]] = {}
    for line in result.lines:
        if line.playoff:
            groups.setdefault(line.rank, []).append(line.name)
    for rank, players in groups.items():
        places = ("la 1re place" if rank == 1 else f"les places {rank} et {rank + 1}" if len(players) == 2
                  else f"les places {rank} à {rank + len(players) - 1}")
        texts.append(f"Égalité pour {places} : barrage à jouer entre {french.joined(players)}, 5 minutes par joueur "
                     "(5:01 ou plus perd la partie) ; le premier qui gagne une partie l'emporte (règle 10 c).")
    return texts


def _notes(result: EventResult, settings: TantrixSettings) -> list[str]:
    knockout = result.event.content.kind == KNOCKOUT
    default = "20-0 (50 tuiles à 14)" if knockout else "18-2 (35 tuiles à 15)"
    limit = settings.time_limit_minutes
    notes = [
        "Points de tournoi (règle 9) : le gagnant reçoit 10 + 2 + (4/3)·√marge arrondi au dixième, 20 au plus ; "
        "le perdant 20 moins ce nombre ; un nul 10-10.",
        f"Temps (règles 2 et 9) : en minutes entières (15:59 compte 15) ; à {limit}:00, un joueur donne 1 TP à son "
        f"adversaire, puis 1 de plus par minute entière ({limit + 1}:00 → 2). Les scores restent entre 0 et 20 ; "
        "le temps ne change pas le vainqueur de la partie.",
        f"Forfait (règle 7) : {default} ; jamais compté pour le classement Elo. Un joueur qui perd plus de "
        f"{settings.max_defaults} parties par forfait est écarté du classement, avec les résultats de ses "
        "adversaires contre lui ; ses parties jouées comptent pour le classement Elo.",
        "Partie disparue (les deux joueurs déconnectés, règle 3) : nul 23-23 à tous égards, temps non lus.",
    ]
    if knockout:
        notes.append("Élimination (règle 10 a) : un match réunit toutes les parties des deux mêmes joueurs dans une "
                     "ronde ; il se gagne aux TPs, puis aux parties gagnées, puis aux tuiles, sinon barrage. Classement : "
                     "le vainqueur de la dernière ronde 1er, son adversaire 2e, puis chacun selon la dernière ronde "
                     "jouée ; les éliminés d'une même ronde partagent la place (1, 2, 3, 3, 5, 5, 5, 5).")
    else:
        places = ", ".join(french.ordinal(p, feminine=True) for p in settings.playoff_places)
        notes.append("Départage (règle 10) : TPs après pénalités de temps ; à égalité, TPs marqués dans les parties "
                     "entre les joueurs à égalité (calculés une fois sur tout le groupe) ; une égalité qui subsiste "
                     f"pour une place qui compte ({places}) se règle par un barrage, à jouer ; les autres par les "
                     "parties gagnées (un nul = ½), puis la somme des marges, puis les tuiles marquées.")
    return notes


def event_bulletin(result: EventResult, settings: TantrixSettings, league: str, path: str | None = None) -> Document:
    event = result.event
    games = result.games
    knockout = event.content.kind == KNOCKOUT
    rounds = sorted({game.row.round for game in games.games})
    by_round: dict[int, list[dict]] = {}
    for row in _game_rows(result):
        by_round.setdefault(row["round"], []).append(row)
    rows = [{"rank": rank_text(line), "player": line.name, "tps": tps_text(line.tps), "games": line.games,
             "wins": wins_text(line.wins), "margin": signed(line.margin), "tiles": line.tiles, "stage": line.stage,
             "decided": decided_text(line, result),
             "playoff": line.playoff} for line in result.lines]
    left_out = [{"player": games.names[p], "defaults": games.defaults_lost[p],
                 "games": sum(1 for g in games.games if p in g.players and g.row.kind != DEFAULT)}
                for p in games.left_out]
    start = french.number(settings.rating_start)
    seeds = [{"number": s.number, "player": s.name,
              "value": french.number(s.value, 1),
              "rating": (f"{french.number(s.rating.value, 1)} ({french.plural(s.rating.games, 'partie')}"
                         + (", provisoire)" if s.rating.provisional(settings) else ")")) if s.rating else "",
              "source": {RATING: "classement Elo", INSCRITS: "Elo du classeur (Inscrits)"}.get(
                  s.source, f"sans classement : {start} réduit")} for s in result.seeds]
    drawn = sum(1 for pair in result.colours if pair.drawn)
    title = event.name
    summary = " · ".join(part for part in (
        french.date_long(event.date), event.content.location, KIND_LABELS[event.content.kind],
        french.plural(len(games.names), "joueur"), french.plural(len(rounds), "ronde"),
        french.plural(len(games.games), "partie"), "" if complete(result) else "tableau en cours") if part)
    return Document(
        path=path or event_path(result), template="tantrix/bulletin.html.j2", title=title, date=event.date,
        season=event.date.year,
        context={"league": league, "circuit": CIRCUIT, "season": event.date.year, "title": title,
                 "summary": summary, "knockout": knockout, "rows": rows,
                 "headings": headings(KNOCKOUT_COLUMNS if knockout else EVENT_COLUMNS),
                 "decided_header": DECIDED_HEADER, "left_out": left_out, "playoffs": _playoffs(result),
                 "cross": None if knockout else _cross(result), "bracket": _bracket(result) if knockout else [],
                 "rounds": [{"number": n, "games": by_round[n]} for n in rounds],
                 "colours": bool(result.colours), "seed": result.draw_seed, "drawn": drawn,
                 "seeds": seeds,
                 "seeding_from": (f"Liste établie d'après le classement Elo au {french.date_long(result.ratings_date)} "
                                  "(tournois des dates antérieures seulement)" if result.ratings_date else
                                  "Aucun tournoi antérieur : pas encore de classement Elo, la liste suit l'Elo du "
                                  f"classeur (Inscrits), sinon {start} réduit"),
                 "notes": _notes(result, settings)},
    )


# -- the rating list ------------------------------------------------------------------------------

def list_ranking(ratings: RatingList, settings: TantrixSettings) -> Ranking:
    rows = tuple(RankingRow(row.rank, row.player, row.name, "", "", {
        "rating": round(row.rating.value, 1), "games": row.rating.games,
        "provisional": "oui" if row.rating.provisional(settings) else "non",
        "change": round(row.rating.value - row.previous.value, 1) if row.previous else None,
        "seeding": round(row.rating.seeding(settings), 1)}, tied=row.tied) for row in ratings.rows)
    return Ranking(list_path(ratings), Scope("ratings", ratings.date.year), ratings.date, Status.RATING,
                   RATING_COLUMNS, rows, identity=RANK_AND_PLAYER)


def list_bulletin(ratings: RatingList, settings: TantrixSettings, league: str) -> Document:
    title = f"Classement Elo au {french.date_long(ratings.date)}"
    rows = [{"rank": f"{row.rank}=" if row.tied else str(row.rank), "player": row.name,
             "rating": french.number(row.rating.value, 1), "games": row.rating.games,
             "provisional": row.rating.provisional(settings),
             "change": signed(row.rating.value - row.previous.value, 1) if row.previous else "nouveau",
             "change_kind": "new" if row.previous is None else
             "up" if round(row.rating.value - row.previous.value, 1) > 0 else
             "down" if round(row.rating.value - row.previous.value, 1) < 0 else "same",
             "seeding": french.number(row.rating.seeding(settings), 1)} for row in ratings.rows]
    events = []
    for result in ratings.events:
        names = result.games.names
        changes = sorted(result.changes.values(), key=lambda c: (-c.after.value, names[c.player]))
        events.append({"name": result.event.name, "kind": KIND_LABELS[result.event.content.kind], "rows": [{
            "player": names[c.player], "before": french.number(c.before.value, 1), "before_games": c.before.games,
            "games": c.games, "score": french.number(100 * c.score, 1) + " %",
            "opponents": french.number(c.opponents, 1), "performance": french.number(c.performance, 1),
            "after": french.number(c.after.value, 1), "change": signed(c.after.value - c.before.value, 1),
        } for c in changes]})
    n = settings.established_games
    notes = [
        "Méthode (règle 12, lecture de la ligue) : tournoi par tournoi dans l'ordre des dates (même date : ordre "
        "des noms). Un joueur sans partie classée part de "
        f"{french.number(settings.rating_start)}. Dans un tournoi, score f = ses TPs / (20 × ses parties), borné à "
        f"[{french.number(settings.score_clip, 2)} ; {french.number(1 - settings.score_clip, 2)}] ; performance = "
        f"moyenne des classements de ses adversaires avant le tournoi + {french.number(settings.rating_spread, 1)} × "
        "Φ⁻¹(f).",
        f"Nouveau classement = (min(G, {n}) × ancien + g × performance) / (min(G, {n}) + g), g étant ses parties "
        "du tournoi et G ses parties classées jusque-là, puis un même décalage pour tous les joueurs du tournoi "
        "garde la somme des classements pondérés par g (règle 9b de la méthode Elo à laquelle renvoie la règle 12).",
        f"Les forfaits ne comptent jamais (règle 7) ; une partie disparue compte comme un nul 10-10. Provisoire tant "
        f"que G < {n} ; pour les têtes de série (règle 13), un classement provisoire est réduit de "
        f"{french.number(settings.seeding_reduction)} × ({n} − G) / {n}.",
    ]
    return Document(
        path=list_path(ratings), template="tantrix/ratings.html.j2", title=title, date=ratings.date,
        season=ratings.date.year,
        context={"league": league, "circuit": CIRCUIT, "season": ratings.date.year, "title": title,
                 "summary": f"après {' et '.join(r.event.name for r in ratings.events)} · "
                            f"{french.plural(len(rows), 'joueur classé', 'joueurs classés')}",
                 "previous": french.date_long(ratings.previous) if ratings.previous else "",
                 "rows": rows, "headings": headings(RATING_COLUMNS), "events": events, "notes": notes},
    )


# -- the annex -------------------------------------------------------------------------------------

def annex(year: int, results: list[EventResult], latest: RatingList, settings: TantrixSettings) -> Annex:
    game_rows, standing_rows, seed_rows, change_rows = [], [], [], []
    for result in results:
        event, names = result.event, result.games.names
        colours = {game.line: pair for game, pair in zip(sorted(event.content.games, key=lambda g: g.line),
                                                         result.colours)}
        for game in result.games.games:
            row, scored = game.row, game.scored
            pair = colours.get(row.line)
            game_rows.append([event.date, event.name, row.round, names[game.a], names[game.b], scored.tiles[0],
                              scored.tiles[1], time_text(row.times[0]), time_text(row.times[1]), scored.penalties[0],
                              scored.penalties[1], tps_value(scored.tps[0]), tps_value(scored.tps[1]), row.kind,
                              pair.a if pair else "", pair.b if pair else "", "oui" if scored.rated else "non"])
        for line in result.lines:
            standing_rows.append([event.date, event.name, line.rank, names[line.player], tps_value(line.tps),
                                  line.games, common.from_halves(line.wins), line.margin, line.tiles, line.stage,
                                  decided_text(line, result)])
        for player in result.games.left_out:
            standing_rows.append([event.date, event.name, None, names[player], None, None, None, None, None,
                                  f"écarté : {result.games.defaults_lost[player]} forfaits (règle 7)", ""])
        for seed in result.seeds:
            seed_rows.append([event.date, event.name, seed.number, seed.name, round(seed.value, 1), seed.source])
        for change in sorted(result.changes.values(), key=lambda c: names[c.player]):
            change_rows.append([event.date, event.name, names[change.player], round(change.before.value, 1),
                                change.before.games, change.games, round(change.score, 3),
                                round(change.opponents, 1), round(change.performance, 1), round(change.after.value, 1),
                                change.after.games])
    return Annex(
        path=f"{year}/annexe-tantrix-{year}", title=f"{CIRCUIT} {year}", date=latest.date, season=year,
        sheets=[
            AnnexSheet("Parties", [
                AnnexColumn("Date", "date", 11), AnnexColumn("Tournoi", "text", 28), AnnexColumn("Ronde", "int", 7),
                AnnexColumn("Joueur A", "text", 24), AnnexColumn("Joueur B", "text", 24),
                AnnexColumn("Tuiles A", "int", 8), AnnexColumn("Tuiles B", "int", 8),
                AnnexColumn("Temps A", "text", 8), AnnexColumn("Temps B", "text", 8),
                AnnexColumn("Pénalité A", "int", 9), AnnexColumn("Pénalité B", "int", 9),
                AnnexColumn("TPs A", "number", 8), AnnexColumn("TPs B", "number", 8), AnnexColumn("Type", "text", 9),
                AnnexColumn("Couleur A", "text", 9), AnnexColumn("Couleur B", "text", 9),
                AnnexColumn("Classée Elo", "text", 9)], game_rows),
            AnnexSheet("Classements", [
                AnnexColumn("Date", "date", 11), AnnexColumn("Tournoi", "text", 28), AnnexColumn("Place", "int", 7),
                AnnexColumn("Joueur", "text", 26), AnnexColumn("TPs", "number", 8), AnnexColumn("Parties", "int", 8),
                AnnexColumn("Gagnées", "number", 8), AnnexColumn("Marges", "int", 8), AnnexColumn("Tuiles", "int", 8),
                AnnexColumn("Parcours", "text", 24), AnnexColumn(DECIDED_HEADER, "text", 30)], standing_rows),
            common.ranking_sheet(list_ranking(latest, settings), "Classement Elo"),
            AnnexSheet("Évolution Elo", [
                AnnexColumn("Date", "date", 11), AnnexColumn("Tournoi", "text", 28), AnnexColumn("Joueur", "text", 26),
                AnnexColumn("Avant", "number", 9), AnnexColumn("Parties avant", "int", 9),
                AnnexColumn("Parties classées", "int", 9), AnnexColumn("Score", "auto", 8),
                AnnexColumn("Moyenne adversaires", "number", 11), AnnexColumn("Performance", "number", 11),
                AnnexColumn("Après", "number", 9), AnnexColumn("Parties après", "int", 9)], change_rows),
            AnnexSheet("Têtes de série", [
                AnnexColumn("Date", "date", 11), AnnexColumn("Tournoi", "text", 28), AnnexColumn("N°", "int", 5),
                AnnexColumn("Joueur", "text", 26), AnnexColumn("Valeur", "number", 9),
                AnnexColumn("Source", "text", 12)], seed_rows),
        ],
    )
