"""A table's tiles grouped into pieces, each named by what it shows.

Tiles whose boxes lie within a small gap of each other (relative to their
size) make a piece (`pieces_of`); tiles of a pond face their own player, so
pieces are also split where their faces turn (`along_axis`). A piece of
backs in stacks is a wall, of backs alone another player's hand seen from
behind; a piece of faces the camera's player reads upright may be the hand,
else it is a meld, a pond or a hand pushed over (`kind_of`, `name_of`).
Plain values in, new values out.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from scorer.tiles import BACK_INDEX, FLOWER_FIRST, INDEX
from vision.config import RegionsConfig
from vision.layout.kinds import code_of
from vision.types import TileRead

#: the most tiles a meld holds: a kong
MELD_MOST = 4

#: the kinds of piece that are not the hand (the contract's `ignored` kinds)
KINDS = ("discards", "wall", "other_hand", "other_meld", "stray")


DEFAULT = RegionsConfig()


@dataclass(frozen=True)
class Piece:
    """Tiles that lie together, and what they are."""

    kind: str  # "hand" (a candidate) or one of KINDS
    tiles: tuple[int, ...]  # indices into the reads


def boxes_of(reads: list[TileRead]) -> np.ndarray:
    """Every read's box, (N, 4)."""
    return np.array([r.detection.box for r in reads], float).reshape(-1, 4)


