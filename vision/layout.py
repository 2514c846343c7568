"""Read how the tiles lie: rows, melds, the concealed hand, the winning tile, flowers.

Only positions, box shapes and each tile's kind (flower, face-down back
or a playing tile, by summed probability) are used here; which playing
tile each one is gets decided later by `vision.decode`, under the rules.
A kind read against where the tile lies gives way when the other kind
was fairly likely: a "flower" inside the hand row, or one the row is
short of, is a playing tile, and so is a "back" that makes no concealed
kong; what lies apart from a whole hand row is an exposed meld.

Table practice (rules seed 003, 实战细节 五 鸣牌的摆放): in an exposed meld
the claimed tile lies sideways; for a pung or kong its place tells the
giver (left tile → 上家 seat 1, middle → 对家 seat 2, right → 下家 seat 3);
a promoted kong (加杠) has its fourth tile laid sideways on or next to the
claimed one; a concealed kong shows backs. The winning tile is set apart
at the end of the concealed row; melds are shown "在立牌前", beyond it.

The photo may be turned by any angle and seen in perspective: `vision.rows`
finds the rows and the sideways tiles; gaps and the tile set apart are
judged against each tile's neighbours (far tiles look smaller). The
reading direction comes from where the winning tile lies and from the
concealed row being nearest the player.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from scorer.tiles import BACK_INDEX, FLOWER_FIRST
from vision.rows import (
    SIDEWAYS_MIN_WIDE,
    SIDEWAYS_SCORE,
    Frame,
    face_along,
    find_rows,
    mark_sideways,
    tile_length,
)
from vision.types import Group, Layout, TileRead

#: gap between touching tiles that still counts as "together", in tile widths
GAP_SPLIT = 0.3
#: ... and by how much more than the row's usual spacing
GAP_OVER_USUAL = 0.3
#: how much longer than its neighbours the step to a tile set apart at the row's end is
SET_APART_STEP = 1.2
#: ... and by how much more than the step at the row's other end
SET_APART_MARGIN = 0.1
#: the least mean flower probability of surplus tiles beside the hand taken as flowers
FLOWER_SURPLUS = 0.1
#: the least playing-tile probability that makes a tile read as a back, but in no concealed
#: kong, a face-up tile: held-out art, 90 % of true backs fall below 0.15 and a white
#: dragon read as a back gives about 0.37
STRAY_BACK_FACE = 0.2
#: ... and the least that makes a tile read as a flower one the hand row may take back
#: when short of tiles (cmd-v4 valid, a set the classifier knows: its flowers give a
#: median 0.045, 4 of 173 above 0.3; held-out art's tiles read as flowers, about 0.4)
FLOWER_FACE = 0.3
#: how close in size and shape a tile stacked on a sideways one is to it
STACK_SIZE = 0.7
#: the most upright tiles a hand row can hold (14, and a stray one)
MAX_HAND_ROW = 15
#: how much of the smaller of two boxes their overlap must cover to count as one tile twice
DUPLICATE_COVER = 0.55
#: how much the tile faces must agree on where the player sits to decide it (see `facing`)
FACING = 0.2
#: the faces' say against the other cues (a winning tile set apart counts 2, the rows 1):
#: faces agreeing fully outweigh both, half-hearted ones only one
FACES_WEIGHT = 4.0


@dataclass(frozen=True)
class Tuning:
    """The thresholds one reading of a layout is made with.

    A photo now and then sits right at one of them: a winning tile set apart
    by a hair, melds pushed against the hand, a tilted tile whose box looks
    wide. `OTHER_TUNINGS` are the readings tried when the first one gives no
    clean hand (see `vision.pipeline.read_hand`).
    """

    gap_split: float = GAP_SPLIT
    gap_over_usual: float = GAP_OVER_USUAL
    set_apart_step: float = SET_APART_STEP
    set_apart_margin: float = SET_APART_MARGIN
    sideways_score: float = SIDEWAYS_SCORE
    sideways_min_wide: float = SIDEWAYS_MIN_WIDE


OTHER_TUNINGS: tuple[Tuning, ...] = (
    Tuning(gap_split=0.15, gap_over_usual=0.15),  # smaller gaps: tiles lying close apart
    Tuning(gap_split=0.5, gap_over_usual=0.5),  # larger gaps: tiles pushed loosely together
    Tuning(set_apart_step=1.1, set_apart_margin=0.05),  # a winning tile barely set apart
    Tuning(sideways_score=1.6, sideways_min_wide=0.8),  # only clearly sideways boxes
    Tuning(sideways_score=0.9, sideways_min_wide=0.3),  # sideways boxes seen foreshortened
    Tuning(sideways_score=math.inf, sideways_min_wide=math.inf),  # sideways by the faces only
)


@dataclass
class _Slot:
    """One place along a row: a tile, or two tiles stacked across the row."""

    tiles: list[int]
    start: float
    end: float
    sideways: bool
    short: float = 0.0  # the tile's short side: the local scale for gaps


def top_class(read: TileRead) -> int:
    """The tile's most probable class, chosen first between playing tile, flower and back.

    Each of the three kinds gets its summed probability: a model unsure
    *which* flower it sees (an unfamiliar art style) still knows it is a
    flower, and only the flowers' count matters for scoring. Within the
    winning kind the most probable class is returned.
    """
    p = np.asarray(read.probs, dtype=float)
    kinds = (
        (float(p[:FLOWER_FIRST].sum()), 0, FLOWER_FIRST),
        (float(p[FLOWER_FIRST:BACK_INDEX].sum()), FLOWER_FIRST, BACK_INDEX),
        (float(p[BACK_INDEX:].sum()), BACK_INDEX, len(p)),
    )
    _, lo, hi = max(kinds, key=lambda k: k[0])
    return lo + int(np.argmax(p[lo:hi]))


def _slots(reads: list[TileRead], frame: Frame, row: list[int]) -> list[_Slot]:
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


def _clusters(slots: list[_Slot], tuning: Tuning) -> list[list[_Slot]]:
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
        if gap > max(tuning.gap_split, usual + tuning.gap_over_usual):
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
    kinds = sorted(top_class(reads[i]) for s in segment for i in s.tiles)
    if len(set(kinds)) == 1:
        return True
    return (
        len(kinds) == 3
        and kinds[0] < 27
        and kinds[0] // 9 == kinds[2] // 9
        and kinds == [kinds[0], kinds[0] + 1, kinds[0] + 2]
    )


def _meld_score(parts: list[tuple[list[_Slot], int, bool]], reads: list[TileRead]) -> int:
    """How many of a cut's melds already look like melds: the measure every cut is chosen by."""
    return sum(_plausible(segment, reads) for segment, _, _ in parts)


