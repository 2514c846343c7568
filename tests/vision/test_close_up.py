"""A photo filled by one tile: the detector sees only its parts (pips, strokes) at its usual
input, so the photo is also looked at small, where the tile is tile-sized.

The close-ups are real tiles of cmd-v4 `valid` cut out and enlarged to fill the frame (the
bundled models; skipped without the dataset).
"""

from __future__ import annotations

import cv2
import pytest

from datasets.cmdv4 import load_split
from vision.pipeline import recognize_image

pytestmark = pytest.mark.dataset


def _close_ups(n_photos: int = 5, per_photo: int = 4):
    try:
        samples = [s for s in load_split("valid") if s.image_path.name.startswith("hand_")]
    except FileNotFoundError:
        pytest.skip("../shared/datasets/cmd-v4 is not here")
    for s in samples[:n_photos]:
        img = cv2.imread(str(s.image_path))
        h, w = img.shape[:2]
        for (x1, y1, x2, y2), code in list(zip(s.boxes, s.codes, strict=True))[:per_photo]:
            x1, x2, y1, y2 = x1 * w, x2 * w, y1 * h, y2 * h
            mx, my = 0.15 * (x2 - x1), 0.15 * (y2 - y1)
            crop = img[int(max(0, y1 - my)) : int(min(h, y2 + my)),
                       int(max(0, x1 - mx)) : int(min(w, x2 + mx))]  # fmt: skip
            k = 640 / max(crop.shape[:2])
            yield cv2.resize(crop, None, fx=k, fy=k, interpolation=cv2.INTER_CUBIC), code


def test_a_tile_filling_the_photo_is_read_as_one_tile() -> None:
    """Of 20 real tiles enlarged 10-16 times (soft, as a phone's digital zoom makes them),
    7 are read as one tile and named right with the close look; 0 without it."""
    right = sum(
        [t["tile"] for t in recognize_image(img)["tiles"]] == [code] for img, code in _close_ups()
    )
    assert right >= 5
