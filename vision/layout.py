"""Read how the tiles lie: rows, melds, the concealed hand, the winning tile, flowers.

Only positions, box shapes and each tile's most probable class (flower,
face-down back or a playing tile) are used here; which playing tile each
one is gets decided later by `vision.decode`, under the rules.

Table practice (rules seed 003, 实战细节 五 鸣牌的摆放): in an exposed meld
the claimed tile lies sideways; for a pung or kong its place tells the
giver (left tile → 上家 seat 1, middle → 对家 seat 2, right → 下家 seat 3);
a promoted kong (加杠) has its fourth tile laid sideways on or next to the
claimed one; a concealed kong shows backs. The winning tile is set apart
at the end of the concealed row. The photo may be turned by any multiple
of 90°: rows run along the short side of most boxes, and the reading
direction comes from where the winning tile lies and from the concealed
row being nearest the player.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from scorer.tiles import BACK_INDEX, FLOWER_FIRST
from vision.types import Group, Layout, TileRead

#: gap between touching tiles that still counts as "together", in tile widths
GAP_SPLIT = 0.35
#: ... and by how much more than the row's usual spacing
GAP_OVER_USUAL = 0.4
#: distance between row centre lines that starts a new row, in tile lengths
ROW_SPLIT = 0.55
#: how much wider than its row's median tile a box must be to lie sideways
SIDEWAYS_RATIO = 1.4
#: the most upright tiles a hand row can hold (14, and a stray one)
MAX_HAND_ROW = 15
#: how much of the smaller of two boxes their overlap must cover to count as one tile twice
DUPLICATE_COVER = 0.55
#: the most tilt (radians) the rows are straightened by; beyond it boxes say too little
MAX_SLANT = np.radians(25)


@dataclass
class _Slot:
    """One place along a row: a tile, or two tiles stacked across the row."""

    tiles: list[int]
    start: float
    end: float
    sideways: bool
    short: float = 0.0  # the tile's short side: the local scale for gaps


@dataclass
class _Frame:
    """Row coordinates of every tile: `u` along the row, `v` across it."""

    u: np.ndarray
    v: np.ndarray
    eu: np.ndarray
    ev: np.ndarray


def _top_class(read: TileRead) -> int:
    return int(np.argmax(read.probs))


def _frame(boxes: np.ndarray, vertical: bool, rotation: int, members: list[int]) -> _Frame:
    """Row coordinates for a photo turned by `rotation` (0 or 90) degrees clockwise.

    A further half turn is found later and handled by reversing the order.
    """
    cx = (boxes[:, 0] + boxes[:, 2]) / 2
    cy = (boxes[:, 1] + boxes[:, 3]) / 2
    w = boxes[:, 2] - boxes[:, 0]
    h = boxes[:, 3] - boxes[:, 1]
    u, v = (cy, -cx) if rotation == 90 else (cx, cy)
    eu, ev = (h, w) if vertical else (w, h)
    angle = _slant(u[members], v[members])
    if angle:
        c, s = np.cos(angle), np.sin(angle)
        u, v = c * u + s * v, -s * u + c * v
        # an upright box around a tilted tile is wider and taller than the tile: undo that
        s, det = abs(s), c * c - s * s
        eu, ev = (
            np.maximum((eu * c - ev * s) / det, 0.3 * eu),
            np.maximum((ev * c - eu * s) / det, 0.3 * ev),
        )
    return _Frame(u=u, v=v, eu=eu, ev=ev)


def _slant(u: np.ndarray, v: np.ndarray) -> float:
    """The small angle by which the rows are tilted (a photo not held level), in radians.

    Each tile's nearest neighbour usually lies beside it in the same row;
    the median direction of those neighbour steps is the rows' direction.
    """
    if len(u) < 3:
        return 0.0
    du = u[None, :] - u[:, None]
    dv = v[None, :] - v[:, None]
    dist = np.hypot(du, dv)
    np.fill_diagonal(dist, np.inf)
    nearest = dist.argmin(axis=1)
    steps_u, steps_v = du[np.arange(len(u)), nearest], dv[np.arange(len(u)), nearest]
    along = np.abs(steps_u) > np.abs(steps_v)
    if along.sum() < 2:
        return 0.0
    sign = np.where(steps_u[along] < 0, -1.0, 1.0)
    angle = float(np.median(np.arctan2(steps_v[along] * sign, steps_u[along] * sign)))
    return float(np.clip(angle, -MAX_SLANT, MAX_SLANT))


def _rows(frame: _Frame, members: list[int], length: float) -> list[list[int]]:
    """Split tiles into rows by gaps between their centre lines (sorted by v)."""
    order = sorted(members, key=lambda i: frame.v[i])
    rows: list[list[int]] = []
    for i in order:
        if rows and frame.v[i] - frame.v[rows[-1][-1]] <= ROW_SPLIT * length:
            rows[-1].append(i)
        else:
            rows.append([i])
    return rows


def _mark_sideways(reads: list[TileRead], frame: _Frame, rows: list[list[int]]) -> None:
    """Set `detection.sideways` from each box's shape relative to the upright tiles of its row.

    Most tiles of any row stand upright (two of a meld's three), so the
    median width/length ratio of the row (its lower quartile in a row of at
    most 4) is an upright tile's, even when a row lying flat is
    foreshortened differently from a standing one.
    """
    ratio = frame.eu / np.maximum(frame.ev, 1e-6)
    for row in rows:
        if len(row) < 2:
            continue  # a lone tile is no meld; nothing to compare it with
        upright = float(np.percentile(ratio[row], 25 if len(row) <= 4 else 50))
        for i in row:
            if ratio[i] > upright * SIDEWAYS_RATIO:
                reads[i].detection.sideways = True


def _slots(reads: list[TileRead], frame: _Frame, row: list[int]) -> list[_Slot]:
    """Tiles of a row in reading order; two sideways tiles stacked across the row share a slot
    (a promoted kong). Other overlapping tiles (a heap, not a row) keep a slot each."""
    slots: list[_Slot] = []
    for i in sorted(row, key=lambda i: frame.u[i]):
        start, end = frame.u[i] - frame.eu[i] / 2, frame.u[i] + frame.eu[i] / 2
        side = reads[i].detection.sideways
        if slots:
            last = slots[-1]
            overlap = min(last.end, end) - max(last.start, start)
            stack = side and last.sideways and len(last.tiles) == 1
            if stack and overlap > 0.5 * min(last.end - last.start, end - start):
                last.tiles.append(i)
                last.start, last.end = min(last.start, start), max(last.end, end)
                last.sideways = last.sideways or side
                continue
        slots.append(_Slot([i], start, end, side, float(min(frame.eu[i], frame.ev[i]))))
    return slots


def _clusters(slots: list[_Slot]) -> list[list[_Slot]]:
    """Split a row's slots where a clear gap lies between neighbours.

    Gaps are measured in the neighbours' own tile widths (a row far from
    the camera splits like a near one) and must stand out from the row's
    usual spacing, since tiles pushed together still show small gaps.
    """
    if not slots:
        return []
    gaps = [
        (b.start - a.end) / max(min(a.short, b.short), 1e-6)
        for a, b in zip(slots, slots[1:], strict=False)
    ]
    usual = float(np.median(gaps)) if len(gaps) >= 3 else 0.0
    clusters: list[list[_Slot]] = [[slots[0]]]
    for slot, gap in zip(slots[1:], gaps, strict=True):
        if gap > max(GAP_SPLIT, usual + GAP_OVER_USUAL):
            clusters.append([slot])
        else:
            clusters[-1].append(slot)
    return clusters


def _meld_segment(slots: list[_Slot]) -> tuple[int, bool] | None:
    """(giver position 1-3, promoted) when these slots form one exposed meld, else None."""
    flags = [s.sideways for s in slots]
    stacked = [len(s.tiles) == 2 for s in slots]
    if len(slots) == 3 and sum(flags) == 1:
        pos = flags.index(True)
        return pos + 1, stacked[pos]
    if len(slots) == 4 and not any(stacked):
        if sum(flags) == 1:
            pos = flags.index(True)
            return {0: 1, 1: 2, 2: 2, 3: 3}[pos], False
        if sum(flags) == 2:
            pos = flags.index(True)
            if flags[pos + 1]:
                return pos + 1, True  # fourth tile laid next to the claimed one
    return None


def _plausible(segment: list[_Slot], reads: list[TileRead]) -> bool:
    """Whether the first guesses of a meld's tiles already make a pung, kong or chow."""
    kinds = sorted(_top_class(reads[i]) for s in segment for i in s.tiles)
    if len(set(kinds)) == 1:
        return True
    return (
        len(kinds) == 3
        and kinds[0] < 27
        and kinds[0] // 9 == kinds[2] // 9
        and kinds == [kinds[0], kinds[0] + 1, kinds[0] + 2]
    )


