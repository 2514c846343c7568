"""Tile detector: where the tiles are in a photo (no class), via the bundled ONNX model.

The model is a small CenterNet-style net (see `datasets/train_detector.py`):
a heatmap of tile centres plus box size and centre offset at stride 4. The
photo is downscaled so its long side is `INFER_SIZE` px — tiles in a table
photo stay well above 20 px there, and a 12 MP photo costs the same as a
small one. Run time needs only onnxruntime, opencv and numpy.
"""

from __future__ import annotations

import threading
import weakref
from pathlib import Path

import cv2
import numpy as np

from vision.config import DEFAULT, TILE_ASPECT, DetectConfig, VisionConfig
from vision.runtime import normalised, open_session
from vision.types import Detection

#: fixed by the trained model, not thresholds: its output stride, its input's long side and
#: the normalisation it was trained with (`datasets/train_detector.py`)
STRIDE = 4
INFER_SIZE = 512
MODEL_DIR = Path(__file__).resolve().parents[1] / "models"
DEFAULT_MODEL = MODEL_DIR / "detector.onnx"
#: the detector trained on whole tables too: it looks at a photo enlarged for small tiles;
#: the reader runs it in int8 (`datasets.quantize_detector`), its float32 file trains on
TABLE_MODEL = MODEL_DIR / "detector_table_int8.onnx"
#: network runs each thread keeps at the photos it still reads (a table's looks at 512
#: and 1280 px, the photo squeezed back or turned, a part looked at closer; an output at
#: 1280 px is 1.5 MB)
RUNS_KEPT = 8


def check_image(image: object) -> np.ndarray:
    """Validate a BGR uint8 HxWx3 image (a gray HxW one is converted), else ValueError."""
    if not isinstance(image, np.ndarray):
        raise ValueError(f"image must be a numpy array, not {type(image).__name__}")
    if image.ndim == 2:
        image = cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    if image.ndim != 3 or image.shape[2] not in (3, 4) or image.shape[0] < 8 or image.shape[1] < 8:
        raise ValueError(f"image must be HxWx3 BGR and at least 8x8, got shape {image.shape}")
    if image.shape[2] == 4:
        image = cv2.cvtColor(image, cv2.COLOR_BGRA2BGR)
    if image.dtype != np.uint8:
        raise ValueError(f"image must be uint8, got {image.dtype}")
    return image


def prepare(image: np.ndarray, size: int = INFER_SIZE) -> tuple[np.ndarray, float]:
    """Resize (long side = size), pad to a multiple of 32, normalise: (1,3,H,W) float32 and scale."""
    h, w = image.shape[:2]
    scale = size / max(h, w)
    nw, nh = max(1, round(w * scale)), max(1, round(h * scale))
    interp = cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR
    small = cv2.resize(image, (nw, nh), interpolation=interp)
    ph, pw = -(-nh // 32) * 32, -(-nw // 32) * 32
    out = np.zeros((1, 3, ph, pw), np.float32)
    normalised(small, out[0, :, :nh, :nw])
    return out, scale


def _sigmoid(x: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-x))


def ious(box: np.ndarray, boxes: np.ndarray) -> np.ndarray:
    """Intersection over union of one box (x1, y1, x2, y2) with each of `boxes` (N,4)."""
    box, boxes = np.asarray(box, dtype=float), np.asarray(boxes, dtype=float).reshape(-1, 4)
    inter = intersections(box, boxes)
    return inter / np.maximum(_areas(box[None])[0] + _areas(boxes) - inter, 1e-9)


def intersections(box: np.ndarray, boxes: np.ndarray) -> np.ndarray:
    """The area one box (x1, y1, x2, y2) shares with each of `boxes` (N,4)."""
    return np.prod(
        np.clip(np.minimum(box[2:], boxes[:, 2:]) - np.maximum(box[:2], boxes[:, :2]), 0, None),
        axis=1,
    )


def _areas(boxes: np.ndarray) -> np.ndarray:
    return (boxes[:, 2] - boxes[:, 0]) * (boxes[:, 3] - boxes[:, 1])


