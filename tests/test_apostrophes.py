"""The typographic apostrophe (’, U+2019) in reportgen's own French words, as French typography
writes it: the templates' text (the site's pages, the bulletins, the mails) never elides with the
straight one (« l’arbitre », « n’a », never « l'arbitre »); nor do the command line's messages and
help, the problems' messages and fixes, the e-mails' words, the blank workbooks' help (every French
string of reportgen's code). A name from a workbook is data and keeps the apostrophe it was typed
with (« Tournoi d'Albi », « D'ARTAGNAN »): nothing rewrites it."""

from __future__ import annotations

import ast
import io
import re
import tokenize
from pathlib import Path

from jinja2 import Environment

from reportgen.render.html import TEMPLATES

# A French elision with the straight apostrophe: « l'a », « d'un », « qu'il », « S'abonner ».
STRAIGHT = re.compile(r"(?<![\w'’])(?:[cdjlmnst]|qu|jusqu|lorsqu|puisqu)'(?=\w)", re.IGNORECASE)
# What a template writes that no reader reads as words: its comments, a stylesheet's or script's
# text, a tag and its attributes (a class, an URL, a script's string).
UNREAD = re.compile(r"\{#.*?#\}|<(style|script)\b.*?</\1>|/\*.*?\*/|<[^>]*>", re.S)


def straight_elisions(text: str) -> list[str]:
    """Each straight elision of the words of `text` (an HTML template's or page's), with its context."""
    words = UNREAD.sub(" ", text)
    return [words[max(0, m.start() - 15):m.end() + 8] for m in STRAIGHT.finditer(words)]


def test_no_template_elides_with_a_straight_apostrophe():
    lexer = Environment(trim_blocks=True, lstrip_blocks=True)
    found = {}
    for path in sorted(Path(TEMPLATES).rglob("*.j2")):
        source = path.read_text(encoding="utf-8")
        # its text and its expressions' string literals (« {{ "l'un" if … }} » is read too)
        words = "\n".join(value for _, kind, value in lexer.lex(UNREAD.sub(" ", source)) if kind in ("data", "string"))
        if elisions := straight_elisions(words):
            found[str(path.relative_to(TEMPLATES))] = elisions
    assert not found, found


# A straight apostrophe between two letters, in a text that is French throughout (« aujourd'hui »).
BETWEEN_LETTERS = re.compile(r"(?<=[^\W\d_])'(?=[^\W\d_])")
PACKAGE = Path(__file__).resolve().parents[1] / "reportgen"
# Strings of the code that are what clubs type, not reportgen's words: matched as typed.
TYPED = {
    "Date d'inscription", "Date et heure d'inscription",  # poules: a registration column's spellings
    "s'est désisté", "s'est désistée",  # masters: a withdrawal's reason as typed
    "Open d'été",  # the blank calendar's example row: a tournament's name, as a club types it
}


def test_no_problem_s_message_or_fix_has_a_straight_apostrophe():
    from reportgen import circuits, problems

    circuits.CIRCUITS  # every circuit's module loaded, with the kinds it may declare  # noqa: B018
    texts = {f"{kind.code} {part}": text for kind in problems.KINDS.values()
             for part, text in [("message", kind.message), ("fix", kind.fix),
                                *((name, value) for name, value in kind.defaults.items() if isinstance(value, str))]}
    assert len(texts) > 100
    assert {where: text for where, text in texts.items() if BETWEEN_LETTERS.search(text)} == {}


def test_no_command_s_help_has_a_straight_apostrophe():
    """Typer's help of every command and option, as `reportgen … --help` prints it."""
    import typer

    from reportgen.cli import app

    def helps(command, path):
        yield " ".join(path), command.help or ""
        for param in command.params:
            yield f"{' '.join(path)} {param.name}", getattr(param, "help", None) or ""
        for name, sub in getattr(command, "commands", {}).items():
            yield from helps(sub, [*path, name])

    found = dict(helps(typer.main.get_command(app), ["reportgen"]))
    assert len(found) > 60 and "reportgen history" in found
    assert {where: text for where, text in found.items() if BETWEEN_LETTERS.search(text)} == {}


def french_strings(path: Path):
    """Each string literal of a module that a user may read: all but docstrings, which are English,
    except a command's (its help); with its line."""
    source = path.read_text(encoding="utf-8")
    tree = ast.parse(source)
    docstrings = {(node.lineno, node.col_offset) for node in ast.walk(tree) if isinstance(node, ast.Expr)
                  and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str)}
    commands = {(node.body[0].lineno, node.body[0].col_offset) for node in ast.walk(tree)
                if isinstance(node, ast.FunctionDef) and "typer" in source and node.body}
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.STRING and (token.start not in docstrings or token.start in commands):
            yield token.start[0], token.string


def test_no_french_string_of_the_code_elides_with_a_straight_apostrophe():
    """The command line mixed « n’existe pas » and « n'a pas de classement Elo » in its messages: every
    string of the code that elides, but the few that match what clubs type."""
    found = [f"{path.relative_to(PACKAGE)}:{line}: {elisions}" for path in sorted(PACKAGE.rglob("*.py"))
             for line, text in french_strings(path)
             if (elisions := straight_elisions(text) + re.findall(r"\w*aujourd'hui", text))
             and not any(typed in text for typed in TYPED)]
    assert found == []


