"""Each circuit's rankings as the site reads them (`<circuit>/site.json`), published with the
circuit's files: a blocked circuit keeps its last one, as it keeps its manifest.

Values are written already formatted in French (the site's templates never compute); the player
id the pipeline gives is kept, so that merges and distinct decisions reach the site's pages."""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import json
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any, TextIO

from reportgen import french
from reportgen.model import (
    Column,
    Deferred,
    Event,
    Ranking,
    RankingRow,
    Report,
    ResultColumn,
    ScopeKind,
    place_number,
    published_title,
)
from reportgen.render.cache import source_key

DATA = "site.json"
# How `circuit_data_parts` lays the file out, which `read_records` reads back record by record:
# `{"rankings":[` the records, compact, separated by commas `],"scales":` a list `}`
_START, _SCALES = '{"rankings":[', '],"scales":'
_DECODER = json.JSONDecoder()


def sorted_by_number(column: Column) -> bool:
    """Whether a column's text does not read as the number it sorts by (games won « 2½ », a round
    « finale »): its record then gives the number too (`ranking_record`'s `sort`), a table's
    `data-sort` (site.js)."""
    return column.halves or bool(column.labels)


def numeric(column: Column) -> bool:
    """Whether a column's values are numbers a page aligns right, as the bulletins do (a round
    named « finale » is a word)."""
    return column.kind in ("int", "number", "evolution") and not column.labels


def counted(row: RankingRow, events: Sequence[int] = ()) -> list[list[Any]]:
    """A player's results, best first, each with whether it counts in his points as his circuit's
    scoring counted it (`RankingRow.counts`; None: not known) and, when `events` gives them, its
    tournament: its index in the record's `events` (`ranking_record`)."""
    counts: Sequence[bool | None] = row.counts or [None] * len(row.results)
    marks: list[list[Any]] = [[french.points(result), count] for result, count in zip(row.results, counts)]
    for mark, event in zip(marks, events):
        mark.append(event)
    return marks


def _events(rows: Sequence[RankingRow]) -> list[str]:
    """The tournaments a ranking's rows' results come from, each id once, sorted: a result names
    its tournament by its index in this list, not by its id (at 1x, the Grand Sud's `site.json` has
    8,152 results for 227 ids in its lists: 25 KB more with indexes, 259 KB, +31 %, with the ids)."""
    return sorted({event for row in rows for event in row.events})


def column_record(column: Column) -> dict[str, Any]:
    """A column as the site reads it; `words` when its values name themselves in words (a pool
    tournament's round reached, « finale », « tour 2 »: `Column.labels`), which a player's line and
    a card say alone, « Finale », where « Tour : finale » read the round twice (`player_page.labelled`)."""
    return {"key": column.key, "header": column.header, "short": column.short or column.header,
            "numeric": numeric(column), **({"words": True} if column.labels else {})}


def ranking_record(ranking: Ranking, titles: dict[str, str]) -> dict[str, Any]:
    """A ranking as the site reads it (`titles`: its document's title by path)."""
    columns = [c for c in ranking.all_columns if c.key not in ("rank", "player", "licence")]
    by_number = [c.key for c in columns if sorted_by_number(c)]
    events = _events(ranking.rows)
    index = {event: position for position, event in enumerate(events)}
    return {
        "path": ranking.path, "kind": ranking.scope.kind, "season": ranking.season,
        "event": ranking.scope.event, "name": ranking.scope.name or titles.get(ranking.path, ""),
        "title": published_title(ranking, titles), "date": ranking.date.isoformat(),
        "effective": ranking.effective.isoformat(), "status": ranking.status.value,
        # an event played over several days: its first (site/days.py `record_days`)
        **({"start": start.isoformat()} if (start := ranking.scope.start) and start < ranking.date else {}),
        "columns": [column_record(c) for c in columns],
        **({"events": events} if events else {}),
        "rows": [{"rank": row.rank, "tied": row.tied, "id": row.player_id, "player": row.player,
                  "club": row.club, "values": {c.key: french.column_value(row.value(c.key), c) for c in columns},  # as its bulletin writes it
                  **({"sort": {key: row.value(key) for key in by_number if _number(row.value(key))}}
                     if by_number else {}),
                  **({"results": counted(row, [index[e] for e in row.events])}
                     if row.results else {})}
                 for row in ranking.rows],
        # what its pages say under its table (the Masters' « Classement annuel »: the Grand Sud ranking it is of)
        **({"legend": dataclasses.asdict(ranking.legend)} if ranking.legend else {}),
        # its players it does not rank, and why: each one's page names the event with it (site/pages.py `_load`)
        **({"left_out": [{"id": out.player_id, "player": out.player, "why": french.typography(out.why)}
                         for out in ranking.left_out]}
           if ranking.left_out else {}),
    }


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


