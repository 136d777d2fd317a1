"""Each circuit's metrics are declared once (`reportgen/circuits/<circuit>/metrics.py`), and every
published ranking's columns and « Départage » words come from them."""

from __future__ import annotations

import dataclasses

import pytest

from reportgen.circuits.grand_sud import metrics as grand_sud
from reportgen.circuits.masters import metrics as masters
from reportgen.circuits.poules import metrics as poules
from reportgen.circuits.tantrix import metrics as tantrix
from reportgen.circuits.tour_de_france import metrics as tour_de_france
from reportgen.model import IDENTITY_COLUMNS
from reportgen.scoring.metrics import Metric, Metrics

DECLARED = {"grand-sud": [grand_sud.METRICS], "masters": [masters.METRICS], "poules": [poules.METRICS],
            "tantrix": [tantrix.EVENT, tantrix.RATINGS], "tour-de-france": [tour_de_france.METRICS]}


def test_a_metric_key_declared_twice_is_refused():
    with pytest.raises(ValueError, match="'points' declared twice"):
        Metrics(Metric("points", "Points"), Metric("points", "Total"))


@pytest.mark.parametrize("circuit", sorted(DECLARED))
def test_each_set_of_a_circuits_metrics_names_each_key_and_heading_once(circuit):
    for declared in DECLARED[circuit]:
        metrics = list(declared)
        assert len({m.key for m in metrics}) == len(metrics)
        assert len({m.heading for m in metrics}) == len(metrics)


def test_every_column_of_every_published_ranking_comes_from_a_declared_metric(example_scored):
    identity = {column.key: column for column in IDENTITY_COLUMNS}
    checked = 0
    for circuit, report in example_scored.reports.items():
        for ranking in report.rankings:
            for column in ranking.all_columns:
                if identity.get(column.key) == column:
                    continue
                # a column's words for some values are its ranking's (a pool tournament's last round
                # is « finale »: poules/metrics.py `columns`), the rest is the declared metric's
                assert any(column.key in declared and declared[column.key].column == dataclasses.replace(column, labels=())
                           for declared in DECLARED[circuit]), (circuit, ranking.path, column)
                checked += 1
    assert checked > 100


def test_decided_by_names_a_declared_metrics_tie_wording(example_scored):
    words = {circuit: {m.decided for declared in sets for m in declared if m.decided} for circuit, sets in DECLARED.items()}
    decided = 0
    for circuit in ("grand-sud", "masters", "tantrix"):
        for ranking in example_scored.reports[circuit].rankings:
            for row in ranking.rows:
                assert set(row.decided_by) <= words[circuit], (circuit, ranking.path, row.decided_by)
                decided += len(row.decided_by)
    assert decided > 0


def test_a_tie_decided_by_a_metric_explains_with_its_words(example_scored):
    """The Masters bulletin says « départage aux tops » where the published row says « tops »; a
    Tantrix bulletin says what the published row says."""
    report = example_scored.reports["masters"]
    standing, page = report.rankings[0], report.documents[0].context
    rows = {row.player: row for row in standing.rows}
    said = {m.decided: m.explained for m in masters.METRICS}
    explained = 0
    for shown in page["rows"]:
        row = rows[shown["player"]]
        assert shown["decided"] == ", ".join(said[word] for word in row.decided_by)
        explained += len(row.decided_by)
    assert explained > 0 and masters.TOPS.explained == "départage aux tops"
    tantrix_report = example_scored.reports["tantrix"]
    weekend = next(r for r in tantrix_report.rankings if r.scope.kind == "event" and any(row.decided_by for row in r.rows))
    row = next(row for row in weekend.rows if row.decided_by)
    assert set(row.decided_by) <= {tantrix.HEAD_TO_HEAD.decided, tantrix.WINS.decided, tantrix.MARGIN.decided,
                                   tantrix.TILES.decided, tantrix.PLAYOFF.decided}
