"""Plain data passed between the layout, geometry and drawing stages.

World units: one tile width (about 3 cm). The table is the plane z = 0,
x to the right of the player, y away from the player, z up.
"""

from __future__ import annotations

from dataclasses import dataclass, field

# body of a tile in tile widths: 30 x 40 x 20 mm is typical of MCR sets
TILE_W = 1.0
TILE_D = 1.33
TILE_T = 0.68


@dataclass
class Placement:
    """One tile lying on the table.

    `angle` is the in-plane rotation in degrees (counter-clockwise seen from
    above) of the face's "up" direction from +y, so 0 is a tile read by the
    player and 90 a sideways tile. `code` is what a viewer can see (`back`
    for a face-down tile), `true_code` the tile itself. A `standing` tile
    stands on its bottom edge with its face towards its player; `seat` is
    whose tile it is at a whole table (0 the camera's, then 1, 2, 3 to the
    right, opposite and left).
    """

    true_code: str
    x: float
    y: float
    angle: float = 0.0
    face_down: bool = False
    sideways: bool = False
    level: int = 0
    group: str = ""
    standing: bool = False
    seat: int = 0

    @property
    def code(self) -> str:
        return "back" if self.face_down else self.true_code


@dataclass
class Layout:
    """Tiles of a scene plus what the arrangement means (hand notation)."""

    kind: str
    tiles: list[Placement] = field(default_factory=list)
    hand: str | None = None
    flowers: list[str] = field(default_factory=list)
    melds: list[dict] = field(default_factory=list)
    #: index of the winning tile's kind (whole-table scenes)
    winning: int | None = None
    #: whether the three other copies of the winning tile lie face up on the table
    fourth_tile: bool | None = None

    def bounds(self) -> tuple[float, float, float, float]:
        """x1, y1, x2, y2 of all tile centres, padded by one tile depth."""
        xs = [t.x for t in self.tiles]
        ys = [t.y for t in self.tiles]
        return min(xs) - TILE_D, min(ys) - TILE_D, max(xs) + TILE_D, max(ys) + TILE_D
