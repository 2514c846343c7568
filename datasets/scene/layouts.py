"""Arrangements other than a declared hand: grids, rows and loose piles.

They mirror the real photos people take of a set (grids in a tray, rows
of tiles, a heap after a game) and put every face, backs included, in
front of the recognizer in about equal numbers.
"""

from __future__ import annotations

import numpy as np

from datasets.scene.types import TILE_D, TILE_W, Layout, Placement
from scorer.tiles import FLOWER_CODES
from vision.tileset import BLOCKS, EITHER_WAY, FLOWERING, PLAYING

_RNG = np.random.Generator


def _codes(rng: _RNG, available: list[str], n: int, back_p: float) -> list[tuple[str, bool]]:
    """n random (code, face_down) pairs, at most four copies of each code."""
    pool = [c for c in available for _ in range(4)]
    picks = rng.permutation(len(pool))[:n]
    return [(pool[i], bool(rng.random() < back_p)) for i in picks]


def grid_layout(rng: _RNG, available: list[str]) -> Layout:
    """Rows and columns of tiles, like a set laid out in a tray or on a mat."""
    rows, cols = int(rng.integers(1, 7)), int(rng.integers(3, 11))
    gx, gy = rng.uniform(0, 0.25), rng.uniform(0, 0.4)
    flip = rng.random() < 0.1  # a grid read from the other side
    layout = Layout(kind="grid")
    codes = _codes(rng, available, rows * cols, float(rng.choice([0.0, 0.05, 0.2])))
    for k, (code, down) in enumerate(codes):
        r, c = divmod(k, cols)
        jitter = rng.normal(0, 0.03, 2)
        angle = (180.0 if flip else 0.0) + float(rng.normal(0, 1.5))
        layout.tiles.append(
            Placement(
                code,
                c * (TILE_W + gx) + jitter[0],
                -r * (TILE_D + gy) + jitter[1],
                angle,
                down,
                group="grid",
            )
        )
    return layout


def row_layout(rng: _RNG, available: list[str]) -> Layout:
    """One or two straight rows of touching tiles (a hand shown to the camera)."""
    n_rows = 1 if rng.random() < 0.7 else 2
    layout = Layout(kind="row")
    for r in range(n_rows):
        n = int(rng.integers(8, 19))
        x = 0.0
        for code, down in _codes(rng, available, n, 0.03):
            side = rng.random() < 0.06
            w = TILE_D if side else TILE_W
            y = -r * (TILE_D + 0.5) + ((TILE_W if side else TILE_D) / 2)
            layout.tiles.append(
                Placement(code, x + w / 2, y, 90.0 if side else 0.0, down, side, group="row")
            )
            x += w + float(rng.uniform(0, 0.04))
    return layout


def pile_layout(rng: _RNG, available: list[str]) -> Layout:
    """Tiles scattered at random angles without overlapping, some face down."""
    n = int(rng.integers(5, 30))
    radius = np.sqrt(n) * 1.5
    layout = Layout(kind="pile")
    placed: list[tuple[float, float]] = []
    for code, down in _codes(rng, available, n, float(rng.uniform(0.1, 0.5))):
        for _ in range(30):
            x, y = rng.uniform(-radius, radius, 2)
            # 1.7 > two half diagonals: rotated tiles never overlap
            if all((x - px) ** 2 + (y - py) ** 2 > 1.7**2 for px, py in placed):
                break
        else:
            continue
        placed.append((x, y))
        angle = float(rng.uniform(0, 360))
        side = 45 < angle % 180 < 135
        layout.tiles.append(Placement(code, float(x), float(y), angle, down, side, group="pile"))
    return layout


def set_missing(available: list[str]) -> list[str]:
    """The playing tiles a style has no face for: a set laid out shows every one."""
    return sorted(set(c for n in PLAYING for c in BLOCKS[n]) - set(available))


def set_layout(rng: _RNG, available: list[str]) -> Layout:
    """One tile of each kind laid out block by block in order (`vision.tileset`), as a
    player lays out a club's set to teach it: the blocks in any order (the dragons
    either way round), one row each or rows of one length, the flowers and seasons where
    the set has them. ValueError for a style without a face for every playing tile."""
    missing = set_missing(available)
    if missing:
        raise ValueError(f"a set laid out shows every playing tile; no face for {missing}")
    names = list(PLAYING)
    if set(FLOWER_CODES) <= set(available) and rng.random() < 0.6:
        names += FLOWERING
    names = [names[i] for i in rng.permutation(len(names))]
    rows = [
        list(BLOCKS[n][::-1] if n in EITHER_WAY and rng.random() < 0.3 else BLOCKS[n])
        for n in names
    ]
    width = int(rng.integers(7, 15)) if rng.random() < 0.4 else 0  # 0: a row per block
    if width:
        codes = [c for row in rows for c in row]
        rows = [codes[k : k + width] for k in range(0, len(codes), width)]
    gy = rng.uniform(0.05, 0.4)
    layout = Layout(kind="set")
    for r, row in enumerate(rows):
        for c, code in enumerate(row):
            jitter = rng.normal(0, 0.02, 2)
            x, y = c * (TILE_W + 0.02) + jitter[0], -r * (TILE_D + gy) + jitter[1]
            layout.tiles.append(Placement(code, x, y, float(rng.normal(0, 1)), group="set"))
    return layout


LAYOUTS = {"grid": grid_layout, "row": row_layout, "pile": pile_layout, "set": set_layout}
