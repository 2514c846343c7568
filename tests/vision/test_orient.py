"""The orientation model's geometry (crop <-> photo directions) and its run-time behaviour.

The geometry tests need nothing but numpy/opencv. The model tests skip when
models/orientation.onnx is absent; the rendered-scene test also skips when
the tile art cache (`python -m datasets.art install`) is absent.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from scorer.tiles import CODES
from tests.vision.photo_fixtures import tilted_row
from vision.classify import cut
from vision.config import DEFAULT, OrientConfig
from vision.orient import (
    DEFAULT_MODEL,
    DIRS,
    Orienter,
    crop_to_image,
    expected_direction,
    image_to_crop,
    nearest_class,
    soft_targets,
)
from vision.types import Detection

FLOWERS = set(CODES[34:42])
needs_model = pytest.mark.skipif(
    not DEFAULT_MODEL.is_file(), reason=f"orientation model not found: {DEFAULT_MODEL}"
)


def _marked_image(box: tuple[int, int, int, int], side: str) -> np.ndarray:
    """A grey photo with a white box whose `side` ("top", "right", ...) carries a black bar."""
    img = np.full((200, 240, 3), 90, np.uint8)
    x1, y1, x2, y2 = box
    img[y1:y2, x1:x2] = 255
    w, h = x2 - x1, y2 - y1
    if side == "top":
        img[y1 : y1 + h // 5, x1:x2] = 0
    elif side == "bottom":
        img[y2 - h // 5 : y2, x1:x2] = 0
    elif side == "left":
        img[y1:y2, x1 : x1 + w // 5] = 0
    else:
        img[y1:y2, x2 - w // 5 : x2] = 0
    return img


def _dark_side(crop: np.ndarray) -> np.ndarray:
    """Unit direction from the crop centre towards its dark pixels."""
    g = crop.mean(axis=2)
    ys, xs = np.nonzero(g < 60)
    v = np.array([xs.mean() - 31.5, ys.mean() - 31.5])
    return v / np.linalg.norm(v)


SIDES = {"top": (0, -1), "bottom": (0, 1), "left": (-1, 0), "right": (1, 0)}


@pytest.mark.parametrize("box", [(40, 50, 100, 140), (30, 60, 170, 120)])  # tall, wide
@pytest.mark.parametrize("side", sorted(SIDES))
def test_image_to_crop_follows_cut(box: tuple[int, int, int, int], side: str) -> None:
    """Where a marked side of the box lands in the run-time crop is where the mapping says."""
    crop = cut(_marked_image(box, side), box)
    predicted = image_to_crop([SIDES[side]], [box])[0]
    assert np.dot(_dark_side(crop), predicted) > 0.95


def test_wide_box_quarter_turn() -> None:
    """A wide box is turned counter-clockwise: the photo's up becomes the crop's left."""
    wide, tall = (0, 0, 80, 40), (0, 0, 40, 80)
    assert np.allclose(image_to_crop([(0, -1)], [wide]), [(-1, 0)])
    assert np.allclose(image_to_crop([(0, -1)], [tall]), [(0, -1)])
    assert np.allclose(crop_to_image([(-1, 0)], [wide]), [(0, -1)])


def test_mappings_are_inverse_and_keep_length() -> None:
    rng = np.random.default_rng(0)
    xy = rng.uniform(0, 500, (200, 2))
    wh = rng.uniform(10, 150, (200, 2))
    boxes = np.hstack([xy, xy + wh])
    v = rng.normal(size=(200, 2)) * rng.uniform(0, 1, (200, 1))
    back = crop_to_image(image_to_crop(v, boxes), boxes)
    assert np.allclose(back, v, atol=1e-9)
    assert np.allclose(np.linalg.norm(image_to_crop(v, boxes), axis=1), np.linalg.norm(v, axis=1))
    assert np.allclose(crop_to_image(np.zeros((3, 2)), boxes[:3]), 0)


def test_soft_targets_point_along_the_direction() -> None:
    ang = np.radians(np.arange(0, 360, 7.5))
    v = np.stack([np.sin(ang), -np.cos(ang)], axis=1)  # 0 = up, clockwise
    t = soft_targets(v)
    assert np.allclose(t.sum(axis=1), 1)
    e = expected_direction(t)
    cos = (e * v).sum(axis=1) / np.linalg.norm(e, axis=1)
    assert cos.min() > 0.999  # the two-neighbour expectation points exactly along v
    assert list(nearest_class(DIRS)) == [0, 1, 2, 3]
    assert list(nearest_class([(0.2, -1), (1, 0.3), (-0.1, 2), (-3, 1)])) == [0, 1, 2, 3]


def test_missing_model_is_a_clear_error(tmp_path) -> None:
    with pytest.raises(FileNotFoundError, match="orientation model not found"):
        Orienter(tmp_path / "none.onnx")


@needs_model
def test_output_shape_and_length() -> None:
    rng = np.random.default_rng(1)
    img = rng.integers(0, 255, (240, 320, 3), dtype=np.uint8)
    dets = [
        Detection((10, 10, 60, 80), 1.0),
        Detection((100, 50, 190, 100), 1.0),
        Detection((300, 200, 320, 240), 0.5),
    ]
    orienter = Orienter()
    out = orienter(img, dets)
    assert out.shape == (3, 2) and out.dtype == np.float32
    assert np.isfinite(out).all()
    assert (np.linalg.norm(out, axis=1) <= 1 + 1e-5).all()
    assert orienter(img, []).shape == (0, 2)
    with pytest.raises(ValueError):
        orienter(np.zeros((4, 4, 3), np.uint8), dets)


def _up_when_red_runs_across(crops: np.ndarray) -> np.ndarray:
    """Stand-in model: sure the face top points up when some row of the crop is mostly red
    (a face's top band lying square to the crop), sure it points right otherwise."""
    out = np.zeros((len(crops), 4), np.float32)
    for k, c in enumerate(crops):
        red = (c[..., 2] > 200) & (c[..., 0] < 60)
        out[k, 0 if red.mean(axis=1).max() > 0.7 else 1] = 1.0
    return out


@needs_model
def test_a_face_sure_across_its_turned_row_is_believed(monkeypatch) -> None:
    """On a row at 30 degrees the box crop shows the faces askew (here read as pointing
    right, along the row); each tile's crop turned square to the row shows its face top
    surely across the row, away from the player, and that direction is taken."""
    angle = np.radians(30)
    img, boxes = tilted_row(angle)
    dets = [Detection(b, 0.9) for b in boxes]
    orienter = Orienter()
    monkeypatch.setattr(orienter, "probs", _up_when_red_runs_across)
    away = np.array([np.sin(angle), -np.cos(angle)])  # square to the row, away from the player
    assert np.allclose(orienter(img, dets), away, atol=0.02)
    orienter.row_view = False
    box_only = orienter(img, dets)
    assert (box_only @ away < 0.6).all()  # the box crops alone do not say so


@needs_model
def test_a_face_not_sure_across_keeps_the_box_reading(monkeypatch) -> None:
    """Where the turned crop's face does not point surely across the row (a sideways
    tile's face, for which that crop is not cut), the box crop's direction stands."""
    img, boxes = tilted_row(np.radians(30))
    img[(img[..., 0] < 60) & (img[..., 1] < 60)] = (40, 40, 40)  # the red bands go dark grey
    dets = [Detection(b, 0.9) for b in boxes]
    orienter = Orienter()
    monkeypatch.setattr(orienter, "probs", _up_when_red_runs_across)
    both = orienter(img, dets)
    orienter.row_view = False
    assert np.allclose(both, orienter(img, dets))


def _towards_a_square_red_band(crops: np.ndarray) -> np.ndarray:
    """Stand-in model: sure the face top points to the side of the crop where its red band
    lies, when the band runs square to the crop (some row or column mostly red); no idea
    (all four classes alike) otherwise."""
    out = np.full((len(crops), 4), 0.25, np.float32)
    for k, c in enumerate(crops):
        red = (c[..., 2] > 200) & (c[..., 0] < 60)
        if max(red.mean(axis=1).max(), red.mean(axis=0).max()) > 0.7:
            ys, xs = np.nonzero(red)
            out[k] = 0.0
            out[k, nearest_class([(xs.mean() - 31.5, ys.mean() - 31.5)])[0]] = 1.0
    return out


@needs_model
def test_a_sideways_face_is_read_from_the_rectangle_it_fills(monkeypatch) -> None:
    """A claimed tile lies across its row, its face top pointing along the row. Neither
    its box (askew on a row at 30 degrees) nor the rectangle cut for an upright tile
    shows that face square; the rectangle a sideways tile fills there, turned square to
    the row, does, and its direction along the row is taken. The upright tiles beside it
    keep pointing away from the player."""
    angle = np.radians(30)
    img, boxes = tilted_row(angle, n=4, sideways={2})
    dets = [Detection(b, 0.9) for b in boxes]
    orienter = Orienter()
    monkeypatch.setattr(orienter, "probs", _towards_a_square_red_band)
    back_along = -np.array([np.cos(angle), np.sin(angle)])
    away = np.array([np.sin(angle), -np.cos(angle)])
    got = orienter(img, dets)
    assert got[2] @ back_along > 0.9
    assert (got[[0, 1, 3]] @ away > 0.9).all()
    orienter.row_view = False
    assert orienter(img, dets)[2] @ back_along < 0.6  # the box crop alone does not say so


@needs_model
def test_more_tiles_lying_sideways_than_a_hand_holds_are_not_believed(monkeypatch) -> None:
    """A hand has at most four claimed melds, one tile of each sideways. When the
    sideways view finds more, the row was judged along the tiles' length (a grid of loose
    tiles), so that view is not heard and the tiles read as without it."""
    img, boxes = tilted_row(np.radians(30), n=6, sideways=range(6), size=(700, 500))
    dets = [Detection(b, 0.9) for b in boxes]
    orienter = Orienter()
    monkeypatch.setattr(orienter, "probs", _towards_a_square_red_band)
    got = orienter(img, dets)
    never_sure = replace(DEFAULT, orient=OrientConfig(face_along_view=9.0))
    monkeypatch.setattr(orienter, "config", never_sure)  # the sideways view never sure
    assert np.allclose(got, orienter(img, dets))
    monkeypatch.setattr(orienter, "config", replace(DEFAULT, orient=OrientConfig(most_lying=6)))
    assert not np.allclose(got, orienter(img, dets))  # heard, the view would change them


def _turn(img: np.ndarray, boxes: np.ndarray, ups: np.ndarray, k: int):
    """The photo turned k quarters counter-clockwise (np.rot90), with its boxes and directions."""
    for _ in range(k):
        w = img.shape[1]
        img = np.ascontiguousarray(np.rot90(img))
        boxes = np.stack([boxes[:, 1], w - boxes[:, 2], boxes[:, 3], w - boxes[:, 0]], axis=1)
        ups = np.stack([ups[:, 1], -ups[:, 0]], axis=1)
    return img, boxes, ups


@needs_model
def test_row_vote_on_a_turned_rendered_hand() -> None:
    """On a rendered hand in a held-out art style, turned 0/90/180/270 degrees, the
    summed face-top vote of the upright tiles points where the faces really point.

    The hand is laid along the photo's axes (within 20 degrees), as players
    photograph it; hands turned near 45 degrees are a known weak spot that
    `bench/bench_orientation.py` measures. Flowers lie apart from the hand
    and stay out of the vote.
    """
    render = pytest.importorskip("datasets.render")
    from datasets.scene.faces import available_styles
    from datasets.styles import HELDOUT_STYLES

    styles = [s for s in HELDOUT_STYLES if s in available_styles()]
    if not styles:
        pytest.skip("tile art not installed: python -m datasets.art install")
    for index in range(10):  # the first hand laid along the photo's axes (see the docstring)
        scene = render.render_scene(render.scene_rng(11, index), styles[0], 800, "hand")
        tiles = [
            t
            for t in scene.meta["tiles"]
            if not (t["face_down"] or t["sideways"] or t["code"] in FLOWERS)
        ]
        c = np.array([t["corners"] for t in tiles])
        ups = (c[:, 0] + c[:, 1]) / 2 - (c[:, 2] + c[:, 3]) / 2
        mean = ups.sum(axis=0)
        if len(tiles) >= 5 and np.abs(mean).max() > np.cos(np.radians(20)) * np.linalg.norm(mean):
            break
    else:
        pytest.fail("no axis-aligned hand among the first 10 rendered scenes")
    boxes = np.array([t["box"] for t in tiles])
    orienter = Orienter()
    for k in range(4):
        img, b, u = _turn(scene.image, boxes, ups, k)
        truth = (u / np.linalg.norm(u, axis=1, keepdims=True)).sum(axis=0)
        vote = orienter(img, [Detection(tuple(x), 1.0) for x in b]).sum(axis=0)
        cos = np.dot(vote, truth) / (np.linalg.norm(vote) * np.linalg.norm(truth))
        assert cos > 0.7, f"turned {90 * k} degrees: vote {vote}, truth {truth}"
