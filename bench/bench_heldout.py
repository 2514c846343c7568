"""Whole-hand accuracy on rendered hand layouts in the held-out art styles.

A hand counts as read when the recognized notation equals the rendered one
exactly (melds, their givers, the winning tile) and the flower count
matches. The scenes come from `python -m datasets.render --styles heldout
--kind hand --count 200 --seed 2 --out DIR`.

    PYTHONPATH=. python bench/bench_heldout.py DIR [--limit N]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from scorer.errors import ScoreError
from scorer.notation import format_hand, normalized, parse_hand
from vision.pipeline import recognize


def same_hand(got: str | None, want: str) -> bool:
    """Equal hands, whatever order the concealed tiles were written in."""
    if got is None:
        return False
    try:
        return format_hand(normalized(parse_hand(got))) == format_hand(normalized(parse_hand(want)))
    except ScoreError:
        return False


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("folder", type=Path)
    p.add_argument("--limit", type=int, default=0)
    args = p.parse_args(argv)
    metas = sorted((args.folder / "meta").glob("*.json"))
    metas = [m for m in metas if json.loads(m.read_text()).get("hand")]
    if args.limit:
        metas = metas[: args.limit]
    if not metas:
        print(f"no rendered hand scenes under {args.folder}", file=sys.stderr)
        return 1
    exact = null = 0
    by_style: dict[str, list[int]] = {}
    start = time.perf_counter()
    for m in metas:
        meta = json.loads(m.read_text())
        image = args.folder / "images" / (m.stem + ".jpg")
        out = recognize(image.read_bytes(), image.name)
        ok = same_hand(out["hand"], meta["hand"]) and out["flowers"]["count"] == len(meta["flowers"])
        exact += ok
        null += out["hand"] is None
        by_style.setdefault(meta["style"], [0, 0])
        by_style[meta["style"]][0] += ok
        by_style[meta["style"]][1] += 1
    n = len(metas)
    print(f"hand scenes: {n}")
    print(f"whole hand exact: {exact}/{n} = {exact / n:.3f}")
    print(f"no hand returned: {null}/{n}")
    for style, (k, total) in sorted(by_style.items()):
        print(f"  {style}: {k}/{total}")
    print(f"seconds per scene: {(time.perf_counter() - start) / n:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
