"""How well the orientation model tells which way tile faces point.

On a render folder (images/ + meta/*.json, e.g. the held-out art styles of
`python -m datasets.render --styles heldout --kind hand --count 200 --seed 4`):

- per tile: argmax of the 4 classes (face top up/right/down/left in the
  run-time crop) against the true one from the face corners, for all
  face-up tiles, for tiles that look different turned 180 degrees, for
  the nearly 180-degree-symmetric ones, for sideways (claimed) tiles, and
  per tile code;
- per scene, the row vote: the summed face-top vectors of the upright
  (face-up, not sideways) tiles, right when it has a positive component
  along the scene's true face-top direction (the mean of those tiles'
  true directions); once with all of them, once without flowers (they lie
  apart from the hand, and their art differs most between styles); and
  split by whether the row lies within 20 degrees of the photo's axes.

`--photos DIR` instead reads real photos with YOLO labels (DIR/images,
DIR/labels; e.g. cmd-v4/valid, `--glob 'hand_*'`), prints each photo's
summed vector and, with `--show OUT`, writes small PNGs with the vote
drawn, to judge by eye whether it points to the top of the faces;
`--upright` (for photos seen to be upright) also scores the vote with
each photo turned by quarters.

    python -m bench.bench_orientation DIR [--model PATH] [--no-turn-average]
    python -m bench.bench_orientation --photos DIR --glob 'hand_*' --show /tmp/orient --upright
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import defaultdict
from pathlib import Path

import cv2
import numpy as np

from datasets.render import read_yolo
from scorer.tiles import CODES
from vision.classify import cut
from vision.config import SYMMETRIC_FACES as SYMMETRIC
from vision.orient import CLASSES, Orienter, crop_to_image, expected_direction, image_to_crop
from vision.orient import nearest_class as nearest
from vision.types import Detection

FLOWERS = frozenset(CODES[34:42])
AXIS_COS = np.cos(np.radians(20))  # a row within 20 degrees of the photo's axes is "axis-aligned"


def _face_up(corners: list) -> np.ndarray:
    c = np.asarray(corners, np.float64)
    return (c[0] + c[1]) / 2 - (c[3] + c[2]) / 2


def bench_renders(root: Path, orienter: Orienter, limit: int) -> dict:
    """Per-tile and per-scene numbers on a render folder."""
    hits: dict[str, list[bool]] = defaultdict(list)
    per_code: dict[str, list[bool]] = defaultdict(list)
    votes: dict[str, list[bool]] = defaultdict(list)
    cosines: dict[str, list[float]] = defaultdict(list)
    metas = sorted((root / "meta").glob("*.json"))[:limit]
    if not metas:
        raise SystemExit(f"no meta/*.json under {root}")
    start = time.time()
    for meta_path in metas:
        meta = json.loads(meta_path.read_text())
        img = cv2.imread(str(root / "images" / (meta_path.stem + ".jpg")), cv2.IMREAD_COLOR)
        tiles = [t for t in meta["tiles"] if not t["face_down"]]
        if img is None or not tiles:
            continue
        boxes = np.array([t["box"] for t in tiles], np.float64)
        ups = np.array([_face_up(t["corners"]) for t in tiles])
        probs = orienter.probs(np.stack([cut(img, tuple(b)) for b in boxes]))
        right = probs.argmax(1) == nearest(image_to_crop(ups, boxes))
        for t, ok in zip(tiles, right, strict=True):
            hits["all"].append(bool(ok))
            hits["symmetric" if t["code"] in SYMMETRIC else "non-symmetric"].append(bool(ok))
            if t["sideways"]:
                hits["sideways"].append(bool(ok))
            per_code[t["code"]].append(bool(ok))
        upright = np.array([not t["sideways"] for t in tiles])
        flower = np.array([t["code"] in FLOWERS for t in tiles])
        for name, use in (("upright", upright), ("upright, no flowers", upright & ~flower)):
            if not use.any():
                continue
            vec = crop_to_image(expected_direction(probs[use]), boxes[use]).sum(axis=0)
            u = ups[use]
            truth = (u / np.linalg.norm(u, axis=1, keepdims=True)).mean(axis=0)
            n = np.linalg.norm(vec) * np.linalg.norm(truth)
            cos = float(np.dot(vec, truth) / n) if n > 0 else 0.0
            axis = np.abs(truth).max() > AXIS_COS * np.linalg.norm(truth)
            for key in (name, f"{name}, {'axis-aligned' if axis else 'diagonal'}"):
                votes[key].append(bool(np.dot(vec, truth) > 0))
                cosines[key].append(cos)
    return {
        "scenes": len(votes["upright"]),
        "seconds": time.time() - start,
        "tiles": {k: (len(v), float(np.mean(v))) for k, v in hits.items()},
        "per_code": {k: (len(v), float(np.mean(v))) for k, v in per_code.items()},
        "row_vote": {k: (len(v), float(np.mean(v))) for k, v in votes.items()},
        "vote_cos_median": {k: float(np.median(v)) for k, v in cosines.items()},
    }


def _turn(img: np.ndarray, dets: list[Detection]) -> tuple[np.ndarray, list[Detection]]:
    """The photo turned a quarter counter-clockwise (np.rot90) with its boxes."""
    w = img.shape[1]
    turned = [
        Detection((y1, w - x2, y2, w - x1), d.score) for d in dets for x1, y1, x2, y2 in [d.box]
    ]
    return np.ascontiguousarray(np.rot90(img)), turned


def turned_votes(root: Path, pattern: str, orienter: Orienter) -> None:
    """For photos known to be upright: is the vote right with the photo turned 0/90/180/270?"""
    right = np.zeros(4, int)
    tiles: list[bool] = []
    images = sorted((root / "images").glob(pattern))
    for p in images:
        img = cv2.imread(str(p), cv2.IMREAD_COLOR)
        h, w = img.shape[:2]
        dets = [Detection(b, 1.0) for _c, b in read_yolo(root / "labels" / (p.stem + ".txt"), w, h)]
        if not dets:
            continue
        boxes = np.array([d.box for d in dets])
        probs = orienter.probs(np.stack([cut(img, d.box) for d in dets]))
        true_class = nearest(image_to_crop(np.tile([0.0, -1.0], (len(dets), 1)), boxes))
        tiles += list(probs.argmax(1) == true_class)
        truth = np.array([0.0, -1.0])  # photo up
        for k in range(4):
            right[k] += int(np.dot(orienter(img, dets).sum(axis=0), truth) > 0)
            img, dets = _turn(img, dets)
            truth = np.array([truth[1], -truth[0]])
    print(f"tile accuracy (faces taken as upright): {np.mean(tiles):.4f} ({len(tiles)} tiles)")
    for k in range(4):
        print(f"turned {90 * k:3d} degrees: vote right on {right[k]}/{len(images)} photos")


def bench_photos(root: Path, pattern: str, orienter: Orienter, show: Path | None) -> None:
    """Each labelled photo's summed face-top vector (and a picture of it with `show`)."""
    images = sorted((root / "images").glob(pattern))
    if not images:
        raise SystemExit(f"no images matching {pattern} under {root / 'images'}")
    if show:
        show.mkdir(parents=True, exist_ok=True)
    for p in images:
        img = cv2.imread(str(p), cv2.IMREAD_COLOR)
        if img is None:
            print(f"{p.name}: unreadable")
            continue
        h, w = img.shape[:2]
        labels = read_yolo(root / "labels" / (p.stem + ".txt"), w, h)
        dets = [Detection(box, 1.0) for _c, box in labels]
        vecs = orienter(img, dets)
        total = vecs.sum(axis=0) if len(vecs) else np.zeros(2)
        n = max(len(vecs), 1)
        ang = float(np.degrees(np.arctan2(total[0], -total[1])))  # 0 = photo up, clockwise
        print(f"{p.name[:40]:40s} tiles {len(dets):2d} vote ({total[0]:+6.2f}, {total[1]:+6.2f})"
              f" mean length {np.linalg.norm(total) / n:.2f} angle {ang:+5.0f} deg from photo-up")  # fmt: skip
        if show:
            scale = 640 / max(h, w)
            small = cv2.resize(img, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
            for d, v in zip(dets, vecs, strict=True):
                cx, cy = (np.array(d.center) * scale).astype(int)
                tip = (int(cx + v[0] * 25), int(cy + v[1] * 25))
                cv2.arrowedLine(small, (int(cx), int(cy)), tip, (0, 0, 255), 2, tipLength=0.3)
            c = np.array(small.shape[1::-1]) / 2
            t = total / n * 120
            cv2.arrowedLine(small, tuple(c.astype(int)), tuple((c + t).astype(int)),
                            (255, 0, 0), 4, tipLength=0.25)  # fmt: skip
            cv2.imwrite(str(show / (p.stem[:40] + ".png")), small)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("renders", nargs="?", type=Path, help="render folder (images/, meta/)")
    ap.add_argument("--model", default=None, help="ONNX model (default models/orientation.onnx)")
    ap.add_argument("--no-turn-average", action="store_true", help="read each crop only once")
    ap.add_argument("--limit", type=int, default=10**9, help="first N scenes only")
    ap.add_argument("--photos", type=Path, help="real photos folder (images/, YOLO labels/)")
    ap.add_argument("--glob", default="*", help="image name pattern for --photos")
    ap.add_argument("--show", type=Path, help="write PNGs of the --photos votes here")
    ap.add_argument(
        "--upright",
        action="store_true",
        help="the --photos are known to be upright (checked by eye): also score the vote "
        "with each photo turned 0/90/180/270 degrees",
    )
    args = ap.parse_args(argv)
    orienter = Orienter(args.model, turn_average=not args.no_turn_average)
    if args.photos:
        bench_photos(args.photos, args.glob, orienter, args.show)
        if args.upright:
            turned_votes(args.photos, args.glob, orienter)
        return 0
    if args.renders is None:
        ap.error("give a render folder or --photos DIR")
    r = bench_renders(args.renders, orienter, args.limit)
    print(f"{args.renders}: {r['scenes']} scenes in {r['seconds']:.0f}s "
          f"(classes {', '.join(CLASSES)}; turn average {not args.no_turn_average})")  # fmt: skip
    for k in ("all", "non-symmetric", "symmetric", "sideways"):
        if k in r["tiles"]:
            n, acc = r["tiles"][k]
            print(f"  tile accuracy {k:14s} {acc:.4f}  ({n} tiles)")
    for k, (n, acc) in sorted(r["row_vote"].items()):
        cos = r["vote_cos_median"][k]
        print(f"  row vote, {k:33s} {acc:.4f}  ({n} scenes; median cos to truth {cos:.3f})")
    worst = sorted(r["per_code"].items(), key=lambda kv: kv[1][1])
    print("  per code: " + ", ".join(f"{c} {a:.2f}" for c, (_n, a) in worst))
    return 0


if __name__ == "__main__":
    sys.exit(main())
