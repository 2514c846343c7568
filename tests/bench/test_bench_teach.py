"""`bench.bench_teach`: a taught set is right only when every tile's place names its label."""

from __future__ import annotations

from bench.bench_teach import judged


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
