"""What a season published, as the inputs give it today: the final bulletins, the CSV files and
the annexes of every circuit, each with the bytes it must have in outputs/ (a PDF: to be there,
next to an HTML that matches, since the build renders a PDF from its HTML only).

`reportgen archive` copies these files from outputs/, `reportgen mail` attaches the bulletins: both
first check that outputs/ holds what the inputs give, so nothing stale is archived or mailed."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from reportgen import pipeline
from reportgen.model import Document, Ranking, Report
from reportgen.render import excel, html
from reportgen.render import ranking as ranking_render
from reportgen.site import data as site_data
from reportgen.site import figures


@dataclass(frozen=True)
class Published:
    path: str  # relative to outputs/: grand-sud/2026/classement-final-2026.pdf
    kind: str  # bulletin | csv | annex
    circuit: str
    expected: bytes | None  # None for a PDF
    # an HTML bulletin's « Saison » link (base.html.j2), relative to outputs/: the site's season page
    season_page: str | None = None


def event_season(event: object) -> int:
    """The season of an event: its own `season` field when its circuit has one (the Masters of a
    season), else the year of its date."""
    season = getattr(getattr(event, "content", None), "season", None)
    return season if isinstance(season, int) else getattr(event, "date").year


def final_documents(report: Report, season: int) -> tuple[list[Document], list[str]]:
    """The season's final bulletins: the documents of its final rankings and those that are no
    ranking (the Masters' match sheets); the latest bulletin when the season has no final bulletin
    (said in the notes): no final ranking, or one still « à date », which has no bulletin of its own
    while the season runs (issue 27)."""
    rankings = [r for r in report.rankings if r.season == season]
    all_ranking_paths = {r.path for r in report.rankings}
    documented = {d.path for d in report.documents}
    finals = {r.path for r in rankings if r.final and r.path in documented}
    notes = []
    latest = next((r for r in reversed(rankings) if r.path in documented), None)
    if latest is not None and not finals:
        finals = {latest.path}
        notes.append(f"pas de bulletin final pour la saison {season} : le dernier bulletin "
                     f"({latest.path}) est archivé")
    documents = [d for d in report.documents if d.season == season
                 and (d.path in finals or d.path not in all_ranking_paths)]
    return documents, notes


def bulletin_files(slug: str, document: Document) -> list[Published]:
    return [Published(f"{slug}/{document.path}.html", "bulletin", slug, html.render(document).encode("utf-8"),
                      html.season_page(document)),
            Published(f"{slug}/{document.path}.pdf", "bulletin", slug, None)]


def ranking_file(slug: str, ranking: Ranking) -> Published:
    return Published(f"{slug}/{ranking.path}.csv", "csv", slug, ranking_render.to_spreadsheet_csv(ranking))


def season_files(scored: pipeline.Scored, season: int) -> tuple[list[Published], list[str]]:
    files: list[Published] = []
    notes: list[str] = []
    for slug, report in scored.reports.items():
        documents, said = final_documents(report, season)
        notes += [f"{slug} : {note}" for note in said]
        for document in figures.charted(documents, site_data.chart_records(report)):  # as the build drew them
            files += bulletin_files(slug, document)
        files += [ranking_file(slug, r) for r in report.rankings if r.season == season]
        files += [Published(f"{slug}/{annex.path}.xlsx", "annex", slug, excel.render_annex(annex))
                  for annex in report.annexes if annex.season == season]
    return files, notes


def stale(files: list[Published], outputs: Path) -> list[str]:
    """The files outputs/ lacks or holds in another version than the inputs give."""
    wrong = []
    for file in files:
        path = outputs / file.path
        if not path.is_file() or (file.expected is not None and path.read_bytes() != file.expected):
            wrong.append(file.path)
    return wrong
