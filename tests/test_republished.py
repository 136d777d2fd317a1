"""A build names every document already published for a date that it changes, and why (issue « A
real season »: what the secretary sent never changes silently)."""

import datetime as dt
import shutil

import openpyxl

from reportgen.pipeline import build
from reportgen.render.changes import Republished, compare
from tests.browser import check_page
from tests.builders import TODAY, write_tournament


def republished(circuit: str, before: dict | None, after: dict) -> list[Republished]:
    """What the build tells of a circuit's documents between two of its manifests (`compare`'s first part)."""
    return compare(circuit, before, after, final_when_closed=False)[0]


def changed(result) -> dict[str, tuple[str, ...]]:
    return {f"{r.circuit}/{r.path}": r.reasons for r in result.republished}


def test_a_rebuild_with_nothing_new_changes_nothing_already_sent(small_league_copy):
    assert build(small_league_copy.inputs, small_league_copy.outputs, TODAY).republished == []


def test_a_late_tournament_names_the_later_bulletins_it_changes(small_league_copy):
    """A tournament of 5 January arrives after the 10 January ranking was published."""
    write_tournament(small_league_copy.inputs, "2026-01-05-nimes", day="05/01/2026", club="NIME", results=[
        [1, "PROVENCAL", "Marius", "", "Marseille"], [2, "DUPONT", "Jean", "1001", "Carcassonne"]])
    result = build(small_league_copy.inputs, small_league_copy.outputs, TODAY)
    added = ("classeur ajouté : 2026-01-05-nimes.xlsx (tournoi du 5 janvier 2026)",)
    # the 10 January ranking and the annex of the season (no final bulletin while it runs);
    # not the new 5 January bulletin, not 2025
    assert changed(result) == {"grand-sud/2026/classement-2026-01-10": added,
                               "grand-sud/2026/annexe-grand-sud-2026": added}
    page = (small_league_copy.outputs / "verification.html").read_text()
    assert "Documents déjà publiés modifiés par ce calcul" in page
    assert "grand-sud/2026/classement-2026-01-10 (" in page and "tournoi du 5\u00a0janvier 2026" in page


def test_a_new_edition_for_a_later_date_is_not_listed(small_league_copy):
    """A tournament after the last one: the season's running ranking moves to its date (a new
    edition), nothing already sent for a date changes."""
    write_tournament(small_league_copy.inputs, "2026-01-20-nimes", day="20/01/2026", club="NIME", results=[
        [1, "PROVENCAL", "Marius", "", "Marseille"], [2, "DUPONT", "Jean", "1001", "Carcassonne"]])
    result = build(small_league_copy.inputs, small_league_copy.outputs, TODAY)
    assert result.ok and result.republished == []


def test_a_correction_of_the_dates_own_workbook_is_named_as_such(small_league_copy):
    path = small_league_copy.inputs / "2026-01-10-toulouse.xlsx"
    book = openpyxl.load_workbook(path)
    sheet = book["Résultats"]
    sheet["A2"], sheet["A3"] = 2, 1  # the places were swapped
    book.save(path)
    result = build(small_league_copy.inputs, small_league_copy.outputs, TODAY)
    corrected = ("correction du classeur de ce jour : 2026-01-10-toulouse.xlsx",)
    assert changed(result) == {"grand-sud/2026/classement-2026-01-10": corrected,
                               "grand-sud/2026/annexe-grand-sud-2026": corrected}


def test_a_club_renamed_in_the_directory_is_the_reason_given(small_league_copy):
    book = openpyxl.load_workbook(small_league_copy.inputs / "clubs.xlsx")
    sheet = book["Clubs"]
    row = next(r for r in sheet.iter_rows(min_row=2) if r[0].value == "ALBI")
    row[1].value = "Albi-Tarn"
    book.save(small_league_copy.inputs / "clubs.xlsx")
    result = build(small_league_copy.inputs, small_league_copy.outputs, TODAY)
    reasons = set(changed(result).values())
    assert result.republished and reasons == {("l’annuaire des clubs (clubs.xlsx) a changé",)}


def test_a_played_masters_is_frozen_a_late_grand_sud_tournament_is_a_notice(tmp_path, monkeypatch):
    """The Masters reads the Grand Sud's final ranking; once its 15 matches are typed it is frozen
    (issue 27): a late Grand Sud tournament republishes none of its documents, and the warning that
    the Grand Sud ranking moved is one of the build's notices."""
    from reportgen.render import pdf
    from tests.conftest import EXAMPLE_INPUTS

    monkeypatch.setattr(pdf, "render_many", lambda pages, workers=2, progress=None: [p.encode() for p, _ in pages])
    inputs, outputs = tmp_path / "inputs", tmp_path / "outputs"
    shutil.copytree(EXAMPLE_INPUTS, inputs)
    assert build(inputs, outputs, TODAY).ok
    before = {path: path.read_bytes() for path in (outputs / "masters").rglob("*.*")}
    write_tournament(inputs / "2026", "2026-11-21-albi", day="21/11/2026", club="ALBI", results=[
        [1, "PROVENCAL", "Marius", "", "Marseille"], [2, "DUPONT", "Jean", "1001", "Carcassonne"]]
        + [[place, f"JOUEUR{place}", "Tardif", "", "Albi"] for place in range(3, 40)])
    result = build(inputs, outputs, TODAY)
    assert result.ok
    assert not [path for path in changed(result) if path.startswith("masters/")]
    assert {path: path.read_bytes() for path in (outputs / "masters").rglob("*.*")
            if path.suffix in (".html", ".pdf")} == {path: data for path, data in before.items()
                                                     if path.suffix in (".html", ".pdf")}
    assert any("le classement final Grand Sud 2026 a changé depuis la préparation du Masters" in notice
               for notice in result.notices)


