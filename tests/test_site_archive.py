"""Archived seasons on the website (issue 24): a season that has left inputs/ (and is no longer
read back for the next one) stays on the players' pages and gets its season page, from
`archive/league.sqlite` (delivery/site_archive.py)."""

import json
import shutil

from reportgen import circuits
from reportgen.delivery.site_archive import archived_rankings
from reportgen.render.index import MANIFEST
from reportgen.site import data
from reportgen.site.pages import Site, page_name
from tests.test_delivery_mail import cli


def test_an_archived_season_no_longer_published_stays_on_the_site(small_league_copy, tmp_path):
    league, archive = small_league_copy, tmp_path / "archive"
    done = cli("archive", "--season", "2025", "--inputs", str(league.inputs), "--outputs", str(league.outputs),
               "--archive", str(archive))
    assert done.returncode == 0, done.stderr
    archived = archived_rankings(archive)
    published = [r for r in data.read(league.outputs / "grand-sud") if r["season"] == 2025 and not r.get("no_csv")]
    assert [[(row["rank"], row["id"], row["player"]) for row in r["rows"]] for r in archived["grand-sud"]] == [
        [(row["rank"], row["id"], row["player"]) for row in r["rows"]] for r in published]
    assert archived["grand-sud"][-1]["title"] == "Classement final 2025"

    # outputs/ as a later build leaves it once 2025 is neither in inputs/ nor read back
    later = tmp_path / "later"
    shutil.copytree(league.outputs, later)
    manifest = json.loads((later / "grand-sud" / MANIFEST).read_text(encoding="utf-8"))
    manifest["documents"] = [d for d in manifest["documents"] if d["season"] != 2025]
    manifest["annexes"] = [a for a in manifest["annexes"] if a["season"] != 2025]
    (later / "grand-sud" / MANIFEST).write_text(json.dumps(manifest), encoding="utf-8")
    kept = [r for r in data.read(later / "grand-sud") if r["season"] != 2025]
    (later / "grand-sud" / data.DATA).write_text(json.dumps({"rankings": kept}), encoding="utf-8")

    without = Site(later, list(circuits.CIRCUITS), "Ligue").pages()
    assert "site/grand-sud-2025.html" not in without
    pages = Site(later, list(circuits.CIRCUITS), "Ligue", archived=archived).pages()
    season = pages["site/grand-sud-2025.html"].decode("utf-8")
    assert "LÉGER Zoé" in season and "Classement final 2025" in season and "../grand-sud/2025/" not in season
    leger = pages[f"site/{page_name('joueur', 'L:1004')}"].decode("utf-8")
    assert "saison 2025" in leger and 'href="None"' not in leger
    assert "saison 2025" not in without[f"site/{page_name('joueur', 'L:1004')}"].decode("utf-8")
