"""A publication staged on disk file by file (render/staging.py): nothing shows before the commit,
what is committed is exactly what was put, and a fault or a stop leaves the previous publication
and no temporary file."""

from __future__ import annotations

import errno
import hashlib
import os
import stat
from pathlib import Path

import pytest

from reportgen.render import files as output_files
from reportgen.render import staging as staging_module
from reportgen.render import syncing
from reportgen.render.files import JOURNAL, OutputError
from reportgen.render.staging import Staging
from reportgen.temporaries import is_temporary


def tree(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def temporaries(folder: Path) -> list[Path]:
    return [p for p in folder.rglob("*") if is_temporary(p)]


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    published = tmp_path / "circuit"
    (published / "2026").mkdir(parents=True)
    (published / "2026" / "same.html").write_bytes(b"same")
    (published / "2026" / "old.html").write_bytes(b"old")
    (published / "2026" / "gone.csv").write_bytes(b"stale")
    (published / "manifest.json").write_bytes(b"{}")
    return published


def test_files_are_staged_as_they_come_and_show_only_once_published(folder):
    before = tree(folder)
    staging = Staging(folder)
    staging.put(folder / "2026" / "same.html", b"same")
    staging.put(folder / "2026" / "old.html", b"new")
    staging.put(folder / "2027" / "first.html", b"first")
    staging.put(folder / "manifest.json", b'{"v": 1}')
    assert tree(folder) == before | {p.relative_to(folder).as_posix(): p.read_bytes() for p in temporaries(folder)}
    assert len(temporaries(folder)) == 3  # the unchanged file is not staged again
    assert staging.digest(folder / "2026" / "old.html") == hashlib.sha256(b"new").hexdigest()
    written = staging.publish(last=folder / "manifest.json", stale_suffixes=(".html", ".csv"))
    assert written == [folder / "2026" / "old.html", folder / "2027" / "first.html", folder / "manifest.json"]
    assert tree(folder) == {"2026/same.html": b"same", "2026/old.html": b"new", "2027/first.html": b"first",
                            "manifest.json": b'{"v": 1}'}


def test_a_file_taken_from_disk_is_neither_read_staged_nor_hashed_again(folder, monkeypatch):
    """`on_disk`: the caller read these bytes from the file and checked them against that hash
    (render/cache.py `reuse`): the file is not read again (the real read, counted), it stays, its
    digest is the one given, nothing is written."""
    before = tree(folder)
    known = hashlib.sha256(b"same").hexdigest()
    reads: list[Path] = []
    real_read = Path.read_bytes

    def counted(path: Path) -> bytes:
        reads.append(path)
        return real_read(path)

    monkeypatch.setattr(Path, "read_bytes", counted)
    staging = Staging(folder)
    staging.put(folder / "2026" / "same.html", b"same", on_disk=known)
    assert reads == []
    monkeypatch.undo()
    staging.put(folder / "2026" / "old.html", b"new")
    assert staging.digest(folder / "2026" / "same.html") == known and len(temporaries(folder)) == 1
    assert staging.publish(stale_suffixes=(".html",)) == [folder / "2026" / "old.html"]
    assert tree(folder) == before | {"2026/old.html": b"new"}


def test_a_second_put_replaces_the_first_and_leaves_no_temporary(folder):
    staging = Staging(folder)
    staging.put(folder / "manifest.json", b"draft")
    staging.put(folder / "manifest.json", b"final")
    assert len(temporaries(folder)) == 1
    staging.publish(last=folder / "manifest.json")
    assert (folder / "manifest.json").read_bytes() == b"final" and temporaries(folder) == []


def test_discard_leaves_the_previous_publication_and_no_folder_it_made(folder):
    before = tree(folder)
    staging = Staging(folder)
    staging.put(folder / "2026" / "old.html", b"new")
    staging.put(folder / "2028" / "deep" / "x.html", b"x")
    staging.discard()
    assert tree(folder) == before and not (folder / "2028").exists()


def disk_full_at(nth: int, monkeypatch) -> None:
    """The `nth` write of bytes to a temporary file from now fails as on a full disk."""
    real, writes = output_files._write, []

    def failing(stream, data):
        writes.append(data)
        if len(writes) == nth:
            raise OSError(errno.ENOSPC, "No space left on device")
        return real(stream, data)

    monkeypatch.setattr(output_files, "_write", failing)


def test_a_full_disk_while_staging_drops_everything_staged(folder, monkeypatch):
    before = tree(folder)
    disk_full_at(2, monkeypatch)
    staging = Staging(folder)
    staging.put(folder / "2026" / "old.html", b"new")
    with pytest.raises(OutputError) as failure:
        staging.put(folder / "2029" / "first.html", b"first")
    assert str(failure.value).startswith(f"{folder} : impossible d’écrire dans ce dossier, le disque est plein")
    assert tree(folder) == before and not (folder / "2029").exists()


def test_a_stop_before_the_commit_rolls_everything_back(folder, monkeypatch):
    before = tree(folder)
    staging = Staging(folder)
    staging.put(folder / "2026" / "old.html", b"new")

    def stop(source, target):
        raise KeyboardInterrupt

    monkeypatch.setattr(output_files, "_rename", stop)
    with pytest.raises(KeyboardInterrupt):
        staging.publish(stale_suffixes=(".csv",))
    assert tree(folder) == before


def test_a_new_staging_first_finishes_what_a_stopped_run_left(folder):
    """A kill between the files staged and the commit: the next run removes the temporary files."""
    Staging(folder).put(folder / "2026" / "old.html", b"new")  # never published nor discarded
    assert temporaries(folder)
    Staging(folder)
    assert temporaries(folder) == []


def test_a_file_put_in_parts_is_staged_as_the_whole_and_not_when_unchanged(folder):
    """`put_parts` (a circuit's site data at 100x, written as it is encoded): the bytes the parts
    make, their hash; a target that already holds them is not staged, and no temporary is left."""
    staging = Staging(folder)
    staging.put_parts(folder / "2026" / "same.html", iter([b"sa", b"", b"me"]))
    staging.put_parts(folder / "2030" / "site.json", (part for part in [b'{"rankings":[', b"1", b",2", b"]}\n"]))
    assert staging.staged[folder / "2026" / "same.html"] is None
    assert staging.digest(folder / "2026" / "same.html") == hashlib.sha256(b"same").hexdigest()
    assert staging.digest(folder / "2030" / "site.json") == hashlib.sha256(b'{"rankings":[1,2]}\n').hexdigest()
    assert [p.name for p in temporaries(folder)] == [staging.staged[folder / "2030" / "site.json"].name]
    assert staging.publish() == [folder / "2030" / "site.json"]
    assert (folder / "2030" / "site.json").read_bytes() == b'{"rankings":[1,2]}\n' and not temporaries(folder)
    assert (folder / "2030" / "site.json").stat().st_mode & 0o777 == 0o644


def test_a_full_disk_while_a_file_is_put_in_parts_drops_everything_staged(folder, monkeypatch):
    before = tree(folder)
    disk_full_at(3, monkeypatch)
    staging = Staging(folder)
    staging.put(folder / "2026" / "old.html", b"new")
    with pytest.raises(OutputError):
        staging.put_parts(folder / "2029" / "site.json", iter([b"a", b"b", b"c"]))
    assert tree(folder) == before and not (folder / "2029").exists() and not temporaries(folder)


# -- synced once (render/syncing.py) ---------------------------------------------------------------

def fsynced_files(monkeypatch) -> list[str]:
    """The names of the regular files os.fsync is called on from now (folders left out), in order."""
    import os
    import stat

    real = os.fsync
    names: list[str] = []

    def recording(descriptor: int) -> None:
        if stat.S_ISREG(os.fstat(descriptor).st_mode):
            names.append(Path(os.readlink(f"/proc/self/fd/{descriptor}")).name)
        real(descriptor)

    monkeypatch.setattr(os, "fsync", recording)
    return names


def syncfs_calls(monkeypatch) -> list[Path]:
    """The folders whose filesystem is synced from now (each call still syncs it), in order."""
    real = syncing.syncfs
    synced: list[Path] = []
    monkeypatch.setattr(syncing, "syncfs", lambda path: synced.append(path) or real(path))
    return synced


needs_syncfs = pytest.mark.skipif(not syncing.available() or not Path("/proc/self/fd").is_dir(),
                                  reason="no syncfs on this machine")


@needs_syncfs
def test_a_publication_syncs_its_filesystem_once_and_no_staged_file_on_its_own(folder, monkeypatch):
    monkeypatch.setattr(staging_module, "FEW", 2)  # more files than a few
    synced = syncfs_calls(monkeypatch)
    names = fsynced_files(monkeypatch)
    staging = Staging(folder)
    staging.put(folder / "2026" / "old.html", b"new")
    staging.put(folder / "2027" / "first.html", b"first")
    staging.put_parts(folder / "2027" / "parts.json", [b"a", b"b"])
    assert names == [] and synced == []  # nothing synced while staging
    staging.publish(stale_suffixes=(".html",))
    assert synced == [folder]
    assert [name for name in names if JOURNAL not in name] == []  # the journal alone
    assert tree(folder)["2027/parts.json"] == b"ab"


@needs_syncfs
def test_where_the_filesystem_cannot_be_synced_each_file_is_fsynced_before_the_commit(folder, monkeypatch):
    monkeypatch.setattr(syncing, "syncfs", lambda path: False)
    names = fsynced_files(monkeypatch)
    committed: list[list[str]] = []
    real_rename = output_files._rename

    def rename(source: Path | str, target: Path | str) -> None:
        if Path(target).name == JOURNAL:  # the commit: what was fsynced by then
            committed.append(list(names))
        real_rename(source, target)

    monkeypatch.setattr(output_files, "_rename", rename)
    staging = Staging(folder)
    staging.put(folder / "2026" / "old.html", b"new")
    staging.put_parts(folder / "2027" / "first.html", [b"fi", b"rst"])
    assert names == []
    staging.publish()
    assert sorted(name.split(".")[1] for name in committed[0] if JOURNAL not in name) \
        == ["first", "old"]
    assert tree(folder)["2026/old.html"] == b"new" and tree(folder)["2027/first.html"] == b"first"


def test_without_syncfs_each_file_is_fsynced_as_it_is_staged(folder, monkeypatch):
    monkeypatch.setattr(syncing, "available", lambda: False)
    names = fsynced_files(monkeypatch)
    staging = Staging(folder)
    staging.put(folder / "2026" / "old.html", b"new")
    staging.put_parts(folder / "2027" / "first.html", [b"first"])
    assert sorted(name.split(".")[1] for name in names) == ["first", "old"]
    assert not staging.unsynced


@needs_syncfs
def test_a_file_on_another_filesystem_is_fsynced_at_once(folder, monkeypatch):
    """A subfolder that is a mount point: the folder's syncfs would not reach it."""
    monkeypatch.setattr(syncing.Devices, "same_filesystem", lambda self, path: path.name != "2027")
    names = fsynced_files(monkeypatch)
    staging = Staging(folder)
    staging.put(folder / "2026" / "old.html", b"new")
    staging.put(folder / "2027" / "first.html", b"first")
    assert [name.split(".")[1] for name in names] == ["first"]
    assert staging.unsynced == {folder / "2026" / "old.html"}


@needs_syncfs
@pytest.mark.parametrize("step", ["publish", "sync"])
def test_a_disk_error_at_the_sync_publishes_nothing(folder, monkeypatch, step):
    """syncfs failed, and the file's own fsync reports the error, at the commit or at the build's
    early `sync`: nothing committed, nothing left, nothing staged any more."""
    before = tree(folder)
    monkeypatch.setattr(syncing, "syncfs", lambda path: False)
    staging = Staging(folder)
    staging.put(folder / "2026" / "old.html", b"new")

    def failing(descriptor: int) -> None:
        raise OSError(errno.EIO, "I/O error")

    monkeypatch.setattr(os, "fsync", failing)
    with pytest.raises(OutputError):
        getattr(staging, step)()
    monkeypatch.undo()
    assert tree(folder) == before and not temporaries(folder) and not staging.staged


def test_a_stop_between_a_temporary_file_and_its_record_leaves_no_temporary(folder, monkeypatch):
    """Ctrl-C lands after the temporary file is made and before `put` records it (no fsync fills
    that moment any more): the discard still removes it."""
    before = tree(folder)
    real = output_files._stage

    def stopped(path: Path, data: bytes, *args, **kwargs) -> Path:
        real(path, data, *args, **kwargs)
        raise KeyboardInterrupt

    staging = Staging(folder)
    staging.put(folder / "2026" / "old.html", b"new")
    monkeypatch.setattr(output_files, "_stage", stopped)
    with pytest.raises(KeyboardInterrupt):
        staging.put(folder / "2027" / "first.html", b"first")
    assert tree(folder) == before and not temporaries(folder)


@needs_syncfs
def test_a_few_files_are_fsynced_each_at_the_commit_without_syncing_the_filesystem(folder, monkeypatch):
    """One new tournament's handful: a syncfs would also wait for what other programs left to write."""
    monkeypatch.setattr(syncing, "syncfs", lambda path: pytest.fail("the filesystem synced for two files"))
    names = fsynced_files(monkeypatch)
    staging = Staging(folder)
    staging.put(folder / "2026" / "old.html", b"new")
    staging.put(folder / "2027" / "first.html", b"first")
    assert names == []  # not while staging
    staging.publish()
    assert sorted(name.split(".")[1] for name in names if JOURNAL not in name) == ["first", "old"]


@needs_syncfs
def test_a_staging_synced_early_leaves_its_commit_only_what_came_after(folder, monkeypatch):
    """`sync` while the PDFs render (pipeline/building.py): `publish` then syncs only the file put
    since, and the journal; everything published as usual."""
    monkeypatch.setattr(staging_module, "FEW", 1)  # more files than a few: the filesystem synced
    synced = syncfs_calls(monkeypatch)
    names = fsynced_files(monkeypatch)
    staging = Staging(folder)
    staging.put(folder / "2026" / "old.html", b"new")
    staging.put(folder / "2027" / "first.html", b"first")
    staging.sync()
    assert synced == [folder] and not staging.unsynced
    staging.put(folder / "2027" / "late.html", b"late")
    staging.publish()
    assert synced == [folder]  # not again: the one late file fsynced on its own
    assert [name.split(".")[1] for name in names if JOURNAL not in name] == ["late"]
    assert tree(folder)["2027/first.html"] == b"first" and tree(folder)["2027/late.html"] == b"late"


def test_a_folder_sync_passes_over_what_a_file_sync_raises(tmp_path, monkeypatch):
    """A folder's fsync is done where the file system allows and an error passed over (the renames
    are done all the same); a file's raises (its bytes must be on disk before a commit)."""
    (tmp_path / "file").write_bytes(b"bytes")
    synced: list[bool] = []  # for each fsync: whether it was a folder's
    real = os.fsync
    monkeypatch.setattr(os, "fsync", lambda descriptor: (synced.append(stat.S_ISDIR(os.fstat(descriptor).st_mode)),
                                                         real(descriptor))[1])
    syncing.fsync_folder(tmp_path)
    syncing.fsync_file(tmp_path / "file")
    assert synced == [True, False]
    syncing.fsync_folder(tmp_path / "absent")  # passed over
    with pytest.raises(FileNotFoundError):
        syncing.fsync_file(tmp_path / "absent")
    assert synced == [True, False]


@pytest.mark.parametrize("folder", [Path("/out/site"), Path("out/site"), Path("."), Path("/")])
def test_a_journal_names_a_file_as_relative_to_names_it(folder):
    for path in (folder / "a.html", folder / "2026" / ".a.html.x1.tmp"):
        assert output_files.relative_name(folder, path) == path.relative_to(folder).as_posix()
    with pytest.raises(ValueError):
        output_files.relative_name(folder / "site", folder / "other" / "a.html")


@pytest.mark.parametrize("relative", [False, True])
def test_the_stale_files_removed_are_those_rglob_and_is_file_name(folder, tmp_path, monkeypatch, relative):
    """`publish` removes the files of a stale suffix that were neither put nor kept: found from the
    folders' entries (no stat per file), they are exactly those `rglob` and `is_file` find. Links to
    files count, linked folders are not entered, temporary files and other suffixes stay, the folder
    given as an absolute or a relative path."""
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "elsewhere.html").write_bytes(b"not ours")
    (folder / "2026" / "deep" / "deeper").mkdir(parents=True)
    (folder / "2026" / "deep" / "deeper" / "old.csv").write_bytes(b"old")
    (folder / "2026" / "deep" / "kept.csv").write_bytes(b"kept")
    (folder / "2026" / "notes.txt").write_bytes(b"not a stale suffix")
    (folder / "2026" / "link.html").symlink_to(outside / "elsewhere.html")
    (folder / "2026" / "broken.html").symlink_to(outside / "missing.html")
    (folder / "linked").symlink_to(outside, target_is_directory=True)
    if relative:
        monkeypatch.chdir(folder.parent)
        folder = Path(folder.name)
    suffixes = (".html", ".csv")
    staging = Staging(folder)  # (it removes the temporary files a stopped run left: this one comes after)
    (folder / "2026" / ".old.html.abc1.tmp").write_bytes(b"a temporary file")
    staging.keep(folder / "2026" / "same.html", hashlib.sha256(b"same").hexdigest())
    staging.keep(folder / "2026" / "deep" / "kept.csv", hashlib.sha256(b"kept").hexdigest())
    staging.put(folder / "2026" / "new.html", b"new")
    expected = sorted(path for path in folder.rglob("*") if path.suffix in suffixes and path not in staging
                      and path.is_file() and not is_temporary(path))
    assert [path.relative_to(folder).as_posix() for path in expected] == [
        "2026/deep/deeper/old.csv", "2026/gone.csv", "2026/link.html", "2026/old.html"]
    assert staging._stale(suffixes) == expected
    staging.publish(stale_suffixes=suffixes)
    assert not any(path.exists() for path in expected) and (outside / "elsewhere.html").is_file()
    assert sorted(tree(folder)) == ["2026/.old.html.abc1.tmp", "2026/deep/kept.csv", "2026/new.html",
                                    "2026/notes.txt", "2026/same.html", "manifest.json"]
