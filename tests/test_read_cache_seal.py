"""The read cache sealed once the league is loaded (ingest/read_cache.py `seal`): the cells are no
longer held as Python objects, and `save` writes the very file it wrote without the seal."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from reportgen.ingest.read_cache import ReadCache
from reportgen.ingest.workbook import Sheet

SHEETS = [Sheet("Tournoi", [["Date", dt.date(2026, 3, 14)], ["Joueurs", 1086]], False, set(), ())]


def saved(outputs: Path, sealed: bool) -> bytes:
    cache = ReadCache(outputs, "code")
    cache.put("a" * 64, 10, SHEETS)
    if sealed:
        cache.seal()
        assert cache.used == {} and cache.known == {}
    assert cache.save()
    assert cache.path is not None
    return cache.path.read_bytes()


def test_a_sealed_cache_saves_the_same_file(tmp_path):
    assert saved(tmp_path / "one", sealed=True) == saved(tmp_path / "two", sealed=False)


def test_a_sealed_cache_unchanged_since_loaded_writes_nothing_and_reads_back(tmp_path):
    saved(tmp_path, sealed=True)
    path = tmp_path / ".reportgen" / "reads"
    before = path.stat().st_mtime_ns
    again = ReadCache(tmp_path, "code")
    assert again.get("a" * 64) == (10, SHEETS)
    again.seal()
    assert again.save() and path.stat().st_mtime_ns == before
    assert ReadCache(tmp_path, "code").get("a" * 64) == (10, SHEETS)
