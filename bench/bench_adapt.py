"""How much a table gains from the tiles its players named (`vision.exemplars`).

At a table the same tile set is photographed hand after hand. Here the
scenes of each style of a rendered folder are read in turn, as one table's
photos: each photo is read with the exemplars of the hands named before it
(the newest `ExemplarConfig.most`), then its hand is named as a player who
corrects the misread tiles and scores the hand would: every tile of the
result's hand that covers a labelled face-up tile (IoU at least 0.5)
becomes an exemplar with the label's code. Each photo is also read without
exemplars, so the two columns compare the same photos.

    python -m bench.bench_adapt DIR [--after K] [--limit N] [--unchecked]
    python -m bench.bench_adapt DIR --taught SETS [--after 0] [--no-hands]

`--unchecked` names each hand as read, misreads and all: a table whose
players never fix a tile (what leaning on their own misreads costs).
`--taught SETS` teaches each table its set first from a photo of it laid out
in order (`vision.tileset`; `datasets.render --kind set`): the first photo
of the style in SETS that teaches one right (checked against the labels,
which a player cannot do: the photos refused or taught wrong are counted
and printed, and a set taught wrong would be a finding of its own); the set
stays with the table, the named hands' exemplars fill the rest of the memory. `--no-hands` leans on the taught set
alone.

Prints per style and in all the hands read right (exact, as
`bench.bench_heldout` counts them) among the photos read after at least
`--after` named hands, without and with the exemplars.
"""

from __future__ import annotations

import argparse
import contextlib
import json
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from bench.bench_heldout import read_right
from scorer.tiles import BACK
from vision.config import DEFAULT
from vision.detect import ious
from vision.pipeline import recognize

#: a result tile names a labelled tile when their boxes overlap this much
MATCH_IOU = 0.5


def named(out: dict[str, Any], meta: dict[str, Any]) -> list[dict[str, str]]:
    """The exemplars a player gives by naming the hand of `out`, as the page keeps them:
    each hand tile with a look, not read as a back, whose likeliest label (by IoU, at
    least `MATCH_IOU`) is a face-up tile, with that tile's code."""
    labels = meta["tiles"]
    boxes = [t["box"] for t in labels]
    given = []
    for tile in out["tiles"]:
        if not tile.get("look") or tile["tile"] == BACK or not labels:  # a back names nothing
            continue
        overlap = ious(tile["box"], boxes)
        best = labels[int(overlap.argmax())]
        if best["face_down"] or best["code"] == BACK or overlap.max() < MATCH_IOU:
            continue
        given.append({"tile": best["code"], "look": tile["look"]})
    return given


def as_read(out: dict[str, Any], meta: dict[str, Any]) -> list[dict[str, str]]:
    """The exemplars of a hand named as read (`--unchecked`): its tiles with a look, not
    read as a back, each with the code the reader gave it."""
    return [
        {"tile": t["tile"], "look": t["look"]}
        for t in out["tiles"]
        if t.get("look") and t["tile"] != BACK
    ]


def scenes_by_style(root: Path, limit: int | None) -> dict[str, list[tuple[Path, dict]]]:
    """Each style's scenes in their order: (image path, labels)."""
    out: dict[str, list[tuple[Path, dict]]] = defaultdict(list)
    for meta_path in sorted((root / "meta").glob("*.json"))[:limit]:
        meta = json.loads(meta_path.read_text())
        image = next((root / "images").glob(meta_path.stem + ".*"))
        out[meta["style"]].append((image, meta))
    return out


def run_style(
    scenes: list[tuple[Path, dict]],
    after: int,
    bar: Any,
    name=named,
    taught_set: Sequence[dict[str, str]] = (),
) -> tuple[int, int, int]:
    """(photos counted, right without exemplars, right with them) for one table's photos,
    each hand named by `name` (`named`: as a player who fixes the misread tiles; None:
    hands name nothing), the `taught_set` kept first in the memory."""
    memory: list[dict[str, str]] = []
    counted = plain = leaning = 0
    room = DEFAULT.exemplars.most - len(taught_set)
    for k, (image, meta) in enumerate(scenes):
        data = image.read_bytes()
        given = list(taught_set) + (memory[-room:] if room > 0 else [])
        out = recognize(data, image.name, exemplars=given)
        if k >= after:
            counted += 1
            leaning += read_right(out, meta)[1]
            plain += read_right(recognize(data, image.name), meta)[1]
        memory += name(out, meta) if name else []
        bar.update()
    return counted, plain, leaning


class _Quiet:
    def update(self) -> None:
        pass


def taught_sets(root: Path, styles: list[str]) -> tuple[dict[str, list[dict]], dict[str, int]]:
    """Each style's set taught by the first photo of it in `root` that teaches one, every
    taught tile checked against its label; counts of photos refused, taught wrong, right."""
    from bench.bench_teach import judged
    from vision.errors import PhotoError
    from vision.pipeline import teach_set
    from vision.tileset import exemplars

    sets: dict[str, list[dict]] = {}
    counts = {"refused": 0, "taught wrong": 0, "taught right": 0}
    for style, scenes in scenes_by_style(root, None).items():
        for image, meta in scenes if style in styles else []:
            try:
                tiles = teach_set(image.read_bytes(), image.name)["set"]
            except PhotoError:
                counts["refused"] += 1
                continue
            right = judged(tiles, meta)
            counts["taught right" if right else "taught wrong"] += 1
            if right:
                sets[style] = exemplars(tiles)
                break
    return sets, counts


def _progress(total: int) -> Any:
    """A progress bar of the photos read where tqdm (the train extra) is installed."""
    try:
        from tqdm import tqdm
    except ImportError:
        return contextlib.nullcontext(_Quiet())
    return tqdm(total=total, desc="photos", unit="photo")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.bench_adapt", description=__doc__)
    ap.add_argument("root", type=Path, help="rendered scenes (datasets.render)")
    ap.add_argument("--after", type=int, default=1, help="count photos after this many named")
    ap.add_argument("--limit", type=int, default=None, help="the first N scenes only")
    ap.add_argument("--unchecked", action="store_true", help="name each hand as read")
    ap.add_argument("--taught", type=Path, default=None, help="set photos to teach from")
    ap.add_argument("--no-hands", action="store_true", help="lean on the taught set alone")
    args = ap.parse_args(argv)
    styles = scenes_by_style(args.root, args.limit)
    sets: dict[str, list[dict]] = {}
    if args.taught:
        sets, counts = taught_sets(args.taught, list(styles))
        print(f"set photos: {counts}; sets taught: {sorted(sets)}")
    total = [0, 0, 0]
    with _progress(sum(map(len, styles.values()))) as bar:
        name = None if args.no_hands else as_read if args.unchecked else named
        rows = {
            s: run_style(sc, args.after, bar, name, sets.get(s, []))
            for s, sc in sorted(styles.items())
        }
    for style, (n, plain, leaning) in rows.items():
        print(f"{style}: {n} photos after {args.after} named: right {plain} -> {leaning}")
        total = [t + v for t, v in zip(total, (n, plain, leaning), strict=True)]
    print(f"all: {total[0]} photos: hands right {total[1]} -> {total[2]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
