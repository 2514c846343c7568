"""A whole table: its faces glanced at, the hand's candidates read whole, the hand picked.

A photo of more tiles than a hand lays down is glanced at first
(`read_faces`); at a whole table only the groups where the hand may lie
are then read whole, in turn (`hand_looked_again`), and the hand is the
first of them that reads as a complete hand (`pick_hand`, over
`hand_tries`), with the flowers laid in line beside it (`with_flowers`).
"""

from __future__ import annotations

from typing import TypeGuard

import numpy as np

from scorer.tiles import BACK, BACK_INDEX, FLOWER_FIRST
from vision.config import DEFAULT, VisionConfig
from vision.decode import Decoded
from vision.layout.kinds import likeliest, top_class
from vision.pieces import boxes_of, links_of, touching_any
from vision.readers import ClassifierFn, TileReader
from vision.readhand import HandReadings, Reading, better_partial, read_hand, standing
from vision.regions import Regions, find_regions
from vision.types import Detection, Layout, TileRead


def read_faces(
    classifier: TileReader | ClassifierFn,
    image: np.ndarray,
    detections: list[Detection],
    config: VisionConfig = DEFAULT,
) -> list[TileRead]:
    """Every detection read. A photo of more tiles than a hand lays down is glanced at first:
    a back is told at a glance. Its faces are then read whole, unless it shows a whole
    table (`whole_table`): there the whole reading waits for where the hand may lie
    (`hand_looked_again`)."""
    if not glanced_first(classifier, detections, config):
        return classifier(image, detections)
    reads = classifier.glance(image, detections)
    if whole_table(reads, config):
        return reads
    faces = [i for i, r in enumerate(reads) if r.chosen != BACK]
    for i, read in zip(faces, classifier(image, [detections[i] for i in faces]), strict=True):
        reads[i] = read
    return reads


def whole_table(reads: list[TileRead], config: VisionConfig) -> bool:
    """Whether many tiles are a whole table: walls and hands seen from behind show many
    backs (`RegionsConfig.table_backs`) lying beside other tiles, in stacks and rows; a
    posed photo of several hands hardly any. Backs alone, with no tile beside them, are
    no table: a cloth's printed spots read as backs lie apart, walls do not."""
    backs = np.array([r.chosen == BACK for r in reads], bool)
    if backs.sum() < config.regions.table_backs:
        return False
    beside = touching_any(links_of(boxes_of(reads), config.regions))
    return int((backs & beside).sum()) >= config.regions.table_backs


def glanced_first(
    classifier: TileReader | ClassifierFn, tiles: list, config: VisionConfig
) -> TypeGuard[TileReader]:
    """Whether a photo is glanced at first: more tiles than a hand lays down, and a
    classifier that glances."""
    return len(tiles) > config.regions.hand_most and isinstance(classifier, TileReader)


def hand_looked_again(
    classifier: TileReader | ClassifierFn,
    image: np.ndarray,
    reads: list[TileRead],
    config: VisionConfig = DEFAULT,
    readings: HandReadings | None = None,
) -> list[TileRead]:
    """A whole table's glanced reads with the tiles where the hand may lie read whole (every
    view, the second look where unsure): each of the hand's tries (`hand_tries`) in turn,
    up to the first that reads as a complete hand (past those that read as all but their
    kongs lying face down, `gives_hand`: `pick_hand` takes a complete hand first), and
    then the faces elsewhere that may be its winning tile (they decide 和绝张); the
    other tiles keep the glance. A photo of one
    hand was read whole already. `readings` keeps the candidates' readings for
    `pick_hand`."""
    if not glanced_first(classifier, reads, config) or not whole_table(reads, config):
        return reads
    readings = readings or HandReadings(config)
    looked: set[int] = set()
    partial = None
    for candidate in hand_tries(find_regions(reads, config.regions), config):
        reads = classifier.look_again(image, reads, sorted(set(candidate) - looked))
        looked |= set(candidate)
        reading = readings([reads[i] for i in candidate])
        if reading[2].hand is not None:
            return _copies_looked_at(classifier, image, reads, looked, reading[2])
        if better_partial(reading, partial):
            partial = reading  # the one `pick_hand` takes when no try reads complete
    return (
        reads
        if partial is None
        else _copies_looked_at(classifier, image, reads, looked, partial[2])
    )


def _copies_looked_at(
    classifier: TileReader,
    image: np.ndarray,
    reads: list[TileRead],
    looked: set[int],
    decoded: Decoded,
) -> list[TileRead]:
    """The reads with the faces not looked at yet that may be the hand's winning tile read
    whole: they decide 和绝张."""
    if decoded.winning is None:
        return reads
    copies = [
        i
        for i, r in enumerate(reads)
        if i not in looked and r.chosen != BACK and _may_be(r, decoded.winning)
    ]
    return classifier.look_again(image, reads, copies)


