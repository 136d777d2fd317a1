"""Tests that share a module- or class-scoped fixture run on one worker under `make test`.

pytest-xdist builds such a fixture once on every worker that runs one of its tests, and its plain
`load` dealing scatters a module's tests over both workers: the fixture (a league built, a server
started) is then built twice. `make test` runs `--dist loadgroup`, which sends every test of one
`xdist_group` to one worker; this hook gives each test that uses such a fixture the group of the
node the fixture lives on (its module, or its class), so that the fixture is built once. A test
with an `xdist_group` mark of its own keeps it; the others go to whichever worker is free.

Package-scoped fixtures are left alone: tests/ is itself a package, and grouping it would put the
whole suite on one worker.

The fixtures a test uses are read from `item._fixtureinfo`, pytest's private record (its own
`--fixtures-per-test` reads it): it is read here only, and tests/test_xdist_groups.py fails if it
goes away. Used by tests/conftest.py (its hook); a suite that wants it imports the hook the same way.
"""

import pytest

# The scopes whose fixtures are worth keeping on one worker, widest first, and the node each lives on.
SHARED_SCOPES = {"module": pytest.Module, "class": pytest.Class}


def group_of(item: pytest.Item) -> str | None:
    """The node id of the widest module or class whose fixture the test uses, if any."""
    definitions = item._fixtureinfo.name2fixturedefs  # type: ignore[attr-defined]
    # The last definition of a name is the one the test gets (the closest override).
    scopes = {found[-1].scope for found in definitions.values() if found}
    for scope, holder in SHARED_SCOPES.items():
        if scope in scopes:
            node = item.getparent(holder)
            if node is not None:
                return node.nodeid
    return None


# tryfirst: pytest-xdist's worker reads the marks in its own pytest_collection_modifyitems.
@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if item.get_closest_marker("xdist_group") is None:
            group = group_of(item)
            if group is not None:
                item.add_marker(pytest.mark.xdist_group(group))
