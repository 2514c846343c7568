"""Random variation of a tile set's artwork, so models meet more sets than we have art for.

Real clubs own many tile sets: the same glyphs engraved thin or bold, in
other ink colours, on white to yellowed or tinted faces, drawn a little
larger or sheared, some with an index numeral in a corner. A classifier
trained on a handful of drawn styles learns their exact ink colours and
stroke widths; varying them per scene forces it onto the glyph shapes.

One `ArtVariation` is drawn per scene (a tile set is consistent); each
face then gets its own small elastic wobble from a seed derived from the
scene's draws and the tile code, so the result does not depend on the
order in which faces are built. Amounts are moderate: the ink stays
mostly where it was (tests check the ink masks' overlap).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache

import cv2
import numpy as np

from scorer.tiles import INDEX, WINDS

UNCHANGED_P = 0.25  # share of scenes whose art is left as drawn
INK_SCALE = 90.0  # colour distance from the face colour at which a pixel is fully ink
PAPERS = (  # BGR face colours: white, ivory, yellowish, light green, light blue
    (246, 246, 246), (214, 234, 244), (170, 222, 240), (200, 232, 206), (238, 224, 204),
)  # fmt: skip
SUM_INK = np.full((1, 3), 1.0 / INK_SCALE, np.float32)  # channel sum, scaled: ink coverage
LUMA = np.array([0.114, 0.587, 0.299])  # BGR weights of brightness
#: the fives that Japanese-style sets print in red (akadora); the reader names them 5
FIVES = frozenset({"5m", "5p", "5s"})
#: BGR red inks of those fives, and how far a scene's red strays from them
RED_INK = (40.0, 35.0, 190.0)
RED_SPREAD = 25.0
#: how large a set that draws its art small draws it (share of the face, about its centre)
SMALL_ART = (0.6, 0.85)


def _dark(bg: np.ndarray) -> bool:
    """A dark face (jade-like sets carry light ink): its colour and ink are not swapped for light ones."""
    return float(bg @ LUMA) < 128


@lru_cache(maxsize=8)
def _grid(h: int, w: int) -> tuple[np.ndarray, np.ndarray]:
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    return xs, ys


@dataclass
class ArtVariation:
    """One scene's choice of how its tile set differs from the drawn artwork."""

    active: bool
    seed: int
    recolour: str  # none | permute | hue | mono
    perm: tuple[int, int, int]
    hue_shift: int
    mono: tuple[float, float, float]
    stroke: int  # full-resolution pixels: <0 thinner, >0 bolder
    paper: tuple[float, float, float] | None
    scale: float
    shear: float
    wobble: float  # elastic displacement, full-resolution pixels
    focus: float  # <0 blur (sigma), >0 sharpen (amount)
    mark: bool
    mark_corner: int
    mark_colour: tuple[float, float, float]

    @classmethod
    def draw(cls, rng: np.random.Generator) -> ArtVariation:
        """A random variation; always the same number of draws, so the scene rng stays aligned."""
        u = rng.random(12)
        perm = tuple(int(i) for i in rng.permutation(3))
        hue_shift = int(rng.integers(20, 160))
        mono_kind = rng.random()
        mono_col = rng.uniform(0, 1, 3)
        paper = np.array(PAPERS[int(rng.integers(len(PAPERS)))], np.float64) + rng.normal(0, 5, 3)
        scale = float(rng.uniform(0.9, 1.05))
        shear = float(rng.uniform(-0.07, 0.07))
        wobble = float(rng.uniform(0.5, 2.0))
        blur, sharp = float(rng.uniform(0.5, 1.0)), float(rng.uniform(0.3, 0.8))
        stroke = int(rng.choice([-1, 1, 2]))
        corner = int(rng.integers(4))
        mark_col = rng.uniform(0, 1, 3)
        seed = int(rng.integers(2**62))
        recolour = "none"
        if u[1] < 0.7:
            recolour = ["permute", "hue", "mono"][int(u[2] * 3)]
        if mono_kind < 0.5:  # near black ink
            mono = tuple(float(v) for v in 15 + mono_col * 35)
        else:  # one dark saturated ink
            dark = np.zeros(3)
            dark[int(mono_col[0] * 3) % 3] = 120 + 80 * mono_col[1]
            mono = tuple(float(v) for v in dark + 15 + 25 * mono_col[2])
        return cls(
            active=bool(u[0] >= UNCHANGED_P),
            seed=seed,
            recolour=recolour,
            perm=perm,
            hue_shift=hue_shift,
            mono=mono,
            stroke=stroke if u[3] < 0.6 else 0,
            paper=tuple(float(v) for v in np.clip(paper, 0, 255)) if u[4] < 0.6 else None,
            scale=scale if u[5] < 0.6 else 1.0,
            shear=shear if u[6] < 0.5 else 0.0,
            wobble=wobble if u[7] < 0.5 else 0.0,
            focus=-blur if u[8] < 0.25 else (sharp if u[8] > 0.75 else 0.0),
            mark=bool(u[9] < 0.3),
            mark_corner=corner,
            mark_colour=tuple(float(v) for v in 20 + mark_col * np.array([150, 60, 160])),
        )

    def paper_for(self, bg: np.ndarray) -> np.ndarray | None:
        """The new face colour for art of face colour `bg`, or None when it is kept."""
        if not self.active or self.paper is None or _dark(bg):
            return None
        return np.array(self.paper, np.float32)

    def apply(self, face: np.ndarray, bg: np.ndarray, code: str, down: int = 0) -> np.ndarray:
        """`face` (BGR uint8, the art halved `down` times, face colour `bg`) varied."""
        if not self.active:
            return face
        rng = np.random.default_rng([self.seed, INDEX.get(code, 99)])
        px = 1.0 / 2**down  # one full-resolution pixel at this size
        face = self._warp(face, bg, rng, px)
        f = face.astype(np.float32)
        bgimg = np.empty_like(f)
        bgimg[:] = bg
        diff = cv2.subtract(f, bgimg)
        alpha = cv2.threshold(cv2.transform(np.abs(diff), SUM_INK), 1.0, 1.0, cv2.THRESH_TRUNC)[1]
        paper = self.paper_for(bg)
        paperimg = bgimg if paper is None else np.full_like(f, 0) + paper
        if self.stroke or self.recolour != "none":
            # the ink's own colour, unmixed from the face (faint pixels: the face colour)
            recip = cv2.divide(1.0, cv2.max(alpha, 0.05))
            recip[alpha < 0.05] = 0
            ink = cv2.add(cv2.multiply(diff, cv2.merge([recip, recip, recip])), bgimg)
            ink = np.clip(ink, 0.0, 255.0)  # cv2.min(ink, 255.0) reads 255.0 as (255, 0, 0)
            alpha, ink = self._stroke(alpha, ink, px, _dark(bg))
            ink = self._recolour(ink, alpha, bg)
            out = cv2.blendLinear(ink, paperimg, alpha, cv2.subtract(1.0, alpha))
        elif paper is not None:  # same as above with the ink unchanged, without unmixing
            shift = cv2.subtract(paperimg, bgimg)
            rest = cv2.subtract(1.0, alpha)
            out = cv2.add(f, cv2.multiply(shift, cv2.merge([rest, rest, rest])))
        else:
            out = f
        if self.mark:
            self._mark(out, code, px)
        if self.focus < 0:
            out = cv2.GaussianBlur(out, (0, 0), -self.focus * max(px, 0.5))
        elif self.focus > 0:
            soft = cv2.GaussianBlur(out, (0, 0), 1.2 * max(px, 0.5))
            out = cv2.addWeighted(out, 1 + self.focus, soft, -self.focus, 0)
        return np.clip(out, 0, 255).astype(np.uint8)

    def _warp(
        self, face: np.ndarray, bg: np.ndarray, rng: np.random.Generator, px: float
    ) -> np.ndarray:
        """Scale and shear the ink about the face centre, plus a smooth per-face wobble."""
        if self.scale == 1.0 and self.shear == 0.0 and self.wobble == 0.0:
            return face
        h, w = face.shape[:2]
        cx, cy = (w - 1) / 2, (h - 1) / 2
        # inverse map (output pixel -> source pixel) of x' = s (x + shear y), y' = s y
        a, b = 1 / self.scale, -self.shear / self.scale
        border = tuple(float(v) for v in bg)
        if self.wobble == 0.0:
            m = np.array([[a, b, cx - a * cx - b * cy], [0, a, cy - a * cy]], np.float32)
            return cv2.warpAffine(
                face,
                m,
                (w, h),
                flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                borderMode=cv2.BORDER_CONSTANT,
                borderValue=border,
            )
        xs, ys = _grid(h, w)
        amp = self.wobble * px
        field = rng.uniform(-amp, amp, (2, 3, 3)).astype(np.float32)
        mx = (
            a * (xs - cx)
            + b * (ys - cy)
            + cx
            + cv2.resize(field[0], (w, h), interpolation=cv2.INTER_CUBIC)
        )
        my = a * (ys - cy) + cy + cv2.resize(field[1], (w, h), interpolation=cv2.INTER_CUBIC)
        return cv2.remap(
            face, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=border
        )

    def _stroke(
        self, alpha: np.ndarray, ink: np.ndarray, px: float, dark: bool = False
    ) -> tuple[np.ndarray, np.ndarray]:
        """Thinner or bolder strokes; below full resolution a partial step. New ink pixels
        take the colour of their neighbour farthest from the face: the darkest, or on a
        `dark` face the lightest."""
        if self.stroke == 0:
            return alpha, ink
        k = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (3, 3))
        op = cv2.dilate if self.stroke > 0 else cv2.erode
        # bolder by 0.75 or 1.5 pixels; thinner by 0.6 pixel only, so thin strokes do not vanish
        steps = abs(self.stroke) * px * 0.75 if self.stroke > 0 else 0.6 * px
        whole, part = int(steps), steps - int(steps)
        grown = alpha
        for _ in range(whole):
            grown = op(grown, k)
        if part > 0:
            grown = cv2.addWeighted(grown, 1 - part, op(grown, k), part, 0)
        if self.stroke > 0:
            spread = cv2.dilate if dark else cv2.erode
            cv2.copyTo(spread(ink, k, iterations=max(1, whole)), (alpha < 0.5).view(np.uint8), ink)
        return grown, ink

    def _recolour(self, ink: np.ndarray, alpha: np.ndarray, bg: np.ndarray) -> np.ndarray:
        if self.recolour == "none":
            return ink
        if self.recolour == "permute":
            new = ink[..., list(self.perm)]
        elif self.recolour == "hue":
            hsv = cv2.cvtColor(ink, cv2.COLOR_BGR2HSV_FULL)  # float: hue in degrees
            hsv[..., 0] = (hsv[..., 0] + self.hue_shift * 2) % 360
            new = cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR_FULL)
        else:  # one ink colour
            mono = np.array(self.mono, np.float32)
            if _dark(bg):  # light ink on a dark face (jade sets): the same ink, lightened
                mono = 255 - mono
            new = one_ink(ink, bg, mono)
        return over_ink(new, ink, alpha)

    def _mark(self, out: np.ndarray, code: str, px: float) -> None:
        """A small index numeral in a corner of `out` (float BGR), as some sets print: the true index."""
        text = code[0] if code[0].isdigit() else (code if code in WINDS else "")
        if not text:
            return
        h, w = out.shape[:2]
        size = 0.9 * px
        thick = max(1, int(round(2 * px)))
        (tw, th), base = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, size, thick)
        pad = int(round(6 * px)) + 1
        x = pad if self.mark_corner % 2 == 0 else w - pad - tw
        y = pad if self.mark_corner < 2 else h - pad - th
        bh, bw = th + base + 2 * thick, tw + 2 * thick  # the numeral's box, drawn on its own
        x, y = max(0, min(x, w - bw)), max(0, min(y, h - bh))
        mark = np.zeros((bh, bw), np.uint8)
        cv2.putText(
            mark, text, (thick, th + thick), cv2.FONT_HERSHEY_SIMPLEX, size, 255, thick, cv2.LINE_AA
        )
        m = mark.astype(np.float32) / 255
        roi = out[y : y + bh, x : x + bw]
        colour = np.empty_like(roi)
        colour[:] = self.mark_colour
        roi[:] = cv2.blendLinear(colour, roi, m, 1 - m)


