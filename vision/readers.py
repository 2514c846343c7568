"""The models a photo is read by, as the pipeline sees them, and the bundled ones.

A detector is a function of the photo, or a `TileFinder` that also says how
stretched the photo looks, gives the boxes found too faintly and looks at a
part of a photo at its usual input alone; a classifier is a function of the
photo and the boxes, or a `TileReader` that can also glance. Tests and
benches give their own; the reader otherwise loads the bundled models once
per process (`models`) and shares them between threads (onnxruntime
sessions may run from several at once).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

import numpy as np

from vision.errors import ModelError
from vision.types import Detection, TileRead

#: the models as plain functions: a photo's boxes, the boxes' reads, which way each face
#: points, how likely each tile lies on another
DetectorFn = Callable[[np.ndarray], list[Detection]]
ClassifierFn = Callable[[np.ndarray, list[Detection]], list[TileRead]]
OrienterFn = Callable[[np.ndarray, list[Detection]], np.ndarray]
StackerFn = Callable[[np.ndarray, list[Detection]], np.ndarray]


@runtime_checkable
class TileFinder(Protocol):
    """A detector with every look the reading asks of it (`vision.detect.Detector` is one):
    plain boxes, boxes with how stretched the photo looks, boxes found too faintly to be
    taken alone, and the first look alone (the usual input, nothing more)."""

    def __call__(self, image: np.ndarray) -> list[Detection]: ...

    def look(self, image: np.ndarray) -> tuple[list[Detection], tuple[float, float]]: ...

    def faint(self, image: np.ndarray, floor: float) -> list[Detection]: ...

    def first_look(self, image: np.ndarray) -> list[Detection]: ...


@dataclass(frozen=True)
class BoxesOnly:
    """A plain box-finding function as a `TileFinder`: the photo taken to be in proportion,
    and no faint boxes."""

    find: DetectorFn

    def __call__(self, image: np.ndarray) -> list[Detection]:
        return self.find(image)

    def look(self, image: np.ndarray) -> tuple[list[Detection], tuple[float, float]]:
        return self.find(image), (1.0, 1.0)

    def faint(self, image: np.ndarray, floor: float) -> list[Detection]:
        return []

    def first_look(self, image: np.ndarray) -> list[Detection]:
        return self.find(image)


@runtime_checkable
class TileReader(Protocol):
    """A classifier that can also glance (`vision.classify.Classifier` is one): a quick
    reading that tells a back from a face, and the whole reading later for some tiles."""

    def __call__(self, image: np.ndarray, detections: list[Detection]) -> list[TileRead]: ...

    def glance(self, image: np.ndarray, detections: list[Detection]) -> list[TileRead]: ...

    def look_again(
        self, image: np.ndarray, reads: list[TileRead], which: list[int]
    ) -> list[TileRead]: ...


def as_finder(detector: TileFinder | DetectorFn) -> TileFinder:
    """The detector as a `TileFinder` (a plain function wrapped in `BoxesOnly`)."""
    return detector if isinstance(detector, TileFinder) else BoxesOnly(detector)


_LOCK = threading.Lock()
_MODELS: tuple[TileFinder | DetectorFn, ClassifierFn, OrienterFn, StackerFn] | None = None


def models() -> tuple[TileFinder | DetectorFn, ClassifierFn, OrienterFn, StackerFn]:
    """The bundled detector, classifier, orienter and stacked-tile reader, loaded on first
    use (ModelError when missing)."""
    global _MODELS
    with _LOCK:
        if _MODELS is None:
            from vision.models import load_models

            try:
                _MODELS = load_models()
            except (FileNotFoundError, OSError, RuntimeError) as exc:
                raise ModelError("models_missing", detail=exc) from exc
        return _MODELS


def warm_up() -> None:
    """Load the models now (e.g. when a server starts) so the first photo is quick."""
    models()
