"""Tile classifier: what each detected tile is, as 43 probabilities (order of `scorer.tiles.CODES`).

Each box is cut from the full-resolution photo (so small tiles keep their
detail), stretched to 64x64 and turned upright when wider than tall, as
`datasets/train_classifier.py` trained it. A tile may still lie upside
down, so the crop and its 180-degree turn are both classified and their
probabilities averaged; a box about square is also read turned a quarter
(`ClassifyConfig.square`). Each tile is read once more from its own rectangle cut square to
its row (`turned_cut`): a box around a tile lying at an angle holds the
neighbours' corners and shows the face askew, and even on a straight row
this second view of the face makes fewer mistakes than the box alone.
"""

from __future__ import annotations

import copy
import zlib
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np

from scorer.tiles import BACK_INDEX, CODES
from vision.config import DEFAULT, ClassifyConfig, VisionConfig
from vision.detect import MODEL_DIR, check_image
from vision.exemplars import NONE, TAG_CHARS, Exemplars, adapted, encode_look, unit
from vision.rows import tile_rects
from vision.runtime import CropModel, normalised
from vision.types import Detection, TileRead

#: fixed by the trained models, not thresholds: the crop's side and its normalisation
INPUT = 64
#: the reader runs each classifier quantized to 8-bit integers (`datasets.quantize`):
#: about five times faster on two cores, the same reading on all but a few crops in a
#: thousand. The float32 file of the same name without `_int8` is the trained model,
#: which fine-tunes start from (`trained_model`).
#: The classifier that reads every tile: fine-tuned on many rendered tile sets (the
#: font styles too), it reads unfamiliar art better than the model it started from,
#: and real photos as well (docs/experiments.md, thirteenth round).
DEFAULT_MODEL = MODEL_DIR / "classifier_fonts_int8.onnx"
#: a classifier grown from scratch on every rendered set's art (it learnt to count
#: bamboo sticks from the start, so it errs elsewhere): averaged with the first where
#: tiles are read whole, on the views the first doubts (`ClassifyConfig.partner_below`),
#: the reader gets more held-out hands than with the first alone (docs/experiments.md,
#: thirty-fifth and thirty-sixth rounds). A table's glance is the first's alone.
PARTNER_MODEL = MODEL_DIR / "classifier_fresh_int8.onnx"
#: the classifiers the reader averages; the first gives the looks
READING_MODELS = (DEFAULT_MODEL, PARTNER_MODEL)
#: a second classifier, trained on another mix than the first (half its views from
#: rendered tile sets), so it errs elsewhere: it gives its opinion on the unsure tiles
#: only
SECOND_MODEL = MODEL_DIR / "classifier_second_fonts_int8.onnx"
#: the second opinion where a photo of many tiles is read later (`look_again`: a whole
#: table's hand, the copies of its winning tile): the partner, which names the sets the
#: first never learnt far better and reads more tables so, where on photos of one hand
#: `SECOND_MODEL` reads more (docs/experiments.md, forty-first round)
TABLE_SECOND_MODEL = PARTNER_MODEL
#: the classifier's second output: the pooled features its last layer reads, a tile's
#: look (`vision.exemplars`; `datasets.quantize.with_looks` adds it)
LOOKS = "looks"


def trained_model(path: Path) -> Path:
    """The float32 model an int8 classifier was quantized from (its training master)."""
    return path.with_name(path.name.replace("_int8", ""))


def cut(image: np.ndarray, box: tuple[float, float, float, float]) -> np.ndarray:
    """The box's pixels as an upright INPUT x INPUT BGR crop (wide boxes turned 90 degrees)."""
    h, w = image.shape[:2]
    x1, y1, x2, y2 = box
    # builtin min and max: numpy's clip of one number costs more than the resize below
    ix1, iy1 = min(max(round(x1), 0), w - 1), min(max(round(y1), 0), h - 1)
    ix2, iy2 = min(max(round(x2), ix1 + 1), w), min(max(round(y2), iy1 + 1), h)
    patch = image[iy1:iy2, ix1:ix2]
    big = patch.shape[0] > INPUT or patch.shape[1] > INPUT
    crop = cv2.resize(
        patch, (INPUT, INPUT), interpolation=cv2.INTER_AREA if big else cv2.INTER_LINEAR
    )
    if (x2 - x1) > (y2 - y1):
        crop = np.ascontiguousarray(np.rot90(crop, 1))
    return crop


