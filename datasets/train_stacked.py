"""Train the stacked-tile model (is a tile laid on this one?) and export ONNX.

A promoted kong (加杠) is laid as the pung it was, with the fourth tile on
the claimed, sideways tile. Seen from above the two tiles are one box; what
shows is the pair's height: a side wall twice as tall as its neighbours'.
The model reads the run-time crop of a tile's box widened `StackedConfig.margin`
times (`vision.stacked`) and answers stacked or not.

Labels come from rendered scenes (`python -m datasets.render --kind
promoted`, hands whose exposed pungs are mostly promoted kongs): the tile
lying on another (`stacked` in the meta) is a positive, cut at its own box
and at the pair's whole extent, the two ways a detector boxes the pair
(`meld_tiles` with `pairs`); every other tile of an exposed meld is a
negative, sideways ones four times as often as upright ones. With
`--detector-boxes DIR` the scenes of DIR are also cut where the run-time
detector boxes them, each box labelled as the meld tile it covers (IoU
`MIN_IOU`): at a table the detector's box of a pair is neither the top
tile's nor the pair's whole extent, and the model must read it as found.
Views are drawn half positive, half negative, each jittered, turned by a
random quarter and changed in colour, blur, noise and JPEG.
Run: `python -m datasets.train_stacked --renders DIR --out models/stacked.onnx --minutes 15`
(`--init models/stacked.onnx` continues the shipped model, its norms frozen).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import cv2
import numpy as np
import torch
import torch.nn.functional as F

from datasets.augment import photometric
from datasets.detector_crops import MIN_IOU, iou
from datasets.loader import stream
from datasets.scene.hands import meld_tiles
from datasets.timed import add_budget_options, train_for
from datasets.train_classifier import _parallel, export_onnx
from datasets.train_orientation import MARGIN, STORE, start_model, store_crop
from datasets.views import crop_warp, warp_crop
from vision.classify import cut, to_input, widened
from vision.config import DEFAULT

#: how often an upright meld tile is drawn as a negative, against a sideways one
UPRIGHT_WEIGHT = 0.25

_DETECTOR: list = []  # the run-time detector, made once per worker process


def _found_boxes(img: np.ndarray) -> np.ndarray:
    """The run-time detector's boxes (N,4) of a photo, as the reader first looks at it."""
    if not _DETECTOR:
        from vision.detect import Detector

        _DETECTOR.append(Detector())
    found, _ = _DETECTOR[0].look(img)
    return np.array([d.box for d in found], np.float64).reshape(-1, 4)


def _as_found(
    img: np.ndarray, tiles: list[tuple[tuple[float, ...], int, bool]]
) -> list[tuple[tuple[float, ...], int, bool]]:
    """(box, label, sideways) at each detector box covering a meld tile (`meld_tiles`):
    the label of the labelled box it overlaps most, at least `MIN_IOU`."""
    if not tiles:
        return []
    found = _found_boxes(img)
    if not len(found):
        return []
    overlap = iou(found, np.array([t[0] for t in tiles], np.float64))
    best = overlap.argmax(1)
    return [
        (tuple(float(v) for v in found[i]), tiles[j][1], tiles[j][2])
        for i, j in enumerate(best)
        if overlap[i, j] >= MIN_IOU
    ]


def _scene_crops(
    job: tuple[Path, bool],
) -> tuple[list[np.ndarray], list[int], list[float], list[tuple]]:
    """Stored crops (of the widened boxes), labels, sampling weights and widened sizes;
    with the job's flag also at the detector's boxes (`_as_found`)."""
    meta_path, found = job
    img = cv2.imread(str(meta_path.parent.parent / "images" / (meta_path.stem + ".jpg")))
    if img is None:
        return [], [], [], []
    crops, labels, weights, sizes = [], [], [], []
    tiles = meld_tiles(json.loads(meta_path.read_text()), pairs=True)
    for box, label, sideways in tiles + (_as_found(img, tiles) if found else []):
        wide = widened(box, DEFAULT.stacked.margin)
        crops.append(store_crop(img, wide))
        labels.append(label)
        weights.append(1.0 if sideways or label else UPRIGHT_WEIGHT)
        sizes.append((wide[2] - wide[0], wide[3] - wide[1]))
    return crops, labels, weights, sizes


def load(roots: list[Path], workers: int, found: tuple[Path, ...] = ()) -> tuple[np.ndarray, ...]:
    """Stored crops, labels, weights, sizes and scene ids of every rendered scene; the
    scenes under `found` also cut at the detector's boxes."""
    jobs = [(m, r in found) for r in roots for m in sorted((r / "meta").glob("*.json"))]
    if not jobs:
        raise SystemExit(f"no rendered scenes (meta/*.json) under {', '.join(map(str, roots))}")
    crops, labels, weights, sizes, scene = [], [], [], [], []
    for i, (c, lab, w, s) in enumerate(_parallel(_scene_crops, jobs, workers, "crops")):
        crops += c
        labels += lab
        weights += w
        sizes += s
        scene += [i] * len(c)
    return (
        np.stack(crops), np.array(labels), np.array(weights), np.array(sizes, np.float32),
        np.array(scene),
    )  # fmt: skip


