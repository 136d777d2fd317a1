"""A circuit's manifest is typed (render/manifest.py): read back and written again, the same bytes."""

import pytest

from reportgen.render.index import MANIFEST
from reportgen.render.manifest import Manifest


def test_a_published_manifest_reads_back_to_the_same_bytes(small_league_built):
    published = sorted(small_league_built.outputs.glob(f"*/{MANIFEST}"))
    assert published
    for path in published:
        data = path.read_bytes()
        manifest = Manifest.from_json(data)
        assert manifest.documents and manifest.pdfs and manifest.sources is not None
        assert all(annex.sha256 for annex in manifest.annexes)
        assert manifest.to_json() == data
        # each dated bulletin names the tournaments it reports on (their site pages link it)
        assert any(document.events for document in manifest.documents)


def test_a_manifest_written_before_documents_named_their_tournaments_reads_as_naming_none():
    data = (b'{"circuit": "x", "title": "", "regulation": "", "annexes": [], '
            b'"documents": [{"season": 2026, "date": "2026-03-14", "title": "T", "path": "2026/t", "csv": true}]}')
    assert Manifest.from_json(data).documents[0].events == []


def test_what_is_not_a_manifest_of_ours_is_refused():
    for data in (b"{}", b"[]", b'{"circuit": "x", "title": "", "regulation": "", "documents": [1], "annexes": []}'):
        with pytest.raises(ValueError):
            Manifest.from_json(data)
