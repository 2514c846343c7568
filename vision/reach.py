"""The hand's candidates: a piece the camera's player reads upright, and the pieces a
laid-down hand spreads over around it.

A hand lies in a row with its melds and flowers in front of it, a tile or
two set apart along it and a few just behind it; its concealed kongs may
lie face down in its rows. Each seed (the face-up pieces read upright,
nearest the camera first) is grown by the pieces that lie so
(`_grow_along`, measured in the frame of the hand's row: `Extent`), with
the backs in its rows (`_row_backs`); those are the candidates
`vision.regions.find_regions` offers, in that order.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from vision.config import RegionsConfig
from vision.pieces import DEFAULT, MELD_MOST, Piece, links_of, row_direction, touching_any
from vision.rows import tile_width


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
    """The direction the seed's row runs in (`row_direction`, pointing right: its normal
    then points down the photo, towards the player), or None (the photo's own axes) for a
    seed too short to show it or running more than 45 degrees off the photo's width (the
    camera's player reads the hand upright, its row across the photo)."""
    if len(tiles) < 3:
        return None
    b = boxes[list(tiles)]
    d = row_direction(np.stack([b[:, 0] + b[:, 2], b[:, 1] + b[:, 3]], axis=1) / 2)
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
    if piece.kind in ("wall", "other_hand") and len(piece.tiles) <= MELD_MOST:
        return ALONG_OR_FRONT
    if piece.kind not in ("discards", "other_hand"):
        return frozenset()
    flowery = flowers >= config.flowers_p and len(piece.tiles) <= config.flowers_in_set
    return ALONG_OR_FRONT if flowery else FRONT_ONLY


@dataclass(frozen=True, eq=False)
class _Table:
    """What growing the hand looks at: every tile's box, its flower probability, which
    face-up tiles link (`links_of`, whichever way they face), and which backs link to no
    tile at all (`alone`)."""

    boxes: np.ndarray
    flowers: np.ndarray
    touching: np.ndarray
    alone: np.ndarray

    @classmethod
    def of(
        cls, boxes: np.ndarray, flowers: np.ndarray, down: np.ndarray, config: RegionsConfig
    ) -> _Table:
        links = links_of(boxes, config)
        touching = links & ~down[:, None] & ~down[None]
        return cls(boxes, flowers, touching, down & ~touching_any(links))

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
    longest row of upright faces it took (`_hand_row`), where its own row runs."""
    along = _along(seed.tiles, table.boxes)
    members = _grow_along(seed, pieces, table, config, along)
    if along is not None:
        return members
    along = _hand_row(members, pieces, table)
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
    that do not join (`_Table.crowded`): the hand's parts behind it lie apart. A back
    touching no tile stays out too: a concealed kong's backs lie beside its other tiles,
    a cloth's printed spots read as backs lie apart."""
    boxes = table.boxes
    first = Extent.of(seed.tiles, boxes, along)
    members, joined = list(seed.tiles), [(first, 0)]
    own = set(seed.tiles)  # a seed grown before holds whole pieces and parts of others
    rest = [
        (p, Extent.of(p.tiles, boxes, along), where)
        for p in pieces
        if p is not seed
        and not own.intersection(p.tiles)
        and not table.alone[list(p.tiles)].all()
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


def hand_candidates(
    pieces: list[Piece],
    boxes: np.ndarray,
    flowers: np.ndarray,
    backs: tuple[np.ndarray, np.ndarray],
    config: RegionsConfig = DEFAULT,
) -> tuple[tuple[int, ...], ...]:
    """The hand's candidates, nearest the camera first: each seed grown from its row
    (`_row_behind`) and alone, with the kongs in its rows (`_with_kongs`); `flowers`:
    each tile's flower probability, `backs`: which tiles lie face down, which on or
    under another."""
    down, stacks = backs
    table = _Table.of(boxes, flowers, down, config)
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
    return tuple(candidates[: config.tries])
