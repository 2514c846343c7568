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

This package's `__init__` holds the flow, `read_layout`: a short list of
named steps, each taking the reading so far (`Draft`) and returning a new
one. The steps' work is in modules of their own:
`stacks` (boxes on one another), `slots` (a row's places and its runs of
touching tiles), `kongs`, `melds`, `flowers`, `hand` (the hand row, the
tile set apart, what lies apart from it) and `direction` (which way the
rows read), with `kinds` (a tile's kind) under them all; the thresholds
are `vision.config.LayoutConfig`.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

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
    concealed_hand,
    left_out,
    melds_off_the_hand,
    melds_unmarked,
    set_apart_by_spacing,
    sets_apart,
)
from vision.layout.kinds import top_class
from vision.layout.kongs import concealed_kong, kongs_apart, tile_sides
from vision.layout.melds import exposed_melds, melds_apart
from vision.layout.slots import Cluster, row_slots, touching_runs
from vision.layout.stacks import apart_in_rows, duplicates, put_back_stacked
from vision.notes import Note, note
from vision.rows import Frame, find_rows, mark_sideways, tile_length
from vision.types import Group, Layout, TileRead

__all__ = ["NOTHING_SET_APART", "Draft", "read_layout", "top_class"]


@dataclass(frozen=True)
class Draft:
    """A layout as far as it has been read: what each step of `read_layout` hands the next.

    `reads` carry the sideways marks judged so far; `top` is each tile's kind as its place
    has settled it (`kinds.top_class` at first); `notes` are the warnings and doubts of
    the latest grouping of the rows into `clusters`.
    """

    reads: list[TileRead]
    frame: Frame
    rows: list[list[int]]
    length: float
    angle: float
    top: list[int]
    dups: dict[int, int]
    rotation: int = 0
    flowers: list[int] = field(default_factory=list)
    clusters: list[Cluster] = field(default_factory=list)
    notes: tuple[tuple[Note, ...], tuple[str, ...]] = ((), ())
    sides: list[int] = field(default_factory=list)  # tile sides boxed as tiles, left out
    off_hand: list[int] = field(default_factory=list)  # groups far from the hand, left out
    apart: list[int] = field(default_factory=list)  # upright tiles apart from a whole hand
    groups: list[Group] = field(default_factory=list)
    warnings: list[Note] = field(default_factory=list)
    doubts: list[str] = field(default_factory=list)

    def warn(self, *warnings: Note) -> Draft:
        """The draft with these warnings added."""
        return replace(self, warnings=[*self.warnings, *warnings])

    def layout(self) -> Layout:
        """The finished layout."""
        return Layout(
            groups=list(self.groups),
            warnings=list(self.warnings),
            doubts=list(self.doubts),
            rotation=self.rotation,
            sideways=tuple(bool(r.detection.sideways) for r in self.reads),
        )


def read_layout(reads: list[TileRead], config: VisionConfig = DEFAULT) -> Layout:
    """Group the tiles of one photo into the concealed row, melds, winning tile and flowers.

    Groups list tile indices in reading order (the player's left to right);
    `Layout.sideways` tells the tiles whose box lies across their row.
    """
    if not reads:
        return Layout()
    draft = _rows_found(reads, config)
    for step in STEPS:
        draft = step(draft, config)
    return draft.layout()


def _rows_found(reads: list[TileRead], config: VisionConfig) -> Draft:
    """The rows the tiles lie in, each box found twice counted once."""
    boxes = np.array([r.detection.box for r in reads], dtype=float)

    def rows_without(dups: dict[int, int]) -> tuple:
        live = [i for i in range(len(reads)) if i not in dups]
        length = tile_length(boxes[live])
        return length, *find_rows(boxes, live, length, config.rows)

    dups = duplicates(reads, boxes, config.layout)
    length, angle, frame, rows = rows_without(dups)
    if (kept := apart_in_rows(dups, frame, rows, config.layout)) != dups:
        dups = kept
        length, angle, frame, rows = rows_without(dups)
    top = [top_class(r) for r in reads]
    rotation = 90 if angle >= np.pi / 4 else 0
    return Draft(list(reads), frame, rows, length, angle, top, dups, rotation)


def _sideways_marked(d: Draft, config: VisionConfig) -> Draft:
    """Tiles whose box lies across their row marked sideways."""
    reads = mark_sideways(d.reads, d.frame, d.rows, config.layout.reading, config.rows)
    return replace(d, reads=reads)


def _stacked_put_back(d: Draft, config: VisionConfig) -> Draft:
    """A promoted kong's fourth tile, boxed on the claimed one, back in its row."""
    reads, rows, dups = put_back_stacked(d.reads, d.frame, d.rows, d.dups, config.layout)
    return replace(d, reads=reads, rows=rows, dups=dups)