# One result as a tournament's site record reads it: (event id, place, club, player id, player),
# None for a column the circuit's results table lacks.
Result = tuple[Any, Any, Any, Any, Any]


def results_of(records: Iterable[Mapping[Any, Any]]) -> list[Result]:
    """`Result`s from records of the pipeline's results table (or an archive's), one per player per
    tournament."""
    return [(record["event"], record.get("place"), record.get("club"), record["player_id"], record["player"])
            for record in records]


class EventRecord:
    """A tournament's results as a ranking record of its own (place when the circuit's rows have one,
    player, club, then the columns its circuit adds: `Report.event_columns`, a Grand Sud tournament's
    points), for a tournament no event ranking covers: made only when asked (`record`), so that
    a build takes back the bytes the last `site.json` holds under the same `key` (`Earlier`), as for
    a ranking: one new tournament leaves the other 4,000 of the Grand Sud at 100x as they were, and
    each made again and encoded cost about 1 CPU-s in all (twentieth round)."""

    __slots__ = ("event", "results", "path", "place", "note", "columns")

    def __init__(self, event: Event[Any], results: list[Result], note: str = "",
                 columns: Sequence[ResultColumn] = ()) -> None:
        self.event, self.results = event, results
        self.path = f"tournoi/{event.id}"
        self.place = str(getattr(event.content, "location", "") or "")
        self.note = note  # what its page says of it (Report.event_notes: a tournament outside the circuit)
        self.columns = tuple(columns)

    def key(self) -> str | None:
        """All the record is made from (the code aside, which `source_key` adds): a point changed
        (a seed's place corrected in an earlier tournament) makes the record again."""
        event = self.event
        added = [(c.column, c.values) for c in self.columns]
        return source_key("event-record", event.id, event.name, event.date, self.place, self.results, self.note,
                          *([added] if added else []))

    def record(self) -> dict[str, Any]:
        event = self.event
        added = [(c.column.key, c.column, c.values) for c in self.columns]
        by_number = [(key, values) for key, column, values in added if sorted_by_number(column)]
        lines = []
        for _, place, club, player_id, player in self.results:
            named = club if isinstance(club, str) else ""
            values = {"club": named}
            for key, column, given in added:
                values[key] = french.column_value(given.get(player_id), column)
            line = {"rank": place_number(place), "tied": False, "id": player_id, "player": player, "club": named,
                    "values": values}
            if by_number:  # a value whose text is not its number (« 2½ »): sorted by the number (site.js)
                line["sort"] = {key: given[player_id] for key, given in by_number if _number(given.get(player_id))}
            lines.append(line)
        lines.sort(key=lambda r: (r["rank"] is None, r["rank"] or 0, r["player"]))
        columns: list[dict[str, Any]] = [{"key": "club", "header": "Club", "short": "Club"}]
        columns += [column_record(column) for _, column, _ in added]
        return {"path": self.path, "kind": "event", "season": event.date.year, "event": event.id,
                "name": event.name, "title": event.name, "date": event.date.isoformat(), "place": self.place,
                "effective": event.date.isoformat(), "status": "final", "no_csv": True,
                "columns": columns, "rows": lines, **({"note": self.note} if self.note else {})}