def one_ink(ink: np.ndarray, bg: np.ndarray, colour: np.ndarray) -> np.ndarray:
    """`ink` (float BGR) redrawn in one `colour` on the face colour `bg`: light inks stay
    light, so the glyph keeps its inner contrast. On a dark face (jade sets) "light" is as
    far from the face colour as the ink goes."""
    grey = cv2.cvtColor(ink, cv2.COLOR_BGR2GRAY)[..., None]
    lum = float(bg @ LUMA)
    if _dark(bg):
        light = np.clip((255 - grey) / max(255 - lum, 1.0), 0, 1) ** 2
    else:
        light = np.clip(grey / max(lum, 1.0), 0, 1) ** 2
    return colour + (bg.astype(np.float32) - colour) * light


def over_ink(new: np.ndarray, ink: np.ndarray, alpha: np.ndarray) -> np.ndarray:
    """`new` where `alpha` (ink coverage 0-1) is ink, `ink` where the face shows through:
    faint face texture keeps its colour."""
    w = np.clip((alpha - 0.3) / 0.4, 0, 1)
    return cv2.blendLinear(new.astype(np.float32), ink, w, 1 - w)


def red_five_ink(rng: np.random.Generator) -> tuple[float, float, float]:
    """One scene's red for its fives: sets differ from scarlet to crimson."""
    red = np.array(RED_INK) + rng.uniform(-RED_SPREAD, RED_SPREAD, 3) * np.array([0.6, 0.6, 1.0])
    return tuple(float(v) for v in np.clip(red, 0, 255))


