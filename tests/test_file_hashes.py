"""The files' content hashes known by their stat (ingest/file_hashes.py, git's index): a file whose
stat is the one recorded is not hashed again, and any edit is still seen: in place keeping its size
and mtime (its ctime moves: no program can put it back), a file replaced by another of the same
size and mtime (another inode), a file edited right after it was hashed (git's « racy » rule: an
entry whose mtime is not older than the cache file's own is not trusted). The build-level cases (a
workbook, an output edited by hand) are in tests/test_incremental_build.py."""

from __future__ import annotations

import hashlib
import json
import os
import time
from pathlib import Path

from reportgen.ingest.file_hashes import HASHES, FileHashes, folder_files
from reportgen.ingest.read_cache import FOLDER

HOUR_NS = 3600 * 10**9


def sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def old_file(path: Path, data: bytes) -> os.stat_result:
    """A file last modified an hour ago: old enough to be recorded."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    mtime = time.time_ns() - HOUR_NS
    os.utime(path, ns=(mtime, mtime))
    return os.stat(path)


def recorded(outputs: Path) -> dict[str, list]:
    return json.loads((outputs / FOLDER / HASHES).read_bytes())["files"]


def plant(outputs: Path, path: Path, value: str) -> None:
    """Put another hash in the entry of `path`: what the next lookup returns tells whether the entry
    was trusted (the file not read) or not."""
    files = recorded(outputs)
    files[str(path)][4] = value
    (outputs / FOLDER / HASHES).write_text(json.dumps({"format": 1, "files": files}))


def known(outputs: Path, workbook: Path, data: bytes) -> os.stat_result:
    """`workbook` written with `data` long enough ago, and its hash recorded in `outputs`' cache."""
    before = old_file(workbook, data)
    hashes = FileHashes(outputs)
    hashes.digest(workbook)
    assert hashes.save()
    return before


def edited_in_place(path: Path, data: bytes, before: os.stat_result) -> os.stat_result:
    """The same file (inode) rewritten with `data`, its mtime put back; the ctime has moved on."""
    while True:
        with open(path, "r+b") as stream:
            stream.write(data)
        os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
        after = os.stat(path)
        if after.st_ctime_ns != before.st_ctime_ns:  # within one tick of the kernel's clock: once more
            return after
        time.sleep(0.01)


def test_a_file_known_by_its_stat_is_not_read_again(tmp_path):
    workbook = tmp_path / "inputs" / "a.xlsx"
    old_file(workbook, b"first")
    hashes = FileHashes(tmp_path / "outputs")
    assert hashes.digest(workbook) == sha(b"first") and hashes.save()
    plant(tmp_path / "outputs", workbook, "0" * 64)
    assert FileHashes(tmp_path / "outputs").digest(workbook) == "0" * 64  # the entry trusted
    assert FileHashes(None).digest(workbook) == sha(b"first")  # without a cache: read


def test_an_edit_keeping_size_and_mtime_is_seen_by_the_ctime(tmp_path):
    outputs, workbook = tmp_path / "outputs", tmp_path / "inputs" / "a.xlsx"
    before = known(outputs, workbook, b"first")
    after = edited_in_place(workbook, b"other", before)
    assert (after.st_size, after.st_mtime_ns, after.st_ino) == (before.st_size, before.st_mtime_ns, before.st_ino)
    assert FileHashes(outputs).digest(workbook) == sha(b"other")


def test_a_file_replaced_by_another_of_the_same_size_and_mtime(tmp_path):
    outputs, workbook = tmp_path / "outputs", tmp_path / "inputs" / "a.xlsx"
    before = known(outputs, workbook, b"first")
    other = tmp_path / "inputs" / "b.xlsx"
    other.write_bytes(b"other")
    os.utime(other, ns=(before.st_atime_ns, before.st_mtime_ns))
    os.replace(other, workbook)
    assert os.stat(workbook).st_ino != before.st_ino
    assert FileHashes(outputs).digest(workbook) == sha(b"other")


def forge(outputs: Path, path: Path, value: str, cache_mtime: int) -> None:
    """An entry of `path` with its stat now and another hash, in a cache whose mtime is
    `cache_mtime`: what a lookup returns tells whether the entry was trusted."""
    stat = os.stat(path)
    files = {str(path): [stat.st_size, stat.st_mtime_ns, stat.st_ino, stat.st_ctime_ns, value]}
    (outputs / FOLDER).mkdir(parents=True, exist_ok=True)
    (outputs / FOLDER / HASHES).write_text(json.dumps({"format": 1, "files": files}))
    os.utime(outputs / FOLDER / HASHES, ns=(cache_mtime, cache_mtime))


