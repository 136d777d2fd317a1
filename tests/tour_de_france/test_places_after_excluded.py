"""A player the organiser left out of a tournament's ranking (« Hors classement ») typed in the middle
of its sheet: the regulation's « cas particuliers » take him out of the ranking, the places below
move up and its points are those of the places left (« cas des exaequo »: ex aequo still share). The
bulletin and the annex numbered the players so; the tournament's page, each player's page, the
archive and `reportgen history` showed the place as typed, a player typed 5th below an excluded one
being 4th in his bulletin. Every output now gives a ranked player the one place his points come from,
and an excluded player none (his points cell says « hors classement »). The example league's excluded
players are all typed last, where the two numberings meet."""

from __future__ import annotations

import html
import json
import re
import sqlite3
from pathlib import Path

import openpyxl
import pytest

from reportgen import circuits
from reportgen.circuits.tour_de_france import parse
from reportgen.delivery import archive as archiving
from reportgen.delivery import database
from reportgen.delivery.archive_verify import verify
from reportgen.delivery.history import history
from reportgen.delivery.site_archive import archived_rankings
from reportgen.pipeline import build
from tests.builders import TODAY, write_workbook

HEADER = ["Place", "Nom", "Prénom", "Hors classement"]
# Reims: the organiser typed 2nd, an ex aequo below him (3, 3 -> 2, 2: a tie stays a tie).
REIMS = [[1, "PARIS", "Raphaël", ""], [2, "GIRARD", "Hugo", "oui"], [3, "BOUVIER", "Marie", ""],
         [3, "LECOMTE", "Stéphane", ""], [5, "MARTIN", "Aurélie", ""], [6, "DURAND", "Anne", ""],
         [7, "LEROY", "Paul", ""], [8, "MOREAU", "Léa", ""]]
# Lille: the organiser typed ex aequo with a ranked player (2, 2: the tie goes with him), a table
# filler without a place in the middle of the sheet.
LILLE = [[1, "MARTIN", "Aurélie", ""], [2, "PARIS", "Raphaël", ""], [2, "GIRARD", "Hugo", "oui"],
         [4, "BOUVIER", "Marie", ""], [None, "NOVAK", "Ève", "oui"], [5, "DURAND", "Anne", ""],
         [6, "LEROY", "Paul", ""], [7, "MOREAU", "Léa", ""]]
# The places the points are computed from (the bulletin's and the annex's), by tournament.
RANKED = {
    "Tournoi de Reims": {"PARIS Raphaël": 1, "BOUVIER Marie": 2, "LECOMTE Stéphane": 2, "MARTIN Aurélie": 4,
                         "DURAND Anne": 5, "LEROY Paul": 6, "MOREAU Léa": 7},
    "Tournoi de Lille": {"MARTIN Aurélie": 1, "PARIS Raphaël": 2, "BOUVIER Marie": 3, "DURAND Anne": 4,
                         "LEROY Paul": 5, "MOREAU Léa": 6},
}
EXCLUDED = {"Tournoi de Reims": {"GIRARD Hugo"}, "Tournoi de Lille": {"GIRARD Hugo", "NOVAK Ève"}}
DAYS = {"Tournoi de Reims": "2025-03-14", "Tournoi de Lille": "2025-04-12"}


def tournament(inputs: Path, name: str, rows: list[list[object]]) -> None:
    day = DAYS[name]
    write_workbook(inputs / "tour-de-france" / f"{day}-{name.split()[-1].lower()}.xlsx", {
        "Tournoi": [["Circuit", "tour-de-france"], ["Nom", name], ["Date", f"{day[8:]}/{day[5:7]}/{day[:4]}"],
                    ["Lieu", name.split()[-1]]],
        "Résultats": [HEADER, *rows]})


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> tuple[Path, Path]:
    root = tmp_path_factory.mktemp("tdf-excluded")
    inputs, outputs = root / "inputs", root / "outputs"
    tournament(inputs, "Tournoi de Reims", REIMS)
    tournament(inputs, "Tournoi de Lille", LILLE)
    result = build(inputs, outputs, TODAY)
    assert result.ok, result.problems
    return inputs, outputs


def text(markup: str) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", markup)).split())


def bulletin_places(outputs: Path, name: str) -> dict[str, int]:
    """The places its dated bulletin's table of the tournament gives."""
    page = (outputs / "tour-de-france" / "2025" / f"classement-{DAYS[name]}.html").read_text(encoding="utf-8")
    table = page[page.index('<table class="latest">'):]
    table = table[:table.index("</table>")]
    return {text(player): int(place) for place, player in
            re.findall(r'<tr><td class="num">(\d+)</td><td>([^<]*)</td>', table)}


