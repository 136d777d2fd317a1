"""What the Grand Sud's property tests draw alike: the days and organisers of a league's tournaments."""

import datetime as dt

from hypothesis import strategies as st


@st.composite
def club_days(draw, clubs: list[str], years: tuple[int, ...] = (2025, 2026), months: int = 12,
              most: int = 7) -> list[tuple[dt.date, str]]:
    """Up to `most` tournaments' (day, organiser), a 1st or a 15th of the first `months` months of
    `years`: never two of one club on one day (one workbook would replace the other)."""
    found: list[tuple[dt.date, str]] = []
    for _ in range(draw(st.integers(1, most))):
        day = dt.date(draw(st.sampled_from(years)), draw(st.integers(1, months)), draw(st.sampled_from([1, 15])))
        club = draw(st.sampled_from(clubs))
        if (day, club) not in found:
            found.append((day, club))
    return found
