"""`bench.bench_teach`: a taught set is right only when every tile's place names its label."""

from __future__ import annotations

import cv2
import numpy as np

from bench.bench_teach import judged, turned


def _tile(code: str, x: float) -> dict:
    return {"code": code, "box": [x, 0, x + 30, 40]}


def test_a_set_is_right_only_when_every_tile_is_named_as_labelled() -> None:
    meta = {"tiles": [_tile("1m", 0), _tile("2m", 31), _tile("3m", 62)]}
    taught = [
        {"tile": "1m", "box": [1, 0, 31, 40]},
        {"tile": "2m", "box": [31, 1, 61, 41]},
        {"tile": "3m", "box": [63, 0, 93, 40]},
    ]
    assert judged(taught, meta)
    taught[2] = {"tile": "4m", "box": [63, 0, 93, 40]}
    assert not judged(taught, meta)


def test_a_turned_photo_is_judged_through_the_turn_back() -> None:
    """`--turn`: a tile's box in the turned photo is taken back to the labels' pixels."""
    image = np.zeros((100, 200, 3), np.uint8)
    data, back = turned(cv2.imencode(".png", image)[1].tobytes(), 90)
    assert cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR).shape[:2] == (200, 100)
    meta = {"tiles": [_tile("1m", 0), _tile("9m", 160)]}  # centres (15, 20) and (175, 20)
    # turned 90 degrees counter-clockwise, the photo's (175, 20) lies at (20, 25)
    assert judged([{"tile": "9m", "box": [10, 15, 30, 35]}], meta, back)
    assert not judged([{"tile": "1m", "box": [10, 15, 30, 35]}], meta, back)