def event_sources(events: Sequence[Event[Any]], results: Iterable[Result], notes: Mapping[str, str] | None = None,
                  columns: Mapping[str, Sequence[ResultColumn]] | None = None) -> list[EventRecord]:
    """Each tournament's `EventRecord`, in date order, from the circuit's `results`, with what its
    circuit says of it (`notes`: Report.event_notes) and the columns it adds to its results
    (`columns`: Report.event_columns)."""
    found: dict[str, list[Result]] = {}
    for result in results:
        found.setdefault(result[0], []).append(result)
    said, added = notes or {}, columns or {}
    return [EventRecord(event, found.get(event.id, []), said.get(event.id, ""), added.get(event.id, ()))
            for event in sorted(events, key=lambda e: (e.date, e.id))]


def event_records(events: Sequence[Event[Any]], results: Iterable[Mapping[Any, Any]],
                  notes: Mapping[str, str] | None = None,
                  columns: Mapping[str, Sequence[ResultColumn]] | None = None) -> list[dict[str, Any]]:
    """Each tournament's site record (`EventRecord`), in date order, from records of the pipeline's
    results table (one per player per tournament, player ids resolved), with what its circuit says
    of it (`notes`: Report.event_notes) and the columns it adds (`columns`: Report.event_columns)."""
    return [source.record() for source in event_sources(events, results_of(results), notes, columns)]


def chart_records(report: Report) -> list[dict[str, Any]]:
    """The report's rankings with what a chart reads of them (site/figures.py `bump`: each ranking's
    path, kind, season, date and status, each row's place, id and name), as `ranking_record` gives
    those: the bulletins' charts drawn without every value of every row made as text (at 100x, the
    230,000 rows of 82 rankings: 1.7 CPU-s, eighteenth round)."""
    return [{"path": ranking.path, "kind": ranking.scope.kind, "season": ranking.season,
             "date": ranking.date.isoformat(), "status": ranking.status.value,
             "rows": [{"rank": row.rank, "id": row.player_id, "player": row.player} for row in _outline(ranking.rows)]}
            for ranking in report.rankings]


def _outline(rows: Sequence[Any]) -> Sequence[Any]:
    """Rows, or what is known of them before they are made (`Deferred.outline`: their places, ids
    and names), so that a chart does not make the rows of a ranking a rebuild takes from disk."""
    outline = rows.outline if isinstance(rows, Deferred) else None
    return rows if outline is None else outline


class Earlier:
    """The records of the `site.json` a circuit last published, each taken back as its bytes when
    its ranking's key is the one recorded (`circuit_data_parts`' `index`, kept in the manifest):
    one new tournament changes two of the Grand Sud's 82 rankings, and each record made again and
    encoded cost 0.02-0.05 CPU-s at 100x. `path`: the file, which the caller has proven to be the one
    the index describes (its SHA-256, known by its stat)."""

    def __init__(self, path: Path, index: Mapping[str, Any]) -> None:
        self.path, self.index = path, index
        self.stream: Any = None

    def get(self, ranking: str, key: str | None) -> bytes | None:
        found = self.index.get(ranking)
        if key is None or not isinstance(found, list) or len(found) != 3 or found[0] != key:
            return None
        _, offset, length = found
        try:
            if self.stream is None:
                self.stream = self.path.open("rb")
            self.stream.seek(offset)
            data: bytes = self.stream.read(length)
        except (OSError, TypeError, ValueError, OverflowError):
            return None
        # one JSON object, this ranking's (a path within a record's text is escaped: `\"path\"`):
        # anything else is not what the index says
        named = b'"path":' + json.dumps(ranking, ensure_ascii=False).encode("utf-8") + b","
        return data if len(data) == length and data[:1] == b"{" and data[-1:] == b"}" and named in data else None

    def close(self) -> None:
        if self.stream is not None:
            self.stream.close()