def _split_melds(
    slots: list[_Slot], reads: list[TileRead]
) -> list[tuple[list[_Slot], int, bool]] | None:
    """Cut a run of touching meld tiles into melds; prefer cuts whose tiles look like melds."""
    best: tuple[int, list] | None = None

    def walk(start: int, parts: list) -> None:
        nonlocal best
        if start == len(slots):
            score = _meld_score(parts, reads)
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


def _split_forgiving(
    slots: list[_Slot], reads: list[TileRead]
) -> list[tuple[list[_Slot], int, bool]] | None:
    """`_split_melds`, or failing that, the best split after taking back one sideways mark.

    A tile seen at an angle can look sideways; when touching melds cannot
    be cut with every mark, each single mark is tried as a misjudgement,
    and the cut whose melds look most like melds wins (the mark taken back
    for good).
    """
    parts = _split_melds(slots, reads)
    if parts is not None:
        return parts
    best: tuple[int, int, list] | None = None
    for k, slot in enumerate(slots):
        if not slot.sideways or len(slot.tiles) != 1:
            continue
        slot.sideways = False
        found = _split_melds(slots, reads)
        slot.sideways = True
        if found is not None:
            score = _meld_score(found, reads)
            if best is None or score > best[0]:
                best = (score, k, found)
    if best is None:
        return None
    _upright([slots[best[1]]], reads)
    return best[2]


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
                score = _meld_score(parts, reads)
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