def nms(
    boxes: np.ndarray, scores: np.ndarray, thr: float, config: DetectConfig = DEFAULT.detect
) -> list[int]:
    """Greedy non-maximum suppression; returns kept indices, best first. A box is dropped
    when it overlaps a surer one by `thr` (IoU) or more, or is a part of it
    (`DetectConfig.part_inside`)."""
    boxes = np.asarray(boxes, dtype=float).reshape(-1, 4)
    areas = _areas(boxes)
    order = np.argsort(-scores)
    keep: list[int] = []
    while len(order):
        i = int(order[0])
        keep.append(i)
        rest = order[1:]
        inter = intersections(boxes[i], boxes[rest])
        iou = inter / np.maximum(areas[i] + areas[rest] - inter, 1e-9)
        inside = inter / np.maximum(areas[rest], 1e-9)  # share of each box inside the surer one
        part = (inside >= config.part_inside) & (areas[rest] <= config.part_area * areas[i])
        order = rest[(iou < thr) & ~part]
    return keep


def decode(
    out: np.ndarray,
    scale: float,
    shape: tuple[int, int],
    threshold: float = 0.3,
    nms_iou: float = DEFAULT.detect.nms_iou,
    config: DetectConfig = DEFAULT.detect,
) -> list[Detection]:
    """Turn the raw (1,5,gh,gw) output into Detections in pixels of the original image."""
    heat = _sigmoid(out[0, 0].astype(np.float32))
    peaks = (heat >= cv2.dilate(heat, np.ones((3, 3), np.uint8))) & (heat > threshold)
    ys, xs = np.nonzero(peaks)
    if len(xs) == 0:
        return []
    scores = heat[ys, xs]
    bw = np.exp(np.clip(out[0, 1, ys, xs], -5, 8)) * STRIDE
    bh = np.exp(np.clip(out[0, 2, ys, xs], -5, 8)) * STRIDE
    cx = (xs + _sigmoid(out[0, 3, ys, xs])) * STRIDE
    cy = (ys + _sigmoid(out[0, 4, ys, xs])) * STRIDE
    h, w = shape
    boxes = np.stack([cx - bw / 2, cy - bh / 2, cx + bw / 2, cy + bh / 2], axis=1) / scale
    boxes = np.clip(boxes, 0, [w, h, w, h])
    ok = (boxes[:, 2] - boxes[:, 0] > 1) & (boxes[:, 3] - boxes[:, 1] > 1)
    boxes, scores = boxes[ok], scores[ok]
    keep = nms(boxes, scores, nms_iou, config)
    return [Detection(box=tuple(float(v) for v in boxes[i]), score=float(scores[i])) for i in keep]


