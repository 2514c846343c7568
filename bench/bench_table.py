"""Whole-table scenes: every tile found, kinds named right, the winner's hand, 和绝张.

The scenes come from `python -m datasets.render --styles heldout --kind table
--count 200 --seed 2 --size 1600 --out DIR`. Each found tile is matched to
the scene's labelled tiles (IoU at least 0.5, best first); a label matched by
none is a tile missed, a found tile matching none a false tile. Every tile
in view counts, of any kind, face up or down, standing or lying; a wall's
lower tile, mostly hidden under the upper one, counts too (by the part of it
in view, as every tile partly hidden: `datasets.render.label_box`) and is
also shown apart; all tiles are also counted by the share of each in view.
The winner's hand is exact when it reads as the rendered one (the same
melds, concealed tiles, winning tile and number of flowers, in any order:
`bench.bench_heldout.read_right`), and right also where a kong lying
face down is marked to be named and the rest exact; both are also counted over
the scenes whose hand lies wholly in the photo (no tile of it cut by the
photo's edge). 和绝张 is right when `fourth_tile_seen` says what the photo
shows (`fourth_in_view`): the winning tile's three other copies face up in
view, in the ponds and the exposed melds. A scene whose table shows them
while the photo hides one in part (or cuts it) leaves it open and is not
counted; the scene's `fourth_tile` (what the table shows) is counted apart.

`--oracle` reads the labels in place of the models (each tile in view with its
true box, class and face direction), so only the stages after them are
measured: which pieces the hand's candidates hold (`vision.regions`), then
the layout and decoding; it also counts the scenes where a candidate holds
exactly the hand's tiles, and where the hand is picked.

`--true-names` runs the whole reader with each tile it finds named as the
labelled tile under it (`bench.true_names`): what the names cost, the
boxes, the turn, the orienter and the later stages being the reader's own.

`--detector-only` measures the detector alone at each input size of
`--sizes` (long side, px): recall and precision by tile group and by the
tiles' short side in the photo, to see where tiles are lost.

    python -m bench.bench_table DIR [--limit N] [--long-side 4000 | --oracle]
    python -m bench.bench_table DIR --detector-only [--sizes 512,1024,1280 --model M]
    python -m bench.bench_table DIR --table-model M   (the whole reader, another table detector)
    python -m bench.bench_table DIR --dump S.jsonl    (also each scene's line: two runs compared)
"""

from __future__ import annotations

import argparse
import bisect
import json
import time
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING

import cv2
import numpy as np

from datasets.detector_crops import label_boxes
from datasets.render import HIDDEN, PARTLY_HIDDEN, label_box

if TYPE_CHECKING:
    from vision.detect import Detector

SIZE_BINS = (0, 12, 18, 25, 35, 50, 80, 10_000)
#: shares of a tile in view the tiles found are also counted by: a wall's lower tile
#: seen from a seat shows a strip of its side, often a tenth of it or less
SHOWN_BINS = (HIDDEN, 0.25, PARTLY_HIDDEN)


#: the region a tile found is right to be put in, by where it lies (`_group_of`)
REGION_OF = {
    "discards": "discards", "other hand (lying)": "other_hand",
    "other hand (standing)": "other_hand", "other_meld": "other_meld",
    "wall (lower)": "wall", "wall (upper)": "wall", "winner's hand": "hand",
}  # fmt: skip


def match(truth: list[list[float]], found: list[list[float]]) -> list[tuple[int, int]]:
    """Greedy one-to-one pairs (truth index, found index), best overlap first, each at IoU
    0.5 or more (`datasets.detector_crops.label_boxes`, which names training crops so)."""
    if not truth or not found:
        return []
    labelled = label_boxes(np.array(found, float), np.array(truth, float))
    return [(int(ti), fi) for fi, ti in enumerate(labelled) if ti >= 0]


def _labels(meta: dict) -> list[dict]:
    """The scene's tiles in view, each with the box a detector should find (`label_box`)."""
    out = []
    for t in meta["tiles"]:
        box = label_box(t, meta["kind"])
        if box[2] - box[0] >= 2 and box[3] - box[1] >= 2:
            out.append({**t, "box": box})
    return out


def _group_of(tile: dict) -> str:
    group = tile["group"]
    if group == "wall":
        return "wall (lower)" if tile.get("under") else "wall (upper)"
    if group == "other_hand":
        return "other hand (standing)" if tile.get("standing") else "other hand (lying)"
    if group in ("discards", "other_meld"):
        return group
    return "winner's hand"


