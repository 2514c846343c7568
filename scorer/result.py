"""What the engine returns: the counted fans, the fans left out, the total.

Kept apart from the engine so other parts (explanations, the web page) can
use the types without the scoring code.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from scorer.fans import Fan
from scorer.tiles import CODES


@dataclass
class FanHit:
    fan: Fan
    count: int
    tiles: list[list[int]]
    detail: str


@dataclass
class Excluded:
    fan: Fan
    reason: str
    by: int | None


@dataclass
class ScoreResult:
    fans: list[FanHit]
    excluded: list[Excluded]
    total: int
    meets_minimum: bool
    form: str
    sets: list[dict] = field(default_factory=list)

    def to_json(self) -> dict:
        """The response object of CONTRACTS.md (tile indices become codes)."""
        return {
            "fans": [
                {
                    "id": h.fan.id,
                    "name_zh": h.fan.name_zh,
                    "name_en": h.fan.name_en,
                    "points": h.fan.points,
                    "count": h.count,
                    "tiles": [[CODES[t] for t in occ] for occ in h.tiles],
                    "detail": h.detail,
                }
                for h in self.fans
            ],
            "total": self.total,
            "meets_minimum": self.meets_minimum,
            "excluded": [
                {
                    "id": e.fan.id,
                    "name_zh": e.fan.name_zh,
                    "name_en": e.fan.name_en,
                    "points": e.fan.points,
                    "reason": e.reason,
                    "by": e.by,
                }
                for e in self.excluded
            ],
            "form": self.form,
            "sets": [dict(s, tiles=[CODES[t] for t in s["tiles"]]) for s in self.sets],
        }