def turned_cut(
    image: np.ndarray, center: tuple[float, float], angle: float, along: float, across: float
) -> np.ndarray:
    """The tile's rectangle (`along` its row, which runs at `angle` radians, by `across`)
    as an upright INPUT x INPUT crop, turned square to the row as `cut` turns a box.

    A large tile is first shrunk by area averaging, as `cut` does, so that
    fine strokes do not alias.
    """
    cx, cy = center
    shrink = max(along, across) / INPUT
    if shrink > 1.5:
        reach = _reach(along, across)
        image, (x1, y1), (kx, ky) = _shrunk_part(
            image, (cx - reach, cy - reach), (cx + reach, cy + reach), shrink
        )
        cx, cy, along, across = (cx - x1) * kx, (cy - y1) * ky, along * kx, across * ky
    crop = rect_warp(image, (cx, cy), angle, along, across, INPUT)
    if along > across:
        crop = np.ascontiguousarray(np.rot90(crop, 1))
    return crop


def rect_warp(
    image: np.ndarray,
    center: tuple[float, float],
    angle: float,
    along: float,
    across: float,
    size: int,
) -> np.ndarray:
    """The rectangle `along` by `across` pixels around `center`, its long axis at `angle`
    radians, warped onto a `size` x `size` square: crop x runs along it, y across it."""
    c, s = np.cos(angle), np.sin(angle)
    # crop pixel (i, j) -> photo point: centre + i along the row + j across it
    m = np.array([[c * along, -s * across], [s * along, c * across]]) / size
    mid = (size - 1) / 2
    shift = np.array(center) - m @ np.array([mid, mid])
    return cv2.warpAffine(
        image,
        np.hstack([m, shift[:, None]]),
        (size, size),
        flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
        borderMode=cv2.BORDER_REPLICATE,
    )


def _shrunk_part(
    image: np.ndarray, lo: tuple[float, float], hi: tuple[float, float], shrink: float
) -> tuple[np.ndarray, tuple[int, int], tuple[float, float]]:
    """The photo's pixels from `lo` to `hi` (x, y; clipped to the photo), shrunk `shrink`
    times by area averaging: the part, its top-left corner in the photo, and the scale
    (x, y) from photo pixels to the part's."""
    h, w = image.shape[:2]
    x1 = int(np.clip(np.floor(lo[0]), 0, w - 1))
    y1 = int(np.clip(np.floor(lo[1]), 0, h - 1))
    x2 = int(np.clip(np.ceil(hi[0]), x1 + 1, w))
    y2 = int(np.clip(np.ceil(hi[1]), y1 + 1, h))
    part = image[y1:y2, x1:x2]
    size = (max(1, round(part.shape[1] / shrink)), max(1, round(part.shape[0] / shrink)))
    small = cv2.resize(part, size, interpolation=cv2.INTER_AREA)
    return small, (x1, y1), (size[0] / part.shape[1], size[1] / part.shape[0])


def _reach(along: float | np.ndarray, across: float | np.ndarray) -> float | np.ndarray:
    """How far from its centre a rectangle's pixels reach, interpolation margin included."""
    return 0.5 * np.hypot(along, across) + 2.0