def manifest(date: str, html: str, workbooks: dict | None = None, closed: list[int] = (),
             final: list[int] | None = None) -> dict:
    data = {"documents": [{"season": 2026, "path": "2026/x", "title": "Classement", "date": date}], "annexes": [],
            "pdfs": {"2026/x.pdf": {"html": html}}}
    if workbooks is not None:
        data["sources"] = {"workbooks": workbooks, "shared": {"clubs.xlsx": "c"}, "closed": list(closed),
                           "final": list(closed if final is None else final)}
    return data


def test_a_season_that_closes_is_the_reason_its_final_ranking_changes():
    """Its year is over, or the secretary ran `reportgen season close`: « à date » becomes « final »."""
    (change,) = republished("grand-sud", manifest("2026-11-14", "a", {}), manifest("2026-11-14", "b", {}, [2026]))
    assert change.reasons == ("la saison 2026 est terminée : son classement est désormais final",)


def test_a_season_closed_or_opened_again_says_its_ranking_s_state_only_where_the_closing_makes_it_final():
    """The Masters' bulletin (its « Classement final », what was played) read « la saison 2026 est
    rouverte : son classement n’est plus final » when the Grand Sud season it was played on was opened
    again, as it read « … désormais final » at its closing: its own standings are neither."""
    (opened,) = republished("grand-sud", manifest("2026-11-14", "a", {}, [2026]), manifest("2026-11-14", "b", {}))
    assert opened.reasons == ("la saison 2026 est rouverte : son classement n’est plus final",)
    (closed,) = republished("masters", manifest("2026-11-28", "a", {}), manifest("2026-11-28", "b", {}, [2026], []))
    assert closed.reasons == ("la saison 2026 est terminée",)
    (masters,) = republished("masters", manifest("2026-11-28", "a", {}, [2026], []), manifest("2026-11-28", "b", {}))
    assert masters.reasons == ("la saison 2026 est rouverte",)


def test_a_new_edition_for_a_later_date_is_not_a_change_to_what_was_sent():
    assert republished("grand-sud", manifest("2026-02-07", "a", {}), manifest("2026-03-14", "b", {})) == []


def test_the_reason_when_no_input_changed_is_a_new_version_of_reportgen():
    (change,) = republished("grand-sud", manifest("2026-02-07", "a", {}), manifest("2026-02-07", "b", {}))
    assert change.reasons == ("nouvelle version de reportgen ou de ses modèles de bulletin",)
    assert change.date == dt.date(2026, 2, 7)
    assert str(change) == ("grand-sud/2026/x (Classement, 7 février 2026) : nouvelle version de reportgen ou de "
                           "ses modèles de bulletin")


def test_a_later_workbook_is_never_a_reason_and_a_removed_one_is():
    before = manifest("2026-02-07", "a", {"a.xlsx": {"sha256": "1", "date": "2026-01-10"},
                                          "b.xlsx": {"sha256": "2", "date": "2026-02-07"}})
    after = manifest("2026-02-07", "b", {"b.xlsx": {"sha256": "2", "date": "2026-02-07"},
                                         "c.xlsx": {"sha256": "3", "date": "2026-03-14"}})
    (change,) = republished("grand-sud", before, after)
    assert change.reasons == ("classeur retiré : a.xlsx (tournoi du 10 janvier 2026)",)


def test_a_publication_that_recorded_no_sources_says_the_cause_is_unknown():
    (change,) = republished("grand-sud", manifest("2026-02-07", "a"), manifest("2026-02-07", "b", {}))
    assert change.reasons[0].startswith("cause inconnue")


def test_build_lists_them_at_the_end_in_french(small_league_copy):
    from tests.test_cli import run

    write_tournament(small_league_copy.inputs, "2026-01-05-nimes", day="05/01/2026", club="NIME", results=[
        [1, "PROVENCAL", "Marius", "", "Marseille"], [2, "DUPONT", "Jean", "1001", "Carcassonne"]])
    done = run("build", "--quiet", "--inputs", str(small_league_copy.inputs), "--outputs",
               str(small_league_copy.outputs), "--archive", str(small_league_copy.inputs.parent / "archive"))
    assert done.returncode == 0, done.stderr
    lines = done.stderr.splitlines()
    start = lines.index("2 documents déjà publiés modifiés par ce calcul (renvoyez-les s’ils ont été envoyés) :")
    assert lines[start + 1] == ("  - grand-sud/2026/classement-2026-01-10 (Classement après les tournois de Carcassonne et de Toulouse du 10 janvier "
                                "2026) : classeur ajouté : 2026-01-05-nimes.xlsx (tournoi du 5 janvier "
                                "2026)")


