"""Cached loading of the bundled recognizer models.

Creating an onnxruntime session costs far more than one inference, so the
web server and the command line share one Detector and one Classifier per
process.
"""

from __future__ import annotations

from functools import lru_cache

from vision.classify import Classifier
from vision.detect import Detector


@lru_cache(maxsize=1)
def load_models() -> tuple[Detector, Classifier]:
    """The bundled (Detector, Classifier), created once per process."""
    return Detector(), Classifier()
