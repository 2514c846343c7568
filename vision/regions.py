"""The winner's hand among everything else on the table.

A photo of a whole table shows far more tiles than any hand holds: the
four walls, the discard ponds, the other players' hands and melds. This
stage groups the tiles into pieces that lie together (each tile linked to
the tiles within a small gap of it, of about its size), names what each
piece is from what it shows, and lists the hand's candidates: the face-up
pieces the camera's player reads upright, nearest the camera first, with
the pieces beside them that a laid-down hand spreads over (its winning tile
set apart, its melds and flowers). The pipeline reads the candidates in that
order, then two lying near each other together (`vision.table.hand_tries`),
and keeps the first that makes a complete hand (but for a kong lying face
down, which the person names); every other tile is `ignored`, with its
piece's kind.

Everything here works on boxes, the classifier's readings and the
orienter's face directions: plain values in, a new `Regions` value out.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from scorer.tiles import BACK, BACK_INDEX, CODES, FLOWER_FIRST, INDEX
from vision.config import RegionsConfig
from vision.layout.kinds import code_of, face_up, flower_sum
from vision.rows import tile_width
from vision.types import TileRead

#: the kinds of piece that are not the hand (the contract's `ignored` kinds)
KINDS = ("discards", "wall", "other_hand", "other_meld", "stray")


DEFAULT = RegionsConfig()


@dataclass(frozen=True)
class Piece:
    """Tiles that lie together, and what they are."""

    kind: str  # "hand" (a candidate) or one of KINDS
    tiles: tuple[int, ...]  # indices into the reads


@dataclass(frozen=True)
class Regions:
    """The pieces of a photo and the hand's candidates, nearest the camera first."""

    pieces: tuple[Piece, ...]
    candidates: tuple[tuple[int, ...], ...]
    boxes: np.ndarray | None = None  # every tile's box, for naming what is not the hand
    down: np.ndarray | None = None  # which tiles lie face down
    facing: np.ndarray | None = None  # which way each tile faces (`facing`)
    config: RegionsConfig = field(default_factory=RegionsConfig)

    def apart(self, a: tuple[int, ...], b: tuple[int, ...]) -> float:
        """How far apart two groups of tiles lie: the gap between their nearest tiles, in
        tile sizes (the median short side of their boxes); 0 where no boxes are known."""
        if self.boxes is None or not a or not b:
            return 0.0
        sides = self.boxes[list(a) + list(b)]
        gx, gy = _gaps(sides)  # the two groups' own tiles only, not the whole table's
        gap = float(np.maximum(gx, gy)[: len(a), len(a) :].min())
        return gap / max(tile_width(sides), 1.0)

    def ignored(self, hand: tuple[int, ...]) -> list[Piece]:
        """The tiles not in `hand`, grouped again without regard to which way they face (a
        meld's claimed tile lies across it) and named by what each group shows."""
        taken = set(hand)
        rest = [i for p in self.pieces for i in p.tiles if i not in taken]
        if not rest or self.boxes is None or self.down is None:
            return [Piece("stray", tuple(rest))] if rest else []
        boxes, down = self.boxes[rest], self.down[rest]
        faces = self.facing[rest] if self.facing is not None else np.full(len(rest), 5)
        stacks, out = stacked(boxes, down, self.config), []
        groups = [
            part
            for group in pieces_of(boxes, down.astype(int), self.config)
            for part in _by_axis(group, boxes, faces, self.config)
        ]
        for group in groups:
            tiles = tuple(sorted(rest[k] for k in group))
            out.append(Piece(name_of(group, boxes, down, self.config, stacks), tiles))
        return _walls_inside(out, groups, boxes, down, self.config)


def _by_axis(
    group: list[int], boxes: np.ndarray, faces: np.ndarray, config: RegionsConfig
) -> list[list[int]]:
    """A group larger than a meld split where its tiles face different ways (`along_axis`):
    ponds that touch at the table's centre each face their own player; a meld keeps its
    claimed tile lying across it."""
    if len(group) <= 4:
        return [group]
    axes = along_axis(faces[group])
    if len(set(axes.tolist())) <= 1:
        return [group]
    return [[group[k] for k in part] for part in pieces_of(boxes[group], axes, config)]


