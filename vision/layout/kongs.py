"""Concealed kongs: four tiles with backs at both ends, cut out of a run of touching tiles.

A "back" that makes no such kong may be a face-up tile the classifier
mistook (a blank white dragon); a kong lying all face down cannot be named.
"""

from __future__ import annotations

import numpy as np

from scorer.tiles import BACK_INDEX
from vision.config import DEFAULT, LayoutConfig
from vision.layout.hand import hand_need, hand_row, held_in
from vision.layout.kinds import face_up, likely_back, play_sum
from vision.layout.slots import Cluster, Slot
from vision.notes import Note, note
from vision.types import Group, TileRead

KONG_UNNAMED = note("kong_unnamed")


def kongs_apart(
    run: list[Slot], top: list[int], reads: list[TileRead], config: LayoutConfig = DEFAULT.layout
) -> tuple[list[tuple[str, list[Slot]]], list[int]]:
    """Cut concealed kongs out of a run of touching tiles: ('kong' | 'rest', slots) pieces,
    and the tiles' kinds as the cut leaves them (`top` with kongs' tiles read as backs).

    A concealed kong shows backs at both ends (or all four); it may be laid
    against a meld or the hand. An end whose likeliest single reading is a
    back (`likely_back`: a back of unfamiliar colour) serves too when the
    middle two tiles are alike. A tile read as a back that makes no such
    four, yet could well be face up (`stray_back_face`), is taken for its
    most probable playing tile (its kind changes). Other backs
    that make no kong stay together with their run as one 'kong' piece,
    which is then reported as unreadable.
    """
    sure = [any(top[i] == BACK_INDEX for i in s.tiles) for s in run]
    back = [
        any(likely_back(reads[i]) for i in s.tiles) or b for s, b in zip(run, sure, strict=True)
    ]
    if not any(back):
        return [("rest", run)], top
    top = list(top)
    pieces: list[tuple[str, list[Slot]]] = []
    rest: list[Slot] = []
    k = 0
    while k < len(run):
        window = run[k : k + 4]
        if (
            back[k]
            and len(window) == 4
            and back[k + 3]
            and not any(s.sideways or len(s.tiles) > 1 for s in window)
            and (sure[k] and sure[k + 3] or _alike(window[1], window[2], top, reads))
        ):
            if rest:
                pieces.append(("rest", rest))
                rest = []
            pieces.append(("kong", window))
            for i in (i for s in window for i in s.tiles if likely_back(reads[i])):
                top[i] = BACK_INDEX
            k += 4
            continue
        rest.append(run[k])
        k += 1
    if rest:
        pieces.append(("rest", rest))
    strays = [i for kind, p in pieces if kind == "rest" for s in p for i in s.tiles]
    strays = [i for i in strays if top[i] == BACK_INDEX]
    if any(play_sum(reads[i]) < config.stray_back_face for i in strays):
        return [("kong", run)], top  # backs that make no concealed kong: leave the run whole
    for i in strays:  # a face-up tile mistaken for a back (a blank white dragon)
        top[i] = face_up(reads[i])
    return pieces, top


def _alike(a: Slot, b: Slot, top: list[int], reads: list[TileRead]) -> bool:
    """Whether two places hold the same tile: a concealed kong's middle two, both face
    down or both face up alike. Asked where the ends are backs only by their likeliest
    reading, since two white dragons three places apart can read so too."""
    i, j = a.tiles[0], b.tiles[0]
    return top[i] == top[j] or likely_back(reads[i]) and likely_back(reads[j])


def tile_sides(
    clusters: list[Cluster], reads: list[TileRead], config: LayoutConfig = DEFAULT.layout
) -> list[int]:
    """Boxes in a hand row one tile over its count whose likeliest reading is a back, in
    no concealed kong: the side of a tile set apart, seen from low down, found as a tile.

    A tile set apart shows its side, the colour of its back, across the gap;
    the detector may box it faintly. A white dragon read as a back
    (`stray_back_face`) leaves the row's count right; a box too many does
    not. The faintest such boxes (`side_score`) between two tiles of the
    row are returned, one per tile over; a box at the row's end lies in no
    gap (it may be a kong's back whose partner was misread). The caller
    keeps them out only when the gap then shows.
    """
    main = hand_row(clusters, config)
    over = held_in(clusters, main) - hand_need(clusters, reads) if main >= 0 else 0
    if over < 1:
        return []
    slots = sorted((s for c in clusters if c.row == main for s in c.slots), key=lambda s: s.start)
    ends = set(slots[0].tiles + slots[-1].tiles)  # a gap lies between tiles
    backs = [
        i
        for c in clusters
        if c.row == main and c.kind == "plain"
        for i in c.tiles
        if int(np.argmax(reads[i].probs)) == BACK_INDEX
        and i not in ends
        and reads[i].detection.score < config.side_score
    ]
    return sorted(backs, key=lambda i: reads[i].detection.score)[:over]


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


def concealed_kong(tiles: list[int], top: list[int]) -> tuple[Group, list[Note]]:
    """Tiles with backs as a concealed kong, or as 'unknown' when they make none; with the
    warnings that reading gives."""
    unnamed = [KONG_UNNAMED] if all(top[i] == BACK_INDEX for i in tiles) else []
    if _kong_short_one(tiles, top):
        short = note("kong_short")
        return Group(role="concealed_kong", tiles=tiles, claimed=0), [short, *unnamed]
    if len(tiles) != 4:  # a longer run is one in which `kongs_apart` found no kong
        lie = note("kong_size", n=len(tiles))
        return Group(role="unknown", tiles=tiles), [lie]
    return Group(role="concealed_kong", tiles=tiles, claimed=0), unnamed
