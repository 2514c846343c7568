"""Index styles: training sets whose art is squeezed beside a large corner index.

Skips where the drawn art the faces come from is absent
(`python -m datasets.art install`).
"""

from __future__ import annotations

import numpy as np
import pytest

from datasets.art import FACE_H, FACE_W
from datasets.scene import indexfaces, pipfaces
from datasets.scene.faces import available_styles, face_background, style_faces
from datasets.styles import HELDOUT_STYLES, resolve_styles
from scorer.tiles import BACK, CODES

pytest.importorskip("PIL", reason="pillow is a training extra (some styles squeeze font faces)")
NAMES = indexfaces.style_names()
pytestmark = pytest.mark.skipif(
    not set(pipfaces.DRAWN) <= set(available_styles()),
    reason="tile art not installed: python -m datasets.art install",
)


def _ink(face: np.ndarray) -> np.ndarray:
    """Where a face carries ink: far from its face colour."""
    return np.abs(face.astype(np.float32) - face_background(face)).sum(axis=2) > 90


def test_every_index_style_is_a_whole_set_made_from_training_art() -> None:
    """`--styles index` names every style; each gives all 42 faces at the art's size and
    squeezes a training style, never a held-out one."""
    assert resolve_styles("index") == NAMES
    for name in NAMES:
        assert indexfaces.base_style(name) not in HELDOUT_STYLES
        faces = style_faces(name)
        assert set(faces) == {c for c in CODES if c != BACK}
        assert all(f.shape == (FACE_H, FACE_W, 3) for f in faces.values())


def test_the_index_says_the_tile_and_the_art_makes_room_for_it() -> None:
    """Every suited tile prints its number: the face's ink reaches into the index corner,
    where the squeezed art alone leaves it blank, and the art itself is smaller."""
    for name in NAMES[:12]:
        layout = indexfaces.layout_of(name)
        base = style_faces(indexfaces.base_style(name))
        face, plain = style_faces(name)["6s"], base["6s"]
        art = indexfaces.squeezed(plain, layout)
        h, w = int(layout.height * FACE_H) + 12, FACE_W // 4
        rows = slice(FACE_H - h, FACE_H) if layout.bottom else slice(0, h)
        cols = slice(FACE_W - w, FACE_W) if layout.right else slice(0, w)
        assert _ink(face)[rows, cols].sum() > _ink(art)[rows, cols].sum() + 50, name
        assert _ink(art).sum() < 0.9 * _ink(plain).sum(), name
        assert indexfaces.index_text("6s", layout) == "6"


def test_unmarked_faces_are_the_base_styles_own() -> None:
    """A face the style prints nothing on (白 always) is the base style's face unchanged,
    so only the index corner moves the art."""
    for name in NAMES[:6]:
        assert np.array_equal(style_faces(name)["P"], style_faces(indexfaces.base_style(name))["P"])


def test_styles_differ_in_corner_size_and_ink() -> None:
    """The styles place, size and colour their index in more than one way."""
    layouts = [indexfaces.layout_of(n) for n in NAMES]
    assert len({(lay.right, lay.bottom) for lay in layouts}) >= 3
    assert len({lay.ink for lay in layouts}) >= 3
    heights = [lay.height for lay in layouts]
    assert max(heights) - min(heights) > 0.05