def facing(reads: list[TileRead], clusters: list[_Cluster], angle: float) -> float:
    """How much the tiles' faces agree that their tops point along the frame's v axis
    (-1..1; v runs towards the player of an unturned photo, so below 0 is as expected).

    Every tile of a laid-down hand faces its player: the top of each upright
    face points away from them. Flowers (often unfamiliar art, read
    backwards) and face-down tiles have no say; sideways tiles point along
    the row.
    """
    axis = np.array([-np.sin(angle), np.cos(angle)])
    ups = [
        reads[i].up
        for c in clusters
        for s in c.slots
        if not s.sideways
        for i in s.tiles
        if reads[i].up is not None and top_class(reads[i]) < FLOWER_FIRST
    ]
    if not ups:
        return 0.0
    vectors = np.array(ups, dtype=float)
    total = float(np.linalg.norm(vectors, axis=1).sum())
    return float((vectors @ axis).sum()) / max(total, 1e-9)


def _reversed(clusters: list[_Cluster], faces: float = 0.0) -> bool | None:
    """Whether the rows read against the frame's u axis (the photo is turned a further 180°).

    Cues: the tile faces (`facing`), weighed by how much they agree; the
    winning tile is set apart at the right end of the hand row; the hand row
    lies nearer the player than rows of melds (melds are shown "在立牌前",
    beyond the standing hand). None: no cue either way.
    """
    main = _hand_row(clusters)
    if main < 0:
        return None if abs(faces) < FACING else faces > 0
    plain = [c for c in clusters if c.kind == "plain" and c.row == main]
    score = FACES_WEIGHT * faces if abs(faces) >= FACING else 0.0
    if len(plain) >= 2:
        first, last = len(plain[0].tiles) == 1, len(plain[-1].tiles) == 1
        score += 2 if first and not last else -2 if last and not first else 0
    meld_rows = {c.row for c in clusters if c.kind != "plain" and c.row != main}
    if meld_rows:
        score += 1 if main < min(meld_rows) else -1 if main > max(meld_rows) else 0
    return None if score == 0 else score > 0


def _duplicates(reads: list[TileRead], boxes: np.ndarray) -> dict[int, int]:
    """Detections that mostly cover a better-scored one (the same tile found twice, or a
    tile stacked on another): each mapped to the one it covers."""
    order = sorted(range(len(reads)), key=lambda i: -reads[i].detection.score)
    area = (boxes[:, 2] - boxes[:, 0]) * (boxes[:, 3] - boxes[:, 1])
    kept: list[int] = []
    dups: dict[int, int] = {}
    for i in order:
        for k in kept:
            iw = min(boxes[i, 2], boxes[k, 2]) - max(boxes[i, 0], boxes[k, 0])
            ih = min(boxes[i, 3], boxes[k, 3]) - max(boxes[i, 1], boxes[k, 1])
            if iw > 0 and ih > 0 and iw * ih > DUPLICATE_COVER * max(min(area[i], area[k]), 1e-6):
                dups[i] = k
                break
        else:
            kept.append(i)
    return dups


def _stacked(
    reads: list[TileRead], frame: Frame, rows: list[list[int]], dups: dict[int, int]
) -> None:
    """Put back into its row a tile stacked on a sideways tile: a promoted kong's fourth.

    Seen from above, a tile laid on the claimed tile of a pung covers it
    almost exactly, like one tile found twice; it differs in lying across
    the row too, and in being as large as the tile beneath (a second box on
    one tile is mostly a part of it).
    """
    ratio = frame.eu / np.maximum(frame.ev, 1e-6)
    size = frame.eu * frame.ev
    for d, k in list(dups.items()):
        if not reads[k].detection.sideways:
            continue
        similar = min(size[d], size[k]) > STACK_SIZE * max(size[d], size[k])
        if similar and ratio[d] > STACK_SIZE * ratio[k]:
            row = next((r for r in rows if k in r), None)
            if row is not None:
                row.append(d)
                reads[d].detection.sideways = True
                del dups[d]


def _set_apart_by_spacing(
    clusters: list[_Cluster], frame: Frame, tuning: Tuning
) -> list[_Cluster]:
    """Split off the winning tile when it lies only slightly apart from the hand row.

    A small gap at an end of the row shows best in the spacing of the tile
    centres: touching upright tiles follow each other at a steady step
    (shrinking smoothly with distance from the camera), and the step to a
    tile set apart stands out against the neighbouring steps even where the
    boxes, blurred by perspective, hide the gap itself.
    """
    main = _hand_row(clusters)
    plain = [c for c in clusters if c.kind == "plain" and c.row == main]
    if not plain or any(len(c.tiles) == 1 for c in plain):
        return clusters
    hand = max(plain, key=lambda c: len(c.tiles))
    if len(hand.slots) < 6 or any(len(s.tiles) > 1 for s in hand.slots):
        return clusters
    u = np.array([frame.u[s.tiles[0]] for s in hand.slots])
    steps = np.abs(np.diff(u))
    first = steps[0] / max(float(np.median(steps[1:5])), 1e-6)
    last = steps[-1] / max(float(np.median(steps[-5:-1])), 1e-6)
    if max(first, last) < tuning.set_apart_step or abs(first - last) < tuning.set_apart_margin:
        return clusters
    k = clusters.index(hand)
    parts = [hand.slots[:1], hand.slots[1:]] if first > last else [hand.slots[:-1], hand.slots[-1:]]
    return clusters[:k] + [_Cluster(hand.row, "plain", p) for p in parts] + clusters[k + 1 :]


