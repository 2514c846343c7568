"""Flowers: set apart from the hand, counted for scoring, never inside a run of playing tiles.

A classifier meeting unfamiliar art mixes flowers up with playing tiles;
where a tile lies, and how many tiles the hand row holds, settle which it is.
"""

from __future__ import annotations

import numpy as np

from scorer.tiles import BACK_INDEX, FLOWER_FIRST
from vision.config import DEFAULT, LayoutConfig
from vision.layout.hand import hand_need, hand_row, held_in, held_tiles
from vision.layout.kinds import face_up, flower_sum, likely_back, play_sum
from vision.layout.melds import split_melds
from vision.layout.slots import Cluster, row_slots, touching_runs
from vision.rows import Frame
from vision.types import TileRead


def _is_flower(k: int) -> bool:
    return FLOWER_FIRST <= k < BACK_INDEX


def _unread(reads: list[TileRead], tiles: list[int], config: LayoutConfig) -> bool:
    """Whether the classifier names none of the tiles surely (`flower_unread`)."""
    return max(float(np.max(reads[i].probs)) for i in tiles) < config.flower_unread


def _mean_flower(tiles: list[int], reads: list[TileRead]) -> float:
    """The tiles' mean summed probability of being a flower."""
    return float(np.mean([flower_sum(reads[i]) for i in tiles]))


def flowers_aside(
    reads: list[TileRead],
    frame: Frame,
    rows: list[list[int]],
    top: list[int],
    config: LayoutConfig = DEFAULT.layout,
    sure: float = DEFAULT.stacked.sure,
) -> tuple[list[int], list[int]]:
    """The tiles read as flowers, but for those lying inside a run of playing tiles; and
    the tiles' kinds with those inside taken for playing tiles.

    Flowers are laid to one side of the hand (rules seed 003, 实战细节 五),
    never in the middle of the concealed row or of a meld. A tile read as a
    flower with touching playing tiles on both sides is a playing tile whose
    art the classifier mistook (one tile set's bamboo 1, a bird, read as a
    flower): its kind becomes its most probable playing tile. A reading with
    `Reading.melds_hold_no_flower`, tried when the first gives no clean hand, takes
    a tile read as a flower, but not surely (`flower_unread`), in a run holding
    a claimed (sideways) tile for a playing tile: a pung of such birds at a
    meld row's end.
    """
    flowers, top = [], list(top)
    for row in rows:
        for run in touching_runs(row_slots(reads, frame, row, sure), config.reading):
            tiles = [i for slot in run for i in slot.tiles]
            meld_row = config.reading.melds_hold_no_flower and any(slot.sideways for slot in run)
            for k, i in enumerate(tiles):
                if not _is_flower(top[i]):
                    continue
                unsure = meld_row and _unread(reads, [i], config)
                if _among_play(tiles, k, top, unsure):
                    top[i] = face_up(reads[i])
                else:
                    flowers.append(i)
    return sorted(flowers), top


def _among_play(tiles: list[int], k: int, top: list[int], any_side: bool) -> bool:
    """Whether the run's `k`-th tile, read as a flower, lies among playing tiles: touched by
    them on both sides, or (`any_side`) a playing tile anywhere in its run."""
    if any_side:
        return any(top[j] < FLOWER_FIRST for j in tiles)
    return 0 < k < len(tiles) - 1 and all(
        top[j] < FLOWER_FIRST for j in (tiles[k - 1], tiles[k + 1])
    )


def flowers_by_count(
    clusters: list[Cluster],
    reads: list[TileRead],
    flowers: list[int],
    config: LayoutConfig = DEFAULT.layout,
) -> tuple[list[Cluster], list[int]]:
    """Flowers the classifier could not name: tiles beyond a hand's count, most flower-like.

    A hand holds 14 tiles besides its melds' fourth tiles, so upright tiles
    in the hand row beyond that are flowers (or strays). A classifier meeting
    an unfamiliar art style often spreads a flower's probability over the
    playing tiles; the flowers lie together, apart from the hand, so whole
    touching groups at the row's ends are taken, the most flower-like
    first, while the count stays over; then, when the count is still over,
    the tiles beyond it at one end of the row if none is read surely
    (`_unread_end`). Returns the clusters and the flowers, moved tiles added.

    The count is the only evidence here, so the tiles are moved only when
    moving them leaves the row a hand's count: a heap of loose tiles, more
    than any hand, keeps its tiles as read, those at its edge included.
    """
    main = hand_row(clusters, config)
    need = hand_need(clusters, reads)
    plain = [c for c in clusters if c.row == main and c.kind == "plain"]
    total = sum(len(c.tiles) for c in plain)
    before, taken = clusters, list(flowers)
    while total > need and len(plain) >= 2:
        best = max((plain[0], plain[-1]), key=lambda c: _mean_flower(c.tiles, reads))
        flowery = _mean_flower(best.tiles, reads) >= config.flower_surplus
        if not flowery or total - len(best.tiles) < need - 1:
            break
        plain.remove(best)
        clusters = [c for c in clusters if c is not best]
        taken.extend(best.tiles)
        total -= len(best.tiles)
    if plain and total > need:
        clusters, taken = _unread_end(clusters, plain, reads, taken, total - need, config)
    if held_in(clusters, main) > need:
        return before, flowers
    return clusters, taken