def _flowers_aside(d: Draft, config: VisionConfig) -> Draft:
    """The tiles read as flowers set aside, but those inside a run of playing tiles."""
    flowers, top = flowers_aside(
        d.reads, d.frame, d.rows, d.top, config.layout, config.stacked.sure
    )
    return replace(d, flowers=flowers, top=top)


def _grouped(d: Draft, config: VisionConfig) -> Draft:
    """Each row's touching tiles as concealed kongs, melds and plain runs."""
    return _group(d, d.rows, config)


def _flowers_back_in_hand(d: Draft, config: VisionConfig) -> Draft:
    """Flowers the hand row is short of taken back into it, and the rows grouped again."""
    flowers, top = flowers_the_hand_needs(
        d.clusters, d.reads, d.rows, d.flowers, d.top, config.layout
    )
    if flowers == d.flowers:
        return d
    return _group(replace(d, flowers=flowers, top=top), d.rows, config)


def _tile_sides_out(d: Draft, config: VisionConfig) -> Draft:
    """A tile set apart shows its side, the colour of its back, across the gap; boxed as a
    tile, it is kept out when the gap then shows."""
    sides = tile_sides(d.clusters, d.reads, config.layout)
    if not sides:
        return d
    kept = [[i for i in row if i not in sides] for row in d.rows]
    regrouped = _group(d, kept, config)
    if sets_apart(regrouped.clusters, config.layout) and not sets_apart(d.clusters, config.layout):
        return replace(regrouped, rows=kept, sides=sides)
    # the grouping is not kept, but what it judged of the tiles is
    return replace(d, reads=regrouped.reads, top=regrouped.top)


def _grouping_noted(d: Draft, config: VisionConfig) -> Draft:
    """The warnings and doubts of the grouping kept."""
    warnings, doubts = d.notes
    return replace(d, warnings=[*d.warnings, *warnings], doubts=[*d.doubts, *doubts])


def _flowers_by_count(d: Draft, config: VisionConfig) -> Draft:
    """Tiles beyond the hand's count, at the hand row's ends, taken for flowers."""
    clusters, flowers = flowers_by_count(d.clusters, d.reads, d.flowers, config.layout)
    return replace(d, clusters=clusters, flowers=flowers)


def _flowers_not_melds(d: Draft, config: VisionConfig) -> Draft:
    """A group that makes no meld, beside a hand whole without it, taken for flowers."""
    clusters, flowers = flowers_not_melds(
        d.clusters, d.reads, d.flowers, d.frame, d.length, config.layout
    )
    return replace(d, clusters=clusters, flowers=flowers)


def _flowers_not_the_hand(d: Draft, config: VisionConfig) -> Draft:
    """An unread row taken for the hand row is the flowers when another row fits the hand."""
    clusters, flowers, row = flowers_not_the_hand(d.clusters, d.reads, d.flowers, config.layout)
    d = replace(d, clusters=clusters, flowers=flowers)
    if not row:
        return d
    return d.warn(note("flowers_unread.row", n=len(row)))


def _set_apart_by_spacing(d: Draft, config: VisionConfig) -> Draft:
    """The winning tile split off where only the spacing of the tiles shows its gap."""
    return replace(d, clusters=set_apart_by_spacing(d.clusters, d.frame, config.layout))


def _melds_off_the_hand(d: Draft, config: VisionConfig) -> Draft:
    """Melds far from a hand row whole without them set aside (the wall, another hand)."""
    clusters, off = melds_off_the_hand(d.clusters, d.frame, d.length, config.layout)
    return replace(d, clusters=clusters, off_hand=off)


def _melds_unmarked(d: Draft, config: VisionConfig) -> Draft:
    """Upright runs apart from a whole hand row taken for melds, their claimed tile marked."""
    clusters, reads, warnings = melds_unmarked(d.clusters, d.frame, d.reads, config.layout)
    return replace(d, clusters=clusters, reads=reads).warn(*warnings)


def _direction(d: Draft, config: VisionConfig) -> Draft:
    """The rows turned to read from the player's left, when the cues say they run the other
    way."""
    faces = facing(d.reads, d.clusters, d.angle, config.layout)
    turned = rows_reversed(d.clusters, faces, config.layout)
    if turned:
        n_rows = len(d.rows)
        clusters = [Cluster(n_rows - 1 - c.row, c.kind, c.slots[::-1]) for c in d.clusters[::-1]]
        return replace(d, clusters=clusters, rotation=d.rotation + 180)
    if turned is None and len(d.clusters) > 1:
        vertical = d.rotation == 90
        down, across = note("direction_assumed.down"), note("direction_assumed.across")
        return d.warn(down if vertical else across)
    return d


