"""The parts of an event's bulletin: its games, cross table, bracket, play-offs to play and notes."""

from __future__ import annotations

from reportgen import french
from reportgen.circuits.tantrix import metrics
from reportgen.circuits.tantrix.knockout import Match
from reportgen.circuits.tantrix.parse import KNOCKOUT
from reportgen.circuits.tantrix.points import DEFAULT, VANISHED, time_text
from reportgen.circuits.tantrix.scoring import EventResult
from reportgen.circuits.tantrix.settings import TantrixSettings
from reportgen.circuits.tantrix.texts import defaults_lost, round_label, tps_text, wins_text


def game_rows(result: EventResult) -> list[dict]:
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
            note = f"forfait {french.of_person(names[game.players[row.defaulted or 0]])}"
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


def cross_table(result: EventResult) -> dict:
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


def bracket_rounds(result: EventResult) -> list[dict]:
    names = result.games.names
    last = max((m.round for m in result.matches), default=0)
    rounds = []
    for number in sorted({m.round for m in result.matches}):
        mine = [m for m in result.matches if m.round == number]
        rounds.append({"label": round_label(number, len(mine), last), "matches": [{
            "a": _side(m, 0, names), "b": _side(m, 1, names), "decided": metrics.EVENT[m.decided_by].in_match,
            "playoff": m.winner is None, "close": m.decided_by != metrics.TPS.key,
            "games": ", ".join(f"{g.scored.tiles[g.side(m.a)]}–{g.scored.tiles[g.side(m.b)]}"
                               + (" (forfait)" if g.row.kind == DEFAULT else "") for g in m.games),
        } for m in mine]})
    return rounds


def playoffs(result: EventResult) -> list[str]:
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
                     "(5:01 ou plus perd la partie) ; le premier qui gagne une partie l’emporte (règle 10 c).")
    return texts


def event_notes(result: EventResult, settings: TantrixSettings) -> list[str]:
    knockout = result.event.content.kind == KNOCKOUT
    default = "20-0 (50 tuiles à 14)" if knockout else "18-2 (35 tuiles à 15)"
    limit = settings.time_limit_minutes
    notes = [
        "Points de tournoi (règle 9) : le gagnant reçoit 10 + 2 + (4/3)·√marge arrondi au dixième, 20 au plus ; "
        "le perdant 20 moins ce nombre ; un nul 10-10.",
        f"Temps (règles 2 et 9) : en minutes entières (15:59 compte 15) ; à {limit}:00, un joueur donne 1 TP à son "
        f"adversaire, puis 1 de plus par minute entière ({limit + 1}:00 → 2). Les scores restent entre 0 et 20 ; "
        "le temps ne change pas le vainqueur de la partie.",
        # « more than max_defaults » in the alert's words: « au moins 1 partie perdue », never « plus de 0 parties »
        f"Forfait (règle 7) : {default} ; jamais compté pour le classement Elo. Un joueur qui compte au moins "
        f"{defaults_lost(settings.max_defaults + 1)} est écarté du classement, avec les résultats de ses "
        "adversaires contre lui ; ses parties jouées comptent pour le classement Elo.",
        "Partie disparue (les deux joueurs déconnectés, règle 3) : nul 23-23 à tous égards, temps non lus.",
    ]
    if knockout:
        notes.append("Élimination (règle 10 a) : un match réunit toutes les parties des deux mêmes joueurs dans une "
                     "ronde ; il se gagne aux TPs, puis aux parties gagnées, puis aux tuiles, sinon barrage. Classement : "
                     "le vainqueur de la dernière ronde 1er, son adversaire 2e, puis chacun selon la dernière ronde "
                     "jouée ; les éliminés d’une même ronde partagent la place (1, 2, 3, 3, 5, 5, 5, 5).")
    else:
        places = ", ".join(french.ordinal(p, feminine=True) for p in settings.playoff_places)
        notes.append("Départage (règle 10) : TPs après pénalités de temps ; à égalité, TPs marqués dans les parties "
                     "entre les joueurs à égalité (calculés une fois sur tout le groupe) ; une égalité qui subsiste "
                     f"pour une place qui compte ({places}) se règle par un barrage, à jouer ; les autres par les "
                     "parties gagnées (un nul = ½), puis la somme des marges, puis les tuiles marquées.")
    return notes
