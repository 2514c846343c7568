"""Plain data for a declared hand and the situation it was won in.

The notation parser produces these; the engine, the recognizer's layout
stage and the web page all pass them around. Tiles are indices from
`scorer.tiles`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum


class MeldKind(StrEnum):
    CHOW = "chow"
    PUNG = "pung"
    KONG = "kong"


@dataclass(frozen=True)
class Meld:
    """A declared meld: exposed chow/pung/kong, or a concealed kong.

    `tile` is the lowest tile of a chow, the tile of a pung or kong.
    `claimed` is, for a chow, which of its three tiles (1-3) was claimed;
    for a pung or kong the seat it was claimed from (1 left/上家,
    2 opposite/对家, 3 right/下家); 0 for a concealed kong.
    `promoted` marks a pung later promoted to a kong (加杠).
    """

    kind: MeldKind
    tile: int
    claimed: int = 1
    promoted: bool = False

    @property
    def concealed(self) -> bool:
        return self.kind is MeldKind.KONG and self.claimed == 0

    @property
    def tiles(self) -> tuple[int, ...]:
        if self.kind is MeldKind.CHOW:
            return (self.tile, self.tile + 1, self.tile + 2)
        return (self.tile,) * (4 if self.kind is MeldKind.KONG else 3)


@dataclass(frozen=True)
class Hand:
    """A winning (or waiting) hand as laid down.

    `melds` are the declared melds in notation order, `concealed` the tiles
    still in the hand excluding the winning tile, `winning_tile` the tile
    won on (None for a 13-tile waiting hand).
    """

    melds: tuple[Meld, ...] = ()
    concealed: tuple[int, ...] = ()
    winning_tile: int | None = None

    @property
    def all_tiles(self) -> tuple[int, ...]:
        tiles = [t for m in self.melds for t in m.tiles] + list(self.concealed)
        if self.winning_tile is not None:
            tiles.append(self.winning_tile)
        return tuple(tiles)


@dataclass(frozen=True)
class Situation:
    """How and where the hand was won (the flags of the score request).

    Winds are tile indices (27 E, 28 S, 29 W, 30 N).
    """

    flowers: int = 0
    self_drawn: bool = False
    fourth_tile: bool = False
    kong: bool = False
    last_tile: bool = False
    seat_wind: int = 27
    round_wind: int = 27
    options: dict = field(default_factory=dict, compare=False, hash=False)
