"""Train the tile orientation model (which way a tile's face top points) and export ONNX.

Labels come from rendered scenes: each tile's face corners (TL, TR, BR,
BL in the face's reading order) give its "face top" direction in the
photo, mid(TL,TR) - mid(BL,BR). Each face-up tile is cut once with a
margin; training then samples views exactly as run time cuts them
(`vision.classify.cut`: box stretched to 64x64, wide boxes turned a
quarter) with a random quarter turn of the tile, small box jitter,
rotation and photometric changes. The face-top direction follows every
warp, so the 4-class target (up/right/down/left in the crop, shared
between neighbours by angle) is exact for each view.
Run: `python -m datasets.train_orientation --renders DIR --out models/orientation.onnx --minutes 20`.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import cv2
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

from datasets.augment import photometric
from datasets.loader import stream
from datasets.onnx_init import evaluating, freeze_norms
from datasets.timed import add_budget_options, train_for
from datasets.train_classifier import _parallel, conv_bn, export_onnx, load_onnx_weights
from datasets.views import crop_warp, warp_crop
from vision.classify import cut, to_input
from vision.orient import image_to_crop, nearest_class, soft_targets

STORE = 96  # stored crop side; the box covers the central STORE / MARGIN px
MARGIN = 1.5


class OrientNet(nn.Module):
    """Tiny CNN: 64x64 RGB crop -> 4 logits (face top up, right, down, left in the crop).

    The last feature map is flattened, not pooled, so where a stroke lies
    in the crop (top or bottom) reaches the classifier.
    """

    def __init__(self, w: tuple[int, ...] = (16, 24, 48, 64, 96), classes: int = 4):
        super().__init__()
        self.features = nn.Sequential(
            conv_bn(3, w[0], 2), conv_bn(w[0], w[1], 2),
            conv_bn(w[1], w[2]), nn.MaxPool2d(2),
            conv_bn(w[2], w[3]), nn.MaxPool2d(2),
            conv_bn(w[3], w[4]),
        )  # fmt: skip
        self.drop = nn.Dropout(0.2)
        self.fc = nn.Linear(w[4] * 16, classes)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.fc(self.drop(self.features(x).flatten(1)))


def face_up_vector(corners: list) -> np.ndarray:
    """Face top direction in the photo from the face corners (TL, TR, BR, BL)."""
    c = np.asarray(corners, np.float64)
    return (c[0] + c[1]) / 2 - (c[3] + c[2]) / 2


def scene_tiles(meta_path: Path) -> list[tuple[tuple[float, ...], np.ndarray, str]]:
    """(box, face-up vector in the photo, code) of each face-up tile of a rendered scene."""
    meta = json.loads(meta_path.read_text())
    out = []
    for t in meta["tiles"]:
        x1, y1, x2, y2 = t["box"]
        if t.get("face_down") or x2 - x1 < 8 or y2 - y1 < 8:
            continue
        up = face_up_vector(t["corners"])
        if np.linalg.norm(up) < 1:
            continue
        out.append((tuple(t["box"]), up, t["code"]))
    return out


def store_crop(img: np.ndarray, box: tuple[float, ...]) -> np.ndarray:
    """The box with a margin, stretched to STORE x STORE (border replicated)."""
    x1, y1, x2, y2 = box
    cx, cy = (x1 + x2) / 2, (y1 + y2) / 2
    hw, hh = (x2 - x1) * MARGIN / 2, (y2 - y1) * MARGIN / 2
    src = np.float32([[cx - hw, cy - hh], [cx + hw, cy - hh], [cx - hw, cy + hh]])
    dst = np.float32([[0, 0], [STORE, 0], [0, STORE]])
    big = max(hw, hh) * 2 / STORE
    if big > 1.5:  # shrink first so the warp does not alias
        f = 1 / big
        img = cv2.resize(img, None, fx=f, fy=f, interpolation=cv2.INTER_AREA)
        src = src * f
    m = cv2.getAffineTransform(src, dst)
    return cv2.warpAffine(
        img, m, (STORE, STORE), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
    )


def _scene_crops(meta_path: Path) -> tuple[list[np.ndarray], list[np.ndarray], list[tuple]]:
    """Stored crops, face-up vectors in stored-crop pixels, and box sizes of one scene."""
    img_path = meta_path.parent.parent / "images" / (meta_path.stem + ".jpg")
    img = cv2.imread(str(img_path), cv2.IMREAD_COLOR)
    if img is None:
        return [], [], []
    crops, ups, sizes = [], [], []
    for box, up, _code in scene_tiles(meta_path):
        bw, bh = box[2] - box[0], box[3] - box[1]
        crops.append(store_crop(img, box))
        s = STORE / MARGIN
        ups.append(np.array([up[0] * s / bw, up[1] * s / bh]))
        sizes.append((bw, bh))
    return crops, ups, sizes


def load_renders(
    roots: list[Path], limit: int, workers: int, rng: np.random.Generator
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Stored crops (N,STORE,STORE,3), up vectors (N,2), box sizes (N,2), scene id (N,)."""
    metas = [m for r in roots for m in sorted((r / "meta").glob("*.json"))]
    if not metas:
        raise SystemExit(f"no rendered scenes (meta/*.json) under {', '.join(map(str, roots))}")
    rng.shuffle(metas)
    crops, ups, sizes, scene = [], [], [], []
    for i, (c, u, s) in enumerate(_parallel(_scene_crops, metas, workers, "crops")):
        crops += c
        ups += u
        sizes += s
        scene += [i] * len(c)
        if len(crops) >= limit:
            break
    return np.stack(crops), np.array(ups), np.array(sizes, np.float32), np.array(scene)


