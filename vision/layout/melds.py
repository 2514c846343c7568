"""Exposed melds: cutting touching tiles with sideways ones into pungs, kongs and chows.

Table practice (rules seed 003, 实战细节 五 鸣牌的摆放): in an exposed meld
the claimed tile lies sideways; for a pung or kong its place tells the
giver (left tile → 上家 seat 1, middle → 对家 seat 2, right → 下家 seat 3);
a promoted kong (加杠) has its fourth tile laid sideways on or next to the
claimed one. Where several cuts fit, the one whose tiles' first readings
already look like melds wins. Lying across the row, the claimed tile is
its meld's widest along it, which settles a mark that fell on a neighbour.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from typing import TypeVar

import numpy as np

from vision.config import DEFAULT
from vision.layout.kinds import top_class
from vision.layout.slots import Slot, upright
from vision.notes import Note, note
from vision.types import Group, TileRead, marked

T = TypeVar("T")

#: one meld of a cut: its slots, its giver's position (1-3) and whether promoted
Part = tuple[list[Slot], int, bool]
#: a run cut into melds
Cut = list[Part]
#: melds peeled off a run's end: the slots before them, theirs, those after, and their cut
Peel = tuple[list[Slot], list[Slot], list[Slot], Cut]

#: the doubt left when a sideways-looking tile is counted upright (alone, or the only one
#: in a long row): a gap misjudged beside a sideways tile can hide its meld, so
#: `vision.readhand.read_hand` tries the layout's other readings too
TAKEN_UPRIGHT = "A tile that looked sideways was counted upright: no meld around it fits."


def _meld_segment(slots: list[Slot]) -> tuple[int, bool] | None:
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


def plausible(segment: list[Slot], reads: list[TileRead]) -> bool:
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


def _meld_score(parts: Cut, reads: list[TileRead]) -> tuple[int, int]:
    """How many of a cut's melds already look like melds, then the fewer kongs that do not:
    the measure every cut is chosen by (kongs are the rarer melds, and a tile misread in a
    pung should not make it a kong with a tile beside it)."""
    looks = [plausible(segment, reads) for segment, _, _ in parts]
    odd_kongs = sum(len(seg) == 4 and not ok for (seg, _, _), ok in zip(parts, looks, strict=True))
    return sum(looks), -odd_kongs


def _best_cut(cuts: Iterable[tuple[Cut | None, T]], reads: list[TileRead]) -> tuple[Cut, T] | None:
    """Of (cut, what it was found for) pairs, the first cut whose melds already look most
    like melds (`_meld_score`); cuts that are None (none found) are passed over."""
    found = [(parts, key) for parts, key in cuts if parts is not None]
    return max(found, key=lambda c: _meld_score(c[0], reads), default=None)


def split_melds(slots: list[Slot], reads: list[TileRead]) -> Cut | None:
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


def _split_forgiving(slots: list[Slot], reads: list[TileRead]) -> tuple[Cut | None, list[TileRead]]:
    """`split_melds`, or failing that, the best split after taking back one sideways mark;
    with the reads as that leaves them.

    A tile seen at an angle can look sideways; when touching melds cannot
    be cut with every mark, each single mark is tried as a misjudgement,
    and the cut whose melds look most like melds wins (the mark taken back
    for good).
    """
    parts = split_melds(slots, reads)
    if parts is not None:
        return parts, reads

    def without_mark(k: int) -> Cut | None:
        return split_melds(slots[:k] + [upright(slots[k])] + slots[k + 1 :], reads)

    marks = (k for k, slot in enumerate(slots) if slot.sideways and len(slot.tiles) == 1)
    best = _best_cut(((without_mark(k), k) for k in marks), reads)
    if best is None:
        return None, reads
    return best[0], _upright([slots[best[1]]], reads)[1]


def _peel(slots: list[Slot], reads: list[TileRead]) -> Peel | None:
    """Melds pushed against the end of a row of upright tiles: (before, melds, after, the
    melds' cut), or None.

    Tries every run around the sideways tiles that reaches an end of the row
    and splits into melds; keeps the one whose melds already look most like
    melds. Sideways boxes in the middle of a row are rather misdetections.
    """
    side = [k for k, slot in enumerate(slots) if slot.sideways]
    spans = (
        (start, end)
        for start in range(max(0, side[0] - 3), side[0] + 1)
        for end in range(side[-1] + 1, min(len(slots), side[-1] + 4) + 1)
        if start == 0 or end == len(slots)  # melds lie at an end of the hand, not inside it
    )
    best = _best_cut(((split_melds(slots[a:b], reads), (a, b)) for a, b in spans), reads)
    if best is None:
        return None
    start, end = best[1]
    return slots[:start], slots[start:end], slots[end:], best[0]


#: what `melds_apart` finds in touching face-up tiles: ('meld' | 'plain', slots) pieces, the
#: reads with the sideways marks it took back, and its warnings and doubts
Apart = tuple[list[tuple[str, list[Slot]]], list[TileRead], list[Note], list[str]]

MELD_TOUCHES = note("meld_touches")


def melds_apart(slots: list[Slot], reads: list[TileRead]) -> Apart:
    """Classify touching face-up tiles: ('meld' | 'plain', slots) pieces.

    A lone tile is no meld, nor is a single sideways-looking tile in a long
    row that no meld around it explains (no cut gives a meld that its
    tiles' first readings support): such a box was misjudged (a tile seen
    at an angle) and the tile counts as upright, with the doubt
    `TAKEN_UPRIGHT`. A run that cuts wholly into melds is still peeled when
    more of the peeled melds look like melds (`_peel_looks_better`).
    """
    doubts: list[str] = []
    if len(slots) == 1 and len(slots[0].tiles) == 1 and slots[0].sideways:
        slots, reads = _upright(slots, reads)
        doubts.append(TAKEN_UPRIGHT)
    if not any(s.sideways for s in slots):
        return [("plain", slots)], reads, [], doubts
    whole = split_melds(slots, reads)
    peeled = _peel(slots, reads)
    if whole is not None and not _peel_looks_better(whole, peeled, reads):
        return [("meld", slots)], reads, [], doubts
    side = sum(s.sideways for s in slots)
    parts = peeled[3] if peeled is not None else None
    if side == 1 and len(slots) > 4 and not any(plausible(p[0], reads) for p in parts or []):
        slots, reads = _upright(slots, reads)
        return [("plain", slots)], reads, [], [*doubts, TAKEN_UPRIGHT]
    if peeled is None:
        return [("meld", slots)], reads, [], doubts
    before, melds, after, _ = peeled
    pieces = [(k, p) for k, p in (("plain", before), ("meld", melds), ("plain", after)) if p]
    return pieces, reads, [MELD_TOUCHES], doubts


def _peel_looks_better(
    whole: Cut,
    peeled: Peel | None,
    reads: list[TileRead],
) -> bool:
    """Whether more melds peeled off the run's end look like melds than of the whole run cut
    into melds: concealed tiles pushed against the melds (a pair beside four melds) can
    be cut into kongs with them, which their readings do not support."""
    if peeled is None or not (peeled[0] or peeled[2]):
        return False
    return _meld_score(peeled[3], reads)[0] > _meld_score(whole, reads)[0]


def _upright(slots: list[Slot], reads: list[TileRead]) -> tuple[list[Slot], list[TileRead]]:
    """The slots and reads with misjudged sideways marks taken back."""
    lone = [s for s in slots if s.sideways and len(s.tiles) == 1]
    slots = [upright(s) if s.sideways and len(s.tiles) == 1 else s for s in slots]
    return slots, marked(reads, [s.tiles[0] for s in lone], False)


def exposed_melds(
    cluster: list[Slot],
    reads: list[TileRead],
    shapes: np.ndarray | None = None,
    widest: float = DEFAULT.layout.claimed_widest,
) -> tuple[list[Group], list[Note], list[TileRead]]:
    """Touching tiles with sideways ones as melds, or as 'unknown' when no cut fits; with
    the warnings that gives and the reads with any sideways mark taken back or moved to
    the meld's widest tile (`claimed_widest`; `shapes`: each tile's length along the row
    for its length across it, None: no mark is moved)."""
    parts, reads = _split_forgiving(cluster, reads)
    if parts is None:
        tiles = [i for s in cluster for i in s.tiles]
        warning = note("melds_unread", n=len(tiles))
        return [Group(role="unknown", tiles=tiles)], [warning], reads
    groups = []
    for part in parts:
        if shapes is not None:
            part, reads = claimed_widest(part, reads, shapes, widest)
        segment, giver, promoted = part
        if promoted and _doubtful_pair(segment, reads):
            segment, promoted = _once(segment), False
        tiles = [i for s in segment for i in s.tiles]
        groups.append(Group(role="meld", tiles=tiles, claimed=giver, promoted=promoted))
    return groups, [], reads


def claimed_widest(
    part: Part, reads: list[TileRead], shapes: np.ndarray, widest: float
) -> tuple[Part, list[TileRead]]:
    """The meld with its sideways mark on its widest tile for its length (`shapes`: each
    tile's extent along the row over its extent across it), when that tile's shape is
    `widest` times the marked one's; with the reads so marked.

    A claimed tile lies across the row, a tile length along it against an
    upright tile's width; a box at an overhead view, cut short or grown by
    the tile's body, can make a neighbour look as wide, but seldom wider.
    Its place tells the giver, so the meld is cut again with the mark moved.
    """
    segment, _, promoted = part
    flags = [s.sideways for s in segment]
    if promoted or sum(flags) != 1 or any(len(s.tiles) != 1 for s in segment):
        return part, reads
    marked_at = flags.index(True)
    wide = [float(shapes[s.tiles[0]]) for s in segment]
    k = max(range(len(segment)), key=lambda j: wide[j])
    if k == marked_at or wide[k] < widest * wide[marked_at]:
        return part, reads
    moved = [replace(s, sideways=j == k) for j, s in enumerate(segment)]
    found = _meld_segment(moved)
    if found is None:
        return part, reads
    reads = marked(marked(reads, segment[marked_at].tiles, False), moved[k].tiles, True)
    return (moved, found[0], found[1]), reads


def _once(segment: list[Slot]) -> list[Slot]:
    """The segment with a tile found as one box with a tile on it counted once."""
    return [
        Slot(list(dict.fromkeys(s.tiles)), s.start, s.end, s.sideways, s.short) for s in segment
    ]


def _doubtful_pair(segment: list[Slot], reads: list[TileRead]) -> bool:
    """Whether a tile was taken for two stacked ones (`stacks.carries_a_tile`) among tiles
    whose first readings make no kong with it counted twice. Only a pung is promoted, so
    the pair is believed only where the tiles already read as one kind: a chow's claimed
    tile, or a heap's tile lying on others, stays one tile."""
    if all(len(set(s.tiles)) == len(s.tiles) for s in segment):
        return False  # both tiles of the pair were found: no judgement to doubt
    return not plausible(segment, reads)
