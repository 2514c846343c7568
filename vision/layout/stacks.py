"""Boxes lying on one another: the same tile found twice, or a promoted kong's fourth tile."""

from __future__ import annotations

import numpy as np

from vision.rows import Frame
from vision.types import TileRead

#: how close in size and shape a tile stacked on a sideways one is to it
STACK_SIZE = 0.7
#: how much of the smaller of two boxes their overlap must cover to count as one tile twice
DUPLICATE_COVER = 0.55
#: how sure the stacked-tile model must be that a sideways tile carries another, found as one
#: box with it, to read a promoted kong (`vision.stacked`; chosen on rendered check scenes,
#: where no single sideways tile of a pung reads this high: see the model card)
STACKED_SURE = 0.8


def carries_a_tile(read: TileRead) -> bool:
    """Whether a tile found as one box has a second lying on it (a promoted kong's fourth
    tile on the claimed one, seen from above): the pair's side wall stands twice as tall."""
    return read.stacked >= STACKED_SURE


def duplicates(reads: list[TileRead], boxes: np.ndarray) -> dict[int, int]:
    """Detections that mostly cover a better-scored one (the same tile found twice, or a
    tile stacked on another): each mapped to the one it covers."""
    order = sorted(range(len(reads)), key=lambda i: -reads[i].detection.score)
    area = (boxes[:, 2] - boxes[:, 0]) * (boxes[:, 3] - boxes[:, 1])
    kept: list[int] = []
    dups: dict[int, int] = {}
    for i in order:
        for k in kept:
            iw = min(boxes[i, 2], boxes[k, 2]) - max(boxes[i, 0], boxes[k, 0])
            ih = min(boxes[i, 3], boxes[k, 3]) - max(boxes[i, 1], boxes[k, 1])
            if iw > 0 and ih > 0 and iw * ih > DUPLICATE_COVER * max(min(area[i], area[k]), 1e-6):
                dups[i] = k
                break
        else:
            kept.append(i)
    return dups


def put_back_stacked(
    reads: list[TileRead], frame: Frame, rows: list[list[int]], dups: dict[int, int]
) -> None:
    """Put back into its row a tile stacked on a sideways tile: a promoted kong's fourth.

    Seen from above, a tile laid on the claimed tile of a pung covers it
    almost exactly, like one tile found twice; it differs in lying across
    the row too, and in being as large as the tile beneath (a second box on
    one tile is mostly a part of it).
    """
    ratio = frame.eu / np.maximum(frame.ev, 1e-6)
    size = frame.eu * frame.ev
    for d, k in list(dups.items()):
        if not reads[k].detection.sideways:
            continue
        similar = min(size[d], size[k]) > STACK_SIZE * max(size[d], size[k])
        if similar and ratio[d] > STACK_SIZE * ratio[k]:
            row = next((r for r in rows if k in r), None)
            if row is not None:
                row.append(d)
                reads[d].detection.sideways = True
                del dups[d]