def _flower_sum(read: TileRead) -> float:
    return float(np.asarray(read.probs)[FLOWER_FIRST:BACK_INDEX].sum())


def _flowers_by_count(
    clusters: list[_Cluster], reads: list[TileRead], flowers: list[int]
) -> list[_Cluster]:
    """Flowers the classifier could not name: tiles beyond a hand's count, most flower-like.

    A hand holds 14 tiles besides its melds' fourth tiles, so upright tiles
    in the hand row beyond that are flowers (or strays). A classifier meeting
    an unfamiliar art style often spreads a flower's probability over the
    playing tiles; the flowers lie together, apart from the hand, so whole
    touching groups at the row's ends are taken, the most flower-like
    first, while the count stays over. Moved tiles are added to `flowers`.
    """
    main = _hand_row(clusters)
    need = _hand_need(clusters, reads)
    plain = [c for c in clusters if c.row == main and c.kind == "plain"]
    total = sum(len(c.tiles) for c in plain)
    while total > need and len(plain) >= 2:
        best = max((plain[0], plain[-1]), key=lambda c: _mean_flower(c, reads))
        if _mean_flower(best, reads) < FLOWER_SURPLUS or total - len(best.tiles) < need - 1:
            break
        plain.remove(best)
        clusters = [c for c in clusters if c is not best]
        flowers.extend(best.tiles)
        total -= len(best.tiles)
    return clusters


def _is_flower(k: int) -> bool:
    return FLOWER_FIRST <= k < BACK_INDEX


def _flowers_aside(
    reads: list[TileRead], frame: Frame, rows: list[list[int]], top: list[int], tuning: Tuning
) -> list[int]:
    """The tiles read as flowers, but for those lying inside a run of playing tiles.

    Flowers are laid to one side of the hand (rules seed 003, 实战细节 五),
    never in the middle of the concealed row or of a meld. A tile read as a
    flower with touching playing tiles on both sides is a playing tile whose
    art the classifier mistook (one tile set's bamboo 1, a bird, read as a
    flower): its kind in `top` becomes its most probable playing tile.
    """
    flowers = []
    for row in rows:
        for run in _clusters(_slots(reads, frame, row), tuning):
            tiles = [i for slot in run for i in slot.tiles]
            for k, i in enumerate(tiles):
                if not _is_flower(top[i]):
                    continue
                inside = 0 < k < len(tiles) - 1 and all(
                    top[j] < FLOWER_FIRST for j in (tiles[k - 1], tiles[k + 1])
                )
                if inside:
                    top[i] = _face_up(reads[i])
                else:
                    flowers.append(i)
    return sorted(flowers)


def _held(clusters: list[_Cluster], row: int) -> int:
    """How many upright tiles outside melds and kongs lie in the row."""
    return sum(len(c.tiles) for c in clusters if c.row == row and c.kind == "plain")


def _hand_need(clusters: list[_Cluster], reads: list[TileRead]) -> int:
    """How many tiles the hand row holds (winning tile included) beside these melds."""
    n_melds = 0
    for c in clusters:
        if c.kind == "kong":
            n_melds += len(c.tiles) // 4
        elif c.kind == "meld":
            n_melds += len(_split_melds(c.slots, reads) or [])
    return 14 - 3 * n_melds


def _mean_flower(cluster: _Cluster, reads: list[TileRead]) -> float:
    return float(np.mean([_flower_sum(reads[i]) for i in cluster.tiles]))


def _play_sum(read: TileRead) -> float:
    return float(np.asarray(read.probs)[:FLOWER_FIRST].sum())


