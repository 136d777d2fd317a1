"""Personal data on the public site (issue 24, EU): joueurs.xlsx's `Publication` column, `oui`,
`initiales` or `non`, on every page kind and in the search index; the bulletins stay whole."""

import re

import pytest

from reportgen.site.pages import page_name
from tests.builders import TODAY, write_workbook

HEADER = ["Licence", "Nom", "Prénom", "Club", "Autres graphies", "Publication"]


@pytest.fixture(scope="module")
def private(small_league_built, tmp_path_factory):
    """The small league with DUPONT Jean shown as initials and MARTIN Paul left out of the site."""
    import shutil

    from reportgen.pipeline import build

    root = tmp_path_factory.mktemp("private")
    for folder in ("inputs", "outputs"):
        shutil.copytree(getattr(small_league_built, folder), root / folder)
    write_workbook(root / "inputs" / "joueurs.xlsx", {"Joueurs": [
        HEADER, ["1001", "DUPONT", "Jean", "Carcassonne", "", "initiales"],
        ["1002", "MARTIN", "Paul", "Albi", "", "Non"], ["", "DURAND", "Anne", "Toulouse", "", ""]]})
    result = build(root / "inputs", root / "outputs", TODAY)
    assert result.ok, result.problems
    return root / "outputs"


def public_files(outputs):
    # the Open Graph images are drawn from the same public names as the pages' og:image:alt
    return [outputs / "index.html", *sorted(p for p in (outputs / "site").iterdir() if p.suffix != ".png")]


def test_no_public_page_names_a_player_left_out_or_shown_by_initials(private):
    kinds = set()
    for path in public_files(private):
        text = path.read_text(encoding="utf-8")
        kinds.add(path.name.split("-")[0])
        assert "MARTIN" not in text and "DUPONT" not in text, path.name
        assert not re.search(r"[\w.+-]+@[\w-]+\.[\w.]+", text), path.name  # no e-mail address anywhere
    assert {"index.html", "grand", "joueur", "club", "recherche.js"} <= kinds


def test_initials_stand_for_the_name_and_a_left_out_player_has_no_page(private):
    home = (private / "index.html").read_text(encoding="utf-8")
    season = (private / "site" / "grand-sud-2026.html").read_text(encoding="utf-8")
    assert "D. J." in season and "joueur non publié" in season and "joueur non publié" in home
    alt = re.search(r'property="og:image:alt" content="([^"]*)"', season).group(1)
    assert "D. J." in alt or "joueur non publié" in alt  # the image of the season's top three
    assert not (private / "site" / page_name("joueur", "L:1002")).exists()
    assert page_name("joueur", "L:1002") not in season + home
    dupont = (private / "site" / page_name("joueur", "L:1001")).read_text(encoding="utf-8")
    assert "<h1>D. J.</h1>" in dupont
    index = (private / "site" / "recherche.js").read_text(encoding="utf-8")
    assert '"n": "D. J."' in index and "non publi" not in index
    assert "DURAND Anne" in season and "DURAND Anne" in index  # the default: oui


def test_the_bulletins_sent_to_clubs_stay_whole(private):
    bulletin = (private / "grand-sud" / "2026" / "classement-2026-01-10.html").read_text(encoding="utf-8")
    assert "MARTIN Paul" in bulletin and "DUPONT Jean" in bulletin


def test_a_bad_publication_value_is_a_located_french_warning(tmp_path):
    from reportgen.pipeline import load
    from tests.builders import small_league

    inputs = small_league(tmp_path / "inputs")
    write_workbook(inputs / "joueurs.xlsx", {"Joueurs": [HEADER, ["1001", "DUPONT", "Jean", "", "", "peut-être"]]})
    league = load(inputs, TODAY)
    # It blocks nothing: no ranking depends on it, and the site shows the player less until it is fixed.
    assert not league.all_problems()
    problems = [p for p in league.warnings if p.code == "bad-publication"]
    assert len(problems) == 1 and problems[0].level == "warning"
    problem = problems[0]
    assert (problem.where.path, problem.where.sheet, problem.where.cell) == ("joueurs.xlsx", "Joueurs", "F2")
    assert "« peut-être » n’est pas un choix de publication" in problem.message
    assert "initiales" in problem.fix
