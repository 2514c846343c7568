"""Tile sets whose dots and bamboos are drawn here, one design per style.

The classifier reads the dots and bamboos of the tile sets it trained on
and misreads those of a set drawn otherwise: thin sticks in two colours
read as a pair fewer, a square of nine dots as eight. The drawn styles
offer a handful of pip designs; each `pipface_*` style draws its own (a
solid, ringed or coin-like dot in its own colours, a segmented, plain or
hollow stick, their size and spacing, a corner index) in one of the
arrangements sets use (six bamboos in two rows of three or three of two,
six dots as two over four or two columns of three) with a little jitter,
so the count and arrangement of pips, not one set's drawing of them,
tells the tiles apart. Some sets pack capped sticks end to end, so that a
column of them reads as one long jointed stick; some styles do too
(`_Design.packed`), and the count lies in the joints down the column. Its characters, winds, dragons and flowers come
from a drawn training style. Its 1s does too, or it is drawn here as sets
draw it: a bird (perched, or a peacock with its tail fanned) filling the
face with no character or number, or one large stick. Flower tiles show
birds too, always with their character or number; a bird alone is the
1s, and a classifier that had seen few birds alone read one set's
peacock as a flower. Training only; opencv draws everything.
"""

from __future__ import annotations

import re
import zlib
from copy import copy
from functools import lru_cache

import cv2
import numpy as np

from datasets.art import FACE_H, FACE_W
from datasets.scene.fontfaces import DRAWN, PAPER, PETALS, bird  # the other faces: DRAWN

#: styles offered; each is one pip design
COUNT = 40
INKS = [(150, 70, 20), (40, 120, 30), (30, 30, 190), (30, 30, 30), (120, 50, 120)]  # BGR
OUTLINE = (25, 25, 25)  # the dark edge of capped sticks

# pip centres on a unit face (x, y in 0..1 of the pip area), per count; where sets
# differ, each arrangement they use (a style draws one of them)
DOTS: dict[int, list[list[tuple[float, float]]]] = {
    1: [[(0.5, 0.5)]],
    2: [[(0.5, 0.25), (0.5, 0.75)], [(0.28, 0.25), (0.72, 0.75)]],
    3: [[(0.2, 0.18), (0.5, 0.5), (0.8, 0.82)], [(0.5, 0.17), (0.5, 0.5), (0.5, 0.83)]],
    4: [[(0.27, 0.27), (0.73, 0.27), (0.27, 0.73), (0.73, 0.73)]],
    5: [[(0.22, 0.2), (0.78, 0.2), (0.5, 0.5), (0.22, 0.8), (0.78, 0.8)]],
    6: [[(0.3, y) for y in (0.15, 0.5, 0.85)] + [(0.7, y) for y in (0.15, 0.5, 0.85)],
        [(0.3, 0.13), (0.7, 0.13)] + [(x, y) for y in (0.58, 0.88) for x in (0.3, 0.7)]],
    7: [[(0.18, 0.1), (0.5, 0.22), (0.82, 0.34)] + [(x, y) for y in (0.62, 0.9) for x in (0.3, 0.7)]],
    8: [[(x, y) for y in (0.12, 0.37, 0.63, 0.88) for x in (0.3, 0.7)]],
    9: [[(x, y) for y in (0.17, 0.5, 0.83) for x in (0.18, 0.5, 0.82)]],
}  # fmt: skip
# bamboo arrangements: rows and columns of the grid a stick fills, then each stick's
# centre and slant off upright, in degrees
STICKS: dict[int, list[tuple[int, int, list[tuple[float, float, float]]]]] = {
    2: [(2, 3, [(0.5, 0.27, 0), (0.5, 0.73, 0)])],
    3: [(2, 3, [(0.5, 0.27, 0), (0.3, 0.73, 0), (0.7, 0.73, 0)]),
        (2, 3, [(0.3, 0.27, 0), (0.7, 0.27, 0), (0.5, 0.73, 0)])],
    4: [(2, 3, [(x, y, 0) for y in (0.27, 0.73) for x in (0.3, 0.7)])],
    5: [(2, 3, [(x, y, 0) for y in (0.27, 0.73) for x in (0.2, 0.8)] + [(0.5, 0.5, 0)]),
        (3, 3, [(0.2, 0.17, 0), (0.8, 0.17, 0), (0.5, 0.5, 0), (0.2, 0.83, 0), (0.8, 0.83, 0)])],
    6: [(2, 3, [(x, y, 0) for y in (0.27, 0.73) for x in (0.18, 0.5, 0.82)]),
        (3, 3, [(x, y, 0) for y in (0.17, 0.5, 0.83) for x in (0.3, 0.7)])],
    7: [(3, 3, [(0.5, 0.17, 0)] + [(x, y, 0) for y in (0.5, 0.83) for x in (0.18, 0.5, 0.82)]),
        (3, 3, [(x, 0.17, 0) for x in (0.18, 0.5, 0.82)] + [(0.5, 0.5, 0)]
               + [(x, 0.83, 0) for x in (0.18, 0.5, 0.82)])],
    8: [(2, 4, [(0.14, 0.27, 0), (0.38, 0.27, 25), (0.62, 0.27, -25), (0.86, 0.27, 0),
                (0.14, 0.73, 0), (0.38, 0.73, -25), (0.62, 0.73, 25), (0.86, 0.73, 0)]),
        (2, 4, [(x, y, 0) for y in (0.27, 0.73) for x in (0.14, 0.38, 0.62, 0.86)]),
        (4, 3, [(x, y, 0) for y in (0.125, 0.375, 0.625, 0.875) for x in (0.3, 0.7)])],
    9: [(3, 3, [(x, y, 0) for y in (0.17, 0.5, 0.83) for x in (0.18, 0.5, 0.82)])],
}  # fmt: skip
#: share of the capped-stick styles whose sticks touch end to end down a column
PACKED_P = 0.6


