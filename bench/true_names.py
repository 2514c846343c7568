"""The whole reader with each tile it finds named as the labelled tile under it.

How much of a loss is the classifier's: the detector, the turn to the
rows, the orienter, the stacker and every later stage run as
`vision.pipeline.recognize_image` runs them; only the names come from the
labels. The reader shows its classifier the image it works on (the photo
squeezed back to its proportions and perhaps turned square to its rows,
`vision.pipeline.Found`), so each box is taken back to the photo by the
reader's own map and matched to the labels there. A box lying on no
labelled tile keeps the classifier's name.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

import numpy as np

import vision.pipeline as pipeline
from scorer.tiles import CODES
from vision.detect import intersections
from vision.readers import as_finder, models
from vision.types import Detection, TileRead

Box = tuple[float, float, float, float]
#: the share of a box a label must cover for the box to take its name
COVER = 0.3


class LabelNamer:
    """A classifier that names each box as the label covering most of it (at least
    `COVER` of the box), else as the real classifier reads it."""

    def __init__(
        self, labels: list[TileRead], classifier: Any, to_photo: Callable[[Box], Box]
    ) -> None:
        """`to_photo` takes a box of the image the classifier is shown to the photo's."""
        self.boxes = np.array([r.detection.box for r in labels], float).reshape(-1, 4)
        self.labels = labels
        self.real = classifier
        self.to_photo = to_photo

    def _label(self, box: Box) -> int | None:
        b = np.array(self.to_photo(box))
        inter = intersections(b, self.boxes)
        area = max((b[2] - b[0]) * (b[3] - b[1]), 1e-6)
        if not len(inter) or inter.max() < COVER * area:
            return None
        return int(inter.argmax())

    def _named(self, image: np.ndarray, detections: list[Detection]) -> list[TileRead]:
        which = [self._label(d.box) for d in detections]
        unlabelled = [d for d, j in zip(detections, which, strict=True) if j is None]
        real = iter(self.real(image, unlabelled) if unlabelled else [])
        return [
            next(real) if j is None else self._read(d, j)
            for d, j in zip(detections, which, strict=True)
        ]

    def _read(self, detection: Detection, j: int) -> TileRead:
        """Label `j`'s name as the classifier gives one: its probabilities and its pick."""
        probs = self.labels[j].probs.copy()
        return TileRead(detection, probs, chosen=CODES[int(probs.argmax())])

    def __call__(self, image: np.ndarray, detections: list[Detection]) -> list[TileRead]:
        return self._named(image, detections)

    def glance(self, image: np.ndarray, detections: list[Detection]) -> list[TileRead]:
        return self._named(image, detections)

    def look_again(
        self, image: np.ndarray, reads: list[TileRead], which: list[int]
    ) -> list[TileRead]:
        """The reads at `which` named again, all else about them (which way they face,
        a tile on them) kept, as the classifier keeps it."""
        out = list(reads)
        named = self._named(image, [reads[i].detection for i in which])
        for i, read in zip(which, named, strict=True):
            out[i] = replace(reads[i], probs=read.probs, chosen=read.chosen)
        return out


def read_with_true_names(
    image: np.ndarray, labels: list[TileRead], name: str = "", detector: Any = None
) -> dict:
    """The recognition result of `image` (BGR) with its tiles named by `labels` (the
    scene's tiles, their boxes in the photo's pixels and one-hot probabilities); with
    `detector`, that one in place of the bundled detector."""
    bundled, classifier, orienter, stacker = models()
    detector = detector or bundled
    # the reader finds these tiles again in the same image (the detector is deterministic
    # and keeps its runs at the photo it last looked at): their map back is the reader's
    found = pipeline.Found.at(image, as_finder(detector))
    namer = LabelNamer(labels, classifier, found.to_photo)
    return pipeline.recognize_image(image, name, detector, namer, orienter, stacker)