def _split_melds(
    slots: list[_Slot], reads: list[TileRead]
) -> list[tuple[list[_Slot], int, bool]] | None:
    """Cut a run of touching meld tiles into melds; prefer cuts whose tiles look like melds."""
    best: tuple[int, list] | None = None

    def walk(start: int, parts: list) -> None:
        nonlocal best
        if start == len(slots):
            score = sum(_plausible(p[0], reads) for p in parts)
            if best is None or score > best[0]:
                best = (score, list(parts))
            return
        for size in (3, 4):
            segment = slots[start : start + size]
            if len(segment) == size and (found := _meld_segment(segment)):
                parts.append((segment, found[0], found[1]))
                walk(start + size, parts)
                parts.pop()

    walk(0, [])
    return best[1] if best else None


def _peel(
    slots: list[_Slot], reads: list[TileRead]
) -> tuple[list[_Slot], list[_Slot], list[_Slot]] | None:
    """Melds pushed against the end of a row of upright tiles: (before, melds, after), or None.

    Tries every run around the sideways tiles that reaches an end of the row
    and splits into melds; keeps the one whose melds already look most like
    melds. Sideways boxes in the middle of a row are rather misdetections.
    """
    side = [k for k, slot in enumerate(slots) if slot.sideways]
    best: tuple[int, int, int] | None = None
    for start in range(max(0, side[0] - 3), side[0] + 1):
        for end in range(side[-1] + 1, min(len(slots), side[-1] + 4) + 1):
            if start > 0 and end < len(slots):
                continue  # melds lie at an end of the hand, not inside it
            parts = _split_melds(slots[start:end], reads)
            if parts is not None:
                score = sum(_plausible(seg, reads) for seg, _, _ in parts)
                if best is None or score > best[0]:
                    best = (score, start, end)
    if best is None:
        return None
    _, start, end = best
    return slots[:start], slots[start:end], slots[end:]


