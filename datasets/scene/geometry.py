"""Pinhole camera and the tile body: a rounded box with layers and a bevel.

Tiles are drawn as polygons with the painter's algorithm (far tiles
first); side walls are flat-shaded quads, the face a perspective warp of
its texture. That is cheap enough for several 1280 px scenes a second on
one core and keeps every label exact: boxes and corners come from the
same projected points that are drawn.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from datasets.scene.types import TILE_D, TILE_T, TILE_W, Placement

CORNER_R = 0.13  # rounding of the tile's vertical edges
BEVEL = 0.05  # rounding of the top edge
ARC_STEPS = 3


@dataclass
class Camera:
    """Intrinsics (f, cx, cy) and pose (rows of `rot`: right, down, forward)."""

    f: float
    cx: float
    cy: float
    rot: np.ndarray
    pos: np.ndarray
    width: int
    height: int

    @classmethod
    def look_at(
        cls,
        target: np.ndarray,
        elevation: float,
        azimuth: float,
        roll: float,
        dist: float,
        f: float,
        width: int,
        height: int,
    ) -> Camera:
        """A camera `dist` from `target`, `elevation` degrees above the table.

        Azimuth 0 is the player's seat (looking towards +y); roll turns the
        picture about the optical axis.
        """
        el, az, ro = np.radians([elevation, azimuth, roll])
        horiz = np.array([-np.sin(az), -np.cos(az), 0.0])
        pos = target + dist * (np.cos(el) * horiz + np.array([0, 0, np.sin(el)]))
        fwd = target - pos
        fwd /= np.linalg.norm(fwd)
        right = np.array([np.cos(az), -np.sin(az), 0.0])
        right -= fwd * (right @ fwd)
        right /= np.linalg.norm(right)
        down = np.cross(fwd, right)
        r2 = np.cos(ro) * right + np.sin(ro) * down
        d2 = -np.sin(ro) * right + np.cos(ro) * down
        return cls(f, width / 2, height / 2, np.stack([r2, d2, fwd]), pos, width, height)

    def project(self, pts: np.ndarray) -> np.ndarray:
        """World points (N, 3) to pixels (N, 2)."""
        c = (pts - self.pos) @ self.rot.T
        z = np.maximum(c[:, 2:3], 1e-6)
        return c[:, :2] / z * self.f + (self.cx, self.cy)

    def plane_homography(self) -> np.ndarray:
        """Homography from table coordinates (x, y, z=0) to pixels."""
        k = np.array([[self.f, 0, self.cx], [0, self.f, self.cy], [0, 0, 1]])
        t = -self.rot @ self.pos
        return k @ np.column_stack([self.rot[:, 0], self.rot[:, 1], t])

    def table_point(self, u: float, v: float) -> np.ndarray | None:
        """Where the ray through pixel (u, v) meets the table, or None (above horizon)."""
        ray = self.rot.T @ np.array([(u - self.cx) / self.f, (v - self.cy) / self.f, 1.0])
        if ray[2] > -1e-3:
            return None
        s = -self.pos[2] / ray[2]
        return self.pos + s * ray


def _outline(hw: float, hd: float, r: float) -> np.ndarray:
    """Rounded rectangle, counter-clockwise seen from above, (K, 2)."""
    pts = []
    centres = [
        (hw - r, hd - r, 0),
        (-hw + r, hd - r, 90),
        (-hw + r, -hd + r, 180),
        (hw - r, -hd + r, 270),
    ]
    for cx, cy, a0 in centres:
        for k in range(ARC_STEPS + 1):
            a = np.radians(a0 + 90 * k / ARC_STEPS)
            pts.append((cx + r * np.cos(a), cy + r * np.sin(a)))
    return np.array(pts)


OUTLINE = _outline(TILE_W / 2, TILE_D / 2, CORNER_R)
INNER = _outline(TILE_W / 2 - BEVEL, TILE_D / 2 - BEVEL, CORNER_R - BEVEL)
_edge = np.roll(OUTLINE, -1, axis=0) - OUTLINE
NORMALS = np.column_stack([_edge[:, 1], -_edge[:, 0]])
NORMALS /= np.linalg.norm(NORMALS, axis=1, keepdims=True)
# face plate corners in local coordinates: top-left, top-right, bottom-right, bottom-left
FACE_QUAD = np.array(
    [
        (-TILE_W / 2 + BEVEL, TILE_D / 2 - BEVEL),
        (TILE_W / 2 - BEVEL, TILE_D / 2 - BEVEL),
        (TILE_W / 2 - BEVEL, -TILE_D / 2 + BEVEL),
        (-TILE_W / 2 + BEVEL, -TILE_D / 2 + BEVEL),
    ]
)
FULL_QUAD = np.array(
    [
        (-TILE_W / 2, TILE_D / 2),
        (TILE_W / 2, TILE_D / 2),
        (TILE_W / 2, -TILE_D / 2),
        (-TILE_W / 2, -TILE_D / 2),
    ]
)


@dataclass
class TileMesh:
    """A placed tile's world geometry.

    A lying tile is its outline in the table plane (`rot`, 2x2) extruded
    upwards; a standing tile also has `axes` (3x3, columns: the face's right,
    its up, and its outward normal in world coordinates), so the same local
    outline and heights describe a tile stood on its bottom edge.
    """

    rot: np.ndarray  # 2x2 local -> world
    origin: np.ndarray  # world (x, y, z of the tile's bottom)
    axes: np.ndarray | None = None  # 3x3 local -> world, for a standing tile

    @classmethod
    def of(cls, p: Placement) -> TileMesh:
        a = np.radians(p.angle)
        rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
        if not p.standing:
            return cls(rot, np.array([p.x, p.y, p.level * TILE_T]))
        away = rot @ np.array([0.0, 1.0])  # the face's "up" on the table: away from its player
        right = np.array([*(rot @ np.array([1.0, 0.0])), 0.0])
        normal = np.array([-away[0], -away[1], 0.0])  # the face looks at its player
        axes = np.column_stack([right, (0.0, 0.0, 1.0), normal])
        origin = np.array([p.x + away[0] * TILE_T / 2, p.y + away[1] * TILE_T / 2, TILE_D / 2])
        return cls(rot, origin, axes)

    def points(self, local_xy: np.ndarray, z: float) -> np.ndarray:
        if self.axes is not None:
            local = np.column_stack([local_xy, np.full(len(local_xy), z)])
            return local @ self.axes.T + self.origin
        xy = local_xy @ self.rot.T + self.origin[:2]
        return np.column_stack([xy, np.full(len(xy), self.origin[2] + z)])

    def normals(self) -> np.ndarray:
        if self.axes is not None:
            return np.column_stack([NORMALS, np.zeros(len(NORMALS))]) @ self.axes.T
        n = NORMALS @ self.rot.T
        return np.column_stack([n, np.zeros(len(n))])

    def face_normal(self) -> np.ndarray:
        """The outward normal of the tile's face (its top when lying)."""
        return np.array([0.0, 0, 1]) if self.axes is None else self.axes[:, 2].copy()

    def centre(self) -> np.ndarray:
        if self.axes is not None:
            return self.origin + self.axes[:, 2] * TILE_T / 2
        return self.origin + (0, 0, TILE_T / 2)

    def faces_camera(self, cam: Camera) -> bool:
        """Whether the camera sees the face side of the tile (always, for a lying one)."""
        centre = self.origin + self.face_normal() * TILE_T
        return bool(self.face_normal() @ (cam.pos - centre) > 0)


