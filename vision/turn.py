"""A photo whose rows run at a slant to its axes is read turned square to them.

There an axis-aligned box holds much of a tile's neighbours besides the
tile: its shape no longer tells a sideways tile from an upright one, and
its crop shows the face askew among other tiles' corners. Turned so its
rows run along the image axes, the photo is read as the models know
photos best. Only the part holding the tiles found is turned, shrunk so
that a tile's box is about `TurnConfig.tile_px` long (the crops are 64 px), which
bounds the work whatever the photo's size. The tiles are then found again
in it, and that look is kept only when its boxes fit the tiles clearly
tighter (`TurnConfig.tighter`): the rows really did run at an angle.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import cv2
import numpy as np

from vision.config import DEFAULT, VisionConfig
from vision.detect import ious
from vision.rows import off_axis, tile_length, tile_rects
from vision.types import Detection


@dataclass
class Turned:
    """The turned part of the photo, the tiles found in it, the map (2x3) from its
    pixels back to the photo it was cut from, the first look's boxes, and the part's
    bounds in the photo (x1, y1, x2, y2)."""

    image: np.ndarray
    detections: list[Detection]
    back: np.ndarray
    first: np.ndarray
    part: tuple[int, int, int, int]
    same_tile: float = DEFAULT.turn.same_tile

    def _corners_back(self, box: tuple[float, float, float, float]) -> np.ndarray:
        x1, y1, x2, y2 = box
        corners = np.array([[x1, y1, 1], [x2, y1, 1], [x2, y2, 1], [x1, y2, 1]], dtype=float)
        return corners @ self.back.T

    def shows(self, box: tuple[float, float, float, float]) -> bool:
        """Whether a box of the turned photo lies on the part of the photo turned, not on
        the plain fill around it (a pixel's rounding allowed)."""
        moved = self._corners_back(box)
        x1, y1, x2, y2 = self.part
        return bool(
            (moved[:, 0] >= x1 - 1).all()
            and (moved[:, 0] <= x2 + 1).all()
            and (moved[:, 1] >= y1 - 1).all()
            and (moved[:, 1] <= y2 + 1).all()
        )

    def box_forward(
        self, box: tuple[float, float, float, float], size: tuple[float, float]
    ) -> tuple[float, float, float, float]:
        """A box of the photo as a box of the turned photo: one of `size` (width, height)
        about its centre turned (an upright box around a tile at a slant is larger than
        the tile; the turned look's boxes of its neighbours give the tile's size)."""
        x1, y1, x2, y2 = box
        cx, cy = (
            np.array([(x1 + x2) / 2, (y1 + y2) / 2, 1.0]) @ cv2.invertAffineTransform(self.back).T
        )
        w, h = size
        return float(cx - w / 2), float(cy - h / 2), float(cx + w / 2), float(cy + h / 2)

    def box_back(self, box: tuple[float, float, float, float]) -> tuple[float, float, float, float]:
        """A box of the turned photo as a box of the photo: the first look's box on the same
        tile where there is one (it fits the tile as an upright box fits it), else the box
        around the turned box's corners."""
        moved = self._corners_back(box)
        out = np.array([*moved.min(axis=0), *moved.max(axis=0)])
        overlap = ious(out, self.first)
        if len(overlap) and overlap.max() >= self.same_tile:
            out = self.first[int(overlap.argmax())]
        x1, y1, x2, y2 = (float(v) for v in out)
        return x1, y1, x2, y2


def rows_tilt(detections: list[Detection], config: VisionConfig = DEFAULT) -> float:
    """Degrees (-45..45) the rows run off the nearest image axis; 0 with under 3 tiles."""
    if len(detections) < 3:
        return 0.0
    angle, _, _ = tile_rects(np.array([d.box for d in detections], dtype=float), config.rows)
    return float(np.degrees(off_axis(angle)))


def turn_to_rows(
    image: np.ndarray,
    detections: list[Detection],
    find: Callable[[np.ndarray], list[Detection]],
    config: VisionConfig = DEFAULT,
) -> Turned | None:
    """The photo turned square to its rows and the tiles `find` finds there, or None when
    its rows lie within `TurnConfig.tilt` of its axes or the turned look finds clearly
    fewer."""
    cfg = config.turn
    tilt = rows_tilt(detections, config)
    if abs(tilt) < cfg.tilt:
        return None
    boxes = np.array([d.box for d in detections], dtype=float)
    length = tile_length(boxes)
    h, w = image.shape[:2]
    pad = cfg.margin * length
    x1, y1 = int(max(boxes[:, 0].min() - pad, 0)), int(max(boxes[:, 1].min() - pad, 0))
    x2, y2 = int(min(boxes[:, 2].max() + pad, w)), int(min(boxes[:, 3].max() + pad, h))
    part = image[y1:y2, x1:x2]
    scale = min(1.0, cfg.tile_px / max(length, 1e-6))
    if scale < 1:  # shrink by area averaging first: a turn alone would alias fine strokes
        small = (max(1, round(part.shape[1] * scale)), max(1, round(part.shape[0] * scale)))
        part = cv2.resize(part, small, interpolation=cv2.INTER_AREA)
    ph, pw = part.shape[:2]
    c, s = np.cos(np.radians(tilt)), np.sin(np.radians(tilt))
    size = (int(np.ceil(pw * c + ph * abs(s))), int(np.ceil(pw * abs(s) + ph * c)))
    # photo -> part (cut and shrunk) -> turned by -tilt about the part's centre, recentred
    to_part = np.array(
        [[pw / (x2 - x1), 0, -x1 * pw / (x2 - x1)], [0, ph / (y2 - y1), -y1 * ph / (y2 - y1)]]
    )
    spin = np.array([[c, s], [-s, c]])
    to_turned = np.hstack([spin, (np.array(size) / 2 - spin @ [pw / 2, ph / 2])[:, None]])
    rim = np.concatenate([part[0], part[-1], part[:, 0], part[:, -1]])
    turned = cv2.warpAffine(
        part,
        to_turned,
        size,
        flags=cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_CONSTANT,
        borderValue=tuple(float(v) for v in np.median(rim, axis=0)),  # the table, plain
    )
    forward = to_turned @ np.vstack([to_part, [0, 0, 1]])
    found = find(turned)
    if len(found) < cfg.keep_found * len(detections):
        return None
    shrunk = (pw / (x2 - x1)) * (ph / (y2 - y1))  # turned pixels per photo pixel, in area
    if _median_area(found) / shrunk > cfg.tighter * _median_area(detections):
        return None
    back = cv2.invertAffineTransform(forward)
    return Turned(turned, found, back, boxes, (x1, y1, x2, y2), cfg.same_tile)


def _median_area(detections: list[Detection]) -> float:
    boxes = np.array([d.box for d in detections], dtype=float).reshape(-1, 4)
    return float(np.median((boxes[:, 2] - boxes[:, 0]) * (boxes[:, 3] - boxes[:, 1])))
