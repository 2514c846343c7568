"""The winner's hand looked at again, at the scale the usual detector knows.

A whole table is looked at by the table detector at its larger input, where
the hand's near tiles are the largest in the photo: it finds some of them only
faintly and fits their boxes loosely, and a tile missed or a box cut short
breaks the hand. Once the hand is picked, its area alone is looked at by the
usual detector, for which tiles of that size are what it learned on. Its boxes
replace the hand's; a tile it finds where none was found joins the hand; a box
on a tile outside the hand (a pond's or the wall's) stays out. Which reading of
the hand is kept is decided by the pipeline.
"""

from __future__ import annotations

import numpy as np

from vision.config import DEFAULT, HandZoomConfig
from vision.detect import ious
from vision.rows import tile_width
from vision.types import Detection

Area = tuple[int, int, int, int]


def hand_area(
    boxes: np.ndarray, shape: tuple[int, int], config: HandZoomConfig = DEFAULT.hand_zoom
) -> Area:
    """The part of the photo to look at: the hand's tiles (`boxes`) and `pad` tile sizes
    around them (a tile missed at the row's end, the winning tile or flowers set apart),
    within the photo (`shape`: height, width)."""
    pad = config.pad * tile_width(boxes)
    h, w = shape
    x1, y1 = max(0, int(boxes[:, 0].min() - pad)), max(0, int(boxes[:, 1].min() - pad))
    x2, y2 = (
        min(w, int(np.ceil(boxes[:, 2].max() + pad))),
        min(h, int(np.ceil(boxes[:, 3].max() + pad))),
    )
    return x1, y1, x2, y2


def in_photo(found: list[Detection], area: Area) -> list[Detection]:
    """Boxes found in the area's pixels, in the photo's."""
    x0, y0 = area[0], area[1]
    return [
        Detection((x1 + x0, y1 + y0, x2 + x0, y2 + y0), d.score, d.sideways)
        for d in found
        for x1, y1, x2, y2 in [d.box]
    ]


def _overlaps(d: Detection, others: list[Detection], most: float) -> bool:
    """Whether `d` overlaps any of `others` at least `most` (IoU)."""
    if not others:
        return False
    return bool(
        ious(np.array(d.box, float), np.array([o.box for o in others], float)).max() >= most
    )


def hand_boxes(
    found: list[Detection],
    boxes: np.ndarray,
    hand: tuple[int, ...],
    config: HandZoomConfig = DEFAULT.hand_zoom,
) -> tuple[list[Detection], list[int]]:
    """The hand's tiles as the closer look (`found`, in the photo's pixels) shows them,
    given every tile found before (`boxes`) and the hand's among them (`hand`): a box on a
    hand tile (IoU at least `same`) takes its place, a box apart from every tile
    (`apart`) lying within `margin` tile sizes of the hand joins it, a box on any other
    tile stays out. Returns the boxes to read, and the hand tiles whose reading stands:
    those the look missed, and those it boxed alike (IoU at least `keep`)."""
    own = boxes[list(hand)]
    size = tile_width(own)
    reach = config.margin * size
    lo, hi = own[:, :2].min(axis=0) - reach, own[:, 2:].max(axis=0) + reach
    taken: dict[int, Detection] = {}
    new: list[Detection] = []
    members = set(hand)
    for d in sorted(found, key=lambda d: -d.score):
        overlap = ious(np.array(d.box, float), boxes)
        j = int(np.argmax(overlap))
        if overlap[j] >= config.same and j in members and j not in taken:
            taken[j] = d
        elif overlap[j] < config.apart and np.all(lo <= d.center) and np.all(d.center <= hi):
            new += [] if _overlaps(d, new, config.apart) else [d]
    fresh: list[Detection] = []
    kept: list[int] = []
    for j in hand:
        d = taken.get(j)
        if d is None or ious(np.array(d.box, float), boxes[[j]])[0] >= config.keep:
            kept.append(j)  # missed by the closer look, or boxed alike: its reading stands
        else:
            fresh.append(d)
    return fresh + new, kept
