"""The camera half of the product: a table photo → tiles, melds and the hand notation.

`recognize(data, name)` is the one entry point (see `vision.pipeline`); it is
imported lazily so `import vision.types` stays light for the training code.
"""

from __future__ import annotations

from typing import Any

__all__ = ["recognize", "recognize_path"]


def __getattr__(name: str) -> Any:
    if name in __all__:
        from vision import pipeline

        return getattr(pipeline, name)
    raise AttributeError(f"module 'vision' has no attribute {name!r}")