def test_settings_changed_are_the_reason_given_in_french_plural(small_league_copy):
    """« les réglages … ont changé », not « a changé »: the secretary reads these lines."""
    (small_league_copy.inputs / "reportgen.toml").write_text("[circuits.grand-sud]\nbulletin_rows = 1\n")
    result = build(small_league_copy.inputs, small_league_copy.outputs, TODAY)
    reasons = set(changed(result).values())
    assert result.republished and reasons == {("les réglages (reportgen.toml) ont changé",)}


def with_rankings(data: dict, **csv: str) -> dict:
    """`data` with the SHA-256 of each ranking's CSV its manifest records (`made_from`)."""
    return {**data, "made_from": {f"{path}.csv": {"key": "k", "sha256": digest} for path, digest in csv.items()}}


def test_a_new_layout_of_the_same_ranking_is_told_from_new_results():
    """No input changed: the ranking beside the document (its CSV's bytes) says whether its results
    changed (a new version of reportgen that scores otherwise: a correction) or only its layout."""
    same = {"2026/x": "r1", "2026/other": "r2"}
    (layout,) = republished("grand-sud", with_rankings(manifest("2026-02-07", "a", {}), **same),
                            with_rankings(manifest("2026-02-07", "b", {}), **same))
    assert layout.same_content and layout.reasons == ("nouvelle version de reportgen ou de ses modèles de bulletin",)
    assert str(layout).endswith("(même contenu)")
    (scored,) = republished("grand-sud", with_rankings(manifest("2026-02-07", "a", {}), **same),
                            with_rankings(manifest("2026-02-07", "b", {}), **{**same, "2026/x": "r9"}))
    assert not scored.same_content and scored.reasons == ("nouvelle version de reportgen : des résultats ont changé",)
    # a workbook corrected is a correction, whatever its ranking's bytes
    workbook = {"a.xlsx": {"sha256": "1", "date": "2026-01-10"}}
    (corrected,) = republished("grand-sud", with_rankings(manifest("2026-02-07", "a", workbook), **same),
                               with_rankings(manifest("2026-02-07", "b", {"a.xlsx": {"sha256": "2", "date": "2026-01-10"}}),
                                             **same))
    assert not corrected.same_content and corrected.reasons[0].startswith("classeur modifié")


def test_a_document_without_a_ranking_of_its_own_is_the_same_content_when_every_ranking_of_its_circuit_is():
    """A pool tournament's round, an annex: no CSV beside it; every ranking of its circuit unchanged
    says no result changed. Nothing recorded (a manifest of an earlier version): said as before."""
    def round_(html: str, **csv: str) -> dict:
        data = manifest("2026-02-07", html, {})
        data["documents"][0]["path"] = "2026/open/tour-1"
        data["pdfs"] = {"2026/open/tour-1.pdf": {"html": html}}
        return with_rankings(data, **csv)

    (layout,) = republished("poules", round_("a", **{"2026/open/classement": "r"}), round_("b", **{"2026/open/classement": "r"}))
    assert layout.same_content
    (scored,) = republished("poules", round_("a", **{"2026/open/classement": "r"}), round_("b", **{"2026/open/classement": "s"}))
    assert not scored.same_content and "des résultats ont changé" in scored.reasons[0]
    (unknown,) = republished("poules", round_("a"), round_("b", **{"2026/open/classement": "r"}))
    assert not unknown.same_content and unknown.reasons == ("nouvelle version de reportgen ou de ses modèles de bulletin",)


def test_a_new_layout_of_the_same_results_is_one_line_with_nothing_to_send_again(small_league_copy):
    """What a new version of reportgen does to a league whose workbooks did not change: each
    document already published comes out in other bytes, its ranking the same. The build says so in
    one line, « inutile de les renvoyer », on the terminal and on the secretary's page, and lists no
    document to send again (the previous publication's page hashes are made other, as an earlier
    version's would be)."""
    import json

    from tests.test_cli import run

    manifest_path = small_league_copy.outputs / "grand-sud" / "publications.json"
    data = json.loads(manifest_path.read_text(encoding="utf-8"))
    for record in data["pdfs"].values():
        record.update({key: "0" * 64 for key in ("html", "page") if key in record})
    manifest_path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    done = run("build", "--quiet", "--inputs", str(small_league_copy.inputs), "--outputs",
               str(small_league_copy.outputs), "--archive", str(small_league_copy.inputs.parent / "archive"))
    assert done.returncode == 0, done.stderr
    assert "renvoyez-l" not in done.stderr
    relaid = [line for line in done.stderr.splitlines() if "remis en page" in line]
    assert len(relaid) == 1 and relaid[0].endswith("avec les mêmes résultats (grand-sud) : inutile de les renvoyer")
    page = (small_league_copy.outputs / "verification.html").read_text(encoding="utf-8")
    assert "Documents remis en page" in page and "Documents déjà publiés modifiés par ce calcul" not in page