def annex_rows(outputs: Path, name: str) -> dict[str, tuple[object, object]]:
    """The annex's « Résultats » sheet: each player's place and counted points at the tournament."""
    book = openpyxl.load_workbook(outputs / "tour-de-france" / "2025" / "annexe-tour-de-france-2025.xlsx")
    rows = list(book["Résultats"].iter_rows(values_only=True))
    header = list(rows[0])
    at = {column: header.index(column) for column in ("Tournoi", "Joueur", "Place", "Points comptés")}
    return {row[at["Joueur"]]: (row[at["Place"]], row[at["Points comptés"]]) for row in rows[1:]
            if row[at["Tournoi"]] == name}


def tournament_page(outputs: Path, name: str) -> list[tuple[str, str, str, str]]:
    """Its page's rows in order: (place, player, his page, points)."""
    pages = [p for p in (outputs / "site").glob("tournoi-*.html")
             if f"<h1>{name}</h1>" in p.read_text(encoding="utf-8")]
    assert len(pages) == 1, pages
    page = pages[0].read_text(encoding="utf-8")
    body = page[page.index("<tbody"):page.index("</tbody>")]
    return [(text(place), text(player), link, text(points)) for place, link, player, points in re.findall(
        r'<tr[^>]*><td[^>]*>(.*?)</td><th scope="row"><a href="([^"]+)">(.*?)</a></th><td[^>]*>(.*?)</td></tr>',
        body)]


def player_line(outputs: Path, page: str, name: str) -> tuple[str, str]:
    """A player's page's line for the tournament: (place, result)."""
    markup = (outputs / "site" / page).read_text(encoding="utf-8")
    found = re.findall(rf'>{re.escape(html.escape(name))}</a></th><td role="cell">([^<]*)</td>'
                       r'<td role="cell">([^<]*)</td>', markup)
    assert len(found) == 1, (page, name)
    return text(found[0][0]), text(found[0][1])


@pytest.mark.parametrize("name", list(RANKED))
def test_a_ranked_player_has_one_place_in_every_output_the_one_his_points_come_from(built, name):
    _, outputs = built
    assert bulletin_places(outputs, name) == RANKED[name]
    annex = annex_rows(outputs, name)
    assert {player: place for player, (place, _) in annex.items() if player not in EXCLUDED[name]} == RANKED[name]
    rows = tournament_page(outputs, name)
    # the ranked players first, by the place of their points; ex aequo share it
    assert [(player, place) for place, player, _, _ in rows[:len(RANKED[name])]] == \
        [(player, str(place)) for player, place in RANKED[name].items()]
    for place, player, link, _ in rows[:len(RANKED[name])]:
        assert player_line(outputs, link, name)[0] == place, player


@pytest.mark.parametrize("name", list(RANKED))
def test_an_excluded_player_has_no_place_and_says_hors_classement_everywhere(built, name):
    _, outputs = built
    rows = tournament_page(outputs, name)
    left_out = rows[len(RANKED[name]):]  # after the ranked players, as the bulletin names them after its table
    assert {player for _, player, _, _ in left_out} == EXCLUDED[name]
    for place, player, link, points in left_out:
        assert (place, points) == ("", "hors classement"), player
        assert player_line(outputs, link, name) == ("", "Points : hors classement"), player
    annex = annex_rows(outputs, name)
    assert {player: annex[player] for player in EXCLUDED[name]} == dict.fromkeys(EXCLUDED[name],
                                                                                 (None, "hors classement"))
    assert not EXCLUDED[name] & set(bulletin_places(outputs, name))


def played(records) -> dict[str, int | None]:
    return {p.tournament: p.place for record in records for p in record.tournaments}


def stored_places(archive: Path) -> dict[str, dict[str, int | None]]:
    """The database's places, by tournament and player; each row's `fields` says the same place."""
    connection = sqlite3.connect(archive / "league.sqlite")
    stored = connection.execute("SELECT t.name, p.name, r.place, r.fields FROM result r JOIN tournament t ON t.id = "
                                "r.tournament_id JOIN player p ON p.archive_id = r.archive_id AND p.id = r.player_id "
                                "WHERE t.circuit = 'tour-de-france'")
    found: dict[str, dict[str, int | None]] = {}
    for name, player, place, fields in stored.fetchall():
        assert json.loads(fields)["place"] == place, (name, player)
        found.setdefault(name, {})[player] = place
    connection.close()
    return found


