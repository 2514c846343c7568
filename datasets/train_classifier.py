"""Train the 43-class tile crop classifier from scratch and export ONNX.

Each labelled box is cut (with a 25 % margin) from its photo once; training
then samples jittered, rotated, recoloured views of these crops, exactly as
`vision.classify` cuts them at run time (box stretched to 64x64, turned
upright when wider than tall). Face-down tiles (`back`) are absent from
cmd-v4, so plain coloured tile backs are synthesised here, and rendered
scenes are added when `--render DIR` points to YOLO-labelled renders.
Run: `python -m datasets.train_classifier --epochs 12` (see `datasets.train`).
"""

from __future__ import annotations

import argparse
import hashlib
import multiprocessing as mp
from pathlib import Path

import cv2
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from tqdm import tqdm

from datasets import ledger
from datasets.augment import ink_hue, ink_width, line_art, photometric, rand_conv
from datasets.cmdv4 import Sample, load_split
from datasets.detector_crops import detector_crops, render_samples, row_view_crops
from datasets.label_check import usable
from datasets.loader import fork_safe, stream
from datasets.onnx_init import evaluating, load_folded
from datasets.render import read_yolo
from datasets.views import crop_warp, warp_crop
from scorer.tiles import BACK_INDEX, CODES, INDEX
from vision.classify import INPUT, to_input, widened

NUM_CLASSES = len(CODES)
STORE = 96  # stored crop side; the box covers the central STORE / MARGIN_FACTOR px
MARGIN_FACTOR = 1.5


def conv_bn(cin: int, cout: int, s: int = 1) -> nn.Sequential:
    return nn.Sequential(
        nn.Conv2d(cin, cout, 3, s, 1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True)
    )


WIDTHS = {"base": (32, 48, 96, 160), "wide": (48, 80, 144, 240)}


class CropNet(nn.Module):
    """Small VGG-style CNN: 64x64 RGB crop -> 43 logits (`wide`: for GPU-length training)."""

    def __init__(self, w: tuple[int, ...] = (32, 48, 96, 160)):
        super().__init__()
        self.features = nn.Sequential(
            conv_bn(3, w[0], 2),
            conv_bn(w[0], w[1]), conv_bn(w[1], w[1]), nn.MaxPool2d(2),
            conv_bn(w[1], w[2]), conv_bn(w[2], w[2]), nn.MaxPool2d(2),
            conv_bn(w[2], w[3]), conv_bn(w[3], w[3]),
        )  # fmt: skip
        self.drop = nn.Dropout(0.2)
        self.fc = nn.Linear(w[3], NUM_CLASSES)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = self.features(x)
        x = F.adaptive_avg_pool2d(x, 1).flatten(1)
        return self.fc(self.drop(x))


def load_onnx_weights(model: nn.Module, path: Path) -> None:
    """Start from an exported crop model, a classifier or the orienter (`datasets.onnx_init`;
    a network of run-time crops ending in a linear `fc`): exactly its function, norms
    folded into the convolutions and frozen by `freeze_norms`."""
    init = load_folded(model, path, torch.zeros(1, 3, INPUT, INPUT))
    with torch.no_grad():
        model.fc.weight.copy_(torch.tensor(init["fc.weight"]))
        model.fc.bias.copy_(torch.tensor(init["fc.bias"]))


def store_crop(img: np.ndarray, box: tuple[float, float, float, float]) -> np.ndarray:
    """The box with a margin, stretched to STORE x STORE (border replicated)."""
    x1, y1, x2, y2 = widened(box, MARGIN_FACTOR)
    src = np.float32([[x1, y1], [x2, y1], [x1, y2]])
    dst = np.float32([[0, 0], [STORE, 0], [0, STORE]])
    m = cv2.getAffineTransform(src, dst)
    big = max(x2 - x1, y2 - y1) / STORE
    if big > 1.5:  # shrink first so the warp does not alias
        f = 1 / big
        small = cv2.resize(img, None, fx=f, fy=f, interpolation=cv2.INTER_AREA)
        m = cv2.getAffineTransform(src * f, dst)
        img = small
    return cv2.warpAffine(
        img, m, (STORE, STORE), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
    )