def _shown_bin(tile: dict) -> str:
    """The share of the tile in view, binned by `SHOWN_BINS` (a posed hand's: all)."""
    k = bisect.bisect_right(SHOWN_BINS, tile.get("visible", 1.0))
    if k == len(SHOWN_BINS):
        return f"in view {SHOWN_BINS[-1]:.2f}+"
    lo = SHOWN_BINS[k - 1] if k else 0.0
    return f"in view {lo:.2f}-{SHOWN_BINS[k]:.2f}"


def _size_bin(tile: dict) -> str:
    x1, y1, x2, y2 = tile["box"]
    short = min(x2 - x1, y2 - y1)
    for lo, hi in zip(SIZE_BINS, SIZE_BINS[1:], strict=False):
        if lo <= short < hi:
            return f"{lo}-{hi} px" if hi < 10_000 else f"{lo}+ px"
    return "?"


class Tally:
    """Found / missed / false counts by a key."""

    def __init__(self) -> None:
        self.hit: Counter = Counter()
        self.total: Counter = Counter()
        self.false = 0
        self.found = 0

    def add(self, labels: list[dict], found: int, pairs: list[tuple[int, int]], key) -> None:
        matched = {ti for ti, _ in pairs}
        for i, t in enumerate(labels):
            self.total[key(t)] += 1
            self.hit[key(t)] += i in matched
        self.found += found
        self.false += found - len(pairs)

    def recall(self) -> float:
        return sum(self.hit.values()) / max(1, sum(self.total.values()))

    def precision(self) -> float:
        return 1 - self.false / max(1, self.found)

    def rows(self) -> list[str]:
        return [
            f"  {k:24s} {self.hit[k]:6d}/{self.total[k]:<6d} {self.hit[k] / self.total[k]:.3f}"
            for k in sorted(self.total)
        ]


def _scenes(root: Path, limit: int | None) -> list[tuple[Path, dict]]:
    metas = sorted((root / "meta").glob("*.json"))[:limit]
    out = []
    for m in metas:
        meta = json.loads(m.read_text())
        out.append((root / "images" / f"{m.stem}.jpg", meta))
    return out


def detector_only(scenes: list[tuple[Path, dict]], sizes: list[int], model: Path | None) -> None:
    """Recall and precision of the detector (the bundled one, or `model`) at each input size."""
    from vision.detect import Detector, decode, prepare

    det = Detector(model)
    for size in sizes:
        by_group, by_size, seconds = Tally(), Tally(), 0.0
        for path, meta in scenes:
            image = cv2.imread(str(path))
            started = time.perf_counter()
            x, scale = prepare(image, size)
            raw = det.session.run(None, {det.input_name: x})[0]
            found = decode(raw, scale, image.shape[:2], det.config.threshold, det.config.nms_iou)
            seconds += time.perf_counter() - started
            labels = _labels(meta)
            pairs = match([t["box"] for t in labels], [list(d.box) for d in found])
            by_group.add(labels, len(found), pairs, _group_of)
            by_size.add(labels, len(found), pairs, _size_bin)
        print(
            f"input {size} px: recall {by_group.recall():.3f}, precision "
            f"{by_group.precision():.3f}, {seconds / len(scenes) * 1000:.0f} ms a photo"
        )
        print("\n".join(by_group.rows()))
        print("\n".join(by_size.rows()))


#: a copy of the winning tile this much in view (its share, `datasets.render`) is shown by
#: the photo; less, and it may not be told at all
SHOWN_SHARE = 0.5


def fourth_in_view(meta: dict) -> bool | None:
    """Whether the photo shows the winning tile's three other copies face up where they
    count for 和绝张 (the ponds, the others' melds, the winner's exposed melds); None where
    it leaves that open: fewer than three shown clearly, three with those partly in view."""
    if meta.get("fourth_tile") is None:
        return None
    code = next((t["code"] for t in meta["tiles"] if t["group"] == "winning"), None)
    counted = ("discards", "other_meld")
    copies = [
        t.get("visible", 1.0)
        for t in meta["tiles"]
        if t["code"] == code and (t["group"] in counted or t["group"].startswith("meld"))
    ]
    clear = sum(v >= SHOWN_SHARE for v in copies)
    if clear >= 3:
        return True
    return False if sum(v > 0 for v in copies) < 3 else None


