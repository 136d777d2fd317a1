"""The whole build: discover → read → parse → normalise → score → render → publish (loading.py,
scoring.py, publishing.py; building.py puts them together, with what a build may skip).

Importing this package loads no pandas and no circuit: the build that has nothing to do returns
before they are needed."""

from reportgen.pipeline.building import BuildResult, build, unchanged
from reportgen.pipeline.loading import (
    CircuitInputs,
    League,
    circuit_events,
    closed_before,
    load,
    player_notices,
    same_tournaments,
)
from reportgen.pipeline.publishing import publish, render_report
from reportgen.pipeline.scoring import Scored, score

__all__ = ["BuildResult", "CircuitInputs", "League", "Scored", "build", "circuit_events", "closed_before", "load",
           "player_notices", "publish", "render_report", "same_tournaments", "score", "unchanged"]