def view(
    crop: np.ndarray, up: np.ndarray, size: tuple[float, float], rng: np.random.Generator | None
) -> tuple[np.ndarray, np.ndarray]:
    """A view of a stored crop as `cut` makes it, and the face-up vector in that view.

    rng=None gives the plain run-time view. Otherwise the tile is turned by a
    random quarter (so all four answers occur equally), jittered and
    slightly rotated; a box that ends up wider than tall is turned upright
    as run time does.
    """
    m = crop_warp(size, STORE, MARGIN, rng, size_jitter=0.08, tilt_share=1.0)
    return warp_crop(crop, m), m[:, :2] @ up


def heldout_crops(root: Path, limit: int = 10**9) -> tuple[np.ndarray, np.ndarray, list[str]]:
    """Run-time crops (`cut` on the full photo), true crop classes and codes of a render folder."""
    crops, labels, codes = [], [], []
    for meta_path in sorted((root / "meta").glob("*.json"))[:limit]:
        img = cv2.imread(str(root / "images" / (meta_path.stem + ".jpg")), cv2.IMREAD_COLOR)
        if img is None:
            continue
        for box, up, code in scene_tiles(meta_path):
            crops.append(cut(img, box))
            labels.append(int(nearest_class(image_to_crop(up, box))[0]))
            codes.append(code)
    return np.stack(crops), np.array(labels), codes


def predict(model: nn.Module, crops: np.ndarray) -> np.ndarray:
    """(N,4) probabilities of run-time crops (N,64,64,3) BGR uint8."""
    out = []
    with evaluating(model), torch.no_grad():
        for i in range(0, len(crops), 512):
            out.append(F.softmax(model(torch.from_numpy(to_input(crops[i : i + 512]))), 1).numpy())
    return np.concatenate(out) if out else np.zeros((0, 4), np.float32)


def start_model(init: str, classes: int = 4) -> OrientNet:
    """A new network, or with `init` the exported model it continues (the orienter, or the
    stacked-tile model with `classes` 2): exactly its function, its norms folded and kept
    frozen (`datasets.onnx_init`)."""
    model = OrientNet(classes=classes)
    if init:
        load_onnx_weights(model, Path(init))
        freeze_norms(model)
    return model


def train(args: argparse.Namespace) -> None:
    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    rng = np.random.default_rng(args.seed)
    crops, ups, sizes, scene = load_renders(
        [Path(r) for r in args.renders], args.max_crops, args.workers, rng
    )
    valid = scene % 20 == 0  # every 20th scene: a plain-view check while training
    print(f"crops: {len(crops)} train, {valid.sum()} valid", flush=True)
    tr = np.flatnonzero(~valid)
    vcrops, vlabels = [], []
    for i in np.flatnonzero(valid):
        v, u = view(crops[i], ups[i], sizes[i], None)
        vcrops.append(v)
        vlabels.append(int(nearest_class(u)[0]))
    vcrops, vlabels = np.stack(vcrops), np.array(vlabels)

    def make(r: np.random.Generator) -> tuple[torch.Tensor, torch.Tensor]:
        idx = r.choice(tr, args.batch)
        views, targets = [], []
        for i in idx:
            v, u = view(crops[i], ups[i], sizes[i], r)
            views.append(photometric(v, r))
            targets.append(u)
        y = soft_targets(np.array(targets)).astype(np.float32)
        return torch.from_numpy(to_input(np.stack(views))), torch.from_numpy(y)

    batches = stream(make, args.workers, args.seed)
    model = start_model(args.init)

    def check() -> str:
        return f"valid acc {float((predict(model, vcrops).argmax(1) == vlabels).mean()):.4f}"

    step = train_for(
        model,
        batches,
        F.cross_entropy,
        args.lr,
        args.minutes,
        "orientation",
        args.check_every,
        check,
    )
    acc = float((predict(model, vcrops).argmax(1) == vlabels).mean())
    print(f"trained {step} batches of {args.batch}; valid acc {acc:.4f}", flush=True)
    export_onnx(model, Path(args.out))
    print(f"exported {args.out} ({Path(args.out).stat().st_size / 1e3:.0f} kB)", flush=True)
    if args.heldout and Path(args.heldout).is_dir():
        hc, hl, _codes = heldout_crops(Path(args.heldout))
        hacc = float((predict(model, hc).argmax(1) == hl).mean())
        print(f"held-out {args.heldout}: {len(hl)} tiles, accuracy {hacc:.4f}", flush=True)


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument(
        "--renders", action="append", required=True, help="rendered scenes dir (repeatable)"
    )
    add_budget_options(p, "models/orientation.onnx", minutes=20, check_every=500)
    p.add_argument("--max-crops", type=int, default=80000)
    p.add_argument("--init", default="", help="exported orienter to continue (default: new)")
    p.add_argument(
        "--heldout", default="", help="render folder (held-out art styles) for a final check"
    )
    return p


if __name__ == "__main__":
    train(parser().parse_args())
