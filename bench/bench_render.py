"""Render speed of `datasets.render` on one core.

    python -m bench.bench_render [--count 40] [--size 1280] [--styles train] [--kind mixed] \
        [--encode] [--no-art-variation]

Prints scenes per second from CPU time of this process (what one core
delivers, fair on a busy machine) and from wall time. OpenCV is limited to
one thread, as the renderer's command line does.
"""

from __future__ import annotations

import argparse
import sys
import time

import cv2

from datasets import render
from datasets.art import ArtError
from datasets.styles import resolve_styles


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--count", type=int, default=40)
    ap.add_argument("--size", type=int, default=1280)
    ap.add_argument("--styles", default="train")
    ap.add_argument("--kind", default="mixed", choices=render.KINDS)
    ap.add_argument("--encode", action="store_true", help="include JPEG encoding in the timing")
    ap.add_argument(
        "--no-art-variation",
        dest="art_variation",
        action="store_false",
        help="faces exactly as the art has them (the renderer's flag)",
    )
    args = ap.parse_args()
    cv2.setNumThreads(1)
    try:
        styles = resolve_styles(args.styles)
    except (ArtError, ValueError) as exc:
        print(f"error: {exc} (try --styles builtin)", file=sys.stderr)
        return 2
    # warm-up: load every style's art and the noise field once, as a long run does
    for k, style in enumerate(styles):
        render.render_scene(render.scene_rng(999, k), style, args.size, "grid")
    cpu0, wall0 = time.process_time(), time.perf_counter()
    tiles = 0
    for i in range(args.count):
        rng = render.scene_rng(0, i)
        scene = render.render_scene(
            rng,
            styles[int(rng.integers(len(styles)))],
            args.size,
            args.kind,
            art_variation=args.art_variation,
        )
        tiles += len(scene.meta["tiles"])
        if args.encode:
            cv2.imencode(
                ".jpg", scene.image, [cv2.IMWRITE_JPEG_QUALITY, scene.meta["jpeg_quality"]]
            )
    cpu, wall = time.process_time() - cpu0, time.perf_counter() - wall0
    print(
        f"{args.count} scenes ({tiles} tiles), size {args.size}, kind {args.kind}, styles {args.styles}"
    )
    print(
        f"cpu time:  {args.count / cpu:.2f} scenes/s per core ({1000 * cpu / args.count:.0f} ms/scene)"
    )
    print(f"wall time: {args.count / wall:.2f} scenes/s ({1000 * wall / args.count:.0f} ms/scene)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
