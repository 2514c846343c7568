"""The stacked-tile reader (`vision.stacked`): a promoted kong's fourth tile on the claimed one.

The model tests skip when models/stacked.onnx is absent; the rendered-scene
test draws its scenes with the renderer's built-in tile art, which no model
was trained on.
"""

from __future__ import annotations

import numpy as np
import pytest

from vision.stacked import DEFAULT_MODEL, Stacker
from vision.types import Detection

needs_model = pytest.mark.skipif(
    not DEFAULT_MODEL.is_file(), reason=f"stacked-tile model not found: {DEFAULT_MODEL}"
)


def test_missing_model_is_a_clear_error(tmp_path) -> None:
    with pytest.raises(FileNotFoundError, match="stacked-tile model not found"):
        Stacker(tmp_path / "none.onnx")


@needs_model
def test_no_tiles_no_answers() -> None:
    photo = np.full((100, 100, 3), 90, np.uint8)
    assert Stacker()(photo, []).shape == (0,)


@needs_model
def test_the_tile_on_top_outranks_the_other_meld_tiles() -> None:
    """Seed 003 实战细节 五: a promoted kong's fourth tile lies on the claimed, sideways one.
    In rendered hands with promoted kongs, built-in art, the box of each such pair reads
    surer of a tile on top than every other tile of the exposed melds, in each scene."""
    render = pytest.importorskip("datasets.render")
    from datasets.scene.hands import meld_tiles

    seen = 0
    for index in range(12):
        scene = render.render_scene(render.scene_rng(5, index), "builtin", 800, "promoted")
        tiles = meld_tiles(scene.meta)
        if not any(label for _, label, _ in tiles):
            continue
        p = Stacker()(scene.image, [Detection(box, 1.0) for box, _, _ in tiles])
        labels = np.array([label for _, label, _ in tiles])
        assert p[labels == 1].min() > p[labels == 0].max(), f"scene {index}: {p}, {labels}"
        seen += 1
    assert seen >= 4
