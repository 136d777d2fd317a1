"""A name typed with the typographic apostrophe (’: what a phone or Word types) is shown as typed,
« Tournoi de l’Aude », « D’ALMEIDA Ana »: the reading made every ’ a straight ', so the bulletins
printed a name its club never wrote. Who a player is never depends on which apostrophe was typed:
« D'ALMEIDA » and « D’ALMEIDA » are one player, shown by `best_spelling`'s rule (the most
frequent spelling, else the latest: an apostrophe is no accent)."""

from __future__ import annotations

import datetime as dt

from reportgen.pipeline import load
from tests.builders import write_clubs, write_tournament


def _league(tmp_path, first: str, second: str):
    inputs = tmp_path / "inputs"
    write_clubs(inputs)
    write_tournament(inputs, "2026-03-14-aude", day="14/03/2026", extra_fields=[], results=[
        [1, first, "Ana", "", "Carcassonne"], [2, "MARTIN", "Paul", "1002", "Albi"]])
    write_tournament(inputs, "2026-04-11-albi", day="11/04/2026", club="ALBI", results=[
        [1, "MARTIN", "Paul", "1002", "Albi"], [2, second, "Ana", "", "Carcassonne"]])
    return load(inputs, dt.date(2026, 5, 1))


def test_a_typographic_apostrophe_is_shown_as_typed_and_names_the_same_player(tmp_path):
    results = _league(tmp_path, "D'ALMEIDA", "D’ALMEIDA").circuits["grand-sud"].results
    ana = results[results["typed"].str.contains("ALMEIDA")]
    assert ana["typed"].tolist() == ["D'ALMEIDA Ana", "D’ALMEIDA Ana"]  # each row as its club typed it
    assert ana["player_id"].nunique() == 1  # one player
    assert set(ana["player"]) == {"D’ALMEIDA Ana"}  # one spelling each: the latest


def test_the_latest_spelling_is_shown_whichever_apostrophe_it_has(tmp_path):
    results = _league(tmp_path, "D’ALMEIDA", "D'ALMEIDA").circuits["grand-sud"].results
    ana = results[results["typed"].str.contains("ALMEIDA")]
    assert ana["player_id"].nunique() == 1 and set(ana["player"]) == {"D'ALMEIDA Ana"}


def test_a_tournament_s_name_keeps_its_typographic_apostrophe(tmp_path):
    inputs = tmp_path / "inputs"
    write_clubs(inputs)
    path = write_tournament(inputs, "2026-03-14-aude")
    import openpyxl

    book = openpyxl.load_workbook(path)
    book["Tournoi"]["B2"] = "Tournoi de l’Aude"
    book.save(path)
    events = load(inputs, dt.date(2026, 5, 1)).circuits["grand-sud"].events
    assert [event.name for event in events] == ["Tournoi de l’Aude"]


def test_a_club_page_keeps_the_address_it_had_when_the_apostrophe_was_made_plain():
    """A club named « L’Union » in clubs.xlsx got a page of another address once ’ was kept as typed:
    the links to it in mails already sent led nowhere. Its address is made from the name with ’
    read as the plain one, as before."""
    from reportgen.site.pages import club_page_name

    assert club_page_name("L’Union") == club_page_name("L'Union") != club_page_name("L'Unión")
