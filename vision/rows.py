"""Rows of tiles in a photo: their direction, each tile's extents along and across its row,
and which tiles lie sideways.

The photo may be turned by any angle and seen from low down, in
perspective. The rows' direction comes from how tile centres line up (a
tile's nearest neighbour lies beside it in its row), refined by a straight
line fitted to the longest row; sizes and shapes are judged against each
tile's neighbours, since tiles far from the camera look smaller and their
boxes hold more or less of the tile's body.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from scorer.tiles import BACK_INDEX
from vision.config import DEFAULT, TILE_ASPECT, Reading, RowsConfig
from vision.types import TileRead, marked


def median(values: np.ndarray) -> np.floating:
    """`np.median` of a 1-D array, the same number bit for bit, at a tenth of its cost: the
    rows take one around every tile of a table, and numpy's general median spent more
    time than the crop models' reading of the hand."""
    ordered = np.sort(np.asarray(values).ravel())
    n = len(ordered)
    if n == 0:
        return np.median(values)
    return (ordered[(n - 1) // 2] + ordered[n // 2]) / 2


@dataclass(frozen=True)
class Frame:
    """Row coordinates of every tile: `u` along the row, `v` across it."""

    u: np.ndarray
    v: np.ndarray
    eu: np.ndarray
    ev: np.ndarray
    shapes: bool = True  # whether box shapes tell a tile's width from its length
    angle: float = 0.0  # the direction of the u axis in the photo (radians, y down)

    @property
    def wideness(self) -> np.ndarray:
        """Each tile's extent along the row over its extent across it, larger for a tile
        lying across the row than for an upright one."""
        return self.eu / np.maximum(self.ev, 1e-6)


def frame_for(boxes: np.ndarray, angle: float, config: RowsConfig = DEFAULT.rows) -> Frame:
    """Row coordinates for rows running at `angle` (radians, image axes, y down).

    `u` runs along the rows, `v` across them towards the player when the
    photo is upright. The tile's own extents are recovered from its upright
    box where the rows lie near an image axis; near the diagonal a box says
    nothing about them, and the row's median stands in (sideways tiles are
    then told by their spacing, see `_mark_sideways`).
    """
    cx = (boxes[:, 0] + boxes[:, 2]) / 2
    cy = (boxes[:, 1] + boxes[:, 3]) / 2
    w = boxes[:, 2] - boxes[:, 0]
    h = boxes[:, 3] - boxes[:, 1]
    c, s = np.cos(angle), np.sin(angle)
    u, v = c * cx + s * cy, -s * cx + c * cy
    quarter = int(round(angle / (np.pi / 2)))
    eu, ev = (h, w) if quarter % 2 else (w, h)
    rest = angle - quarter * np.pi / 2
    ca, sa = np.cos(rest), abs(np.sin(rest))
    det = ca * ca - sa * sa
    if det < config.min_untilt:
        return Frame(u=u, v=v, eu=eu, ev=ev, shapes=False, angle=angle)
    if sa > 1e-3:
        # an upright box around a tilted tile is wider and taller than the tile: undo that
        eu, ev = (
            np.maximum((eu * ca - ev * sa) / det, 0.3 * eu),
            np.maximum((ev * ca - eu * sa) / det, 0.3 * ev),
        )
    return Frame(u=u, v=v, eu=eu, ev=ev, angle=angle)


def direction(boxes: np.ndarray, members: list[int]) -> float:
    """The direction the rows run in, in radians within [-45°, 135°).

    Each tile's nearest neighbour usually lies beside it in the same row
    (tiles of a row touch; rows lie a tile length or more apart), so the
    dominant direction of those neighbour steps is the rows' direction,
    whatever the photo's turn, tilt or perspective. With too few tiles the
    box shapes decide: rows run along the tiles' short sides.
    """
    cx = (boxes[members, 0] + boxes[members, 2]) / 2
    cy = (boxes[members, 1] + boxes[members, 3]) / 2
    w = np.maximum(boxes[members, 2] - boxes[members, 0], 1e-6)
    h = np.maximum(boxes[members, 3] - boxes[members, 1], 1e-6)
    fallback = np.pi / 2 if float(median(np.log(w / h))) > 0 else 0.0
    if len(members) < 3:
        return fallback
    dx = cx[None, :] - cx[:, None]
    dy = cy[None, :] - cy[:, None]
    dist = np.hypot(dx, dy)
    np.fill_diagonal(dist, np.inf)
    nearest = dist.argmin(axis=1)
    idx = np.arange(len(members))
    step = np.arctan2(dy[idx, nearest], dx[idx, nearest])
    # directions are axial (a step and its reverse agree): average doubled angles
    mean = 0.5 * float(np.arctan2(np.sin(2 * step).sum(), np.cos(2 * step).sum()))
    off = (step - mean + np.pi / 2) % np.pi - np.pi / 2
    close = np.abs(off) < np.radians(30)
    if close.sum() >= 2:
        mean += float(median(off[close]))
    return float((mean + np.pi / 4) % np.pi - np.pi / 4)


def extents_from_steps(frame: Frame, rows: list[list[int]]) -> Frame:
    """Tile extents from the spacing of tile centres, for rows near the image diagonal.

    There every box is about square and says nothing of the tile inside;
    most neighbours along a row touch, so the usual step between centres
    near a tile is an upright tile's width there (perspective changes it
    smoothly along the row), and its length is taken in proportion.
    """
    eu, ev = frame.eu.copy(), frame.ev.copy()
    for row in rows:
        order = sorted(row, key=lambda i: frame.u[i])
        if len(order) < 3:
            continue
        steps = np.diff(frame.u[order])
        for k, i in enumerate(order):
            usual = float(median(steps[max(0, k - 3) : k + 3]))
            eu[i] = usual
            ev[i] = usual * TILE_ASPECT
    return replace(frame, eu=eu, ev=ev)


def off_axis(angle: float) -> float:
    """How far a direction (radians) lies off the nearest image axis, in [-45°, 45°)."""
    return float((angle + np.pi / 4) % (np.pi / 2) - np.pi / 4)


def line_angle(frame: Frame, row: list[int]) -> float:
    """The angle of the line through a row's tile centres, against the frame's u axis.

    The median of the slopes between pairs of tiles far enough apart (a
    Theil-Sen fit) is not pulled off by a few tiles lying off the line: a
    sideways tile, a tile set apart, a misplaced box.
    """
    u, v = frame.u[row], frame.v[row]
    du = u[None, :] - u[:, None]
    dv = v[None, :] - v[:, None]
    far = du > 2.0 * float(median(frame.eu[row]))
    if far.sum() < 3:
        return 0.0
    return float(np.arctan(median(dv[far] / du[far])))


def split_rows(
    frame: Frame, members: list[int], length: float, config: RowsConfig = DEFAULT.rows
) -> list[list[int]]:
    """Split tiles into rows by gaps between their centre lines (sorted by v)."""
    order = sorted(members, key=lambda i: frame.v[i])
    rows: list[list[int]] = []
    for i in order:
        if rows and frame.v[i] - frame.v[rows[-1][-1]] <= config.row_split * length:
            rows[-1].append(i)
        else:
            rows.append([i])
    return rows


def mark_sideways(
    reads: list[TileRead],
    frame: Frame,
    rows: list[list[int]],
    reading: Reading = DEFAULT.layout.reading,
    config: RowsConfig = DEFAULT.rows,
) -> list[TileRead]:
    """The reads with `detection.sideways` set on tiles lying across their row.

    Two cues, each judged against the tile's neighbours along the row:
    its box is wider for its length than theirs (most tiles of a row stand
    upright, two of a meld's three, so a low quantile of the neighbours'
    width/length ratios is an upright tile's), and its centre lies off
    their centre line (a meld is lined up along one edge, and a sideways
    tile is shorter across the row). Neighbours, not the whole row:
    perspective changes how much of each tile's body a box holds from one
    end of a long row to the other, and near a diagonal a box tells a
    tile's width from its length poorly. A row of at most 4 is compared
    as a whole. `reading` gives the shape evidence asked for
    (`Reading.sideways_score`, `Reading.sideways_min_wide`).

    The tile's face weighs in both ways: pointing surely along the row it
    makes the tile sideways on less shape evidence, and pointing surely
    across it (as every upright face does) it keeps the tile upright
    whatever its box's shape, since boxes on a tilted row come out wide.
    """
    ratio = frame.wideness
    lying: list[int] = []
    for row in rows:
        if len(row) < 2:
            continue  # a lone tile is no meld; nothing to compare it with
        order = sorted(row, key=lambda i: frame.u[i])
        for k, i in enumerate(order):
            if len(order) <= 4:
                near = [j for j in order if j != i]
                upright = float(np.percentile(ratio[near], 25))
            else:
                window = config.sideways_window
                near = order[max(0, k - window) : k] + order[k + 1 : k + 1 + window]
                upright = float(np.percentile(ratio[near], config.sideways_pct))
            wide = np.log(max(ratio[i], 1e-6) / max(upright, 1e-6)) / np.log(config.sideways_ratio)
            shift = _shift(frame, order, k, config) / config.sideways_shift
            if not frame.shapes:
                # the shift alone tells, or the face's top pointing along the row
                if shift > 1.0 or face_along(reads[i], frame) > config.face_along:
                    lying.append(i)
                continue
            face = face_along(reads[i], frame)
            by_shape = (
                wide > reading.sideways_min_wide
                and wide + shift > reading.sideways_score
                and face > -config.face_across_sure
            )
            by_face = face > config.face_along_sure and wide + shift > config.face_shape
            if by_shape or by_face:
                lying.append(i)
    return marked(reads, lying, True)


def face_along(read: TileRead, frame: Frame) -> float:
    """How surely the top of the tile's face points along the row rather than across it
    (-1..1, scaled by the orienter's confidence; 0 when unknown).

    The faces of upright tiles point across the row, away from the player;
    a sideways tile's face points along it. Near the diagonal, where box
    shapes say nothing, this still tells.
    """
    if read.up is None or int(np.argmax(read.probs)) == BACK_INDEX:
        return 0.0  # a face-down tile shows no face
    up = np.asarray(read.up, dtype=float)
    along = abs(float(up @ (np.cos(frame.angle), np.sin(frame.angle))))
    across = abs(float(up @ (-np.sin(frame.angle), np.cos(frame.angle))))
    return along - across


def _shift(frame: Frame, order: list[int], k: int, config: RowsConfig) -> float:
    """How far tile `order[k]` lies off the centre line of the tiles touching it, in tile lengths.

    Only touching neighbours count (a step along the row not much longer
    than the row's usual one): a tile set apart, like the winning tile, may
    lie anywhere.
    """
    u = frame.u[order]
    steps = np.diff(u)
    if len(steps) == 0:
        return 0.0
    usual = float(median(steps[max(0, k - 3) : k + 3]))
    touching = [
        order[j]
        for j in (k - 1, k + 1)
        if 0 <= j < len(order) and abs(u[j] - u[k]) < config.touch_step * usual
    ]
    if not touching:
        return 0.0
    i = order[k]
    off = abs(frame.v[i] - float(np.mean(frame.v[touching])))
    return off / max(float(np.mean(frame.ev[touching])), 1e-6)


def tile_width(boxes: np.ndarray) -> float:
    """A tile's size across in the photo: the boxes' median short side."""
    return float(median(np.minimum(boxes[:, 2] - boxes[:, 0], boxes[:, 3] - boxes[:, 1])))


def tile_length(boxes: np.ndarray) -> float:
    """A tile's length in the photo, the scale rows are split by: the boxes' median long side."""
    w = np.maximum(boxes[:, 2] - boxes[:, 0], 1e-6)
    h = np.maximum(boxes[:, 3] - boxes[:, 1], 1e-6)
    return float(median(np.maximum(w, h)))


def find_rows(
    boxes: np.ndarray, members: list[int], length: float, config: RowsConfig = DEFAULT.rows
) -> tuple[float, Frame, list[list[int]]]:
    """The rows' direction (radians, within [-45°, 135°)), the row frame and the rows."""
    angle = direction(boxes, members)
    frame = frame_for(boxes, angle, config)
    rows = split_rows(frame, members, length, config)
    longest = max(rows, key=len)
    if len(longest) >= config.min_fit_row:
        # rows are straight lines (in perspective too): fit the longest one
        angle = (angle + line_angle(frame, longest) + np.pi / 4) % np.pi - np.pi / 4
        frame = frame_for(boxes, angle, config)
        rows = split_rows(frame, members, length, config)
    if not frame.shapes:
        frame = extents_from_steps(frame, rows)
    return angle, frame, rows


def tile_rects(
    boxes: np.ndarray, config: RowsConfig = DEFAULT.rows
) -> tuple[float, np.ndarray, np.ndarray]:
    """Where each tile's own rectangle lies: the rows' direction (radians) and each
    tile's extent along its row and across it, judged from its row's spacing.

    A box says little of a tile lying at an angle (it holds the neighbours'
    corners too); the spacing of the tiles along the row says how wide an
    upright tile is there, and its length follows from the tile's shape.
    """
    boxes = np.asarray(boxes, dtype=float).reshape(-1, 4)
    if len(boxes) == 0:
        return 0.0, np.zeros(0), np.zeros(0)
    angle, frame, rows = find_rows(boxes, list(range(len(boxes))), tile_length(boxes), config)
    frame = extents_from_steps(frame, rows)
    return angle, frame.eu, frame.eu * TILE_ASPECT
