"""Procedural table surfaces and clutter, defined in table coordinates.

Textures are generated over the part of the table the camera sees and
warped into the picture with the table's homography, so wood grain, weave
and printed patterns foreshorten like a real photograph.
"""

from __future__ import annotations

import cv2
import numpy as np

from datasets.scene.geometry import Camera

TEX = 480  # texture pixels along the longer side of the visible table
MAX_REACH = 40.0  # tile widths from the picture's centre that get a table texture

FELT_COLOURS = [  # BGR
    (60, 130, 40),
    (50, 110, 30),
    (90, 140, 30),
    (120, 90, 30),
    (130, 60, 20),
    (40, 40, 140),
    (60, 60, 60),
    (35, 35, 35),
    (100, 100, 100),
    (150, 150, 150),
    (70, 30, 110),
    (40, 120, 120),
]
WOOD_COLOURS = [(70, 120, 170), (40, 80, 130), (110, 160, 200), (30, 50, 80), (150, 190, 220)]


def _noise(rng: np.random.Generator, shape: tuple[int, int], cell: float) -> np.ndarray:
    """Smooth value noise in [-1, 1] with features about `cell` pixels wide."""
    cell = max(cell, 2.0)
    gh, gw = max(2, int(shape[0] / cell) + 2), max(2, int(shape[1] / cell) + 2)
    grid = rng.uniform(-1, 1, (gh, gw)).astype(np.float32)
    return cv2.resize(grid, (shape[1], shape[0]), interpolation=cv2.INTER_CUBIC)


def _felt(rng, shape, ppu):
    base = np.array(FELT_COLOURS[rng.integers(len(FELT_COLOURS))], np.float32) * rng.uniform(
        0.75, 1.25
    )
    blotch = _noise(rng, shape, 3 * ppu) * rng.uniform(0.03, 0.1)
    grain = rng.normal(0, rng.uniform(0.02, 0.06), shape).astype(np.float32)
    return base * (1 + blotch + grain)[..., None]


def _wood(rng, shape, ppu):
    """Planks along x: long fibre streaks, slow growth rings, darker seams."""
    base = np.array(WOOD_COLOURS[rng.integers(len(WOOD_COLOURS))], np.float32) * rng.uniform(
        0.85, 1.2
    )
    h, w = shape
    # fibres: noise stretched along the planks
    fib = rng.uniform(
        -1, 1, (max(2, int(h / max(ppu * 0.04, 1))), max(2, int(w / (ppu * 2.5)) + 2))
    )
    fibres = cv2.resize(fib.astype(np.float32), (w, h), interpolation=cv2.INTER_LINEAR)
    rings = cv2.resize(
        rng.uniform(-1, 1, (max(2, int(h / (ppu * 0.4))), max(2, int(w / (ppu * 6)) + 2))).astype(
            np.float32
        ),
        (w, h),
        interpolation=cv2.INTER_CUBIC,
    )
    plank_w = rng.uniform(3, 8) * ppu
    rows = np.arange(h, dtype=np.float32)[:, None]
    plank = np.floor(rows / plank_w)
    tone = ((np.sin(plank * 12.9898) * 43758.5453) % 1.0 - 0.5) * 0.2
    seam = (np.abs((rows / plank_w) % 1.0 - 0.5) > 0.495).astype(np.float32) * 0.4
    shade = 1 + 0.06 * fibres + 0.1 * np.abs(rings) + tone - seam
    return base * shade[..., None]


def _cloth(rng, shape, ppu):
    base = np.array(FELT_COLOURS[rng.integers(len(FELT_COLOURS))], np.float32) * rng.uniform(
        0.8, 1.3
    )
    h, w = shape
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    period = rng.uniform(0.08, 0.25) * ppu
    weave = np.sin(xx * 2 * np.pi / period) * np.sin(yy * 2 * np.pi / period)
    folds = _noise(rng, shape, 6 * ppu) * 0.12
    return base * (1 + 0.08 * weave + folds)[..., None]