def view(
    crop: np.ndarray, size: tuple[float, float], rng: np.random.Generator | None
) -> np.ndarray:
    """A view of a stored crop as run time cuts it (`cut` of the widened box)."""
    return warp_crop(crop, crop_warp(size, STORE, MARGIN, rng, size_jitter=0.12, tilt_share=0.5))


def heldout_crops(root: Path) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Run-time crops, labels and sideways flags of the meld tiles of a render folder."""
    crops, labels, sideways = [], [], []
    for meta_path in sorted((root / "meta").glob("*.json")):
        img = cv2.imread(str(root / "images" / (meta_path.stem + ".jpg")), cv2.IMREAD_COLOR)
        if img is None:
            continue
        for box, label, side in meld_tiles(json.loads(meta_path.read_text()), pairs=True):
            crops.append(cut(img, widened(box, DEFAULT.stacked.margin)))
            labels.append(label)
            sideways.append(side)
    return np.stack(crops), np.array(labels), np.array(sideways)


def predict(model: torch.nn.Module, crops: np.ndarray) -> np.ndarray:
    """P(stacked) of run-time crops (N,64,64,3) BGR uint8, averaged with the crop turned
    180 degrees as run time reads it (`vision.stacked.Stacker`)."""
    model.eval()
    out = []
    with torch.no_grad():
        for i in range(0, len(crops), 512):
            x = torch.from_numpy(to_input(crops[i : i + 512]))
            p = F.softmax(model(x), 1)[:, 1] + F.softmax(model(x.flip(2, 3)), 1)[:, 1]
            out.append((p / 2).numpy())
    model.train()
    return np.concatenate(out) if out else np.zeros(0, np.float32)


def report(name: str, p: np.ndarray, labels: np.ndarray, sideways: np.ndarray) -> str:
    """Recall on stacked tiles and false alarms on sideways / upright tiles at 0.5, 0.8 and 0.9."""
    parts = [
        f"{name}: {int(labels.sum())} stacked, {int((sideways & (labels == 0)).sum())} sideways"
    ]
    for thr in (0.5, 0.8, 0.9):
        hit = p >= thr
        recall = hit[labels == 1].mean() if (labels == 1).any() else float("nan")
        parts.append(
            f"@{thr}: recall {recall:.3f}, "
            f"false on sideways {int(hit[(labels == 0) & sideways].sum())}, "
            f"on upright {int(hit[(labels == 0) & ~sideways].sum())}"
        )
    return "; ".join(parts)


def train(args: argparse.Namespace) -> None:
    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    found = tuple(Path(r) for r in args.detector_boxes)
    roots = list(dict.fromkeys([*(Path(r) for r in args.renders), *found]))
    crops, labels, weights, sizes, scene = load(roots, args.workers, found)
    check = scene % 20 == 0
    print(
        f"crops: {len(crops)} ({int(labels.sum())} stacked), {int(check.sum())} to check",
        flush=True,
    )
    vcrops = np.stack([view(crops[i], sizes[i], None) for i in np.flatnonzero(check)])
    vlabels = labels[check]
    vside = weights[check] == 1.0
    pos = np.flatnonzero(~check & (labels == 1))
    neg = np.flatnonzero(~check & (labels == 0))
    neg_p = weights[neg] / weights[neg].sum()

    def make(r: np.random.Generator) -> tuple[torch.Tensor, torch.Tensor]:
        n_pos = args.batch // 2
        idx = np.concatenate([r.choice(pos, n_pos), r.choice(neg, args.batch - n_pos, p=neg_p)])
        views = [photometric(view(crops[i], sizes[i], r), r) for i in idx]
        return torch.from_numpy(to_input(np.stack(views))), torch.from_numpy(labels[idx])

    batches = stream(make, args.workers, args.seed)
    model = start_model(args.init, classes=2)  # the orienter's net: position in the crop matters

    def loss(logits: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
        return F.cross_entropy(logits, y, label_smoothing=0.05)

    def check() -> str:
        return report("check", predict(model, vcrops), vlabels, vside)

    step = train_for(
        model, batches, loss, args.lr, args.minutes, "stacked", args.check_every, check
    )
    print(f"trained {step} batches of {args.batch}", flush=True)
    print(report("check", predict(model, vcrops), vlabels, vside), flush=True)
    export_onnx(model, Path(args.out))
    print(f"exported {args.out} ({Path(args.out).stat().st_size / 1e3:.0f} kB)", flush=True)
    for folder in args.heldout:
        hc, hl, hs = heldout_crops(Path(folder))
        print(report(folder, predict(model, hc), hl, hs), flush=True)


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--renders", action="append", required=True, help="rendered scenes (repeatable)")
    add_budget_options(p, "models/stacked.onnx", minutes=15, check_every=300)
    p.add_argument(
        "--heldout", action="append", default=[], help="render folder to report on at the end"
    )
    p.add_argument("--init", default="", help="exported stacked model to continue (default: new)")
    p.add_argument(
        "--detector-boxes",
        action="append",
        default=[],
        help="rendered scenes also cut at the run-time detector's boxes (repeatable)",
    )
    return p


if __name__ == "__main__":
    train(parser().parse_args())
