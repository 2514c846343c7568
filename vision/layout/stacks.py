"""Boxes lying on one another: the same tile found twice, or a promoted kong's fourth tile."""

from __future__ import annotations

import numpy as np

from vision.config import DEFAULT, LayoutConfig
from vision.rows import Frame, extents_from_steps, off_axis
from vision.types import TileRead, marked


def carries_a_tile(read: TileRead, sure: float = DEFAULT.stacked.sure) -> bool:
    """Whether a tile found as one box has a second lying on it (a promoted kong's fourth
    tile on the claimed one, seen from above): the pair's side wall stands twice as tall."""
    return read.stacked >= sure


def duplicates(
    reads: list[TileRead], boxes: np.ndarray, config: LayoutConfig = DEFAULT.layout
) -> dict[int, int]:
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
            if (
                iw > 0
                and ih > 0
                and iw * ih > config.duplicate_cover * max(min(area[i], area[k]), 1e-6)
            ):
                dups[i] = k
                break
        else:
            kept.append(i)
    return dups


def apart_in_rows(
    dups: dict[int, int], frame: Frame, rows: list[list[int]], config: LayoutConfig = DEFAULT.layout
) -> dict[int, int]:
    """The duplicates that lie one beside the other along their row are neighbours, not one
    tile found twice: in a row at a slant, or seen low, the upright boxes of neighbours
    overlap across their corners as much as a tile's two boxes do. One tile found twice
    has its boxes' centres within `LayoutConfig.duplicate_step` of the row's usual step
    (a tile's width there, whatever the boxes say) along the row: such a box stays a
    duplicate, of the tile it overlapped or else of the row's tile it lies on. Returns
    the duplicates left."""
    if abs(off_axis(frame.angle)) < config.duplicate_untilt:
        return dict(dups)
    steps = extents_from_steps(frame, rows).eu
    known = [i for row in rows if len(row) >= 3 for i in row]
    kept = {}
    for d, k in dups.items():
        if k not in known:
            kept[d] = k
            continue
        on = min(
            known, key=lambda i: float(np.hypot(frame.u[d] - frame.u[i], frame.v[d] - frame.v[i]))
        )
        for i in (k, on):
            if abs(frame.u[d] - frame.u[i]) < config.duplicate_step * steps[i]:
                kept[d] = i
                break
    return kept


def put_back_stacked(
    reads: list[TileRead],
    frame: Frame,
    rows: list[list[int]],
    dups: dict[int, int],
    config: LayoutConfig = DEFAULT.layout,
) -> tuple[list[TileRead], list[list[int]], dict[int, int]]:
    """Put back into its row a tile stacked on a sideways tile: a promoted kong's fourth.
    Returns the reads with such tiles marked sideways, the rows and the duplicates left.

    Seen from above, a tile laid on the claimed tile of a pung covers it
    almost exactly, like one tile found twice; it differs in lying across
    the row too, and in being as large as the tile beneath (a second box on
    one tile is mostly a part of it).
    """
    ratio = frame.wideness
    size = frame.eu * frame.ev
    rows, dups, stacked = [list(r) for r in rows], dict(dups), []
    for d, k in list(dups.items()):
        if not reads[k].detection.sideways:
            continue
        similar = min(size[d], size[k]) > config.stack_size * max(size[d], size[k])
        if similar and ratio[d] > config.stack_size * ratio[k]:
            row = next((r for r in rows if k in r), None)
            if row is not None:
                row.append(d)
                stacked.append(d)
                del dups[d]
    return marked(reads, stacked, True), rows, dups
