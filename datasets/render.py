"""Render synthetic photographs of mahjong tiles on a table, with exact labels.

Usage::

    python -m datasets.render --count 3000 --styles train --seed 1 --out DIR \
        [--size 1280] [--kind hand|grid|row|pile|mixed|set|table] [--workers 1] [--cache PATH] \
        [--no-art-variation] [--red-fives P]

`--styles` takes style names of the art cache (`python -m datasets.art
list`), `train`, `heldout` (see `datasets.styles`), `fonts` (the
font-written styles of `datasets.scene.fontfaces`), `pips` (the dot and
bamboo designs of `datasets.scene.pipfaces`), `index` (training styles
squeezed beside a large corner index, `datasets.scene.indexfaces`) or
`builtin`.
The same seed and arguments give the same files. Each scene varies the
tile art (ink colours, stroke weight, face colour, a slight distortion,
sometimes an index numeral; see `datasets.scene.artvary`) unless
`--no-art-variation` is given. `--red-fives P` prints a scene's fives in
red at chance P, as Japanese-style sets do (labelled 5 all the same; at the
default 0 the scenes are those rendered before the option).

Output, one stem per scene (``<seed>_<index>``):

- ``DIR/images/<stem>.jpg``: the picture (longer side `--size`, random
  aspect ratio and JPEG quality);
- ``DIR/labels/<stem>.txt``: YOLO lines ``class cx cy w h`` (normalised to
  the picture), class = index in ``scorer.tiles.CODES`` (0-41 faces, 42
  ``back`` for a face-down tile); boxes cover the whole visible tile body;
- ``DIR/meta/<stem>.json``: ``width``, ``height``, ``style``, ``kind``,
  ``surface``, ``jpeg_quality``, ``camera`` (elevation, azimuth, roll
  degrees, ``tile_px``), ``hand`` (notation of CONTRACTS.md with the winning
  tile last, for ``kind == "hand"``, else null), ``flowers`` (codes),
  ``melds`` (notation and indices into ``tiles``) and ``tiles``: per tile
  ``code`` (as seen, ``back`` when face down), ``true_code``, ``class``,
  ``box`` [x1, y1, x2, y2] pixels, ``corners`` (the top face's four
  corners in pixels, in reading order of the face: top-left, top-right,
  bottom-right, bottom-left), ``sideways``, ``face_down``, ``stacked``
  (the fourth tile of a promoted kong lying on the sideways one, a wall's
  upper tile), ``under`` (a tile with another lying on it), ``standing``,
  ``seat`` (whose tile at a whole table), ``partial`` (cut by the picture's
  edge),
  ``angle`` (degrees, the face's rotation on the table) and ``group``
  (``concealed``, ``winning``, ``meldN``, ``flower``, ``grid``, ``row``,
  ``pile``; at a whole table also ``discards``, ``wall``, ``other_hand``,
  ``other_meld``); for ``kind == "table"`` also ``fourth_tile`` (the winning
  tile's other three copies lie face up on the table: 和绝张).
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from datasets.art import DEFAULT_CACHE, ArtError
from datasets.scene import effects, geometry
from datasets.scene.faces import FaceSet, style_faces
from datasets.scene.geometry import BEVEL, Camera, TileMesh
from datasets.scene.hands import hand_layout, random_flowers, random_hand
from datasets.scene.layouts import LAYOUTS, set_missing
from datasets.scene.table import draw_clutter, draw_console, draw_tray, render_table
from datasets.scene.tablescene import OTHER_GROUPS, table_layout
from datasets.scene.types import TILE_T, Layout
from datasets.styles import resolve_styles
from scorer.tiles import INDEX

#: "promoted": hands whose exposed pungs are mostly promoted kongs (`datasets.train_stacked`)
KINDS = ("hand", "grid", "row", "pile", "mixed", "promoted", "table", "set")
MIXED_P = {"hand": 0.45, "grid": 0.25, "row": 0.15, "pile": 0.15}
ASPECTS = [(4, 3), (3, 4), (1, 1), (16, 9), (9, 16)]
BACK_COLOURS = [  # BGR
    (60, 140, 40),
    (40, 100, 20),
    (160, 90, 20),
    (130, 50, 10),
    (40, 190, 220),
    (30, 40, 190),
    (20, 110, 230),
    (120, 40, 110),
    (140, 140, 30),
    (40, 40, 40),
]  # no white: a white back would pass for a blank white dragon


@dataclass
class Scene:
    image: np.ndarray
    meta: dict


def make_layout(
    rng: np.random.Generator, kind: str, faces: dict[str, np.ndarray], hands: str = "plain"
) -> Layout:
    """The tiles of one scene; `hands` "promoted" gives the winner's hand the promoted
    kongs' mix (`datasets.scene.hands.KONG_SHARES`) at a table too."""
    available = set(faces)
    if kind == "table":
        return table_layout(rng, available, hands)
    if kind in ("hand", "promoted"):
        hand = random_hand(rng, available, "promoted" if kind == "promoted" else hands)
        return hand_layout(rng, hand, random_flowers(rng, available))
    return LAYOUTS[kind](rng, sorted(available))