def _face_up(read: TileRead) -> int:
    """The tile's most probable playing tile: its kind when its place overrules its reading."""
    return int(np.argmax(np.asarray(read.probs)[:FLOWER_FIRST]))


def _kongs_apart(
    run: list[_Slot], top: list[int], reads: list[TileRead]
) -> list[tuple[str, list[_Slot]]]:
    """Cut concealed kongs out of a run of touching tiles: ('kong' | 'rest', slots) pieces.

    A concealed kong shows backs at both ends (or all four); it may be laid
    against a meld or the hand. A tile read as a back that makes no such
    four, yet could well be face up (`STRAY_BACK_FACE`), is taken for its
    most probable playing tile (its kind in `top` changes). Other backs
    that make no kong stay together with their run as one 'kong' piece,
    which is then reported as unreadable.
    """
    back = [any(top[i] == BACK_INDEX for i in s.tiles) for s in run]
    if not any(back):
        return [("rest", run)]
    pieces: list[tuple[str, list[_Slot]]] = []
    rest: list[_Slot] = []
    k = 0
    while k < len(run):
        window = run[k : k + 4]
        if (
            back[k]
            and len(window) == 4
            and back[k + 3]
            and not any(s.sideways or len(s.tiles) > 1 for s in window)
        ):
            if rest:
                pieces.append(("rest", rest))
                rest = []
            pieces.append(("kong", window))
            k += 4
            continue
        rest.append(run[k])
        k += 1
    if rest:
        pieces.append(("rest", rest))
    strays = [i for kind, p in pieces if kind == "rest" for s in p for i in s.tiles]
    strays = [i for i in strays if top[i] == BACK_INDEX]
    if any(_play_sum(reads[i]) < STRAY_BACK_FACE for i in strays):
        return [("kong", run)]  # backs that make no concealed kong: leave the run whole
    for i in strays:  # a face-up tile mistaken for a back (a blank white dragon)
        top[i] = _face_up(reads[i])
    return pieces


def _melds_apart(
    slots: list[_Slot], reads: list[TileRead], layout: Layout
) -> list[tuple[str, list[_Slot]]]:
    """Classify touching face-up tiles: ('meld' | 'plain', slots) pieces.

    A lone tile is no meld, nor is a single sideways-looking tile in a long
    row that no meld around it explains (no cut gives a meld that its
    tiles' first readings support): such a box was misjudged (a tile seen
    at an angle) and the tile counts as upright.
    """
    if len(slots) == 1 and len(slots[0].tiles) == 1:
        _upright(slots, reads)
    if not any(s.sideways for s in slots):
        return [("plain", slots)]
    if _split_melds(slots, reads) is None:
        peeled = _peel(slots, reads)
        side = sum(s.sideways for s in slots)
        parts = _split_melds(peeled[1], reads) if peeled is not None else None
        if side == 1 and len(slots) > 4 and not any(_plausible(p[0], reads) for p in parts or []):
            _upright(slots, reads)
            return [("plain", slots)]
        if peeled is not None:
            layout.warnings.append(
                "A meld touches other tiles; check how it was read "
                "(leave a gap between melds and the hand)."
            )
            before, melds, after = peeled
            return [(k, p) for k, p in (("plain", before), ("meld", melds), ("plain", after)) if p]
    return [("meld", slots)]


def _upright(slots: list[_Slot], reads: list[TileRead]) -> None:
    """Take back a misjudged sideways mark."""
    for s in slots:
        if s.sideways and len(s.tiles) == 1:
            s.sideways = False
            reads[s.tiles[0]].detection.sideways = False


