"""The renderer's labels must match what it draws, exactly and reproducibly.

Most tests use the built-in style (faces written with cv2.putText) so they
run without the installed tile artwork.
"""

from __future__ import annotations

import json
from collections import Counter

import cv2
import numpy as np
import pytest

from datasets import render
from datasets.scene.types import Layout, Placement
from scorer.notation import parse_hand
from scorer.tiles import CODES

MAGENTA = (255, 0, 255)
TOP_DOWN = {"elevation": 90.0, "azimuth": 0.0, "roll": 0.0, "tile_px": 60.0, "fov": 50.0}


def _single(
    code: str,
    angle: float = 0.0,
    face_down: bool = False,
    camera: dict | None = None,
    seed: int = 0,
) -> render.Scene:
    layout = Layout(
        kind="grid", tiles=[Placement(code, 0.0, 0.0, angle, face_down, angle % 180 == 90)]
    )
    return render.render_scene(
        np.random.default_rng(seed), "builtin", 320, layout=layout, camera=camera, plain=MAGENTA
    )


def _drawn(img: np.ndarray) -> np.ndarray:
    """Pixels that are not the plain background."""
    return np.abs(img.astype(int) - MAGENTA).sum(axis=2) > 30


@pytest.mark.parametrize("seed", range(12))
def test_box_covers_the_drawn_tile(seed: int) -> None:
    rng = np.random.default_rng(seed)
    cam = {
        "elevation": float(rng.uniform(40, 90)),
        "azimuth": float(rng.uniform(0, 360)),
        "roll": float(rng.uniform(-20, 20)),
        "tile_px": float(rng.uniform(20, 120)),
    }
    scene = _single(CODES[seed * 3 % 43], float(rng.uniform(0, 360)), seed % 3 == 0, cam, seed)
    ys, xs = np.nonzero(_drawn(scene.image))
    assert len(xs) > 50, "the tile was not drawn"
    x1, y1, x2, y2 = scene.meta["tiles"][0]["box"]
    assert xs.min() >= x1 - 2 and xs.max() <= x2 + 2
    assert ys.min() >= y1 - 2 and ys.max() <= y2 + 2  # anti-aliased edges bleed a pixel
    # and the box is tight: the drawing reaches each of its sides
    assert xs.min() <= x1 + 2 and xs.max() >= x2 - 3 and ys.min() <= y1 + 2 and ys.max() >= y2 - 3


def test_sideways_tile_is_drawn_across() -> None:
    upright = _drawn(_single("5m", 0.0, camera=TOP_DOWN).image)
    across = _drawn(_single("5m", 90.0, camera=TOP_DOWN).image)
    uh, uw = np.ptp(np.nonzero(upright)[0]), np.ptp(np.nonzero(upright)[1])
    ah, aw = np.ptp(np.nonzero(across)[0]), np.ptp(np.nonzero(across)[1])
    assert uh > uw * 1.2 and aw > ah * 1.2
    meta = _single("5m", 90.0, camera=TOP_DOWN).meta["tiles"][0]
    assert meta["sideways"]
    (tlx, tly), (trx, try_), _, (blx, bly) = meta["corners"]
    # the face's top edge (TL -> TR) runs down the picture for a tile turned left
    assert abs(try_ - tly) > abs(trx - tlx)


def test_face_down_tile_shows_a_plain_back() -> None:
    def face_std(face_down: bool) -> float:
        scene = _single("8p", face_down=face_down, camera=TOP_DOWN)
        corners = np.array(scene.meta["tiles"][0]["corners"], np.float32)
        centre = corners.mean(axis=0)
        inner = (centre + (corners - centre) * 0.6).astype(np.int32)
        mask = np.zeros(scene.image.shape[:2], np.uint8)
        cv2.fillConvexPoly(mask, inner, 1)
        return float(scene.image[mask > 0].std(axis=0).max())

    assert face_std(True) < 3.0 < 20.0 < face_std(False)
    meta = _single("8p", face_down=True, camera=TOP_DOWN).meta["tiles"][0]
    assert meta["face_down"] and meta["code"] == "back" and meta["true_code"] == "8p"
    assert meta["class"] == 42


@pytest.mark.parametrize("seed", range(25))
def test_hand_notation_describes_the_tiles_drawn(seed: int) -> None:
    scene = render.render_scene(render.scene_rng(100, seed), "builtin", 320, "hand")
    meta = scene.meta
    hand = parse_hand(meta["hand"])
    tiles = meta["tiles"]
    playing = Counter(t["true_code"] for t in tiles if t["group"] != "flower")
    assert playing == Counter(CODES[i] for i in hand.all_tiles)
    assert sorted(meta["flowers"]) == sorted(t["code"] for t in tiles if t["group"] == "flower")
    winning = [t for t in tiles if t["group"] == "winning"]
    assert [t["true_code"] for t in winning] == [CODES[hand.winning_tile]]
    assert len(meta["melds"]) == len(hand.melds)
    for m, meld in zip(meta["melds"], hand.melds, strict=True):
        drawn = [tiles[i] for i in m["tiles"]]
        assert sorted(t["true_code"] for t in drawn) == sorted(CODES[i] for i in meld.tiles)
        sideways = sum(t["sideways"] for t in drawn)
        down = sum(t["face_down"] for t in drawn)
        if meld.concealed:
            assert sideways == 0 and down in (2, 4)
        else:
            assert down == 0 and sideways == 1 + meld.promoted
            assert sum(t["stacked"] for t in drawn) == int(meld.promoted)
    for t in tiles:
        assert t["code"] == ("back" if t["face_down"] else t["true_code"])


