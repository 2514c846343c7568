"""Photo bytes → recognition result (the JSON object of CONTRACTS.md "Recognition output").

The stages are plain functions on plain data: `load_photo` → detector
(→ `turn_to_rows` when the rows run near the diagonal; together
`Found.at`) → classifier (→ `faint_backs`, a kong's back found too
faintly) → orienter → stacker (a tile lying on another; together
`Looked.at`) → `read_hand`
(`read_layout`, then `decode`); a whole table's hand is picked among its
groups (`find_regions`, `pick_hand`) and its area looked at again by the
usual detector (`hand_zoomed`); `vision.result` writes the values as the
contract's JSON object. The
models are loaded once per process and shared (onnxruntime sessions may
run from several threads), so the web server can answer requests
concurrently.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import cached_property
from pathlib import Path
from typing import Any, Protocol, TypeGuard, runtime_checkable

import numpy as np

from scorer.tiles import BACK, BACK_INDEX, CODES, FLOWER_FIRST
from vision.config import DEFAULT, VisionConfig
from vision.decode import Decoded, decode
from vision.detect import unstretch
from vision.errors import ModelError, PhotoError
from vision.exemplars import parse_exemplars
from vision.faint import faint_backs
from vision.handzoom import hand_area, hand_boxes, in_photo
from vision.layout import NOTHING_SET_APART, read_layout
from vision.layout.kinds import likeliest, top_class
from vision.notes import Note
from vision.photo import MAX_BYTES, load_photo
from vision.regions import Piece, Regions, find_regions
from vision.result import assemble
from vision.tileset import taught
from vision.turn import Turned, rows_tilt, turn_to_rows
from vision.types import Detection, Layout, TileRead

DetectorFn = Callable[[np.ndarray], list[Detection]]
ClassifierFn = Callable[[np.ndarray, list[Detection]], list[TileRead]]
OrienterFn = Callable[[np.ndarray, list[Detection]], np.ndarray]
StackerFn = Callable[[np.ndarray, list[Detection]], np.ndarray]


@runtime_checkable
class TileFinder(Protocol):
    """A detector with every look the reading asks of it (`vision.detect.Detector` is one):
    plain boxes, boxes with how stretched the photo looks, boxes found too faintly to be
    taken alone, and the first look alone (the usual input, nothing more)."""

    def __call__(self, image: np.ndarray) -> list[Detection]: ...

    def look(self, image: np.ndarray) -> tuple[list[Detection], tuple[float, float]]: ...

    def faint(self, image: np.ndarray, floor: float) -> list[Detection]: ...

    def first_look(self, image: np.ndarray) -> list[Detection]: ...


@dataclass(frozen=True)
class BoxesOnly:
    """A plain box-finding function as a `TileFinder`: the photo taken to be in proportion,
    and no faint boxes."""

    find: DetectorFn

    def __call__(self, image: np.ndarray) -> list[Detection]:
        return self.find(image)

    def look(self, image: np.ndarray) -> tuple[list[Detection], tuple[float, float]]:
        return self.find(image), (1.0, 1.0)

    def faint(self, image: np.ndarray, floor: float) -> list[Detection]:
        return []

    def first_look(self, image: np.ndarray) -> list[Detection]:
        return self.find(image)


@runtime_checkable
class TileReader(Protocol):
    """A classifier that can also glance (`vision.classify.Classifier` is one): a quick
    reading that tells a back from a face, and the whole reading later for some tiles."""

    def __call__(self, image: np.ndarray, detections: list[Detection]) -> list[TileRead]: ...

    def glance(self, image: np.ndarray, detections: list[Detection]) -> list[TileRead]: ...

    def look_again(
        self, image: np.ndarray, reads: list[TileRead], which: list[int]
    ) -> list[TileRead]: ...


def read_faces(
    classifier: TileReader | ClassifierFn,
    image: np.ndarray,
    detections: list[Detection],
    config: VisionConfig = DEFAULT,
) -> list[TileRead]:
    """Every detection read. A photo of more tiles than a hand lays down is glanced at first:
    a back is told at a glance. Its faces are then read whole, unless it shows a whole
    table (`_table`): there the whole reading waits for where the hand may lie
    (`hand_looked_again`)."""
    if not _many(classifier, detections, config):
        return classifier(image, detections)
    reads = classifier.glance(image, detections)
    if _table(reads, config):
        return reads
    faces = [i for i, r in enumerate(reads) if r.chosen != BACK]
    for i, read in zip(faces, classifier(image, [detections[i] for i in faces]), strict=True):
        reads[i] = read
    return reads


def _table(reads: list[TileRead], config: VisionConfig) -> bool:
    """Whether many tiles are a whole table: walls and hands seen from behind show many
    backs (`RegionsConfig.table_backs`); a posed photo of several hands hardly any."""
    return sum(r.chosen == BACK for r in reads) >= config.regions.table_backs


def _many(
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
    kongs lying face down, `_gives_hand`: `pick_hand` takes a complete hand first), and
    then the faces elsewhere that may be its winning tile (they decide 和绝张); the
    other tiles keep the glance. A photo of one
    hand was read whole already. `readings` keeps the candidates' readings for
    `pick_hand`."""
    if not _many(classifier, reads, config) or not _table(reads, config):
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
        if _better_partial(reading, partial):
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