@dataclass
class _Cluster:
    """Touching tiles of one row: 'kong' (has backs), 'meld' (has a sideways tile) or 'plain'."""

    row: int
    kind: str
    slots: list[_Slot]

    @property
    def tiles(self) -> list[int]:
        return [i for s in self.slots for i in s.tiles]


def _hand_row(clusters: list[_Cluster]) -> int:
    """The row holding most upright tiles, up to a hand's worth (a heap or the wall holds
    more), nearest the player on a tie: the concealed hand."""
    per_row: dict[int, int] = {}
    for c in clusters:
        if c.kind == "plain":
            per_row[c.row] = per_row.get(c.row, 0) + len(c.tiles)
    return _main_row(per_row) if per_row else -1


def _main_row(per_row: dict[int, int]) -> int:
    fitting = [r for r in per_row if per_row[r] <= MAX_HAND_ROW] or list(per_row)
    return max(fitting, key=lambda r: (per_row[r], r))


def _reversed(clusters: list[_Cluster]) -> bool | None:
    """Whether the rows read against the frame's u axis (the photo is turned a further 180°).

    Cues: the winning tile is set apart at the right end of the hand row; the
    hand row lies nearer the player than rows of melds. None: no cue either way.
    """
    main = _hand_row(clusters)
    if main < 0:
        return None
    plain = [c for c in clusters if c.kind == "plain" and c.row == main]
    score = 0
    if len(plain) >= 2:
        first, last = len(plain[0].tiles) == 1, len(plain[-1].tiles) == 1
        score += 2 if first and not last else -2 if last and not first else 0
    meld_rows = {c.row for c in clusters if c.kind != "plain" and c.row != main}
    if meld_rows:
        score += 1 if main < min(meld_rows) else -1 if main > max(meld_rows) else 0
    return None if score == 0 else score > 0