def _sample_crops(s: Sample) -> tuple[list[np.ndarray], list[int], list[tuple[float, float]]]:
    img = cv2.imread(str(s.image_path), cv2.IMREAD_COLOR)
    h, w = img.shape[:2]
    crops, labels, sizes = [], [], []
    for b, c in zip(s.boxes, s.codes, strict=True):
        box = (b[0] * w, b[1] * h, b[2] * w, b[3] * h)
        bw, bh = box[2] - box[0], box[3] - box[1]
        if bw < 6 or bh < 6 or bw > 0.8 * w and bh > 0.8 * h:
            continue
        crops.append(store_crop(img, box))
        labels.append(INDEX[c])
        sizes.append((bw, bh))
    return crops, labels, sizes


def collect(
    split: str, root: str | None, workers: int = 0, keep_all: bool = False
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """All crops of a split: (N,STORE,STORE,3) uint8, labels (N,), box sizes (N,2) in pixels."""
    samples = load_split(split, root)
    if split == "train" and not keep_all:
        samples = usable(samples)
    crops, labels, sizes = [], [], []
    for c, lab, sz in _parallel(_sample_crops, samples, workers, f"crops {split}"):
        crops += c
        labels += lab
        sizes += sz
    return np.stack(crops), np.array(labels, np.int64), np.array(sizes, np.float32)


def _parallel(fn, items: list, workers: int, desc: str):
    """fn over items, in a process pool when workers > 1, in order, with a progress bar."""
    if workers > 1:
        with (
            fork_safe(),
            mp.get_context("fork").Pool(
                workers, initializer=cv2.setNumThreads, initargs=(1,)
            ) as pool,
        ):
            yield from tqdm(
                pool.imap(fn, items, chunksize=8), total=len(items), desc=desc, mininterval=5
            )
    else:
        yield from (fn(x) for x in tqdm(items, desc=desc, mininterval=5))


def synth_backs(
    n: int, rng: np.random.Generator, backgrounds: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Plain coloured tile backs (rounded body, optional face-coloured edge) on real backgrounds."""
    palette = [(40, 120, 40), (30, 90, 200), (60, 170, 220), (40, 40, 180), (150, 80, 30),
               (120, 60, 120), (20, 140, 90), (200, 200, 200), (80, 80, 80), (10, 100, 230)]  # fmt: skip
    crops, sizes = [], []
    for _ in range(n):
        bg = backgrounds[int(rng.integers(len(backgrounds)))].copy()
        bg = cv2.GaussianBlur(bg, (0, 0), rng.uniform(2, 6))
        img = bg
        col = np.array(palette[int(rng.integers(len(palette)))], np.float32)
        col = np.clip(col * rng.uniform(0.6, 1.3) + rng.normal(0, 20, 3), 0, 255)
        m = STORE / MARGIN_FACTOR
        x1, y1 = (STORE - m) / 2, (STORE - m) / 2
        x2, y2 = x1 + m, y1 + m
        body = np.zeros((STORE, STORE), np.uint8)
        r = int(rng.uniform(3, 12))
        cv2.rectangle(body, (int(x1) + r, int(y1)), (int(x2) - r, int(y2)), 255, -1)
        cv2.rectangle(body, (int(x1), int(y1) + r), (int(x2), int(y2) - r), 255, -1)
        for cx, cy in ((x1 + r, y1 + r), (x2 - r, y1 + r), (x1 + r, y2 - r), (x2 - r, y2 - r)):
            cv2.circle(body, (int(cx), int(cy)), r, 255, -1)
        layer = np.empty_like(img, dtype=np.float32)
        layer[:] = col
        if rng.random() < 0.5:  # the ivory side of the tile along one edge
            t = int(rng.uniform(4, 14))
            side = int(rng.integers(4))
            ivory = np.array([200, 225, 235], np.float32) * rng.uniform(0.7, 1.1)
            if side == 0:
                layer[int(y2) - t :, :] = ivory
            elif side == 1:
                layer[: int(y1) + t, :] = ivory
            elif side == 2:
                layer[:, int(x2) - t :] = ivory
            else:
                layer[:, : int(x1) + t] = ivory
        shade = np.linspace(rng.uniform(0.75, 1.0), rng.uniform(1.0, 1.25), STORE, dtype=np.float32)
        layer *= shade[:, None, None] if rng.random() < 0.5 else shade[None, :, None]
        layer += rng.normal(0, rng.uniform(2, 10), layer.shape).astype(np.float32)
        if rng.random() < 0.3:  # a back pattern or logo blob
            cv2.circle(
                layer,
                (STORE // 2, STORE // 2),
                int(rng.uniform(5, 20)),
                tuple(float(v) for v in col * 0.7),
                int(rng.choice([-1, 2])),
            )
        a = (cv2.GaussianBlur(body, (3, 3), 0).astype(np.float32) / 255)[:, :, None]
        out = img.astype(np.float32) * (1 - a) + layer * a
        crops.append(np.clip(out, 0, 255).astype(np.uint8))
        aspect = rng.uniform(0.65, 1.45)
        sizes.append((60 * aspect, 60.0))
    return np.stack(crops), np.array(sizes, np.float32)


def view(
    crop: np.ndarray, size: tuple[float, float], rng: np.random.Generator | None
) -> np.ndarray:
    """A training view of a stored crop as run time cuts it; rng=None gives the plain view."""
    return warp_crop(crop, crop_warp(size, STORE, MARGIN_FACTOR, rng))


def plain_chances(
    model: nn.Module, crops: np.ndarray, sizes: np.ndarray, desc: str = ""
) -> np.ndarray:
    """The model's chances on each crop's plain view, averaged with the view turned half
    round as at run time; with `desc`, a progress bar of that name."""
    device = next(model.parameters()).device
    out = []
    starts = range(0, len(crops), 256)
    with evaluating(model), torch.no_grad():
        for i in tqdm(starts, desc=desc, mininterval=20) if desc else starts:
            v = np.stack(
                [
                    view(c, s, None)
                    for c, s in zip(crops[i : i + 256], sizes[i : i + 256], strict=True)
                ]
            )
            x = torch.from_numpy(to_input(v)).to(device)
            p = F.softmax(model(x), 1) + F.softmax(model(torch.flip(x, dims=(2, 3))), 1)
            out.append((p / 2).cpu().numpy())
    return np.concatenate(out) if out else np.zeros((0, NUM_CLASSES), np.float32)


def evaluate(
    model: nn.Module, crops: np.ndarray, labels: np.ndarray, sizes: np.ndarray
) -> dict[str, float]:
    """Top-1 accuracy on plain views (with the run-time 180-degree test-time average)."""
    pred = plain_chances(model, crops, sizes).argmax(1)
    flowers = (labels >= 34) & (labels < 42)
    return {
        "acc": float((pred == labels).mean()),
        "flower_acc": float((pred[flowers] == labels[flowers]).mean()) if flowers.any() else 0.0,
    }


def export_onnx(model: nn.Module, path: Path) -> None:
    model.eval()
    path.parent.mkdir(parents=True, exist_ok=True)
    torch.onnx.export(
        model, torch.zeros(1, 3, INPUT, INPUT), str(path), input_names=["crops"], output_names=["logits"],
        dynamic_axes={"crops": {0: "n"}, "logits": {0: "n"}}, opset_version=17, dynamo=False,
    )  # fmt: skip


def _render_crops(p: Path) -> tuple[list[np.ndarray], list[int], list[tuple[float, float]]]:
    lbl = p.parent.parent / "labels" / (p.stem + ".txt")
    img = cv2.imread(str(p), cv2.IMREAD_COLOR) if lbl.is_file() else None
    if img is None:
        return [], [], []
    crops, labels, sizes = [], [], []
    for c, box in read_yolo(lbl, img.shape[1], img.shape[0]):
        bw, bh = box[2] - box[0], box[3] - box[1]
        if bw < 8 or bh < 8 or not 0 <= c < NUM_CLASSES:
            continue
        crops.append(store_crop(img, box))
        labels.append(c)
        sizes.append((bw, bh))
    return crops, labels, sizes


def load_render(
    root: Path, rng: np.random.Generator, limit: int, workers: int = 0
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Crops from rendered scenes (YOLO labels whose class is the index into CODES)."""
    imgs = sorted((root / "images").glob("*.*"))
    rng.shuffle(imgs)
    crops, labels, sizes = [], [], []
    for c, lab, sz in _parallel(_render_crops, imgs[:limit], workers, "crops render"):
        crops += c
        labels += lab
        sizes += sz
    if not crops:
        return (
            np.zeros((0, STORE, STORE, 3), np.uint8),
            np.zeros(0, np.int64),
            np.zeros((0, 2), np.float32),
        )
    return np.stack(crops), np.array(labels, np.int64), np.array(sizes, np.float32)


def _joined(a: tuple, b: tuple) -> tuple:
    """(crops, labels, sizes) of `a` followed by those of `b`."""
    return tuple(np.concatenate([x, y]) for x, y in zip(a, b, strict=True))


def _cache_name(stem: str, args: argparse.Namespace) -> str:
    """The file of crops cut at the detectors' boxes: one per pair of detectors, so a run
    with another detector never reuses crops cut at the first one's boxes."""
    key = hashlib.sha1(f"{args.detector}|{args.table_detector}".encode()).hexdigest()[:8]
    return f"{stem}_{key}.npz"


def detector_views(args: argparse.Namespace, out_dir: Path) -> tuple[tuple, tuple]:
    """Crops at the detector's boxes of train and valid (cached in `out_dir`), see
    `datasets.detector_crops`."""
    cache = out_dir / _cache_name("det_crops", args)
    if cache.is_file():
        z = np.load(cache)
        return (z["c"], z["l"], z["s"]), (z["vc"], z["vl"], z["vs"])
    train_set = usable(load_split("train", args.data))
    c, lab, sz = detector_crops(train_set, store_crop, args.detector, args.table_detector)
    try:
        v = detector_crops(
            load_split("valid", args.data), store_crop, args.detector, args.table_detector
        )
    except FileNotFoundError:
        v = (c[:0], lab[:0], sz[:0])
    np.savez(cache, c=c, l=lab, s=sz, vc=v[0], vl=v[1], vs=v[2])
    return (c, lab, sz), v


def render_detector_views(
    args: argparse.Namespace, out_dir: Path, rng: np.random.Generator
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Crops at the detector's boxes of `args.render_images` rendered scenes (cached)."""
    cache = out_dir / _cache_name("det_render_crops", args)
    if cache.is_file():
        z = np.load(cache)
        return z["c"], z["l"], z["s"]
    root = Path(args.render.split(",")[0])
    images = sorted((root / "images").glob("*.*"))
    rng.shuffle(images)
    c, lab, sz = detector_crops(
        render_samples(root, images[: args.render_images]),
        store_crop,
        args.detector,
        args.table_detector,
    )
    np.savez(cache, c=c, l=lab, s=sz)
    return c, lab, sz


def row_views(
    args: argparse.Namespace, out_dir: Path, rendered: bool
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Crops of the classifier's second view, the tile turned square to its row, of the
    `train` photos or of `args.render_images` rendered scenes (cached in `out_dir`)."""
    cache = out_dir / _cache_name("row_render_crops" if rendered else "row_crops", args)
    if cache.is_file():
        z = np.load(cache)
        return z["c"], z["l"], z["s"]
    if rendered:
        root = Path(args.render.split(",")[0])
        images = sorted((root / "images").glob("*.*"))
        np.random.default_rng(args.seed).shuffle(images)
        samples = render_samples(root, images[: args.render_images])
    else:
        samples = usable(load_split("train", args.data))
    c, lab, sz = row_view_crops(samples, STORE, MARGIN_FACTOR, args.detector, args.table_detector)
    np.savez(cache, c=c, l=lab, s=sz)
    return c, lab, sz


Crops = tuple[np.ndarray, np.ndarray, np.ndarray]  # crops, labels, sizes


def real_crops(args: argparse.Namespace, out_dir: Path) -> tuple[Crops, Crops, Crops | None]:
    """The real photos' crops (train, valid) and, with `--detector-boxes`, the valid crops
    at the detector's boxes; the train crops also cut at the detector's boxes and turned
    square to their rows when asked. Cached in `out_dir`."""
    cache = out_dir / "crops.npz"
    if cache.is_file():
        z = np.load(cache)
        train, valid = (z["c"], z["l"], z["s"]), (z["vc"], z["vl"], z["vs"])
    else:
        train = collect("train", args.data, args.workers, args.keep_all)
        try:  # a data bundle may leave valid out
            valid = collect("valid", args.data, args.workers)
        except FileNotFoundError:
            valid = tuple(a[:0] for a in train)
        np.savez(cache, c=train[0], l=train[1], s=train[2], vc=valid[0], vl=valid[1], vs=valid[2])
    dvalid = None
    if args.detector_boxes:
        more, dvalid = detector_views(args, out_dir)
        print(f"detector-box crops: train {len(more[0])} valid {len(dvalid[0])}", flush=True)
        train = _joined(train, more)
    if args.row_views:
        more = row_views(args, out_dir, rendered=False)
        print(f"row-view crops: train {len(more[0])}", flush=True)
        train = _joined(train, more)
    return train, valid, dvalid


def rendered_crops(args: argparse.Namespace, out_dir: Path, rng: np.random.Generator) -> Crops:
    """Crops of every rendered set of `--render` (comma-separated folders), and of the
    first one's detector boxes and row views when asked."""
    roots = [Path(r) for r in (args.render or "").split(",") if r and Path(r).is_dir()]
    if not roots:
        return (np.zeros((0, STORE, STORE, 3), np.uint8), np.zeros(0, np.int64),
                np.zeros((0, 2), np.float32))  # fmt: skip
    out = load_render(roots[0], rng, args.render_images, args.workers)
    for root in roots[1:]:
        out = _joined(out, load_render(root, rng, args.render_images, args.workers))
    print(f"render crops: {len(out[0])}", flush=True)
    if args.detector_boxes:
        out = _joined(out, render_detector_views(args, out_dir, rng))
    if args.row_views:
        out = _joined(out, row_views(args, out_dir, rendered=True))
    return out


def check_render_crops(args: argparse.Namespace, rng: np.random.Generator) -> Crops | None:
    """Crops of `--check-render`: scenes in tile art the run never trains on, whose accuracy
    each epoch tells how the run reads unfamiliar art (the check crops are of familiar
    art). Refused when the folder is also one the run trains on."""
    if not args.check_render:
        return None
    check = Path(args.check_render).resolve()
    trained = {Path(r).resolve() for r in (args.render or "").split(",") if r}
    if check in trained:
        raise SystemExit(f"--check-render {args.check_render} is also trained on (--render)")
    if not (check / "images").is_dir():
        raise SystemExit(f"--check-render {args.check_render}: no images/ folder there")
    return load_render(check, rng, args.check_images, args.workers)


def view_weights(labels: np.ndarray, rendered: np.ndarray, render_share: float) -> np.ndarray:
    """Each crop's chance to give a view: rarer classes more, and the rendered crops a fixed
    share of all views."""
    counts = np.bincount(labels, minlength=NUM_CLASSES).astype(np.float64)
    weights = 1.0 / np.sqrt(np.maximum(counts[labels], 1))
    if rendered.any() and (~rendered).any():
        weights[rendered] *= render_share / weights[rendered].sum()
        weights[~rendered] *= (1 - render_share) / weights[~rendered].sum()
    return weights / weights.sum()


def hard_weights(weights: np.ndarray, doubt: np.ndarray, share: float) -> np.ndarray:
    """A `share` of the views drawn in proportion to how far the starting model is from
    sure of each crop's class (1 - its chance), the rest as `weights` draws them: a run
    that continues a checkpoint spends its steps on the confusions it still makes instead
    of on the crops it already reads (run 18: `docs/experiments.md`, twenty-first round)."""
    hard = weights * doubt
    if share <= 0 or hard.sum() <= 0:
        return weights
    mixed = (1 - share) * weights + share * hard / hard.sum()
    return mixed / mixed.sum()


def start_model(args: argparse.Namespace, device: torch.device):
    """The network and optimizer: from the run's checkpoint when there is one (with its steps
    and seconds so far), else from `--init`."""
    model = CropNet(WIDTHS[args.width])
    frozen = False
    if args.init and args.init.endswith(".onnx"):  # fine-tune a shipped model
        load_onnx_weights(model, Path(args.init))
        frozen = True
    elif args.init:  # fine-tune from an earlier run (e.g. when rendered data arrives)
        model.load_state_dict(torch.load(args.init, map_location="cpu"))
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=5e-4)
    steps, seconds, frozen = ledger.resume(args.resume, model, opt, frozen)
    return model.to(device), opt, steps, seconds, frozen


def train(args: argparse.Namespace) -> None:
    torch.manual_seed(args.seed)
    rng = np.random.default_rng(args.seed)
    torch.set_num_threads(args.threads)
    out_dir = Path(args.out)
    out_dir.mkdir(parents=True, exist_ok=True)
    (crops, labels, sizes), (vcrops, vlabels, vsizes), dvalid = real_crops(args, out_dir)
    bcrops, bsizes = synth_backs(args.backs, rng, crops[rng.choice(len(crops), 400)])
    real = (np.concatenate([crops, bcrops]),
            np.concatenate([labels, np.full(len(bcrops), BACK_INDEX, np.int64)]),
            np.concatenate([sizes, bsizes]))  # fmt: skip
    # its own generator: asking for the check leaves the scenes trained on as they were
    unfamiliar = check_render_crops(args, np.random.default_rng(args.seed + 1))
    rendered = rendered_crops(args, out_dir, rng)
    crops, labels, sizes = _joined(real, rendered)
    is_rendered = np.arange(len(crops)) >= len(real[0])
    del real, rendered  # tables give ~130 crops each: three copies would not fit in memory
    print(f"train crops {len(crops)} valid crops {len(vcrops)}", flush=True)

    device = torch.device(args.device)
    model, opt, steps_before, seconds_before, frozen = start_model(args, device)
    weights = view_weights(labels, is_rendered, args.render_share)
    if args.hard_share > 0:
        chance = plain_chances(model, crops, sizes, "doubt")[np.arange(len(labels)), labels]
        weights = hard_weights(weights, 1 - chance, args.hard_share)
        print(f"crops the model doubts (chance < 0.5): {(chance < 0.5).sum()}", flush=True)

    def _inked(v: np.ndarray, r: np.random.Generator, label: int) -> np.ndarray:
        v = ink_hue(ink_width(v, r, args.ink_width), r, args.ink_hue)
        v = rand_conv(v, r, args.rand_conv)
        return v if label == BACK_INDEX else line_art(v, r, args.line_art)

    def make(r: np.random.Generator) -> tuple[torch.Tensor, torch.Tensor]:
        idx = r.choice(len(crops), args.batch, p=weights)
        v = np.stack(
            [photometric(_inked(view(crops[i], sizes[i], r), r, labels[i]), r) for i in idx]
        )
        return torch.from_numpy(to_input(v)), torch.from_numpy(labels[idx])

    batches = stream(
        make, args.workers, args.seed + steps_before, pin=args.device.startswith("cuda")
    )

    def check() -> dict[str, float]:
        m = evaluate(model, vcrops, vlabels, vsizes) if len(vcrops) else {}
        if dvalid is not None and len(dvalid[0]):
            m["detector_boxes_acc"] = evaluate(model, *dvalid)["acc"]
        if unfamiliar is not None and len(unfamiliar[0]):
            m["unfamiliar_acc"] = evaluate(model, *unfamiliar)["acc"]
        return {k: round(float(v), 4) for k, v in m.items()}

    total = args.samples // args.batch * args.epochs
    run = Run(args, model, opt, total, steps_before, seconds_before, frozen)
    before = check()
    print(f"before: {before}", flush=True)
    best = -1.0
    for epoch in range(args.epochs):
        loss = run.epoch(batches, device, f"cls epoch {epoch + 1}/{args.epochs}")
        torch.save(model.state_dict(), out_dir / "classifier_last.pt")
        run.save()
        m = check()
        print(f"epoch {epoch + 1} {run.elapsed():.0f}s loss {loss:.3f} {m}", flush=True)
        if m.get("acc", float(epoch)) > best:
            best = m.get("acc", float(epoch))
            torch.save(model.state_dict(), out_dir / "classifier_best.pt")
        if run.out_of_time():
            print("time budget reached", flush=True)
            break
    final = out_dir / ("classifier_last.pt" if args.keep == "last" else "classifier_best.pt")
    model.load_state_dict(torch.load(final, map_location="cpu"))
    model.cpu()
    export_onnx(model, Path(args.export))
    print(f"exported {args.export} from {final.name} (best valid acc {best:.4f})", flush=True)
    if args.resume:
        ledger.append_log(
            {"model": Path(args.resume).stem, "steps_before": steps_before,
             "steps_after": run.steps, "seconds": round(run.elapsed(), 1),
             "device": str(device),
             "data": {"crops": len(crops), "render": args.render,
                      "check_render": args.check_render,
                      "detector_boxes": boxes_from(args)},
             "exported": f"{Path(args.export).name} from {final.name}",
             "figures_before": before, "figures": check()},
            Path(args.log),
        )  # fmt: skip


def boxes_from(args: argparse.Namespace) -> str | None:
    """Which detectors cut the `--detector-boxes` crops, for the run's log line: a
    classifier learns its detector's boxes, so a run on another's is told apart."""
    if not args.detector_boxes:
        return None
    return f"{args.detector or 'bundled'}, tables {args.table_detector or 'bundled'}"


class Run(ledger.Run):
    """The classifier's run: epochs of `samples // batch` steps."""

    def epoch(self, batches, device: torch.device, desc: str) -> float:
        """One epoch of steps (fewer when the time runs out); the running loss."""
        bar = tqdm(range(self.args.samples // self.args.batch), desc=desc, mininterval=20)
        loss_avg = 0.0
        for step in bar:
            x, y = (t.to(device, non_blocking=True) for t in next(batches))
            loss = F.cross_entropy(self.model(x), y, label_smoothing=0.1)
            self.opt.zero_grad()
            loss.backward()
            self.step()
            loss_avg = 0.98 * loss_avg + 0.02 * loss.item() if step else loss.item()
            if step % 50 == 0:
                bar.set_postfix(loss=f"{loss_avg:.3f}", refresh=False)
            if self.out_of_time():  # stop mid-epoch on time
                break
        return loss_avg


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--data", default=None, help="cmd-v4 root (default ../shared/datasets/cmd-v4)")
    p.add_argument(
        "--render", default=None,
        help="rendered scenes (images/ and labels/); several folders comma-separated",
    )  # fmt: skip
    p.add_argument("--render-images", type=int, default=1500)
    p.add_argument(
        "--check-render", default=None,
        help="rendered scenes in art the run never trains on: their accuracy each epoch "
        "(unfamiliar_acc) judges the run on unfamiliar art without the held-out sets",
    )  # fmt: skip
    p.add_argument("--check-images", type=int, default=300, help="scenes of --check-render")
    p.add_argument(
        "--render-share", type=float, default=0.4, help="share of training views from renders"
    )
    p.add_argument("--epochs", type=int, default=12)
    p.add_argument("--samples", type=int, default=12000, help="training views per epoch")
    p.add_argument("--batch", type=int, default=64)
    p.add_argument("--lr", type=float, default=3e-3)
    p.add_argument("--backs", type=int, default=1500)
    p.add_argument(
        "--hard-share", type=float, default=0.0,
        help="share of views drawn by how unsure the starting model is of each crop",
    )  # fmt: skip
    p.add_argument(
        "--ink-width", type=float, default=0.0,
        help="share of training views with strokes thickened or thinned (other tile sets)",
    )  # fmt: skip
    p.add_argument(
        "--ink-hue", type=float, default=0.0,
        help="share of training views with coloured ink turned to another hue (other sets)",
    )  # fmt: skip
    p.add_argument(
        "--rand-conv", type=float, default=0.0,
        help="share of training views passed through a random convolution (other sets)",
    )  # fmt: skip
    p.add_argument(
        "--line-art", type=float, default=0.0,
        help="share of training views redrawn as the outlines of their strokes (other sets)",
    )  # fmt: skip
    p.add_argument(
        "--detector-boxes",
        action="store_true",
        help="also train on crops cut at the detector's boxes (datasets.detector_crops)",
    )
    p.add_argument(
        "--row-views",
        action="store_true",
        help="also train on the tiles cut turned square to their rows, run time's second view",
    )
    p.add_argument("--detector", default=None, help="detector ONNX for those (default: bundled)")
    p.add_argument(
        "--table-detector", default=None,
        help="table detector ONNX for those (default: bundled), e.g. a run about to ship",
    )  # fmt: skip
    p.add_argument(
        "--init",
        default=None,
        help="start from this state_dict (.pt) or exported classifier (.onnx)",
    )
    p.add_argument("--width", choices=sorted(WIDTHS), default="base", help="network width")
    p.add_argument(
        "--workers", type=int, default=0, help="processes making training views (0: this one)"
    )
    p.add_argument("--keep", choices=("best", "last"), default="best", help="checkpoint to export")
    p.add_argument(
        "--keep-all", action="store_true", help="also train on photos label_check set aside"
    )
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--device", default="cpu")
    p.add_argument("--max-minutes", type=float, default=0)
    p.add_argument(
        "--resume", default=None,
        help="checkpoint to continue from and write back (e.g. models/checkpoints/classifier.pt);"
        " its run is added to --log",
    )  # fmt: skip
    p.add_argument("--log", default=str(ledger.LOG), help="log of the checkpoint's runs")
    p.add_argument("--save-minutes", type=float, default=10, help="checkpoint this often")
    p.add_argument("--out", default="/work/data/runs/classifier")
    p.add_argument(
        "--export",
        default=str(Path(__file__).resolve().parents[1] / "models" / "classifier_fonts.onnx"),
    )
    return p


if __name__ == "__main__":
    train(parser().parse_args())
