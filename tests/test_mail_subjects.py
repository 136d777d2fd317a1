"""A subject reads back as it was written, whatever its length and accents: Python 3.11's folding
(policy.default) cut a long subject between two encoded words and left the space between them
outside both, where every reader drops it (« forfait d’IMBERTInès », « de Sète(classeur corrigé) »).
So did a long sender's name with accents (`[mail] sender`): cut inside a word into two encoded words,
which Python's parser reads with a space (« Occitanie-Pyrénées-Médit erranée »), and a space
between two encoded words is read by RFC 2047 readers as no space. Each message is read back as a
mail program reads it, with the standard library's parser, and by a real reader (Dovecot)."""

from __future__ import annotations

import datetime as dt
import email
import re
from email.headerregistry import Address
from email.policy import default

from hypothesis import example, given
from hypothesis import strategies as st

from reportgen.model import Message
from reportgen.render import mail as mail_render

# Letters of French names and subjects, and the signs reportgen's subjects use.
LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789àâäçéèêëîïôöùûüÿœæÀÂÇÉÈÊÎÔÙÛŒ’'«»—–…(),.:;!?-"
WORDS = st.lists(st.text(LETTERS, min_size=1, max_size=24), min_size=1, max_size=40).map(" ".join)
ENCODED_WORD = re.compile(r"=\?[^?\s]+\?[qQbB]\?[^?\s]*\?=")


def draft(subject: str) -> Message:
    return Message("mail/x", ("contact@example.org",), subject, "Bonjour,\n", dt.date(2026, 11, 7))


def header_lines(data: bytes) -> list[str]:
    return data.split(b"\n\n", 1)[0].decode("ascii").splitlines()


def read_back(data: bytes) -> str:
    return str(email.message_from_bytes(data, policy=default)["Subject"])


@given(WORDS)
@example("Coupe de la Toussaint en ligne : forfait d’IMBERT Inès")
@example("Re: Résultats Open d’été de Sète (classeur corrigé)")
@example("Rappel : résultats du Tournoi d’automne de Perpignan du 7 novembre 2026, à Perpignan-Méditerranée")
def test_a_subject_reads_back_as_written_draft_and_sent(subject):
    for data in (mail_render.to_eml(draft(subject), "Ligue <ligue@example.org>"),
                 mail_render.to_message(draft(subject)).as_bytes(policy=mail_render.SMTP).replace(b"\r\n", b"\n")):
        assert read_back(data) == subject
        lines = header_lines(data)
        # within RFC 5322's 78 columns, each encoded word within RFC 2047's 75 characters
        assert all(len(line) <= 78 for line in lines)
        assert all(len(word) <= 75 for line in lines for word in ENCODED_WORD.findall(line))


def test_the_forfeit_of_imbert_ines_in_the_example_league(example_scored):
    """The example league's pool notice that read « forfait d’IMBERTInès », and every other message
    of the league: each subject as written."""
    messages = [m for report in example_scored.reports.values() for m in report.messages]
    notice = next(m for m in messages if m.path.endswith("avis/tour-1/forfait-imbert-ines-auger-anais"))
    assert read_back(mail_render.to_eml(notice)) == "Coupe de la Toussaint en ligne : forfait d’IMBERT Inès"
    assert [read_back(mail_render.to_eml(m)) for m in messages] == [m.subject for m in messages]


def test_dovecot_takes_the_message_and_reads_its_subject_as_written():
    """A real reader, Dovecot's IMAP (tests/dovecot.py): the draft appended as it is, its subject found
    by its words across the encoded words' fold (the old folding's « d’IMBERTInès » was not)."""
    from tests import dovecot

    server = dovecot.start()
    try:
        server.append(mail_render.to_message(draft("Coupe de la Toussaint en ligne : forfait d’IMBERT Inès")))
        imap = server.client()
        imap.select("INBOX")
        imap.literal = "IMBERT Inès".encode()
        assert imap.uid("SEARCH", "CHARSET", "UTF-8", "SUBJECT") == ("OK", [b"1"])
        imap.logout()
    finally:
        dovecot.stop(server)


# A name from reportgen.toml as a league types it, the brief's, and one that needs quoting.
LONG_NAME = "Ligue régionale Occitanie-Pyrénées-Méditerranée des clubs de jeux — secrétariat général"
NAMES = st.lists(st.text(LETTERS.replace("’", ""), min_size=1, max_size=24), min_size=1, max_size=12).map(" ".join)


def read_sender(data: bytes) -> tuple[str, str]:
    [address] = email.message_from_bytes(data, policy=default)["From"].addresses
    return address.display_name, address.addr_spec


@given(NAMES)
@example(LONG_NAME)
@example("Fédération française des échecs électroniques à éliminations européennes étendues")
@example("Secrétariat général de la Ligue régionale d’Occitanie — Pyrénées — Méditerranée, échecs et jeux")
def test_a_sender_s_name_reads_back_as_written_draft_and_sent(name):
    sender = str(Address(name, addr_spec="secretariat@example.org"))  # « Nom <adresse> », quoted if need be
    message = mail_render.to_message(draft("Rappel"), sender)
    message["Reply-To"] = sender  # any address header is written alike
    for data in (message.as_bytes(), message.as_bytes(policy=mail_render.SMTP)):
        assert read_sender(data) == (name, "secretariat@example.org")
        [reply_to] = email.message_from_bytes(data, policy=default)["Reply-To"].addresses
        assert reply_to.display_name == name
        # no two encoded words side by side: RFC 2047 readers would drop the space between them
        assert not re.search(r"\?=\s+=\?", data.split(b"\n\n", 1)[0].decode("ascii").replace("\r", ""))


def test_dovecot_reads_a_long_sender_s_name_as_written():
    """A real RFC 2047 reader (Dovecot's IMAP) takes the name's long encoded words (over 75
    characters where a run of accented words needs it) and finds it by its words across them."""
    from tests import dovecot

    server = dovecot.start()
    try:
        server.append(mail_render.to_message(draft("Rappel"), f"{LONG_NAME} <secretariat@example.org>"))
        imap = server.client()
        imap.select("INBOX")
        for words in ("Occitanie-Pyrénées-Méditerranée des clubs", "jeux — secrétariat général"):
            imap.literal = words.encode()
            assert imap.uid("SEARCH", "CHARSET", "UTF-8", "FROM") == ("OK", [b"1"]), words
        imap.logout()
    finally:
        dovecot.stop(server)