def _duplicates(reads: list[TileRead], boxes: np.ndarray) -> set[int]:
    """Detections that mostly cover a better-scored one: the same tile found twice."""
    order = sorted(range(len(reads)), key=lambda i: -reads[i].detection.score)
    area = (boxes[:, 2] - boxes[:, 0]) * (boxes[:, 3] - boxes[:, 1])
    kept: list[int] = []
    dups: set[int] = set()
    for i in order:
        for k in kept:
            iw = min(boxes[i, 2], boxes[k, 2]) - max(boxes[i, 0], boxes[k, 0])
            ih = min(boxes[i, 3], boxes[k, 3]) - max(boxes[i, 1], boxes[k, 1])
            if iw > 0 and ih > 0 and iw * ih > DUPLICATE_COVER * max(min(area[i], area[k]), 1e-6):
                dups.add(i)
                break
        else:
            kept.append(i)
    return dups


def read_layout(reads: list[TileRead]) -> Layout:
    """Group the tiles of one photo into the concealed row, melds, winning tile and flowers.

    Sets `detection.sideways` on tiles whose box lies across their row.
    Groups list tile indices in reading order (the player's left to right).
    """
    layout = Layout()
    if not reads:
        return layout
    boxes = np.array([r.detection.box for r in reads], dtype=float)
    dups = _duplicates(reads, boxes)
    live = [i for i in range(len(reads)) if i not in dups]
    w = np.maximum(boxes[live, 2] - boxes[live, 0], 1e-6)
    h = np.maximum(boxes[live, 3] - boxes[live, 1], 1e-6)
    vertical = bool(np.median(np.log(w / h)) > 0)  # most tiles wider than tall: rows run up-down
    length = float(np.median(np.maximum(w, h)))
    top = [_top_class(r) for r in reads]
    flowers = [i for i in live if FLOWER_FIRST <= top[i] < BACK_INDEX]

    rotation = 90 if vertical else 0
    frame = _frame(boxes, vertical, rotation, live)
    rows = _rows(frame, live, length)
    _mark_sideways(reads, frame, rows)
    clusters: list[_Cluster] = []
    for row_no, row in enumerate(rows):
        for run in _clusters(_slots(reads, frame, row)):
            slots = [
                _Slot([i for i in s.tiles if i not in flowers], s.start, s.end, s.sideways, s.short)
                for s in run
            ]
            slots = [s for s in slots if s.tiles]
            if not slots:
                continue
            tiles = [i for s in slots for i in s.tiles]
            kind = (
                "kong"
                if any(top[i] == BACK_INDEX for i in tiles)
                else "meld"
                if any(s.sideways for s in slots)
                else "plain"
            )
            if kind == "meld" and _split_melds(slots, reads) is None:
                peeled = _peel(slots, reads)
                if peeled is not None:
                    before, melds, after = peeled
                    clusters.extend(
                        _Cluster(row_no, k, part)
                        for k, part in (("plain", before), ("meld", melds), ("plain", after))
                        if part
                    )
                    layout.warnings.append(
                        "A meld touches other tiles; check how it was read "
                        "(leave a gap between melds and the hand)."
                    )
                    continue
            clusters.append(_Cluster(row_no, kind, slots))
    turned = _reversed(clusters)
    if turned:
        rotation += 180
        n_rows = len(rows)
        clusters = [_Cluster(n_rows - 1 - c.row, c.kind, c.slots[::-1]) for c in clusters[::-1]]
    elif turned is None and len(clusters) > 1:
        layout.warnings.append(
            "Could not tell which way the photo is turned (no winning tile set apart); "
            "assumed the rows read " + ("top to bottom." if vertical else "left to right.")
        )
    layout.rotation = rotation
    for c in sorted(clusters, key=lambda c: c.row):
        if c.kind == "kong":
            _add_concealed_kongs(layout, c.tiles, top)
        elif c.kind == "meld":
            _add_melds(layout, c.slots, reads)
    _add_hand(layout, [(c.row, c.tiles) for c in clusters if c.kind == "plain"])
    if flowers:
        layout.groups.append(Group(role="flowers", tiles=flowers))
    if dups:
        layout.groups.append(Group(role="extra", tiles=sorted(dups)))
        layout.warnings.append(f"Ignored {len(dups)} box(es) found twice on the same tile.")
    return layout