def close_season(inputs, day: dt.date) -> None:
    """inputs/saisons.toml as `reportgen season close 2026 --date …` writes it."""
    from reportgen.ingest.seasons import SEASONS_FILE, seasons_toml

    (inputs / SEASONS_FILE).write_bytes(seasons_toml({day.year: day}))


FINAL = "grand-sud/2026/classement-final-2026"
ANNEX = "grand-sud/2026/annexe-grand-sud-2026"


def test_a_late_workbook_dated_before_the_closing_day_is_a_correction_of_the_final_ranking(small_league_copy):
    """Season 2026 closed on 28 February and its final ranking published (dated 10 January, its last
    tournament); a club's workbook of 14 February arrives after. It counts (Grand Sud §1: every
    tournament of the year), and the final ranking already sent moves to 14 February: a correction,
    said with the closing, the workbook and its day, never a new edition passed over in silence."""
    from tests.test_cli import run

    inputs, outputs = small_league_copy.inputs, small_league_copy.outputs
    close_season(inputs, dt.date(2026, 2, 28))
    assert build(inputs, outputs, TODAY).ok
    assert (outputs / f"{FINAL}.html").is_file()
    write_tournament(inputs, "2026-02-14-nimes", day="14/02/2026", club="NIME", results=[
        [1, "PROVENCAL", "Marius", "", "Marseille"], [2, "DUPONT", "Jean", "1001", "Carcassonne"]])
    done = run("build", "--quiet", "--inputs", str(inputs), "--outputs", str(outputs),
               "--archive", str(inputs.parent / "archive"))
    assert done.returncode == 0, done.stderr
    said = ("la saison 2026 est terminée : son classement final déjà publié (daté du 10 janvier 2026) change ; "
            "classeur ajouté : 2026-02-14-nimes.xlsx (tournoi du 14 février 2026)")
    lines = done.stderr.splitlines()
    # not « pour la même date »: the final ranking's moved, its line says the one it was sent with
    assert "2 documents déjà publiés modifiés par ce calcul (renvoyez-les s’ils ont été envoyés) :" in lines
    assert "pour la même date" not in done.stderr
    assert ("  - grand-sud/2026/classement-final-2026 (Classement final de la saison 2026, 14 février 2026) : "
            + said) in lines
    assert f"  - {ANNEX} (Classement régional Grand Sud 2026, 14 février 2026) : {said}" in lines
    page = (outputs / "verification.html").read_text(encoding="utf-8")
    assert "Documents déjà publiés modifiés par ce calcul" in page and "déjà publié (daté du 10\u00a0janvier 2026)" in page
    assert "pour la même date" not in page
    corrections = (outputs / "site" / "corrections.html").read_text(encoding="utf-8")
    corrections = corrections.replace("\u00a0", " ").replace("\u202f", " ")  # French typography's spaces
    assert "la saison 2026 est terminée : son classement final déjà publié (daté du 10 janvier 2026) change" in corrections
    assert "Classement final de la saison 2026" in corrections


def test_a_late_workbook_of_an_earlier_day_leads_the_final_ranking_s_reasons_with_the_closing(small_league_copy):
    """A workbook of 5 January arrives once the season is closed: the final bulletin keeps its date
    and says the closing first; the 10 January bulletin it changes too is a correction like any."""
    inputs, outputs = small_league_copy.inputs, small_league_copy.outputs
    close_season(inputs, dt.date(2026, 2, 28))
    assert build(inputs, outputs, TODAY).ok
    write_tournament(inputs, "2026-01-05-nimes", day="05/01/2026", club="NIME", results=[
        [1, "PROVENCAL", "Marius", "", "Marseille"], [2, "DUPONT", "Jean", "1001", "Carcassonne"]])
    result = build(inputs, outputs, TODAY)
    added = "classeur ajouté : 2026-01-05-nimes.xlsx (tournoi du 5 janvier 2026)"
    closed = "la saison 2026 est terminée : son classement final déjà publié change"
    assert changed(result) == {"grand-sud/2026/classement-2026-01-10": (added,), FINAL: (closed, added),
                               ANNEX: (closed, added)}


def test_a_closed_season_s_final_ranking_relaid_is_no_correction():
    """Nothing of the season changed (a new version of reportgen): no word of the closing."""
    def final(html: str) -> dict:
        return {"documents": [{"season": 2026, "path": "2026/classement-final-2026", "title": "Classement final",
                               "date": "2026-11-14"}], "annexes": [], "pdfs": {"2026/classement-final-2026.pdf":
                                                                               {"html": html}},
                "sources": {"workbooks": {}, "shared": {}, "closed": [2026], "final": [2026]}}

    (change,) = republished("grand-sud", final("a"), final("b"))
    assert change.reasons == ("nouvelle version de reportgen ou de ses modèles de bulletin",)