def record_key(ranking_key: str | None, title: str, place: str | None) -> str | None:
    """What a ranking's record is made from besides the ranking (its key: render/cache.py
    `ranking_key`): its document's title, and an event's place."""
    return None if ranking_key is None else source_key("site-record", ranking_key, title, place)


def circuit_data(report: Report, events: Sequence[EventRecord] = ()) -> bytes:
    """The bytes of a circuit's `site.json`: its rankings, then its tournaments that no event
    ranking covers (`EventRecord`)."""
    return b"".join(circuit_data_parts(report, events))


def circuit_data_parts(report: Report, events: Sequence[EventRecord] = (),
                       keys: Mapping[str, str | None] | None = None, earlier: Earlier | None = None,
                       index: dict[str, list[Any]] | None = None) -> Iterator[bytes]:
    """`circuit_data`'s bytes in parts, each record encoded alone (the same bytes: json's compact
    encoding of a list is its items' joined by commas): the build writes them to the staged file
    as they come, never holding the whole JSON as a string and as bytes at once (at 100x, hundreds
    of megabytes on top of the records, at the Grand Sud layout's peak: docs/performance.md).

    `keys`: each ranking's key by its path (render/cache.py `ranking_key`); with them, a ranking or
    a tournament whose record `earlier` holds under the same key (`record_key`, `EventRecord.key`)
    is given those bytes, not made again. `index` is given each record's key, offset and length in
    these bytes by its path, for the next build."""
    titles = {document.path: document.title for document in report.documents}
    places = {source.event.id: source.place for source in events if source.place}
    # compact: json's C encoder (indent= takes the Python one, and so would json.dump's stream);
    # sorted keys: "rankings" before "scales"
    encode = functools.partial(json.dumps, ensure_ascii=False, sort_keys=True, separators=(",", ":"))

    def ranking_part(ranking: Ranking, place: str | None) -> dict[str, Any]:
        record = ranking_record(ranking, titles)
        if place:
            record["place"] = place
        return record

    def records() -> Iterator[tuple[str, str | None, Callable[[], dict[str, Any]]]]:
        """Each record's path, key and what makes it: the rankings, then the tournaments."""
        for ranking in report.rankings:
            # an event ranking's tournament place (its Lieu), for its Open Graph image
            place = places.get(ranking.scope.event) if ranking.scope.kind == ScopeKind.EVENT else None
            key = record_key(keys.get(ranking.path), titles.get(ranking.path, ""), place) if keys is not None else None
            yield ranking.path, key, functools.partial(ranking_part, ranking, place)
        covered = {ranking.scope.event for ranking in report.rankings if ranking.scope.kind == ScopeKind.EVENT}
        for source in events:
            if source.event.id not in covered:
                yield source.path, source.key() if keys is not None else None, source.record

    start = _START.encode("ascii")
    yield start
    offset, count = len(start), 0
    for path, key, make in records():
        part = earlier.get(path, key) if earlier is not None else None
        if part is None:
            part = encode(make()).encode("utf-8")
        comma = b"," if count else b""
        if index is not None:
            index[path] = [key, offset + len(comma), len(part)]
        yield comma + part
        offset, count = offset + len(comma) + len(part), count + 1
    # a bulletin's points-by-place scale (its context's `scale`: title, values), for its season page
    scales = [{"path": d.path, "season": d.season, "date": d.date.isoformat(), "title": d.context["scale"]["title"],
               "values": list(d.context["scale"]["values"])} for d in report.documents if d.context.get("scale")]
    yield _SCALES.encode("ascii") + encode(scales).encode("utf-8") + b"}\n"


def read(folder: Path) -> list[dict[str, Any]]:
    """A circuit's rankings as last published; none when the file is missing or not ours."""
    return read_records(folder)[0]


