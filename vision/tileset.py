"""A table's tile set taught from one photo of it laid out in order.

Naming hands teaches the reader a club's set a few kinds at a time
(`vision.exemplars`); a kind no hand has shown yet is still misread. A photo
of the set laid out one tile of each kind, suit by suit in its order, names
every kind at once, and the tiles' places name them, not the reader: the
characters 1-9, the dots 1-9, the bamboos 1-9, the winds (East South West
North), the dragons (Red Green White, or White Green Red as Japanese sets
lay them out) and, where the set has them, the eight flowers in one block
(plum orchid chrysanthemum bamboo, then spring summer autumn winter: sets
number both fours 1-4, so the reader barely tells them apart and could not
tell which four came first). The blocks may come in any order and the rows
be of any length; the tiles are taken in reading order (`reading_orders`)
and the order of the blocks is the one the reader's own reading fits best
(`layouts`). A photo with more or fewer tiles than a set, or one whose
tiles the reader reads as their places say too seldom, is refused rather
than taught: a wrong name would pull the table's later tiles the wrong way.
A tile laid out in another's place is named by the place; the answer gives
what the reader read there, for the player to check.
"""

from __future__ import annotations

import math
from dataclasses import replace
from functools import lru_cache
from itertools import permutations, product
from typing import Any

import numpy as np

from scorer.tiles import CODES, DRAGONS, FLOWER_CODES, INDEX, NUM_KINDS, WINDS
from vision.config import DEFAULT, VisionConfig
from vision.detect import nms
from vision.errors import ModelError, PhotoError
from vision.pieces import components
from vision.rows import direction
from vision.types import TileRead

#: the blocks a set is laid out in, each in its order
BLOCKS: dict[str, tuple[str, ...]] = {
    "characters": tuple(f"{n}m" for n in range(1, 10)),
    "dots": tuple(f"{n}p" for n in range(1, 10)),
    "bamboos": tuple(f"{n}s" for n in range(1, 10)),
    "winds": tuple(WINDS),
    "dragons": tuple(DRAGONS),
    "flowers": FLOWER_CODES,
}
#: the blocks every set has, and those laid out where the set has flowers
PLAYING = ("characters", "dots", "bamboos", "winds", "dragons")
FLOWERING = ("flowers",)
#: blocks laid out either way round (白發中 is as usual as 中發白)
EITHER_WAY = frozenset({"dragons"})
#: how many tiles a laid-out set shows: without and with its flowers
WITH_FLOWERS = NUM_KINDS + len(FLOWER_CODES)


def _centres(boxes: np.ndarray) -> np.ndarray:
    """The boxes' centres (N, 2)."""
    return np.stack([(boxes[:, 0] + boxes[:, 2]) / 2, (boxes[:, 1] + boxes[:, 3]) / 2], 1)


def rows_of(boxes: np.ndarray, angle: float, config: VisionConfig = DEFAULT) -> list[list[int]]:
    """The rows of tiles laid side by side along `angle` (radians, image axes).

    A row's tiles touch: each lies in about that direction (within
    `TileSetConfig.bend`) from its neighbour, and near it: within
    `TileSetConfig.step` times the distance from either tile to its own nearest one
    in that direction (perspective makes near tiles larger). Rows are the chains of
    such neighbours, so rows converging in perspective stay apart.
    """
    centres = _centres(boxes)
    step = centres[None, :, :] - centres[:, None, :]
    dist = np.hypot(step[..., 0], step[..., 1])
    np.fill_diagonal(dist, np.inf)
    along = np.abs(step @ np.array([np.cos(angle), np.sin(angle)]))
    cone = along >= np.cos(np.radians(config.tileset.bend)) * dist
    nearest = np.where(cone, dist, np.inf).min(axis=1)
    return components(cone & (dist <= config.tileset.step * np.minimum.outer(nearest, nearest)))


def reading_orders(boxes: np.ndarray, config: VisionConfig = DEFAULT) -> list[list[int]]:
    """The tiles' indices in each reading order their rows allow: rows along the
    direction the tiles' neighbours lie in (`vision.rows.direction`) or across it (seen
    from low down, a set's rows lie closer than its tiles side by side), taken from one
    side, each row from one end or the other. The orders read from the other side are
    these backwards (`layouts` has both ways)."""
    if not len(boxes):
        return []
    centres, base = _centres(boxes), direction(boxes, list(range(len(boxes))))
    short = float(np.median(np.minimum(boxes[:, 2] - boxes[:, 0], boxes[:, 3] - boxes[:, 1])))
    orders = []
    for angle in (base, base + np.pi / 2):
        u = centres @ np.array([np.cos(angle), np.sin(angle)])
        v = centres @ np.array([-np.sin(angle), np.cos(angle)])
        rows = _lines(rows_of(boxes, angle, config), u, v, config.tileset.line * short)
        rows = sorted(rows, key=lambda row: float(np.mean(v[row])))
        along = [sorted(row, key=lambda i: u[i]) for row in rows]
        orders += [[i for row in along for i in row], [i for row in along for i in row[::-1]]]
    return orders


def _lines(rows: list[list[int]], u: np.ndarray, v: np.ndarray, near: float) -> list[list[int]]:
    """The rows with those lying on one line joined (a row laid out with a gap in it is
    two chains): a row joins a longer one when every tile of it lies within `near` of
    the line through the longer one's tiles."""
    lines: list[list[int]] = []
    for row in sorted(rows, key=len, reverse=True):
        line = next((ln for ln in lines if _on_line(ln, row, u, v, near)), None)
        if line is None:
            lines.append(list(row))
        else:
            line.extend(row)
    return lines