def test_a_tournament_announced_in_the_calendar_is_the_reason_given_not_a_new_layout(small_league_copy):
    """A tournament of 5 January announced in calendrier.xlsx, its workbook not arrived: the ranking
    of 10 January, already published, now says « provisoire : résultats de Perpignan du 5 janvier
    attendus ». The build said « remis en page par une nouvelle version de reportgen, avec les mêmes
    résultats », and the site « (même contenu) »: the calendar is the reason, and what a club member
    reads is that the list of awaited results changed, the bulletin not relaid."""
    from tests.test_calendar import write_calendar

    inputs, outputs = small_league_copy.inputs, small_league_copy.outputs
    write_calendar(inputs, [["05/01/2026", "grand-sud", "PERP", "Open de Perpignan", "Perpignan"]])
    result = build(inputs, outputs, TODAY)
    assert result.ok, result.problems
    assert changed(result) == {"grand-sud/2026/classement-2026-01-10": ("le calendrier (calendrier.xlsx) a changé",)}
    assert not any(change.same_content for change in result.republished)
    corrections = (outputs / "site" / "corrections.html").read_text(encoding="utf-8").replace("\u00a0", " ")
    assert "liste des résultats attendus mise à jour" in corrections and "même contenu" not in corrections
    # removed again: the same reason, the note gone
    (inputs / "calendrier.xlsx").unlink()
    assert changed(build(inputs, outputs, TODAY)) == {
        "grand-sud/2026/classement-2026-01-10": ("le calendrier (calendrier.xlsx) a changé",)}


def test_a_season_opened_again_withdraws_its_final_ranking_and_says_what_is_in_force(small_league_copy):
    """`reportgen season open 2026`, then `make`: the final bulletin the secretary may have mailed
    to the clubs left outputs/ and the site, and the build said only « les saisons closes
    (saisons.toml) ont changé » of the annex. It says that the final ranking is withdrawn, why, and
    which ranking is in force in its place: terminal, verification.html, the site's corrections."""
    from tests.test_cli import run
    from tests.test_seasons import reopen

    inputs, outputs = small_league_copy.inputs, small_league_copy.outputs
    close_season(inputs, dt.date(2026, 2, 28))
    assert build(inputs, outputs, TODAY).ok
    assert reopen(inputs, "2026").returncode == 0
    done = run("build", "--quiet", "--inputs", str(inputs), "--outputs", str(outputs),
               "--archive", str(inputs.parent / "archive"))
    assert done.returncode == 0, done.stderr
    assert not (outputs / f"{FINAL}.pdf").exists()
    lines = done.stderr.splitlines()
    start = lines.index("1 document déjà publié retiré par ce calcul (s’il a été envoyé, dites aux clubs qu’il est "
                        "retiré et ce qui est en vigueur à sa place) :")
    withdrawn = ("la saison 2026 est rouverte : son classement final est retiré ; en vigueur à sa place : "
                 "Classement après les tournois de Carcassonne et de Toulouse du 10 janvier 2026")
    assert lines[start + 1] == f"  - {FINAL} (Classement final de la saison 2026, 10 janvier 2026) : {withdrawn}"
    assert (f"  - {ANNEX} (Classement régional Grand Sud 2026, 10 janvier 2026) : les saisons closes (saisons.toml) "
            "ont changé ; la saison 2026 est rouverte : son classement n’est plus final") in lines
    page = (outputs / "verification.html").read_text(encoding="utf-8")
    assert "Documents déjà publiés retirés par ce calcul" in page and "son classement final est retiré" in page
    corrections = (outputs / "site" / "corrections.html").read_text(encoding="utf-8")
    corrections = corrections.replace("\u00a0", " ").replace("\u202f", " ")
    assert "la saison 2026 est rouverte : son classement final est retiré" in corrections
    # the ranking in force in its place linked
    assert ('en vigueur à sa place : <a href="../grand-sud/2026/classement-2026-01-10.html">Classement après les '
            "tournois de Carcassonne et de Toulouse") in corrections
    assert "classement-final-2026.html" not in corrections  # withdrawn: not linked


