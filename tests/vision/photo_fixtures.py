"""Small synthetic photos the vision tests draw themselves."""

from __future__ import annotations

from collections.abc import Collection

import cv2
import numpy as np

from vision.config import TILE_ASPECT
from vision.types import Detection


def tilted_row(
    angle: float,
    n: int = 3,
    width: float = 40.0,
    gap: float = 0.0,
    size: tuple[int, int] = (500, 400),
    sideways: Collection[int] = (),
) -> tuple[np.ndarray, list]:
    """A photo (`size` wide and high) of `n` upright tiles `gap` apart in a row running at
    `angle` (radians) through its centre: white faces with a red band at the top of each
    face, on grey; and the tiles' boxes. The tiles numbered in `sideways` lie across the
    row, as a claimed tile does, their face tops pointing back along the row."""
    img = np.full((size[1], size[0], 3), 128, np.uint8)
    along = np.array([np.cos(angle), np.sin(angle)])
    across = np.array([-np.sin(angle), np.cos(angle)])  # towards the player
    length = width * TILE_ASPECT
    spans = [length if k in sideways else width for k in range(n)]
    start = -(sum(spans) + gap * (n - 1)) / 2
    boxes = []
    for k, span in enumerate(spans):
        c = np.array(size, float) / 2 + (start + sum(spans[:k]) + gap * k + span / 2) * along
        lies = k in sideways
        a, b = along * span / 2, across * (width if lies else length) / 2
        face = np.array([c - a - b, c + a - b, c + a + b, c - a + b])
        if lies:  # the face top (the band) points back along the row
            band = np.array([c - a - b, c - a / 2 - b, c - a / 2 + b, c - a + b])
        else:
            band = np.array([c - a - b, c + a - b, c + a - b / 2, c - a - b / 2])
        cv2.fillConvexPoly(img, np.round(face).astype(np.int32), (255, 255, 255))
        cv2.fillConvexPoly(img, np.round(band).astype(np.int32), (0, 0, 255))
        boxes.append((*face.min(axis=0), *face.max(axis=0)))
    return img, boxes


def faces(image: np.ndarray) -> list[Detection]:
    """Stand-in detector: the box around each light or red blob (a tile's face)."""
    light = (image.max(axis=2) > 200).astype(np.uint8)
    n, _, stats, _ = cv2.connectedComponentsWithStats(light)
    return [
        Detection((float(x), float(y), float(x + w), float(y + h)), 1.0)
        for x, y, w, h, area in stats[1:n]
        if area > 50
    ]