def as_finder(detector: TileFinder | DetectorFn) -> TileFinder:
    """The detector as a `TileFinder` (a plain function wrapped in `BoxesOnly`)."""
    return detector if isinstance(detector, TileFinder) else BoxesOnly(detector)


_LOCK = threading.Lock()
_MODELS: tuple[TileFinder | DetectorFn, ClassifierFn, OrienterFn, StackerFn] | None = None


def models() -> tuple[TileFinder | DetectorFn, ClassifierFn, OrienterFn, StackerFn]:
    """The bundled detector, classifier, orienter and stacked-tile reader, loaded on first
    use (ModelError when missing)."""
    global _MODELS
    with _LOCK:
        if _MODELS is None:
            from vision.models import load_models

            try:
                _MODELS = load_models()
            except (FileNotFoundError, OSError, RuntimeError) as exc:
                raise ModelError("models_missing", detail=exc) from exc
        return _MODELS


def warm_up() -> None:
    """Load the models now (e.g. when a server starts) so the first photo is quick."""
    models()


def pick_hand(
    reads: list[TileRead],
    regions: Regions,
    config: VisionConfig = DEFAULT,
    readings: HandReadings | None = None,
) -> tuple[tuple[int, ...], tuple[list[TileRead], Layout, Decoded]]:
    """The first of the hand's tries (`hand_tries`) that reads as a complete hand, else the
    one that reads as all but its kongs lying face down (which the person names) with the
    fewest warnings (`_standing`; the first of equals), else the first try that reads
    complete without its faintest box (`faint_spared`), else the nearest candidate: its
    tile indices and its reading (`read_hand`; `readings` holds those read before). A
    group that is whole only with a "kong" lying face down may be a wall's backs taken
    in; a complete hand needs no such guess. Of two such readings, one that leaves tiles
    out or sets none apart took in a pond's or a wall's tiles."""
    readings = readings or HandReadings(config)
    first = partial = None
    tries = hand_tries(regions, config)
    for candidate in tries:
        reading = readings([reads[i] for i in candidate])
        if reading[2].hand is not None:
            return with_flowers(reads, candidate, reading, tries, readings)
        if _better_partial(reading, None if partial is None else partial[1]):
            partial = (candidate, reading)
        first = first or (candidate, reading)
    if partial is not None:
        return partial
    for candidate in faint_spared(reads, tries, config):
        reading = readings([reads[i] for i in candidate])
        if reading[2].hand is not None:
            return candidate, reading
    return first or ((), read_hand([], config))