def _pattern(rng, shape, ppu):
    """Printed covers: checks, stripes or dots in two or three colours."""
    cols = [np.array(FELT_COLOURS[i], np.float32) for i in rng.integers(len(FELT_COLOURS), size=3)]
    cols[0] = np.clip(cols[0] * 1.4 + 40, 0, 255)
    h, w = shape
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    period = rng.uniform(1.0, 4.0) * ppu
    theta = rng.uniform(0, np.pi)
    u = (xx * np.cos(theta) + yy * np.sin(theta)) / period
    v = (-xx * np.sin(theta) + yy * np.cos(theta)) / period
    style = rng.integers(3)
    if style == 0:
        m = (np.floor(u) + np.floor(v)) % 2
    elif style == 1:
        m = (u % 1.0 < 0.35).astype(np.float32) + (v % 1.0 < 0.1).astype(np.float32)
        m = np.clip(m, 0, 1)
    else:
        m = (((u % 1.0) - 0.5) ** 2 + ((v % 1.0) - 0.5) ** 2 < 0.06).astype(np.float32)
    m = cv2.GaussianBlur(m.astype(np.float32), (0, 0), 0.8)[..., None]
    out = cols[0] * (1 - m) + cols[1] * m
    return out * (1 + _noise(rng, shape, 5 * ppu) * 0.06)[..., None]


SURFACES = {"felt": _felt, "wood": _wood, "cloth": _cloth, "pattern": _pattern}
SURFACE_P = [0.45, 0.3, 0.1, 0.15]


def visible_table(cam: Camera) -> tuple[float, float, float, float]:
    """Bounding box in table coordinates of what the picture shows."""
    pts = []
    for u in (0, cam.width / 2, cam.width):
        for v in (0, cam.height / 2, cam.height):
            p = cam.table_point(u, v)
            if p is not None:
                pts.append(p[:2])
    arr = np.array(pts)
    centre = cam.table_point(cam.cx, cam.cy)
    if centre is not None:  # near the horizon the table runs far away: keep a sane part
        arr = np.clip(arr, centre[:2] - MAX_REACH, centre[:2] + MAX_REACH)
    return (
        float(arr[:, 0].min()),
        float(arr[:, 1].min()),
        float(arr[:, 0].max()),
        float(arr[:, 1].max()),
    )


def _table_edge(
    rng: np.random.Generator,
    tex: np.ndarray,
    origin: tuple[float, float],
    ppu: float,
    keep_in: tuple[float, float, float, float],
) -> np.ndarray:
    """Turn the texture into a square table with a wooden frame and the floor beyond.

    Real photos often show the frame of a mahjong table and the room past
    it; the table is placed so that every tile stays on it.
    """
    kx1, ky1, kx2, ky2 = keep_in
    half = max(float(rng.uniform(13, 17)), (kx2 - kx1) / 2 + 1, (ky2 - ky1) / 2 + 1)
    cx = rng.uniform(kx2 + 0.5 - half, kx1 - 0.5 + half)
    cy = rng.uniform(ky2 + 0.5 - half, ky1 - 0.5 + half)
    rim = float(rng.uniform(0.8, 2.5))
    h, w = tex.shape[:2]
    xs = origin[0] + (np.arange(w, dtype=np.float32) + 0.5) / ppu
    ys = origin[1] + (np.arange(h, dtype=np.float32) + 0.5) / ppu
    out_d = np.maximum(np.abs(xs[None, :] - cx), np.abs(ys[:, None] - cy)) - half
    if out_d.max() <= 0:
        return tex
    wood = np.array(WOOD_COLOURS[rng.integers(len(WOOD_COLOURS))], np.float32) * rng.uniform(
        0.7, 1.1
    )
    ramp = np.clip(out_d / rim, 0, 1)[..., None]
    frame = wood * (1.15 - 0.5 * ramp) * (1 + 0.05 * _noise(rng, (h, w), 0.3 * ppu)[..., None])
    floor_kind = str(rng.choice(["wood", "felt", "pattern"]))
    floor = SURFACES[floor_kind](rng, (h, w), ppu) * rng.uniform(0.35, 0.7)
    floor = cv2.GaussianBlur(floor.astype(np.float32), (0, 0), max(1.0, 0.3 * ppu))
    out = tex.astype(np.float32)
    on_rim = ((out_d > 0) & (out_d <= rim))[..., None]
    beyond = (out_d > rim)[..., None]
    out = np.where(on_rim, frame, out)
    out = np.where(beyond, floor, out)
    return np.clip(out, 0, 255).astype(np.uint8)


