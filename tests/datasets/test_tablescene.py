"""Whole-table scenes: one tile set on the table, every group labelled, 和绝张 counted."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from datasets import render
from datasets.scene.geometry import OUTLINE, TileMesh
from datasets.scene.tablescene import table_layout
from datasets.scene.types import TILE_T, Layout, Placement
from scorer.tiles import CODES

MAGENTA = (255, 0, 255)
KINDS = set(CODES[:34])


@pytest.mark.parametrize("seed", range(40))
def test_a_table_holds_one_tile_set(seed: int) -> None:
    layout = table_layout(np.random.default_rng(seed), KINDS | {f"{n}f" for n in range(1, 9)})
    counts = Counter(t.true_code for t in layout.tiles if t.true_code in KINDS)
    assert max(counts.values()) <= 4
    assert sum(counts.values()) == 136  # what no hand or pond holds is still in the wall
    groups = Counter(t.group for t in layout.tiles)
    assert groups["discards"] >= 8
    assert groups["other_hand"] + groups["other_meld"] >= 3 * 13
    assert layout.hand and groups["winning"] == 1
    assert {t.seat for t in layout.tiles if t.group == "discards"} == {0, 1, 2, 3}


@pytest.mark.parametrize("seed", range(8))
def test_the_fourth_tile_flag_counts_the_copies_shown(seed: int) -> None:
    """和绝张 (seeds 002/003, fan 58): the other three copies lie face up in the ponds or
    in exposed melds; a concealed kong's backs and the others' hands do not count."""
    layout = table_layout(np.random.default_rng(seed), KINDS)
    winning = CODES[layout.winning]
    shown = sum(
        1
        for t in layout.tiles
        if t.true_code == winning
        and not t.face_down
        and (t.group in ("discards", "other_meld") or t.group.startswith("meld"))
    )
    assert layout.fourth_tile == (shown >= 3)


def test_a_table_of_promoted_hands_shows_promoted_kongs() -> None:
    """`render --kind table --hands promoted` (training the stacked-tile model at a
    table's scale): the winner lays tiles on claimed ones far more often than in play."""

    def stacked(mix: str) -> int:
        tables = [table_layout(np.random.default_rng(s), KINDS, mix) for s in range(30)]
        return sum(1 for t in tables for p in t.tiles if p.level and p.group.startswith("meld"))

    promoted, plain = stacked("promoted"), stacked("plain")
    assert promoted >= 10 and promoted >= 4 * plain


def test_some_tables_make_the_winning_tile_the_last_of_its_kind() -> None:
    flags = [table_layout(np.random.default_rng(s), KINDS).fourth_tile for s in range(40)]
    assert 5 <= sum(flags) <= 30


def test_a_standing_tile_shows_its_face_only_to_its_side() -> None:
    """A tile standing with its face to the camera is labelled by its face; seen from
    behind, it is a back."""
    cam = {"elevation": 35.0, "azimuth": 0.0, "roll": 0.0, "tile_px": 50.0, "fov": 50.0}
    codes = []
    for angle in (0.0, 180.0):  # facing the camera's player, then the player opposite
        layout = Layout(kind="row", tiles=[Placement("5p", 0.0, 0.0, angle, standing=True)])
        scene = render.render_scene(
            np.random.default_rng(0), "builtin", 320, layout=layout, camera=cam, plain=MAGENTA
        )
        codes.append(scene.meta["tiles"][0]["code"])
        drawn = np.abs(scene.image.astype(int) - MAGENTA).sum(axis=2) > 30
        x1, y1, x2, y2 = scene.meta["tiles"][0]["box"]
        ys, xs = np.nonzero(drawn)
        assert xs.min() >= x1 - 2 and xs.max() <= x2 + 2 and ys.min() >= y1 - 2
        assert ys.max() <= y2 + 2
        assert (y2 - y1) > (x2 - x1)  # standing: taller than wide in the picture
    assert codes == ["5p", "back"]
    # seen from behind, the back fills the tile's outline: no table shows through around it
    inner = drawn[int(y1) + 4 : int(y2) - 4, int(x1) + 4 : int(x2) - 4]
    assert inner.mean() > 0.995


def test_a_table_scene_renders_with_its_labels() -> None:
    scene = render.render_scene(np.random.default_rng(3), "builtin", 640, "table")
    meta = scene.meta
    assert meta["kind"] == "table" and isinstance(meta["fourth_tile"], bool)
    groups = Counter(t["group"] for t in meta["tiles"])
    assert groups["winning"] == 1 and groups["wall"] + groups["discards"] > 20
    assert all("seat" in t and "partial" in t for t in meta["tiles"])


def test_a_zoomed_table_photo_keeps_the_winners_hand_whole() -> None:
    """A player photographing a win aims at the hand: zoomed in on a whole table (the
    far walls and ponds cut by the edge), the laid-down hand stays wholly in the picture."""
    camera = {"elevation": 30.0, "azimuth": 0.0, "roll": 0.0, "fov": 60.0, "tile_px": 40.0}
    others = ("discards", "wall", "other_hand", "other_meld")
    cut = 0
    for seed in range(6):
        rng = np.random.default_rng(seed)
        layout = table_layout(rng, KINDS | {f"{n}f" for n in range(1, 9)})
        cam, _ = render.place_camera(rng, layout, 1600, 900, {**camera, "zoom": 1.7})

        def inside(tiles: list, cam=cam) -> bool:
            corners = [TileMesh.of(t).points(OUTLINE, z) for t in tiles for z in (0, TILE_T)]
            p = cam.project(np.vstack(corners))
            return bool(np.all((p >= 0) & (p <= (1600, 900))))

        assert inside([t for t in layout.tiles if t.group not in others]), seed
        cut += not inside(layout.tiles)
    assert cut >= 4  # the zoom still cuts the rest of the table
