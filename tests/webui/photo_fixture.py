"""A synthetic table photo drawn with OpenCV, and a detector/classifier that know it.

The page's tests run the real recognition pipeline (photo decoding, layout,
rule-aware decoding) on this picture; only the two learned stages are
replaced by callables that report the tiles where they were drawn, so the
tests do not depend on trained models.
"""

from __future__ import annotations

from functools import partial

import cv2
import numpy as np

from scorer.tiles import CODES, INDEX
from vision.types import Detection, TileRead

TILE_W, TILE_H = 60, 80

#: the laid-down hand, left to right: an exposed chow (its claimed tile sideways),
#: the concealed row, the winning tile set apart, one flower further away
LAYOUT: list[tuple[str, str]] = [
    ("2m", "side"),
    ("3m", "up"),
    ("4m", "up"),
    ("", "gap"),
    ("5p", "up"),
    ("6p", "up"),
    ("7p", "up"),
    ("5p", "up"),
    ("6p", "up"),
    ("7p", "up"),
    ("3s", "up"),
    ("4s", "up"),
    ("E", "up"),
    ("E", "up"),
    ("", "gap"),
    ("5s", "up"),
    ("", "gap"),
    ("", "gap"),
    ("1f", "up"),
]
HAND = "[234m,1]567567p34sEE5s"


#: a waiting hand of 13 tiles laid in a row, in an order the notation would not write
THIRTEEN: list[tuple[str, str]] = [
    (code, "up")
    for code in ("1p", "1p", "3s", "2s", "3p", "5p", "3p", "1s", "2p", "1p", "4p", "7s", "7s")
]


#: two concealed kongs, one lying all face down (the photo cannot name it), one with its
#: middle tiles turned up (2m), then the concealed row and the winning tile set apart
KONGS: list[tuple[str, str]] = [
    *[("back", "up")] * 4,
    ("", "gap"),
    ("back", "up"),
    ("2m", "up"),
    ("2m", "up"),
    ("back", "up"),
    ("", "gap"),
    *[(code, "up") for code in ("4m", "5m", "6m", "5p", "7p", "C", "C")],
    ("", "gap"),
    ("6p", "up"),
]


def boxes(layout=LAYOUT) -> list[tuple[str, tuple[int, int, int, int], bool]]:
    """(code, box, sideways) for every tile of a layout, in photo pixels."""
    out = []
    x, base = 40, 260
    for code, how in layout:
        if how == "gap":
            x += TILE_W
            continue
        if how == "side":
            out.append((code, (x, base - TILE_W, x + TILE_H, base), True))
            x += TILE_H + 3
        else:
            out.append((code, (x, base - TILE_H, x + TILE_W, base), False))
            x += TILE_W + 3
    return out


def photo_png(layout=LAYOUT) -> bytes:
    """The photo as PNG bytes: ivory tiles on green cloth, each with its code written on it."""
    img = np.full((360, 1400, 3), (60, 110, 40), np.uint8)
    for code, (x1, y1, x2, y2), _ in boxes(layout):
        cv2.rectangle(img, (x1, y1), (x2, y2), (215, 235, 245), -1)
        cv2.rectangle(img, (x1, y1), (x2, y2), (90, 120, 140), 2)
        cv2.putText(
            img, code, (x1 + 8, (y1 + y2) // 2 + 8), cv2.FONT_HERSHEY_SIMPLEX, 0.8, (40, 40, 160), 2
        )
    ok, buf = cv2.imencode(".png", img)
    assert ok
    return buf.tobytes()


def fake_detector(image: np.ndarray, layout=LAYOUT) -> list[Detection]:
    return [
        Detection(box=tuple(map(float, b)), score=0.99, sideways=s) for _, b, s in boxes(layout)
    ]


def fake_classifier(
    image: np.ndarray, detections: list[Detection], layout=LAYOUT
) -> list[TileRead]:
    """Confident reads of the drawn codes, except the sixth: read below the reader's
    "uncertain" line (0.45), second guess 9p."""
    reads = []
    for i, ((code, _, _), det) in enumerate(zip(boxes(layout), detections, strict=True)):
        first, rest = (0.45, 0.20) if i == 5 else (0.96, 0.02)
        p = np.full(len(CODES), rest / (len(CODES) - 2))
        p[INDEX[code]] = first
        p[INDEX["9p" if i == 5 else "8p"]] = 1.0 - first - rest
        reads.append(TileRead(detection=det, probs=p, chosen=code))
    return reads


def fake_recognize(layout=LAYOUT):
    """`vision.pipeline.recognize` with the fake learned stages (real decoding, layout)."""
    from vision.pipeline import recognize

    return partial(
        recognize,
        detector=partial(fake_detector, layout=layout),
        classifier=partial(fake_classifier, layout=layout),
    )


#: a pond of discards nearer the camera than the hand, three rows of six, holding the
#: other three 5s (so the winning tile is the last of its kind: 和绝张)
POND = [
    "5s",
    "1m",
    "9p",
    "N",
    "5s",
    "2p",
    "F",
    "8s",
    "7m",
    "5s",
    "C",
    "4p",
    "S",
    "6m",
    "1s",
    "9m",
    "W",
    "3p",
]


def pond_boxes() -> list[tuple[str, tuple[int, int, int, int], bool]]:
    """The pond's tiles, below the hand in the photo."""
    return [
        (
            code,
            (500 + 64 * (i % 6), 400 + 84 * (i // 6), 560 + 64 * (i % 6), 480 + 84 * (i // 6)),
            False,
        )
        for i, code in enumerate(POND)
    ]


def table_png(height: int = 680) -> bytes:
    """The hand and the pond drawn as `photo_png` draws tiles, on a taller cloth (a lower
    `height` cuts the pond's last row by the photo's edge)."""
    img = np.full((height, 1400, 3), (60, 110, 40), np.uint8)
    for code, (x1, y1, x2, y2), _ in boxes() + pond_boxes():
        cv2.rectangle(img, (x1, y1), (x2, y2), (215, 235, 245), -1)
        cv2.putText(
            img, code, (x1 + 8, (y1 + y2) // 2 + 8), cv2.FONT_HERSHEY_SIMPLEX, 0.8, (40, 40, 160), 2
        )
    ok, buf = cv2.imencode(".png", img)
    assert ok
    return buf.tobytes()


def fake_table_recognize():
    """`recognize` of a photo of a table: the hand of LAYOUT and a pond nearer the camera."""
    from vision.pipeline import recognize

    every = boxes() + pond_boxes()

    def detector(image: np.ndarray) -> list[Detection]:
        height = image.shape[0]
        return [
            Detection(box=(*map(float, b[:3]), float(min(b[3], height))), score=0.99, sideways=s)
            for _, b, s in every
        ]

    def classifier(image: np.ndarray, detections: list[Detection]) -> list[TileRead]:
        reads = []
        for (code, _, _), det in zip(every, detections, strict=True):
            p = np.full(len(CODES), 0.04 / (len(CODES) - 1))
            p[INDEX[code]] = 0.96
            reads.append(TileRead(detection=det, probs=p, chosen=code))
        return reads

    return partial(recognize, detector=detector, classifier=classifier)
