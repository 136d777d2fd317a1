"""`make test` keeps the tests that share a module- or class-scoped fixture on one worker
(tests/xdist_groups.py and pytest-xdist's --dist loadgroup), so that the fixture is built once."""

import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

# A small suite of its own: a module-scoped fixture, a class-scoped one, a group marked by hand in
# two files, and tests free of all three. Each fixture writes a line when it is built.
SUITE = {
    "conftest.py": """
        from tests.xdist_groups import pytest_collection_modifyitems  # noqa: F401
        """,
    "test_shared.py": """
        import os
        from pathlib import Path

        import pytest

        def built(name):
            with open(Path(__file__).parent / "built.txt", "a") as log:
                log.write(name + " " + os.environ["PYTEST_XDIST_WORKER"] + "\\n")

        @pytest.fixture(scope="module")
        def league():
            built("league")

        @pytest.mark.parametrize("i", range(8))
        def test_uses_the_league(league, i):
            pass

        @pytest.mark.parametrize("i", range(8))
        def test_free(i):
            pass

        class TestServer:
            @pytest.fixture(scope="class")
            def server(self):
                built("server")

            @pytest.mark.parametrize("i", range(6))
            def test_uses_the_server(self, server, i):
                pass

        @pytest.mark.xdist_group("by-hand")
        @pytest.mark.parametrize("i", range(4))
        def test_marked(i):
            pass
        """,
    "test_other.py": """
        import pytest

        @pytest.mark.xdist_group("by-hand")
        @pytest.mark.parametrize("i", range(4))
        def test_marked_too(i):
            pass

        @pytest.mark.parametrize("i", range(8))
        def test_free_too(i):
            pass
        """,
}
RAN = re.compile(r"^\[(gw\d+)\] .*PASSED (\S+)", re.MULTILINE)


@pytest.fixture(scope="module")
def two_workers(tmp_path_factory) -> tuple[dict[str, str], str]:
    """The small suite run as `make test` runs: test id -> worker, and the fixtures' log."""
    suite = tmp_path_factory.mktemp("suite")
    for name, text in SUITE.items():
        (suite / name).write_text(textwrap.dedent(text))
    environment = {**os.environ, "PYTHONPATH": str(ROOT)}
    run = subprocess.run([sys.executable, "-m", "pytest", "-p", "xdist", "-n", "2", "--dist", "loadgroup", "-v",
                          "-p", "no:cacheprovider"], cwd=suite, env=environment, capture_output=True, text=True,
                         timeout=180)
    assert run.returncode == 0, run.stdout + run.stderr
    workers = {test: worker for worker, test in RAN.findall(run.stdout)}
    assert len(workers) == 38, run.stdout
    return workers, (suite / "built.txt").read_text()


def workers_of(workers: dict[str, str], part: str) -> set[str]:
    found = {worker for test, worker in workers.items() if part in test}
    assert found, part
    return found


def test_the_tests_of_a_module_scoped_fixture_share_one_worker(two_workers):
    workers, built = two_workers
    assert len(workers_of(workers, "::test_uses_the_league[")) == 1
    assert built.count("league ") == 1, built


def test_the_tests_of_a_class_scoped_fixture_share_one_worker(two_workers):
    workers, built = two_workers
    assert len(workers_of(workers, "::TestServer::test_uses_the_server[")) == 1
    assert built.count("server ") == 1, built


def test_a_group_marked_by_hand_is_kept_across_files(two_workers):
    workers, _ = two_workers
    assert all(test.endswith("@by-hand") for test in workers if "::test_marked" in test)
    assert len(workers_of(workers, "::test_marked")) == 1


def test_the_other_tests_go_to_whichever_worker_is_free(two_workers):
    workers, _ = two_workers
    free = [test for test in workers if "::test_free" in test]
    assert len(free) == 16 and not [test for test in free if "@" in test]


# -- the hook in this very suite (tests/conftest.py) ----------------------------------------------

@pytest.fixture(scope="module")
def shared():
    return "built once for this module"


def test_this_suite_marks_a_test_of_a_module_scoped_fixture(shared, request):
    assert request.node.get_closest_marker("xdist_group").args == ("tests/test_xdist_groups.py",)


def test_this_suite_leaves_a_test_of_session_and_function_fixtures_free(tmp_path_factory, tmp_path, request):
    assert request.node.get_closest_marker("xdist_group") is None