def test_a_final_ranking_withdrawn_comes_back_as_it_was_or_as_a_correction_of_the_one_withdrawn(small_league_copy):
    """Closed again, the final bulletin came back as a new document, never compared with the one
    withdrawn (the previous manifest no longer had it): a club that had the first was not told it
    changed. The manifest keeps what it withdrew until it comes back, through the builds between:
    closed again as it was, it is in force again, unchanged; with a tournament of 14 March played
    while the season was open, it is a correction of the one withdrawn, its date (10 January) said."""
    inputs, outputs = small_league_copy.inputs, small_league_copy.outputs
    close_season(inputs, dt.date(2026, 2, 28))
    assert build(inputs, outputs, TODAY).ok
    (inputs / "saisons.toml").unlink()  # opened again (as `reportgen season open` leaves it: no season closed)
    assert changed(build(inputs, outputs, TODAY))[FINAL][0].startswith("la saison 2026 est rouverte")
    close_season(inputs, dt.date(2026, 2, 28))
    result = build(inputs, outputs, TODAY)
    (back,) = [change for change in result.republished if change.path.endswith("classement-final-2026")]
    assert (back.kind, back.reasons) == ("restored", ("la saison 2026 est close de nouveau : son classement final "
                                                      "retiré à sa réouverture est de nouveau en vigueur, inchangé",))
    (inputs / "saisons.toml").unlink()
    build(inputs, outputs, TODAY)  # withdrawn again
    write_tournament(inputs, "2026-03-14-nimes", day="14/03/2026", club="NIME", results=[
        [1, "PROVENCAL", "Marius", "", "Marseille"], [2, "DUPONT", "Jean", "1001", "Carcassonne"]])
    assert FINAL not in changed(build(inputs, outputs, TODAY))  # a build while open: still withdrawn, kept
    close_season(inputs, dt.date(2026, 3, 31))
    result = build(inputs, outputs, TODAY)
    assert changed(result)[FINAL] == (
        "la saison 2026 est close de nouveau : son classement final retiré à sa réouverture (daté du 10 janvier 2026) "
        "change", "classeur ajouté : 2026-03-14-nimes.xlsx (tournoi du 14 mars 2026)",
        "les saisons closes (saisons.toml) ont changé")
    import json
    assert "withdrawn" not in json.loads((outputs / "grand-sud" / "publications.json").read_text(encoding="utf-8"))


def test_a_bulletin_whose_workbook_is_removed_is_withdrawn(small_league_copy):
    """The 20 January tournament's workbook deleted (a tournament that was not one of the circuit's):
    its bulletin, already published, left outputs/ in silence. Withdrawn, with its workbook named.
    A whole season leaving the publication (its workbooks archived out of inputs/) withdraws nothing."""
    inputs, outputs = small_league_copy.inputs, small_league_copy.outputs
    write_tournament(inputs, "2026-01-20-nimes", day="20/01/2026", club="NIME", results=[
        [1, "PROVENCAL", "Marius", "", "Marseille"], [2, "DUPONT", "Jean", "1001", "Carcassonne"]])
    assert build(inputs, outputs, TODAY).ok
    (inputs / "2026-01-20-nimes.xlsx").unlink()
    result = build(inputs, outputs, TODAY)
    (gone,) = result.republished
    assert (gone.kind, str(gone)) == ("withdrawn", "grand-sud/2026/classement-2026-01-20 (Classement après le tournoi "
                                      "de Nîmes du 20 janvier 2026) : document retiré ; classeur "
                                      "retiré : 2026-01-20-nimes.xlsx (tournoi du 20 janvier 2026)")
    (inputs / "2025-06-01-albi.xlsx").unlink()  # season 2025 leaves whole (2026's bulletins compare with it)
    left = build(inputs, outputs, TODAY)
    assert left.ok and not list((outputs / "grand-sud" / "2025").glob("*.*"))
    assert [change.kind for change in left.republished if change.path.startswith("2025/")] == []


def test_a_bulletin_whose_workbook_moved_to_another_day_is_withdrawn_with_it(small_league_copy):
    """A workbook of 20 January whose date is corrected to 21 January: its bulletin of 20 January
    leaves, withdrawn for that workbook (its day now said); the 21 January one is a new edition, in
    force in its place."""
    inputs, outputs = small_league_copy.inputs, small_league_copy.outputs
    write_tournament(inputs, "2026-01-20-nimes", day="20/01/2026", club="NIME", results=[
        [1, "PROVENCAL", "Marius", "", "Marseille"], [2, "DUPONT", "Jean", "1001", "Carcassonne"]])
    assert build(inputs, outputs, TODAY).ok
    write_tournament(inputs, "2026-01-20-nimes", day="21/01/2026", club="NIME", results=[
        [1, "PROVENCAL", "Marius", "", "Marseille"], [2, "DUPONT", "Jean", "1001", "Carcassonne"]])
    result = build(inputs, outputs, TODAY)
    assert [(change.kind, change.path, change.reasons) for change in result.republished] == [
        ("withdrawn", "2026/classement-2026-01-20",
         ("document retiré", "classeur modifié : 2026-01-20-nimes.xlsx (tournoi du 21 janvier 2026)",
          "en vigueur à sa place : Classement après le tournoi de Nîmes du 21 janvier 2026"))]


