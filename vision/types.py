"""Plain data passed between the recognition stages.

photo (numpy BGR image) → list[Detection] (where tiles are) →
list[TileRead] (what each tile is, as probabilities) → Layout (groups,
melds, winning tile, flowers) → hand notation. Each stage takes and returns
only these, so each can be tested alone. No stage edits its input: one
that changes something returns a new value (`dataclasses.replace`), so the
same reads can be laid out again another way. Groups and layouts are
frozen; detections and reads are plain so that tests can build them.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace

import numpy as np

from vision.notes import Note


@dataclass
class Detection:
    """One tile found in the photo.

    `box` is axis-aligned (x1, y1, x2, y2) in pixels of the upright photo.
    `sideways` is True when the detector already knows the tile lies with its
    long side along its row (a claimed tile of an exposed meld); the layout
    judges the rest (`Layout.sideways`). `score` is the detector's confidence
    that a tile is there.
    `corners` optionally gives the four corners (x, y) of the tile face.
    """

    box: tuple[float, float, float, float]
    score: float
    sideways: bool = False
    corners: tuple[tuple[float, float], ...] | None = None

    @property
    def center(self) -> tuple[float, float]:
        x1, y1, x2, y2 = self.box
        return ((x1 + x2) / 2, (y1 + y2) / 2)

    @property
    def width(self) -> float:
        return self.box[2] - self.box[0]

    @property
    def height(self) -> float:
        return self.box[3] - self.box[1]


@dataclass
class TileRead:
    """A detection with its class probabilities over `scorer.tiles.CODES`.

    `probs` has 43 entries (34 kinds, 8 flowers, back). `chosen` is the
    code finally assigned (after rule-aware decoding it may differ from
    the most probable one; `overridden` then says so).
    """

    detection: Detection
    probs: np.ndarray
    chosen: str = ""
    overridden: bool = False
    #: where the top of the tile's face points in the photo (x right, y down), its length
    #: the confidence (`vision.orient`); None when not looked at
    up: tuple[float, float] | None = None
    #: how likely another tile lies on this one, found as one box with it (`vision.stacked`:
    #: a promoted kong's fourth tile on the claimed one); 0 when not looked at
    stacked: float = 0.0
    #: what the tile looks like to the classifier, as text (`vision.exemplars.encode_look`):
    #: a player's naming of the tile makes it an exemplar; None when not read whole
    look: str | None = None

    @property
    def confidence(self) -> float:
        from scorer.tiles import INDEX

        return float(self.probs[INDEX[self.chosen]]) if self.chosen else float(self.probs.max())


def marked(reads: list[TileRead], tiles: Iterable[int], sideways: bool) -> list[TileRead]:
    """The reads with the sideways mark of each of `tiles` set to `sideways` (new reads for
    those, the others as they were)."""
    chosen = set(tiles)
    return [
        replace(r, detection=replace(r.detection, sideways=sideways)) if i in chosen else r
        for i, r in enumerate(reads)
    ]


@dataclass(frozen=True)
class Group:
    """Tiles that lie together: a meld, the concealed row, the winning tile or flowers."""

    role: str  # "concealed" | "meld" | "concealed_kong" | "winning" | "flowers" | "unknown"
    # | "extra" (tiles apart from the hand, not part of it: discards caught in the photo)
    tiles: list[int] = field(default_factory=list)  # indices into the TileRead list
    claimed: int = 0  # meld number of the notation (giver seat / claimed chow tile)
    promoted: bool = False


@dataclass(frozen=True)
class Layout:
    """How the tiles are laid out, before and after decoding."""

    groups: list[Group] = field(default_factory=list)
    warnings: list[Note] = field(default_factory=list)
    #: why this reading may be wrong though nothing in it is (not shown to the user): the
    #: pipeline then tries the layout's other readings too (`vision.readhand.read_hand`)
    doubts: list[str] = field(default_factory=list)
    rotation: int = 0  # how far the photo is turned clockwise from the player's view
    #: for each tile read, whether it lies across its row (the claimed tile of a meld)
    sideways: tuple[bool, ...] = ()
