"""Training crops cut where the detector boxes the tiles, labelled by the labelled box beneath.

At run time the classifier reads the detector's boxes, not the labellers'.
They differ most on photos taken from low down: there the labels take in
the tile's body while the detector boxes little more than its face, so an
upright tile's box comes out about square, or a hair wider than tall, and
`vision.classify.cut` turns it a quarter. One tile set's 9p, turned, reads
as 6p. Crops cut at the detector's own boxes show the classifier the views
it will meet.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from datasets.cmdv4 import Sample
from scorer.tiles import CODES, INDEX

#: least overlap (IoU) between a detector box and a labelled box to take the label
MIN_IOU = 0.5


def iou(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """IoU of every box in a (N,4) against every box in b (M,4), boxes x1,y1,x2,y2."""
    x1 = np.maximum(a[:, None, 0], b[None, :, 0])
    y1 = np.maximum(a[:, None, 1], b[None, :, 1])
    x2 = np.minimum(a[:, None, 2], b[None, :, 2])
    y2 = np.minimum(a[:, None, 3], b[None, :, 3])
    inter = np.clip(x2 - x1, 0, None) * np.clip(y2 - y1, 0, None)
    area_a = (a[:, 2] - a[:, 0]) * (a[:, 3] - a[:, 1])
    area_b = (b[:, 2] - b[:, 0]) * (b[:, 3] - b[:, 1])
    return inter / np.maximum(area_a[:, None] + area_b[None, :] - inter, 1e-9)


def label_boxes(found: np.ndarray, labelled: np.ndarray) -> np.ndarray:
    """For each detector box, the index of the labelled box it matches (-1: none).

    Pairs are taken best overlap first, each labelled box at most once.
    """
    out = np.full(len(found), -1, np.int64)
    if len(found) == 0 or len(labelled) == 0:
        return out
    m = iou(found, labelled)
    while True:
        i, j = np.unravel_index(int(m.argmax()), m.shape)
        if m[i, j] < MIN_IOU:
            return out
        out[i] = j
        m[i, :] = 0
        m[:, j] = 0


def render_samples(root: Path, images: list[Path]) -> list[Sample]:
    """Rendered scenes as labelled samples (their YOLO classes index `CODES`)."""
    from datasets.render import read_yolo

    out = []
    for img in images:
        label = root / "labels" / f"{img.stem}.txt"
        if not label.is_file():
            continue
        lines = [(c, box) for c, box in read_yolo(label, 1, 1) if 0 <= c < len(CODES)]
        out.append(Sample(img, [box for _, box in lines], [CODES[c] for c, _ in lines]))
    return out


def _progress(items: list, desc: str):
    """The items behind a progress bar where tqdm (a training extra) is installed."""
    try:
        from tqdm import tqdm
    except ImportError:
        return items
    return tqdm(items, desc=desc, mininterval=5)


def _looked(samples: list[Sample], det, desc: str):
    """Each labelled photo as the pipeline first reads it: (sample, photo, the detector's
    boxes, the photo squeezed back when stretched and the boxes moved into it, the
    labelled boxes in the photo's pixels)."""
    from vision.detect import unstretch

    for s in _progress(samples, desc):
        img = cv2.imread(str(s.image_path), cv2.IMREAD_COLOR)
        if img is None or not s.boxes:
            continue
        h, w = img.shape[:2]
        found, stretch = det.look(img)
        work, dets = unstretch(img, found, stretch)
        gt = np.array([(b[0] * w, b[1] * h, b[2] * w, b[3] * h) for b in s.boxes], np.float64)
        yield s, img, found, work, dets, gt


def _detector(detector_path: str | Path | None, table_path: str | Path | None):
    """The run-time detector, with another table detector in place of the bundled one when
    given (a training run's, to cut crops at the boxes it will give)."""
    from vision.detect import TABLE_MODEL, Detector

    table = Path(table_path) if table_path is not None else TABLE_MODEL
    if not table.is_file():
        raise FileNotFoundError(f"no table detector at {table}")
    return Detector(detector_path, table_model=table)


def detector_crops(
    samples: list[Sample],
    store,
    detector_path: str | Path | None = None,
    table_path: str | Path | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Crops (stored by `store(img, box)`), labels and box sizes at the detector's boxes.

    The photo is read as the pipeline reads it (a stretched photo squeezed
    back first); detector boxes that match no labelled box are left out.
    `table_path`: the table detector (default: bundled).
    """
    det = _detector(detector_path, table_path)
    crops, labels, sizes = [], [], []
    for s, _, found, work, dets, gt in _looked(samples, det, "detector crops"):
        boxes = np.array([d.box for d in found], np.float64).reshape(-1, 4)
        for i, j in enumerate(label_boxes(boxes, gt)):
            if j < 0:
                continue
            x1, y1, x2, y2 = dets[i].box
            if x2 - x1 < 6 or y2 - y1 < 6:
                continue
            crops.append(store(work, dets[i].box))
            labels.append(INDEX[s.codes[j]])
            sizes.append((x2 - x1, y2 - y1))
    if not crops:
        raise ValueError("the detector found no labelled tile")
    return np.stack(crops), np.array(labels, np.int64), np.array(sizes, np.float32)


def row_view_crops(
    samples: list[Sample],
    store: int,
    margin: float,
    detector_path: str | Path | None = None,
    table_path: str | Path | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Crops of the classifier's second view (`vision.classify.row_crops`), labelled by the
    labelled box beneath: crops, labels and sizes (along, across the row).

    Each photo is read as `vision.pipeline.Looked.at` reads it (squeezed back
    when stretched, turned when its rows run near the diagonal); the turned
    rectangles come from the same row geometry as at run time.
    """
    from vision.classify import rect_warp
    from vision.config import DEFAULT
    from vision.rows import tile_rects
    from vision.turn import turn_to_rows

    det = _detector(detector_path, table_path)
    crops, labels, sizes = [], [], []
    for s, img, _, work, dets, gt in _looked(samples, det, "row-view crops"):
        if len(dets) < 2:
            continue
        sx, sy = img.shape[1] / work.shape[1], img.shape[0] / work.shape[0]
        turned = turn_to_rows(work, dets, det)
        if turned is not None:
            work, dets = turned.image, turned.detections
        boxes = np.array([d.box for d in dets], np.float64)
        back = [turned.box_back(tuple(b)) if turned is not None else b for b in boxes]
        in_photo = np.array([(b[0] * sx, b[1] * sy, b[2] * sx, b[3] * sy) for b in back])
        angle, along, across = tile_rects(boxes)
        along, across = along * DEFAULT.classify.row_crop, across * DEFAULT.classify.row_crop
        centers = (boxes[:, :2] + boxes[:, 2:]) / 2
        shrink = float(np.median(np.maximum(along, across))) * margin / store
        if shrink > 1.5:  # shrink the photo once by area averaging, as run time does
            k = 1 / shrink
            work = cv2.resize(work, None, fx=k, fy=k, interpolation=cv2.INTER_AREA)
            centers, along, across = centers * k, along * k, across * k
        for i, j in enumerate(label_boxes(in_photo, gt)):
            if j < 0 or min(along[i], across[i]) < 6:
                continue
            # the rectangle fills the central store / margin pixels, as a stored box does
            crops.append(
                rect_warp(
                    work, tuple(centers[i]), angle, along[i] * margin, across[i] * margin, store
                )
            )
            labels.append(INDEX[s.codes[j]])
            sizes.append((along[i], across[i]))
    if not crops:
        raise ValueError("the detector found no labelled tile")
    return np.stack(crops), np.array(labels, np.int64), np.array(sizes, np.float32)