def test_a_bulletin_a_directory_change_takes_back_is_withdrawn(small_league_copy):
    """Nîmes moved to the Bouches-du-Rhône in clubs.xlsx: its tournament of 20 January is no longer
    one of the circuit's, and its bulletin already published left in silence (no workbook changed).
    Withdrawn, the directory named: any source that explains it, not a new version of reportgen."""
    inputs, outputs = small_league_copy.inputs, small_league_copy.outputs
    write_tournament(inputs, "2026-01-20-nimes", day="20/01/2026", club="NIME", results=[
        [1, "PROVENCAL", "Marius", "", "Marseille"], [2, "DUPONT", "Jean", "1001", "Carcassonne"]])
    assert build(inputs, outputs, TODAY).ok
    book = openpyxl.load_workbook(inputs / "clubs.xlsx")
    next(row for row in book["Clubs"].iter_rows(min_row=2) if row[0].value == "NIME")[2].value = "13"
    book.save(inputs / "clubs.xlsx")
    result = build(inputs, outputs, TODAY)
    assert result.ok and not (outputs / "grand-sud" / "2026" / "classement-2026-01-20.html").exists()
    assert [(change.kind, change.reasons) for change in result.republished if change.path.endswith("2026-01-20")] == [
        ("withdrawn", ("document retiré", "l’annuaire des clubs (clubs.xlsx) a changé"))]


def correction_rows(page: str) -> list[str]:
    """The words of each correction's row (corrections.html) or line (the home page), in page order."""
    import html
    import re

    return [" ".join(html.unescape(re.sub(r"<[^>]+>", " ", row)).split())
            for row in re.findall(r'<tr role="row"><td.*?</tr>|<li>[^<]*· .*?</li>', page, re.S)]


def test_two_builds_of_one_day_list_their_corrections_in_the_order_they_ran(small_league_copy, browser):
    """A season closed, then opened again, on one day: the corrections page sorted that day's rows by
    their documents' paths, so « la saison 2026 est terminée : son classement est désormais final » sat
    above the reopening's rows, and the home page's « Dernières corrections » began with the closing.
    Each build's rows are numbered after those before (site/corrections.json): the latest first."""
    inputs, outputs = small_league_copy.inputs, small_league_copy.outputs
    close_season(inputs, dt.date(2026, 2, 28))
    assert build(inputs, outputs, TODAY).ok
    (inputs / "saisons.toml").unlink()  # opened again, as `reportgen season open` leaves it
    assert build(inputs, outputs, TODAY).ok
    rows = correction_rows((outputs / "site" / "corrections.html").read_text(encoding="utf-8"))
    opened = [index for index, row in enumerate(rows) if "rouverte" in row]
    closed = [index for index, row in enumerate(rows) if "désormais final" in row]
    assert opened and closed and max(opened) < min(closed), rows
    home = (outputs / "index.html").read_text(encoding="utf-8")
    home = correction_rows(home[home.index("Dernières corrections"):home.index("Toutes les corrections")])
    assert home and "rouverte" in home[0], home
    # the history keeps that order for the builds after (a build with no correction adds none)
    assert build(inputs, outputs, TODAY).ok
    assert correction_rows((outputs / "site" / "corrections.html").read_text(encoding="utf-8")) == rows
    # a click on « Corrigé le » (site.js sorts by its cells' data-sort) keeps it within the day: the
    # day's rows sorted by day alone stayed as they were, the reopening above the closing both ways
    page = outputs / "site" / "corrections.html"
    browser.look(page, outputs, 1280, audit=False)
    tab = browser.pages[1280]
    clicked = []
    for _ in range(2):  # oldest first, then newest first
        tab.click("table.corrections thead th:first-child button")
        clicked.append(correction_rows(tab.inner_html("table.corrections")))
    assert clicked == [rows[::-1], rows]


def corrections_links(browser, outputs) -> list[tuple[str, list[tuple[str, str]]]]:
    """Each row of corrections.html as Chromium shows it at 1280 px, newest first: its document's
    words, and each link of the row (its words, its address); the page checked at both widths first
    (its screenshots in test-artifacts/browser/)."""
    page = outputs / "site" / "corrections.html"
    check_page(browser, page, outputs)
    rows = browser.pages[1280].eval_on_selector_all("table.corrections tbody tr", """rows => rows.map(row => [
        row.querySelector("th").innerText, [...row.querySelectorAll("a")].map(a => [a.innerText, a.getAttribute("href")])])""")
    return [(" ".join(document.split()), [(" ".join(words.split()), href) for words, href in links])
            for document, links in rows]


