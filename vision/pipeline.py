"""Photo bytes → recognition result (the JSON object of CONTRACTS.md "Recognition output").

The stages are plain functions on plain data: `load_photo` → detector
(→ `turn_to_rows` when the rows run near the diagonal; together
`Found.at`) → classifier (`vision.table.read_faces`; → `faint_backs`, a
kong's back found too faintly) → orienter → stacker (a tile lying on
another; together `Looked.at`) → the hand: a group of tiles read as one by
`vision.readhand.read_hand` (`read_layout`, then `decode`), a whole table's
hand picked among its groups by `vision.table` (`find_regions`,
`pick_hand`) and its area looked at again by the usual detector
(`hand_zoomed`) → `vision.result.assemble`, the contract's JSON object. The
models (`vision.readers`) are loaded once per process and shared
(onnxruntime sessions may run from several threads), so the web server can
answer requests concurrently.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import cached_property
from pathlib import Path
from typing import Any

import numpy as np

from scorer.tiles import BACK, CODES
from vision.config import DEFAULT, VisionConfig
from vision.detect import unstretch
from vision.errors import ModelError, PhotoError
from vision.exemplars import parse_exemplars
from vision.faint import faint_backs
from vision.handzoom import hand_area, hand_boxes, in_photo
from vision.photo import MAX_BYTES, load_photo
from vision.pieces import Piece
from vision.readers import (
    ClassifierFn,
    DetectorFn,
    OrienterFn,
    StackerFn,
    TileFinder,
    TileReader,
    as_finder,
    models,
)
from vision.readhand import HandReadings, Reading, read_hand, standing
from vision.regions import find_regions
from vision.result import assemble
from vision.table import glanced_first, hand_looked_again, pick_hand, read_faces
from vision.tileset import taught
from vision.turn import Turned, rows_tilt, turn_to_rows
from vision.types import Detection, TileRead

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
            classify = classifier.glance if glanced_first(classifier, reads, config) else classifier
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
    reading: Reading
    ignored: list[Piece]


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
    _, incomplete, warnings = standing(picked.reading)
    return not incomplete and warnings < config.hand_zoom.warnings


#: what a closer look at a table's hand gives: its tiles (in the photo's pixels) and their
#: reading (`read_hand`)
HandLook = tuple[list[TileRead], Reading]


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
    best is kept (`standing`: a hand where there was none, a complete one, fewer
    warnings; the first of equals), else the first reading stands; a complete hand read
    with few warnings (`_complete`) is not looked at again. A photo of one hand was
    looked at that way already."""
    every, chosen = picked.every, picked.chosen
    if len(every) <= config.regions.hand_most or not chosen or _complete(picked, config):
        return picked  # one hand's photo, no hand, or a complete hand read with few doubts
    best: HandLook | None = None
    rank = standing(picked.reading)
    looks = HandLooks(image, picked, finder, readers, config)
    for look in (looks.plain, looks.turned):
        seen = look()
        if seen is not None and standing(seen[1]) < rank:
            best, rank = seen, standing(seen[1])
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
