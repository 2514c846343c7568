"""A row's places in reading order, split at gaps into runs of touching tiles.

Every later step (melds, kongs, flowers, the hand row) works on these
slots and runs rather than on boxes.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from vision.config import DEFAULT, Reading
from vision.layout.stacks import carries_a_tile
from vision.rows import Frame
from vision.types import TileRead


@dataclass(frozen=True)
class Slot:
    """One place along a row: a tile, or two tiles stacked across the row (the same tile
    twice when the two were found as one box)."""

    tiles: list[int]
    start: float
    end: float
    sideways: bool
    short: float = 0.0  # the tile's short side: the local scale for gaps


def row_slots(
    reads: list[TileRead], frame: Frame, row: list[int], sure: float = DEFAULT.stacked.sure
) -> list[Slot]:
    """Tiles of a row in reading order; two sideways tiles stacked across the row share a slot
    (a promoted kong), and so does a sideways tile found as one box with a tile lying on it
    (`stacks.carries_a_tile`): its index then stands twice. Other overlapping tiles (a heap,
    not a row) keep a slot each."""
    slots: list[Slot] = []
    for i in sorted(row, key=lambda i: frame.u[i]):
        start, end = frame.u[i] - frame.eu[i] / 2, frame.u[i] + frame.eu[i] / 2
        side = reads[i].detection.sideways
        if slots:
            last = slots[-1]
            overlap = min(last.end, end) - max(last.start, start)
            stack = side and last.sideways and len(set(last.tiles)) == 1
            if stack and overlap > 0.5 * min(last.end - last.start, end - start):
                slots[-1] = replace(  # the tile on top, found on its own
                    last,
                    tiles=[last.tiles[0], i],
                    start=min(last.start, start),
                    end=max(last.end, end),
                )
                continue
        tiles = [i, i] if side and carries_a_tile(reads[i], sure) else [i]
        slots.append(Slot(tiles, start, end, side, float(min(frame.eu[i], frame.ev[i]))))
    return slots


def touching_runs(slots: list[Slot], reading: Reading = DEFAULT.layout.reading) -> list[list[Slot]]:
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
    clusters: list[list[Slot]] = [[slots[0]]]
    for slot, gap in zip(slots[1:], gaps, strict=True):
        if gap > max(reading.gap_split, usual + reading.gap_over_usual):
            clusters.append([slot])
        else:
            clusters[-1].append(slot)
    return clusters


def upright(slot: Slot) -> Slot:
    """The slot with its sideways mark taken back."""
    return replace(slot, sideways=False)


@dataclass(frozen=True)
class Cluster:
    """Touching tiles of one row: 'kong' (has backs), 'meld' (has a sideways tile) or 'plain'."""

    row: int
    kind: str
    slots: list[Slot]

    @property
    def tiles(self) -> list[int]:
        return [i for s in self.slots for i in s.tiles]