def test_a_withdrawn_document_s_row_links_what_is_in_force_in_its_place_never_its_later_namesake(
        small_league_copy, browser):
    """The Nîmes workbook of 20 January dated 21 January, then 20 January again. The row of its
    20 January bulletin withdrawn said no « en vigueur à sa place » (given only for a season opened
    again) and, once that bulletin was published again, linked it: the row is about the one
    withdrawn. Each withdrawn row names the bulletin in force in its place, linked while it is
    published, and never links its own title; the row of the bulletin published again links it."""
    inputs, outputs = small_league_copy.inputs, small_league_copy.outputs
    twentieth = ("Classement après le tournoi de Nîmes du 20 janvier 2026", "../grand-sud/2026/classement-2026-01-20.html")
    twenty_first = ("Classement après le tournoi de Nîmes du 21 janvier 2026",
                    "../grand-sud/2026/classement-2026-01-21.html")

    def nimes(day: str) -> None:
        write_tournament(inputs, "2026-01-20-nimes", day=day, club="NIME", results=[
            [1, "PROVENCAL", "Marius", "", "Marseille"], [2, "DUPONT", "Jean", "1001", "Carcassonne"]])

    nimes("20/01/2026")
    assert build(inputs, outputs, TODAY).ok
    nimes("21/01/2026")
    (moved,) = build(inputs, outputs, TODAY).republished
    assert (moved.kind, moved.in_its_place) == ("withdrawn", "2026/classement-2026-01-21")
    assert corrections_links(browser, outputs) == [(twentieth[0], [twenty_first])]
    nimes("20/01/2026")
    back = build(inputs, outputs, TODAY).republished
    assert {(change.kind, change.path, change.in_its_place) for change in back} == {
        ("withdrawn", "2026/classement-2026-01-21", "2026/classement-2026-01-20"),
        ("restored", "2026/classement-2026-01-20", "")}
    # newest first (one build's rows by date): 21 January withdrawn, 20 January in its place; 20
    # January published again, linked; the first withdrawal, whose bulletin in its place is withdrawn
    # since, says so and links what is in force now (it linked nothing, as if the 21 January one were)
    assert corrections_links(browser, outputs) == [(twenty_first[0], [twentieth]), (twentieth[0], [twentieth]),
                                                   (twentieth[0], [twentieth])]
    assert corrections_reasons(browser)[2].endswith(
        f"en vigueur à sa place : {twenty_first[0]}, retiré depuis ; en vigueur aujourd’hui : {twentieth[0]}")


def corrections_reasons(browser) -> list[str]:
    """The reasons of each row of the corrections page `corrections_links` opened, as Chromium shows
    them at 1280 px, newest first, their spaces plain."""
    cells = browser.pages[1280].eval_on_selector_all("table.corrections tbody tr td:last-child",
                                                     "cells => cells.map(cell => cell.innerText)")
    return [" ".join(cell.replace("\u00a0", " ").replace("\u202f", " ").split()) for cell in cells]


def test_the_masters_notice_names_those_the_ranking_would_qualify_as_french_lists_them(tmp_path):
    """« Il qualifierait aujourd’hui DANIEL Raphaël, CLÉMENT Nathalie à la place de PHILIPPE
    Sébastien, HUMBERT Pierre »: two names each, read as four; and the notice alone of the build's
    began with a capital after its file's colon. A second Carcassonne tournament of 2026 replaces the
    first (§1): the ranking the Masters was prepared on moves."""
    from reportgen.pipeline import load, score
    from tests.conftest import EXAMPLE_INPUTS

    inputs = shutil.copytree(EXAMPLE_INPUTS, tmp_path / "inputs")
    write_tournament(inputs / "2026", "2026-11-21-carcassonne", day="21/11/2026", club="CARC", results=[
        [1, "ANDRÉ", "Hélène", "", "Carcassonne"], [2, "DUPONT", "Jean", "", "Carcassonne"]])
    notices = score(load(inputs, TODAY), ["grand-sud", "masters"]).reports["masters"].notices
    assert notices == ["masters/masters-2026.xlsx : le classement final Grand Sud 2026 a changé depuis la préparation du "
                       "Masters : les participants restent ceux du classeur. Il qualifierait aujourd’hui DANIEL Raphaël "
                       "et CLÉMENT Nathalie à la place de PHILIPPE Sébastien et HUMBERT Pierre."]


def test_a_row_written_before_the_history_kept_the_path_of_what_is_in_force_links_it_by_its_title(
        small_league_copy, browser):
    """A season opened again before the corrections' history kept the path of the document in force
    in a withdrawn one's place (`in_its_place`, forty-fourth round): its row says « en vigueur à sa
    place : Classement après … » and linked nothing. The one document of the circuit under that title
    is linked, as a row written since links it."""
    import json

    from tests.test_seasons import reopen

    inputs, outputs = small_league_copy.inputs, small_league_copy.outputs
    close_season(inputs, dt.date(2026, 2, 28))
    assert build(inputs, outputs, TODAY).ok
    assert reopen(inputs, "2026").returncode == 0
    assert build(inputs, outputs, TODAY).ok
    history = outputs / "site" / "corrections.json"
    kept = json.loads(history.read_text(encoding="utf-8"))
    assert any(row.pop("in_its_place", None) for row in kept["corrections"])  # as an earlier version kept it
    history.write_text(json.dumps(kept, ensure_ascii=False), encoding="utf-8")
    shutil.rmtree(outputs / ".reportgen")  # the state of another version: the site is made again
    assert build(inputs, outputs, TODAY).ok
    in_force = ("Classement après les tournois de Carcassonne et de Toulouse du 10 janvier 2026",
                "../grand-sud/2026/classement-2026-01-10.html")
    rows = corrections_links(browser, outputs)
    assert ("Classement final de la saison 2026 (10 janvier 2026)", [in_force]) in rows