def test_an_entry_not_older_than_the_cache_is_racy(tmp_path):
    """git's rule: a file whose mtime is the cache file's (or later) may have been edited within the
    tick of the filesystem's clock the cache was written in, size, mtime and ctime alike: the entry
    is not trusted, however exactly the stat matches. One nanosecond older, it is."""
    outputs, workbook = tmp_path / "outputs", tmp_path / "inputs" / "a.xlsx"
    mtime = old_file(workbook, b"first").st_mtime_ns
    for cache_mtime in (mtime, mtime - 1):  # the same tick, the cache older than the file
        forge(outputs, workbook, "0" * 64, cache_mtime)
        hashes = FileHashes(outputs)
        assert hashes.digest(workbook) == sha(b"first")  # read again: a rule that trusted it returns the planted one
        assert hashes.folder(workbook.parent, skip_hidden=True) == {"a.xlsx": sha(b"first")}
    forge(outputs, workbook, "0" * 64, mtime + 1)
    assert FileHashes(outputs).digest(workbook) == "0" * 64  # older than the cache: trusted


def test_a_racy_entry_is_written_again_and_then_trusted(tmp_path):
    """A racy file, once hashed again, is recorded in a cache written anew (even when its entry is
    the same): the cache now newer than the file, the next build trusts the entry."""
    outputs, workbook = tmp_path / "outputs", tmp_path / "inputs" / "a.xlsx"
    mtime = old_file(workbook, b"first").st_mtime_ns
    forge(outputs, workbook, sha(b"first"), mtime)
    hashes = FileHashes(outputs)
    assert hashes.digest(workbook) == sha(b"first") and hashes.racy
    assert hashes.save() and os.stat(outputs / FOLDER / HASHES).st_mtime_ns > mtime
    plant(outputs, workbook, "0" * 64)
    assert FileHashes(outputs).digest(workbook) == "0" * 64


def test_recorded_gives_the_hash_by_the_stat_alone_or_nothing(tmp_path):
    """`recorded` (a file proven without reading it: render/cache.py `proven`) trusts what `digest`
    trusts and gives nothing where `digest` would read: an edit with another mtime, one whose mtime
    is put back (the ctime), an entry as recent as the cache (racy), a file gone."""
    outputs, page = tmp_path / "outputs", tmp_path / "outputs" / "grand-sud" / "a.html"
    before = known(outputs, page, b"first")
    plant(outputs, page, "0" * 64)
    assert FileHashes(outputs).recorded(page) == "0" * 64  # the entry trusted: the file not read
    edited_in_place(page, b"other", before)  # size and mtime put back, the ctime moved
    assert FileHashes(outputs).recorded(page) is None
    known(outputs, page, b"first")
    page.write_bytes(b"other")  # the same size, another mtime
    assert FileHashes(outputs).recorded(page) is None
    mtime = old_file(page, b"first").st_mtime_ns
    forge(outputs, page, sha(b"first"), mtime)
    hashes = FileHashes(outputs)
    assert hashes.recorded(page) is None and hashes.racy
    page.unlink()
    assert FileHashes(outputs).recorded(page) is None


def test_a_file_written_just_before_the_cache_is_trusted(tmp_path):
    """What a build wrote before it wrote the cache (its outputs, seconds before) is known by its
    stat on the next run: no fixed delay of seconds. An edit after the cache, in place and keeping
    its size, is seen: its mtime is then at least the cache's."""
    outputs, page = tmp_path / "outputs", tmp_path / "outputs" / "site" / "page.html"
    page.parent.mkdir(parents=True)
    page.write_bytes(b"first")
    hashes = FileHashes(outputs)
    assert hashes.digest(page) == sha(b"first")
    while os.stat(page).st_mtime_ns >= time.time_ns() - 5 * 10**7:  # written within a tick of the cache: racy
        time.sleep(0.01)
    assert hashes.save()
    plant(outputs, page, "0" * 64)
    assert FileHashes(outputs).digest(page) == "0" * 64  # trusted: not read again
    plant(outputs, page, sha(b"first"))
    with open(page, "r+b") as stream:  # the same inode, the same size
        stream.write(b"other")
    assert FileHashes(outputs).digest(page) == sha(b"other")


