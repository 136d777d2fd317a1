"""The circuits scored in registry order, each blocked by its own problems, by problems its scoring
finds, or by a blocked circuit it requires."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from reportgen import circuits, french
from reportgen.collector import uncollected
from reportgen.model import SILENT, Problem, Progress, Report, SourceRef
from reportgen.pipeline.calendar import mark_awaited
from reportgen.pipeline.loading import League
from reportgen.problems import UPSTREAM


@dataclass
class Scored:
    reports: dict[str, Report] = field(default_factory=dict)  # the circuits that may publish
    blocked: dict[str, list[Problem]] = field(default_factory=dict)  # the others, and why


def score(league: League, wanted: list[str] | None = None, progress: Progress = SILENT,
          then: Callable[[str, Report], None] = lambda slug, report: None, release: bool = False) -> Scored:
    """Score the circuits (those `wanted` and what they need), dependencies first; `then` is given
    each report as soon as it is made (the build lays it out and starts its PDFs). `release` (the
    build, which keeps what it needs of each report in `then`): each report, once `then` has it and
    every circuit that reads it is scored, is replaced in `scored.reports` by one holding its notices
    only, so that a circuit's documents, with every player's row of every dated bulletin, are not
    all held until the build ends (at 100x, most of the build's memory).

    A circuit is blocked by any problem of its own inputs, by problems its scoring finds (those
    that need the whole league to be seen, such as a Masters pairing that is not the schedule's),
    or by a blocked circuit it needs.
    """
    needed = set(circuits.CIRCUITS if wanted is None else wanted)
    for slug in circuits.CIRCUITS:  # the registry lists dependencies first
        if slug in needed:
            needed |= set(circuits.REGISTRY[slug].requires)
    scored = Scored()
    chosen = [slug for slug in circuits.CIRCUITS if slug in needed
              and (league.circuits[slug].events or league.circuits[slug].problems)]
    for slug in chosen:
        if circuits.REGISTRY[slug].template_folder:  # a plug-in's own templates, for whatever renders its documents
            from reportgen.render.html import add_templates

            add_templates(Path(circuits.REGISTRY[slug].template_folder))
    progress.phase("calcul des classements", len(chosen))
    # The cycle collector paused while the circuits are scored and laid out: running it while they
    # are laid out (what was held before frozen out of its passes or not) lowered the peak by 81 MiB
    # at 100x (3 %) for 131 CPU-s of collector against 19 (455 full passes: docs/performance.md).
    # Python's cycle collector paused: scoring makes millions of small containers and few cycles,
    # and the collector's passes over the whole league were a third of the Grand Sud's scoring at
    # 10x and 6 s of its 18 at 100x (measured, for 6 % more memory).
    with uncollected():
        for index, slug in enumerate(chosen):
            report = _score_one(league, slug, scored)
            if report is not None:
                then(slug, report)
            progress.advance()
            if release:
                read_later = {r for later in chosen[index + 1:] for r in circuits.REGISTRY[later].requires}
                for done, kept in scored.reports.items():
                    if done not in read_later and (kept.documents or kept.annexes or kept.rankings or kept.messages):
                        scored.reports[done] = Report(notices=kept.notices)
                del report  # the last reference to it here: released means freed
    return scored


def _score_one(league: League, slug: str, scored: Scored) -> Report | None:
    """One circuit's report, or the problems that block it (its own, or a circuit it needs blocked)."""
    circuit, inputs = circuits.CIRCUITS[slug], league.circuits[slug]
    problems = league.problems_of(slug)
    held = [r for r in circuit.info.requires if r in scored.blocked]
    if not problems and held:
        # the circuits by their titles, as the secretary knows them (« Classement régional Grand Sud »);
        # a hold (model.Level.HELD): theirs are the problems to correct
        titles = [f"« {circuits.REGISTRY[r].title} »" for r in held]
        problems = [UPSTREAM(SourceRef(inputs.events[0].id), circuits=", ".join(titles),
                             slug=f"« {circuit.info.title} »", joined=french.joined(titles))]
    if not problems:
        # A circuit it needs with nothing in inputs/ (no workbook, no problem: never scored) gives an
        # empty report: the circuit says what it lacks (the Masters, `no-ranking`), a problem to correct.
        upstream = {r: scored.reports.get(r, Report()) for r in circuit.info.requires}
        report = circuit.score(inputs.results, inputs.events, league.settings.circuits[slug], league.reading,
                               upstream)
        problems = sorted(report.problems)
        # « provisoire : résultats … attendus » on a ranking that awaits an announced tournament:
        # here, so that every command that scores (build, mail, archive) gives the same documents.
        report = mark_awaited(slug, report, league.calendar, league.reading)
    if problems:
        scored.blocked[slug] = problems
        return None
    scored.reports[slug] = report
    return report