def _rotate_layout(layout: Layout, angle: float) -> None:
    """Turn the whole arrangement on the table (tiles keep their relative angles)."""
    a = np.radians(angle)
    c, s = np.cos(a), np.sin(a)
    for t in layout.tiles:
        t.x, t.y = c * t.x - s * t.y, s * t.x + c * t.y
        t.angle = (t.angle + angle) % 360


def _frame_size(rng: np.random.Generator, size: int, layout: Layout) -> tuple[int, int]:
    """Picture size; long arrangements are mostly photographed in landscape."""
    aw, ah = ASPECTS[rng.integers(len(ASPECTS))]
    x1, y1, x2, y2 = layout.bounds()
    if (x2 - x1) > 2 * (y2 - y1) and rng.random() < 0.85:
        aw, ah = max(aw, ah), min(aw, ah)
    if aw >= ah:
        return size, int(round(size * ah / aw / 2) * 2)
    return int(round(size * aw / ah / 2) * 2), size


def _body_points(layout: Layout, tiles: list | None = None) -> np.ndarray:
    pts = [
        TileMesh.of(t).points(geometry.OUTLINE[::4], z)
        for t in (layout.tiles if tiles is None else tiles)
        for z in (0.0, TILE_T)
    ]
    return np.vstack(pts)


def _winners_points(layout: Layout) -> np.ndarray | None:
    """The winner's laid-down hand at a whole table (None elsewhere): a zoomed photo
    is aimed so that it stays whole, as the player photographing it would."""
    mine = [t for t in layout.tiles if t.group and t.group not in OTHER_GROUPS]
    if layout.kind != "table" or not mine:
        return None
    return _body_points(layout, mine)


def _inside(cam: Camera, pts: np.ndarray, width: int, height: int) -> bool:
    """Whether every point lies in front of the camera and inside the picture."""
    if np.any((pts - cam.pos) @ cam.rot[2] < 0.5):
        return False
    p = cam.project(pts)
    return bool(np.all(p >= 2) and np.all(p[:, 0] <= width - 2) and np.all(p[:, 1] <= height - 2))


def _aim_at_hand(view: tuple, hand: np.ndarray, dist: float, far: float, frame: tuple):
    """The target nearest the table's centre (and the distance nearest `dist`, at most
    `far`) at which a zoomed camera still sees the whole winner's hand."""
    target, elevation, azimuth, roll, f = view
    centre = hand.mean(axis=0) * np.array([1, 1, 0])
    while True:
        for k in np.linspace(0, 1, 11):
            aim = target + k * (centre - target)
            cam = Camera.look_at(aim, elevation, azimuth, roll, dist, f, *frame)
            if _inside(cam, hand, *frame) or dist >= far:
                return aim, dist
        dist = min(dist * 1.1, far)


