"""A second, deliberately naive implementation of the Grand Sud ranking, written from the
regulation without pandas, to cross-check reportgen.circuits.grand_sud on whole leagues."""

from reportgen.circuits.grand_sud.tables import duplicate_points, final_points


def reference_rankings(results, events, departements=("09", "11", "12", "30", "31", "32", "34", "46",
                                                      "48", "65", "66", "81", "82")):
    """[(season, date, final, sorted [(rank, player_id, total)])] in publication order."""
    events = sorted(events, key=lambda e: (e.date, e.id))
    rows = {e.id: [] for e in events}
    for r in results.itertuples():
        rows[r.event].append((r.player_id, int(r.place), int(r.place_duplicate)))
    eligible = {e.id: e.content.club.departement in departements for e in events}
    points = {}
    published = []
    in_force = {}

    def ranking(day, final):
        year = day.year
        latest = {}
        for e in events:
            if eligible[e.id] and e.date <= day and (year if final else year - 1) <= e.date.year <= year:
                latest[e.content.series] = e  # later editions overwrite earlier ones
        window = [e.id for e in latest.values()]
        keep = max(1, len(window) // 2)
        mine = {}
        for tid in window:
            for pid, value in points[tid].items():
                mine.setdefault(pid, []).append(value)
        table = []
        for pid, values in mine.items():
            total = sum(sorted(values, reverse=True)[:keep])
            if total > 0:
                table.append((-total, len(values), -max(values), pid))
        table.sort()
        return sorted((1 + sum(1 for other in table if other[:3] < entry[:3]), entry[3], -entry[0])
                      for entry in table)

    dates = sorted({e.date for e in events})
    for day in dates:
        if published and day.year != published[-1][1].year:
            last_year = published[-1][1].year
            last_day = max(e.date for e in events if eligible[e.id] and e.date.year == last_year)
            final = ranking(last_day, True)
            published.append((last_year, last_day, True, final))
            in_force = {pid: rank for rank, pid, _ in final}
        todays = [e for e in events if e.date == day and eligible[e.id]]
        for e in todays:
            seeds = min(16, sum(1 for pid, _, _ in rows[e.id] if in_force.get(pid, 99) <= 16))
            points[e.id] = {pid: duplicate_points(dup, seeds) + final_points(place, seeds)
                            for pid, place, dup in rows[e.id]}
        if todays:
            current = ranking(day, False)
            published.append((day.year, day, False, current))
            in_force = {pid: rank for rank, pid, _ in current}
    if published:
        last_year = published[-1][1].year
        last_day = max(e.date for e in events if eligible[e.id] and e.date.year == last_year)
        published.append((last_year, last_day, True, ranking(last_day, True)))
    return published