def in_red(plate: np.ndarray, ink: np.ndarray, bg: np.ndarray, red: tuple) -> np.ndarray:
    """A face (BGR uint8 `plate`, ink coverage `ink` 0-1, face colour `bg`) with all its ink
    turned `red`, as a red five is printed (`one_ink`); on a dark face the red is lightened
    halfway to white, so the glyph stays lighter than the face and still red."""
    f = plate.astype(np.float32)
    colour = np.array(red, np.float32)
    if _dark(bg):
        colour = (colour + 255) / 2
    return np.clip(over_ink(one_ink(f, bg, colour), f, ink), 0, 255).astype(np.uint8)


def small_art_of(variation: ArtVariation, chance: float) -> ArtVariation:
    """The variation, at `chance` drawing the art small: some sets engrave small pips and
    characters on a wide plain face, where the drawn art fills it. The draw comes from
    the variation's own seed (the scene's other draws stay as they were); a scene whose
    art was left as drawn changes in size alone. At no chance it draws nothing."""
    if chance <= 0:
        return variation
    own = np.random.default_rng([variation.seed, 6])
    if own.random() >= chance:
        return variation
    scale = float(own.uniform(*SMALL_ART))
    if variation.active:
        return replace(variation, scale=scale)
    return replace(
        variation, active=True, scale=scale, recolour="none", stroke=0, paper=None,
        shear=0.0, wobble=0.0, focus=0.0, mark=False,
    )  # fmt: skip
