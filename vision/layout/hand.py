"""The hand row: which row it is, how many tiles it should hold, the tile set apart.

Also what lies apart from it: upright runs there may be melds whose
claimed tile did not look sideways, and groups far away may be the wall or
another player's tiles.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from vision.config import DEFAULT, LayoutConfig, Reading
from vision.layout.melds import plausible, split_melds
from vision.layout.slots import Cluster, Slot
from vision.notes import Note, note
from vision.rows import Frame, face_along
from vision.types import Group, TileRead, marked

#: a hand laid out in one row: read as it lies, not by thresholds loosened until some
#: tile looks set apart (see `vision.readhand.read_hand`)
NOTHING_SET_APART = note("nothing_set_apart")


def hand_row(clusters: list[Cluster], config: LayoutConfig = DEFAULT.layout) -> int:
    """The row holding most upright tiles, up to a hand's worth (a heap or the wall holds
    more), nearest the player on a tie: the concealed hand."""
    per_row: dict[int, int] = {}
    for c in clusters:
        if c.kind == "plain":
            per_row[c.row] = per_row.get(c.row, 0) + len(c.tiles)
    return _main_row(per_row, config) if per_row else -1


def _main_row(per_row: dict[int, int], config: LayoutConfig) -> int:
    fitting = [r for r in per_row if per_row[r] <= config.max_hand_row] or list(per_row)
    return max(fitting, key=lambda r: (per_row[r], r))


def held_tiles(clusters: list[Cluster], row: int) -> list[int]:
    """The upright tiles outside melds and kongs that lie in the row."""
    return [i for c in clusters if c.row == row and c.kind == "plain" for i in c.tiles]


def held_in(clusters: list[Cluster], row: int) -> int:
    """How many upright tiles outside melds and kongs lie in the row."""
    return len(held_tiles(clusters, row))


def hand_need(clusters: list[Cluster], reads: list[TileRead]) -> int:
    """How many tiles the hand row holds (winning tile included) beside these melds."""
    n_melds = 0
    for c in clusters:
        if c.kind == "kong":
            n_melds += len(c.tiles) // 4
        elif c.kind == "meld":
            n_melds += len(split_melds(c.slots, reads) or [])
    return 14 - 3 * n_melds


def sets_apart(clusters: list[Cluster], config: LayoutConfig = DEFAULT.layout) -> bool:
    """Whether the hand row ends in a tile lying apart from the rest (at either end: which
    way the row reads is not known yet)."""
    main = hand_row(clusters, config)
    runs = sorted(
        (c for c in clusters if c.row == main and c.kind == "plain"), key=lambda c: c.slots[0].start
    )
    return len(runs) >= 2 and 1 in (len(runs[0].tiles), len(runs[-1].tiles))


def set_apart_by_spacing(
    clusters: list[Cluster], frame: Frame, config: LayoutConfig = DEFAULT.layout
) -> list[Cluster]:
    """Split off the winning tile when it lies only slightly apart from the hand row.

    A small gap at an end of the row shows best in the spacing of the tile
    centres: touching upright tiles follow each other at a steady step
    (shrinking smoothly with distance from the camera), and the step to a
    tile set apart stands out against the neighbouring steps even where the
    boxes, blurred by perspective, hide the gap itself.
    """
    reading: Reading = config.reading
    main = hand_row(clusters, config)
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
    if max(first, last) < reading.set_apart_step or abs(first - last) < reading.set_apart_margin:
        return clusters
    k = clusters.index(hand)
    parts = [hand.slots[:1], hand.slots[1:]] if first > last else [hand.slots[:-1], hand.slots[-1:]]
    return clusters[:k] + [Cluster(hand.row, "plain", p) for p in parts] + clusters[k + 1 :]


def melds_unmarked(
    clusters: list[Cluster],
    frame: Frame,
    reads: list[TileRead],
    config: LayoutConfig = DEFAULT.layout,
) -> tuple[list[Cluster], list[TileRead], list[Note]]:
    """Upright tiles lying apart from the hand row taken for exposed melds, when the hand
    row is a whole hand without them: the clusters, the reads with those melds' claimed
    tiles marked sideways, and the warning it gives.

    Concealed tiles stand in the hand row; what lies before it is exposed
    (rules seed 003, 实战细节 五). Another row's upright tiles, in runs of
    three (or four, or two runs of three) whose first readings make
    chows, pungs or kongs, are melds whose claimed tile did not look
    sideways (a tile seen from low down or along the diagonal; gaps may
    then split the run too). In each, the tile that looks most sideways
    (widest for its length, its face most along the row) is taken for the
    claimed one, with a warning to check the giver.
    """
    main = hand_row(clusters, config)
    apart: dict[int, list[Slot]] = {}
    for c in clusters:
        if c.kind == "plain" and c.row != main:
            apart.setdefault(c.row, []).extend(c.slots)
    if main < 0 or not apart:
        return clusters, reads, []
    runs: list[Cluster] = []
    for row, slots in apart.items():
        slots = sorted(slots, key=lambda s: s.start)
        if len(slots) not in (3, 4, 6):
            return clusters, reads, []
        cuts = [slots[:3], slots[3:]] if len(slots) == 6 else [slots]
        runs += [Cluster(row, "meld", cut) for cut in cuts]
    if not all(plausible(run.slots, reads) for run in runs):
        return clusters, reads, []
    held = held_in(clusters, main)
    if held != hand_need(clusters, reads) - 3 * len(runs):
        return clusters, reads, []
    claimed = [_claimed(run.slots, frame, reads) for run in runs]
    runs = [
        Cluster(run.row, run.kind, [replace(s, sideways=True) if s is k else s for s in run.slots])
        for run, k in zip(runs, claimed, strict=True)
    ]
    warning = note("melds_unmarked", n=sum(len(r.tiles) for r in runs))
    kept = [c for c in clusters if c.kind != "plain" or c.row == main]
    return kept + runs, marked(reads, [k.tiles[0] for k in claimed], True), [warning]


def _claimed(slots: list[Slot], frame: Frame, reads: list[TileRead]) -> Slot:
    """The place of a meld's tiles that looks most sideways (widest for its length, its
    face most along the row): its claimed tile."""
    tiles = [s.tiles[0] for s in slots]
    ratio = np.log(frame.eu[tiles] / np.maximum(frame.ev[tiles], 1e-6))
    faces = np.array([face_along(reads[i], frame) for i in tiles])
    return slots[int(np.argmax(ratio - np.median(ratio) + faces))]


def melds_off_the_hand(
    clusters: list[Cluster], frame: Frame, length: float, config: LayoutConfig = DEFAULT.layout
) -> tuple[list[Cluster], list[int]]:
    """Meld and kong groups that cannot be the player's: far from the hand row, and
    the hand row complete without them (the wall or other players' tiles in the photo).

    Returns the clusters kept and the tiles left out.
    """
    hand = hand_row(clusters, config)
    if hand < 0:
        return clusters, []
    hand_tiles = held_tiles(clusters, hand)
    grouped = [c for c in clusters if c.kind != "plain"]
    v_hand = float(np.median(frame.v[hand_tiles]))
    far = [
        c
        for c in grouped
        if abs(float(np.median(frame.v[c.tiles])) - v_hand) > config.meld_reach * length
    ]
    if not far:
        return clusters, []

    def sets(cs: list[Cluster]) -> int:
        return sum(
            len(c.tiles) // 4 if c.kind == "kong" else max(1, round(len(c.tiles) / 3)) for c in cs
        )

    def fits(n_sets: int) -> bool:  # the winning tile may lie in the row or beside it
        return len(hand_tiles) + 3 * n_sets in (13, 14)

    if fits(sets(grouped)) or not fits(sets(grouped) - sets(far)):
        return clusters, []
    kept = [c for c in clusters if all(c is not f for f in far)]
    return kept, [i for c in far for i in c.tiles]


def concealed_hand(
    clusters: list[tuple[int, list[int]]], n_melds: int, config: LayoutConfig = DEFAULT.layout
) -> tuple[list[Group], list[Note], list[int]]:
    """The upright tiles beside `n_melds` melds and kongs: the concealed row, with the tile
    set apart at its end as winning; the groups, their warnings and the tiles apart.

    Upright tiles in other rows are counted in the hand only when exactly
    they complete its count. Returned apart are those lying apart from a
    hand whole without them (flowers whose faces were not read, or strays:
    the caller decides); others are left out (discards, the wall or another
    player's tiles caught in the photo).
    """
    if not clusters:
        return [], [], []
    groups: list[Group] = []
    warnings: list[Note] = []
    per_row: dict[int, int] = {}
    for row_no, tiles in clusters:
        per_row[row_no] = per_row.get(row_no, 0) + len(tiles)
    main = _main_row(per_row, config)
    hand_clusters = [tiles for row_no, tiles in clusters if row_no == main]
    apart = [tiles for row_no, tiles in clusters if row_no != main]
    need = 14 - 3 * n_melds
    concealed = [i for tiles in hand_clusters for i in tiles]
    winning: list[int] = []
    if len(hand_clusters) >= 2 and len(hand_clusters[-1]) == 1:
        winning, concealed = hand_clusters[-1], concealed[:-1]
    singles = [tiles for tiles in apart if len(tiles) == 1]
    if not winning and len(concealed) + 1 == need and len(singles) == 1:
        winning = singles[0]
        apart.remove(winning)
        warnings.append(note("lone_winning"))
    if not winning and concealed:
        winning, concealed = concealed[-1:], concealed[:-1]
        warnings.append(NOTHING_SET_APART)
    extra = [i for tiles in apart for i in tiles]
    whole = len(concealed) + len(winning) == need
    if extra and len(concealed) + len(winning) + len(extra) == need:
        concealed.extend(extra)
        warnings.append(note("apart_concealed", n=len(extra)))
        extra = []
    elif extra and not whole:
        left, why = left_out(extra)
        groups.append(left)
        warnings.append(why)
        extra = []
    groups.append(Group(role="concealed", tiles=concealed))
    if winning:
        groups.append(Group(role="winning", tiles=winning))
    return groups, warnings, extra


def left_out(tiles: list[int]) -> tuple[Group, Note]:
    """Upright tiles lying away from the hand row set aside, with the warning."""
    return Group(role="extra", tiles=tiles), note("left_out", n=len(tiles))
