"""The first build after an upgrade compares its publication with a manifest an earlier version of
reportgen wrote, which lacks what this one records (render/changes.py `_upgraded`): it says only
what both know, never that results changed because a file is written in a new format, never that
nothing changed where the earlier manifest cannot tell."""

import datetime as dt
import json
import shutil
from pathlib import Path

from reportgen.pipeline import build
from reportgen.render.changes import NEW_FORMAT, NEW_RESULTS, NEW_VERSION, maybe_changed
from reportgen.render.index import MANIFEST
from tests.builders import TODAY, write_tournament
from tests.test_republished import FINAL, changed, close_season

EXAMPLE = Path(__file__).parent.parent / "examples" / "league"
# The Tantrix manifest reportgen wrote for examples/league at cf53ac5 (before the manifest's format,
# its `final` and the calendar's hash, and before the Tantrix CSV wrote its évolution with a sign)
PREVIOUS_TANTRIX = Path(__file__).parent / "data" / "previous-version" / "tantrix-publications.json"


def as_the_previous_version_wrote_it(outputs: Path) -> None:
    """Each circuit's manifest without what the previous version did not record: its format, the
    seasons it published as final, the calendar's hash, the documents it withdrew."""
    for path in outputs.glob(f"*/{MANIFEST}"):
        data = json.loads(path.read_text(encoding="utf-8"))
        data.pop("format", None)
        data.pop("withdrawn", None)
        data["sources"].pop("final")
        data["sources"]["shared"].pop("calendrier.xlsx")
        path.write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")


def test_the_tantrix_csv_s_new_format_is_not_said_to_be_new_results(tmp_path):
    """The example's Tantrix documents, published by the previous version: its CSVs wrote the
    évolution without a sign (`52,6`), this one writes `+52,6`. The first build after the upgrade
    said « nouvelle version de reportgen : des résultats ont changé » of all five: none did. It says
    the new format is why it cannot tell; the next build, both of one format, says nothing."""
    inputs, outputs = tmp_path / "inputs", tmp_path / "outputs"
    shutil.copytree(EXAMPLE / "tantrix", inputs / "tantrix")
    for name in ("clubs.xlsx", "joueurs.xlsx"):
        shutil.copy(EXAMPLE / name, inputs / name)
    assert build(inputs, outputs, TODAY).ok
    shutil.copy(PREVIOUS_TANTRIX, outputs / "tantrix" / MANIFEST)
    result = build(inputs, outputs, TODAY)
    assert result.ok
    said = changed(result)
    assert len(said) == 5 and set(said.values()) == {(NEW_FORMAT,)}, said
    assert not any(NEW_RESULTS in reasons for reasons in said.values())
    corrections = (outputs / "site" / "corrections.html").read_text(encoding="utf-8")
    assert "des résultats ont changé" not in corrections
    assert corrections.count("nouvelle version du logiciel des classements, qui les écrit dans un nouveau format") == 5
    assert build(inputs, outputs, TODAY).republished == []


def test_a_calendar_the_previous_version_kept_no_hash_of_is_never_a_new_layout(small_league_copy):
    """A tournament of 5 January announced in calendrier.xlsx: the 10 January ranking, already
    published by the previous version (its manifest has no calendar hash), now says its results are
    awaited. The build said « remis en page par une nouvelle version de reportgen, avec les mêmes
    résultats : inutile de les renvoyer ». It may be the calendar: said so, the document listed."""
    from tests.test_calendar import write_calendar

    inputs, outputs = small_league_copy.inputs, small_league_copy.outputs
    as_the_previous_version_wrote_it(outputs)
    write_calendar(inputs, [["05/01/2026", "grand-sud", "PERP", "Open de Perpignan", "Perpignan"]])
    result = build(inputs, outputs, TODAY)
    assert result.ok, result.problems
    maybe = maybe_changed("calendrier.xlsx")
    assert maybe == ("le calendrier (calendrier.xlsx) a peut-être changé : la publication précédente, d’une "
                     "version antérieure de reportgen, n’en gardait pas l’empreinte")
    assert changed(result) == {"grand-sud/2026/classement-2026-01-10": (NEW_VERSION, maybe)}
    assert not any(change.same_content for change in result.republished)
    corrections = (outputs / "site" / "corrections.html").read_text(encoding="utf-8").replace("\u00a0", " ")
    assert "liste des résultats attendus peut-être mise à jour" in corrections and "même contenu" not in corrections
    # once this version's manifest is there, the calendar is compared as any shared file
    write_calendar(inputs, [["06/01/2026", "grand-sud", "PERP", "Open de Perpignan", "Perpignan"]])
    assert changed(build(inputs, outputs, TODAY)) == {
        "grand-sud/2026/classement-2026-01-10": ("le calendrier (calendrier.xlsx) a changé",)}


def test_a_final_ranking_the_previous_version_published_still_says_its_date_moved(small_league_copy):
    """Season 2026 closed and its final ranking published by the previous version (no `final` in its
    manifest); a late workbook of 14 February moves it from 10 January: a correction of the final
    ranking, as this version's manifest would have it, not a new edition passed over in silence."""
    inputs, outputs = small_league_copy.inputs, small_league_copy.outputs
    close_season(inputs, dt.date(2026, 2, 28))
    assert build(inputs, outputs, TODAY).ok
    as_the_previous_version_wrote_it(outputs)
    write_tournament(inputs, "2026-02-14-nimes", day="14/02/2026", club="NIME", results=[
        [1, "PROVENCAL", "Marius", "", "Marseille"], [2, "DUPONT", "Jean", "1001", "Carcassonne"]])
    result = build(inputs, outputs, TODAY)
    assert result.ok
    assert changed(result)[FINAL] == (
        "la saison 2026 est terminée : son classement final déjà publié (daté du 10 janvier 2026) change",
        "classeur ajouté : 2026-02-14-nimes.xlsx (tournoi du 14 février 2026)")