def _hand_in_view(meta: dict) -> bool:
    """Whether every tile of the winner's hand lies wholly inside the photo: a tile the
    photo's edge cuts (`partial`) may not be readable at all."""
    return not any(t.get("partial") for t in meta["tiles"] if _group_of(t) == "winner's hand")


class Hands:
    """The winner's hand: exact, right (a face-down kong marked to be named), also counted
    over the scenes whose hand lies wholly in the photo."""

    def __init__(self) -> None:
        self.count: Counter = Counter()
        self.misses: Counter = Counter()

    def add(self, out: dict, meta: dict) -> bool:
        """Count the scene's reading; whether its hand reads right."""
        from bench.bench_heldout import read_right

        exact, right = read_right(out, meta)
        inside = _hand_in_view(meta)
        flags = {"scenes": True, "exact": exact, "right": right, "inside": inside,
                 "inside exact": exact and inside, "inside right": right and inside}  # fmt: skip
        self.count.update({k: int(v) for k, v in flags.items()})
        if not right:
            self.misses[meta["style"]] += 1
        return right

    def rows(self) -> list[str]:
        c, n, k = self.count, self.count["scenes"], self.count["inside"]
        share = lambda a, b: f"{a}/{b} ({a / max(1, b):.3f})"  # noqa: E731
        return [
            f"winner's hand exact: {share(c['exact'], n)}",
            f"winner's hand right (a kong lying face down marked to be named): "
            f"{share(c['right'], n)}; missed by style {dict(self.misses)}",
            f"  where the hand lies wholly in the photo: exact {share(c['inside exact'], k)}, "
            f"right {share(c['inside right'], k)}",
        ]


class HandTiles:
    """Where the winner's hand is lost, tile by tile: scenes whose hand tiles are all
    found, and all found and named right, and the hand's tiles named right of those found
    (a hand is read only when every one of its tiles is found and named, or put right
    by decoding)."""

    def __init__(self) -> None:
        self.count: Counter = Counter()

    def add(self, labels: list[dict], found: list[dict], pairs: list[tuple[int, int]]) -> None:
        mine = {i for i, t in enumerate(labels) if _group_of(t) == "winner's hand"}
        to_found = {ti: fi for ti, fi in pairs if ti in mine}
        named = sum(labels[ti]["code"] == found[fi]["tile"] for ti, fi in to_found.items())
        every = len(to_found) == len(mine)
        self.count.update(scenes=1, tiles=len(to_found), named=named,
                          found=int(every), all_named=int(every and named == len(mine)))  # fmt: skip

    def rows(self) -> list[str]:
        c = self.count
        return [
            f"winner's hand wholly in the photo: its tiles all found in {c['found']}/"
            f"{c['scenes']} scenes, all found and named right in {c['all_named']}; named right "
            f"{c['named']}/{c['tiles']} ({c['named'] / max(1, c['tiles']):.3f}) of those found"
        ]


def _photo(path: Path, long_side: int | None) -> tuple[np.ndarray, float]:
    """The scene's photo resized to `long_side` px (4000: a 12 MP phone photo's size,
    though enlarging adds no detail), and the factor from it to the rendered pixels."""
    image = cv2.imread(str(path))
    if not long_side:
        return image, 1.0
    k = long_side / max(image.shape[:2])
    return cv2.resize(image, None, fx=k, fy=k, interpolation=cv2.INTER_CUBIC), 1 / k


def _scaled(tile: dict, k: float) -> dict:
    return {**tile, "box": [v * k for v in tile["box"]]}


def whole(
    scenes: list[tuple[Path, dict]],
    long_side: int | None = None,
    table_model: Path | None = None,
    dump: Path | None = None,
    true_names: bool = False,
) -> None:
    """The whole reader: tiles found and named, the winner's hand, 和绝张; with
    `table_model`, another table detector in place of the bundled one (a run to judge,
    read without touching `models/`); with `dump`, one JSON line per scene there (two
    runs' scenes compared line by line); with `true_names`, each tile found named as the
    labelled tile under it (`bench.true_names`: what is lost to the names)."""
    from vision.detect import Detector

    detector = Detector(table_model=table_model) if table_model else None
    tally = Whole()
    lines = [
        tally.add(path, meta, *_read(path, long_side, detector, meta if true_names else None))
        for path, meta in scenes
    ]
    if dump is not None:
        dump.write_text("".join(json.dumps(x, ensure_ascii=False) + "\n" for x in lines))
    print("\n".join(tally.rows()))


