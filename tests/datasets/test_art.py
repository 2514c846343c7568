"""Every face of every installed art style reaches the picture, on the right tile.

Skips when the art cache (`python -m datasets.art install`) is absent.
"""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from datasets import render
from datasets.art import FACE_H, FACE_W, load_index
from datasets.scene.faces import RIM, available_styles, style_faces
from datasets.scene.geometry import BEVEL
from datasets.scene.types import TILE_D, TILE_W, Layout, Placement
from datasets.styles import HELDOUT_STYLES, TRAIN_STYLES
from scorer.tiles import BACK, CODES

STYLES = available_styles()
needs_art = pytest.mark.skipif(
    not STYLES, reason="tile art not installed: python -m datasets.art install"
)
TOP_DOWN = {"elevation": 90.0, "azimuth": 0.0, "roll": 0.0, "tile_px": 120.0, "fov": 50.0}
GREY = (128, 128, 128)


def _face_in_picture(style: str, code: str) -> tuple[np.ndarray, np.ndarray]:
    """The drawn face cut out of a top-down picture, and the cached face, same size."""
    layout = Layout(kind="grid", tiles=[Placement(code, 0.0, 0.0, 0.0, code == BACK)])
    scene = render.render_scene(
        np.random.default_rng(1),
        style,
        400,
        layout=layout,
        camera=TOP_DOWN,
        plain=GREY,
        art_variation=False,
    )
    corners = np.float32(scene.meta["tiles"][0]["corners"])
    size = (96, 128)
    dst = np.float32([[0, 0], [size[0], 0], [size[0], size[1]], [0, size[1]]])
    cut = cv2.warpPerspective(scene.image, cv2.getPerspectiveTransform(corners, dst), size)
    return cut, scene.image


def _art_box(w: int, h: int) -> tuple[int, int, int, int]:
    """Where the artwork lies in a cut-out tile top: inside the bevel and the blank rim."""
    bx, by = BEVEL / TILE_W * w, BEVEL / TILE_D * h
    rx, ry = int(FACE_W * RIM), int(FACE_H * RIM)
    ax = bx + (w - 2 * bx) * rx / (FACE_W + 2 * rx)
    ay = by + (h - 2 * by) * ry / (FACE_H + 2 * ry)
    return round(ax) + 1, round(ay) + 1, round(w - ax) - 1, round(h - ay) - 1


def _gray(img: np.ndarray) -> np.ndarray:
    return cv2.cvtColor(img, cv2.COLOR_BGR2GRAY).astype(np.float32)


def _ncc(a: np.ndarray, b: np.ndarray) -> float:
    a, b = a - a.mean(), b - b.mean()
    return float((a * b).sum() / (np.sqrt((a * a).sum() * (b * b).sum()) + 1e-6))


def test_train_and_heldout_styles_are_disjoint() -> None:
    assert len(HELDOUT_STYLES) >= 2
    assert not set(TRAIN_STYLES) & set(HELDOUT_STYLES)


@needs_art
@pytest.mark.parametrize("style", STYLES)
def test_every_face_is_rendered(style: str) -> None:
    entry = load_index()["styles"][style]
    faces = style_faces(style)
    assert set(faces) == set(entry["faces"])
    assert entry["has_flowers"] == all(f"{n}f" in faces for n in range(1, 9))
    assert len(faces) + len(entry["missing"]) == 42
    for code in [*faces, BACK]:
        cut, _ = _face_in_picture(style, code)
        if code == BACK:
            assert cut[12:-12, 12:-12].std(axis=(0, 1)).max() < 4, "a back is plain"
            continue
        face = faces[code]
        assert face.shape == (FACE_H, FACE_W, 3)
        x1, y1, x2, y2 = _art_box(cut.shape[1], cut.shape[0])
        inner = cut[y1:y2, x1:x2]
        ref = cv2.resize(face, (x2 - x1, y2 - y1), interpolation=cv2.INTER_AREA)
        if _gray(ref).std() < 8:  # a (nearly) blank white dragon: only its plainness to compare
            assert _gray(inner).std() < 12
            continue
        score = _ncc(_gray(inner), _gray(ref))
        others = [
            _ncc(_gray(inner), _gray(cv2.resize(f, ref.shape[1::-1], interpolation=cv2.INTER_AREA)))
            for c, f in faces.items()
            if c != code
        ]
        assert score > 0.3 and score > max(others), f"{style} {code}: drawn face does not match"


@needs_art
def test_faces_differ_between_codes() -> None:
    """A mapping slip (two codes sharing one picture) shows as identical faces."""
    for style in STYLES:
        faces = style_faces(style)
        seen: dict[bytes, str] = {}
        for code in CODES:
            if code in faces:
                key = cv2.resize(faces[code], (24, 32)).tobytes()
                assert key not in seen, f"{style}: {code} looks exactly like {seen.get(key)}"
                seen[key] = code


def _green_share(face: np.ndarray) -> float:
    """The share of a face's pixels in green ink."""
    b, g, r = (face[..., k].astype(np.int16) for k in range(3))
    return float(((g > r + 30) & (g > b + 10)).mean())


@needs_art
def test_the_green_dragon_is_the_green_one() -> None:
    """發 (F) is printed green in every set that prints in colour and 白 (P) never is: a
    package whose pictures of the two are swapped against its own names (mj-tiles draws
    發 for its 白) would teach the classifier each as the other."""
    for style in STYLES:
        faces = style_faces(style)
        if {"P", "F"} <= set(faces):
            assert _green_share(faces["P"]) <= _green_share(faces["F"]), style


def test_a_bundle_of_a_cache_missing_a_training_style_names_the_fix(tmp_path) -> None:
    """A cache installed before a style joined the training sets: the GPU bundle says to
    install the art again rather than failing on a missing key."""
    import json

    from datasets.art import ArtError
    from datasets.gpu_bundle import pack_art

    (tmp_path / "index.json").write_text(json.dumps({"styles": {}}))
    with pytest.raises(ArtError, match="datasets.art install") as err:
        pack_art(tmp_path / "out", tmp_path)
    assert TRAIN_STYLES[-1] in str(err.value)