def _fill_beyond_horizon(img: np.ndarray, cam: Camera, rng: np.random.Generator) -> None:
    """Paint a wall where the camera looks above the table's horizon."""
    r = cam.rot[:, 2]  # z component of a pixel's ray, linear in (u, v)
    corners = [
        r[0] * (u - cam.cx) / cam.f + r[1] * (v - cam.cy) / cam.f + r[2]
        for u in (0, cam.width)
        for v in (0, cam.height)
    ]
    if max(corners) < -0.03:
        return
    u = (np.arange(cam.width, dtype=np.float32) - cam.cx) / cam.f
    v = (np.arange(cam.height, dtype=np.float32) - cam.cy) / cam.f
    rz = r[0] * u[None, :] + r[1] * v[:, None] + r[2]
    wall = np.array(rng.uniform(60, 200, 3), np.float32)
    shade = np.clip(1.0 + rz * 2.0, 0.5, 1.3)[..., None]
    mask = cv2.GaussianBlur((rz > -0.03).astype(np.float32), (0, 0), 3)[..., None]
    img[:] = (img * (1 - mask) + wall * shade * mask).astype(np.uint8)


def render_table(
    rng: np.random.Generator,
    cam: Camera,
    keep_in: tuple[float, float, float, float] | None = None,
    surface: str | None = None,
) -> tuple[np.ndarray, str]:
    """The table as seen by the camera (BGR uint8) and the surface kind used.

    With `keep_in` (the tiles' table box) the table may end in a frame,
    with the floor and a wall beyond.
    """
    if surface is None:
        surface = str(rng.choice(list(SURFACES), p=SURFACE_P))
    x1, y1, x2, y2 = visible_table(cam)
    span = max(x2 - x1, y2 - y1, 1e-3)
    ppu = TEX / span
    shape = (max(8, int((y2 - y1) * ppu)), max(8, int((x2 - x1) * ppu)))
    tex = np.clip(SURFACES[surface](rng, shape, ppu), 0, 255).astype(np.uint8)
    if keep_in is not None and rng.random() < 0.4:
        tex = _table_edge(rng, tex, (x1, y1), ppu, keep_in)
    to_world = np.array([[1 / ppu, 0, x1], [0, 1 / ppu, y1], [0, 0, 1]])
    hmat = cam.plane_homography() @ to_world
    img = cv2.warpPerspective(
        tex, hmat, (cam.width, cam.height), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT
    )
    _fill_beyond_horizon(img, cam, rng)
    return img, surface


def in_front(cam: Camera, world: np.ndarray) -> np.ndarray | None:
    """Pixels of `world` points, or None when one lies behind the camera.

    The visible table's bounding box can reach behind a camera held low and
    close, and a long object placed there would project to pixels no drawing
    call can take.
    """
    depth = (world - cam.pos) @ cam.rot[2]
    return cam.project(world) if np.all(depth > 0.1) else None


def draw_clutter(
    img: np.ndarray,
    rng: np.random.Generator,
    cam: Camera,
    keep_out: tuple[float, float, float, float],
) -> None:
    """Objects near the tiles: score sheets, a phone, coins, chips, a tray edge.

    They stay outside `keep_out` (the tiles' table box) so no tile is hidden.
    """
    vx1, vy1, vx2, vy2 = visible_table(cam)
    kx1, ky1, kx2, ky2 = keep_out
    for _ in range(int(rng.integers(0, 5))):
        kind = rng.choice(["paper", "phone", "coin", "chip", "bar"])
        w, d = {
            "paper": (7, 10),
            "phone": (2.5, 5),
            "coin": (0.8, 0.8),
            "chip": (1.2, 0.3),
            "bar": (30, 1.5),
        }[kind]
        for _try in range(10):
            cx, cy = rng.uniform(vx1, vx2), rng.uniform(vy1, vy2)
            r = max(w, d) / 2
            if cx + r < kx1 or cx - r > kx2 or cy + r < ky1 or cy - r > ky2:
                break
        else:
            continue
        a = rng.uniform(0, np.pi)
        corners = np.array([(-w, -d), (w, -d), (w, d), (-w, d)]) / 2
        rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
        if kind == "coin":
            t = np.linspace(0, 2 * np.pi, 24, endpoint=False)
            corners = np.column_stack([np.cos(t), np.sin(t)]) * w / 2
        world = np.column_stack([corners @ rot.T + (cx, cy), np.zeros(len(corners))])
        px = in_front(cam, world)
        colour = {
            "paper": rng.uniform(215, 250, 3),
            "phone": rng.uniform(10, 40, 3),
            "coin": rng.uniform(90, 190) * np.array([0.6, 0.8, 1.0]),
            "chip": rng.uniform(30, 230, 3),
            "bar": rng.uniform(30, 200) * np.array([0.6, 0.8, 1.0]),
        }[kind]
        if px is None:
            continue
        cv2.fillPoly(img, [np.round(px * 16).astype(np.int32)], colour.tolist(), cv2.LINE_AA, 4)
        if kind == "paper":  # ruled score sheet lines
            for k in range(1, 12):
                yy = -d / 2 + d * k / 12
                seg = np.array([(-w / 2 + 0.3, yy), (w / 2 - 0.3, yy)]) @ rot.T + (cx, cy)
                p = cam.project(np.column_stack([seg, np.zeros(2)]))
                cv2.line(
                    img,
                    tuple(np.round(p[0]).astype(int)),
                    tuple(np.round(p[1]).astype(int)),
                    (160, 140, 120),
                    1,
                    cv2.LINE_AA,
                )


