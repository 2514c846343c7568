"""The winner's hand on a whole table looked at again by the usual detector
(`vision.handzoom`, `vision.pipeline.hand_zoomed`).

The table is rendered and read with its own labels (`table_fixtures`), as in
`test_regions.py`: the tests check which boxes make the hand and which reading
is kept, not the models.
"""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from datasets import render
from tests.vision.photo_fixtures import faces
from tests.vision.table_fixtures import in_view, true_read
from tests.vision.table_fixtures import table as rendered_table
from vision.config import DEFAULT
from vision.handzoom import hand_area, hand_boxes, in_photo
from vision.pipeline import Picked, hand_zoomed
from vision.regions import find_regions
from vision.table import pick_hand
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


#: the hand of the slanting table below: 13 tiles in a row, the winning tile set apart
SLANTED_HAND = ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "E", "E", "E", "5s", "5s"]


def _slanted_table(degrees: float) -> tuple[np.ndarray, list[tuple[float, ...]]]:
    """A table photo: the hand's row running `degrees` off the photo's width, each face
    white with a coloured mark that tells its tile (`_marked`), and a wall of backs
    behind; returns the photo and the hand tiles' upright boxes."""
    from vision.config import TILE_ASPECT

    img = np.full((900, 1600, 3), (40, 90, 30), np.uint8)
    along = np.array([np.cos(np.radians(degrees)), np.sin(np.radians(degrees))])
    across = np.array([-along[1], along[0]])
    width, length, boxes = 40.0, 40.0 * TILE_ASPECT, []
    for k in range(len(SLANTED_HAND)):
        gap = 6 * k + (40 if k == len(SLANTED_HAND) - 1 else 0)  # the winning tile apart
        c = np.array([500.0, 420.0]) + (k * width + gap) * along
        a, b = along * width / 2, across * length / 2
        face = np.array([c - a - b, c + a - b, c + a + b, c - a + b])
        cv2.fillConvexPoly(img, np.round(face).astype(np.int32), (255, 255, 255))
        cv2.circle(img, tuple(int(v) for v in c), 7, (15 * k, 255, 255 - 15 * k), -1)
        boxes.append((*face.min(axis=0), *face.max(axis=0)))
    for k in range(20):  # the wall, far behind the row
        img[80:134, 300 + 42 * k : 340 + 42 * k] = (20, 20, 120)
    return img, boxes


def _marked(image: np.ndarray, detections: list[Detection]) -> list[TileRead]:
    """Stand-in classifier: the tile each box's centre mark tells."""
    from scorer.tiles import INDEX

    out = []
    for d in detections:
        x, y = (int(round(v)) for v in d.center)
        k = int(round(float(image[y - 2 : y + 3, x - 2 : x + 3, 0].mean()) / 15))
        probs = np.full(43, 1e-4)
        probs[INDEX[SLANTED_HAND[min(k, len(SLANTED_HAND) - 1)]]] = 1.0
        out.append(TileRead(d, probs / probs.sum()))
    return out


class _Finder:
    def first_look(self, image: np.ndarray) -> list[Detection]:
        return faces(image)


def _first_reading(img: np.ndarray, boxes: list[tuple[float, ...]]) -> Picked:
    """The table read with one of the hand's tiles missed: the hand reads short."""
    backs = [Detection((300.0 + 42 * k, 80.0, 340.0 + 42 * k, 134.0), 0.9) for k in range(20)]
    hand = [Detection(tuple(float(v) for v in b), 0.9) for b in boxes[1:]]
    reads = _marked(img, hand) + [
        TileRead(d, np.eye(43)[42] * 0.99 + 0.01 / 43, chosen="back") for d in backs
    ]
    return _picked(reads)


def test_a_hand_whose_row_slants_is_read_in_its_area_turned_square() -> None:
    """At 16 degrees a tile's upright box holds a neighbour's corner. The hand's area is
    turned square to its row and read there: every tile is found, the missed one too,
    the hand reads whole, and each box comes back in the photo's pixels on its tile."""
    from scorer.notation import normalized, parse_hand
    from vision.detect import ious
    from vision.pipeline import HandLooks

    img, boxes = _slanted_table(16)
    first = _first_reading(img, boxes)
    assert first.reading[2].notation is None
    seen = HandLooks(img, first, _Finder(), (_marked, None, None)).turned()  # type: ignore[arg-type]
    assert seen is not None
    hand, (_, _, decoded) = seen
    assert decoded.notation is not None
    assert normalized(parse_hand(decoded.notation)) == normalized(parse_hand("123m456p789sEEE5s5s"))
    truth = np.array(boxes, float)
    found = np.array([r.detection.box for r in hand], float)
    assert len(found) == len(truth)
    assert all(ious(t, found).max() > 0.8 for t in truth)


def test_a_hand_whose_row_lies_level_is_not_turned() -> None:
    """At 4 degrees the upright boxes fit the tiles: the turned look is not taken."""
    from vision.pipeline import HandLooks

    img, boxes = _slanted_table(4)
    first = _first_reading(img, boxes)

    class Blind:
        def first_look(self, image: np.ndarray) -> list[Detection]:
            raise AssertionError("looked at turned")

    looks = HandLooks(img, first, Blind(), (_marked, None, None))  # type: ignore[arg-type]
    assert looks.turned() is None
