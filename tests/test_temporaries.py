"""The one naming of temporary files (reportgen/temporaries.py), which every writer uses and every
cleaner looks for: a write killed before its rename leaves a temporary the next run removes."""

from __future__ import annotations

import os
import stat
import subprocess
import sys

from reportgen.ingest.read_cache import FOLDER, READS
from reportgen.pipeline import state
from reportgen.render import files as output_files
from reportgen.temporaries import TEMPORARY, Temporaries, clean_temporaries, is_temporary, new_temporary, temporaries_of


def test_new_temporaries_are_found_by_their_target_and_known_as_temporary(tmp_path):
    target = tmp_path / "a[1].html"  # glob's special characters in the name
    made = []
    for _ in range(2):
        handle, temporary = new_temporary(target)
        os.close(handle)
        made.append(temporary)
    (tmp_path / "other.html.x.tmp").write_bytes(b"")  # not a temporary of ours: no leading dot
    (tmp_path / ".a[1].htmlx.y.tmp").write_bytes(b"")  # another target's
    assert sorted(temporaries_of(target)) == sorted(made)
    assert all(is_temporary(path) and path.parent == tmp_path for path in made)


def test_a_cache_write_killed_before_its_rename_leaves_a_temporary_the_next_build_removes(tmp_path):
    folder = tmp_path / FOLDER
    folder.mkdir()
    (folder / "state.json").write_bytes(b"{}")  # not a temporary: kept
    script = ("import sys; from pathlib import Path; from reportgen.ingest.read_cache import write_file; "
              "write_file(Path(sys.argv[1]), b'{}')")
    # Killed by strace as it calls rename (os.replace), the temporary written; no .pyc written
    # meanwhile, whose own rename would be the one stopped.
    killed = subprocess.run(["strace", "-qq", "-f", "-o", "/dev/null", "-e", "inject=rename:signal=SIGKILL:when=1",
                             sys.executable, "-c", script, str(folder / READS)],
                            env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}, capture_output=True, timeout=60)
    assert killed.returncode != 0
    [left] = list(temporaries_of(folder / READS))
    assert left.read_bytes() == b"{}" and not (folder / READS).exists()
    state.clean(tmp_path)  # what the next build does first
    assert sorted(p.name for p in folder.iterdir()) == ["state.json"]


def test_a_stagings_own_temporaries_are_found_by_their_target_and_never_take_an_existing_file(tmp_path):
    """`Temporaries` (the staging's names, no mkstemp per file): named as `new_temporary` names, so
    that `temporaries_of`, `is_temporary` and the next run's clean-up find them; each new; created
    exclusively, so a file or a link already under the next name is left alone and another name
    taken; owner-only until staged, then the staged file's mode is 0644 whatever the umask."""
    target = tmp_path / "a[1].html"
    names = Temporaries()
    first_handle, first = names.new(target)
    os.close(first_handle)
    victim = tmp_path / "victim"
    victim.write_bytes(b"victim")
    planted = first.with_name(f".{target.name}.{names.token}1{TEMPORARY}")  # the next name
    planted.symlink_to(victim)
    handle, second = names.new(target)
    os.write(handle, b"second")
    os.close(handle)
    assert second not in (first, planted) and victim.read_bytes() == b"victim" and planted.is_symlink()
    assert stat.S_IMODE(second.stat().st_mode) == 0o600
    assert set(temporaries_of(target)) == {first, second, planted}
    assert all(is_temporary(path) and path.parent == tmp_path for path in (first, second))
    old = os.umask(0o077)
    try:
        staged = output_files._stage(target, b"page", temporaries=names)
    finally:
        os.umask(old)
    assert stat.S_IMODE(staged.stat().st_mode) == 0o644 and staged.read_bytes() == b"page"
    assert staged.name.startswith(f".{target.name}.{names.token}")
    assert sorted(clean_temporaries(tmp_path)) == sorted([first, second, planted, staged])
