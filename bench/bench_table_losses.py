"""Where the table detector's look loses tiles, and what its false boxes lie on.

The reader looks at a whole table with `detector_table_int8.onnx` at its
larger input (`vision.detect.table_input`); `bench_table` counts what the
whole reader then finds. Here that look alone is decoded at several
threshold / NMS IoU settings (`--settings 0.5:0.45,0.4:0.55`: recall and
precision by tile group and by the share of each tile in view, a label
found at IoU 0.5 with its part in view, as `bench_table` matches), and
with `--causes` at the first setting each missed label is told by why it
was missed:

- `boxed loosely`: a box found overlaps it at IoU 0.3-0.5;
- `dropped by NMS`: a heatmap peak over the threshold boxes it at 0.5, but
  a surer box took its place;
- `peak under threshold`: a peak boxes it at 0.5 below the threshold;
- `weak peak, loose`: a peak below the threshold boxes it at 0.3-0.5;
- `no peak`: nothing near;

and each false box by what it lies on (`loose on a missed tile`, `second
box on a found tile`, `across several tiles`, `part of a tile`, `on no
tile`), with the group of the tile it lies most on.

    python -m bench.bench_table_losses DIR [--limit N] [--settings T:N,...] [--causes]
        [--table-model M]
"""

from __future__ import annotations

import argparse
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import cv2
import numpy as np

from bench.bench_table import Tally, _group_of, _labels, _scenes, _shown_bin, match
from vision.detect import Detector, decode, intersections, ious, prepare, table_input
from vision.types import Detection

#: every heatmap peak, for the causes (a peak under it is no peak at all)
PEAK_FLOOR = 0.1


def miss_cause(box: np.ndarray, found: np.ndarray, peaks: np.ndarray, sure: np.ndarray) -> str:
    """Why no box found matches a labelled tile (`box`): `found` the boxes kept, `peaks`
    every peak's box (no NMS) and `sure` whether each peak is over the threshold."""
    if len(found) and ious(box, found).max() >= 0.3:
        return "boxed loosely"
    close = ious(box, peaks) if len(peaks) else np.zeros(0)
    if (close >= 0.5).any():
        return "dropped by NMS" if (sure & (close >= 0.5)).any() else "peak under threshold"
    return "weak peak, loose" if (close >= 0.3).any() else "no peak"


def false_kind(box: np.ndarray, labels: np.ndarray, found: set[int]) -> tuple[str, int]:
    """What a box matching no label lies on, and the index of the label it lies most on
    (-1: none); `found` holds the labels other boxes matched."""
    if not len(labels):
        return "on no tile", -1
    inter = intersections(box, labels)
    area = float((box[2] - box[0]) * (box[3] - box[1]))
    near = ious(box, labels)
    j = int(near.argmax())
    if near[j] >= 0.3:
        return ("second box on a found tile" if j in found else "loose on a missed tile"), j
    if inter.sum() < 0.2 * area:
        return "on no tile", -1
    covered = inter / np.maximum((labels[:, 2] - labels[:, 0]) * (labels[:, 3] - labels[:, 1]), 1)
    j = int((inter / area).argmax())
    if (covered > 0.5).sum() >= 2:
        return "across several tiles", j
    return ("part of a tile" if inter[j] > 0.7 * area else "across several tiles"), j


def looks(
    root: Path, limit: int | None, detector: Detector
) -> Iterator[tuple[list[dict], np.ndarray, float, tuple[int, int]]]:
    """Each scene's labels and the table look's raw output, its scale and the photo's shape."""
    for path, meta in _scenes(root, limit):
        image = cv2.imread(str(path))
        size = table_input(image.shape[:2], detector.config) or detector.config.table_input
        x, scale = prepare(image, size)
        out = detector.table_session.run(None, {detector.input_name: x})[0]
        yield _labels(meta), out, scale, image.shape[:2]


def _boxes(found: list[Detection]) -> np.ndarray:
    return np.array([d.box for d in found], float).reshape(-1, 4)


def _causes(
    labels: list[dict],
    found: list[Detection],
    pairs: list[tuple[int, int]],
    peaks: list[Detection],
    threshold: float,
) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """(group, cause) of each missed label and (group, kind) of each false box, of the
    boxes `found` at `threshold` and their `pairs` with the labels; `peaks`: every peak."""
    boxes, peak_boxes = _boxes(found), _boxes(peaks)
    sure = np.array([d.score >= threshold for d in peaks], bool)
    truth = np.array([t["box"] for t in labels], float).reshape(-1, 4)
    hit, used = {t for t, _ in pairs}, {f for _, f in pairs}
    missed = [
        (_group_of(t), miss_cause(truth[i], boxes, peak_boxes, sure))
        for i, t in enumerate(labels)
        if i not in hit
    ]
    false = []
    for k in range(len(boxes)):
        if k not in used:
            kind, j = false_kind(boxes[k], truth, hit)
            false.append((_group_of(labels[j]) if j >= 0 else "-", kind))
    return missed, false


def _print_causes(missed: Counter, false: Counter, totals: Counter) -> None:
    print(f"missed labels by group and cause ({sum(missed.values())}):")
    for group in sorted(totals):
        causes = {c: n for (g, c), n in missed.most_common() if g == group}
        print(f"  {group:24s} {totals[group]:6d} labels: {causes}")
    print(f"false boxes by what they lie on ({sum(false.values())}):")
    for (group, kind), n in false.most_common():
        print(f"  {n:5d}  {kind} ({group})")


def run(args: argparse.Namespace) -> None:
    det = Detector(table_model=args.table_model) if args.table_model else Detector()
    settings = [tuple(float(v) for v in s.split(":")) for s in args.settings.split(",")]
    # each setting's tiles by group, and the same tiles by the share of each in view
    tallies = {s: (Tally(), Tally()) for s in settings}
    missed, false, totals = Counter(), Counter(), Counter()
    for labels, out, scale, shape in looks(args.dir, args.limit, det):
        truth = [t["box"] for t in labels]
        first = None
        for (thr, nms_iou), (by_group, by_share) in tallies.items():
            found = decode(out, scale, shape, thr, nms_iou, det.config)
            pairs = match(truth, _boxes(found).tolist())
            by_group.add(labels, len(found), pairs, _group_of)
            by_share.add(labels, len(found), pairs, _shown_bin)
            first = first or (found, pairs)
        if args.causes:
            peaks = decode(out, scale, shape, PEAK_FLOOR, 1.01, det.config)  # IoU over 1: no NMS
            m, f = _causes(labels, *first, peaks, settings[0][0])
            missed.update(m)
            false.update(f)
            totals.update(_group_of(t) for t in labels)
    for (thr, nms_iou), (by_group, by_share) in tallies.items():
        print(f"threshold {thr}, NMS IoU {nms_iou}: recall {by_group.recall():.3f}, "
              f"precision {by_group.precision():.3f}")  # fmt: skip
        print("\n".join(by_group.rows() + by_share.rows()))
    if args.causes:
        _print_causes(missed, false, totals)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dir", type=Path)
    ap.add_argument("--limit", type=int)
    ap.add_argument("--settings", default="0.5:0.45", help="threshold:NMS IoU pairs, commas")
    ap.add_argument(
        "--causes",
        action="store_true",
        help="at the first setting: why tiles are missed, false boxes",
    )
    ap.add_argument("--table-model", type=Path, help="another table detector ONNX file")
    args = ap.parse_args(argv)
    if args.table_model is not None and not args.table_model.is_file():
        ap.error(f"no table detector at {args.table_model}")  # never the bundled one instead
    run(args)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