class Detector:
    """Finds tiles in a BGR photo: one onnxruntime CPU session per model.

    A photo large enough to be enlarged is looked at again by `table_model`
    when there is one: a detector trained on whole tables too, which finds
    walls and standing tiles, but takes more false tiles in a posed photo
    than the first; its look is kept only where it shows a table
    (`is_table`).
    """

    def __init__(
        self,
        model_path: str | Path | None = None,
        config: VisionConfig = DEFAULT,
        table_model: str | Path | None = TABLE_MODEL,
    ):
        path = Path(model_path) if model_path is not None else DEFAULT_MODEL
        self.session = open_session(path, "detector")
        self.input_name = self.session.get_inputs()[0].name
        self.config = config.detect
        self.hand_most = config.regions.hand_most  # more tiles found: a whole table
        table = Path(table_model) if table_model is not None else None
        self.table_session = (
            open_session(table, "detector") if table is not None and table.is_file() else None
        )
        self._runs = threading.local()  # each thread's runs at the photos it reads (`_run`)

    def __call__(self, image: np.ndarray) -> list[Detection]:
        """Tile boxes in the pixels of `image` (BGR uint8, any size), best score first."""
        return self.look(image)[0]

    def look(self, image: np.ndarray) -> tuple[list[Detection], tuple[float, float]]:
        """Tile boxes as `__call__` gives them, and how much the photo looks stretched
        (x, y): its width and height divided by these show the tiles in proportion.

        A photo stretched out of proportion (squeezed to a square by an app or
        a dataset tool) shows tiles many times longer or wider than tiles are,
        and the model finds them poorly or not at all. When the tiles found
        look stretched, or hardly any are found, the photo is looked at again
        squeezed back; it is kept when it finds about as much as the plain
        look (clearly more when the stretch was only guessed).
        """
        image = check_image(image)
        self._let_go(image)
        found = self._find(image)
        tries = stretch_tries(found, self.config)
        if not tries:
            return found, (1.0, 1.0)
        h, w = image.shape[:2]
        work = image
        if max(h, w) > self.config.work_size:  # squeezing it again and again costs more
            k = self.config.work_size / max(h, w)
            size = (max(1, round(w * k)), max(1, round(h * k)))
            work = cv2.resize(image, size, interpolation=cv2.INTER_AREA)
        wh, ww = work.shape[:2]
        best, best_score, stretch = found, _total(found), (1.0, 1.0)
        # stretched boxes are evidence enough: a squeezed-back look that finds about as
        # much is taken (its boxes fit the tiles); a blind search must find clearly more
        few = len(found) < self.config.few_tiles
        gain = self.config.stretch_gain if few else self.config.stretch_keep
        for axis, factor in tries:
            size = (
                (ww, max(8, round(wh / factor))) if axis == 1 else (max(8, round(ww / factor)), wh)
            )
            small = cv2.resize(work, size, interpolation=cv2.INTER_AREA)
            sx, sy = w / size[0], h / size[1]
            again = [_scaled(d, sx, sy) for d in self._find(small)]
            if _total(again) > gain * best_score:
                best, best_score = again, _total(again)
                stretch = _proportions(best)
        return best, stretch

    def first_look(self, image: np.ndarray) -> list[Detection]:
        """One look at the usual input and nothing more: the tiles of a part of a photo
        where they are the size the first detector learned on (`vision.handzoom`)."""
        return self._look(check_image(image))

    def faint(self, image: np.ndarray, floor: float) -> list[Detection]:
        """The boxes one look finds with a score from `floor` up to the threshold: tiles too
        faint to be taken on their own, for a later stage to take where the rules expect
        a tile (`vision.faint`). The photo last looked at (`look`) is not run again: its
        runs are decoded at the lower floor, so it must not have been changed since."""
        image = check_image(image)
        return [d for d in self._find(image, floor) if d.score < self.config.threshold]

    def _find(self, image: np.ndarray, threshold: float | None = None) -> list[Detection]:
        """One look at the whole photo, and a closer one around tiles that came out small:
        the model sees the photo shrunk to INFER_SIZE, where a hand taken from afar
        is tiny; looked at again larger, its tiles and their edges are found far better."""
        found = self._look(image, threshold)
        whole = self._one_tile(image, found, threshold)
        if whole is not None:
            return [whole]
        table = self._table(image, found, threshold)
        if table is not None:
            return table
        region = zoom_region(found, image.shape[:2], self.config)
        if region is None:
            size = larger_input(found, image.shape[:2], self.config)
            if size is None:
                return found
            again = self._look(image, threshold, size)
            return again if _total(again) > _total(found) else found
        x1, y1, x2, y2 = region
        inner = [
            Detection((b[0] + x1, b[1] + y1, b[2] + x1, b[3] + y1), d.score)
            for d in self._look(image[y1:y2, x1:x2], threshold)
            for b in [d.box]
        ]
        outside = [d for d in found if not _inside(d.center, region)]
        return sorted(inner + outside, key=lambda d: -d.score)

    def _table(
        self, image: np.ndarray, found: list[Detection], threshold: float | None
    ) -> list[Detection] | None:
        """The tiles of a whole table as the table detector finds them, or None when the
        photo is not one (`is_table`): walls, standing hands and far
        ponds are small and only that detector, at its larger input, finds them."""
        shape = image.shape[:2]
        size = table_input(shape, self.config)
        if self.table_session is None or size is None:
            return None
        nms_iou = self.config.table_nms_iou
        table = self._look(image, threshold, size, self.table_session, nms_iou)
        return table if is_table(found, table, shape, self.hand_most, self.config) else None

    def _one_tile(
        self, image: np.ndarray, found: list[Detection], threshold: float | None
    ) -> Detection | None:
        """The tile that fills a close-up photo, or None (see `DetectConfig.close_most`)."""
        c = self.config
        h, w = image.shape[:2]
        area = float(h * w)
        if len(found) > c.close_most or any(_area(d) > c.close_part * area for d in found):
            return None
        big = [
            d
            for d in self._look(image, threshold, c.close_input)
            if _area(d) >= c.close_area * area
        ]
        if not big:
            return None
        tile = max(big, key=lambda d: d.score)
        if not found:  # nothing seen at the usual input: only a sure, tile-shaped box
            aspect = max(tile.width, tile.height) / max(min(tile.width, tile.height), 1.0)
            sure = tile.score >= c.close_sure and c.close_aspect[0] <= aspect <= c.close_aspect[1]
            return tile if sure else None
        return tile if all(_inside(d.center, tile.box) for d in found) else None

    def _look(
        self,
        image: np.ndarray,
        threshold: float | None = None,
        size: int = INFER_SIZE,
        session=None,
        nms_iou: float | None = None,
    ) -> list[Detection]:
        out, scale = self._run(image, size, session or self.session)
        floor = self.config.threshold if threshold is None else threshold
        overlap = self.config.nms_iou if nms_iou is None else nms_iou
        return decode(out, scale, image.shape[:2], floor, overlap, self.config)

    def _let_go(self, image: np.ndarray) -> None:
        """Before a `look` at `image`: the runs kept at it (it may have changed since) and
        at photos no longer alive are let go; those at other photos still read stay (the
        photo looked at before its turned copy is looked at faintly after it)."""
        seen: dict = self._runs.__dict__.setdefault("seen", {})
        kept = {
            k: v for k, v in seen.items() if (photo := v[0]()) is not None and photo is not image
        }
        self._runs.seen = kept

    def _run(self, image: np.ndarray, size: int, session) -> tuple[np.ndarray, float]:
        """The network's output (read-only) for the image at the input `size`, and the
        image's scale there. The faint look (`faint`) at a photo looked at runs on the same
        inputs, only to decode them at a lower floor, and preparing a 12 MP photo's inputs
        costs as much as a run: each thread keeps its last runs (`RUNS_KEPT`), keyed by the
        very image object (alive, as a weak reference checks), the input size and the
        session, and runs only what it has not kept."""
        seen: dict = self._runs.__dict__.setdefault("seen", {})
        key = (id(image), size, id(session))
        kept = seen.get(key)
        if kept is not None and kept[0]() is image and kept[1] is session:
            return kept[2], kept[3]
        x, scale = prepare(image, size)
        out = session.run(None, {self.input_name: x})[0]
        out.setflags(write=False)
        if len(seen) >= RUNS_KEPT:  # the oldest goes
            del seen[next(iter(seen))]
        seen[key] = (weakref.ref(image), session, out, scale)
        return out, scale


