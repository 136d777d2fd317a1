"""A published ranking's key (render/cache.py `ranking_key`): what its CSV and its site record are
taken from disk by. Its rows go in as tuples of their fields (nineteenth round), or as the source its
`made_from` names when that describes them (thirty-seventh round): every field of the ranking and of
each row must still change it, and equal rankings give equal keys."""

import dataclasses
import datetime as dt

import pytest

from reportgen.model import MadeFrom
from reportgen.model.rankings import Column, LeftOut, Legend, Ranking, RankingRow, Scope, ScopeKind, Status
from reportgen.render import cache


def a_ranking(rows: int = 3) -> Ranking:
    return Ranking("2026/classement-2026-03-01", Scope(ScopeKind.SEASON, 2026), dt.date(2026, 3, 1), Status.PROVISIONAL,
                   (Column("points", "Points"),),
                   tuple(RankingRow(rank=i + 1, player_id=f"L:{i}", player=f"NOM{i} Prénom", licence=str(1000 + i),
                                    club="Foix", metrics={"points": 100 - i}, results=(60, 40 - i)) for i in range(rows)))


OTHER_ROW = {"rank": 9, "player_id": "L:99", "player": "AUTRE Nom", "licence": "9999", "club": "Albi",
             "metrics": {"points": 1}, "tied": True, "decided_by": ("duels",), "playoff": True, "results": (1,),
             "events": ("2026/x.xlsx",), "counts": (False,)}
OTHER_RANKING = {"path": "2026/autre", "scope": Scope(ScopeKind.SEASON, 2025), "date": dt.date(2026, 3, 8),
                 "status": Status.FINAL, "columns": (), "in_force_from": dt.date(2026, 1, 1), "identity": (),
                 "legend": Legend("Classement annuel : ", "Classement final", ".", "grand-sud/2026/x.csv"),
                 "left_out": (LeftOut("L:7", "ÉCARTÉ Nom", "hors classement : 3 parties perdues par forfait (règle 7)"),)}


def test_equal_rankings_give_equal_keys_and_the_key_is_not_the_whole_pickle():
    assert cache.ranking_key(a_ranking()) == cache.ranking_key(a_ranking()) is not None
    assert cache.ranking_key(a_ranking()) != cache.source_key("ranking", a_ranking())


@pytest.mark.parametrize("name", [field.name for field in dataclasses.fields(RankingRow)])
def test_each_field_of_a_row_changes_the_key(name):
    assert set(OTHER_ROW) == {field.name for field in dataclasses.fields(RankingRow)}  # a field added: add it above
    ranking = a_ranking()
    rows = list(ranking.rows)
    rows[1] = dataclasses.replace(rows[1], **{name: OTHER_ROW[name]})
    assert cache.ranking_key(dataclasses.replace(ranking, rows=tuple(rows))) != cache.ranking_key(ranking)


@pytest.mark.parametrize("name", [field.name for field in dataclasses.fields(Ranking)
                                  if field.name not in ("rows", "made_from")])
def test_each_field_of_the_ranking_changes_the_key(name):
    assert set(OTHER_RANKING) | {"rows", "made_from"} == {field.name for field in dataclasses.fields(Ranking)}
    ranking = a_ranking()
    assert cache.ranking_key(dataclasses.replace(ranking, **{name: OTHER_RANKING[name]})) != cache.ranking_key(ranking)
    described = dataclasses.replace(ranking, made_from=MadeFrom("rows", ranking.rows, "digest"))
    assert cache.ranking_key(dataclasses.replace(described, **{name: OTHER_RANKING[name]})) != cache.ranking_key(described)


def test_rows_their_source_describes_are_keyed_by_it_and_other_rows_by_themselves():
    """A Grand Sud ranking's rows are keyed by its scoring digest (`made_from`); a copy with other rows
    (a public copy, names masked) is keyed by its rows, whatever `made_from` it carries."""
    ranking = a_ranking()
    described = dataclasses.replace(ranking, made_from=MadeFrom("rows", ranking.rows, "digest"))
    assert cache.ranking_key(described) not in (None, cache.ranking_key(ranking))  # the two kinds never meet
    assert cache.ranking_key(dataclasses.replace(described, made_from=MadeFrom("rows", ranking.rows, "other"))) \
        != cache.ranking_key(described)
    other_rows = dataclasses.replace(described, rows=ranking.rows[::-1])
    assert cache.ranking_key(other_rows) == cache.ranking_key(dataclasses.replace(ranking, rows=ranking.rows[::-1]))
    equal_rows = tuple(list(ranking.rows))  # equal, another object: not the rows the source was given
    assert cache.ranking_key(dataclasses.replace(described, rows=equal_rows)) == cache.ranking_key(ranking)


def test_the_rows_order_and_count_change_the_key():
    ranking = a_ranking()
    assert cache.ranking_key(dataclasses.replace(ranking, rows=ranking.rows[::-1])) != cache.ranking_key(ranking)
    assert cache.ranking_key(dataclasses.replace(ranking, rows=ranking.rows[:2])) != cache.ranking_key(ranking)