def _unread_end(
    clusters: list[Cluster],
    plain: list[Cluster],
    reads: list[TileRead],
    flowers: list[int],
    surplus: int,
    config: LayoutConfig,
) -> tuple[list[Cluster], list[int]]:
    """The hand row's `surplus` tiles at one of its outer ends as flowers, when there are
    at least `unread_end_min`, the classifier names none of them surely (`flower_unread`)
    and they lie upright, one to a place: flowers of art it does not know, laid on at the
    row's end with no gap that shows (seen along the row, from far off). Of two such ends,
    the more flower-like. Returns the clusters and the flowers, those tiles added."""
    if surplus < config.unread_end_min or len(flowers) + surplus > config.flowers_in_set:
        return clusters, flowers
    ends = []
    for cluster, first in ((plain[0], True), (plain[-1], False)):
        if len(cluster.slots) <= surplus:
            continue
        end = cluster.slots[:surplus] if first else cluster.slots[-surplus:]
        tiles = [i for slot in end for i in slot.tiles]
        lying = any(s.sideways for s in end)
        if len(tiles) == surplus and not lying and _unread(reads, tiles, config):
            rest = cluster.slots[surplus:] if first else cluster.slots[:-surplus]
            ends.append((_mean_flower(tiles, reads), cluster, tiles, rest))
    if not ends:
        return clusters, flowers
    _, cluster, tiles, rest = max(ends, key=lambda e: e[0])
    kept = [Cluster(c.row, c.kind, rest) if c is cluster else c for c in clusters]
    return kept, sorted([*flowers, *tiles])


def flowers_not_melds(
    clusters: list[Cluster],
    reads: list[TileRead],
    flowers: list[int],
    frame: Frame,
    length: float,
    config: LayoutConfig = DEFAULT.layout,
) -> tuple[list[Cluster], list[int]]:
    """Flowers one of which looked sideways: a group that makes no meld, at an end of the
    hand row or in a row beside it, next to a hand row whole without it. Returns the
    clusters and the flowers, moved tiles added.

    The counterpart of `flowers_by_count` for a group holding a tile whose
    box came out wide (a flower seen from low down): it cannot be a meld,
    so it is flowers when it is flower-like (`flower_surplus`) or none of
    its tiles is read surely (`flower_unread`), as `flowers_unread` takes
    them. A row further from the hand row than its melds may lie
    (`meld_reach` tile lengths) is not the player's.
    """
    main = hand_row(clusters, config)
    if main < 0:
        return clusters, flowers
    flowers = list(flowers)
    row = sorted((c for c in clusters if c.row == main), key=lambda c: c.slots[0].start)
    v_hand = float(np.median(frame.v[[i for c in row for i in c.tiles]]))
    beside = [
        c
        for c in clusters
        if c.row != main
        and abs(float(np.median(frame.v[c.tiles])) - v_hand) <= config.meld_reach * length
    ]
    for c in row[:1] + row[1:][-1:] + beside:
        if c.kind != "meld" or split_melds(c.slots, reads):
            continue
        if held_in(clusters, main) < hand_need(clusters, reads):
            break
        if len(c.tiles) + len(flowers) > config.flowers_in_set:
            continue
        if _unread(reads, c.tiles, config) or _mean_flower(c.tiles, reads) >= config.flower_surplus:
            clusters = [k for k in clusters if k is not c]
            flowers.extend(c.tiles)
    return clusters, sorted(flowers)


