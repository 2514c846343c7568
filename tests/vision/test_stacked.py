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


def test_a_promoted_kong_is_also_taught_at_the_pairs_whole_extent() -> None:
    """A detector boxes the pair as the top tile or as both tiles together: the stacked
    model learns both boxes as a tile on top, and every other meld tile as before."""
    render = pytest.importorskip("datasets.render")
    from datasets.scene.hands import meld_tiles

    pairs = 0
    for index in range(16):
        scene = render.render_scene(render.scene_rng(5, index), "builtin", 800, "promoted")
        alone, both = meld_tiles(scene.meta), meld_tiles(scene.meta, pairs=True)
        extra = [t for t in both if t not in alone]
        assert len(both) == len(alone) + len(extra)
        tops = [box for box, label, _ in alone if label == 1]
        assert len(extra) == len(tops)
        for box, label, _ in extra:
            assert label == 1
            assert any(
                box[0] <= t[0] and box[1] <= t[1] and box[2] >= t[2] and box[3] >= t[3]
                and (box[2] - box[0]) * (box[3] - box[1]) > (t[2] - t[0]) * (t[3] - t[1])
                for t in tops
            )  # fmt: skip
        pairs += len(extra)
    assert pairs >= 4
