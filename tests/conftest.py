"""Hypothesis profiles: CI replays a fixed set of examples (a red CI must mean a regression, never
a draw); developers explore new examples on every run; `thorough` digs deeper before a release:
HYPOTHESIS_PROFILE=thorough make test."""

import os

from hypothesis import settings

settings.register_profile("ci", max_examples=50, deadline=None, derandomize=True)
settings.register_profile("dev", max_examples=50, deadline=None)
settings.register_profile("thorough", max_examples=1000, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "dev"))