def place_camera(
    rng: np.random.Generator,
    layout: Layout,
    width: int,
    height: int,
    fixed: dict | None = None,
) -> tuple[Camera, dict]:
    """A camera that sees every tile, at a random height, angle and distance.

    `fixed` (elevation, azimuth, roll, tile_px, fov in degrees / pixels)
    replaces the random choices and keeps the tiles centred: for tests.
    """
    fixed = fixed or {}
    fov = np.radians(fixed.get("fov", rng.uniform(45, 70)))
    f = min(width, height) / 2 / np.tan(fov / 2)
    half_diag = np.degrees(np.arctan(np.hypot(width, height) / 2 / f))
    # mostly no horizon in the picture; sometimes a low view with the room beyond
    low = min(half_diag + 8, 85) if rng.random() < 0.8 else 30.0
    elevation = rng.uniform(low, 90) if rng.random() < 0.7 else rng.uniform(max(low, 70), 90)
    azimuth = rng.normal(0, 8) if rng.random() < 0.7 else rng.uniform(0, 360)
    roll = rng.normal(0, 4)
    elevation = fixed.get("elevation", elevation)
    azimuth = fixed.get("azimuth", azimuth)
    roll = fixed.get("roll", roll)
    x1, y1, x2, y2 = layout.bounds()
    target = np.array([(x1 + x2) / 2, (y1 + y2) / 2, 0.0])
    tile_px = float(fixed.get("tile_px", np.exp(rng.uniform(np.log(20), np.log(300)))))
    pts = _body_points(layout)
    radius = float(np.max(np.linalg.norm(pts - target, axis=1)))

    def fits(d: float) -> bool:
        cam = Camera.look_at(target, elevation, azimuth, roll, d, f, width, height)
        rel = (pts - cam.pos) @ cam.rot[2]
        if np.any(rel < 0.5):
            return False
        p = cam.project(pts)
        span = p.max(axis=0) - p.min(axis=0)
        return bool(span[0] <= 0.94 * width and span[1] <= 0.94 * height)

    lo, hi = radius * 0.2 + 0.5, radius * f / (0.4 * min(width, height)) + 2 * radius + 2
    for _ in range(14):  # closest distance at which everything is in the picture
        mid = (lo + hi) / 2
        lo, hi = (lo, mid) if fits(mid) else (mid, hi)
    while not fits(hi):
        hi *= 1.5
    dist = max(f / tile_px, hi) / float(fixed.get("zoom", 1.0))
    if fixed.get("zoom", 1.0) > 1 and np.any(
        (pts - target) @ _forward(elevation, azimuth) < -dist + 1
    ):
        dist = max(f / tile_px, hi)  # so close that tiles would lie behind the camera
    hand = _winners_points(layout) if fixed.get("zoom", 1.0) > 1 else None
    if hand is not None:
        view = (target, elevation, azimuth, roll, f)
        target, dist = _aim_at_hand(view, hand, dist, max(f / tile_px, hi), (width, height))
        pts = hand  # the shift below keeps the hand in the picture
    cam = Camera.look_at(target, elevation, azimuth, roll, dist, f, width, height)
    # shift the picture (principal point) so the tiles are not always centred
    p = cam.project(pts)
    lo, hi = p.min(axis=0), p.max(axis=0)
    low_shift, high_shift = 2 - lo, np.array([width, height]) - 2 - hi
    centre = (low_shift + high_shift) / 2
    spread = 0.0 if fixed else 0.8
    shift = centre + (rng.uniform(0, 1, 2) - 0.5) * np.maximum(high_shift - low_shift, 0) * spread
    cam.cx += float(shift[0])
    cam.cy += float(shift[1])
    if any(cam.table_point(u, v) is None for u in (0, width) for v in (0, height)):
        cam.cx, cam.cy = width / 2, height / 2
    info = {
        "elevation": round(float(elevation), 2),
        "azimuth": round(float(azimuth), 2),
        "roll": round(float(roll), 2),
        "tile_px": round(float(cam.f / dist), 1),
    }
    return cam, info


