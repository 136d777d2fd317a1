"""The site's share of a first build without PDFs (issue 27: at most 25 % of the rest), alone.

    .venv/bin/python -m benchmarks.site_share --scale 10
    .venv/bin/python -m benchmarks.site_share --scale 10 --profile 25     # cProfile of the site's part
    .venv/bin/python -m benchmarks.site_share --scale 10 --keep /tmp/out --rebuild   # /tmp/out.first and /tmp/out, to diff

What benchmarks/targets.py's last step times, without its other steps: the league built once in
this process with stand-in PDFs, on `targets.build_day(scale)`, the site's part timed as there
(`Site`'s construction, site/publish.py `stage`, which makes each page, and `publish_staged`), plus
the CPU of this process inside them and of the children it reaped (the card worker and the
reading workers together), and what a file's creation cost as it started (benchmarks/filesystem.py;
`--settle-wait SECONDS` waits for it to fall first). `--rebuild`: then the build again with
`<scale>x.extra` added (timed whole, for the byte comparison of both builds' outputs).
"""

from __future__ import annotations

import argparse
import cProfile
import os
import resource
import shutil
import tempfile
import time
import warnings
from pathlib import Path

from benchmarks import filesystem, leagues, measure, profiling
from benchmarks.__main__ import compile_code
from benchmarks.targets import STAND_IN, build_day


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def main() -> None:
    compile_code()  # as a secretary's machine has it (benchmarks/__main__.py)
    parser = argparse.ArgumentParser(prog="python -m benchmarks.site_share", description=__doc__.split("\n\n")[0])
    parser.add_argument("--scale", type=int, default=10, choices=leagues.SCALES)
    parser.add_argument("--profile", type=int, default=0, metavar="TOP", help="cProfile the site's part, TOP lines")
    parser.add_argument("--profile-file", type=Path, help="and write that profile there (pstats)")
    parser.add_argument("--keep", type=Path, help="build into this folder (emptied first) and keep it")
    parser.add_argument("--rebuild", action="store_true", help="then build again with the extra tournament")
    parser.add_argument("--settle-wait", type=float, default=0, metavar="SECONDS",
                        help="wait up to this long for a file's creation to cost what it costs on a settled "
                        "filesystem (benchmarks/filesystem.py; default 0: probe once)")
    options = parser.parse_args()
    warnings.simplefilter("ignore")
    inputs = leagues.ensure(options.scale)
    day = build_day(options.scale)

    import reportgen.site.publish as site_publish
    from reportgen import pipeline
    from reportgen.render import pdf
    from reportgen.site.pages import Site

    spent = {"wall": 0.0, "cpu": 0.0}
    profile = cProfile.Profile() if options.profile else None

    def timed(function):  # type: ignore[no-untyped-def]
        def wrapper(*args, **kwargs):  # type: ignore[no-untyped-def]
            wall, cpu = time.perf_counter(), time.process_time()
            if profile:
                profile.enable()
            try:
                return function(*args, **kwargs)
            finally:
                if profile:
                    profile.disable()
                spent["wall"] += time.perf_counter() - wall
                spent["cpu"] += time.process_time() - cpu
        return wrapper

    patched = [(Site, "__init__"), (site_publish, "stage"), (site_publish, "publish_staged")]
    for owner, name in patched:
        setattr(owner, name, timed(getattr(owner, name)))
    pdf.render_many = lambda pages, *args, **kwargs: [STAND_IN] * len(pages)
    pdf.render_pdf = lambda page, *args, **kwargs: STAND_IN

    work = Path(tempfile.mkdtemp(prefix="site-share-"))
    outputs = options.keep or work / "outputs"
    shutil.rmtree(outputs, ignore_errors=True)
    try:
        creation = filesystem.settle(work, options.settle_wait)
        load, wall, cpu, children = os.getloadavg()[0], time.perf_counter(), time.process_time(), _children_cpu()
        measure._build(pipeline, inputs, outputs, day, pdf_limit=10**9, warm=False)
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        rest = wall - spent["wall"]
        print(f"{options.scale}x first build, load {load:.1f}: site {spent['wall']:.2f} s wall, "
              f"{spent['cpu']:.2f} CPU-s in the build's process; build {wall:.2f} s, {cpu:.2f} CPU-s, "
              f"children {_children_cpu() - children:.2f} CPU-s; rest {rest:.2f} s; share {spent['wall'] / rest:.3f}; "
              f"{filesystem.sentence(work, creation.microseconds)} after {creation.waited:.0f} s of waiting",
              flush=True)
        if profile:
            print(profiling.summary(profile, "the site's part", spent["wall"], options.profile))
            if options.profile_file:
                profile.dump_stats(options.profile_file)
        if options.rebuild:
            if options.keep:  # the first build's outputs, beside the rebuild's
                shutil.rmtree(f"{outputs}.first", ignore_errors=True)
                shutil.copytree(outputs, f"{outputs}.first", symlinks=True)
            grown = work / "inputs-grown"
            shutil.copytree(inputs, grown)
            shutil.copytree(leagues.extra_folder(options.scale), grown, dirs_exist_ok=True)
            start = time.perf_counter()
            measure._build(pipeline, grown, outputs, day, pdf_limit=10**9, warm=False)
            print(f"rebuild with the extra tournament: {time.perf_counter() - start:.2f} s")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
