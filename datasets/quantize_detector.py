"""Quantize the table detector to 8-bit integers for the reader.

A whole-table photo is looked at by the table detector at 1280 px, and on
two cores that one run is a large share of the photo's time. Its int8
version (onnxruntime's static quantization in QDQ form, weights per
channel, activations calibrated on inputs prepared exactly as the reader
prepares them: `vision.detect.prepare` at the table input) runs about
twice as fast on CPUs with 8-bit dot products. `bench/bench_table.py
--table-model` measures what it finds before it replaces the float file.

    python -m datasets.quantize_detector models/detector_table.onnx \
        --out models/detector_table_int8.onnx --render TABLES
"""

from __future__ import annotations

import argparse
from collections.abc import Iterator
from pathlib import Path

import cv2
import numpy as np

from datasets.cmdv4 import load_split
from vision.config import DEFAULT
from vision.detect import prepare, table_input


def _inputs(paths: list[Path]) -> Iterator[np.ndarray]:
    """Each photo prepared as the table look prepares it (photos too small for one skipped)."""
    for path in paths:
        image = cv2.imread(str(path), cv2.IMREAD_COLOR)
        if image is None:
            continue
        size = table_input(image.shape[:2], DEFAULT.detect)
        if size is not None:
            yield prepare(image, size)[0]


class Inputs:
    """onnxruntime's calibration reader: one prepared photo at a time (their shapes differ),
    in the ranges `CalibStridedMinMax` asks for, so that only one photo's activations are
    held at once and each photo's ranges are merged into the rest."""

    def __init__(self, paths: list[Path], name: str) -> None:
        self._paths, self._name = paths, name
        self._it: Iterator[np.ndarray] = iter(())

    def __len__(self) -> int:
        return len(self._paths)

    def set_range(self, start_index: int, end_index: int) -> None:
        self._it = _inputs(self._paths[start_index:end_index])

    def get_next(self) -> dict | None:
        x = next(self._it, None)
        return None if x is None else {self._name: x}


def calibration_photos(renders: list[Path], real: int, rendered: int, seed: int) -> list[Path]:
    """`rendered` scenes from each render folder and `real` cmd-v4 train photos, drawn at random."""
    rng = np.random.default_rng(seed)
    paths: list[Path] = []
    for root in renders:
        images = sorted((root / "images").glob("*.jpg"))
        paths += [images[i] for i in rng.permutation(len(images))[:rendered]]
    if real:
        samples = load_split("train")
        paths += [samples[i].image_path for i in rng.permutation(len(samples))[:real]]
    return paths


def quantize(src: Path, dst: Path, paths: list[Path]) -> None:
    """`src` (float32 ONNX detector) as int8 QDQ in `dst`, calibrated on `paths`."""
    import onnxruntime as ort
    from onnxruntime.quantization import CalibrationMethod, QuantFormat, QuantType, quantize_static

    name = ort.InferenceSession(str(src), providers=["CPUExecutionProvider"]).get_inputs()[0].name
    quantize_static(
        str(src), str(dst), Inputs(paths, name), quant_format=QuantFormat.QDQ,
        per_channel=True, activation_type=QuantType.QUInt8, weight_type=QuantType.QInt8,
        calibrate_method=CalibrationMethod.MinMax,
        extra_options={"CalibStridedMinMax": 1},  # one photo at a time, ranges merged
    )  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m datasets.quantize_detector", description=__doc__)
    ap.add_argument("src", type=Path, help="float32 detector")
    ap.add_argument("--out", type=Path, required=True, help="the int8 file")
    ap.add_argument("--render", type=Path, nargs="*", default=[], help="rendered scene folders")
    ap.add_argument("--rendered", type=int, default=48, help="scenes from each render folder")
    ap.add_argument("--real", type=int, default=16, help="cmd-v4 train photos")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    paths = calibration_photos(args.render, args.real, args.rendered, args.seed)
    if not paths:
        ap.error("no photo to calibrate on (--render, cmd-v4 train)")
    print(f"{len(paths)} calibration photos", flush=True)
    quantize(args.src, args.out, paths)
    print(f"{args.out}: {args.out.stat().st_size / 1e6:.1f} MB", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