def read_layout(reads: list[TileRead], tuning: Tuning = Tuning()) -> Layout:
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
    length = tile_length(boxes[live])
    top = [top_class(r) for r in reads]

    angle, frame, rows = find_rows(boxes, live, length)
    vertical = angle >= np.pi / 4
    rotation = 90 if vertical else 0
    mark_sideways(reads, frame, rows, tuning.sideways_score, tuning.sideways_min_wide)
    _stacked(reads, frame, rows, dups)
    flowers = _flowers_aside(reads, frame, rows, top, tuning)
    clusters, warnings = _group(reads, frame, rows, flowers, top, tuning)
    if _flowers_the_hand_needs(clusters, reads, rows, flowers, top):
        clusters, warnings = _group(reads, frame, rows, flowers, top, tuning)
    layout.warnings.extend(warnings)
    clusters = _flowers_by_count(clusters, reads, flowers)
    clusters = _set_apart_by_spacing(clusters, frame, tuning)
    clusters, off_hand = _melds_off_the_hand(clusters, frame, length)
    clusters = _melds_unmarked(clusters, frame, reads, layout)
    turned = _reversed(clusters, facing(reads, clusters, angle))
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
    if off_hand:
        layout.groups.append(Group(role="extra", tiles=off_hand))
        layout.warnings.append(
            f"Left out {len(off_hand)} tile(s) lying together away from the complete hand row."
        )
    if dups:
        layout.groups.append(Group(role="extra", tiles=sorted(dups)))
        layout.warnings.append(f"Ignored {len(dups)} box(es) found twice on the same tile.")
    return layout


def _group(
    reads: list[TileRead],
    frame: Frame,
    rows: list[list[int]],
    flowers: list[int],
    top: list[int],
    tuning: Tuning,
) -> tuple[list[_Cluster], list[str]]:
    """Each row's touching tiles (flowers aside) as concealed kongs, melds and plain runs,
    with the warnings that cutting them gave."""
    scratch = Layout()
    clusters: list[_Cluster] = []
    flower_set = set(flowers)
    for row_no, row in enumerate(rows):
        slots = _slots(reads, frame, [i for i in row if i not in flower_set])
        for run in _clusters(slots, tuning):
            for kind, part in _kongs_apart(run, top, reads):
                if kind == "kong":
                    clusters.append(_Cluster(row_no, kind, part))
                else:
                    clusters.extend(
                        _Cluster(row_no, k, p) for k, p in _melds_apart(part, reads, scratch)
                    )
    return clusters, scratch.warnings


def _flowers_the_hand_needs(
    clusters: list[_Cluster],
    reads: list[TileRead],
    rows: list[list[int]],
    flowers: list[int],
    top: list[int],
) -> bool:
    """Tiles read as flowers that the hand row is short of: the least flower-like first.

    The counterpart of `_flowers_by_count`. A hand holds 14 tiles besides
    its melds' fourth tiles; when its row holds fewer, tiles of that row
    read as flowers but fairly likely face-up playing tiles
    (`FLOWER_FACE`), or read as a flower another tile is read as too (each
    flower exists once), are taken back into it (their kind in `top`
    becomes their most probable playing tile) while the count stays short.
    Returns whether any was, so the rows are grouped again.
    """
    main = _hand_row(clusters)
    if main < 0:
        return False
    held = _held(clusters, main)
    short = _hand_need(clusters, reads) - held
    named = [top[i] for i in flowers]
    taken = sorted(
        (
            i
            for i in rows[main]
            if i in flowers and (_play_sum(reads[i]) >= FLOWER_FACE or named.count(top[i]) > 1)
        ),
        key=lambda i: _play_sum(reads[i]),
        reverse=True,
    )[: max(short, 0)]
    for i in taken:
        flowers.remove(i)
        top[i] = _face_up(reads[i])
    return bool(taken)


def _melds_unmarked(
    clusters: list[_Cluster], frame: Frame, reads: list[TileRead], layout: Layout
) -> list[_Cluster]:
    """Upright tiles lying apart from the hand row taken for exposed melds, when the hand
    row is a whole hand without them.

    Concealed tiles stand in the hand row; what lies before it is exposed
    (rules seed 003, 实战细节 五). Another row's upright tiles, in runs of
    three (or four, or two runs of three) whose first readings make
    chows, pungs or kongs, are melds whose claimed tile did not look
    sideways (a tile seen from low down or along the diagonal; gaps may
    then split the run too). In each, the tile that looks most sideways
    (widest for its length, its face most along the row) is taken for the
    claimed one, with a warning to check the giver.
    """
    main = _hand_row(clusters)
    apart: dict[int, list[_Slot]] = {}
    for c in clusters:
        if c.kind == "plain" and c.row != main:
            apart.setdefault(c.row, []).extend(c.slots)
    if main < 0 or not apart:
        return clusters
    runs: list[_Cluster] = []
    for row, slots in apart.items():
        slots = sorted(slots, key=lambda s: s.start)
        if len(slots) not in (3, 4, 6):
            return clusters
        cuts = [slots[:3], slots[3:]] if len(slots) == 6 else [slots]
        runs += [_Cluster(row, "meld", cut) for cut in cuts]
    if not all(_plausible(run.slots, reads) for run in runs):
        return clusters
    held = _held(clusters, main)
    if held != _hand_need(clusters, reads) - 3 * len(runs):
        return clusters
    for run in runs:
        tiles = [s.tiles[0] for s in run.slots]
        ratio = np.log(frame.eu[tiles] / np.maximum(frame.ev[tiles], 1e-6))
        faces = np.array([face_along(reads[i], frame) for i in tiles])
        k = int(np.argmax(ratio - np.median(ratio) + faces))
        run.slots[k].sideways = True
        reads[tiles[k]].detection.sideways = True
    layout.warnings.append(
        f"Took {sum(len(r.tiles) for r in runs)} tiles lying apart from the hand row for "
        "exposed melds, though none of them lies clearly sideways; check who gave them."
    )
    return [c for c in clusters if c.kind != "plain" or c.row == main] + runs


