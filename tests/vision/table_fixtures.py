"""Rendered whole tables read with their own labels, for the tests of the grouping and the
hand's reading (built-in faces, no artwork needed): what models making no error would
report, so that those tests check the stages after the models."""

from __future__ import annotations

import numpy as np

from datasets import render
from datasets.render import label_box
from scorer.tiles import INDEX
from vision.types import Detection, TileRead

#: a standing player's camera over a whole table
CAMERA = {"elevation": 62.0, "azimuth": 0.0, "roll": 0.0, "tile_px": 40.0, "fov": 55.0}


def table(k: int) -> dict:
    """The labels of the k-th rendered table."""
    return render.render_scene(
        np.random.default_rng([7, k]), "builtin", 1600, "table", camera=CAMERA
    ).meta


def in_view(meta: dict) -> list[tuple[tuple[float, ...], dict]]:
    """Each tile in view with its true box (a sliver under 2 px shows nothing)."""
    out = []
    for t in meta["tiles"]:
        box = tuple(float(v) for v in label_box(t, meta["kind"]))
        if box[2] - box[0] >= 2 and box[3] - box[1] >= 2:
            out.append((box, t))
    return out


def true_read(box: tuple[float, ...], tile: dict) -> TileRead:
    """The tile seen at `box` as models making no error would read it: its class certain,
    its face's direction from its corners (none for a back)."""
    probs = np.full(43, 1e-4)
    probs[INDEX[tile["code"]]] = 1.0
    tl, tr, br, bl = np.array(tile["corners"])
    top = tl + tr - bl - br
    up = None if tile["code"] == "back" else tuple(top / np.hypot(*top))
    return TileRead(Detection(box, 0.9), probs / probs.sum(), up=up)  # type: ignore[arg-type]
