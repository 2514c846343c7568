"""Read another group of a photo's tiles as the hand: the page's "this is the hand" tap.

A photo of a table is read once; when the reader picked the wrong group
(or none), the person taps the group that is the hand. The tiles the page
holds (their codes, boxes, confidences, alternatives and face directions, as
the recognition result gave them) are read again as the hand, without the
photo, and the rest stays ignored. The input is checked as any request is:
a bad one ends in a `TileListError` with its code, never in a traceback.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from scorer.tiles import CODES, INDEX
from vision.errors import TileListError
from vision.exemplars import is_look
from vision.pieces import DEFAULT, KINDS, Piece
from vision.result import assemble
from vision.types import Detection, TileRead

#: the most tiles one request may hold (a whole table shows about 150)
MOST_TILES = 400
#: the most alternatives kept per tile (the result gives three)
MOST_ALTERNATIVES = 43
#: the largest coordinate of a box, in pixels (the reader's limit is far below)
MOST_PIXELS = 100_000
#: what a tile's reading keeps on classes it did not name
FLOOR = 1e-4
#: how far past 1 a tile's listed probabilities may add up (each is rounded to 4 places)
SUM_SLACK = 0.01
#: the fields of a request
FIELDS = frozenset(("tiles", "ignored", "size", "image", "lang"))


def _number(value: Any, lo: float, hi: float, where: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise TileListError("bad_tiles.number", where=where)
    if not lo <= value <= hi:
        raise TileListError("bad_tiles.range", where=where)
    return float(value)


def _code(value: Any, where: str) -> str:
    if not isinstance(value, str) or value not in INDEX:
        raise TileListError("bad_tiles.code", where=where)
    return value


def tile_read(tile: Any, where: str, size: tuple[int, int] = (0, 0)) -> TileRead:
    """A tile of the result (code, box, confidence, alternatives, up) as a reading; its
    box lies at least in part inside the photo of `size` where that is known."""
    if not isinstance(tile, dict):
        raise TileListError("bad_tiles.tile", where=where)
    code = _code(tile.get("tile"), where)
    box = tile.get("box")
    if not isinstance(box, list) or len(box) != 4:
        raise TileListError("bad_tiles.box", where=where)
    x1, y1, x2, y2 = (_number(v, -MOST_PIXELS, MOST_PIXELS, where) for v in box)
    if x2 <= x1 or y2 <= y1:
        raise TileListError("bad_tiles.box", where=where)
    width, height = size
    outside = width and height and (x2 <= 0 or y2 <= 0 or x1 >= width or y1 >= height)
    if outside or x2 - x1 < 1 or y2 - y1 < 1:  # the answer's boxes are rounded to 0.1 px
        raise TileListError("bad_tiles.outside", where=where)
    listed = np.zeros(len(CODES))
    alternatives = tile.get("alternatives") or []
    if not isinstance(alternatives, list) or len(alternatives) > MOST_ALTERNATIVES:
        raise TileListError("bad_tiles.alternatives", where=where)
    for alt in alternatives:
        if not isinstance(alt, dict):
            raise TileListError("bad_tiles.alternatives", where=where)
        listed[INDEX[_code(alt.get("tile"), where)]] = _number(alt.get("p", 0), 0, 1, where)
    confidence = _number(tile.get("confidence", 1.0), 0, 1, where)
    listed[INDEX[code]] = confidence  # the tile as the result named it, at its confidence
    if listed.sum() > 1 + SUM_SLACK:
        raise TileListError("bad_tiles.probabilities", where=where)
    probs = _spread(listed, INDEX[code])
    up = tile.get("up")
    if up is not None:
        if not isinstance(up, list) or len(up) != 2:
            raise TileListError("bad_tiles.up", where=where)
        up = tuple(_number(v, -1e3, 1e3, where) for v in up)
    look = tile.get("look")
    if look is not None and not is_look(look):
        raise TileListError("bad_tiles.look", where=where)
    return TileRead(Detection((x1, y1, x2, y2), confidence), probs, chosen=code, up=up, look=look)


def _spread(listed: np.ndarray, named: int) -> np.ndarray:
    """A reading from the probabilities listed: what they leave is spread over the classes
    not listed, so each listed one reads back as it was sent, and no class left unlisted
    reads likelier than the tile named. Where the named tile was sent less likely than
    that spread (under about 1/43), the spread is cut to half its probability, and all
    read back a little likelier than sent once the reading sums to 1."""
    rest = listed == 0
    rest[named] = False
    left = max(0.0, 1.0 - float(listed.sum()))
    probs = listed.copy()
    probs[named] = max(probs[named], FLOOR)
    probs[rest] = min(max(left / max(int(rest.sum()), 1), FLOOR), probs[named] / 2)
    return probs / probs.sum()


def tile_list(value: Any, name: str, size: tuple[int, int] = (0, 0)) -> list[TileRead]:
    if not isinstance(value, list) or len(value) > MOST_TILES:
        raise TileListError("bad_tiles.list", field=name, most=MOST_TILES)
    return [tile_read(t, f"{name}[{i}]", size) for i, t in enumerate(value)]


def groups(value: Any, size: tuple[int, int] = (0, 0)) -> list[tuple[str, list[TileRead]]]:
    """The `ignored` groups of a result: (kind, readings)."""
    if value is None:
        return []
    if not isinstance(value, list) or len(value) > MOST_TILES:
        raise TileListError("bad_tiles.list", field="ignored", most=MOST_TILES)
    out = []
    for gi, group in enumerate(value):
        if not isinstance(group, dict) or group.get("kind") not in KINDS:
            raise TileListError("bad_tiles.group", where=f"ignored[{gi}]")
        out.append((group["kind"], tile_list(group.get("tiles"), f"ignored[{gi}].tiles", size)))
    if sum(len(t) for _, t in out) > MOST_TILES:
        raise TileListError("bad_tiles.list", field="ignored", most=MOST_TILES)
    return out


def _size(value: Any) -> tuple[int, int]:
    """The photo's width and height (0, 0 when not sent: no tile is then marked cut by the
    photo's edge)."""
    if value is None:
        return 0, 0
    if not isinstance(value, dict):
        raise TileListError("bad_tiles.size")
    width = int(_number(value.get("width", 0), 0, MOST_PIXELS, "size"))
    height = int(_number(value.get("height", 0), 0, MOST_PIXELS, "size"))
    return width, height


def read_group(body: Any) -> dict[str, Any]:
    """The recognition result with `body["tiles"]` read as the hand and `body["ignored"]`
    kept as they are (they count towards the winning tile's copies shown)."""
    from vision.readhand import read_hand

    if not isinstance(body, dict):
        raise TileListError("bad_tiles.body")
    TileListError.refuse_unknown(body, FIELDS)
    image = body.get("image", "")
    if not isinstance(image, str):
        raise TileListError("bad_tiles.image")
    size = _size(body.get("size"))
    hand = tile_list(body.get("tiles"), "tiles", size)
    if len(hand) > DEFAULT.hand_most:  # no hand lays down more: not worth a layout's search
        raise TileListError("bad_tiles.hand", most=DEFAULT.hand_most)
    ignored = groups(body.get("ignored"), size)
    every = hand + [r for _, rs in ignored for r in rs]
    pieces, start = [], len(hand)
    for kind, rs in ignored:
        pieces.append(Piece(kind, tuple(range(start, start + len(rs)))))
        start += len(rs)
    return assemble(every, tuple(range(len(hand))), read_hand(hand), pieces, image[:200], size)