def with_flowers(
    reads: list[TileRead],
    chosen: tuple[int, ...],
    reading: tuple[list[TileRead], Layout, Decoded],
    tries: list[tuple[int, ...]],
    readings: HandReadings,
) -> tuple[tuple[int, ...], tuple[list[TileRead], Layout, Decoded]]:
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
        if same and counted > flowers and _standing(wider) <= _standing(reading):
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
    taken, and only where no try read as the rest of a hand (its kongs lying face
    down). Tries without such a box, or read already, are left out."""
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


def read_hand(
    reads: list[TileRead], config: VisionConfig = DEFAULT
) -> tuple[list[TileRead], Layout, Decoded]:
    """Layout and decoding of the read tiles: (reads as decoded, layout, decoded hand).
    The reads given are left as they are.

    The first reading is kept when it gives a hand (or the rest of one,
    besides unnamed kongs) with nothing in doubt (`_settled`: no warning,
    and no `Layout.doubts`, such as a sideways-looking tile counted
    upright). Else the layout is read again with each of
    `LayoutConfig.other_readings` (a gap, a tile set apart or a sideways box
    judged the other way), and the reading that does best wins: a hand
    first, then the fewest warnings (`UNRANKED` notes, which say only how
    the rows were taken to read, not counted), then the least probability
    given up to the rules. So a meld whose sideways tile looked upright, first counted
    into the concealed hand with a warning, is read again as a meld; and a reading that
    counts upright a tile whose box shows it sideways plainly has that doubt against it
    (`_unmarked`). A hand
    laid out with nothing set apart is read as it lies, with its warning,
    rather than by thresholds loosened until some tile looks set apart.
    Every try starts from the same reads, which no stage changes. A layout
    read before is not decoded again, and the other readings stop once
    their decoding took `PipelineConfig.read_again_steps`: a photo that is
    no hand at all costs every decoding its full search.
    """
    seen: set[tuple] = set()
    marks: tuple[bool, ...] = ()  # the tiles whose boxes show them sideways plainly

    def attempt(tried_config: VisionConfig) -> tuple | None:
        layout = read_layout(reads, tried_config)
        key = _layout_key(layout)
        if key in seen:
            return None  # the same grouping decodes the same
        seen.add(key)
        decoded = decode(reads, layout, tried_config)
        found = _gives_hand(decoded)
        doubts = _doubting(layout.warnings + decoded.warnings) + _unmarked(marks, layout)
        return (not found, doubts, decoded.drop), decoded.reads, layout, decoded

    first = attempt(config)
    assert first is not None
    if _settled(first[2], first[3]):
        return first[1], first[2], first[3]
    marks = read_layout(reads, config.reading(config.layout.sideways_plain)).sideways
    (missing, doubts, drop), *rest = first  # the first reading's doubts, now with these
    tries = [((missing, doubts + _unmarked(marks, first[2]), drop), *rest)]
    spent = 0
    for reading in config.layout.other_readings:
        if spent >= config.pipeline.read_again_steps:
            break
        if (found := attempt(config.reading(reading))) is not None:
            tries.append(found)
            spent += found[3].steps
    best = min(tries, key=lambda a: a[0])  # ties keep the first reading
    return best[1], best[2], best[3]


class HandReadings:
    """`read_hand` of a photo's groups of tiles, each group read once: a whole table's
    candidates are read while its tiles are looked at again (`hand_looked_again`) and
    asked for again when the hand is picked (`pick_hand`). A group counts as read when
    it holds the very same reads (stages make new reads, never edit them)."""

    def __init__(self, config: VisionConfig = DEFAULT) -> None:
        self.config = config
        self._kept: dict[tuple[int, ...], tuple[list[TileRead], tuple]] = {}

    def __call__(self, reads: list[TileRead]) -> tuple[list[TileRead], Layout, Decoded]:
        key = tuple(id(r) for r in reads)  # unique: the reads kept below stay alive
        if key not in self._kept:
            self._kept[key] = (list(reads), read_hand(reads, self.config))
        return self._kept[key][1]


def _unmarked(marks: tuple[bool, ...], layout: Layout) -> int:
    """How many of the tiles whose boxes show them sideways plainly (`marks`, read with
    `LayoutConfig.sideways_plain`) a layout counts upright: each is a doubt of that
    reading (a hand's melds all read as concealed tiles can make a legal hand too)."""
    if len(marks) != len(layout.sideways):
        return 0
    return sum(1 for was, now in zip(marks, layout.sideways, strict=True) if was and not now)


def _settled(layout: Layout, decoded: Decoded) -> bool:
    """Whether a reading stands without a second look: it gives a hand (or the rest of one)
    and nothing in it was in doubt, besides a hand laid out with no tile set apart."""
    if not _gives_hand(decoded) or layout.doubts:
        return False
    return all(w.id == NOTHING_SET_APART.id for w in layout.warnings + decoded.warnings)


#: notes that say how a reading was read, not that it doubts its tiles: a reading that
#: drops every meld must not win over one that keeps them by having no rows to turn
UNRANKED = frozenset({"direction_assumed.across", "direction_assumed.down"})


def _doubting(notes: list[Note]) -> int:
    """How many of a reading's notes count against it when readings are compared."""
    return sum(n.id not in UNRANKED for n in notes)


def _gives_hand(decoded: Decoded) -> bool:
    """A hand, or the rest of one besides kongs lying all face down."""
    return decoded.hand is not None or decoded.partial is not None


def _better_partial(
    reading: tuple[list[TileRead], Layout, Decoded],
    kept: tuple[list[TileRead], Layout, Decoded] | None,
) -> bool:
    """Whether a try that reads as no complete hand is the one to keep over `kept`: it
    gives a hand but for kongs lying face down, with fewer warnings (`_standing`; of
    equals, the first kept stays)."""
    return _gives_hand(reading[2]) and (kept is None or _standing(reading) < _standing(kept))


def _layout_key(layout: Layout) -> tuple:
    """What a reading's worth depends on from a layout: its groups and the sideways marks,
    and its warnings (the same groups read with less doubt do better)."""
    groups = tuple((g.role, tuple(g.tiles), g.claimed, g.promoted) for g in layout.groups)
    return groups, layout.sideways, tuple(layout.warnings)


Box = tuple[float, float, float, float]


@dataclass(frozen=True)
class Found:
    """A photo's tiles found, in the image the models read them in: the photo, or squeezed
    back to its proportions (`scale`: the photo's size over that image's), perhaps turned
    square to its rows (`turned`). `to_photo` takes a box of that image back to the photo."""

    work: np.ndarray
    detections: list[Detection]
    scale: tuple[float, float]
    turned: Turned | None

    @classmethod
    def at(cls, image: np.ndarray, finder: TileFinder, config: VisionConfig = DEFAULT) -> Found:
        """Find the tiles of a photo. A stretched photo is looked at squeezed back
        (`vision.detect.unstretch`), one whose rows run near its diagonal turned square to
        them (`vision.turn`): tiles then look like tiles to every later stage."""
        found, stretch = finder.look(image)
        work, detections = unstretch(image, found, stretch)
        scale = (image.shape[1] / work.shape[1], image.shape[0] / work.shape[0])
        turned = turn_to_rows(work, detections, finder, config) if detections else None
        if turned is not None:
            work, detections = turned.image, turned.detections
        return cls(work, detections, scale, turned)

    def to_photo(self, box: Box) -> Box:
        """A box of the work image in the photo's pixels."""
        back = box if self.turned is None else self.turned.box_back(box)
        return _scaled(back, *self.scale)


@dataclass(frozen=True)
class Looked:
    """A photo's tiles found (`Found`: the image the models read them in and its map back
    to the photo) and read (their boxes in that image's pixels)."""

    found: Found
    reads: list[TileRead]

    @property
    def work(self) -> np.ndarray:
        return self.found.work

    def to_photo(self, box: Box) -> Box:
        """A box of the work image in the photo's pixels."""
        return self.found.to_photo(box)

    @classmethod
    def at(
        cls,
        image: np.ndarray,
        detector: TileFinder | DetectorFn,
        classifier: ClassifierFn,
        orienter: OrienterFn | None = None,
        stacker: StackerFn | None = None,
        config: VisionConfig = DEFAULT,
        readings: HandReadings | None = None,
    ) -> Looked:
        """Find (`Found.at`) and read every tile of a photo (`readings` keeps the hand's
        candidates read on the way, `hand_looked_again`). A back found too faintly is
        taken beside the backs found (`vision.faint`). The orienter tells which way each
        face points, the stacker whether a tile lies on it."""
        finder = as_finder(detector)
        found = Found.at(image, finder, config)
        work, detections, turned = found.work, found.detections, found.turned
        reads = read_faces(classifier, work, detections, config) if detections else []
        if len(reads) != len(detections):
            raise ModelError("model_mismatch")
        if reads:  # a concealed kong's back found too faintly (among many tiles, at a glance)
            classify = classifier.glance if _many(classifier, reads, config) else classifier
            more = faint_backs(work, reads, finder.faint, classify, config)
            if turned is not None:  # the turned part's corners show no photo, only its fill
                more = [r for r in more if turned.shows(r.detection.box)]
            reads = reads + more
        reads = look_closer(work, reads, orienter, stacker, config)
        reads = hand_looked_again(classifier, work, reads, config, readings)
        return cls(found, reads)


def look_closer(
    image: np.ndarray,
    reads: list[TileRead],
    orienter: OrienterFn | None = None,
    stacker: StackerFn | None = None,
    config: VisionConfig = DEFAULT,
) -> list[TileRead]:
    """The reads with which way each face points (`up`) and how likely a tile lies on it
    (`stacked`), from the models given. Among a whole table's many tiles only the faces
    are oriented: a back points nowhere (its `up` stays None)."""
    if not reads:
        return reads
    detections = [r.detection for r in reads]
    if orienter is not None:
        many = len(reads) > config.regions.hand_most
        faces = [i for i, r in enumerate(reads) if not (many and r.chosen == BACK)]
        ups = orienter(image, [detections[i] for i in faces]) if faces else []
        reads = list(reads)
        for i, up in zip(faces, ups, strict=True):
            reads[i] = replace(reads[i], up=(float(up[0]), float(up[1])))
    if stacker is not None:
        stacked = stacker(image, detections)
        reads = [replace(r, stacked=float(p)) for r, p in zip(reads, stacked, strict=True)]
    return reads


@dataclass(frozen=True)
class Picked:
    """The photo's reads, the hand picked among them (indices), its reading, and the
    groups of the other tiles (`Regions.ignored`)."""

    every: list[TileRead]
    chosen: tuple[int, ...]
    reading: tuple[list[TileRead], Layout, Decoded]
    ignored: list[Piece]


def _standing(reading: tuple[list[TileRead], Layout, Decoded]) -> tuple[bool, bool, int]:
    """What a reading of the hand is worth, least first: a hand (or the rest of one), a
    complete hand, then the fewest warnings."""
    _, layout, decoded = reading
    warnings = len(layout.warnings) + len(decoded.warnings)
    return not _gives_hand(decoded), decoded.hand is None, warnings


def _read_among(
    image: np.ndarray,
    kept: list[TileRead],
    fresh: list[Detection],
    readers: tuple[ClassifierFn, OrienterFn | None, StackerFn | None],
    config: VisionConfig = DEFAULT,
) -> list[TileRead]:
    """The kept reads and the `fresh` boxes read, each as a hand's tile is read (every view,
    the second look where unsure, its face's direction, a tile on it): their rows are
    judged among all of them. The kept reads stand as they are."""
    classifier, orienter, stacker = readers
    n = len(kept)
    if isinstance(classifier, TileReader):
        blank = [TileRead(d, np.full(len(CODES), 1 / len(CODES))) for d in fresh]
        reads = classifier.look_again(image, kept + blank, list(range(n, n + len(fresh))))
    else:
        reads = kept + classifier(image, fresh)
    return kept + look_closer(image, reads, orienter, stacker, config)[n:]


def _complete(picked: Picked, config: VisionConfig) -> bool:
    """Whether the hand picked reads complete with fewer warnings than
    `HandZoomConfig.warnings`: a second reading of its tiles costs as much as the first."""
    _, incomplete, warnings = _standing(picked.reading)
    return not incomplete and warnings < config.hand_zoom.warnings


#: what a closer look at a table's hand gives: its tiles (in the photo's pixels) and their
#: reading (`read_hand`)
HandLook = tuple[list[TileRead], tuple[list[TileRead], Layout, Decoded]]


def hand_zoomed(
    image: np.ndarray,
    picked: Picked,
    finder: TileFinder,
    readers: tuple[ClassifierFn, OrienterFn | None, StackerFn | None],
    config: VisionConfig = DEFAULT,
) -> Picked:
    """On a whole table, the hand picked read again from the usual detector's look at its
    area (`vision.handzoom`), and where its rows slant (`HandZoomConfig.tilt`) from a
    look at the area turned square to them (`HandLooks.turned`): the reading that reads
    best is kept (`_standing`: a hand where there was none, a complete one, fewer
    warnings; the first of equals), else the first reading stands; a complete hand read
    with few warnings (`_complete`) is not looked at again. A photo of one hand was
    looked at that way already."""
    every, chosen = picked.every, picked.chosen
    if len(every) <= config.regions.hand_most or not chosen or _complete(picked, config):
        return picked  # one hand's photo, no hand, or a complete hand read with few doubts
    best: HandLook | None = None
    standing = _standing(picked.reading)
    looks = HandLooks(image, picked, finder, readers, config)
    for look in (looks.plain, looks.turned):
        seen = look()
        if seen is not None and _standing(seen[1]) < standing:
            best, standing = seen, _standing(seen[1])
    if best is None:
        return picked
    hand, reading = best
    taken = set(chosen)
    rest = [i for i in range(len(every)) if i not in taken]
    index = {old: new for new, old in enumerate(rest)}
    ignored = [Piece(p.kind, tuple(index[i] for i in p.tiles)) for p in picked.ignored]
    mine = tuple(range(len(rest), len(rest) + len(hand)))
    return Picked([every[i] for i in rest] + hand, mine, reading, ignored)


@dataclass(frozen=True)
class HandLooks:
    """The closer looks at a whole table's hand (`hand_zoomed`): the image its tiles were
    read in, the hand picked, the detector and the readers (classifier, orienter,
    stacker). Each look gives the hand's tiles and their reading, or None."""

    image: np.ndarray
    picked: Picked
    finder: TileFinder
    readers: tuple[ClassifierFn, OrienterFn | None, StackerFn | None]
    config: VisionConfig = DEFAULT

    @cached_property
    def boxes(self) -> np.ndarray:
        """Every tile's box."""
        return np.array([r.detection.box for r in self.picked.every], float)

    @cached_property
    def area(self) -> tuple[int, int, int, int]:
        """The part of the image both looks look at (`hand_area`)."""
        hand = self.boxes[list(self.picked.chosen)]
        return hand_area(hand, self.image.shape[:2], self.config.hand_zoom)

    def plain(self) -> HandLook | None:
        """The hand's tiles as the usual detector's look at its area boxes them, and their
        reading; None where it boxes no tile anew (the same tiles, read the same)."""
        every, chosen, config = self.picked.every, self.picked.chosen, self.config
        x1, y1, x2, y2 = self.area
        found = in_photo(self.finder.first_look(self.image[y1:y2, x1:x2]), self.area)
        fresh, kept = hand_boxes(found, self.boxes, chosen, config.hand_zoom)
        if not fresh:
            return None
        hand = _read_among(self.image, [every[j] for j in kept], fresh, self.readers, config)
        return hand, read_hand(hand, config)

    def turned(self) -> HandLook | None:
        """The hand read in its area turned square to its rows (`vision.turn`), where they
        run `HandZoomConfig.tilt` or more off the photo's axes: at a slant a tile's upright
        box holds much of its neighbours, and boxes overlap as if one tile were found
        twice. Its tiles are those the usual detector finds there on the hand's tiles or
        beside them (`hand_boxes`), and the hand's tiles it missed, each read and laid out
        in the turned area; the boxes are then given back in the photo's pixels. None
        where the rows do not slant so or the turned look is not kept (`turn_to_rows`)."""
        every, chosen, config = self.picked.every, self.picked.chosen, self.config
        hand = [every[i].detection for i in chosen]
        if abs(rows_tilt(hand, config)) < config.hand_zoom.tilt:
            return None
        boxes = self.boxes
        x1, y1, x2, y2 = self.area
        shift = np.array([x1, y1, x1, y1], float)
        local = [replace(d, box=_shifted(d.box, -shift)) for d in hand]
        turning = replace(config, turn=replace(config.turn, tilt=config.hand_zoom.tilt))
        turned = turn_to_rows(self.image[y1:y2, x1:x2], local, self.finder.first_look, turning)
        if turned is None:
            return None
        found = [d for d in turned.detections if turned.shows(d.box)]
        back = [replace(d, box=_shifted(turned.box_back(d.box), shift)) for d in found]
        fresh, kept = hand_boxes(back, boxes, chosen, config.hand_zoom)
        which = {id(b): d for b, d in zip(back, found, strict=True)}
        sizes = np.array([[d.box[2] - d.box[0], d.box[3] - d.box[1]] for d in found])
        size = (float(np.median(sizes[:, 0])), float(np.median(sizes[:, 1])))
        missed = [
            replace(every[j].detection, box=turned.box_forward(_shifted(boxes[j], -shift), size))
            for j in kept
        ]
        looked = [which[id(d)] for d in fresh] + missed
        reads = _read_among(turned.image, [], looked, self.readers, config)
        shown, layout, decoded = read_hand(reads, config)

        def placed(read: TileRead) -> TileRead:  # in the photo's pixels
            box = _shifted(turned.box_back(read.detection.box), shift)
            return replace(read, detection=replace(read.detection, box=box))

        return [placed(r) for r in reads], ([placed(r) for r in shown], layout, decoded)


def _shifted(box: Box | np.ndarray, by: np.ndarray) -> Box:
    """A box moved by (dx, dy, dx, dy)."""
    x1, y1, x2, y2 = (float(v) for v in np.add(box, by))
    return x1, y1, x2, y2


def recognize_image(
    image: np.ndarray,
    name: str = "",
    detector: TileFinder | DetectorFn | None = None,
    classifier: ClassifierFn | None = None,
    orienter: OrienterFn | None = None,
    stacker: StackerFn | None = None,
    config: VisionConfig = DEFAULT,
    exemplars: Any = None,
) -> dict[str, Any]:
    """Recognize an already decoded upright BGR image.

    Without a detector or classifier given, the bundled models are used,
    orienter and stacker included; with both given, tiles are oriented and
    looked at for a tile on top only by an orienter and a stacker given too.
    `exemplars`: the tiles the table's players named, as a request sends them
    (`vision.exemplars.parse_exemplars`), which the classifier leans on.
    """
    if detector is None or classifier is None:
        default_detector, default_classifier, default_orienter, default_stacker = models()
        detector = detector or default_detector
        classifier = classifier or default_classifier
        orienter = orienter or default_orienter
        stacker = stacker or default_stacker
    classifier = leaning_on(classifier, exemplars, config)
    started = time.perf_counter()
    readings = HandReadings(config)
    finder = as_finder(detector)
    looked = Looked.at(image, finder, classifier, orienter, stacker, config, readings)
    regions = find_regions(looked.reads, config.regions)
    chosen, reading = pick_hand(looked.reads, regions, config, readings)
    picked = Picked(looked.reads, chosen, reading, regions.ignored(chosen))
    picked = hand_zoomed(looked.work, picked, finder, (classifier, orienter, stacker), config)
    reads, layout, decoded = picked.reading
    every, reads = _in_photo(picked.every, looked.to_photo), _in_photo(reads, looked.to_photo)
    size = image.shape[1::-1]
    out = assemble(
        every, picked.chosen, (reads, layout, decoded), picked.ignored, name, size, config
    )
    out["elapsed_ms"] = round((time.perf_counter() - started) * 1000, 1)
    return out


def _in_photo(reads: list[TileRead], to_photo: Callable[[Box], Box]) -> list[TileRead]:
    """The reads with their boxes in the pixels of the photo as given."""
    return [
        replace(r, detection=replace(r.detection, box=to_photo(r.detection.box))) for r in reads
    ]


def leaning_on(classifier: ClassifierFn, exemplars: Any, config: VisionConfig) -> ClassifierFn:
    """The classifier reading with the exemplars a request sent (checked even where it
    cannot use them: a bad request is refused either way); itself without any."""
    if exemplars is None:
        return classifier
    tag, size = getattr(classifier, "tag", None), getattr(classifier, "look_size", 0)
    table_set = parse_exemplars(exemplars, tag, size, config.exemplars)
    if not len(table_set) or not hasattr(classifier, "with_exemplars"):
        return classifier
    return classifier.with_exemplars(table_set)


def recognize(
    data: bytes,
    name: str = "",
    detector: TileFinder | DetectorFn | None = None,
    classifier: ClassifierFn | None = None,
    exemplars: Any = None,
) -> dict[str, Any]:
    """Read one photo (its file bytes) into the recognition result, leaning on the table's
    `exemplars` where sent; PhotoError/ModelError on failure (TileListError for bad
    exemplars)."""
    image = load_photo(data, name)
    return recognize_image(image, name, detector, classifier, exemplars=exemplars)


def read_laid_out(
    image: np.ndarray,
    detector: TileFinder | DetectorFn | None = None,
    classifier: ClassifierFn | None = None,
) -> list[TileRead]:
    """Every tile of a photo of tiles laid out face up in rows (a set shown to teach it,
    `vision.tileset`), each read whole, its box in the photo's pixels: no hand is sought,
    and a tile taken for a back keeps its look (a blank 白 may look like one)."""
    if detector is None or classifier is None:
        default_detector, default_classifier, _, _ = models()
        detector, classifier = detector or default_detector, classifier or default_classifier
    found, stretch = as_finder(detector).look(image)
    work, detections = unstretch(image, found, stretch)
    reads = classifier(work, detections) if detections else []
    if len(reads) != len(detections):
        raise ModelError("model_mismatch")
    sx, sy = image.shape[1] / work.shape[1], image.shape[0] / work.shape[0]
    return [
        replace(r, detection=replace(r.detection, box=_scaled(r.detection.box, sx, sy)))
        for r in reads
    ]


def _scaled(box: Box, sx: float, sy: float) -> Box:
    """A box in the work image's pixels in the photo's (`sx`, `sy`: the photo's size over
    the work image's)."""
    x1, y1, x2, y2 = box
    return (x1 * sx, y1 * sy, x2 * sx, y2 * sy)


def teach_set(data: bytes, name: str = "") -> dict[str, Any]:
    """A photo of a set laid out in order (its file bytes) read into the set it teaches
    (`vision.tileset.taught`): `{"image", "set": [{"tile", "look", "box", "read"}],
    "agreed"}`, `agreed` the tiles the reader itself read as their places name them.
    PhotoError when the photo cannot be read or is not such a layout."""
    started = time.perf_counter()
    image = load_photo(data, name)
    tiles = taught(read_laid_out(image))
    return {
        "image": name,
        "set": tiles,
        "agreed": sum(t["read"] == t["tile"] for t in tiles),
        "elapsed_ms": round((time.perf_counter() - started) * 1000, 1),
    }


def recognize_path(
    path: str | os.PathLike,
    detector: TileFinder | DetectorFn | None = None,
    classifier: ClassifierFn | None = None,
    exemplars: Any = None,
) -> dict[str, Any]:
    """`recognize` for a file on disk (the size is checked before reading it)."""
    return recognize(photo_bytes(path), str(path), detector, classifier, exemplars)


def teach_path(path: str | os.PathLike) -> dict[str, Any]:
    """`teach_set` for a file on disk."""
    return teach_set(photo_bytes(path), str(path))


def photo_bytes(path: str | os.PathLike) -> bytes:
    """A photo file's bytes, its size checked before reading it; PhotoError when it cannot
    be read (a folder, a pipe, too large, unreadable)."""
    p = Path(path)
    try:
        if p.exists() and not p.is_dir() and not p.is_file():  # a pipe would be waited on
            raise PhotoError("unreadable_file", path=p, detail="not a regular file")
        if p.stat().st_size > MAX_BYTES:
            raise PhotoError("too_large.file", path=p, limit=MAX_BYTES // (1024 * 1024))
        return p.read_bytes()
    except IsADirectoryError as exc:
        raise PhotoError("unreadable_file.folder", path=p) from exc
    except OSError as exc:
        raise PhotoError("unreadable_file", path=p, detail=exc.strerror or exc) from exc
