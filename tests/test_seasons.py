"""A season's final bulletin is made once the season is closed: its year is over, or the secretary
closed it (`reportgen season close`, recorded in inputs/saisons.toml); until then its latest dated
bulletin is its ranking « à date » (issue 27)."""

import datetime as dt
import shutil
import subprocess
import sys
from pathlib import Path

from reportgen import clock
from reportgen.ingest.seasons import SEASONS_FILE, read_closed, seasons_toml
from reportgen.pipeline import load, score
from tests.builders import TODAY, write_tournament, write_workbook
from tests.conftest import EXAMPLE_INPUTS

REPORTGEN = str(Path(sys.executable).parent / "reportgen")


def final_titles(inputs) -> dict[int, str]:
    report = score(load(inputs, TODAY), ["grand-sud"]).reports["grand-sud"]
    return {d.season: d.title for d in report.documents if "final" in d.path}


def test_a_season_whose_year_is_over_is_closed_and_the_current_one_has_no_final_bulletin(small_league_copy):
    assert final_titles(small_league_copy.inputs) == {2025: "Classement final de la saison 2025"}


def test_closing_a_season_records_its_date_and_makes_its_ranking_final(small_league_copy):
    inputs = small_league_copy.inputs
    done = subprocess.run([REPORTGEN, "season", "close", "2026", "--date", "20/11/2026", "--inputs", str(inputs)],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert "saison 2026 close le 20 novembre 2026" in done.stderr
    assert "2026 = 2026-11-20" in (inputs / "saisons.toml").read_text()
    assert final_titles(inputs)[2026] == "Classement final de la saison 2026"
    again = subprocess.run([REPORTGEN, "season", "close", "2026", "--inputs", str(inputs)], capture_output=True, text=True)
    assert "déjà close depuis le 20 novembre 2026" in again.stderr  # the first date stands


def test_a_damaged_seasons_file_is_a_located_problem(small_league_copy):
    inputs = small_league_copy.inputs
    (inputs / "saisons.toml").write_text("[closed]\n2026 = \"bientôt\"\n", encoding="utf-8")
    problems = [str(p) for p in load(inputs, TODAY).all_problems()]
    # the line as she typed it, quotes and all: « 2026 = bientôt » read as right what was wrong of a date
    assert problems == ["saisons.toml, table [closed], réglage « 2026 » : « 2026 = \"bientôt\" » n’est pas une saison close (année = date) — "
                        "écrivez par exemple 2026 = 2026-12-15"]
    (inputs / "saisons.toml").write_text("[closed]\n2026 = \"2026-12-15\"\n", encoding="utf-8")
    assert [p.message for p in load(inputs, TODAY).all_problems()] == [
        "« 2026 = \"2026-12-15\" » n’est pas une saison close (année = date)"]


def test_a_season_written_outside_the_closed_table_is_said_not_read(small_league_copy):
    """A line above [closed], or a table of another name, was read as nothing: the season she meant to
    close stayed open without a word (and « closed = 5 » was a traceback)."""
    inputs = small_league_copy.inputs
    seasons = inputs / "saisons.toml"
    seasons.write_text("2026 = 2026-11-20\n[closed]\n2024 = 2024-12-01\n[saisons]\n2025 = 2025-12-01\n", encoding="utf-8")
    problems: list = []
    assert read_closed(inputs, problems) == {2024: dt.date(2024, 12, 1)}
    assert [str(p) for p in problems] == [
        "saisons.toml, réglage « 2026 » : « 2026 = 2026-11-20 » est écrit hors de la table [closed] : il n’est pas lu — "
        "écrivez-le sous la ligne [closed]",
        "saisons.toml, table [saisons] : la table [saisons] n’est pas lue : seule [closed] l’est — sous [closed], chaque "
        "saison close s’écrit sur sa ligne année = date, comme 2026 = 2026-12-15 (supprimer une ligne rouvre sa saison)"]
    seasons.write_text("closed = 5\n", encoding="utf-8")
    problems = []
    assert read_closed(inputs, problems) == {}
    assert [p.message for p in problems] == ["« closed = 5 » n’est pas la table [closed] des saisons closes"]


def test_a_build_held_by_a_damaged_seasons_file_names_it_in_its_lines(small_league_copy):
    """Each circuit's line said « des classeurs sont à corriger », sending the secretary to look for a
    workbook, while saisons.toml (a settings file, as reportgen.toml) held them all."""
    from reportgen.model import Messages
    from reportgen.pipeline import build

    inputs, outputs = small_league_copy.inputs, small_league_copy.outputs
    (inputs / "saisons.toml").write_text("[closed]\n2026 = \"bientôt\"\n", encoding="utf-8")
    told: list[str] = []
    result = build(inputs, outputs, TODAY, progress=Messages(told.append))
    assert result.blocked and not result.published
    assert "grand-sud : saisons.toml est à corriger, rien de nouveau n’est publié" in told, told


def test_closing_a_season_not_begun_or_in_a_folder_that_is_not_there_writes_nothing(tmp_path):
    """A year mistyped (2062 for 2026) once closed nothing the secretary meant, silently; a mistyped
    --inputs was created to hold a saisons.toml nobody reads."""

    def close(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([REPORTGEN, "season", "close", *args], capture_output=True, text=True)

    inputs = tmp_path / "inputs"
    missing = close("2026", "--inputs", str(inputs))
    # a mistyped --inputs (README: exit 2), said as every command says it
    assert (missing.returncode, missing.stderr) == (
        2, f"le dossier des classeurs {inputs} n’existe pas — indiquez le bon dossier avec --inputs\n")
    assert not inputs.exists()
    inputs.mkdir()
    year = clock.today().year
    ahead = close(str(year + 36), "--inputs", str(inputs))
    # A mistyped command (README: exit 2), not workbooks to correct: that line alone.
    assert ahead.returncode == 2 and len(ahead.stderr.splitlines()) == 1
    assert f"la saison {year + 36} ne peut pas être close" in ahead.stderr
    assert f"reportgen season close {year}" in ahead.stderr
    before = close("2026", "--date", "31/12/2025", "--inputs", str(inputs))
    assert before.returncode == 2 and "elle n’a pas commencé" in before.stderr
    assert not (inputs / "saisons.toml").exists()


def test_closing_a_past_season_the_league_has_no_tournament_of_is_a_mistyped_command(small_league_copy, tmp_path):
    """A past year without a tournament (2019 for 2025) was closed, silently: a season of nothing.
    It names no season of the league (README: exit 2), in inputs/ or in the archive, as `archive
    --season` says of it; one whose workbooks left inputs/ for the archive is one."""
    from reportgen.delivery import archive as archiving

    inputs, archive = small_league_copy.inputs, tmp_path / "archive"

    def close(season: str) -> subprocess.CompletedProcess:
        return subprocess.run([REPORTGEN, "season", "close", season, "--date", "10/01/2026", "--inputs", str(inputs),
                               "--archive", str(archive)], capture_output=True, text=True)

    refused = close("2019")
    assert (refused.returncode, refused.stdout) == (2, "")
    assert refused.stderr.splitlines() == [f"la saison 2019 n’a aucun tournoi dans {inputs} ni dans l’archive ; "
                                           "saisons : 2025, 2026"]
    assert not (inputs / "saisons.toml").exists()
    archiving.archive_season(inputs, small_league_copy.outputs, archive, 2025, today=TODAY)
    (inputs / "2025-06-01-albi.xlsx").unlink()  # the 2025 workbooks leave inputs/ once archived
    assert close("2019").stderr.splitlines()[-1].endswith("; saisons : 2025, 2026")
    done = close("2025")
    assert done.returncode == 0, done.stderr
    assert "2025 = 2026-01-10" in (inputs / "saisons.toml").read_text()


def test_closing_a_season_whose_year_is_over_says_its_final_ranking_is_already_out(small_league_copy, monkeypatch):
    """A season is closed once its year is over: closing 2025 in December 2026 changes nothing the
    build makes, yet the command said « lancez make pour republier son classement final »."""
    from tests.test_delivery_mail import cli

    monkeypatch.setenv(clock.VARIABLE, "2026-12-06")
    inputs = small_league_copy.inputs
    done = cli("season", "close", "2025", "--inputs", str(inputs), "--archive", str(inputs.parent / "archive"))
    assert done.returncode == 0, done.stderr
    assert done.stderr.splitlines() == [
        "la saison 2025 est terminée depuis la fin de son année (31 décembre 2025) : « make » en publie déjà le "
        f"classement final, rien de plus à faire (clôture notée dans {inputs / 'saisons.toml'})"]
    assert "2025 = 2026-12-06" in (inputs / "saisons.toml").read_text()
    # This year's season: its final bulletin comes with the next build.
    done = cli("season", "close", "2026", "--inputs", str(inputs), "--archive", str(inputs.parent / "archive"))
    assert done.stderr.splitlines() == [f"saison 2026 close le 6 décembre 2026 ({inputs / 'saisons.toml'}) ; lancez "
                                        "« make » pour publier son classement final"]


def close(inputs: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([REPORTGEN, "season", "close", *args, "--inputs", str(inputs)], capture_output=True,
                          text=True)


def test_closing_a_season_before_tournaments_already_in_inputs_is_refused_and_names_them(tmp_path):
    """The example league closed on 1 June 2026 said « saison 2026 close le 1er juin 2026 », six
    Grand Sud tournaments of 2026 dated later in inputs/: the ranking published as final counted
    them (Grand Sud §1, « le classement final ne prend en compte que les points obtenus dans les
    tournois de l’année N »: the year's, whatever the closing day), and changed after it was called
    final. The closing day is mistyped (README: exit 2), not the workbooks: refused, nothing written,
    each later tournament named, then the fix. The Masters (28 November) is no tournament of that
    ranking: it is played on it, so a season closed before it is the usual order."""
    inputs = shutil.copytree(EXAMPLE_INPUTS, tmp_path / "inputs")
    refused = close(inputs, "2026", "--date", "01/06/2026")
    assert (refused.returncode, refused.stdout) == (2, "")
    assert refused.stderr.splitlines() == [
        "la saison 2026 ne peut pas être close le 1er juin 2026 : 6 tournois de la saison sont datés plus tard, "
        "et son classement final les compte :",
        "  - 2026/2026-06-13-rodez.xlsx : Tournoi de Rodez, 13 juin 2026",
        "  - 2026/2026-06-27-foix.xlsx : Tournoi de Foix, 27 juin 2026",
        "  - 2026/2026-09-19-nimes.xlsx : Tournoi de Nîmes, 19 septembre 2026",
        "  - 2026/2026-10-10-tarbes.xlsx : Tournoi de Tarbes, 10 octobre 2026",
        "  - 2026/2026-10-24-toulouse.xlsx : Open d'automne de Toulouse, 24 octobre 2026",
        "  - 2026/2026-11-14-auch.xlsx : Tournoi d'Auch, 14 novembre 2026",
        "clôturez-la le 14 novembre 2026 ou après (« reportgen season close 2026 --date 14/11/2026 ») ; si l’un "
        "de ces classeurs n’est pas de la saison 2026, corrigez la date de sa feuille « Tournoi »"]
    assert not (inputs / SEASONS_FILE).exists()
    done = close(inputs, "2026", "--date", "20/11/2026")  # after the last Grand Sud tournament, before the Masters
    assert done.returncode == 0, done.stderr
    assert read_closed(inputs, []) == {2026: dt.date(2026, 11, 20)}


def test_closing_a_season_names_the_tournaments_the_calendar_still_awaits(tmp_path):
    """The example league with a calendar announcing a Grand Sud tournament of 3 October whose
    workbook never came was closed with « saison 2026 close » alone: its final bulletin then said
    « Classement final » over « provisoire : résultats de Montpellier du 3 octobre attendus », and
    a tournament announced after the closing day would be refused once its workbook came. The
    closing names each (a cancelled one may stay in the calendar: said, not refused), and what to do."""
    inputs = shutil.copytree(EXAMPLE_INPUTS, tmp_path / "inputs")
    write_workbook(inputs / "calendrier.xlsx", {"Calendrier": [
        ["Date", "Circuit", "Club", "Nom", "Lieu"],
        [dt.datetime(2026, 10, 3), "grand-sud", "MTPL", "Tournoi d’automne", "Montpellier"],
        [dt.datetime(2026, 12, 5), "grand-sud", "FOIX", "", "Foix"],
        [dt.datetime(2026, 12, 12), "tantrix", "", "Coupe de Noël", ""],  # no season ranking to make final
        [dt.datetime(2027, 1, 23), "grand-sud", "CARC", "Tournoi d’hiver", "Carcassonne"]]})  # the next season's
    done = close(inputs, "2026", "--date", "20/11/2026")
    assert done.returncode == 0, done.stderr
    assert done.stderr.splitlines()[1:] == [
        "attention : calendrier.xlsx annonce 2 tournois de la saison 2026 dont le classeur n’est pas arrivé ; son "
        "classement final les dira non reçus :",
        "  - Tournoi d’automne, 3 octobre 2026 (Classement régional Grand Sud)",  # its name as typed
        "  - Tournoi de Foix, 5 décembre 2026 (Classement régional Grand Sud) : après la clôture, son classeur serait "
        "refusé",
        "s’ils ont été annulés, retirez-les de calendrier.xlsx ; sinon rouvrez la saison (« reportgen season open "
        "2026 ») et clôturez-la une fois leurs classeurs reçus"]
    assert read_closed(inputs, []) == {2026: dt.date(2026, 11, 20)}


def test_a_tournament_dated_after_its_season_was_closed_is_a_located_problem(small_league_copy):
    """A club's workbook that comes once its season is closed, dated after the closing day, was
    counted in silence: the ranking published as final changed. Now a problem at its date (blocking:
    the Grand Sud publishes nothing new, its final ranking stays as published), saying since when the
    season is closed and how to open it again (`reportgen season open`)."""
    inputs = small_league_copy.inputs
    on_the_last_day = close(inputs, "2026", "--date", "07/02/2026")  # the day of its last tournament: allowed
    assert on_the_last_day.returncode == 0, on_the_last_day.stderr
    write_tournament(inputs, "2026-03-14-perpignan", day="14/03/2026", club="PERP")
    said = ("2026-03-14-perpignan.xlsx, feuille « Tournoi », cellule B3 (champ « Date ») : la saison 2026 est close depuis le "
            "7 février 2026 : ce tournoi du 14 mars 2026 changerait son classement final — si sa date est fausse, "
            "corrigez-la ; sinon, pour qu’il compte, rouvrez la saison (« reportgen season open 2026 », puis « make ») "
            "et clôturez-la de nouveau une fois tous ses tournois reçus")
    assert [str(p) for p in load(inputs, TODAY).all_problems()] == [said]
    checked = subprocess.run([REPORTGEN, "check", "--inputs", str(inputs), "--outputs", str(small_league_copy.outputs)],
                             capture_output=True, text=True)
    assert checked.returncode == 1 and f"  - {said}" in checked.stderr.splitlines(), checked.stderr
    # opened again as the fix says: counted, no problem
    assert reopen(inputs, "2026").returncode == 0
    assert load(inputs, TODAY).all_problems() == []


def test_the_seasons_file_speaks_french_to_the_secretary_and_reads_back(tmp_path):
    """The secretary reads inputs/saisons.toml: its comment was English (« # Written by `reportgen
    season close`… »). French, saying how to open a season again (the command, since there is one:
    it told her to delete the line); the file reads back as written."""
    closed = {2025: dt.date(2025, 12, 20), 2026: dt.date(2026, 11, 20)}
    (tmp_path / SEASONS_FILE).write_bytes(seasons_toml(closed))
    text = (tmp_path / SEASONS_FILE).read_text(encoding="utf-8")
    assert text == ("# Écrit par « reportgen season close » : les saisons que vous avez closes, et à quelle date.\n"
                    "# Une saison est aussi close une fois son année finie.\n"
                    "# Pour rouvrir une saison : « reportgen season open 2026 » ; « reportgen season close 2026 » la "
                    "clôt de nouveau.\n"
                    "[closed]\n2025 = 2025-12-20\n2026 = 2026-11-20\n")
    problems: list = []
    assert read_closed(tmp_path, problems) == closed and problems == []


def reopen(inputs: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([REPORTGEN, "season", "open", *args, "--inputs", str(inputs)], capture_output=True,
                          text=True)


def test_opening_a_closed_season_again_removes_its_line_and_its_final_bulletin_at_the_next_build(small_league_copy):
    """There was no `reportgen season open`: the secretary was told to delete the season's line in
    saisons.toml. The command removes it (the header and the other seasons kept), says what the
    next `make` does, and the build does it: the final bulletin leaves outputs/, the season's
    ranking is « provisoire » again."""
    from reportgen.pipeline import build

    inputs, outputs = small_league_copy.inputs, small_league_copy.outputs
    (inputs / SEASONS_FILE).write_bytes(seasons_toml({2025: dt.date(2025, 12, 20), 2026: dt.date(2026, 2, 7)}))
    assert build(inputs, outputs, TODAY).ok
    final = outputs / "grand-sud" / "2026" / "classement-final-2026"
    assert all(final.with_suffix(kind).is_file() for kind in (".html", ".pdf", ".csv"))
    done = reopen(inputs, "2026")
    assert (done.returncode, done.stdout) == (0, ""), done.stderr
    assert done.stderr.splitlines() == [
        f"saison 2026 rouverte : sa clôture du 7 février 2026 est retirée de {inputs / SEASONS_FILE}",
        "au prochain « make », son classement redevient « à date » : ses bulletins finaux (classement-final-2026, "
        "HTML et PDF) sont retirés de outputs/ et du site, son classement y est publié comme provisoire "
        "(classement-provisoire-2026.csv et l’annexe), et son dernier bulletin daté est de nouveau le classement "
        "en vigueur ; « reportgen season close 2026 » la clôt de nouveau une fois tous ses tournois reçus"]
    assert (inputs / SEASONS_FILE).read_bytes() == seasons_toml({2025: dt.date(2025, 12, 20)})
    assert final_titles(inputs) == {2025: "Classement final de la saison 2025"}
    # what it said, the build does
    assert build(inputs, outputs, TODAY).ok
    assert not [kind for kind in (".html", ".pdf", ".csv") if final.with_suffix(kind).exists()]
    assert (outputs / "grand-sud" / "2026" / "classement-provisoire-2026.csv").is_file()
    assert "classement-final-2026" not in (outputs / "site" / "grand-sud-2026.html").read_text(encoding="utf-8")


def test_opening_a_season_not_closed_or_over_with_its_year_writes_nothing(small_league_copy):
    """As `season close` of a season already closed: one line, exit 0. A season over with its year
    is closed whatever the file says: it cannot be opened (exit 2), said « terminée » (« close
    depuis la fin de son année » of a season saisons.toml never held: closed is what `season close`
    records). A year not begun is a mistyped one (exit 2, README). None of them writes saisons.toml."""
    inputs = small_league_copy.inputs
    year = clock.today().year
    not_closed = reopen(inputs, str(year))
    assert (not_closed.returncode, not_closed.stderr) == (0, f"la saison {year} n’est pas close : rien à rouvrir\n")
    never_closed = reopen(inputs, str(year - 1))
    assert not (inputs / SEASONS_FILE).exists()
    assert never_closed.returncode == 2 and never_closed.stderr.splitlines() == [
        f"la saison {year - 1} est terminée depuis la fin de son année (31 décembre {year - 1}) et ne peut pas être "
        "rouverte : son classement final reste celui que « make » publie"]
    (inputs / SEASONS_FILE).write_bytes(seasons_toml({year - 1: dt.date(year - 1, 11, 20)}))
    before = (inputs / SEASONS_FILE).read_bytes()
    over = reopen(inputs, str(year - 1))
    assert over.returncode == 2 and over.stderr.splitlines() == [
        f"la saison {year - 1} est terminée depuis la fin de son année (31 décembre {year - 1}) et ne peut pas être "
        "rouverte : son classement final reste celui que « make » publie"]
    ahead = reopen(inputs, str(year + 36))
    assert (ahead.returncode, ahead.stderr) == (2, f"la saison {year + 36} n’a pas commencé : rien à rouvrir — "
                                                   f"vérifiez l’année (par exemple « reportgen season open {year} »)\n")
    # the next one: she means to start it, which takes no command (it said « vérifiez l’année », as to a typo)
    following = reopen(inputs, str(year + 1))
    assert (following.returncode, following.stderr) == (
        2, f"la saison {year + 1} n’a pas commencé : rien à rouvrir — une saison n’a pas besoin d’être ouverte : ses "
           f"tournois sont ceux datés de {year + 1}, déposez leurs classeurs dans {inputs} une fois joués (« reportgen "
           "template calendrier » pour annoncer ses tournois)\n")
    missing = reopen(inputs.parent / "nulle-part", str(year))
    assert missing.returncode == 2 and not (inputs.parent / "nulle-part").exists()
    assert (inputs / SEASONS_FILE).read_bytes() == before


def test_a_closed_season_s_final_ranking_says_the_announced_tournaments_never_received_not_awaited(
        small_league_copy, tmp_path):
    """After `season close 2026`, calendrier.xlsx still announcing Grand Sud tournaments of 3 and 17
    October whose workbooks never came, the final bulletin (HTML and PDF), the site's season page and
    each club's message said « Classement final de la saison 2026 » over « provisoire : résultats de
    Montpellier du 3 octobre … attendus »: a final ranking called itself provisional and awaiting. A
    closed season's final documents say, once, those results were not received, the organising
    club's own bulletin too; the closing says so as well."""
    from email import message_from_bytes, policy

    from reportgen.delivery import mail as drafts
    from reportgen.delivery import seasons
    from reportgen.pipeline import build
    from tests.test_calendar import write_calendar
    from tests.test_club_bulletin import pdf_text
    from tests.test_delivery_mail import CLUBS, set_clubs, set_mail

    inputs, outputs = small_league_copy.inputs, small_league_copy.outputs
    set_clubs(inputs, CLUBS)
    set_mail(inputs, 2525)
    write_calendar(inputs, [["03/10/2026", "grand-sud", "MTPL", "Tournoi d’automne", "Montpellier"],
                            ["17/10/2026", "grand-sud", "CARC", "Open de Carcassonne", "Carcassonne"]])
    closed = close(inputs, "2026", "--date", "20/11/2026")
    assert closed.returncode == 0, closed.stderr
    assert "son classement final les dira non reçus :" in closed.stderr, closed.stderr
    assert build(inputs, outputs, TODAY).ok
    said = "Résultats de Montpellier du 3\u00a0octobre et de Carcassonne du 17\u00a0octobre non reçus"
    html = (outputs / "grand-sud" / "2026" / "classement-final-2026.html").read_text()
    pdf = " ".join(pdf_text(outputs / "grand-sud" / "2026" / "classement-final-2026.pdf").split())
    page = (outputs / "site" / "grand-sud-2026.html").read_text()
    assert "Classement final de la saison 2026" in pdf
    for text in (html, pdf, page):
        assert "provisoire" not in text.casefold() and "attendu" not in text, text
    assert f">{said[:1].lower()}{said[1:]}</p>" in html
    assert "résultats de Montpellier du 3 octobre et de Carcassonne du 17 octobre non reçus" in pdf
    assert f'<p class="awaited">{said}.</p>' in page
    # the home page's calendar and calendrier.ics, made on the build's day, say what the final says
    home = (outputs / "index.html").read_text()
    ics = (outputs / "calendrier.ics").read_text().replace("\r\n ", "")
    assert home.count('<span class="nowrap">— résultats non reçus</span>') == 2, home
    assert "résultats attendus</span>" not in home, home
    assert ics.count("Résultats non reçus : la saison est terminée.") == 2 and "attendu" not in ics, ics
    plan = drafts.prepare(loaded := seasons.load(inputs, tmp_path / "archive", TODAY), score(loaded), outputs)
    drafts.write_drafts(plan, outputs)
    for code, line in {"ALBI": said, "CARC": "Résultats de votre tournoi du 17 octobre et de Montpellier du 3 octobre "
                                             "non reçus"}.items():
        message = message_from_bytes((outputs / "mail" / "2026" / f"{code}.eml").read_bytes(), policy=policy.default)
        text = message.get_body(("plain",)).get_content()
        assert "Classement final de la saison 2026\n" + line.replace(" octobre", "\u00a0octobre") + ".\n" in text, text
        assert "provisoire" not in text and "attendu" not in text and text.count("non reçus") == 1
    # the club's own bulletin: its tournament of the closed season not received, never « attendu »
    own = " ".join(pdf_text(outputs / "clubs" / "2026" / "CARC.pdf").split())
    assert "Open de Carcassonne" in own and "non reçu" in own and "attendu" not in own, own


def test_check_says_a_workbook_changes_a_final_ranking_already_published(small_league_copy):
    """A workbook dated 21/11/2025 instead of 2026 (a year mistyped) gave `check` « aucun problème »,
    the replacement note alone, while it changed the 2025 final ranking already published: the build
    said so once it had published it. `check` says it, with the fix, before the build; a workbook
    of the running season, or one the publication counted, says nothing."""
    inputs, outputs = small_league_copy.inputs, small_league_copy.outputs
    write_tournament(inputs, "2026-11-21-albi", day="21/11/2025", club="ALBI")
    checked = subprocess.run([REPORTGEN, "check", "--inputs", str(inputs), "--outputs", str(outputs)],
                             capture_output=True, text=True)
    assert checked.returncode == 0, checked.stderr
    said = [line for line in checked.stderr.splitlines() if "classement final" in line]
    assert said == ["note : grand-sud : 2026-11-21-albi.xlsx, feuille « Tournoi », cellule B3 (champ « Date ») "
                    "(« Tournoi 2026-11-21-albi ») : ce tournoi du 21 novembre 2025 change le classement final de la saison 2025, "
                    "déjà publié — si sa date est fausse, corrigez-la ; sinon, une fois « make » "
                    "lancé, renvoyez ce classement aux clubs"], \
        checked.stdout + checked.stderr
    assert checked.stdout.splitlines()[-1] == ("5 tournois lus, aucun problème, mais 1 classeur change un classement "
                                               "final déjà publié (voir la note).")
    page = (outputs / "verification.html").read_text()
    # its day and month kept on one line, as every note holding a date on the page
    assert "ce tournoi du 21\u00a0novembre 2025 change le classement final de la saison 2025, déjà publié" in page
    assert ("aucun problème · 1 classeur change un classement final déjà publié (voir «\u00a0À savoir\u00a0»)</p>"
            in page), page
    # 2025 closed on 30 November: one dated on or before that day is a correction, still said; one after
    # is refused (`season-closed`), and changes nothing
    (inputs / SEASONS_FILE).write_bytes(seasons_toml({2025: dt.date(2025, 11, 30)}))
    write_tournament(inputs, "2026-12-03-carcassonne", day="03/12/2025", club="CARC")
    checked = subprocess.run([REPORTGEN, "check", "--inputs", str(inputs), "--outputs", str(outputs)],
                             capture_output=True, text=True)
    assert checked.returncode == 1
    assert ("  - 2026-12-03-carcassonne.xlsx, feuille « Tournoi », cellule B3 (champ « Date ») : la saison 2025 est close depuis le 30 "
            "novembre 2025 : ce tournoi du 3 décembre 2025 changerait son classement final") in checked.stderr
    assert [line.split(" : ce tournoi")[0] for line in checked.stderr.splitlines() if ", déjà publié" in line] == [
        "note : grand-sud : 2026-11-21-albi.xlsx, feuille « Tournoi », cellule B3 (champ « Date ») "
        "(« Tournoi 2026-11-21-albi »)"], checked.stderr
    (inputs / "2026-12-03-carcassonne.xlsx").unlink()
    (inputs / "2026-11-21-albi.xlsx").unlink()
    write_tournament(inputs, "2026-11-21-albi", day="21/11/2026", club="ALBI")
    checked = subprocess.run([REPORTGEN, "check", "--inputs", str(inputs), "--outputs", str(outputs)],
                             capture_output=True, text=True)
    assert "classement final" not in checked.stdout + checked.stderr


def test_check_says_it_of_a_publication_an_earlier_version_made(small_league_copy):
    """A manifest written before it said its final seasons (`sources.final`, the first build after an
    upgrade): `check` said nothing of a workbook dated 21/11/2025 instead of 2026 until a build had
    written one that does. Its closed seasons are final for a circuit whose closing makes them so, as
    the build reads that manifest (render/changes.py `_upgraded`)."""
    import json

    inputs, outputs = small_league_copy.inputs, small_league_copy.outputs
    manifest = outputs / "grand-sud" / "publications.json"
    published = json.loads(manifest.read_text(encoding="utf-8"))
    assert published["sources"].pop("final") == [2025]  # as an earlier version wrote it
    manifest.write_text(json.dumps(published, ensure_ascii=False, indent=1), encoding="utf-8")
    write_tournament(inputs, "2026-11-21-albi", day="21/11/2025", club="ALBI")
    checked = subprocess.run([REPORTGEN, "check", "--inputs", str(inputs), "--outputs", str(outputs)],
                             capture_output=True, text=True)
    assert [line.split(" — ")[0] for line in checked.stderr.splitlines() if "classement final" in line] == [
        "note : grand-sud : 2026-11-21-albi.xlsx, feuille « Tournoi », cellule B3 (champ « Date ») "
        "(« Tournoi 2026-11-21-albi ») : ce tournoi du 21 novembre 2025 change le classement final de la "
        "saison 2025, déjà publié"], checked.stderr


# `reportgen check` with the workbooks whose bytes its process hashes counted by name (an audit hook:
# each opening of the file by ingest/file_hashes.py's `content_digest`), printed last on stderr
COUNTING_HASHES = """
import runpy, sys, traceback
hashed, name = [], sys.argv[1]
def hook(event, args):
    if event == "open" and str(args[0]).endswith(name) and any(
            frame.name == "content_digest" for frame in traceback.extract_stack()):
        hashed.append(args[0])
sys.addaudithook(hook)
sys.argv = ["reportgen", "check", *sys.argv[2:]]
try:
    runpy.run_module("reportgen", run_name="__main__")
finally:
    print(f"hashed {len(hashed)}", file=sys.stderr)
"""


def test_check_hashes_a_workbook_put_back_from_the_archive_once(small_league_copy):
    """The 2025 season archived and out of inputs/: `check` puts its workbooks back from the archive,
    each hashed to check it against the database, then hashed again (the copy) to tell whether it
    changes the 2025 final ranking already published. The hash of the first is the second's."""
    inputs, outputs = small_league_copy.inputs, small_league_copy.outputs
    archive = inputs.parent / "archive"
    folders = ["--inputs", str(inputs), "--outputs", str(outputs), "--archive", str(archive)]
    assert subprocess.run([REPORTGEN, "archive", "--season", "2025", *folders], capture_output=True).returncode == 0
    (inputs / "2025-06-01-albi.xlsx").unlink()
    assert subprocess.run([REPORTGEN, "build", "--quiet", *folders], capture_output=True).returncode == 0
    checked = subprocess.run([sys.executable, "-c", COUNTING_HASHES, "2025-06-01-albi.xlsx", *folders],
                             capture_output=True, text=True)
    assert "lue dans l’archive" in checked.stdout + checked.stderr  # put back, as said
    assert "classement final" not in checked.stderr  # unchanged: it changes nothing
    assert checked.stderr.splitlines()[-1] == "hashed 1", checked.stderr
