"""Cached loading of the bundled recognizer models.

Creating an onnxruntime session costs far more than one inference, so the
web server and the command line share one Detector and one Classifier per
process. The orientation model tells which way each tile faces, the
stacked-tile model whether a tile lies on another.
"""

from __future__ import annotations

from functools import lru_cache

from vision.classify import Classifier
from vision.detect import Detector
from vision.orient import Orienter
from vision.stacked import Stacker


@lru_cache(maxsize=1)
def load_models() -> tuple[Detector, Classifier, Orienter, Stacker]:
    """The bundled (Detector, Classifier, Orienter, Stacker), created once per process."""
    return Detector(), Classifier(), Orienter(), Stacker()