def read_records(folder: Path) -> tuple[list[dict[str, Any]], list[dict[str, Any]], list[str | None]]:
    """A circuit's rankings and scales from one reading of the file (it holds every row of every
    ranking: the largest file the site reads), and each ranking's digest: the SHA-256 of its
    record's text, which says all the record holds. A page made from a record is keyed by it rather
    than by the record pickled (site/player_page.py `source`: at 100x, 420,000 rows of 17,000
    players' pages pickled at each build, nineteenth round). None for each where the file is not
    laid out as `circuit_data_parts` writes it (then it is parsed whole, as any JSON)."""
    try:
        text = (folder / DATA).read_text(encoding="utf-8")
    except (OSError, ValueError):
        return [], [], []
    found = _records(text)
    if found is not None:
        return found
    try:
        data = json.loads(text)
        rankings, scales = list(data.get("rankings", [])), list(data.get("scales", []))
    except (ValueError, KeyError, TypeError, AttributeError):
        return [], [], []
    return rankings, scales, [None] * len(rankings)


def _records(text: str) -> tuple[list[dict[str, Any]], list[dict[str, Any]], list[str | None]] | None:
    """`read_records` of a file laid out as `circuit_data_parts` writes it (`_START`, `_SCALES`),
    each record decoded from its own text; None for any other text."""
    if not text.startswith(_START):
        return None
    rankings: list[dict[str, Any]] = []
    digests: list[str | None] = []
    position = len(_START)
    try:
        while text[position] != "]":
            if rankings:
                if text[position] != ",":
                    return None
                position += 1
            record, end = _DECODER.raw_decode(text, position)
            if not isinstance(record, dict):
                return None
            rankings.append(record)
            digests.append(hashlib.sha256(text[position:end].encode("utf-8")).hexdigest())
            position = end
        if not text.startswith(_SCALES, position):
            return None
        scales, end = _DECODER.raw_decode(text, position + len(_SCALES))
    except (ValueError, IndexError):
        return None
    if not isinstance(scales, list) or text[end:].strip() != "}":
        return None
    return rankings, scales, digests


def event_records_in(path: Path, chunk: int = 1 << 20) -> Iterator[dict[str, Any]]:
    """The tournaments' ranking records of a `site.json` file (any path: a staged one too), read
    `chunk` characters at a time and decoded one record at a time, so that neither the file's text
    nor its records are ever held whole (site/cards_ahead.py's worker, beside the layout at its
    peak: 73 MB of text at 100x); the records before the first thing not laid out as
    `circuit_data_parts` writes it, none when the file cannot be read."""
    try:
        with path.open(encoding="utf-8") as stream:
            for record in _streamed(stream, chunk):
                if record.get("kind") == "event":
                    yield record
    except (OSError, ValueError, IndexError):
        return


def _streamed(stream: TextIO, chunk: int) -> Iterator[dict[str, Any]]:
    """Each ranking record of a text laid out as `circuit_data_parts` writes it, read from `stream`
    as needed: a record cut by the end of what was read is decoded again once more is read.
    ValueError for anything else."""
    text = stream.read(max(chunk, len(_START)))
    if not text.startswith(_START):
        raise ValueError("not laid out as circuit_data_parts writes it")
    position, first = len(_START), True

    def more() -> bool:
        """What is left of the text and the next chunk of the stream, from `position`."""
        nonlocal text, position
        extra = stream.read(chunk)
        text, position = text[position:] + extra, 0
        return bool(extra)

    while True:
        while position + 1 >= len(text):  # a separator and what follows it
            if not more():
                raise ValueError("the text ends before its records do")
        if text[position] == "]":
            return
        if not first:
            if text[position] != ",":
                raise ValueError("records not separated by commas")
            position += 1
        while True:
            try:
                record, end = _DECODER.raw_decode(text, position)
                break
            except ValueError:  # cut by the end of what was read, or not JSON: more text says which
                if not more():
                    raise
        if not isinstance(record, dict):
            raise ValueError("a record that is not an object")
        yield record
        position, first = end, False
