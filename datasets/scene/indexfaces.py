"""Tile sets that print a large index in a corner and draw their art smaller beside it.

Sets sold abroad, and some Hong Kong sets, print each suited tile's number
(and each wind's letter) large in a corner and draw the pips or characters
smaller, pushed to the other side to make room: six bamboos in the left two
thirds of the face, nine dots in its lower left, 三萬 small under the
numeral. A classifier that has met the art only centred and full size counts
squeezed sticks wrong and cannot read the small characters, though the
numeral beside them says the tile. Each `indexface_*` style takes the faces
of a training style (drawn art, a pip style or, where the fonts are
installed, a font style), shrinks every face's art towards the side away
from its index corner and prints the index there, in one size, hand and
colour per style. Training only; opencv draws everything.
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from datasets.art import FACE_H, FACE_W
from datasets.scene import fontfaces, pipfaces
from scorer.tiles import WINDS

#: styles offered
COUNT = 48
#: the printed index: suited tiles their number, winds their letter (the code itself), and
#: where a style marks them the two coloured dragons' letters and the flowers' numbers
LETTERED_DRAGONS = "CF"
HERSHEY = (
    cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_DUPLEX, cv2.FONT_HERSHEY_COMPLEX,
    cv2.FONT_HERSHEY_TRIPLEX, cv2.FONT_HERSHEY_SIMPLEX | cv2.FONT_ITALIC,
)  # fmt: skip
INKS = ((30, 30, 190), (30, 30, 190), (30, 30, 190), (140, 60, 20), (30, 30, 30), (40, 120, 30))
#: drawn training styles with all 42 faces on a plain face colour (art drawn with its
#: own tile edge would show that edge squeezed inside the face)
PLAIN = ("kde_default", "kde_classic", "kde_jade")
#: corners as (right, bottom) flags, the top right commonest
CORNERS = ((True, False), (True, False), (False, False), (True, True))


@dataclass(frozen=True)
class IndexLayout:
    """How one style prints its index and where its art goes."""

    right: bool  # the index at the right (else the left)
    bottom: bool  # the index at the bottom (else the top)
    scale: float  # the art's size against the drawn face
    beside: float  # how far the art moves sideways from the index (0-1 of the room)
    below: float  # how far it moves up or down away from it
    height: float  # the index's height, a share of the face's
    font: int
    ink: tuple[int, int, int]
    winds: bool
    dragons: bool
    flowers: bool

    @classmethod
    def draw(cls, rng: np.random.Generator) -> IndexLayout:
        right, bottom = CORNERS[int(rng.integers(len(CORNERS)))]
        mode = int(rng.integers(3))  # the art beside the index, under it, or both
        return cls(
            right=right,
            bottom=bottom,
            scale=float(rng.uniform(0.62, 0.86)),
            beside=float(rng.uniform(0.6, 1.0)) if mode != 1 else float(rng.uniform(0, 0.3)),
            below=float(rng.uniform(0.6, 1.0)) if mode != 0 else float(rng.uniform(0, 0.3)),
            height=float(rng.uniform(0.11, 0.2)),
            font=HERSHEY[int(rng.integers(len(HERSHEY)))],
            ink=INKS[int(rng.integers(len(INKS)))],
            winds=bool(rng.random() < 0.7),
            dragons=bool(rng.random() < 0.4),
            flowers=bool(rng.random() < 0.6),
        )


def style_names() -> list[str]:
    return [f"indexface_{k}" for k in range(COUNT)]


def is_index_style(style: str) -> bool:
    return style.startswith("indexface_")


def base_style(style: str) -> str:
    """The training style whose faces `style` squeezes: in turn a drawn style, a pip
    style and a font style (a pip style where no font is installed)."""
    k = int(style.split("_")[1])
    fonts = fontfaces.style_names()
    if k % 3 == 0:
        return PLAIN[(k // 3) % len(PLAIN)]
    if k % 3 == 2 and fonts:
        return fonts[(k * 7) % len(fonts)]
    return pipfaces.style_names()[(k * 11) % pipfaces.COUNT]


def index_text(code: str, layout: IndexLayout) -> str:
    """What the style prints in the corner of `code` ('' for nothing)."""
    if code[0].isdigit() and code[1] in "mps":
        return code[0]
    if code[-1] == "f":
        return str(fontfaces.NUMBERS[code]) if layout.flowers else ""
    if code in WINDS:
        return code if layout.winds else ""
    return code if code in LETTERED_DRAGONS and layout.dragons else ""


def squeezed(face: np.ndarray, layout: IndexLayout) -> np.ndarray:
    """The face's art shrunk to `layout.scale` and moved away from the index corner, the
    freed face filled with the face colour."""
    from datasets.scene.faces import face_background

    s = layout.scale
    room_x, room_y = (1 - s) * FACE_W / 2, (1 - s) * FACE_H / 2
    dx = room_x * layout.beside * (-1 if layout.right else 1)
    dy = room_y * layout.below * (-1 if layout.bottom else 1)
    cx, cy = (FACE_W - 1) / 2, (FACE_H - 1) / 2
    m = np.array([[s, 0, cx - s * cx + dx], [0, s, cy - s * cy + dy]], np.float32)
    bg = tuple(float(v) for v in face_background(face))
    return cv2.warpAffine(
        face, m, (FACE_W, FACE_H), flags=cv2.INTER_AREA, borderMode=cv2.BORDER_CONSTANT,
        borderValue=bg,
    )  # fmt: skip


def print_index(face: np.ndarray, text: str, layout: IndexLayout) -> np.ndarray:
    """A copy of `face` with `text` printed in the layout's corner."""
    out = face.copy()
    target = layout.height * FACE_H
    thick = max(2, int(round(target / 11)))
    (_, th), _ = cv2.getTextSize(text, layout.font, 1.0, thick)
    size = target / max(th, 1)
    (tw, th), base = cv2.getTextSize(text, layout.font, size, thick)
    pad = int(0.05 * FACE_W)
    x = FACE_W - pad - tw if layout.right else pad
    y = FACE_H - pad - base if layout.bottom else pad + th
    cv2.putText(out, text, (x, y), layout.font, size, layout.ink, thick, cv2.LINE_AA)
    return out


def layout_of(style: str) -> IndexLayout:
    """The layout a style's name draws."""
    return IndexLayout.draw(np.random.default_rng(zlib.crc32(style.encode())))


@lru_cache(maxsize=16)
def index_faces(style: str) -> dict[str, np.ndarray]:
    """The faces of one index style (code -> BGR FACE_H x FACE_W), all 42 codes."""
    from datasets.scene.faces import style_faces

    layout = layout_of(style)
    faces = {}
    for code, face in style_faces(base_style(style)).items():
        text = index_text(code, layout)
        faces[code] = print_index(squeezed(face, layout), text, layout) if text else face
    return faces