def unstretch(
    image: np.ndarray, detections: list[Detection], stretch: tuple[float, float]
) -> tuple[np.ndarray, list[Detection]]:
    """The photo squeezed back to its proportions, and the detections moved into it.

    Tiles cut from a stretched photo and squeezed to the classifier's square
    read worse than the same tiles cut from the photo squeezed back first.
    """
    fx, fy = stretch
    if (fx, fy) == (1.0, 1.0):
        return image, detections
    h, w = image.shape[:2]
    size = (max(8, round(w / fx)), max(8, round(h / fy)))
    moved = [_scaled(d, size[0] / w, size[1] / h) for d in detections]
    return cv2.resize(image, size, interpolation=cv2.INTER_AREA), moved


def _scaled(d: Detection, sx: float, sy: float) -> Detection:
    """The detection in a photo resized by sx, sy."""
    x1, y1, x2, y2 = d.box
    return Detection((x1 * sx, y1 * sy, x2 * sx, y2 * sy), d.score, d.sideways)


def _tallness(found: list[Detection]) -> float:
    """The median box's height over its width."""
    boxes = np.array([d.box for d in found], np.float64)
    w = np.maximum(boxes[:, 2] - boxes[:, 0], 1e-6)
    h = np.maximum(boxes[:, 3] - boxes[:, 1], 1e-6)
    return float(np.median(h / w))


def _proportions(found: list[Detection]) -> tuple[float, float]:
    """The stretch (x, y) that turns the median box into an upright tile's shape
    (`TILE_ASPECT` times taller than wide), as the boxes of a squeezed-back look show it:
    most tiles of a photo stand upright in it."""
    tall = _tallness(found)
    if tall >= TILE_ASPECT:
        return 1.0, tall / TILE_ASPECT
    return TILE_ASPECT / max(tall, 1e-6), 1.0


def _total(found: list[Detection]) -> float:
    return float(sum(d.score for d in found))


def stretch_tries(
    found: list[Detection], config: DetectConfig = DEFAULT.detect
) -> list[tuple[int, float]]:
    """How to squeeze the photo back for another look: (axis, factor) pairs, axis 1 = height.

    A tile's box is at most about 1.4 times longer than wide, so boxes
    whose median is far longer (`DetectConfig.stretched`) tell the axis and
    the factor. When next to nothing is found the stretch is unknown: both
    axes are tried at a few factors.
    """
    if len(found) < config.few_tiles:
        return [(axis, f) for axis in (0, 1) for f in config.stretch_factors]
    tall = _tallness(found)
    if tall > config.stretched:
        return [(1, tall / TILE_ASPECT)]
    if 1 / tall > config.stretched:
        return [(0, 1 / (tall * TILE_ASPECT))]
    return []


