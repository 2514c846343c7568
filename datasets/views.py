"""Training views for the tile detector: geometry augmentation and heatmap targets.

Kept apart from the trainer (no torch here) so the box arithmetic is tested
wherever the project's tests run. A view is one affine warp of the photo
(turn, tilt, mirror, scale, stretch, window), and every labelled box is
moved by the same map.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from vision.detect import INFER_SIZE, STRIDE

CROP = 256  # side of a training view in pixels


def view_transform(
    w: int, h: int, rng: np.random.Generator, max_tilt: float = 12.0, long_side: int = INFER_SIZE
) -> tuple[np.ndarray, float]:
    """Random affine map (2x3) from a w x h photo to a CROP x CROP training view.

    Turns by a multiple of 90 degrees plus, half the time, a small tilt;
    mirrors half the time (fine for a class-free detector); scales so the
    photo's long side lands at 0.45..1.15 x `long_side` (the detector's input
    for such a photo) with aspect jitter
    (hard stretches included);
    then picks the window. Returns the map and its overall scale.
    """
    angle = math.radians(
        90 * int(rng.integers(0, 4))
        + (rng.uniform(-max_tilt, max_tilt) if rng.random() < 0.5 else 0.0)
    )
    s = rng.uniform(0.45, 1.15) * long_side / max(h, w)
    # aspect jitter; a quarter of the views are stretched hard, as photos squeezed into a
    # square frame are (tiles up to ~10:1 in cmd-v4 valid)
    a = math.exp(rng.uniform(-1.2, 1.2) if rng.random() < 0.25 else rng.uniform(-0.3, 0.3))
    flip = -1.0 if rng.random() < 0.5 else 1.0
    cos, sin = math.cos(angle), math.sin(angle)
    lin = np.array([[cos, -sin], [sin, cos]]) @ np.diag([s * a * flip, s / a])
    corners = (np.array([[0, 0], [w, 0], [0, h], [w, h]], np.float64) - [w / 2, h / 2]) @ lin.T
    lo, hi = corners.min(0), corners.max(0)
    # window origin: the whole photo inside the window when it is smaller, else any window inside it
    o = np.array([rng.uniform(min(lo[i], hi[i] - CROP), max(lo[i], hi[i] - CROP)) for i in (0, 1)])
    t = -lin @ np.array([w / 2, h / 2]) - o
    return np.hstack([lin, t[:, None]]), s


def warp_boxes(boxes: np.ndarray, m: np.ndarray) -> np.ndarray:
    """Axis-aligned boxes after the affine map: the box around the four moved corners.

    For an upright tile this is exactly the box of the turned tile.
    """
    if len(boxes) == 0:
        return boxes.reshape(0, 4)
    x1, y1, x2, y2 = boxes.T
    pts = np.stack(
        [
            np.stack([x1, y1], 1),
            np.stack([x2, y1], 1),
            np.stack([x1, y2], 1),
            np.stack([x2, y2], 1),
        ],
        1,
    )
    moved = pts @ m[:, :2].T + m[:, 2]
    return np.concatenate([moved.min(1), moved.max(1)], axis=1).astype(np.float32)


def random_view(
    img: np.ndarray,
    boxes: np.ndarray,
    rng: np.random.Generator,
    half: np.ndarray | None = None,
    long_side: int = INFER_SIZE,
):
    """A CROP x CROP training view of a photo and its boxes (one warp, no full-size copies).

    `half` is the photo at half size: strong downscales sample it instead,
    since a bilinear warp would alias.
    """
    h, w = img.shape[:2]
    m, s = view_transform(w, h, rng, long_side=long_side)
    src, ms = img, m
    if half is not None and s < 0.55:
        src = half
        ms = m.copy()
        ms[:, :2] = m[:, :2] * np.array([w / half.shape[1], h / half.shape[0]])
    border = tuple(int(v) for v in rng.integers(0, 256, size=3))
    out = cv2.warpAffine(
        src,
        ms,
        (CROP, CROP),
        flags=cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_CONSTANT,
        borderValue=border,
    )
    return out, warp_boxes(boxes, m)


def make_targets(boxes: np.ndarray, size: int):
    """Heatmap (gaussian per centre), size/offset targets and their mask at stride 4."""
    g = size // STRIDE
    heat = np.zeros((g, g), np.float32)
    reg = np.zeros((4, g, g), np.float32)
    mask = np.zeros((g, g), np.float32)
    ignore = np.zeros((g, g), np.float32)
    ys, xs = np.mgrid[0:g, 0:g].astype(np.float32)
    for x1, y1, x2, y2 in boxes:
        cx, cy = (x1 + x2) / 2, (y1 + y2) / 2
        bw, bh = x2 - x1, y2 - y1
        if bw < 2 or bh < 2:
            continue
        vx1, vy1, vx2, vy2 = max(x1, 0), max(y1, 0), min(x2, size), min(y2, size)
        visible = max(0, vx2 - vx1) * max(0, vy2 - vy1) / (bw * bh)
        gcx, gcy = cx / STRIDE, cy / STRIDE
        if not (0 <= gcx < g and 0 <= gcy < g) or visible < 0.6:
            # a tile cut by the crop edge: neither positive nor negative
            ix1, iy1 = int(max(vx1 / STRIDE, 0)), int(max(vy1 / STRIDE, 0))
            ix2, iy2 = int(min(math.ceil(vx2 / STRIDE), g)), int(min(math.ceil(vy2 / STRIDE), g))
            ignore[iy1:iy2, ix1:ix2] = 1
            continue
        sx, sy = max(bw / STRIDE / 6, 0.6), max(bh / STRIDE / 6, 0.6)
        gx1, gx2 = max(0, int(gcx - 3 * sx)), min(g, int(gcx + 3 * sx) + 2)
        gy1, gy2 = max(0, int(gcy - 3 * sy)), min(g, int(gcy + 3 * sy) + 2)
        lx, ly = xs[gy1:gy2, gx1:gx2], ys[gy1:gy2, gx1:gx2]
        blob = np.exp(-((lx - gcx) ** 2) / (2 * sx * sx) - (ly - gcy) ** 2 / (2 * sy * sy))
        heat[gy1:gy2, gx1:gx2] = np.maximum(heat[gy1:gy2, gx1:gx2], blob)
        ix, iy = int(gcx), int(gcy)
        heat[iy, ix] = 1.0
        reg[:, iy, ix] = (math.log(bw / STRIDE), math.log(bh / STRIDE), gcx - ix, gcy - iy)
        mask[iy, ix] = 1
    ignore[heat > 0.05] = 0
    return heat, reg, mask, ignore


def crop_warp(
    size: tuple[float, float],
    store: int,
    margin: float,
    rng: np.random.Generator | None,
    size_jitter: float = 0.12,
    tilt_share: float = 0.5,
) -> np.ndarray:
    """The 2x3 affine map from a stored crop to a training view, as `vision.classify.cut`
    cuts a tile at run time.

    The stored crop (`store` px, its box the central `store / margin` px) shows a
    box of `size` (w, h) photo pixels. rng=None gives the plain run-time view;
    otherwise the box is shifted (±8 %) and resized (±`size_jitter`), the tile
    turned by a random quarter and, in `tilt_share` of the views, tilted up to
    ±10 degrees. A box that ends up wider than tall is turned upright, as run
    time does.
    """
    from vision.classify import INPUT

    w, h = float(size[0]), float(size[1])
    c = np.array([store / 2, store / 2], np.float64)
    box_px = store / margin
    jx = jy = 1.0
    k, delta = 0, 0.0
    if rng is not None:
        c = c + rng.uniform(-0.08, 0.08, 2) * box_px
        jx = math.exp(rng.uniform(-size_jitter, size_jitter))
        jy = math.exp(rng.uniform(-size_jitter, size_jitter))
        k = int(rng.integers(4))
        delta = rng.uniform(-10, 10) if rng.random() < tilt_share else 0.0
    bw, bh = w * jx, h * jy  # the jittered box in photo pixels
    if k % 2:
        bw, bh = bh, bw
    if bw > bh:  # run time turns wide boxes upright
        k += 1
        bw, bh = bh, bw
    theta = math.radians(90 * k + delta)
    cos, sin = math.cos(theta), math.sin(theta)
    to_real = np.diag([w / box_px, h / box_px])
    rot = np.array([[cos, sin], [-sin, cos]])
    a = np.diag([INPUT / bw, INPUT / bh]) @ rot @ to_real
    t = np.array([INPUT / 2, INPUT / 2]) - a @ c
    return np.hstack([a, t[:, None]])


def warp_crop(crop: np.ndarray, m: np.ndarray) -> np.ndarray:
    """The training view that `crop_warp`'s map `m` makes of a stored crop."""
    from vision.classify import INPUT

    return cv2.warpAffine(
        crop, m, (INPUT, INPUT), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
    )
