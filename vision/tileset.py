"""A table's tile set taught from one photo of it laid out in order.

Naming hands teaches the reader a club's set a few kinds at a time
(`vision.exemplars`); a kind no hand has shown yet is still misread. A photo
of the set laid out one tile of each kind, suit by suit in its order, names
every kind at once, and the tiles' places name them, not the reader: the
characters 1-9, the dots 1-9, the bamboos 1-9, the honours (East South West
North, Red Green White) and, where the set has them, the eight flowers
(plum orchid chrysanthemum bamboo, spring summer autumn winter). The blocks
may come in any order and the rows be of any length; the tiles are taken
in reading order (rows top to bottom, each left to right) and the order of
the blocks is the one the reader's own reading agrees with most. A photo
that is not such a layout (a tile missing or doubled, another order) is
refused rather than taught: a wrong name would pull the table's later tiles
the wrong way.
"""

from __future__ import annotations

from itertools import permutations
from typing import Any

import numpy as np

from scorer.tiles import DRAGONS, FLOWER_CODES, INDEX, NUM_KINDS, WINDS
from vision.config import DEFAULT, VisionConfig
from vision.errors import ModelError, PhotoError
from vision.rows import direction
from vision.types import TileRead

#: the blocks a set is laid out in, each in its order
BLOCKS: dict[str, tuple[str, ...]] = {
    "characters": tuple(f"{n}m" for n in range(1, 10)),
    "dots": tuple(f"{n}p" for n in range(1, 10)),
    "bamboos": tuple(f"{n}s" for n in range(1, 10)),
    "honours": tuple(WINDS) + tuple(DRAGONS),
    "flowers": FLOWER_CODES,
}
#: the blocks every set has; the flowers are laid out where the set has them
PLAYING = ("characters", "dots", "bamboos", "honours")
#: how many tiles a laid-out set shows: without and with its flowers
WITH_FLOWERS = NUM_KINDS + len(FLOWER_CODES)


def _centres(boxes: np.ndarray) -> np.ndarray:
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
    return _chains(cone & (dist <= config.tileset.step * np.minimum.outer(nearest, nearest)))


def _chains(linked: np.ndarray) -> list[list[int]]:
    """The connected groups of a symmetric link matrix."""
    seen, groups = set(), []
    for start in range(len(linked)):
        if start in seen:
            continue
        group, todo = [], [start]
        seen.add(start)
        while todo:
            i = todo.pop()
            group.append(i)
            for j in np.flatnonzero(linked[i]):
                if int(j) not in seen:
                    seen.add(int(j))
                    todo.append(int(j))
        groups.append(group)
    return groups


def reading_orders(boxes: np.ndarray, config: VisionConfig = DEFAULT) -> list[list[int]]:
    """The tiles' indices in each reading order their rows allow: rows along the
    direction the tiles' neighbours lie in (`vision.rows.direction`) or across it (seen
    from low down, a set's rows lie closer than its tiles side by side), taken from one
    side, each row from one end or the other. The orders read from the other side are
    these backwards (`layouts` has both ways)."""
    if not len(boxes):
        return []
    centres, base = _centres(boxes), direction(boxes, list(range(len(boxes))))
    orders = []
    for angle in (base, base + np.pi / 2):
        u = centres @ np.array([np.cos(angle), np.sin(angle)])
        v = centres @ np.array([-np.sin(angle), np.cos(angle)])
        rows = sorted(rows_of(boxes, angle, config), key=lambda row: float(np.mean(v[row])))
        along = [sorted(row, key=lambda i: u[i]) for row in rows]
        orders += [[i for row in along for i in row], [i for row in along for i in row[::-1]]]
    return orders


def layouts(count: int) -> list[tuple[str, ...]]:
    """Every sequence of codes a set of `count` tiles may be laid out as: the blocks in
    any order, forwards or (a photo taken from across the table) backwards."""
    names = PLAYING + ("flowers",) if count == WITH_FLOWERS else PLAYING
    out = []
    for order in permutations(names):
        codes = tuple(c for name in order for c in BLOCKS[name])
        out += [codes, codes[::-1]]
    return out


def taught(reads: list[TileRead], config: VisionConfig = DEFAULT) -> list[dict[str, Any]]:
    """The set a laid-out set photo's tiles show (`vision.pipeline.read_laid_out`, every
    tile read whole): each tile's code as its place names it, its look, box and the
    reader's own reading, in the set's order. PhotoError when the photo does not hold one
    tile of each kind (34, or 42 with the flowers; `_strongest`), or the reader's own
    reading agrees with no order of the blocks well enough. A tile the reader takes for
    a back counts: a set is laid out face up, and a blank 白 may look like a back."""
    reads = _strongest(reads, config)
    if any(r.look is None for r in reads):
        raise ModelError("model_mismatch")
    boxes = np.array([r.detection.box for r in reads], float)
    fits = [
        (_fit(np.stack([reads[i].probs for i in order]), codes), order, codes)
        for order in reading_orders(boxes, config)
        for codes in layouts(len(reads))
    ]
    _, order, best = max(fits, key=lambda fit: fit[0])
    ordered = [reads[i] for i in order]
    agree = sum(r.chosen == c for r, c in zip(ordered, best, strict=True))
    if agree < config.tileset.agree * len(ordered):
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
    or 42 with the flowers); where a few more were found (`TileSetConfig.spare`: a box
    found twice), the surest that many, in their order. PhotoError otherwise."""
    sizes = [n for n in (NUM_KINDS, WITH_FLOWERS) if 0 <= len(reads) - n <= config.tileset.spare]
    if not sizes:
        raise PhotoError("tileset.count", found=len(reads))
    keep = sorted(range(len(reads)), key=lambda i: -reads[i].detection.score)[: max(sizes)]
    return [reads[i] for i in sorted(keep)]


def _fit(probs: np.ndarray, codes: tuple[str, ...]) -> float:
    """How well the reader's probabilities fit a sequence of codes (summed)."""
    return float(probs[np.arange(len(codes)), [INDEX[c] for c in codes]].sum())


def exemplars(taught_set: list[dict[str, Any]]) -> list[dict[str, str]]:
    """The taught set as the exemplars a request sends (`vision.exemplars.parse_exemplars`)."""
    return [{"tile": t["tile"], "look": t["look"]} for t in taught_set]