def test_same_seed_same_picture_and_labels() -> None:
    a = render.render_scene(render.scene_rng(5, 3), "builtin", 400, "mixed")
    b = render.render_scene(render.scene_rng(5, 3), "builtin", 400, "mixed")
    c = render.render_scene(render.scene_rng(5, 4), "builtin", 400, "mixed")
    assert np.array_equal(a.image, b.image) and a.meta == b.meta
    assert a.image.shape != c.image.shape or not np.array_equal(a.image, c.image)


def test_command_line_writes_images_labels_and_meta(tmp_path) -> None:
    args = ["--count", "3", "--styles", "builtin", "--seed", "9", "--size", "256"]
    assert render.main([*args, "--out", str(tmp_path / "a")]) == 0
    assert render.main([*args, "--out", str(tmp_path / "b")]) == 0
    for stem in ("9_000000", "9_000001", "9_000002"):
        img_a = (tmp_path / "a" / "images" / f"{stem}.jpg").read_bytes()
        assert img_a == (tmp_path / "b" / "images" / f"{stem}.jpg").read_bytes()
        meta = json.loads((tmp_path / "a" / "meta" / f"{stem}.json").read_text())
        lines = (tmp_path / "a" / "labels" / f"{stem}.txt").read_text().split()
        assert len(lines) == 5 * len(meta["tiles"])
        for k, t in enumerate(meta["tiles"]):
            cls, cx, cy, w, h = lines[5 * k : 5 * k + 5]
            assert int(cls) == CODES.index(t["code"])
            x1, y1, x2, y2 = t["box"]
            assert abs(float(cx) * meta["width"] - (x1 + x2) / 2) < 0.01
            assert abs(float(h) * meta["height"] - (y2 - y1)) < 0.01


def test_command_line_rejects_bad_input(tmp_path, capsys) -> None:
    assert render.main(["--count", "1", "--styles", "no_such_style", "--out", str(tmp_path)]) == 2
    assert "no_such_style" in capsys.readouterr().err
    assert render.main(["--count", "0", "--styles", "builtin", "--out", str(tmp_path)]) == 2


def test_contact_sheet_draws_the_rendered_set(tmp_path) -> None:
    from datasets import contact_sheet

    assert (
        render.main(
            [
                "--count",
                "2",
                "--styles",
                "builtin",
                "--seed",
                "4",
                "--size",
                "256",
                "--out",
                str(tmp_path / "set"),
            ]
        )
        == 0
    )
    sheet = contact_sheet.contact_sheet(tmp_path / "set", n=2, cell=200)
    assert sheet.shape == (200, 400, 3)
    assert contact_sheet.main([str(tmp_path / "set"), "--out", str(tmp_path / "s.jpg")]) == 0
    assert (tmp_path / "s.jpg").stat().st_size > 1000
    assert contact_sheet.main([str(tmp_path / "empty"), "--out", str(tmp_path / "e.jpg")]) == 1


def test_points_behind_the_camera_are_not_projected() -> None:
    from datasets.scene.geometry import Camera
    from datasets.scene.table import in_front

    cam = Camera.look_at(np.zeros(3), 30.0, 0.0, 0.0, 10.0, 400.0, 800, 600)
    ahead = np.array([[0.0, 0.0, 0.0], [1.0, 2.0, 0.0]])
    np.testing.assert_allclose(in_front(cam, ahead), cam.project(ahead))
    behind = np.vstack([ahead, cam.pos + (cam.pos - ahead[0])])  # the camera between
    assert in_front(cam, behind) is None


def test_clutter_near_a_low_camera_is_drawn_with_pixels_opencv_takes(monkeypatch) -> None:
    """A scene crashed the renderer: a score sheet placed partly behind a camera held low
    and close projected to coordinates past OpenCV's 32-bit range. Every clutter drawing
    call must get coordinates it can take (fillPoly's are in 1/16 pixels)."""
    from datasets.scene import table
    from datasets.scene.geometry import Camera

    rot = np.array([[0.97061, 0.23616, 0.04622], [0.16479, -0.51230, -0.84285],
                    [-0.17537, 0.82570, -0.53616]])  # fmt: skip
    cam = Camera(430.7, 400.0, 300.0, rot, np.array([11.64, -9.90, 6.74]), 800, 600)
    largest = [0.0]

    def fill(img, polys, *a):
        largest[0] = max(largest[0], max(float(np.abs(p).max()) for p in polys))

    def line(img, p, q, *a):
        largest[0] = max(largest[0], float(np.abs(np.array([p, q])).max()) * 16)

    monkeypatch.setattr(table.cv2, "fillPoly", fill)
    monkeypatch.setattr(table.cv2, "line", line)
    for seed in range(400):
        img = np.zeros((600, 800, 3), np.uint8)
        table.draw_clutter(img, np.random.default_rng(seed), cam, (-1.7, -2.0, 20.5, 3.0))
    assert 0 < largest[0] < 2**31 - 1
