"""Run layout reading + decoding on the hand-made labels of real photos (cmd-v4).

The labels stand in for a perfect detector and classifier, so this measures
only the geometry stages on real tile positions: that nothing crashes, how
long they take, how the tiles are grouped, and how many `hand_*` photos
(mostly a winning hand in one row; some show a suit or the flowers only)
are read as a legal winning hand.

    python -m bench.bench_layout_labels [--split valid]
"""

from __future__ import annotations

import argparse
import time
from collections import Counter

import numpy as np

from datasets.cmdv4 import load_split
from vision.readhand import read_hand
from vision.synthetic import probs_for
from vision.types import Detection, TileRead


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--split", default="valid")
    args = ap.parse_args()
    samples = load_split(args.split)
    roles: Counter[str] = Counter()
    times = []
    hands = hands_ok = 0
    for sample in samples:
        reads = [
            TileRead(Detection(tuple(v * 640 for v in box), 1.0), probs_for(code))
            for box, code in zip(sample.boxes, sample.codes, strict=True)
        ]
        start = time.perf_counter()
        reads, layout, result = read_hand(reads)
        times.append(time.perf_counter() - start)
        roles.update(g.role for g in layout.groups)
        if sample.image_path.name.startswith("hand_"):
            hands += 1
            hands_ok += result.hand is not None
    t = np.array(times) * 1000
    print(f"{len(samples)} labelled photos of {args.split}: no crash")
    print(f"groups found: {dict(roles)}")
    print(f"hand_* photos read as a legal winning hand: {hands_ok}/{hands}")
    print(
        f"layout+decode ms: p50 {np.percentile(t, 50):.1f}  p95 {np.percentile(t, 95):.1f}  "
        f"max {t.max():.1f}"
    )


if __name__ == "__main__":
    main()
