"""Face textures of a tile set: loading, a built-in set, per-scene recolouring.

Real tile sets differ in face colour (white to yellowed ivory) and ink
(engraved and painted red, green, blue, black), so every scene recolours
the cached artwork a little and adds an engraving relief; the built-in
style (codes written with `cv2.putText`) lets the geometry be tested
without any installed artwork.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np

from datasets.art import DEFAULT_CACHE, FACE_H, FACE_W, load_faces, load_index
from datasets.scene.artvary import FIVES, ArtVariation, in_red, red_five_ink, small_art_of
from datasets.scene.fontfaces import font_faces, is_font_style
from datasets.scene.indexfaces import index_faces, is_index_style
from datasets.scene.pipfaces import is_pip_style, pip_faces
from scorer.tiles import BACK, CODES

BUILTIN = "builtin"
RIM = 0.08  # blank rim around the artwork, as a fraction of the face


def _builtin_face(code: str) -> np.ndarray:
    face = np.empty((FACE_H, FACE_W, 3), np.uint8)
    face[:] = (222, 238, 244)
    colour = {"m": (30, 30, 170), "p": (150, 60, 20), "s": (40, 120, 30), "f": (20, 110, 170)}
    ink = colour.get(code[-1], (25, 25, 25))
    cv2.putText(face, code, (18, 150), cv2.FONT_HERSHEY_DUPLEX, 2.6, ink, 7, cv2.LINE_AA)
    cv2.rectangle(face, (10, 10), (FACE_W - 11, FACE_H - 11), ink, 3)
    return face


@lru_cache(maxsize=1)
def builtin_faces() -> dict[str, np.ndarray]:
    """Every face code drawn as its own text: a style for tests and smoke runs."""
    return {c: _builtin_face(c) for c in CODES if c != BACK}


def style_faces(style: str, cache: Path = DEFAULT_CACHE) -> dict[str, np.ndarray]:
    """Faces of a style (code -> BGR image), from the art cache or built in."""
    if style == BUILTIN:
        return builtin_faces()
    if is_font_style(style) and style not in available_styles(cache):
        return font_faces(style)  # drawn with the fonts, unless baked into the cache (a GPU bundle)
    if is_pip_style(style):
        return pip_faces(style)  # drawn with opencv alone: nothing to bake into a GPU bundle
    if is_index_style(style):
        return index_faces(style)  # another training style's faces, squeezed beside an index
    return _cached_style(style, str(cache))


@lru_cache(maxsize=32)
def _cached_style(style: str, cache: str) -> dict[str, np.ndarray]:
    return load_faces(style, Path(cache))


def available_styles(cache: Path = DEFAULT_CACHE) -> list[str]:
    """Styles in the art cache (empty when it is not installed)."""
    try:
        return sorted(load_index(cache)["styles"])
    except (OSError, RuntimeError, ValueError):
        return []


def face_background(face: np.ndarray) -> np.ndarray:
    """The face colour: the median of its outer border, where there is no ink."""
    border = np.concatenate(
        [
            face[:6].reshape(-1, 3),
            face[-6:].reshape(-1, 3),
            face[:, :6].reshape(-1, 3),
            face[:, -6:].reshape(-1, 3),
        ]
    )
    return np.median(border, axis=0).astype(np.float32)


_PREPARED: dict[tuple[int, int], tuple[np.ndarray, np.ndarray, np.ndarray]] = {}


def _prepare(face: np.ndarray, down: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A face halved `down` times with its rim, ink coverage (0-1) and background; cached."""
    key = (id(face), down)
    if key not in _PREPARED:
        if len(_PREPARED) > 4096:
            _PREPARED.clear()
        small = face
        for _ in range(down):
            small = cv2.pyrDown(small)
        _PREPARED[key] = _pad(small, face_background(face))
    return _PREPARED[key]