def style_names(count: int = COUNT, first: int = 0) -> list[str]:
    """`count` pip styles from number `first`: every number draws a design of its own."""
    return [f"pipface_{k}" for k in range(first, first + count)]


def is_pip_style(style: str) -> bool:
    return re.fullmatch(r"pipface_\d+", style) is not None


class _Design:
    """One style's way of drawing a dot and a stick."""

    def __init__(self, rng: np.random.Generator) -> None:
        self.dot = int(rng.integers(4))  # solid, ring, double ring, coin
        self.stick = int(rng.integers(4))  # segmented, plain, hollow, capped
        self.inks = [INKS[int(i)] for i in rng.permutation(len(INKS))[:3]]
        self.mixed = rng.random() < 0.5  # pips in more than one ink
        self.area = (float(rng.uniform(0.1, 0.2)), float(rng.uniform(0.08, 0.16)))  # margins x, y
        self.dot_size = float(rng.uniform(0.75, 1.0))
        self.stick_w = float(rng.uniform(0.25, 0.55))
        self.stick_len = float(rng.uniform(0.75, 0.95))
        self.jitter = float(rng.uniform(0.0, 0.015))
        self.index = rng.random() < 0.4
        self.stroke = int(rng.integers(3, 8))
        self.dots = {n: int(rng.integers(len(v))) for n, v in DOTS.items()}
        self.sticks = {n: int(rng.integers(len(v))) for n, v in STICKS.items()}
        #: sticks as long as their grid cell, a column of them meeting end to end: only
        #: capped sticks, whose caps show where one ends (plain ones would make one bar)
        self.packed = bool(rng.random() < PACKED_P) and self.stick == 3
        if self.packed:
            self.stick_len = float(rng.uniform(0.97, 1.0))

    def ink(self, i: int) -> tuple[int, int, int]:
        return self.inks[i % len(self.inks)] if self.mixed else self.inks[0]

    def place(self, x: float, y: float, rng: np.random.Generator) -> tuple[int, int]:
        mx, my = self.area
        jx, jy = rng.normal(0, self.jitter, 2)
        return (int(FACE_W * (mx + (1 - 2 * mx) * (x + jx))),
                int(FACE_H * (my + (1 - 2 * my) * (y + jy))))  # fmt: skip

    def draw_dot(self, face: np.ndarray, c: tuple[int, int], r: int, ink) -> None:
        """A dot whose ink reaches `r` from its centre and no further."""
        if self.dot in (1, 2):  # a ring's stroke reaches half its width past its radius
            r = max(4, r - self.stroke // 2)
        if self.dot == 0:
            cv2.circle(face, c, r, ink, -1, cv2.LINE_AA)
        elif self.dot == 1:
            cv2.circle(face, c, r, ink, self.stroke, cv2.LINE_AA)
            cv2.circle(face, c, max(2, r // 3), ink, -1, cv2.LINE_AA)
        elif self.dot == 2:
            cv2.circle(face, c, r, ink, max(2, self.stroke // 2), cv2.LINE_AA)
            cv2.circle(face, c, max(3, int(r * 0.6)), ink, max(2, self.stroke // 2), cv2.LINE_AA)
        else:
            cv2.circle(face, c, r, ink, -1, cv2.LINE_AA)
            h = max(2, r // 3)
            cv2.rectangle(face, (c[0] - h, c[1] - h), (c[0] + h, c[1] + h), PAPER, -1)

    def draw_stick(
        self, face: np.ndarray, c: tuple[int, int], w: int, h: int, angle: float, ink
    ) -> None:
        canvas = self._stick_mask(w, h)
        if angle:
            m = cv2.getRotationMatrix2D((h + 2, h + 2), angle, 1.0)
            canvas = cv2.warpAffine(canvas, m, canvas.shape[::-1])
        if self.stick == 3:  # a dark outline round the ink: the stick's mask, then its inside
            inside = cv2.erode(canvas, np.ones((3, 3), np.uint8), iterations=max(1, w // 8))
            _paint(face, c, canvas, OUTLINE)
            _paint(face, c, inside, ink)
        else:
            _paint(face, c, canvas, ink)

    def _stick_mask(self, w: int, h: int) -> np.ndarray:
        """One upright stick of `w` x `h` drawn at the centre of a square mask."""
        canvas = np.zeros((2 * h + 4, 2 * h + 4), np.uint8)
        x0, y0 = h + 2 - w // 2, h + 2 - h // 2
        if self.stick == 2:
            cv2.rectangle(canvas, (x0, y0), (x0 + w, y0 + h), 255, max(2, self.stroke // 2))
        elif self.stick == 3:  # a slim body flaring to caps at its ends and a joint midway
            body = max(2, int(w * 0.55))
            cv2.rectangle(
                canvas, (x0 + (w - body) // 2, y0), (x0 + (w + body) // 2, y0 + h), 255, -1
            )
            cap = max(2, h // 9)
            for y in (y0, y0 + h // 2 - cap // 2, y0 + h - cap):
                cv2.rectangle(canvas, (x0, y), (x0 + w, y + cap), 255, -1)
        else:
            cv2.rectangle(canvas, (x0, y0), (x0 + w, y0 + h), 255, -1)
        if self.stick == 0:  # nodes across the stick
            for k in (1, 2):
                y = y0 + h * k // 3
                cv2.line(canvas, (x0 - 2, y), (x0 + w + 2, y), 0, max(2, h // 14))
                cv2.line(canvas, (x0 - 3, y + max(2, h // 14)), (x0 + w + 3, y + max(2, h // 14)),
                         255, max(2, h // 20))  # fmt: skip
        return canvas


def _paint(face: np.ndarray, c: tuple[int, int], canvas: np.ndarray, ink) -> None:
    """`ink` laid on the face through a square mask centred at `c`, cut at the face's edges."""
    s = canvas.shape[0]
    x1, y1 = c[0] - s // 2, c[1] - s // 2
    fx0, fy0 = max(0, x1), max(0, y1)
    fx1, fy1 = min(FACE_W, x1 + s), min(FACE_H, y1 + s)
    mask = canvas[fy0 - y1 : fy1 - y1, fx0 - x1 : fx1 - x1].astype(np.float32)[..., None] / 255
    region = face[fy0:fy1, fx0:fx1].astype(np.float32)
    face[fy0:fy1, fx0:fx1] = (region * (1 - mask) + np.array(ink) * mask).astype(np.uint8)


def _index(face: np.ndarray, n: int) -> None:
    cv2.putText(face, str(n), (FACE_W - 40, 36), cv2.FONT_HERSHEY_SIMPLEX, 1.2, (30, 30, 190), 3,
                cv2.LINE_AA)  # fmt: skip


def _dots(design: _Design, n: int, rng: np.random.Generator) -> np.ndarray:
    face = np.full((FACE_H, FACE_W, 3), PAPER, np.uint8)
    centres = [design.place(x, y, rng) for x, y in DOTS[n][design.dots[n]]]
    if n == 1:
        r = int(FACE_W * (0.5 - design.area[0]) * design.dot_size * 0.8)
    else:  # apart from one another whatever the jitter: real dots never touch
        c = np.array(centres, np.float32)
        gap = np.linalg.norm(c[:, None] - c[None], axis=2) + np.eye(n, dtype=np.float32) * 1e6
        r = max(5, int(gap.min() * 0.5 * 0.85 * design.dot_size))
    cols = {1: 1, 2: 1, 3: 3, 4: 2, 5: 2, 6: 2, 7: 2, 8: 2, 9: 3}[n]
    for i, centre in enumerate(centres):
        design.draw_dot(face, centre, r, design.ink(i // cols))
    if design.index:
        _index(face, n)
    return face


def _sticks(design: _Design, n: int, rng: np.random.Generator) -> np.ndarray:
    face = np.full((FACE_H, FACE_W, 3), PAPER, np.uint8)
    mx, my = design.area
    rows, cols, sticks = STICKS[n][design.sticks[n]]
    h = int(FACE_H * (1 - 2 * my) / rows * design.stick_len)
    w = max(6, int(FACE_W * (1 - 2 * mx) / cols * design.stick_w))
    for i, (x, y, a) in enumerate(sticks):
        design.draw_stick(face, design.place(x, y, rng), w, h, a, design.ink(i % 2 + (i == 0)))
    if design.index:
        _index(face, n)
    return face


@lru_cache(maxsize=48)
def pip_faces(style: str) -> dict[str, np.ndarray]:
    """The faces of one pip style (code -> BGR FACE_H x FACE_W), all 42 codes."""
    from datasets.scene.faces import style_faces

    k = int(style.split("_")[1])
    faces = dict(style_faces(DRAWN[k % len(DRAWN)]))
    faces.update(drawn_pips(np.random.default_rng(zlib.crc32(style.encode()))))
    return faces


def drawn_pips(rng: np.random.Generator) -> dict[str, np.ndarray]:
    """Dots 1-9 and bamboos 2-9 in one pip design drawn from `rng`, and the 1s where the
    design draws its own (code -> BGR face); `datasets.scene.fontfaces` writes beside
    them too."""
    design = _Design(rng)
    faces: dict[str, np.ndarray] = {}
    for n in range(1, 10):
        faces[f"{n}p"] = _dots(design, n, rng)
        if n > 1:
            faces[f"{n}s"] = _sticks(design, n, rng)
    one = ONE_BAMBOO[int(rng.integers(len(ONE_BAMBOO)))]  # drawn last: other faces unchanged
    if one != "drawn":
        faces["1s"] = _one_bamboo(design, one, rng)
    return faces


#: how a style draws its 1s: the drawn style's, a perched bird, a peacock, one stick
ONE_BAMBOO = ("drawn", "bird", "peacock", "stick")


def _one_bamboo(design: _Design, kind: str, rng: np.random.Generator) -> np.ndarray:
    """The 1s face drawn as `kind` (`ONE_BAMBOO`), with no character or number."""
    face = np.full((FACE_H, FACE_W, 3), PAPER, np.uint8)
    mx, my = design.area
    area = (int(FACE_W * mx), int(FACE_H * my), int(FACE_W * (1 - mx)), int(FACE_H * (1 - my)))
    if kind == "bird":
        bird(face, rng, area)
    elif kind == "peacock":
        _peacock(face, design, rng, area)
    else:  # segmented: a hollow outline alone would be 白's border
        stick = copy(design)
        stick.stick = 0
        h = int((area[3] - area[1]) * design.stick_len)
        w = max(10, int((area[2] - area[0]) * design.stick_w * 0.8))
        stick.draw_stick(face, (FACE_W // 2, FACE_H // 2), w, h, 0.0, design.ink(0))
    return face


def _peacock(face: np.ndarray, design: _Design, rng: np.random.Generator, area) -> None:
    """A peacock seen from the front: its tail fanned into a half disc of feathers, each
    ending in an eye, above a small body with a head and legs."""
    x0, y0, x1, y1 = area
    w, h = x1 - x0, y1 - y0
    body = (x0 + w // 2, y0 + int(h * rng.uniform(0.62, 0.72)))
    reach = int(min(w * 0.5, h * 0.55))
    feathers = int(rng.integers(7, 13))
    for k in range(feathers):
        a = np.pi * (0.05 + 0.9 * k / (feathers - 1))
        tip = (int(body[0] - reach * np.cos(a)), int(body[1] - reach * np.sin(a)))
        cv2.line(face, body, tip, design.ink(k), max(2, design.stroke // 2), cv2.LINE_AA)
        eye = max(4, reach // 7)
        cv2.circle(face, tip, eye, design.ink(k + 1), -1, cv2.LINE_AA)
        cv2.circle(face, tip, max(2, eye // 2), PAPER, -1, cv2.LINE_AA)
    ink = PETALS[int(rng.integers(len(PETALS)))]
    bw, bh = max(8, w // 8), max(12, h // 8)
    cv2.ellipse(face, body, (bw, bh), 0.0, 0, 360, ink, -1, cv2.LINE_AA)
    head = (body[0], body[1] - bh - max(5, bh // 2))
    cv2.circle(face, head, max(5, bw * 2 // 3), ink, -1, cv2.LINE_AA)
    for side in (-1, 1):  # legs
        foot = (body[0] + side * bw // 2, min(y1, body[1] + bh + h // 8))
        cv2.line(face, (body[0] + side * bw // 3, body[1] + bh - 2), foot, (40, 70, 110), 3)