def _forward(elevation: float, azimuth: float) -> np.ndarray:
    """The direction a camera at that elevation and azimuth looks in."""
    el, az = np.radians([elevation, azimuth])
    return -np.array([-np.sin(az) * np.cos(el), -np.cos(az) * np.cos(el), np.sin(el)])


#: elevation ranges of a whole-table photo: a seated player's eye line, standing, overhead
TABLE_VIEWS = {"seated": (25.0, 45.0), "standing": (45.0, 75.0), "overhead": (75.0, 90.0)}


def table_camera(rng: np.random.Generator) -> dict:
    """A camera at the winner's seat: seated, standing or overhead, sometimes cutting the table."""
    view = str(rng.choice(list(TABLE_VIEWS), p=[0.4, 0.4, 0.2]))
    cam = {
        "elevation": float(rng.uniform(*TABLE_VIEWS[view])),
        "azimuth": float(rng.normal(0, 6)),
        "roll": float(rng.normal(0, 3)),
        "fov": float(rng.uniform(50, 75)),
        "tile_px": float(np.exp(rng.uniform(np.log(25), np.log(300)))),
    }
    if rng.random() < 0.25:
        cam["zoom"] = float(rng.uniform(1.1, 1.7))
    return cam


def _layers(face_down: bool, body: np.ndarray, back: np.ndarray, split: float):
    if face_down:
        return [(0.0, TILE_T - split, body), (TILE_T - split, TILE_T - BEVEL, back)], back
    return [(0.0, split, back), (split, TILE_T - BEVEL, body)], body


def render_scene(
    rng: np.random.Generator,
    style: str,
    size: int = 1280,
    kind: str = "mixed",
    cache: Path = DEFAULT_CACHE,
    effects_on: bool = True,
    layout: Layout | None = None,
    camera: dict | None = None,
    plain: tuple[int, int, int] | None = None,
    art_variation: bool = True,
    red_fives: float = 0.0,
    small_art: float = 0.0,
    hands: str = "plain",
) -> Scene:
    """One picture and its labels.

    `effects_on=False` leaves out clutter, light and camera effects; tests
    can also give the `layout`, the `camera` (see `place_camera`) and a
    `plain` BGR table colour (no texture, clutter, shadows or effects).
    `art_variation=False` draws the faces as the art has them (see
    `datasets.scene.artvary`); the rest of the scene stays the same. `red_fives` is the
    chance that the set prints its fives in red (they are labelled 5 all the same);
    `small_art` the chance that it draws its art small on a wide face
    (`datasets.scene.artvary.small_art_of`); `hands` the winner's hand mix
    (`make_layout`).
    """
    faces = style_faces(style, cache)
    if layout is None:
        if kind == "mixed":
            kind = str(rng.choice(list(MIXED_P), p=list(MIXED_P.values())))
        layout = make_layout(rng, kind, faces, hands)
        width, height = _frame_size(rng, size, layout)
        if kind == "table":  # the camera player's own seat: the table turns only a little
            camera = camera or table_camera(rng)
        else:
            upright = kind == "set" or rng.random() < 0.75  # a set is laid out to be read
            _rotate_layout(layout, float(rng.normal(0, 5) if upright else rng.uniform(0, 360)))
    else:
        kind = layout.kind
        width, height = _frame_size(rng, size, layout)
    if plain is not None:
        effects_on = False
    cam, cam_info = place_camera(rng, layout, width, height, camera)
    faceset = FaceSet(faces, rng, cam_info["tile_px"] * 1.5, art_variation, red_fives, small_art)
    back = np.array(BACK_COLOURS[rng.integers(len(BACK_COLOURS))], np.float32) * rng.uniform(
        0.8, 1.15
    )
    back = np.clip(back, 0, 255)
    split = TILE_T * float(rng.uniform(0.3, 0.55))
    light = effects.light_direction(rng)
    ambient = float(rng.uniform(0.45, 0.75))

    meshes = [TileMesh.of(t) for t in layout.tiles]
    if plain is not None:
        img, surface = np.full((height, width, 3), plain, np.uint8), "plain"
    else:
        x1, y1, x2, y2 = layout.bounds()
        img, surface = render_table(rng, cam, (x1, y1, x2, y2))
        if effects_on:
            draw_clutter(img, rng, cam, (x1 - 1, y1 - 1, x2 + 1, y2 + 1))
            if kind == "table" and rng.random() < 0.5:
                draw_console(img, rng, cam)
            if kind == "grid" and rng.random() < 0.35:
                draw_tray(img, rng, cam, (x1, y1, x2, y2))
        effects.apply_shadows(img, [geometry.footprint(cam, m, light) for m in meshes], rng)
    top_mask = np.zeros(img.shape[:2], np.uint8)
    order = sorted(
        range(len(meshes)),
        key=lambda i: -np.linalg.norm(meshes[i].centre() - cam.pos) + layout.tiles[i].level * 2,
    )
    top_gain = geometry.shade(np.array([0.0, 0, 1]), light, ambient)
    for i in order:
        t, mesh = layout.tiles[i], meshes[i]
        layers, top_colour = _layers(t.face_down, faceset.body, back, split)
        geometry.draw_side_walls(img, top_mask, cam, mesh, layers, light, ambient)
        if t.standing:
            _draw_standing(img, top_mask, cam, mesh, faceset, t.true_code, (back, light, ambient))
            continue
        geometry.draw_bevel(img, cam, mesh, TILE_T, top_colour, light, ambient)
        if t.face_down:
            geometry.fill_top(img, top_mask, cam, mesh, TILE_T, back * top_gain)
        else:
            geometry.warp_face(
                img, top_mask, cam, mesh, TILE_T, faceset.mips(t.true_code), top_gain
            )
    if effects_on:
        img = effects.photo_effects(img, top_mask, rng)
    meta = _labels(layout, meshes, cam, width, height)
    _visible_parts(meta["tiles"], meshes, order, cam, (height, width))
    if kind == "table":
        meta["fourth_tile"] = layout.fourth_tile
    meta.update(
        style=style,
        kind=kind,
        surface=surface,
        camera=cam_info,
        jpeg_quality=int(rng.integers(35, 96)),
    )
    return Scene(img, meta)


