"""Which way each tile's face is turned: the "face top" direction in the photo.

Every tile of a laid-down hand faces the player, so the top of each upright
face points away from the player; summed over a row this tells which way
the row reads. The classifier cannot say (it is trained to ignore a
180-degree turn), so a separate small model looks at the same 64x64 crop
(`vision.classify.cut`) and gives 4 probabilities: the face top points up,
right, down or left in the crop. Their expectation is mapped back through
the cut (stretch, and the quarter turn of wide boxes) into the photo.

On a row at an angle the box crop shows the face askew and the model is
unsure which way it points. The tile is also read from its rectangle turned
square to its row (`vision.classify.row_crops`, the classifier's second
view); where that face points surely across the row, as an upright tile's
does, its direction is taken. A sideways tile's face in that crop reads
poorly (the crop is cut for an upright tile), so each tile is read a third
time from the rectangle a tile lying sideways would fill there, turned
square to the row: where that face points surely along the row, as a
sideways tile's does, and the upright view did not keep the tile upright,
that direction is taken, unless that view finds more tiles sideways than a
hand can have. Elsewhere the box crop speaks. Run time needs only
onnxruntime, opencv and numpy.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from vision.classify import cut, row_crops, softmax, to_input
from vision.config import DEFAULT, VisionConfig
from vision.detect import MODEL_DIR, check_image
from vision.rows import tile_rects
from vision.runtime import CropModel
from vision.types import Detection

DEFAULT_MODEL = MODEL_DIR / "orientation.onnx"
CLASSES = ("up", "right", "down", "left")
# unit direction of each class in crop coordinates (x right, y down)
DIRS = np.array([(0.0, -1.0), (1.0, 0.0), (0.0, 1.0), (-1.0, 0.0)], np.float64)
CROP = 64  # side of the crop `cut` makes


def _boxes(boxes: np.ndarray | list) -> np.ndarray:
    b = np.asarray(boxes, np.float64).reshape(-1, 4)
    return b


def _scale(boxes: np.ndarray) -> np.ndarray:
    """Per box (w/CROP, h/CROP): image pixels per crop pixel along x and y, before any turn."""
    w = np.maximum(boxes[:, 2] - boxes[:, 0], 1e-6)
    h = np.maximum(boxes[:, 3] - boxes[:, 1], 1e-6)
    return np.stack([w, h], axis=1) / CROP


def _wide(boxes: np.ndarray) -> np.ndarray:
    """Boxes `cut` turns by a quarter (wider than tall)."""
    return (boxes[:, 2] - boxes[:, 0]) > (boxes[:, 3] - boxes[:, 1])


def _keep_length(new: np.ndarray, old: np.ndarray) -> np.ndarray:
    """`new` rescaled to the lengths of `old` (zero stays zero)."""
    n = np.linalg.norm(new, axis=1, keepdims=True)
    o = np.linalg.norm(old, axis=1, keepdims=True)
    return np.where(n > 1e-12, new / np.maximum(n, 1e-12) * o, 0.0)


def image_to_crop(vectors: np.ndarray | list, boxes: np.ndarray | list) -> np.ndarray:
    """Directions in the photo (N,2) -> the same directions in each box's crop, lengths kept.

    `cut` stretches the box to CROP x CROP, then turns wide boxes with
    np.rot90(crop, 1), which sends a direction (dx, dy) to (dy, -dx).
    """
    v = np.asarray(vectors, np.float64).reshape(-1, 2)
    b = _boxes(boxes)
    s = v / _scale(b)
    wide = _wide(b)
    s[wide] = np.stack([s[wide, 1], -s[wide, 0]], axis=1)
    return _keep_length(s, v)


def _unturn(v: np.ndarray) -> np.ndarray:
    """Directions (N,2) in a crop turned a quarter by np.rot90(crop, 1), which sends
    (dx, dy) to (dy, -dx), as they were before the turn."""
    return np.stack([-v[:, 1], v[:, 0]], axis=1)


def _along_minus_across(v: np.ndarray) -> np.ndarray:
    """How surely each direction (N,2) in a row's (along, across) points along the row
    rather than across it: -1..1, scaled by its length (the orienter's confidence)."""
    return np.abs(v[:, 0]) - np.abs(v[:, 1])


def crop_to_image(vectors: np.ndarray | list, boxes: np.ndarray | list) -> np.ndarray:
    """Directions in each box's crop (N,2) -> the same directions in the photo, lengths kept.

    The inverse of `image_to_crop`: undo the quarter turn of wide boxes,
    then the stretch.
    """
    v = np.asarray(vectors, np.float64).reshape(-1, 2)
    b = _boxes(boxes)
    s = v.copy()
    wide = _wide(b)
    s[wide] = _unturn(v[wide])
    s = s * _scale(b)
    return _keep_length(s, v)


def nearest_class(vectors: np.ndarray | list) -> np.ndarray:
    """Index into CLASSES of the class direction closest to each crop direction (N,)."""
    v = np.asarray(vectors, np.float64).reshape(-1, 2)
    return (v @ DIRS.T).argmax(axis=1)


def soft_targets(vectors: np.ndarray | list) -> np.ndarray:
    """(N,4) class weights whose expectation points along each crop direction.

    The two neighbouring classes share the weight (a face turned 45 degrees
    is half "up", half "right") so that their expectation is parallel to the
    direction; a model trained on these learns probabilities whose
    expectation follows the true angle.
    """
    v = np.asarray(vectors, np.float64).reshape(-1, 2)
    ang = np.arctan2(v[:, 0], -v[:, 1]) % (2 * np.pi)  # up 0, right pi/2, down pi, left 3pi/2
    f = ang / (np.pi / 2)
    k0 = np.floor(f).astype(int) % 4
    phi = (f - np.floor(f)) * np.pi / 2  # angle past class k0, towards k0 + 1
    a, b = np.cos(phi), np.sin(phi)
    out = np.zeros((len(v), 4))
    out[np.arange(len(v)), k0] = a / (a + b)
    out[np.arange(len(v)), (k0 + 1) % 4] += b / (a + b)
    return out


def expected_direction(probs: np.ndarray) -> np.ndarray:
    """(N,4) class probabilities -> (N,2) expected crop direction (length = confidence)."""
    return np.asarray(probs, np.float64).reshape(-1, 4) @ DIRS


class Orienter:
    """Face-top direction of detected tiles; one onnxruntime CPU session per instance."""

    def __init__(
        self,
        model_path: str | Path | None = None,
        turn_average: bool = True,
        row_view: bool = True,
        config: VisionConfig = DEFAULT,
    ):
        path = Path(model_path) if model_path is not None else DEFAULT_MODEL
        self.config = config
        self.model = CropModel(path, "orientation")
        self.turn_average = turn_average
        self.row_view = row_view  # also read each tile turned square to its row

    def probs(self, crops: np.ndarray) -> np.ndarray:
        """(N,4) probabilities (up, right, down, left in the crop) of crops (N,64,64,3) BGR uint8.

        With `turn_average` the crop turned 180 degrees is also read and its
        answer turned back (its "up" is our "down"); both are averaged.
        """
        if len(crops) == 0:
            return np.zeros((0, 4), np.float32)
        x = to_input(crops)
        if self.turn_average:
            x = np.concatenate([x, x[:, :, ::-1, ::-1]])
        p = softmax(self.model.run(x))
        if self.turn_average:
            n = len(crops)
            p = (p[:n] + np.roll(p[n:], 2, axis=1)) / 2
        return p.astype(np.float32)

    def __call__(self, image: np.ndarray, detections: list[Detection]) -> np.ndarray:
        """(N,2) expected face-top direction of each detection in photo coordinates.

        x right, y down; the length is the model's confidence (1 = sure,
        0 = no idea). Face-down tiles have no face: their vectors mean nothing.
        """
        image = check_image(image)
        if not detections:
            return np.zeros((0, 2), np.float32)
        crops = np.stack([cut(image, d.box) for d in detections])
        boxes = np.array([d.box for d in detections], np.float64)
        if not self.row_view:
            return crop_to_image(expected_direction(self.probs(crops)), boxes).astype(np.float32)
        n = len(crops)
        cfg = self.config
        rects = tile_rects(boxes, cfg.rows)  # the rows, found once for both row views
        size = cfg.classify.row_crop
        turned = row_crops(image, detections, size, rects=rects)
        lying = row_crops(image, detections, size, lying=True, rects=rects)
        probs = self.probs(np.concatenate([crops, turned, lying]))  # one pass for all views
        vec = crop_to_image(expected_direction(probs[:n]), boxes)
        angle, along, across = rects
        # the turned crop's x runs along the row, its y across it (never turned a quarter:
        # a tile's rectangle is longer across its row than along it)
        turned_dir = expected_direction(probs[n : 2 * n])
        in_row = _keep_length(turned_dir * np.stack([along, across], axis=1), turned_dir)
        # the lying crop was turned a quarter; turned back, its x runs along the row over
        # a tile's length
        back = _unturn(expected_direction(probs[2 * n :]))
        on_side = _keep_length(back * np.stack([across, along], axis=1), back)
        # as surely across as keeps a tile upright in `rows.mark_sideways`
        upright = _along_minus_across(in_row) < -cfg.rows.face_across_sure
        c, s = np.cos(angle), np.sin(angle)
        to_photo = np.array([[c, -s], [s, c]])  # row (along, across) -> photo (x, y)
        vec[upright] = in_row[upright] @ to_photo.T
        seen = vec @ to_photo  # every direction so far, in the row's (along, across)
        kept = _along_minus_across(seen) < -cfg.rows.face_across_sure
        sideways = (_along_minus_across(on_side) > cfg.orient.face_along_view) & ~kept
        if sideways.sum() <= cfg.orient.most_lying:
            vec[sideways] = on_side[sideways] @ to_photo.T
        return vec.astype(np.float32)
