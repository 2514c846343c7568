"""Find cmd-v4 training photos whose boxes do not sit on their tiles.

About a third of cmd-v4's training copies were made by rotating the source
photo, and in some of them the boxes were moved wrongly: they lie shifted
off the tiles or inflated over their neighbours (valid is not affected).
A detector trained on them learns boxes that cover half a tile. A photo is
set aside when the bundled detector matches (IoU >= 0.5) fewer than half of
its labelled boxes *and* its boxes overlap one another as tiles never do,
or when it matches fewer than a quarter. The names go to
`datasets/cmdv4_excluded.txt`, which the trainers skip.
Run: `python -m datasets.label_check` (about a minute on 2 cores).
"""

from __future__ import annotations

import argparse
from pathlib import Path

import cv2
import numpy as np

from datasets.cmdv4 import Sample, load_split
from vision.detect import ious

EXCLUDED = Path(__file__).with_name("cmdv4_excluded.txt")


def overlap_share(boxes: np.ndarray) -> float:
    """Share of boxes overlapping another box with IoU > 0.25 (tiles in a photo barely do)."""
    hits = 0
    for i in range(len(boxes)):
        o = ious(boxes[i], boxes)
        o[i] = 0
        hits += bool(o.max(initial=0) > 0.25)
    return hits / max(len(boxes), 1)


def matched_share(gt: np.ndarray, found: np.ndarray) -> float:
    """Share of labelled boxes that a detected box matches with IoU >= 0.5."""
    if len(gt) == 0:
        return 1.0
    return float(np.mean([ious(g, found).max(initial=0) >= 0.5 for g in gt]))


def suspicious(matched: float, overlap: float) -> bool:
    return (matched < 0.5 and overlap > 0.2) or matched < 0.25


def check(samples: list[Sample], detector) -> list[str]:
    """Names of the photos whose labels look misplaced."""
    from tqdm import tqdm  # a training extra: the checks above run without it

    bad = []
    for s in tqdm(samples, desc="label check", mininterval=5):
        img = cv2.imread(str(s.image_path), cv2.IMREAD_COLOR)
        h, w = img.shape[:2]
        gt = np.array(s.boxes, np.float32) * np.array([w, h, w, h], np.float32)
        found = np.array([d.box for d in detector(img)], np.float32).reshape(-1, 4)
        if suspicious(matched_share(gt, found), overlap_share(gt)):
            bad.append(s.image_path.name)
    return bad


def load_excluded(path: Path = EXCLUDED) -> set[str]:
    """File stems (no extension, so re-encoded copies match) of the photos set aside."""
    if not path.is_file():
        return set()
    lines = (ln.strip() for ln in path.read_text().splitlines())
    return {Path(ln).stem for ln in lines if ln and not ln.startswith("#")}


def usable(samples: list[Sample], path: Path = EXCLUDED) -> list[Sample]:
    """The samples whose photo is not set aside."""
    bad = load_excluded(path)
    return [s for s in samples if s.image_path.stem not in bad]


def main(argv: list[str] | None = None) -> None:
    from vision.detect import Detector

    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--data", default=None, help="cmd-v4 root (default ../shared/datasets/cmd-v4)")
    p.add_argument("--out", default=str(EXCLUDED))
    a = p.parse_args(argv)
    samples = load_split("train", a.data)
    bad = check(samples, Detector())
    head = "# cmd-v4 train photos whose boxes look misplaced (python -m datasets.label_check)\n"
    Path(a.out).write_text(head + "".join(f"{n}\n" for n in sorted(bad)))
    print(f"{len(bad)} of {len(samples)} training photos set aside -> {a.out}")


if __name__ == "__main__":
    main()
