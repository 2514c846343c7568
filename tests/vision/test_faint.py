"""Faint backs: a concealed kong's face-down tile found too faintly is taken beside the
kong's other backs, and nowhere else."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from scorer.tiles import INDEX
from tests.vision.test_detect import _drawn_row
from vision import recognize
from vision.config import DEFAULT, DetectConfig, VisionConfig
from vision.detect import Detector
from vision.faint import faint_backs
from vision.readers import BoxesOnly
from vision.synthetic import GAP, probs_for, row
from vision.types import Detection, TileRead

FAINT_FLOOR = DEFAULT.faint.floor

HAND = ["1m", "2m", "3m", "4s", "5s", "6s", "E", "E", "E", "N", GAP, "N"]


def _layout() -> list[tuple[str, tuple]]:
    """A concealed kong lying all face down above a hand row of 11 tiles."""
    return row(["back", "back", "back", "back"], y=100) + row(HAND, y=300)


class Models:
    """Stand-in detector and classifier for a known layout whose `faint` tiles the detector
    finds only faintly; `faint_reads` names what the classifier reads there."""

    def __init__(self, tiles, faint: list[int], faint_reads: str = "back", extra=()):
        self.tiles = tiles
        self.faint_at = faint
        self.faint_reads = faint_reads
        self.extra = list(extra)  # further faint boxes: (code, box)
        self.faint_calls = 0

    def detector(self, image: np.ndarray) -> list[Detection]:
        return [
            Detection(box, 0.9) for k, (_, box) in enumerate(self.tiles) if k not in self.faint_at
        ]

    def faint(self, image: np.ndarray, floor: float) -> list[Detection]:
        self.faint_calls += 1
        assert floor == FAINT_FLOOR
        boxes = [self.tiles[k][1] for k in self.faint_at] + [box for _, box in self.extra]
        return [Detection(box, 0.4) for box in boxes]

    def classifier(self, image: np.ndarray, detections: list[Detection]) -> list[TileRead]:
        codes = {box: code for code, box in self.tiles + self.extra}
        faint = {self.tiles[k][1] for k in self.faint_at}
        return [
            TileRead(d, probs_for(self.faint_reads if d.box in faint else codes[d.box]))
            for d in detections
        ]


def _reads(models: Models, image: np.ndarray) -> list[TileRead]:
    return models.classifier(image, models.detector(image))


def test_a_back_found_faintly_beside_backs_is_taken() -> None:
    image = np.zeros((400, 600, 3), np.uint8)
    tiles = _layout()
    far = ("back", (500.0, 20.0, 530.0, 60.0))  # a back on its own, far from any found
    again = ("back", tuple(v + 3 for v in tiles[1][1]))  # a found back boxed again
    shadow = ("back", (31.0, 140.0, 61.0, 180.0))  # back-sized, below the kong's line
    gap = ("back", (124.0, 90.0, 139.0, 110.0))  # in line beyond the kong, a quarter its size
    m = Models(tiles, faint=[3], extra=[far, again, shadow, gap])
    taken = faint_backs(image, _reads(m, image), m.faint, m.classifier)
    assert [t.detection.box for t in taken] == [tiles[3][1]]
    assert int(taken[0].probs.argmax()) == INDEX["back"]  # with the reading it was taken on


def test_the_other_back_of_a_kong_turned_up_in_the_middle_is_taken() -> None:
    """A concealed kong laid back, face, face, back: its two backs lie three tiles apart."""
    image = np.zeros((400, 600, 3), np.uint8)
    tiles = row(["back", "7p", "7p", "back"], y=100) + row(HAND, y=300)
    m = Models(tiles, faint=[3])
    taken = faint_backs(image, _reads(m, image), m.faint, m.classifier)
    assert [t.detection.box for t in taken] == [tiles[3][1]]


def test_a_faint_box_read_face_up_is_left_out() -> None:
    image = np.zeros((400, 600, 3), np.uint8)
    m = Models(_layout(), faint=[3], faint_reads="5p")
    assert faint_backs(image, _reads(m, image), m.faint, m.classifier) == []


def test_without_a_back_no_faint_box_is_looked_for() -> None:
    image = np.zeros((400, 600, 3), np.uint8)
    tiles = row(HAND, y=300)
    m = Models(tiles, faint=[5])
    assert faint_backs(image, _reads(m, image), m.faint, m.classifier) == []
    assert m.faint_calls == 0


def _png(w: int, h: int) -> bytes:
    ok, buf = cv2.imencode(".png", np.full((h, w, 3), 90, np.uint8))
    assert ok
    return buf.tobytes()


@pytest.mark.parametrize("faint", [True, False])
def test_the_kong_is_whole_again_in_the_recognized_hand(faint: bool) -> None:
    """With the faint back taken the hand reads as it lies: the kong to be named and the
    rest of the hand; without it three backs make no kong."""
    m = Models(_layout(), faint=[2])
    detector = m.detector
    if faint:

        class WithFaint(BoxesOnly):
            def faint(self, image: np.ndarray, floor: float) -> list[Detection]:
                return m.faint(image, floor)

        detector = WithFaint(m.detector)
    out = recognize(_png(600, 400), "kong.png", detector, m.classifier)
    kongs = [g for g in out["melds"] if g["kind"] == "kong"]
    if faint:
        assert len(out["tiles"]) == 15
        assert len(kongs) == 1 and kongs[0]["needs_name"] is True
        assert out["partial_hand"] == "123m456sEEENN"
    else:
        assert len(out["tiles"]) == 14 and not kongs


def test_the_detector_gives_the_boxes_under_its_threshold() -> None:
    """`faint` gives what one look finds from the floor up to the threshold, no more."""
    img, _ = _drawn_row()
    strict = Detector(config=VisionConfig(detect=DetectConfig(threshold=0.999)))
    low = Detector(config=VisionConfig(detect=DetectConfig(threshold=FAINT_FLOOR)))
    faint = strict.faint(img, FAINT_FLOOR)
    assert faint and all(FAINT_FLOOR <= d.score < 0.999 for d in faint)
    assert sorted(d.box for d in faint) == sorted(d.box for d in low(img) if d.score < 0.999)
    assert Detector().faint(img, 0.99) == []  # nothing between a floor above the threshold
