"""benchmarks/targets.py's table (issue 27): each target beside its baseline, its ratio, its limit and
whether it is met, from the measurements of one run (made up here: no timing is measured or asserted)."""

from benchmarks import filesystem, quiet
from benchmarks.targets import markdown, rows


def phase(wall: float, **more: object) -> dict:
    return {"wall": wall, "cpu": wall, "rss_peak_mib": 300.0, "tree_rss_peak_mib": 400.0, **more}


def measured(quick: bool) -> dict:
    builds = {"1": {"phases": {
        "first build": phase(20.0, site_pages_wall=2.0, pdf_sample_wall=0.0, pdf_sampled=0),
        "nothing changed, new process": phase(0.5),
        "one new tournament, new process": phase(6.0),
        "WeasyPrint alone, the new PDFs": phase(4.0, pdfs=["grand-sud/2026/classement-2026-11-21.pdf"])}}}
    found = {"created": "2026-12-03T15:00", "quick": quick, "loadavg": [3.0], "wall_minutes": 4.0,
             "git": {"commit": "abcdef0123"}, "builds": builds, "standings": {},
             "machine": {"model": "AMD EPYC 7B13", "nproc": 2, "memory_gib": 8.0},
             "pdf_1x": {"facts": {"pdf_documents": 8},
                        "median": {"PDF, one process": phase(10.0), "PDF, WeasyPrint alone": phase(9.5),
                                   "PDF, pool of 2": {"wall": 6.0, "cpu": 10.0}},
                        "ratios": {"PDF, one process": {"ratio": 1.05}}}}
    if not quick:
        builds["100"] = {"phases": {
            "first build": phase(400.0, site_pages_wall=150.0, pdf_sample_wall=50.0, pdf_sampled=2,
                                 tree_rss_peak_mib=2500.0),
            "nothing changed, new process": phase(1.0), "one new tournament, new process": phase(30.0)}}
        found["standings"] = {"10": {"cpu_total": 3.0, "rows": 20_000}, "100": {"cpu_total": 30.0, "rows": 200_000}}
    return found


def test_each_target_is_met_or_not_against_its_limit():
    table = {row["target"].split(" (")[0]: row for row in rows(measured(quick=False))}
    one = table["one new tournament at 1x renders exactly one PDF, its bulletin"]
    assert one["met"] is True and one["measured"].startswith("1 PDF")
    new = table["one new tournament at 1x"]
    assert new["ratio"] == "1.33" and new["met"] is False  # 6 s against 4 + 0.5 s
    assert new["cpu_ratio"] == "1.33"  # the made-up phases spent their wall on the CPU
    assert table["one new tournament at 100x against 1x"]["met"] is False  # 30 s against 6 s: 5x
    assert table["nothing changed at 100x against 1x"]["ratio"] == "2.00"
    assert table["`standings` linear in the results"]["ratio"] == "1.00"
    assert table["first build's PDF against WeasyPrint alone, same HTML"]["met"] is True
    assert table["PDF pool's wall against its CPU, 2 cores"]["ratio"] == "0.60"
    assert table["peak memory at 100x"]["met"] is False  # 2,500 MiB
    site = table["the site's pages in a build without PDFs"]
    assert site["ratio"] == "0.75" and site["met"] is False  # 150 s for the other 200 s of the build


def test_the_1x_ratio_is_its_pairs_median_and_100x_is_against_the_median_rebuild():
    found = measured(quick=False)
    pdfs = ["grand-sud/2026/classement-2026-11-21.pdf"]
    found["builds"]["1"]["phases"] |= {  # three pairs, the median one last
        "nothing changed, new process": phase(0.6), "one new tournament, new process": phase(7.2),
        "nothing changed, new process (2)": phase(0.4), "one new tournament, new process (2)": phase(4.5),
        "WeasyPrint alone, the new PDFs (2)": phase(4.0, pdfs=pdfs),
        "nothing changed, new process (3)": phase(0.5), "one new tournament, new process (3)": phase(6.0),
        "WeasyPrint alone, the new PDFs (3)": phase(4.0, pdfs=pdfs)}
    table = {row["target"].split(" (")[0]: row for row in rows(found)}
    new = table["one new tournament at 1x"]
    assert new["ratio"] == "1.33" and new["measured"].startswith("6.00 s")  # the third pair's: 6 s against 4.5
    assert new["baseline"].endswith("the median of 3 pairs: 1.57, 1.02, 1.33")
    # against the median of the rebuilds at 1x (6 s) and of nothing changed (0.5 s), not the first pair's
    assert table["one new tournament at 100x against 1x"]["ratio"] == "5.00"
    assert table["nothing changed at 100x against 1x"]["ratio"] == "2.00"


def test_quick_says_which_targets_it_left_unmeasured_and_names_the_cpu():
    found = measured(quick=True)
    unmeasured = [row["target"] for row in rows(found) if row["met"] is None]
    assert len(unmeasured) == 4 and all("100x" in target for target in unmeasured)
    text = markdown(found)
    assert "AMD EPYC 7B13 (2 cores" in text and "--quick" in text
    assert sum(line.startswith("|") for line in text.splitlines()) == 2 + len(rows(found))  # header, rule, targets


# -- waiting for a quiet machine (benchmarks/quiet.py): a made-up load and clock, nothing slept --------

class Machine:
    """A load average that falls as time passes, and a clock that only sleeping moves."""

    def __init__(self, loads: list[float]):
        self.loads, self.now, self.slept = loads, 0.0, []

    def load(self) -> float:
        return self.loads[min(len(self.slept), len(self.loads) - 1)]

    def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)
        self.now += seconds


