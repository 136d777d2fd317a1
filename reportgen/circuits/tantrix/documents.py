"""Tantrix results to documents: a bulletin per event, a rating list after each event date, a
yearly annex and the published rankings (plain data; reportgen.render draws them). Their columns
and « Départage » words come from `metrics`, their texts from `texts`, the parts of an event's
bulletin from `bulletin_parts`."""

from __future__ import annotations

from reportgen import french
from reportgen.circuits import common
from reportgen.circuits.tantrix import bulletin_parts as parts
from reportgen.circuits.tantrix.metrics import (
    EVENT,
    EVENT_COLUMNS,
    GAMES,
    KNOCKOUT_COLUMNS,
    MARGIN,
    RATING_COLUMNS,
    RATINGS,
    STAGE,
    TILES,
    TPS,
    WINS,
    Rated,
    tps_value,
)
from reportgen.circuits.tantrix.parse import KNOCKOUT
from reportgen.circuits.tantrix.points import DEFAULT
from reportgen.circuits.tantrix.scoring import EventResult, RatingList
from reportgen.circuits.tantrix.seeding import INSCRITS, RATING
from reportgen.circuits.tantrix.settings import TantrixSettings
from reportgen.circuits.tantrix.texts import (
    CIRCUIT,
    KIND_LABELS,
    complete,
    decided_text,
    defaults_lost,
    event_path,
    list_path,
    margin_text,
    tps_text,
    wins_text,
)
from reportgen.model import (
    DECIDED_HEADER,
    DECIDED_WIDTH,
    RANK_AND_PLAYER,
    Annex,
    AnnexColumn,
    AnnexSheet,
    Document,
    LeftOut,
    Ranking,
    RankingRow,
    Scope,
    ScopeKind,
    Status,
    headings,
    move,
)


def event_ranking(result: EventResult, path: str | None = None) -> Ranking:
    """`path`: the event's files (`event_path` unless two events' paths meet, see circuit.py)."""
    event = result.event
    knockout = event.content.kind == KNOCKOUT
    columns = KNOCKOUT_COLUMNS if knockout else EVENT_COLUMNS
    rows = tuple(RankingRow(line.rank, line.player, line.name, "", "", EVENT.values(line, columns), tied=line.tied,
                            decided_by=EVENT.decided(line.decided_by), playoff=line.playoff) for line in result.lines)
    games = result.games
    left_out = tuple(LeftOut(player, games.names[player], left_out_why(games.defaults_lost[player]))
                     for player in games.left_out)
    return Ranking(path or event_path(result), Scope(ScopeKind.EVENT, event.date.year, event.id, event.name), event.date,
                   Status.FINAL if complete(result) else Status.PROVISIONAL, columns, rows, identity=RANK_AND_PLAYER,
                   left_out=left_out)


def left_out_why(count: int) -> str:
    """« hors classement : 3 parties perdues par forfait (règle 7) »: a player left out, in his
    ranking's `left_out` (his site page's line for the event) and the annex's « Classements » sheet
    alike (the annex said « 3 forfaits », the bulletin and the site « 3 parties perdues par forfait »,
    the regulation « perd plus de deux parties par défaut »)."""
    return f"hors classement : {defaults_lost(count)} (règle 7)"


