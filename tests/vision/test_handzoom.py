"""The winner's hand on a whole table looked at again by the usual detector
(`vision.handzoom`, `vision.pipeline.hand_zoomed`).

The table is rendered and read with its own labels (`table_fixtures`), as in
`test_regions.py`: the tests check which boxes make the hand and which reading
is kept, not the models.
"""

from __future__ import annotations

import numpy as np
import pytest

from datasets import render
from tests.vision.table_fixtures import in_view, true_read
from tests.vision.table_fixtures import table as rendered_table
from vision.config import DEFAULT
from vision.handzoom import hand_area, hand_boxes, in_photo
from vision.pipeline import Picked, hand_zoomed, pick_hand
from vision.regions import find_regions
from vision.types import Detection, TileRead

HAND_GROUPS = ("concealed", "winning", "flower")


def _is_hand(tile: dict) -> bool:
    return tile["group"] in HAND_GROUPS or tile["group"].startswith("meld")


class Oracle:
    """Models making no error: the first look finds the labelled tiles lying whole in the
    part of the photo it is shown (each look counted in `looks`), the classifier reads
    any box as the labelled tile nearest it."""

    def __init__(self, labelled: list[tuple[tuple[float, ...], dict]], shape: tuple[int, int]):
        self.labelled = labelled
        self.image = np.zeros((*shape, 3), np.uint8)
        self.looks = 0

    def first_look(self, part: np.ndarray) -> list[Detection]:
        self.looks += 1
        # where the part lies in the photo: a slice of it, so its first pixel's address says
        offset = part.__array_interface__["data"][0] - self.image.__array_interface__["data"][0]
        y0, rest = divmod(offset, self.image.strides[0])
        x0 = rest // self.image.strides[1]
        h, w = part.shape[:2]
        return [
            Detection((b[0] - x0, b[1] - y0, b[2] - x0, b[3] - y0), 0.9)
            for b, _ in self.labelled
            if b[0] >= x0 and b[1] >= y0 and b[2] <= x0 + w and b[3] <= y0 + h
        ]

    def look_again(
        self, image: np.ndarray, reads: list[TileRead], which: list[int]
    ) -> list[TileRead]:
        """The reads with those of `which` read (`TileReader.look_again`)."""
        again = self.classify(image, [reads[i].detection for i in which])
        out = list(reads)
        for i, read in zip(which, again, strict=True):
            out[i] = read
        return out

    def glance(self, image: np.ndarray, detections: list[Detection]) -> list[TileRead]:
        return self.classify(image, detections)

    def __call__(self, image: np.ndarray, detections: list[Detection]) -> list[TileRead]:
        return self.classify(image, detections)

    def classify(self, image: np.ndarray, detections: list[Detection]) -> list[TileRead]:
        out = []
        for d in detections:
            centre = np.array(d.center)
            box, tile = min(
                self.labelled,
                key=lambda bt: np.hypot(*(np.reshape(bt[0], (2, 2)).mean(0) - centre)),
            )
            read = true_read(box, tile)
            out.append(TileRead(d, read.probs, up=read.up))
        return out


@pytest.fixture(scope="module")
def table() -> dict:
    return rendered_table(0)


def _picked(reads: list[TileRead]) -> Picked:
    regions = find_regions(reads)
    chosen, reading = pick_hand(reads, regions)
    return Picked(reads, chosen, reading, regions.ignored(chosen))


def _zoomed(meta: dict, missed: set[int], plain: bool = False) -> tuple[Picked, Picked, Oracle]:
    """The table read with the labelled tiles `missed` left out, then its hand looked at
    again by the oracle (its classifier as a plain function, `plain`, or one that can look
    again at some tiles among others)."""
    labelled = in_view(meta)
    oracle = Oracle(labelled, (meta["height"], meta["width"]))
    first = _picked([true_read(b, t) for k, (b, t) in enumerate(labelled) if k not in missed])
    reader = oracle.classify if plain else oracle
    again = hand_zoomed(oracle.image, first, oracle, (reader, None, None))  # type: ignore[arg-type]
    return first, again, oracle


