"""Whole-hand accuracy on rendered hand layouts (held-out art styles, or any render).

A hand counts as read when the recognized notation equals the rendered one
exactly (melds, their givers, the winning tile) and the flower count
matches. The scenes come from `python -m datasets.render --styles heldout
--kind hand --count 200 --seed 2 --out DIR`.

`--oracle` replaces the detector, classifier and orienter by the scene's
own labels (true boxes; all probability on the true class, `back` for a
face-down tile; the true face-top direction), so only the layout and
decoding stages are measured: what they get wrong there they would get
wrong with perfect models too. `--true boxes` gives the models the true
boxes (the detector's share of the loss), reading the photo as it lies,
without `vision.turn`'s second look, and taking no faint backs
(`vision.faint`); `--true classes` runs the whole reader with each box it
finds named as the tile under it (the classifier's share,
`bench.true_names`). With true boxes it
also prints how many face-up tiles the classifier names right, by style
and by how far the rows lie off the photo's axes, and with `--confusions K`
each style's K commonest misnamings; `--true-faces` then also gives each
tile its true face-top direction in place of the orienter's (how much a
better orienter could give at most). `--box-crops-only`
has the classifier and the orienter read each tile from its box crop
alone, without the crop turned square to its row (`vision.classify.row_crops`),
to measure what that adds.

    python -m bench.bench_heldout DIR [--limit N] [--oracle | --true boxes|classes]
        [--box-crops-only] [--show K] [--confusions K] [--true-faces]
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from collections import Counter
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from bench.true_names import read_with_true_names
from scorer.errors import ScoreError
from scorer.hand import Hand
from scorer.notation import format_hand, format_meld, normalized, parse_hand, parse_tiles
from scorer.tiles import BACK, CODES, INDEX
from vision.pipeline import look_closer, recognize
from vision.readhand import read_hand
from vision.result import result_json
from vision.types import Detection, TileRead


def _canonical(hand: Hand) -> tuple:
    """A hand with its concealed tiles and its melds each in a fixed order."""
    melds = sorted((m.kind.value, m.tile, m.claimed, m.promoted) for m in hand.melds)
    return format_hand(normalized(hand)).split("]")[-1], melds, hand.winning_tile


def same_hand(got: str | None, want: str) -> bool:
    """Equal hands: the same melds (each with its giver or claimed tile), concealed tiles
    and winning tile, whatever order the melds and concealed tiles were written in."""
    if got is None:
        return False
    try:
        return _canonical(parse_hand(got)) == _canonical(parse_hand(want))
    except ScoreError:
        return False


def hidden_kong(meta: dict[str, Any]) -> bool:
    """Whether a concealed kong lies all face down: no photo shows which tile it is."""
    tiles = meta["tiles"]
    return any(all(tiles[i]["face_down"] for i in m["tiles"]) for m in meta.get("melds", []))


def _pieces(notation: str | None) -> tuple | None:
    """(melds sorted, concealed tiles sorted, winning tile) of a notation that may lack
    sets (a hand less its unnamed kongs), or None."""
    if not notation:
        return None
    try:
        tiles = parse_tiles(re.sub(r"\[[^\]]*\]", "", notation))
    except ScoreError:
        return None
    return sorted(re.findall(r"\[[^\]]*\]", notation)), sorted(tiles[:-1]), tiles[-1]


def without_hidden_kongs(meta: dict[str, Any]) -> str:
    """The rendered hand less its kongs lying all face down: what a photo can show."""
    tiles = meta["tiles"]
    hidden = [
        m["meld"] for m in meta.get("melds", []) if all(tiles[i]["face_down"] for i in m["tiles"])
    ]
    hand = parse_hand(meta["hand"])
    melds = list(hand.melds)
    for notation in hidden:
        melds.remove(next(m for m in melds if format_meld(m) == notation))
    return format_hand(Hand(tuple(melds), hand.concealed, hand.winning_tile))


def read_right(out: dict[str, Any], meta: dict[str, Any]) -> tuple[bool, bool]:
    """(exact, marked): the whole hand read exactly; or, where a kong lies all face down,
    the rest read exactly and each such kong marked for the person to name (the
    recognizer's answer there: no photo shows which tile it is)."""
    flowers = out["flowers"]["count"] == len(meta["flowers"])
    exact = flowers and same_hand(out["hand"], meta["hand"])
    if not hidden_kong(meta):
        return exact, exact
    n_hidden = sum(
        all(meta["tiles"][i]["face_down"] for i in m["tiles"]) for m in meta.get("melds", [])
    )
    marked = sum(m.get("needs_name", False) for m in out["melds"]) == n_hidden
    rest = _pieces(out.get("partial_hand"))
    partial = (
        flowers and marked and rest is not None and rest == _pieces(without_hidden_kongs(meta))
    )
    return exact, partial


def oracle_read(tile: dict[str, Any], box: list[float]) -> TileRead:
    """What perfect models would report for one labelled tile seen at `box`: one-hot
    probabilities on its class (`back` face down or seen from behind), its true face-top
    direction when it shows a face, and whether its box holds two tiles, one on the
    other (the stacker's answer: a promoted kong's fourth tile lying on the claimed one)."""
    code = BACK if tile["face_down"] else tile["code"]
    probs = np.zeros(len(CODES))
    probs[INDEX[code]] = 1.0
    up = face_top(tile["corners"])
    up = None if code == BACK else tuple(float(v) for v in up / np.linalg.norm(up))
    detection = Detection(box=tuple(float(v) for v in box), score=1.0)  # type: ignore[arg-type]
    stacked = 1.0 if tile.get("stacked") else 0.0
    return TileRead(detection, probs, up=up, stacked=stacked)  # type: ignore[arg-type]


def oracle_reads(meta: dict[str, Any]) -> list[TileRead]:
    """What perfect models would report: the true boxes and one-hot probabilities."""
    return [oracle_read(tile, tile["box"]) for tile in meta["tiles"]]


def oracle_result(meta: dict[str, Any], name: str) -> dict[str, Any]:
    """`read_hand` (layout and decoding) on the labels, assembled as `vision.pipeline` does."""
    reads, layout, decoded = read_hand(oracle_reads(meta))
    return result_json(reads, layout, decoded, name, (meta["width"], meta["height"]))


#: rows within this many degrees of the photo's axes count as straight in the tile figures
STRAIGHT = 8.0


def row_tilt(meta: dict[str, Any]) -> float:
    """Degrees between the scene's rows and the nearest photo axis, from the face-top
    directions of its upright face-up tiles (rows run square to them)."""
    ups = [
        face_top(t["corners"])
        for t in meta["tiles"]
        if not t["face_down"] and not t["sideways"] and t["group"] != "flower"
    ]
    if not ups:
        return 0.0
    doubled = sum(np.exp(2j * np.arctan2(u[1], u[0])) for u in ups)
    angle = np.degrees(np.angle(doubled) / 2)
    return float(abs((angle + 45) % 90 - 45))


def face_top(corners: list) -> np.ndarray:
    """The face top's direction in the photo from the face corners (TL, TR, BR, BL)."""
    tl, tr, br, bl = np.array(corners, dtype=float)
    return (tl + tr - bl - br) / 2


def named_right(
    reads: list[TileRead], meta: dict[str, Any], named: Counter[tuple] | None = None
) -> tuple[int, int]:
    """(right, total) face-up tiles the classifier names as their true class, the reads
    being on the scene's own boxes in its order; `named` counts each face-up tile as
    (style, true tile, tile read)."""
    pairs = [(r, t) for r, t in zip(reads, meta["tiles"], strict=True) if not t["face_down"]]
    if named is not None:
        named.update((meta["style"], t["code"], r.chosen) for r, t in pairs)
    return sum(r.chosen == t["code"] for r, t in pairs), len(pairs)


def half_oracle(
    meta: dict[str, Any],
    image_path: Path,
    true: str,
    tiles: Counter[str] | None = None,
    named: Counter[tuple] | None = None,
    true_faces: bool = False,
) -> dict[str, Any]:
    """The pipeline with one model replaced by the labels: 'boxes' (true boxes, the
    models name them; `tiles` then counts the face-up tiles named right, by style and
    row tilt, and `named` how each was named, as `named_right`; with `true_faces` each
    tile's face-top direction is the label's, not the orienter's) or 'classes' (the whole
    reader, each box it finds named as the tile under it: `bench.true_names`)."""
    from vision.readers import models

    image = cv2.imread(str(image_path), cv2.IMREAD_COLOR)
    truth = oracle_reads(meta)
    if true == "classes":
        return read_with_true_names(image, truth, image_path.stem)
    _, classifier, orienter, stacker = models()
    reads = classifier(image, [r.detection for r in truth])
    if tiles is not None:
        right, total = named_right(reads, meta, named)
        rows = "straight" if row_tilt(meta) < STRAIGHT else "turned"
        for key in (meta["style"], f"rows {rows}", "all"):
            tiles[key + " right"] += right
            tiles[key] += total
    reads = look_closer(image, reads, orienter, stacker)
    if true_faces:
        reads = [replace(r, up=label.up) for r, label in zip(reads, truth, strict=True)]
    reads, layout, decoded = read_hand(reads)
    return result_json(reads, layout, decoded, image_path.stem, (meta["width"], meta["height"]))


def print_confusions(named: Counter[tuple], top: int) -> None:
    """Each style's commonest misnamings (`named`: (style, true tile, tile read) -> count),
    as 'true -> read: count / face-up tiles of that kind': where the classifier fails on
    a tile set tells what its training lacks."""
    print("commonest misnamings (true -> read: count / face-up tiles of that kind):")
    for style in sorted({s for s, _, _ in named}):
        kinds: Counter[str] = Counter()
        wrong: Counter[tuple] = Counter()
        for (s, t, r), n in named.items():
            if s == style:
                kinds[t] += n
                if r != t:
                    wrong[t, r] += n
        print(f"  {style}: {sum(wrong.values())}/{sum(kinds.values())} misnamed")
        for (t, r), n in wrong.most_common(top):
            print(f"    {t} -> {r}: {n}/{kinds[t]}")


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    p.add_argument("folder", type=Path)
    p.add_argument("--limit", type=int, default=0)
    p.add_argument("--oracle", action="store_true", help="labels in place of the models")
    p.add_argument("--true", choices=("boxes", "classes"), help="labels in place of one model only")
    p.add_argument(
        "--box-crops-only",
        action="store_true",
        help="classifier and orienter read each tile from its box crop alone "
        "(no crop turned square to its row)",
    )
    p.add_argument("--show", type=int, default=0, help="list this many failed scenes")
    p.add_argument(
        "--confusions",
        type=int,
        default=0,
        help="with --true boxes: list each style's this many commonest misnamings",
    )
    p.add_argument(
        "--true-faces",
        action="store_true",
        help="with --true boxes: the labels' face directions in place of the orienter's",
    )
    return p


@dataclass
class Tally:
    """What the scenes read gave, counted as they come."""

    exact: int = 0
    marked: int = 0
    null: int = 0
    hidden: int = 0
    hidden_exact: int = 0
    by_style: dict[str, list[int]] = field(default_factory=dict)
    by_warning: Counter[str] = field(default_factory=Counter)
    tiles: Counter[str] = field(default_factory=Counter)
    named: Counter[tuple] = field(default_factory=Counter)
    failed: list[str] = field(default_factory=list)

    def add(self, out: dict[str, Any], meta: dict[str, Any], stem: str) -> None:
        ok, right = read_right(out, meta)
        self.exact += ok
        self.marked += right
        self.null += out["hand"] is None
        if hidden_kong(meta):
            self.hidden += 1
            self.hidden_exact += ok
        style = self.by_style.setdefault(meta["style"], [0, 0])
        style[0] += right
        style[1] += 1
        if right:
            return
        self.by_warning.update({w.split(";")[0].split("(")[0].strip() for w in out["warnings"]})
        if not out["warnings"]:
            self.by_warning["(no warning)"] += 1
        self.failed.append(
            f"{stem} ({meta['style']}): want {meta['hand']} +{len(meta['flowers'])}f, "
            f"got {out['hand']} +{out['flowers']['count']}f; " + " | ".join(out["warnings"])[:160]
        )


def _read_scene(args: argparse.Namespace, stem: str, meta: dict, tally: Tally) -> dict[str, Any]:
    """One scene read as the options ask: by the labels, the models given some, or alone."""
    if args.oracle:
        return oracle_result(meta, stem)
    image = args.folder / "images" / (stem + ".jpg")
    if args.true:
        return half_oracle(meta, image, args.true, tally.tiles, tally.named, args.true_faces)
    return recognize(image.read_bytes(), image.name)


def _report(tally: Tally, args: argparse.Namespace, n: int) -> None:
    given = " (oracle: labels in place of the models)" if args.oracle else ""
    given = f" (true {args.true} given to the models)" if args.true else given
    given = " (true boxes and face directions given to the models)" if args.true_faces else given
    exact, marked = tally.exact, tally.marked
    print(f"hand scenes: {n}{given}")
    print(f"whole hand exact: {exact}/{n} = {exact / n:.3f}")
    print(
        f"whole hand right, a kong lying all face down left marked to be named: "
        f"{marked}/{n} = {marked / n:.3f}"
    )
    print(f"no hand returned: {tally.null}/{n}")
    if tally.hidden < n:
        shown, seen = n - tally.hidden, exact - tally.hidden_exact
        print(
            f"exact where the photo shows every tile (no kong lying all face down): "
            f"{seen}/{shown} = {seen / shown:.3f}"
        )
    for style, (k, total) in sorted(tally.by_style.items()):
        print(f"  {style}: {k}/{total}")
    _report_tiles(tally, args)
    for line in tally.failed[: args.show]:
        print("  " + line)


def _report_tiles(tally: Tally, args: argparse.Namespace) -> None:
    if tally.tiles:
        print(f"face-up tiles the classifier names right (rows within {STRAIGHT:g} degrees")
        print("of the photo's axes count as straight):")
        for key in sorted(k for k in tally.tiles if not k.endswith(" right")):
            right, total = tally.tiles[key + " right"], tally.tiles[key]
            print(f"  {key}: {right}/{total} = {right / total:.3f}")
    if args.confusions and tally.named:
        print_confusions(tally.named, args.confusions)
    if tally.by_warning:
        print("warnings among failed scenes:")
        for warning, count in tally.by_warning.most_common(15):
            print(f"  {count:4d}  {warning}")


def main(argv: list[str] | None = None) -> int:
    p = _parser()
    args = p.parse_args(argv)
    if args.true_faces and args.true != "boxes":
        p.error("--true-faces goes with --true boxes")
    if args.box_crops_only:
        from vision.readers import models

        _, classifier, orienter, _ = models()
        classifier.row_view = orienter.row_view = False
    metas = sorted((args.folder / "meta").glob("*.json"))
    metas = [m for m in metas if json.loads(m.read_text()).get("hand")]
    if args.limit:
        metas = metas[: args.limit]
    if not metas:
        print(f"no rendered hand scenes under {args.folder}", file=sys.stderr)
        return 1
    tally = Tally()
    start = time.perf_counter()
    for m in metas:
        meta = json.loads(m.read_text())
        tally.add(_read_scene(args, m.stem, meta, tally), meta, m.stem)
    _report(tally, args, len(metas))
    print(f"seconds per scene: {(time.perf_counter() - start) / len(metas):.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