def _add_concealed_kongs(layout: Layout, tiles: list[int], top: list[int]) -> None:
    if len(tiles) % 4:
        layout.groups.append(Group(role="unknown", tiles=tiles))
        layout.warnings.append(
            f"{len(tiles)} tiles with face-down ones lie together; a concealed kong is 4 tiles."
        )
        return
    for k in range(0, len(tiles), 4):
        kong = tiles[k : k + 4]
        layout.groups.append(Group(role="concealed_kong", tiles=kong, claimed=0))
        if all(top[i] == BACK_INDEX for i in kong):
            layout.warnings.append(
                "A concealed kong lies all face down: turn its middle two tiles up "
                "or name the tile."
            )


def _add_melds(layout: Layout, cluster: list[_Slot], reads: list[TileRead]) -> None:
    parts = _split_melds(cluster, reads)
    if parts is None:
        tiles = [i for s in cluster for i in s.tiles]
        layout.groups.append(Group(role="unknown", tiles=tiles))
        layout.warnings.append(
            f"Could not read {len(tiles)} tiles with a sideways one as melds; "
            "leave a gap between melds and the hand."
        )
        return
    for segment, giver, promoted in parts:
        tiles = [i for s in segment for i in s.tiles]
        layout.groups.append(Group(role="meld", tiles=tiles, claimed=giver, promoted=promoted))


def _add_hand(layout: Layout, clusters: list[tuple[int, list[int]]]) -> None:
    """The upright tiles: the concealed row, with the tile set apart at its end as winning.

    Upright tiles in other rows are counted in the hand only when exactly
    they complete its count; otherwise they are set aside (discards, the
    wall or another player's tiles caught in the photo).
    """
    if not clusters:
        return
    per_row: dict[int, int] = {}
    for row_no, tiles in clusters:
        per_row[row_no] = per_row.get(row_no, 0) + len(tiles)
    main = _main_row(per_row)
    hand_clusters = [tiles for row_no, tiles in clusters if row_no == main]
    apart = [tiles for row_no, tiles in clusters if row_no != main]
    need = 14 - 3 * sum(g.role in ("meld", "concealed_kong") for g in layout.groups)
    concealed = [i for tiles in hand_clusters for i in tiles]
    winning: list[int] = []
    if len(hand_clusters) >= 2 and len(hand_clusters[-1]) == 1:
        winning, concealed = hand_clusters[-1], concealed[:-1]
    singles = [tiles for tiles in apart if len(tiles) == 1]
    if not winning and len(concealed) + 1 == need and len(singles) == 1:
        winning = singles[0]
        apart.remove(winning)
        layout.warnings.append("Took the lone tile beside the hand row as the winning tile.")
    if not winning and concealed:
        winning, concealed = concealed[-1:], concealed[:-1]
        layout.warnings.append(
            "No tile is set apart at the end of the hand; took its last tile as the winning tile."
        )
    extra = [i for tiles in apart for i in tiles]
    if extra and len(concealed) + len(winning) + len(extra) == need:
        concealed.extend(extra)
        layout.warnings.append(
            f"Counted {len(extra)} upright tile(s) lying away from the hand row as concealed."
        )
    elif extra:
        layout.groups.append(Group(role="extra", tiles=extra))
        layout.warnings.append(
            f"Left out {len(extra)} upright tile(s) lying away from the hand row."
        )
    layout.groups.append(Group(role="concealed", tiles=concealed))
    if winning:
        layout.groups.append(Group(role="winning", tiles=winning))