def zoom_region(
    found: list[Detection], shape: tuple[int, int], config: DetectConfig = DEFAULT.detect
) -> tuple[int, int, int, int] | None:
    """The part of the photo (x1, y1, x2, y2) worth a second, closer look, or None.

    That is the box around the tiles found plus a margin, when their median
    short side at the model's input is under `DetectConfig.small_tile` and
    the crop would show them at least `min_zoom` times larger.
    """
    if not found:
        return None
    h, w = shape
    boxes = np.array([d.box for d in found], np.float64)
    long = float(np.median(np.max(boxes[:, 2:] - boxes[:, :2], axis=1)))
    if _short_at_input(boxes, shape) >= config.small_tile:
        return None
    m = config.zoom_margin * long
    x1, y1 = int(max(0, boxes[:, 0].min() - m)), int(max(0, boxes[:, 1].min() - m))
    x2, y2 = int(min(w, boxes[:, 2].max() + m)), int(min(h, boxes[:, 3].max() + m))
    if max(h, w) < config.min_zoom * max(x2 - x1, y2 - y1):
        return None
    return x1, y1, x2, y2


def _short_at_input(boxes: np.ndarray, shape: tuple[int, int]) -> float:
    """The boxes' median short side as the model sees the photo, at its usual input."""
    return float(np.median(_shorts_at_input(boxes, shape)))


def _shorts_at_input(boxes: np.ndarray, shape: tuple[int, int]) -> np.ndarray:
    """Each box's short side as the model sees the photo, at its usual input."""
    return np.min(boxes[:, 2:] - boxes[:, :2], axis=1) * INFER_SIZE / max(shape)


def table_input(shape: tuple[int, int], config: DetectConfig = DEFAULT.detect) -> int | None:
    """The input size to look at a photo that may show a whole table at, or None for a
    photo too small to be enlarged (`DetectConfig.min_zoom`): the usual look already
    saw all it shows."""
    size = min(config.table_input, max(shape))
    return size if size >= config.min_zoom * INFER_SIZE else None


def is_table(
    found: list[Detection],
    table: list[Detection],
    shape: tuple[int, int],
    hand_most: int,
    config: DetectConfig = DEFAULT.detect,
) -> bool:
    """Whether the table detector's look (`table`) shows a whole table, where the usual
    look found `found`: more tiles than a hand lays down (`hand_most`), and either small
    tiles among those found (the far side of a table) or many tiles outside all those
    found (`DetectConfig.table_new`: seen from a seat, the usual look may find only the
    large nearest tiles). A posed photo of several hands shows many tiles alike in size,
    all found by the usual look; there the table detector takes parts of faces (inside
    the tiles found) for tiles.
    """
    if len(table) <= hand_most:
        return False
    if found:
        short = _shorts_at_input(np.array([d.box for d in found], np.float64), shape)
        if float(np.quantile(short, config.table_small)) < config.small_tile:
            return True
    unseen = [d for d in table if not any(_inside(d.center, f.box) for f in found)]
    return len(unseen) >= config.table_new


def larger_input(
    found: list[Detection], shape: tuple[int, int], config: DetectConfig = DEFAULT.detect
) -> int | None:
    """The input size (long side) to look at the whole photo again at, or None.

    Tiles spread over the whole photo (a whole table) but small at the
    model's input gain nothing from a crop around them: the photo is looked
    at again larger, so that their median short side reaches
    `DetectConfig.target_tile` pixels, up to `large_input` and never past
    the photo's own size.
    """
    if not found:
        return None
    h, w = shape
    short = _short_at_input(np.array([d.box for d in found], np.float64), shape)
    if short >= config.small_tile:
        return None
    wanted = round(INFER_SIZE * config.target_tile / max(short, 1.0) / 32) * 32
    size = min(config.large_input, max(h, w), wanted)
    return size if size >= config.min_zoom * INFER_SIZE else None


def _area(d: Detection) -> float:
    return d.width * d.height


def _inside(point: tuple[float, float], region: tuple[int, int, int, int]) -> bool:
    x, y = point
    return region[0] <= x < region[2] and region[1] <= y < region[3]