def _walls_inside(
    pieces: list[Piece],
    groups: list[list[int]],
    boxes: np.ndarray,
    down: np.ndarray,
    config: RegionsConfig,
) -> list[Piece]:
    """A row of backs with another row of backs further out behind it, seen from the table's
    middle, is a wall (its lower layer hidden), the row behind a hand: the walls stand
    inside the players' hands (`RegionsConfig.behind_least` and after)."""
    least, far = config.behind_least, config.behind_far
    centre = np.median((boxes[:, :2] + boxes[:, 2:]) / 2, axis=0)
    where = [np.mean((boxes[g, :2] + boxes[g, 2:]) / 2, axis=0) - centre for g in groups]
    out = list(pieces)
    for k, p in enumerate(pieces):
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


def _boxes(reads: list[TileRead]) -> np.ndarray:
    return np.array([r.detection.box for r in reads], float).reshape(-1, 4)


def _gaps(boxes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
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
    gx, gy = _gaps(boxes)
    small = np.minimum(size[:, None], size[None])
    ratio = np.maximum(size[:, None], size[None]) / small
    return (np.maximum(gx, gy) <= config.link_gap * small) & (ratio <= config.size_ratio)


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


def _face_down(reads: list[TileRead], config: RegionsConfig) -> np.ndarray:
    return np.array(
        [r.chosen == "back" if r.chosen else r.probs[BACK_INDEX] > config.back_p for r in reads]
    )


def _lean(reads: list[TileRead]) -> np.ndarray:
    """(N, 2): how far each face's top points towards the photo's top, and across it, times
    the orienter's sureness (the length of `TileRead.up`); 0 where no direction is known."""
    return np.array(
        [(0.0, 0.0) if r.up is None else (-float(r.up[1]), float(r.up[0])) for r in reads]
    ).reshape(-1, 2)


def _telling(reads: list[TileRead], config: RegionsConfig) -> np.ndarray:
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
    _, gy = _gaps(b)
    low = np.minimum(h[:, None], h[None])
    cy = (b[:, 1] + b[:, 3]) / 2
    lined_up = overlap_x > config.strip_overlap * np.minimum(w[:, None], w[None])
    taller = h[None] >= config.strip_under * h[:, None]
    near_under = (gy <= config.strip_gap * low) & (cy[None] < cy[:, None])
    on = lined_up & taller & near_under  # [i, j]: the strip i under tile j
    out[idx] = on.any(axis=1) | on.any(axis=0)
    return out


def _row_direction(centre: np.ndarray) -> np.ndarray:
    """The unit direction a piece's rows run in: tiles in a row lie nearer one another than
    the rows do, so it is the mean direction (either way round) from each tile to its
    nearest neighbour, however the photo is turned."""
    gaps = centre[None] - centre[:, None]
    dist = np.hypot(gaps[..., 0], gaps[..., 1])
    np.fill_diagonal(dist, np.inf)
    step = gaps[np.arange(len(centre)), dist.argmin(axis=1)]
    twice = 2 * np.arctan2(step[:, 1], step[:, 0])  # a step and its reverse alike
    angle = np.arctan2(np.sin(twice).sum(), np.cos(twice).sum()) / 2
    return np.array([np.cos(angle), np.sin(angle)])


def _longest_row(boxes: np.ndarray, band: float) -> int:
    """Tiles in the longest run of a piece: centres within `band` tile sizes of one line
    along its rows (`_row_direction`), a pond's rows of six or a hand's one long row."""
    centre = np.stack([boxes[:, 0] + boxes[:, 2], boxes[:, 1] + boxes[:, 3]], axis=1) / 2
    if len(centre) < 3:
        return len(centre)
    along = _row_direction(centre)
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

    The faces whose direction tells (`_telling`) where their player sits vote,
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
    if len(tiles) in (3, 4):
        return "other_meld"
    return "discards" if len(tiles) > 4 else "stray"


def _nearness(tiles: tuple[int, ...], boxes: np.ndarray) -> float:
    """How near the camera a piece lies: its bottom edge in the photo."""
    return float(boxes[list(tiles), 3].max())


def _row_frame(boxes: np.ndarray, along: np.ndarray | None) -> tuple[np.ndarray, ...]:
    """Each box's centre along a row running in `along` (None: across the photo) and
    across it, and its half-extents along and across."""
    d = np.array([1.0, 0.0]) if along is None else along
    n = np.array([-d[1], d[0]])
    centre = np.stack([boxes[:, 0] + boxes[:, 2], boxes[:, 1] + boxes[:, 3]], axis=1) / 2
    w, h = boxes[:, 2] - boxes[:, 0], boxes[:, 3] - boxes[:, 1]
    half_u, half_v = (abs(d[0]) * w + abs(d[1]) * h) / 2, (abs(n[0]) * w + abs(n[1]) * h) / 2
    return centre @ d, centre @ n, half_u, half_v


@dataclass(frozen=True)
class Extent:
    """The span of a piece along the hand's row (x1-x2) and across it (y1-y2), in pixels,
    and the size of its tiles (their median short side) and their scale (the median
    square root of their boxes' areas: a tile set apart at an angle has a square box, whose
    short side is longer than its width, but about the same area). Measured in the row's
    own frame, a row seen at a slant is one tile deep across all its length."""

    x1: float
    y1: float
    x2: float
    y2: float
    size: float
    scale: float

    @classmethod
    def of(
        cls, tiles: list[int] | tuple[int, ...], boxes: np.ndarray, along: np.ndarray | None = None
    ) -> Extent:
        b = boxes[list(tiles)]
        u, v, hu, hv = _row_frame(b, along)
        w, h = b[:, 2] - b[:, 0], b[:, 3] - b[:, 1]
        size, scale = tile_width(b), float(np.median(np.sqrt(np.maximum(w * h, 0.0))))
        return cls((u - hu).min(), (v - hv).min(), (u + hu).max(), (v + hv).max(), size, scale)


def _along(tiles: tuple[int, ...], boxes: np.ndarray) -> np.ndarray | None:
    """The direction the seed's row runs in (`_row_direction`, pointing right: its normal
    then points down the photo, towards the player), or None (the photo's own axes) for a
    seed too short to show it or running more than 45 degrees off the photo's width (the
    camera's player reads the hand upright, its row across the photo)."""
    if len(tiles) < 3:
        return None
    b = boxes[list(tiles)]
    d = _row_direction(np.stack([b[:, 0] + b[:, 2], b[:, 1] + b[:, 3]], axis=1) / 2)
    return d if abs(d[0]) >= np.cos(np.pi / 4) else None


def _reach(
    joined: list[tuple[Extent, int]],
    b: Extent,
    row: Extent,
    config: RegionsConfig,
    lone: bool = False,
) -> int | None:
    """How a piece (`b`) joins a laid-down hand whose pieces so far are `joined` (each with
    its depth: 0 the seed's row, 1 a row in front of it, nearer the player, 2 one behind
    it), or None: along a joined piece's row within a few tiles (its depth), or just in
    front of (depth 1) or behind (depth 2) a piece of the seed's row, never off past its
    ends. A hand lies in a row with pieces in front of it and a few tiles just behind;
    a chain of pieces one behind another is the table's other groups. Its tiles are
    about the hand's size (`row`: the seed's row); a lone face-up tile (`lone`: a winning
    tile set apart, perhaps at an angle) about its scale. The extents are in the seed
    row's frame (`Extent`): x along the row, y across it, growing towards the player."""
    mine, theirs = (b.scale, row.scale) if lone else (b.size, row.size)
    if max(mine, theirs) > config.size_ratio * max(min(mine, theirs), 1.0):
        return None
    size = row.size
    depths = []
    for a, depth in joined:
        gap_x = max(0.0, b.x1 - a.x2, a.x1 - b.x2)
        gap_y = max(0.0, b.y1 - a.y2, a.y1 - b.y2)
        overlap_x = min(a.x2, b.x2) - max(a.x1, b.x1)
        if gap_x > config.hand_gap_along * size:
            continue
        if gap_y <= 0.5 * size and overlap_x <= 0.5 * size:  # further along the row
            depths.append(depth)
        elif depth == 0 and gap_x <= 0.5 * size:  # in front of the row, or behind it
            front = b.y1 + b.y2 > a.y1 + a.y2  # its centre nearer the player
            if gap_y <= (config.hand_gap_front if front else config.hand_gap_across) * size:
                depths.append(1 if front else 2)
    return min(depths) if depths else None


def _lone(piece: Piece) -> bool:
    """Whether a piece is one face-up tile (a back lies in a wall or another player's hand)."""
    return len(piece.tiles) == 1 and piece.kind in ("hand", "stray")


#: where a piece may join the hand (`_reach`'s depths: 0 along the seed's row, 1 in front
#: of it, nearer the player, 2 behind it)
ANYWHERE, ALONG_OR_FRONT, FRONT_ONLY = frozenset({0, 1, 2}), frozenset({0, 1}), frozenset({1})


def _depths(piece: Piece, flowers: float, config: RegionsConfig) -> frozenset[int]:
    """Where a piece may join the hand (`_reach`'s depths), or nowhere (empty). A tile or
    two (a winning tile set apart, flowers, a claimed tile lying sideways, a concealed
    kong's backs at its ends) lie in its row or just in front or behind; three or four
    backs together in its row or in front (a kong lying all face down): behind it they
    are another player's hand seen from behind, reaching in at a seated view; more
    face-up tiles together (a meld, flowers in a row) along the row or in front of it,
    nearer the player: rows of them behind are the player's own discards, towards the
    table's middle. Rows of faces that read as a pond or a hand pushed over (flowers of
    unfamiliar art, read as suit tiles facing any way; more than four backs are another
    hand seen from behind, which lies nowhere in front) join only in front: nothing but
    the hand's melds and flowers lies between the player and the row; along it too where
    they may be flowers (their mean flower probability `flowers` at least
    `RegionsConfig.flowers_p`, no more than a set holds): no pond or other hand holds a
    flower."""
    if piece.kind in ("hand", "other_meld"):
        return ANYWHERE if len(piece.tiles) < 3 else ALONG_OR_FRONT
    if piece.kind in ("stray", "wall", "other_hand") and len(piece.tiles) <= 2:
        return ANYWHERE
    if piece.kind in ("wall", "other_hand") and len(piece.tiles) <= 4:
        return ALONG_OR_FRONT
    if piece.kind not in ("discards", "other_hand"):
        return frozenset()
    flowery = flowers >= config.flowers_p and len(piece.tiles) <= config.flowers_in_set
    return ALONG_OR_FRONT if flowery else FRONT_ONLY


@dataclass(frozen=True, eq=False)
class _Table:
    """What growing the hand looks at: every tile's box, its flower probability, and which
    face-up tiles link (`links_of`, whichever way they face)."""

    boxes: np.ndarray
    flowers: np.ndarray
    touching: np.ndarray

    @classmethod
    def of(
        cls, boxes: np.ndarray, flowers: np.ndarray, down: np.ndarray, config: RegionsConfig
    ) -> _Table:
        touching = links_of(boxes, config) & ~down[:, None] & ~down[None]
        return cls(boxes, flowers, touching)

    def crowded(self, tiles: tuple[int, ...], members: list[int], config: RegionsConfig) -> bool:
        """Whether face-up tiles outside the hand so far touch these (a piece of a pond split
        off by its faces' directions, or of another player's meld), unless all of them
        together read as flowers (`RegionsConfig.flowers_behind_p`, no more than a set
        holds): the hand's flowers laid behind it, split the same way."""
        near = self.touching[list(tiles)].any(axis=0)
        near[list(tiles) + members] = False
        if not near.any():
            return False
        group = list(tiles) + np.flatnonzero(near).tolist()
        flowery = self.flowers[group].mean() >= config.flowers_behind_p
        return not (flowery and len(group) <= config.flowers_in_set)


def _grow(seed: Piece, pieces: list[Piece], table: _Table, config: RegionsConfig) -> list[int]:
    """The seed and every piece that joins it (`_grow_along` in the seed's frame). A seed of
    a tile or two shows no row's direction: grown in the photo's axes, a row seen at a
    slant climbs past pieces lying behind it, so it is grown again in the frame of the
    longest row of upright faces it took (`_along`), where its own row runs."""
    along = _along(seed.tiles, table.boxes)
    members = _grow_along(seed, pieces, table, config, along)
    if along is not None:
        return members
    taken = set(members)
    rows = [p for p in pieces if p.kind == "hand" and taken.issuperset(p.tiles)]
    longest = max(rows, key=lambda p: len(p.tiles), default=seed)
    along = _along(longest.tiles, table.boxes)
    return members if along is None else _grow_along(seed, pieces, table, config, along)


def _grow_along(
    seed: Piece,
    pieces: list[Piece],
    table: _Table,
    config: RegionsConfig,
    along: np.ndarray | None,
) -> list[int]:
    """The seed and every piece that joins it (`_reach`, `_depths`), measured along `along`
    (`Extent`); a piece that would take it past the most tiles a hand lays down stays out
    (nothing larger is a hand), and so does one behind the row touching face-up tiles
    that do not join (`_Table.crowded`): the hand's parts behind it lie apart."""
    boxes = table.boxes
    first = Extent.of(seed.tiles, boxes, along)
    members, joined = list(seed.tiles), [(first, 0)]
    own = set(seed.tiles)  # a seed grown before holds whole pieces and parts of others
    rest = [
        (p, Extent.of(p.tiles, boxes, along), where)
        for p in pieces
        if p is not seed
        and not own.intersection(p.tiles)
        and (where := _depths(p, float(table.flowers[list(p.tiles)].mean()), config))
    ]
    grown = True
    while grown:
        grown = False
        for k, (p, e, where) in enumerate(rest):
            if p is None or len(members) + len(p.tiles) > config.hand_most:
                continue  # joined already, or too many tiles for the hand
            depth = _reach(joined, e, first, config, _lone(p))
            if depth not in where or (depth == 2 and table.crowded(p.tiles, members, config)):
                continue  # not where it may lie, or touching a pond or meld behind the row
            members += p.tiles
            joined.append((e, depth))
            rest[k] = (None, e, where)
            grown = True
    return members


def _row_behind(
    seed: Piece, pieces: list[Piece], boxes: np.ndarray, config: RegionsConfig
) -> Piece:
    """The hand's row for a seed: the seed itself, or a row of upright faces at least twice
    as long that the seed lies along (a tile set apart at the row's end), else one just
    behind it, that the seed lies in front of (melds or flowers laid nearer the player
    than the row, `_depths`); the player's pond lies further back. A tile set apart lies
    in front of the pond too: its own row comes first."""
    best = seed
    for p in pieces:
        if p.kind != "hand" or len(p.tiles) < max(2 * len(seed.tiles), len(best.tiles) + 1):
            continue
        along = _along(p.tiles, boxes)  # the frame `_grow` will measure in from that row
        row = Extent.of(p.tiles, boxes, along)
        if row.y2 - row.y1 > config.row_deep * row.size:
            continue  # rows behind rows: a pond, not the hand's row
        own = Extent.of(seed.tiles, boxes, along)
        depth = _reach([(row, 0)], own, row, config, _lone(seed))
        if depth == 0:
            return p
        if depth == 1:
            best = p
    return best


def _row_backs(
    members: list[int],
    down: np.ndarray,
    table: _Table,
    stacks: np.ndarray,
    config: RegionsConfig = DEFAULT,
    along: np.ndarray | None = None,
) -> list[int]:
    """Face-down tiles lying in a row of the hand (a concealed kong), even where they touch a
    wall behind it: each centre in line with one of the two tiles of the hand nearest it
    (`RegionsConfig.kong_line`, in tile heights), lying flat (not on or under another,
    as a wall's tiles do: `stacked`), and reaching to near the row's ends (`kong_reach`),
    the backs taken so far counting as the hand's (a kong of four backs at its end, a
    little wider than the faces).

    In line is measured across the hand's row (`along`, None: across the photo), not up
    the photo: a row seen at a slant climbs across it, and the wall in front of the
    hand, its end beyond the row's, climbs level with the row's far tiles. Nearest
    counts a row away as twice as far as a tile along: a kong continuing the meld row in
    front of the concealed one lies nearer the concealed row's tiles than its own row's
    last face. Tiles read as flowers (`kong_flower`) are no anchor: laid apart, they may
    line up with the wall too. More backs than a hand's four kongs show
    (`kong_backs_most`) are a wall's, and none joins."""
    u, v, half, half_v = _row_frame(table.boxes, along)
    row = np.array([m for m in members if table.flowers[m] < config.kong_flower] or members)
    reach = config.kong_reach * float(np.median(2 * half[row]))
    line = config.kong_line * float(np.median(2 * half_v[row]))
    taken = set(members)
    flat = [i for i in np.nonzero(down & ~stacks)[0].tolist() if i not in taken]
    out: list[int] = []
    while True:
        x1, x2 = (u - half)[row].min() - reach, (u + half)[row].max() + reach
        more = []
        for i in flat:
            if i in out or u[i] + half[i] < x1 or u[i] - half[i] > x2:
                continue
            nearest = row[np.argsort(np.hypot(u[row] - u[i], 2 * (v[row] - v[i])))[:2]]
            if np.min(np.abs(v[nearest] - v[i])) < line:
                more.append(i)
        if not more:
            return out
        out += more
        if len(out) > config.kong_backs_most:
            return []
        row = np.concatenate([row, more])


def _with_kongs(
    members: list[int],
    pieces: list[Piece],
    table: _Table,
    backs: tuple[np.ndarray, np.ndarray],
    config: RegionsConfig,
) -> list[int]:
    """A candidate's tiles with the concealed kongs lying in its rows (`_row_backs`; `backs`:
    which tiles lie face down, which on or under another), and what lies beyond each (a
    meld, a second kong, the flowers at the row's end), grown past it in turn."""
    down, stacks = backs
    while kongs := _row_backs(
        members, down, table, stacks, config, _hand_row(members, pieces, table)
    ):
        members = _grow(Piece("hand", tuple(members + kongs)), pieces, table, config)
    return members


def _hand_row(members: list[int], pieces: list[Piece], table: _Table) -> np.ndarray | None:
    """The direction of the longest row of upright faces among a candidate's tiles (`_along`):
    the hand's own row, not a pond's tiles taken in beside it."""
    taken = set(members)
    rows = [p for p in pieces if p.kind == "hand" and taken.issuperset(p.tiles)]
    longest = max(rows, key=lambda p: len(p.tiles), default=None)
    return None if longest is None else _along(longest.tiles, table.boxes)


def find_regions(reads: list[TileRead], config: RegionsConfig = DEFAULT) -> Regions:
    """The photo's pieces and the hand's candidates (a photo of one hand: one candidate)."""
    if len(reads) <= config.hand_most:
        every = tuple(range(len(reads)))
        return Regions((Piece("hand", every),) if every else (), (every,) if every else ())
    boxes = _boxes(reads)
    down = _face_down(reads, config)
    faces, stacks = facing(reads, down), stacked(boxes, down, config)
    telling = _telling(reads, config)
    lean = _lean(reads)
    table = _Table.of(boxes, np.array([flower_sum(r) for r in reads]), down, config)
    pieces = [
        Piece(kind_of(p, boxes, down, config, stacks, telling, lean), tuple(p))
        for p in pieces_of(boxes, along_axis(faces), config)
    ]
    seeds = sorted(
        (p for p in pieces if p.kind == "hand"), key=lambda p: -_nearness(p.tiles, boxes)
    )
    candidates: list[tuple[int, ...]] = []
    for seed in seeds:
        if len(candidates) == config.tries:
            break
        if any(set(seed.tiles) <= set(c) for c in candidates):
            continue  # grown into an earlier candidate already
        row = _row_behind(seed, pieces, boxes, config)
        for start in (row, seed) if row is not seed else (seed,):  # the row may be a pond
            members = _grow(start, pieces, table, config)
            members = _with_kongs(members, pieces, table, (down, stacks), config)
            if len(members) <= config.hand_most and tuple(sorted(members)) not in candidates:
                candidates.append(tuple(sorted(members)))
    return Regions(tuple(pieces), tuple(candidates[: config.tries]), boxes, down, faces, config)


#: groups whose face-up tiles were shown on the table before the win (牌池 and 桌面)
SHOWN = ("discards", "other_meld", "stray")


def shown_as(read: TileRead, kind: str) -> str:
    """The tile a read names in a piece of `kind`: a pond holds only playing tiles lying face
    up (a flower is set aside at once, never discarded), another player's meld playing
    tiles or a concealed kong's backs; elsewhere the read as it is. On unfamiliar art a
    pond's small tiles read as a back or a flower often have their tile next."""
    if kind == "discards":
        return CODES[face_up(read)]
    if kind == "other_meld":
        playing = face_up(read)
        return BACK if read.probs[BACK_INDEX] > read.probs[playing] else CODES[playing]
    return code_of(read)


def shown_copies(code: str, codes: list[str], ignored: list[Piece]) -> int:
    """Copies of `code` shown face up on the table before the win (和绝张): in the ponds, the
    other players' melds and any tile lying apart; a hand pushed over or standing was not
    shown. The hand's own exposed melds are counted by the caller."""
    return sum(1 for p in ignored if p.kind in SHOWN for i in p.tiles if codes[i] == code)
