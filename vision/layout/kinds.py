"""A tile's kind (playing tile, flower or face-down back) by summed probability.

Where a tile lies may overrule its kind; `face_up` then gives the playing
tile it most likely is.
"""

from __future__ import annotations

import numpy as np

from scorer.tiles import BACK_INDEX, CODES, FLOWER_FIRST
from vision.types import TileRead


def top_class(read: TileRead) -> int:
    """The tile's most probable class, chosen first between playing tile, flower and back.

    Each of the three kinds gets its summed probability: a model unsure
    *which* flower it sees (an unfamiliar art style) still knows it is a
    flower, and only the flowers' count matters for scoring. Within the
    winning kind the most probable class is returned.
    """
    p = np.asarray(read.probs, dtype=float)
    kinds = (
        (float(p[:FLOWER_FIRST].sum()), 0, FLOWER_FIRST),
        (float(p[FLOWER_FIRST:BACK_INDEX].sum()), FLOWER_FIRST, BACK_INDEX),
        (float(p[BACK_INDEX:].sum()), BACK_INDEX, len(p)),
    )
    _, lo, hi = max(kinds, key=lambda k: k[0])
    return lo + int(np.argmax(p[lo:hi]))


def code_of(read: TileRead) -> str:
    """The tile as decoded, or as read most probably where nothing decoded it."""
    return read.chosen or CODES[int(np.argmax(read.probs))]


def likeliest(read: TileRead, n: int) -> list[int]:
    """The read's `n` likeliest tiles (indices into CODES), likeliest first."""
    return np.argsort(-np.asarray(read.probs))[:n].tolist()


def play_sum(read: TileRead) -> float:
    """The tile's summed probability of being a playing tile."""
    return float(np.asarray(read.probs)[:FLOWER_FIRST].sum())


def flower_sum(read: TileRead) -> float:
    """The tile's summed probability of being a flower."""
    return float(np.asarray(read.probs)[FLOWER_FIRST:BACK_INDEX].sum())


def face_up(read: TileRead) -> int:
    """The tile's most probable playing tile: its kind when its place overrules its reading."""
    return int(np.argmax(np.asarray(read.probs)[:FLOWER_FIRST]))


def likely_back(read: TileRead) -> bool:
    """Whether a back is the tile's likeliest single reading, or its likeliest kind.

    Unfamiliar backs (a red one) read as a back at 0.15-0.4, the rest spread
    over many playing tiles: a back still, where a concealed kong's end lies.
    """
    return top_class(read) == BACK_INDEX or int(np.argmax(read.probs)) == BACK_INDEX