def _melds_and_kongs(d: Draft, config: VisionConfig) -> Draft:
    """The clusters with backs as concealed kongs and those with sideways tiles as melds."""
    groups, warnings, reads = list(d.groups), list(d.warnings), d.reads
    shapes = d.frame.wideness if d.frame.shapes else None
    widest = config.layout.claimed_widest
    for c in sorted(d.clusters, key=lambda c: c.row):
        if c.kind == "kong":
            kong, more = concealed_kong(c.tiles, d.top)
            groups.append(kong)
        elif c.kind == "meld":
            melds, more, reads = exposed_melds(c.slots, reads, shapes, widest)
            groups.extend(melds)
        else:
            continue
        warnings.extend(more)
    return replace(d, groups=groups, warnings=warnings, reads=reads)


def _concealed_hand(d: Draft, config: VisionConfig) -> Draft:
    """The upright tiles as the concealed row and the winning tile."""
    n_melds = sum(g.role in ("meld", "concealed_kong") for g in d.groups)
    plain = [(c.row, c.tiles) for c in d.clusters if c.kind == "plain"]
    groups, warnings, apart = concealed_hand(plain, n_melds, config.layout)
    return replace(d, groups=[*d.groups, *groups], apart=apart).warn(*warnings)


def _flowers_unread(d: Draft, config: VisionConfig) -> Draft:
    """Tiles apart from a whole hand, none read surely, taken for flowers; else left out."""
    hand = [i for g in d.groups for i in g.tiles]
    taken = flowers_unread(d.reads, d.apart, d.flowers, hand, d.length, config.layout)
    if taken:
        return replace(d, flowers=sorted([*d.flowers, *taken])).warn(
            note("flowers_unread", n=len(d.apart))
        )
    if not d.apart:
        return d
    group, warning = left_out(d.apart)
    return replace(d, groups=[*d.groups, group]).warn(warning)


def _set_aside(d: Draft, config: VisionConfig) -> Draft:
    """The flowers, and every tile left out, as groups of their own."""
    groups, warnings = list(d.groups), list(d.warnings)
    if d.flowers:
        groups.append(Group(role="flowers", tiles=d.flowers))
    if d.off_hand:
        groups.append(Group(role="extra", tiles=d.off_hand))
        warnings.append(note("left_out.together", n=len(d.off_hand)))
    if d.sides:
        groups.append(Group(role="extra", tiles=d.sides))
        warnings.append(note("tile_sides", n=len(d.sides)))
    if d.dups:
        groups.append(Group(role="extra", tiles=sorted(d.dups)))
        warnings.append(note("duplicate_boxes", n=len(d.dups)))
    return replace(d, groups=groups, warnings=warnings)


#: the steps of `read_layout`, in order
STEPS = (
    _sideways_marked,
    _stacked_put_back,
    _flowers_aside,
    _grouped,
    _flowers_back_in_hand,
    _tile_sides_out,
    _grouping_noted,
    _flowers_by_count,
    _flowers_not_melds,
    _flowers_not_the_hand,
    _set_apart_by_spacing,
    _melds_off_the_hand,
    _melds_unmarked,
    _direction,
    _melds_and_kongs,
    _concealed_hand,
    _flowers_unread,
    _set_aside,
)


def _group(d: Draft, rows: list[list[int]], config: VisionConfig) -> Draft:
    """Each row's touching tiles (flowers aside) as concealed kongs, melds and plain runs,
    with the warnings and doubts that cutting them gave (`Draft.notes`)."""
    clusters: list[Cluster] = []
    warnings: list[Note] = []
    doubts: list[str] = []
    reads, top = d.reads, d.top
    flower_set = set(d.flowers)
    for row_no, row in enumerate(rows):
        slots = row_slots(
            reads, d.frame, [i for i in row if i not in flower_set], config.stacked.sure
        )
        for run in touching_runs(slots, config.layout.reading):
            pieces, top = kongs_apart(run, top, reads, config.layout)
            for kind, part in pieces:
                if kind == "kong":
                    clusters.append(Cluster(row_no, kind, part))
                    continue
                found, reads, more, unsure = melds_apart(part, reads)
                clusters.extend(Cluster(row_no, k, p) for k, p in found)
                warnings.extend(more)
                doubts.extend(unsure)
    notes = (tuple(warnings), tuple(doubts))
    return replace(d, clusters=clusters, notes=notes, reads=reads, top=top)