def event_bulletin(result: EventResult, settings: TantrixSettings, league: str, path: str | None = None) -> Document:
    event = result.event
    games = result.games
    knockout = event.content.kind == KNOCKOUT
    rounds = sorted({game.row.round for game in games.games})
    by_round: dict[int, list[dict]] = {}
    for row in parts.game_rows(result):
        by_round.setdefault(row["round"], []).append(row)
    rows = [{"rank": french.shared_place(line.rank, line.tied), "player": line.name, "tps": tps_text(line.tps), "games": line.games,
             "wins": wins_text(line.wins), "margin": margin_text(line.margin), "tiles": line.tiles, "stage": line.stage,
             "decided": decided_text(line, result),
             "playoff": line.playoff} for line in result.lines]
    left_out = [{"player": games.names[p], "defaults": french.plural(games.defaults_lost[p], "partie"),
                 "lost": defaults_lost(games.defaults_lost[p]),
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
    path = path or event_path(result)
    summary = " · ".join(part for part in (
        french.date_long(event.date), event.content.location, KIND_LABELS[event.content.kind],
        french.plural(len(games.names), "joueur"), french.plural(len(rounds), "ronde"),
        french.plural(len(games.games), "partie"), "" if complete(result) else "tableau en cours") if part)
    return Document(
        path=path, template="tantrix/bulletin.html.j2", title=title, date=event.date,
        season=event.date.year, events=(event.id,),
        context={"league": league, "circuit": CIRCUIT, "season": event.date.year, "title": title,
                 "summary": summary, "knockout": knockout, "rows": rows,
                 "headings": headings(KNOCKOUT_COLUMNS if knockout else EVENT_COLUMNS),
                 "decided_header": DECIDED_HEADER, "left_out": left_out, "playoffs": parts.playoffs(result),
                 "cross": None if knockout else parts.cross_table(result), "bracket": parts.bracket_rounds(result) if knockout else [],
                 "rounds": [{"number": n, "games": by_round[n]} for n in rounds],
                 "colours": bool(result.colours), "seed": result.draw_seed, "drawn": drawn,
                 "seeds": seeds,
                 "seeding_from": (f"Liste établie d’après le classement Elo au {french.date_long(result.ratings_date)} "
                                  "(tournois des dates antérieures seulement)" if result.ratings_date else
                                  "Aucun tournoi antérieur : pas encore de classement Elo, la liste suit l’Elo du "
                                  f"classeur (Inscrits), sinon {start} réduit"),
                 "notes": parts.event_notes(result, settings),
                 "print_top": common.print_top(len(rows), settings.bulletin_rows, path.rpartition("/")[2] + ".csv")},
    )


# -- the rating list ------------------------------------------------------------------------------

def list_ranking(ratings: RatingList, settings: TantrixSettings) -> Ranking:
    rows = tuple(RankingRow(row.rank, row.player, row.name, "", "", RATINGS.values(Rated(row, settings), RATING_COLUMNS),
                            tied=row.tied) for row in ratings.rows)
    return Ranking(list_path(ratings), Scope(ScopeKind.RATINGS, ratings.date.year), ratings.date, Status.RATING,
                   RATING_COLUMNS, rows, identity=RANK_AND_PLAYER)


def score_percent(score: float) -> float:
    """A player's score f in an event as a percentage with one decimal (62.2): the rating list's
    bulletin prints it (« 62,2 % ») and the annex's « Score » holds it as a fraction (0.622, shown
    62,2 %), one rounding for both (the fraction rounded to three decimals on its own, 235.8 TPs in
    12 games: 0.983, showed 98,3 % where the bulletin printed 98,2 %)."""
    return round(100 * score, 1)


def list_bulletin(ratings: RatingList, settings: TantrixSettings, league: str) -> Document:
    title = f"Classement Elo au {french.date_long(ratings.date)}"
    # the values the published ranking holds, written as the site writes them (french.column_value)
    values = RATINGS.values_of(RATING_COLUMNS)

    def shown(value: dict[str, object], key: str) -> str:
        return french.column_value(value[key], RATINGS[key].column)

    rows = []
    for row in ratings.rows:
        value = values(Rated(row, settings))  # its `change` rounded as shown: its class says what it shows
        rows.append({"rank": french.shared_place(row.rank, row.tied), "player": row.name,
                     "rating": shown(value, "rating"), "games": row.rating.games,
                     "provisional": row.rating.provisional(settings),
                     "change": shown(value, "change"), "change_kind": move(value["change"]),
                     "seeding": shown(value, "seeding")})
    events = []
    for result in ratings.events:
        names = result.games.names
        changes = sorted(result.changes.values(), key=lambda c: (-c.after.value, names[c.player]))
        events.append({"name": result.event.name, "kind": KIND_LABELS[result.event.content.kind], "rows": [{
            "player": names[c.player], "before": french.number(c.before.value, 1), "before_games": c.before.games,
            "games": c.games, "score": french.number(score_percent(c.score), 1) + " %",
            "opponents": french.number(c.opponents, 1), "performance": french.number(c.performance, 1),
            "after": french.number(c.after.value, 1), "change": french.signed(c.after.value - c.before.value, 1),
        } for c in changes]})
    n = settings.established_games
    notes = [
        "Méthode (règle 12, lecture de la ligue) : tournoi par tournoi dans l’ordre des dates (même date : ordre "
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
        season=ratings.date.year, events=tuple(r.event.id for r in ratings.events),
        context={"league": league, "circuit": CIRCUIT, "season": ratings.date.year, "title": title,
                 "summary": f"après {' et '.join(french.the(r.event.name) for r in ratings.events)} · "
                            f"{french.plural(len(rows), 'joueur classé', 'joueurs classés')}",
                 "previous": french.date_long(ratings.previous) if ratings.previous else "",
                 "rows": rows, "headings": headings(RATING_COLUMNS), "events": events, "notes": notes,
                 "print_top": common.print_top(len(rows), settings.bulletin_rows,
                                               list_path(ratings).rpartition("/")[2] + ".csv")},
    )


# -- the annex -------------------------------------------------------------------------------------

# The annex's `Classements` sheet: every event's standings, in these columns.
STANDING_METRICS = (TPS, GAMES, WINS, MARGIN, TILES, STAGE)


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
                              scored.tiles[1], row.times[0], row.times[1], scored.penalties[0],
                              scored.penalties[1], tps_value(scored.tps[0]), tps_value(scored.tps[1]), row.kind,
                              pair.a if pair else "", pair.b if pair else "", "oui" if scored.rated else "non"])
        for line in result.lines:
            standing_rows.append([event.date, event.name, line.rank, names[line.player],
                                  *(metric.value(line) for metric in STANDING_METRICS), decided_text(line, result)])
        for player in result.games.left_out:
            standing_rows.append([event.date, event.name, None, names[player], None, None, None, None, None,
                                  left_out_why(result.games.defaults_lost[player]), ""])
        for seed in result.seeds:
            seed_rows.append([event.date, event.name, seed.number, seed.name, round(seed.value, 1), seed.source])
        for change in sorted(result.changes.values(), key=lambda c: names[c.player]):
            change_rows.append([event.date, event.name, names[change.player], round(change.before.value, 1),
                                change.before.games, change.games, round(score_percent(change.score) / 100, 3),
                                round(change.opponents, 1), round(change.performance, 1), round(change.after.value, 1),
                                change.after.games])
    return Annex(
        path=f"{year}/annexe-tantrix-{year}", title=f"{CIRCUIT} {year}", date=latest.date, season=year,
        sheets=[
            AnnexSheet("Parties", [
                AnnexColumn("Date", "date", 11), AnnexColumn("Tournoi", "text", 28), AnnexColumn("Ronde", "int", 7),
                AnnexColumn("Joueur A", "text", 24), AnnexColumn("Joueur B", "text", 24),
                AnnexColumn("Tuiles A", "int", 8), AnnexColumn("Tuiles B", "int", 8),
                # seconds, shown « 12:19 » as the bulletin prints them, a duration the secretary sorts and sums
                AnnexColumn("Temps A", "duration", 8), AnnexColumn("Temps B", "duration", 8),
                AnnexColumn("Pénalité A", "int", 9), AnnexColumn("Pénalité B", "int", 9),
                AnnexColumn("TPs A", "number", 8), AnnexColumn("TPs B", "number", 8), AnnexColumn("Type", "text", 9),
                AnnexColumn("Couleur A", "text", 9), AnnexColumn("Couleur B", "text", 9),
                AnnexColumn("Classée Elo", "text", 9)], game_rows),
            AnnexSheet("Classements", [
                AnnexColumn("Date", "date", 11), AnnexColumn("Tournoi", "text", 28), AnnexColumn("Place", "int", 7),
                AnnexColumn("Joueur", "text", 26),
                *(AnnexColumn(metric.heading, str(metric.kind), 24 if metric is STAGE else 8) for metric in STANDING_METRICS),
                AnnexColumn(DECIDED_HEADER, "text", DECIDED_WIDTH)], standing_rows),
            common.ranking_sheet(list_ranking(latest, settings), "Classement Elo"),
            AnnexSheet("Évolution Elo", [
                AnnexColumn("Date", "date", 11), AnnexColumn("Tournoi", "text", 28), AnnexColumn("Joueur", "text", 26),
                AnnexColumn("Avant", "number", 9), AnnexColumn("Parties avant", "int", 9),
                AnnexColumn("Parties classées", "int", 9), AnnexColumn("Score", "number", 8, 1, percent=True),
                AnnexColumn("Moyenne adversaires", "number", 11), AnnexColumn("Performance", "number", 11),
                AnnexColumn("Après", "number", 9), AnnexColumn("Parties après", "int", 9)], change_rows),
            AnnexSheet("Têtes de série", [
                AnnexColumn("Date", "date", 11), AnnexColumn("Tournoi", "text", 28), AnnexColumn("N°", "int", 5),
                AnnexColumn("Joueur", "text", 26), AnnexColumn("Valeur", "number", 9),
                AnnexColumn("Source", "text", 12)], seed_rows),
        ],
    )
