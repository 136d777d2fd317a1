"""The site's Open Graph images (issue 24, « Sharing »; site/og.py): a 1200x630 PNG for the home
page, each circuit season and each tournament, the same bytes from the same data, drawn again only
when what it shows changes; `og:image` absolute with `[site] url`, relative without."""

import html
import io
import re
import shutil

from PIL import Image

from reportgen import circuits, config
from reportgen.site import og
from reportgen.site.pages import Site
from reportgen.site.publish import publish
from tests.test_config import defaults, only_problem

URL = "https://ligue.example.org/"


def meta(page: bytes, name: str) -> str:
    found = re.search(rf'<meta property="{re.escape(name)}" content="([^"]*)">', page.decode("utf-8"))
    assert found, f"no {name}"
    return found.group(1)


def test_the_home_season_and_tournament_pages_each_name_their_image(small_league_built):
    outputs = small_league_built.outputs
    pages = {path: (outputs / path).read_bytes() for path in
             ("index.html", "site/grand-sud-2026.html", "site/grand-sud-2025.html")}
    pages["tournoi"] = next(path.read_bytes() for path in sorted((outputs / "site").glob("tournoi-*.html")))
    images = {}
    for path, page in pages.items():
        assert (meta(page, "og:image:width"), meta(page, "og:image:height")) == ("1200", "630")
        assert meta(page, "og:image:type") == "image/png" and meta(page, "og:image:alt")
        images[path] = meta(page, "og:image")
    assert images["index.html"].startswith("site/og-")  # relative without [site] url
    assert len(set(images.values())) == 4  # one each
    season = (outputs / "site" / images["site/grand-sud-2026.html"]).read_bytes()
    picture = Image.open(io.BytesIO(season))
    assert picture.format == "PNG" and picture.size == (1200, 630)
    assert not {"tIME", "Software", "Creation Time", "date:create"} & set(picture.info)  # no time in the file
    alt = meta(pages["site/grand-sud-2026.html"], "og:image:alt")
    assert "Saison 2026" in alt and "Grand Sud" in alt and "1 " in alt
    # a club's or player's page shares the home page's image
    club = next(path.read_bytes() for path in sorted((outputs / "site").glob("club-*.html")))
    assert meta(club, "og:image") == images["index.html"].removeprefix("site/")


def test_the_same_card_gives_the_same_bytes_and_a_long_name_fits():
    card = og.Card("Ligue", "Circuit", "Saison 2026", (("1", "DUPONT Jean", "120 pts"),
                                                        ("2=", "X" * 300, "1 086 pts"), ("", "<script>", "")))
    first = og.draw(card)
    assert first == og.draw(card) and Image.open(io.BytesIO(first)).size == (og.WIDTH, og.HEIGHT)
    assert og.draw(og.Card("Ligue", "Circuit", "Saison 2026")) != first


def test_an_image_is_drawn_again_only_when_what_it_shows_changes(small_league_copy, monkeypatch):
    outputs = small_league_copy.outputs
    drawn = []
    real = og.draw
    monkeypatch.setattr(og, "draw", lambda card: drawn.append(card) or real(card))
    league = html.unescape(meta((outputs / "index.html").read_bytes(), "og:site_name"))  # as the build named it
    pages = Site(outputs, list(circuits.CIRCUITS), league).pages()
    assert drawn == []  # every image already in outputs/site/: taken from there
    shutil.rmtree(outputs / "site")
    again = Site(outputs, list(circuits.CIRCUITS), league).pages()
    assert drawn and again == pages  # drawn again, the same bytes
    images = [path for path in pages if path.endswith(".png")]
    assert len(drawn) == len(images)
    publish(outputs, again)
    assert sorted(p.name for p in (outputs / "site").glob("og-*.png")) == sorted(p[5:] for p in images)


def test_with_the_site_url_the_image_is_an_absolute_address(small_league_built):
    pages = Site(small_league_built.outputs, list(circuits.CIRCUITS), "Ligue", url=URL).pages()
    home, season = meta(pages["index.html"], "og:image"), meta(pages["site/grand-sud-2026.html"], "og:image")
    assert re.fullmatch(r"https://ligue\.example\.org/site/og-[0-9a-f]{16}\.png", home)
    assert season.startswith("https://ligue.example.org/site/og-") and season[len(URL) - 1:].lstrip("/") in pages


def test_the_site_url_is_read_from_reportgen_toml_and_checked(tmp_path):
    server = '[site]\nhost = "ssh.example.org"\nuser = "ligue"\nfolder = "www"\n'
    (tmp_path / "reportgen.toml").write_text(server + f'url = "{URL}"\n', encoding="utf-8")
    problems: list = []
    assert config.load(tmp_path, defaults(), problems).site.url == URL and problems == []
    message = only_problem(tmp_path, server + 'url = "ligue.example.org"\n')
    assert "url" in message and "https://" in message
