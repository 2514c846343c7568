"""Train the single-class tile detector (CenterNet-style) from scratch and export ONNX.

Why CenterNet: one heatmap of tile centres plus a size/offset regression at
stride 4 needs no anchors and no rotation handling (a tile at any angle is
just a peak with a box), and a small fully-convolutional net trains on CPU.
Run: `python -m datasets.train_detector --epochs 30` (see `datasets.train`).
"""

from __future__ import annotations

import argparse
import math
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from tqdm import tqdm

from datasets import ledger
from datasets.augment import photometric
from datasets.cmdv4 import Sample, load_split
from datasets.label_check import usable
from datasets.loader import stream
from datasets.onnx_init import evaluating, load_folded
from datasets.render import read_yolo
from datasets.views import CROP, make_targets, random_view
from vision.runtime import normalised

#: the detector's input (long side) for a photo of a whole table, whose tiles are small
TABLE_INPUT = 1280


def conv_bn(cin: int, cout: int, k: int = 3, s: int = 1) -> nn.Sequential:
    return nn.Sequential(
        nn.Conv2d(cin, cout, k, s, k // 2, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True)
    )


class Res(nn.Module):
    """Two-conv residual block."""

    def __init__(self, c: int):
        super().__init__()
        self.a = conv_bn(c, c)
        self.b = nn.Sequential(nn.Conv2d(c, c, 3, 1, 1, bias=False), nn.BatchNorm2d(c))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return F.relu(x + self.b(self.a(x)))


class TileNet(nn.Module):
    """Backbone to stride 32, FPN-style top-down path back to stride 4, CenterNet head.

    Input: normalised RGB (N,3,H,W), H and W multiples of 32.
    Output: (N,5,H/4,W/4): heat logit, log w, log h (in stride cells), dx, dy.
    """

    def __init__(self, w: tuple[int, ...] = (16, 32, 64, 96, 128), head: int = 32):
        super().__init__()
        self.stem = nn.Sequential(conv_bn(3, w[0], s=2), conv_bn(w[0], w[1], s=2))
        self.s8 = nn.Sequential(conv_bn(w[1], w[2], s=2), Res(w[2]))
        self.s16 = nn.Sequential(conv_bn(w[2], w[3], s=2), Res(w[3]), Res(w[3]))
        self.s32 = nn.Sequential(conv_bn(w[3], w[4], s=2), Res(w[4]), Res(w[4]))
        self.lat32 = nn.Conv2d(w[4], head, 1)
        self.lat16 = nn.Conv2d(w[3], head, 1)
        self.lat8 = nn.Conv2d(w[2], head, 1)
        self.lat4 = nn.Conv2d(w[1], head, 1)
        self.sm16 = conv_bn(head, head)
        self.sm8 = conv_bn(head, head)
        self.sm4 = conv_bn(head, head)
        self.out = nn.Conv2d(head, 5, 1)
        nn.init.constant_(self.out.bias, 0.0)
        with torch.no_grad():
            self.out.bias[0] = -4.6  # start with a low centre probability (focal-loss practice)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        c4 = self.stem(x)
        c8 = self.s8(c4)
        c16 = self.s16(c8)
        c32 = self.s32(c16)
        p = self.lat32(c32)
        p = self.sm16(self.lat16(c16) + F.interpolate(p, scale_factor=2.0, mode="nearest"))
        p = self.sm8(self.lat8(c8) + F.interpolate(p, scale_factor=2.0, mode="nearest"))
        p = self.sm4(self.lat4(c4) + F.interpolate(p, scale_factor=2.0, mode="nearest"))
        return self.out(p)


def load_images(samples: list[Sample]) -> list[np.ndarray]:
    return [cv2.imread(str(s.image_path), cv2.IMREAD_COLOR) for s in tqdm(samples, desc="load")]


def load_render(root: Path, limit: int, seed: int) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """Rendered scenes (YOLO labels, every tile a box, face-down ones too), long side 640."""
    paths = sorted((root / "images").glob("*.jpg"))
    np.random.default_rng(seed).shuffle(paths)
    imgs, boxes = [], []
    for p in tqdm(paths[:limit], desc="load render", mininterval=5):
        img = cv2.imread(str(p), cv2.IMREAD_COLOR)
        if img is None:
            continue
        f = 640 / max(img.shape[:2])
        img = cv2.resize(img, None, fx=f, fy=f, interpolation=cv2.INTER_AREA)
        h, w = img.shape[:2]
        b = [box for _, box in read_yolo(root / "labels" / (p.stem + ".txt"), w, h)]
        if b:
            imgs.append(img)
            boxes.append(np.array(b, np.float32))
    return imgs, boxes


def to_tensor(img: np.ndarray) -> np.ndarray:
    return normalised(img, np.empty((3, *img.shape[:2]), np.float32))


def focal_loss(logit: torch.Tensor, heat: torch.Tensor, ignore: torch.Tensor) -> torch.Tensor:
    p = torch.sigmoid(logit).clamp(1e-4, 1 - 1e-4)
    pos = heat.eq(1).float()
    neg = (1 - pos) * (1 - ignore)
    pos_loss = torch.log(p) * (1 - p) ** 2 * pos
    neg_loss = torch.log(1 - p) * p**2 * (1 - heat) ** 4 * neg
    n = pos.sum().clamp(min=1)
    return -(pos_loss.sum() + neg_loss.sum()) / n


@dataclass
class TableSet:
    """Whole-table renders, kept as JPEG bytes and decoded for each view: a table's tiles
    are small, so its views are taken at the larger input the reader gives such a photo."""

    jpegs: list[bytes] = field(default_factory=list)
    boxes: list[np.ndarray] = field(default_factory=list)
    long_side: int = TABLE_INPUT

    def view(self, i: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
        img = cv2.imdecode(np.frombuffer(self.jpegs[i], np.uint8), cv2.IMREAD_COLOR)
        return random_view(img, self.boxes[i], rng, long_side=self.long_side)


def load_table(root: Path, limit: int, seed: int) -> TableSet:
    """Whole-table renders with their YOLO boxes (the part in view of a tile partly hidden)."""
    paths = sorted((root / "images").glob("*.jpg"))
    np.random.default_rng(seed).shuffle(paths)
    table = TableSet()
    for p in tqdm(paths[:limit], desc="load tables", mininterval=5):
        data = p.read_bytes()
        img = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
        if img is None:
            continue
        h, w = img.shape[:2]
        b = [box for _, box in read_yolo(root / "labels" / (p.stem + ".txt"), w, h)]
        if b:
            table.jpegs.append(data)
            table.boxes.append(np.array(b, np.float32))
    return table


def batch(imgs, boxes_list, idx, rng, halves=None, table: TableSet | None = None):
    """Training views of the photos `idx` picks; indices past `imgs` are whole tables."""
    xs, hs, rs, ms, igs = [], [], [], [], []
    for i in idx:
        if i >= len(imgs):
            img, b = table.view(i - len(imgs), rng)
        else:
            img, b = random_view(imgs[i], boxes_list[i], rng, halves[i] if halves else None)
        img = photometric(img, rng)
        heat, reg, mask, ign = make_targets(b, CROP)
        xs.append(to_tensor(img))
        hs.append(heat)
        rs.append(reg)
        ms.append(mask)
        igs.append(ign)
    t = [torch.from_numpy(np.stack(a)) for a in (xs, hs, rs, ms, igs)]
    return t


def loss_fn(out, heat, reg, mask, ign):
    lh = focal_loss(out[:, 0], heat, ign)
    m = mask.unsqueeze(1)
    n = mask.sum().clamp(min=1)
    lwh = (F.l1_loss(out[:, 1:3], reg[:, 0:2], reduction="none") * m).sum() / n
    loff = (F.l1_loss(torch.sigmoid(out[:, 3:5]), reg[:, 2:4], reduction="none") * m).sum() / n
    return lh, lwh, loff


def evaluate(
    model: nn.Module,
    samples: list[Sample] | list[np.ndarray],
    imgs: list[np.ndarray],
    size: int | None = None,
) -> dict[str, float]:
    """Detector precision/recall at IoU 0.5 using the same decoding as run time, each photo
    at input `size` (default the reader's) and the reader's threshold; `samples` are cmd-v4
    samples or pixel boxes."""
    from vision.config import DEFAULT
    from vision.detect import INFER_SIZE, decode, ious, prepare

    device = next(model.parameters()).device
    tp = fp = n_gt = 0
    with evaluating(model), torch.no_grad():
        for s, img in zip(samples, imgs, strict=True):
            x, scale = prepare(img, size or INFER_SIZE)
            out = model(torch.from_numpy(x).to(device)).cpu().numpy()
            dets = decode(out, scale, img.shape[:2], DEFAULT.detect.threshold)
            h, w = img.shape[:2]
            if isinstance(s, np.ndarray):
                gt = s
            else:
                gt = np.array(s.boxes, np.float32) * np.array([w, h, w, h], np.float32)
            n_gt += len(gt)
            used = np.zeros(len(gt), bool)
            for d in dets:
                overlaps = ious(np.array(d.box, np.float32), gt)
                overlaps[used] = 0
                j = int(overlaps.argmax()) if len(overlaps) else -1
                if j >= 0 and overlaps[j] >= 0.5:
                    used[j] = True
                    tp += 1
                else:
                    fp += 1
    return {"precision": tp / max(tp + fp, 1), "recall": tp / max(n_gt, 1)}


def export_onnx(model: nn.Module, path: Path) -> None:
    model.eval()
    x = torch.zeros(1, 3, 384, 512)
    path.parent.mkdir(parents=True, exist_ok=True)
    torch.onnx.export(
        model, x, str(path), input_names=["image"], output_names=["out"],
        dynamic_axes={"image": {0: "n", 2: "h", 3: "w"}, "out": {0: "n", 2: "gh", 3: "gw"}},
        opset_version=17, dynamo=False,
    )  # fmt: skip


def halve(imgs: list[np.ndarray]) -> list[np.ndarray]:
    return [
        cv2.resize(
            im, (max(1, im.shape[1] // 2), max(1, im.shape[0] // 2)), interpolation=cv2.INTER_AREA
        )
        for im in imgs
    ]


@dataclass
class Data:
    """What one training run draws its views from, and the photos its checks read."""

    imgs: list[np.ndarray]
    boxes: list[np.ndarray]
    halves: list[np.ndarray]
    table: TableSet
    pick: np.ndarray  # probability of each photo (and each table) to give a view
    n_real: int
    checks: dict[str, tuple[list, list[np.ndarray], int | None]]
    about: dict


def _pick(n_real: int, n_render: int, n_table: int, render_share: float, table_share: float):
    """Each view comes from a table with probability table_share, a render with
    render_share, else a real photo (the shares of sources that are absent go to photos)."""
    shares = [1.0 - render_share * (n_render > 0) - table_share * (n_table > 0)]
    shares += [render_share if n_render else 0.0, table_share if n_table else 0.0]
    pick = np.concatenate(
        [
            np.full(n, share / max(n, 1))
            for n, share in zip((n_real, n_render, n_table), shares, strict=True)
        ]
    )
    return pick / pick.sum()


def load_data(args: argparse.Namespace) -> Data:
    train_s = load_split("train", args.data)
    if not args.keep_all:
        train_s = usable(train_s)
    if args.limit:
        train_s = train_s[: args.limit]
    imgs = load_images(train_s)
    boxes = [
        np.array(s.boxes, np.float32) * np.array([im.shape[1], im.shape[0]] * 2, np.float32)
        for s, im in zip(train_s, imgs, strict=True)
    ]
    n_real, n_render = len(imgs), 0
    if args.render and Path(args.render).is_dir():
        rimgs, rboxes = load_render(Path(args.render), args.render_images, args.seed)
        imgs, boxes, n_render = imgs + rimgs, boxes + rboxes, len(rimgs)
    table = TableSet()
    checks: dict[str, tuple[list, list[np.ndarray], int | None]] = {}
    if args.table and Path(args.table).is_dir():
        table = load_table(Path(args.table), args.table_images + args.table_checks, args.seed)
        k = min(args.table_checks, len(table.jpegs) // 5)
        decode = [
            cv2.imdecode(np.frombuffer(j, np.uint8), cv2.IMREAD_COLOR) for j in table.jpegs[:k]
        ]
        checks["table"] = (table.boxes[:k], decode, TABLE_INPUT)
        table = TableSet(table.jpegs[k:], table.boxes[k:])
    try:  # a small valid subset shows progress; a data bundle may leave valid out
        valid_s = load_split("valid", args.data)
    except FileNotFoundError:
        valid_s = []
    if valid_s:
        vsub = valid_s[:: max(1, len(valid_s) // args.eval_images)]
        checks["valid"] = (vsub, load_images(vsub), None)
    pick = _pick(n_real, n_render, len(table.jpegs), args.render_share, args.table_share)
    about = {"cmd-v4 train": n_real, "renders": f"{n_render} from {args.render}",
             "tables": f"{len(table.jpegs)} from {args.table}"}  # fmt: skip
    return Data(imgs, boxes, halve(imgs), table, pick, n_real, checks, about)


def start_model(args: argparse.Namespace, device: torch.device):
    """The network and its optimizer: from the run's checkpoint when there is one (its steps
    and seconds so far), else from `--init`."""
    model = TileNet()
    frozen = False
    if args.init and args.init.endswith(".onnx"):  # fine-tune the shipped detector
        load_folded(model, Path(args.init), torch.zeros(1, 3, 64, 64))
        frozen = True
    elif args.init:  # continue from an earlier run's weights
        model.load_state_dict(torch.load(args.init, map_location="cpu"))
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=1e-4)
    steps, seconds, frozen = ledger.resume(args.resume, model, opt, frozen)
    return model.to(device), opt, steps, seconds, frozen


def check(model: nn.Module, data: Data) -> dict[str, dict[str, float]]:
    """Precision and recall on each check set (the valid subset, held-aside tables)."""
    return {
        name: {k: round(v, 4) for k, v in evaluate(model, s, imgs, size).items()}
        for name, (s, imgs, size) in data.checks.items()
    }


def train(args: argparse.Namespace) -> None:
    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    data = load_data(args)
    device = torch.device(args.device)
    model, opt, steps_before, seconds_before, frozen = start_model(args, device)

    def make(r: np.random.Generator):
        idx = r.choice(len(data.pick), args.batch, p=data.pick)
        return batch(data.imgs, data.boxes, idx, r, data.halves, data.table)

    batches = stream(make, args.workers, args.seed + steps_before, pin=device.type == "cuda")
    out_dir = Path(args.out)
    out_dir.mkdir(parents=True, exist_ok=True)
    steps_per_epoch = args.steps_per_epoch or math.ceil(data.n_real / args.batch)
    run = Run(args, model, opt, steps_per_epoch * args.epochs, steps_before, seconds_before, frozen)
    before = check(model, data)
    print(f"before: {before}", flush=True)
    best = -1.0
    for epoch in range(args.epochs):
        losses = run.epoch(batches, steps_per_epoch, f"det epoch {epoch + 1}/{args.epochs}", device)
        torch.save(model.state_dict(), out_dir / "detector_last.pt")
        run.save()
        figures = check(model, data)
        f1 = _f1(figures.get("valid")) if "valid" in figures else epoch
        print(f"epoch {epoch + 1} {run.elapsed():.0f}s loss {losses} {figures}", flush=True)
        if f1 > best:
            best = f1
            torch.save(model.state_dict(), out_dir / "detector_best.pt")
        if run.out_of_time():
            print("time budget reached", flush=True)
            break
    final = out_dir / ("detector_last.pt" if args.keep == "last" else "detector_best.pt")
    model.load_state_dict(torch.load(final, map_location="cpu"))
    model.cpu()
    export_onnx(model, Path(args.export))
    print(f"exported {args.export} from {final.name} (best subset F1 {best:.3f})", flush=True)
    if args.resume:
        ledger.append_log(
            {"model": "detector", "steps_before": steps_before, "steps_after": run.steps,
             "seconds": round(run.elapsed(), 1), "device": str(device), "data": data.about,
             "exported": f"{Path(args.export).name} from {final.name}",
             "figures_before": before, "figures": check(model, data)},
            Path(args.log),
        )  # fmt: skip


def _f1(m: dict[str, float] | None) -> float:
    if not m:
        return 0.0
    return 2 * m["precision"] * m["recall"] / max(m["precision"] + m["recall"], 1e-9)


class Run(ledger.Run):
    """The detector's run: its epochs of steps."""

    def epoch(self, batches, n: int, desc: str, device: torch.device) -> list[float]:
        """Up to `n` steps; the running losses (heat, size, offset)."""
        bar = tqdm(range(n), desc=desc, mininterval=10)
        run = np.zeros(3)
        for step in bar:
            x, heat, reg, mask, ign = (t.to(device, non_blocking=True) for t in next(batches))
            lh, lwh, loff = loss_fn(self.model(x), heat, reg, mask, ign)
            self.opt.zero_grad()
            (lh + lwh + loff).backward()
            self.step()
            now = np.array([lh.item(), lwh.item(), loff.item()])
            run = 0.95 * run + 0.05 * now if step else now
            bar.set_postfix(heat=f"{run[0]:.3f}", wh=f"{run[1]:.3f}", off=f"{run[2]:.3f}")
            if self.out_of_time():  # stop mid-epoch on time
                break
        return run.round(3).tolist()


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--data", default=None, help="cmd-v4 root (default ../shared/datasets/cmd-v4)")
    p.add_argument("--epochs", type=int, default=30)
    p.add_argument("--batch", type=int, default=16)
    p.add_argument("--lr", type=float, default=3e-3)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--device", default="cpu")
    p.add_argument(
        "--workers", type=int, default=0, help="processes making training views (0: this one)"
    )
    p.add_argument(
        "--steps-per-epoch", type=int, default=0, help="default: one pass over the real photos"
    )
    p.add_argument(
        "--keep-all", action="store_true", help="also train on photos label_check set aside"
    )
    p.add_argument("--keep", choices=("best", "last"), default="best", help="checkpoint to export")
    p.add_argument("--render", default=None, help="rendered scenes dir with images/ and labels/")
    p.add_argument("--render-images", type=int, default=1000)
    p.add_argument("--render-share", type=float, default=0.3)
    p.add_argument("--table", default=None, help="whole-table renders (images/, labels/)")
    p.add_argument("--table-images", type=int, default=1500)
    p.add_argument("--table-share", type=float, default=0.4)
    p.add_argument(
        "--table-checks", type=int, default=20, help="tables held aside to measure progress"
    )
    p.add_argument(
        "--resume", default=None,
        help="checkpoint to continue from and write back (e.g. models/checkpoints/detector.pt); "
        "its run is added to --log",
    )  # fmt: skip
    p.add_argument("--log", default=str(ledger.LOG), help="log of the checkpoint's runs")
    p.add_argument("--save-minutes", type=float, default=10, help="checkpoint this often")
    p.add_argument(
        "--init", default=None,
        help="start from this state_dict (.pt) or exported detector (.onnx)",
    )  # fmt: skip
    p.add_argument(
        "--limit", type=int, default=0, help="use only the first N train images (smoke test)"
    )
    p.add_argument("--eval-images", type=int, default=60)
    p.add_argument(
        "--max-minutes", type=float, default=0, help="time budget: the schedule ends by then"
    )
    p.add_argument("--out", default="/work/data/runs/detector")
    p.add_argument(
        "--export", default=str(Path(__file__).resolve().parents[1] / "models" / "detector.onnx")
    )
    return p


if __name__ == "__main__":
    train(parser().parse_args())