@pytest.mark.parametrize("plain", [False, True])
def test_a_hand_tile_the_table_look_missed_is_found_by_the_closer_look(table, plain) -> None:
    """The table detector missed one of the hand's concealed tiles: the hand reads short of
    a tile. Its area looked at again finds that tile, and the hand reads whole, the
    ponds and walls in that area left out."""
    labelled = in_view(table)
    concealed = next(k for k, (_, t) in enumerate(labelled) if t["group"] == "concealed")
    first, again, oracle = _zoomed(table, {concealed}, plain)
    assert first.reading[2].notation != table["hand"]
    assert oracle.looks == 1
    assert again.reading[2].notation == table["hand"]
    hand = [again.every[i] for i in again.chosen]
    truth = [t for _, t in labelled if _is_hand(t)]
    assert len(hand) == len(truth)  # no pond's or wall's tile taken in
    # the rest keep their reads and their groups, which now point at them
    assert len(again.every) == len(first.every) + 1
    ignored = {i for p in again.ignored for i in p.tiles}
    assert ignored.isdisjoint(again.chosen)
    assert len(ignored) == len(first.every) - len(first.chosen)


def test_a_hand_read_without_doubt_is_not_looked_at_again(table) -> None:
    first, again, oracle = _zoomed(table, set())
    assert first.reading[2].notation == table["hand"]
    assert not any(w for w in first.reading[1].warnings + first.reading[2].warnings)
    assert oracle.looks == 0
    assert again is first


def test_a_photo_of_one_hand_is_not_looked_at_again() -> None:
    """A posed hand was read at the usual detector's scale already."""
    meta = render.render_scene(np.random.default_rng(4), "builtin", 1280, "hand").meta
    labelled = in_view(meta)
    reads = [true_read(b, t) for b, t in labelled[1:]]  # one tile missed: no complete hand
    first = _picked(reads)

    class Finder:
        def first_look(self, image: np.ndarray) -> list[Detection]:
            raise AssertionError("looked at again")

    again = hand_zoomed(np.zeros((8, 8, 3), np.uint8), first, Finder(), (None, None, None))  # type: ignore[arg-type]
    assert again is first


def test_a_closer_look_that_reads_worse_is_not_kept(table) -> None:
    """A look that finds nothing where the hand lies keeps the hand's own tiles and reads no
    better: the first reading stands."""
    labelled = in_view(table)
    concealed = next(k for k, (_, t) in enumerate(labelled) if t["group"] == "concealed")
    reads = [true_read(b, t) for k, (b, t) in enumerate(labelled) if k != concealed]
    first = _picked(reads)

    class Blind:
        def first_look(self, image: np.ndarray) -> list[Detection]:
            return []

    def classify(image: np.ndarray, detections: list[Detection]) -> list[TileRead]:
        raise AssertionError("nothing new to read")

    again = hand_zoomed(np.zeros((1200, 1600, 3), np.uint8), first, Blind(), (classify, None, None))  # type: ignore[arg-type]
    assert again is first


def test_the_area_is_the_hand_and_a_tile_around_it_within_the_photo() -> None:
    boxes = np.array([[100, 200, 140, 260], [142, 200, 182, 260]], float)
    assert hand_area(boxes, (1000, 1000)) == (60, 160, 222, 300)
    assert hand_area(boxes, (270, 200)) == (60, 160, 200, 270)


def test_boxes_found_in_the_area_are_moved_into_the_photo() -> None:
    moved = in_photo([Detection((1, 2, 11, 22), 0.8)], (100, 50, 400, 300))
    assert moved[0].box == (101, 52, 111, 72) and moved[0].score == 0.8


def test_the_hand_takes_its_tiles_boxed_again_and_tiles_found_anew_beside_it() -> None:
    """Found before: two hand tiles (0, 1) and a pond tile behind them (2). The closer look
    boxes tile 0 again, misses tile 1, finds a tile beside the hand and one far off,
    the pond tile again, and the new tile a second time."""
    boxes = np.array([[100, 200, 140, 260], [142, 200, 182, 260], [120, 100, 160, 160]], float)
    found = [
        Detection((101, 201, 141, 262), 0.9),  # tile 0, a closer box
        Detection((184, 200, 224, 260), 0.8),  # a hand tile missed before
        Detection((186, 201, 226, 259), 0.6),  # ... found twice
        Detection((121, 101, 161, 161), 0.9),  # the pond tile
        Detection((600, 200, 640, 260), 0.9),  # far from the hand
    ]
    fresh, kept = hand_boxes(found, boxes, (0, 1))
    assert [d.box for d in fresh] == [(101, 201, 141, 262), (184, 200, 224, 260)]
    assert kept == [1]  # missed by the closer look: its reading stands


def test_a_tile_boxed_alike_keeps_its_reading() -> None:
    boxes = np.array([[100, 200, 140, 260]], float)
    found = [Detection((100, 200, 140, 261), 0.9)]
    keep = DEFAULT.hand_zoom.__class__(keep=0.9)
    assert hand_boxes(found, boxes, (0,), keep) == ([], [0])
    assert hand_boxes(found, boxes, (0,))[1] == []  # by default every box is read again