def _pad(small: np.ndarray, bg: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The face with its blank rim, its ink coverage (0-1) and its background."""
    fh, fw = small.shape[:2]
    ry, rx = int(fh * RIM), int(fw * RIM)
    plate = cv2.copyMakeBorder(small, ry, ry, rx, rx, cv2.BORDER_CONSTANT, value=bg.tolist())
    ink = np.clip(np.abs(plate.astype(np.float32) - bg).sum(axis=2) / 90.0, 0, 1)
    return plate, ink, bg


class FaceSet:
    """The recoloured, relief-shaded faces of one scene, with mip levels.

    Built lazily per code (a scene uses 14 to 40 of the 42 faces) and only
    as large as the scene's biggest tile needs.
    """

    def __init__(
        self,
        faces: dict[str, np.ndarray],
        rng: np.random.Generator,
        max_px: float = 300,
        vary: bool = True,
        red_fives: float = 0.0,
        small_art: float = 0.0,
    ) -> None:
        """`red_fives`: the chance that this set prints its fives in red, `small_art` that it
        draws its art small (`small_art_of`); both drawn from the variation's own seed, so the
        scene's other draws stay as they were."""
        self.faces = faces
        self.variation = ArtVariation.draw(rng)  # drawn even when off: same seed, same scene
        self.variation.active &= vary
        if vary:
            self.variation = small_art_of(self.variation, small_art)
        own = np.random.default_rng([self.variation.seed, 5])
        self.red = red_five_ink(own) if own.random() < red_fives else None
        self.tint = rng.uniform(-10, 12, 3).astype(np.float32)  # face colour shift
        if rng.random() < 0.35:
            self.tint[0] -= rng.uniform(0, 25)  # a yellowed set
        self.ink_gain = rng.uniform(0.8, 1.1, 3).astype(np.float32)
        self.relief = float(rng.uniform(0.0, 0.6))
        self.light = rng.normal(0, 1, 2)
        self.down = 0
        while FACE_W / 2 ** (self.down + 1) >= 1.2 * max_px and self.down < 3:
            self.down += 1
        self._done: dict[str, list[np.ndarray]] = {}
        body = face_background(next(iter(faces.values())))
        paper = self.variation.paper_for(body)
        if paper is not None:
            body = paper
        self.body = np.clip(body + self.tint, 0, 255)

    def mips(self, code: str) -> list[np.ndarray]:
        """The face of `code` with its rim, then halved sizes."""
        if code not in self._done:
            self._done[code] = self._build(code)
        return self._done[code]

    def _build(self, code: str) -> list[np.ndarray]:
        plate, ink, bg = self.plate(code)
        if self.red is not None and code in FIVES:
            plate = in_red(plate, ink, bg, self.red)
        paper = np.empty_like(plate)
        paper[:] = np.clip(bg + self.tint, 0, 255).astype(np.uint8)
        inked = cv2.multiply(plate, tuple(float(g) for g in self.ink_gain) + (1.0,))
        out = cv2.blendLinear(inked, paper, ink, 1.0 - ink)
        if self.relief > 0:  # engraving: ink edges catch the light on one side
            step = max(1, 2 >> self.down)
            dx, dy = (
                int(np.sign(self.light[0]) or 1) * step,
                int(np.sign(self.light[1]) or 1) * step,
            )
            edge = (np.roll(ink, (dy, dx), axis=(0, 1)) - ink) * (40 * self.relief)
            out = cv2.add(out, cv2.merge([edge, edge, edge]), dtype=cv2.CV_8U)
        levels = [out]
        while levels[-1].shape[1] > 24:
            levels.append(cv2.pyrDown(levels[-1]))
        return levels

    def plate(self, code: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The face of `code` before tint and relief: the art, or this scene's variation of it.

        Returns the face with its rim, its ink coverage (0-1) and its face colour.
        """
        if not self.variation.active:
            return _prepare(self.faces[code], self.down)
        face = self.faces[code]  # varied faces are one scene's: not cached
        small = face
        for _ in range(self.down):
            small = cv2.pyrDown(small)
        bg = face_background(face)
        small = self.variation.apply(small, bg, code, self.down)
        paper = self.variation.paper_for(bg)
        if paper is not None:
            bg = paper
        return _pad(small, bg)
