"""Read how the tiles lie: rows, melds, the concealed hand, the winning tile, flowers.

Only positions, box shapes and each tile's kind (flower, face-down back
or a playing tile, by summed probability) are used here; which playing
tile each one is gets decided later by `vision.decode`, under the rules.
A kind read against where the tile lies gives way when the other kind
was fairly likely: a "flower" inside the hand row, or one the row is
short of, is a playing tile, and so is a "back" that makes no concealed
kong; what lies apart from a whole hand row is an exposed meld.

Table practice (rules seed 003, 实战细节 五 鸣牌的摆放): an exposed meld
has its claimed tile sideways, a concealed kong shows backs. The winning
tile is set apart at the end of the concealed row; melds are shown
"在立牌前", beyond it.

The photo may be turned by any angle and seen in perspective: `vision.rows`
finds the rows and the sideways tiles; gaps and the tile set apart are
judged against each tile's neighbours (far tiles look smaller). The
reading direction comes from where the winning tile lies and from the
concealed row being nearest the player.

This package's `__init__` holds the flow; each step is a module of its own:
`stacks` (boxes on one another), `slots` (a row's places and its runs of
touching tiles), `kongs`, `melds`, `flowers`, `hand` (the hand row, the
tile set apart, what lies apart from it) and `direction` (which way the
rows read), with `kinds` (a tile's kind) under them all; the thresholds
are `vision.config.LayoutConfig`.
"""

from __future__ import annotations

import numpy as np

from vision.config import DEFAULT, VisionConfig
from vision.layout.direction import facing, rows_reversed
from vision.layout.flowers import (
    flowers_aside,
    flowers_by_count,
    flowers_not_melds,
    flowers_not_the_hand,
    flowers_the_hand_needs,
    flowers_unread,
)
from vision.layout.hand import (
    NOTHING_SET_APART,
    add_hand,
    leave_out,
    melds_off_the_hand,
    melds_unmarked,
    set_apart_by_spacing,
    sets_apart,
)
from vision.layout.kinds import top_class
from vision.layout.kongs import add_concealed_kongs, kongs_apart, tile_sides
from vision.layout.melds import add_melds, melds_apart
from vision.layout.slots import Cluster, row_slots, touching_runs
from vision.layout.stacks import duplicates, put_back_stacked
from vision.rows import Frame, find_rows, mark_sideways, tile_length
from vision.types import Group, Layout, TileRead

__all__ = ["NOTHING_SET_APART", "read_layout", "top_class"]


def read_layout(reads: list[TileRead], config: VisionConfig = DEFAULT) -> Layout:
    """Group the tiles of one photo into the concealed row, melds, winning tile and flowers.

    Sets `detection.sideways` on tiles whose box lies across their row.
    Groups list tile indices in reading order (the player's left to right).
    """
    layout = Layout()
    if not reads:
        return layout
    cfg, sure = config.layout, config.stacked.sure
    boxes = np.array([r.detection.box for r in reads], dtype=float)
    dups = duplicates(reads, boxes, cfg)
    live = [i for i in range(len(reads)) if i not in dups]
    length = tile_length(boxes[live])
    top = [top_class(r) for r in reads]

    angle, frame, rows = find_rows(boxes, live, length, config.rows)
    vertical = angle >= np.pi / 4
    rotation = 90 if vertical else 0
    mark_sideways(reads, frame, rows, cfg.reading, config.rows)
    put_back_stacked(reads, frame, rows, dups, cfg)
    flowers = flowers_aside(reads, frame, rows, top, cfg, sure)
    clusters, notes = _group(reads, frame, rows, flowers, top, config)
    if flowers_the_hand_needs(clusters, reads, rows, flowers, top, cfg):
        clusters, notes = _group(reads, frame, rows, flowers, top, config)
    sides = tile_sides(clusters, reads, cfg)
    if sides:  # kept out only when the gap before the tile set apart then shows
        kept = [[i for i in row if i not in sides] for row in rows]
        regrouped, renoted = _group(reads, frame, kept, flowers, top, config)
        if sets_apart(regrouped, cfg) and not sets_apart(clusters, cfg):
            rows, clusters, notes = kept, regrouped, renoted
        else:
            sides = []
    layout.warnings.extend(notes.warnings)
    layout.doubts.extend(notes.doubts)
    clusters = flowers_by_count(clusters, reads, flowers, cfg)
    clusters = flowers_not_melds(clusters, reads, flowers, frame, length, cfg)
    clusters, unread_row = flowers_not_the_hand(clusters, reads, flowers, cfg)
    if unread_row:
        layout.warnings.append(
            f"Counted a row of {len(unread_row)} tiles as the flowers, though their faces were "
            "not read: the hand is whole without them; check the flowers."
        )
    clusters = set_apart_by_spacing(clusters, frame, cfg)
    clusters, off_hand = melds_off_the_hand(clusters, frame, length, cfg)
    clusters = melds_unmarked(clusters, frame, reads, layout, cfg)
    turned = rows_reversed(clusters, facing(reads, clusters, angle, cfg), cfg)
    if turned:
        rotation += 180
        n_rows = len(rows)
        clusters = [Cluster(n_rows - 1 - c.row, c.kind, c.slots[::-1]) for c in clusters[::-1]]
    elif turned is None and len(clusters) > 1:
        layout.warnings.append(
            "Could not tell which way the photo is turned (no winning tile set apart); "
            "assumed the rows read " + ("top to bottom." if vertical else "left to right.")
        )
    layout.rotation = rotation
    for c in sorted(clusters, key=lambda c: c.row):
        if c.kind == "kong":
            add_concealed_kongs(layout, c.tiles, top)
        elif c.kind == "meld":
            add_melds(layout, c.slots, reads)
    apart = add_hand(layout, [(c.row, c.tiles) for c in clusters if c.kind == "plain"], cfg)
    hand = [i for g in layout.groups for i in g.tiles]
    if flowers_unread(reads, apart, flowers, hand, length, cfg):
        layout.warnings.append(
            f"Counted {len(apart)} tile(s) lying apart from the hand as flowers, though their "
            "faces were not read; check the flowers."
        )
    elif apart:
        leave_out(layout, apart)
    if flowers:
        layout.groups.append(Group(role="flowers", tiles=flowers))
    if off_hand:
        layout.groups.append(Group(role="extra", tiles=off_hand))
        layout.warnings.append(
            f"Left out {len(off_hand)} tile(s) lying together away from the complete hand row."
        )
    if sides:
        layout.groups.append(Group(role="extra", tiles=sides))
        layout.warnings.append(
            f"Ignored {len(sides)} box(es) in the hand row read as a tile's back: the side of "
            "a tile set apart, one tile more than the hand holds."
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
    config: VisionConfig,
) -> tuple[list[Cluster], Layout]:
    """Each row's touching tiles (flowers aside) as concealed kongs, melds and plain runs,
    with the warnings and doubts that cutting them gave (on an otherwise empty layout)."""
    scratch = Layout()
    clusters: list[Cluster] = []
    flower_set = set(flowers)
    for row_no, row in enumerate(rows):
        slots = row_slots(
            reads, frame, [i for i in row if i not in flower_set], config.stacked.sure
        )
        for run in touching_runs(slots, config.layout.reading):
            for kind, part in kongs_apart(run, top, reads, config.layout):
                if kind == "kong":
                    clusters.append(Cluster(row_no, kind, part))
                else:
                    clusters.extend(
                        Cluster(row_no, k, p) for k, p in melds_apart(part, reads, scratch)
                    )
    return clusters, scratch
