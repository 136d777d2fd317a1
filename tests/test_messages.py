"""E-mail drafts a circuit writes (the pool tournament's notices): real .eml files, read back."""

import datetime as dt
from email import message_from_bytes, policy

from reportgen.model import Message, Report
from reportgen.pipeline import publish, render_report

NOTICE = Message("2026/avis/poule-3", ("anne@example.org", "paul@example.org"),
                 "Tournoi en ligne : vous êtes qualifiée pour le tour 2", "Bonjour Anne,\nVotre poule : n° 3.\n",
                 dt.date(2026, 3, 14))


def test_a_report_message_is_published_as_an_eml_draft_that_reads_back(tmp_path):
    files, pending = render_report("grand-sud", Report(messages=[NOTICE]), tmp_path / "grand-sud")
    publish(files, tmp_path / "grand-sud")
    raw = (tmp_path / "grand-sud" / "2026" / "avis" / "poule-3.eml").read_bytes()
    assert raw.isascii() and b"=?utf-8?" in raw  # the French subject encoded as RFC 2047 says
    draft = message_from_bytes(raw, policy=policy.default)
    assert draft["Subject"] == NOTICE.subject
    assert draft["To"] == "anne@example.org, paul@example.org"
    assert draft["Date"].datetime.date() == dt.date(2026, 3, 14)
    assert draft.get_content() == NOTICE.text and pending == []


def test_the_same_message_gives_the_same_bytes(tmp_path):
    one, _ = render_report("grand-sud", Report(messages=[NOTICE]), tmp_path)
    two, _ = render_report("grand-sud", Report(messages=[NOTICE]), tmp_path)
    assert one == two
