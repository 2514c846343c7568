"""Crops at the detector's boxes: each must carry the label of the tile it boxes."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from datasets.cmdv4 import Sample
from datasets.detector_crops import (
    MIN_IOU,
    detector_crops,
    label_boxes,
    render_samples,
    row_view_crops,
)
from scorer.tiles import INDEX
from tests.vision.photo_fixtures import tilted_row
from vision.classify import rect_warp
from vision.rows import TILE_ASPECT


def test_each_labelled_box_is_taken_once_best_overlap_first() -> None:
    labelled = np.array([[0, 0, 10, 10], [20, 0, 30, 10]], np.float64)
    found = np.array(
        [[1, 0, 11, 10], [0, 0, 10, 10], [21, 0, 31, 10], [50, 50, 60, 60]], np.float64
    )
    # the exact box wins the first labelled tile; the shifted one overlaps it but
    # finds it taken; the third matches the second tile; the last lies on no tile
    assert label_boxes(found, labelled).tolist() == [-1, 0, 1, -1]


def test_too_little_overlap_takes_no_label() -> None:
    labelled = np.array([[0, 0, 10, 10]], np.float64)
    half = np.array([[5, 0, 15, 10]], np.float64)  # IoU 1/3
    assert MIN_IOU > 1 / 3
    assert label_boxes(half, labelled).tolist() == [-1]
    assert label_boxes(np.zeros((0, 4)), labelled).tolist() == []


def _drawn_photo(tmp_path) -> Sample:
    """Eight light tiles with dark pips on a green cloth, labelled 1p..8p in a row."""
    img = np.full((400, 800, 3), (40, 110, 40), np.uint8)
    boxes, codes = [], []
    for i in range(8):
        x, y = 40 + i * 90, 150
        cv2.rectangle(img, (x, y), (x + 66, y + 90), (235, 240, 240), -1)
        cv2.putText(
            img, str(i + 1), (x + 15, y + 65), cv2.FONT_HERSHEY_SIMPLEX, 1.8, (30, 30, 160), 4
        )
        boxes.append((x / 800, y / 400, (x + 66) / 800, (y + 90) / 400))
        codes.append(f"{i + 1}p")
    path = tmp_path / "row.jpg"
    cv2.imwrite(str(path), img)
    return Sample(path, boxes, codes)


def test_crops_carry_the_label_of_the_tile_beneath(tmp_path) -> None:
    sample = _drawn_photo(tmp_path)
    cut_at: list[tuple[float, float, float, float]] = []

    def store(photo: np.ndarray, box) -> np.ndarray:
        cut_at.append(tuple(box))
        x1, y1, x2, y2 = (int(round(v)) for v in box)
        return cv2.resize(photo[y1:y2, x1:x2], (16, 16))

    crops, labels, sizes = detector_crops([sample], store)
    assert len(crops) >= 6  # the bundled detector finds most drawn tiles (see test_detect)
    assert len(crops) == len(labels) == len(sizes) == len(cut_at)
    for crop, lab, box in zip(crops, labels, cut_at, strict=True):
        k = int(lab) - INDEX["1p"]
        assert 0 <= k < 8, "a label from the photo's labels"
        cx = (box[0] + box[2]) / 2 / 800
        assert sample.boxes[k][0] < cx < sample.boxes[k][2], "the label of the tile the box lies on"
        assert crop.mean() > 150  # cut from the light tile, not the cloth


def test_rendered_scenes_read_as_samples(tmp_path) -> None:
    (tmp_path / "images").mkdir()
    (tmp_path / "labels").mkdir()
    for stem in ("a", "b"):
        cv2.imwrite(str(tmp_path / "images" / f"{stem}.jpg"), np.zeros((10, 10, 3), np.uint8))
    (tmp_path / "labels" / "a.txt").write_text(
        f"{INDEX['back']} 0.5 0.5 0.2 0.4\n{INDEX['C']} 0.25 0.5 0.1 0.2\n"
    )
    images = sorted((tmp_path / "images").glob("*.jpg"))
    samples = render_samples(tmp_path, images)
    assert [s.image_path.stem for s in samples] == ["a"]  # b has no labels
    assert samples[0].codes == ["back", "C"]
    assert samples[0].boxes[0] == pytest.approx((0.4, 0.3, 0.6, 0.7))


def test_the_turned_store_lines_a_tilted_tile_up_in_the_middle_of_the_crop() -> None:
    """The classifier's second view for training: the tile's rectangle turned square to
    its row fills the central 1/margin of the stored crop, the face's top (red) on top."""
    angle = np.radians(30)
    img, boxes = tilted_row(angle, n=1)
    x1, y1, x2, y2 = boxes[0]
    along, across = 40.0 * 1.5, 40.0 * TILE_ASPECT * 1.5  # with the stored crops' margin
    crop = rect_warp(img, ((x1 + x2) / 2, (y1 + y2) / 2), angle, along, across, 96)
    assert crop.shape == (96, 96, 3)
    inner = crop[17:79, 17:79]  # the rectangle: the central 64 of 96 px
    red = (inner[..., 2] > 200) & (inner[..., 0] < 60)
    assert red[:8].mean() > 0.8 and red[-24:].mean() < 0.05
    grey = (np.abs(inner.astype(int) - 128) < 20).all(axis=2)
    assert grey.mean() < 0.05  # the face alone inside; the margin shows the cloth
    assert (np.abs(crop[:8].astype(int) - 128) < 20).all(axis=2).mean() > 0.5


def test_row_view_crops_carry_the_label_of_the_tile_beneath(tmp_path) -> None:
    sample = _drawn_photo(tmp_path)
    crops, labels, sizes = row_view_crops([sample], 96, 1.5)
    assert len(crops) >= 6 and crops.shape[1:] == (96, 96, 3)
    assert len(crops) == len(labels) == len(sizes)
    ks = sorted(int(lab) - INDEX["1p"] for lab in labels)
    assert len(set(ks)) == len(ks) and all(0 <= k < 8 for k in ks)  # each tile once
    # along the row the spacing gives the width, across it the tile's length
    assert np.all(sizes[:, 1] > sizes[:, 0])
    for c in crops:  # the light tile in the middle, the cloth above and below
        assert c[34:62, 34:62].mean() > 150
        assert np.concatenate([c[:8], c[-8:]]).mean() < 100


def test_crops_at_another_table_detector_are_cut_where_it_boxes(tmp_path, monkeypatch) -> None:
    """A training run's table detector stands in for the bundled one (the crops come from
    a detector opened with it); a mistyped path is refused, never quietly replaced by the
    bundled file."""
    import vision.detect

    sample = _drawn_photo(tmp_path)
    with pytest.raises(FileNotFoundError, match="no table detector"):
        detector_crops([sample], lambda photo, box: photo[:4, :4], None, tmp_path / "none.onnx")
    run = tmp_path / "run.onnx"
    run.write_bytes(vision.detect.TABLE_MODEL.read_bytes())
    opened: list = []
    real = vision.detect.Detector

    def recording(model_path=None, table_model=None, **kw):
        opened.append(table_model)
        return real(model_path, table_model=table_model, **kw)

    monkeypatch.setattr(vision.detect, "Detector", recording)
    crops, labels, _ = detector_crops([sample], lambda photo, box: photo[:4, :4], None, run)
    assert opened == [run]
    assert len(crops) >= 6 and len(crops) == len(labels)