def shade(normal: np.ndarray, light: np.ndarray, ambient: float) -> float:
    """Lambert shading factor of a surface normal."""
    return ambient + (1 - ambient) * max(0.0, float(normal @ light))


def _fill_quads(
    img: np.ndarray,
    quads: np.ndarray,
    colours: np.ndarray,
    mask: np.ndarray | None,
    mask_value: int,
) -> None:
    polys = np.round(quads * 16).astype(np.int32)
    for poly, col in zip(polys, colours.tolist(), strict=True):
        cv2.fillConvexPoly(img, poly, col, cv2.LINE_AA, 4)
        if mask is not None:
            cv2.fillConvexPoly(mask, poly, mask_value, cv2.LINE_8, 4)


def _ring(
    cam: Camera,
    lo: np.ndarray,
    hi: np.ndarray,
    normals: np.ndarray,
    colour: np.ndarray,
    light: np.ndarray,
    ambient: float,
) -> tuple[np.ndarray, np.ndarray]:
    """Visible quads between two outlines (world points) and their shaded colours."""
    nxt = np.roll(np.arange(len(lo)), -1)
    mid = (lo + hi[nxt]) / 2
    visible = np.einsum("ij,ij->i", normals, cam.pos - mid) > 0
    plo, phi = cam.project(lo), cam.project(hi)
    quads = np.stack([plo, plo[nxt], phi[nxt], phi], axis=1)[visible]
    lambert = ambient + (1 - ambient) * np.clip(normals[visible] @ light, 0, None)
    return quads, lambert[:, None] * colour[None, :]


def draw_side_walls(
    img: np.ndarray,
    top_mask: np.ndarray,
    cam: Camera,
    mesh: TileMesh,
    layers: list[tuple[float, float, np.ndarray]],
    light: np.ndarray,
    ambient: float,
) -> None:
    """Visible side quads of every (z0, z1, colour) layer."""
    normals = mesh.normals()
    for z0, z1, colour in layers:
        quads, cols = _ring(
            cam, mesh.points(OUTLINE, z0), mesh.points(OUTLINE, z1), normals, colour, light, ambient
        )
        _fill_quads(img, quads, cols, top_mask, 0)