def test_history_and_the_archive_keep_the_places_of_the_ranking(built, tmp_path):
    """`reportgen history` read the typed place (and stopped on an excluded player typed without
    one); the archive's database stored it, and so did an archived season's tournament pages."""
    inputs, outputs = built
    archive = tmp_path / "archive"
    expected = {name: places["MARTIN Aurélie"] for name, places in RANKED.items()}
    assert played(history("MARTIN Aurélie", inputs, archive, TODAY)[0]) == expected
    assert played(history("NOVAK Ève", inputs, archive, TODAY)[0]) == {"Tournoi de Lille": None}
    assert played(history("GIRARD Hugo", inputs, archive, TODAY)[0]) == dict.fromkeys(RANKED)

    archiving.archive_season(inputs, outputs, archive, 2025, today=TODAY)
    found = stored_places(archive)
    assert found == {name: {**RANKED[name], **dict.fromkeys(EXCLUDED[name])} for name in RANKED}
    records = [r for r in archived_rankings(archive)["tour-de-france"] if r["kind"] == "event"]
    assert {r["name"]: {row["player"]: row["rank"] for row in r["rows"]} for r in records} == found
    assert played(history("MARTIN Aurélie", tmp_path / "nothing", archive, TODAY)[0]) == expected


# An archive written before the thirty-third round (schema 5): each row's place as typed, in its
# column and its `fields`, an excluded player's too. Its bulletins and annex (archived with it) had
# the places of the ranking already; opening it with schema 6 gives its rows those places.
TYPED = {"Tournoi de Reims": REIMS, "Tournoi de Lille": LILLE}


def dump(archive: Path) -> tuple[int, list[str]]:
    connection = sqlite3.connect(archive / "league.sqlite")
    try:
        return connection.execute("PRAGMA user_version").fetchone()[0], list(connection.iterdump())
    finally:
        connection.close()


def opened(archive: Path) -> tuple[int, list[str]]:
    """The database once this reportgen opened it (and upgraded it)."""
    connection = database.connect(archive, create=False)
    assert connection is not None
    connection.close()
    return dump(archive)


def as_schema_5(archive: Path, typed: bool) -> None:
    """The database as the reportgen of schema 5 left it: with the places typed (`typed`: before the
    thirty-third round), or with those of the ranking (written by the thirty-third round)."""
    connection = sqlite3.connect(archive / "league.sqlite")
    if typed:
        for tournament, name in connection.execute(
                "SELECT id, name FROM tournament WHERE circuit = 'tour-de-france'").fetchall():
            for line, row in enumerate(TYPED[name], 1):
                fields = json.loads(connection.execute("SELECT fields FROM result WHERE tournament_id = ? AND line = ?",
                                                       (tournament, line)).fetchone()[0])
                connection.execute("UPDATE result SET place = ?, fields = ? WHERE tournament_id = ? AND line = ?",
                                   (row[0], json.dumps({**fields, "place": row[0]}, ensure_ascii=False, sort_keys=True),
                                    tournament, line))
    connection.execute("PRAGMA user_version = 5")
    connection.commit()
    connection.close()


def another_circuit(archive: Path) -> None:
    """A Grand Sud tournament whose row says `excluded` and has a place: no concern of the Tour de
    France's rule."""
    connection = sqlite3.connect(archive / "league.sqlite")
    archive_id, player = connection.execute("SELECT archive_id, id FROM player ORDER BY id LIMIT 1").fetchone()
    tournament = connection.execute(
        "INSERT INTO tournament (archive_id, circuit, season, source, name, date, club_code, content) VALUES "
        "(?, 'grand-sud', 2025, 'grand-sud/2025-05-01.xlsx', 'Open de mai', '2025-05-01', NULL, '{}')",
        (archive_id,)).lastrowid
    connection.executemany(
        "INSERT INTO result (tournament_id, line, archive_id, player_id, last_name, first_name, licence, club, place, "
        "fields, sheet, cell) VALUES (?, ?, ?, ?, 'X', 'Y', '', '', ?, ?, 'Résultats', ?)",
        [(tournament, 1, archive_id, player, 2, '{"excluded": true, "place": 2}', "B2"),
         (tournament, 2, archive_id, player, 3, '{"excluded": false, "place": 3}', "B3")])
    connection.commit()
    connection.close()