def test_the_check_finds_a_straight_elision_in_words_only():
    assert straight_elisions("<p>Aucun document n'a été corrigé</p>") == ["Aucun document n'a été co"]
    assert len(straight_elisions("n'a, qu'il, l'un, S'abonner, jusqu'au")) == 5
    # English possessives, a class, an URL, a comment and a stylesheet are not French words
    assert not straight_elisions("""{# the site's page #}<a class="x" href="l'a.html" title='d'>l’un</a>"""
                                 "<style>/* a bulletin's note */ p::before { content: 'l'; }</style>")


def test_the_answers_to_the_clubs_elide_with_the_typographic_apostrophe_and_keep_names_as_typed(tmp_path):
    """What a club reads of `reportgen inbox` (its workbook filed, filed while its circuit waits,
    held as another club's tournament, refused with its problems, the same refused or held again, sent
    again unchanged; with warnings, what is still to complete)
    and of `reportgen remind`: the words reportgen writes around the names elide with ’; a name from
    a workbook or a subject keeps the apostrophe it was typed with."""
    import datetime as dt

    from reportgen.delivery.inbox_answers import Received, compose
    from reportgen.delivery.inbox_filing import Filed, Owner, Replaced, Said
    from reportgen.ingest.directories import Club, ClubDirectory
    from reportgen.problems import UPSTREAM
    from tests.test_mail_typography import reminder_bodies

    typed = "Tournoi d'Albi"
    albi = Club("ALBI", "Albi", "81", ("contact@albi.example.org",))
    clubs = ClubDirectory([albi, Club("AUCH", "Auch", "32", ())])
    waits = Said(None, None, None, "en attente", "", UPSTREAM.code)
    problem = Said("Résultats", "A6", "Place", "« x » n’est pas une place", "écrivez un nombre", "bad")
    warning = Said("Résultats", "C3", "Prénom", "le prénom de DUPONT est vide", "tapez son prénom", "empty-first-name",
                   "warning")
    filed = [Filed("a.xlsx", "0", "accepted", "grand-sud", typed, "2026-11-14", "p", (Replaced("old", "kept"),),
                   problems=(warning,)),
             Filed("m.xlsx", "1", "accepted", "masters", typed, "2026-11-28", "p", problems=(waits, warning)),
             Filed("d.xlsx", "2", "held", "grand-sud", typed, "2026-11-21", "p", (Replaced("old", ""),),
                   problems=(warning,), owners=(Owner("ALBI", "Albi"), Owner("AUCH", "Auch"))),
             Filed("b.xlsx", "3", "refused", "grand-sud", "", "", "p", problems=(problem, warning)),
             Filed("s.xlsx", "6", "same", "grand-sud", typed, "2026-11-14", "p", problems=(warning,),
                   known_since="2026-11-30"),
             Filed("c.xlsx", "4", "refused", "grand-sud", "", "", "p", problems=(problem,), known_since="2026-11-30"),
             Filed("e.xlsx", "5", "held", "grand-sud", typed, "2026-11-21", "p", owners=(Owner("AUCH", "Auch"),),
                   known_since="2026-11-30")]
    draft = compose(Received("contact@albi.example.org", typed, "<a@b>", "", dt.date(2026, 12, 5)), albi, filed,
                    "Ligue", clubs, "mail/inbox/x", "k").draft
    bodies = {"answer text": draft.text, "answer HTML": draft.html or "",
              **{f"reminder {n}": body for n, body in enumerate(reminder_bodies(tmp_path))}}
    assert {kind: straight_elisions(body.replace(typed, "").replace(typed.replace("'", "&#39;"), ""))
            for kind, body in bodies.items()} == {kind: [] for kind in bodies}
    assert typed in draft.text and "du club d’Albi et du club d’Auch" in draft.text
    assert "qu’il soit complet" in draft.text and "n’empêcherait" in draft.text and "l’avez déjà complété" in draft.text


def test_an_inbox_line_never_mixes_two_apostrophes():
    """`reportgen inbox` says each message in one line: a workbook filed in place of another, one
    held as another club's tournament (« du club d’Albi »), the same held again, a sender unknown.
    Its own words elide with ’ as the quoted clubs do; a subject keeps the apostrophe it was typed
    with."""
    from reportgen.delivery.inbox_filing import Filed, Owner, Replaced
    from reportgen.delivery.inbox_run import Handled, MessageStatus, describe

    typed = "Tournoi d'Albi"
    files = [Filed("a.xlsx", "0", "accepted", "grand-sud", typed, "2026-11-14", "p", (Replaced("old", "kept"),)),
             Filed("d.xlsx", "2", "held", "grand-sud", typed, "2026-11-21", "p", (Replaced("old", ""),),
                   owners=(Owner("ALBI", "Albi"), Owner("AUCH", "Auch"))),
             Filed("e.xlsx", "5", "held", "grand-sud", typed, "2026-11-21", "p", owners=(Owner("ALBI", "Albi"),),
                   known_since="2026-11-30")]
    folders = (Path("inputs"), Path("outputs"), Path("archive"))
    lines = [describe(Handled(1, "contact@albi.example.org", typed, "Albi", MessageStatus.DONE, files=files, sent="sent"),
                      *folders),
             describe(Handled(2, "x@example.org", typed, "", MessageStatus.LEFT, why="unknown-sender"), *folders)]
    assert "d’Albi" in lines[0] and "l’archive" in lines[0] and "déjà mis de côté" in lines[0]
    assert [straight_elisions(line.replace(typed, "")) for line in lines] == [[], []]