def flowers_not_the_hand(
    clusters: list[Cluster],
    reads: list[TileRead],
    flowers: list[int],
    config: LayoutConfig = DEFAULT.layout,
) -> tuple[list[Cluster], list[int], list[int]]:
    """A row of tiles that the classifier names none of surely, taken for the hand row as
    the row holding most tiles, is the flowers when another row holds just the tiles the
    hand needs besides its melds. Returns the clusters kept, the flowers (with the tiles
    taken) and the tiles taken.

    A hand with many melds keeps few tiles in its row (two beside four melds),
    and its flowers, laid in a row of their own (rules seed 003, 实战细节 五),
    can outnumber them; a classifier meeting unfamiliar flower art reads them
    as assorted playing tiles, each unsure (`flower_unread`). A row holding a
    meld, or a sure tile, stays the hand's, and so does an unread row when the
    row that would be the hand's is unread too.
    """
    main = hand_row(clusters, config)
    if main < 0 or any(c.row == main and c.kind != "plain" for c in clusters):
        return clusters, flowers, []
    tiles = held_tiles(clusters, main)
    if len(tiles) + len(flowers) > config.flowers_in_set or not _unread(reads, tiles, config):
        return clusters, flowers, []
    need = hand_need(clusters, reads)
    others = {c.row for c in clusters if c.kind == "plain" and c.row != main}
    fitting = [r for r in others if held_in(clusters, r) == need]
    if len(fitting) != 1:
        return clusters, flowers, []
    if _unread(reads, held_tiles(clusters, fitting[0]), config):
        return clusters, flowers, []  # two unread rows: nothing tells which is the flowers
    return [c for c in clusters if c.row != main], sorted([*flowers, *tiles]), tiles


def flowers_the_hand_needs(
    clusters: list[Cluster],
    reads: list[TileRead],
    rows: list[list[int]],
    flowers: list[int],
    top: list[int],
    config: LayoutConfig = DEFAULT.layout,
) -> tuple[list[int], list[int]]:
    """Tiles read as flowers that the hand row is short of: the least flower-like first.

    The counterpart of `flowers_by_count`. A hand holds 14 tiles besides
    its melds' fourth tiles; when its row holds fewer, tiles of that row
    read as flowers but fairly likely face-up playing tiles
    (`flower_face`), or read as a flower another tile is read as too (each
    flower exists once), are taken back into it (their kind becomes their
    most probable playing tile) while the count stays short. Returns the
    flowers left and the kinds, the same lists when none was taken.
    """
    main = hand_row(clusters, config)
    if main < 0:
        return flowers, top
    held = held_in(clusters, main)
    short = hand_need(clusters, reads) - held
    named = [top[i] for i in flowers]
    taken = sorted(
        (
            i
            for i in rows[main]
            if i in flowers
            and (play_sum(reads[i]) >= config.flower_face or named.count(top[i]) > 1)
        ),
        key=lambda i: play_sum(reads[i]),
        reverse=True,
    )[: max(short, 0)]
    if not taken:
        return flowers, top
    back = {i: face_up(reads[i]) for i in taken}
    return [i for i in flowers if i not in back], [back.get(i, k) for i, k in enumerate(top)]


def flowers_unread(
    reads: list[TileRead],
    apart: list[int],
    flowers: list[int],
    hand: list[int],
    length: float,
    config: LayoutConfig = DEFAULT.layout,
) -> list[int]:
    """Tiles lying apart from a hand whole without them taken as flowers, when they lie
    beside it and the classifier could name none of them surely; returns those taken
    (`flowers` are the tiles taken for flowers so far).

    What lies to one side of a finished hand is its flowers (rules seed
    003, 实战细节 五). A classifier meeting unfamiliar flower art reads
    them as assorted playing tiles, each unsure; a stray tile of a set it
    knows (a discard caught in the photo) reads surely, and a group holding
    one is left as it is, as is anything not reached from the hand's tiles
    (`_reached`), and so is a group whose tiles all read likeliest as
    backs (`likely_back`): flowers lie face up, so those are a pond's or a
    wall's tiles, blurred or far off. One face among them is enough, as
    unfamiliar flower art too can look most like a back. Only the
    flowers' count matters for scoring.
    """
    if not apart or not hand or len(apart) + len(flowers) > config.flowers_in_set:
        return []
    if not _unread(reads, apart, config) or all(likely_back(reads[i]) for i in apart):
        return []
    return list(apart) if _reached(reads, apart, hand, length, config) else []


def _reached(
    reads: list[TileRead], apart: list[int], hand: list[int], length: float, config: LayoutConfig
) -> bool:
    """Whether every tile of `apart` lies within `flower_reach` tile lengths of the hand's
    tiles, or within `flower_step` of another tile so reached: the flowers lie together
    one row beyond where the melds may lie, in a row that may run on past the hand's end."""
    centre = {i: np.array(reads[i].detection.center, dtype=float) for i in [*apart, *hand]}

    def near(i: int, tiles: list[int], reach: float) -> bool:
        return min(float(np.linalg.norm(centre[i] - centre[j])) for j in tiles) <= reach * length

    reached = [i for i in apart if near(i, hand, config.flower_reach)]
    left = [i for i in apart if i not in reached]
    while left and reached:
        more = [i for i in left if near(i, reached, config.flower_step)]
        if not more:
            break
        reached += more
        left = [i for i in left if i not in more]
    return not left
