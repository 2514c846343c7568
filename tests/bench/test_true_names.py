"""The reader with the labels' names (`bench.true_names`): boxes taken back to the photo
as the reader takes them, so the names measured are the tiles' under every look."""

from __future__ import annotations

import json
from dataclasses import replace
from unittest import mock

import cv2
import numpy as np

import vision.pipeline as pipeline
from bench.bench_heldout import oracle_read
from bench.true_names import LabelNamer, read_with_true_names
from scorer.tiles import CODES, INDEX
from vision.detect import intersections
from vision.types import Detection, TileRead


def _label(code: str, box: list[float]) -> TileRead:
    corners = [[box[0], box[1]], [box[2], box[1]], [box[2], box[3]], [box[0], box[3]]]
    return oracle_read({"code": code, "face_down": False, "corners": corners}, box)


class _Reader:
    """A classifier that reads every box as 9m, counting the boxes it is asked."""

    asked = 0

    def __call__(self, image, detections):
        self.asked += len(detections)
        probs = np.zeros(len(INDEX))
        probs[INDEX["9m"]] = 1.0
        return [TileRead(d, probs.copy(), chosen="9m") for d in detections]


def test_boxes_are_matched_in_the_photo_and_strays_keep_the_models_name() -> None:
    """The reader works on the photo squeezed back (here to half its width): a box there
    is matched to the label at twice its x in the photo; a box on no label is read."""
    labels = [_label("3p", [0, 0, 40, 60]), _label("E", [100, 0, 140, 60])]
    reader = _Reader()
    found = pipeline.Found(np.zeros((100, 100, 3), np.uint8), [], (2.0, 1.0), None)
    namer = LabelNamer(labels, reader, found.to_photo)
    boxes = [(50, 0, 70, 60), (1, 1, 19, 59), (80, 70, 95, 95)]
    reads = namer(np.zeros((100, 100, 3), np.uint8), [Detection(b, 0.9) for b in boxes])
    assert [r.chosen for r in reads] == ["E", "3p", "9m"]
    assert reader.asked == 1
    reads[1] = replace(reads[1], up=(0.0, -1.0), stacked=0.9)
    again = namer.look_again(np.zeros((100, 100, 3), np.uint8), reads, [1, 2])
    assert [r.chosen for r in again] == ["E", "3p", "9m"] and reader.asked == 2
    # named again, a read keeps what the other models said of it (a promoted kong's
    # fourth tile lying on it), as the classifier's own second look keeps it
    assert again[1].up == (0.0, -1.0) and again[1].stacked == 0.9


def test_a_photo_read_turned_to_its_rows_is_named_tile_for_tile(tmp_path) -> None:
    """A hand photographed along the diagonal is read turned square to its rows
    (`vision.turn`); its boxes are taken back through the turn, and every tile the reader
    finds on a labelled tile takes that tile's name."""
    from datasets.render import main as render

    render(["--styles", "builtin", "--kind", "hand", "--count", "1", "--seed", "4",
            "--size", "800", "--workers", "1", "--out", str(tmp_path / "h")])  # fmt: skip
    meta = json.loads(next((tmp_path / "h" / "meta").glob("*.json")).read_text())
    image = cv2.imread(str(next((tmp_path / "h" / "images").glob("*.jpg"))))
    h, w = image.shape[:2]
    size = int((h**2 + w**2) ** 0.5)
    turn = cv2.getRotationMatrix2D((w / 2, h / 2), 45, 1.0)
    turn[:, 2] += ((size - w) / 2, (size - h) / 2)
    photo = cv2.warpAffine(image, turn, (size, size), borderValue=(90, 110, 90))
    labels = []
    for t in meta["tiles"]:
        corners = np.array(t["corners"], float) @ turn[:, :2].T + turn[:, 2]
        box = [*corners.min(axis=0), *corners.max(axis=0)]
        labels.append(oracle_read({**t, "corners": corners.tolist()}, box))
    turned = []
    real = pipeline.turn_to_rows

    def spy(*args):
        turned.append(real(*args))
        return turned[-1]

    with mock.patch.object(pipeline, "turn_to_rows", spy):
        out = read_with_true_names(photo, labels)
    assert turned and turned[0] is not None  # the photo was read turned
    boxes = np.array([r.detection.box for r in labels])
    named = 0
    for tile in out["tiles"]:
        b = np.array(tile["box"])
        inter = intersections(b, boxes)
        j = int(inter.argmax())
        if inter[j] > 0.5 * np.prod(b[2:] - b[:2]):
            named += 1
            assert tile["tile"] == CODES[int(labels[j].probs.argmax())] or tile["overridden"]
    assert named >= 0.8 * len(labels)