def row_crops(
    image: np.ndarray,
    detections: list[Detection],
    size: float = DEFAULT.classify.row_crop,
    only: np.ndarray | None = None,
    lying: bool = False,
    rects: tuple[float, np.ndarray, np.ndarray] | None = None,
    config: VisionConfig = DEFAULT,
) -> np.ndarray:
    """`turned_cut` of every detected tile (or of those indexed by `only`), its rectangle
    judged from its row (`tile_rects`, or `rects` where the caller has them) and cut
    `size` times as large; with `lying`, the rectangle of a tile lying sideways there
    (its length along the row), which `turned_cut` turns a quarter as `cut` turns a
    wide box.

    The part of the photo the tiles lie in is shrunk once, by area averaging,
    to about the crops' scale, rather than once around every tile.
    """
    boxes = np.array([d.box for d in detections], dtype=float)
    # from all the tiles: rows need them
    angle, along, across = rects if rects is not None else tile_rects(boxes, config.rows)
    if lying:
        along, across = across, along
    along, across = along * size, across * size
    centers = (boxes[:, :2] + boxes[:, 2:]) / 2
    if only is not None:
        along, across, centers = along[only], across[only], centers[only]
    shrink = float(np.median(np.maximum(along, across))) / INPUT
    if shrink > 1.5:
        reach = _reach(along, across)
        lo, hi = (centers - reach[:, None]).min(axis=0), (centers + reach[:, None]).max(axis=0)
        image, corner, k = _shrunk_part(image, tuple(lo), tuple(hi), shrink)
        centers = (centers - corner) * k
        along, across = along * np.mean(k), across * np.mean(k)
    return np.stack(
        [
            turned_cut(image, (float(x), float(y)), angle, float(a), float(b))
            for (x, y), a, b in zip(centers, along, across, strict=True)
        ]
    )


def widened(box: tuple[float, float, float, float], k: float) -> tuple[float, float, float, float]:
    """The box enlarged `k` times about its centre."""
    x1, y1, x2, y2 = box
    cx, cy, hw, hh = (x1 + x2) / 2, (y1 + y2) / 2, (x2 - x1) * k / 2, (y2 - y1) * k / 2
    return (cx - hw, cy - hh, cx + hw, cy + hh)


def _squareish(box: tuple[float, float, float, float], square: float) -> bool:
    w, h = max(box[2] - box[0], 1e-6), max(box[3] - box[1], 1e-6)
    return max(w / h, h / w) < square


def _other_way(crop: np.ndarray, box: tuple[float, float, float, float]) -> np.ndarray:
    """The crop a quarter turn the other way round: as if the box's long side were the other."""
    wide = box[2] - box[0] > box[3] - box[1]
    return np.ascontiguousarray(np.rot90(crop, -1 if wide else 1))


def to_input(crops: np.ndarray) -> np.ndarray:
    """(N,64,64,3) BGR uint8 -> normalised (N,3,64,64) RGB float32 (`normalised`)."""
    return normalised(crops, np.empty((len(crops), 3, *crops.shape[1:3]), np.float32))


def read_crops(model: CropModel, crops: np.ndarray, flip: bool, classes: int) -> np.ndarray:
    """The softmax (N, classes) of a model over crops (N,64,64,3) BGR uint8; with
    `flip`, averaged with the crops turned 180 degrees (a tile may lie upside down)."""
    return read_with_looks(model, crops, flip, classes, looks=False)[0]


def read_with_looks(
    model: CropModel, crops: np.ndarray, flip: bool, classes: int, looks: bool
) -> tuple[np.ndarray, np.ndarray]:
    """`read_crops`, and with `looks` the crops' unit looks (N, V, D): one view, or with
    `flip` two, the crop as cut and turned 180 degrees (empty without `looks`)."""
    if len(crops) == 0:
        return np.zeros((0, classes), np.float32), np.zeros((0, 1, 0), np.float32)
    x = to_input(crops)
    if flip:
        x = np.concatenate([x, x[:, :, ::-1, ::-1]])
    out = model.run_all(x, [model.output_names[0], LOOKS] if looks else model.output_names[:1])
    p = softmax(out[0])
    seen = unit(out[1]) if looks else np.zeros((len(x), 0), np.float32)
    n = len(crops)
    if flip:
        p = (p[:n] + p[n:]) / 2
        return p.astype(np.float32), np.stack([seen[:n], seen[n:]], axis=1)
    return p.astype(np.float32), seen[:, None, :]


