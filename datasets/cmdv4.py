"""Loader for the cmd-v4 real-photo dataset ("Chinese Mahjong Detection", Roboflow, CC BY 4.0).

The dataset uses its own class order; this module maps it to the project's
tile codes (`scorer.tiles.CODES`) so training and benchmarks never deal with
the foreign numbering. Polygon label lines become their bounding box, and
empty label files are skipped because their photos do show tiles (unlabelled
tiles would teach the detector that tiles are background).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

#: cmd-v4 class index -> project tile code (see the datasets README)
CLASS_CODES: tuple[str, ...] = (
    "5f", "1m", "1p", "1s", "E", "6f", "2m", "2p", "2s", "S",
    "7f", "3m", "3p", "3s", "W", "8f", "4m", "4p", "4s", "N",
    "1f", "5m", "5p", "5s", "P", "2f", "6m", "6p", "6s", "F",
    "3f", "7m", "7p", "7s", "C", "4f", "8m", "8p", "8s", "9m", "9p", "9s",
)  # fmt: skip

SPLITS = ("train", "valid")
#: labels of `valid` found wrong by eye (see the file's header)
VALID_FIXES = Path(__file__).with_name("cmdv4_valid_fixes.txt")


@dataclass
class Sample:
    """One labelled photo: boxes are (x1, y1, x2, y2) normalised to 0..1."""

    image_path: Path
    boxes: list[tuple[float, float, float, float]] = field(default_factory=list)
    codes: list[str] = field(default_factory=list)


def default_root() -> Path:
    """cmd-v4 location: `$MCR_DATASETS/cmd-v4`, else `../shared/datasets/cmd-v4` from the checkout."""
    env = os.environ.get("MCR_DATASETS")
    base = Path(env) if env else Path(__file__).resolve().parents[2] / "shared" / "datasets"
    return base / "cmd-v4"


def parse_line(line: str) -> tuple[str, tuple[float, float, float, float]] | None:
    """Parse one YOLO label line (box or polygon) into (code, normalised x1y1x2y2).

    Returns None for a blank line; raises ValueError for a malformed one.
    """
    parts = line.split()
    if not parts:
        return None
    try:
        cls = int(parts[0])
        vals = [float(v) for v in parts[1:]]
    except ValueError as exc:
        raise ValueError(f"not a YOLO label line: {line.strip()!r}") from exc
    if not 0 <= cls < len(CLASS_CODES):
        raise ValueError(f"class {cls} outside 0..{len(CLASS_CODES) - 1}")
    if len(vals) == 4:
        cx, cy, w, h = vals
        box = (cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2)
    elif len(vals) >= 6 and len(vals) % 2 == 0:
        xs, ys = vals[0::2], vals[1::2]
        box = (min(xs), min(ys), max(xs), max(ys))
    else:
        raise ValueError(f"expected 4 box values or an even polygon, got {len(vals)} values")
    x1, y1, x2, y2 = (min(max(v, 0.0), 1.0) for v in box)
    return CLASS_CODES[cls], (x1, y1, x2, y2)


def read_labels(path: Path) -> tuple[list[tuple[float, float, float, float]], list[str]]:
    """All boxes and codes of one label file (degenerate boxes dropped)."""
    boxes: list[tuple[float, float, float, float]] = []
    codes: list[str] = []
    for line in path.read_text().splitlines():
        parsed = parse_line(line)
        if parsed is None:
            continue
        code, box = parsed
        if box[2] - box[0] <= 1e-4 or box[3] - box[1] <= 1e-4:
            continue
        boxes.append(box)
        codes.append(code)
    return boxes, codes


def load_split(split: str, root: str | Path | None = None) -> list[Sample]:
    """Every labelled image of a split, sorted by file name; images with empty labels skipped."""
    if split not in SPLITS:
        raise ValueError(f"split must be one of {SPLITS}, not {split!r}")
    base = Path(root) if root is not None else default_root()
    img_dir, lbl_dir = base / split / "images", base / split / "labels"
    if not img_dir.is_dir():
        raise FileNotFoundError(f"no cmd-v4 images at {img_dir}")
    samples = []
    for img in sorted(img_dir.iterdir()):
        if img.suffix.lower() not in (".jpg", ".jpeg", ".png", ".webp"):
            continue
        lbl = lbl_dir / (img.stem + ".txt")
        if not lbl.is_file():
            continue
        boxes, codes = read_labels(lbl)
        if boxes:
            samples.append(Sample(img, boxes, codes))
    return samples


def with_fixes(samples: list[Sample], path: Path = VALID_FIXES) -> list[Sample]:
    """The samples with the label corrections of `path` applied (copies; the rest as is).

    Each correction names the image, the box's place among its labels, the
    labelled code and the true one; a labelled code that does not match
    means the list no longer fits the data, and raises ValueError.
    """
    fixes: dict[str, dict[int, tuple[str, str]]] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        name, index, labelled, true = line.split()
        fixes.setdefault(name, {})[int(index)] = (labelled, true)
    out = []
    for sample in samples:
        codes = list(sample.codes)
        for k, (labelled, true) in fixes.get(sample.image_path.name, {}).items():
            if k >= len(codes) or codes[k] != labelled:
                raise ValueError(
                    f"{path.name}: box {k} of {sample.image_path.name} is not {labelled}"
                )
            codes[k] = true
        out.append(Sample(sample.image_path, list(sample.boxes), codes))
    return out
