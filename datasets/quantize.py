"""Quantize a trained tile classifier to 8-bit integers for the reader.

A whole table shows about 130 tiles, and the hand's candidates are read
from several views by a classifier (the unsure ones by a second): in
float32 that reading is most of a photo's time on two cores. The same network in int8 (onnxruntime's
static quantization, weights per channel, activations calibrated on crops
cut as run time cuts them) runs about five times faster on CPUs with
8-bit dot products (AVX-512 VNNI, AVX-VNNI; measured on such a CPU only:
without them it may gain less and round more coarsely) and names the same tile as the
float32 model on all but a few crops in a thousand (a test checks each
shipped float32/int8 pair). The float32 export stays the trained model:
fine-tunes start from it.

    python -m datasets.quantize models/classifier_fonts.onnx --out models/classifier_fonts_int8.onnx \
        --render RENDERS TABLES
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from datasets.cmdv4 import Sample, load_split
from vision.classify import cut, to_input, widened

CALIBRATION_BATCH = 32


def _photo_crops(
    image: np.ndarray, boxes: list[tuple[float, ...]], rng: np.random.Generator
) -> list[np.ndarray]:
    """Each box cut as the reader cuts it, and now and then widened (its second look)."""
    out = []
    for box in boxes:
        out.append(cut(image, box))
        if rng.random() < 0.25:
            out.append(cut(image, widened(box, 1.3)))
    return out


def real_crops(samples: list[Sample], n: int, rng: np.random.Generator) -> list[np.ndarray]:
    """About `n` crops of labelled photos (cmd-v4), a few from each."""
    crops: list[np.ndarray] = []
    for s in rng.permutation(len(samples)):
        img = cv2.imread(str(samples[s].image_path), cv2.IMREAD_COLOR)
        if img is None:
            continue
        h, w = img.shape[:2]
        boxes = [(b[0] * w, b[1] * h, b[2] * w, b[3] * h) for b in samples[s].boxes]
        picked = rng.permutation(len(boxes))[:6]
        crops += _photo_crops(img, [boxes[i] for i in picked], rng)
        if len(crops) >= n:
            break
    return crops[:n]


def rendered_crops(root: Path, n: int, rng: np.random.Generator) -> list[np.ndarray]:
    """About `n` crops of rendered scenes (`datasets.render` meta files), a few from each."""
    crops: list[np.ndarray] = []
    metas = sorted((root / "meta").glob("*.json"))
    for k in rng.permutation(len(metas)):
        meta = json.loads(metas[k].read_text())
        img = cv2.imread(str(root / "images" / f"{metas[k].stem}.jpg"), cv2.IMREAD_COLOR)
        if img is None:
            continue
        tiles = [t for t in meta["tiles"] if not t.get("partial")]
        picked = rng.permutation(len(tiles))[:6]
        crops += _photo_crops(img, [tuple(tiles[i]["box"]) for i in picked], rng)
        if len(crops) >= n:
            break
    return crops[:n]


class Strided:
    """onnxruntime's calibration reader: `items`, each made into one input by `load`
    (None: left out), handed out in the ranges `CalibStridedMinMax` asks for, so that
    each range's activation ranges are merged into the rest and only that range's
    activations are held at once."""

    def __init__(self, items: list, name: str, load: Callable[[Any], np.ndarray | None]):
        self._items, self._name, self._load = items, name, load
        self._it: Iterator[np.ndarray] = iter(())

    def __len__(self) -> int:
        return len(self._items)

    def set_range(self, start_index: int, end_index: int) -> None:
        loaded = map(self._load, self._items[start_index:end_index])
        self._it = (x for x in loaded if x is not None)

    def get_next(self) -> dict | None:
        x = next(self._it, None)
        return None if x is None else {self._name: x}


def batches(crops: np.ndarray) -> list[np.ndarray]:
    """Normalised crops with their 180-degree turns (the reader averages both), in batches."""
    x = to_input(crops)
    x = np.concatenate([x, x[:, :, ::-1, ::-1]])
    return [
        np.ascontiguousarray(x[i : i + CALIBRATION_BATCH])
        for i in range(0, len(x), CALIBRATION_BATCH)
    ]


def quantize_inputs(
    src: Path, dst: Path, items: list, load: Callable[[Any], np.ndarray | None]
) -> None:
    """`src` (float32 ONNX) as int8 QDQ in `dst` (weights per channel), its activations
    calibrated one item of `items` at a time, each made into an input by `load`."""
    import onnxruntime as ort
    from onnxruntime.quantization import CalibrationMethod, QuantFormat, QuantType, quantize_static

    name = ort.InferenceSession(str(src), providers=["CPUExecutionProvider"]).get_inputs()[0].name
    quantize_static(
        str(src), str(dst), Strided(items, name, load), quant_format=QuantFormat.QDQ,
        per_channel=True, activation_type=QuantType.QUInt8, weight_type=QuantType.QInt8,
        calibrate_method=CalibrationMethod.MinMax,
        extra_options={"CalibStridedMinMax": 1},  # an item at a time, ranges merged
    )  # fmt: skip


def quantize(src: Path, dst: Path, crops: np.ndarray) -> None:
    """`src` (float32 ONNX classifier) as int8 in `dst`, calibrated on `crops` (N,64,64,3)
    BGR, with its looks as a second output (`with_looks`)."""
    quantize_inputs(src, dst, batches(crops), lambda batch: batch)
    with_looks(dst)


def with_looks(path: Path) -> None:
    """Give the classifier in `path` a second output `looks` (`vision.classify.LOOKS`):
    the pooled features its last layer reads, which `vision.exemplars` compares. Its
    logits stay exactly as they were (the features are computed anyway); a model that
    has the output already is left alone."""
    import onnx
    from onnx import TensorProto, helper

    from vision.classify import LOOKS

    model = onnx.load(str(path))
    graph = model.graph
    if any(o.name == LOOKS for o in graph.output):
        return
    last = next((n for n in reversed(graph.node) if n.op_type in ("Gemm", "MatMul")), None)
    if last is None:
        return
    graph.node.append(helper.make_node("Identity", [last.input[0]], [LOOKS], name=LOOKS))
    graph.output.append(helper.make_tensor_value_info(LOOKS, TensorProto.FLOAT, ["N", None]))
    onnx.save(model, str(path))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m datasets.quantize", description=__doc__)
    ap.add_argument("src", type=Path, nargs="+", help="float32 classifier(s)")
    ap.add_argument("--out", type=Path, nargs="+", required=True, help="int8 file for each")
    ap.add_argument(
        "--data", default=None, help="cmd-v4 root (default $MCR_DATASETS/cmd-v4 or ../shared/...)"
    )
    ap.add_argument("--render", type=Path, nargs="*", default=[], help="rendered scene folders")
    ap.add_argument("--crops", type=int, default=600, help="calibration crops from each source")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    if len(args.src) != len(args.out):
        ap.error("give one --out for each model")
    rng = np.random.default_rng(args.seed)
    crops = real_crops(load_split("train", args.data), args.crops, rng)
    for root in args.render:
        crops += rendered_crops(root, args.crops, rng)
    if not crops:
        ap.error("no labelled tile found to calibrate on (cmd-v4 train, --render)")
    stacked = np.stack(crops)
    print(f"{len(stacked)} calibration crops", flush=True)
    for src, dst in zip(args.src, args.out, strict=True):
        quantize(src, dst, stacked)
        print(f"{dst}: {dst.stat().st_size / 1e6:.1f} MB", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
