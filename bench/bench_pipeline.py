"""End-to-end recognition (`vision.recognize`) on real labelled photos (cmd-v4 `hand_*`).

Needs the trained models (models/detector.onnx, models/classifier_fonts_int8.onnx).
For each photo: seconds per photo, whether the tile count matches the
labels, how many labelled tiles are read with the right code (box IoU >=
0.5) before and after rule-aware decoding, and whether the hand equals the
one that layout + decoding read from the labels (a perfect detector and
classifier).
Most `hand_*` photos show a winning hand in one row (some show suits or
flowers only: the labels then give no hand either).

    python -m bench.bench_pipeline [--split valid] [--all]
"""

from __future__ import annotations

import argparse
import time
from collections import Counter

import numpy as np

from datasets.cmdv4 import load_split
from vision.detect import ious
from vision.pipeline import recognize
from vision.readers import warm_up
from vision.readhand import read_hand
from vision.synthetic import probs_for
from vision.types import Detection, TileRead


def label_hand(sample) -> str | None:
    """The hand the same layout and decoding read from the hand-made labels (perfect reads)."""
    reads = [
        TileRead(Detection(tuple(v * 640 for v in box), 1.0), probs_for(code))
        for box, code in zip(sample.boxes, sample.codes, strict=True)
    ]
    return read_hand(reads)[2].notation


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--split", default="valid")
    ap.add_argument("--all", action="store_true", help="every photo, not only hand_*")
    args = ap.parse_args()
    samples = [
        s for s in load_split(args.split) if args.all or s.image_path.name.startswith("hand_")
    ]
    warm_up()  # the speed target is for photos after start-up: load the models first
    times, count_ok = [], 0
    right_first = right_final = labelled = 0
    hands: Counter[str] = Counter()
    outcome: Counter[str] = Counter()
    misses: list[str] = []
    for sample in samples:
        data = sample.image_path.read_bytes()
        start = time.perf_counter()
        out = recognize(data, sample.image_path.name)
        times.append(time.perf_counter() - start)
        w, h = out["size"]["width"], out["size"]["height"]
        count_ok += len(out["tiles"]) == len(sample.codes)
        hands["hand" if out["hand"] else "null"] += 1
        truth = label_hand(sample)
        if truth is None:
            outcome["labels give no hand"] += 1
        else:
            result = "right" if out["hand"] == truth else "null" if out["hand"] is None else "wrong"
            outcome[result] += 1
            if result != "right":
                misses.append(
                    f"{sample.image_path.name.split('_jpg')[0]} {result}: {out['hand']} (labels {truth})"
                )
        for box, code in zip(sample.boxes, sample.codes, strict=True):
            labelled += 1
            gt = (box[0] * w, box[1] * h, box[2] * w, box[3] * h)
            overlaps = ious(np.array(gt), np.array([t["box"] for t in out["tiles"]]))
            if not overlaps.size or overlaps.max() < 0.5:
                continue
            best = out["tiles"][int(overlaps.argmax())]
            first = best["alternatives"][0]["tile"]
            right_first += first == code
            right_final += best["tile"] == code
    t = np.array(times)
    print(f"{len(samples)} photos ({args.split}{'' if args.all else ', hand_*'})")
    print(f"tile count equals the labels: {count_ok}/{len(samples)}")
    print(f"labelled tiles read right, first guess: {right_first}/{labelled}")
    print(f"labelled tiles read right, after decoding: {right_final}/{labelled}")
    print(f"results: {dict(hands)}")
    print(f"against the hand read from the labels: {dict(outcome)}")
    for line in misses:
        print(f"  {line}")
    print(f"seconds per photo: mean {t.mean():.3f}  max {t.max():.3f}")


if __name__ == "__main__":
    main()