def _may_be(read: TileRead, tile: int, top: int = 5) -> bool:
    """Whether `tile` is among the read's `top` likeliest."""
    return tile in likeliest(read, top)


def pick_hand(
    reads: list[TileRead],
    regions: Regions,
    config: VisionConfig = DEFAULT,
    readings: HandReadings | None = None,
) -> tuple[tuple[int, ...], Reading]:
    """The first of the hand's tries (`hand_tries`) that reads as a complete hand, else the
    one that reads as all but its kongs lying face down (which the person names) with the
    fewest warnings (`standing`; the first of equals), else the first try that reads
    complete without its faintest box (`faint_spared`), else the nearest candidate: its
    tile indices and its reading (`read_hand`; `readings` holds those read before). A
    group that is whole only with a "kong" lying face down may be a wall's backs taken
    in; a complete hand needs no such guess. Of two such readings, one that leaves tiles
    out or sets none apart took in a pond's or a wall's tiles. A try read whole without
    its faint box goes before one with `PipelineConfig.faint_over_kongs` such kongs or
    more: a hand seldom lays two down, a wall's backs beside some faces read so."""
    readings = readings or HandReadings(config)
    first = partial = None
    tries = hand_tries(regions, config)
    for candidate in tries:
        reading = readings([reads[i] for i in candidate])
        if reading[2].hand is not None:
            return with_flowers(reads, candidate, reading, tries, readings)
        if better_partial(reading, None if partial is None else partial[1]):
            partial = (candidate, reading)
        first = first or (candidate, reading)
    if partial is not None and len(partial[1][2].unnamed) < config.pipeline.faint_over_kongs:
        return partial
    for candidate in faint_spared(reads, tries, config):
        reading = readings([reads[i] for i in candidate])
        if reading[2].hand is not None:
            return candidate, reading
    return partial or first or ((), read_hand([], config))


def with_flowers(
    reads: list[TileRead],
    chosen: tuple[int, ...],
    reading: Reading,
    tries: list[tuple[int, ...]],
    readings: HandReadings,
) -> tuple[tuple[int, ...], Reading]:
    """The hand read complete, or a later try holding all its tiles and more, those all
    read as flowers, that reads as the same hand with more flowers and no more warnings:
    flowers laid in line with a short concealed row (a pair, the rest melds in front of
    it) are grouped apart from a hand that is whole without them."""
    flowers = _flower_count(reading[1])
    for tiles in tries:
        if not set(chosen) < set(tiles):
            continue  # not a try holding the hand's tiles and more
        more = set(tiles) - set(chosen)
        if not all(FLOWER_FIRST <= top_class(reads[i]) < BACK_INDEX for i in more):
            continue
        wider = readings([reads[i] for i in tiles])
        same, counted = wider[2].notation == reading[2].notation, _flower_count(wider[1])
        if same and counted > flowers and standing(wider) <= standing(reading):
            chosen, reading, flowers = tiles, wider, counted
    return chosen, reading


def _flower_count(layout: Layout) -> int:
    """How many tiles a layout counts as the hand's flowers."""
    return sum(len(g.tiles) for g in layout.groups if g.role == "flowers")


def faint_spared(
    reads: list[TileRead], tries: list[tuple[int, ...]], config: VisionConfig = DEFAULT
) -> list[tuple[int, ...]]:
    """The hand's tries each without its faintest box, where that box scores under
    `PipelineConfig.faint`: a box the detector barely found across the gap between two
    tiles (the hand's row and its flowers) is one too many, and the count of a hand's
    tiles then tells it, as only a try that reads as a complete hand without it is
    taken, and only where no try read as the rest of a hand but with
    `PipelineConfig.faint_over_kongs` kongs or more lying face down (`pick_hand`).
    Tries without such a box, or read already, are left out."""
    out: list[tuple[int, ...]] = []
    for tiles in tries:
        faint = min(tiles, key=lambda i: reads[i].detection.score, default=None)
        if faint is None or reads[faint].detection.score >= config.pipeline.faint:
            continue
        spared = tuple(i for i in tiles if i != faint)
        if spared not in tries and spared not in out:
            out.append(spared)
    return out


def hand_tries(regions: Regions, config: VisionConfig = DEFAULT) -> list[tuple[int, ...]]:
    """The groups of tiles to read for the hand, in turn: each candidate alone (nearest the
    camera first), then two lying near each other taken together (a hand laid out in two
    parts some way apart, its melds away from its row, makes a complete hand only so),
    none past the most tiles a hand lays down."""
    tries = list(regions.candidates)
    for k, a in enumerate(regions.candidates):
        for b in regions.candidates[k + 1 :]:
            both = tuple(sorted(set(a) | set(b)))
            near = regions.apart(a, b) <= config.regions.parts_apart
            if near and len(both) <= config.regions.hand_most and both not in tries:
                tries.append(both)
    return tries
