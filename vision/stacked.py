"""Whether a tile lies on another: a promoted kong's fourth tile on the claimed one.

A promoted kong (加杠) is laid as the pung it was, with the fourth tile
laid on the sideways, claimed tile. Seen from above the pair is one tile,
and the detector boxes it once; what shows is its height, a side wall
twice as tall as its neighbours'. A small model (`models/stacked.onnx`,
trained by `datasets.train_stacked` on rendered promoted kongs) reads each
tile's box widened `StackedConfig.margin` times, so the crop holds the tile's side
walls and a little of its neighbours, and answers how likely the box holds
two tiles, one on the other. The layout uses it only for the sideways tile
of an exposed meld (`vision.layout.stacks`).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from vision.classify import cut, read_crops, widened
from vision.config import DEFAULT, VisionConfig
from vision.detect import MODEL_DIR, check_image
from vision.runtime import CropModel
from vision.types import Detection

DEFAULT_MODEL = MODEL_DIR / "stacked.onnx"


class Stacker:
    """P(another tile lies on it) per detected tile; one onnxruntime CPU session."""

    def __init__(self, model_path: str | Path | None = None, config: VisionConfig = DEFAULT):
        path = Path(model_path) if model_path is not None else DEFAULT_MODEL
        self.model = CropModel(path, "stacked-tile")
        self.margin = config.stacked.margin

    def probs(self, crops: np.ndarray) -> np.ndarray:
        """(N,) probability of a second tile on top, for crops (N,64,64,3) BGR uint8.

        The crop turned 180 degrees is read too and the two averaged: the
        taller side wall may show on either side, and one look alone takes
        more single tiles for pairs.
        """
        return read_crops(self.model, crops, flip=True, classes=2)[:, 1]

    def __call__(self, image: np.ndarray, detections: list[Detection]) -> np.ndarray:
        image = check_image(image)
        if not detections:
            return np.zeros(0, np.float32)
        crops = [cut(image, widened(d.box, self.margin)) for d in detections]
        return self.probs(np.stack(crops))
