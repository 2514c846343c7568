"""Sets taught from photos of them laid out in order (`vision.tileset`): how many photos
teach their set right, wrong, or are refused, and why.

The photos come from `python -m datasets.render --kind set --styles S --count N --seed K
--out DIR`. A taught tile is right when the labelled tile its box covers most has the
code its place gave it; a photo is taught right when every tile is. A photo taught
wrong is the failure that matters (its wrong names pull the table's later tiles the
wrong way); a refusal asks the player for another photo.

    python -m bench.bench_teach DIR [--limit N]
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from pathlib import Path

from vision.detect import ious
from vision.errors import PhotoError
from vision.pipeline import teach_set


def judged(tiles: list[dict], meta: dict) -> bool:
    """Whether every taught tile's code is its label's (the label its box covers most)."""
    boxes = [t["box"] for t in meta["tiles"]]
    return all(
        meta["tiles"][int(ious(t["box"], boxes).argmax())]["code"] == t["tile"] for t in tiles
    )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.bench_teach", description=__doc__)
    ap.add_argument("root", type=Path, help="rendered set photos (datasets.render --kind set)")
    ap.add_argument("--limit", type=int, default=None, help="the first N photos only")
    args = ap.parse_args(argv)
    counts: Counter = Counter()
    reasons: Counter = Counter()
    agreed: list[float] = []
    for meta_path in sorted((args.root / "meta").glob("*.json"))[: args.limit]:
        meta = json.loads(meta_path.read_text())
        image = next((args.root / "images").glob(meta_path.stem + ".*"))
        try:
            out = teach_set(image.read_bytes(), image.name)
        except PhotoError as exc:
            counts["refused"] += 1
            reasons[exc.message_id] += 1
            continue
        counts["taught right" if judged(out["set"], meta) else "taught wrong"] += 1
        agreed.append(out["agreed"] / len(out["set"]))
    total = sum(counts.values())
    print(f"{total} set photos: " + ", ".join(f"{k} {counts[k]}" for k in sorted(counts)))
    print("refused for: " + (", ".join(f"{k} {n}" for k, n in reasons.most_common()) or "-"))
    if agreed:
        print(f"tiles the reader read as their places say: mean {sum(agreed) / len(agreed):.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
