"""Synthetic tile layouts: boxes and probabilities built by hand, for tests and benches.

A layout is written in the player's view (x to the right, y towards the
player) as rows of tokens, then optionally turned by a multiple of 90°
and jittered, the way a photo could show it.
"""

from __future__ import annotations

import math
import random

import numpy as np

from scorer.tiles import CODES, INDEX
from vision.types import Detection, TileRead

W, L = 30.0, 40.0  # an upright tile's width and length in pixels
GAP = "|"  # a clear gap between groups


def probs_for(code: str, second: str | None = None, p_first: float = 0.9) -> np.ndarray:
    """Confident one-hot-ish probabilities; `second` gets most of the rest."""
    p = np.full(len(CODES), 0.0)
    p[INDEX[code]] = p_first
    rest = 1.0 - p_first
    if second:
        p[INDEX[second]] = rest * 0.8
        rest *= 0.2
    others = [i for i in range(len(CODES)) if p[i] == 0]
    p[others] = rest / len(others)
    return p


def row(tokens: list[str], y: float, x0: float = 0.0) -> list[tuple[str, tuple]]:
    """Tokens: 'code' upright, 'code/' sideways, 'code^' the upper of a sideways stack
    (the next token is the lower one), '|' a gap. Returns (code, box) in the player's view."""
    out = []
    x = x0
    stack_x: float | None = None
    for tok in tokens:
        if tok == GAP:
            x += 1.3 * W
            continue
        code = tok.rstrip("/^")
        if tok.endswith("^"):
            out.append((code, (x, y - W, x + L, y)))
            stack_x = x
        elif tok.endswith("/"):
            if stack_x is not None:
                out.append((code, (stack_x, y, stack_x + L, y + W)))
                stack_x = None
            else:
                out.append((code, (x, y - W / 2, x + L, y + W / 2)))
            x += L + 1
        else:
            out.append((code, (x, y - L / 2, x + W, y + L / 2)))
            x += W + 1
    return out


def tilt(box: tuple, degrees: float) -> tuple:
    """The bounding box of the box turned by a small angle about the origin (a tilted photo)."""
    x1, y1, x2, y2 = box
    a = math.radians(degrees)
    c, s = math.cos(a), math.sin(a)
    pts = [(x * c - y * s, x * s + y * c) for x in (x1, x2) for y in (y1, y2)]
    xs, ys = [p[0] for p in pts], [p[1] for p in pts]
    return (min(xs), min(ys), max(xs), max(ys))


def turn(box: tuple, rotation: int) -> tuple:
    """The box as seen in a photo turned `rotation` degrees clockwise (offset to stay positive)."""
    x1, y1, x2, y2 = box
    c = 5000.0
    pts = [(x1, y1), (x2, y2)]
    mapped = {
        0: [(x, y) for x, y in pts],
        90: [(c - y, x) for x, y in pts],
        180: [(c - x, c - y) for x, y in pts],
        270: [(y, c - x) for x, y in pts],
    }[rotation]
    xs, ys = [p[0] for p in mapped], [p[1] for p in mapped]
    return (min(xs), min(ys), max(xs), max(ys))


def reads_for(
    tiles: list[tuple[str, tuple]],
    rotation: int = 0,
    jitter: float = 0.0,
    seed: int = 0,
    seconds: dict[int, tuple[str, str]] | None = None,
    shuffle: bool = False,
    degrees: float = 0.0,
) -> list[TileRead]:
    """TileReads for the tiles; `seconds` maps a position to (first guess, second guess)."""
    rng = random.Random(seed)
    reads = []
    for k, (code, box) in enumerate(tiles):
        box = tuple(v + rng.uniform(-jitter, jitter) for v in turn(tilt(box, degrees), rotation))
        first, second = (seconds or {}).get(k, (code, None))
        probs = probs_for(first, second, 0.6 if second else 0.9)
        reads.append(TileRead(Detection(box=box, score=0.99), probs))
    if shuffle:
        rng.shuffle(reads)
    return reads


def full_layout() -> list[tuple[str, tuple]]:
    """Melds in front (a chow claimed 4s, a pung 9m from the right, a promoted kong of E
    from opposite, a concealed kong of 7p), two flowers, and the hand row with the winning
    tile set apart: `[345s,2][999m,3][EEEE,6][7777p]C C`."""
    melds = row(
        [
            "3s",
            "4s/",
            "5s",
            GAP,
            "9m",
            "9m",
            "9m/",
            GAP,
            "E",
            "E^",
            "E/",
            "E",
            GAP,
            "back",
            "7p",
            "7p",
            "back",
            GAP,
            GAP,
            "1f",
            "6f",
        ],
        y=100,
    )
    hand = row(["C", GAP, "C"], y=300)
    return melds + hand


def simple_layout() -> list[tuple[str, tuple]]:
    """`[567m,1][222p,1]` and 7 concealed + the winning tile, flowers elsewhere:
    `[567m,1][222p,1]345s6799pW... `. Hand: 3s4s5s 6p7p 9s9s + winning 8p."""
    hand = row(["3s", "4s", "5s", "6p", "7p", "9s", "9s", GAP, "8p"], y=300)
    melds = row(["5m/", "6m", "7m", GAP, "2p/", "2p", "2p", GAP, "3f"], y=300, x0=400)
    return hand + melds
