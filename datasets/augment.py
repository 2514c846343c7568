"""Photometric augmentation shared by the detector and classifier training.

Real photos vary in light, white balance, focus and compression far more
than cmd-v4 does, so every training image passes through random colour,
blur, noise and JPEG changes. Geometry is handled by each trainer because
boxes must follow it.
"""

from __future__ import annotations

import cv2
import numpy as np


def photometric(img: np.ndarray, rng: np.random.Generator, strength: float = 1.0) -> np.ndarray:
    """Random colour/contrast/blur/noise/JPEG changes of a BGR uint8 image."""
    out = img.astype(np.float32)
    # per-channel gain (white balance), brightness, contrast
    gains = 1.0 + rng.uniform(-0.15, 0.15, size=3) * strength
    out *= gains[None, None, :]
    contrast = 1.0 + rng.uniform(-0.35, 0.35) * strength
    mean = out.mean()
    out = (out - mean) * contrast + mean + rng.uniform(-40, 40) * strength
    if rng.random() < 0.3 * strength:  # desaturate
        gray = out.mean(axis=2, keepdims=True)
        a = rng.uniform(0.3, 1.0)
        out = out * (1 - a) + gray * a
    if rng.random() < 0.3:  # light gradient across the image
        h, w = out.shape[:2]
        gx = np.linspace(-1, 1, w, dtype=np.float32)[None, :, None]
        gy = np.linspace(-1, 1, h, dtype=np.float32)[:, None, None]
        out *= 1.0 + (gx * rng.uniform(-0.3, 0.3) + gy * rng.uniform(-0.3, 0.3)) * strength
    out = np.clip(out, 0, 255).astype(np.uint8)
    r = rng.random()
    if r < 0.25:
        k = int(rng.choice([3, 5]))
        out = cv2.GaussianBlur(out, (k, k), 0)
    elif r < 0.35:
        h, w = out.shape[:2]
        f = rng.uniform(0.35, 0.7)
        small = cv2.resize(
            out, (max(1, int(w * f)), max(1, int(h * f))), interpolation=cv2.INTER_AREA
        )
        out = cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)
    if rng.random() < 0.3:
        noise = rng.normal(0, rng.uniform(3, 12), size=out.shape).astype(np.float32)
        out = np.clip(out.astype(np.float32) + noise, 0, 255).astype(np.uint8)
    if rng.random() < 0.3:
        ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(25, 80))])
        if ok:
            out = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    return out


def ink_width(img: np.ndarray, rng: np.random.Generator, chance: float) -> np.ndarray:
    """Thicker or thinner strokes, at `chance`: tile sets differ in how heavily they are
    engraved, and the shapes of pips and characters must name them either way. A min
    filter spreads the dark ink over the light face; a max filter thins it."""
    if rng.random() >= chance:
        return img
    kernel = np.ones((2, 2) if rng.random() < 0.7 else (3, 3), np.uint8)
    spread = rng.random() < 0.5
    return cv2.erode(img, kernel) if spread else cv2.dilate(img, kernel)


#: saturation (OpenCV's 0-255) above which a pixel counts as ink, not face
INK_SATURATION = 70


def ink_hue(img: np.ndarray, rng: np.random.Generator, chance: float) -> np.ndarray:
    """Coloured ink turned to another hue, at `chance`: sets print their dots, bamboos
    and characters in their own colours (blue or green dots, red or black 万), and the
    kind is in the shape, not the colour. The face (pale, unsaturated) keeps its tint.
    At no chance it draws nothing, so runs from before it see the same views."""
    if chance <= 0 or rng.random() >= chance:
        return img
    hsv = cv2.cvtColor(img, cv2.COLOR_BGR2HSV)
    ink = hsv[..., 1] > INK_SATURATION
    turn = int(rng.integers(20, 160))  # OpenCV hue runs 0-179
    hue = hsv[..., 0].astype(np.int32)
    hsv[..., 0] = np.where(ink, (hue + turn) % 180, hue).astype(np.uint8)
    return cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)


def rand_conv(img: np.ndarray, rng: np.random.Generator, chance: float) -> np.ndarray:
    """The view passed through a random convolution, at `chance`: a 1x1, 3x3 or 5x5
    filter mixing the three channels with random weights recolours and re-textures the
    face while its shapes stay where they are, so a set's own inks, engraving and
    shading stop naming the tile and its shapes must (random-convolution augmentation,
    Xu et al., ICLR 2021). The filtered image keeps the view's mean and spread per
    channel; it is not blended back with the view, where an inverted channel could
    cancel the strokes out. At no chance it draws nothing."""
    if chance <= 0 or rng.random() >= chance:
        return img
    k = int(rng.choice([1, 3, 5]))
    weights = rng.normal(0.0, 1.0 / np.sqrt(3 * k * k), size=(3, 3, k, k)).astype(np.float32)
    src = img.astype(np.float32)
    out = np.empty_like(src)
    for c in range(3):
        out[..., c] = sum(
            cv2.filter2D(src[..., i], -1, weights[c, i], borderType=cv2.BORDER_REFLECT)
            for i in range(3)
        )
    mean, std = src.mean(axis=(0, 1)), src.std(axis=(0, 1)) + 1.0
    out = (out - out.mean(axis=(0, 1))) / (out.std(axis=(0, 1)) + 1e-3) * std + mean
    return np.clip(out, 0, 255).astype(np.uint8)


def line_art(img: np.ndarray, rng: np.random.Generator, chance: float) -> np.ndarray:
    """The view redrawn as line art, at `chance`: the edges of its strokes (Canny on the
    grey view, at a threshold drawn at random, thickened now and then) in one dark ink on
    a plain light face. Some sets are drawn in outline only, and engraving that has worn
    leaves little but edges; the shapes' outlines must name the tile as their fills do.
    A back redrawn so would be a blank face (白): the caller keeps backs as they are. At
    no chance it draws nothing."""
    if chance <= 0 or rng.random() >= chance:
        return img
    grey = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
    low = int(rng.integers(30, 100))
    edges = cv2.Canny(grey, low, 2 * low)
    if rng.random() < 0.5:
        edges = cv2.dilate(edges, np.ones((2, 2), np.uint8))
    face = rng.integers(185, 256, size=3).astype(np.uint8)
    ink = rng.integers(0, 90, size=3).astype(np.uint8)
    return np.where(edges[..., None] > 0, ink, face).astype(np.uint8)