def _draw_standing(
    img: np.ndarray,
    top_mask: np.ndarray,
    cam: Camera,
    mesh: TileMesh,
    faceset: FaceSet,
    code: str,
    shading: tuple[np.ndarray, np.ndarray, float],
) -> None:
    """A standing tile's face, or its back plate when the camera is behind it."""
    back, light, ambient = shading
    normal = mesh.face_normal()
    if mesh.faces_camera(cam):
        geometry.draw_bevel(img, cam, mesh, TILE_T, faceset.body, light, ambient)
        gain = geometry.shade(normal, light, ambient)
        geometry.warp_face(img, top_mask, cam, mesh, TILE_T, faceset.mips(code), gain)
    else:
        gain = geometry.shade(-normal, light, ambient)
        geometry.fill_top(img, top_mask, cam, mesh, 0.0, back * gain, geometry.OUTLINE)


def _visible_parts(
    tiles: list[dict], meshes: list[TileMesh], order: list[int], cam: Camera, shape: tuple
) -> None:
    """Add each tile's `visible` share and `visible_box`: its silhouettes painted in drawing
    order, what is left of each (a wall's lower tile shows only a strip of its side)."""
    ids = np.zeros(shape, np.int32)
    hulls = {}
    for i in order:
        pts = cam.project(_mesh_points(meshes[i]))
        hulls[i] = cv2.convexHull(np.round(pts).astype(np.int32))
        cv2.fillConvexPoly(ids, hulls[i], i + 1)
    for i, tile in enumerate(tiles):
        x, y, w, h = cv2.boundingRect(hulls[i])
        x1, y1 = max(x, 0), max(y, 0)
        mine = ids[y1 : max(y1, y + h), x1 : max(x1, x + w)] == i + 1
        area = max(float(cv2.contourArea(hulls[i])), 1.0)
        ys, xs = np.nonzero(mine)
        tile["visible"] = round(min(1.0, len(xs) / area), 3)
        tile["visible_box"] = (
            [float(x1 + xs.min()), float(y1 + ys.min()), float(x1 + xs.max() + 1),
             float(y1 + ys.max() + 1)]
            if len(xs) else [0.0, 0.0, 0.0, 0.0]
        )  # fmt: skip


