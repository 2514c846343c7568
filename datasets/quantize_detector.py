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
from pathlib import Path

import cv2
import numpy as np

from datasets.cmdv4 import load_split
from datasets.quantize import quantize_inputs
from vision.config import DEFAULT
from vision.detect import prepare, table_input


def prepared(path: Path) -> np.ndarray | None:
    """A photo prepared as the table look prepares it, or None (unreadable, or too small
    for a table look)."""
    image = cv2.imread(str(path), cv2.IMREAD_COLOR)
    if image is None:
        return None
    size = table_input(image.shape[:2], DEFAULT.detect)
    return None if size is None else prepare(image, size)[0]


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
    quantize_inputs(args.src, args.out, paths, prepared)  # one photo at a time (shapes differ)
    print(f"{args.out}: {args.out.stat().st_size / 1e6:.1f} MB", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
