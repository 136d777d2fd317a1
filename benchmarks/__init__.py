"""Benchmarks of a whole build at 1x, 10x and 100x the example league (`make bench`, docs/performance.md).

Kept out of the test suite (pytest's testpaths is `tests`): no test asserts a timing.
"""