def _read(
    path: Path, long_side: int | None, detector: Detector | None, named_by: dict | None = None
) -> tuple[dict, float, float]:
    """The reader's output for one scene, the factor back to its rendered pixels, and the
    seconds it took (apart from the counting, so the time is the reader's alone); with
    `named_by` (the scene's labels), its tiles named by them."""
    from vision.pipeline import recognize_image

    image, k = _photo(path, long_side)
    started = time.perf_counter()
    if named_by is None:
        out = recognize_image(image, path.name, detector)
    else:
        from bench.true_names import read_with_true_names

        labels = oracle_reads([_scaled(t, 1 / k) for t in _labels(named_by)])
        out = read_with_true_names(image, labels, path.name, detector)
    return out, k, time.perf_counter() - started


class Whole:
    """The whole reader's figures over scenes, one scene at a time."""

    def __init__(self) -> None:
        self.tiles, self.hands, self.losses = Tally(), Hands(), HandTiles()
        self.shown = Tally()  # the same tiles by the share of each in view
        self.kinds: Counter = Counter()
        #: (the tile's place on the table, the region the reader put it in) of tiles found
        self.regions: Counter = Counter()
        self.fourth_all, self.fourth_hand, self.fourth_table = Counter(), Counter(), Counter()
        self.seconds: list[float] = []

    def add(self, path: Path, meta: dict, out: dict, k: float, seconds: float) -> dict:
        """Count one scene's reading; returns its line for `--dump`."""
        self.seconds.append(seconds)
        found = [{**t, "region": "hand"} for t in out["tiles"]]
        found += [{**t, "region": g["kind"]} for g in out.get("ignored", []) for t in g["tiles"]]
        found = [_scaled(t, k) for t in found]
        labels = _labels(meta)
        pairs = match([t["box"] for t in labels], [t["box"] for t in found])
        self.tiles.add(labels, len(found), pairs, _group_of)
        self.shown.add(labels, len(found), pairs, _shown_bin)
        self.regions.update((_group_of(labels[ti]), found[fi]["region"]) for ti, fi in pairs)
        named = sum(labels[ti]["code"] == found[fi]["tile"] for ti, fi in pairs)
        self.kinds.update(total=len(pairs), right=named)
        if _hand_in_view(meta):  # a hand cut by the photo's edge has tiles no label shows
            self.losses.add(labels, found, pairs)
        right = self.hands.add(out, meta)
        seen, shown = out.get("fourth_tile_seen"), fourth_in_view(meta)
        if meta.get("fourth_tile") is not None:
            self.fourth_table.update(scenes=1, right=int(seen is meta["fourth_tile"]))
        if shown is not None:
            fourth = Counter(scenes=1, right=int(seen is shown))
            self.fourth_all.update(fourth)
            if right:
                self.fourth_hand.update(fourth)
        return {"scene": path.stem, "style": meta["style"], "hand": out.get("hand"),
                "partial_hand": out.get("partial_hand"), "true_hand": meta["hand"],
                "right": right, "found": len(pairs), "labels": len(labels),
                "false": len(found) - len(pairs), "named": named,
                "fourth_seen": seen, "fourth_shown": shown,
                "flowers": out["flowers"]["count"], "true_flowers": len(meta["flowers"])}  # fmt: skip

    def region_rows(self) -> list[str]:
        """Where the reader put the tiles found, by where they lie (a pond's tiles put with
        a hand do not count for 和绝张)."""
        rows = ["regions the tiles found were put in:"]
        for place in sorted({p for p, _ in self.regions}):
            put = {r: n for (p, r), n in self.regions.items() if p == place}
            share = ", ".join(f"{r} {n}" for r, n in sorted(put.items(), key=lambda x: -x[1]))
            rows.append(f"  {place:24s} {share}")
        right = sum(n for (p, r), n in self.regions.items() if REGION_OF[p] == r)
        total = sum(self.regions.values())
        rows.append(f"  named as they lie: {right}/{total} ({right / max(1, total):.3f})")
        return rows

    def rows(self) -> list[str]:
        """The summary printed after the last scene."""
        t, k, s = self.tiles, self.kinds, self.seconds
        fa, fh, ft = self.fourth_all, self.fourth_hand, self.fourth_table
        return [
            f"{len(s)} scenes",
            f"tiles found: recall {t.recall():.3f}, precision {t.precision():.3f}",
            *t.rows(),
            "tiles found by the share of each in view (a wall's lower tile: a strip):",
            *self.shown.rows(),
            f"kinds named right: {k['right']}/{k['total']} ({k['right'] / max(1, k['total']):.3f})",
            *self.region_rows(),
            *self.hands.rows(),
            *self.losses.rows(),
            f"和绝张 right where the photo decides it: {fa['right']}/{fa['scenes']}; where the "
            f"hand reads right: {fh['right']}/{fh['scenes']}; as the table has it (copies out "
            f"of view too): {ft['right']}/{ft['scenes']}",
            f"seconds a photo: median {np.median(s):.2f}, max {max(s):.2f}",
        ]


