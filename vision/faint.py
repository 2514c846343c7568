"""Face-down tiles found too faintly to be taken alone, taken beside face-down tiles.

A concealed kong lies as four backs side by side, and plain backs give the
detector little to go on: it misses some at its threshold, and a kong
short of a tile breaks the whole hand. Boxes it found with less confidence are looked at again
where a back was found: one that the classifier reads as a back, lying
where a concealed kong would put a tile beside a back (in the line of its
row, one to three places along, the same size), is taken as a tile.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from scorer.tiles import BACK_INDEX
from vision.config import DEFAULT, FaintConfig, VisionConfig
from vision.detect import ious
from vision.rows import tile_length, tile_rects
from vision.types import Detection, TileRead


def faint_backs(
    image: np.ndarray,
    reads: list[TileRead],
    faint: Callable[[np.ndarray, float], list[Detection]],
    classify: Callable[[np.ndarray, list[Detection]], list[TileRead]],
    config: VisionConfig = DEFAULT,
) -> list[TileRead]:
    """The faint boxes (`faint(image, FaintConfig.floor)`) read surely as backs that lie
    where a concealed kong would put a tile beside a tile read as a back (`in_kong_line`),
    away from every tile already found; each with its reading."""
    cfg = config.faint
    backs = [r for r in reads if int(np.argmax(r.probs)) == BACK_INDEX]
    if not backs:
        return []
    found = np.array([r.detection.box for r in reads], dtype=float)
    fresh = [
        d for d in faint(image, cfg.floor) if ious(np.array(d.box), found).max() < cfg.same_tile
    ]
    if not fresh:
        return []
    angle = float(tile_rects(found, config.rows)[0])
    length = tile_length(found)
    near = [
        d for d in fresh if any(in_kong_line(d, b.detection, angle, length, cfg) for b in backs)
    ]
    taken: list[TileRead] = []
    for read in classify(image, near) if near else []:
        box = np.array(read.detection.box)
        if read.probs[BACK_INDEX] < cfg.back or any(
            ious(box, np.array([t.detection.box]))[0] >= cfg.same_tile for t in taken
        ):
            continue
        taken.append(read)
    return taken


def in_kong_line(
    faint: Detection,
    back: Detection,
    angle: float,
    length: float,
    config: FaintConfig = DEFAULT.faint,
) -> bool:
    """Whether `faint` lies where a concealed kong holding `back` would put another tile:
    on the line of its row (at `angle` radians), one to three places along, the same size.
    A plain patch of table, a shadow or a gap between tiles reads like a back too."""
    offset = np.array(faint.center) - np.array(back.center)
    along = abs(offset @ [np.cos(angle), np.sin(angle)]) / length
    across = abs(offset @ [-np.sin(angle), np.cos(angle)]) / length
    size = faint.width * faint.height / max(back.width * back.height, 1e-9)
    return (
        config.kong_steps[0] <= along <= config.kong_steps[1]
        and across <= config.in_line
        and 1 / config.same_size <= size <= config.same_size
    )
