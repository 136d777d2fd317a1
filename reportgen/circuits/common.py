"""Presentation shared by the circuits' documents."""

from __future__ import annotations


def evolution(previous_rank: int | None, rank: int) -> dict[str, str]:
    """Place before minus place now, as bulletins print it (▲ 3, ▼ 2, =, nouveau) and CSV writes it."""
    if previous_rank is None:
        return {"symbol": "", "text": "nouveau", "kind": "new", "value": "nouveau"}
    moved = previous_rank - rank
    if moved > 0:
        return {"symbol": "▲", "text": str(moved), "kind": "up", "value": f"+{moved}"}
    if moved < 0:
        return {"symbol": "▼", "text": str(-moved), "kind": "down", "value": str(moved)}
    return {"symbol": "=", "text": "", "kind": "same", "value": "0"}