def gaps(boxes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Gaps between every two boxes along x and along y (0 where they overlap)."""
    x1, y1, x2, y2 = (boxes[:, k] for k in range(4))
    gx = np.maximum(0, np.maximum(x1[:, None] - x2[None], x1[None] - x2[:, None]))
    gy = np.maximum(0, np.maximum(y1[:, None] - y2[None], y1[None] - y2[:, None]))
    return gx, gy


def components(links: np.ndarray) -> list[list[int]]:
    """Connected components of a boolean adjacency matrix, each sorted, by first tile."""
    n = len(links)
    seen = np.zeros(n, bool)
    out = []
    for start in range(n):
        if seen[start]:
            continue
        stack, comp = [start], []
        seen[start] = True
        while stack:
            i = stack.pop()
            comp.append(i)
            for j in np.nonzero(links[i] & ~seen)[0]:
                seen[j] = True
                stack.append(int(j))
        out.append(sorted(comp))
    return out


def links_of(boxes: np.ndarray, config: RegionsConfig = DEFAULT) -> np.ndarray:
    """Which tiles link: their boxes this close (in the smaller one's size), neither more
    than `RegionsConfig.size_ratio` times the other's size."""
    size = np.maximum(np.minimum(boxes[:, 2] - boxes[:, 0], boxes[:, 3] - boxes[:, 1]), 1.0)
    gx, gy = gaps(boxes)
    small = np.minimum(size[:, None], size[None])
    ratio = np.maximum(size[:, None], size[None]) / small
    return (np.maximum(gx, gy) <= config.link_gap * small) & (ratio <= config.size_ratio)


def touching_any(links: np.ndarray) -> np.ndarray:
    """Which tiles link to another tile (`links`, as `links_of` gives them): a wall's, a
    row's and a kong's tiles do; a box lying apart does not (a cloth's printed spot read
    as a back)."""
    return (links & ~np.eye(len(links), dtype=bool)).any(axis=1)


def pieces_of(
    boxes: np.ndarray, kinds: np.ndarray | None = None, config: RegionsConfig = DEFAULT
) -> list[list[int]]:
    """Tiles linked by small gaps (relative to their size) into pieces; with `kinds`, only
    tiles of one kind link (face down, or facing one way: a pond's tiles face its player)."""
    links = links_of(boxes, config)
    if kinds is not None:
        links &= kinds[:, None] == kinds[None]
    return components(links)


def facing(reads: list[TileRead], down: np.ndarray) -> np.ndarray:
    """Which way each tile faces in the photo: 0 up, 1 right, 2 down, 3 left (its face's
    top), 4 face down, 5 face up with no direction known."""
    out = np.full(len(reads), 5)
    for i, r in enumerate(reads):
        if down[i]:
            out[i] = 4
        elif r.up is not None and np.hypot(*r.up) > 1e-6:
            angle = np.degrees(np.arctan2(r.up[0], -r.up[1]))  # 0 = the photo's up, clockwise
            out[i] = int(np.round(angle / 90)) % 4
    return out


def along_axis(faces: np.ndarray) -> np.ndarray:
    """`facing` with a face turned half-way round taken as the same: 0 the photo's up or
    down, 1 right or left, 4 and 5 as they were. The orienter tells a quarter turn
    surely, but a face that looks alike turned half-way round (most dots, some bamboos)
    only by the tile's body, and a hand's row is one piece whichever way its faces read;
    which of the two ways a piece faces is voted by its tiles (`kind_of`)."""
    return np.where(faces < 4, faces % 2, faces)


def face_down(reads: list[TileRead], config: RegionsConfig) -> np.ndarray:
    """Which tiles lie face down: those named backs, or before they are named, read as a
    back more surely than `RegionsConfig.back_p`."""
    return np.array(
        [r.chosen == "back" if r.chosen else r.probs[BACK_INDEX] > config.back_p for r in reads]
    )


def leaning(reads: list[TileRead]) -> np.ndarray:
    """(N, 2): how far each face's top points towards the photo's top, and across it, times
    the orienter's sureness (the length of `TileRead.up`); 0 where no direction is known."""
    return np.array(
        [(0.0, 0.0) if r.up is None else (-float(r.up[1]), float(r.up[0])) for r in reads]
    ).reshape(-1, 2)


def telling_faces(reads: list[TileRead], config: RegionsConfig) -> np.ndarray:
    """Faces whose direction tells where their player sits: not alike turned half-way round
    (`RegionsConfig.symmetric`: the orienter reads those either way on unfamiliar art) and
    not flowers."""
    codes = [code_of(r) for r in reads]
    return np.array([c not in config.symmetric and INDEX[c] < FLOWER_FIRST for c in codes])


def stacked(boxes: np.ndarray, down: np.ndarray, config: RegionsConfig = DEFAULT) -> np.ndarray:
    """Which face-down tiles lie on or under another (a wall's two layers): a face-down tile
    much lower than the tile just above it in the photo, lined up with it, is the strip of
    side a lower tile shows under the upper one, and both are marked (tiles side by side
    in a row seen from the side look alike).

    The strip is turned to the camera, so it shows under its upper tile; a tile just under
    the strip lies in front of the wall (a concealed kong's back lying flat in the hand's
    row, seen from a seat), not on it."""
    out = np.zeros(len(boxes), bool)
    idx = np.flatnonzero(down)
    if len(idx) < 2:
        return out
    b = boxes[idx]
    w, h = b[:, 2] - b[:, 0], b[:, 3] - b[:, 1]
    overlap_x = np.minimum(b[:, None, 2], b[None, :, 2]) - np.maximum(b[:, None, 0], b[None, :, 0])
    _, gy = gaps(b)
    low = np.minimum(h[:, None], h[None])
    cy = (b[:, 1] + b[:, 3]) / 2
    lined_up = overlap_x > config.strip_overlap * np.minimum(w[:, None], w[None])
    taller = h[None] >= config.strip_under * h[:, None]
    near_under = (gy <= config.strip_gap * low) & (cy[None] < cy[:, None])
    on = lined_up & taller & near_under  # [i, j]: the strip i under tile j
    out[idx] = on.any(axis=1) | on.any(axis=0)
    return out


def row_direction(centre: np.ndarray) -> np.ndarray:
    """The unit direction a piece's rows run in: tiles in a row lie nearer one another than
    the rows do, so it is the mean direction (either way round) from each tile to its
    nearest neighbour, however the photo is turned."""
    offsets = centre[None] - centre[:, None]
    dist = np.hypot(offsets[..., 0], offsets[..., 1])
    np.fill_diagonal(dist, np.inf)
    step = offsets[np.arange(len(centre)), dist.argmin(axis=1)]
    twice = 2 * np.arctan2(step[:, 1], step[:, 0])  # a step and its reverse alike
    angle = np.arctan2(np.sin(twice).sum(), np.cos(twice).sum()) / 2
    return np.array([np.cos(angle), np.sin(angle)])


def _longest_row(boxes: np.ndarray, band: float) -> int:
    """Tiles in the longest run of a piece: centres within `band` tile sizes of one line
    along its rows (`row_direction`), a pond's rows of six or a hand's one long row."""
    centre = np.stack([boxes[:, 0] + boxes[:, 2], boxes[:, 1] + boxes[:, 3]], axis=1) / 2
    if len(centre) < 3:
        return len(centre)
    along = row_direction(centre)
    normal = np.array([-along[1], along[0]])
    size = np.abs(normal) @ np.stack([boxes[:, 2] - boxes[:, 0], boxes[:, 3] - boxes[:, 1]])
    offset = centre @ normal
    return int(max(np.sum(np.abs(offset - o) < band * np.median(size)) for o in offset))


def name_of(
    tiles: list[int], boxes: np.ndarray, down: np.ndarray, config: RegionsConfig, stacks: np.ndarray
) -> str:
    """What a group that is not the hand is: a wall (backs in stacks, `stacked`), a hand
    seen from behind, or face up a meld, a pond or a hand pushed over."""
    idx = np.array(tiles)
    if down[idx].mean() >= config.backs_share:
        return "wall" if stacks[idx].mean() >= config.stacked_share else "other_hand"
    return face_up_kind(tiles, boxes, config)


def kind_of(
    tiles: list[int],
    boxes: np.ndarray,
    down: np.ndarray,
    config: RegionsConfig,
    stacks: np.ndarray,
    telling: np.ndarray | None = None,
    lean: np.ndarray | None = None,
) -> str:
    """What a piece is, from what it shows: face-up tiles the camera's player reads upright
    may be the hand; the rest is named as `name_of` names a group.

    The faces whose direction tells (`telling_faces`) where their player sits vote,
    where the piece has any: by how far they lean towards the photo's top in
    all (`lean`, weighed by the orienter's sureness), so that faces of art
    the orienter does not know, each read with little sureness and half of
    them upside down, do not outvote the sure ones. Otherwise all its faces
    vote, pointing up or down the photo against across it. With no direction
    known (no orienter), any face-up piece may be the hand.
    """
    idx = np.array(tiles)
    if down[idx].mean() >= config.backs_share:
        return name_of(tiles, boxes, down, config, stacks)
    told = telling is not None and bool(telling[idx].any())
    votes = idx[telling[idx]] if told else idx
    hand = True
    if lean is not None and np.any(lean[votes] != 0):
        # faces alike either way round read up or down at random: up the photo or down it
        # are alike for them, across it is not
        weights = lean[votes, 0] if told else np.abs(lean[votes, 0]) - np.abs(lean[votes, 1])
        hand = float(weights.sum()) > 0
    return "hand" if hand else name_of(tiles, boxes, down, config, stacks)


def face_up_kind(tiles: list[int], boxes: np.ndarray, config: RegionsConfig) -> str:
    """A face-up group that is not the hand: a hand pushed over in a row longer than a pond's
    (`_longest_row`), else a meld of three or four, a pond, a stray tile."""
    idx = np.array(tiles)
    if _longest_row(boxes[idx], config.row_band) > config.pond_row:
        return "other_hand"
    if 3 <= len(tiles) <= MELD_MOST:
        return "other_meld"
    return "discards" if len(tiles) > MELD_MOST else "stray"


def split_by_axis(
    group: list[int], boxes: np.ndarray, faces: np.ndarray, config: RegionsConfig
) -> list[list[int]]:
    """A group larger than a meld split where its tiles face different ways (`along_axis`):
    ponds that touch at the table's centre each face their own player; a meld keeps its
    claimed tile lying across it (`claimed_rejoined`)."""
    if len(group) <= MELD_MOST:
        return [group]
    axes = along_axis(faces[group])
    if len(set(axes.tolist())) <= 1:
        return [group]
    parts = pieces_of(boxes[group], axes, config)
    parts = claimed_rejoined(parts, links_of(boxes[group], config))
    return [[group[k] for k in part] for part in parts]


def claimed_rejoined(parts: list[list[int]], links: np.ndarray) -> list[list[int]]:
    """Parts split by the way their faces point, each tile split off alone joined again to
    the parts it touches where together they hold no more than a kong: a meld's claimed
    tile lies across the meld, whose other tiles it touches on one side or both."""
    out = [list(p) for p in parts]
    for (i,) in (p for p in parts if len(p) == 1):
        mine = next(p for p in out if i in p)
        touching = [p for p in out if p is not mine and links[i, p].any()]
        if len(mine) == 1 and touching and 1 + sum(map(len, touching)) <= MELD_MOST:
            out = [p for p in out if p is not mine and all(p is not q for q in touching)]
            out.append(sorted([i, *(k for p in touching for k in p)]))
    return sorted(out)


def strips_of_walls(
    named: list[tuple[Piece, list[int]]], boxes: np.ndarray, down: np.ndarray, config: RegionsConfig
) -> list[Piece]:
    """The ignored pieces (each with its tiles' indices into `boxes`) with those of backs
    named another player's hand that are strips, thin beside the tiles of a wall they
    touch, named the wall: its lower tiles, each showing a strip of its side along the
    wall, which links to no tile of full size (`links_of` joins tiles of about one size)."""
    short = np.minimum(boxes[:, 2] - boxes[:, 0], boxes[:, 3] - boxes[:, 1])
    gx, gy = gaps(boxes)
    apart = np.maximum(gx, gy)
    walls = [g for p, g in named if p.kind == "wall"]
    out = [p for p, _ in named]
    for k, (p, group) in enumerate(named):
        if p.kind != "other_hand" or not walls or not down[group].all():
            continue
        thin = float(np.median(short[group]))
        for wall in walls:
            beside = apart[np.ix_(group, wall)].min() <= config.link_gap * thin
            if beside and thin < config.strip_thin * float(np.median(short[wall])):
                out[k] = Piece("wall", p.tiles)
                break
    return out


def walls_inside(
    pieces: list[Piece],
    groups: list[list[int]],
    boxes: np.ndarray,
    down: np.ndarray,
    config: RegionsConfig,
) -> list[Piece]:
    """What the ignored pieces of backs named another player's hand are: a row of more backs
    than a hand stands (`RegionsConfig.standing_most`) is a wall, its stacks seen or not
    (from above a wall's lower tiles hide under its upper ones); so is a row of backs
    with another row of backs further out behind it, seen from the table's middle (its
    lower layer hidden), the row behind a hand: the walls stand inside the players'
    hands (`RegionsConfig.behind_least` and after). The hand's own concealed kongs,
    four backs each, may lie more than a standing hand's count together: the hand is
    grown before the pieces are named so."""
    least, far = config.behind_least, config.behind_far
    centre = np.median((boxes[:, :2] + boxes[:, 2:]) / 2, axis=0)
    where = [np.mean((boxes[g, :2] + boxes[g, 2:]) / 2, axis=0) - centre for g in groups]
    out = list(pieces)
    for k, p in enumerate(pieces):
        if p.kind == "other_hand" and down[groups[k]].sum() > config.standing_most:
            out[k] = Piece("wall", p.tiles)
            continue
        if p.kind != "other_hand" or len(p.tiles) < least or not down[groups[k]].all():
            continue
        for j, q in enumerate(pieces):
            if j == k or q.kind != "other_hand" or len(q.tiles) < least:
                continue
            a, b = where[k], where[j]
            cos = float(a @ b / max(np.linalg.norm(a) * np.linalg.norm(b), 1e-9))
            if cos > config.behind_cos and np.linalg.norm(b) > far * np.linalg.norm(a):
                out[k] = Piece("wall", p.tiles)
                break
    return out
