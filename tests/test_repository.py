"""The repository stands on its own and sets up a fresh machine: one list of system packages, used
by `make`, `.ci/run` and the README; nothing points outside the clone."""

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ROOT / "system-packages.txt"
PROBE = re.compile(r"(lib|cmd|py|font):\S+")


def system_packages() -> dict[str, str]:
    """package -> probe, from the one list."""
    entries = {}
    for line in PACKAGES.read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            package, probe, *_ = line.split()
            entries[package] = probe
    return entries


def tracked_files() -> list[Path]:
    listed = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
    return [ROOT / name for name in listed.decode().split("\0") if name]


def test_every_system_package_has_a_probe_and_a_reason():
    entries = system_packages()
    assert {"libpango-1.0-0", "libharfbuzz-subset0", "chromium"} <= set(entries)
    assert all(PROBE.fullmatch(probe) for probe in entries.values()), entries
    for line in PACKAGES.read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            assert "# " in line, f"say why the package is needed: {line}"


def test_make_ci_and_the_readme_use_the_one_list():
    makefile = (ROOT / "Makefile").read_text()
    assert "scripts/system-packages.sh install" in makefile
    for target in ("install", "build", "check", "test"):  # each one checks the packages first
        assert re.search(rf"^{target}: system\b", makefile, re.M), target
    assert re.search(r"^test: system system-test\b", makefile, re.M)  # and the tests' own
    assert "scripts/system-packages.sh install test" in makefile
    ci = (ROOT / ".ci" / "run").read_text()
    assert "scripts/system-packages.sh install" in ci and "make test" in ci
    assert "system-packages.txt" in (ROOT / "README.md").read_text()
    for text in (ci, (ROOT / "README.md").read_text(), makefile):  # named in one place only
        assert not [package for package in system_packages() if package in text]


