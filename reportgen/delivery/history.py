"""`reportgen history "NOM Prénom"`: a player's record over every season — each circuit's ranking
of the season (the final one, else the latest), his place and points, and the tournaments he
played. Archived seasons come from the database (their latest archive), the others from inputs/.

A player is found by his licence, or by his name whatever its accents and case; word order aside
only when one name has those words (INTERPRETATIONS.md, « who is who »: the league's players are
then a closed list, and PHILIPPE Daniel is not DANIEL Philippe). A name of nobody says what it may
have meant: the players of that surname, or the names a letter or two from it."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from pathlib import Path

from reportgen import french, pipeline, queries
from reportgen.delivery import database, seasons
from reportgen.ingest.duplicates import MAX_TYPOS, distance
from reportgen.ingest.text import name_key, split_full_name, words_key
from reportgen.model import Ranking, ScopeKind, place_number

Say = Callable[[str], None]


@dataclass(frozen=True)
class Played:
    date: dt.date
    tournament: str
    place: int | None


@dataclass
class Record:
    season: int
    circuit: str
    player: str
    licence: str
    rank: int | None  # None: played, not ranked
    tied: bool
    points: float | None
    ranking: str  # the ranking's path: its final one, else its latest
    final: bool
    source: str  # "archive 2026/v1" or "inputs"
    tournaments: list[Played] = field(default_factory=list)
    # final, but its season runs (or ran when its copy was archived: database.archived_so_far): the
    # final ranking so far, which has no bulletin yet (« provisoire », as `standings --final` says it:
    # the year's tournaments only, not the bulletin « à date »)
    so_far: bool = False


class NameOfMany(str):
    """The problem that a name, word order aside, or a surname is that of several players: the name
    typed is to write again (the command was mistyped), not a workbook to correct."""


class NearNames(str):
    """What a name of no player may have meant (« vouliez-vous dire « DA SILVA Patrick » ? »): said
    after the line that it names nobody (the command was mistyped)."""


Match = Callable[[str, str], bool]


def _matches(query: str, any_order: bool = False, named: dict[str, str] | None = None,
             seen: set[str] | None = None) -> Match:
    """Whether a player (name, licence) is the one `query` names; `any_order`: word order aside.
    `named` collects the names matched (name key -> name), `seen` every name looked at."""
    key = words_key(name_key(query)) if any_order else name_key(query)
    wanted = query.strip()

    def match(name: str, licence: str) -> bool:
        if seen is not None:
            seen.add(name)
        found = words_key(name_key(name)) if any_order else name_key(name)
        if bool(key) and found == key:
            if named is not None:
                named.setdefault(name_key(name), name)
            return True
        return bool(licence) and licence == wanted

    return match


def from_database(archive: Path, match: Match) -> tuple[list[Record], set[int]]:
    """The records of the archived seasons of the player `match` finds, and which seasons are archived."""
    connection = database.connect(archive, create=False)
    if connection is None:
        return [], set()
    records: list[Record] = []
    try:
        archives = connection.execute("SELECT id, season, folder FROM current_archive ORDER BY season").fetchall()
        for archive_row in archives:
            archive_id = archive_row["id"]
            ids = {row["id"]: row for row in connection.execute(
                "SELECT id, name, licence FROM player WHERE archive_id = ?", (archive_id,)) if
                match(row["name"], row["licence"])}
            if not ids:
                continue
            so_far = database.archived_so_far(connection, archive_id)
            marks = ",".join("?" * len(ids))
            circuits = [row["circuit"] for row in connection.execute(
                "SELECT DISTINCT circuit FROM ranking WHERE archive_id = ? UNION "
                "SELECT DISTINCT circuit FROM tournament WHERE archive_id = ? ORDER BY circuit",
                (archive_id, archive_id))]
            for circuit in circuits:
                ranking = connection.execute(
                    "SELECT id, path, status, scope, event FROM ranking WHERE archive_id = ? AND circuit = ? "
                    "ORDER BY status = 'final' DESC, position DESC LIMIT 1", (archive_id, circuit)).fetchone()
                row = None
                if ranking is not None:
                    row = connection.execute(
                        f"SELECT rank, tied, points, player_id, player, licence FROM ranking_row "
                        f"WHERE ranking_id = ? AND player_id IN ({marks}) ORDER BY line LIMIT 1",
                        (ranking["id"], *ids)).fetchone()
                played = [Played(dt.date.fromisoformat(t["date"]), t["name"], t["place"]) for t in connection.execute(
                    f"SELECT t.date, t.name, r.place FROM result r JOIN tournament t ON t.id = r.tournament_id "
                    f"WHERE t.archive_id = ? AND t.circuit = ? AND r.player_id IN ({marks}) "
                    f"ORDER BY t.date, t.source", (archive_id, circuit, *ids))]
                if row is not None and ranking["scope"] == ScopeKind.EVENT and not played:
                    event = connection.execute("SELECT date, name FROM tournament WHERE archive_id = ? AND source = ?",
                                               (archive_id, ranking["event"])).fetchone()
                    if event is not None:
                        played = [Played(dt.date.fromisoformat(event["date"]), event["name"], row["rank"])]
                if row is None and not played:
                    continue
                person = ids[row["player_id"]] if row is not None else next(iter(ids.values()))
                records.append(Record(
                    archive_row["season"], circuit, person["name"], person["licence"],
                    row["rank"] if row is not None else None, bool(row["tied"]) if row is not None else False,
                    row["points"] if row is not None else None, ranking["path"] if ranking is not None else "",
                    ranking is not None and ranking["status"] == "final", f"archive {archive_row['folder']}", played,
                    so_far=ranking is not None and (circuit, ranking["path"]) in so_far))
        archived = {row["season"] for row in archives}
    finally:
        connection.close()
    return records, archived


def _latest(rankings: list[Ranking], season: int) -> Ranking | None:
    mine = [r for r in rankings if r.season == season]
    finals = [r for r in mine if r.final]
    chosen = finals or mine
    return chosen[-1] if chosen else None


def from_inputs(league: pipeline.League, scored: pipeline.Scored, match: Match, skip: set[int]) -> list[Record]:
    """The records of the seasons of inputs/ that are not archived, of the player `match` finds."""
    from reportgen.delivery.published import event_season

    records = []
    for slug, report in scored.reports.items():
        events = {e.id: e for e in league.circuits[slug].events}
        table = league.circuits[slug].results
        mine = table[[match(str(name), str(licence)) for name, licence in zip(table["player"], table["licence"])]] \
            if not table.empty else table
        ids = set(mine["player_id"]) if not mine.empty else set()
        season_list = {r.season for r in report.rankings} | {event_season(e) for e in events.values()}
        published = {document.path for document in report.documents}
        for season in sorted(season_list - skip):
            ranking = _latest(report.rankings, season)
            row = None
            if ranking is not None:
                row = next((r for r in ranking.rows if r.player_id in ids or match(r.player, r.licence)), None)
            played = []
            for line in mine.itertuples():
                event = events[str(line.event)]
                if event_season(event) == season:
                    played.append(Played(event.date, event.name, place_number(getattr(line, "place", None))))
            if row is not None and ranking is not None and ranking.scope.kind == ScopeKind.EVENT and not played:
                itself = events.get(ranking.scope.event)
                if itself is not None:
                    played = [Played(itself.date, itself.name, row.rank)]
            if row is None and not played:
                continue
            name, licence = (row.player, row.licence) if row is not None else (str(mine["player"].iloc[0]),
                                                                              str(mine["licence"].iloc[0]))
            points = row.metrics.get("points") if row is not None else None
            records.append(Record(season, slug, name, licence, row.rank if row is not None else None,
                                  row.tied if row is not None else False,
                                  float(points) if points is not None else None,
                                  ranking.path if ranking is not None else "", bool(ranking and ranking.final),
                                  "inputs", sorted(played, key=lambda p: (p.date, p.tournament)),
                                  so_far=ranking is not None and queries.so_far(ranking, published)))
    return records


def history(query: str, inputs: Path, archive: Path, today: dt.date | None = None,
            say: Say = lambda text: None,
            loaded: tuple[pipeline.League, pipeline.Scored] | None = None) -> tuple[list[Record], list[str]]:
    """The player's records, season by season (circuits in alphabetical order), and the problems
    that kept seasons of inputs/ out (their circuits are blocked). A name of nobody: a name or a
    surname of several players (NameOfMany), or the names it may have meant (NearNames) when every
    circuit was read (else its player may be in a workbook to correct). `loaded`: the league of
    inputs/ already read and scored."""
    problems: list[str] = []
    league, scored = loaded or (None, None)
    if loaded is not None or inputs.is_dir():
        if league is None or scored is None:
            league = seasons.load(inputs, archive, today, say)
            scored = pipeline.score(league)
        for slug, blocking in scored.blocked.items():
            count = sum(problem.blocking for problem in blocking)  # a hold is no problem to correct
            problems.append(f"{slug} : des classeurs sont à corriger, ses saisons non archivées sont omises "
                            f"({french.plural(count, 'problème')}, voir « reportgen check »)" if count else
                            f"{slug} : en attente d’un circuit dont il dépend, ses saisons non archivées sont "
                            "omises (voir « reportgen check »)")

    def search(match: Match) -> list[Record]:
        records, archived = from_database(archive, match)
        if league is not None and scored is not None:
            records += from_inputs(league, scored, match, archived)
        return records

    seen: set[str] = set()  # every player's name: what a name of nobody may have meant
    records = search(_matches(query, seen=seen))
    if not records:
        # Word order aside only when one name has those words (INTERPRETATIONS.md, « who is who »).
        named: dict[str, str] = {}
        loose = search(_matches(query, any_order=True, named=named))
        names = sorted(named.values())
        if len(names) <= 1:
            records = loose
        else:
            problems.append(NameOfMany(f"« {query} » peut désigner " + " ou ".join(f"« {name} »" for name in names)
                                       + " : écrivez le nom tel qu’il est imprimé (NOM Prénom)"))
        if not records and not problems:
            problems += _meant(query, seen)
    return sorted(records, key=lambda r: (r.season, r.circuit)), problems


def _meant(query: str, names: Collection[str]) -> list[str]:
    """What a name of none of the players `names` may have meant, by their name keys (`name_key`):
    the surname of several (« plusieurs joueurs s'appellent … — précisez le prénom »), else the
    surname of one, or the names nearest it a letter or two apart, as the build's probable
    duplicates (`duplicates.distance`); nothing beyond."""
    key = name_key(query)
    if not key:
        return []
    keys: dict[str, str] = {}
    for name in sorted(names):
        keys.setdefault(name_key(name), name)
    meant = [name for name in keys.values() if name_key(split_full_name(name)[0], "") == key]
    if len(meant) > 1:
        return [NameOfMany(f"plusieurs joueurs s’appellent {split_full_name(meant[0])[0]} : {', '.join(meant)} "
                           "— précisez le prénom")]
    if not meant:
        apart = {name: distance(key, found) for found, name in keys.items()}
        nearest = min(apart.values(), default=MAX_TYPOS + 1)
        if nearest <= MAX_TYPOS:
            meant = [name for name, typos in apart.items() if typos == nearest]
    return [NearNames("vouliez-vous dire " + " ou ".join(f"« {name} »" for name in meant) + " ?")] if meant else []


def as_rows(records: list[Record]) -> list[dict[str, object]]:
    """One row per season and circuit: season, circuit, rank (a number), points, then the
    tournaments; `final` and `so_far` (a final ranking while its season runs, « provisoire »: as
    `standings --format json` says them); last `tied`, whether the rank is shared (the convention of
    `standings --format csv`)."""
    rows = []
    for record in records:
        rows.append({
            "season": record.season, "circuit": record.circuit,
            "rank": "" if record.rank is None else record.rank,  # a number; shared or not: `tied`
            "points": "" if record.points is None else (int(record.points) if float(record.points).is_integer()
                                                        else record.points),
            "played": len(record.tournaments),
            "tournaments": "; ".join(f"{p.date.isoformat()} {p.tournament}"
                                     + (f" ({p.place})" if p.place is not None else "") for p in record.tournaments),
            "player": record.player, "licence": record.licence, "final": record.final, "source": record.source,
            "so_far": record.so_far, "tied": record.tied,
        })
    return rows