def _mesh_points(mesh: TileMesh) -> np.ndarray:
    return np.vstack([mesh.points(geometry.OUTLINE, 0.0), mesh.points(geometry.OUTLINE, TILE_T)])


def _labels(layout: Layout, meshes: list[TileMesh], cam: Camera, width: int, height: int) -> dict:
    tiles = []
    tops = {(round(t.x, 2), round(t.y, 2)) for t in layout.tiles if t.level > 0}
    for t, mesh in zip(layout.tiles, meshes, strict=True):
        box, corners = geometry.label_geometry(cam, mesh)
        code = t.code if mesh.faces_camera(cam) else "back"
        partial = box[0] < 0 or box[1] < 0 or box[2] > width or box[3] > height
        box = [
            max(0.0, box[0]),
            max(0.0, box[1]),
            min(float(width), box[2]),
            min(float(height), box[3]),
        ]
        tiles.append(
            {
                "code": code,
                "true_code": t.true_code,
                "class": INDEX[code],
                "box": [round(v, 2) for v in box],
                "corners": [[round(x, 2), round(y, 2)] for x, y in corners],
                "sideways": t.sideways,
                "face_down": t.face_down,
                "stacked": t.level > 0,
                "under": t.level == 0 and (round(t.x, 2), round(t.y, 2)) in tops,
                "angle": round(t.angle % 360, 2),
                "group": t.group,
                "standing": t.standing,
                "seat": t.seat,
                "partial": partial,
            }
        )
    return {
        "width": width,
        "height": height,
        "hand": layout.hand,
        "flowers": layout.flowers,
        "melds": layout.melds,
        "tiles": tiles,
    }


Box = tuple[float, float, float, float]


def read_yolo(path: Path, width: int, height: int) -> list[tuple[int, Box]]:
    """(class, pixel box x1 y1 x2 y2) of each line `yolo_lines` wrote; [] when there is no file."""
    if not path.is_file():
        return []
    out = []
    for line in path.read_text().splitlines():
        parts = line.split()
        if len(parts) != 5:
            continue
        cx, cy, bw, bh = (float(v) for v in parts[1:])
        box = (
            (cx - bw / 2) * width, (cy - bh / 2) * height,
            (cx + bw / 2) * width, (cy + bh / 2) * height,
        )  # fmt: skip
        out.append((int(parts[0]), box))
    return out


#: at a whole table, a tile showing less than this share of itself is labelled by the part
#: in view; one showing less than HIDDEN is not labelled (nothing of it can be found)
PARTLY_HIDDEN, HIDDEN = 0.85, 0.08


def label_box(tile: dict, kind: str) -> list[float]:
    """The box a detector should find for a tile: its whole body, or at a whole table the
    part in view of a tile hidden in part (zero-sized for one hidden almost whole)."""
    if kind != "table" or "visible" not in tile or tile["visible"] >= PARTLY_HIDDEN:
        return tile["box"]
    return tile["visible_box"] if tile["visible"] >= HIDDEN else [0.0, 0.0, 0.0, 0.0]


def yolo_lines(meta: dict) -> list[str]:
    """The YOLO label lines of a scene's tiles."""
    w, h = meta["width"], meta["height"]
    lines = []
    for t in meta["tiles"]:
        x1, y1, x2, y2 = label_box(t, meta["kind"])
        if x2 - x1 < 1 or y2 - y1 < 1:
            continue
        lines.append(
            f"{t['class']} {(x1 + x2) / 2 / w:.6f} {(y1 + y2) / 2 / h:.6f} "
            f"{(x2 - x1) / w:.6f} {(y2 - y1) / h:.6f}"
        )
    return lines


def scene_rng(seed: int, index: int) -> np.random.Generator:
    return np.random.default_rng([seed, index])


