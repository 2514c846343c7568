"""Who pays whom after a win (rulebook seed 000, 第十条 scoring of a hand).

Every losing player pays the base 8 (底分); the total fan count is paid on
top by each player on a self-draw, by the discarder alone on a discard.
"""

from __future__ import annotations

BASE = 8


def payments(total: int, self_drawn: bool) -> dict[str, int]:
    """Per-player amounts: winner positive, payers negative.

    Self-draw: {"winner": 3 * (8 + total), "other": -(8 + total)} (three others);
    discard: {"winner": 24 + total, "discarder": -(8 + total), "other": -8}
    (the two others each).
    """
    if isinstance(total, bool) or not isinstance(total, int) or total < 0:
        raise ValueError(f"total must be a non-negative whole number of points, got {total!r}")
    if self_drawn:
        each = BASE + total
        return {"winner": 3 * each, "other": -each}
    return {"winner": 3 * BASE + total, "discarder": -(BASE + total), "other": -BASE}
