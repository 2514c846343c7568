"""The whole reader with each tile it finds named as the labelled tile under it.

How much of a loss is the classifier's: the detector, the turn to the
rows, the orienter, the stacker and every later stage run as
`vision.pipeline.recognize_image` runs them; only the names come from the
labels. The reader shows its classifier the image it works on (the photo
squeezed back to its proportions and perhaps turned square to its rows,
`vision.pipeline.Looked.at`), so each box is taken back to the photo as the
reader takes it and matched to the labels there. A box lying on no
labelled tile keeps the classifier's name.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any
from unittest import mock

import numpy as np

import vision.pipeline as pipeline
from scorer.tiles import CODES
from vision.detect import intersections
from vision.turn import Turned
from vision.types import Detection, TileRead

Box = tuple[float, float, float, float]
#: the share of a box a label must cover for the box to take its name
COVER = 0.3


@dataclass
class Work:
    """How the image the classifier is shown maps back to the photo: the photo's size,
    the size it was squeezed back to, and the part turned to the rows, if any."""

    photo: tuple[int, int]
    squeezed: tuple[int, int] | None = None
    turned: Turned | None = None

    def to_photo(self, box: Box) -> Box:
        if self.turned is not None:
            box = tuple(self.turned.box_back(box))  # type: ignore[assignment]
        h, w = self.squeezed or self.photo
        sx, sy = self.photo[1] / w, self.photo[0] / h
        return (box[0] * sx, box[1] * sy, box[2] * sx, box[3] * sy)


class LabelNamer:
    """A classifier that names each box as the label covering most of it (at least
    `COVER` of the box), else as the real classifier reads it."""

    def __init__(self, labels: list[TileRead], classifier: Any, work: Work) -> None:
        self.boxes = np.array([r.detection.box for r in labels], float).reshape(-1, 4)
        self.labels = labels
        self.real = classifier
        self.work = work

    def _label(self, box: Box) -> int | None:
        b = np.array(self.work.to_photo(box))
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


def _recording(work: Work) -> tuple[Callable, Callable]:
    """`unstretch` and `turn_to_rows` as the reader has them, noting into `work` what they
    did to the photo."""
    unstretch, turn_to_rows = pipeline.unstretch, pipeline.turn_to_rows

    def squeezed(image: np.ndarray, found: list, stretch: tuple) -> tuple:
        out = unstretch(image, found, stretch)
        work.squeezed = out[0].shape[:2]
        return out

    def turned(image: np.ndarray, *args: Any) -> Turned | None:
        work.turned = turn_to_rows(image, *args)
        return work.turned

    return squeezed, turned


def read_with_true_names(
    image: np.ndarray, labels: list[TileRead], name: str = "", detector: Any = None
) -> dict:
    """The recognition result of `image` (BGR) with its tiles named by `labels` (the
    scene's tiles, their boxes in the photo's pixels and one-hot probabilities); with
    `detector`, that one in place of the bundled detector."""
    bundled, classifier, orienter, stacker = pipeline.models()
    detector = detector or bundled
    work = Work(image.shape[:2])
    squeezed, turned = _recording(work)
    namer = LabelNamer(labels, classifier, work)
    with (
        mock.patch.object(pipeline, "unstretch", squeezed),
        mock.patch.object(pipeline, "turn_to_rows", turned),
    ):
        return pipeline.recognize_image(image, name, detector, namer, orienter, stacker)
