"""Sets taught from photos of them laid out in order (`vision.tileset`): how many photos
teach their set right, wrong, or are refused, and why.

The photos come from `python -m datasets.render --kind set --styles S --count N --seed K
--out DIR`. A taught tile is right when the labelled tile whose centre lies nearest its
box's has the code its place gave it; a photo is taught right when every tile is. A photo taught
wrong is the failure that matters (its wrong names pull the table's later tiles the
wrong way); a refusal asks the player for another photo. `--turn DEG` turns
each photo first (counter-clockwise, the canvas grown to hold it), as a set
photographed from an angle; the taught tiles' boxes are turned back to be
judged.

    python -m bench.bench_teach DIR [--limit N] [--turn DEG]
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from pathlib import Path

import cv2
import numpy as np

from vision.errors import PhotoError
from vision.pipeline import teach_set


def judged(tiles: list[dict], meta: dict, back: np.ndarray | None = None) -> bool:
    """Whether every taught tile's code is its label's: the label whose centre lies
    nearest the tile's (its box's centre taken through `back`, a 2x3 affine map to the
    rendered photo, where the photo was turned)."""
    centres = np.array([[(b[0] + b[2]) / 2, (b[1] + b[3]) / 2] for b in _boxes(meta)])
    for t in tiles:
        x1, y1, x2, y2 = t["box"]
        at = np.array([(x1 + x2) / 2, (y1 + y2) / 2])
        if back is not None:
            at = back @ np.append(at, 1.0)
        if meta["tiles"][int(np.argmin(((centres - at) ** 2).sum(axis=1)))]["code"] != t["tile"]:
            return False
    return True


def _boxes(meta: dict) -> list[list[float]]:
    return [t["box"] for t in meta["tiles"]]


def turned(data: bytes, degrees: float) -> tuple[bytes, np.ndarray]:
    """The photo turned `degrees` counter-clockwise on a canvas grown to hold it (JPEG),
    and the affine map from its pixels back to the photo's."""
    image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    h, w = image.shape[:2]
    m = cv2.getRotationMatrix2D((w / 2, h / 2), degrees, 1.0)
    c, s = abs(m[0, 0]), abs(m[0, 1])
    size = (int(h * s + w * c), int(h * c + w * s))
    m[0, 2] += size[0] / 2 - w / 2
    m[1, 2] += size[1] / 2 - h / 2
    out = cv2.warpAffine(image, m, size, borderValue=(90, 90, 90))
    return cv2.imencode(".jpg", out)[1].tobytes(), cv2.invertAffineTransform(m)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.bench_teach", description=__doc__)
    ap.add_argument("root", type=Path, help="rendered set photos (datasets.render --kind set)")
    ap.add_argument("--limit", type=int, default=None, help="the first N photos only")
    ap.add_argument("--turn", type=float, default=0.0, help="turn each photo first (degrees)")
    args = ap.parse_args(argv)
    counts: Counter = Counter()
    reasons: Counter = Counter()
    agreed: list[float] = []
    for meta_path in sorted((args.root / "meta").glob("*.json"))[: args.limit]:
        meta = json.loads(meta_path.read_text())
        image = next((args.root / "images").glob(meta_path.stem + ".*"))
        data, back = image.read_bytes(), None
        if args.turn:
            data, back = turned(data, args.turn)
        try:
            out = teach_set(data, image.name)
        except PhotoError as exc:
            counts["refused"] += 1
            reasons[exc.message_id] += 1
            continue
        counts["taught right" if judged(out["set"], meta, back) else "taught wrong"] += 1
        agreed.append(out["agreed"] / len(out["set"]))
    total = sum(counts.values())
    print(f"{total} set photos: " + ", ".join(f"{k} {counts[k]}" for k in sorted(counts)))
    print("refused for: " + (", ".join(f"{k} {n}" for k, n in reasons.most_common()) or "-"))
    if agreed:
        print(f"tiles the reader read as their places say: mean {sum(agreed) / len(agreed):.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