def results_of(archive: Path, circuit: str) -> list[tuple[object, ...]]:
    connection = sqlite3.connect(archive / "league.sqlite")
    try:
        return connection.execute("SELECT r.* FROM result r JOIN tournament t ON t.id = r.tournament_id "
                                  "WHERE t.circuit = ? ORDER BY r.tournament_id, r.line", (circuit,)).fetchall()
    finally:
        connection.close()


@pytest.fixture
def archived(built, tmp_path) -> Path:
    inputs, outputs = built
    archive = tmp_path / "archive"
    archiving.archive_season(inputs, outputs, archive, 2025, today=TODAY)
    return archive


def test_an_archive_of_the_places_typed_gets_those_of_the_ranking_when_opened(archived, tmp_path):
    """The archived pages and `history` gave a player typed 5th below an excluded 2nd his typed 5th
    (and the excluded one a place): not what his bulletin said. Opened, the database holds the
    places of the ranking, ex aequo still ex aequo, an excluded player's NULL; the rows of another
    circuit as they were; the archive still intact for `archive verify` (its files unchanged)."""
    another_circuit(archived)
    grand_sud = results_of(archived, "grand-sud")
    as_schema_5(archived, typed=True)
    assert stored_places(archived)["Tournoi de Reims"]["MARTIN Aurélie"] == 5  # as typed

    version, upgraded = opened(archived)
    assert version == database.SCHEMA_VERSION == 10
    assert stored_places(archived) == {name: {**RANKED[name], **dict.fromkeys(EXCLUDED[name])} for name in RANKED}
    assert results_of(archived, "grand-sud") == grand_sud
    assert opened(archived) == (version, upgraded)  # opened again: nothing more changes

    records = [r for r in archived_rankings(archived)["tour-de-france"] if r["kind"] == "event"]
    assert {r["name"]: {row["player"]: row["rank"] for row in r["rows"]} for r in records} == \
        {name: {**RANKED[name], **dict.fromkeys(EXCLUDED[name])} for name in RANKED}
    assert played(history("MARTIN Aurélie", tmp_path / "nothing", archived, TODAY)[0]) == \
        {name: places["MARTIN Aurélie"] for name, places in RANKED.items()}
    assert played(history("GIRARD Hugo", tmp_path / "nothing", archived, TODAY)[0]) == dict.fromkeys(RANKED)
    assert verify(archived)[0] == []


def test_an_archive_of_the_places_of_the_ranking_is_opened_unchanged(archived):
    """Written by the thirty-third round (schema 5, the places of the ranking already): only the
    schema's version changes."""
    as_schema_5(archived, typed=False)
    before = dump(archived)
    assert opened(archived) == (database.SCHEMA_VERSION, before[1])


def test_a_database_without_tour_de_france_tournaments_is_opened_unchanged(tmp_path):
    """Another circuit's archive (its row marked `excluded` too) is no concern of the Tour de France's
    places: opened, only the schema's version changes."""
    archive = tmp_path / "archive"
    connection = database.connect(archive)
    assert connection is not None
    connection.execute("INSERT INTO archive (season, version, folder, archived_at, reportgen) VALUES "
                       "(2025, 1, '2025/v1', '2025-12-31T10:00:00+00:00', '0.1.0')")
    connection.execute("INSERT INTO player (archive_id, id, name, name_key) VALUES (1, 'N:x y', 'X Y', 'x y')")
    connection.close()
    another_circuit(archive)
    connection = sqlite3.connect(archive / "league.sqlite")
    connection.execute("PRAGMA user_version = 5")
    connection.close()
    before = dump(archive)
    assert opened(archive) == (database.SCHEMA_VERSION, before[1])


def test_an_upgrade_stopped_halfway_leaves_the_database_of_schema_5(archived, monkeypatch):
    """All or nothing: the places of one tournament put right, the next failing, and the database
    is as it was (schema 5, every place typed), to upgrade at the next opening."""
    as_schema_5(archived, typed=True)
    before = dump(archived)
    circuit = circuits.CIRCUITS["tour-de-france"]
    done: list[int] = []

    def second_fails(fields):
        done.append(1)
        if len(done) == 2:
            raise OSError("arrêté")
        return parse.archived_places(fields)

    monkeypatch.setattr(type(circuit), "archived_places", staticmethod(second_fails))
    with pytest.raises(OSError):
        database.connect(archived, create=False)
    assert dump(archived) == before
    monkeypatch.undo()
    assert opened(archived)[0] == database.SCHEMA_VERSION
    assert stored_places(archived)["Tournoi de Reims"]["MARTIN Aurélie"] == 4
