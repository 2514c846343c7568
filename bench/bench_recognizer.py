"""Measure the tile recognizer (Detector + Classifier) on cmd-v4 valid.

Prints per-tile precision/recall (IoU >= 0.5 and the class must match),
flower/season recall, detector-only recall/precision, how many `hand_*`
photos are read exactly (every tile found with the right class, no extras)
and the seconds per 12 MP photo (a valid photo upscaled to 4000x3000).

    python -m bench.bench_recognizer [--split valid] [--decoded] [--json]

By default each tile is the classifier's first guess; `--decoded` scores the
tiles as `mcr recognize` reports them, after layout and rule-aware decoding.
`--fixed-labels` scores against the labels with the corrections of
`datasets/cmdv4_valid_fixes.txt` (boxes found mislabelled by eye) applied.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from dataclasses import replace

import cv2
import numpy as np

from datasets.cmdv4 import load_split, with_fixes
from datasets.detector_crops import iou
from scorer.tiles import FLOWER_CODES
from vision.classify import Classifier
from vision.config import DEFAULT
from vision.detect import Detector
from vision.pipeline import Looked
from vision.readhand import read_hand


def match(pred_boxes, pred_codes, scores, gt_boxes, gt_codes, class_aware: bool) -> list[int]:
    """Greedy matching by score; returns for each prediction the matched gt index or -1."""
    ious = iou(
        np.asarray(pred_boxes, np.float32).reshape(-1, 4),
        np.asarray(gt_boxes, np.float32).reshape(-1, 4),
    )
    used = np.zeros(len(gt_boxes), bool)
    result = [-1] * len(pred_boxes)
    for i in np.argsort(-np.asarray(scores, np.float32)):
        cand = ious[i].copy()
        cand[used] = 0
        if class_aware:
            cand[[g != pred_codes[i] for g in gt_codes]] = 0
        if len(cand) and cand.max() >= 0.5:
            j = int(cand.argmax())
            used[j] = True
            result[i] = j
    return result


def evaluate(
    split: str,
    det: Detector,
    cls: Classifier,
    limit: int = 0,
    decoded: bool = False,
    fixed: bool = False,
) -> dict:
    samples = load_split(split)
    if fixed:
        samples = with_fixes(samples)
    if limit:  # an even spread over the split, hand photos included
        samples = samples[:: max(1, len(samples) // limit)]
    tp = n_pred = n_gt = det_tp = 0
    flower_gt = flower_tp = 0
    hands = hands_exact = 0
    confusions: Counter[tuple[str, str]] = Counter()
    for s in samples:
        img = cv2.imread(str(s.image_path), cv2.IMREAD_COLOR)
        h, w = img.shape[:2]
        gt = [(b[0] * w, b[1] * h, b[2] * w, b[3] * h) for b in s.boxes]
        looked = Looked.at(img, det, cls)  # found and read as the pipeline does
        reads, to_photo = looked.reads, looked.to_photo
        if decoded:  # the tiles as `mcr recognize` reports them, after the rules had their say
            reads = read_hand(reads)[0]
        boxes = [to_photo(r.detection.box) for r in reads]
        codes = [r.chosen for r in reads]
        scores = [r.detection.score for r in reads]
        m = match(boxes, codes, scores, gt, s.codes, class_aware=True)
        md = match(boxes, codes, scores, gt, s.codes, class_aware=False)
        for i, j in enumerate(md):
            if j >= 0 and codes[i] != s.codes[j]:
                confusions[(s.codes[j], codes[i])] += 1
        k = sum(j >= 0 for j in m)
        tp += k
        det_tp += sum(j >= 0 for j in md)
        n_pred += len(reads)
        n_gt += len(gt)
        matched = {j for j in m if j >= 0}
        for j, c in enumerate(s.codes):
            if c in FLOWER_CODES:
                flower_gt += 1
                flower_tp += j in matched
        if s.image_path.name.startswith("hand_"):
            hands += 1
            hands_exact += k == len(gt) == len(reads)
    return {
        "split": split,
        "images": len(samples),
        "gt_tiles": n_gt,
        "predicted": n_pred,
        "precision": tp / max(n_pred, 1),
        "recall": tp / max(n_gt, 1),
        "flower_recall": flower_tp / max(flower_gt, 1),
        "flower_gt": flower_gt,
        "detector_precision": det_tp / max(n_pred, 1),
        "detector_recall": det_tp / max(n_gt, 1),
        "hands_exact": hands_exact,
        "hands": hands,
        "top_confusions": [f"{a}->{b}: {n}" for (a, b), n in confusions.most_common(10)],
    }


def time_12mp(det: Detector, cls: Classifier, split: str, repeats: int) -> dict:
    """Seconds per 4000x3000 photo (detector + classifier), after one warm-up run."""
    samples = [s for s in load_split(split) if s.image_path.name.startswith("hand_")] or load_split(
        split
    )
    img = cv2.imread(str(samples[0].image_path), cv2.IMREAD_COLOR)
    big = cv2.resize(img, (4000, 3000), interpolation=cv2.INTER_CUBIC)
    Looked.at(big, det, cls)
    times = []
    n = 0
    for _ in range(repeats):
        t = time.perf_counter()
        reads = Looked.at(big, det, cls).reads
        times.append(time.perf_counter() - t)
        n = len(reads)
    return {
        "seconds_per_12mp_mean": float(np.mean(times)),
        "seconds_per_12mp_max": float(np.max(times)),
        "tiles_in_timed_photo": n,
    }


def main() -> None:
    p = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    p.add_argument("--split", default="valid", choices=("train", "valid"))
    p.add_argument("--detector", default=None, help="detector ONNX (default: bundled)")
    p.add_argument("--classifier", default=None, help="classifier ONNX (default: bundled)")
    p.add_argument("--repeats", type=int, default=5)
    p.add_argument(
        "--threshold",
        type=float,
        default=None,
        help="detector score threshold (default: Detector's)",
    )
    p.add_argument("--limit", type=int, default=0, help="only about N photos (quick look)")
    p.add_argument(
        "--decoded", action="store_true", help="tiles after layout and rule-aware decoding"
    )
    p.add_argument(
        "--fixed-labels",
        action="store_true",
        help="score valid against its labels with datasets/cmdv4_valid_fixes.txt applied",
    )
    p.add_argument("--json", action="store_true")
    args = p.parse_args()
    try:
        config = DEFAULT
        if args.threshold is not None:
            config = replace(DEFAULT, detect=replace(DEFAULT.detect, threshold=args.threshold))
        det, cls = Detector(args.detector, config), Classifier(args.classifier)
        res = evaluate(args.split, det, cls, args.limit, args.decoded, args.fixed_labels)
        res.update(time_12mp(det, cls, args.split, args.repeats))
    except (FileNotFoundError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        raise SystemExit(2) from None
    if args.json:
        print(json.dumps(res))
        return
    print(
        f"cmd-v4 {res['split']}: {res['images']} photos, {res['gt_tiles']} labelled tiles, {res['predicted']} predicted"
    )
    print(
        f"per-tile precision {res['precision']:.4f}  recall {res['recall']:.4f}  (IoU>=0.5, class match)"
    )
    print(f"flowers/seasons recall {res['flower_recall']:.4f} ({res['flower_gt']} tiles)")
    print(
        f"detector-only precision {res['detector_precision']:.4f}  recall {res['detector_recall']:.4f}"
    )
    print(f"hand_* photos read exactly: {res['hands_exact']} / {res['hands']}")
    print(
        f"seconds per 12 MP photo: mean {res['seconds_per_12mp_mean']:.3f}  max {res['seconds_per_12mp_max']:.3f} ({res['tiles_in_timed_photo']} tiles)"
    )
    print("top confusions (true->read):", ", ".join(res["top_confusions"]) or "none")


if __name__ == "__main__":
    main()