def draw_tray(
    img: np.ndarray,
    rng: np.random.Generator,
    cam: Camera,
    bounds: tuple[float, float, float, float],
) -> None:
    """A shallow box under a grid of tiles, as sets are often photographed in their case."""
    x1, y1, x2, y2 = bounds
    pad = float(rng.uniform(0.0, 0.4))
    wall = float(rng.uniform(0.3, 0.8))
    colour = np.array(
        rng.choice([(30, 30, 30), (45, 40, 35), (60, 90, 120), (40, 40, 110)]), np.float32
    )
    colour *= rng.uniform(0.8, 1.2)
    # the bounds are padded by one tile depth around the tile centres already
    inner = np.array(
        [
            (x1 + 0.6 - pad, y1 + 0.6 - pad),
            (x2 - 0.6 + pad, y1 + 0.6 - pad),
            (x2 - 0.6 + pad, y2 - 0.6 + pad),
            (x1 + 0.6 - pad, y2 - 0.6 + pad),
        ]
    )
    outer = inner + np.array([(-wall, -wall), (wall, -wall), (wall, wall), (-wall, wall)])
    for quad, tone in ((outer, 1.5), (inner, 1.0)):
        pts = cam.project(np.column_stack([quad, np.zeros(4)]))
        cv2.fillConvexPoly(
            img,
            np.round(pts * 16).astype(np.int32),
            np.clip(colour * tone, 0, 255).tolist(),
            cv2.LINE_AA,
            4,
        )


def draw_console(img: np.ndarray, rng: np.random.Generator, cam: Camera) -> None:
    """An automatic table's centre console: a dark square with its dice window and lights."""
    half = float(rng.uniform(2.0, 2.8))
    a = np.radians(rng.normal(0, 2))
    rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
    square = np.array([(-half, -half), (half, -half), (half, half), (-half, half)]) @ rot.T
    colour = rng.uniform(15, 70) * np.array([1.0, 1.0, 1.0]) + rng.uniform(-10, 10, 3)
    px = in_front(cam, np.column_stack([square, np.zeros(4)]))
    if px is None:
        return
    cv2.fillPoly(img, [np.round(px * 16).astype(np.int32)], colour.tolist(), cv2.LINE_AA, 4)
    t = np.linspace(0, 2 * np.pi, 32, endpoint=False)
    ring = np.column_stack([np.cos(t), np.sin(t)]) * half * rng.uniform(0.35, 0.55)
    window = in_front(cam, np.column_stack([ring, np.zeros(len(ring))]))
    if window is not None:
        glass = np.clip(colour * rng.uniform(1.3, 2.5), 0, 255)
        cv2.fillPoly(img, [np.round(window * 16).astype(np.int32)], glass.tolist(), cv2.LINE_AA, 4)
    for k in range(4):  # a seat light on each side
        centre = (
            np.array([0.0, -half * 0.8])
            @ np.array(
                [
                    [np.cos(k * np.pi / 2), -np.sin(k * np.pi / 2)],
                    [np.sin(k * np.pi / 2), np.cos(k * np.pi / 2)],
                ]
            ).T
        )
        dot = in_front(cam, np.array([[*(centre @ rot.T), 0.0]]))
        if dot is not None:
            cv2.circle(img, tuple(np.round(dot[0]).astype(int)), 2, (40, 40, 220), -1, cv2.LINE_AA)