def oracle_reads(labels: list[dict]) -> list:
    """What perfect models would report for the tiles in view (`oracle_read`, at the box
    in view), each named its true class."""
    from dataclasses import replace

    from bench.bench_heldout import oracle_read
    from scorer.tiles import CODES

    reads = [oracle_read(t, t["box"]) for t in labels]
    return [replace(r, chosen=CODES[int(np.argmax(r.probs))]) for r in reads]


def oracle(scenes: list[tuple[Path, dict]]) -> None:
    """Regions, layout and decoding on the labels: candidates holding the hand, hands read."""
    from vision.regions import find_regions
    from vision.result import assemble
    from vision.table import pick_hand

    hands, count = Hands(), Counter()
    for path, meta in scenes:
        labels = _labels(meta)
        reads = oracle_reads(labels)
        mine = {i for i, t in enumerate(labels) if _group_of(t) == "winner's hand"}
        regions = find_regions(reads)
        chosen, reading = pick_hand(reads, regions)
        size = (meta["width"], meta["height"])
        out = assemble(reads, chosen, reading, regions.ignored(chosen), path.name, size)
        exact = [set(c) == mine for c in regions.candidates]
        count.update(scenes=1, held=int(any(exact)), picked=int(set(chosen) == mine))
        hands.add(out, meta)
    print(f"{len(scenes)} scenes (oracle: labels in place of the models)")
    print(
        f"a candidate holds exactly the hand's tiles: {count['held']}/{count['scenes']}; "
        f"that candidate picked: {count['picked']}"
    )
    print("\n".join(hands.rows()))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        prog="python -m bench.bench_table", description=__doc__.split("\n")[0]
    )
    ap.add_argument("dir", type=Path)
    ap.add_argument("--limit", type=int)
    ap.add_argument("--detector-only", action="store_true")
    ap.add_argument("--sizes", default="512,1024,1280")
    ap.add_argument("--model", type=Path, help="with --detector-only: another detector ONNX file")
    ap.add_argument(
        "--table-model", type=Path, help="the whole reader with another table detector ONNX file"
    )
    ap.add_argument("--oracle", action="store_true", help="the labels in place of the models")
    ap.add_argument(
        "--long-side", type=int, help="read each photo enlarged to this long side (4000: 12 MP)"
    )
    ap.add_argument("--dump", type=Path, help="the whole reader: one JSON line per scene here")
    ap.add_argument(
        "--true-names",
        action="store_true",
        help="the whole reader with each tile found named as the labelled tile under it",
    )
    args = ap.parse_args(argv)
    scenes = _scenes(args.dir, args.limit)
    if not scenes:
        ap.error(f"no scenes in {args.dir}/meta")
    if args.detector_only and args.long_side:
        ap.error("--long-side reads with the whole reader, not --detector-only")
    if args.table_model and not args.table_model.is_file():
        ap.error(f"no table detector at {args.table_model}")
    if args.dump and (args.oracle or args.detector_only):
        ap.error("--dump writes the whole reader's scenes")
    if args.oracle and (args.detector_only or args.long_side):
        ap.error("--oracle reads the labels: no models, no photo sizes")
    if args.true_names and (args.oracle or args.detector_only):
        ap.error("--true-names names the whole reader's tiles")
    if args.oracle:
        oracle(scenes)
    elif args.detector_only:
        detector_only(scenes, [int(s) for s in args.sizes.split(",")], args.model)
    else:
        whole(scenes, args.long_side, args.table_model, args.dump, args.true_names)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
