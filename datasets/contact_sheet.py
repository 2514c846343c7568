"""A grid of rendered (or any YOLO-labelled) pictures with their boxes drawn.

    python -m datasets.contact_sheet DIR --out sheet.jpg [--n 16] [--cell 480]

DIR holds ``images/`` and ``labels/`` (YOLO ``class cx cy w h``); when
``meta/`` is there too, the sheet also shows each picture's kind, style and
hand notation, so a person can check labels against what is drawn.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import cv2
import numpy as np

from datasets.render import read_yolo
from scorer.tiles import CODES

COLOURS = [(0, 0, 255), (0, 200, 0), (255, 80, 0), (0, 200, 255), (255, 0, 255)]


def annotate(img: np.ndarray, labels: list, caption: str = "") -> np.ndarray:
    """Draw each box with its code; `caption` goes along the top."""
    h, w = img.shape[:2]
    out = img.copy()
    font_scale = max(0.35, min(w, h) / 1400)
    for cls, box in labels:
        x1, y1, x2, y2 = (int(v) for v in box)
        col = COLOURS[cls % len(COLOURS)]
        cv2.rectangle(out, (x1, y1), (x2, y2), col, max(1, w // 640))
        name = CODES[cls] if 0 <= cls < len(CODES) else str(cls)
        cv2.putText(
            out,
            name,
            (x1 + 1, max(10, y1 - 2)),
            cv2.FONT_HERSHEY_SIMPLEX,
            font_scale,
            col,
            max(1, w // 640),
            cv2.LINE_AA,
        )
    if caption:
        cv2.rectangle(out, (0, 0), (w, int(28 * font_scale * 2)), (0, 0, 0), -1)
        cv2.putText(
            out,
            caption,
            (4, int(20 * font_scale * 2)),
            cv2.FONT_HERSHEY_SIMPLEX,
            font_scale * 1.3,
            (255, 255, 255),
            1,
            cv2.LINE_AA,
        )
    return out


def contact_sheet(folder: Path, n: int = 16, cell: int = 480, boxes: bool = True) -> np.ndarray:
    """Up to `n` annotated pictures of `folder`, tiled in a square-ish grid."""
    images = sorted((folder / "images").glob("*.jpg")) + sorted((folder / "images").glob("*.png"))
    if not images:
        raise FileNotFoundError(f"no pictures in {folder / 'images'}")
    images = images[:n]
    cols = int(np.ceil(np.sqrt(len(images))))
    rows = int(np.ceil(len(images) / cols))
    sheet = np.full((rows * cell, cols * cell, 3), 40, np.uint8)
    for k, path in enumerate(images):
        img = cv2.imread(str(path))
        if img is None:
            continue
        caption = path.stem
        meta_path = folder / "meta" / f"{path.stem}.json"
        if meta_path.exists():
            meta = json.loads(meta_path.read_text())
            caption = f"{meta.get('kind')} {meta.get('style')} {meta.get('hand') or ''}"
        labels = (
            read_yolo(folder / "labels" / f"{path.stem}.txt", *img.shape[1::-1]) if boxes else []
        )
        ann = annotate(img, labels, caption)
        scale = cell / max(ann.shape[:2])
        small = cv2.resize(
            ann,
            (int(ann.shape[1] * scale), int(ann.shape[0] * scale)),
            interpolation=cv2.INTER_AREA,
        )
        r, c = divmod(k, cols)
        sheet[r * cell : r * cell + small.shape[0], c * cell : c * cell + small.shape[1]] = small
    return sheet


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        prog="python -m datasets.contact_sheet", description=__doc__.split("\n")[0]
    )
    ap.add_argument("folder", type=Path)
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--n", type=int, default=16)
    ap.add_argument("--cell", type=int, default=480, help="pixels per grid cell")
    ap.add_argument("--no-boxes", action="store_true", help="pictures only")
    args = ap.parse_args(argv)
    try:
        sheet = contact_sheet(args.folder, args.n, args.cell, boxes=not args.no_boxes)
    except (FileNotFoundError, OSError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    cv2.imwrite(str(args.out), sheet)
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