def test_a_file_this_build_hashed_is_not_read_again_until_its_stat_changes(tmp_path, monkeypatch):
    """One instance is one build: a file it hashed (for the build's key) is not read again when
    another walk meets it (an archived season's check, then its reading for the site), racy or not;
    edited since (its ctime moved), it is."""
    from reportgen.ingest import file_hashes

    outputs, workbook = tmp_path / "outputs", tmp_path / "archive" / "inputs" / "a.xlsx"
    mtime = old_file(workbook, b"first").st_mtime_ns
    forge(outputs, workbook, sha(b"first"), mtime)  # racy: not trusted from the cache
    read: list[str] = []
    digest = file_hashes.content_digest
    monkeypatch.setattr(file_hashes, "content_digest", lambda path: read.append(path) or digest(path))
    hashes = FileHashes(outputs)
    assert hashes.folder(workbook.parent, skip_hidden=True) == {"a.xlsx": sha(b"first")} and hashes.racy
    assert hashes.digest(workbook) == sha(b"first")
    assert hashes.folder(workbook.parent, skip_hidden=True, prefix="inputs/") == {"inputs/a.xlsx": sha(b"first")}
    assert read == [str(workbook)]
    edited_in_place(workbook, b"other", os.stat(workbook))
    assert hashes.digest(workbook) == sha(b"other") and len(read) == 2


def test_a_file_gone_is_forgotten_and_an_unchanged_cache_not_rewritten(tmp_path):
    outputs = tmp_path / "outputs"
    first, second = tmp_path / "in" / "a", tmp_path / "in" / "b"
    old_file(first, b"1")
    old_file(second, b"2")
    hashes = FileHashes(outputs)
    hashes.folder(tmp_path / "in", skip_hidden=False)
    hashes.save()
    written = os.stat(outputs / FOLDER / HASHES)
    again = FileHashes(outputs)
    again.folder(tmp_path / "in", skip_hidden=False)
    assert again.save() and os.stat(outputs / FOLDER / HASHES).st_mtime_ns == written.st_mtime_ns
    assert os.stat(outputs / FOLDER / HASHES).st_ino == written.st_ino  # not replaced
    second.unlink()
    last = FileHashes(outputs)
    last.folder(tmp_path / "in", skip_hidden=False)
    last.save()
    assert set(recorded(outputs)) == {str(first)}


def test_an_unreadable_or_foreign_cache_is_ignored(tmp_path):
    outputs, workbook = tmp_path / "outputs", tmp_path / "in" / "a"
    old_file(workbook, b"1")
    (outputs / FOLDER).mkdir(parents=True)
    for text in ('{"format": 1, "files": {"%s": [1, 2, "x", 4, "0"]}}' % workbook, "{", '{"format": 999, "files": {}}'):
        (outputs / FOLDER / HASHES).write_text(text)
        assert FileHashes(outputs).digest(workbook) == sha(b"1")


def test_the_walk_lists_what_rglob_listed(tmp_path):
    """Hidden and lock files aside when asked, compiled Python always; linked folders not followed,
    linked files followed; sorted as paths sort (« a/b » before « a-c »)."""
    root = tmp_path / "root"
    for name in ("a/b", "a-c", "a/.hidden", ".git/x", "~$lock.xlsx", "__pycache__/m.pyc", "m.pyc", "z/y/x"):
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_bytes(name.encode())
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "elsewhere" / "f").write_bytes(b"f")
    (root / "linked-folder").symlink_to(tmp_path / "elsewhere")
    (root / "linked-file").symlink_to(tmp_path / "elsewhere" / "f")
    (root / "dangling").symlink_to(tmp_path / "nothing")
    shown = [relative for relative, _, _ in folder_files(root, skip_hidden=True)]
    assert shown == ["a/b", "a-c", "linked-file", "z/y/x"]
    everything = [relative for relative, _, _ in folder_files(root, skip_hidden=False)]
    assert everything == [".git/x", "a/.hidden", "a/b", "a-c", "linked-file", "z/y/x", "~$lock.xlsx"]
    rglob = sorted(p for p in root.rglob("*") if p.is_file() and "__pycache__" not in p.parts and p.suffix != ".pyc")
    assert everything == [p.relative_to(root).as_posix() for p in rglob]


def test_a_link_to_nothing_is_listed_by_where_it_points(tmp_path):
    """Not a file, so no SHA-256; but present in `folder`'s answer, so that a key made of it changes
    when such a link appears, points elsewhere, or finds its file again."""
    root = tmp_path / "root"
    root.mkdir()
    (root / "a.xlsx").write_bytes(b"a")
    (root / "gone.xlsx").symlink_to(tmp_path / "nothing.xlsx")
    found = FileHashes(None).folder(root, skip_hidden=True)
    assert found == {"a.xlsx": hashlib.sha256(b"a").hexdigest(), "gone.xlsx": f"-> {tmp_path}/nothing.xlsx"}
    (tmp_path / "nothing.xlsx").write_bytes(b"back")
    assert FileHashes(None).folder(root, skip_hidden=True)["gone.xlsx"] == hashlib.sha256(b"back").hexdigest()