def render_one(args: tuple) -> str:
    """Render and write scene `index` (a worker's unit of work); returns its stem."""
    index, seed, styles, size, kind, out, cache, vary, red_fives, small_art, hands = args
    rng = scene_rng(seed, index)
    style = styles[int(rng.integers(len(styles)))]
    scene = render_scene(
        rng, style, size, kind, Path(cache), art_variation=vary, red_fives=red_fives,
        small_art=small_art, hands=hands,
    )  # fmt: skip
    stem = f"{seed}_{index:06d}"
    out = Path(out)
    cv2.imwrite(
        str(out / "images" / f"{stem}.jpg"),
        scene.image,
        [cv2.IMWRITE_JPEG_QUALITY, scene.meta["jpeg_quality"]],
    )
    (out / "labels" / f"{stem}.txt").write_text("\n".join(yolo_lines(scene.meta)) + "\n")
    (out / "meta" / f"{stem}.json").write_text(json.dumps(scene.meta))
    return stem


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        prog="python -m datasets.render", description=__doc__.split("\n")[0]
    )
    ap.add_argument("--count", type=int, required=True)
    ap.add_argument(
        "--styles", default="train", help="comma list of styles, or train / heldout / builtin"
    )
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--size", type=int, default=1280, help="longer side in pixels")
    ap.add_argument("--kind", choices=KINDS, default="mixed")
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--start", type=int, default=0, help="first scene index (to extend a set)")
    ap.add_argument("--cache", type=Path, default=DEFAULT_CACHE, help="art cache folder")
    ap.add_argument(
        "--no-art-variation",
        dest="art_variation",
        action="store_false",
        help="draw the faces exactly as the art has them (default: vary ink, strokes, face colour)",
    )
    ap.add_argument(
        "--red-fives",
        type=float,
        default=0.0,
        help="chance that a scene's set prints its fives in red, as Japanese sets do (0-1)",
    )
    ap.add_argument(
        "--small-art",
        type=float,
        default=0.0,
        help="chance that a scene's set draws its art small, with a wide plain margin (0-1)",
    )
    ap.add_argument(
        "--hands",
        choices=("plain", "promoted"),
        default="plain",
        help="the winner's hand mix: promoted makes most exposed kongs promoted ones",
    )
    args = ap.parse_args(argv)
    shares_ok = 0 <= args.red_fives <= 1 and 0 <= args.small_art <= 1
    if args.count < 1 or args.size < 64 or args.workers < 1 or not shares_ok:
        print(
            "error: --count and --workers must be >= 1, --size >= 64,"
            " --red-fives and --small-art 0-1",
            file=sys.stderr,
        )
        return 2
    try:
        styles = resolve_styles(args.styles, args.cache)
        faces = {s: style_faces(s, args.cache) for s in styles}
        if args.kind == "set":  # a set laid out shows every playing tile
            styles = [s for s in styles if not set_missing(list(faces[s]))]
            if not styles:
                raise ValueError("no style given has a face for every playing tile")
    except (ArtError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    cv2.setNumThreads(1)  # one scene per core: OpenCV's own threads only add contention
    for sub in ("images", "labels", "meta"):
        (args.out / sub).mkdir(parents=True, exist_ok=True)
    jobs = [
        (
            i,
            args.seed,
            styles,
            args.size,
            args.kind,
            str(args.out),
            str(args.cache),
            args.art_variation,
            args.red_fives,
            args.small_art,
            args.hands,
        )
        for i in range(args.start, args.start + args.count)
    ]
    try:
        from tqdm import tqdm
    except ImportError:  # the `train` extra brings tqdm; without it, no progress bar

        def tqdm(items, **_kwargs):
            return items

    if args.workers == 1:
        for job in tqdm(jobs, desc="render", unit="scene"):
            render_one(job)
    else:
        from multiprocessing import Pool

        with Pool(args.workers) as pool:
            for _ in tqdm(
                pool.imap_unordered(render_one, jobs, chunksize=4),
                total=len(jobs),
                desc="render",
                unit="scene",
            ):
                pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