def test_every_system_package_is_on_this_machine():
    """`make test` installed them (or stopped before the tests with the command to run)."""
    result = subprocess.run([ROOT / "scripts" / "system-packages.sh", "check", "test"], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


def test_make_alone_never_installs_a_server_the_tests_start(tmp_path):
    """A secretary's `make` installs what reportgen runs with, not Dovecot, sshd or Chromium, whose
    services Debian starts once installed: only `make test` (a second argument `test`) asks for them."""
    copy = tmp_path / "repo"
    (copy / "scripts").mkdir(parents=True)
    (copy / "scripts" / "system-packages.sh").write_bytes((ROOT / "scripts" / "system-packages.sh").read_bytes())
    (copy / "scripts" / "system-packages.sh").chmod(0o755)
    (copy / "system-packages.txt").write_text("no-such-server-xyz  cmd:no-such-command-xyz  test # a test\n")
    script = [copy / "scripts" / "system-packages.sh", "check"]
    assert subprocess.run(script, capture_output=True, text=True).returncode == 0
    for_tests = subprocess.run([*script, "test"], capture_output=True, text=True)
    assert for_tests.returncode == 1 and "no-such-server-xyz" in for_tests.stderr
    tests_only = {line.split()[0] for line in PACKAGES.read_text().splitlines()
                  if line.strip() and not line.startswith("#") and line.split()[2] == "test"}
    assert {"openssh-server", "dovecot-imapd", "chromium"} <= tests_only


def test_the_check_names_the_exact_command_when_a_package_is_missing(tmp_path):
    """What a user without root reads: the missing package and the apt-get line that installs it."""
    copy = tmp_path / "repo"
    (copy / "scripts").mkdir(parents=True)
    (copy / "scripts" / "system-packages.sh").write_bytes((ROOT / "scripts" / "system-packages.sh").read_bytes())
    (copy / "scripts" / "system-packages.sh").chmod(0o755)
    (copy / "system-packages.txt").write_text("no-such-package-xyz  cmd:no-such-command-xyz  # a test\n")
    result = subprocess.run([copy / "scripts" / "system-packages.sh", "check"], capture_output=True, text=True)
    assert result.returncode == 1
    assert "no-such-package-xyz" in result.stderr
    assert "apt-get install -y --no-install-recommends no-such-package-xyz" in result.stderr


def test_nothing_outside_the_regulations_points_outside_the_repository():
    outside = "../" + "shared"  # spelled so that this file does not name it
    offenders = []
    for path in tracked_files():
        relative = path.relative_to(ROOT).as_posix()
        if relative.startswith("docs/regulations/") or not path.is_file():
            continue
        data = path.read_bytes()
        if outside.encode() in data:
            offenders.append(relative)
    assert offenders == []


def test_the_docs_a_user_needs_are_in_the_repository():
    for name in ("docs/formats.md", "docs/architecture.md", "docs/regulations/INTERPRETATIONS.md"):
        assert (ROOT / name).is_file(), name
    readme = (ROOT / "README.md").read_text()
    assert "docs/formats.md" in readme and "docs/regulations/" in readme


def test_no_test_reads_the_working_inputs_or_outputs_folders():
    """The secretary's own workbooks in inputs/ never change what the tests see."""
    working = re.compile(r'(ROOT|parents\[1\])\s*/\s*"(inputs|outputs)"')
    offenders = [p.name for p in (ROOT / "tests").glob("*.py") if working.search(p.read_text())]
    assert offenders == []


def test_make_builds_inputs_once_it_holds_a_workbook_and_the_example_league_until_then():
    makefile = (ROOT / "Makefile").read_text()
    assert "--inputs $(LEAGUE)" in makefile and "EXAMPLE := examples/league" in makefile
    assert (ROOT / "examples" / "league" / "clubs.xlsx").is_file()
    tracked = [p.relative_to(ROOT).as_posix() for p in tracked_files() if p.relative_to(ROOT).parts[0] == "inputs"]
    assert tracked == ["inputs/README.md"]  # the secretary's workbooks are hers: git ignores them


def test_make_help_speaks_french():
    listed = subprocess.run(["make", "--no-print-directory", "help"], cwd=ROOT, capture_output=True, text=True)
    assert "make test       Lancer tous les tests" in listed.stdout
    descriptions = [line.split(None, 2)[2] for line in listed.stdout.splitlines() if line.strip()]
    assert not [d for d in descriptions if re.match(r"(Install|Build|Run|List|Check|Remove|Create|Time)\b", d)]


def test_make_test_runs_the_suite_on_two_cores_and_serially_when_asked():
    """pytest-xdist's workers, tests of one xdist_group on one worker; TEST_WORKERS=1 in one process."""
    # The suite itself may run with TEST_WORKERS=1, in the environment (`TEST_WORKERS=1 make test`) or
    # on make's command line (`make test TEST_WORKERS=1`, which make passes on in MAKEFLAGS): neither
    # is inherited here, nor the make that runs the suite (MAKELEVEL).
    environment = {name: value for name, value in os.environ.items()
                   if name not in ("TEST_WORKERS", "MAKEFLAGS", "MFLAGS", "MAKELEVEL")}

    def command(*variables: str) -> str:
        printed = subprocess.run(["make", "-n", "test", *variables], cwd=ROOT, capture_output=True, text=True,
                                 check=True, timeout=60, env=environment).stdout
        return next(line for line in printed.splitlines() if "/pytest " in line)

    assert command().split()[1:] == ["-q", "-n", "2", "--dist", "loadgroup"]
    assert command("TEST_WORKERS=1").split()[1:] == ["-q"]


@pytest.mark.parametrize(("files", "league"), [
    (["résultats.ods"], "inputs"),  # LibreOffice's own format: read like .xlsx (docs/formats.md)
    (["2026/albi.xlsx"], "inputs"),
    (["2026/Albi.XLSX"], "inputs"),
    (["~$albi.xlsx", "README.md"], "examples/league"),  # Excel's lock file is no workbook
    (["~$albi/albi.xlsx", ".brouillons/albi.xlsx", ".albi.xlsx", "albi.xlsx.bak", "albi.csv"], "examples/league"),
    ([], "examples/league"),
])
def test_make_builds_inputs_as_soon_as_it_holds_a_workbook_of_any_format_read(tmp_path, files, league):
    """An inputs/ of .ods workbooks only once made `make` build the example league. A file reportgen
    does not read (hidden, in a hidden folder, a backup's suffix) made it build inputs/, where
    `build` finds no workbook and stops (exit 2): `make` never builds a folder it would refuse."""
    shutil.copy(ROOT / "Makefile", tmp_path / "Makefile")
    (tmp_path / "inputs").mkdir()
    for name in files:
        (tmp_path / "inputs" / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / "inputs" / name).write_bytes(b"")
    shown = subprocess.run(["make", "-s", "--no-print-directory", "--eval", "league: ; @echo $(LEAGUE)", "league"],
                           cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert shown.stdout.strip() == league, shown.stderr


def test_make_builds_an_inputs_that_is_a_link_to_the_secretary_s_folder(tmp_path):
    """inputs/ a link to a folder elsewhere (a synced drive): reportgen reads through it, and `find`
    without -H listed nothing there, so `make` built the example league."""
    shutil.copy(ROOT / "Makefile", tmp_path / "Makefile")
    (tmp_path / "drive" / "2026").mkdir(parents=True)
    (tmp_path / "drive" / "2026" / "albi.xlsx").write_bytes(b"")
    (tmp_path / "inputs").symlink_to(tmp_path / "drive")
    shown = subprocess.run(["make", "-s", "--no-print-directory", "--eval", "league: ; @echo $(LEAGUE)", "league"],
                           cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert shown.stdout.strip() == "inputs", shown.stderr