def _look_size(model: CropModel) -> int:
    """The length of the model's `LOOKS` output (0 where it has none or it is not fixed)."""
    shapes = {o.name: o.shape for o in model.session.get_outputs()}
    size = shapes.get(LOOKS, [None])[-1]
    return size if isinstance(size, int) else 0


def model_tag(path: Path) -> str:
    """A short name of a model file's contents: looks of one model are not another's."""
    return f"{zlib.crc32(path.read_bytes()):08x}"[:TAG_CHARS]


def softmax(logits: np.ndarray) -> np.ndarray:
    e = np.exp(logits - logits.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def _sessions(
    models: str | Path | Sequence[str | Path] | None, loaded: dict[Path, CropModel]
) -> list[CropModel] | None:
    """The sessions of `models` (None: none), those `loaded` already shared."""
    if not models:
        return None
    return [loaded.get(p) or CropModel(p, "classifier") for p in _paths(models)]


def _paths(models: str | Path | Sequence[str | Path]) -> list[Path]:
    """One model path or several, as a list of paths."""
    paths = [Path(models)] if isinstance(models, str | Path) else [Path(m) for m in models]
    if not paths:
        raise ValueError("a classifier needs at least one model")
    return paths


class Classifier:
    """Classifies detected tiles; one onnxruntime CPU session per model."""

    def __init__(
        self,
        model_path: str | Path | Sequence[str | Path] | None = None,
        flip_average: bool = True,
        row_view: bool = True,
        second_look: bool = True,
        second_model: str | Path | Sequence[str | Path] | None = SECOND_MODEL,
        config: VisionConfig = DEFAULT,
        table_second_model: str | Path | Sequence[str | Path] | None = TABLE_SECOND_MODEL,
    ):
        """`model_path` names the classifier to read with, or several to average where the
        first doubts (default `READING_MODELS`; `_partnered`). `second_model`: the
        classifier or classifiers (averaged) `second_look` asks; None: none is asked;
        `table_second_model` the same where tiles are read later (`look_again`). A file
        named twice is loaded once."""
        paths = _paths(model_path if model_path is not None else READING_MODELS)
        self.models = [CropModel(p, "classifier") for p in paths]
        loaded = dict(zip(paths, self.models, strict=True))
        #: how many numbers a look of the first model holds (0: it gives none, `LOOKS`)
        self.look_size = _look_size(self.models[0])
        #: the first model's tag where it gives looks, else None: no exemplars
        self.tag = model_tag(paths[0]) if self.look_size else None
        #: the tiles a player named, which the reads lean on (`with_exemplars`)
        self.exemplars: Exemplars = NONE
        self.vision = config  # the row views find the rows with `config.rows`
        self.config: ClassifyConfig = config.classify
        self.flip_average = flip_average
        self.row_view = row_view  # also read each tile turned square to its row (`row_crops`)
        self.again = second_look  # read unsure tiles from more views (`second_look`)
        #: the second classifiers (`SECOND_MODEL`) that `second_look` asks; None: not asked
        self.second = _sessions(second_model, loaded)
        #: those it asks where tiles are read later (`TABLE_SECOND_MODEL`, `look_again`)
        self.table_second = _sessions(table_second_model, loaded)

    def with_exemplars(self, exemplars: Exemplars) -> Classifier:
        """This classifier (the same sessions) reading with a table's exemplars."""
        twin = copy.copy(self)
        twin.exemplars = exemplars
        return twin

    def probs(self, crops: np.ndarray) -> np.ndarray:
        """Class probabilities (N,43) of upright crops (N,64,64,3) BGR uint8 (the first
        model's, averaged with the others' where it doubts: `_partnered`), leaning on the
        exemplars."""
        return self._looked(crops)[0]

    def _looked(self, crops: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """`probs` and the first model's looks of the crops (`read_with_looks`; empty when
        it gives none)."""
        has = self.tag is not None
        p, looks = read_with_looks(self.models[0], crops, self.flip_average, 43, looks=has)
        p = self._partnered(p, crops, self.flip_average)
        if not has:
            return p, np.zeros((len(crops), 1, 0), np.float32)
        return adapted(p, looks, self.exemplars, self.vision.exemplars), looks

    def _partnered(self, first: np.ndarray, crops: np.ndarray, flip: bool) -> np.ndarray:
        """The first model's probabilities `first` of the crops, averaged with the other
        models' (each crop also read turned half round with `flip`) where its likeliest
        class is under `ClassifyConfig.partner_below`."""
        unsure = np.flatnonzero(first.max(axis=1) < self.config.partner_below)
        if len(self.models) == 1 or not len(unsure):
            return first
        rest = [read_crops(m, crops[unsure], flip, 43) for m in self.models[1:]]
        out = first.copy()
        out[unsure] = np.mean([first[unsure], *rest], axis=0)
        return out

    def _look_text(self, looks: np.ndarray) -> list[str | None]:
        """Each crop's look as cut (`encode_look`), None where the model gives none."""
        if self.tag is None or looks.shape[-1] == 0:
            return [None] * len(looks)
        return [encode_look(view[0], self.tag) for view in looks]

    def second_probs(self, crops: np.ndarray) -> np.ndarray:
        """`probs` by the second classifiers (their mean)."""
        if self.second is None:
            raise ValueError("this classifier has no second model")
        return self._mean_read(self.second, crops)

    def _mean_read(self, models: list[CropModel], crops: np.ndarray) -> np.ndarray:
        reads = [read_crops(m, crops, self.flip_average, classes=43) for m in models]
        return np.mean(reads, axis=0).astype(np.float32)

    def __call__(self, image: np.ndarray, detections: list[Detection]) -> list[TileRead]:
        """One TileRead per detection, in the same order, `chosen` = most probable code."""
        image = check_image(image)
        if not detections:
            return []
        probs, looks = self._read(image, detections, list(range(len(detections))))
        return [
            TileRead(detection=d, probs=p, chosen=CODES[int(p.argmax())], look=look)
            for d, p, look in zip(detections, probs, looks, strict=True)
        ]

    def look_again(
        self, image: np.ndarray, reads: list[TileRead], which: list[int]
    ) -> list[TileRead]:
        """The reads with those of `which` read as `__call__` reads a tile (every view, the
        second look where unsure, asking `table_second`), their rows found among all the
        reads; the rest as they were (a whole table's glance: only where the hand may lie
        needs more)."""
        if not which:
            return list(reads)
        image = check_image(image)
        later = copy.copy(self)
        later.second = self.table_second
        probs, looks = later._read(image, [r.detection for r in reads], which)
        out = list(reads)
        for i, p, look in zip(which, probs, looks, strict=True):
            out[i] = replace(reads[i], probs=p, chosen=CODES[int(p.argmax())], look=look)
        return out

    def _read(
        self, image: np.ndarray, detections: list[Detection], only: list[int]
    ) -> tuple[np.ndarray, list[str | None]]:
        """Class probabilities of the tiles `only` indexes, their rows judged among all the
        `detections`: box and row views read in one pass, the second look where unsure;
        and the looks of their boxes (`_look_text`)."""
        boxes = [detections[i].box for i in only]
        crops = np.stack([cut(image, b) for b in boxes])
        size = self.config.row_crop
        turned = (
            row_crops(image, detections, size, np.asarray(only), config=self.vision)
            if self.row_view
            else crops[:0]
        )
        read, looks = self._looked(np.concatenate([crops, turned]))  # one pass for both views
        probs = self._either_way(read[: len(crops)], crops, boxes)
        if self.row_view:
            probs = (probs + read[len(crops) :]) / 2
            if self.again:
                probs = self.second_look(image, detections, probs, (crops, turned), only)
        return probs, self._look_text(looks[: len(crops)])

    def glance(self, image: np.ndarray, detections: list[Detection]) -> list[TileRead]:
        """A quick reading of each detection: the box alone, unturned, by the first model.
        Among the many tiles of a whole table it tells the backs (walls, hands seen from
        behind) from the faces; the faces its partners read too where it doubts
        (`_partnered`), naming the tiles outside the hand better (the ponds' copies decide
        和绝张), while a back stays the first's call: a partner takes some sets' pale backs
        for 白. Those where the hand may lie are then read whole (`look_again`)."""
        image = check_image(image)
        if not detections:
            return []
        crops = np.stack([cut(image, d.box) for d in detections])
        has = self.tag is not None
        probs, looks = read_with_looks(self.models[0], crops, False, classes=43, looks=has)
        faces = np.flatnonzero(probs.argmax(axis=1) != BACK_INDEX)
        if len(faces):
            probs = probs.copy()
            probs[faces] = self._partnered(probs[faces], crops[faces], flip=False)
        probs = adapted(probs, looks, self.exemplars, self.vision.exemplars) if has else probs
        return [
            TileRead(detection=d, probs=p, chosen=CODES[int(p.argmax())], look=look)
            for d, p, look in zip(detections, probs, self._look_text(looks), strict=True)
        ]

    def _either_way(self, probs: np.ndarray, crops: np.ndarray, boxes: list) -> np.ndarray:
        """`probs` of `crops`, with each box about square also read a quarter turned and the
        surer reading kept: such a box does not tell which way its tile lies."""
        square = [k for k, b in enumerate(boxes) if _squareish(b, self.config.square)]
        if square:
            probs = probs.copy()
            other = self.probs(np.stack([_other_way(crops[k], boxes[k]) for k in square]))
            for k, p in zip(square, other, strict=True):
                if p.max() > probs[k].max():
                    probs[k] = p
        return probs

    def second_look(
        self,
        image: np.ndarray,
        detections: list[Detection],
        probs: np.ndarray,
        views: tuple[np.ndarray, np.ndarray],
        among: list[int] | None = None,
    ) -> np.ndarray:
        """`probs` (the box's and the row's views averaged) with each unsure tile
        (`ClassifyConfig.unsure`) also read from its box widened and its row's rectangle
        tightened, and by the second classifier from its box, row and widened views,
        weighted in (`ClassifyConfig`'s weights). `probs` and `views` (the box and row
        crops, as first read) are of the tiles `among` indexes in `detections` (default:
        every tile), whose rows are judged among all `detections`.

        Only the few unsure tiles pay for the extra reads.
        """
        cfg = self.config
        unsure = np.flatnonzero(probs.max(axis=1) < cfg.unsure)
        if not len(unsure):
            return probs
        where = unsure if among is None else np.asarray(among, int)[unsure]
        boxes = [widened(detections[i].box, cfg.wider_box) for i in where]
        crops = np.stack([cut(image, b) for b in boxes])
        wide = self._either_way(self.probs(crops), crops, boxes)
        tight = self.probs(row_crops(image, detections, cfg.tighter_row, where, config=self.vision))
        total = probs[unsure] * 2 + wide * cfg.wider_weight + tight * cfg.tighter_weight
        weight = 2 + cfg.wider_weight + cfg.tighter_weight
        if self.second is not None:
            box, row = views  # one pass for the three views
            seen = self.second_probs(np.concatenate([box[unsure], row[unsure], crops]))
            total = total + seen.reshape(3, len(unsure), -1).mean(axis=0) * cfg.second_weight
            weight += cfg.second_weight
        probs = probs.copy()
        probs[unsure] = total / weight
        return probs