def _on_line(line: list[int], row: list[int], u: np.ndarray, v: np.ndarray, near: float) -> bool:
    slope, offset = np.polyfit(u[line], v[line], 1) if len(line) > 1 else (0.0, v[line[0]])
    return bool(np.all(np.abs(v[row] - (slope * u[row] + offset)) <= near))


@lru_cache(maxsize=2)
def layouts(count: int) -> np.ndarray:
    """Every sequence of tiles (indices in `scorer.tiles.CODES`, one row each) a set of
    `count` tiles may be laid out as: its blocks in any order, each way round where
    `EITHER_WAY`, the whole forwards or (a photo taken from across the table)
    backwards."""
    names = PLAYING + FLOWERING if count == WITH_FLOWERS else PLAYING
    ways = [[BLOCKS[n], BLOCKS[n][::-1]] if n in EITHER_WAY else [BLOCKS[n]] for n in names]
    out = []
    for order in permutations(range(len(names))):
        for turns in product(*(ways[k] for k in order)):
            codes = [INDEX[c] for block in turns for c in block]
            out += [codes, codes[::-1]]
    return np.array(out, np.int16)


def taught(reads: list[TileRead], config: VisionConfig = DEFAULT) -> list[dict[str, Any]]:
    """The set a laid-out set photo's tiles show (`vision.pipeline.read_laid_out`, every
    tile read whole): each tile's code as its place names it, its look, box and the
    reader's own reading, in the set's order. PhotoError when the photo does not hold one
    tile of each kind (34, or 42 with the flowers; `_strongest`), or the reader's own
    reading agrees with no order of the blocks well enough. A tile the reader takes for
    a back counts: a set is laid out face up, and a blank 白 may look like a back."""
    found, reads = len(reads), _strongest(reads, config)
    if any(r.look is None for r in reads):
        raise ModelError("no_looks")
    boxes = np.array([r.detection.box for r in reads], float)
    order, best = _best_fit(reads, reading_orders(boxes, config))
    ordered = [reads[i] for i in order]
    agree = sum(r.chosen == c for r, c in zip(ordered, best, strict=True))
    if agree < config.tileset.agree * len(ordered):
        if found != len(reads):  # the boxes left out were the set's, and others are missing
            raise PhotoError("tileset.count", found=found)
        raise PhotoError("tileset.order", agree=agree, count=len(ordered))
    return [
        {
            "tile": code,
            "look": r.look,
            "box": [round(float(v), 1) for v in r.detection.box],
            "read": r.chosen,
        }
        for r, code in zip(ordered, best, strict=True)
    ]


def _strongest(reads: list[TileRead], config: VisionConfig) -> list[TileRead]:
    """The reads of a set's tiles: all of them where they are as many as a set holds (34,
    or 42 with the flowers); where a few more were found (`TileSetConfig.spare`), those
    left once each box lying on a surer one (a tile found twice, `TileSetConfig.twice`)
    and then the faintest boxes (under `TileSetConfig.faint`: a shadow or a tile's side)
    are left out, in their order. PhotoError when that does not leave a set's count."""
    if len(reads) in (NUM_KINDS, WITH_FLOWERS) or not _extra(len(reads), config):
        return _counted(reads)
    boxes = np.array([r.detection.box for r in reads], float)
    scores = np.array([r.detection.score for r in reads], float)
    overlap_only = replace(config.detect, part_inside=math.inf)  # by IoU alone, no parts
    kept = nms(boxes, scores, config.tileset.twice, overlap_only)
    extra = _extra(len(kept), config)
    if extra and all(reads[i].detection.score < config.tileset.faint for i in kept[-extra:]):
        kept = kept[:-extra]
    return _counted([reads[i] for i in sorted(kept)])


def _extra(found: int, config: VisionConfig) -> int:
    """How many boxes more than a set holds were found, where that is a few
    (`TileSetConfig.spare`); 0 otherwise."""
    return next(
        (found - n for n in (NUM_KINDS, WITH_FLOWERS) if 0 < found - n <= config.tileset.spare),
        0,
    )


def _counted(reads: list[TileRead]) -> list[TileRead]:
    if len(reads) not in (NUM_KINDS, WITH_FLOWERS):
        raise PhotoError("tileset.count", found=len(reads))
    return reads


def _best_fit(reads: list[TileRead], orders: list[list[int]]) -> tuple[list[int], list[str]]:
    """The reading order and the sequence of codes (`layouts`) the reader's probabilities
    fit best (their sum over the tiles)."""
    sequences = layouts(len(reads))
    probs = np.stack([r.probs for r in reads])
    places = np.arange(len(reads))
    fits = np.stack([probs[order][places, sequences].sum(axis=1) for order in orders])
    k, s = np.unravel_index(int(fits.argmax()), fits.shape)
    return orders[k], [CODES[i] for i in sequences[s]]


def exemplars(taught_set: list[dict[str, Any]]) -> list[dict[str, str]]:
    """The taught set as the exemplars a request sends (`vision.exemplars.parse_exemplars`)."""
    return [{"tile": t["tile"], "look": t["look"]} for t in taught_set]
