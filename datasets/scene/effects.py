"""What the lamp and the phone camera do to a picture.

Applied after the geometry is drawn: colour temperature, one lamp's fall
off, glare on the glossy tile tops, focus and motion blur, sensor noise.
JPEG compression happens when the picture is written.
"""

from __future__ import annotations

import cv2
import numpy as np


def light_direction(rng: np.random.Generator) -> np.ndarray:
    """A unit vector towards the main lamp, 25 to 85 degrees above the table."""
    el = np.radians(rng.uniform(25, 85))
    az = rng.uniform(0, 2 * np.pi)
    return np.array([np.cos(el) * np.cos(az), np.cos(el) * np.sin(az), np.sin(el)])


def apply_shadows(img: np.ndarray, polys: list[np.ndarray], rng: np.random.Generator) -> None:
    """Darken the table under and beside the tiles (cast shadow + contact shadow)."""
    h, w = img.shape[:2]
    scale = 4
    mask = np.zeros((h // scale + 1, w // scale + 1), np.float32)
    for pts in polys:
        hull = cv2.convexHull(np.round(pts / scale * 16).astype(np.int32))
        cv2.fillConvexPoly(mask, hull, 1.0, cv2.LINE_AA, 4)
    sigma = float(rng.uniform(0.8, 4.0))
    mask = cv2.GaussianBlur(mask, (0, 0), sigma)
    strength = float(rng.uniform(0.25, 0.6))
    keep = cv2.resize(1.0 - strength * mask, (w, h), interpolation=cv2.INTER_LINEAR)
    img[:] = cv2.multiply(img, cv2.merge([keep, keep, keep]), dtype=cv2.CV_8U)


def photo_effects(img: np.ndarray, top_mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Colour cast, lamp fall-off, glare, blur and noise; returns a new BGR uint8 image."""
    h, w = img.shape[:2]
    # white balance: warm (tungsten) to cold (shade, fluorescent), and exposure
    temp = rng.uniform(-1, 1)
    gains = np.array([1 - 0.1 * temp, 1.0, 1 + 0.1 * temp], np.float32) * rng.uniform(0.85, 1.1)
    gains *= rng.uniform(0.96, 1.04, 3).astype(np.float32)
    # auto exposure: a phone exposes for the bright tiles, which come out near white
    tops = img[::4, ::4][top_mask[::4, ::4] > 128]
    if len(tops) > 20:
        level = float(np.percentile(tops.max(axis=1), 75))
        gains *= np.float32(np.clip(rng.uniform(200, 250) / max(level, 1.0), 0.8, 1.8))
    # one lamp: brighter around a point, darker towards the corners (computed small)
    sh, sw = h // 8 + 1, w // 8 + 1
    yy, xx = np.mgrid[0:sh, 0:sw].astype(np.float32)
    lx, ly = rng.uniform(-0.2, 1.2) * sw, rng.uniform(-0.2, 1.2) * sh
    r2 = ((xx - lx) ** 2 + (yy - ly) ** 2) / float(sw**2 + sh**2)
    fall = (1.0 - rng.uniform(0.1, 0.6) * np.clip(r2, 0, 1.5)).astype(np.float32)
    gain_map = cv2.resize(
        cv2.merge([fall * g for g in gains]), (w, h), interpolation=cv2.INTER_LINEAR
    )
    out = cv2.multiply(img, gain_map, dtype=cv2.CV_32F)
    # glare: a soft bright spot reflected by the glossy tops only
    if rng.random() < 0.5:
        gx, gy = rng.uniform(0, sw), rng.uniform(0, sh)
        size = rng.uniform(0.05, 0.3) * (sw + sh)
        spot = np.exp(-((xx - gx) ** 2 + ((yy - gy) * rng.uniform(0.5, 2)) ** 2) / (2 * size**2))
        spot = cv2.resize((spot * rng.uniform(40, 160)).astype(np.float32), (w, h))
        glare = cv2.multiply(spot, top_mask.astype(np.float32), scale=1 / 255.0)
        out = cv2.add(out, cv2.merge([glare, glare, glare]))
    out = np.clip(out, 0, 255, out=out).astype(np.uint8)
    # focus and motion blur
    if rng.random() < 0.45:
        out = cv2.GaussianBlur(out, (0, 0), float(rng.uniform(0.3, 1.5)))
    if rng.random() < 0.1:
        n = int(rng.integers(3, 8))
        k = np.zeros((n, n), np.float32)
        k[n // 2, :] = 1.0 / n
        rot = cv2.getRotationMatrix2D((n / 2 - 0.5, n / 2 - 0.5), float(rng.uniform(0, 180)), 1.0)
        k = cv2.warpAffine(k, rot, (n, n))
        out = cv2.filter2D(out, -1, k / max(k.sum(), 1e-6))
    # sensor noise: random windows of one fixed noise field, chosen by the scene's generator
    sigma = float(rng.uniform(1, 7))
    luma = _noise_window(rng, h, w, 1)
    noisy = cv2.addWeighted(
        out, 1.0, cv2.merge([luma, luma, luma]), sigma / NOISE_SIGMA, 0.0, dtype=cv2.CV_16S
    )
    if rng.random() < 0.5:
        chroma = _noise_window(rng, h, w, 3)
        noisy = cv2.addWeighted(
            noisy, 1.0, chroma, sigma * 0.5 / NOISE_SIGMA, 0.0, dtype=cv2.CV_16S
        )
    return np.clip(noisy, 0, 255).astype(np.uint8)


NOISE_SIGMA = 8.0
_NOISE: list[np.ndarray] = []


def _noise_window(rng: np.random.Generator, h: int, w: int, channels: int) -> np.ndarray:
    """Gaussian noise (sigma NOISE_SIGMA, int16) of the given shape, cheap to draw."""
    if not _NOISE:
        field = np.random.default_rng(12345).normal(0, NOISE_SIGMA, (2600, 2600, 3))
        _NOISE.append(field.astype(np.int16))
    field = _NOISE[0]
    y = int(rng.integers(0, field.shape[0] - h + 1)) if h < field.shape[0] else 0
    x = int(rng.integers(0, field.shape[1] - w + 1)) if w < field.shape[1] else 0
    win = field[y : y + h, x : x + w, :channels]
    if win.shape[0] < h or win.shape[1] < w:  # pictures larger than the field: tile it
        win = np.tile(win, (h // win.shape[0] + 1, w // win.shape[1] + 1, 1))[:h, :w]
    if rng.random() < 0.5:
        win = win[::-1, ::-1]
    return np.ascontiguousarray(win if channels == 3 else win[..., 0])