MELD_REACH = 3.0  # tile lengths: a player's melds lie right beside the hand row


def _melds_off_the_hand(
    clusters: list[_Cluster], frame: Frame, length: float
) -> tuple[list[_Cluster], list[int]]:
    """Meld and kong groups that cannot be the player's: far from the hand row, and
    the hand row complete without them (the wall or other players' tiles in the photo).

    Returns the clusters kept and the tiles left out.
    """
    hand = _hand_row(clusters)
    if hand < 0:
        return clusters, []
    hand_tiles = [i for c in clusters if c.kind == "plain" and c.row == hand for i in c.tiles]
    grouped = [c for c in clusters if c.kind != "plain"]
    v_hand = float(np.median(frame.v[hand_tiles]))
    far = [
        c for c in grouped if abs(float(np.median(frame.v[c.tiles])) - v_hand) > MELD_REACH * length
    ]
    if not far:
        return clusters, []

    def sets(cs: list[_Cluster]) -> int:
        return sum(
            len(c.tiles) // 4 if c.kind == "kong" else max(1, round(len(c.tiles) / 3)) for c in cs
        )

    def fits(n_sets: int) -> bool:  # the winning tile may lie in the row or beside it
        return len(hand_tiles) + 3 * n_sets in (13, 14)

    if fits(sets(grouped)) or not fits(sets(grouped) - sets(far)):
        return clusters, []
    kept = [c for c in clusters if all(c is not f for f in far)]
    return kept, [i for c in far for i in c.tiles]


#: a hand laid out in one row: read as it lies, not by thresholds loosened until some
#: tile looks set apart (see `vision.pipeline.read_hand`)
NOTHING_SET_APART = (
    "No tile is set apart at the end of the hand; took its last tile as the winning tile."
)
KONG_UNNAMED = (
    "A concealed kong lies all face down: turn its middle two tiles up or name the tile."
)


def _kong_short_one(tiles: list[int], top: list[int]) -> bool:
    """Three tiles that can only be a concealed kong with one tile unseen.

    A kong lies with its end tiles face down; a camera at a low angle, or a
    detector that has not met this tile set's backs, may miss one of them, or
    one face-up tile hidden behind its neighbour. What remains is three
    tiles with a face-down one at an end and the face-up ones all alike.
    """
    if len(tiles) != 3 or BACK_INDEX not in (top[tiles[0]], top[tiles[-1]]):
        return False
    return len({top[i] for i in tiles if top[i] != BACK_INDEX}) <= 1


def _add_concealed_kongs(layout: Layout, tiles: list[int], top: list[int]) -> None:
    if _kong_short_one(tiles, top):
        layout.groups.append(Group(role="concealed_kong", tiles=tiles, claimed=0))
        layout.warnings.append(
            "Took 3 tiles with face-down ones for a concealed kong whose fourth tile "
            "the photo does not show; check it."
        )
        if all(top[i] == BACK_INDEX for i in tiles):
            layout.warnings.append(KONG_UNNAMED)
        return
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
            layout.warnings.append(KONG_UNNAMED)


def _add_melds(layout: Layout, cluster: list[_Slot], reads: list[TileRead]) -> None:
    parts = _split_forgiving(cluster, reads)
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
        layout.warnings.append(NOTHING_SET_APART)
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
