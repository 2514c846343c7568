"""Turning a photo whose rows run near its diagonal square to them (`vision.turn`)."""

from __future__ import annotations

import numpy as np
import pytest

from tests.vision.photo_fixtures import faces, tilted_row
from vision.config import DEFAULT, TILE_ASPECT
from vision.turn import rows_tilt, turn_to_rows
from vision.types import Detection

TILE_PX = DEFAULT.turn.tile_px


def test_rows_near_an_axis_are_read_as_they_lie() -> None:
    img, boxes = tilted_row(np.radians(12), n=5, gap=6)
    dets = [Detection(b, 1.0) for b in boxes]
    assert abs(rows_tilt(dets) - 12) < 2
    assert turn_to_rows(img, dets, faces) is None


@pytest.mark.parametrize("degrees", [24, 40])
def test_a_slanting_row_is_turned_square_and_its_tiles_found_upright(degrees: int) -> None:
    """At 40 degrees each box holds as much table as tile, and at 24 (a phone held a
    little askew) a neighbour's corner already; turned, the row runs along the image axis
    and each face's box is an upright tile's, about 1.35 times taller than wide."""
    img, boxes = tilted_row(np.radians(degrees), n=5, gap=6)
    dets = [Detection(b, 1.0) for b in boxes]
    assert abs(rows_tilt(dets) - degrees) < 2
    turned = turn_to_rows(img, dets, faces)
    assert turned is not None and len(turned.detections) == 5
    found = np.array([d.box for d in turned.detections])
    tall = (found[:, 3] - found[:, 1]) / (found[:, 2] - found[:, 0])
    assert np.allclose(tall, TILE_ASPECT, atol=0.15)
    centres = (found[:, 1] + found[:, 3]) / 2
    assert np.ptp(centres) < 3  # one straight row along the image's x axis
    # each tile is reported in the photo's pixels, as the first look boxed it
    back = sorted(turned.box_back(tuple(b)) for b in found)
    assert np.allclose(back, sorted(boxes), atol=1e-6)
    # the turned image's corners hold only the fill around the part of the photo turned
    h, w = turned.image.shape[:2]
    assert all(turned.shows(tuple(b)) for b in found)
    assert not turned.shows((0.0, 0.0, 12.0, 12.0))
    assert not turned.shows((w - 12.0, h - 12.0, w - 1.0, h - 1.0))


def test_tiles_that_only_seemed_to_lie_at_an_angle_are_not_turned() -> None:
    """Upright tiles stepped along a diagonal (a heap, not a row at an angle) fill their
    boxes already: turned, their boxes grow, and the first look stands."""
    img = np.full((400, 500, 3), 128, np.uint8)
    dets = []
    for k in range(5):
        x, y = 100 + 60 * k, 60 + 60 * k
        img[y : y + 54, x : x + 40] = 255
        dets.append(Detection((x, y, x + 40.0, y + 54.0), 1.0))
    assert abs(rows_tilt(dets)) >= 30
    assert turn_to_rows(img, dets, faces) is None


def test_a_large_photo_is_turned_at_a_bounded_size() -> None:
    """Only the part holding the tiles is turned, shrunk so a tile's box is about TILE_PX
    long: a 12 MP photo of big tiles is turned as a small one, its tiles still larger than
    the 64 px crops they are read from."""
    img, boxes = tilted_row(np.radians(-35), n=6, width=300, gap=30, size=(4000, 3000))
    dets = [Detection(b, 1.0) for b in boxes]
    turned = turn_to_rows(img, dets, faces)
    assert turned is not None and len(turned.detections) == 6
    assert turned.image.shape[0] * turned.image.shape[1] < 1.5e6
    length = np.median([d.box[3] - d.box[1] for d in turned.detections])
    assert 64 < length <= TILE_PX


def test_the_pipeline_reads_a_diagonal_row_turned_and_reports_the_photo_boxes() -> None:
    """`Looked.at` hands the classifier the turned photo, where each tile's box is an
    upright tile's, and maps every box back to the photo's pixels."""
    from vision.pipeline import Looked
    from vision.types import TileRead

    img, boxes = tilted_row(np.radians(-42), n=5, gap=6)
    seen: list[np.ndarray] = []

    def classifier(image: np.ndarray, dets: list[Detection]) -> list[TileRead]:
        seen.append(np.array([d.box for d in dets]))
        return [TileRead(d, np.full(43, 1 / 43)) for d in dets]

    looked = Looked.at(img, faces, classifier)
    reads, to_photo = looked.reads, looked.to_photo
    (given,) = seen
    assert np.allclose((given[:, 3] - given[:, 1]) / (given[:, 2] - given[:, 0]), 1.35, atol=0.15)
    photo_boxes = sorted(to_photo(r.detection.box) for r in reads)
    first_look = sorted(d.box for d in faces(img))
    assert np.allclose(photo_boxes, first_look)


def test_a_faint_back_is_not_taken_from_the_fill_around_a_turned_photo() -> None:
    """`Looked.at` takes a faint back beside the backs found (`vision.faint`), but not one
    the detector dreams up in the plain fill the turned image holds beyond the photo."""
    from vision.pipeline import Looked
    from vision.types import TileRead

    img, _ = tilted_row(np.radians(-42), n=5, gap=6, size=(360, 300))  # rows to the corners

    class Detector:
        faint_boxes: list[tuple[float, float, float, float]] = []

        def __call__(self, image: np.ndarray) -> list[Detection]:
            found = faces(image)
            if image.shape[:2] != img.shape[:2]:  # the turned look: the row's next places
                row = np.array([d.box for d in found])
                x1, y1, x2, y2 = row[row[:, 0].argmax()]
                step = x2 - x1 + 6
                self.faint_boxes = [(x1 + k * step, y1, x2 + k * step, y2) for k in (1, 2)]
            return found

        def look(self, image: np.ndarray) -> tuple[list[Detection], tuple[float, float]]:
            return self(image), (1.0, 1.0)

        def faint(self, image: np.ndarray, floor: float) -> list[Detection]:
            return [Detection(b, 0.4) for b in self.faint_boxes]

        def first_look(self, image: np.ndarray) -> list[Detection]:
            return self(image)

    def classifier(image: np.ndarray, dets: list[Detection]) -> list[TileRead]:
        p = np.full(43, 0.1 / 42)
        p[42] = 0.9  # everything reads as a back
        return [TileRead(d, p.copy()) for d in dets]

    detector = Detector()
    looked = Looked.at(img, detector, classifier)
    reads, to_photo = looked.reads, looked.to_photo
    assert len(reads) == 6  # the place next to the row; the one after lies off the photo
    assert reads[-1].detection.box == detector.faint_boxes[0]
    x1, y1, x2, y2 = to_photo(reads[-1].detection.box)
    assert x1 >= 0 and y1 >= 0 and x2 <= 360 and y2 <= 300