def waited(seconds: float, loads: list[float]):
    machine = Machine(loads)
    return quiet.wait(seconds, load=machine.load, sleep=machine.sleep, clock=lambda: machine.now), machine


def test_the_targets_wait_for_the_load_to_fall_and_say_where_it_started():
    started, machine = waited(180, [3.2, 1.4, 0.7, 0.3, 0.1])
    assert started == quiet.Start(load=0.3, waited=15.0, quiet=True) and len(machine.slept) == 3
    assert started.sentence() == "load average at the start: 0.30 (quiet, after 15 s of waiting)"


def test_the_wait_is_bounded_and_zero_skips_it():
    started, machine = waited(12, [2.0])
    assert started == quiet.Start(load=2.0, waited=12.0, quiet=False) and machine.slept == [5.0, 5.0, 2.0]
    assert "not below 0.5" in started.sentence()
    started, machine = waited(0, [2.0])
    assert started == quiet.Start(load=2.0, waited=0.0, quiet=False) and machine.slept == []
    started, machine = waited(180, [0.2])
    assert started.quiet and machine.slept == []


def test_the_table_says_the_load_the_run_started_at():
    found = {**measured(quick=True), "started": {"load": 0.42, "waited": 35.0, "quiet": True}}
    assert "load average at the start: 0.42 (quiet, after 35 s of waiting)" in markdown(found)
    assert "load average at the start:" not in markdown(measured(quick=True))  # results of earlier rounds


# -- what a file's creation costs as each step starts (benchmarks/filesystem.py) ---------------------


def test_the_table_says_what_a_file_creation_cost_as_each_step_and_each_build_at_100x_started():
    found = {**measured(quick=False), "creation_us": [21.4, 212.0], "filesystem": "ext4 without a journal"}
    phases = found["builds"]["100"]["phases"]
    phases["first build"]["creation"] = {"microseconds": 24.6, "waited": 45.2, "settled": True}
    phases["one new tournament, new process"]["creation"] = {"microseconds": 300.0, "waited": 180.0, "settled": False}
    text = markdown(found)
    assert "a file's creation at the start of each step: 21, 212 µs (ext4 without a journal)" in text
    assert "at 100x before the first build, a file created in 25 µs (after 45 s of waiting)" in text
    assert "at 100x before the rebuild, a file created in 300 µs (after 180 s of waiting)" in text
    assert "a file's creation" not in markdown(measured(quick=True))  # results of earlier rounds
    assert "a file created" not in markdown(measured(quick=False))


class Disk:
    """A filesystem whose creations cost what `costs` says, probe after probe, and a clock."""

    def __init__(self, costs):
        self.costs, self.now, self.slept = list(costs), 0.0, []

    def probe(self, folder):
        return self.costs.pop(0)

    def sleep(self, seconds):
        self.slept.append(seconds)
        self.now += seconds


def test_the_builds_wait_for_a_settled_filesystem_and_say_what_a_creation_cost(tmp_path):
    disk = Disk([400.0, 250.0, 30.0, 20.0])
    settled = filesystem.settle(tmp_path, 180, probe=disk.probe, sleep=disk.sleep, clock=lambda: disk.now)
    assert settled == filesystem.Settled(30.0, 30.0, True) and disk.slept == [15.0, 15.0] and disk.costs == [20.0]


def test_the_settling_wait_is_bounded_and_zero_probes_once(tmp_path):
    disk = Disk([400.0] * 10)
    settled = filesystem.settle(tmp_path, 20, probe=disk.probe, sleep=disk.sleep, clock=lambda: disk.now)
    assert settled == filesystem.Settled(400.0, 20.0, False) and disk.slept == [15.0, 5.0]
    disk = Disk([400.0])
    assert filesystem.settle(tmp_path, 0, probe=disk.probe, sleep=disk.sleep, clock=lambda: disk.now) == \
        filesystem.Settled(400.0, 0.0, False) and disk.slept == []


MOUNTS = """22 1 254:0 / / rw,relatime shared:1 - ext4 /dev/vda rw,discard
24 22 0:21 / /proc rw,nosuid shared:12 - proc proc rw
30 22 0:26 / /dev/shm rw,nosuid shared:3 - tmpfs tmpfs rw
31 22 8:1 / /mnt/my\\040disk rw,relatime shared:4 - ext4 /dev/sda1 rw
"""


def test_the_filesystem_is_the_deepest_mount_holding_the_path_and_an_ext4_journal_is_looked_up():
    names = {"254:0": "vda", "8:1": "sda1"}
    assert filesystem.describe("/work/main", MOUNTS, ["sda1-8"], names) == "ext4 without a journal"
    assert filesystem.describe("/work/main", MOUNTS, ["vda-8"], names) == "ext4 with a journal"
    assert filesystem.describe("/mnt/my disk/outputs", MOUNTS, ["sda1-8"], names) == "ext4 with a journal"
    assert filesystem.describe("/dev/shm/x", MOUNTS, [], names) == "tmpfs"
    assert filesystem.describe("/mnt/my diskette", MOUNTS, ["sda1-8"], names) == "ext4 without a journal"  # on /


def test_a_creation_is_probed_in_a_folder_of_its_own_and_left_there(tmp_path):
    assert filesystem.creation_cost(tmp_path, count=20) > 0
    (probe,) = tmp_path.iterdir()
    assert probe.name.startswith("creation-probe-") and len(list(probe.iterdir())) == 20
