"""A publication staged on disk file by file (render/staging.py): nothing shows before the commit,
what is committed is exactly what was put, and a fault or a stop leaves the previous publication
and no temporary file."""

from __future__ import annotations

import errno
import hashlib
from pathlib import Path

import pytest

from reportgen.render import files as output_files
from reportgen.render.files import OutputError, is_temporary
from reportgen.render.staging import Staging


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


def test_a_full_disk_while_staging_drops_everything_staged(folder, monkeypatch):
    before = tree(folder)
    real, writes = output_files._write, []

    def failing(stream, data):
        writes.append(data)
        if len(writes) == 2:
            raise OSError(errno.ENOSPC, "No space left on device")
        return real(stream, data)

    monkeypatch.setattr(output_files, "_write", failing)
    staging = Staging(folder)
    staging.put(folder / "2026" / "old.html", b"new")
    with pytest.raises(OutputError) as failure:
        staging.put(folder / "2029" / "first.html", b"first")
    assert str(failure.value).startswith(f"{folder} : impossible d'écrire dans ce dossier, le disque est plein")
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
    real, writes = output_files._write, []

    def failing(stream, data):
        writes.append(data)
        if len(writes) == 3:
            raise OSError(errno.ENOSPC, "No space left on device")
        return real(stream, data)

    monkeypatch.setattr(output_files, "_write", failing)
    staging = Staging(folder)
    staging.put(folder / "2026" / "old.html", b"new")
    with pytest.raises(OutputError):
        staging.put_parts(folder / "2029" / "site.json", iter([b"a", b"b", b"c"]))
    assert tree(folder) == before and not (folder / "2029").exists() and not temporaries(folder)
