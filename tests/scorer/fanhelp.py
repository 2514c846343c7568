"""Small helpers shared by the scorer tests: score a notation string."""

from __future__ import annotations

from scorer.engine import ScoreResult, score
from scorer.hand import Situation
from scorer.notation import parse_hand
from scorer.tiles import wind


def result(text: str, **flags) -> ScoreResult:
    """Score `text` (contract notation, last tile = winning tile) with situation flags.

    `seat` / `round` take wind letters; other keywords are `Situation` fields.
    """
    if "seat" in flags:
        flags["seat_wind"] = wind(flags.pop("seat"))
    if "round" in flags:
        flags["round_wind"] = wind(flags.pop("round"))
    return score(parse_hand(text), Situation(**flags))


def fans(text: str, **flags) -> dict[int, int]:
    """{fan id: count} of the best reading."""
    return {h.fan.id: h.count for h in result(text, **flags).fans}