def draw_bevel(
    img: np.ndarray,
    cam: Camera,
    mesh: TileMesh,
    z_top: float,
    colour: np.ndarray,
    light: np.ndarray,
    ambient: float,
) -> None:
    """The rounded top edge as a ring of quads tilted 45 degrees."""
    normals = mesh.normals() * 0.7071 + mesh.face_normal() * 0.7071
    quads, cols = _ring(
        cam,
        mesh.points(OUTLINE, z_top - BEVEL),
        mesh.points(INNER, z_top),
        normals,
        colour,
        light,
        ambient,
    )
    _fill_quads(img, quads, cols, None, 0)


def warp_face(
    img: np.ndarray,
    top_mask: np.ndarray,
    cam: Camera,
    mesh: TileMesh,
    z_top: float,
    mips: list[np.ndarray],
    gain: float,
) -> None:
    """Warp the face texture onto the tile's top, clipped to its rounded outline."""
    dst = cam.project(mesh.points(FACE_QUAD, z_top)).astype(np.float32)
    poly = cam.project(mesh.points(INNER, z_top))
    x1, y1 = np.floor(poly.min(axis=0)).astype(int)
    x2, y2 = np.ceil(poly.max(axis=0)).astype(int) + 1
    h, w = img.shape[:2]
    x1, y1, x2, y2 = max(x1, 0), max(y1, 0), min(x2, w), min(y2, h)
    if x2 <= x1 or y2 <= y1:
        return
    size = float(np.linalg.norm(dst[1] - dst[0]) + np.linalg.norm(dst[2] - dst[1]))
    level = 0
    while level + 1 < len(mips) and mips[level + 1].shape[1] + mips[level + 1].shape[0] >= size:
        level += 1
    tex = mips[level]
    th, tw = tex.shape[:2]
    src = np.float32([[0, 0], [tw, 0], [tw, th], [0, th]])
    hmat = cv2.getPerspectiveTransform(src, dst - np.float32([x1, y1]))
    patch = cv2.warpPerspective(
        tex, hmat, (x2 - x1, y2 - y1), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
    )
    mask = np.zeros((y2 - y1, x2 - x1), np.uint8)
    cv2.fillConvexPoly(mask, np.round((poly - (x1, y1)) * 16).astype(np.int32), 255, cv2.LINE_AA, 4)
    roi = img[y1:y2, x1:x2]
    a = mask[..., None].astype(np.float32) / 255.0
    roi[:] = (patch.astype(np.float32) * gain * a + roi * (1 - a)).clip(0, 255).astype(np.uint8)
    top_mask[y1:y2, x1:x2] = np.maximum(top_mask[y1:y2, x1:x2], mask)


def fill_top(
    img: np.ndarray,
    top_mask: np.ndarray,
    cam: Camera,
    mesh: TileMesh,
    z_top: float,
    colour: np.ndarray,
    outline: np.ndarray = INNER,
) -> None:
    """A plain top (the back of a face-down tile), inside its bevel; a standing tile's back
    plate has no bevel drawn around it and takes the whole `OUTLINE`."""
    poly = np.round(cam.project(mesh.points(outline, z_top)) * 16).astype(np.int32)
    cv2.fillConvexPoly(img, poly, colour.tolist(), cv2.LINE_AA, 4)
    cv2.fillConvexPoly(top_mask, poly, 255, cv2.LINE_AA, 4)


def label_geometry(cam: Camera, mesh: TileMesh) -> tuple[list[float], list[list[float]]]:
    """Axis-aligned box of the whole body and the face's four corners (TL, TR, BR, BL)."""
    body = np.vstack(
        [
            mesh.points(OUTLINE, 0.0),
            mesh.points(OUTLINE, TILE_T - BEVEL),
            mesh.points(INNER, TILE_T),
        ]
    )
    pts = cam.project(body)
    box = [
        float(pts[:, 0].min()),
        float(pts[:, 1].min()),
        float(pts[:, 0].max()),
        float(pts[:, 1].max()),
    ]
    corners = cam.project(mesh.points(FULL_QUAD, TILE_T))
    return box, [[float(x), float(y)] for x, y in corners]


def footprint(cam: Camera, mesh: TileMesh, light: np.ndarray) -> np.ndarray:
    """Pixels of the tile's shadow on the table: its body pushed along the light."""
    top = mesh.points(OUTLINE, TILE_T)
    lz = max(light[2], 0.15)
    shadow = top - np.outer(top[:, 2], light / lz)
    shadow[:, 2] = 0
    base = mesh.points(OUTLINE, 0.0)
    base[:, 2] = 0
    return cam.project(np.vstack([shadow, base]))
